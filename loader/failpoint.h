/*
 * failpoint.h - named points where a test build can make the loader die.
 *
 * Compiled to nothing unless built with -DCL_FAILPOINTS=1 (make
 * FAILPOINTS=1).  In such a build the environment variable
 *
 *   CL_FAILPOINT=NAME[:kill|:disconnect|:stop]
 *
 * makes the process, on reaching the point NAME, SIGKILL itself (kill, the
 * default), shut down its connection's socket (disconnect: the server sees
 * the client vanish, the loader sees a broken connection at its next call),
 * or SIGSTOP itself (stop: a test can act on the server, then SIGCONT it).
 * A point acts once an attempt, the first time it is reached: a load that
 * falls back within its attempt (a file taken for new classified again in
 * full, a file read again to be staged) passes it the second time, so a
 * test stops or kills the attempt at the place it names, not at a later
 * one.  A file's load attempt and a transaction or statement run again
 * after a transient error are new attempts (CL_FAILPOINT_REARM at their
 * start): a retry reaches the point again.  Anything else a command does
 * between them is one attempt: init's migrations (init_between_migrations
 * acts after the first), ingest's completion of earlier runs' moves.
 *
 * The names are an interface of the test suite:
 *   after_load_row, mid_copy, after_insert, after_journal, before_commit,
 *   after_commit (committed, before the report is printed),
 *   direct_copied (a new file's records COPYed straight into clearing_record,
 *   decision 0058: reached only on that path),
 *   near_side_start (a second connection for a new file's near-duplicate
 *   probe about to be opened, decision 0059),
 *   near_side_sent (its near-duplicate probe sent on the second connection,
 *   decision 0059; `conn` is that connection, so disconnect cuts it alone),
 *   near_side_clear (that probe's answer read after the COPY: no near
 *   duplicate, the probe on the first connection spared),
 *   classify_again (on Citus, a classification that journaled its exact
 *   matches about to be undone, decision 0061: a conflict among them, or
 *   the file held),
 *   init_between_migrations,
 *   init_roles_recorded (init's roles transaction: the roles recorded, before
 *   the grants and row-level security),
 *   reconcile_before_commit, reconcile_after_commit (a reconcile run's
 *   transaction; after: committed, before the answer is printed),
 *   ingest_before_move (committed, before the move's note), ingest_after_link
 *   (the file in the inbox and the archive), ingest_after_unlink,
 *   ingest_before_archive_row (the reason file written, not the row),
 *   break_before_commit (a decision on breaks recorded, before its COMMIT),
 *   show_columnar_lookup (show about to send a lookup of a value or its
 *   original in its form for columnar storage, history.sql),
 *   reconcile_copied (reconcile has copied the records a statement may
 *   read: on Citus and in columnar storage, reconcile_copy.sql),
 *   classify_sample (a file's key sample about to be asked whether the
 *   file is new: not in columnar storage).
 */
#ifndef CL_FAILPOINT_H
#define CL_FAILPOINT_H

#ifdef CL_FAILPOINTS
struct pg_conn;
/* Act when CL_FAILPOINT names `name`; `conn` may be NULL. */
void cl_failpoint(const char *name, struct pg_conn *conn);
/* A new attempt: the point acts again. */
void cl_failpoint_rearm(void);
#define CL_FAILPOINT(name, conn) cl_failpoint((name), (conn))
#define CL_FAILPOINT_REARM() cl_failpoint_rearm()
#else
#define CL_FAILPOINT(name, conn) ((void)0)
#define CL_FAILPOINT_REARM() ((void)0)
#endif

#endif
