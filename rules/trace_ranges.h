/*
 * trace_ranges.h - can two ACH entries of one file be one payment under
 * two effective dates?  A cheap, conservative test in constant memory per
 * batch (not per entry).
 *
 * An ACH near duplicate inside one file (an entry and a re-dated copy of
 * it: same originator, trace number, receiving account, RDFI and amount,
 * another effective date) has two keys, so neither the parser's in-file
 * key check nor the unique index sees it.  Such a copy repeats a trace
 * number of its originator, and traces are assigned in ascending order
 * within a batch: it can only exist when two runs of one originator's
 * entries (batches) have overlapping trace ranges.  Ordinary files have
 * none, and pay nothing more; a file that has one is checked exactly by
 * the rule of near.h, in the database by the loader (loader/stage.c,
 * in_file_near_duplicates) and in memory by parse and validate
 * (cmd/walk.c).
 */
#ifndef CL_TRACE_RANGES_H
#define CL_TRACE_RANGES_H

#include <stdbool.h>
#include <stddef.h>

#include "base/record.h"

/* Past this many runs the test gives up and answers "maybe" (the exact
 * check then runs): 64 KiB runs of 40 bytes, 2.5 MB at most. */
#define CL_TRACE_RANGES_MAX 65536

struct cl_trace_run {
	char company[11];
	char date[11];
	unsigned long long lo, hi; /* trace numbers */
};

struct cl_trace_ranges {
	struct cl_trace_run *runs;
	size_t n, cap;
	bool open;       /* runs[n] is being extended */
	bool overflow;   /* more than CL_TRACE_RANGES_MAX runs */
};

void cl_trace_ranges_reset(struct cl_trace_ranges *t);
void cl_trace_ranges_free(struct cl_trace_ranges *t);

/* rec->kind is "ach.entry" (without a strcmp call: asked of every record
 * of a file). */
static inline bool cl_trace_ranges_is_entry(const struct cl_record *rec)
{
	const char *k = rec->kind;

	return k[0] == 'a' && k[1] == 'c' && k[2] == 'h' && k[3] == '.' && k[4] == 'e' &&
	       k[5] == 'n' && k[6] == 't' && k[7] == 'r' && k[8] == 'y' && k[9] == '\0';
}

/* Note one ach.entry record (others are ignored). */
void cl_trace_ranges_add(struct cl_trace_ranges *t, const struct cl_record *rec);

/* true when two runs of one originator overlap (or when the test gave up):
 * the file may carry a re-dated copy of one of its own entries. */
bool cl_trace_ranges_maybe_near(struct cl_trace_ranges *t);

#endif
