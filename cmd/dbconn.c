/* dbconn.c - connecting for the database commands. */
#include "dbconn.h"

#include "cli.h"

#include <getopt.h>

void cl_print_db_error(const struct cl_error *err)
{
	if (err->sqlstate[0])
		cl_msg("%s (SQLSTATE %s)", err->message, err->sqlstate);
	else
		cl_msg("%s", err->message);
}

int cl_cmd_connect(const char *cmd, const char *conninfo, struct cl_db *db)
{
	struct cl_error err;

	if (cl_db_conninfo_has_password(conninfo))
		return cl_usage_error(cmd, "--db must not contain a password: use ~/.pgpass, "
					   "PGPASSFILE or a service file (PGSERVICE)");
	if (cl_db_connect(db, conninfo, &err) != CL_DB_OK) {
		cl_print_db_error(&err);
		return CL_EXIT_DB;
	}
	return 0;
}

