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

enum { OPT_NO_MASK = 256, OPT_ACH_KEY, OPT_POSITIONAL, OPT_MAX_ERRORS, OPT_SCHEMA };

int cl_parse_file_options(const char *cmd, const char *usage, int argc, char **argv,
			  struct cl_parse_opts *popts, enum cl_out_format *format)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "no-mask", no_argument, NULL, OPT_NO_MASK },
		{ "ach-key", required_argument, NULL, OPT_ACH_KEY },
		{ "positional-keys", no_argument, NULL, OPT_POSITIONAL },
		{ "max-errors", required_argument, NULL, OPT_MAX_ERRORS },
		{ "schema", required_argument, NULL, OPT_SCHEMA },
		{ "quiet", no_argument, NULL, 'q' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool is_validate = strcmp(cmd, "validate") == 0;
	unsigned long n;
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":f:qvh", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (!cl_parse_out_format(optarg, format))
				return cl_usage_error(cmd, "invalid --format \"%s\" (expected text, json or csv)",
						      optarg);
			break;
		case OPT_NO_MASK:
			cl_opt_no_mask = true;
			break;
		case OPT_ACH_KEY:
			if (strcmp(optarg, "strict") == 0)
				popts->ach_key = CL_ACH_KEY_STRICT;
			else if (strcmp(optarg, "batch") == 0)
				popts->ach_key = CL_ACH_KEY_BATCH;
			else
				return cl_usage_error(cmd, "invalid --ach-key \"%s\" (expected strict or batch)",
						      optarg);
			break;
		case OPT_POSITIONAL:
			popts->positional_keys = true;
			break;
		case OPT_MAX_ERRORS:
			if (!cl_parse_ulong(optarg, 1, 1000000, &n))
				return cl_usage_error(cmd, "invalid --max-errors \"%s\" (expected 1 to 1000000)",
						      optarg);
			popts->max_errors = (unsigned)n;
			break;
		case OPT_SCHEMA:
			if (!is_validate)
				return cl_usage_error(cmd, "unrecognized option '--schema'");
			popts->schema_path = optarg;
			break;
		case 'q':
			cl_opt_quiet = true;
			break;
		case 'v':
			cl_opt_verbose++;
			break;
		case 'h':
			fputs(usage, stdout);
			return cl_finish_stdout(CL_EXIT_OK);
		case ':':
			return cl_usage_error(cmd, "option '%s' requires an argument", argv[optind - 1]);
		default:
			if (optopt)
				return cl_usage_error(cmd, "invalid option -- '%c'", optopt);
			return cl_usage_error(cmd, "unrecognized option '%s'", argv[optind - 1]);
		}
	}
	if (cl_opt_quiet && cl_opt_verbose)
		return cl_usage_error(cmd, "--quiet and --verbose cannot be used together");
	return -1;
}
