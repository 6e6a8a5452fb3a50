/*
 * history.h - the queries behind `show` and `loads`: what became of a
 * record, and of a load.
 *
 * Results are handed to a callback row by row as name/value pairs (the
 * column names of the schema's tables: the interface downstream readers
 * use); the caller prints them.  Nothing here prints.
 */
#ifndef CL_HISTORY_H
#define CL_HISTORY_H

#include <stdbool.h>

#include "loader/db.h"

#define CL_HISTORY_MAX_COLS 64

struct cl_kv {
	const char *name;   /* column name */
	const char *value;  /* text as PostgreSQL prints it; NULL for SQL NULL */
	bool account;       /* an account number: mask when printing */
	bool number;        /* a numeric column: print without quotes in JSON */
};

/* One row of `section`: "record", "load", "event" (a dedupe event that hit
 * the record), "quarantine" (a conflicting version parked), or "loads". */
typedef void (*cl_history_fn)(void *ctx, const char *section, const struct cl_kv *kv, int n);

/* Hand each row of `res` to fn as name/value pairs (for the other reader
 * modules: feed.c). */
struct pg_result;
void cl_history_rows(struct pg_result *res, const char *section, cl_history_fn fn, void *ctx);

enum cl_show_by { CL_SHOW_KEY, CL_SHOW_TRACE, CL_SHOW_E2E, CL_SHOW_UETR };

/* Every record of `tenant` matching `value` (a natural key, an ACH trace
 * number, an EndToEndId or a UETR; the last three also match returns and
 * NOCs naming it as the original: the "matched_by" column says which), at
 * most `limit` of them, each followed by the load that applied it, every
 * dedupe event that hit it and any quarantined versions of it (conflicts
 * under its key, near duplicates under their own).  With no record, the
 * dedupe events of that key and the versions parked under it by held
 * and quarantined loads (for --trace, --e2e and --uetr: with that
 * reference) are still reported (a held conflict is never applied).  *found = the records
 * reported, *total = the records that match (more than *found when the
 * limit cut the list).  At most six statements whatever the number of
 * records: the records, then each kind of fact for all of them at once,
 * and their count when the limit cut the list (or, with no record, the
 * events and parked versions of the key or reference). */
enum cl_db_status cl_history_show(struct cl_db *db, enum cl_show_by by, const char *value,
				  const char *tenant, unsigned long limit, cl_history_fn fn, void *ctx,
				  unsigned long *found, unsigned long *total,
				  struct cl_error *err) CL_MUST_CHECK;

/* When a lookup found nothing in `tenant`: the other tenants with records
 * it matches, as rows of section "tenant" (columns tenant, records), at
 * most 10, by name. */
enum cl_db_status cl_history_other_tenants(struct cl_db *db, enum cl_show_by by, const char *value,
					   const char *tenant, cl_history_fn fn, void *ctx,
					   struct cl_error *err) CL_MUST_CHECK;

/* Is the transaction of load `uuid` still running?  Every load holds a
 * transaction-level advisory lock on its UUID from BEGIN to its end; this
 * takes the same lock at session level (*running = false, held until
 * cl_history_release_uuid) or finds it taken (*running = true).  Asked
 * before looking a load up, it makes "not in clearing_load" mean "never
 * committed" for certain. */
enum cl_db_status cl_history_lock_uuid(struct cl_db *db, const char *uuid, bool *running,
				       struct cl_error *err);
void cl_history_release_uuid(struct cl_db *db, const char *uuid);

/* Loads, newest first: since `since` (a date or timestamp, NULL = all),
 * only `uuid` and only `tenant` when not NULL, at most `limit`.  Times are
 * ISO 8601 ("2026-11-30T00:22:10+00:00").  *found = rows reported. */
enum cl_db_status cl_history_loads(struct cl_db *db, const char *since, const char *uuid,
				   const char *tenant, unsigned long limit, cl_history_fn fn,
				   void *ctx, unsigned long *found, struct cl_error *err) CL_MUST_CHECK;

#endif
