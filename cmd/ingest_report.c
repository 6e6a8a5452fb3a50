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

/* The previous file's last success time for this inbox, or 0. */
static double previous_success(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[4096];
	double t = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, M "last_success_timestamp_seconds", strlen(M) + 30) == 0) {
			char *sp = strrchr(line, ' ');

			if (sp)
				t = strtod(sp + 1, NULL);
		}
	fclose(f);
	return t;
}

static void gauge(FILE *f, const char *name, const char *help)
{
	fprintf(f, "# HELP " M "%s %s\n# TYPE " M "%s gauge\n", name, help, name);
}

static void value(FILE *f, const struct cl_ingest_totals *t, const char *name,
		  const char *extra_label, const char *extra_value, double v)
{
	fprintf(f, M "%s{inbox=\"", name);
	label(f, t->inbox);
	fputc('"', f);
	if (extra_label) {
		fprintf(f, ",%s=\"", extra_label);
		label(f, extra_value);
		fputc('"', f);
	}
	/* counts and Unix times as integers, durations to the millisecond */
	if (v == (double)(long long)v)
		fprintf(f, "} %lld\n", (long long)v);
	else
		fprintf(f, "} %.3f\n", v);
}

int cl_ingest_write_metrics(const char *path, const struct cl_ingest_totals *t, char *why,
			    size_t cap)
{
	char tmp[4200];
	double success = t->exit_status == 0 ? (double)t->started : previous_success(path);
	FILE *f;
	bool ok;

	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid());
	f = fopen(tmp, "w");
	if (!f) {
		snprintf(why, cap, "cannot write %s: %s", tmp, strerror(errno));
		return -1;
	}
	gauge(f, "files", "Files the last run finished with, by outcome.");
	for (int o = 0; o < CL_INGEST_NOUTCOMES; o++)
		value(f, t, "files", "outcome", cl_ingest_outcome_name((enum cl_ingest_outcome)o),
		      (double)t->files[o]);
	gauge(f, "files_not_ready", "Files the last run left because they were not ready.");
	value(f, t, "files_not_ready", NULL, NULL, (double)t->not_ready);
	gauge(f, "records", "Records of the files the last run loaded, by what became of them.");
	value(f, t, "records", "outcome", "new", (double)t->records_new);
	value(f, t, "records", "outcome", "duplicate", (double)t->records_duplicate);
	value(f, t, "records", "outcome", "conflict", (double)t->records_conflict);
	value(f, t, "records", "outcome", "invalid", (double)t->records_invalid);
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
