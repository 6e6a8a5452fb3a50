/*
 * backlog.h - what waits for a person, read from the database for ingest's
 * metrics (the statements: sql/loader/backlog.sql): unresolved conflicts,
 * held and quarantined loads still waiting, statements not reconciled, the
 * last reconcile run's differences; each with the age of the oldest.
 *
 * A figure that cannot be read (no privilege, the database unreachable,
 * row security hiding the tenant from this login) is not given: its why[]
 * says so, never a false 0.
 */
#ifndef CL_BACKLOG_H
#define CL_BACKLOG_H

#include <stdbool.h>

#include "loader/db.h"

enum cl_backlog_kind {
	CL_BACKLOG_CONFLICTS,    /* parked versions unresolved */
	CL_BACKLOG_HELD,         /* held loads waiting */
	CL_BACKLOG_QUARANTINED,  /* quarantined loads with a conflict unresolved */
	CL_BACKLOG_STATEMENTS,   /* statements no reconcile run has taken */
	CL_BACKLOG_DIFFERENCES,  /* the last reconcile run's unmatched entries and
	                            exceptions; age: of that run */
	/* open reconcile breaks (undecided: clearing-load break) by status;
	   age: of the oldest, since its date */
	CL_BACKLOG_BREAKS_THEIRS, CL_BACKLOG_BREAKS_EXCEPTION, CL_BACKLOG_BREAKS_OURS,
	CL_BACKLOG_BREAKS_SUGGESTED,
	CL_BACKLOG_NKINDS
};

/* "conflicts", "held_loads", "quarantined_loads", "unreconciled_statements",
 * "reconcile_differences", "breaks_unmatched_theirs", "breaks_exception",
 * "breaks_unmatched_ours", "breaks_suggested" */
const char *cl_backlog_name(enum cl_backlog_kind k);

struct cl_backlog_figure {
	bool read;                 /* false: why[] says why not */
	bool none;                 /* differences: no reconcile run yet */
	unsigned long long count;
	long long oldest_seconds;  /* 0 when count is 0 */
	char why[640];
};

/* Read every figure of `tenant` (db may be NULL or closed: each figure
 * then says the database was not reached, with `unreached`). */
void cl_backlog_read(struct cl_db *db, const char *tenant, const char *unreached,
		     struct cl_backlog_figure out[CL_BACKLOG_NKINDS]);

#endif
