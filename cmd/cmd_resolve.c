/* cmd_resolve.c - `clearing-load resolve`: accept a conflict's new version
 * as a correction, or dismiss it (loader/conflicts.h). */
#include "cmd/cli.h"

#include <stdlib.h>
#include <string.h>

#include "base/mask.h"
#include "base/xmalloc.h"
#include "cmd/dbconn.h"
#include "cmd/options.h"
#include "loader/conflicts.h"
#include "loader/schema.h"

/* --load, one of --line and --ordinal, one of --accept and --dismiss. */
static int one_conflict_one_verdict(struct cl_args *args)
{
	if (!args->load_id)
		return cl_usage_error(args->cmd, "--load N is required");
	if (!args->line == !args->ordinal)
		return cl_usage_error(args->cmd, "give one of --line and --ordinal");
	if (args->accept == args->dismiss)
		return cl_usage_error(args->cmd, "give one of --accept and --dismiss");
	return 0;
}

static const struct cl_option resolve_command[] = {
	CL_OPT_USAGE("resolve", CL_NO_OPERANDS,
		     "--load N (--line L | --ordinal O) (--accept | --dismiss) [OPTION]..."),
	CL_OPT_TEXT("Resolve a conflict that 'clearing-load conflicts' lists.  --accept applies "
		    "its new version as a correction: a new record under its own key (the "
		    "matched record's key + \"#corr\" + n, clearing-load-keys(7)) that names the "
		    "record it corrects, committed with its own load row and feed position; the "
		    "record it corrects is never changed.  --dismiss applies nothing.  Both are "
		    "journaled.  Resolving a resolved conflict again with the same verdict changes "
		    "nothing; the other verdict is refused.  Under the tenant's lock: a second "
		    "resolver waits, then finds the conflict resolved."),
	CL_OPT_ULONG(0, "load", "N", load_id, 1, 9223372036854775807UL,
		     "the load that held or quarantined the conflict (required)"),
	CL_OPT_ULONG(0, "line", "L", line, 1, 9223372036854775807UL,
		     "the conflict's line in that load's file"),
	CL_OPT_ULONG(0, "ordinal", "O", ordinal, 1, 9223372036854775807UL,
		     "the conflict's ordinal in that load's file (when one line holds several "
		     "records)"),
	CL_OPT_BOOL(0, "accept", accept, "apply the new version as a correction"),
	CL_OPT_BOOL(0, "dismiss", dismiss, "dismiss the new version: apply nothing"),
	CL_OPT_STRING(0, "note", "TEXT", note, "why, kept with the resolution"),
	CL_OPT_DB(),
	CL_OPT_FORMAT(),
	CL_OPT_NO_MASK(),
	CL_OPT_QUIET("print nothing on standard error but errors"),
	CL_OPT_CHECK(one_conflict_one_verdict),
	CL_OPT_TEXT("Exit status: 0 resolved (also: resolved so before), 2 usage error (also: "
		    "resolved before with the other verdict, or a line of several conflicts), 5 "
		    "database error, 7 no conflict there, 75 retry later, 78 configuration (see "
		    "'clearing-load help')."),
	CL_OPT_END(),
};

static void print_resolution(const struct cl_args *args, const struct cl_resolution *r,
			     bool already)
{
	char key[CL_KEY_MAX * 2];
	const char *accts[3];
	const char *k = r->correction_key[0] ? r->correction_key : NULL;

	for (size_t i = 0; i < r->naccounts; i++)
		accts[i] = r->accounts[i];
	if (k && !cl_opt_no_mask && r->naccounts &&
	    cl_mask_in_key(k, accts, r->naccounts, key, sizeof(key)))
		k = key;
	switch ((enum cl_out_format)args->format) {
	case CL_OUT_JSON: {
		struct cl_json j;

		cl_json_begin(&j, stdout, "resolution");
		cl_json_int(&j, "load_id", (long long)args->load_id);
		cl_json_int(&j, "ordinal", r->ordinal);
		cl_json_str(&j, "tenant", r->tenant);
		cl_json_str(&j, "verdict", r->verdict);
		cl_json_bool(&j, "already", already);
		cl_json_int(&j, "resolution_load_id", r->resolution_load_id);
		cl_json_str(&j, "correction_key", k);
		cl_json_end(&j);
		break;
	}
	case CL_OUT_CSV: {
		char load[24], ord[24], rl[24];
		const char *head[] = { "type", "load_id", "ordinal", "tenant", "verdict", "already",
				       "resolution_load_id", "correction_key" };
		const char *row[] = { "resolution", load, ord, r->tenant, r->verdict,
				      already ? "true" : "false", rl, k };

		snprintf(load, sizeof(load), "%lu", args->load_id);
		snprintf(ord, sizeof(ord), "%lld", r->ordinal);
		snprintf(rl, sizeof(rl), "%lld", r->resolution_load_id);
		cl_csv_row(stdout, head, 8);
		cl_csv_row(stdout, row, 8);
		break;
	}
	case CL_OUT_TEXT: {
		char safe[4 * CL_KEY_MAX];

		printf("%s: load %lu ordinal %lld (tenant %s)%s", r->verdict, args->load_id,
		       r->ordinal, r->tenant, already ? ", before" : "");
		if (k)
			printf(": correction %s (load %lld)", cl_text_safe(k, safe, sizeof(safe)),
			       r->resolution_load_id);
		else
			printf(" (load %lld)", r->resolution_load_id);
		putchar('\n');
		break;
	}
	}
}

static int resolve(const struct cl_args *args, struct cl_db *db)
{
	struct cl_resolution *r = cl_xmalloc(sizeof(*r));
	struct cl_error err;
	enum cl_verdict v = args->accept ? CL_VERDICT_ACCEPT : CL_VERDICT_DISMISS;
	enum cl_db_status st;
	char what[96];
	int code = CL_EXIT_OK;

	if (args->ordinal)
		snprintf(what, sizeof(what), "load %lu ordinal %lu", args->load_id, args->ordinal);
	else
		snprintf(what, sizeof(what), "load %lu line %lu", args->load_id, args->line);
	st = cl_schema_check(db, &err);
	if (st == CL_DB_OK)
		st = cl_conflicts_resolve(db, (long long)args->load_id, (long long)args->ordinal,
					  (long long)args->line, v, args->note, r, &err);
	if (st != CL_DB_OK) {
		free(r);
		return cl_db_failed(&err);
	}
	switch (r->outcome) {
	case CL_RESOLVE_DONE:
		print_resolution(args, r, false);
		break;
	case CL_RESOLVE_ALREADY:
		if (!cl_opt_quiet)
			cl_msg("the conflict of %s was %s before: nothing changed", what, r->verdict);
		print_resolution(args, r, true);
		break;
	case CL_RESOLVE_OTHER:
		code = cl_usage_error(args->cmd, "the conflict of %s was %s before: cannot %s it",
				      what, r->verdict, args->accept ? "accept" : "dismiss");
		break;
	case CL_RESOLVE_AMBIGUOUS:
		code = cl_usage_error(args->cmd, "%s holds several conflicts: give --ordinal "
						 "('clearing-load conflicts --load %lu' lists them)",
				      what, args->load_id);
		break;
	case CL_RESOLVE_NOT_FOUND:
		cl_msg("no conflict is parked at %s ('clearing-load conflicts' lists them)", what);
		code = CL_EXIT_NOT_FOUND;
		break;
	case CL_RESOLVE_NO_RECORD:
		cl_msg("the conflict of %s has no journal row or matched record any more (the "
		       "journal was pruned): it cannot be resolved", what);
		code = CL_EXIT_NOT_FOUND;
		break;
	}
	free(r);
	return cl_finish_stdout(code);
}

int cl_cmd_resolve(int argc, char **argv)
{
	struct cl_args args = { 0 };

	return cl_run_db_command(resolve_command, &args, argc, argv, resolve);
}
