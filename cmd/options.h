/*
 * options.h - the command line of every command, as tables.
 *
 * A command is one static table.  Its first line names the command and
 * what follows the name in its usage line; then each option is one line:
 * its short and long name, the name of its argument (NULL: it takes none),
 * its help text, and the field of struct cl_args it sets (or the function
 * it calls); paragraphs of text (what the command does, its exit status)
 * stand between them where --help prints them.  From the table come the
 * getopt_long short-option string and struct option array, the check of
 * each value with the usage error it gives, and the whole --help: help
 * cannot drift from parsing.  -h, --help is every command's and is not
 * written in the tables.  Options several commands share are declared once
 * here, as a macro (CL_OPT_DB) or a table (cl_file_options) the commands'
 * tables include.
 */
#ifndef CL_OPTIONS_H
#define CL_OPTIONS_H

#include <stddef.h>

#include "cmd/cli.h"
#include "parsers/parser.h"

/* Everything a command line can say; each command reads what its table
 * lets the user set.  Zeroed before parsing, save the defaults a command
 * puts in first (loads' and show's limit). */
struct cl_args {
	const char *cmd;           /* the command's name (its table's USAGE line) */
	char **operands;           /* what followed the options (argv[optind...]) */
	int noperands;
	int format;                /* -f: enum cl_out_format */
	bool no_mask;              /* --no-mask (copied to cl_opt_no_mask) */
	bool quiet;                /* -q (copied to cl_opt_quiet) */
	int verbose;               /* -v, counted (copied to cl_opt_verbose) */
	int ach_key;               /* --ach-key: enum cl_ach_key */
	bool positional_keys;      /* --positional-keys */
	unsigned long max_errors;  /* --max-errors; 0: the parser's default */
	const char *schema;        /* validate --schema, or NULL */
	const char *csv_map;       /* --csv-map FILE, or NULL */
	const char *db;            /* -d: conninfo, or NULL for libpq's defaults */
	const char *db_schema;     /* --schema of the database commands, or NULL */
	unsigned long wait_limit;  /* --wait-limit seconds; 0: not given (300) */
	const char *tenant;        /* -t, or NULL: the command's default */
	int on_conflict;           /* load, diff --on-conflict: enum cl_on_conflict */
	unsigned long partitions;  /* init -p; 0: not given */
	bool columnar;             /* init --columnar */
	unsigned long limit;       /* show, loads -n */
	const char *since;         /* loads -s */
	const char *uuid;          /* loads -u */
	int search_by;             /* show: enum cl_show_by of the last search option */
	const char *search;        /* show: its value */
	int searches;              /* show: how many search options were given */
	bool version;              /* clearing-load -V */
	const char *archive;       /* ingest --archive */
	unsigned long min_age;     /* ingest --min-age (default 60) */
	unsigned long arrival_limit; /* ingest --arrival-limit (default 900) */
	const char *metrics_file;  /* ingest --metrics-file */
	const char *on_event;      /* ingest --on-event */
	const char *consumer;      /* feed --consumer */
	const char *ack;           /* feed --ack POSITION */
	const char *journal_before; /* prune --journal-before DATE */
	bool duplicates_only;      /* prune --duplicates-only */
	unsigned long load_id;     /* conflicts, resolve --load; 0: not given */
	unsigned long line;        /* resolve --line; 0: not given */
	unsigned long ordinal;     /* resolve --ordinal; 0: not given */
	bool all;                  /* conflicts --all */
	bool accept;               /* resolve --accept */
	bool dismiss;              /* resolve --dismiss */
	const char *note;          /* resolve --note */
	const char *match;         /* reconcile --match REFS */
	const char *ach_company;   /* reconcile --ach-company IDS */
	const char *match_account[32]; /* reconcile --match-account ACCOUNT=REFS */
	unsigned nmatch_account;   /* how many were given (more than 32: refused) */
	const char *roles[32];     /* init --loader-role and the others, in order */
	int role_kinds[32];        /* their enum cl_role_kind */
	unsigned nroles;           /* how many were given (more than 32: refused) */
	const char *tenant_access[32]; /* init --tenant-access ROLE=TENANT */
	unsigned naccess;
	int row_security;          /* init --row-security: 0 not given, 1 on, 2 off */
	const char *report;        /* reconcile --report FILE */
	const char *break_account; /* break --statement-account ACCOUNT */
	const char *break_day;     /* break --day DATE */
	const char *break_reason;  /* break --reason REASON */
};

/* What an option line does. */
enum cl_opt_type {
	CL_OPTION_END,      /* ends a table */
	CL_OPTION_USAGE,    /* a command's first line: its name, its synopsis */
	CL_OPTION_TEXT,     /* a paragraph of --help */
	CL_OPTION_INCLUDE,  /* the lines of another table, in its place */
	CL_OPTION_OPERAND,  /* no option: a help line for an operand (show's KEY) */
	CL_OPTION_HELP,     /* print the command's help, exit 0 */
	CL_OPTION_BOOL,     /* bool field = true */
	CL_OPTION_COUNT,    /* int field += 1 */
	CL_OPTION_STRING,   /* const char * field = the argument, if valid() */
	CL_OPTION_ULONG,    /* unsigned long field = the argument, in [min, max] */
	CL_OPTION_CHOICE,   /* int field = the value of the argument's choice */
	CL_OPTION_CALLBACK, /* callback(args, line, argument) */
	CL_OPTION_CHECK,    /* no option: check(args) after parsing */
};

/* What a command takes after its options. */
enum cl_operands {
	CL_NO_OPERANDS,   /* nothing: an operand is a usage error */
	CL_FILE_OPERANDS, /* one or more files; standard input ("-") at most once */
	CL_ANY_OPERANDS,  /* the command checks them (show's KEY) */
};

/* One word an option accepts, and the value it stands for. */
struct cl_choice {
	const char *name;
	int value;
};

struct cl_option {
	enum cl_opt_type type;
	int short_name;            /* 0: only the long name */
	const char *long_name;     /* every option has one; USAGE: the command */
	const char *argh;          /* the argument's name in --help; NULL: none;
				      USAGE: the synopsis; OPERAND: its name */
	const char *help;          /* TEXT and options: wrapped when printed */
	size_t offset;             /* the field of struct cl_args it sets */
	unsigned long min, max;    /* CL_OPTION_ULONG */
	const struct cl_choice *choices;       /* CL_OPTION_CHOICE: ends with NULL */
	bool (*valid)(const char *arg);        /* CL_OPTION_STRING: NULL, or the check */
	const char *expected;      /* what valid() accepts, for the usage error */
	void (*callback)(struct cl_args *args, const struct cl_option *opt, const char *arg);
	/* CL_OPTION_CHECK: what the options and operands must be together
	 * (a usage error printed, its exit code returned) or 0 */
	int (*check)(struct cl_args *args);
	int value;                 /* CALLBACK: for the callback; USAGE: enum cl_operands */
	const struct cl_option *include; /* CL_OPTION_INCLUDE */
};

/* The offset of field f of struct cl_args, which must have type T: a line
 * cannot point an option at a field of another type (it would not build). */
#define CL_ARG(f, T) \
	(offsetof(struct cl_args, f) + 0 * sizeof(_Generic(((struct cl_args *)0)->f, T: 1)))

/* The lines of a table, one macro each. */
#define CL_OPT_END() { .type = CL_OPTION_END }
#define CL_OPT_USAGE(cmd, operands, synopsis) \
	{ .type = CL_OPTION_USAGE, .long_name = (cmd), .value = (operands), .argh = (synopsis) }
#define CL_OPT_TEXT(text) { .type = CL_OPTION_TEXT, .help = (text) }
#define CL_OPT_CHECK(fn) { .type = CL_OPTION_CHECK, .check = (fn) }
#define CL_OPT_INCLUDE(table) { .type = CL_OPTION_INCLUDE, .include = (table) }
#define CL_OPT_OPERAND(name, h) { .type = CL_OPTION_OPERAND, .argh = (name), .help = (h) }
#define CL_OPT_BOOL(s, l, f, h) \
	{ .type = CL_OPTION_BOOL, .short_name = (s), .long_name = (l), .help = (h), \
	  .offset = CL_ARG(f, bool) }
#define CL_OPT_COUNT(s, l, f, h) \
	{ .type = CL_OPTION_COUNT, .short_name = (s), .long_name = (l), .help = (h), \
	  .offset = CL_ARG(f, int) }
#define CL_OPT_STRING(s, l, a, f, h) \
	{ .type = CL_OPTION_STRING, .short_name = (s), .long_name = (l), .argh = (a), \
	  .help = (h), .offset = CL_ARG(f, const char *) }
#define CL_OPT_CHECKED(s, l, a, f, check, what, h) \
	{ .type = CL_OPTION_STRING, .short_name = (s), .long_name = (l), .argh = (a), \
	  .help = (h), .offset = CL_ARG(f, const char *), .valid = (check), .expected = (what) }
#define CL_OPT_ULONG(s, l, a, f, lo, hi, h) \
	{ .type = CL_OPTION_ULONG, .short_name = (s), .long_name = (l), .argh = (a), \
	  .help = (h), .offset = CL_ARG(f, unsigned long), .min = (lo), .max = (hi) }
#define CL_OPT_CHOICE(s, l, a, f, list, h) \
	{ .type = CL_OPTION_CHOICE, .short_name = (s), .long_name = (l), .argh = (a), \
	  .help = (h), .offset = CL_ARG(f, int), .choices = (list) }
#define CL_OPT_CALLBACK(s, l, a, fn, v, h) \
	{ .type = CL_OPTION_CALLBACK, .short_name = (s), .long_name = (l), .argh = (a), \
	  .help = (h), .callback = (fn), .value = (v) }

/* Options several commands share.  The help of -q, of loads' --tenant and
 * of --limit is the command's: what they leave out or count is not the same
 * everywhere. */
#define CL_OPT_FORMAT() \
	CL_OPT_CHOICE('f', "format", "FORMAT", format, cl_format_choices, \
		      "text (default), json or csv")
#define CL_OPT_NO_MASK() CL_OPT_BOOL(0, "no-mask", no_mask, "print account numbers in full")
#define CL_OPT_QUIET(h) CL_OPT_BOOL('q', "quiet", quiet, h)
#define CL_OPT_VERBOSE() \
	CL_OPT_COUNT('v', "verbose", verbose, \
		     "also print notes (CRLF, missing 9-fill, short lines, retries)")
#define CL_OPT_DB() \
	CL_OPT_STRING('d', "db", "CONNINFO", db, \
		      "connection string or URI (default: libpq environment, PGSERVICE); " \
		      "never a password: use ~/.pgpass"), \
	CL_OPT_STRING(0, "schema", "NAME", db_schema, \
		      "the schema of clearing-load's tables (default: $CLEARING_LOAD_SCHEMA, " \
		      "else public)"), \
	CL_OPT_ULONG(0, "wait-limit", "SECONDS", wait_limit, 1, 86400, \
		     "the longest wait for the server, connecting included (default 300); " \
		     "one that expires before COMMIT rolls the file back (exit 75)")
#define CL_OPT_TENANT_AS(h) \
	CL_OPT_CHECKED('t', "tenant", "NAME", tenant, cl_valid_tenant, \
		       "1 to 63 of a-z 0-9 _ . -, starting with a letter or digit", h)
#define CL_OPT_TENANT() CL_OPT_TENANT_AS("scope of the keys (default: default; a-z 0-9 _ . -)")
#define CL_OPT_LIMIT(h) CL_OPT_ULONG('n', "limit", "N", limit, 1, 1000000, h)

extern const struct cl_choice cl_format_choices[];
/* -f, --no-mask, --ach-key, --positional-keys, --max-errors: the options
 * of every command that reads clearing files (parse, validate, load,
 * diff). */
extern const struct cl_option cl_file_options[];
/* the same without -f (ingest, whose output is text or JSON) */
extern const struct cl_option cl_file_read_options[];
/* --csv-map FILE and its check (the map read once, a usage error when it
 * is bad): in cl_file_read_options, and reconcile's table */
#define CL_OPT_CSV_MAP() \
	CL_OPT_STRING(0, "csv-map", "FILE", csv_map, \
		      "read a file no other format recognises as a bank CSV statement, " \
		      "its columns as the map FILE says (clearing-load(1), BANK CSV " \
		      "STATEMENTS)"), \
	CL_OPT_CHECK(cl_check_csv_map)
int cl_check_csv_map(struct cl_args *args);

/* Parse argv[1..] (argv[0] is the command's name) by the command's table
 * into `args` (with the command's name and its operands), check the
 * operands as its usage line says, and set the global switches
 * (cl_opt_quiet, ...).  Returns -1 when the command should go on, or the
 * exit code to return at once: 0 after --help (printed), 2 after a usage
 * error (printed: one line and the hint).  Checked after parsing, in this
 * order: the operands, -q with -v, then the table's CHECK lines. */
int cl_parse_options(const struct cl_option *cmd, int argc, char **argv, struct cl_args *args);

/* The number of elements of array `a`. */
#define CL_NLIST(a) (sizeof(a) / sizeof((a)[0]))

/* A repeated option's argument appended to `list` (of `cap` elements);
 * `*n` counts every one given, past `cap` too: the command's check
 * refuses more than the list holds. */
void cl_list_add(const char **list, size_t cap, unsigned *n, const char *arg);

/* Print a table as --help does, to stdout: its usage line, its text and
 * its options, -h, --help after the last one. */
void cl_print_help(const struct cl_option *table);

/* The line of `table` (or its --help) that `arg` names exactly ("-h" or
 * "--help"), or NULL. */
const struct cl_option *cl_option_named(const struct cl_option *table, const char *arg);

/* The parse options (key rules, error limit, schema) the command line set. */
void cl_args_parse_opts(const struct cl_args *args, struct cl_parse_opts *popts);

/* A file operand as messages and output name it: "(stdin)" for "-". */
const char *cl_file_name(const char *arg);

/* Every operand but "-" an existing file that is no directory: 0, else the
 * usage error's exit code (said).  CL_FILE_OPERANDS commands get it from
 * the option parser; a command of CL_ANY_OPERANDS calls it from its check. */
int cl_check_file_operands(const struct cl_args *args);

/* The on_note hook of the file commands: the note on stderr with -v; a
 * statement's balance break (statement.h) always, as a warning. */
void cl_note_if_verbose(void *ctx, const struct cl_error *err);

/* Range-checked unsigned number (strtoul, whole string); false when s is not
 * a number in [min, max]. */
bool cl_parse_ulong(const char *s, unsigned long min, unsigned long max, unsigned long *out);

/* A tenant name: 1 to 63 of [a-z0-9_.-], starting with a letter or digit.
 * Tenants are key spaces: "bank2", "bank2 " and "Bank2" must not silently
 * be three of them, so anything else is a usage error. */
bool cl_valid_tenant(const char *s);
/* A day, YYYY-MM-DD (digits; the database checks the calendar). */
bool cl_valid_day(const char *s);

#endif
