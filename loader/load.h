/*
 * load.h - load and diff one file: the per-record dedupe pipeline.
 *
 * One transaction per file, the file read once:
 *
 *   UUID (before BEGIN) -> BEGIN -> clearing_load row
 *   stage:    parse, COPY every record with all its columns into a
 *             temporary stage table; in-file checks (a key twice, one
 *             payment twice) in SQL over it
 *   classify: the stage against clearing_record on (tenant, kind,
 *             natural_key): same fingerprint = duplicate, other = conflict;
 *             alternate keys; ACH near duplicates by near_key; each an
 *             INSERT ... SELECT into the journal
 *   explain:  the differing fields of each conflict into its journal row;
 *             hold (nothing applied) or quarantine (clearing_quarantine,
 *             then apply the rest)
 *   apply:    INSERT ... SELECT the staged records without a journal row
 *             into clearing_record (the unique index is the arbiter)
 *   clearing_load row updated -> COMMIT (a lost COMMIT is resolved by the
 *             load UUID: the third outcome)
 *
 * diff runs the same pipeline up to the apply step, reports every record's
 * fate through hooks->on_plan, and rolls back.
 *
 * Nothing here prints: results come back in struct cl_load_result and
 * through the hooks.
 */
#ifndef CL_LOAD_H
#define CL_LOAD_H

#include <stdbool.h>
#include <stdint.h>

#include "base/money.h"
#include "base/record.h"
#include "loader/db.h"
#include "loader/uuid.h"
#include "parsers/parser.h"

enum cl_on_conflict {
	CL_ON_CONFLICT_HOLD = 0,   /* conflicts: apply nothing from the file */
	CL_ON_CONFLICT_QUARANTINE, /* park conflicting records, apply the rest */
};

enum cl_outcome {
	CL_OUTCOME_NONE = 0,     /* diff: nothing was meant to be committed */
	CL_OUTCOME_COMMITTED,    /* new records applied (maybe none) */
	CL_OUTCOME_REJECTED,     /* invalid file: nothing applied, attempt recorded */
	CL_OUTCOME_HELD,         /* conflicts: nothing applied, attempt and
	                            conflicts recorded */
	CL_OUTCOME_QUARANTINED,  /* conflicts parked, the rest applied */
	CL_OUTCOME_UNKNOWN,      /* COMMIT's result lost and the database
	                            unreachable: ask later by load UUID */
	CL_OUTCOME_FAILED,       /* a database error, or interrupted: rolled
	                            back, nothing applied (err says why) */
	CL_OUTCOME_INCOMPLETE,   /* opts->defer_incomplete and the file ends
	                            early or changed while read: nothing
	                            applied, no load row (it is still arriving) */
	CL_OUTCOME_UNSUPPORTED,  /* a well-formed message that is neither a
	                            clearing file nor a statement or status
	                            report (a camt.056): nothing applied, no
	                            load row */
};

/* "committed", "rejected", "held", "quarantined", "unknown", "failed",
 * "incomplete", "unsupported", "diff" */
const char *cl_outcome_name(enum cl_outcome o);

enum cl_action { CL_ACTION_NEW, CL_ACTION_DUPLICATE, CL_ACTION_CONFLICT, CL_ACTION_INVALID };
const char *cl_action_name(enum cl_action a); /* new, duplicate, conflict, invalid */

#define CL_DIFF_FIELDS_MAX 40 /* >= the COMPARED fields (test_fingerprint_fields) */
#define CL_VALUE_MAX 48

struct cl_field_diff {
	const char *field;        /* clearing_record column name; static */
	bool account;             /* an account number: mask when printing */
	char old_value[CL_VALUE_MAX]; /* as stored ("" = NULL) */
	char new_value[CL_VALUE_MAX]; /* from the file ("" = none) */
};

/* diff: the fate of one record (or one error of an invalid file). */
struct cl_plan_item {
	enum cl_action action;
	const char *reason;        /* "duplicate", "conflict", "near_duplicate";
	                              NULL for new and invalid */
	const struct cl_record *rec;   /* NULL for invalid */
	const struct cl_error *error;  /* invalid only */
	unsigned long ordinal;
	unsigned long position;
	/* the record it matched (duplicate, conflict) */
	long long matched_load_id;
	const char *matched_file;
	unsigned long matched_position;
	const char *matched_time;  /* when that load finished (ISO 8601) */
	const char *matched_key;   /* near duplicates: the other record's key */
	unsigned nfields;          /* conflicts: the fields that differ */
	struct cl_field_diff fields[CL_DIFF_FIELDS_MAX];
};

struct cl_load_hooks {
	void *ctx;
	/* a data error of the file (it will be rejected); required */
	void (*on_error)(void *ctx, const struct cl_error *err);
	/* a remark for verbose output (parser notes, retries); may be NULL */
	void (*on_note)(void *ctx, const struct cl_error *err);
	/* records read (and staged) so far; may be NULL; called every few
	   thousand records */
	void (*on_progress)(void *ctx, unsigned long records, uint64_t bytes);
	/* the file is read and valid: the database now compares (and applies)
	   its records, which may take longer than the reading; may be NULL */
	void (*on_read)(void *ctx, unsigned long records);
	/* after on_read, the server's next step begins: "applying" (the new
	   records), then "committing"; may be NULL */
	void (*on_phase)(void *ctx, const char *phase);
	/* diff only: each record's fate, in file order */
	void (*on_plan)(void *ctx, const struct cl_plan_item *item);
};

struct cl_load_opts {
	const char *tenant;        /* never NULL */
	enum cl_on_conflict on_conflict;
	bool dry_run;              /* diff */
	struct cl_parse_opts parse;
	unsigned max_retries;      /* whole-file retries; 0 = CL_DB_MAX_RETRIES (db.h) */
	bool defer_incomplete;     /* ingest, for a young file: one that ends
	                              early (truncated, empty) or changes while
	                              read is CL_OUTCOME_INCOMPLETE, not rejected */
};

struct cl_load_result {
	enum cl_outcome outcome;
	char load_uuid[CL_UUID_LEN];
	long long load_id;         /* 0 when no row was committed */
	char format[16];
	char message_type[32];
	char sha256[65];
	unsigned long long bytes;
	unsigned long records, new_count, duplicate_count, conflict_count, invalid_count;
	struct cl_money_totals money; /* the file's records' amounts per currency
	                                 (a clearing file; of the last attempt) */
	unsigned max_errors_stopped; /* N when reading stopped at --max-errors=N:
	                                invalid_count is a lower bound; else 0 */
	unsigned retries;          /* whole-file retries (deadlock, race, lost
	                              COMMIT that had rolled back) */
	bool resolved;             /* the outcome was learnt after a lost COMMIT */
	bool unreadable;           /* the file could not be opened (no load row) */
	double seconds;
	char reason[CL_MSGTEXT_MAX + 32]; /* rejected / held / failed: why */
	struct cl_error err;       /* failed / unknown: the database error */
};

/* Load (or, with opts->dry_run, diff) the file at `path` ("-" = standard
 * input, spooled so it can be read more than once).  `db` must be
 * connected; after a lost connection it is reconnected (or left closed).
 * Always fills `res`; the outcome says what happened. */
void cl_load_file(struct cl_db *db, const char *path, const struct cl_load_opts *opts,
		  const struct cl_load_hooks *hooks, struct cl_load_result *res);

/* ingest: load `load_id`'s file now lives at `path` (its own row in
 * clearing_load_archive, in a transaction of its own; bytes of the path
 * that are not UTF-8 stored as \xNN, as clearing_load.file_name). */
enum cl_db_status cl_load_record_archive(struct cl_db *db, long long load_id, const char *path,
					 struct cl_error *err) CL_MUST_CHECK;

#endif
