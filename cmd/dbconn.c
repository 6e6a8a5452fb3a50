/* dbconn.c - connecting for the database commands. */
#include "cmd/dbconn.h"

#include "cmd/cli.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"
#include "loader/watchdog.h"

void cl_print_db_error(const struct cl_error *err)
{
	if (err->sqlstate[0])
		cl_msg("%s (SQLSTATE %s)", err->message, err->sqlstate);
	else
		cl_msg("%s", err->message);
	/* PostgreSQL's parts: where it was looked, and what to do next */
	if (err->detail[0])
		cl_msg("detail: %s", err->detail);
	if (err->hint[0])
		cl_msg("hint: %s", err->hint);
	if (cl_opt_format == CL_OUT_JSON)
		cl_json_error(NULL, err); /* stdout too: every command's JSON has its errors */
}

int cl_db_failed(const struct cl_error *err)
{
	cl_print_db_error(err);
	return cl_exit_for_db_error(err);
}

/* "PASSWORD=x" is no libpq keyword (libpq would refuse it as an invalid
 * option: a database error, exit 5), but it is a password on the command
 * line all the same: a usage error.  The conninfo lowercased
 * only for this question. */
static bool has_password_any_case(const char *conninfo)
{
	char *low;
	bool has;

	if (!conninfo)
		return false;
	low = cl_xstrdup(conninfo);
	for (char *c = low; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	has = strcmp(low, conninfo) != 0 && cl_db_conninfo_has_password(low);
	free(low);
	return has;
}

int cl_run_db_command(const struct cl_option *cmd, struct cl_args *args, int argc, char **argv,
		      cl_db_body *body)
{
	struct cl_db db;
	int code = cl_parse_options(cmd, argc, argv, args);

	if (code >= 0)
		return code;
	cl_watchdog_set_limit(args->wait_limit ? (unsigned)args->wait_limit : CL_WAIT_LIMIT_DEFAULT);
	if ((code = cl_cmd_connect(args, &db)) != 0)
		return code;
	code = body(args, &db);
	cl_db_close(&db);
	return code;
}

int cl_cmd_connect(const struct cl_args *args, struct cl_db *db)
{
	const char *cmd = args->cmd, *conninfo = args->db;
	const char *schema = args->db_schema ? args->db_schema : getenv("CLEARING_LOAD_SCHEMA");
	struct cl_error err;

	if (!schema || !*schema)
		schema = "public";
	if (strlen(schema) > 63)
		return cl_usage_error(cmd, "invalid --schema \"%.80s...\" (expected a schema name of "
					   "at most 63 bytes)", schema);
	cl_db_use_schema(schema);
	cl_db_on_note(cl_note_if_verbose, NULL); /* -v: retries of a transient error */

	if (cl_db_conninfo_has_password(conninfo) || has_password_any_case(conninfo))
		return cl_usage_error(cmd, "--db must not contain a password: use ~/.pgpass, "
					   "PGPASSFILE or a service file (PGSERVICE)");
	{
		char why[256];

		/* a --db libpq cannot read is a usage error, not an unreachable
		   database (exit 2, not 5) */
		if (!cl_db_conninfo_parses(conninfo, why, sizeof(why)))
			return cl_usage_error(cmd, "--db is not a connection string libpq can read: %s",
					      why);
	}
	if (cl_db_connect(db, conninfo, &err) != CL_DB_OK)
		return cl_db_failed(&err);
	return 0;
}

