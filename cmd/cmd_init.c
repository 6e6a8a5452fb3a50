/* cmd_init.c - `clearing-load init`: create or upgrade the schema. */
#include "cli.h"

#include <getopt.h>
#include <string.h>

#include "dbconn.h"
#include "options.h"
#include "schema.h"

static const char usage[] =
	"Usage: clearing-load init [OPTION]...\n"
	"Create or upgrade the clearing-load schema (idempotent; safe to run twice at once).\n"
	"\n"
	"  -d, --db=CONNINFO     connection string or URI (default: libpq environment,\n"
	"                        PGSERVICE); never a password: use ~/.pgpass\n"
	"  -p, --partitions=N    create clearing_record hash-partitioned on natural_key\n"
	"                        in N partitions (1-1024; default: not partitioned)\n"
	"  -q, --quiet           print nothing but errors\n"
	"  -v, --verbose         say more\n"
	"  -h, --help            display this help and exit\n"
	"\n"
	"Exit status: 0 success, 2 usage error (also --partitions other than the\n"
	"existing table's), 5 database unavailable or error (also a schema newer\n"
	"than this clearing-load: nothing is changed).\n";

int cl_cmd_init(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "partitions", required_argument, NULL, 'p' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *conninfo = NULL;
	int partitions = -1, c, code;
	unsigned long n;
	struct cl_db db;
	struct cl_init_result r;
	struct cl_error err;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":d:p:qvh", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			conninfo = optarg;
			break;
		case 'p':
			if (!cl_parse_ulong(optarg, 1, 1024, &n))
				return cl_usage_error("init", "invalid --partitions \"%s\" (expected 1 to 1024)",
						      optarg);
			partitions = (int)n;
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
		default:
			return cl_option_error("init", c, argv);
		}
	}
	if (optind < argc)
		return cl_usage_error("init", "unexpected argument \"%s\"", argv[optind]);
	if (cl_opt_quiet && cl_opt_verbose)
		return cl_usage_error("init", "--quiet and --verbose cannot be used together");
	if ((code = cl_cmd_connect("init", conninfo, &db)) != 0)
		return code;
	if (cl_schema_init(&db, partitions, &r, &err) != CL_DB_OK) {
		cl_print_db_error(&err);
		cl_db_close(&db);
		/* asking for another partitioning than the table has is the
		 * operator's mistake, not a database outage (review 17) */
		return strcmp(err.code, "partitions_mismatch") == 0 ? CL_EXIT_USAGE : CL_EXIT_DB;
	}
	cl_db_close(&db);
	if (r.from_version > cl_schema_latest()) {
		/* an older binary during a rolling upgrade: never "up to date"
		 * (review 45); load and diff refuse this database too */
		cl_msg("the database schema is at version %u, newer than this clearing-load's (%u): "
		       "nothing was changed; use the clearing-load of a newer release",
		       r.from_version, cl_schema_latest());
		return CL_EXIT_DB;
	}
	if (!cl_opt_quiet) {
		if (r.applied)
			printf("schema at version %u (applied %u migration%s)", r.to_version, r.applied,
			       r.applied == 1 ? "" : "s");
		else
			printf("schema up to date at version %u", r.to_version);
		if (r.partitions)
			printf(", clearing_record hash-partitioned in %d partition%s", r.partitions,
			       r.partitions == 1 ? "" : "s");
		putchar('\n');
	}
	return cl_finish_stdout(CL_EXIT_OK);
}
