/* cmd_load.c - `clearing-load load` and `clearing-load diff`. */
#include "cli.h"

#include <getopt.h>
#include <string.h>
#include <unistd.h>

#include "dbconn.h"
#include "load.h"
#include "options.h"
#include "row.h"
#include "schema.h"

static const char load_usage[] =
	"Usage: clearing-load load [OPTION]... FILE...\n"
	"Apply the new records of each FILE (\"-\" = standard input; gzip is read as\n"
	"such), one transaction per file, deduplicated per record against the\n"
	"unique index on (tenant, kind, natural_key).\n"
	"\n"
	"  -d, --db=CONNINFO          connection string or URI (default: libpq\n"
	"                             environment, PGSERVICE); never a password\n"
	"  -t, --tenant=NAME          scope of the keys (default: default; a-z 0-9 _ . -)\n"
	"      --on-conflict=MODE     hold (default: apply nothing from a file with\n"
	"                             conflicts) or quarantine (park the conflicting\n"
	"                             records, apply the rest)\n"
	"  -f, --format=FORMAT        text (default), json or csv\n"
	"      --ach-key=RULE         strict (default) or batch (NACHA key rule)\n"
	"      --positional-keys      pain.001 without EndToEndId: MsgId + PmtInfId +\n"
	"                             ordinal (weaker, see clearing-load-keys(7))\n"
	"      --max-errors=N         stop reporting a file's errors after N (1-1000000)\n"
	"      --no-mask              print account numbers in full\n"
	"  -q, --quiet                print nothing but errors\n"
	"  -v, --verbose              notes: CRLF, missing 9-fill, retries\n"
	"  -h, --help                 display this help and exit\n"
	"\n"
	"Exit status (the highest that applies over all files): 0 applied, 2 usage\n"
	"error, 3 invalid file (nothing applied), 4 conflicts held or quarantined,\n"
	"5 database unavailable or error (nothing applied), 6 outcome unknown (the\n"
	"load UUID is printed: see 'clearing-load loads --uuid').\n";

static const char diff_usage[] =
	"Usage: clearing-load diff [OPTION]... FILE...\n"
	"Show what loading each FILE would do, record by record: new, duplicate,\n"
	"conflict or invalid.  The same pipeline as load, rolled back: the\n"
	"database is never changed.\n"
	"\n"
	"  -d, --db=CONNINFO          connection string or URI; never a password\n"
	"  -t, --tenant=NAME          scope of the keys (default: default; a-z 0-9 _ . -)\n"
	"      --on-conflict=MODE     hold (default) or quarantine\n"
	"  -f, --format=FORMAT        text (default), json or csv\n"
	"      --ach-key=RULE         strict (default) or batch\n"
	"      --positional-keys      pain.001 positional keys (weaker)\n"
	"      --max-errors=N         stop reporting a file's errors after N\n"
	"      --no-mask              print account numbers in full\n"
	"  -q, --quiet                print only the summary lines and errors\n"
	"  -v, --verbose              notes: CRLF, missing 9-fill, retries\n"
	"  -h, --help                 display this help and exit\n"
	"\n"
	"Exit status (the highest that applies): 0 nothing would be applied, 1 new\n"
	"records would be applied, 2 usage error, 3 invalid file, 4 conflicts,\n"
	"5 database unavailable or error.\n";

struct out {
	const char *cmd;
	bool diff;
	enum cl_out_format format;
	const char *file;       /* display name of the current file */
	char file_text[1024];   /* the same, safe for text output (cl_text_safe) */
	bool progress;          /* stderr is a terminal */
	bool progress_shown;
};

/* ---- hooks ---- */

static void on_error(void *ctx, const struct cl_error *err)
{
	struct out *o = ctx;
	struct cl_json j;

	cl_print_error(err);
	if (!o->diff)
		return;
	if (o->format == CL_OUT_JSON) {
		cl_json_begin(&j, stdout);
		cl_json_str(&j, "type", "record");
		cl_json_str(&j, "file", o->file);
		cl_json_uint(&j, "position", err->line);
		cl_json_str(&j, "action", "invalid");
		cl_json_str(&j, "code", err->code);
		cl_json_str(&j, "message", err->message);
		if (err->detail[0])
			cl_json_str(&j, "detail", err->detail);
		if (err->hint[0])
			cl_json_str(&j, "hint", err->hint);
		cl_json_end(&j);
	} else if (o->format == CL_OUT_CSV) {
		char line[24];
		const char *row[] = { o->file, line, NULL, NULL, "invalid", err->code, NULL,
				      NULL, NULL, NULL, NULL, err->message };

		snprintf(line, sizeof(line), "%lu", err->line);
		cl_csv_row(stdout, row, sizeof(row) / sizeof(row[0]));
	}
}

static void on_note(void *ctx, const struct cl_error *err)
{
	(void)ctx;
	if (cl_opt_verbose)
		cl_print_note(err);
}

static void on_progress(void *ctx, int pass, unsigned long records, uint64_t bytes)
{
	struct out *o = ctx;

	if (!o->progress || records < 100000)
		return;
	fprintf(stderr, "\r%s: %s %lu records (%.1f MB)\033[K", o->file_text,
		pass == 1 ? "reading" : "applying", records, (double)bytes / 1e6);
	o->progress_shown = true;
}

static void progress_done(struct out *o)
{
	if (o->progress_shown)
		fputs("\r\033[K", stderr);
	o->progress_shown = false;
}

static void masked(const struct cl_field_diff *d, const char *v, char *buf, size_t cap)
{
	if (d->account)
		cl_mask_account(v, buf, cap);
	else
		snprintf(buf, cap, "%s", v);
}

/* The record's key as printed: account numbers in it masked (a pain.001
 * key holds the debtor account) unless --no-mask. */
static const char *shown_key(const struct cl_record *rec, char *buf, size_t cap)
{
	if (cl_opt_no_mask || !cl_row_mask_key(rec, rec->natural_key, buf, cap))
		return rec->natural_key;
	return buf;
}

static void plan_text(const struct out *o, const struct cl_plan_item *it)
{
	char key[CL_KEY_MAX];
	unsigned i;

	/* the line number and kind padded: the columns stay put whether a
	 * line number has one digit or six (review 35) */
	printf("%-10s %s:%-6lu %-10s %s", it->reason && strcmp(it->reason, "near_duplicate") == 0
						  ? "conflict*" : cl_action_name(it->action),
	       o->file_text, it->position, it->rec->kind, shown_key(it->rec, key, sizeof(key)));
	if (it->action != CL_ACTION_NEW)
		printf("  (%s of load %lld, %s:%lu, %s)", it->reason, it->matched_load_id,
		       it->matched_file ? it->matched_file : "?", it->matched_position,
		       it->matched_time ? it->matched_time : "not finished");
	for (i = 0; i < it->nfields; i++) {
		char a[CL_VALUE_MAX], b[CL_VALUE_MAX];

		masked(&it->fields[i], it->fields[i].old_value, a, sizeof(a));
		masked(&it->fields[i], it->fields[i].new_value, b, sizeof(b));
		printf("%s %s %s -> %s", i ? "," : ":", it->fields[i].field, a[0] ? a : "(none)",
		       b[0] ? b : "(none)");
	}
	if (it->matched_key && it->matched_key[0])
		printf(" [near duplicate of %s]", it->matched_key);
	putchar('\n');
}

static void plan_json(const struct out *o, const struct cl_plan_item *it)
{
	struct cl_json j;
	char fields[512], key[CL_KEY_MAX];
	size_t n = 0;
	unsigned i;

	cl_json_begin(&j, stdout);
	cl_json_str(&j, "type", "record");
	cl_json_str(&j, "file", o->file);
	cl_json_uint(&j, "position", it->position);
	cl_json_uint(&j, "ordinal", it->ordinal);
	cl_json_str(&j, "kind", it->rec->kind);
	cl_json_str(&j, "natural_key", shown_key(it->rec, key, sizeof(key)));
	cl_json_str(&j, "action", cl_action_name(it->action));
	if (it->action != CL_ACTION_NEW) {
		cl_json_str(&j, "reason", it->reason);
		cl_json_int(&j, "matched_load_id", it->matched_load_id);
		cl_json_str(&j, "matched_file", it->matched_file);
		cl_json_uint(&j, "matched_position", it->matched_position);
		cl_json_str(&j, "matched_time", it->matched_time);
		if (it->matched_key && it->matched_key[0])
			cl_json_str(&j, "matched_key", it->matched_key);
	}
	fields[0] = '\0';
	for (i = 0; i < it->nfields && n < sizeof(fields); i++)
		n += (size_t)snprintf(fields + n, sizeof(fields) - n, "%s%s", i ? "," : "",
				      it->fields[i].field);
	if (it->action == CL_ACTION_CONFLICT)
		cl_json_str(&j, "fields", fields);
	for (i = 0; i < it->nfields; i++) {
		char name[64], v[CL_VALUE_MAX];

		masked(&it->fields[i], it->fields[i].old_value, v, sizeof(v));
		snprintf(name, sizeof(name), "old_%s", it->fields[i].field);
		cl_json_str(&j, name, v);
		masked(&it->fields[i], it->fields[i].new_value, v, sizeof(v));
		snprintf(name, sizeof(name), "new_%s", it->fields[i].field);
		cl_json_str(&j, name, v);
	}
	cl_json_end(&j);
}

static void plan_csv(const struct out *o, const struct cl_plan_item *it)
{
	char pos[24], mload[24], mpos[24], changes[1024], key[CL_KEY_MAX];
	size_t n = 0;
	unsigned i;

	snprintf(pos, sizeof(pos), "%lu", it->position);
	snprintf(mload, sizeof(mload), "%lld", it->matched_load_id);
	snprintf(mpos, sizeof(mpos), "%lu", it->matched_position);
	changes[0] = '\0';
	for (i = 0; i < it->nfields && n < sizeof(changes); i++) {
		char a[CL_VALUE_MAX], b[CL_VALUE_MAX];

		masked(&it->fields[i], it->fields[i].old_value, a, sizeof(a));
		masked(&it->fields[i], it->fields[i].new_value, b, sizeof(b));
		n += (size_t)snprintf(changes + n, sizeof(changes) - n, "%s%s: %s -> %s",
				      i ? "; " : "", it->fields[i].field, a, b);
	}
	{
		bool m = it->action != CL_ACTION_NEW;
		const char *row[] = { o->file, pos, it->rec->kind, shown_key(it->rec, key, sizeof(key)),
				      cl_action_name(it->action), m ? it->reason : NULL,
				      m ? mload : NULL, m ? it->matched_file : NULL,
				      m ? mpos : NULL, m ? it->matched_time : NULL,
				      m ? it->matched_key : NULL, changes, NULL };

		cl_csv_row(stdout, row, sizeof(row) / sizeof(row[0]));
	}
}

static void on_plan(void *ctx, const struct cl_plan_item *it)
{
	const struct out *o = ctx;

	switch (o->format) {
	case CL_OUT_JSON:
		plan_json(o, it);
		break;
	case CL_OUT_CSV:
		plan_csv(o, it);
		break;
	case CL_OUT_TEXT:
		if (!cl_opt_quiet)
			plan_text(o, it);
		break;
	}
}

/* ---- per-file summary ---- */

static int exit_code(const struct out *o, const struct cl_load_result *r)
{
	switch (r->outcome) {
	case CL_OUTCOME_NONE:
		if (r->conflict_count)
			return CL_EXIT_CONFLICT;
		return r->new_count ? CL_EXIT_PENDING : CL_EXIT_OK;
	case CL_OUTCOME_COMMITTED:
		return CL_EXIT_OK;
	case CL_OUTCOME_REJECTED:
		return CL_EXIT_INVALID;
	case CL_OUTCOME_HELD:
	case CL_OUTCOME_QUARANTINED:
		return CL_EXIT_CONFLICT;
	case CL_OUTCOME_UNKNOWN:
		return CL_EXIT_UNKNOWN;
	case CL_OUTCOME_FAILED:
		break;
	}
	(void)o;
	return CL_EXIT_DB;
}

static void summary_text(const struct out *o, const struct cl_load_result *r)
{
	if (r->outcome == CL_OUTCOME_FAILED || r->outcome == CL_OUTCOME_UNKNOWN)
		return; /* said on stderr */
	if (r->outcome == CL_OUTCOME_REJECTED) {
		if (cl_opt_quiet)
			return;
		printf("%s: rejected, %lu error%s, nothing applied", o->file_text, r->invalid_count,
		       r->invalid_count == 1 ? "" : "s");
		if (r->load_id)
			printf(" — recorded as load %lld", r->load_id);
		printf("\n");
		return;
	}
	if (cl_opt_quiet && r->outcome != CL_OUTCOME_HELD && !o->diff)
		return; /* load -q: errors only; diff -q: the summary lines (review 16) */
	printf("%s: %s, %lu record%s: %lu new, %lu duplicate, %lu conflict", o->file_text,
	       r->message_type[0] ? r->message_type : r->format, r->records,
	       r->records == 1 ? "" : "s", r->new_count, r->duplicate_count, r->conflict_count);
	switch (r->outcome) {
	case CL_OUTCOME_NONE:
		printf(" — dry run, nothing applied");
		break;
	case CL_OUTCOME_HELD:
		printf(" — held as load %lld, nothing applied", r->load_id);
		break;
	case CL_OUTCOME_QUARANTINED:
		printf(" — committed as load %lld, conflicts quarantined", r->load_id);
		break;
	default:
		printf(" — committed as load %lld", r->load_id);
		break;
	}
	printf(" in %.1f s", r->seconds);
	if (r->retries)
		printf(" (%u retr%s)", r->retries, r->retries == 1 ? "y" : "ies");
	if (r->resolved)
		printf(" (confirmed after the connection was lost during COMMIT)");
	printf("\n");
}

/* "new" in machine output counts records applied: 0 when nothing of the
 * file was (rejected, held, failed, unknown), so a consumer that sums it
 * never counts a payment that was not applied (review 14).  diff reports
 * what would be new. */
static unsigned long applied_new(const struct cl_load_result *r)
{
	switch (r->outcome) {
	case CL_OUTCOME_NONE:
	case CL_OUTCOME_COMMITTED:
	case CL_OUTCOME_QUARANTINED:
		return r->new_count;
	case CL_OUTCOME_REJECTED:
	case CL_OUTCOME_HELD:
	case CL_OUTCOME_UNKNOWN:
	case CL_OUTCOME_FAILED:
		break;
	}
	return 0;
}

static void summary_json(const struct out *o, const struct cl_load_result *r)
{
	struct cl_json j;
	bool diff = r->outcome == CL_OUTCOME_NONE;

	cl_json_begin(&j, stdout);
	cl_json_str(&j, "type", "file");
	cl_json_str(&j, "file", o->file);
	cl_json_str(&j, "sha256", r->sha256);
	cl_json_str(&j, "format", r->format);
	cl_json_str(&j, "message_type", r->message_type);
	if (r->load_id)
		cl_json_int(&j, "load_id", r->load_id);
	else
		cl_json_null(&j, "load_id");
	cl_json_str(&j, "load_uuid", diff ? NULL : r->load_uuid);
	cl_json_str(&j, "outcome", cl_outcome_name(r->outcome));
	cl_json_uint(&j, "records", r->records);
	cl_json_uint(&j, "new", applied_new(r));
	cl_json_uint(&j, "duplicate", r->duplicate_count);
	cl_json_uint(&j, "conflict", r->conflict_count);
	cl_json_uint(&j, "invalid", r->invalid_count);
	cl_json_real(&j, "seconds", r->seconds);
	cl_json_uint(&j, "retries", r->retries);
	if (r->reason[0])
		cl_json_str(&j, "reason", r->reason);
	cl_json_end(&j);
}

static void summary_csv(const struct out *o, const struct cl_load_result *r)
{
	char id[24], recs[24], n[24], d[24], c[24], inv[24], secs[32], retries[16];
	const char *row[] = { o->file,	 r->sha256, r->format, id,   r->load_uuid, cl_outcome_name(r->outcome),
			      recs,	 n,	    d,	       c,    inv,	   secs,
			      retries, r->reason };

	snprintf(id, sizeof(id), "%lld", r->load_id);
	snprintf(recs, sizeof(recs), "%lu", r->records);
	snprintf(n, sizeof(n), "%lu", applied_new(r));
	snprintf(d, sizeof(d), "%lu", r->duplicate_count);
	snprintf(c, sizeof(c), "%lu", r->conflict_count);
	snprintf(inv, sizeof(inv), "%lu", r->invalid_count);
	snprintf(secs, sizeof(secs), "%.3f", r->seconds);
	snprintf(retries, sizeof(retries), "%u", r->retries);
	if (!r->load_id)
		row[3] = NULL;
	cl_csv_row(stdout, row, sizeof(row) / sizeof(row[0]));
}

static void report(const struct out *o, const struct cl_load_result *r)
{
	if (r->outcome == CL_OUTCOME_FAILED) {
		/* no "(SQLSTATE none)", and "nothing applied" said once (review 39) */
		bool said = strstr(r->err.message, "nothing applied") ||
			    strstr(r->err.message, "nothing from this file");

		if (r->err.sqlstate[0])
			cl_msg("%s: %s (SQLSTATE %s)%s", o->file_text, r->err.message,
			       r->err.sqlstate, said ? "" : ": nothing from this file was applied");
		else
			cl_msg("%s: %s%s", o->file_text, r->err.message,
			       said ? "" : ": nothing from this file was applied");
	} else if (r->outcome == CL_OUTCOME_UNKNOWN) {
		/* the reason without its own "outcome unknown" tail; and the
		 * database may never have gone away (the old session can still
		 * be committing): no "when the database is back" (review 15) */
		char why[sizeof(r->err.message)];
		size_t n;

		snprintf(why, sizeof(why), "%s", r->err.message);
		n = strlen(why);
		if (n >= 17 && strcmp(why + n - 17, ": outcome unknown") == 0)
			why[n - 17] = '\0';
		cl_msg("%s: outcome unknown: %s; the load UUID is %s: 'clearing-load loads --uuid "
		       "%s' tells what became of it (and says so while it is still in progress)",
		       o->file_text, why, r->load_uuid, r->load_uuid);
	} else if (r->outcome == CL_OUTCOME_HELD && o->format != CL_OUT_TEXT) {
		cl_msg("%s: %s", o->file_text, r->reason);
	}
	switch (o->format) {
	case CL_OUT_JSON:
		summary_json(o, r);
		break;
	case CL_OUT_CSV:
		if (!o->diff)
			summary_csv(o, r);
		break;
	case CL_OUT_TEXT:
		summary_text(o, r);
		break;
	}
	fflush(stdout);
}

enum { OPT_ON_CONFLICT = CL_OPT_OWN };

int cl_cmd_load(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "tenant", required_argument, NULL, 't' },
		{ "on-conflict", required_argument, NULL, OPT_ON_CONFLICT },
		{ "format", required_argument, NULL, 'f' },
		{ "no-mask", no_argument, NULL, CL_OPT_NO_MASK },
		{ "ach-key", required_argument, NULL, CL_OPT_ACH_KEY },
		{ "positional-keys", no_argument, NULL, CL_OPT_POSITIONAL },
		{ "max-errors", required_argument, NULL, CL_OPT_MAX_ERRORS },
		{ "quiet", no_argument, NULL, 'q' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *cmd = argv[0];
	bool diff = strcmp(cmd, "diff") == 0;
	const char *conninfo = NULL;
	struct cl_load_opts opts;
	struct cl_load_hooks hooks;
	struct out o;
	struct cl_db db;
	int c, code = CL_EXIT_OK;

	memset(&opts, 0, sizeof(opts));
	memset(&o, 0, sizeof(o));
	opts.tenant = "default";
	opts.dry_run = diff;
	o.cmd = cmd;
	o.diff = diff;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":d:t:f:qvh", longopts, NULL)) != -1) {
		int rc = cl_file_option(cmd, c, optarg, &opts.parse, &o.format);

		if (rc >= 0) {
			if (rc)
				return rc;
			continue;
		}
		switch (c) {
		case 'd':
			conninfo = optarg;
			break;
		case 't':
			if (!cl_valid_tenant(optarg))
				return cl_usage_error(cmd, "invalid --tenant \"%s\" (expected 1 to 63 "
						      "of a-z 0-9 _ . -, starting with a letter or digit)",
						      optarg);
			opts.tenant = optarg;
			break;
		case OPT_ON_CONFLICT:
			if (strcmp(optarg, "hold") == 0)
				opts.on_conflict = CL_ON_CONFLICT_HOLD;
			else if (strcmp(optarg, "quarantine") == 0)
				opts.on_conflict = CL_ON_CONFLICT_QUARANTINE;
			else
				return cl_usage_error(cmd, "invalid --on-conflict \"%s\" (expected hold or "
							   "quarantine)", optarg);
			break;
		case 'h':
			fputs(diff ? diff_usage : load_usage, stdout);
			return cl_finish_stdout(CL_EXIT_OK);
		default:
			return cl_option_error(cmd, c, argv);
		}
	}
	if ((code = cl_check_files(cmd, optind, argc, argv)) != 0)
		return code;
	if (cl_opt_quiet && cl_opt_verbose)
		return cl_usage_error(cmd, "--quiet and --verbose cannot be used together");
	if ((c = cl_cmd_connect(cmd, conninfo, &db)) != 0)
		return c;
	{
		struct cl_error err;

		if (cl_schema_check(&db, &err) != CL_DB_OK) {
			cl_print_db_error(&err);
			cl_db_close(&db);
			return CL_EXIT_DB;
		}
	}
	o.progress = !cl_opt_quiet && isatty(STDERR_FILENO);
	hooks.ctx = &o;
	hooks.on_error = on_error;
	hooks.on_note = on_note;
	hooks.on_progress = on_progress;
	hooks.on_plan = diff ? on_plan : NULL;
	if (diff && o.format == CL_OUT_CSV) {
		static const char *const head[] = { "file", "position", "kind", "natural_key",
						    "action", "reason", "matched_load_id",
						    "matched_file", "matched_position",
						    "matched_time", "matched_key", "changes",
						    "message" };

		cl_csv_row(stdout, head, sizeof(head) / sizeof(head[0]));
	} else if (o.format == CL_OUT_CSV) {
		static const char *const head[] = { "file", "sha256", "format", "load_id", "load_uuid",
						    "outcome", "records", "new", "duplicate",
						    "conflict", "invalid", "seconds", "retries",
						    "reason" };

		cl_csv_row(stdout, head, sizeof(head) / sizeof(head[0]));
	}
	for (; optind < argc; optind++) {
		struct cl_load_result r;
		int fc;

		o.file = strcmp(argv[optind], "-") == 0 ? "(stdin)" : argv[optind];
		cl_text_safe(o.file, o.file_text, sizeof(o.file_text));
		cl_load_file(&db, argv[optind], &opts, &hooks, &r);
		progress_done(&o);
		report(&o, &r);
		fc = exit_code(&o, &r);
		if (fc > code)
			code = fc;
	}
	cl_db_close(&db);
	/* load: the exit status says what was applied, even if the report was lost */
	return o.diff ? cl_finish_stdout(code) : cl_finish_stdout_report(code);
}
