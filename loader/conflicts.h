/*
 * conflicts.h - the conflicts a person resolves: list them, accept a new
 * version as a correction or dismiss it (clearing-load conflicts, resolve;
 * the tables: sql/016_conflicts.sql; the statements:
 * sql/loader/conflicts.sql).
 *
 * A conflict is a version of a record parked by a held or quarantined
 * load (clearing_quarantine), named by that load and its ordinal in the
 * file (or its line), with the applied record it matched.  Accepting it
 * applies the version as a new record under its own key, linked to the
 * record it corrects; dismissing it applies nothing.  Either is journaled,
 * has a clearing_load row of its own, and is done once: under the
 * tenant's lock, a second resolution finds the first.  Nothing here
 * prints.
 */
#ifndef CL_CONFLICTS_H
#define CL_CONFLICTS_H

#include <stdbool.h>

#include "loader/db.h"
#include "loader/history.h"

/* One differing compared field: the matched record's value and the
 * version's (NULL: SQL NULL), as text. */
struct cl_conflict_change {
	const char *field;
	const char *old_value;
	const char *new_value;
	bool account;      /* an account number: mask when printing */
};

#define CL_CONFLICT_MAX_CHANGES 64

/* One conflict as listed.  Valid only during the callback. */
struct cl_conflict {
	/* load_id, outcome, file_name, line, ordinal, tenant, kind,
	   natural_key, reason, matched_key, matched_load_id, matched_line,
	   matched_file_name, verdict, resolution_load_id, correction_key,
	   note, resolved_by, resolved_at (NULL: unresolved) */
	struct cl_kv cols[CL_HISTORY_MAX_COLS];
	int ncols;
	/* the version's amount (minor units, as text) and currency: money
	   for people; not among cols, which machines read */
	const char *amount_minor, *currency;
	/* the version's accounts, for masking the keys */
	const char *accounts[3];
	size_t naccounts;
	struct cl_conflict_change changes[CL_CONFLICT_MAX_CHANGES];
	int nchanges;
};

typedef void (*cl_conflict_fn)(void *ctx, const struct cl_conflict *c);

/* The conflicts of load `load_id` only (0: every load) and of `tenant`
 * only (NULL: every tenant), unresolved ones only unless `all`, by load
 * and ordinal.  *found = the conflicts reported. */
enum cl_db_status cl_conflicts_list(struct cl_db *db, long long load_id, const char *tenant,
				    bool all, cl_conflict_fn fn, void *ctx, unsigned long *found,
				    struct cl_error *err) CL_MUST_CHECK;

enum cl_verdict { CL_VERDICT_ACCEPT, CL_VERDICT_DISMISS };

/* What resolving did. */
enum cl_resolve_outcome {
	CL_RESOLVE_DONE,        /* resolved now */
	CL_RESOLVE_ALREADY,     /* resolved before with the same verdict: nothing changed */
	CL_RESOLVE_OTHER,       /* resolved before with the other verdict: refused */
	CL_RESOLVE_NOT_FOUND,   /* no conflict is parked there */
	CL_RESOLVE_AMBIGUOUS,   /* several conflicts on that line: give the ordinal */
	CL_RESOLVE_NO_RECORD,   /* its journal row or matched record is gone (pruned) */
};

struct cl_resolution {
	enum cl_resolve_outcome outcome;
	long long ordinal;             /* the conflict's */
	char tenant[64];
	char verdict[16];              /* "accepted" or "dismissed" (ALREADY, OTHER: the one
	                                  it has) */
	long long resolution_load_id;  /* its clearing_load row */
	char correction_key[4 * 1024]; /* accepted: the correction's natural key */
	long long matched_load_id, matched_line;
	/* the matched record's accounts, for masking the correction's key */
	char accounts[3][64];
	size_t naccounts;
};

/* Resolve the conflict of load `load_id` with ordinal `ordinal`, or (when
 * ordinal is 0) at line `line`, as `v`, with `note` (NULL: none): in one
 * transaction under the tenant's exclusive advisory lock (the one a load
 * of many originators takes), so a second resolver waits, then finds it
 * resolved.  An accepted version is committed with a feed commit, as a
 * load's records are.  out->outcome says what happened; CL_DB_OK unless
 * the database failed (then nothing changed). */
enum cl_db_status cl_conflicts_resolve(struct cl_db *db, long long load_id, long long ordinal,
				       long long line, enum cl_verdict v, const char *note,
				       struct cl_resolution *out, struct cl_error *err) CL_MUST_CHECK;

#endif
