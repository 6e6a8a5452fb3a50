/* history.c - show and loads queries. */
#include "history.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* OIDs of int2, int4, int8, numeric (pg_type.h is server-side) */
static bool numeric_type(Oid t)
{
	return t == 20 || t == 21 || t == 23 || t == 1700;
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
		kv[c].account = n > 8 && strcmp(name + n - 8, "_account") == 0;
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

static const char record_cols[] =
	"r.tenant, r.kind, r.natural_key, r.key_rule, pg_catalog.encode(r.fingerprint, 'hex') "
	"AS fingerprint, r.amount_minor, r.currency, r.direction, r.value_date, r.trace_number, "
	"r.sec_code, r.transaction_code, r.receiving_dfi, r.receiving_account, r.company_id, "
	"r.batch_number, r.individual_id, r.reason_code, r.original_trace, r.original_rdfi, "
	"r.message_type, r.msg_id, r.pmt_inf_id, r.instr_id, r.end_to_end_id, r.tx_id, r.uetr, "
	"r.rtr_id, r.orgnl_uetr, r.orgnl_end_to_end_id, r.orgnl_tx_id, r.initiating_party_id, "
	"r.debtor_account, r.debtor_agent, r.creditor_account, r.creditor_agent, "
	"r.instructing_agent, r.instructed_agent, r.load_id, r.ordinal, r.position";

static const char load_sql[] =
	"SELECT l.load_id, l.load_uuid, l.file_name, l.sha256, l.format, l.message_type, "
	"l.outcome, l.record_count, l.new_count, l.duplicate_count, l.conflict_count, "
	"l.started_at, l.finished_at FROM public.clearing_load l WHERE l.load_id = $1";

static const char events_sql[] =
	"SELECT e.reason, e.load_id, l.load_uuid, l.file_name, e.position, l.outcome, "
	"e.natural_key, "
	"pg_catalog.array_to_string(e.fields, ',') AS fields, e.created_at "
	"FROM public.clearing_dedupe_event e JOIN public.clearing_load l ON l.load_id = e.load_id "
	"WHERE e.matched_load_id = $1 AND e.matched_ordinal = $2 "
	"ORDER BY e.created_at, e.load_id, e.ordinal";

/* events of a key that has no record (held conflicts of a never-applied
 * key cannot exist; this finds near duplicates and history of keys whose
 * record was looked up under another kind) */
static const char key_events_sql[] =
	"SELECT e.reason, e.load_id, l.load_uuid, l.file_name, e.position, l.outcome, "
	"e.kind, e.natural_key, e.matched_key, e.matched_load_id, e.matched_position, "
	"pg_catalog.array_to_string(e.fields, ',') AS fields, e.created_at "
	"FROM public.clearing_dedupe_event e JOIN public.clearing_load l ON l.load_id = e.load_id "
	"WHERE e.tenant = $1 AND e.natural_key = $2 ORDER BY e.created_at, e.load_id, e.ordinal";

static const char quarantine_sql[] =
	"SELECT q.load_id, l.load_uuid, l.file_name, q.position, q.amount_minor, q.currency, "
	"q.value_date, q.receiving_account, q.debtor_account, q.creditor_account, "
	"pg_catalog.encode(q.fingerprint, 'hex') AS fingerprint, q.quarantined_at "
	"FROM public.clearing_quarantine q JOIN public.clearing_load l ON l.load_id = q.load_id "
	"WHERE q.tenant = $1 AND q.kind = $2 AND q.natural_key = $3 ORDER BY q.load_id";

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
				  const char *tenant, cl_history_fn fn, void *ctx,
				  unsigned long *found, struct cl_error *err)
{
	char sql[2048];
	const char *where;
	const char *p[3] = { tenant, value, NULL };
	PGresult *res;
	enum cl_db_status st;
	int i, n;

	*found = 0;
	switch (by) {
	case CL_SHOW_TRACE:
		where = "r.trace_number = $2";
		break;
	case CL_SHOW_E2E:
		where = "r.end_to_end_id = $2";
		break;
	case CL_SHOW_UETR:
		where = "r.uetr = pg_catalog.lower($2)";
		break;
	default:
		/* every kind listed, so the unique index is used on all three
		 * columns (no skip scan needed) */
		where = "r.kind = ANY (ARRAY['ach.entry', 'ach.return', 'ach.noc', 'pain.001', "
			"'pacs.008', 'pacs.009', 'pacs.004']) AND r.natural_key = $2";
		break;
	}
	snprintf(sql, sizeof(sql),
		 "SELECT %s FROM public.clearing_record r WHERE r.tenant = $1 AND %s "
		 "ORDER BY r.kind, r.natural_key LIMIT 100",
		 record_cols, where);
	if ((st = cl_db_exec(db, sql, 2, p, &res, err)) != CL_DB_OK)
		return st;
	n = PQntuples(res);
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
		rp[0] = tenant;
		rp[1] = PQgetvalue(res, i, c_kind);
		rp[2] = PQgetvalue(res, i, c_key);
		if (st == CL_DB_OK)
			st = run(db, quarantine_sql, 3, rp, "quarantine", fn, ctx, NULL, err);
	}
	PQclear(res);
	*found = (unsigned long)n;
	if (st == CL_DB_OK && n == 0 && by == CL_SHOW_KEY)
		st = run(db, key_events_sql, 2, p, "event", fn, ctx, NULL, err);
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
				   unsigned long limit, cl_history_fn fn, void *ctx,
				   unsigned long *found, struct cl_error *err)
{
	char lim[24];
	const char *p[3] = { since, uuid, lim };
	int rows = 0;
	enum cl_db_status st;

	snprintf(lim, sizeof(lim), "%lu", limit);
	st = run(db,
		 "SELECT load_id, load_uuid, tenant, file_name, file_size, sha256, format, "
		 "message_type, sender, receiver, file_created, file_id, record_count, new_count, "
		 "duplicate_count, conflict_count, invalid_count, outcome, reason, retries, "
		 "started_at, finished_at FROM public.clearing_load "
		 "WHERE ($1::timestamptz IS NULL OR started_at >= $1::timestamptz) "
		 "AND ($2::uuid IS NULL OR load_uuid = $2::uuid) "
		 "ORDER BY load_id DESC LIMIT $3::bigint",
		 3, p, "load", fn, ctx, &rows, err);
	*found = (unsigned long)rows;
	return st;
}
