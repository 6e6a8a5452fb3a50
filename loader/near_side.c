/* near_side.c - a new NACHA file's near-duplicate probe on a second
 * connection, run while the first COPYs the file's records into
 * clearing_record (decision 0059).  The probe is classify_near's
 * (classify.sql, classify_near_side): only where its records come from
 * differs, a table of the second connection's own.  Best effort: any
 * failure here closes the second connection, and classify.c then probes
 * after the COPY on the first, as for a smaller file. */
#include "loader/load_int.h"

#include <errno.h>
#include <libpq-fe.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"
#include "gen/loader_sql.h"
#include "loader/failpoint.h"
#include "loader/interrupt.h"
#include "loader/row.h"
#include "loader/watchdog.h"

/* The file read again (cl_stage_reread, as the load's own later reads),
 * each record's probe columns COPYed to the second connection.  False
 * when this read is not the first one's (the first connection's own read
 * then says the file changed: a parse error is not kept here, the second
 * connection reports nothing), was interrupted, or the COPY failed (the
 * connection lost or cut by the watchdog): read no further then. */
static bool copy_file(struct load *L, struct cl_copy_in *c)
{
	struct cl_parser *p = NULL;
	const struct cl_record *rec;
	struct cl_error e;
	enum cl_status ps = CL_OK;
	unsigned long n = 0;

	if (cl_stage_open_parser(L, &p, &e) != CL_OK) {
		cl_parser_free(p);
		return false;
	}
	while (!c->failed && !cl_interrupt_signal() &&
	       (ps = cl_stage_reread(p, &rec, NULL)) == CL_OK) {
		n++;
		cl_row_copy_near(c, rec, L->o->tenant);
	}
	cl_parser_free(p);
	if (ps != CL_END) /* (CL_OK: stopped before the end) */
		return false;
	cl_stage_drain(L);
	return n == L->stage.first_records &&
	       strcmp(cl_input_sha256_hex(L->in), L->stage.first_sha) == 0;
}

/* Each wait of the second connection's setup (connecting included) is
 * bounded by this many seconds, or by --wait-limit when shorter: a pooler
 * with no server connection to spare, or a server slow to accept one,
 * would otherwise hold up the load for a connection it can do without. */
#define SETUP_WAIT_LIMIT 10

/* One statement on the second connection: true when it ran.  Not
 * cl_db_exec: nothing of the second connection is reported or retried. */
static bool side_exec(struct cl_db *side, const char *sql)
{
	PGresult *res;
	bool ok;

	cl_watchdog_arm(side->conn);
	res = PQexec(side->conn, sql);
	cl_watchdog_disarm();
	ok = PQresultStatus(res) == PGRES_COMMAND_OK;
	PQclear(res);
	return ok;
}

void cl_near_side_start(struct load *L)
{
	struct cl_db *side = &L->near_side;
	struct cl_copy_in *c;
	struct cl_error err;
	unsigned limit = cl_watchdog_limit();
	bool ok;

	side->conn = NULL;
	if (L->db->citus || !L->direct || L->r->records < CL_NEAR_SIDE_MIN)
		return;
	CL_FAILPOINT("near_side_start", L->db->conn);
	memset(&err, 0, sizeof(err));
	cl_watchdog_set_limit(limit && limit < SETUP_WAIT_LIMIT ? limit : SETUP_WAIT_LIMIT);
	ok = cl_db_connect_beside(side, L->db, &err) == CL_DB_OK;
	c = cl_xmalloc(sizeof(*c));
	ok = ok && side_exec(side, CL_SQL_DB_BEGIN) &&
	     side_exec(side, CL_SQL_CLASSIFY_NEAR_SIDE_LOCK_TIMEOUT) &&
	     side_exec(side, CL_SQL_CLASSIFY_NEAR_SIDE_CREATE) &&
	     cl_copy_in_begin(c, side, CL_SQL_CLASSIFY_NEAR_SIDE_COPY, &err) == CL_DB_OK;
	if (ok && !copy_file(L, c)) {
		cl_copy_in_abort(c, "the file was not read as the first time, or the COPY failed");
		ok = false;
	} else if (ok) {
		ok = cl_copy_in_end(c, NULL, &err) == CL_DB_OK;
	}
	free(c);
	if (ok) {
		/* not waited for: its answer is read after the COPY
		   (cl_near_side_clear) */
		cl_watchdog_arm(side->conn);
		ok = PQsendQueryParams(side->conn, CL_SQL_CLASSIFY_NEAR_SIDE, 0, NULL, NULL, NULL,
				       NULL, 0) == 1;
		cl_watchdog_disarm();
	}
	cl_watchdog_set_limit(limit);
	if (!ok) {
		cl_db_close_beside(side);
		return;
	}
	CL_FAILPOINT("near_side_sent", side->conn);
}

/* Until the answer is in (true), or a signal came (false): a signal
 * cancels the first connection's statement only, and the first is idle
 * meanwhile.  Woken at least every 200 ms to look. */
static bool wait_answer(PGconn *conn)
{
	struct pollfd pfd;

	pfd.fd = PQsocket(conn);
	pfd.events = POLLIN;
	while (PQisBusy(conn)) {
		if (cl_interrupt_signal())
			return false;
		if (poll(&pfd, 1, 200) < 0 && errno != EINTR)
			return false;
		if (!PQconsumeInput(conn))
			return true; /* PQgetResult says what failed */
	}
	return true;
}

bool cl_near_side_clear(struct load *L)
{
	struct cl_db *side = &L->near_side;
	PGresult *res;
	bool answered = false, clear = false;

	if (!side->conn)
		return false;
	cl_watchdog_arm(side->conn);
	if (!wait_answer(side->conn)) {
		cl_watchdog_disarm();
		cl_near_side_close(L);
		return false;
	}
	while ((res = PQgetResult(side->conn)) != NULL) {
		if (!answered && PQresultStatus(res) == PGRES_TUPLES_OK)
			clear = PQntuples(res) == 0;
		else
			clear = false; /* an error, or more than its answer */
		answered = true;
		PQclear(res);
	}
	cl_watchdog_disarm();
	cl_db_close_beside(side);
	if (clear)
		CL_FAILPOINT("near_side_clear", L->db->conn);
	return clear;
}

void cl_near_side_close(struct load *L)
{
	struct cl_db *side = &L->near_side;
	PGcancel *cancel;
	char why[256];

	if (!side->conn)
		return;
	/* a probe still running (the load ended before it needed the
	   answer): stopped, not left to run on in the server */
	if (PQtransactionStatus(side->conn) == PQTRANS_ACTIVE &&
	    (cancel = PQgetCancel(side->conn)) != NULL) {
		(void)PQcancel(cancel, why, (int)sizeof(why));
		PQfreeCancel(cancel);
	}
	cl_db_close_beside(side);
}
