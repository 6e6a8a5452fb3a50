/* commit.c - COMMIT, and the third outcome when its result is lost. */
#include "loader/load_int.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/loader_sql.h"
#include "loader/failpoint.h"

#define RECONNECT_ATTEMPTS 5

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
enum cl_db_status cl_load_commit(struct load *L)
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
	st = cl_load_exec0(L, CL_SQL_DB_COMMIT);
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
		if (cl_db_exec(L->db, CL_SQL_COMMIT_BACKEND_ALIVE, 1, p, &res, &L->r->err) !=
		    CL_DB_OK)
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
	if (cl_db_exec(L->db, CL_SQL_COMMIT_FIND_LOAD, 1, p, &res, &L->r->err) != CL_DB_OK)
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

