/* history.c - show and loads (their statements: sql/loader/history.sql). */
#include "loader/history.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/record.h"
#include "gen/loader_sql.h"
#include "loader/failpoint.h"
#include "rules/shard.h"

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

/* Row i of res from column `first` to column `end` (excluded) as
 * section; `extra`, when not NULL, is one more column after the row's
 * (show: the record's file name, from its load). */
static void emit_cols(PGresult *res, int i, int first, int end, const char *section,
		      cl_history_fn fn, void *ctx, const struct cl_kv *extra)
{
	int cols = end - first, c;
	struct cl_kv kv[CL_HISTORY_MAX_COLS];

	if (cols > CL_HISTORY_MAX_COLS - 1)
		cols = CL_HISTORY_MAX_COLS - 1;
	for (c = 0; c < cols; c++) {
		const char *name = PQfname(res, first + c);
		size_t n = strlen(name);

		kv[c].name = name;
		kv[c].value = PQgetisnull(res, i, first + c) ? NULL : PQgetvalue(res, i, first + c);
		kv[c].account = is_account(name, n);
		kv[c].number = numeric_type(PQftype(res, first + c));
	}
	if (extra)
		kv[cols++] = *extra;
	fn(ctx, section, kv, cols);
}

static void emit_row(PGresult *res, int i, const char *section, cl_history_fn fn, void *ctx)
{
	emit_cols(res, i, 0, PQnfields(res), section, fn, ctx, NULL);
}

void cl_history_rows(PGresult *res, const char *section, cl_history_fn fn, void *ctx)
{
	int rows = PQntuples(res), i;

	for (i = 0; i < rows; i++)
		emit_row(res, i, section, fn, ctx);
}

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
	cl_history_rows(res, section, fn, ctx);
	PQclear(res);
	return CL_DB_OK;
}

/* The statements of one kind of lookup: the records (at most $3) and,
 * when there are more than shown, their number.  A trace, EndToEndId or
 * UETR also finds the returns and NOCs that name it as the original. */
struct lookup {
	const char *records;
	const char *count;
	const char *other_tenants;  /* when none is found in the tenant */
	const char *parked;         /* when none is found: the versions held or
				       quarantined (tenant $1, value $2) */
	/* the first three in columnar storage (NULL: the same), which has no
	   bitmap OR of a value's index and its original's */
	const char *records_columnar, *count_columnar, *other_tenants_columnar;
};

static const struct lookup lookups[] = {
	[CL_SHOW_KEY] = { CL_SQL_HISTORY_SHOW_BY_KEY, CL_SQL_HISTORY_COUNT_BY_KEY,
			  CL_SQL_HISTORY_OTHER_TENANTS_BY_KEY, CL_SQL_HISTORY_KEY_QUARANTINE },
	[CL_SHOW_TRACE] = { CL_SQL_HISTORY_SHOW_BY_TRACE, CL_SQL_HISTORY_COUNT_BY_TRACE,
			    CL_SQL_HISTORY_OTHER_TENANTS_BY_TRACE,
			    CL_SQL_HISTORY_QUARANTINE_BY_TRACE,
			    CL_SQL_HISTORY_SHOW_BY_TRACE_COLUMNAR,
			    CL_SQL_HISTORY_COUNT_BY_TRACE_COLUMNAR,
			    CL_SQL_HISTORY_OTHER_TENANTS_BY_TRACE_COLUMNAR },
	[CL_SHOW_E2E] = { CL_SQL_HISTORY_SHOW_BY_E2E, CL_SQL_HISTORY_COUNT_BY_E2E,
			  CL_SQL_HISTORY_OTHER_TENANTS_BY_E2E, CL_SQL_HISTORY_QUARANTINE_BY_E2E,
			  CL_SQL_HISTORY_SHOW_BY_E2E_COLUMNAR, CL_SQL_HISTORY_COUNT_BY_E2E_COLUMNAR,
			  CL_SQL_HISTORY_OTHER_TENANTS_BY_E2E_COLUMNAR },
	[CL_SHOW_UETR] = { CL_SQL_HISTORY_SHOW_BY_UETR, CL_SQL_HISTORY_COUNT_BY_UETR,
			   CL_SQL_HISTORY_OTHER_TENANTS_BY_UETR,
			   CL_SQL_HISTORY_QUARANTINE_BY_UETR,
			   CL_SQL_HISTORY_SHOW_BY_UETR_COLUMNAR,
			   CL_SQL_HISTORY_COUNT_BY_UETR_COLUMNAR,
			   CL_SQL_HISTORY_OTHER_TENANTS_BY_UETR_COLUMNAR },
};

/* The statements of lookup `by` for db's storage (into *out). */
static const struct lookup *lookup_of(const struct cl_db *db, enum cl_show_by by,
				      struct lookup *out)
{
	const struct lookup *q = (unsigned)by < sizeof(lookups) / sizeof(lookups[0])
					 ? &lookups[by]
					 : &lookups[CL_SHOW_KEY];

	*out = *q;
	if (db->columnar && q->records_columnar) {
		CL_FAILPOINT("show_columnar_lookup", db->conn);
		out->records = q->records_columnar;
		out->count = q->count_columnar;
		out->other_tenants = q->other_tenants_columnar;
	}
	return out;
}

enum cl_db_status cl_history_other_tenants(struct cl_db *db, enum cl_show_by by, const char *value,
					   const char *tenant, cl_history_fn fn, void *ctx,
					   struct cl_error *err)
{
	const char *p[2] = { tenant, value };
	PGresult *tenants;
	enum cl_db_status st;

	/* the other tenants first (a statement of the load history alone),
	   then their records: one statement could not run on Citus */
	if ((st = cl_db_exec(db, CL_SQL_HISTORY_TENANTS_OTHER, 1, p, &tenants, err)) != CL_DB_OK)
		return st;
	if (!PQgetisnull(tenants, 0, 0)) {
		struct lookup q;

		p[0] = PQgetvalue(tenants, 0, 0);
		st = run(db, lookup_of(db, by, &q)->other_tenants, 2, p, "tenant", fn, ctx, NULL,
			 err);
	}
	PQclear(tenants);
	return st;
}

/* The row of `loads` (history_loads_of: load_id first, in order) of load
 * `id`, or -1. */
static int load_row(PGresult *loads, const char *id)
{
	long long want = strtoll(id, NULL, 10);
	int lo = 0, hi = PQntuples(loads) - 1;

	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;
		long long got = strtoll(PQgetvalue(loads, mid, 0), NULL, 10);

		if (got == want)
			return mid;
		if (got < want)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

/* The rows of a facts answer (column 0: the record's place, from 1, in
 * order) that belong to record `place`, from *next on, as section, their
 * first `skip` columns left out. */
static void emit_facts(PGresult *res, int *next, long long place, int skip, const char *section,
		       cl_history_fn fn, void *ctx)
{
	for (; res && *next < PQntuples(res); ++*next) {
		if (strtoll(PQgetvalue(res, *next, 0), NULL, 10) != place)
			break;
		emit_cols(res, *next, skip, PQnfields(res), section, fn, ctx, NULL);
	}
}

/* Whether boolean column `name` of the first row of res is true (and
 * there is a row). */
static bool first_row_true(PGresult *res, const char *name)
{
	int c = PQfnumber(res, name);

	return c >= 0 && PQntuples(res) > 0 && strcmp(PQgetvalue(res, 0, c), "t") == 0;
}

/* Whether an event of `events` (history_events_of) names its record (row
 * i - 1 of rec, i its column 0) under another key than the record's own:
 * a matched key, or a kind or natural key not the record's.  Such an
 * event's journal row, and the version it parked, may be in any shard; an
 * event of the record's own key is in the record's shard. */
static bool event_of_other_key(PGresult *events, PGresult *rec)
{
	int c_mkey = PQfnumber(events, "matched_key");
	int c_kind = PQfnumber(events, CL_FIELD_NAME(kind));
	int c_key = PQfnumber(events, CL_FIELD_NAME(natural_key));
	int r_kind = PQfnumber(rec, CL_FIELD_NAME(kind));
	int r_key = PQfnumber(rec, CL_FIELD_NAME(natural_key));
	int j;

	if (!events)
		return false;
	/* (a result of another shape: as if every event were of another key) */
	if (c_mkey < 0 || c_kind < 0 || c_key < 0)
		return PQntuples(events) > 0;
	for (j = 0; j < PQntuples(events); j++) {
		long long i = strtoll(PQgetvalue(events, j, 0), NULL, 10);

		if (i < 1 || i > PQntuples(rec) || !PQgetisnull(events, j, c_mkey) ||
		    PQgetisnull(events, j, c_kind) || PQgetisnull(events, j, c_key) ||
		    strcmp(PQgetvalue(events, j, c_kind), PQgetvalue(rec, (int)i - 1, r_kind)) != 0 ||
		    strcmp(PQgetvalue(events, j, c_key), PQgetvalue(rec, (int)i - 1, r_key)) != 0)
			return true;
	}
	return false;
}

/* Each record of `rec` (its first n rows) followed by its load, the
 * dedupe events that hit it, its parked versions and the statement
 * entries that matched it: one statement for each of the four, whatever
 * n is; none for parked versions or matches when the tenant has none at
 * all (history_loads_of tells, in its two last columns). */
static enum cl_db_status show_facts(struct cl_db *db, PGresult *rec, int n, const char *tenant,
				    cl_history_fn fn, void *ctx, struct cl_error *err)
{
	int c_load = PQfnumber(rec, "load_id"), c_ord = PQfnumber(rec, "ordinal");
	int c_kind = PQfnumber(rec, CL_FIELD_NAME(kind));
	int c_key = PQfnumber(rec, CL_FIELD_NAME(natural_key));
	int c_uetr = PQfnumber(rec, CL_FIELD_NAME(uetr));
	int c_e2e = PQfnumber(rec, CL_FIELD_NAME(end_to_end_id));
	int c_txid = PQfnumber(rec, CL_FIELD_NAME(tx_id));
	int c_shard = PQfnumber(rec, CL_FIELD_NAME(shard));
	struct cl_text_array loads = { 0 }, ords = { 0 }, kinds = { 0 }, keys = { 0 };
	struct cl_text_array uetrs = { 0 }, e2es = { 0 }, txids = { 0 }, shards = { 0 };
	bool referenced = false; /* a record has a UETR or an EndToEndId */
	/* on Citus with the records' shards: every record of a kind whose
	   events are in its shard (rules/shard.h) */
	bool routed = db->citus && c_shard >= 0;
	/* the flag of parked versions history_loads_of answers (on Citus: in
	   the records' shards) */
	const char *parked_flag = db->citus ? "shards_have_parked" : "tenant_has_parked";
	bool parked;
	/* loads, events, parked, reconciled, decided, cancellations */
	PGresult *f[6] = { NULL, NULL, NULL, NULL, NULL, NULL };
	enum cl_db_status st;
	int i, load_cols, next[6] = { 0, 0, 0, 0, 0, 0 };

	for (i = 0; i < n; i++) {
		cl_text_array_add(&loads, PQgetvalue(rec, i, c_load));
		cl_text_array_add(&ords, PQgetvalue(rec, i, c_ord));
		cl_text_array_add(&kinds, PQgetvalue(rec, i, c_kind));
		cl_text_array_add(&keys, PQgetvalue(rec, i, c_key));
		/* ('' for none: the statement takes '' as none) */
		cl_text_array_add(&uetrs, c_uetr >= 0 ? PQgetvalue(rec, i, c_uetr) : "");
		cl_text_array_add(&e2es, c_e2e >= 0 ? PQgetvalue(rec, i, c_e2e) : "");
		cl_text_array_add(&txids, c_txid >= 0 ? PQgetvalue(rec, i, c_txid) : "");
		if (c_shard >= 0)
			cl_text_array_add(&shards, PQgetvalue(rec, i, c_shard));
		if (!cl_shard_holds_copies(PQgetvalue(rec, i, c_kind)))
			routed = false;
		if ((c_uetr >= 0 && *PQgetvalue(rec, i, c_uetr)) ||
		    (c_e2e >= 0 && *PQgetvalue(rec, i, c_e2e)))
			referenced = true;
	}
	{
		const char *lp[3] = { cl_text_array_text(&loads), tenant,
				      cl_text_array_text(&shards) };
		const char *ep[3] = { cl_text_array_text(&loads), cl_text_array_text(&ords),
				      cl_text_array_text(&shards) };
		const char *qp[5] = { tenant, cl_text_array_text(&kinds), cl_text_array_text(&keys),
				      cl_text_array_text(&loads), cl_text_array_text(&ords) };
		const char *cp[5] = { tenant, cl_text_array_text(&kinds), cl_text_array_text(&uetrs),
				      cl_text_array_text(&e2es), cl_text_array_text(&txids) };

		/* on Citus the parked versions in the records' shards (a
		   router plan), not the tenant's in every shard
		   (docs/design/0060-citus-show-routed.md) */
		if (db->citus)
			st = cl_db_exec(db, CL_SQL_HISTORY_LOADS_OF_CITUS, 3, lp, &f[0], err);
		else
			st = cl_db_exec(db, CL_SQL_HISTORY_LOADS_OF, 2, lp, &f[0], err);
		/* on Citus, records whose events are all in their own shards
		   (rules/shard.h): those shards alone (0062) */
		if (st == CL_DB_OK && routed)
			st = cl_db_exec(db, CL_SQL_HISTORY_EVENTS_OF_CITUS, 3, ep, &f[1], err);
		else if (st == CL_DB_OK)
			st = cl_db_exec(db, CL_SQL_HISTORY_EVENTS_OF, 2, ep, &f[1], err);
		/* the versions history_quarantine_of can find: under a record's
		   key (in its shard), or named by its journal row, an event
		   shown; on Citus one of another key may be in any shard */
		parked = first_row_true(f[0], parked_flag) ||
			 (db->citus && st == CL_DB_OK && event_of_other_key(f[1], rec));
		if (st == CL_DB_OK && parked)
			st = cl_db_exec(db, CL_SQL_HISTORY_QUARANTINE_OF, 5, qp, &f[2], err);
		if (st == CL_DB_OK && first_row_true(f[0], "tenant_has_reconciled"))
			st = cl_db_exec(db, CL_SQL_HISTORY_RECONCILED_OF, 3, qp, &f[3], err);
		if (st == CL_DB_OK && first_row_true(f[0], "tenant_has_decided"))
			st = cl_db_exec(db, CL_SQL_HISTORY_DECISIONS_OF, 3, qp, &f[4], err);
		/* a cancellation names its payment by UETR or EndToEndId: none
		   can name records that have neither (ACH's), and on Citus the
		   statement reads every shard of the records (the values are
		   data, not constants when it is planned) */
		if (st == CL_DB_OK && referenced)
			st = cl_db_exec(db, CL_SQL_HISTORY_CANCELLATIONS_OF, 5, cp, &f[5], err);
	}
	/* the load's own columns: those before the flags */
	load_cols = f[0] ? PQfnumber(f[0], parked_flag) : 0;
	for (i = 0; i < n && st == CL_DB_OK; i++) {
		int l = load_row(f[0], PQgetvalue(rec, i, c_load));
		int c_file = PQfnumber(f[0], "file_name");
		struct cl_kv file = { "file_name", NULL, false, false };

		/* the record itself (a one-row view of the result) with the
		   name of the file it came from, then the load that applied it */
		if (l >= 0 && !PQgetisnull(f[0], l, c_file))
			file.value = PQgetvalue(f[0], l, c_file);
		emit_cols(rec, i, 0, PQnfields(rec), "record", fn, ctx, &file);
		if (l >= 0)
			emit_cols(f[0], l, 0, load_cols, "load", fn, ctx, NULL);
		emit_facts(f[1], &next[1], i + 1, 1, "event", fn, ctx);
		/* (after i: the version's ordinal, its order) */
		emit_facts(f[2], &next[2], i + 1, 2, "quarantine", fn, ctx);
		/* the statement entries that matched it (reconcile) */
		emit_facts(f[3], &next[3], i + 1, 1, "reconciled", fn, ctx);
		/* the decisions on it as a break (clearing-load break) */
		emit_facts(f[4], &next[4], i + 1, 1, "decision", fn, ctx);
		/* the cancellation requests and answers naming it */
		emit_facts(f[5], &next[5], i + 1, 1, "cancellation", fn, ctx);
	}
	for (i = 0; i < 6; i++)
		PQclear(f[i]);
	cl_text_array_free(&loads);
	cl_text_array_free(&ords);
	cl_text_array_free(&kinds);
	cl_text_array_free(&keys);
	cl_text_array_free(&uetrs);
	cl_text_array_free(&e2es);
	cl_text_array_free(&txids);
	cl_text_array_free(&shards);
	return st;
}

enum cl_db_status cl_history_show(struct cl_db *db, enum cl_show_by by, const char *value,
				  const char *tenant, unsigned long limit, cl_history_fn fn, void *ctx,
				  unsigned long *found, unsigned long *total, struct cl_error *err)
{
	struct lookup storage;
	const struct lookup *q = lookup_of(db, by, &storage);
	char lim[24];
	const char *p[4] = { tenant, value, lim, NULL };
	PGresult *res, *shards = NULL;
	enum cl_db_status st;
	int n;

	*found = *total = 0;
	/* one more than asked for: tells whether there are more */
	snprintf(lim, sizeof(lim), "%lu", limit + 1);
	/* on Citus: one connection to each worker for all that show reads */
	if (db->citus &&
	    (st = cl_db_exec(db, CL_SQL_HISTORY_CONNECTIONS_CITUS, 0, NULL, NULL, err)) != CL_DB_OK)
		return st;
	if (by == CL_SHOW_TRACE) {
		/* the shards a trace's records are in: the lookup names them */
		if ((st = cl_db_exec(db, CL_SQL_HISTORY_TRACE_SHARDS, 2, p, &shards, err)) != CL_DB_OK)
			return st;
		p[3] = PQgetvalue(shards, 0, 0);
	}
	st = cl_db_exec(db, q->records, shards ? 4 : 3, p, &res, err);
	PQclear(shards);
	p[3] = NULL; /* freed with shards; the statements below take two */
	if (st != CL_DB_OK)
		return st;
	n = PQntuples(res);
	if ((unsigned long)n > limit)
		n = (int)limit;
	if (n > 0)
		st = show_facts(db, res, n, tenant, fn, ctx, err);
	*found = *total = (unsigned long)n;
	if (st == CL_DB_OK && (unsigned long)PQntuples(res) > limit) {
		/* more than shown: say how many there are */
		PGresult *cres;

		st = cl_db_exec(db, q->count, 2, p, &cres, err);
		if (st == CL_DB_OK) {
			*total = strtoul(PQgetvalue(cres, 0, 0), NULL, 10);
			PQclear(cres);
		}
	}
	PQclear(res);
	if (st == CL_DB_OK && n == 0 && by == CL_SHOW_KEY)
		st = run(db, CL_SQL_HISTORY_KEY_EVENTS, 2, p, "event", fn, ctx, NULL, err);
	if (st == CL_DB_OK && n == 0)
		st = run(db, q->parked, 2, p, "quarantine", fn, ctx, NULL, err);
	return st;
}

enum cl_db_status cl_history_lock_uuid(struct cl_db *db, const char *uuid, bool *running,
				       struct cl_error *err)
{
	const char *p[1] = { uuid };
	char got[8];
	enum cl_db_status st = cl_db_value(db, CL_SQL_HISTORY_LOCK_UUID, 1, p, got, sizeof(got), err);

	*running = st == CL_DB_OK && strcmp(got, "t") != 0;
	return st;
}

void cl_history_release_uuid(struct cl_db *db, const char *uuid)
{
	const char *p[1] = { uuid };
	PGresult *res;
	struct cl_error err;

	if (cl_db_exec(db, CL_SQL_HISTORY_UNLOCK_UUID, 1, p, &res, &err) == CL_DB_OK)
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
	st = run(db, CL_SQL_HISTORY_LOADS, 4, p, "load", fn, ctx, &rows, err);
	*found = (unsigned long)rows;
	return st;
}
