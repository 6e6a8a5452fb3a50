/* watchdog.c - bound each wait for the server (see watchdog.h). */
#include "loader/watchdog.h"

#include <libpq-fe.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>

static unsigned limit_s;
static volatile sig_atomic_t fired;
static volatile sig_atomic_t armed_fd = -1;

static void on_alarm(int sig)
{
	(void)sig;
	fired = 1;
	if (armed_fd >= 0)
		shutdown(armed_fd, SHUT_RDWR);
}

void cl_watchdog_set_limit(unsigned seconds)
{
	struct sigaction sa;

	limit_s = seconds;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0; /* no SA_RESTART: a blocked poll() returns */
	sigaction(SIGALRM, &sa, NULL);
}

unsigned cl_watchdog_limit(void)
{
	return limit_s;
}

static void set_timer(unsigned seconds)
{
	struct itimerval it;

	memset(&it, 0, sizeof(it));
	it.it_value.tv_sec = seconds;
	setitimer(ITIMER_REAL, &it, NULL);
}

void cl_watchdog_arm(struct pg_conn *conn)
{
	if (!limit_s || !conn)
		return;
	set_timer(0);
	fired = 0;
	armed_fd = PQsocket(conn);
	set_timer(limit_s);
}

void cl_watchdog_disarm(void)
{
	if (!limit_s)
		return;
	set_timer(0);
	armed_fd = -1;
}

bool cl_watchdog_fired(void)
{
	return fired != 0;
}
