/*
 * prune.h - journal retention: `clearing-load prune --journal-before DATE`.
 *
 * The dedupe journal grows by one row per record that was not applied
 * (an exact re-run of a 100,000-record file adds 100,000 duplicate rows).
 * Pruning removes the journal rows of loads started before a date, load by
 * load, each in a transaction of its own (a prune that stops half-way is
 * finished by running it again), and records what it removed in
 * clearing_prune_audit.  clearing_record, clearing_load and the quarantine
 * are never touched.  Nothing here prints.
 */
#ifndef CL_PRUNE_H
#define CL_PRUNE_H

#include <stdbool.h>

#include "loader/db.h"

struct cl_prune_result {
	unsigned long long loads;   /* loads that had rows removed */
	unsigned long long events;  /* journal rows removed */
	long long prune_id;         /* its audit row */
};

/* Prune the journal rows of loads started before `before` (a date or
 * timestamp PostgreSQL reads), only the duplicates when `duplicates_only`. */
enum cl_db_status cl_prune_journal(struct cl_db *db, const char *before, bool duplicates_only,
				   struct cl_prune_result *r, struct cl_error *err) CL_MUST_CHECK;

#endif
