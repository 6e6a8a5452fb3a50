/*
 * breaks.h - a person's decisions on reconcile's breaks (clearing-load
 * break; clearing-load(1) RECONCILIATION "Decisions on breaks"; the
 * statements: sql/loader/breaks.sql, the tables and the decision function:
 * sql/027_break_decisions.sql; docs/design/0033-breaks-workflow.md).
 *
 * An item is named by its id: e<load>.<ordinal> of a statement item (an
 * entry, a status, a statement's balance), r<load>.<ordinal> of a record
 * of ours; reconcile prints it with each break.  A decision is one
 * transaction under the tenant's reconcile lock: all its items decided,
 * or none (an item refused or not found rolls back the rest).
 */
#ifndef CL_BREAKS_H
#define CL_BREAKS_H

#include <stdbool.h>
#include <stddef.h>

#include "loader/db.h"

enum cl_break_action { CL_BREAK_ACCEPT, CL_BREAK_MATCH, CL_BREAK_WRITE_OFF, CL_BREAK_REOPEN };

/* The function's word for an action ("accept", "match", "write_off",
 * "reopen"). */
const char *cl_break_action_word(enum cl_break_action a);

/* One item's answer: decided, already (so before: nothing recorded),
 * refused or not_found, and why (may be ""). */
struct cl_break_answer {
	char item_id[48];
	char outcome[16];
	char detail[512];
};

struct cl_break_result {
	struct cl_break_answer *items;
	size_t n;
	bool committed; /* false: refused or not found, nothing recorded */
};

/* The filter of a bulk decision or a list (each NULL: any). */
struct cl_break_filter {
	const char *account, *day, *status, *reason;
};

/* Decide action `a` on ids[0..n) of `tenant` (for CL_BREAK_MATCH: ids[0]
 * the entry, records[0..nrec) its records) because of `reason`.  With n
 * == 0, the open breaks `f` selects.  r->items malloc'd (cl_break_result_free). */
enum cl_db_status cl_break_decide(struct cl_db *db, const char *tenant, enum cl_break_action a,
				  char *const *ids, size_t n, char *const *records, size_t nrec,
				  const struct cl_break_filter *f, const char *reason,
				  struct cl_break_result *r, struct cl_error *err) CL_MUST_CHECK;
void cl_break_result_free(struct cl_break_result *r);

/* One open break (breaks_open's columns, text; "" for NULL). */
struct cl_break_row {
	const char *item_id, *status, *reason, *statement_key, *account, *amount_minor, *currency,
		*item_date, *side, *item_kind, *item_key, *record_kind, *record_key, *run_id,
		*first_reported, *age_days;
};
typedef void cl_break_row_fn(void *ctx, const struct cl_break_row *row);

/* The open breaks of `tenant` that f selects, oldest first. */
enum cl_db_status cl_break_list(struct cl_db *db, const char *tenant,
				const struct cl_break_filter *f, cl_break_row_fn *fn, void *ctx,
				struct cl_error *err) CL_MUST_CHECK;

#endif
