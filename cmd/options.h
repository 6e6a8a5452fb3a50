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

/* Range-checked unsigned number (strtoul, whole string); false when s is not
 * a number in [min, max]. */
bool cl_parse_ulong(const char *s, unsigned long min, unsigned long max, unsigned long *out);

/* A tenant name: 1 to 63 of [a-z0-9_.-], starting with a letter or digit.
 * Tenants are key spaces: "bank2", "bank2 " and "Bank2" must not silently
 * be three of them (review 13), so anything else is a usage error. */
bool cl_valid_tenant(const char *s);

#endif
