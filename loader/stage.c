/* stage.c - read the file: every record into pg_temp.cl_stage, and the
 * checks that need the whole file (a key twice, a payment twice); or, for
 * a new NACHA file, a first read alone and then its records straight into
 * clearing_record (direct_fit, cl_stage_copy_records: decision 0058). */
#include "loader/load_int.h"

#include <libpq-fe.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/keyset.h"
#include "base/mask.h"
#include "base/record.h"
#include "base/xmalloc.h"
#include "gen/loader_sql.h"
#include "loader/failpoint.h"
#include "loader/interrupt.h"
#include "loader/row.h"
#include "parsers/same_key.h"
#include "rules/near.h"

#define PROGRESS_EVERY 16384

/* Over this many originators a file takes one tenant-wide lock instead of
 * one per originator (classify.c): the server's lock table is small. */
#define MAX_COMPANY_LOCKS 32

enum cl_status cl_stage_open_parser(struct load *L, struct cl_parser **p, struct cl_error *err)
{
	if (cl_input_rewind(L->in, err) != CL_OK)
		return CL_IO;
	return cl_parser_open(L->in, &L->o->parse, p, err);
}

enum cl_status cl_stage_reread(struct cl_parser *p, const struct cl_record **rec,
			       struct cl_error *err)
{
	struct cl_error e;
	enum cl_status ps;

	/* (into e: a note must not overwrite what *err holds) */
	while ((ps = cl_parser_next(p, rec, &e)) == CL_NOTE)
		;
	if (ps != CL_OK && ps != CL_END && err)
		*err = e;
	return ps;
}

void cl_stage_release(struct load_stage *s)
{
	free(s->companies);
	s->companies = NULL;
	cl_trace_ranges_free(&s->traces);
	cl_key_sample_free(&s->sample);
}

void cl_stage_drain(struct load *L)
{
	char buf[4096];
	struct cl_error e;

	while (cl_input_read(L->in, buf, sizeof(buf), &e) > 0)
		;
}

static void note_company(struct load_stage *s, const char *company)
{
	size_t i;

	if (s->ncompanies && strcmp(s->companies[s->ncompanies - 1], company) == 0)
		return; /* entries come in batches of one originator */
	for (i = 0; i < s->ncompanies; i++)
		if (strcmp(s->companies[i], company) == 0)
			return;
	if (s->ncompanies == MAX_COMPANY_LOCKS) {
		s->companies_overflow = true; /* enough to know: a tenant-wide lock */
		return;
	}
	if (s->ncompanies == s->companies_cap) {
		s->companies_cap = s->companies_cap ? 2 * s->companies_cap : 8;
		s->companies = cl_xrealloc(s->companies, s->companies_cap * sizeof(*s->companies));
	}
	snprintf(s->companies[s->ncompanies++], sizeof(s->companies[0]), "%s", company);
}

/* What the later stages need to know of a staged record. */
static void note_record(struct load_stage *s, const struct cl_record *rec)
{
	if (rec->alt_key[0])
		s->has_alt = true;
	if (rec->kind[0] == 'a' && strcmp(rec->kind, "ach.entry") != 0)
		s->nreturns++; /* ach.return, ach.noc */
	if (rec->kind[0] == 'a' && strcmp(rec->kind, "ach.entry") == 0) {
		note_company(s, rec->company_id);
		cl_trace_ranges_add(&s->traces, rec);
	}
}

/* The key as the journal keeps it (accounts masked) in masked[], or NULL
 * when the key holds none. */
static const char *journal_key(const struct cl_record *rec, char masked[CL_KEY_MAX])
{
	return cl_mask_record_key(rec, rec->natural_key, masked, CL_KEY_MAX) ? masked : NULL;
}

/* One record's stage row: its clearing_record columns and the key as the
 * journal keeps it. */
static void stage_row(struct load *L, struct cl_copy_in *c, const struct cl_record *rec,
		      unsigned long ordinal, int64_t load_id)
{
	char masked[CL_KEY_MAX];

	if (L->direct)
		cl_row_copy_record(c, rec, ordinal, L->o->tenant, load_id);
	else
		cl_row_copy_staged(c, rec, ordinal, L->o->tenant, load_id,
				   journal_key(rec, masked), L->db->citus ? &L->stage_nonce : NULL);
}

/* The errors of a file that ends before its end: one still being written
 * (or cut short in transit). */
static bool ends_early(const char *code)
{
	static const char *const codes[] = { "truncated", "missing_batch_control", "xml_truncated",
					     "gzip_truncated", "empty_file" };

	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		if (strcmp(code, codes[i]) == 0)
			return true;
	return false;
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

/* An in-file check's rows: *res (the caller clears it) and how many. */
static enum cl_db_status in_file_rows(struct load *L, const char *sql, int nparams,
				      const char *const *params, PGresult **res, int *n)
{
	enum cl_db_status st = cl_db_exec(L->db, sql, nparams, params, res, &L->r->err);

	*n = st == CL_DB_OK ? PQntuples(*res) : 0;
	return st;
}

/* The rows of CL_SQL_STAGE_IN_FILE_DUPLICATES (at most 10): two records of
 * one file with the same key (first and last line, how many, the key as
 * the journal keeps it, false) or one payment under two natural keys (the
 * same alternate key and content, sent with and without its UETR: first
 * and last line, how many keys, the alternate key, true).  What differs
 * between the first and last record of a key is read from the file again,
 * as validate says it (cmd/walk.c). */
static enum cl_db_status in_file_duplicates(struct load *L, const char *sql, int nparams,
					    const char *const *params)
{
	struct cl_same_key same[10];
	size_t nsame = 0, filled;
	struct cl_parser *p = NULL;
	struct cl_error perr;
	PGresult *res;
	enum cl_db_status st;
	int i, n;

	if ((st = in_file_rows(L, sql, nparams, params, &res, &n)) != CL_DB_OK)
		return st;
	for (i = 0; i < n && nsame < sizeof(same) / sizeof(same[0]); i++) {
		struct cl_same_key *k;

		if (strcmp(PQgetvalue(res, i, 4), "t") == 0)
			continue;
		k = &same[nsame++];
		memset(k, 0, sizeof(*k));
		snprintf(k->key, sizeof(k->key), "%s", PQgetvalue(res, i, 3));
		snprintf(k->match, sizeof(k->match), "%s", PQgetvalue(res, i, 3));
		k->masked = true;
		k->count = strtoul(PQgetvalue(res, i, 2), NULL, 10);
		k->first = strtoul(PQgetvalue(res, i, 0), NULL, 10);
		k->last = strtoul(PQgetvalue(res, i, 1), NULL, 10);
	}
	if (nsame && cl_stage_open_parser(L, &p, &perr) == CL_OK) {
		cl_same_key_read(p, same, nsame);
		cl_stage_drain(L);
	}
	cl_parser_free(p);
	filled = nsame;
	nsame = 0;
	for (i = 0; i < n; i++) {
		struct cl_error e;
		unsigned long first = strtoul(PQgetvalue(res, i, 0), NULL, 10);
		unsigned long last = strtoul(PQgetvalue(res, i, 1), NULL, 10);

		if (strcmp(PQgetvalue(res, i, 4), "t") == 0)
			cl_alt_key_error(&e, L->path, PQgetvalue(res, i, 3),
					 strtoul(PQgetvalue(res, i, 2), NULL, 10), first, last);
		else if (nsame < sizeof(same) / sizeof(same[0]))
			cl_same_key_error(&e, L->path, &same[nsame++], true);
		else
			continue;
		in_file_error(L, &e, first);
	}
	cl_same_key_release(same, filled);
	PQclear(res);
	return CL_DB_OK;
}

/* One ACH payment (or return) twice under two keys (rules/near.h): lines,
 * dates and kind of the pair. */
static void near_error(struct cl_error *e, const char *file, PGresult *res, int i,
		       unsigned long first, unsigned long last)
{
	cl_near_in_file_error(e, file, PQgetvalue(res, i, 4), first, PQgetvalue(res, i, 2), last,
			      PQgetvalue(res, i, 3));
}

/* Run an in-file check whose rows start with the first and last line of
 * a pair of records that make the file invalid; each row an error. */
static enum cl_db_status in_file_check(struct load *L, const char *sql, int nparams,
				       const char *const *params,
				       void (*error)(struct cl_error *, const char *, PGresult *,
						     int, unsigned long, unsigned long))
{
	PGresult *res;
	enum cl_db_status st;
	int i, n;

	if ((st = in_file_rows(L, sql, nparams, params, &res, &n)) != CL_DB_OK)
		return st;
	for (i = 0; i < n; i++) {
		struct cl_error e;
		unsigned long first = strtoul(PQgetvalue(res, i, 0), NULL, 10);
		unsigned long last = strtoul(PQgetvalue(res, i, 1), NULL, 10);

		error(&e, L->path, res, i, first, last);
		in_file_error(L, &e, first);
	}
	PQclear(res);
	return CL_DB_OK;
}

/* A later read (a retry's, or a new NACHA file's second or third:
 * direct_fit) read other bytes than the first: the file was changed while
 * the loader was at it.  Nothing was committed. */
static enum cl_db_status changed(struct load *L)
{
	struct cl_load_result *r = L->r;

	cl_error_set(&r->err, cl_input_name(L->in), 0, "file_changed",
		     "the file changed while it was loaded (SHA-256 or record count differs "
		     "between reads): nothing applied");
	cl_error_detail(&r->err,
			"first read %lu records, SHA-256 %s; read in attempt %u %lu records, "
			"SHA-256 %s",
			L->stage.first_records, L->stage.first_sha, r->retries + 1, r->records,
			r->sha256);
	cl_error_hint(&r->err, CL_LOAD_HINT_FILE_CHANGED);
	return CL_DB_ERROR;
}

/* Parse the whole file, staging every record with all its columns (or,
 * L->direct, COPYing it into clearing_record; c NULL: nothing).  The
 * stage is dropped with the transaction. */
static enum cl_db_status read_file(struct load *L, bool rewind, struct cl_copy_in *c)
{
	struct cl_load_result *r = L->r;
	struct load_stage *s = &L->stage;
	struct cl_parser *p = NULL;
	const struct cl_record *rec;
	struct cl_error e;
	enum cl_status ps;
	bool copying = c != NULL; /* diff stages nothing */
	/* the last line an error named since the previous record: a record
	   that begins at or before it has an error of its own and is not
	   staged once the file is invalid (it is never applied, and parked
	   only when it was read whole) */
	unsigned long error_line = 0;
	const int64_t load_id = strtoll(L->load_id, NULL, 10); /* once, not per record */

	L->unsupported = L->incomplete = false;
	ps = rewind ? cl_stage_open_parser(L, &p, &e) : cl_parser_open(L->in, &L->o->parse, &p, &e);
	if (ps != CL_OK) {
		L->unsupported = cl_error_unsupported(&e);
		r->invalid_count++;
		if (!L->quiet)
			L->h->on_error(L->h->ctx, &e);
		snprintf(r->reason, sizeof(r->reason), "%.511s", e.message);
	}
	if (p && !copying && L->quiet && cl_parser_info(p)->format != CL_FORMAT_ACH) {
		/* direct_fit's read: only a NACHA file can be fit, no need to
		   read the rest of any other */
		cl_parser_free(p);
		return CL_DB_ERROR;
	}
	while (p && (ps = cl_parser_next(p, &rec, &e)) != CL_END) {
		if (cl_interrupt_signal()) {
			cl_error_set(&r->err, NULL, 0, "interrupted", "interrupted while reading the file");
			if (copying)
				cl_copy_in_abort(c, "interrupted");
			cl_parser_free(p);
			return CL_DB_ERROR;
		}
		switch (ps) {
		case CL_OK:
			r->records++;
			if (!(error_line && error_line >= rec->position)) {
				/* (a first read's sample is the direct load's) */
				cl_key_sample_add(&s->sample, rec->kind, rec->natural_key, r->records);
				if (copying)
					stage_row(L, c, rec, r->records, load_id);
				if (copying && r->records == 1)
					CL_FAILPOINT("mid_copy", L->db->conn);
			}
			error_line = 0;
			note_record(s, rec);
			cl_money_add(&r->money, rec->amount_minor, rec->currency);
			if (L->h->on_progress && !L->quiet && r->records % PROGRESS_EVERY == 0)
				L->h->on_progress(L->h->ctx, r->records, cl_input_raw_bytes(L->in));
			break;
		case CL_NOTE:
			if (L->h->on_note && !L->quiet)
				L->h->on_note(L->h->ctx, &e);
			break;
		default: /* CL_INVALID, CL_IO: nothing from this file is applied */
			if (!r->invalid_count)
				L->unsupported = cl_error_unsupported(&e);
			L->incomplete = L->incomplete || ends_early(e.code);
			if (!r->invalid_count && e.line)
				snprintf(r->reason, sizeof(r->reason), "line %lu: %.511s", e.line,
					 e.message);
			else if (!r->invalid_count)
				snprintf(r->reason, sizeof(r->reason), "%.511s", e.message);
			r->invalid_count += cl_error_count(&e);
			if (e.line > error_line)
				error_line = e.line;
			if (!L->quiet)
				L->h->on_error(L->h->ctx, &e);
			/* the records read still go to the stage: a rejected
			   file's are parked, never applied (cl_stage_file) */
			break;
		}
	}
	if (p) {
		s->info = *cl_parser_info(p);
		r->max_errors_stopped = s->info.stopped ? s->info.max_errors : 0;
		cl_stage_drain(L);
	}
	if (copying && !p) /* the parser could not even open the file */
		cl_copy_in_abort(c, "invalid file");
	L->rejected_staged = copying && p && r->invalid_count;
	cl_parser_free(p);
	return !r->invalid_count ? CL_DB_OK : CL_DB_ERROR;
}

/* Two records of one file with the same key, or one payment twice under
 * two keys, make the file invalid: it cannot be deduplicated safely (and
 * would be taken for a race and half applied).  The NACHA parser proves
 * keys unique in constant memory, so NACHA files are grouped only on a
 * retry, where a key twice would otherwise pass for a concurrent load
 * (23505).  Near duplicates are looked for only when one originator's
 * trace runs overlap (trace_ranges.h) or the file has two returns or
 * NOCs. */
static bool needs_duplicates_check(const struct load *L)
{
	return L->stage.info.format != CL_FORMAT_ACH || L->r->retries > 0;
}

static bool needs_near_check(struct load *L)
{
	return cl_trace_ranges_maybe_near(&L->stage.traces) || L->stage.nreturns > 1;
}

static enum cl_db_status given_checks(struct load *L, bool duplicates, bool near);

/* What the read said of the file as a whole. */
static void file_read(struct load *L)
{
	struct cl_load_result *r = L->r;

	r->bytes = cl_input_raw_bytes(L->in);
	snprintf(r->sha256, sizeof(r->sha256), "%s", cl_input_sha256_hex(L->in));
	snprintf(r->format, sizeof(r->format), "%s", L->stage.info.format_name);
	snprintf(r->message_type, sizeof(r->message_type), "%s", L->stage.info.message_type);
}

/* The first attempt's read remembered; a retry's compared with it (false:
 * the file changed). */
static bool same_as_first(const struct load *L)
{
	return L->r->records == L->stage.first_records &&
	       strcmp(L->r->sha256, L->stage.first_sha) == 0;
}

static bool same_file(struct load *L)
{
	struct cl_load_result *r = L->r;
	struct load_stage *s = &L->stage;

	if (!r->retries) {
		snprintf(s->first_sha, sizeof(s->first_sha), "%s", r->sha256);
		s->first_records = r->records;
		return true;
	}
	return same_as_first(L);
}

/* diff: the file read as for a load, nothing staged; then the whole-file
 * checks a load makes on its stage. */
static enum cl_db_status dry_stage(struct load *L, bool rewind)
{
	bool dup, near, valid = read_file(L, rewind, NULL) == CL_DB_OK;

	file_read(L);
	if (!valid)
		return CL_DB_OK; /* invalid: r->invalid_count says so */
	if (!same_file(L))
		return changed(L);
	dup = needs_duplicates_check(L);
	near = needs_near_check(L);
	return dup || near ? given_checks(L, dup, near) : CL_DB_OK;
}

/* diff stages nothing: the whole-file checks get the file's records (read
 * again for them) as parameters, an array of clearing_record and one of
 * journal keys (sql/loader/plan.sql), once for the whole file: only for a
 * file that needs such a check. */
static enum cl_db_status given_checks(struct load *L, bool duplicates, bool near)
{
	struct cl_row_array a;
	struct cl_parser *p = NULL;
	const struct cl_record *rec;
	struct cl_error e;
	enum cl_status ps;
	enum cl_db_status st = CL_DB_OK;
	unsigned long ordinal = 0;
	const char *param[2];

	memset(&a, 0, sizeof(a));
	if ((st = cl_plan_columns(L, &a)) != CL_DB_OK) {
		cl_row_array_release(&a);
		return st;
	}
	if (cl_stage_open_parser(L, &p, &e) != CL_OK) {
		cl_row_array_release(&a);
		L->r->err = e;
		return CL_DB_ERROR;
	}
	while ((ps = cl_stage_reread(p, &rec, &L->r->err)) == CL_OK) {
		char masked[CL_KEY_MAX];

		cl_row_array_add(&a, rec, ++ordinal, L->o->tenant, journal_key(rec, masked));
	}
	if (ps != CL_END)
		st = CL_DB_ERROR;
	cl_parser_free(p);
	cl_stage_drain(L);
	param[0] = cl_row_array_rows(&a);
	param[1] = cl_row_array_keys(&a);
	if (st == CL_DB_OK && duplicates)
		st = in_file_duplicates(L, CL_SQL_STAGE_GIVEN_DUPLICATES, 2, param);
	if (st == CL_DB_OK && near && !L->r->invalid_count)
		st = in_file_check(L, CL_SQL_STAGE_GIVEN_NEAR, 1, param, near_error);
	cl_row_array_release(&a);
	return st;
}

/* What a read learns of the file, forgotten before the next read. */
static void forget_read(struct load *L)
{
	struct cl_load_result *r = L->r;
	struct load_stage *s = &L->stage;

	r->records = r->invalid_count = 0;
	r->reason[0] = '\0';
	memset(&r->money, 0, sizeof(r->money));
	r->max_errors_stopped = 0;
	s->ncompanies = 0;
	s->companies_overflow = false;
	s->has_alt = false;
	s->nreturns = 0;
	cl_trace_ranges_reset(&s->traces);
	cl_key_sample_reset(&s->sample);
}

/*
 * Decision 0058: a first attempt's file is read once without staging it
 * (the parser alone, quiet: the read that stages or copies it reports its
 * notes and errors).  A valid NACHA file with records, no alternate keys
 * and no chance of a near duplicate within itself (needs_near_check) is
 * fit to be read straight into clearing_record once its sample is found
 * new (load.c, cl_stage_copy_records): the parser has proven its keys
 * unique, so within the file the unique index can only fail on an applied
 * key.  Any other file is staged, as are retries and diff, and every file
 * when row-level security is active for the role (PostgreSQL refuses COPY
 * FROM into such a table).
 */
static bool direct_fit(struct load *L, bool rewind)
{
	bool valid;

	L->quiet = true;
	valid = read_file(L, rewind, NULL) == CL_DB_OK;
	L->quiet = false;
	file_read(L);
	return valid && L->r->records && L->stage.info.format == CL_FORMAT_ACH &&
	       !L->stage.has_alt && !needs_near_check(L);
}

enum cl_db_status cl_stage_file(struct load *L, bool rewind)
{
	struct cl_load_result *r = L->r;
	struct cl_copy_in *c;
	enum cl_db_status st;
	bool staged;
	/* the file read first and not staged (direct_fit), staged now:
	   the bytes must be the first read's */
	bool again = L->direct;

	forget_read(L);
	if (L->o->dry_run)
		return dry_stage(L, rewind);
	L->direct = false;
	if (!rewind && !r->retries && !L->row_security) {
		if (direct_fit(L, false)) {
			(void)same_file(L); /* the first attempt's read, remembered */
			L->direct = true;
			return CL_DB_OK;
		}
		forget_read(L);
		rewind = true;
	}
	c = cl_xmalloc(sizeof(*c));
	/* on Citus the stage is this load's rows of a distributed table
	   (migration 035), seen through a view of the same name */
	st = cl_load_exec0(L, L->db->citus ? CL_SQL_STAGE_CREATE_CITUS : CL_SQL_STAGE_CREATE);
	if (st == CL_DB_OK)
		st = cl_copy_in_begin(c, L->db,
				      L->db->citus ? CL_SQL_STAGE_COPY_CITUS : CL_SQL_STAGE_COPY,
				      &r->err);
	if (st != CL_DB_OK) {
		free(c);
		return st;
	}
	L->rejected_staged = false;
	staged = read_file(L, rewind, c) == CL_DB_OK;
	file_read(L);
	if (again && (r->invalid_count || (staged && !same_as_first(L)))) {
		if (!staged)
			cl_copy_in_abort(c, "the file changed");
		free(c);
		return changed(L);
	}
	if (!staged) {
		/* invalid (r->invalid_count says so): the records that could be
		   read, staged, for the load to park */
		if (L->rejected_staged && cl_copy_in_end(c, NULL, &r->err) != CL_DB_OK)
			L->rejected_staged = false;
		free(c);
		return CL_DB_OK;
	}
	st = cl_copy_in_end(c, NULL, &r->err);
	free(c);
	if (st != CL_DB_OK)
		return st;
	if (!same_file(L))
		return changed(L);
	/* (on Citus the probes' plans are the lateral's, whatever the
	   statistics: the distributed stage is not analyzed at each load) */
	if (!L->db->citus && ((st = cl_load_exec0(L, CL_SQL_STAGE_STATISTICS)) != CL_DB_OK ||
			      (st = cl_load_exec0(L, CL_SQL_STAGE_ANALYZE)) != CL_DB_OK))
		return st;
	if (needs_duplicates_check(L))
		st = in_file_duplicates(L, L->db->citus ? CL_SQL_STAGE_IN_FILE_DUPLICATES_CITUS
							: CL_SQL_STAGE_IN_FILE_DUPLICATES,
					0, NULL);
	if (st == CL_DB_OK && !r->invalid_count && needs_near_check(L))
		st = in_file_check(L,
				   L->db->citus ? CL_SQL_STAGE_IN_FILE_NEAR_CITUS : CL_SQL_STAGE_IN_FILE_NEAR,
				   0, NULL, near_error);
	return st;
}

enum cl_db_status cl_stage_copy_records(struct load *L)
{
	struct cl_load_result *r = L->r;
	struct cl_copy_in *c;
	unsigned long long rows = 0;
	enum cl_db_status st;

	if ((st = cl_load_exec0(L, CL_SQL_STAGE_DIRECT_VIEW)) != CL_DB_OK)
		return st;
	c = cl_xmalloc(sizeof(*c));
	if ((st = cl_copy_in_begin(c, L->db, CL_SQL_STAGE_DIRECT_COPY, &r->err)) != CL_DB_OK) {
		free(c);
		return st;
	}
	forget_read(L);
	if (read_file(L, true, c) != CL_DB_OK) {
		/* interrupted (the COPY is aborted), or valid at the first read
		   and not now: it changed since (the error was reported) */
		if (r->invalid_count)
			cl_copy_in_abort(c, "invalid file");
		free(c);
		if (!r->invalid_count)
			return CL_DB_ERROR;
		file_read(L);
		return changed(L);
	}
	st = cl_copy_in_end(c, &rows, &r->err);
	free(c);
	/* a later read of this attempt (the fall back to a stage) reports
	   nothing again */
	L->quiet = true;
	file_read(L);
	if (st != CL_DB_OK)
		return st;
	if (!same_as_first(L))
		return changed(L);
	if (rows != r->records) {
		cl_error_set(&r->err, cl_input_name(L->in), 0, "internal",
			     "%llu records copied of %lu read: nothing applied (does a trigger on "
			     "clearing_record drop rows?)",
			     rows, r->records);
		return CL_DB_ERROR;
	}
	return CL_DB_OK;
}
