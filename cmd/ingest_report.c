/* ingest_report.c - ingest's metrics file and --on-event command
 * (ingest_report.h). */
#include "cmd/ingest_report.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

const char *cl_ingest_outcome_name(enum cl_ingest_outcome o)
{
	static const char *const names[CL_INGEST_NOUTCOMES] = {
		"committed", "quarantined", "rejected", "held", "unsupported",
		"waiting",   "failed",	    "unknown",
	};

	return (unsigned)o < CL_INGEST_NOUTCOMES ? names[o] : "unknown";
}

/* ---- metrics ---- */

#define M "clearing_load_ingest_"

/* A label value: backslash, double quote and newline escaped. */
static void label(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			fputc('\\', f);
		if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
}

/* The metrics file's previous version, whole ("" when none). */
static char *previous_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0, room = 0, n;

	if (f) {
		do {
			if (room - len < 4096) {
				room = room ? 2 * room : 16384;
				buf = realloc(buf, room);
				if (!buf)
					break;
			}
			n = fread(buf + len, 1, room - len - 1, f);
			len += n;
		} while (n > 0 && len < (1u << 24));
		fclose(f);
	}
	if (!buf)
		return calloc(1, 1);
	buf[len] = '\0';
	return buf;
}

/* NAME{inbox="...",...} as written: the series' whole name. */
static void series(char *out, size_t cap, const char *name, const struct cl_ingest_totals *t,
		   const char *extra_label, const char *extra_value)
{
	FILE *f = fmemopen(out, cap, "w");

	if (!f) {
		out[0] = '\0';
		return;
	}
	fprintf(f, "%s{inbox=\"", name);
	label(f, t->inbox);
	fputc('"', f);
	if (extra_label) {
		fprintf(f, ",%s=\"", extra_label);
		label(f, extra_value);
		fputc('"', f);
	}
	fputc('}', f);
	fclose(f);
	out[cap - 1] = '\0';
}

/* The value of the series `name` in the previous version, or 0. */
static double previous_value(const char *prev, const char *name)
{
	size_t n = strlen(name);

	for (const char *line = prev; *line;) {
		const char *eol = strchr(line, '\n');

		if (strncmp(line, name, n) == 0 && line[n] == ' ')
			return strtod(line + n + 1, NULL);
		if (!eol)
			break;
		line = eol + 1;
	}
	return 0;
}

static void help(FILE *f, const char *type, const char *name, const char *text)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, text, name, type);
}

static void gauge(FILE *f, const char *name, const char *text)
{
	char full[128];

	snprintf(full, sizeof(full), M "%s", name);
	help(f, "gauge", full, text);
}

static void sample(FILE *f, const char *name, double v)
{
	/* counts and Unix times as integers, durations to the millisecond */
	if (v == (double)(long long)v)
		fprintf(f, "%s %lld\n", name, (long long)v);
	else
		fprintf(f, "%s %.3f\n", name, v);
}

static void value(FILE *f, const struct cl_ingest_totals *t, const char *name,
		  const char *extra_label, const char *extra_value, double v)
{
	char full[128], s[4096];

	snprintf(full, sizeof(full), M "%s", name);
	series(s, sizeof(s), full, t, extra_label, extra_value);
	sample(f, s, v);
}

/* A counter: the previous version's value plus this run's. */
static void counter(FILE *f, const char *prev, const struct cl_ingest_totals *t,
		    const char *name, const char *extra_label, const char *extra_value, double add)
{
	char full[128], s[4096];

	snprintf(full, sizeof(full), M "%s", name);
	series(s, sizeof(s), full, t, extra_label, extra_value);
	sample(f, s, previous_value(prev, s) + add);
}

/* The rest of a comment line: a server's message may hold a line break,
 * which would end the comment and start a sample. */
static void comment(FILE *f, const char *text)
{
	for (; *text; text++)
		fputc(*text == '\n' || *text == '\r' ? ' ' : *text, f);
	fputc('\n', f);
}

/* The backlog gauges: count and age of the oldest, each with the labels
 * inbox and tenant; a figure not read is a comment, no value. */
static void backlog(FILE *f, const struct cl_ingest_totals *t)
{
	static const char *const help_text[CL_BACKLOG_NKINDS][2] = {
		{ "Conflicts (parked versions of held and quarantined loads) not yet resolved.",
		  "Age of the oldest unresolved conflict (0: none)." },
		{ "Held loads with a conflict not yet resolved.",
		  "Age of the oldest such held load (0: none)." },
		{ "Quarantined loads with a conflict not yet resolved.",
		  "Age of the oldest such quarantined load (0: none)." },
		{ "Statements loaded that no reconcile run has taken yet.",
		  "Age of the oldest such statement's load (0: none)." },
		{ "The last reconcile run's unmatched statement entries and exceptions.",
		  "Age of the last reconcile run." },
		{ "Open reconcile breaks unmatched theirs (no decision: clearing-load break).",
		  "Age of the oldest such break since its date (0: none)." },
		{ "Open reconcile breaks that are exceptions (no decision).",
		  "Age of the oldest such break since its date (0: none)." },
		{ "Open reconcile breaks unmatched ours (no decision).",
		  "Age of the oldest such break since its date (0: none)." },
		{ "Open reconcile suggestions (no decision).",
		  "Age of the oldest such suggestion since its date (0: none)." },
	};

	for (int k = 0; k < CL_BACKLOG_NKINDS; k++) {
		const struct cl_backlog_figure *b = &t->backlog[k];
		char name[128], age[160], s[4096];

		snprintf(name, sizeof(name), "clearing_load_backlog_%s",
			 cl_backlog_name((enum cl_backlog_kind)k));
		snprintf(age, sizeof(age), "%s_%s", name,
			 k == CL_BACKLOG_DIFFERENCES ? "run_age_seconds" : "oldest_age_seconds");
		for (int i = 0; i < 2; i++) {
			const char *n = i ? age : name;

			help(f, "gauge", n, help_text[k][i]);
			if (!b->read || b->none) {
				/* never a false 0 */
				fprintf(f, "# %s: not read: ", n);
				comment(f, b->read ? "no reconcile run yet" : b->why);
				continue;
			}
			series(s, sizeof(s), n, t, "tenant", t->tenant ? t->tenant : "");
			sample(f, s, i ? (double)b->oldest_seconds : (double)b->count);
		}
	}
}

int cl_ingest_write_metrics(const char *path, const struct cl_ingest_totals *t, char *why,
			    size_t cap)
{
	static const char *const record_outcomes[] = { "new", "duplicate", "conflict", "invalid" };
	const unsigned long long records[] = { t->records_new, t->records_duplicate,
					       t->records_conflict, t->records_invalid };
	char tmp[4200], s[4096];
	char *prev = previous_file(path);
	double success;
	FILE *f;
	bool ok;

	series(s, sizeof(s), M "last_success_timestamp_seconds", t, NULL, NULL);
	success = t->exit_status == 0 ? (double)t->started : previous_value(prev, s);
	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid());
	f = fopen(tmp, "w");
	if (!f) {
		snprintf(why, cap, "cannot write %s: %s", tmp, strerror(errno));
		free(prev);
		return -1;
	}
	/* counters: since the metrics file was made (it is their memory) */
	help(f, "counter", M "runs_total", "Ingest runs of this inbox.");
	counter(f, prev, t, "runs_total", NULL, NULL, 1);
	help(f, "counter", M "files_total",
	     "Files the runs finished with, by outcome (a file still arriving counts at each "
	     "run that leaves it).");
	for (int o = 0; o < CL_INGEST_NOUTCOMES; o++)
		counter(f, prev, t, "files_total", "outcome",
			cl_ingest_outcome_name((enum cl_ingest_outcome)o), (double)t->files[o]);
	help(f, "counter", M "records_total", "Records of the files loaded, by what became of them.");
	for (int i = 0; i < 4; i++)
		counter(f, prev, t, "records_total", "outcome", record_outcomes[i],
			(double)records[i]);
	/* the last run */
	gauge(f, "files", "Files the last run finished with, by outcome.");
	for (int o = 0; o < CL_INGEST_NOUTCOMES; o++)
		value(f, t, "files", "outcome", cl_ingest_outcome_name((enum cl_ingest_outcome)o),
		      (double)t->files[o]);
	gauge(f, "files_not_ready", "Files the last run left because they were not ready.");
	value(f, t, "files_not_ready", NULL, NULL, (double)t->not_ready);
	gauge(f, "records", "Records of the files the last run loaded, by what became of them.");
	for (int i = 0; i < 4; i++)
		value(f, t, "records", "outcome", record_outcomes[i], (double)records[i]);
	gauge(f, "last_run_timestamp_seconds", "When the last run started (Unix time).");
	value(f, t, "last_run_timestamp_seconds", NULL, NULL, (double)t->started);
	gauge(f, "last_success_timestamp_seconds",
	      "When the last run that exited 0 started (Unix time; 0: never).");
	value(f, t, "last_success_timestamp_seconds", NULL, NULL, success);
	gauge(f, "duration_seconds", "How long the last run took.");
	value(f, t, "duration_seconds", NULL, NULL, t->seconds);
	gauge(f, "oldest_ready_file_age_seconds",
	      "Age of the oldest ready file the last run found (0: none).");
	value(f, t, "oldest_ready_file_age_seconds", NULL, NULL, t->oldest_ready_age);
	gauge(f, "exit_status", "The last run's exit status.");
	value(f, t, "exit_status", NULL, NULL, (double)t->exit_status);
	/* what waits for a person, from the database */
	backlog(f, t);
	free(prev);
	ok = fflush(f) == 0 && !ferror(f);
	if (fclose(f) != 0 || !ok || rename(tmp, path) != 0) {
		snprintf(why, cap, "cannot write %s: %s", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

/* ---- --on-event ---- */

static void set_num(const char *name, unsigned long long v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%llu", v);
	setenv(name, buf, 1);
}

/* In the child: its own process group (so that the wait limit ends the
 * shell and everything it started), the facts, then the shell. */
static void exec_event(const char *command, const struct cl_ingest_event *ev)
{
	int null = open("/dev/null", O_RDONLY);

	setpgid(0, 0);
	if (null >= 0) {
		dup2(null, STDIN_FILENO);
		close(null);
	}
	setenv("CL_EVENT", ev->event, 1);
	setenv("CL_FILE", ev->file, 1);
	setenv("CL_ARCHIVED", ev->archived ? ev->archived : "", 1);
	setenv("CL_TENANT", ev->tenant, 1);
	if (ev->load_id)
		set_num("CL_LOAD_ID", (unsigned long long)ev->load_id);
	else
		setenv("CL_LOAD_ID", "", 1);
	setenv("CL_LOAD_UUID", ev->load_uuid ? ev->load_uuid : "", 1);
	setenv("CL_REASON", ev->reason ? ev->reason : "", 1);
	set_num("CL_RECORDS", ev->records);
	set_num("CL_NEW", ev->new_count);
	set_num("CL_DUPLICATE", ev->duplicate_count);
	set_num("CL_CONFLICT", ev->conflict_count);
	set_num("CL_INVALID", ev->invalid_count);
	set_num("CL_EXIT_STATUS", (unsigned long long)ev->exit_status);
	execl("/bin/sh", "sh", "-c", command, (char *)NULL);
	_exit(127);
}

int cl_ingest_run_event(const char *command, const struct cl_ingest_event *ev, unsigned limit,
			char *why, size_t cap)
{
	sigset_t chld, old;
	struct timespec deadline, now;
	pid_t pid;
	int status;

	fflush(NULL); /* the child must not write our buffers again */
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, &old);
	pid = fork();
	if (pid < 0) {
		snprintf(why, cap, "cannot start it: %s", strerror(errno));
		sigprocmask(SIG_SETMASK, &old, NULL);
		return -1;
	}
	if (pid == 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		exec_event(command, ev);
	}
	setpgid(pid, pid); /* as the child does: whichever runs first */
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += limit;
	for (;;) {
		struct timespec left;
		pid_t w = waitpid(pid, &status, WNOHANG);

		if (w == pid)
			break;
		clock_gettime(CLOCK_MONOTONIC, &now);
		left.tv_sec = deadline.tv_sec - now.tv_sec;
		left.tv_nsec = deadline.tv_nsec - now.tv_nsec;
		if (left.tv_nsec < 0) {
			left.tv_sec--;
			left.tv_nsec += 1000000000L;
		}
		if (left.tv_sec < 0 ||
		    (sigtimedwait(&chld, NULL, &left) < 0 && errno == EAGAIN)) {
			kill(-pid, SIGKILL);
			waitpid(pid, &status, 0);
			sigprocmask(SIG_SETMASK, &old, NULL);
			snprintf(why, cap, "killed after %u s (the wait limit)", limit);
			return -1;
		}
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	snprintf(why, cap, "ended by signal %d", WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	return -1;
}
