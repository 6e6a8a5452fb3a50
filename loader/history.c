/* history.c - show and loads (their statements: sql/loader/history.sql). */
#include "history.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader_sql.h"
#include "record.h"

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

/* Row i of res as section; `extra`, when not NULL, is one more column
 * after the row's (show: the record's file name, from its load). */
static void emit_row_with(PGresult *res, int i, const char *section, cl_history_fn fn, void *ctx,
			  const struct cl_kv *extra)
{
	int cols = PQnfields(res), c;
	struct cl_kv kv[CL_HISTORY_MAX_COLS];

	if (cols > CL_HISTORY_MAX_COLS - 1)
		cols = CL_HISTORY_MAX_COLS - 1;
	for (c = 0; c < cols; c++) {
		const char *name = PQfname(res, c);
		size_t n = strlen(name);

		kv[c].name = name;
		kv[c].value = PQgetisnull(res, i, c) ? NULL : PQgetvalue(res, i, c);
		kv[c].account = is_account(name, n);
		kv[c].number = numeric_type(PQftype(res, c));
	}
	if (extra)
		kv[cols++] = *extra;
	fn(ctx, section, kv, cols);
}

static void emit_row(PGresult *res, int i, const char *section, cl_history_fn fn, void *ctx)
{
	emit_row_with(res, i, section, fn, ctx, NULL);
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
};

static const struct lookup lookups[] = {
	[CL_SHOW_KEY] = { CL_SQL_HISTORY_SHOW_BY_KEY, CL_SQL_HISTORY_COUNT_BY_KEY,
			  CL_SQL_HISTORY_OTHER_TENANTS_BY_KEY, CL_SQL_HISTORY_KEY_QUARANTINE },
	[CL_SHOW_TRACE] = { CL_SQL_HISTORY_SHOW_BY_TRACE, CL_SQL_HISTORY_COUNT_BY_TRACE,
			    CL_SQL_HISTORY_OTHER_TENANTS_BY_TRACE,
			    CL_SQL_HISTORY_QUARANTINE_BY_TRACE },
	[CL_SHOW_E2E] = { CL_SQL_HISTORY_SHOW_BY_E2E, CL_SQL_HISTORY_COUNT_BY_E2E,
			  CL_SQL_HISTORY_OTHER_TENANTS_BY_E2E, CL_SQL_HISTORY_QUARANTINE_BY_E2E },
	[CL_SHOW_UETR] = { CL_SQL_HISTORY_SHOW_BY_UETR, CL_SQL_HISTORY_COUNT_BY_UETR,
			   CL_SQL_HISTORY_OTHER_TENANTS_BY_UETR,
			   CL_SQL_HISTORY_QUARANTINE_BY_UETR },
};

static const struct lookup *lookup_of(enum cl_show_by by)
{
	return (unsigned)by < sizeof(lookups) / sizeof(lookups[0]) ? &lookups[by]
								   : &lookups[CL_SHOW_KEY];
}

enum cl_db_status cl_history_other_tenants(struct cl_db *db, enum cl_show_by by, const char *value,
					   const char *tenant, cl_history_fn fn, void *ctx,
					   struct cl_error *err)
{
	const char *p[2] = { tenant, value };

	return run(db, lookup_of(by)->other_tenants, 2, p, "tenant", fn, ctx, NULL, err);
}

enum cl_db_status cl_history_show(struct cl_db *db, enum cl_show_by by, const char *value,
				  const char *tenant, unsigned long limit, cl_history_fn fn, void *ctx,
				  unsigned long *found, unsigned long *total, struct cl_error *err)
{
	const struct lookup *q = lookup_of(by);
	char lim[24];
	const char *p[3] = { tenant, value, lim };
	PGresult *res;
	enum cl_db_status st;
	int i, n;

	*found = *total = 0;
	/* one more than asked for: tells whether there are more */
	snprintf(lim, sizeof(lim), "%lu", limit + 1);
	if ((st = cl_db_exec(db, q->records, 3, p, &res, err)) != CL_DB_OK)
		return st;
	n = PQntuples(res);
	if ((unsigned long)n > limit)
		n = (int)limit;
	for (i = 0; i < n && st == CL_DB_OK; i++) {
		const char *rp[3];
		int c_load = PQfnumber(res, "load_id"), c_ord = PQfnumber(res, "ordinal");
		int c_kind = PQfnumber(res, CL_FIELD_NAME(kind));
		int c_key = PQfnumber(res, CL_FIELD_NAME(natural_key));

		PGresult *lres;
		struct cl_kv file = { "file_name", NULL, false, false };

		/* the record itself (a one-row view of the result) with the
		   name of the file it came from, then the load that applied it */
		rp[0] = PQgetvalue(res, i, c_load);
		if ((st = cl_db_exec(db, CL_SQL_HISTORY_LOAD, 1, rp, &lres, err)) != CL_DB_OK)
			break;
		if (PQntuples(lres) && !PQgetisnull(lres, 0, PQfnumber(lres, "file_name")))
			file.value = PQgetvalue(lres, 0, PQfnumber(lres, "file_name"));
		emit_row_with(res, i, "record", fn, ctx, &file);
		cl_history_rows(lres, "load", fn, ctx);
		PQclear(lres);
		rp[1] = PQgetvalue(res, i, c_ord);
		if (st == CL_DB_OK)
			st = run(db, CL_SQL_HISTORY_EVENTS, 2, rp, "event", fn, ctx, NULL, err);
		{
			const char *qp[5] = { tenant, PQgetvalue(res, i, c_kind),
					      PQgetvalue(res, i, c_key), PQgetvalue(res, i, c_load),
					      PQgetvalue(res, i, c_ord) };

			if (st == CL_DB_OK)
				st = run(db, CL_SQL_HISTORY_QUARANTINE, 5, qp, "quarantine", fn,
					 ctx, NULL, err);
			/* the statement entries that matched it (reconcile) */
			if (st == CL_DB_OK)
				st = run(db, CL_SQL_RECONCILE_SHOW, 3, qp, "reconciled", fn, ctx,
					 NULL, err);
		}
	}
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
