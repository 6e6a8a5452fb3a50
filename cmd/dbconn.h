/*
 * dbconn.h - what the database commands (init, load, diff, show, loads)
 * share: the --db check and connecting with a printed error.
 */
#ifndef CL_DBCONN_H
#define CL_DBCONN_H

#include "db.h"

/* Refuse a conninfo carrying a password (usage error, exit 2), connect,
 * and print why not on failure.  Returns 0 when connected, else the exit
 * code (2 or 5). */
int cl_cmd_connect(const char *cmd, const char *conninfo, struct cl_db *db);

/* Print a database error: "clearing-load: <message> (SQLSTATE xxxxx)". */
void cl_print_db_error(const struct cl_error *err);


#endif
