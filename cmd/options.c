/* options.c - option parsing shared by parse and validate. */
#include "options.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

bool cl_parse_ulong(const char *s, unsigned long min, unsigned long max, unsigned long *out)
{
	char *end;
	unsigned long v;

	if (!*s || *s == '-' || *s == '+')
		return false;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return false;
	*out = v;
	return true;
}

bool cl_valid_tenant(const char *s)
{
	size_t n = strlen(s);

	if (n < 1 || n > 63 || !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= '0' && s[0] <= '9')))
		return false;
	for (size_t i = 0; i < n; i++) {
		char ch = s[i];

		if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_' ||
		      ch == '.' || ch == '-'))
			return false;
	}
	return true;
}

enum { OPT_SCHEMA = CL_OPT_OWN };

int cl_check_files(const char *cmd, int first, int argc, char **argv)
{
	bool stdin_seen = false;

	if (first >= argc)
		return cl_usage_error(cmd, "no file given");
	for (int i = first; i < argc; i++) {
		if (strcmp(argv[i], "-") != 0)
			continue;
		if (stdin_seen)
			return cl_usage_error(cmd, "standard input (-) given more than once");
		stdin_seen = true;
	}
	return 0;
}

int cl_option_error(const char *cmd, int c, char **argv)
{
	if (c == ':')
		return cl_usage_error(cmd, "option '%s' requires an argument", argv[optind - 1]);
	if (optopt)
		return cl_usage_error(cmd, "invalid option -- '%c'", optopt);
	return cl_usage_error(cmd, "unrecognized option '%s'", argv[optind - 1]);
}

int cl_file_option(const char *cmd, int c, const char *arg, struct cl_parse_opts *popts,
		   enum cl_out_format *format)
{
	unsigned long n;

	switch (c) {
	case 'f':
		if (!cl_parse_out_format(arg, format))
			return cl_usage_error(cmd, "invalid --format \"%s\" (expected text, json or csv)",
					      arg);
		return 0;
	case CL_OPT_NO_MASK:
		cl_opt_no_mask = true;
		return 0;
	case CL_OPT_ACH_KEY:
		if (strcmp(arg, "strict") == 0)
			popts->ach_key = CL_ACH_KEY_STRICT;
		else if (strcmp(arg, "batch") == 0)
			popts->ach_key = CL_ACH_KEY_BATCH;
		else
			return cl_usage_error(cmd, "invalid --ach-key \"%s\" (expected strict or batch)",
					      arg);
		return 0;
	case CL_OPT_POSITIONAL:
		popts->positional_keys = true;
		return 0;
	case CL_OPT_MAX_ERRORS:
		if (!cl_parse_ulong(arg, 1, 1000000, &n))
			return cl_usage_error(cmd, "invalid --max-errors \"%s\" (expected 1 to 1000000)",
					      arg);
		popts->max_errors = (unsigned)n;
		return 0;
	case 'q':
		cl_opt_quiet = true;
		return 0;
	case 'v':
		cl_opt_verbose++;
		return 0;
	}
	return -1;
}

int cl_parse_file_options(const char *cmd, const char *usage, int argc, char **argv,
			  struct cl_parse_opts *popts, enum cl_out_format *format)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "no-mask", no_argument, NULL, CL_OPT_NO_MASK },
		{ "ach-key", required_argument, NULL, CL_OPT_ACH_KEY },
		{ "positional-keys", no_argument, NULL, CL_OPT_POSITIONAL },
		{ "max-errors", required_argument, NULL, CL_OPT_MAX_ERRORS },
		{ "schema", required_argument, NULL, OPT_SCHEMA },
		{ "quiet", no_argument, NULL, 'q' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool is_validate = strcmp(cmd, "validate") == 0;
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":f:qvh", longopts, NULL)) != -1) {
		int rc = cl_file_option(cmd, c, optarg, popts, format);

		if (rc >= 0) {
			if (rc)
				return rc;
			continue;
		}
		switch (c) {
		case OPT_SCHEMA:
			if (!is_validate)
				return cl_usage_error(cmd, "unrecognized option '--schema'");
			popts->schema_path = optarg;
			break;
		case 'h':
			fputs(usage, stdout);
			return cl_finish_stdout(CL_EXIT_OK);
		default:
			return cl_option_error(cmd, c, argv);
		}
	}
	if (cl_opt_quiet && cl_opt_verbose)
		return cl_usage_error(cmd, "--quiet and --verbose cannot be used together");
	return -1;
}
