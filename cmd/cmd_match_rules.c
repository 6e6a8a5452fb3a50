/* cmd_match_rules.c - `clearing-load match-rules`: reconcile's matching
 * rules per account or bank, loaded from a file kept with the schema
 * (loader/match_rules.h). */
#include "cmd/cli.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/dbconn.h"
#include "cmd/options.h"
#include "loader/match_rules.h"
#include "loader/schema.h"

/* load FILE or list. */
static int check(struct cl_args *args)
{
	const char *w = args->noperands ? args->operands[0] : "";

	if (strcmp(w, "load") == 0) {
		if (args->noperands != 2)
			return cl_usage_error(args->cmd, "load FILE: give one rules file");
		return 0;
	}
	if (strcmp(w, "list") == 0) {
		if (args->noperands != 1)
			return cl_usage_error(args->cmd, "list takes no operand");
		return 0;
	}
	if (!*w)
		return cl_usage_error(args->cmd, "give an action: load FILE or list");
	return cl_usage_error(args->cmd, "unknown action \"%s\" (expected load or list)", w);
}

static const struct cl_option match_rules_command[] = {
	CL_OPT_USAGE("match-rules", CL_ANY_OPERANDS, "load FILE | list [OPTION]..."),
	CL_OPT_TEXT("Reconcile's matching rules per account or per bank: 'load FILE' makes the "
		    "file's rules the tenant's rule set in force (a new version; the old ones are "
		    "kept), 'list' prints the rules in force.  A line of FILE is PATTERN and any "
		    "of tolerance=MINOR, relative=PERCENT%, window=DAYS, refs=REF,... and "
		    "charges=MINOR; PATTERN is an account as its statements write it, a prefix of "
		    "accounts ending in * (a bank), or * for every account; '#' starts a comment.  "
		    "A statement is matched by its account's rule, else the longest prefix's, "
		    "else that of *; without one as by default (no tolerance, no date window, the run's "
		    "references, no charges expected).  A file with an error is refused whole."),
	CL_OPT_OPERAND("load FILE", "make FILE's rules the set in force"),
	CL_OPT_OPERAND("list", "print the rules in force"),
	CL_OPT_TENANT(),
	CL_OPT_DB(),
	CL_OPT_QUIET("print nothing on standard error but errors"),
	CL_OPT_CHECK(check),
	CL_OPT_TEXT("Exit status: 0 loaded (list: listed), 2 usage error (also a file that "
		    "cannot be read), 3 invalid rules file (nothing stored), 5 database error, 7 "
		    "no rules loaded (list), 75 retry later, 78 configuration (see 'clearing-load "
		    "help')."),
	CL_OPT_END(),
};

/* A rule in force as a line of a rules file (loading the listing again
 * gives the same rules), after a comment naming the set. */
static void list_row(void *ctx, const struct cl_match_rule_row *r)
{
	bool *head = ctx;
	char safe[256];
	long bp = strtol(r->tolerance_bp, NULL, 10);

	if (!*head) {
		*head = true;
		printf("# version %s from %s (sha256 %s), loaded by %s at %s\n", r->version,
		       cl_text_safe(r->file, safe, sizeof(safe)), r->sha256, r->loaded_by,
		       r->loaded_at);
	}
	if (!r->pattern[0])
		return;
	printf("%s tolerance=%s relative=%ld.%02ld%%", r->pattern, r->tolerance_minor, bp / 100,
	       bp % 100);
	if (r->window_days[0])
		printf(" window=%s", r->window_days);
	if (r->refs[0])
		printf(" refs=%s", r->refs);
	printf(" charges=%s\n", r->charges_minor);
}

static int run(const struct cl_args *args, struct cl_db *db)
{
	const char *tenant = args->tenant ? args->tenant : "default";
	struct cl_error err;

	if (cl_schema_check(db, &err) != CL_DB_OK)
		return cl_db_failed(&err);
	if (strcmp(args->operands[0], "list") == 0) {
		bool found, head = false;

		if (cl_match_rules_list(db, tenant, list_row, &head, &found, &err) != CL_DB_OK)
			return cl_db_failed(&err);
		if (!found) {
			cl_msg("no matching rules loaded for tenant %s: every statement is matched by "
			       "the defaults",
			       tenant);
			return CL_EXIT_NOT_FOUND;
		}
		return cl_finish_stdout(CL_EXIT_OK);
	}
	{
		struct cl_match_rules r;
		unsigned long version = 0;
		enum cl_status st = cl_match_rules_read(args->operands[1], &r, &err);

		if (st != CL_OK) {
			cl_report_error(args->operands[1], &err);
			return st == CL_IO ? CL_EXIT_USAGE : CL_EXIT_INVALID;
		}
		if (cl_match_rules_store(db, tenant, args->operands[1], &r, &version, &err) !=
		    CL_DB_OK) {
			cl_match_rules_free(&r);
			return cl_db_failed(&err);
		}
		if (!cl_opt_quiet)
			cl_msg("matching rules of tenant %s: version %lu, %zu rule%s", tenant, version,
			       r.n, r.n == 1 ? "" : "s");
		cl_match_rules_free(&r);
	}
	return cl_finish_stdout(CL_EXIT_OK);
}

int cl_cmd_match_rules(int argc, char **argv)
{
	struct cl_args args = { 0 };

	return cl_run_db_command(match_rules_command, &args, argc, argv, run);
}
