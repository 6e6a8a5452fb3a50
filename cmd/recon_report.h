/*
 * recon_report.h - `reconcile --report FILE`: a self-contained HTML page
 * of a run for a person (clearing-load(1) OUTPUT, reconcile): the run's
 * counts, the open breaks' money per account and currency, their ageing,
 * the breaks (first), the items a decision closed, the matches counted.
 * No external resource, no script; every value from a file or the
 * database HTML-escaped.  Each number a machine compares is also in a data
 * attribute (data-key/data-value of the counts, data-amount-minor of an
 * amount), equal to the JSON's.  Written atomically: a temporary file in
 * FILE's directory, flushed to disk, renamed over FILE.
 */
#ifndef CL_RECON_REPORT_H
#define CL_RECON_REPORT_H

#include <stdbool.h>

#include "loader/reconcile.h"

struct cl_recon_report;

/* Open the report's temporary file beside `path` (before the run: a path
 * that cannot be written is known before anything is recorded); NULL with
 * errno set on failure. */
struct cl_recon_report *cl_recon_report_open(const char *path);

/* One item of the run's answer (`detail`: what made its status, in words). */
void cl_recon_report_item(struct cl_recon_report *r, const struct cl_recon_item *it,
			  const char *detail);

/* Write the page (the run's summary s, tenant) and rename it over the
 * path; frees r.  False with errno set when it could not (the temporary
 * file removed). */
bool cl_recon_report_finish(struct cl_recon_report *r, const struct cl_recon_summary *s,
			    const char *tenant);

/* Remove the temporary file unwritten (the run failed); frees r. */
void cl_recon_report_abandon(struct cl_recon_report *r);

#endif
