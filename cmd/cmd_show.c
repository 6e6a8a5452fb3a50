/* cmd_show.c - `clearing-load show`: a record, its source, every dedupe hit. */
#include "cli.h"

#include <getopt.h>
#include <string.h>

#include "dbconn.h"
#include "history.h"
#include "history_print.h"
#include "options.h"
#include "schema.h"

static const char usage[] =
	"Usage: clearing-load show [OPTION]... (--trace T | --e2e E | --uetr U | KEY)\n"
	"Show a record: its content, the file and load that applied it, every dedupe\n"
	"event (duplicate, conflict, near duplicate) that hit it, and any version of\n"
	"it parked in quarantine.  \"We sent it twice and it posted once: why?\"\n"
	"--trace, --e2e and --uetr also find the returns and NOCs of that payment\n"
	"(matched_by: original_trace, orgnl_end_to_end_id, orgnl_uetr).\n"
	"\n"
	"      --trace=T          ACH trace number (15 digits)\n"
	"      --e2e=E            ISO 20022 EndToEndId\n"
	"      --uetr=U           ISO 20022 UETR\n"
	"  KEY                    a natural key as printed by parse, diff or load\n"
	"                         (with --no-mask: masked keys are not found)\n"
	"  -n, --limit=N          at most N records (1-1000000, default 100); more\n"
	"                         are counted on standard error\n"
	"  -d, --db=CONNINFO      connection string or URI; never a password\n"
	"  -t, --tenant=NAME      tenant (default: default)\n"
	"  -f, --format=FORMAT    text (default), json or csv\n"
	"      --no-mask          print account numbers in full\n"
	"  -h, --help             display this help and exit\n"
	"\n"
	"Exit status: 0 found, 2 usage error, 5 database unavailable or error,\n"
	"7 not found (no record matches).\n";

enum { OPT_TRACE = 256, OPT_E2E, OPT_UETR, OPT_NO_MASK };

int cl_cmd_show(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "trace", required_argument, NULL, OPT_TRACE },
		{ "e2e", required_argument, NULL, OPT_E2E },
		{ "uetr", required_argument, NULL, OPT_UETR },
		{ "db", required_argument, NULL, 'd' },
		{ "tenant", required_argument, NULL, 't' },
		{ "format", required_argument, NULL, 'f' },
		{ "no-mask", no_argument, NULL, OPT_NO_MASK },
		{ "limit", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *conninfo = NULL, *tenant = "default", *value = NULL;
	enum cl_show_by by = CL_SHOW_KEY;
	int c, code, given = 0;
	struct cl_history_out out = { CL_OUT_TEXT, NULL };
	struct cl_db db;
	struct cl_error err;
	unsigned long found, total, limit = 100;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":d:t:f:n:h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_TRACE:
		case OPT_E2E:
		case OPT_UETR:
			by = c == OPT_TRACE ? CL_SHOW_TRACE : c == OPT_E2E ? CL_SHOW_E2E : CL_SHOW_UETR;
			value = optarg;
			given++;
			break;
		case 'd':
			conninfo = optarg;
			break;
		case 't':
			if (!cl_valid_tenant(optarg))
				return cl_usage_error("show", "invalid --tenant \"%s\" (expected 1 to 63 "
						      "of a-z 0-9 _ . -, starting with a letter or digit)",
						      optarg);
			tenant = optarg;
			break;
		case 'f':
			if (!cl_parse_out_format(optarg, &out.format))
				return cl_usage_error("show", "invalid --format \"%s\" (expected text, json or csv)",
						      optarg);
			break;
		case OPT_NO_MASK:
			cl_opt_no_mask = true;
			break;
		case 'n':
			if (!cl_parse_ulong(optarg, 1, 1000000, &limit))
				return cl_usage_error("show", "invalid --limit \"%s\" (expected 1 to 1000000)",
						      optarg);
			break;
		case 'h':
			fputs(usage, stdout);
			return cl_finish_stdout(CL_EXIT_OK);
		default:
			return cl_option_error("show", c, argv);
		}
	}
	if (optind < argc) {
		value = argv[optind++];
		given++;
	}
	if (given == 0)
		return cl_usage_error("show", "give one of --trace, --e2e, --uetr or a KEY");
	if (given > 1 || optind < argc)
		return cl_usage_error("show", "give only one of --trace, --e2e, --uetr or a KEY");
	if (!*value)
		return cl_usage_error("show", "empty search value");
	if ((code = cl_cmd_connect("show", conninfo, &db)) != 0)
		return code;
	if (cl_schema_check(&db, &err) != CL_DB_OK ||
	    cl_history_show(&db, by, value, tenant, limit, cl_history_print, &out, &found, &total,
			    &err) != CL_DB_OK) {
		cl_print_db_error(&err);
		cl_db_close(&db);
		return CL_EXIT_DB;
	}
	cl_db_close(&db);
	if (total > found)
		/* never a silent cut (review 40) */
		cl_msg("%lu records match; shown the first %lu: use --limit to see more", total,
		       found);
	if (!found) {
		char safe[CL_KEY_MAX * 4];

		cl_text_safe(value, safe, sizeof(safe));
		cl_msg("no record of tenant \"%s\" matches \"%s\"", tenant, safe);
		if (by == CL_SHOW_KEY && strstr(value, "**"))
			/* a key copied from masked output (review 22) */
			cl_msg("hint: this key looks masked (account digits shown as *): give "
			       "--trace, --e2e or --uetr, or copy the key from output made with "
			       "--no-mask");
	}
	return cl_finish_stdout(found ? CL_EXIT_OK : CL_EXIT_NOT_FOUND);
}
