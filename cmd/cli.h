/*
 * cli.h - what every clearing-load subcommand shares: exit codes, message
 * output (GNU format on stderr), JSON and CSV writers on stdout, account
 * masking, and the subcommand entry points.
 *
 * Only cmd/ prints or exits.  stdout carries the primary output only;
 * everything else (errors, notes, progress) goes to stderr.
 */
#ifndef CL_CLI_H
#define CL_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "parser.h"
#include "record.h"

/* Exit codes (clearing-load(1), EXIT STATUS; the same table in --help and
 * the README).  Each says what a script should do next; 75 and 78 are
 * sysexits(3)'s EX_TEMPFAIL and EX_CONFIG.  With several files the most
 * severe code wins, in the order of cl_exit_worse(). */
enum cl_exit {
	CL_EXIT_OK = 0,          /* success (diff: nothing would be applied) */
	CL_EXIT_PENDING = 1,     /* diff: new records would be applied */
	CL_EXIT_USAGE = 2,       /* usage error (also a missing file, a directory) */
	CL_EXIT_INVALID = 3,     /* invalid file: nothing from it applied */
	CL_EXIT_HELD = 4,        /* conflicts held: nothing from the file applied */
	CL_EXIT_DB = 5,          /* the database refused the load: rolled back */
	CL_EXIT_UNKNOWN = 6,     /* outcome unknown: the load UUID is printed */
	CL_EXIT_NOT_FOUND = 7,   /* show: no record, loads --uuid: no load matches */
	CL_EXIT_QUARANTINED = 8, /* clean records applied, conflicting ones parked */
	CL_EXIT_UNSUPPORTED = 9, /* a well-formed message that is not a clearing file */
	CL_EXIT_TEMPFAIL = 75,   /* retry later: database unreachable, connection lost
	                            before COMMIT, a wait limit, a file still arriving */
	CL_EXIT_CONFIG = 78,     /* no schema, schema version mismatch, permission denied */
	CL_EXIT_SIGNAL = 128,    /* + the signal: interrupted by SIGINT (130) or SIGTERM
	                            (143), the file's transaction rolled back */
};

/* The more severe of two exit codes: outcome unknown, configuration,
 * retryable, database error, interrupted, held, quarantined, invalid,
 * unsupported, not found, usage, pending, success. */
int cl_exit_worse(int a, int b);

/* The exit code of a database error: retryable (75), configuration (78)
 * or refused (5), by its SQLSTATE and code (loader/db.h cl_db_error_class). */
int cl_exit_for_db_error(const struct cl_error *err);

/* The exit code of one file's load or diff (loader/load.h's outcome;
 * interrupted: 128 + the signal). */
struct cl_load_result;
int cl_exit_for_load(const struct cl_load_result *r);

/* The exit-status table as --help prints it (main.c, and each command's
 * help names the lines that apply to it). */
extern const char cl_exit_table_help[];

/* Output format chosen with --format. */
enum cl_out_format { CL_OUT_TEXT = 0, CL_OUT_JSON, CL_OUT_CSV };

/* Global switches (set by main.c / each command's option parsing). */
extern bool cl_opt_quiet;   /* -q: no progress, no summaries; errors stay */
extern int cl_opt_verbose;  /* -v: notes (CRLF, missing 9-fill, retries) */
extern bool cl_opt_no_mask; /* --no-mask: print account numbers in full */

/* Subcommands: each parses argv (argv[0] = the subcommand name) by its
 * option table (options.h) and returns an exit code. */
int cl_cmd_parse(int argc, char **argv);
int cl_cmd_validate(int argc, char **argv);
int cl_cmd_init(int argc, char **argv);
int cl_cmd_load(int argc, char **argv);   /* also "diff": argv[0] tells */
int cl_cmd_show(int argc, char **argv);
int cl_cmd_loads(int argc, char **argv);
int cl_cmd_ingest(int argc, char **argv);
int cl_cmd_feed(int argc, char **argv);

/* "clearing-load: FILE:LINE: error: message" (or "FILE: error:" with no
 * line; "FILE:LINE: element path: message" for XML). */
void cl_print_error(const struct cl_error *err);
/* The same with "note:" instead of "error:" (printed only with -v). */
void cl_print_note(const struct cl_error *err);
/* "clearing-load: <message>" on stderr. */
void cl_msg(const char *fmt, ...) CL_PRINTF(1, 2);
/* Usage error: "clearing-load CMD: <message>" and "Try 'clearing-load CMD
 * --help' for more information."; returns CL_EXIT_USAGE. */
int cl_usage_error(const char *cmd, const char *fmt, ...) CL_PRINTF(2, 3);


/* An account number as output shows it: masked (rules/mask.h) unless
 * --no-mask.  Returns acct itself or buf. */
const char *cl_out_account(const char *acct, char *buf, size_t cap);
/* A natural key (or a key of the journal) of `rec` as output shows it: the
 * record's account numbers in it masked unless --no-mask.  Returns key
 * itself or buf. */
const char *cl_out_key(const struct cl_record *rec, const char *key, char *buf, size_t cap);

/* A JSON object writer on a stream, one object per line.  Strings are
 * escaped per RFC 8259 (invalid UTF-8 becomes U+FFFD); "" and NULL are
 * written as null.  The object is built in `buf` and written with one
 * fwrite (or in 64 KiB pieces): `parse --format json` is hot. */
#define CL_JSON_BUF (64 * 1024)
struct cl_json {
	FILE *f;
	int fields;               /* written so far in this object */
	size_t len;               /* bytes in buf */
	char buf[CL_JSON_BUF];
};
void cl_json_begin(struct cl_json *j, FILE *f);
void cl_json_str(struct cl_json *j, const char *key, const char *val);
void cl_json_int(struct cl_json *j, const char *key, long long val);
void cl_json_uint(struct cl_json *j, const char *key, unsigned long long val);
void cl_json_real(struct cl_json *j, const char *key, double val); /* seconds */
void cl_json_bool(struct cl_json *j, const char *key, bool val);
void cl_json_null(struct cl_json *j, const char *key);
void cl_json_end(struct cl_json *j); /* writes "}\n" */

/* Write an error's words into an open JSON object: "code", "message" and,
 * only when the error has them, "detail" and "hint" (what cl_print_error()
 * says in its lines); where it was found is the caller's part. */
void cl_json_error_words(struct cl_json *j, const struct cl_error *err);

/* Write every field of the record model into an open JSON object (the
 * keys listed in clearing-load(1), snake_case; accounts masked unless
 * --no-mask). */
void cl_json_record_fields(struct cl_json *j, const struct cl_record *rec);

/* CSV through libcsv: one row of n fields, NULL written as empty. */
void cl_csv_row(FILE *f, const char *const *fields, size_t n);
/* The record model as CSV: header row names and a record's values (after a
 * first "file" column), in the same order as cl_json_record_fields(). */
void cl_csv_record_header(FILE *f);
void cl_csv_record(FILE *f, const char *file, const struct cl_record *rec);

/* Close stdout and report a write error (disk full, closed descriptor) on
 * stderr.  For commands whose output is the product (parse, validate,
 * diff, show, loads) a lost output is a failure: returns `code`, or 2 when
 * `code` was 0.  A reader that went away (EPIPE, `| head`) is not an error. */
int cl_finish_stdout(int code);
/* The same for load, whose product is the database change: the exit status
 * keeps describing what was applied; the lost report is only said on
 * stderr (`clearing-load loads` tells it again). */
int cl_finish_stdout_report(int code);

/* `s` made safe for text output on a terminal or in a log: control
 * characters and invalid UTF-8 as \xNN, so a file name cannot forge a line
 * or drive the terminal.  Returns buf (always NUL-terminated). */
const char *cl_text_safe(const char *s, char *buf, size_t cap);

#endif
