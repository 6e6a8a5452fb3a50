/* cmd_load.c - `clearing-load load` and `clearing-load diff`. */
#include "cmd/cli.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/money.h"
#include "cmd/dbconn.h"
#include "cmd/options.h"
#include "loader/interrupt.h"
#include "loader/load.h"
#include "loader/schema.h"

struct out {
	const char *cmd;
	bool diff;
	enum cl_out_format format;
	const char *file;       /* display name of the current file */
	char file_text[1024];   /* the same, safe for text output (cl_text_safe) */
	bool progress;          /* stderr is a terminal */
	bool progress_shown;
	unsigned long long size; /* of the file, 0 when not known (a pipe, stdin) */
	struct timespec start;  /* when the file was started */
	unsigned long read;     /* records read (on_read) */
	double read_secs;       /* when reading ended, since start */
	double phase_secs;      /* when the server's current step began */
	struct cl_money_totals would_apply; /* diff, text: the new records' amounts */
};

/* ---- hooks ---- */

static void on_error(void *ctx, const struct cl_error *err)
{
	struct out *o = ctx;

	/* stderr, and with --format json an error object on stdout */
	cl_report_error(o->file, err);
	if (o->diff && o->format == CL_OUT_CSV) {
		char line[24];
		const char *row[] = { o->file, err->line ? line : NULL, NULL, NULL, "invalid",
				      err->code, NULL, NULL, NULL, NULL, NULL, NULL, err->message };

		snprintf(line, sizeof(line), "%lu", err->line);
		cl_csv_row(stdout, row, sizeof(row) / sizeof(row[0]));
	}
}

static double since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

/* On a terminal only (never under cron): once a file has taken a second
 * or 100,000 records, the records and megabytes read and, when the file's
 * size is known (a regular file), the percent read and the time left at
 * the pace so far. */
static void on_progress(void *ctx, unsigned long records, uint64_t bytes)
{
	struct out *o = ctx;
	double secs;

	if (!o->progress || ((secs = since(&o->start)) < 1.0 && records < 100000))
		return;
	fprintf(stderr, "\r%s: reading %lu records (%.1f MB", o->file_text, records,
		(double)bytes / 1e6);
	if (o->size && bytes && bytes <= o->size) {
		double left = secs * (double)(o->size - bytes) / (double)bytes;

		fprintf(stderr, " of %.1f MB, %.0f%%, about %lu:%02lu left", (double)o->size / 1e6,
			100.0 * (double)bytes / (double)o->size, (unsigned long)left / 60,
			(unsigned long)left % 60);
	}
	fputs(")\033[K", stderr);
	o->progress_shown = true;
}

/* Reading done: the rest (comparing with the database, applying, COMMIT)
 * has no percent to show, but the line must not stand at "0:00 left" while
 * it runs.  Shown where reading progress was, or would have been. */
static void on_read(void *ctx, unsigned long records)
{
	struct out *o = ctx;

	o->read = records;
	o->read_secs = o->phase_secs = since(&o->start);
	if (!o->progress || (!o->progress_shown && records < 100000 && o->read_secs < 1.0))
		return;
	fprintf(stderr, "\r%s: %lu records read in %.1f s; %s\033[K", o->file_text, records,
		o->read_secs, "comparing with the database");
	o->progress_shown = true;
}

/* The server's next step ("applying", "committing"): the line says how
 * long the one before took, so it never stands still through a load. */
static void on_phase(void *ctx, const char *phase)
{
	struct out *o = ctx;
	double now = since(&o->start);

	if (!o->progress_shown)
		return; /* a short load: nothing was shown, nothing to move on */
	fprintf(stderr, "\r%s: %lu records read in %.1f s, %s %.1f s; %s\033[K", o->file_text,
		o->read, o->read_secs, strcmp(phase, "applying") == 0 ? "compared in" : "then",
		now - o->phase_secs, phase);
	o->phase_secs = now;
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
	char key[CL_KEY_MAX], safe[4 * CL_KEY_MAX], mfile[1024], mtime[64];
	unsigned i;

	/* the line number and kind padded: the columns stay put whether a
	 * line number has one digit or six; every value from a file or the
	 * database made safe (cl_text_safe) */
	printf("%-10s %s:%-6lu %-10s %s", it->reason && strcmp(it->reason, "near_duplicate") == 0
						  ? "conflict*" : cl_action_name(it->action),
	       o->file_text, it->position, it->rec->kind,
	       cl_text_safe(shown_key(it->rec, key, sizeof(key)), safe, sizeof(safe)));
	if (it->action != CL_ACTION_NEW)
		printf("  (%s of load %lld, %s:%lu, %s)", it->reason, it->matched_load_id,
		       it->matched_file ? cl_text_safe(it->matched_file, mfile, sizeof(mfile)) : "?",
		       it->matched_position,
		       it->matched_time ? cl_text_time(it->matched_time, mtime, sizeof(mtime))
					: "not finished");
	for (i = 0; i < it->nfields; i++) {
		char a[CL_VALUE_MAX], b[CL_VALUE_MAX], sa[4 * CL_VALUE_MAX], sb[4 * CL_VALUE_MAX];

		masked(&it->fields[i], it->fields[i].old_value, a, sizeof(a));
		masked(&it->fields[i], it->fields[i].new_value, b, sizeof(b));
		printf("%s %s %s -> %s", i ? "," : ":", it->fields[i].field,
		       a[0] ? cl_text_safe(a, sa, sizeof(sa)) : "(none)",
		       b[0] ? cl_text_safe(b, sb, sizeof(sb)) : "(none)");
	}
	if (it->matched_key && it->matched_key[0])
		printf(" [near duplicate of %s]", cl_text_safe(it->matched_key, safe, sizeof(safe)));
	putchar('\n');
}

/* A field's value in a change: amounts as numbers, as in the record; ""
 * (none) as null. */
static void change_value(struct cl_json *j, const char *key, const struct cl_field_diff *d,
			 const char *v)
{
	const struct cl_field *f = cl_field_by_name(d->field, strlen(d->field));
	char buf[CL_VALUE_MAX];

	if (*v && f && f->type == CL_FT_AMOUNT) {
		cl_json_int(j, key, strtoll(v, NULL, 10));
		return;
	}
	masked(d, v, buf, sizeof(buf));
	cl_json_str(j, key, buf);
}

/* The record object (cl_json_record: the shape parse and show print) with
 * what diff adds: its fate and the record it matched, null when none. */
static void plan_json(const struct out *o, const struct cl_plan_item *it)
{
	struct cl_json j;
	bool m = it->action != CL_ACTION_NEW;
	unsigned i;

	cl_json_record(&j, stdout, o->file, it->rec, true);
	cl_json_uint(&j, "ordinal", it->ordinal);
	cl_json_str(&j, "action", cl_action_name(it->action));
	cl_json_str(&j, "reason", m ? it->reason : NULL);
	if (m && it->matched_load_id)
		cl_json_int(&j, "matched_load_id", it->matched_load_id);
	else
		cl_json_null(&j, "matched_load_id");
	cl_json_str(&j, "matched_file", m ? it->matched_file : NULL);
	if (m && it->matched_position)
		cl_json_uint(&j, "matched_position", it->matched_position);
	else
		cl_json_null(&j, "matched_position");
	cl_json_str(&j, "matched_time", m ? it->matched_time : NULL);
	cl_json_str(&j, "matched_key", m ? it->matched_key : NULL);
	cl_json_array(&j, "fields");
	for (i = 0; i < it->nfields; i++)
		cl_json_str(&j, NULL, it->fields[i].field);
	cl_json_array_end(&j);
	cl_json_array(&j, "changes");
	for (i = 0; i < it->nfields; i++) {
		cl_json_object(&j, NULL);
		cl_json_str(&j, "field", it->fields[i].field);
		change_value(&j, "old", &it->fields[i], it->fields[i].old_value);
		change_value(&j, "new", &it->fields[i], it->fields[i].new_value);
		cl_json_object_end(&j);
	}
	cl_json_array_end(&j);
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
				      m && it->matched_load_id ? mload : NULL,
				      m ? cl_or_null(it->matched_file) : NULL,
				      m && it->matched_position ? mpos : NULL,
				      m ? cl_or_null(it->matched_time) : NULL,
				      m ? cl_or_null(it->matched_key) : NULL, cl_or_null(changes),
				      NULL };

		cl_csv_row(stdout, row, sizeof(row) / sizeof(row[0]));
	}
}

static void on_plan(void *ctx, const struct cl_plan_item *it)
{
	struct out *o = ctx;

	if (!it->rec)
		return; /* an error: on_error printed it */
	if (it->action == CL_ACTION_NEW)
		cl_money_add(&o->would_apply, it->rec->amount_minor, it->rec->currency);
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

static void summary_text(const struct out *o, const struct cl_load_result *r)
{
	char mtype[4 * sizeof(r->message_type)];

	if (r->outcome == CL_OUTCOME_FAILED || r->outcome == CL_OUTCOME_UNKNOWN)
		return; /* said on stderr */
	if (r->outcome == CL_OUTCOME_UNSUPPORTED) {
		if (!cl_opt_quiet)
			printf("%s: %s is not a clearing file, nothing applied, not recorded\n",
			       o->file_text, r->message_type[0] ? r->message_type : "the message");
		return;
	}
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
	       cl_text_safe(r->message_type[0] ? r->message_type : r->format, mtype, sizeof(mtype)),
	       r->records,
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
	if (!cl_opt_quiet && r->outcome != CL_OUTCOME_NONE && r->money.n) {
		/* load: the file's money; "new" when all of it was applied */
		char t[512];

		printf("%s: %s: %s\n", o->file_text,
		       r->outcome == CL_OUTCOME_COMMITTED && r->new_count == r->records
			       ? "new" : "in the file",
		       cl_money_totals_text(&r->money, t, sizeof(t)));
	}
	if (r->outcome == CL_OUTCOME_NONE && o->would_apply.n) {
		/* diff: the money load would apply, per currency */
		char t[512];

		printf("%s: new: %s\n", o->file_text,
		       cl_money_totals_text(&o->would_apply, t, sizeof(t)));
	}
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
	case CL_OUTCOME_UNSUPPORTED:
	case CL_OUTCOME_INCOMPLETE:
		break;
	}
	return 0;
}

static void summary_json(const struct out *o, const struct cl_load_result *r)
{
	bool diff = r->outcome == CL_OUTCOME_NONE;
	bool read = r->outcome != CL_OUTCOME_FAILED || r->records || r->bytes;
	struct cl_file_out f = {
		.file = o->file, .outcome = cl_outcome_name(r->outcome),
		.valid = r->outcome == CL_OUTCOME_REJECTED ? 0 : read ? 1 : -1,
		.format = r->format, .message_type = r->message_type, .sha256 = r->sha256,
		.have_counts = read, .bytes = r->bytes, .records = r->records,
		.errors = r->invalid_count,
		.have_load = true, .load_id = r->load_id, .load_uuid = diff ? NULL : r->load_uuid,
		.new_count = applied_new(r), .duplicate_count = r->duplicate_count,
		.conflict_count = r->conflict_count, .seconds = r->seconds, .retries = r->retries,
		.reason = r->reason[0] ? r->reason
			  : r->outcome == CL_OUTCOME_FAILED || r->outcome == CL_OUTCOME_UNKNOWN
				  ? r->err.message
				  : NULL,
	};

	cl_json_file(&f);
}

static void summary_csv(const struct out *o, const struct cl_load_result *r)
{
	char id[24], recs[24], n[24], d[24], c[24], inv[24], secs[32], retries[16];
	const char *row[] = { o->file, cl_or_null(r->sha256), cl_or_null(r->format), id,
			      cl_or_null(r->load_uuid), cl_outcome_name(r->outcome), recs, n, d, c,
			      inv, secs, retries, cl_or_null(r->reason) };

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

static void report(struct out *o, const struct cl_load_result *r)
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
		if (r->err.detail[0])
			cl_msg("%s: detail: %s", o->file_text, r->err.detail);
		if (r->err.hint[0])
			cl_msg("%s: hint: %s", o->file_text, r->err.hint);
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
	if ((r->outcome == CL_OUTCOME_FAILED || r->outcome == CL_OUTCOME_UNKNOWN) &&
	    o->format == CL_OUT_JSON)
		cl_json_error(o->file, &r->err);
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
	memset(&o->would_apply, 0, sizeof(o->would_apply));
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
	"Exit status (the most severe over all files): 0 applied, 2 usage error, 3 invalid "
	"file, 4 held, 5 database refused, 6 outcome unknown (the load UUID is printed), 8 "
	"quarantined, 9 not a clearing file, 75 retry later, 78 configuration, 130/143 "
	"interrupted: see 'clearing-load help'.");

static const struct cl_option diff_command[] = LOAD_COMMAND(
	"diff",
	"Show what loading each FILE would do, record by record: new, duplicate, conflict or "
	"invalid.  The same pipeline as load, rolled back: the database is never changed.",
	"Exit status (the most severe over all files): 0 nothing would be applied, 1 new "
	"records would be applied, 2 usage error, 3 invalid file, 4 conflicts, 5 database "
	"refused, 9 not a clearing file, 75 retry later, 78 configuration, 130/143 "
	"interrupted: see 'clearing-load help'.");

/* Set once load() runs: the command line was good and the database was
 * reached. */
static bool load_ran;

/* --format json when the database could not be reached: the error object
 * is out (cl_print_db_error); a file object per FILE says that nothing of
 * it was applied, so a consumer sees every file it asked for. */
static void files_not_loaded(const struct cl_args *args, const char *why)
{
	for (int i = 0; i < args->noperands; i++) {
		struct cl_file_out f = {
			.file = cl_file_name(args->operands[i]), .outcome = "failed", .valid = -1,
			.have_load = false, .reason = why,
		};

		cl_json_file(&f);
	}
}

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
	load_ran = true;
	if (cl_schema_check(db, &err) != CL_DB_OK) {
		code = cl_db_failed(&err);
		if (o.format == CL_OUT_JSON)
			files_not_loaded(args, err.message);
		return cl_finish_stdout_report(code);
	}
	cl_interrupt_install();
	o.progress = !cl_opt_quiet && isatty(STDERR_FILENO);
	hooks.ctx = &o;
	hooks.on_error = on_error;
	hooks.on_note = cl_note_if_verbose;
	hooks.on_progress = on_progress;
	hooks.on_read = on_read;
	hooks.on_phase = on_phase;
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
		struct stat st;
		int fc;

		o.file = cl_file_name(args->operands[i]);
		cl_text_safe(o.file, o.file_text, sizeof(o.file_text));
		o.size = strcmp(args->operands[i], "-") != 0 && stat(args->operands[i], &st) == 0 &&
				 S_ISREG(st.st_mode)
			 ? (unsigned long long)st.st_size
			 : 0;
		clock_gettime(CLOCK_MONOTONIC, &o.start);
		cl_load_file(db, args->operands[i], &opts, &hooks, &r);
		progress_done(&o);
		report(&o, &r);
		fc = cl_exit_for_load(&r);
		code = cl_exit_worse(code, fc);
		if (cl_interrupt_signal()) {
			/* what became of the file was said; the rest are not read */
			if (i + 1 < args->noperands)
				cl_msg("interrupted: %d more file%s not read", args->noperands - i - 1,
				       args->noperands - i - 1 == 1 ? "" : "s");
			code = cl_exit_worse(code, CL_EXIT_SIGNAL + cl_interrupt_signal());
			break;
		}
	}
	/* load: the exit status says what was applied, even if the report was lost */
	return o.diff ? cl_finish_stdout(code) : cl_finish_stdout_report(code);
}

int cl_cmd_load(int argc, char **argv)
{
	struct cl_args args = { 0 };
	int code = cl_run_db_command(strcmp(argv[0], "diff") == 0 ? diff_command : load_command,
				     &args, argc, argv, load);

	/* not run, and neither help (0) nor a usage error: not connected */
	if (!load_ran && code != CL_EXIT_OK && code != CL_EXIT_USAGE &&
	    args.format == CL_OUT_JSON) {
		files_not_loaded(&args, code == CL_EXIT_TEMPFAIL
						? "the database could not be reached: nothing was applied"
						: "the database refused the connection: nothing was applied");
		return cl_finish_stdout_report(code);
	}
	return code;
}
