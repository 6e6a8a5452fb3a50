/* cmd_loads.c - `clearing-load loads`: load history, newest first. */
#include "cmd/cli.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cmd/dbconn.h"
#include "cmd/history_print.h"
#include "cmd/options.h"
#include "loader/history.h"
#include "loader/schema.h"
#include "loader/uuid.h"

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
	struct cl_history_out *o = ctx;
	char started[64], file[1024], reason[2048];

	if (o->format != CL_OUT_TEXT) {
		cl_history_print(o, section, kv, n);
		return;
	}
	/* "2026-11-30T00:22:28+00:00" as "2026-11-30 00:22:28+00" for people */
	cl_text_time(get(kv, n, "started_at"), started, sizeof(started));
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
	if (*get(kv, n, "archived_as"))
		printf("  archived as %s", cl_text_safe(get(kv, n, "archived_as"), file, sizeof(file)));
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
 * before connecting, not a database error. */
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

/* --uuid's "did not commit" is a verdict an operator acts on: a filter
 * must never turn "committed elsewhere" into it. */
static int uuid_alone(struct cl_args *args)
{
	if (args->uuid && (args->since || args->tenant))
		return cl_usage_error("loads", "--uuid cannot be combined with --%s: a load UUID is "
					       "unique across tenants and times",
				      args->since ? "since" : "tenant");
	return 0;
}

static const struct cl_option loads_command[] = {
	CL_OPT_USAGE("loads", CL_NO_OPERANDS, "[OPTION]..."),
	CL_OPT_TEXT("List load attempts (committed, rejected, held, quarantined), newest first.  "
		    "A load UUID that is not listed never committed: nothing of it was applied."),
	CL_OPT_CHECKED('s', "since", "DATE", since, valid_since,
		       "a date YYYY-MM-DD, or YYYY-MM-DDTHH:MM[:SS][Z|+HH:MM]",
		       "only loads started on or after DATE: YYYY-MM-DD or "
		       "YYYY-MM-DDTHH:MM[:SS][Z|+HH:MM] (server time zone when none is given)"),
	CL_OPT_TENANT_AS("only the loads of this tenant (default: all)"),
	CL_OPT_CHECKED('u', "uuid", "UUID", uuid, cl_uuid_valid, "a UUID",
		       "only the load with this UUID (printed by load when its outcome was "
		       "unknown); not with --since, --tenant"),
	CL_OPT_LIMIT("at most N loads (1-1000000, default 100)"),
	CL_OPT_DB(),
	CL_OPT_FORMAT(),
	CL_OPT_QUIET("print nothing on standard error but errors (with --uuid, no message says "
		     "what became of the load: the exit status tells)"),
	CL_OPT_CHECK(uuid_alone),
	CL_OPT_TEXT("Text: id, start time, outcome, counts (errors: the errors that rejected the "
		    "file), tenant, the first 12 hex digits of the file's SHA-256, file name and "
		    "load UUID; json and csv have every column."),
	CL_OPT_TEXT("Exit status: 0 success, 2 usage error, 5 database unavailable or error, "
		    "6 --uuid given and that load is still in progress, 7 not found (--uuid given "
		    "and no load with it committed)."),
	CL_OPT_END(),
};

/* What --uuid found when it is not a row: on stderr unless -q, and with
 * --format json an error object with `code`. */
static void verdict(const struct cl_args *args, const char *code, const char *fmt, ...)
	CL_PRINTF(3, 4);
static void verdict(const struct cl_args *args, const char *code, const char *fmt, ...)
{
	struct cl_error e;
	va_list ap;

	cl_error_set(&e, NULL, 0, code, "%s", "");
	va_start(ap, fmt);
	vsnprintf(e.message, sizeof(e.message), fmt, ap);
	va_end(ap);
	if (!cl_opt_quiet)
		cl_msg("%s", e.message);
	if (args->format == CL_OUT_JSON)
		cl_json_error(NULL, &e);
}

static int loads(const struct cl_args *args, struct cl_db *db)
{
	struct cl_history_out out = { (enum cl_out_format)args->format, NULL };
	struct cl_error err;
	unsigned long found;

	if (cl_schema_check(db, &err) != CL_DB_OK)
		return cl_db_failed(&err);
	if (args->uuid) {
		bool running = false;

		if (cl_history_lock_uuid(db, args->uuid, &running, &err) != CL_DB_OK)
			return cl_db_failed(&err);
		if (running) {
			/* its transaction has not ended: committing or rolling back */
			verdict(args, "in_progress",
				"load %s is still in progress (its transaction has not ended): "
				"its outcome is not known yet; ask again", args->uuid);
			return cl_finish_stdout(CL_EXIT_UNKNOWN);
		}
	}
	if (cl_history_loads(db, args->since, args->uuid, args->tenant, args->limit, print_load,
			     &out, &found, &err) != CL_DB_OK)
		return cl_db_failed(&err);
	if (args->uuid)
		cl_history_release_uuid(db, args->uuid);
	if (args->uuid && !found) {
		verdict(args, "not_found", "load %s did not commit: nothing of it was applied",
			args->uuid);
		return cl_finish_stdout(CL_EXIT_NOT_FOUND);
	}
	return cl_finish_stdout(CL_EXIT_OK);
}

int cl_cmd_loads(int argc, char **argv)
{
	struct cl_args args = { .limit = 100 };

	return cl_run_db_command(loads_command, &args, argc, argv, loads);
}
