/*
 * show_summary.h - `clearing-load show` for a person (text without
 * --verbose): each record in a few lines (what it is, its amount as money,
 * its parties masked, its load and file, its status), its last few dedupe
 * events, its parked versions and its statement matches, one line each;
 * totals per currency when more than one record is shown.
 *
 * A sink for cl_history_show's rows (history.h): cl_show_summary_row is
 * its callback; cl_show_summary_end prints what is still pending (the
 * events kept back, the totals).  --verbose and the machine formats print
 * every column instead (history_print.h).
 */
#ifndef CL_SHOW_SUMMARY_H
#define CL_SHOW_SUMMARY_H

#include "base/money.h"
#include "loader/history.h"

/* the events of a record printed: its last CL_SHOW_LAST_EVENTS */
#define CL_SHOW_LAST_EVENTS 3
/* parked versions and statement matches printed per record */
#define CL_SHOW_MAX_FACTS 3

struct cl_show_summary {
	unsigned long records;
	struct cl_money_totals totals;      /* of the records shown */
	/* the current record's events: counted, the last few kept */
	unsigned long events;
	struct {
		char name[24];
		unsigned long n;
	} reasons[6];                        /* per reason, in the order first seen */
	int nreasons;
	char last[CL_SHOW_LAST_EVENTS][512];
	int parked, reconciled;              /* of the current record */
};

void cl_show_summary_row(void *ctx, const char *section, const struct cl_kv *kv, int n);
void cl_show_summary_end(struct cl_show_summary *s);

#endif
