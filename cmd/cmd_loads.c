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
	"  -s, --since=DATE       only loads started on or after DATE: YYYY-MM-DD or\n"
	"                         YYYY-MM-DDTHH:MM[:SS][Z|+HH:MM] (server time zone\n"
	"                         when none is given)\n"
	"  -t, --tenant=NAME      only the loads of this tenant (default: all)\n"
	"  -u, --uuid=UUID        only the load with this UUID (printed by load when\n"
	"                         its outcome was unknown); not with --since, --tenant\n"
	"  -n, --limit=N          at most N loads (1-1000000, default 100)\n"
	"  -d, --db=CONNINFO      connection string or URI; never a password\n"
	"  -f, --format=FORMAT    text (default), json or csv\n"
	"  -h, --help             display this help and exit\n"
	"\n"
	"Text: id, start time, outcome, counts (errors: the errors that rejected the\n"
	"file), tenant, the first 12 hex digits of the file's SHA-256, file name and\n"
	"load UUID; json and csv have every column.\n"
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
	char started[20] = "", file[1024], reason[2048];

	if (o->h.format != CL_OUT_TEXT) {
		cl_history_print(&o->h, section, kv, n);
		return;
	}
	/* "2026-11-30T00:22:28+00:00" as "2026-11-30 00:22:28" for people */
	snprintf(started, sizeof(started), "%s", get(kv, n, "started_at"));
	if (strlen(started) > 10 && started[10] == 'T')
		started[10] = ' ';
	cl_text_safe(get(kv, n, "file_name"), file, sizeof(file));
	printf("%6s  %s  %-11s %s record%s: %s new, %s duplicate, %s conflict, %s error%s  %s  "
	       "sha256:%.12s  %s  %s",
	       get(kv, n, "load_id"), started, get(kv, n, "outcome"), get(kv, n, "record_count"),
	       strcmp(get(kv, n, "record_count"), "1") == 0 ? "" : "s", get(kv, n, "new_count"), get(kv, n, "duplicate_count"),
	       get(kv, n, "conflict_count"), get(kv, n, "invalid_count"),
	       strcmp(get(kv, n, "invalid_count"), "1") == 0 ? "" : "s", get(kv, n, "tenant"),
	       get(kv, n, "sha256"), file, get(kv, n, "load_uuid"));
	if (*get(kv, n, "reason"))
		printf("  (%s)", cl_text_safe(get(kv, n, "reason"), reason, sizeof(reason)));
	putchar('\n');
}

static bool digits(const char *s, int n)
{
	for (int i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return false;
	return true;
}

static int num(const char *s, int n)
{
	int v = 0;

	for (int i = 0; i < n; i++)
		v = v * 10 + (s[i] - '0');
	return v;
}

/* YYYY-MM-DD, or that with THH:MM[:SS[.frac]] and an optional Z or
 * +HH[:MM] / -HH[:MM]: checked here, so that a bad date is a usage error
 * before connecting, not a database error (review 17). */
static bool valid_since(const char *s)
{
	static const int mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int y, m, d;

	if (strlen(s) < 10 || !digits(s, 4) || s[4] != '-' || !digits(s + 5, 2) || s[7] != '-' ||
	    !digits(s + 8, 2))
		return false;
	y = num(s, 4);
	m = num(s + 5, 2);
	d = num(s + 8, 2);
	if (y < 1 || m < 1 || m > 12 || d < 1 || d > mdays[m - 1])
		return false;
	if (m == 2 && d == 29 && !(y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)))
		return false;
	s += 10;
	if (!*s)
		return true;
	if ((*s != 'T' && *s != ' ') || !digits(s + 1, 2) || s[3] != ':' || !digits(s + 4, 2) ||
	    num(s + 1, 2) > 23 || num(s + 4, 2) > 59)
		return false;
	s += 6;
	if (*s == ':') {
		if (!digits(s + 1, 2) || num(s + 1, 2) > 59)
			return false;
		s += 3;
		if (*s == '.') {
			if (!digits(++s, 1))
				return false;
			while (isdigit((unsigned char)*s))
				s++;
		}
	}
	if (*s == 'Z')
		return s[1] == '\0';
	if (*s == '+' || *s == '-') {
		if (!digits(s + 1, 2) || num(s + 1, 2) > 15)
			return false;
		s += 3;
		if (*s == ':')
			s++;
		if (!*s)
			return true;
		return digits(s, 2) && num(s, 2) <= 59 && s[2] == '\0';
	}
	return *s == '\0';
}

int cl_cmd_loads(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "since", required_argument, NULL, 's' },
		{ "uuid", required_argument, NULL, 'u' },
		{ "tenant", required_argument, NULL, 't' },
		{ "limit", required_argument, NULL, 'n' },
		{ "db", required_argument, NULL, 'd' },
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *conninfo = NULL, *since = NULL, *uuid = NULL, *tenant = NULL;
	unsigned long limit = 100, found;
	struct loads_out out;
	struct cl_db db;
	struct cl_error err;
	int c, code;

	memset(&out, 0, sizeof(out));
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":s:u:t:n:d:f:h", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (!valid_since(optarg))
				return cl_usage_error("loads", "invalid --since \"%s\" (expected a date "
						      "YYYY-MM-DD, or YYYY-MM-DDTHH:MM[:SS][Z|+HH:MM])",
						      optarg);
			since = optarg;
			break;
		case 'u':
			if (!cl_uuid_valid(optarg))
				return cl_usage_error("loads", "invalid --uuid \"%s\" (expected a UUID)", optarg);
			uuid = optarg;
			break;
		case 't':
			if (!cl_valid_tenant(optarg))
				return cl_usage_error("loads", "invalid --tenant \"%s\" (expected 1 to 63 "
						      "of a-z 0-9 _ . -, starting with a letter or digit)",
						      optarg);
			tenant = optarg;
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
	if (uuid && (since || tenant))
		/* --uuid's "did not commit" is a verdict an operator acts on: a
		 * filter must never turn "committed elsewhere" into it (review 2,
		 * R2-20) */
		return cl_usage_error("loads", "--uuid cannot be combined with --%s: a load UUID is "
					       "unique across tenants and times",
				      since ? "since" : "tenant");
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
	    cl_history_loads(&db, since, uuid, tenant, limit, print_load, &out, &found, &err) != CL_DB_OK) {
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
