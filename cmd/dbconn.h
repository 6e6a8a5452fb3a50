/*
 * dbconn.h - what the database commands (init, load, diff, show, loads)
 * share: the --db check and connecting with a printed error.
 */
#ifndef CL_DBCONN_H
#define CL_DBCONN_H

#include "cmd/options.h"
#include "loader/db.h"

/* Refuse a conninfo carrying a password (usage error, exit 2), connect to
 * args->db with the tables of args->db_schema (--schema; default
 * CLEARING_LOAD_SCHEMA, else public), and print why not on failure.
 * Returns 0 when connected, else the exit code (2, or the database
 * error's: 75, 78 or 5). */
int cl_cmd_connect(const struct cl_args *args, struct cl_db *db);

/* What a database command does once connected: its exit code. */
typedef int cl_db_body(const struct cl_args *args, struct cl_db *db);

/* init, load, diff, show, loads: parse the command line by the command's
 * table into args (cl_parse_options), connect to --db (cl_cmd_connect),
 * run body and close the connection.  Returns body's exit code, or the
 * usage or connection error's. */
int cl_run_db_command(const struct cl_option *cmd, struct cl_args *args, int argc, char **argv,
		      cl_db_body *body);

/* Print a database error: "clearing-load: <message> (SQLSTATE xxxxx)". */
void cl_print_db_error(const struct cl_error *err);

/* A body's end on a database error: print it, return its exit code
 * (cl_exit_for_db_error: 75, 78 or 5). */
int cl_db_failed(const struct cl_error *err);

#endif
