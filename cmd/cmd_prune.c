/* cmd_prune.c - `clearing-load prune`: journal retention (loader/prune.h). */
#include "cmd/cli.h"

#include <string.h>

#include "cmd/dbconn.h"
#include "cmd/options.h"
#include "loader/prune.h"
#include "loader/schema.h"

static int need_date(struct cl_args *args)
{
	return args->journal_before ? 0
				    : cl_usage_error(args->cmd, "--journal-before DATE is required");
}

static const struct cl_option prune_command[] = {
	CL_OPT_USAGE("prune", CL_NO_OPERANDS, "--journal-before DATE [OPTION]..."),
	CL_OPT_TEXT("Remove the dedupe journal rows of loads started before DATE (00:00 UTC), "
		    "load by load, and record what was removed in clearing_prune_audit.  Records, "
		    "the load history and the quarantine are never touched: a re-upload of a "
		    "pruned load's file is still all duplicate."),
	CL_OPT_CHECKED(0, "journal-before", "DATE", journal_before, cl_valid_day, "YYYY-MM-DD",
		       "prune the journal of loads started before this day (UTC)"),
	CL_OPT_BOOL(0, "duplicates-only", duplicates_only,
		    "remove only the duplicate events (harmless re-runs); keep conflicts and near "
		    "duplicates"),
	CL_OPT_DB(),
	CL_OPT_QUIET("print nothing but errors"),
	CL_OPT_CHECK(need_date),
	CL_OPT_TEXT("Exit status: 0 success, 2 usage error, 5 database error, 75 retry later, "
		    "78 configuration (see 'clearing-load help')."),
	CL_OPT_END(),
};

static int prune(const struct cl_args *args, struct cl_db *db)
{
	struct cl_prune_result r;
	struct cl_error err;
	char before[32];

	snprintf(before, sizeof(before), "%s 00:00:00+00", args->journal_before);
	if (cl_schema_check(db, &err) != CL_DB_OK ||
	    cl_prune_journal(db, before, args->duplicates_only, &r, &err) != CL_DB_OK)
		return cl_db_failed(&err);
	if (!cl_opt_quiet)
		printf("pruned %llu journal row%s (%s) of %llu load%s started before %s UTC: audit "
		       "row %lld\n",
		       r.events, r.events == 1 ? "" : "s",
		       args->duplicates_only ? "duplicates only" : "every reason", r.loads,
		       r.loads == 1 ? "" : "s", args->journal_before, r.prune_id);
	return cl_finish_stdout(CL_EXIT_OK);
}

int cl_cmd_prune(int argc, char **argv)
{
	struct cl_args args = { 0 };

	return cl_run_db_command(prune_command, &args, argc, argv, prune);
}
