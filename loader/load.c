/* load.c - the per-file load / diff pipeline (see load.h). */
#include "load.h"

#include <inttypes.h>
#include <stdarg.h>
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "failpoint.h"
#include "fingerprint.h"
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
#define RECONNECT_ATTEMPTS 5

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

/* ---- a growable bitmap indexed by record ordinal ---- */

struct bitmap {
	unsigned char *bits;
	size_t nbytes;
};

static void bit_set(struct bitmap *b, unsigned long i)
{
	size_t byte = i / 8;

	if (byte >= b->nbytes) {
		size_t n = b->nbytes ? b->nbytes : 4096;

		while (n <= byte)
			n *= 2;
		b->bits = cl_xrealloc(b->bits, n);
		memset(b->bits + b->nbytes, 0, n - b->nbytes);
		b->nbytes = n;
	}
	b->bits[byte] |= (unsigned char)(1u << (i % 8));
}

static bool bit_test(const struct bitmap *b, unsigned long i)
{
	size_t byte = i / 8;

	return byte < b->nbytes && (b->bits[byte] & (1u << (i % 8)));
}

static void bit_clear_all(struct bitmap *b)
{
	if (b->bits)
		memset(b->bits, 0, b->nbytes);
}

/* ---- the state of one file ---- */

struct load {
	struct cl_db *db;
	const struct cl_load_opts *o;
	const struct cl_load_hooks *h;
	struct cl_load_result *r;
	const char *path;
	struct cl_input *in;
	char load_id[24];          /* of the current attempt, as text */
	struct cl_file_info info;  /* from pass 1 */
	char pass1_sha[65];
	struct bitmap matched;     /* ordinals with a journal row */
	struct bitmap conflicts;   /* ordinals that conflict */
	bool ordered_path;         /* retry: stage new rows, insert in key order */
	unsigned long raced_dup;   /* ordered path: skipped keys that turned */
	unsigned long raced_conflict; /* out duplicates / conflicts */
	bool in_commit;            /* COMMIT was sent: a lost connection now
	                              leaves the outcome to be found out */
	struct timespec t0;
	/* the originators (company ids) of the file's ACH entries, for the
	   near-duplicate locks; a growable array, sorted before use */
	char (*companies)[11];
	size_t ncompanies, companies_cap;
};

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

static enum cl_db_status exec0(struct load *L, const char *sql)
{
	return cl_db_exec(L->db, sql, 0, NULL, NULL, &L->r->err);
}

static void rollback(struct load *L)
{
	struct cl_error ignored;

	if (L->db->conn && PQstatus(L->db->conn) == CONNECTION_OK &&
	    PQtransactionStatus(L->db->conn) != PQTRANS_IDLE)
		if (cl_db_exec(L->db, "ROLLBACK", 0, NULL, NULL, &ignored) != CL_DB_OK)
			cl_db_close(L->db); /* unusable: the next file reconnects */
}

/* Open a parser on the (rewound) input. */
static enum cl_status open_parser(struct load *L, bool rewind, struct cl_parser **p,
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

	st = cl_db_exec(L->db,
			"INSERT INTO public.clearing_load (load_uuid, tenant, file_name, outcome, "
			"started_at) VALUES ($1, $2, $3, 'committed', now()) RETURNING load_id",
			3, p, &res, &L->r->err);
	if (st != CL_DB_OK)
		return st;
	snprintf(L->load_id, sizeof(L->load_id), "%s", PQgetvalue(res, 0, 0));
	PQclear(res);
	p[0] = L->o->tenant;
	p[1] = L->load_id;
	/* COPY takes no parameters: the classification queries read these */
	return cl_db_exec(L->db,
			  "SELECT pg_catalog.set_config('clearing_load.tenant', $1, true), "
			  "pg_catalog.set_config('clearing_load.load_id', $2, true)",
			  2, p, NULL, &L->r->err);
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
	return cl_db_exec(L->db,
			  "UPDATE public.clearing_load SET file_size = $2, sha256 = $3, format = $4, "
			  "message_type = $5, sender = $6, receiver = $7, file_created = $8, "
			  "file_id = $9, record_count = $10, new_count = $11, duplicate_count = $12, "
			  "conflict_count = $13, invalid_count = $14, outcome = $15, reason = $16, "
			  "retries = $17, finished_at = pg_catalog.clock_timestamp() "
			  "WHERE load_id = $1",
			  17, p, NULL, &r->err);
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
	if ((st = exec0(L, "BEGIN")) == CL_DB_OK && (st = insert_load_row(L)) == CL_DB_OK &&
	    (st = update_load_row(L, "rejected")) == CL_DB_OK && (st = exec0(L, "COMMIT")) == CL_DB_OK) {
		r->load_id = strtoll(L->load_id, NULL, 10);
		return;
	}
	rollback(L);
	/* the file is still rejected; the missing row is a database problem */
	r->load_id = 0;
}

/* ---- near duplicates and concurrency: originator locks ---- */

/*
 * A near duplicate has another key than the record it copies, so the unique
 * index cannot stop two concurrent loaders from applying both dates of one
 * payment.  ACH loaders therefore take a transaction-scoped advisory lock
 * per (tenant, originator) of the file before classifying: two loads that
 * share an originator run one after the other (the second sees the first's
 * records), loads of other originators run in parallel.  Locks are taken
 * in one global order (sorted company ids, after a shared tenant lock), so
 * they cannot deadlock; since ACH entry keys contain the originator, two
 * such loaders never wait on each other's rows either.  Over
 * MAX_COMPANY_LOCKS originators (the server's lock table is small), one
 * exclusive tenant-wide lock is taken instead.
 */
#define LOCK_CLASS "1129072716" /* "CLoL": any constant, never changed */
#define MAX_COMPANY_LOCKS 32

static void note_company(struct load *L, const char *company)
{
	size_t i;

	if (L->ncompanies && strcmp(L->companies[L->ncompanies - 1], company) == 0)
		return; /* entries come in batches of one originator */
	for (i = 0; i < L->ncompanies; i++)
		if (strcmp(L->companies[i], company) == 0)
			return;
	if (L->ncompanies > MAX_COMPANY_LOCKS)
		return; /* enough to know: a tenant-wide lock */
	if (L->ncompanies == L->companies_cap) {
		L->companies_cap = L->companies_cap ? 2 * L->companies_cap : 8;
		L->companies = cl_xrealloc(L->companies, L->companies_cap * sizeof(*L->companies));
	}
	snprintf(L->companies[L->ncompanies++], sizeof(L->companies[0]), "%s", company);
}

static int cmp_company(const void *a, const void *b)
{
	return strcmp(a, b);
}

static enum cl_db_status lock_originators(struct load *L)
{
	const char *p[2] = { L->o->tenant, NULL };
	bool wide = L->ncompanies > MAX_COMPANY_LOCKS;
	enum cl_db_status st;
	size_t i;

	if (!L->ncompanies)
		return CL_DB_OK;
	st = cl_db_exec(L->db,
			wide ? "SELECT pg_catalog.pg_advisory_xact_lock(" LOCK_CLASS ", "
			       "pg_catalog.hashtext($1))"
			     : "SELECT pg_catalog.pg_advisory_xact_lock_shared(" LOCK_CLASS ", "
			       "pg_catalog.hashtext($1))",
			1, p, NULL, &L->r->err);
	if (st != CL_DB_OK || wide)
		return st;
	qsort(L->companies, L->ncompanies, sizeof(L->companies[0]), cmp_company);
	for (i = 0; i < L->ncompanies && st == CL_DB_OK; i++) {
		p[1] = L->companies[i];
		st = cl_db_exec(L->db,
				"SELECT pg_catalog.pg_advisory_xact_lock(" LOCK_CLASS ", "
				"pg_catalog.hashtext($1 || '|' || $2))",
				2, p, NULL, &L->r->err);
	}
	return st;
}

/* ---- pass 1: stage keys and fingerprints ---- */

/* The key as the journal keeps it: no account numbers in the journal. */
static void copy_journal_key(struct cl_copy_in *c, const struct cl_record *rec)
{
	char masked[CL_KEY_MAX];

	if (cl_row_mask_key(rec, rec->natural_key, masked, sizeof(masked)))
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
	cl_copy_row_end(c);
}

/* An ACH entry without an exact match, for the near-duplicate search. */
static void near_row(struct cl_copy_in *c, const struct cl_record *rec, unsigned long ordinal)
{
	char b[64];
	int n;

	n = snprintf(b, sizeof(b), "%lu\t%lu\t", ordinal, rec->position);
	cl_copy_raw(c, b, (size_t)n);
	cl_copy_text(c, rec->natural_key, true, false);
	copy_journal_key(c, rec);
	cl_copy_text(c, rec->company_id, false, true);
	cl_copy_text(c, rec->trace_number, false, true);
	cl_copy_text(c, rec->receiving_account, false, true);
	cl_copy_text(c, rec->receiving_dfi, false, true);
	n = snprintf(b, sizeof(b), "\t%" PRId64, rec->amount_minor);
	cl_copy_raw(c, b, (size_t)n);
	cl_copy_text(c, rec->value_date, false, true);
	cl_copy_row_end(c);
}

/* Parse the whole file, staging every record.  Returns CL_DB_OK with
 * r->invalid_count > 0 when the file is invalid (the COPY was aborted). */
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
	st = exec0(L, "CREATE TEMPORARY TABLE cl_stage ("
		      " ordinal bigint NOT NULL, position bigint NOT NULL, kind text NOT NULL,"
		      " natural_key text COLLATE \"C\" NOT NULL, fingerprint bytea NOT NULL,"
		      " journal_key text) ON COMMIT DROP");
	if (st == CL_DB_OK)
		st = cl_copy_in_begin(c, L->db,
				      "COPY pg_temp.cl_stage (ordinal, position, kind, natural_key, "
				      "fingerprint, journal_key) FROM STDIN",
				      &r->err);
	if (st != CL_DB_OK) {
		free(c);
		return st;
	}
	copying = true;
	ps = open_parser(L, rewind, &p, &e);
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
			if (rec->kind[4] == 'e' && strcmp(rec->kind, "ach.entry") == 0)
				note_company(L, rec->company_id);
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
	if (st == CL_DB_OK)
		st = exec0(L, "ANALYZE pg_temp.cl_stage");
	return st;
}

/* ---- classification: journal rows in one statement ---- */

enum which { NEW_ROWS, CONFLICT_ROWS, NEAR_ROWS };
static enum cl_db_status copy_rows(struct load *L, enum which which, const char *copy_sql,
				   unsigned long *copied);

/* Exact key matches: one INSERT ... SELECT writes the journal rows and
 * streams back (ordinal, reason) for the conflicts, and for the duplicates
 * only when some records are new (pass 2 needs to know which), then one
 * (0, number of duplicates) row. */
static const char classify_sql[] =
	"COPY ("
	" WITH ins AS ("
	" INSERT INTO public.clearing_dedupe_event (load_id, ordinal, position, tenant, kind,"
	"   natural_key, reason, matched_key, matched_load_id, matched_ordinal, matched_position)"
	" SELECT pg_catalog.current_setting('clearing_load.load_id')::bigint, s.ordinal,"
	"   s.position, r.tenant, s.kind, coalesce(s.journal_key, s.natural_key),"
	"   CASE WHEN r.fingerprint = s.fingerprint THEN 'duplicate' ELSE 'conflict' END,"
	"   NULL, r.load_id, r.ordinal, r.position"
	" FROM pg_temp.cl_stage s"
	" JOIN public.clearing_record r"
	"   ON r.tenant = pg_catalog.current_setting('clearing_load.tenant')"
	"  AND r.kind = s.kind AND r.natural_key = s.natural_key"
	" RETURNING ordinal, reason)"
	" SELECT ordinal, reason FROM ins WHERE reason <> 'duplicate'"
	"  OR (SELECT count(*) FROM ins) <"
	"     pg_catalog.current_setting('clearing_load.records')::bigint"
	" UNION ALL SELECT 0, count(*)::text FROM ins WHERE reason = 'duplicate'"
	") TO STDOUT";

/* ACH near duplicates among the entries without an exact match (sent by
 * the client, re-reading the file, with their near-duplicate fields): a
 * hash join on the
 * near-duplicate fields, so no extra index slows every insert into
 * clearing_record.  Skipped when there is nothing to look for (an exact
 * re-upload, or a tenant without ACH entries yet). */
static const char near_sql[] =
	"COPY ("
	" INSERT INTO public.clearing_dedupe_event (load_id, ordinal, position, tenant, kind,"
	"   natural_key, reason, matched_key, matched_load_id, matched_ordinal, matched_position)"
	" SELECT DISTINCT ON (c.ordinal)"
	"   pg_catalog.current_setting('clearing_load.load_id')::bigint, c.ordinal, c.position,"
	"   r.tenant, r.kind, coalesce(c.journal_key, c.natural_key), 'near_duplicate',"
	"   r.natural_key, r.load_id, r.ordinal, r.position"
	" FROM pg_temp.cl_unmatched c"
	" JOIN public.clearing_record r"
	"   ON r.tenant = pg_catalog.current_setting('clearing_load.tenant')"
	"  AND r.kind = 'ach.entry' AND r.company_id = c.company_id"
	"  AND r.trace_number = c.trace_number AND r.receiving_account = c.receiving_account"
	"  AND r.receiving_dfi = c.receiving_dfi AND r.amount_minor = c.amount_minor"
	" WHERE r.value_date <> c.value_date"
	"   AND r.value_date BETWEEN c.value_date - 9 AND c.value_date + 9"
	"   AND public.clearing_banking_days(r.value_date, c.value_date) <= 5"
	" ORDER BY c.ordinal, abs(r.value_date - c.value_date), r.load_id, r.ordinal"
	" RETURNING ordinal, reason"
	") TO STDOUT";

static int on_classified(void *ctx, char **f, int nf)
{
	struct load *L = ctx;
	unsigned long ord;

	if (nf < 2 || !f[0] || !f[1])
		return 0;
	ord = strtoul(f[0], NULL, 10);
	if (ord == 0) { /* the number of duplicates */
		L->r->duplicate_count += strtoul(f[1], NULL, 10);
		return 0;
	}
	bit_set(&L->matched, ord);
	if (strcmp(f[1], "duplicate") == 0) {
		/* counted by the (0, n) row */
	} else {
		L->r->conflict_count++;
		bit_set(&L->conflicts, ord);
	}
	return 0;
}

/* Is a near-duplicate search worth it: ACH entries staged, and the tenant
 * has applied ACH entries? */
static enum cl_db_status near_wanted(struct load *L, bool *yes)
{
	PGresult *res;
	enum cl_db_status st;

	st = cl_db_exec(L->db,
			"SELECT EXISTS (SELECT 1 FROM pg_temp.cl_stage WHERE kind = 'ach.entry')"
			" AND EXISTS (SELECT 1 FROM public.clearing_record"
			"  WHERE tenant = pg_catalog.current_setting('clearing_load.tenant')"
			"  AND kind = 'ach.entry')",
			0, NULL, &res, &L->r->err);
	if (st != CL_DB_OK)
		return st;
	*yes = strcmp(PQgetvalue(res, 0, 0), "t") == 0;
	PQclear(res);
	return CL_DB_OK;
}

static enum cl_db_status near_duplicates(struct load *L)
{
	enum cl_db_status st;
	unsigned long copied;
	bool yes;

	if ((st = near_wanted(L, &yes)) != CL_DB_OK || !yes)
		return st;
	st = exec0(L, "CREATE TEMPORARY TABLE cl_unmatched (ordinal bigint NOT NULL,"
		      " position bigint NOT NULL, natural_key text COLLATE \"C\" NOT NULL,"
		      " journal_key text, company_id text, trace_number text,"
		      " receiving_account text, receiving_dfi text, amount_minor bigint,"
		      " value_date date) ON COMMIT DROP");
	if (st == CL_DB_OK)
		st = copy_rows(L, NEAR_ROWS,
			       "COPY pg_temp.cl_unmatched (ordinal, position, natural_key, journal_key,"
			       " company_id, trace_number, receiving_account, receiving_dfi,"
			       " amount_minor, value_date) FROM STDIN",
			       &copied);
	if (st == CL_DB_OK && copied) {
		if ((st = exec0(L, "ANALYZE pg_temp.cl_unmatched")) == CL_DB_OK)
			st = cl_copy_out(L->db, near_sql, on_classified, L, &L->r->err);
	}
	return st;
}

static enum cl_db_status classify(struct load *L)
{
	enum cl_db_status st;
	char records[24];
	const char *p[1] = { records };

	L->r->duplicate_count = L->r->conflict_count = 0;
	bit_clear_all(&L->matched);
	bit_clear_all(&L->conflicts);
	snprintf(records, sizeof(records), "%lu", L->r->records);
	st = cl_db_exec(L->db, "SELECT pg_catalog.set_config('clearing_load.records', $1, true)",
			1, p, NULL, &L->r->err);
	if (st == CL_DB_OK)
		st = cl_copy_out(L->db, classify_sql, on_classified, L, &L->r->err);
	if (st == CL_DB_OK && L->r->duplicate_count + L->r->conflict_count < L->r->records)
		st = near_duplicates(L);
	if (st != CL_DB_OK)
		return st;
	L->r->new_count = L->r->records - L->r->duplicate_count - L->r->conflict_count;
	CL_FAILPOINT("after_journal", L->db->conn);
	return CL_DB_OK;
}

/* ---- re-reading the file: pass 2 and the conflicts pass ---- */

/* COPY the records selected by `which` (full rows) with `copy_sql`.  The
 * file must read as it did in pass 1 (same SHA-256), or nothing is
 * applied. */
static enum cl_db_status copy_rows(struct load *L, enum which which, const char *copy_sql,
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
	if (open_parser(L, true, &p, &e) != CL_OK) {
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
			cl_copy_in_abort(c, "the file changed while it was loaded");
			cl_parser_free(p);
			free(c);
			r->err = e;
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
		default:
			take = !bit_test(&L->matched, seen) && strcmp(rec->kind, "ach.entry") == 0;
			break;
		}
		if (!take)
			continue;
		if (which == NEAR_ROWS)
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
		return CL_DB_ERROR;
	}
	st = cl_copy_in_end(c, NULL, &r->err);
	free(c);
	return st;
}

/* The differing fields of each conflict, named in its journal row, and
 * (quarantine) the conflicting records parked with their full content. */
static enum cl_db_status explain_conflicts(struct load *L)
{
	char sql[8192], copy_sql[4096];
	size_t n;
	unsigned i;
	unsigned long copied;
	enum cl_db_status st;

	st = exec0(L, "CREATE TEMPORARY TABLE cl_conflict "
		      "(LIKE public.clearing_record) ON COMMIT DROP");
	if (st != CL_DB_OK)
		return st;
	snprintf(copy_sql, sizeof(copy_sql), "COPY pg_temp.cl_conflict (%s) FROM STDIN",
		 cl_row_columns);
	if ((st = copy_rows(L, CONFLICT_ROWS, copy_sql, &copied)) != CL_DB_OK)
		return st;
	/* column names from a constant list, no values: safe to build */
	n = (size_t)snprintf(sql, sizeof(sql),
			     "UPDATE public.clearing_dedupe_event e SET fields = ARRAY(SELECT f FROM (VALUES ");
	for (i = 0; i < cl_row_compared_count; i++)
		n += (size_t)snprintf(sql + n, sizeof(sql) - n,
				      "%s('%s', c.%s IS DISTINCT FROM r.%s)", i ? ", " : "",
				      cl_row_compared[i].name, cl_row_compared[i].name,
				      cl_row_compared[i].name);
	snprintf(sql + n, sizeof(sql) - n,
		 ") AS d(f, differs) WHERE differs) "
		 "FROM pg_temp.cl_conflict c, public.clearing_record r "
		 "WHERE e.load_id = c.load_id AND e.ordinal = c.ordinal "
		 "AND r.tenant = e.tenant AND r.kind = c.kind "
		 "AND r.natural_key = coalesce(e.matched_key, c.natural_key)");
	if ((st = exec0(L, sql)) != CL_DB_OK)
		return st;
	if (L->o->on_conflict == CL_ON_CONFLICT_QUARANTINE) {
		snprintf(sql, sizeof(sql),
			 "INSERT INTO public.clearing_quarantine (%s) SELECT %s FROM pg_temp.cl_conflict",
			 cl_row_columns, cl_row_columns);
		st = exec0(L, sql);
	}
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
	st = cl_copy_out(L->db,
			 "COPY (INSERT INTO public.clearing_dedupe_event (load_id, ordinal, position,"
			 "  tenant, kind, natural_key, reason, matched_key, matched_load_id,"
			 "  matched_ordinal, matched_position)"
			 " SELECT n.load_id, n.ordinal, n.position, n.tenant, n.kind,"
			 "  coalesce(s.journal_key, s.natural_key),"
			 "  CASE WHEN r.fingerprint = n.fingerprint THEN 'duplicate' ELSE 'conflict' END,"
			 "  NULL, r.load_id, r.ordinal, r.position"
			 " FROM pg_temp.cl_new n"
			 " JOIN pg_temp.cl_stage s ON s.ordinal = n.ordinal"
			 " JOIN public.clearing_record r ON r.tenant = n.tenant AND r.kind = n.kind"
			 "  AND r.natural_key = n.natural_key AND r.load_id <> n.load_id"
			 " RETURNING ordinal, reason) TO STDOUT",
			 on_raced, L, &L->r->err);
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
	char sql[8192]; /* the column list appears twice: 1 KiB truncated it */
	unsigned long copied;
	enum cl_db_status st;
	PGresult *res;

	if (L->r->new_count == 0)
		return CL_DB_OK;
	if (!L->ordered_path) {
		snprintf(sql, sizeof(sql), "COPY public.clearing_record (%s) FROM STDIN",
			 cl_row_columns);
		st = copy_rows(L, NEW_ROWS, sql, &copied);
		if (st == CL_DB_OK && copied != L->r->new_count) {
			cl_error_set(&L->r->err, cl_input_name(L->in), 0, "file_changed",
				     "pass 2 found %lu new records, classification %lu: nothing applied",
				     copied, L->r->new_count);
			return CL_DB_ERROR;
		}
		return st;
	}
	st = exec0(L, "CREATE TEMPORARY TABLE cl_new "
		      "(LIKE public.clearing_record) ON COMMIT DROP");
	if (st != CL_DB_OK)
		return st;
	snprintf(sql, sizeof(sql), "COPY pg_temp.cl_new (%s) FROM STDIN", cl_row_columns);
	if ((st = copy_rows(L, NEW_ROWS, sql, &copied)) != CL_DB_OK)
		return st;
	snprintf(sql, sizeof(sql),
		 "WITH ins AS (INSERT INTO public.clearing_record (%s) "
		 "SELECT %s FROM pg_temp.cl_new ORDER BY kind, natural_key "
		 "ON CONFLICT (tenant, kind, natural_key) DO NOTHING RETURNING 1) "
		 "SELECT count(*) FROM ins",
		 cl_row_columns, cl_row_columns);
	if (strlen(sql) + 1 >= sizeof(sql)) {
		cl_error_set(&L->r->err, cl_input_name(L->in), 0, "internal",
			     "statement too long for its buffer: nothing applied");
		return CL_DB_ERROR;
	}
	if ((st = cl_db_exec(L->db, sql, 0, NULL, &res, &L->r->err)) != CL_DB_OK)
		return st;
	copied = strtoul(PQgetvalue(res, 0, 0), NULL, 10);
	PQclear(res);
	if (copied == L->r->new_count)
		return CL_DB_OK;
	return journal_raced(L, L->r->new_count - copied);
}

/* ---- COMMIT and the third outcome ---- */

static void pause_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* COMMIT.  When its result is lost, reconnect and ask the database what
 * became of the load UUID: CL_DB_OK (committed after all, r->resolved),
 * CL_DB_RETRY (it rolled back: nothing applied, the file may be retried)
 * or CL_DB_LOST (unreachable: the outcome is unknown). */
static enum cl_db_status commit(struct load *L)
{
	enum cl_db_status st;
	char pid[16];
	const char *p[1];
	PGresult *res;
	int i;
	bool gone = false;

	snprintf(pid, sizeof(pid), "%d", PQbackendPID(L->db->conn));
	CL_FAILPOINT("before_commit", L->db->conn);
	L->in_commit = true;
	st = exec0(L, "COMMIT");
	if (st != CL_DB_LOST)
		return st;
	/* The COMMIT may or may not have happened.  Reconnect (bounded) */
	cl_db_close(L->db);
	for (i = 0; i < RECONNECT_ATTEMPTS; i++) {
		struct cl_error e;

		if (i)
			pause_ms(200L << i);
		if (cl_db_connect(L->db, L->db->conninfo, &e) == CL_DB_OK)
			break;
	}
	if (!L->db->conn)
		return CL_DB_LOST;
	/* Wait until the old backend has ended: then its transaction is
	 * decided one way or the other, and the lookup below is the truth. */
	p[0] = pid;
	for (i = 0; i < 50 && !gone; i++) {
		if (cl_db_exec(L->db,
			       "SELECT 1 FROM pg_catalog.pg_stat_activity WHERE pid = $1::integer",
			       1, p, &res, &L->r->err) != CL_DB_OK)
			return CL_DB_LOST;
		gone = PQntuples(res) == 0;
		PQclear(res);
		if (!gone)
			pause_ms(100);
	}
	if (!gone) {
		cl_error_set(&L->r->err, NULL, 0, "db_lost",
			     "the connection was lost during COMMIT and the old session is still "
			     "running: outcome unknown");
		return CL_DB_LOST;
	}
	p[0] = L->r->load_uuid;
	if (cl_db_exec(L->db, "SELECT load_id FROM public.clearing_load WHERE load_uuid = $1", 1, p,
		       &res, &L->r->err) != CL_DB_OK)
		return CL_DB_LOST;
	if (PQntuples(res) == 1) {
		snprintf(L->load_id, sizeof(L->load_id), "%s", PQgetvalue(res, 0, 0));
		PQclear(res);
		L->r->resolved = true;
		return CL_DB_OK;
	}
	PQclear(res);
	cl_error_set(&L->r->err, NULL, 0, "db_lost",
		     "the connection was lost during COMMIT; the load did not commit");
	return CL_DB_RETRY;
}

/* ---- diff: the plan, record by record ---- */

struct plan {
	struct load *L;
	struct cl_parser *p;
	unsigned long ordinal;     /* of the last record read */
	bool failed;
	struct cl_error err;
};

static void plan_emit(struct plan *P, const struct cl_record *rec, struct cl_plan_item *it)
{
	struct load *L = P->L;

	it->rec = rec;
	it->ordinal = P->ordinal;
	it->position = rec->position;
	L->h->on_plan(L->h->ctx, it);
}

/* Emit every record before ordinal `upto` as new; leave *rec at `upto`. */
static bool plan_advance(struct plan *P, unsigned long upto, const struct cl_record **rec)
{
	enum cl_status ps;

	for (;;) {
		ps = cl_parser_next(P->p, rec, &P->err);
		if (ps == CL_NOTE)
			continue;
		if (ps != CL_OK) {
			P->failed = ps != CL_END || upto != 0;
			return false;
		}
		if (++P->ordinal == upto)
			return true;
		{
			struct cl_plan_item it;

			memset(&it, 0, sizeof(it));
			it.action = CL_ACTION_NEW;
			plan_emit(P, *rec, &it);
		}
	}
}

enum {
	D_ORDINAL, D_REASON, D_MLOAD, D_MFILE, D_MPOS, D_MTIME, D_MKEY, D_FIELDS, D_OLD0
};

static int on_detail(void *ctx, char **f, int nf)
{
	struct plan *P = ctx;
	const struct cl_record *rec;
	struct cl_plan_item it;
	unsigned i;

	if (P->failed || nf < D_OLD0)
		return 1;
	if (!plan_advance(P, strtoul(f[D_ORDINAL], NULL, 10), &rec))
		return 1;
	memset(&it, 0, sizeof(it));
	it.reason = strcmp(f[D_REASON], "duplicate") == 0	  ? "duplicate"
		    : strcmp(f[D_REASON], "conflict") == 0 ? "conflict"
							   : "near_duplicate";
	it.action = strcmp(it.reason, "duplicate") == 0 ? CL_ACTION_DUPLICATE : CL_ACTION_CONFLICT;
	it.matched_load_id = strtoll(f[D_MLOAD], NULL, 10);
	it.matched_file = f[D_MFILE];
	it.matched_position = strtoul(f[D_MPOS], NULL, 10);
	it.matched_time = f[D_MTIME];
	it.matched_key = f[D_MKEY];
	if (f[D_FIELDS] && it.action == CL_ACTION_CONFLICT) {
		for (i = 0; i < cl_row_compared_count && (int)(D_OLD0 + i) < nf &&
			    it.nfields < CL_DIFF_FIELDS_MAX; i++) {
			struct cl_field_diff *d;
			char buf[32];
			/* fields is "{a,b}": look for the name between delimiters */
			const char *hit = strstr(f[D_FIELDS], cl_row_compared[i].name);
			size_t len = strlen(cl_row_compared[i].name);

			if (!hit || (hit[len] != ',' && hit[len] != '}') ||
			    (hit[-1] != ',' && hit[-1] != '{'))
				continue;
			d = &it.fields[it.nfields++];
			d->field = cl_row_compared[i].name;
			d->account = cl_row_compared[i].account;
			snprintf(d->old_value, sizeof(d->old_value), "%s",
				 f[D_OLD0 + i] ? f[D_OLD0 + i] : "");
			snprintf(d->new_value, sizeof(d->new_value), "%s",
				 cl_row_value(rec, i, buf));
		}
	}
	plan_emit(P, rec, &it);
	return 0;
}

static enum cl_db_status plan(struct load *L)
{
	struct plan P;
	char sql[4096];
	size_t n;
	unsigned i;
	enum cl_db_status st;
	const struct cl_record *rec;

	memset(&P, 0, sizeof(P));
	P.L = L;
	if (open_parser(L, true, &P.p, &P.err) != CL_OK) {
		L->r->err = P.err;
		return CL_DB_ERROR;
	}
	n = (size_t)snprintf(sql, sizeof(sql),
			     "COPY (SELECT e.ordinal, e.reason, e.matched_load_id, l.file_name, "
			     "e.matched_position, "
			     "pg_catalog.to_char(l.finished_at, 'YYYY-MM-DD\"T\"HH24:MI:SSTZH:TZM'), "
			     "e.matched_key, e.fields");
	for (i = 0; i < cl_row_compared_count; i++)
		n += (size_t)snprintf(sql + n, sizeof(sql) - n, ", r.%s", cl_row_compared[i].name);
	snprintf(sql + n, sizeof(sql) - n,
		 " FROM public.clearing_dedupe_event e"
		 " JOIN public.clearing_load l ON l.load_id = e.matched_load_id"
		 " JOIN pg_temp.cl_stage s ON s.ordinal = e.ordinal"
		 " LEFT JOIN public.clearing_record r ON e.reason <> 'duplicate'"
		 "  AND r.tenant = e.tenant AND r.kind = s.kind"
		 "  AND r.natural_key = coalesce(e.matched_key, s.natural_key)"
		 " WHERE e.load_id = pg_catalog.current_setting('clearing_load.load_id')::bigint"
		 " ORDER BY e.ordinal) TO STDOUT");
	st = cl_copy_out(L->db, sql, on_detail, &P, &L->r->err);
	if (st == CL_DB_OK && !P.failed)
		plan_advance(&P, 0, &rec); /* the rest are new */
	cl_parser_free(P.p);
	if (st == CL_DB_OK && P.failed) {
		L->r->err = P.err;
		st = CL_DB_ERROR;
	}
	return st;
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
	if ((st = exec0(L, "BEGIN")) != CL_DB_OK || (st = insert_load_row(L)) != CL_DB_OK)
		return st;
	CL_FAILPOINT("after_load_row", L->db->conn);
	if ((st = pass1(L, rewind)) != CL_DB_OK)
		return st;
	if (r->invalid_count) {
		record_rejected(L);
		return CL_DB_OK;
	}
	if ((st = lock_originators(L)) != CL_DB_OK || (st = classify(L)) != CL_DB_OK)
		return st;
	if (r->conflict_count && (st = explain_conflicts(L)) != CL_DB_OK)
		return st;
	if (L->o->dry_run) {
		if (L->h->on_plan && (st = plan(L)) != CL_DB_OK)
			return st;
		rollback(L);
		r->outcome = CL_OUTCOME_NONE;
		return CL_DB_OK;
	}
	if (r->conflict_count && L->o->on_conflict == CL_ON_CONFLICT_HOLD) {
		/* nothing is applied; the attempt and its conflicts are kept */
		snprintf(r->reason, sizeof(r->reason),
			 "%lu conflicting record%s (same key, different content): file held, "
			 "nothing applied",
			 r->conflict_count, r->conflict_count == 1 ? "" : "s");
		st = exec0(L, "DELETE FROM public.clearing_dedupe_event WHERE load_id = "
			      "pg_catalog.current_setting('clearing_load.load_id')::bigint "
			      "AND reason = 'duplicate'");
		if (st != CL_DB_OK)
			return st;
		r->outcome = CL_OUTCOME_HELD;
		outcome = "held";
	} else {
		if ((st = apply_new(L)) != CL_DB_OK)
			return st;
		CL_FAILPOINT("after_insert", L->db->conn);
		if (r->conflict_count) {
			snprintf(r->reason, sizeof(r->reason),
				 "%lu conflicting record%s quarantined",
				 r->conflict_count, r->conflict_count == 1 ? "" : "s");
			r->outcome = CL_OUTCOME_QUARANTINED;
			outcome = "quarantined";
		} else {
			r->outcome = CL_OUTCOME_COMMITTED;
			outcome = "committed";
		}
	}
	if ((st = update_load_row(L, outcome)) != CL_DB_OK)
		return st;
	st = commit(L);
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
}
