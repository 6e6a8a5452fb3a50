/* cmd_show.c - `clearing-load show`: a record, its source, every dedupe hit. */
#include "cmd/cli.h"

#include <stdlib.h>
#include <string.h>

#include "cmd/dbconn.h"
#include "cmd/history_print.h"
#include "cmd/options.h"
#include "cmd/show_summary.h"
#include "loader/history.h"
#include "loader/schema.h"
#include "loader/uuid.h"

/* --trace, --e2e, --uetr: what to search by (the line's value) and for
 * what; counted, since only one search may be given. */
static void search(struct cl_args *args, const struct cl_option *opt, const char *arg)
{
	args->search_by = opt->value;
	args->search = arg;
	args->searches++;
}

/* A search value that can never match is the command line's fault (exit
 * 2, saying what was expected), not "not found". */
static int well_formed(const struct cl_args *args)
{
	const char *v = args->search;
	size_t n = strlen(v), digits = strspn(v, "0123456789");
	char safe[256];

	cl_text_safe(v, safe, sizeof(safe));
	switch ((enum cl_show_by)args->search_by) {
	case CL_SHOW_TRACE:
		if (n != 15 || digits != 15)
			return cl_usage_error("show", "invalid --trace \"%s\" (expected an ACH trace "
						      "number: 15 digits)", safe);
		break;
	case CL_SHOW_UETR:
		if (!cl_uuid_valid(v))
			return cl_usage_error("show", "invalid --uetr \"%s\" (expected a UUID: 8-4-4-4-12 "
						      "hex digits)", safe);
		break;
	case CL_SHOW_E2E:
		/* Max35Text */
		if (n > 35)
			return cl_usage_error("show", "invalid --e2e \"%s\" (expected an EndToEndId of "
						      "at most 35 characters)", safe);
		break;
	case CL_SHOW_KEY:
		break;
	}
	return 0;
}

/* One search: --trace, --e2e, --uetr or a KEY operand (taken into args),
 * and not empty. */
static int one_search(struct cl_args *args)
{
	int given = args->searches + args->noperands;

	if (given == 0)
		return cl_usage_error("show", "give one of --trace, --e2e, --uetr or a KEY");
	if (given > 1)
		return cl_usage_error("show", "give only one of --trace, --e2e, --uetr or a KEY");
	if (args->noperands) {
		args->search_by = CL_SHOW_KEY;
		args->search = args->operands[0];
	}
	if (!*args->search)
		return cl_usage_error("show", "empty search value");
	return well_formed(args);
}

static const struct cl_option show_command[] = {
	CL_OPT_USAGE("show", CL_ANY_OPERANDS, "[OPTION]... (--trace T | --e2e E | --uetr U | KEY)"),
	CL_OPT_TEXT("Show a record: its content, the file and load that applied it, every dedupe "
		    "event (duplicate, conflict, near duplicate) that hit it, and any version of "
		    "it parked in quarantine.  \"We sent it twice and it posted once: why?\"  "
		    "--trace, --e2e and --uetr also find the returns and NOCs of that payment "
		    "(matched_by: original_trace, orgnl_end_to_end_id, orgnl_uetr)."),
	CL_OPT_CALLBACK(0, "trace", "T", search, CL_SHOW_TRACE, "ACH trace number (15 digits)"),
	CL_OPT_CALLBACK(0, "e2e", "E", search, CL_SHOW_E2E, "ISO 20022 EndToEndId"),
	CL_OPT_CALLBACK(0, "uetr", "U", search, CL_SHOW_UETR, "ISO 20022 UETR"),
	CL_OPT_OPERAND("KEY", "a natural key as printed by parse, diff or load (with --no-mask: "
			      "masked keys are not found)"),
	CL_OPT_LIMIT("at most N records (1-1000000, default 100); more are counted on standard "
		     "error"),
	CL_OPT_DB(),
	CL_OPT_TENANT(),
	CL_OPT_FORMAT(),
	CL_OPT_NO_MASK(),
	CL_OPT_COUNT('v', "verbose", verbose,
		     "text: every column of the record, its load, each event, parked version and "
		     "statement match (default: a summary of each record, its last events)"),
	CL_OPT_QUIET("print nothing on standard error but errors (no not-found message, hint or "
		     "count of records past --limit: the exit status tells)"),
	CL_OPT_CHECK(one_search),
	CL_OPT_TEXT("Exit status: 0 found, 2 usage error, 5 database unavailable or error, 7 not "
		    "found (no record matches)."),
	CL_OPT_END(),
};

/* The other tenants' counts (cl_history_other_tenants) as one hint:
 * "2 records in other tenants: bank2, bank3; use --tenant". */
struct others {
	unsigned long records;
	int tenants;
	size_t len;
	char list[512];
};

static void other_tenant(void *ctx, const char *section, const struct cl_kv *kv, int n)
{
	struct others *o = ctx;

	(void)section;
	if (n < 2 || !kv[0].value || !kv[1].value)
		return;
	o->records += strtoul(kv[1].value, NULL, 10);
	if (o->len < sizeof(o->list))
		o->len += (size_t)snprintf(o->list + o->len, sizeof(o->list) - o->len, "%s%s",
					   o->tenants ? ", " : "", kv[0].value);
	o->tenants++;
}

/* The rows printed, and where the parked versions were seen: "seen in
 * held load 12, line 40" when no applied record matches. */
struct shown {
	struct cl_history_out out;
	struct cl_show_summary *summary; /* text without --verbose */
	int parked;
	size_t len;
	char seen[512];
};

static void show_row(void *ctx, const char *section, const struct cl_kv *kv, int n)
{
	struct shown *s = ctx;
	const char *load = NULL, *outcome = NULL, *line = NULL;

	if (s->summary)
		cl_show_summary_row(s->summary, section, kv, n);
	else
		cl_history_print(&s->out, section, kv, n);
	if (strcmp(section, "quarantine") != 0)
		return;
	for (int i = 0; i < n; i++) {
		if (strcmp(kv[i].name, "load_id") == 0)
			load = kv[i].value;
		else if (strcmp(kv[i].name, "load_outcome") == 0)
			outcome = kv[i].value;
		else if (strcmp(kv[i].name, CL_FIELD_NAME(position)) == 0)
			line = kv[i].value;
	}
	if (load && outcome && line && s->len < sizeof(s->seen))
		s->len += (size_t)snprintf(s->seen + s->len, sizeof(s->seen) - s->len,
					   "%sseen in %s load %s, line %s", s->parked ? "; " : "",
					   outcome, load, line);
	s->parked++;
}

static int show(const struct cl_args *args, struct cl_db *db)
{
	const char *tenant = args->tenant ? args->tenant : "default", *value = args->search;
	enum cl_show_by by = (enum cl_show_by)args->search_by;
	struct cl_show_summary summary = { 0 };
	struct shown shown = { { (enum cl_out_format)args->format, NULL },
			       args->format == CL_OUT_TEXT && !args->verbose ? &summary : NULL,
			       0, 0, "" };
	struct cl_error err;
	unsigned long found, total;
	struct others others = { 0 };

	if (cl_schema_check(db, &err) != CL_DB_OK ||
	    cl_history_show(db, by, value, tenant, args->limit, show_row, &shown, &found, &total,
			    &err) != CL_DB_OK)
		return cl_db_failed(&err);
	if (shown.summary)
		cl_show_summary_end(shown.summary);
	if (total > found && !cl_opt_quiet)
		/* never a silent cut */
		cl_msg("%lu records match; shown the first %lu: use --limit to see more", total,
		       found);
	/* the tenant not given: say where the records are, if elsewhere */
	if (!found && !args->tenant &&
	    cl_history_other_tenants(db, by, value, tenant, other_tenant, &others, &err) != CL_DB_OK)
		return cl_db_failed(&err);
	if (!found) {
		char safe[CL_KEY_MAX * 4];
		struct cl_error nf;

		cl_text_safe(value, safe, sizeof(safe));
		cl_error_set(&nf, NULL, 0, "not_found", "no record of tenant \"%s\" matches \"%.200s\"",
			     tenant, safe);
		if (shown.parked)
			/* only in held or quarantined files: never applied */
			cl_error_hint(&nf, "%s%s", shown.seen,
				      shown.len >= sizeof(shown.seen) ? "; ..." : "");
		else if (others.tenants)
			cl_error_hint(&nf, "%lu record%s in other tenant%s: %s%s; use --tenant",
				      others.records, others.records == 1 ? "" : "s",
				      others.tenants == 1 ? "" : "s", others.list,
				      others.tenants > 10 ? ", ..." : "");
		else if (by == CL_SHOW_KEY && strstr(value, "**"))
			/* a key copied from masked output */
			cl_error_hint(&nf, "this key looks masked (account digits shown as *): give "
					   "--trace, --e2e or --uetr, or copy the key from output made "
					   "with --no-mask");
		if (!cl_opt_quiet) {
			cl_msg("%s", nf.message);
			if (nf.hint[0])
				cl_msg("hint: %s", nf.hint);
		}
		if (args->format == CL_OUT_JSON)
			cl_json_error(NULL, &nf);
	}
	return cl_finish_stdout(found ? CL_EXIT_OK : CL_EXIT_NOT_FOUND);
}

int cl_cmd_show(int argc, char **argv)
{
	struct cl_args args = { .limit = 100 };

	return cl_run_db_command(show_command, &args, argc, argv, show);
}
