/* cmd_init.c - `clearing-load init`: create or upgrade the schema. */
#include "cli.h"

#include <string.h>

#include "dbconn.h"
#include "options.h"
#include "schema.h"

static const struct cl_option init_command[] = {
	CL_OPT_USAGE("init", CL_NO_OPERANDS, "[OPTION]..."),
	CL_OPT_TEXT("Create or upgrade the clearing-load schema (idempotent; safe to run twice "
		    "at once)."),
	CL_OPT_DB(),
	CL_OPT_ULONG('p', "partitions", "N", partitions, 1, 1024,
		     "create clearing_record hash-partitioned on natural_key in N partitions "
		     "(1-1024; default: not partitioned)"),
	CL_OPT_QUIET("print nothing but errors"),
	CL_OPT_VERBOSE(),
	CL_OPT_TEXT("Exit status: 0 success, 2 usage error (also --partitions other than the "
		    "existing table's), 5 database error, 75 database unreachable (retry later), "
		    "78 permission denied or a schema newer than this clearing-load (nothing is "
		    "changed)."),
	CL_OPT_END(),
};

static int init(const struct cl_args *args, struct cl_db *db)
{
	struct cl_init_result r;
	struct cl_error err;

	if (cl_schema_init(db, args->partitions ? (int)args->partitions : -1, &r, &err) != CL_DB_OK) {
		cl_print_db_error(&err);
		/* asking for another partitioning than the table has is the
		 * operator's mistake, not a database outage */
		return strcmp(err.code, "partitions_mismatch") == 0 ? CL_EXIT_USAGE
								       : cl_exit_for_db_error(&err);
	}
	if (r.from_version > cl_schema_latest()) {
		/* an older binary during a rolling upgrade: never "up to date";
		 * load and diff refuse this database too */
		cl_msg("the database schema is at version %u, newer than this clearing-load's (%u): "
		       "nothing was changed; use the clearing-load of a newer release",
		       r.from_version, cl_schema_latest());
		return CL_EXIT_CONFIG;
	}
	if (!cl_opt_quiet) {
		if (r.applied)
			printf("schema at version %u (applied %u migration%s)", r.to_version, r.applied,
			       r.applied == 1 ? "" : "s");
		else
			printf("schema up to date at version %u", r.to_version);
		if (r.partitions)
			printf(", clearing_record hash-partitioned in %d partition%s", r.partitions,
			       r.partitions == 1 ? "" : "s");
		putchar('\n');
	}
	return cl_finish_stdout(CL_EXIT_OK);
}

int cl_cmd_init(int argc, char **argv)
{
	struct cl_args args = { 0 };

	return cl_run_db_command(init_command, &args, argc, argv, init);
}
