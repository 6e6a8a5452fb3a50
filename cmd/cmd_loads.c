/* cmd_loads.c - `clearing-load loads`: load history, newest first. */
#include "cli.h"

#include <ctype.h>
#include <getopt.h>
#include <string.h>

#include "dbconn.h"
#include "history.h"
#include "history_print.h"
#include "options.h"
#include "schema.h"
#include "uuid.h"

static const char usage[] =
	"Usage: clearing-load loads [OPTION]...\n"
	"List load attempts (committed, rejected, held, quarantined), newest first.\n"
	"A load UUID that is not listed never committed: nothing of it was applied.\n"
	"\n"
	"  -s, --since=DATE       only loads started on or after DATE (YYYY-MM-DD,\n"
	"                         or an ISO 8601 timestamp)\n"
	"  -u, --uuid=UUID        only the load with this UUID (printed by load when\n"
	"                         its outcome was unknown)\n"
	"  -n, --limit=N          at most N loads (1-1000000, default 100)\n"
	"  -d, --db=CONNINFO      connection string or URI; never a password\n"
	"  -f, --format=FORMAT    text (default), json or csv\n"
	"  -h, --help             display this help and exit\n"
	"\n"
	"Exit status: 0 success, 2 usage error, 5 database unavailable or error,\n"
	"6 --uuid given and that load is still in progress, 7 not found (--uuid\n"
	"given and no load with it committed).\n";

struct loads_out {
	struct cl_history_out h;
};

static const char *get(const struct cl_kv *kv, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (strcmp(kv[i].name, name) == 0)
			return kv[i].value ? kv[i].value : "";
	return "";
}

static void print_load(void *ctx, const char *section, const struct cl_kv *kv, int n)
{
	struct loads_out *o = ctx;

	if (o->h.format != CL_OUT_TEXT) {
		cl_history_print(&o->h, section, kv, n);
		return;
	}
	printf("%6s  %.19s  %-11s %s records: %s new, %s duplicate, %s conflict, %s invalid  %s  %s",
	       get(kv, n, "load_id"), get(kv, n, "started_at"), get(kv, n, "outcome"),
	       get(kv, n, "record_count"), get(kv, n, "new_count"), get(kv, n, "duplicate_count"),
	       get(kv, n, "conflict_count"), get(kv, n, "invalid_count"), get(kv, n, "file_name"),
	       get(kv, n, "load_uuid"));
	if (*get(kv, n, "reason"))
		printf("  (%s)", get(kv, n, "reason"));
	putchar('\n');
}

static bool valid_since(const char *s)
{
	int i;

	/* YYYY-MM-DD, optionally followed by a time the server checks */
	for (i = 0; i < 10; i++)
		if (i == 4 || i == 7 ? s[i] != '-' : !isdigit((unsigned char)s[i]))
			return false;
	return s[10] == '\0' || s[10] == 'T' || s[10] == ' ';
}

int cl_cmd_loads(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "since", required_argument, NULL, 's' },
		{ "uuid", required_argument, NULL, 'u' },
		{ "limit", required_argument, NULL, 'n' },
		{ "db", required_argument, NULL, 'd' },
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *conninfo = NULL, *since = NULL, *uuid = NULL;
	unsigned long limit = 100, found;
	struct loads_out out;
	struct cl_db db;
	struct cl_error err;
	int c, code;

	memset(&out, 0, sizeof(out));
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":s:u:n:d:f:h", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (!valid_since(optarg))
				return cl_usage_error("loads", "invalid --since \"%s\" (expected YYYY-MM-DD)",
						      optarg);
			since = optarg;
			break;
		case 'u':
			if (!cl_uuid_valid(optarg))
				return cl_usage_error("loads", "invalid --uuid \"%s\" (expected a UUID)", optarg);
			uuid = optarg;
			break;
		case 'n':
			if (!cl_parse_ulong(optarg, 1, 1000000, &limit))
				return cl_usage_error("loads", "invalid --limit \"%s\" (expected 1 to 1000000)",
						      optarg);
			break;
		case 'd':
			conninfo = optarg;
			break;
		case 'f':
			if (!cl_parse_out_format(optarg, &out.h.format))
				return cl_usage_error("loads", "invalid --format \"%s\" (expected text, json or csv)",
						      optarg);
			break;
		case 'h':
			fputs(usage, stdout);
			return cl_finish_stdout(CL_EXIT_OK);
		default:
			return cl_option_error("loads", c, argv);
		}
	}
	if (optind < argc)
		return cl_usage_error("loads", "unexpected argument \"%s\"", argv[optind]);
	if ((code = cl_cmd_connect("loads", conninfo, &db)) != 0)
		return code;
	if (uuid) {
		bool running = false;

		if (cl_schema_check(&db, &err) != CL_DB_OK ||
		    cl_history_lock_uuid(&db, uuid, &running, &err) != CL_DB_OK) {
			cl_print_db_error(&err);
			cl_db_close(&db);
			return CL_EXIT_DB;
		}
		if (running) {
			/* its transaction has not ended: committing or rolling back */
			cl_msg("load %s is still in progress (its transaction has not ended): "
			       "its outcome is not known yet; ask again", uuid);
			cl_db_close(&db);
			return cl_finish_stdout(CL_EXIT_UNKNOWN);
		}
	}
	if (cl_schema_check(&db, &err) != CL_DB_OK ||
	    cl_history_loads(&db, since, uuid, limit, print_load, &out, &found, &err) != CL_DB_OK) {
		cl_print_db_error(&err);
		cl_db_close(&db);
		return CL_EXIT_DB;
	}
	if (uuid)
		cl_history_release_uuid(&db, uuid);
	cl_db_close(&db);
	if (uuid && !found) {
		cl_msg("load %s did not commit: nothing of it was applied", uuid);
		return cl_finish_stdout(CL_EXIT_NOT_FOUND);
	}
	return cl_finish_stdout(CL_EXIT_OK);
}
