/* failpoint.c - the test-build failpoints (see failpoint.h). */
#include "loader/failpoint.h"

#ifdef CL_FAILPOINTS
#include <libpq-fe.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* The point acted in this attempt. */
static bool reached;

void cl_failpoint_rearm(void)
{
	reached = false;
}

void cl_failpoint(const char *name, struct pg_conn *conn)
{
	const char *want = getenv("CL_FAILPOINT");
	size_t n = strlen(name);
	const char *action;

	if (reached || !want || strncmp(want, name, n) != 0 ||
	    (want[n] != '\0' && want[n] != ':'))
		return;
	reached = true;
	action = want[n] == ':' ? want + n + 1 : "kill";
	if (strcmp(action, "disconnect") == 0) {
		if (conn && PQsocket(conn) >= 0)
			shutdown(PQsocket(conn), SHUT_RDWR);
	} else if (strcmp(action, "stop") == 0) {
		raise(SIGSTOP);
	} else {
		raise(SIGKILL);
	}
}
#else
/* ISO C wants at least one declaration in a translation unit. */
typedef int cl_failpoint_unused;
#endif
