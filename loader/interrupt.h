/*
 * interrupt.h - SIGINT and SIGTERM during a load or diff.
 *
 * The first signal is remembered and cancels the statement the server is
 * running (PQcancel is async-signal-safe), so the file's transaction rolls
 * back at once and the command can say which file it was and what became
 * of it; the stage stops reading.  A second signal of the same kind ends
 * the process as the default action would (nothing is half-applied: the
 * transaction is the unit).
 */
#ifndef CL_INTERRUPT_H
#define CL_INTERRUPT_H

struct pg_conn;

/* Handlers for SIGINT and SIGTERM (commands that change or read the
 * database by the file: load, diff, ingest). */
void cl_interrupt_install(void);
/* 0, or the first signal that came. */
int cl_interrupt_signal(void);
/* The connection a signal cancels the statement of (NULL: none). */
void cl_interrupt_watch(struct pg_conn *conn);

#endif
