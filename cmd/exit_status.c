/* exit_status.c - what each exit code means, which wins, and which a
 * database error earns. */
#include "cmd/cli.h"

#include <stdio.h>
#include <string.h>

#include "loader/db.h"
#include "loader/interrupt.h"
#include "loader/load.h"

/* Most severe first (docs/design/0026-exit-status-ranking.md): what a person
 * must look at before anything else (an outcome unknown, a configuration
 * that fails every file, a refusal, held, quarantined and rejected files,
 * reconciliation differences) outranks "retry later", which outranks an
 * interruption (run again), which outranks what needs no one (a message
 * routed elsewhere, not found, usage, pending) and success.  A run that
 * held one file and found another still arriving must not look like a
 * transient failure: cron and the systemd unit take 75 as "the next run
 * retries". */
static const int severity[] = {
	CL_EXIT_UNKNOWN,     CL_EXIT_CONFIG,   CL_EXIT_DB,	   CL_EXIT_HELD,
	CL_EXIT_QUARANTINED, CL_EXIT_INVALID,  CL_EXIT_DIFFERENCES, CL_EXIT_TEMPFAIL,
	CL_EXIT_SIGNAL,	     CL_EXIT_UNSUPPORTED, CL_EXIT_NOT_FOUND, CL_EXIT_USAGE,
	CL_EXIT_PENDING,     CL_EXIT_OK,
};

static unsigned rank(int code)
{
	if (code > CL_EXIT_SIGNAL && code < CL_EXIT_SIGNAL + 64)
		code = CL_EXIT_SIGNAL;
	for (unsigned i = 0; i < sizeof(severity) / sizeof(severity[0]); i++)
		if (severity[i] == code)
			return i;
	return 0; /* not ours: keep it */
}

int cl_exit_worse(int a, int b)
{
	return rank(b) < rank(a) ? b : a;
}

int cl_exit_for_db_error(const struct cl_error *err)
{
	switch (cl_db_error_class(err)) {
	case CL_DB_CLASS_RETRYABLE:
		return CL_EXIT_TEMPFAIL;
	case CL_DB_CLASS_CONFIG:
		return CL_EXIT_CONFIG;
	case CL_DB_CLASS_REFUSED:
		break;
	}
	return CL_EXIT_DB;
}

int cl_exit_for_load(const struct cl_load_result *r)
{
	switch (r->outcome) {
	case CL_OUTCOME_NONE:
		if (r->conflict_count)
			return CL_EXIT_HELD;
		return r->new_count ? CL_EXIT_PENDING : CL_EXIT_OK;
	case CL_OUTCOME_COMMITTED:
		return CL_EXIT_OK;
	case CL_OUTCOME_REJECTED:
		return CL_EXIT_INVALID;
	case CL_OUTCOME_HELD:
		return CL_EXIT_HELD;
	case CL_OUTCOME_QUARANTINED:
		return CL_EXIT_QUARANTINED;
	case CL_OUTCOME_UNKNOWN:
		return CL_EXIT_UNKNOWN;
	case CL_OUTCOME_UNSUPPORTED:
		return CL_EXIT_UNSUPPORTED;
	case CL_OUTCOME_INCOMPLETE:
		return CL_EXIT_TEMPFAIL;
	case CL_OUTCOME_FAILED:
		break;
	}
	if (strcmp(r->err.code, "interrupted") == 0 && cl_interrupt_signal())
		return CL_EXIT_SIGNAL + cl_interrupt_signal();
	return cl_exit_for_db_error(&r->err);
}

static const char exit_table[] =
	"   0  success (diff: nothing would be applied)\n"
	"   1  diff: new records would be applied\n"
	"   2  usage error (also a missing file or a directory: no load recorded)\n"
	"   3  invalid file: nothing from it applied\n"
	"   4  held: conflicts, nothing from the file applied\n"
	"   5  the database refused the load: rolled back, nothing applied\n"
	"   6  outcome unknown: the load UUID is printed ('loads --uuid' tells)\n"
	"   7  not found (show; loads --uuid)\n"
	"   8  quarantined: the clean records applied, the conflicting ones parked\n"
	"   9  unsupported: a well-formed message that is not a clearing file\n"
	"  10  reconcile: differences (an entry unmatched theirs, or an exception)\n"
	"  75  retry later: database unreachable, connection lost before COMMIT,\n"
	"      a wait past the wait limit (EX_TEMPFAIL)\n"
	"  78  configuration: no schema, schema version mismatch, permission denied\n"
	"      (EX_CONFIG)\n"
	" 130  interrupted by SIGINT, 143 by SIGTERM: the file's transaction rolled back\n";

void cl_print_exit_table(FILE *f)
{
	fputs("Exit status (clearing-load(1) EXIT STATUS).  With several files the most\n"
	      "severe wins: ", f);
	for (size_t i = 0; i < sizeof(severity) / sizeof(severity[0]); i++) {
		if (i)
			fputs(", ", f);
		if (severity[i] == CL_EXIT_SIGNAL)
			fprintf(f, "%d/%d", CL_EXIT_SIGNAL + 2, CL_EXIT_SIGNAL + 15); /* SIGINT, SIGTERM */
		else
			fprintf(f, "%d", severity[i]);
	}
	fputs(".\n", f);
	fputs(exit_table, f);
}
