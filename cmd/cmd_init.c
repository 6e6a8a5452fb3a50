/* cmd_init.c - `clearing-load init`: create or upgrade the schema. */
#include "cmd/cli.h"

#include <string.h>

#include "cmd/dbconn.h"
#include "cmd/options.h"
#include "loader/roles.h"
#include "loader/schema.h"

static void add_role(struct cl_args *args, const struct cl_option *opt, const char *arg)
{
	if (args->nroles < CL_NLIST(args->roles)) {
		args->roles[args->nroles] = arg;
		args->role_kinds[args->nroles] = opt->value;
	}
	args->nroles++;
}

static void add_access(struct cl_args *args, const struct cl_option *opt, const char *arg)
{
	(void)opt;
	cl_list_add(args->tenant_access, CL_NLIST(args->tenant_access), &args->naccess, arg);
}

static int check(struct cl_args *args)
{
	if (args->nroles > CL_NLIST(args->roles) || args->naccess > CL_NLIST(args->tenant_access))
		return cl_usage_error(args->cmd, "at most %zu roles and %zu --tenant-access at once",
				      CL_NLIST(args->roles), CL_NLIST(args->tenant_access));
	for (unsigned i = 0; i < args->nroles; i++)
		if (!args->roles[i][0])
			return cl_usage_error(args->cmd, "a role name is empty");
	for (unsigned i = 0; i < args->naccess; i++) {
		const char *eq = strchr(args->tenant_access[i], '=');

		if (!eq || eq == args->tenant_access[i] || !cl_valid_tenant(eq + 1))
			return cl_usage_error(args->cmd,
					      "invalid --tenant-access \"%s\" (expected ROLE=TENANT, the "
					      "tenant 1 to 63 of a-z 0-9 _ . -)",
					      args->tenant_access[i]);
	}
	return 0;
}

static const struct cl_choice on_off[] = { { "on", 1 }, { "off", 2 }, { NULL, 0 } };

static const struct cl_option init_command[] = {
	CL_OPT_USAGE("init", CL_NO_OPERANDS, "[OPTION]..."),
	CL_OPT_TEXT("Create or upgrade the clearing-load schema (idempotent; safe to run twice "
		    "at once)."),
	CL_OPT_DB(),
	CL_OPT_ULONG('p', "partitions", "N", partitions, 1, 1024,
		     "create clearing_record hash-partitioned on its shard identity in N partitions "
		     "(1-1024; default: not partitioned)"),
	CL_OPT_BOOL(0, "columnar", columnar,
		    "keep clearing_record in columnar storage (the citus_columnar extension; a "
		    "quarter of the table's bytes, slower reads of whole records; on Citus, its "
		    "shards); "
		    "on a database that holds records, a rewrite of the table"),
	CL_OPT_CALLBACK(0, "loader-role", "ROLE", add_role, CL_ROLE_LOADER,
			"grant ROLE what a loader needs (load, ingest, and what reader has but the "
			"feed), nothing else; repeatable"),
	CL_OPT_CALLBACK(0, "reader-role", "ROLE", add_role, CL_ROLE_READER,
			"grant ROLE read access (show, loads, diff, SQL); repeatable"),
	CL_OPT_CALLBACK(0, "consumer-role", "ROLE", add_role, CL_ROLE_CONSUMER,
			"grant ROLE the feed (read and acknowledge); repeatable"),
	CL_OPT_CALLBACK(0, "tenant-access", "ROLE=TENANT", add_access, 0,
			"under row-level security, ROLE and its members see and load TENANT; "
			"repeatable"),
	CL_OPT_CHOICE(0, "row-security", "on|off", row_security, on_off,
		      "limit every role to the tenants of its --tenant-access (on), or not (off, "
		      "the default)"),
	CL_OPT_QUIET("print nothing but errors"),
	CL_OPT_VERBOSE(),
	CL_OPT_CHECK(check),
	CL_OPT_TEXT("The roles must exist.  Every init grants each role it was ever given exactly "
		    "its privileges (clearing-load(1) PRIVILEGES)."),
	CL_OPT_TEXT("Exit status: 0 success, 2 usage error (also --partitions other than the "
		    "existing table's), 5 database error, 75 database unreachable (retry later), "
		    "78 permission denied, a role that does not exist, a schema newer than this "
		    "clearing-load or --columnar where it cannot be done (nothing is changed)."),
	CL_OPT_END(),
};

/* The roles and row-level security the command line asks for, and the
 * grants of every role init was ever given. */
static int apply_roles(const struct cl_args *args, struct cl_db *db)
{
	struct cl_error err;
	struct cl_roles_request req = { .row_security = args->row_security == 1   ? 1
							: args->row_security == 2 ? 0
										  : -1 };
	struct cl_roles_result rr;

	for (unsigned i = 0; i < args->nroles; i++) {
		req.role[i] = args->roles[i];
		req.kind[i] = (enum cl_role_kind)args->role_kinds[i];
	}
	req.nroles = args->nroles;
	for (unsigned i = 0; i < args->naccess; i++) {
		static char roles[CL_NLIST(args->tenant_access)][256];
		const char *eq = strchr(args->tenant_access[i], '=');

		snprintf(roles[i], sizeof(roles[i]), "%.*s", (int)(eq - args->tenant_access[i]),
			 args->tenant_access[i]);
		req.access_role[i] = roles[i];
		req.access_tenant[i] = eq + 1;
	}
	req.naccess = args->naccess;
	if (cl_roles_apply(db, &req, &rr, &err) != CL_DB_OK) {
		cl_print_db_error(&err);
		return strcmp(err.code, "no_role") == 0 ? CL_EXIT_CONFIG
							: cl_exit_for_db_error(&err);
	}
	if (!cl_opt_quiet && (args->nroles || rr.granted))
		printf("roles: %u granted their privileges\n", rr.granted);
	if (!cl_opt_quiet && req.row_security >= 0)
		printf("row-level security %s (%u table%s)\n", req.row_security ? "on" : "off",
		       rr.rls_tables, rr.rls_tables == 1 ? "" : "s");
	return CL_EXIT_OK;
}

static int init(const struct cl_args *args, struct cl_db *db)
{
	struct cl_init_result r;
	struct cl_error err;
	int code;

	if (cl_schema_init(db, args->partitions ? (int)args->partitions : -1, args->columnar, &r,
			   &err) != CL_DB_OK) {
		cl_print_db_error(&err);
		/* asking for another partitioning than the table has is the
		 * operator's mistake, not a database outage */
		return strcmp(err.code, "partitions_mismatch") == 0 ? CL_EXIT_USAGE
		       : strcmp(err.code, "no_schema") == 0 ||
				 strncmp(err.code, "columnar_", 9) == 0
			       ? CL_EXIT_CONFIG
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
		if (r.columnar)
			printf(", clearing_record in columnar storage");
		putchar('\n');
	}
	code = apply_roles(args, db);
	if (code != CL_EXIT_OK)
		return code;
	return cl_finish_stdout(CL_EXIT_OK);
}

int cl_cmd_init(int argc, char **argv)
{
	struct cl_args args = { 0 };

	return cl_run_db_command(init_command, &args, argc, argv, init);
}
