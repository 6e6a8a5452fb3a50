/* prune.c - journal retention, load by load (prune.h; statements:
 * sql/loader/prune.sql). */
#include "loader/prune.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/loader_sql.h"

#define LOADS_PER_QUERY 1000


/* One load's journal rows removed, in a transaction of its own
 * (cl_db_run_txn's ctx and body: a deadlock or serialization failure runs
 * it again). */
struct prune_txn {
	const char *load_id, *dup;
	unsigned long long removed;
};

static enum cl_db_status prune_txn(struct cl_db *db, void *ctx, struct cl_error *err)
{
	struct prune_txn *t = ctx;
	const char *pe[2] = { t->load_id, t->dup };
	const char *why[1] = { "prune" };
	PGresult *del;
	enum cl_db_status st;

	if ((st = cl_db_exec(db, CL_SQL_DB_BEGIN, 0, NULL, NULL, err)) != CL_DB_OK ||
	    (st = cl_db_exec(db, CL_SQL_DB_MAINTENANCE, 1, why, NULL, err)) != CL_DB_OK ||
	    (db->citus &&
	     ((st = cl_db_exec(db, CL_SQL_PRUNE_CITUS_PROPAGATE, 0, NULL, NULL, err)) != CL_DB_OK ||
	      (st = cl_db_exec(db, CL_SQL_PRUNE_CITUS_MAINTENANCE, 0, NULL, NULL, err)) != CL_DB_OK)) ||
	    (st = cl_db_exec(db, CL_SQL_PRUNE_NO_SEQSCAN, 0, NULL, NULL, err)) != CL_DB_OK ||
	    (st = cl_db_exec(db, CL_SQL_PRUNE_LOAD_EVENTS, 2, pe, &del, err)) != CL_DB_OK)
		return st;
	t->removed = strtoull(PQcmdTuples(del), NULL, 10);
	PQclear(del);
	return cl_db_exec(db, CL_SQL_DB_COMMIT, 0, NULL, NULL, err);
}

enum cl_db_status cl_prune_journal(struct cl_db *db, const char *before, bool duplicates_only,
				   struct cl_prune_result *r, struct cl_error *err)
{
	const char *dup = duplicates_only ? "true" : "false";
	char after[24] = "0", count[24], loads[24], events[24], id[24];
	enum cl_db_status st;

	memset(r, 0, sizeof(*r));
	snprintf(count, sizeof(count), "%d", LOADS_PER_QUERY);
	for (;;) {
		const char *pl[3] = { before, after, count };
		PGresult *res;
		int n;

		if ((st = cl_db_exec(db, CL_SQL_PRUNE_LOADS, 3, pl, &res, err)) != CL_DB_OK)
			return st;
		n = PQntuples(res);
		for (int i = 0; i < n; i++) {
			struct prune_txn t = { PQgetvalue(res, i, 0), dup, 0 };

			if ((st = cl_db_run_txn(db, prune_txn, &t, NULL, err)) != CL_DB_OK) {
				PQclear(res);
				cl_db_rollback(db);
				return st;
			}
			r->events += t.removed;
			r->loads += t.removed > 0;
		}
		if (n)
			snprintf(after, sizeof(after), "%s", PQgetvalue(res, n - 1, 0));
		PQclear(res);
		if (n < LOADS_PER_QUERY)
			break;
	}
	snprintf(loads, sizeof(loads), "%llu", r->loads);
	snprintf(events, sizeof(events), "%llu", r->events);
	{
		const char *pa[4] = { before, dup, loads, events };

		if ((st = cl_db_value(db, CL_SQL_PRUNE_RECORD_AUDIT, 4, pa, id, sizeof(id), err)) !=
		    CL_DB_OK)
			return st;
	}
	r->prune_id = strtoll(id, NULL, 10);
	return CL_DB_OK;
}
