/* backlog.c - what waits for a person (backlog.h). */
#include "loader/backlog.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/loader_sql.h"

const char *cl_backlog_name(enum cl_backlog_kind k)
{
	static const char *const names[CL_BACKLOG_NKINDS] = {
		"conflicts", "held_loads", "quarantined_loads", "unreconciled_statements",
		"reconcile_differences", "breaks_unmatched_theirs", "breaks_exception",
		"breaks_unmatched_ours", "breaks_suggested",
	};

	return (unsigned)k < CL_BACKLOG_NKINDS ? names[k] : "unknown";
}

static void not_read(struct cl_backlog_figure *f, const char *why)
{
	f->read = false;
	snprintf(f->why, sizeof(f->why), "%s", why);
}

/* One figure: `sql` of the tenant (and the load outcome, when not NULL). */
static void read_one(struct cl_db *db, const char *sql, const char *tenant, const char *outcome,
		     struct cl_backlog_figure *f)
{
	const char *p[2] = { tenant, outcome };
	struct pg_result *res;
	struct cl_error err;

	if (cl_db_exec(db, sql, outcome ? 2 : 1, p, &res, &err) != CL_DB_OK) {
		char why[sizeof(f->why)];

		snprintf(why, sizeof(why), "%s%s%s%s", err.message, err.sqlstate[0] ? " (SQLSTATE " : "",
			 err.sqlstate, err.sqlstate[0] ? ")" : "");
		not_read(f, why);
		return;
	}
	f->read = true;
	if (PQntuples(res) == 0) {
		f->none = true;
	} else {
		f->count = strtoull(PQgetvalue(res, 0, 0), NULL, 10);
		f->oldest_seconds = strtoll(PQgetvalue(res, 0, 1), NULL, 10);
	}
	PQclear(res);
}

void cl_backlog_read(struct cl_db *db, const char *tenant, const char *unreached,
		     struct cl_backlog_figure out[CL_BACKLOG_NKINDS])
{
	static const char *const sql[CL_BACKLOG_NKINDS] = {
		CL_SQL_BACKLOG_CONFLICTS, CL_SQL_BACKLOG_LOADS, CL_SQL_BACKLOG_LOADS,
		CL_SQL_BACKLOG_STATEMENTS, CL_SQL_BACKLOG_DIFFERENCES, CL_SQL_BACKLOG_BREAKS,
		CL_SQL_BACKLOG_BREAKS, CL_SQL_BACKLOG_BREAKS, CL_SQL_BACKLOG_BREAKS,
	};
	/* the load outcome, or the breaks' status */
	static const char *const outcome[CL_BACKLOG_NKINDS] = {
		NULL, "held", "quarantined", NULL, NULL,
		"unmatched_theirs", "exception", "unmatched_ours", "suggested",
	};
	const char *p[1] = { tenant };
	char visible[8] = "";
	struct cl_error err;

	memset(out, 0, CL_BACKLOG_NKINDS * sizeof(*out));
	if (!db || !db->conn) {
		for (int k = 0; k < CL_BACKLOG_NKINDS; k++)
			not_read(&out[k], unreached);
		return;
	}
	if (cl_db_value(db, CL_SQL_BACKLOG_VISIBLE, 1, p, visible, sizeof(visible), &err) !=
	    CL_DB_OK) {
		for (int k = 0; k < CL_BACKLOG_NKINDS; k++)
			not_read(&out[k], err.message);
		return;
	}
	if (strcmp(visible, "t") != 0) {
		for (int k = 0; k < CL_BACKLOG_NKINDS; k++)
			not_read(&out[k], "row security hides the tenant from this login");
		return;
	}
	for (int k = 0; k < CL_BACKLOG_NKINDS; k++)
		read_one(db, sql[k], tenant, outcome[k], &out[k]);
}
