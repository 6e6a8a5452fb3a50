/* cmd_ingest.c - `clearing-load ingest`: one pass over an inbox, for cron
 * and systemd timers.  Each ready file is loaded as `load` would load it
 * and moved to the archive by what became of it; the database stays the
 * arbiter of what is applied, so a crash anywhere costs at most a second,
 * all-duplicate load of a file. */
#include "cmd/cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/xmalloc.h"
#include "cmd/dbconn.h"
#include "cmd/inbox.h"
#include "cmd/ingest_report.h"
#include "cmd/move_intent.h"
#include "cmd/options.h"
#include "loader/failpoint.h"
#include "loader/interrupt.h"
#include "loader/load.h"
#include "loader/schema.h"
#include "loader/watchdog.h"

struct run {
	const struct cl_args *args;
	struct cl_db db;
	bool connected;
	struct cl_load_opts opts;
	struct cl_ingest_totals t;
	char date[16];          /* UTC day of the run: done/YYYY-MM-DD */
	dev_t inbox_dev;        /* the inbox directory's, for the move notes */
	ino_t inbox_ino;
	bool stop;              /* a database or signal problem: load no more */
	/* the errors of a file that may be still arriving, held back until
	   its outcome is known: said for a file rejected, not for one left to
	   wait (every run would repeat them) */
	struct cl_error *held_errors;
	size_t nheld_errors;
	bool hold_errors;
	const char *held_path;  /* the file's path: the held errors' name (the
	                           load's own copy is gone when they are said) */
};

/* At most this many errors held back; beyond, the file is no mere
 * truncation and its errors are said as they come. */
#define HELD_ERRORS_MAX 64

/* ---- output: key=value lines (syslog, journald) or JSON objects ---- */

/* " key=value", the value quoted when it holds a space, a quote or '=' (or
 * is empty), control characters escaped. */
static void kv(const char *key, const char *val)
{
	char safe[2048];
	const char *s = cl_text_safe(val ? val : "", safe, sizeof(safe));

	if (*s && !strpbrk(s, " \"=\\")) {
		printf(" %s=%s", key, s);
		return;
	}
	printf(" %s=\"", key);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			putchar('\\');
		putchar(*s);
	}
	putchar('"');
}

static void kv_num(const char *key, unsigned long long v)
{
	printf(" %s=%llu", key, v);
}

static bool text_out(const struct run *R)
{
	return R->args->format != CL_OUT_JSON;
}

static void file_line(const struct run *R, const struct cl_inbox_file *f,
		      enum cl_ingest_outcome o, const struct cl_load_result *r,
		      const char *archived, const char *reason, int code)
{
	bool loaded = r && r->outcome != CL_OUTCOME_INCOMPLETE && r->outcome != CL_OUTCOME_FAILED;

	if (text_out(R)) {
		if (cl_opt_quiet && (o == CL_INGEST_COMMITTED || o == CL_INGEST_WAITING))
			return;
		fputs("ingest", stdout);
		kv("file", f->name);
		kv("outcome", cl_ingest_outcome_name(o));
		if (r && r->load_id)
			printf(" load_id=%lld", r->load_id);
		if (loaded) {
			kv_num("records", r->records);
			kv_num("new", o == CL_INGEST_COMMITTED || o == CL_INGEST_QUARANTINED
					      ? r->new_count : 0);
			kv_num("duplicate", r->duplicate_count);
			kv_num("conflict", r->conflict_count);
			kv_num("invalid", r->invalid_count);
		}
		if (r)
			printf(" seconds=%.3f", r->seconds);
		if (archived && *archived)
			kv("archived", archived);
		if (reason && *reason)
			kv("reason", reason);
		printf(" exit=%d\n", code);
	} else {
		struct cl_json j;

		cl_json_begin(&j, stdout, "ingest_file");
		cl_json_str(&j, "file", f->name);
		cl_json_str(&j, "outcome", cl_ingest_outcome_name(o));
		if (r && r->load_id)
			cl_json_int(&j, "load_id", r->load_id);
		else
			cl_json_null(&j, "load_id");
		cl_json_str(&j, "load_uuid", r && r->load_id ? r->load_uuid : NULL);
		cl_json_uint(&j, "records", loaded ? r->records : 0);
		cl_json_uint(&j, "new", loaded && (o == CL_INGEST_COMMITTED ||
						   o == CL_INGEST_QUARANTINED) ? r->new_count : 0);
		cl_json_uint(&j, "duplicate", loaded ? r->duplicate_count : 0);
		cl_json_uint(&j, "conflict", loaded ? r->conflict_count : 0);
		cl_json_uint(&j, "invalid", loaded ? r->invalid_count : 0);
		cl_json_real(&j, "seconds", r ? r->seconds : 0);
		cl_json_str(&j, "archived", archived);
		cl_json_str(&j, "reason", reason);
		cl_json_int(&j, "exit_status", code);
		cl_json_end(&j);
	}
	fflush(stdout);
}

/* A file left before loading: its line says why (-q: not listed). */
static void not_ready_line(const struct run *R, const struct cl_inbox_file *f, const char *why)
{
	char reason[256];

	if (strstr(why, "--min-age"))
		snprintf(reason, sizeof(reason), "%s (changed %.0f s ago, --min-age %lu)", why,
			 f->age, R->args->min_age);
	else
		snprintf(reason, sizeof(reason), "%s", why);
	if (text_out(R)) {
		if (cl_opt_quiet)
			return;
		fputs("ingest", stdout);
		kv("file", f->name);
		kv("outcome", "not_ready");
		kv("reason", reason);
		printf(" exit=0\n");
	} else {
		struct cl_json j;

		cl_json_begin(&j, stdout, "ingest_file");
		cl_json_str(&j, "file", f->name);
		cl_json_str(&j, "outcome", "not_ready");
		cl_json_null(&j, "load_id");
		cl_json_str(&j, "load_uuid", NULL);
		cl_json_uint(&j, "records", 0);
		cl_json_uint(&j, "new", 0);
		cl_json_uint(&j, "duplicate", 0);
		cl_json_uint(&j, "conflict", 0);
		cl_json_uint(&j, "invalid", 0);
		cl_json_real(&j, "seconds", 0);
		cl_json_str(&j, "archived", NULL);
		cl_json_str(&j, "reason", reason);
		cl_json_int(&j, "exit_status", 0);
		cl_json_end(&j);
	}
	fflush(stdout);
}

static void run_line(const struct run *R)
{
	const struct cl_ingest_totals *t = &R->t;

	if (text_out(R)) {
		if (cl_opt_quiet && t->exit_status == 0)
			return;
		fputs("ingest run", stdout);
		kv("inbox", R->args->operands[0]);
		for (int o = 0; o < CL_INGEST_NOUTCOMES; o++)
			kv_num(cl_ingest_outcome_name((enum cl_ingest_outcome)o), t->files[o]);
		kv_num("not_ready", t->not_ready);
		kv_num("new", t->records_new);
		kv_num("duplicate", t->records_duplicate);
		kv_num("conflict", t->records_conflict);
		kv_num("invalid", t->records_invalid);
		printf(" oldest_ready_age=%.0f seconds=%.3f exit=%d\n", t->oldest_ready_age,
		       t->seconds, t->exit_status);
	} else {
		struct cl_json j;

		cl_json_begin(&j, stdout, "ingest_run");
		cl_json_str(&j, "inbox", R->args->operands[0]);
		for (int o = 0; o < CL_INGEST_NOUTCOMES; o++)
			cl_json_uint(&j, cl_ingest_outcome_name((enum cl_ingest_outcome)o),
				     t->files[o]);
		cl_json_uint(&j, "not_ready", t->not_ready);
		cl_json_uint(&j, "new", t->records_new);
		cl_json_uint(&j, "duplicate", t->records_duplicate);
		cl_json_uint(&j, "conflict", t->records_conflict);
		cl_json_uint(&j, "invalid", t->records_invalid);
		cl_json_real(&j, "oldest_ready_age", t->oldest_ready_age);
		cl_json_real(&j, "seconds", t->seconds);
		cl_json_int(&j, "exit_status", t->exit_status);
		cl_json_end(&j);
	}
}

/* ---- one file ---- */

static void say_held_errors(struct run *R)
{
	for (size_t i = 0; i < R->nheld_errors; i++)
		cl_print_error(&R->held_errors[i]);
	R->nheld_errors = 0;
}

static void on_error(void *ctx, const struct cl_error *err)
{
	struct run *R = ctx;

	if (R->hold_errors && R->nheld_errors == HELD_ERRORS_MAX) {
		say_held_errors(R);
		R->hold_errors = false;
	}
	if (!R->hold_errors) {
		cl_print_error(err);
		return;
	}
	if (!R->held_errors)
		R->held_errors = cl_xmalloc(HELD_ERRORS_MAX * sizeof(*R->held_errors));
	R->held_errors[R->nheld_errors] = *err;
	R->held_errors[R->nheld_errors++].file = R->held_path;
}

/* What the load came to, for the archive and the totals. */
static enum cl_ingest_outcome outcome_of(const struct cl_load_result *r)
{
	switch (r->outcome) {
	case CL_OUTCOME_COMMITTED:
		return CL_INGEST_COMMITTED;
	case CL_OUTCOME_QUARANTINED:
		return CL_INGEST_QUARANTINED;
	case CL_OUTCOME_REJECTED:
		return CL_INGEST_REJECTED;
	case CL_OUTCOME_HELD:
		return CL_INGEST_HELD;
	case CL_OUTCOME_UNSUPPORTED:
		return CL_INGEST_UNSUPPORTED;
	case CL_OUTCOME_INCOMPLETE:
		return CL_INGEST_WAITING;
	case CL_OUTCOME_UNKNOWN:
		return CL_INGEST_UNKNOWN;
	case CL_OUTCOME_NONE:
	case CL_OUTCOME_FAILED:
		break;
	}
	return CL_INGEST_FAILED;
}

/* The archive folder of an outcome, or NULL: the file stays. */
static const char *folder_of(const struct run *R, enum cl_ingest_outcome o, char *buf,
			     size_t cap)
{
	switch (o) {
	case CL_INGEST_COMMITTED:
	case CL_INGEST_QUARANTINED:
		snprintf(buf, cap, "done/%s", R->date);
		return buf;
	case CL_INGEST_REJECTED:
		return "rejected";
	case CL_INGEST_HELD:
		return "held";
	case CL_INGEST_UNSUPPORTED:
		return "unsupported";
	default:
		return NULL;
	}
}

static const char *event_of(enum cl_ingest_outcome o)
{
	switch (o) {
	case CL_INGEST_REJECTED: return "rejected";
	case CL_INGEST_HELD: return "held";
	case CL_INGEST_QUARANTINED: return "quarantined";
	case CL_INGEST_UNKNOWN: return "unknown";
	case CL_INGEST_FAILED: return "failed";
	default: return NULL;
	}
}

/* NAME.reason's text: what a person needs, as key: value lines. */
static void reason_text(const struct run *R, const struct cl_inbox_file *f,
			const struct cl_load_result *r, enum cl_ingest_outcome o, char *text,
			size_t cap)
{
	char see[256] = "", safe[1024], reason[2048];

	if (r->load_id)
		snprintf(see, sizeof(see),
			 "see: clearing-load loads --uuid %s; clearing-load diff on the file shows "
			 "each record\n", r->load_uuid);
	/* the reason quotes the file (a key, a value): escaped as in every
	   message, so the file cannot reach a terminal through `cat` */
	snprintf(text, cap,
		 "file: %s\noutcome: %s\nload_id: %lld\nload_uuid: %s\ntenant: %s\nsha256: %s\n"
		 "records: %lu\nnew: %lu\nduplicate: %lu\nconflict: %lu\ninvalid: %lu\n"
		 "reason: %s\n%s",
		 cl_text_safe(f->name, safe, sizeof(safe)), cl_ingest_outcome_name(o), r->load_id,
		 r->load_id ? r->load_uuid : "", R->opts.tenant, r->sha256, r->records,
		 o == CL_INGEST_QUARANTINED ? r->new_count : 0, r->duplicate_count,
		 r->conflict_count, r->invalid_count, cl_text_safe(r->reason, reason, sizeof(reason)),
		 see);
}

static void fire_event(const struct run *R, const struct cl_inbox_file *f,
		       const struct cl_load_result *r, enum cl_ingest_outcome o,
		       const char *dest, const char *reason, int code)
{
	char safe_reason[2048];
	struct cl_ingest_event ev;
	char why[256], safe[1024];
	int st;

	if (!R->args->on_event || !event_of(o))
		return;
	memset(&ev, 0, sizeof(ev));
	ev.event = event_of(o);
	ev.file = f->path;
	ev.archived = dest;
	ev.tenant = R->opts.tenant;
	ev.load_id = r ? r->load_id : 0;
	ev.load_uuid = r ? r->load_uuid : NULL;
	/* the reason of the file's line, escaped as every message is (the
	   path names stay as they are: the command opens them) */
	ev.reason = cl_text_safe(reason, safe_reason, sizeof(safe_reason));
	if (r && r->outcome != CL_OUTCOME_FAILED) {
		ev.records = r->records;
		ev.new_count = o == CL_INGEST_QUARANTINED ? r->new_count : 0;
		ev.duplicate_count = r->duplicate_count;
		ev.conflict_count = r->conflict_count;
		ev.invalid_count = r->invalid_count;
	}
	ev.exit_status = code;
	st = cl_ingest_run_event(R->args->on_event, &ev, cl_watchdog_limit(), why, sizeof(why));
	/* what was applied stands whatever the command does */
	if (st < 0)
		cl_msg("%s: --on-event command: %s", cl_text_safe(f->name, safe, sizeof(safe)), why);
	else if (st != 0)
		cl_msg("%s: --on-event command exited %d", cl_text_safe(f->name, safe, sizeof(safe)),
		       st);
}

/* The moved file's reason (if any) and archive row, then its note gone.
 * The row not written keeps the note: the next run writes it.  Returns the
 * file's exit status made worse by what failed. */
static int finish_move(struct run *R, const struct cl_move_intent *mi, const char *dest, int code)
{
	char why[1024], safe[1024], safe_dest[4096];
	struct cl_error err;

	cl_text_safe(mi->name, safe, sizeof(safe));
	if (*mi->reason_text && cl_archive_reason(dest, mi->reason_text, why, sizeof(why)) != 0)
		cl_msg("%s", why);
	CL_FAILPOINT("ingest_before_archive_row", NULL);
	if (mi->load_id && cl_load_record_archive(&R->db, mi->load_id, dest, &err) != CL_DB_OK) {
		/* not silent: the history does not say yet where the file went;
		   the note stays, and the next run records it */
		cl_msg("%s: moved to %s, but the move was not recorded (the next run records it): "
		       "%s", safe, cl_text_safe(dest, safe_dest, sizeof(safe_dest)), err.message);
		return cl_exit_worse(code, CL_EXIT_DB);
	}
	if (cl_move_intent_drop(mi, why, sizeof(why)) != 0)
		cl_msg("%s", why); /* the next run finds the move done: harmless */
	return code;
}

/* Move the loaded file `f` to ARCHIVE/sub, behind a note of the move
 * (move_intent.h): killed anywhere from here on, the next run completes
 * the move instead of loading the file again.  dest[] is the new path, or
 * "" when it stayed. */
static int move_file(struct run *R, const struct cl_inbox_file *f, const struct cl_load_result *r,
		     enum cl_ingest_outcome o, const char *sub, const char *line_reason,
		     char *dest, size_t dcap, int code)
{
	struct cl_move_intent mi;
	char text[4096] = "", why[1024], safe[1024];

	cl_text_safe(f->name, safe, sizeof(safe));
	if (o != CL_INGEST_COMMITTED)
		reason_text(R, f, r, o, text, sizeof(text));
	memset(&mi, 0, sizeof(mi));
	mi.inbox_dev = R->inbox_dev;
	mi.inbox_ino = R->inbox_ino;
	mi.dev = f->st.st_dev;
	mi.ino = f->st.st_ino;
	mi.name = f->name;
	mi.sub = (char *)sub;
	mi.outcome = (int)o;
	mi.load_id = r->load_id;
	mi.load_uuid = r->load_id ? (char *)r->load_uuid : (char *)"";
	mi.reason_text = text;
	mi.line_reason = (char *)line_reason;
	if (cl_move_intent_write(R->args->archive, &mi, why, sizeof(why)) != 0) {
		/* the load stands; the next run loads the file again and
		   finds it all duplicate */
		cl_msg("%s: %s: left in the inbox", safe, why);
		dest[0] = '\0';
		return cl_exit_worse(code, CL_EXIT_TEMPFAIL);
	}
	if (cl_archive_move(R->args->archive, sub, f, dest, dcap, why, sizeof(why)) != 0) {
		cl_msg("%s: %s", safe, why);
		/* linked but not unlinked: the note stays for the next run;
		   not linked: the file stays, its note goes */
		if (!cl_archive_find(R->args->archive, sub, f->name, f->st.st_dev, f->st.st_ino,
				     dest, dcap) &&
		    cl_move_intent_drop(&mi, why, sizeof(why)) != 0)
			cl_msg("%s", why);
		free(mi.note);
		dest[0] = '\0';
		return cl_exit_worse(code, CL_EXIT_TEMPFAIL);
	}
	CL_FAILPOINT("ingest_after_unlink", NULL);
	code = finish_move(R, &mi, dest, code);
	free(mi.note);
	return code;
}

static int ingest_file(struct run *R, const struct cl_inbox_file *f)
{
	struct cl_load_hooks hooks = { .ctx = R, .on_error = on_error,
				       .on_note = cl_note_if_verbose };
	struct cl_load_result r;
	enum cl_ingest_outcome o;
	char folder[32], dest[4096] = "", why[1024] = "", safe[1024];
	const char *sub;
	int code;

	R->opts.defer_incomplete = f->age < (double)R->args->arrival_limit;
	R->hold_errors = R->opts.defer_incomplete;
	R->held_path = f->path;
	R->nheld_errors = 0;
	cl_load_file(&R->db, f->path, &R->opts, &hooks, &r);
	o = outcome_of(&r);
	if (o != CL_INGEST_WAITING)
		say_held_errors(R);
	R->hold_errors = false;
	code = cl_exit_for_load(&r);
	if (r.outcome == CL_OUTCOME_REJECTED && r.unreadable) {
		/* gone since the scan (another consumer?) or unreadable:
		   nothing was attempted, nothing recorded */
		o = CL_INGEST_FAILED;
		code = CL_EXIT_TEMPFAIL;
	}
	if (r.outcome == CL_OUTCOME_FAILED) {
		snprintf(why, sizeof(why), "%s", r.err.message);
		/* unreachable, no schema, no permission, a signal: every
		   next file would fare the same */
		if (code != CL_EXIT_DB)
			R->stop = true;
	} else if (o == CL_INGEST_WAITING) {
		/* said once per run on its line, not as errors: rejected (one
		   line, one event) once unchanged for --arrival-limit */
		double left = (double)R->args->arrival_limit - f->age;

		snprintf(why, sizeof(why), "ends early or changed while read%s%.300s: rejected if "
			 "unchanged for %.0f s more (--arrival-limit %lu)",
			 R->nheld_errors ? ": " : "",
			 R->nheld_errors ? R->held_errors[0].message : "", left > 0 ? left : 0,
			 R->args->arrival_limit);
		code = CL_EXIT_OK; /* nothing failed: a file not ready yet */
	} else if (r.outcome == CL_OUTCOME_UNKNOWN) {
		snprintf(why, sizeof(why), "outcome unknown (load UUID %s): the next run settles it",
			 r.load_uuid);
	} else if (o != CL_INGEST_COMMITTED) {
		snprintf(why, sizeof(why), "%s", r.reason);
	}
	CL_FAILPOINT("ingest_before_move", NULL);
	sub = folder_of(R, o, folder, sizeof(folder));
	if (sub && cl_inbox_changed(f)) {
		/* renamed over (a re-upload) or written to while loaded: what
		   the inbox holds now was not read, and moving it would file
		   it as loaded.  What was read stands; the next run loads the
		   new version. */
		cl_msg("%s: replaced or changed while it was loaded: left in the inbox for the "
		       "next run", cl_text_safe(f->name, safe, sizeof(safe)));
		code = cl_exit_worse(code, CL_EXIT_TEMPFAIL);
		sub = NULL;
	}
	if (sub)
		code = move_file(R, f, &r, o, sub, why, dest, sizeof(dest), code);
	R->t.files[o]++;
	if (o == CL_INGEST_COMMITTED || o == CL_INGEST_QUARANTINED)
		R->t.records_new += r.new_count;
	if (o != CL_INGEST_FAILED && o != CL_INGEST_WAITING) {
		R->t.records_duplicate += r.duplicate_count;
		R->t.records_conflict += r.conflict_count;
		R->t.records_invalid += r.invalid_count;
	}
	file_line(R, f, o, &r, dest, why, code);
	fire_event(R, f, &r, o, dest, why, code);
	if (cl_interrupt_signal())
		R->stop = true;
	return code;
}

/* ---- moves a killed run left half done ---- */

static int connect_db(struct run *R)
{
	struct cl_error err;
	int code;

	if (R->connected)
		return CL_EXIT_OK;
	if ((code = cl_cmd_connect(R->args, &R->db)) != 0)
		return code;
	R->connected = true;
	if (cl_schema_check(&R->db, &err) != CL_DB_OK)
		return cl_db_failed(&err);
	return CL_EXIT_OK;
}

/* Complete one noted move: the file is found by its inode in the inbox and
 * in its archive folder; linked there if it was not yet, unlinked from the
 * inbox, its reason and row written.  Reported as the file's line and
 * event, which the killed run never gave. */
static int complete_move(struct run *R, const struct cl_move_intent *mi)
{
	enum cl_ingest_outcome o = (enum cl_ingest_outcome)mi->outcome;
	struct cl_inbox_file f;
	struct cl_load_result r;
	char dest[4096] = "", why[1024], safe[1024], line[1200];
	bool in_inbox, archived;
	int code;

	if ((unsigned)mi->outcome >= CL_INGEST_NOUTCOMES)
		o = CL_INGEST_UNKNOWN;
	memset(&f, 0, sizeof(f));
	memset(&r, 0, sizeof(r));
	f.name = mi->name;
	f.path = cl_xmalloc(strlen(R->args->operands[0]) + strlen(mi->name) + 2);
	sprintf(f.path, "%s/%s", R->args->operands[0], mi->name);
	cl_text_safe(mi->name, safe, sizeof(safe));
	in_inbox = lstat(f.path, &f.st) == 0 && f.st.st_dev == mi->dev && f.st.st_ino == mi->ino;
	archived = cl_archive_find(R->args->archive, mi->sub, mi->name, mi->dev, mi->ino, dest,
				   sizeof(dest));
	/* the file line: counts not repeated (they are the load's, `loads`) */
	r.outcome = CL_OUTCOME_INCOMPLETE;
	r.load_id = mi->load_id;
	snprintf(r.load_uuid, sizeof(r.load_uuid), "%s", mi->load_uuid);
	switch (o) {
	case CL_INGEST_REJECTED: code = CL_EXIT_INVALID; break;
	case CL_INGEST_HELD: code = CL_EXIT_HELD; break;
	case CL_INGEST_QUARANTINED: code = CL_EXIT_QUARANTINED; break;
	case CL_INGEST_UNSUPPORTED: code = CL_EXIT_UNSUPPORTED; break;
	default: code = CL_EXIT_OK; break;
	}
	if (!archived && in_inbox) {
		/* killed after the note, before the link */
		if (cl_archive_move(R->args->archive, mi->sub, &f, dest, sizeof(dest), why,
				    sizeof(why)) != 0) {
			cl_msg("%s: completing an interrupted move: %s", safe, why);
			free(f.path);
			return cl_exit_worse(code, CL_EXIT_TEMPFAIL);
		}
		archived = true;
	} else if (archived && in_inbox && unlink(f.path) != 0) {
		cl_msg("%s: completing an interrupted move: cannot remove it from the inbox: %s",
		       safe, strerror(errno));
		free(f.path);
		return cl_exit_worse(code, CL_EXIT_TEMPFAIL);
	}
	if (!archived) {
		/* neither in the inbox nor in the archive: someone took it */
		cl_msg("%s: an interrupted move found the file neither in the inbox nor in %s/%s: "
		       "its note is dropped (load %lld)", safe, R->args->archive, mi->sub,
		       mi->load_id);
		if (cl_move_intent_drop(mi, why, sizeof(why)) != 0)
			cl_msg("%s", why);
		free(f.path);
		return CL_EXIT_OK;
	}
	if (mi->load_id) {
		int c = connect_db(R);

		if (c != CL_EXIT_OK) {
			cl_msg("%s: moved to %s; the move is recorded by the next run", safe, dest);
			free(f.path);
			return cl_exit_worse(code, c);
		}
	}
	code = finish_move(R, mi, dest, code);
	snprintf(line, sizeof(line), "%s%san interrupted run's move, completed", mi->line_reason,
		 *mi->line_reason ? "; " : "");
	R->t.files[o]++;
	file_line(R, &f, o, &r, dest, line, code);
	fire_event(R, &f, &r, o, dest, line, code);
	free(f.path);
	return code;
}

/* The moves of this inbox that a killed run left (move_intent.h). */
static int complete_moves(struct run *R)
{
	struct cl_move_intent *v;
	size_t n;
	char why[1024];
	int code = CL_EXIT_OK;

	if (cl_move_intent_list(R->args->archive, R->inbox_dev, R->inbox_ino, &v, &n, why,
				sizeof(why)) != 0) {
		cl_msg("%s", why);
		return CL_EXIT_CONFIG;
	}
	if (why[0])
		cl_msg("%s", why);
	for (size_t i = 0; i < n; i++) {
		int c = complete_move(R, &v[i]);

		code = cl_exit_worse(code, c == CL_EXIT_UNSUPPORTED ? CL_EXIT_OK : c);
	}
	cl_move_intent_free_all(v, n);
	return code;
}

/* ---- the run ---- */

static bool operands(struct cl_args *args, int *code)
{
	struct stat st;
	char safe[1024];

	if (args->noperands != 1) {
		*code = cl_usage_error(args->cmd, args->noperands ? "one inbox at a time"
								  : "no inbox given");
		return false;
	}
	if (!args->archive) {
		*code = cl_usage_error(args->cmd, "--archive DIR is required (where files go once "
						  "loaded)");
		return false;
	}
	if (stat(args->operands[0], &st) != 0 || !S_ISDIR(st.st_mode)) {
		*code = cl_usage_error(args->cmd, "%s is not a directory",
				       cl_text_safe(args->operands[0], safe, sizeof(safe)));
		return false;
	}
	return true;
}

static int check_operands(struct cl_args *args)
{
	int code = 0;

	return operands(args, &code) ? 0 : code;
}

static const struct cl_choice on_conflict_choices[] = {
	{ "hold", CL_ON_CONFLICT_HOLD }, { "quarantine", CL_ON_CONFLICT_QUARANTINE }, { NULL, 0 },
};

/* key=value lines or JSON objects: a CSV of runs and files would be a third
 * shape of the same facts */
static const struct cl_choice format_choices[] = {
	{ "text", CL_OUT_TEXT }, { "json", CL_OUT_JSON }, { NULL, 0 },
};

static const struct cl_option ingest_command[] = {
	CL_OPT_USAGE("ingest", CL_ANY_OPERANDS, "[OPTION]... --archive DIR INBOX"),
	CL_OPT_TEXT("Load every ready file of the directory INBOX, one transaction per file as "
		    "load does, and move each to DIR/done/YYYY-MM-DD/, DIR/rejected/, DIR/held/ "
		    "or DIR/unsupported/ by what became of it (never overwriting: NAME.2 ...), "
		    "with NAME.reason beside the last three.  Bank statements and status reports "
		    "(camt.052/053/054, BAI2, pacs.002) are loaded as load loads them.  One pass, "
		    "for cron and systemd timers; one run at a time per inbox."),
	CL_OPT_OPERAND("INBOX", "the directory files arrive in"),
	CL_OPT_STRING(0, "archive", "DIR", archive,
		      "where files go once loaded (on the inbox's filesystem; made if missing)"),
	CL_OPT_ULONG(0, "min-age", "SECONDS", min_age, 0, 86400,
		     "load only files unchanged for this long (default 60)"),
	CL_OPT_ULONG(0, "arrival-limit", "SECONDS", arrival_limit, 0, 604800,
		     "a file younger than this that ends early or changes while read is left "
		     "for the next run, not rejected (default 900)"),
	CL_OPT_STRING(0, "metrics-file", "FILE", metrics_file,
		      "write the run's metrics there (Prometheus text format, renamed into "
		      "place: node_exporter's textfile collector)"),
	CL_OPT_STRING(0, "on-event", "COMMAND", on_event,
		      "run COMMAND (sh -c) for each held, rejected, quarantined, unknown or "
		      "failed file, the facts in CL_* environment variables"),
	CL_OPT_DB(),
	CL_OPT_TENANT(),
	CL_OPT_CHOICE(0, "on-conflict", "MODE", on_conflict, on_conflict_choices,
		      "hold (default) or quarantine, as for load"),
	CL_OPT_CHOICE('f', "format", "FORMAT", format, format_choices, "text (default) or json"),
	CL_OPT_INCLUDE(cl_file_read_options),
	CL_OPT_QUIET("print only files that need attention, and the run line when it did "
		     "not exit 0"),
	CL_OPT_VERBOSE(),
	CL_OPT_CHECK(check_operands),
	CL_OPT_TEXT("Output: one key=value line per file and per run (--format json: one "
		    "object each).  Exit status: the most severe over the files (see "
		    "'clearing-load help'); 0 also for an empty inbox, for a run that found "
		    "another holding the inbox, and for files routed to unsupported/."),
	CL_OPT_END(),
};

static void finish(struct run *R, const struct timespec *t0)
{
	struct timespec t1;
	char why[512];

	clock_gettime(CLOCK_MONOTONIC, &t1);
	R->t.seconds = (double)(t1.tv_sec - t0->tv_sec) + (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
	run_line(R);
	if (!R->args->metrics_file)
		return;
	/* what waits for a person: from the database, even when the inbox
	   was empty (a failed connection is said, the run's status kept) */
	if (!R->connected && !cl_interrupt_signal())
		(void)connect_db(R);
	R->t.tenant = R->opts.tenant;
	cl_backlog_read(R->connected ? &R->db : NULL, R->opts.tenant,
			"the database could not be reached", R->t.backlog);
	if (cl_ingest_write_metrics(R->args->metrics_file, &R->t, why, sizeof(why)) != 0)
		cl_msg("%s", why);
}

static int ingest(struct run *R, struct cl_inbox *in)
{
	const struct cl_args *args = R->args;
	struct stat st;
	char why[512];
	int code = CL_EXIT_OK, moved;

	if (cl_archive_prepare(args->archive, in, why, sizeof(why)) != 0) {
		cl_msg("%s", why);
		return CL_EXIT_CONFIG;
	}
	if (fstat(in->fd, &st) != 0) {
		cl_msg("cannot stat the inbox: %s", strerror(errno));
		return CL_EXIT_CONFIG;
	}
	R->inbox_dev = st.st_dev;
	R->inbox_ino = st.st_ino;
	/* first what a killed run left half moved: those files are loaded */
	moved = complete_moves(R);
	if (moved >= CL_EXIT_TEMPFAIL)
		return moved;
	if (cl_inbox_scan(in, (unsigned)args->min_age, why, sizeof(why)) != 0) {
		cl_msg("%s", why);
		return CL_EXIT_CONFIG;
	}
	R->t.not_ready = in->nfiles - in->nready;
	R->t.oldest_ready_age = in->oldest_ready_age;
	for (size_t i = 0; i < in->nfiles; i++)
		if (in->files[i].not_ready)
			not_ready_line(R, &in->files[i], in->files[i].not_ready);
	if (!in->nready)
		return moved; /* nothing to do: not even a connection */
	if ((code = connect_db(R)) != 0)
		return cl_exit_worse(code, moved);
	cl_interrupt_install();
	code = moved;
	for (size_t i = 0; i < in->nfiles && !R->stop; i++) {
		const struct cl_inbox_file *f = &in->files[i];

		if (f->not_ready)
			continue;
		if (cl_inbox_changed(f)) {
			R->t.not_ready++; /* changed since the scan: next run */
			not_ready_line(R, f, "changed since the scan");
			continue;
		}
		int fc = ingest_file(R, f);

		/* a message that is not a clearing file (a camt.056) moved to
		   unsupported/ was routed, as it should be: no failure of the run
		   (statements and status reports are loaded, filed under done/) */
		code = cl_exit_worse(code, fc == CL_EXIT_UNSUPPORTED ? CL_EXIT_OK : fc);
	}
	if (cl_interrupt_signal())
		code = cl_exit_worse(code, CL_EXIT_SIGNAL + cl_interrupt_signal());
	return code;
}

int cl_cmd_ingest(int argc, char **argv)
{
	struct cl_args args = { .min_age = 60, .arrival_limit = 900 };
	struct run R;
	struct cl_inbox in;
	struct timespec t0;
	char why[512], safe[1024];
	int code = cl_parse_options(ingest_command, argc, argv, &args);

	if (code >= 0)
		return code;
	memset(&R, 0, sizeof(R));
	R.args = &args;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	R.t.started = time(NULL);
	R.t.inbox = args.operands[0];
	strftime(R.date, sizeof(R.date), "%Y-%m-%d", gmtime(&R.t.started));
	cl_args_parse_opts(&args, &R.opts.parse);
	R.opts.tenant = args.tenant ? args.tenant : "default";
	R.opts.on_conflict = (enum cl_on_conflict)args.on_conflict;
	cl_watchdog_set_limit(args.wait_limit ? (unsigned)args.wait_limit : CL_WAIT_LIMIT_DEFAULT);
	switch (cl_inbox_open(&in, args.operands[0], why, sizeof(why))) {
	case 1:
		/* the other run does the work; this one is not a failure */
		cl_msg("%s: another ingest run holds this inbox: nothing done",
		       cl_text_safe(args.operands[0], safe, sizeof(safe)));
		return CL_EXIT_OK;
	case -1:
		cl_msg("%s: %s", cl_text_safe(args.operands[0], safe, sizeof(safe)), why);
		return CL_EXIT_CONFIG;
	default:
		break;
	}
	code = ingest(&R, &in);
	R.t.exit_status = code;
	finish(&R, &t0);
	free(R.held_errors);
	if (R.connected)
		cl_db_close(&R.db);
	cl_inbox_close(&in);
	return cl_finish_stdout_report(code);
}
