/*
 * options.h - the option parsing parse and validate share.
 */
#ifndef CL_OPTIONS_H
#define CL_OPTIONS_H

#include "cli.h"
#include "parser.h"

/* Parse the file options of `cmd` (format, masking, key rules, error
 * limit, quiet/verbose, --help, and for validate --schema).  Returns -1 when
 * the command should go on with the files at argv[optind...], or an exit
 * code to return at once (0 after --help, 2 after a usage error). */
int cl_parse_file_options(const char *cmd, const char *usage, int argc, char **argv,
			  struct cl_parse_opts *popts, enum cl_out_format *format);

/* Option values shared by every command that reads clearing files (parse,
 * validate, load, diff); a command's own long options start at
 * CL_OPT_OWN. */
enum {
	CL_OPT_NO_MASK = 256,
	CL_OPT_ACH_KEY,
	CL_OPT_POSITIONAL,
	CL_OPT_MAX_ERRORS,
	CL_OPT_OWN,
};

/* Handle one of the shared file options (-f, --no-mask, --ach-key,
 * --positional-keys, --max-errors, -q, -v) for `cmd`: 0 when handled,
 * CL_EXIT_USAGE after printing a usage error for a bad value, -1 when `c`
 * is not one of them. */
int cl_file_option(const char *cmd, int c, const char *arg, struct cl_parse_opts *popts,
		   enum cl_out_format *format);

/* The files of a file command (argv[first..argc-1]): at least one, and
 * standard input ("-") at most once (a second "-" would read an empty,
 * already consumed stream: review 50).  0, or the usage error's code. */
int cl_check_files(const char *cmd, int first, int argc, char **argv);

/* The usage error for what getopt_long returned as ':' or '?'. */
int cl_option_error(const char *cmd, int c, char **argv);

/* Range-checked unsigned number (strtoul, whole string); false when s is not
 * a number in [min, max]. */
bool cl_parse_ulong(const char *s, unsigned long min, unsigned long max, unsigned long *out);

/* A tenant name: 1 to 63 of [a-z0-9_.-], starting with a letter or digit.
 * Tenants are key spaces: "bank2", "bank2 " and "Bank2" must not silently
 * be three of them (review 13), so anything else is a usage error. */
bool cl_valid_tenant(const char *s);

#endif
