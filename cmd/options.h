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

#endif
