/*
 * history_print.h - printing the rows of show and loads (history.h).
 */
#ifndef CL_HISTORY_PRINT_H
#define CL_HISTORY_PRINT_H

#include "cmd/cli.h"
#include "loader/history.h"

/* text: "section:" and one "  name: value" line per non-NULL column;
 * json: one object per row with "type": section; csv: a header row before
 * the first row of each section, then the values.  Accounts masked unless
 * --no-mask. */
struct cl_history_out {
	enum cl_out_format format;
	const char *last_section;   /* csv: the section of the last header */
};
void cl_history_print(void *ctx, const char *section, const struct cl_kv *kv, int n);

#endif
