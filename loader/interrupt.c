/* interrupt.c - SIGINT/SIGTERM cancel the running statement (interrupt.h). */
#include "loader/interrupt.h"

#include <libpq-fe.h>
#include <signal.h>
#include <string.h>

static volatile sig_atomic_t got;
static PGcancel *volatile cancel;

static void on_signal(int sig)
{
	PGcancel *c = cancel;
	char buf[256];

	if (!got)
		got = sig;
	signal(sig, SIG_DFL); /* a second one ends the process */
	if (c)
		(void)PQcancel(c, buf, sizeof(buf));
}

void cl_interrupt_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

int cl_interrupt_signal(void)
{
	return got;
}

void cl_interrupt_watch(struct pg_conn *conn)
{
	sigset_t block, old;
	PGcancel *c = conn ? PQgetCancel(conn) : NULL, *prev;

	/* the handler never sees a freed object */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &old);
	prev = cancel;
	cancel = c;
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (prev)
		PQfreeCancel(prev);
}
