/*
 * reconcile.h - two-way reconciliation: the entries of loaded bank
 * statements (and pacs.002 statuses) against the applied records, and the
 * records of a statement's period and account against its entries
 * (clearing-load(1) RECONCILIATION; statements: sql/loader/reconcile.sql).
 *
 * One run, one transaction: for each statement its entries are matched in
 * SQL (index probes by reference, batches by their file, the period by its
 * dates: never a scan of the history per entry), each new match recorded
 * once in clearing_reconcile_match with the run, the statement marked
 * reconciled, the run's row written; after COMMIT the answer is handed out
 * item by item (streamed: memory does not grow with the statement).
 *
 * Statuses: matched, unmatched_ours (applied by us, not booked within the
 * statement's period on its account), unmatched_theirs (booked by the
 * bank, no record of ours), exception (the same reference with another
 * amount, currency or direction; booked twice; matched already by another
 * statement's entry; rejected by a status report (pacs.002, pain.002) but booked; a batch whose count
 * or sum differs; a statement whose balances do not add up, its
 * difference the amount; a page of a statement missing), suggested (no
 * reference, the same amount, currency, direction and date: never a
 * match).  Nothing here prints.
 */
#ifndef CL_RECONCILE_H
#define CL_RECONCILE_H

#include <stdbool.h>
#include <stddef.h>

#include "loader/db.h"

/* Every reference --match may name (clearing-load(1) --match; the words
 * that are record fields are their column names). */
bool cl_recon_ref_known(const char *word, size_t n);
/* The references an entry is matched by when --match is not given, in
 * order of trust: the UETR, EndToEndId, TxId, InstrId, ACH trace. */
const char *cl_recon_default_refs(void);
/* Whether an item of `status` is an open break, one a person must look at
 * (loader/recon_status.def; NULL is not). */
bool cl_recon_open_status(const char *status);

struct cl_recon_opts {
	const char *tenant;
	const char *refs;          /* comma list of known references, NULL: the
				      default */
	const char *ach_companies; /* comma list of ACH company ids, or NULL */
	const char *const *account_refs; /* "ACCOUNT=REFS": the references of the
					    statements of that account, for refs */
	size_t naccount_refs;
	bool differences_only;     /* hand out every item but the matched ones */
	bool breaks_first;         /* the breaks first, then decided items, then
				      matches (each in statement order) */
};

/* One output item: the run's answer row, a member for each column of
 * recon_item.def (NULL for none). */
struct cl_recon_item {
#define CL_RECON_ITEM(member, sql) const char *member;
#include "loader/recon_item.def"
#undef CL_RECON_ITEM
};

/* The name of member m of an item (its name in every output). */
enum cl_recon_column {
#define CL_RECON_ITEM(member, sql) CL_RC_##member,
#include "loader/recon_item.def"
#undef CL_RECON_ITEM
	CL_RC_COUNT
};
extern const char *const cl_recon_names[CL_RC_COUNT];
#define CL_RECON_NAME(m) (cl_recon_names[CL_RC_##m])

struct cl_recon_summary {
	long long run_id;
	unsigned long statements, matched, unmatched_ours, unmatched_theirs, exceptions, suggested,
		new_matches;
	unsigned long not_loaded; /* statement keys given that are not loaded */
	unsigned long decided;    /* breaks a decision in force closed (clearing-load break) */
};

typedef void cl_recon_item_fn(void *ctx, const struct cl_recon_item *item);

/* The statements (keys) of a statement file, as loaded; keys[] and each
 * key malloc'd (free with cl_recon_keys_free).  CL_INVALID when the file
 * is no statement (err says why).  csv_map: --csv-map's, or NULL. */
struct cl_csv_map;

enum cl_status cl_recon_file_keys(const char *path, const struct cl_csv_map *csv_map,
				  char ***keys, size_t *n, struct cl_error *err) CL_MUST_CHECK;
void cl_recon_keys_free(char **keys, size_t n);

/* The session's settings for reconciling, before anything else on the
 * connection (temporary buffers: fixed by a session's first temporary
 * table, which loading a statement makes). */
enum cl_db_status cl_recon_session(struct cl_db *db, struct cl_error *err) CL_MUST_CHECK;

/* The loaded statements of tenant not yet reconciled, oldest first. */
enum cl_db_status cl_recon_pending(struct cl_db *db, const char *tenant, char ***keys, size_t *n,
				   struct cl_error *err) CL_MUST_CHECK;

/* Reconcile the statements keys[0..n) as one run; on_item for each output
 * item after COMMIT. */
enum cl_db_status cl_reconcile(struct cl_db *db, const struct cl_recon_opts *o, char *const *keys,
			       size_t n, cl_recon_item_fn *on_item, void *ctx,
			       struct cl_recon_summary *s, struct cl_error *err) CL_MUST_CHECK;

#endif
