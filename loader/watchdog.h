/*
 * watchdog.h - every wait for the server bounded (--wait-limit).
 *
 * libpq's calls block until the server answers; a connection that stalls
 * without a reset (a hung pooler, a silent network partition) would make
 * a load wait for ever while holding its tenant's lock.  Each wait is
 * armed here: an alarm (SIGALRM) that fires when the wait passes the limit
 * shuts the connection's socket down (shutdown(2) is async-signal-safe),
 * so the blocked call returns a lost connection.  Before COMMIT was sent
 * that is a rolled-back, retryable load; after, the third outcome, settled
 * by the load UUID (commit.c).  The limit also becomes libpq's
 * connect_timeout unless the conninfo or PGCONNECT_TIMEOUT sets one.
 */
#ifndef CL_WATCHDOG_H
#define CL_WATCHDOG_H

#include <stdbool.h>

struct pg_conn;

#define CL_WAIT_LIMIT_DEFAULT 300 /* seconds */

/* Set the limit (0: none, the default until called) and install the
 * handler. */
void cl_watchdog_set_limit(unsigned seconds);
unsigned cl_watchdog_limit(void);

/* Before a call that waits for `conn`'s server: (re)start the alarm. */
void cl_watchdog_arm(struct pg_conn *conn);
/* After it: stop the alarm. */
void cl_watchdog_disarm(void);
/* Did the alarm of the last armed wait fire?  (Cleared by arm.) */
bool cl_watchdog_fired(void);

#endif
