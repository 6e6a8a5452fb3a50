/*
 * match_rules.h - reconcile's matching rules per account or bank
 * (clearing-load match-rules; clearing-load(1) RECONCILIATION "Matching
 * rules"; the tables: sql/032_match_rules.sql; statements:
 * sql/loader/match_rules.sql; docs/design/0042-matching-rules.md).
 *
 * A rules file is the whole rule set of a tenant: loading it makes a new
 * version (the set in force is the latest; the old ones are kept).  One
 * line per rule, '#' to the end of a line a comment:
 *
 *   PATTERN [tolerance=MINOR] [relative=PERCENT%] [window=DAYS]
 *           [refs=REF,...] [charges=MINOR]
 *
 * PATTERN is an account as its statements write it, a prefix of accounts
 * ending in '*' (a bank), or '*' (every account).  A file with any error
 * is refused whole.
 */
#ifndef CL_MATCH_RULES_H
#define CL_MATCH_RULES_H

#include <stdbool.h>
#include <stddef.h>

#include "base/record.h"
#include "loader/db.h"

struct cl_match_rule {
	char pattern[CL_ACCOUNT_MAX + 2];
	unsigned long line;
	long long tolerance_minor; /* 0: none */
	int tolerance_bp;          /* basis points of our amount; 0: none */
	int window_days;           /* -1: no window */
	char refs[96];             /* "": the run's references */
	long long charges_minor;   /* 0: none expected */
};

struct cl_match_rules {
	struct cl_match_rule *v;
	size_t n;
	char sha256[65];
};

/* Read the rules file at path into r (cl_match_rules_free); CL_INVALID
 * with err naming the file and line, CL_IO when it cannot be read. */
enum cl_status cl_match_rules_read(const char *path, struct cl_match_rules *r,
				   struct cl_error *err) CL_MUST_CHECK;
void cl_match_rules_free(struct cl_match_rules *r);

/* Store r as tenant's next rule set, from file `file`, in one transaction;
 * *version its number. */
enum cl_db_status cl_match_rules_store(struct cl_db *db, const char *tenant, const char *file,
				       const struct cl_match_rules *r, unsigned long *version,
				       struct cl_error *err) CL_MUST_CHECK;

/* One rule in force (match_rules_list's columns, text; "" for NULL; no
 * pattern: a set of no rules). */
struct cl_match_rule_row {
	const char *pattern, *line, *tolerance_minor, *tolerance_bp, *window_days, *refs,
		*charges_minor, *version, *file, *sha256, *loaded_by, *loaded_at;
};
typedef void cl_match_rule_fn(void *ctx, const struct cl_match_rule_row *row);

/* The rules in force of tenant, each to fn; *found false: none ever loaded. */
enum cl_db_status cl_match_rules_list(struct cl_db *db, const char *tenant, cl_match_rule_fn *fn,
				      void *ctx, bool *found, struct cl_error *err) CL_MUST_CHECK;

#endif
