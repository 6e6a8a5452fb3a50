/*
 * ingest_report.h - what an ingest run tells beyond its output lines: the
 * Prometheus metrics file and the --on-event command.
 */
#ifndef CL_INGEST_REPORT_H
#define CL_INGEST_REPORT_H

#include <stdbool.h>
#include <time.h>

#include "loader/backlog.h"

/* The file outcomes an ingest run counts (and names in its output). */
enum cl_ingest_outcome {
	CL_INGEST_COMMITTED,   /* applied (maybe all duplicate): done/ */
	CL_INGEST_QUARANTINED, /* clean records applied, conflicts parked: done/ */
	CL_INGEST_REJECTED,    /* invalid: rejected/ */
	CL_INGEST_HELD,        /* conflicts, nothing applied: held/ */
	CL_INGEST_UNSUPPORTED, /* not a clearing file: unsupported/ */
	CL_INGEST_WAITING,     /* still arriving: left for the next run */
	CL_INGEST_FAILED,      /* database problem or interrupted: left */
	CL_INGEST_UNKNOWN,     /* outcome unknown: left, the next run settles it */
	CL_INGEST_NOUTCOMES
};
const char *cl_ingest_outcome_name(enum cl_ingest_outcome o);

struct cl_ingest_totals {
	const char *inbox;
	const char *tenant;
	unsigned long files[CL_INGEST_NOUTCOMES];
	unsigned long long records_new, records_duplicate, records_conflict, records_invalid;
	unsigned long not_ready;     /* candidates left before loading */
	double oldest_ready_age;     /* seconds */
	double seconds;              /* the run's */
	time_t started;
	int exit_status;
	/* what waits for a person, from the database (each figure read or
	   not, with why) */
	struct cl_backlog_figure backlog[CL_BACKLOG_NKINDS];
};

/* Write the metrics of a run to `path` in Prometheus' text format, as the
 * node_exporter textfile collector reads it: a temporary file in the same
 * directory renamed over it, so the collector never sees half a file.  The
 * last success time is carried over from the file's previous version when
 * this run did not succeed; the counters (*_total) are the previous
 * version's (of the same inbox) plus this run's, so they go back to 0 only
 * when the file is removed or was another inbox's.  The backlog gauges are
 * t->backlog's; one not read is a comment, no value.  0, or -1 with
 * why[]. */
int cl_ingest_write_metrics(const char *path, const struct cl_ingest_totals *t, char *why,
			    size_t cap);

/* The facts of one file for --on-event, as environment variables. */
struct cl_ingest_event {
	const char *event;      /* held, rejected, quarantined, unknown, failed */
	const char *file;       /* as it was in the inbox */
	const char *archived;   /* where it went, or "" */
	const char *tenant;
	long long load_id;      /* 0: none */
	const char *load_uuid;
	const char *reason;
	unsigned long records, new_count, duplicate_count, conflict_count, invalid_count;
	int exit_status;        /* the file's */
};

/* Run `command` with /bin/sh -c, stdin from /dev/null, the facts in
 * CL_EVENT, CL_FILE, CL_ARCHIVED, CL_TENANT, CL_LOAD_ID, CL_LOAD_UUID,
 * CL_REASON, CL_RECORDS, CL_NEW, CL_DUPLICATE, CL_CONFLICT, CL_INVALID,
 * CL_EXIT_STATUS; wait for it at most `limit` seconds (then it is
 * killed).  Returns its exit status, or -1 with why[] (it could not run,
 * was killed, or died of a signal). */
int cl_ingest_run_event(const char *command, const struct cl_ingest_event *ev, unsigned limit,
			char *why, size_t cap);

#endif
