/* history.c - show and loads queries. */
#include "history.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record.h"
#include "record_sql.h"

/* OIDs of int2, int4, int8, numeric (pg_type.h is server-side) */
static bool numeric_type(Oid t)
{
	return t == 20 || t == 21 || t == 23 || t == 1700;
}

/* An account column: one of the record's, by the field table. */
static bool is_account(const char *name, size_t n)
{
	const struct cl_field *f = cl_field_by_name(name, n);

	return f && (f->flags & CL_FF_ACCOUNT);
}

static void emit_row(PGresult *res, int i, const char *section, cl_history_fn fn, void *ctx)
{
	int cols = PQnfields(res), c;
	struct cl_kv kv[CL_HISTORY_MAX_COLS];

	if (cols > CL_HISTORY_MAX_COLS)
		cols = CL_HISTORY_MAX_COLS;
	for (c = 0; c < cols; c++) {
		const char *name = PQfname(res, c);
		size_t n = strlen(name);

		kv[c].name = name;
		kv[c].value = PQgetisnull(res, i, c) ? NULL : PQgetvalue(res, i, c);
		kv[c].account = is_account(name, n);
		kv[c].number = numeric_type(PQftype(res, c));
	}
	fn(ctx, section, kv, cols);
}

static void emit_rows(PGresult *res, const char *section, cl_history_fn fn, void *ctx)
{
	int rows = PQntuples(res), i;

	for (i = 0; i < rows; i++)
		emit_row(res, i, section, fn, ctx);
}

/* Timestamps in one form in every output: ISO 8601 with "T" and the
 * offset, to the second, as diff prints matched_time (review 51). */
#define ISO_TS(col, name) \
	"pg_catalog.to_char(" col ", 'YYYY-MM-DD\"T\"HH24:MI:SSTZH:TZM') AS " name

/* every stored field of the record (record_fields.def) */
static const char record_cols[] = CL_SQL_SHOW_COLUMNS;

static const char load_sql[] =
	"SELECT l.load_id, l.load_uuid, l.file_name, l.sha256, l.format, l.message_type, "
	"l.outcome, l.record_count, l.new_count, l.duplicate_count, l.conflict_count, "
	ISO_TS("l.started_at", "started_at") ", " ISO_TS("l.finished_at", "finished_at")
	" FROM public.clearing_load l WHERE l.load_id = $1";

static const char events_sql[] =
	"SELECT e.reason, e.load_id, l.load_uuid, l.file_name, e.position, l.outcome, "
	"e.natural_key, "
	"pg_catalog.array_to_string(e.fields, ',') AS fields, " ISO_TS("e.created_at", "created_at")
	" FROM public.clearing_dedupe_event e JOIN public.clearing_load l ON l.load_id = e.load_id "
	"WHERE e.matched_load_id = $1 AND e.matched_ordinal = $2 "
	"ORDER BY e.created_at, e.load_id, e.ordinal";

/* events of a key that has no record (held conflicts of a never-applied
 * key cannot exist; this finds near duplicates and history of keys whose
 * record was looked up under another kind) */
static const char key_events_sql[] =
	"SELECT e.reason, e.load_id, l.load_uuid, l.file_name, e.position, l.outcome, "
	"e.kind, e.natural_key, e.matched_key, e.matched_load_id, e.matched_position, "
	"pg_catalog.array_to_string(e.fields, ',') AS fields, " ISO_TS("e.created_at", "created_at")
	" FROM public.clearing_dedupe_event e JOIN public.clearing_load l ON l.load_id = e.load_id "
	"WHERE e.tenant = $1 AND e.natural_key = $2 ORDER BY e.created_at, e.load_id, e.ordinal";

/* The versions of a record parked in quarantine: those under its own key
 * (a conflict) and those whose journal row names it as the record they
 * copy (a near duplicate, parked under its own, other key: review 2,
 * R2-23).  $4, $5: the record's load_id and ordinal. */
#define QUARANTINE_COLS \
	"SELECT q.load_id, l.load_uuid, l.file_name, q.position, q.kind, q.natural_key, " \
	"q.alt_key, " \
	"q.amount_minor, q.currency, q.value_date, q.receiving_account, q.debtor_account, " \
	"q.creditor_account, pg_catalog.encode(q.fingerprint, 'hex') AS fingerprint, " \
	ISO_TS("q.quarantined_at", "quarantined_at") \
	" FROM public.clearing_quarantine q JOIN public.clearing_load l ON l.load_id = q.load_id "

static const char quarantine_sql[] =
	QUARANTINE_COLS
	"WHERE (q.tenant = $1 AND q.kind = $2 AND q.natural_key = $3) "
	"OR (q.load_id, q.ordinal) IN (SELECT e.load_id, e.ordinal "
	"FROM public.clearing_dedupe_event e "
	"WHERE e.matched_load_id = $4 AND e.matched_ordinal = $5) "
	"ORDER BY q.load_id, q.ordinal";

/* A key that was never applied but is parked: show KEY still shows it. */
static const char key_quarantine_sql[] =
	QUARANTINE_COLS
	"WHERE q.tenant = $1 AND q.natural_key = $2 ORDER BY q.load_id, q.ordinal";

static enum cl_db_status run(struct cl_db *db, const char *sql, int n, const char *const *p,
			     const char *section, cl_history_fn fn, void *ctx, int *rows,
			     struct cl_error *err)
{
	PGresult *res;
	enum cl_db_status st = cl_db_exec(db, sql, n, p, &res, err);

	if (st != CL_DB_OK)
		return st;
	if (rows)
		*rows = PQntuples(res);
	emit_rows(res, section, fn, ctx);
	PQclear(res);
	return CL_DB_OK;
}

enum cl_db_status cl_history_show(struct cl_db *db, enum cl_show_by by, const char *value,
				  const char *tenant, unsigned long limit, cl_history_fn fn, void *ctx,
				  unsigned long *found, unsigned long *total, struct cl_error *err)
{
	char sql[3072], lim[24];
	const char *where, *matched_by;
	const char *p[3] = { tenant, value, lim };
	PGresult *res;
	enum cl_db_status st;
	int i, n;

	*found = *total = 0;
	/* a trace, EndToEndId or UETR also finds the returns and NOCs that
	 * name it as the original (review 33): matched_by says which */
	switch (by) {
	case CL_SHOW_TRACE:
		where = "(r.trace_number = $2 OR r.original_trace = $2)";
		matched_by = "CASE WHEN r.trace_number = $2 THEN 'trace_number' "
			     "ELSE 'original_trace' END";
		break;
	case CL_SHOW_E2E:
		where = "(r.end_to_end_id = $2 OR r.orgnl_end_to_end_id = $2)";
		matched_by = "CASE WHEN r.end_to_end_id = $2 THEN 'end_to_end_id' "
			     "ELSE 'orgnl_end_to_end_id' END";
		break;
	case CL_SHOW_UETR:
		where = "(r.uetr = pg_catalog.lower($2) OR r.orgnl_uetr = pg_catalog.lower($2))";
		matched_by = "CASE WHEN r.uetr = pg_catalog.lower($2) THEN 'uetr' "
			     "ELSE 'orgnl_uetr' END";
		break;
	default:
		/* every kind listed, so the unique index is used on all three
		 * columns (no skip scan needed) */
		where = "r.kind = ANY (ARRAY['ach.entry', 'ach.return', 'ach.noc', 'pain.001', "
			"'pacs.008', 'pacs.009', 'pacs.004']) AND r.natural_key = $2";
		matched_by = "'natural_key'";
		break;
	}
	/* one more than asked for: tells whether there are more */
	snprintf(lim, sizeof(lim), "%lu", limit + 1);
	snprintf(sql, sizeof(sql),
		 "SELECT %s AS matched_by, %s FROM public.clearing_record r WHERE r.tenant = $1 AND %s "
		 "ORDER BY r.kind, r.natural_key LIMIT $3::bigint",
		 matched_by, record_cols, where);
	if ((st = cl_db_exec(db, sql, 3, p, &res, err)) != CL_DB_OK)
		return st;
	n = PQntuples(res);
	if ((unsigned long)n > limit)
		n = (int)limit;
	for (i = 0; i < n && st == CL_DB_OK; i++) {
		const char *rp[3];
		int c_load = PQfnumber(res, "load_id"), c_ord = PQfnumber(res, "ordinal");
		int c_kind = PQfnumber(res, "kind"), c_key = PQfnumber(res, "natural_key");

		/* the record itself: a one-row view of the result */
		emit_row(res, i, "record", fn, ctx);
		rp[0] = PQgetvalue(res, i, c_load);
		st = run(db, load_sql, 1, rp, "load", fn, ctx, NULL, err);
		rp[1] = PQgetvalue(res, i, c_ord);
		if (st == CL_DB_OK)
			st = run(db, events_sql, 2, rp, "event", fn, ctx, NULL, err);
		{
			const char *qp[5] = { tenant, PQgetvalue(res, i, c_kind),
					      PQgetvalue(res, i, c_key), PQgetvalue(res, i, c_load),
					      PQgetvalue(res, i, c_ord) };

			if (st == CL_DB_OK)
				st = run(db, quarantine_sql, 5, qp, "quarantine", fn, ctx, NULL, err);
		}
	}
	*found = *total = (unsigned long)n;
	if (st == CL_DB_OK && (unsigned long)PQntuples(res) > limit) {
		/* more than shown: say how many there are */
		PGresult *cres;

		snprintf(sql, sizeof(sql),
			 "SELECT pg_catalog.count(*) FROM public.clearing_record r WHERE r.tenant = $1 "
			 "AND %s",
			 where);
		st = cl_db_exec(db, sql, 2, p, &cres, err);
		if (st == CL_DB_OK) {
			*total = strtoul(PQgetvalue(cres, 0, 0), NULL, 10);
			PQclear(cres);
		}
	}
	PQclear(res);
	if (st == CL_DB_OK && n == 0 && by == CL_SHOW_KEY)
		st = run(db, key_events_sql, 2, p, "event", fn, ctx, NULL, err);
	if (st == CL_DB_OK && n == 0 && by == CL_SHOW_KEY)
		st = run(db, key_quarantine_sql, 2, p, "quarantine", fn, ctx, NULL, err);
	return st;
}

enum cl_db_status cl_history_lock_uuid(struct cl_db *db, const char *uuid, bool *running,
				       struct cl_error *err)
{
	const char *p[1] = { uuid };
	PGresult *res;
	enum cl_db_status st;

	st = cl_db_exec(db,
			"SELECT pg_catalog.pg_try_advisory_lock("
			"pg_catalog.hashtextextended(pg_catalog.lower($1), 0))",
			1, p, &res, err);
	if (st != CL_DB_OK)
		return st;
	*running = strcmp(PQgetvalue(res, 0, 0), "t") != 0;
	PQclear(res);
	return CL_DB_OK;
}

void cl_history_release_uuid(struct cl_db *db, const char *uuid)
{
	const char *p[1] = { uuid };
	PGresult *res;
	struct cl_error err;

	if (cl_db_exec(db, "SELECT pg_catalog.pg_advisory_unlock("
			   "pg_catalog.hashtextextended(pg_catalog.lower($1), 0))",
		       1, p, &res, &err) == CL_DB_OK)
		PQclear(res);
}

enum cl_db_status cl_history_loads(struct cl_db *db, const char *since, const char *uuid,
				   const char *tenant, unsigned long limit, cl_history_fn fn, void *ctx,
				   unsigned long *found, struct cl_error *err)
{
	char lim[24];
	const char *p[4] = { since, uuid, lim, tenant };
	int rows = 0;
	enum cl_db_status st;

	snprintf(lim, sizeof(lim), "%lu", limit);
	st = run(db,
		 "SELECT load_id, load_uuid, tenant, file_name, file_size, sha256, format, "
		 "message_type, sender, receiver, file_created, file_id, record_count, new_count, "
		 "duplicate_count, conflict_count, invalid_count, outcome, reason, retries, "
		 ISO_TS("started_at", "started_at") ", " ISO_TS("finished_at", "finished_at")
		 " FROM public.clearing_load l "
		 "WHERE ($1::timestamptz IS NULL OR l.started_at >= $1::timestamptz) "
		 "AND ($2::uuid IS NULL OR l.load_uuid = $2::uuid) "
		 "AND ($4::text IS NULL OR l.tenant = $4::text) "
		 "ORDER BY l.load_id DESC LIMIT $3::bigint",
		 4, p, "load", fn, ctx, &rows, err);
	*found = (unsigned long)rows;
	return st;
}
