/* breaks.c - decisions on reconcile's breaks (breaks.h; statements:
 * sql/loader/breaks.sql). */
#include "loader/breaks.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"
#include "gen/loader_sql.h"
#include "loader/failpoint.h"

const char *cl_break_action_word(enum cl_break_action a)
{
	switch (a) {
	case CL_BREAK_ACCEPT:
		return "accept";
	case CL_BREAK_MATCH:
		return "match";
	case CL_BREAK_WRITE_OFF:
		return "write_off";
	case CL_BREAK_REOPEN:
		break;
	}
	return "reopen";
}

void cl_break_result_free(struct cl_break_result *r)
{
	free(r->items);
	r->items = NULL;
	r->n = 0;
}


static const char *or_null(const char *s)
{
	return s && *s ? s : NULL;
}

static void add_id(void *ctx, const struct cl_break_row *row)
{
	cl_text_array_add(ctx, row->item_id);
}

struct decide_txn {
	const char *tenant;
	enum cl_break_action a;
	char *const *ids, *const *records;
	size_t n, nrec;
	const struct cl_break_filter *f;
	const char *reason;
	struct cl_break_result *r;
};

static enum cl_db_status decide_txn(struct cl_db *db, void *ctx, struct cl_error *err)
{
	struct decide_txn *t = ctx;
	struct cl_text_array ids = { 0 }, recs = { 0 };
	const char *p[5];
	PGresult *res = NULL;
	enum cl_db_status st;
	bool ok = true;

	cl_break_result_free(t->r);
	t->r->committed = false;
	if ((st = cl_db_exec(db, CL_SQL_DB_BEGIN, 0, NULL, NULL, err)) != CL_DB_OK)
		return st;
	for (size_t i = 0; i < t->n; i++)
		cl_text_array_add(&ids, t->ids[i]);
	for (size_t i = 0; i < t->nrec; i++)
		cl_text_array_add(&recs, t->records[i]);
	if (t->n == 0)
		st = cl_break_list(db, t->tenant, t->f, add_id, &ids, err);
	if (st == CL_DB_OK && ids.n > 0) {
		p[0] = t->tenant;
		p[1] = cl_break_action_word(t->a);
		p[2] = cl_text_array_text(&ids);
		p[3] = cl_text_array_text(&recs);
		p[4] = t->reason;
		st = cl_db_exec(db, CL_SQL_BREAKS_DECIDE, 5, p, &res, err);
	}
	cl_text_array_free(&ids);
	cl_text_array_free(&recs);
	if (st != CL_DB_OK || !res)
		return st;
	t->r->n = (size_t)PQntuples(res);
	t->r->items = cl_xcalloc(t->r->n ? t->r->n : 1, sizeof(*t->r->items));
	for (size_t i = 0; i < t->r->n; i++) {
		struct cl_break_answer *a = &t->r->items[i];

		snprintf(a->item_id, sizeof(a->item_id), "%s", cl_db_get(res, (int)i, "item_id"));
		snprintf(a->outcome, sizeof(a->outcome), "%s", cl_db_get(res, (int)i, "outcome"));
		snprintf(a->detail, sizeof(a->detail), "%s", cl_db_get(res, (int)i, "detail"));
		if (strcmp(a->outcome, "refused") == 0 || strcmp(a->outcome, "not_found") == 0)
			ok = false;
	}
	PQclear(res);
	if (!ok)
		return CL_DB_OK; /* all or nothing: the caller rolls back */
	CL_FAILPOINT("break_before_commit", db->conn);
	if ((st = cl_db_exec(db, CL_SQL_DB_COMMIT, 0, NULL, NULL, err)) != CL_DB_OK)
		return st;
	t->r->committed = true;
	return CL_DB_OK;
}

enum cl_db_status cl_break_decide(struct cl_db *db, const char *tenant, enum cl_break_action a,
				  char *const *ids, size_t n, char *const *records, size_t nrec,
				  const struct cl_break_filter *f, const char *reason,
				  struct cl_break_result *r, struct cl_error *err)
{
	struct decide_txn t = { tenant, a, ids, records, n, nrec, f, reason, r };
	enum cl_db_status st;

	memset(r, 0, sizeof(*r));
	st = cl_db_run_txn(db, decide_txn, &t, NULL, err);
	cl_db_rollback(db);
	return st;
}

enum cl_db_status cl_break_list(struct cl_db *db, const char *tenant,
				const struct cl_break_filter *f, cl_break_row_fn *fn, void *ctx,
				struct cl_error *err)
{
	const char *p[5] = { tenant, or_null(f->account), or_null(f->day), or_null(f->status),
			     or_null(f->reason) };
	PGresult *res;
	enum cl_db_status st;

	if ((st = cl_db_exec(db, CL_SQL_BREAKS_OPEN, 5, p, &res, err)) != CL_DB_OK)
		return st;
	for (int i = 0; i < PQntuples(res); i++) {
		struct cl_break_row row = {
#define COL(c) .c = cl_db_get(res, i, #c)
			COL(item_id),	     COL(status),     COL(reason),	COL(statement_key),
			COL(account),	     COL(amount_minor), COL(currency),	COL(item_date),
			COL(side),	     COL(item_kind),  COL(item_key),	COL(record_kind),
			COL(record_key),     COL(run_id),     COL(first_reported), COL(age_days),
#undef COL
		};

		fn(ctx, &row);
	}
	PQclear(res);
	return CL_DB_OK;
}
