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

#include "base/record.h"
#include "parsers/parser.h"

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
	CL_EXIT_DIFFERENCES = 10, /* reconcile: something unmatched theirs or an exception */
	CL_EXIT_TEMPFAIL = 75,   /* retry later: database unreachable, connection lost
	                            before COMMIT, a wait limit, a file still arriving */
	CL_EXIT_CONFIG = 78,     /* no schema, schema version mismatch, permission denied */
	CL_EXIT_SIGNAL = 128,    /* + the signal: interrupted by SIGINT (130) or SIGTERM
	                            (143), the file's transaction rolled back */
};

/* The more severe of two exit codes: outcome unknown, configuration,
 * database error, held, quarantined, invalid, reconciliation differences
 * (a person must look), retryable, interrupted, unsupported, not found,
 * usage, pending, success (docs/design/0026-exit-status-ranking.md). */
int cl_exit_worse(int a, int b);

/* The exit code of a database error: retryable (75), configuration (78)
 * or refused (5), by its SQLSTATE and code (loader/db.h cl_db_error_class). */
int cl_exit_for_db_error(const struct cl_error *err);

/* The exit code of one file's load or diff (loader/load.h's outcome;
 * interrupted: 128 + the signal). */
struct cl_load_result;
int cl_exit_for_load(const struct cl_load_result *r);

/* The exit-status table as 'clearing-load help' prints it, headed by the
 * order of cl_exit_worse() (each command's help names the lines that apply
 * to it). */
void cl_print_exit_table(FILE *f);

/* Output format chosen with --format. */
enum cl_out_format { CL_OUT_TEXT = 0, CL_OUT_JSON, CL_OUT_CSV };

/* Global switches (set by main.c / each command's option parsing). */
extern bool cl_opt_quiet;   /* -q: no progress, no summaries; errors stay */
extern int cl_opt_verbose;  /* -v: notes (CRLF, missing 9-fill, retries) */
extern bool cl_opt_no_mask; /* --no-mask: print account numbers in full */
extern enum cl_out_format cl_opt_format; /* --format (text for commands without it) */

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
int cl_cmd_prune(int argc, char **argv);
int cl_cmd_conflicts(int argc, char **argv);
int cl_cmd_resolve(int argc, char **argv);
int cl_cmd_reconcile(int argc, char **argv);
int cl_cmd_break(int argc, char **argv);
int cl_cmd_match_rules(int argc, char **argv);

/* "clearing-load: FILE:LINE: error: message" (or "FILE: error:" with no
 * line; "FILE:LINE: element path: message" for XML). */
void cl_print_error(const struct cl_error *err);
/* The same with "note:" instead of "error:" (printed only with -v). */
void cl_print_note(const struct cl_error *err);
/* The same with "warning:", printed always: a fact about the data that is
 * no error of the file (a statement's balance break). */
void cl_print_warning(const struct cl_error *err);
/* "clearing-load: <message>" on stderr, made safe as cl_text_safe() makes
 * it (a quoted value cannot drive the terminal). */
void cl_msg(const char *fmt, ...) CL_PRINTF(1, 2);
/* Usage error: "clearing-load CMD: <message>" and "Try 'clearing-load CMD
 * --help' for more information."; returns CL_EXIT_USAGE. */
int cl_usage_error(const char *cmd, const char *fmt, ...) CL_PRINTF(2, 3);


/* An account number as output shows it: masked (base/mask.h) unless
 * --no-mask.  Returns acct itself or buf. */
const char *cl_out_account(const char *acct, char *buf, size_t cap);
/* A natural key (or a key of the journal) of `rec` as output shows it: the
 * record's account numbers in it masked unless --no-mask.  Returns key
 * itself or buf. */
const char *cl_out_key(const struct cl_record *rec, const char *key, char *buf, size_t cap);

/* The version of the JSON output format (clearing-load(1), JSON OUTPUT;
 * man/clearing-load-output.schema.json): every object carries it as
 * "format_version".  Raised when a key is removed or changes meaning; new
 * keys do not raise it. */
#define CL_JSON_FORMAT_VERSION 1

/* A JSON object writer on a stream, one object per line.  Strings are
 * escaped per RFC 8259 (invalid UTF-8 becomes U+FFFD; C0 and C1 controls
 * and DEL as \uXXXX); "" and NULL are written as null.  The object is
 * built in `buf` and written with one fwrite (or in 64 KiB pieces):
 * `parse --format json` is hot.  Arrays and objects nest (to
 * CL_JSON_DEPTH): inside an array, pass NULL as the key. */
#define CL_JSON_BUF (64 * 1024)
#define CL_JSON_DEPTH 4
struct cl_json {
	FILE *f;
	int depth;                   /* 0: the line's object */
	int fields[CL_JSON_DEPTH];   /* members written so far, per level */
	size_t len;                  /* bytes in buf */
	char buf[CL_JSON_BUF];
};
/* Start an object: {"type":TYPE,"format_version":N, ... */
void cl_json_begin(struct cl_json *j, FILE *f, const char *type);
void cl_json_str(struct cl_json *j, const char *key, const char *val);
void cl_json_int(struct cl_json *j, const char *key, long long val);
void cl_json_uint(struct cl_json *j, const char *key, unsigned long long val);
void cl_json_real(struct cl_json *j, const char *key, double val); /* seconds */
void cl_json_bool(struct cl_json *j, const char *key, bool val);
void cl_json_null(struct cl_json *j, const char *key);
void cl_json_array(struct cl_json *j, const char *key);  /* "key":[ */
void cl_json_array_end(struct cl_json *j);               /* ] */
void cl_json_object(struct cl_json *j, const char *key); /* "key":{ */
void cl_json_object_end(struct cl_json *j);              /* } */
void cl_json_end(struct cl_json *j); /* writes "}\n" */

/* A writer of many lines (parse's records): cl_json_lines() starts it on
 * f, each cl_json_record_line() adds a whole record object and its line
 * end to the buffer, which is written when it is full (a record is not
 * copied again into stdio's buffer) and by cl_json_flush(): call it before
 * anything else writes to f, and at the end. */
void cl_json_lines(struct cl_json *j, FILE *f);
void cl_json_flush(struct cl_json *j);

/* An error as one JSON object on stdout, every command's form of it:
 * "type":"error", "file" (`file`, else the error's own; null for none),
 * "line", "column", "other_line" (null when 0), "path", "code",
 * "message", "detail", "hint", "sqlstate" (null when ""). */
void cl_json_error(const char *file, const struct cl_error *err);

/* The same object with another "type": "warning" (a balance break, which
 * leaves the file valid). */
void cl_json_diag(const char *type, const char *file, const struct cl_error *err);

/* An error from a file: its lines on stderr (cl_print_error) and, with
 * --format json, its object on stdout (cl_json_error). */
void cl_report_error(const char *file, const struct cl_error *err);

/* The record object: "type":"record", "format_version", "file", then
 * every OUT field of the record model in table order (record_fields.def;
 * the keys listed in clearing-load(1)), null when the record has none or
 * its scheme does not carry it; accounts masked unless --no-mask.  With
 * stored_only (diff), the fields the database never stores (names, free
 * text, counts) are null too: diff, like show, prints what the database
 * would hold, and no name or free text of a file.  The object is left
 * open: a command adds its own members and ends it. */
void cl_json_record(struct cl_json *j, FILE *f, const char *file, const struct cl_record *rec,
		    bool stored_only);
/* The record object (as parse prints it: not stored_only) and "}\n"
 * added to the lines of j (cl_json_lines). */
void cl_json_record_line(struct cl_json *j, const char *file, const struct cl_record *rec);

/* The OUT fields of the record model, in table order: the keys of the
 * record object, for writers whose record is not a struct cl_record
 * (show's rows).  Returns their number. */
size_t cl_record_out_fields(const struct cl_field *const **fields);

/* The file object, one per FILE operand of validate, load and diff: the
 * same keys for all three, null where a command does not know the value
 * (validate: the load's members; load: what a database that could not be
 * reached never said). */
struct cl_file_out {
	const char *file;          /* as named in output */
	const char *outcome;       /* validate: valid, invalid; load/diff: cl_outcome_name */
	int valid;                 /* 1, 0, or -1: not known */
	const char *format, *message_type, *sha256; /* "" or NULL: null */
	bool have_counts;          /* the file was read: bytes, records, errors */
	unsigned long long bytes;
	unsigned long records, errors;
	bool have_load;            /* load/diff: the members below */
	long long load_id;         /* 0: null */
	const char *load_uuid;
	unsigned long new_count, duplicate_count, conflict_count;
	double seconds;
	unsigned retries;
	const char *reason;        /* why nothing was applied (or held), or NULL */
};
void cl_json_file(const struct cl_file_out *f);

/* NULL for "": a missing value (CSV: an empty field; JSON: null). */
static inline const char *cl_or_null(const char *s)
{
	return s && *s ? s : NULL;
}

/* CSV through libcsv: one row of n fields.  NULL is written as an empty
 * field, any string (an empty one too) quoted: psql's \copy ... csv reads
 * the first as NULL, the second as the string. */
void cl_csv_row(FILE *f, const char *const *fields, size_t n);
/* The record model as CSV: header row names and a record's values (after a
 * first "file" column), in the same order as cl_json_record(). */
void cl_csv_record_header(FILE *f);
void cl_csv_record(FILE *f, const char *file, const struct cl_record *rec);

/* Close stdout and report a write error (disk full, closed descriptor) on
 * stderr.  For commands whose output is the product (parse, validate,
 * diff, show, loads) a lost output is a failure: returns `code`, or 2 when
 * `code` was 0.  A reader that went away (EPIPE, `| head`) is not an error:
 * `code` is returned and nothing said, however the timing fell (the man
 * page, EXIT STATUS). */
int cl_finish_stdout(int code);
/* The same for load, whose product is the database change: the exit status
 * keeps describing what was applied; the lost report is only said on
 * stderr (`clearing-load loads` tells it again). */
int cl_finish_stdout_report(int code);

/* `s` made safe for text output on a terminal or in a log: C0 controls,
 * DEL, C1 controls (U+0080-U+009F, e.g. the CSI U+009B: \xC2\x9B) and
 * invalid UTF-8 as \xNN, so a value from a file or the database cannot
 * forge a line or drive the terminal.  Returns buf (always NUL-terminated;
 * cut at a character when too long). */
const char *cl_text_safe(const char *s, char *buf, size_t cap);

/* A timestamp as output gets it from the database (RFC 3339:
 * "2026-12-01T15:04:05+00:00") as text output shows it: "2026-12-01
 * 15:04:05+00" (the offset's minutes only when not :00).  Anything else
 * is made safe (cl_text_safe).  Returns buf. */
const char *cl_text_time(const char *iso, char *buf, size_t cap);

#endif
