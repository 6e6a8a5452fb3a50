/* cmd_load.c - `clearing-load load` and `clearing-load diff`. */
#include "cli.h"

#include <string.h>
#include <unistd.h>

#include "dbconn.h"
#include "load.h"
#include "options.h"
#include "schema.h"

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
		cl_json_uint(&j, CL_FIELD_NAME(position), err->line);
		cl_json_str(&j, "action", "invalid");
		cl_json_error_words(&j, err);
		cl_json_end(&j);
	} else if (o->format == CL_OUT_CSV) {
		char line[24];
		const char *row[] = { o->file, line, NULL, NULL, "invalid", err->code, NULL,
				      NULL, NULL, NULL, NULL, err->message };

		snprintf(line, sizeof(line), "%lu", err->line);
		cl_csv_row(stdout, row, sizeof(row) / sizeof(row[0]));
	}
}

static void on_progress(void *ctx, unsigned long records, uint64_t bytes)
{
	struct out *o = ctx;

	if (!o->progress || records < 100000)
		return;
	fprintf(stderr, "\r%s: reading %lu records (%.1f MB)\033[K", o->file_text, records,
		(double)bytes / 1e6);
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
	if (!d->account || cl_out_account(v, buf, cap) != buf)
		snprintf(buf, cap, "%s", v);
}

/* The record's key as printed: account numbers in it masked (a pain.001
 * key holds the debtor account) unless --no-mask. */
static const char *shown_key(const struct cl_record *rec, char *buf, size_t cap)
{
	return cl_out_key(rec, rec->natural_key, buf, cap);
}

static void plan_text(const struct out *o, const struct cl_plan_item *it)
{
	char key[CL_KEY_MAX];
	unsigned i;

	/* the line number and kind padded: the columns stay put whether a
	 * line number has one digit or six */
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
	cl_json_uint(&j, CL_FIELD_NAME(position), it->position);
	cl_json_uint(&j, "ordinal", it->ordinal);
	cl_json_str(&j, CL_FIELD_NAME(kind), it->rec->kind);
	cl_json_str(&j, CL_FIELD_NAME(natural_key), shown_key(it->rec, key, sizeof(key)));
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
		printf("%s: rejected, %s%lu error%s", o->file_text,
		       r->max_errors_stopped ? "at least " : "", r->invalid_count,
		       r->invalid_count == 1 ? "" : "s");
		if (r->max_errors_stopped)
			printf(" (stopped at --max-errors=%u)", r->max_errors_stopped);
		printf(", nothing applied");
		if (r->load_id)
			printf(" — recorded as load %lld", r->load_id);
		printf("\n");
		return;
	}
	if (cl_opt_quiet && r->outcome != CL_OUTCOME_HELD && !o->diff)
		return; /* load -q: errors only; diff -q: the summary lines */
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
 * never counts a payment that was not applied.  diff reports
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
		/* no "(SQLSTATE none)", and "nothing applied" said once */
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
		 * be committing): no "when the database is back" */
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

static const struct cl_choice on_conflict_choices[] = {
	{ "hold", CL_ON_CONFLICT_HOLD }, { "quarantine", CL_ON_CONFLICT_QUARANTINE }, { NULL, 0 },
};

/* the options of load and diff */
static const struct cl_option load_options[] = {
	CL_OPT_DB(),
	CL_OPT_TENANT(),
	CL_OPT_CHOICE(0, "on-conflict", "MODE", on_conflict, on_conflict_choices,
		      "hold (default: apply nothing from a file with conflicts) or quarantine "
		      "(park the conflicting records, apply the rest)"),
	CL_OPT_INCLUDE(cl_file_options),
	CL_OPT_QUIET("load: print nothing but errors and held files; diff: only the summary "
		     "lines and errors"),
	CL_OPT_VERBOSE(),
	CL_OPT_END(),
};

/* load and diff: the same table, their own texts */
#define LOAD_COMMAND(name, about, notes) \
	{ CL_OPT_USAGE(name, CL_FILE_OPERANDS, "[OPTION]... FILE..."), CL_OPT_TEXT(about), \
	  CL_OPT_INCLUDE(load_options), CL_OPT_TEXT(notes), CL_OPT_END() }

static const struct cl_option load_command[] = LOAD_COMMAND(
	"load",
	"Apply the new records of each FILE (\"-\" = standard input; gzip is read as such), one "
	"transaction per file, deduplicated per record against the unique index on (tenant, "
	"kind, natural_key).",
	"Exit status (the highest that applies over all files): 0 applied, 2 usage error, "
	"3 invalid file (nothing applied), 4 conflicts held or quarantined, 5 database "
	"unavailable or error (nothing applied), 6 outcome unknown (the load UUID is printed: "
	"see 'clearing-load loads --uuid').");

static const struct cl_option diff_command[] = LOAD_COMMAND(
	"diff",
	"Show what loading each FILE would do, record by record: new, duplicate, conflict or "
	"invalid.  The same pipeline as load, rolled back: the database is never changed.",
	"Exit status (the highest that applies): 0 nothing would be applied, 1 new records "
	"would be applied, 2 usage error, 3 invalid file, 4 conflicts, 5 database unavailable "
	"or error.");

static int load(const struct cl_args *args, struct cl_db *db)
{
	bool diff = strcmp(args->cmd, "diff") == 0;
	struct cl_load_opts opts;
	struct cl_load_hooks hooks;
	struct cl_error err;
	struct out o;
	int code = CL_EXIT_OK;

	memset(&opts, 0, sizeof(opts));
	memset(&o, 0, sizeof(o));
	cl_args_parse_opts(args, &opts.parse);
	opts.tenant = args->tenant ? args->tenant : "default";
	opts.on_conflict = (enum cl_on_conflict)args->on_conflict;
	opts.dry_run = diff;
	o.cmd = args->cmd;
	o.diff = diff;
	o.format = (enum cl_out_format)args->format;
	if (cl_schema_check(db, &err) != CL_DB_OK)
		return cl_db_failed(&err);
	o.progress = !cl_opt_quiet && isatty(STDERR_FILENO);
	hooks.ctx = &o;
	hooks.on_error = on_error;
	hooks.on_note = cl_note_if_verbose;
	hooks.on_progress = on_progress;
	hooks.on_plan = diff ? on_plan : NULL;
	if (diff && o.format == CL_OUT_CSV) {
		const char *const head[] = { "file", CL_FIELD_NAME(position), CL_FIELD_NAME(kind),
					     CL_FIELD_NAME(natural_key), "action", "reason", "matched_load_id",
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
	for (int i = 0; i < args->noperands; i++) {
		struct cl_load_result r;
		int fc;

		o.file = cl_file_name(args->operands[i]);
		cl_text_safe(o.file, o.file_text, sizeof(o.file_text));
		cl_load_file(db, args->operands[i], &opts, &hooks, &r);
		progress_done(&o);
		report(&o, &r);
		fc = exit_code(&o, &r);
		if (fc > code)
			code = fc;
	}
	/* load: the exit status says what was applied, even if the report was lost */
	return o.diff ? cl_finish_stdout(code) : cl_finish_stdout_report(code);
}

int cl_cmd_load(int argc, char **argv)
{
	struct cl_args args = { 0 };

	return cl_run_db_command(strcmp(argv[0], "diff") == 0 ? diff_command : load_command, &args,
				 argc, argv, load);
}
