/* load.c - the per-file load / diff pipeline (see load.h). */
#include "load.h"
#include "load_int.h"

#include <inttypes.h>
#include <stdarg.h>
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "failpoint.h"
#include "fingerprint.h"
#include "keyset.h"
#include "loader_sql.h"
#include "mask.h"
#include "near.h"
#include "row.h"
#include "xmalloc.h"

/*
 * Why this shape (speed and exactly-once together):
 *
 * - Only what classification needs is staged (key, fingerprint and six
 *   small ACH fields), not the full rows: staging full rows and then
 *   INSERT ... SELECT ... ON CONFLICT writes every new row twice.  The new
 *   rows go once, by COPY, straight into clearing_record in pass 2.
 * - The unique index on clearing_record is the arbiter (principle 7).  If a
 *   concurrent loader commits one of "our" new keys between classification
 *   and pass 2, the COPY fails with 23505 (or two loaders deadlock: 40P01).
 *   Nothing has been committed, so the whole file is rolled back and
 *   retried; the retry classifies that key as a duplicate (or conflict).
 * - A retry does not use the COPY path again: it stages the new rows and
 *   inserts them ORDER BY (kind, natural_key) with ON CONFLICT DO NOTHING.
 *   Loaders that insert in one global key order cannot deadlock with each
 *   other, and ON CONFLICT waits for the other transaction instead of
 *   failing, so contended loads make progress.  A row skipped by ON
 *   CONFLICT (a key committed concurrently after our classification) is
 *   never dropped silently: it is journaled as a duplicate in the same
 *   transaction, or, if its content differs, the attempt rolls back and
 *   the next one holds (or quarantines) it as a conflict.
 * - The journal rows are written by one INSERT ... SELECT in the database;
 *   what comes back (ordinal, reason) fills two bitmaps (1 bit per record),
 *   so memory stays constant per record.
 */

#define DEFAULT_RETRIES 8
#define PROGRESS_EVERY 16384
/* The hint of a file_changed error: what lets the load succeed. */
#define HINT_FILE_CHANGED                                                                   \
	"load a file only once whoever writes it has finished (have it moved into place "  \
	"when complete, or load a copy), then load it again"

const char *cl_outcome_name(enum cl_outcome o)
{
	switch (o) {
	case CL_OUTCOME_NONE: return "diff";
	case CL_OUTCOME_COMMITTED: return "committed";
	case CL_OUTCOME_REJECTED: return "rejected";
	case CL_OUTCOME_HELD: return "held";
	case CL_OUTCOME_QUARANTINED: return "quarantined";
	case CL_OUTCOME_UNKNOWN: return "unknown";
	case CL_OUTCOME_FAILED: return "failed";
	}
	return "unknown";
}

const char *cl_action_name(enum cl_action a)
{
	switch (a) {
	case CL_ACTION_NEW: return "new";
	case CL_ACTION_DUPLICATE: return "duplicate";
	case CL_ACTION_CONFLICT: return "conflict";
	case CL_ACTION_INVALID: return "invalid";
	}
	return "invalid";
}

static double elapsed(const struct load *L)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - L->t0.tv_sec) + (double)(t.tv_nsec - L->t0.tv_nsec) / 1e9;
}

static void note(struct load *L, const char *fmt, ...) CL_PRINTF(2, 3);
static void note(struct load *L, const char *fmt, ...)
{
	struct cl_error e;
	char msg[CL_MSGTEXT_MAX];
	va_list ap;

	if (!L->h->on_note)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	cl_error_set(&e, cl_input_name(L->in), 0, "note", "%s", msg);
	L->h->on_note(L->h->ctx, &e);
}

enum cl_db_status cl_load_exec0(struct load *L, const char *sql)
{
	return cl_db_exec(L->db, sql, 0, NULL, NULL, &L->r->err);
}

static void rollback(struct load *L)
{
	struct cl_error ignored;

	if (L->db->conn && PQstatus(L->db->conn) == CONNECTION_OK &&
	    PQtransactionStatus(L->db->conn) != PQTRANS_IDLE)
		if (cl_db_exec(L->db, CL_SQL_DB_ROLLBACK, 0, NULL, NULL, &ignored) != CL_DB_OK)
			cl_db_close(L->db); /* unusable: the next file reconnects */
}

/* Open a parser on the (rewound) input. */
enum cl_status cl_load_open_parser(struct load *L, bool rewind, struct cl_parser **p,
				  struct cl_error *err)
{
	if (rewind && cl_input_rewind(L->in, err) != CL_OK)
		return CL_IO;
	return cl_parser_open(L->in, &L->o->parse, p, err);
}

/* After a parser's CL_END: read whatever it left so the SHA-256 is final. */
static void drain(struct load *L)
{
	char buf[4096];
	struct cl_error e;

	while (cl_input_read(L->in, buf, sizeof(buf), &e) > 0)
		;
}

/* ---- the clearing_load row ---- */

static enum cl_db_status insert_load_row(struct load *L)
{
	const char *p[3] = { L->r->load_uuid, L->o->tenant, cl_input_name(L->in) };
	PGresult *res;
	enum cl_db_status st;

	st = cl_db_exec(L->db, CL_SQL_LOAD_INSERT_ROW, 3, p, &res, &L->r->err);
	if (st != CL_DB_OK)
		return st;
	snprintf(L->load_id, sizeof(L->load_id), "%s", PQgetvalue(res, 0, 0));
	PQclear(res);
	p[0] = L->o->tenant;
	p[1] = L->load_id;
	/* COPY takes no parameters: the classification queries read these */
	return cl_db_exec(L->db, CL_SQL_LOAD_SET_CONTEXT, 2, p, NULL, &L->r->err);
}

static enum cl_db_status update_load_row(struct load *L, const char *outcome)
{
	struct cl_load_result *r = L->r;
	char size[24], recs[24], nnew[24], ndup[24], ncon[24], ninv[24], retries[16];
	const char *p[17];

	snprintf(size, sizeof(size), "%llu", r->bytes);
	snprintf(recs, sizeof(recs), "%lu", r->records);
	snprintf(nnew, sizeof(nnew), "%lu", r->new_count);
	snprintf(ndup, sizeof(ndup), "%lu", r->duplicate_count);
	snprintf(ncon, sizeof(ncon), "%lu", r->conflict_count);
	snprintf(ninv, sizeof(ninv), "%lu", r->invalid_count);
	snprintf(retries, sizeof(retries), "%u", r->retries);
	p[0] = L->load_id;
	p[1] = size;
	p[2] = r->sha256[0] ? r->sha256 : NULL;
	p[3] = L->info.format_name[0] ? L->info.format_name : NULL;
	p[4] = L->info.message_type[0] ? L->info.message_type : NULL;
	p[5] = L->info.sender[0] ? L->info.sender : NULL;
	p[6] = L->info.receiver[0] ? L->info.receiver : NULL;
	p[7] = L->info.created[0] ? L->info.created : NULL;
	p[8] = L->info.file_id[0] ? L->info.file_id : NULL;
	p[9] = recs;
	p[10] = nnew;
	p[11] = ndup;
	p[12] = ncon;
	p[13] = ninv;
	p[14] = outcome;
	p[15] = r->reason[0] ? r->reason : NULL;
	p[16] = retries;
	return cl_db_exec(L->db, CL_SQL_LOAD_UPDATE_ROW, 17, p, NULL, &r->err);
}

/* A rejected file: its own small transaction records the attempt. */
static void record_rejected(struct load *L)
{
	struct cl_load_result *r = L->r;
	enum cl_db_status st;

	r->outcome = CL_OUTCOME_REJECTED;
	r->new_count = r->duplicate_count = r->conflict_count = 0;
	rollback(L);
	if (L->o->dry_run)
		return;
	if ((st = cl_load_exec0(L, CL_SQL_DB_BEGIN)) == CL_DB_OK &&
	    (st = insert_load_row(L)) == CL_DB_OK &&
	    (st = update_load_row(L, "rejected")) == CL_DB_OK &&
	    (st = cl_load_exec0(L, CL_SQL_DB_COMMIT)) == CL_DB_OK) {
		r->load_id = strtoll(L->load_id, NULL, 10);
		return;
	}
	rollback(L);
	/* the file is still rejected; the missing row is a database problem */
	r->load_id = 0;
}

/* ---- pass 1: stage keys and fingerprints ---- */

/* The key as the journal keeps it: no account numbers in the journal. */
static void copy_journal_key(struct cl_copy_in *c, const struct cl_record *rec)
{
	char masked[CL_KEY_MAX];

	if (cl_mask_record_key(rec, rec->natural_key, masked, sizeof(masked)))
		cl_copy_text(c, masked, false, false);
	else
		cl_copy_raw(c, "\t\\N", 3);
}

static void stage_row(struct cl_copy_in *c, const struct cl_record *rec, unsigned long ordinal)
{
	char b[64], hex[65];
	int n;

	n = snprintf(b, sizeof(b), "%lu\t%lu\t", ordinal, rec->position);
	cl_copy_raw(c, b, (size_t)n);
	cl_copy_text(c, rec->kind, true, false);
	cl_copy_text(c, rec->natural_key, false, false);
	cl_hex32(rec->fingerprint, hex);
	cl_copy_raw(c, "\t\\\\x", 4);
	cl_copy_raw(c, hex, 64);
	copy_journal_key(c, rec);
	cl_copy_text(c, rec->alt_key, false, true);
	cl_copy_text(c, rec->alt_key2, false, true);
	if (rec->has_alt_fp) {
		cl_hex32(rec->alt_fp, hex);
		cl_copy_raw(c, "\t\\\\x", 4);
		cl_copy_raw(c, hex, 64);
	} else {
		cl_copy_raw(c, "\t\\N", 3);
	}
	cl_copy_row_end(c);
}

/* An ACH record's near-duplicate row: its near identity and date
 * (rules/near.h), and the originator and trace the other ACH key rule
 * compares (classify.c RULE_SQL). */
static void near_row(struct cl_copy_in *c, const struct cl_record *rec, unsigned long ordinal)
{
	char b[64], near[CL_NEAR_KEY_MAX];
	int n;

	n = snprintf(b, sizeof(b), "%lu\t%lu\t", ordinal, rec->position);
	cl_copy_raw(c, b, (size_t)n);
	cl_copy_text(c, rec->kind, true, false);
	cl_copy_text(c, rec->natural_key, false, false);
	copy_journal_key(c, rec);
	cl_copy_text(c, rec->company_id, false, true);
	cl_copy_text(c, rec->trace_number, false, true);
	cl_copy_text(c, rec->value_date, false, true);
	cl_near_key(rec, near, sizeof(near));
	cl_copy_text(c, near, false, false);
	cl_copy_row_end(c);
}

/* The near stage tables: NEAR_ROWS go to cl_unmatched (classify.c),
 * ACH_ROWS to cl_ach (in_file_near_duplicates). */
#define NEAR_STAGE(T)                                                                         \
	"CREATE TEMPORARY TABLE " T " (ordinal bigint NOT NULL, position bigint NOT NULL,"     \
	" kind text NOT NULL, natural_key text COLLATE \"C\" NOT NULL, journal_key text,"      \
	" company_id text, trace_number text, value_date date,"                               \
	" near_key text COLLATE \"C\" NOT NULL) ON COMMIT DROP"
#define NEAR_COPY(T)                                                                          \
	"COPY pg_temp." T " (ordinal, position, kind, natural_key, journal_key, company_id,"   \
	" trace_number, value_date, near_key) FROM STDIN"

enum cl_db_status cl_load_stage_near(struct load *L, enum which which, unsigned long *copied)
{
	bool unmatched = which == NEAR_ROWS;
	enum cl_db_status st;

	st = cl_load_exec0(L, unmatched ? NEAR_STAGE("cl_unmatched") : NEAR_STAGE("cl_ach"));
	if (st != CL_DB_OK)
		return st;
	return cl_load_copy_rows(L, which, unmatched ? NEAR_COPY("cl_unmatched") : NEAR_COPY("cl_ach"),
				 copied);
}

/* A data error the database found in the file (two of its records are one
 * payment): counted, reported, the first one kept as the reason. */
static void in_file_error(struct load *L, struct cl_error *e, unsigned long first)
{
	e->other_line = first;
	if (!L->r->invalid_count)
		snprintf(L->r->reason, sizeof(L->r->reason), "line %lu: %.480s", e->line,
			 e->message);
	L->r->invalid_count++;
	L->h->on_error(L->h->ctx, e);
}

/* Parse the whole file, staging every record.  Returns CL_DB_OK with
 * r->invalid_count > 0 when the file is invalid (the COPY was aborted). */
/* Two records of one file with the same key make the file invalid: it
 * cannot be deduplicated safely (issue 4).  The ACH parser proves it for
 * NACHA files in constant memory (trace order, per-batch ranges); the ISO
 * parser keeps no per-file key set, so the staged keys are checked here,
 * before anything is classified or applied (review 21: such a file was
 * taken for a race and half applied). */
static enum cl_db_status in_file_duplicates(struct load *L)
{
	PGresult *res;
	enum cl_db_status st;
	int i, n;

	/* and one payment under two natural keys (alt_key, record.h: sent
	   with and without its UETR; same content) */
	st = cl_db_exec(L->db, CL_SQL_LOAD_IN_FILE_DUPLICATES, 0, NULL, &res, &L->r->err);
	if (st != CL_DB_OK)
		return st;
	n = PQntuples(res);
	for (i = 0; i < n; i++) {
		struct cl_error e;
		unsigned long first = strtoul(PQgetvalue(res, i, 0), NULL, 10);
		unsigned long last = strtoul(PQgetvalue(res, i, 1), NULL, 10);

		if (strcmp(PQgetvalue(res, i, 4), "t") == 0)
			cl_error_set(&e, L->path, last, "duplicate_alt_key",
				     "one payment (alternate key \"%.200s\", same content) appears "
				     "under %s natural keys in this file (first on line %lu): the file "
				     "cannot be deduplicated safely",
				     PQgetvalue(res, i, 3), PQgetvalue(res, i, 2), first);
		else
			cl_error_set(&e, L->path, last, "duplicate_key",
				     "natural key \"%.200s\" appears %s times in this file (first on "
				     "line %lu): the file cannot be deduplicated safely",
				     PQgetvalue(res, i, 3), PQgetvalue(res, i, 2), first);
		cl_keyset_duplicate_hint(&e, strcmp(PQgetvalue(res, i, 4), "t") == 0);
		in_file_error(L, &e, first);
	}
	PQclear(res);
	return CL_DB_OK;
}

/* One ACH payment twice in the same file under two keys: an entry and a
 * re-dated copy of it, the same entry in two batches (under
 * --ach-key=batch the keys differ), a return or NOC re-dated.  The unique
 * index lets both through, and near duplicates are otherwise looked for
 * among applied records only.  The file is rejected like a file with one
 * key twice, both lines named.  Runs only when one originator's trace runs
 * overlap (trace_ranges.h) or the file has two returns or NOCs: the file's
 * ACH records are read again with their near identities (rules/near.h)
 * and every pair of one identity is compared, as validate does
 * (cmd/walk.c). */
static const char in_file_near_sql[] =
	"SELECT a.position, b.position, a.value_date, b.value_date, a.kind"
	" FROM pg_temp.cl_ach a JOIN pg_temp.cl_ach b"
	"  ON b.kind = a.kind AND b.near_key = a.near_key"
	" WHERE b.ordinal > a.ordinal AND b.natural_key <> a.natural_key"
	"  AND public.clearing_near_dates(a.value_date, b.value_date)"
	" ORDER BY 1, 2 LIMIT 10";

static enum cl_db_status in_file_near_duplicates(struct load *L)
{
	PGresult *res;
	enum cl_db_status st;
	unsigned long copied;
	int i, n;

	if ((st = cl_load_stage_near(L, ACH_ROWS, &copied)) != CL_DB_OK)
		return st;
	st = cl_db_exec(L->db, in_file_near_sql, 0, NULL, &res, &L->r->err);
	if (st != CL_DB_OK)
		return st;
	n = PQntuples(res);
	for (i = 0; i < n; i++) {
		struct cl_error e;
		unsigned long first = strtoul(PQgetvalue(res, i, 0), NULL, 10);
		unsigned long last = strtoul(PQgetvalue(res, i, 1), NULL, 10);

		cl_near_in_file_error(&e, L->path, PQgetvalue(res, i, 4), first,
				      PQgetvalue(res, i, 2), last, PQgetvalue(res, i, 3));
		in_file_error(L, &e, first);
	}
	PQclear(res);
	return CL_DB_OK;
}

/* Hold an advisory lock on the load UUID for the whole transaction, so
 * that `clearing-load loads --uuid` can tell "still committing" from
 * "never committed" after a lost connection (see cl_history_lock_uuid). */
static enum cl_db_status lock_uuid(struct load *L)
{
	const char *p[1] = { L->r->load_uuid };

	return cl_db_exec(L->db, CL_SQL_LOAD_LOCK_UUID, 1, p, NULL, &L->r->err);
}

static enum cl_db_status pass1(struct load *L, bool rewind)
{
	struct cl_load_result *r = L->r;
	struct cl_parser *p = NULL;
	struct cl_copy_in *c = cl_xmalloc(sizeof(*c));
	const struct cl_record *rec;
	struct cl_error e;
	enum cl_status ps;
	enum cl_db_status st;
	bool copying;

	r->records = r->invalid_count = 0;
	L->ncompanies = 0;
	L->has_alt = false;
	L->nreturns = 0;
	cl_trace_ranges_reset(&L->traces);
	st = cl_load_exec0(L, CL_SQL_LOAD_CREATE_STAGE);
	if (st == CL_DB_OK)
		st = cl_copy_in_begin(c, L->db, CL_SQL_LOAD_COPY_STAGE, &r->err);
	if (st != CL_DB_OK) {
		free(c);
		return st;
	}
	copying = true;
	ps = cl_load_open_parser(L, rewind, &p, &e);
	if (ps != CL_OK) {
		r->invalid_count++;
		L->h->on_error(L->h->ctx, &e);
		snprintf(r->reason, sizeof(r->reason), "%.511s", e.message);
	}
	while (p && (ps = cl_parser_next(p, &rec, &e)) != CL_END) {
		switch (ps) {
		case CL_OK:
			r->records++;
			if (copying)
				stage_row(c, rec, r->records);
			if (rec->alt_key[0])
				L->has_alt = true;
			if (rec->kind[0] == 'a' && strcmp(rec->kind, "ach.entry") != 0)
				L->nreturns++; /* ach.return, ach.noc */
			if (rec->kind[4] == 'e' && strcmp(rec->kind, "ach.entry") == 0) {
				cl_load_note_company(L, rec->company_id);
				cl_trace_ranges_add(&L->traces, rec);
			}
			if (L->h->on_progress && r->records % PROGRESS_EVERY == 0)
				L->h->on_progress(L->h->ctx, 1, r->records, cl_input_raw_bytes(L->in));
			break;
		case CL_NOTE:
			if (L->h->on_note)
				L->h->on_note(L->h->ctx, &e);
			break;
		default: /* CL_INVALID, CL_IO: nothing from this file is applied */
			if (!r->invalid_count && e.line)
				snprintf(r->reason, sizeof(r->reason), "line %lu: %.511s", e.line,
					 e.message);
			else if (!r->invalid_count)
				snprintf(r->reason, sizeof(r->reason), "%.511s", e.message);
			r->invalid_count++;
			L->h->on_error(L->h->ctx, &e);
			if (copying) {
				cl_copy_in_abort(c, "invalid file");
				copying = false;
			}
			break;
		}
	}
	if (p) {
		L->info = *cl_parser_info(p);
		drain(L);
	}
	cl_parser_free(p);
	r->bytes = cl_input_raw_bytes(L->in);
	snprintf(r->sha256, sizeof(r->sha256), "%s", cl_input_sha256_hex(L->in));
	snprintf(L->pass1_sha, sizeof(L->pass1_sha), "%s", r->sha256);
	snprintf(r->format, sizeof(r->format), "%s", L->info.format_name);
	snprintf(r->message_type, sizeof(r->message_type), "%s", L->info.message_type);
	if (!copying) {
		free(c);
		return CL_DB_OK;
	}
	if (r->invalid_count) { /* the parser could not even open the file */
		cl_copy_in_abort(c, "invalid file");
		free(c);
		return CL_DB_OK;
	}
	st = cl_copy_in_end(c, NULL, &r->err);
	free(c);
	/* the planner needs the row count and that keys are unique, not
	   fine histograms: a 3,000-row sample (17 ms) instead of 30,000
	   (120 ms for a million records) */
	if (st == CL_DB_OK)
		st = cl_load_exec0(L, CL_SQL_LOAD_STAGE_STATISTICS);
	if (st == CL_DB_OK)
		st = cl_load_exec0(L, CL_SQL_LOAD_ANALYZE_STAGE);
	/* NACHA files: the parser proves keys unique in constant memory, so
	   the staged keys are grouped only on a retry, where a key twice in
	   the file would otherwise pass for a concurrent load (23505) */
	if (st == CL_DB_OK && (L->info.format != CL_FORMAT_ACH || r->retries > 0))
		st = in_file_duplicates(L);
	if (st == CL_DB_OK && !r->invalid_count &&
	    (cl_trace_ranges_maybe_near(&L->traces) || L->nreturns > 1))
		st = in_file_near_duplicates(L);
	return st;
}

/* ---- re-reading the file: pass 2 and the conflicts pass ---- */

/* COPY the records selected by `which` (full rows) with `copy_sql`.  The
 * file must read as it did in pass 1 (same SHA-256), or nothing is
 * applied. */
enum cl_db_status cl_load_copy_rows(struct load *L, enum which which, const char *copy_sql,
				   unsigned long *copied)
{
	struct cl_load_result *r = L->r;
	struct cl_parser *p = NULL;
	struct cl_copy_in *c = cl_xmalloc(sizeof(*c));
	const struct cl_record *rec;
	struct cl_error e;
	enum cl_status ps;
	enum cl_db_status st;
	unsigned long seen = 0;

	*copied = 0;
	st = cl_copy_in_begin(c, L->db, copy_sql, &r->err);
	if (st != CL_DB_OK) {
		free(c);
		return st;
	}
	if (cl_load_open_parser(L, true, &p, &e) != CL_OK) {
		cl_copy_in_abort(c, "could not read the file again");
		free(c);
		r->err = e;
		return CL_DB_ERROR;
	}
	while ((ps = cl_parser_next(p, &rec, &e)) != CL_END) {
		bool take;

		if (ps == CL_NOTE)
			continue;
		if (ps != CL_OK) {
			/* pass 1 read it without an error: it changed (review 39:
			   the parser's message alone did not say so) */
			cl_copy_in_abort(c, "the file changed while it was loaded");
			cl_parser_free(p);
			free(c);
			cl_error_set(&r->err, cl_input_name(L->in), e.line, "file_changed",
				     "the file changed while it was loaded (line %lu now reads: %.300s): "
				     "nothing applied",
				     e.line, e.message);
			cl_error_hint(&r->err, HINT_FILE_CHANGED);
			return CL_DB_ERROR;
		}
		seen++;
		switch (which) {
		case NEW_ROWS:
			take = !bit_test(&L->matched, seen);
			break;
		case CONFLICT_ROWS:
			take = bit_test(&L->conflicts, seen);
			break;
		case ACH_ROWS:
			take = cl_near_applies(rec->kind);
			break;
		default:
			take = !bit_test(&L->matched, seen) && cl_near_applies(rec->kind);
			break;
		}
		if (!take)
			continue;
		if (which == NEAR_ROWS || which == ACH_ROWS)
			near_row(c, rec, seen);
		else
			cl_row_copy(c, rec, seen, L->o->tenant, L->load_id);
		if (++*copied == 1 && which == NEW_ROWS)
			CL_FAILPOINT("mid_copy", L->db->conn);
		if (L->h->on_progress && seen % PROGRESS_EVERY == 0)
			L->h->on_progress(L->h->ctx, 2, seen, cl_input_raw_bytes(L->in));
	}
	cl_parser_free(p);
	drain(L);
	if (seen != r->records || strcmp(cl_input_sha256_hex(L->in), L->pass1_sha) != 0) {
		cl_copy_in_abort(c, "the file changed while it was loaded");
		free(c);
		cl_error_set(&r->err, cl_input_name(L->in), 0, "file_changed",
			     "the file changed while it was loaded (SHA-256 or record count differs "
			     "between passes): nothing applied");
		cl_error_detail(&r->err,
				"first pass %lu records, SHA-256 %s; second pass %lu records, "
				"SHA-256 %s",
				r->records, L->pass1_sha, seen, cl_input_sha256_hex(L->in));
		cl_error_hint(&r->err, HINT_FILE_CHANGED);
		return CL_DB_ERROR;
	}
	st = cl_copy_in_end(c, NULL, &r->err);
	free(c);
	return st;
}

/* The differing fields of each conflict, named in its journal row, and
 * (quarantine) the conflicting records parked with their full content. */
static const char explain_sql[] = CL_SQL_LOAD_EXPLAIN;

/* A version already parked (same key, same fingerprint) is not parked
 * again: a re-run must not put one payment twice in the queue someone
 * works through; its journal row says what happened. */
static const char quarantine_sql[] = CL_SQL_LOAD_QUARANTINE;

static enum cl_db_status explain_conflicts(struct load *L)
{
	unsigned long copied;
	enum cl_db_status st;

	st = cl_load_exec0(L, CL_SQL_LOAD_CREATE_CONFLICT);
	if (st != CL_DB_OK)
		return st;
	st = cl_load_copy_rows(L, CONFLICT_ROWS, CL_SQL_LOAD_COPY_CONFLICT, &copied);
	if (st != CL_DB_OK)
		return st;
	if ((st = cl_load_exec0(L, explain_sql)) != CL_DB_OK)
		return st;
	if (L->o->on_conflict == CL_ON_CONFLICT_QUARANTINE)
		st = cl_load_exec0(L, quarantine_sql);
	return st;
}

/* The ordered path skipped `skipped` records: another loader committed
 * their keys after our classification (ON CONFLICT DO NOTHING waited for
 * it).  They are visible now: journal them like the classification would
 * have.  Duplicates keep this attempt going (progress under contention);
 * a conflict, or a count that does not add up, rolls the attempt back to
 * be classified from scratch (held or quarantined by the usual path). */
static int on_raced(void *ctx, char **f, int nf)
{
	struct load *L = ctx;

	if (nf < 2 || !f[0] || !f[1])
		return 0;
	bit_set(&L->matched, strtoul(f[0], NULL, 10));
	if (strcmp(f[1], "duplicate") == 0)
		L->raced_dup++;
	else
		L->raced_conflict++;
	return 0;
}

static enum cl_db_status journal_raced(struct load *L, unsigned long skipped)
{
	enum cl_db_status st;

	L->raced_dup = L->raced_conflict = 0;
	st = cl_copy_out(L->db, CL_SQL_LOAD_JOURNAL_RACED, on_raced, L, &L->r->err);
	if (st != CL_DB_OK)
		return st;
	if (L->raced_conflict || L->raced_dup != skipped) {
		cl_error_set(&L->r->err, cl_input_name(L->in), 0, "race",
			     "%lu records were applied by another load meanwhile, %lu with other "
			     "content",
			     skipped, L->raced_conflict);
		snprintf(L->r->err.sqlstate, sizeof(L->r->err.sqlstate), "23505");
		return CL_DB_RETRY;
	}
	L->r->new_count -= skipped;
	L->r->duplicate_count += skipped;
	return CL_DB_OK;
}

/* Pass 2: the new records into clearing_record. */
static enum cl_db_status apply_new(struct load *L)
{
	unsigned long copied;
	enum cl_db_status st;
	PGresult *res;

	if (L->r->new_count == 0)
		return CL_DB_OK;
	if (!L->ordered_path) {
		st = cl_load_copy_rows(L, NEW_ROWS, CL_SQL_LOAD_COPY_NEW, &copied);
		if (st == CL_DB_OK && copied != L->r->new_count) {
			cl_error_set(&L->r->err, cl_input_name(L->in), 0, "file_changed",
				     "pass 2 found %lu new records, classification %lu: nothing applied",
				     copied, L->r->new_count);
			cl_error_hint(&L->r->err, HINT_FILE_CHANGED);
			return CL_DB_ERROR;
		}
		return st;
	}
	st = cl_load_exec0(L, CL_SQL_LOAD_CREATE_NEW);
	if (st != CL_DB_OK)
		return st;
	st = cl_load_copy_rows(L, NEW_ROWS, CL_SQL_LOAD_COPY_NEW_STAGED, &copied);
	if (st != CL_DB_OK)
		return st;
	st = cl_db_exec(L->db, CL_SQL_LOAD_INSERT_NEW_ORDERED, 0, NULL, &res, &L->r->err);
	if (st != CL_DB_OK)
		return st;
	copied = strtoul(PQgetvalue(res, 0, 0), NULL, 10);
	PQclear(res);
	if (copied == L->r->new_count)
		return CL_DB_OK;
	return journal_raced(L, L->r->new_count - copied);
}

/* The reason of a held or quarantined load, for `loads` at 3 a.m.: the
 * conflicts (same key, other content) and the near duplicates (the same
 * payment under another key) named apart (review 2, R2-24). */
static void conflict_reason(struct load *L, const char *what)
{
	struct cl_load_result *r = L->r;
	unsigned long near = L->near_count, same = r->conflict_count - L->near_count;
	char a[96] = "", b[112] = "";

	if (same)
		snprintf(a, sizeof(a), "%lu conflicting record%s (same key, different content)",
			 same, same == 1 ? "" : "s");
	if (near)
		snprintf(b, sizeof(b), "%lu near duplicate%s (the same payment under another key)",
			 near, near == 1 ? "" : "s");
	snprintf(r->reason, sizeof(r->reason), "%s%s%s: %s", a, same && near ? " and " : "", b,
		 what);
}

/* ---- one attempt at the whole file ---- */

static enum cl_db_status attempt(struct load *L, bool rewind)
{
	struct cl_load_result *r = L->r;
	enum cl_db_status st;
	const char *outcome;

	r->reason[0] = '\0';
	r->new_count = r->duplicate_count = r->conflict_count = 0;
	L->in_commit = false;
	/* work_mem: the exact-key join hashes the file's keys; at the
	   server's default (4 MB) a million keys spill to 16 batches on disk
	   (0.3-0.5 s more).  For this transaction only. */
	if ((st = cl_load_exec0(L, CL_SQL_DB_BEGIN)) != CL_DB_OK ||
	    (st = cl_load_exec0(L, CL_SQL_LOAD_WORK_MEM)) != CL_DB_OK ||
	    (st = lock_uuid(L)) != CL_DB_OK || (st = insert_load_row(L)) != CL_DB_OK)
		return st;
	CL_FAILPOINT("after_load_row", L->db->conn);
	if ((st = pass1(L, rewind)) != CL_DB_OK)
		return st;
	if (r->invalid_count) {
		record_rejected(L);
		return CL_DB_OK;
	}
	/* diff takes no originator locks: a dry run whose plan is streamed to
	   a slow (or stopped) reader must never hold up real loads (review
	   43); its near-duplicate answer is a prediction anyway */
	if ((!L->o->dry_run && (st = cl_load_lock_originators(L)) != CL_DB_OK) ||
	    (st = cl_load_classify(L)) != CL_DB_OK)
		return st;
	if (r->conflict_count && (st = explain_conflicts(L)) != CL_DB_OK)
		return st;
	if (L->o->dry_run) {
		if (L->h->on_plan && (st = cl_load_plan(L)) != CL_DB_OK)
			return st;
		rollback(L);
		r->outcome = CL_OUTCOME_NONE;
		return CL_DB_OK;
	}
	if (r->conflict_count && L->o->on_conflict == CL_ON_CONFLICT_HOLD) {
		/* nothing is applied; the attempt and its conflicts are kept */
		conflict_reason(L, "file held, nothing applied");
		st = cl_load_exec0(L, CL_SQL_LOAD_FORGET_DUPLICATES);
		if (st != CL_DB_OK)
			return st;
		r->outcome = CL_OUTCOME_HELD;
		outcome = "held";
	} else {
		if ((st = apply_new(L)) != CL_DB_OK)
			return st;
		CL_FAILPOINT("after_insert", L->db->conn);
		if (r->conflict_count) {
			conflict_reason(L, "quarantined");
			r->outcome = CL_OUTCOME_QUARANTINED;
			outcome = "quarantined";
		} else {
			r->outcome = CL_OUTCOME_COMMITTED;
			outcome = "committed";
		}
	}
	if ((st = update_load_row(L, outcome)) != CL_DB_OK)
		return st;
	st = cl_load_commit(L);
	if (st == CL_DB_OK) {
		r->load_id = strtoll(L->load_id, NULL, 10);
		CL_FAILPOINT("after_commit", L->db->conn);
	}
	return st;
}

static void fail(struct load *L, enum cl_outcome o)
{
	L->r->outcome = o;
	L->r->load_id = 0;
	if (!L->r->reason[0])
		snprintf(L->r->reason, sizeof(L->r->reason), "%.511s", L->r->err.message);
}

void cl_load_file(struct cl_db *db, const char *path, const struct cl_load_opts *opts,
		  const struct cl_load_hooks *hooks, struct cl_load_result *res)
{
	struct load L;
	struct cl_error e;
	enum cl_db_status st;
	unsigned max = opts->max_retries ? opts->max_retries : DEFAULT_RETRIES;

	memset(res, 0, sizeof(*res));
	memset(&L, 0, sizeof(L));
	L.db = db;
	L.o = opts;
	L.h = hooks;
	L.r = res;
	L.path = path;
	clock_gettime(CLOCK_MONOTONIC, &L.t0);
	if (!cl_uuid_v4(res->load_uuid)) {
		cl_error_set(&res->err, path, 0, "random", "could not generate a load UUID");
		fail(&L, CL_OUTCOME_FAILED);
		goto out;
	}
	if (cl_input_open_spooled(path, &L.in, &e) != CL_OK) {
		hooks->on_error(hooks->ctx, &e);
		res->invalid_count = 1;
		snprintf(res->reason, sizeof(res->reason), "%.511s", e.message);
		if (!db->conn) {
			res->outcome = CL_OUTCOME_REJECTED;
			goto out;
		}
		L.in = cl_input_from_memory("", 0, 0, path);
		record_rejected(&L);
		goto out;
	}
	if (!db->conn || PQstatus(db->conn) != CONNECTION_OK) {
		/* an earlier file lost the connection: one new try */
		cl_db_close(db);
		if (cl_db_connect(db, db->conninfo, &res->err) != CL_DB_OK) {
			fail(&L, CL_OUTCOME_FAILED);
			goto out;
		}
	}
	for (;;) {
		st = attempt(&L, res->retries > 0);
		if (st == CL_DB_OK)
			break;
		rollback(&L);
		if (st == CL_DB_RETRY && res->retries < max && db->conn) {
			res->retries++;
			L.ordered_path = true;
			note(&L, "%s: nothing was committed, retrying the whole file (retry %u)",
			     res->err.message, res->retries);
			continue;
		}
		if (st == CL_DB_ERROR && strcmp(res->err.code, "file_changed") == 0) {
			/* nothing applied; the attempt is recorded (review 39) */
			hooks->on_error(hooks->ctx, &res->err);
			res->invalid_count = 1;
			snprintf(res->reason, sizeof(res->reason), "%.511s", res->err.message);
			record_rejected(&L);
			break;
		}
		if (st == CL_DB_ERROR && strncmp(res->err.sqlstate, "22", 2) == 0 && db->conn &&
		    PQstatus(db->conn) == CONNECTION_OK) {
			/* a data exception: the server refused a value of this
			   file that the parser let through (a CSV date that does
			   not exist, say): the file is invalid, not the database
			   (review 2, R2-9); nothing was applied */
			struct cl_error refused = res->err;

			refused.file = cl_input_name(L.in);
			hooks->on_error(hooks->ctx, &refused);
			res->invalid_count = 1;
			snprintf(res->reason, sizeof(res->reason),
				 "the database refused a value of this file: %.400s", refused.message);
			record_rejected(&L);
			break;
		}
		if (st == CL_DB_LOST && L.in_commit) {
			/* lost around COMMIT and unreachable: the third outcome */
			fail(&L, CL_OUTCOME_UNKNOWN);
			break;
		}
		fail(&L, CL_OUTCOME_FAILED);
		break;
	}
out:
	res->seconds = elapsed(&L);
	cl_input_free(L.in);
	free(L.matched.bits);
	free(L.companies);
	free(L.conflicts.bits);
	cl_trace_ranges_free(&L.traces);
}

