/*
 * load_int.h - what the stages of the load pipeline share.  The module's
 * interface is load.h; this header is for loader/load.c and its stages
 * only, which call one way:
 *
 *   load.c      one file: the load row, the attempts, the outcome, the
 *    |           journal rows appended once the outcome is known
 *    |-> stage.c     read the file: every record into cl_stage, the
 *    |               in-file checks (a key twice, a payment twice); a
 *    |               new NACHA file read first alone, then COPYed
 *    |               straight into clearing_record (decision 0058)
 *    |-> classify.c  originator locks; duplicates, conflicts and near
 *    |               duplicates against applied records, as the load's
 *    |               journal rows (cl_event); what the exact keys left,
 *    |               as cl_pending
 *    |-> explain.c   the fields each conflict differs in; quarantine
 *    |-> plan.c      diff: every record's fate, by the same rules,
 *    |               writing nothing (stage.c stages nothing for it)
 *    |-> apply.c     the new records from cl_pending into clearing_record
 *    '-> commit.c    COMMIT and the third outcome
 *
 * Each stage keeps its own part of struct load (the members under its
 * name); the statements are sql/loader/<stage>.sql (gen/loader_sql.h).
 */
#ifndef CL_LOAD_INT_H
#define CL_LOAD_INT_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "loader/db.h"
#include "loader/key_sample.h"
#include "loader/load.h"
#include "parsers/parser.h"
#include "rules/trace_ranges.h"

/* What stage.c learnt of the file while staging it, for the locks and
 * checks after it. */
struct load_stage {
	struct cl_file_info info;  /* what the file said about itself */
	char first_sha[65];        /* SHA-256 of the first attempt's read */
	unsigned long first_records; /* records of the first attempt */
	/* the originators (company ids) of the file's ACH entries, for the
	   near-duplicate locks; a growable array, sorted before use */
	char (*companies)[11];
	size_t ncompanies, companies_cap;
	bool companies_overflow;   /* too many to lock one by one */
	/* per-originator trace runs: may the file hold a re-dated copy of
	   one of its own entries? */
	struct cl_trace_ranges traces;
	bool has_alt;              /* some record has an alt_key (record.h) */
	struct cl_key_sample sample; /* of the staged keys, for cl_classify_sample */
	unsigned long nreturns;    /* ach.return and ach.noc records */
};

/* The state of one file. */
struct load {
	struct cl_db *db;
	const struct cl_load_opts *o;
	const struct cl_load_hooks *h;
	struct cl_load_result *r;  /* counts and outcome, filled by the stages */
	const char *path;
	struct cl_input *in;       /* spooled: each attempt reads it once */
	char load_id[24];          /* of the current attempt, as text */
	int64_t stage_nonce;       /* of the current attempt: Citus's shared
				      stage holds its rows under it (043) */
	struct timespec t0;
	struct load_stage stage;   /* stage.c */
	unsigned long near_count;  /* classify.c: conflicts that are near duplicates */
	bool pending_journaled;    /* classify.c: a record the exact-key join
	                              left pending was journaled after it */
	unsigned long unjournaled_duplicates; /* classify.c: on Citus, the
	                              exact-key join's plain duplicates, which
	                              have no row in cl_event: load.c
	                              journals them on the workers */
	bool stage_matched;        /* classify.c: on Citus, this attempt wrote
	                              rows of clearing_stage_match (load.c
	                              deletes them with the stage's) */
	bool journal_at_join;      /* load.c: on Citus, the exact-key join
	                              writes its matches into the journal */
	unsigned long journaled_duplicates; /* classify.c: the plain
	                              duplicates it so journaled */
	bool classify_again;       /* classify.c: it journaled a conflict,
	                              or fewer matches than the counts need:
	                              load.c undoes it and classifies again */
	const char *plan_near;     /* plan.c: the later rules diff tries, as */
	const char *plan_ach_key;  /* plan_set_rules' parameters (static text) */
	bool ordered_path;         /* apply.c: a retry inserts in key order */
	bool applied;              /* load.c: a file taken for new was inserted
	                              with its classification */
	bool unsupported;          /* stage.c: the file's only error says it is
	                              a message clearing-load does not load */
	bool rejected_staged;      /* stage.c: an invalid file's readable
				      records are in the stage (to park) */
	bool incomplete;           /* stage.c: an error says the file ends
	                              early (it may still be arriving) */
	const struct cl_family_ops *family; /* how its kind of file is loaded */
	bool direct;               /* stage.c: a first read found the file
	                              fit to be read straight into
	                              clearing_record (cl_stage_copy_records,
	                              decision 0058): not staged unless the
	                              load falls back to it (load.c) */
	bool direct_near_wanted;   /* classify.c: before a direct copy, had the
	                              tenant applied ACH records (a near-
	                              duplicate search worth it)? */
	struct cl_db near_side;    /* near_side.c: the second connection,
	                              open while its probe runs (conn NULL:
	                              none) */
	bool row_security;         /* load.c: row-level security is active
	                              on clearing_record for this role (no
	                              COPY into it: not direct) */
	bool quiet;                /* stage.c: the next read reports no note
	                              or error (the first read's, or one after
	                              a read that reported them) */
	bool in_commit;            /* commit.c: COMMIT was sent, a lost
	                              connection now leaves the outcome to be
	                              found out */
};

/* A family of files (clearing files; the bank's statements and status
 * reports) and how the load pipeline (load.c) treats it: each step of an
 * attempt is the family's, chosen once when the file is detected. */
struct cl_family_ops {
	/* read the file into the stage (rewound on a retry): r->records,
	   r->bytes, r->sha256; r->invalid_count > 0 when it is invalid */
	enum cl_db_status (*stage)(struct load *L, bool rewind);
	/* diff's answer from a read-only transaction of its own (nothing
	   written, runs on a standby); NULL: diff stages and classifies as a
	   load does, in a transaction rolled back */
	enum cl_db_status (*plan)(struct load *L);
	/* r->duplicate_count, conflict_count, new_count */
	enum cl_db_status (*classify)(struct load *L);
	/* the new items stored; CL_DB_RETRY when a concurrent load stored
	   some first */
	enum cl_db_status (*apply)(struct load *L);
	/* the attempt's journal rows appended (duplicates too, or not: a
	   held file); NULL when classify wrote them */
	enum cl_db_status (*journal)(struct load *L, bool duplicates);
	bool feed; /* new items enter the feed (a commit number) */
};

/* One statement without parameters or result, in the load's transaction. */
static inline enum cl_db_status cl_load_exec0(struct load *L, const char *sql)
{
	return cl_db_exec(L->db, sql, 0, NULL, NULL, &L->r->err);
}

/* On Citus, one statement that writes or deletes only this load's own rows
 * (its stage's, its matches', its journal's) in more than one shard, run
 * commutative (stage.sql, stage_commutative_citus): Citus then takes no
 * shard lock another load waits on or holds.  *rows (when not NULL): the
 * rows it wrote or deleted. */
enum cl_db_status cl_load_exec_commutative(struct load *L, const char *sql, int nparams,
					   const char *const *params,
					   unsigned long *rows) CL_MUST_CHECK;

/* The hint of a file_changed error: what lets the load succeed. */
#define CL_LOAD_HINT_FILE_CHANGED                                                            \
	"load a file only once whoever writes it has finished (have it moved into place "  \
	"when complete, or load a copy), then load it again"

/* stage.c: read the file (rewound on a retry) into pg_temp.cl_stage (diff:
 * stage nothing, the in-file checks get the records as json):
 * r->records, r->bytes, r->sha256, L->stage; r->invalid_count > 0 (errors
 * reported through the hooks) when the file is invalid.  A retry that
 * reads other bytes than the first attempt is a file_changed error. */
enum cl_db_status cl_stage_file(struct load *L, bool rewind) CL_MUST_CHECK;
/* A file the first read found fit (L->direct) and the sample new: its
 * records COPYed straight into clearing_record, the stage a view of them
 * (stage.sql, stage_direct_view).  CL_DB_RETRY with sqlstate 23505 when a
 * key is applied already (the load falls back to staging the file). */
enum cl_db_status cl_stage_copy_records(struct load *L) CL_MUST_CHECK;
/* A parser on the rewound input (plan.c reads the file again). */
enum cl_status cl_stage_open_parser(struct load *L, struct cl_parser **p,
				    struct cl_error *err) CL_MUST_CHECK;
/* The next record of the file read again: CL_OK (*rec), CL_END, or the
 * error of a file that was valid when read the first time (it changed),
 * put in *err (L->r->err for the load's own reads; NULL: not kept, as on
 * near_side.c's second connection, which reports nothing).  Notes are
 * skipped: they were reported the first time. */
enum cl_status cl_stage_reread(struct cl_parser *p, const struct cl_record **rec,
			       struct cl_error *err) CL_MUST_CHECK;
/* After a parser's CL_END: the rest of the input read, so that its
 * SHA-256 is final. */
void cl_stage_drain(struct load *L);
void cl_stage_release(struct load_stage *s);

/* near_side.c (decision 0059): a file taken for new and read straight
 * into clearing_record (L->direct) of at least CL_NEAR_SIDE_MIN records,
 * of a tenant with ACH records, on one server (not Citus): its
 * near-duplicate probe on a second connection, sent once the originator
 * locks are held and run while the first connection COPYs the records.
 * Best effort: when the second connection cannot be opened or fails,
 * classify.c probes after the COPY, as for a smaller file. */
#define CL_NEAR_SIDE_MIN 20000
void cl_near_side_start(struct load *L);
/* Its answer, waited for: true when no record has a near duplicate (the
 * probe after the COPY is then spared); false when one has, or no answer
 * came.  The second connection is closed. */
bool cl_near_side_clear(struct load *L);
/* The second connection closed, its probe cancelled if still running
 * (safe when none is open). */
void cl_near_side_close(struct load *L);

/* classify.c */
enum cl_db_status cl_classify_lock_originators(struct load *L) CL_MUST_CHECK;
/* On a Citus database (db.h), for the rest of the transaction: the
 * probes' joins as nested loops of index probes on the workers too
 * (classify.sql, classify_citus_propagate); after the stage's own checks.
 * Elsewhere nothing. */
enum cl_db_status cl_classify_citus_settings(struct load *L) CL_MUST_CHECK;
/* On Citus, the pending records (a view of the distributed stage) copied
 * into a temporary table of the same name, for the statements that join
 * them with this load's journal rows (classify.sql,
 * classify_pending_local_citus); nothing elsewhere or when done. */
enum cl_db_status cl_classify_pending_local(struct load *L) CL_MUST_CHECK;
/* Before a file is copied straight into the records (L->direct): has the
 * tenant applied ACH records?  Afterwards its own would answer yes: the
 * near-duplicate probes then read L->direct_near_wanted. */
enum cl_db_status cl_classify_ask_near(struct load *L) CL_MUST_CHECK;
/* Does the sample of the staged keys (key_sample.h) find none applied?
 * Then *new_file: the file is taken for new (load.c). */
enum cl_db_status cl_classify_sample(struct load *L, bool *new_file) CL_MUST_CHECK;
/* r->duplicate_count, conflict_count, new_count; L->near_count.  With
 * assume_new, no exact-key probes: every staged record is pending (the
 * alternate-key and near-duplicate probes still run). */
enum cl_db_status cl_classify(struct load *L, bool assume_new) CL_MUST_CHECK;

/* explain.c: name the differing fields of each conflict in its journal
 * row; with --on-conflict=quarantine park the conflicting records. */
enum cl_db_status cl_explain_conflicts(struct load *L) CL_MUST_CHECK;
/* A held file's other records (those it would have applied) parked, on
 * one server and on Citus: after its journal rows are written, which tell
 * them apart (load.c, journal_file). */
enum cl_db_status cl_explain_park_held(struct load *L) CL_MUST_CHECK;

/* plan.c: the columns of clearing_record into a's column map */
struct cl_row_array;
enum cl_db_status cl_plan_columns(struct load *L, struct cl_row_array *a) CL_MUST_CHECK;

/* plan.c: diff's classification of every record (r->duplicate_count,
 * conflict_count, new_count; L->near_count), reported through
 * hooks->on_plan when set; reads the file again, writes nothing */
enum cl_db_status cl_plan(struct load *L) CL_MUST_CHECK;

/* apply.c: the new records (pending, without a journal row) into
 * clearing_record; CL_DB_RETRY when another load applied one meanwhile
 * in a way that needs classifying again. */
enum cl_db_status cl_apply_new(struct load *L) CL_MUST_CHECK;

/* commit.c: COMMIT; CL_DB_OK (maybe learnt after a lost connection),
 * CL_DB_RETRY (it rolled back) or CL_DB_LOST (outcome unknown) */
enum cl_db_status cl_load_commit(struct load *L) CL_MUST_CHECK;

#endif
