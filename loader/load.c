/* load.c - the per-file load / diff pipeline (see load.h). */
#include "loader/load.h"
#include "loader/load_int.h"

#include <signal.h>
#include <stdarg.h>
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/text.h"
#include "gen/loader_sql.h"
#include "loader/schema.h"
#include "loader/failpoint.h"
#include "loader/interrupt.h"
#include "loader/statement_load.h"

/*
 * One transaction per file: the load row, the staged records, the journal
 * and the new records commit together (the stages: load_int.h).  A
 * deadlock, a serialization failure or a key applied by a concurrent
 * loader between classification and insert rolls the attempt back (nothing
 * committed) and the whole file is tried again, in key order (apply.c).
 */

const char *cl_outcome_name(enum cl_outcome o)
{
	switch (o) {
	case CL_OUTCOME_NONE: return "diff";
	case CL_OUTCOME_COMMITTED: return "committed";
	case CL_OUTCOME_REJECTED: return "rejected";
	case CL_OUTCOME_HELD: return "held";
	case CL_OUTCOME_QUARANTINED: return "quarantined";
	case CL_OUTCOME_UNKNOWN: return "unknown";
	case CL_OUTCOME_FAILED: return "failed";
	case CL_OUTCOME_INCOMPLETE: return "incomplete";
	case CL_OUTCOME_UNSUPPORTED: return "unsupported";
	}
	return "unknown";
}

const char *cl_action_name(enum cl_action a)
{
	switch (a) {
	case CL_ACTION_NEW: return "new";
	case CL_ACTION_DUPLICATE: return "duplicate";
	case CL_ACTION_CONFLICT: return "conflict";
	case CL_ACTION_INVALID: return "invalid";
	}
	return "invalid";
}

static double elapsed(const struct load *L)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - L->t0.tv_sec) + (double)(t.tv_nsec - L->t0.tv_nsec) / 1e9;
}

static void note(struct load *L, const char *fmt, ...) CL_PRINTF(2, 3);
static void note(struct load *L, const char *fmt, ...)
{
	struct cl_error e;
	char msg[CL_MSGTEXT_MAX];
	va_list ap;

	if (!L->h->on_note)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	cl_error_set(&e, cl_input_name(L->in), 0, "note", "%s", msg);
	L->h->on_note(L->h->ctx, &e);
}


/* ---- the clearing_load row ---- */

/* The file name as clearing_load stores it: a text column holds only
 * valid UTF-8, so a byte of a name that is not (a Latin-1 name on a Linux
 * file system) is stored as \xNN, and a note says so.  Returns buf. */
static const char *stored_name(struct load *L, char *buf, size_t cap)
{
	if (cl_text_escape(cl_input_name(L->in), buf, cap, CL_ESC_INVALID))
		note(L, "the file name is not valid UTF-8: stored as \"%s\" (each byte that is not "
			"UTF-8 as \\xNN)", buf);
	return buf;
}

/* The attempt's load_id, and the settings the classification reads. */
static enum cl_db_status take_load_id(struct load *L)
{
	const char *p[2];
	PGresult *res;
	enum cl_db_status st;

	st = cl_db_exec(L->db, CL_SQL_LOAD_TAKE_ID, 0, NULL, &res, &L->r->err);
	if (st != CL_DB_OK)
		return st;
	snprintf(L->load_id, sizeof(L->load_id), "%s", PQgetvalue(res, 0, 0));
	PQclear(res);
	p[0] = L->o->tenant;
	p[1] = L->load_id;
	/* COPY takes no parameters: the classification queries read these */
	st = cl_db_exec(L->db, CL_SQL_LOAD_SET_CONTEXT, 2, p, &res, &L->r->err);
	if (st != CL_DB_OK)
		return st;
	L->row_security = strcmp(PQgetvalue(res, 0, 2), "t") == 0;
	L->stage_nonce = strtoll(PQgetvalue(res, 0, 3), NULL, 10);
	PQclear(res);
	return CL_DB_OK;
}

/* The attempt's clearing_load row with its outcome, its one write of the
 * load history. */
static enum cl_db_status insert_load_row(struct load *L, const char *outcome)
{
	struct cl_load_result *r = L->r;
	char name[4 * 1024];
	char size[24], recs[24], nnew[24], ndup[24], ncon[24], ninv[24], retries[16];
	const char *p[20];

	snprintf(size, sizeof(size), "%llu", r->bytes);
	snprintf(recs, sizeof(recs), "%lu", r->records);
	snprintf(nnew, sizeof(nnew), "%lu", r->new_count);
	snprintf(ndup, sizeof(ndup), "%lu", r->duplicate_count);
	snprintf(ncon, sizeof(ncon), "%lu", r->conflict_count);
	snprintf(ninv, sizeof(ninv), "%lu", r->invalid_count);
	snprintf(retries, sizeof(retries), "%u", r->retries);
	p[0] = L->load_id;
	p[1] = r->load_uuid;
	p[2] = L->o->tenant;
	p[3] = stored_name(L, name, sizeof(name));
	p[4] = size;
	p[5] = r->sha256[0] ? r->sha256 : NULL;
	p[6] = L->stage.info.format_name[0] ? L->stage.info.format_name : NULL;
	p[7] = L->stage.info.message_type[0] ? L->stage.info.message_type : NULL;
	p[8] = L->stage.info.sender[0] ? L->stage.info.sender : NULL;
	p[9] = L->stage.info.receiver[0] ? L->stage.info.receiver : NULL;
	p[10] = L->stage.info.created[0] ? L->stage.info.created : NULL;
	p[11] = L->stage.info.file_id[0] ? L->stage.info.file_id : NULL;
	p[12] = recs;
	p[13] = nnew;
	p[14] = ndup;
	p[15] = ncon;
	p[16] = ninv;
	p[17] = outcome;
	p[18] = r->reason[0] ? r->reason : NULL;
	p[19] = retries;
	return cl_db_exec(L->db, CL_SQL_LOAD_INSERT_ROW, 20, p, NULL, &r->err);
}

/* A rejected file: its own small transaction records the attempt. */
static void record_rejected(struct load *L)
{
	struct cl_load_result *r = L->r;
	enum cl_db_status st;

	r->outcome = CL_OUTCOME_REJECTED;
	r->new_count = r->duplicate_count = r->conflict_count = 0;
	cl_db_rollback(L->db);
	if (L->o->dry_run)
		return;
	if ((st = cl_load_exec0(L, CL_SQL_DB_BEGIN)) == CL_DB_OK &&
	    (st = take_load_id(L)) == CL_DB_OK && (st = insert_load_row(L, "rejected")) == CL_DB_OK &&
	    (st = cl_load_exec0(L, CL_SQL_DB_COMMIT)) == CL_DB_OK) {
		r->load_id = strtoll(L->load_id, NULL, 10);
		return;
	}
	cl_db_rollback(L->db);
	/* the file is still rejected; the missing row is a database problem */
	r->load_id = 0;
}

enum cl_db_status cl_load_exec_commutative(struct load *L, const char *sql, int nparams,
					   const char *const *params, unsigned long *rows)
{
	enum cl_db_status st;
	PGresult *res;

	if ((st = cl_load_exec0(L, CL_SQL_STAGE_COMMUTATIVE_CITUS)) != CL_DB_OK ||
	    (st = cl_db_exec(L->db, sql, nparams, params, &res, &L->r->err)) != CL_DB_OK)
		return st;
	if (rows)
		*rows = strtoul(PQcmdTuples(res), NULL, 10);
	PQclear(res);
	return cl_load_exec0(L, CL_SQL_STAGE_COMMUTATIVE_DEFAULT_CITUS);
}

/* A direct load's views of its records dropped before its COMMIT; on
 * Citus, this load's rows of the distributed stage deleted then
 * (stage.sql, stage_empty_citus): written and deleted in one
 * transaction, no other session ever sees them; a load that dies first
 * leaves only rows of an aborted transaction, which no one sees either. */
static enum cl_db_status empty_stage(struct load *L)
{
	const char *p[1] = { L->load_id };
	enum cl_db_status st;

	if (L->direct) /* no stage: its views (stage.sql, stage_direct_drop) */
		return cl_load_exec0(L, CL_SQL_STAGE_DIRECT_DROP);
	if (!L->db->citus || L->family->stage != cl_stage_file)
		return CL_DB_OK;
	if ((st = cl_load_exec_commutative(L, CL_SQL_STAGE_EMPTY_CITUS, 1, p, NULL)) != CL_DB_OK ||
	    (L->stage.has_alt && (st = cl_load_exec_commutative(L, CL_SQL_STAGE_ALT_EMPTY_CITUS, 1,
								  p, NULL)) != CL_DB_OK))
		return st;
	if (!L->stage_matched)
		return CL_DB_OK;
	return cl_load_exec_commutative(L, CL_SQL_STAGE_MATCH_EMPTY_CITUS, 1, p, NULL);
}

/* A rejected file whose readable records are staged: they are parked
 * (show finds them: "seen in rejected load 12, line 40") with the load row,
 * in the attempt's transaction; on any failure, the attempt alone. */
static void park_rejected(struct load *L)
{
	struct cl_load_result *r = L->r;

	if (L->o->dry_run || !L->rejected_staged) {
		record_rejected(L);
		return;
	}
	r->outcome = CL_OUTCOME_REJECTED;
	r->new_count = r->duplicate_count = r->conflict_count = 0;
	if (cl_load_exec0(L, CL_SQL_EXPLAIN_PARK_REJECTED) == CL_DB_OK &&
	    empty_stage(L) == CL_DB_OK && insert_load_row(L, "rejected") == CL_DB_OK &&
	    cl_load_exec0(L, CL_SQL_DB_COMMIT) == CL_DB_OK) {
		r->load_id = strtoll(L->load_id, NULL, 10);
		return;
	}
	record_rejected(L);
}

/* The load's commit number for the feed (013_feed.sql), the last thing
 * before COMMIT: the lock it takes serialises only this and the COMMIT. */
static enum cl_db_status feed_commit(struct load *L)
{
	char n[24];
	const char *p[3] = { L->load_id, L->o->tenant, n };
	enum cl_db_status st = cl_load_exec0(L, CL_SQL_LOAD_FEED_LOCK);

	snprintf(n, sizeof(n), "%lu", L->r->new_count);
	if (st != CL_DB_OK)
		return st;
	return cl_db_exec(L->db, CL_SQL_LOAD_FEED_COMMIT, 3, p, NULL, &L->r->err);
}

/* Hold an advisory lock on the load UUID for the whole transaction, so
 * that `clearing-load loads --uuid` can tell "still committing" from
 * "never committed" after a lost connection (see cl_history_lock_uuid). */
static enum cl_db_status lock_uuid(struct load *L)
{
	const char *p[1] = { L->r->load_uuid };

	return cl_db_exec(L->db, CL_SQL_LOAD_LOCK_UUID, 1, p, NULL, &L->r->err);
}

/* Fewer journal rows written than classified: an administrator's trigger
 * or rule dropped some.  Nothing is applied. */
static enum cl_db_status journal_short(struct load *L, unsigned long written, unsigned long want,
				       const char *what)
{
	cl_error_set(&L->r->err, cl_input_name(L->in), 0, "internal",
		     "%lu %s journaled, classification found %lu: nothing applied "
		     "(does a trigger or rule on clearing_dedupe_event drop rows?)",
		     written, what, want);
	return CL_DB_ERROR;
}

/* The journal rows of this attempt (pg_temp.cl_event) appended to the
 * journal once: the journal is append-only, so a held file's duplicates
 * are left out here rather than deleted later.  On Citus the exact-key
 * join's plain duplicates are not in cl_event but beside their staged
 * records (classify.c, clearing_stage_match): appended from there, on the
 * workers.  Each write must add as many rows as classification counted:
 * cl_event holds a row per conflict and near duplicate, and per duplicate
 * but those left on the workers. */
static enum cl_db_status write_journal(struct load *L, bool duplicates)
{
	const char *p[1] = { duplicates ? "true" : "false" };
	unsigned long want = L->r->conflict_count, written = 0;
	enum cl_db_status st;
	PGresult *res;

	if (L->r->duplicate_count + L->r->conflict_count == 0)
		return CL_DB_OK;
	if (!duplicates && L->journaled_duplicates) {
		cl_error_set(&L->r->err, cl_input_name(L->in), 0, "internal",
			     "%lu duplicates journaled for a held file: nothing applied",
			     L->journaled_duplicates);
		return CL_DB_ERROR;
	}
	if (duplicates)
		want += L->r->duplicate_count - L->unjournaled_duplicates -
			L->journaled_duplicates;
	/* (on Citus its count is the statement's one row: the rows it
	   inserted, RETURNING's) */
	st = cl_db_exec(L->db, L->db->citus ? CL_SQL_LOAD_WRITE_JOURNAL_CITUS : CL_SQL_LOAD_WRITE_JOURNAL,
			1, p, &res, &L->r->err);
	if (st != CL_DB_OK)
		return st;
	written = strtoul(L->db->citus ? PQgetvalue(res, 0, 0) : PQcmdTuples(res), NULL, 10);
	PQclear(res);
	if (written != want)
		return journal_short(L, written, want, "records");
	if (!duplicates || !L->unjournaled_duplicates)
		return CL_DB_OK;
	if ((st = cl_load_exec_commutative(L, CL_SQL_LOAD_WRITE_DUPLICATES_CITUS, 0, NULL,
					   &written)) != CL_DB_OK)
		return st;
	if (written != L->unjournaled_duplicates)
		return journal_short(L, written, L->unjournaled_duplicates, "duplicates");
	return CL_DB_OK;
}

/* The reason of a held or quarantined load, for `loads` at 3 a.m.: the
 * conflicts (same key, other content) and the near duplicates (the same
 * payment under another key) named apart. */
static void conflict_reason(struct load *L, const char *what)
{
	struct cl_load_result *r = L->r;
	unsigned long near = L->near_count, same = r->conflict_count - L->near_count;
	char a[96] = "", b[112] = "";

	if (same)
		snprintf(a, sizeof(a), "%lu conflicting record%s (same key, different content)",
			 same, same == 1 ? "" : "s");
	if (near)
		snprintf(b, sizeof(b), "%lu near duplicate%s (the same payment under another key)",
			 near, near == 1 ? "" : "s");
	snprintf(r->reason, sizeof(r->reason), "%s%s%s: %s", a, same && near ? " and " : "", b,
		 what);
}

/* ---- one attempt at the whole file ---- */

/* A file none of whose sampled keys is applied (a day's new file, the
 * common case) is taken for new, to savepoint cl_new: classified without
 * the exact-key probes, the unique index's check on insert being that
 * probe, so the index is descended once a record instead of twice.  Its
 * records go in after the classification (inserted from the stage) or,
 * for a file the first read found fit (stage.c, decision 0058), before it
 * (COPYed straight into clearing_record, the stage a view of them: the
 * near-duplicate question is asked before, or the file's own records
 * would answer it).  L->applied when the file went in whole; else (a
 * conflict or near duplicate journaled, or CL_DB_RETRY with 23505: an
 * applied key the sample did not ask about) the caller undoes it to the
 * savepoint. */
static enum cl_db_status copy_and_classify(struct load *L)
{
	enum cl_db_status st;

	if ((st = cl_load_exec0(L, CL_SQL_LOAD_SAVEPOINT_NEW)) != CL_DB_OK)
		return st;
	if (L->direct) {
		if ((st = cl_stage_copy_records(L)) != CL_DB_OK)
			return st;
		CL_FAILPOINT("direct_copied", L->db->conn);
	}
	if ((st = cl_classify(L, true)) != CL_DB_OK)
		return st;
	CL_FAILPOINT("after_journal", L->db->conn);
	if (L->r->conflict_count)
		return CL_DB_OK;
	if (!L->direct && (st = cl_apply_new(L)) != CL_DB_OK)
		return st;
	L->applied = true;
	return CL_DB_OK;
}

/* A large new file's near-duplicate probe, when it can, runs on a second
 * connection while the records are COPYed (near_side.c, decision 0059). */
static enum cl_db_status take_for_new(struct load *L)
{
	enum cl_db_status st;

	if (L->direct && (st = cl_classify_ask_near(L)) != CL_DB_OK)
		return st;
	/* (the originator locks are held: classify_file) */
	if (L->direct && L->direct_near_wanted)
		cl_near_side_start(L);
	st = copy_and_classify(L);
	cl_near_side_close(L);
	return st;
}

/* A staged file classified in full.  On Citus its exact-key join first
 * writes its matches straight into the journal (classify.c, decision
 * 0061), after a savepoint: a conflict among them, or a file then held (a
 * held file keeps no duplicate), undoes that to the savepoint and the file
 * is classified again with the matches kept beside the stage, as before. */
static enum cl_db_status classify_in_full(struct load *L)
{
	struct cl_load_result *r = L->r;
	enum cl_db_status st;

	L->journal_at_join = L->db->citus && !L->o->dry_run;
	if (L->journal_at_join && (st = cl_load_exec0(L, CL_SQL_CLASSIFY_SAVEPOINT_CITUS)) != CL_DB_OK)
		return st;
	st = cl_classify(L, false);
	if (st != CL_DB_OK || !L->journal_at_join)
		return st;
	if (!L->classify_again && !(L->journaled_duplicates && r->conflict_count &&
				    L->o->on_conflict == CL_ON_CONFLICT_HOLD))
		return CL_DB_OK;
	CL_FAILPOINT("classify_again", L->db->conn);
	L->journal_at_join = false;
	if ((st = cl_load_exec0(L, CL_SQL_CLASSIFY_ROLLBACK_CITUS)) != CL_DB_OK)
		return st;
	return cl_classify(L, false);
}

/* The file's records against the applied ones (classify.c), after the
 * originator locks: taken for new when its sample says so, and whatever
 * says otherwise undone to the savepoint and the file classified in full,
 * in the same transaction (a file not staged is staged first).  A retry
 * (another load applied keys of ours meanwhile) is always classified in
 * full. */
static enum cl_db_status classify_file(struct load *L)
{
	struct cl_load_result *r = L->r;
	enum cl_db_status st;
	bool new_file = false;

	L->applied = false;
	if ((st = cl_classify_lock_originators(L)) != CL_DB_OK ||
	    (st = cl_classify_citus_settings(L)) != CL_DB_OK)
		return st;
	/* Columnar storage (init --columnar, 045) is not taken for new: the
	   records inserted before a rollback to the savepoint leave index
	   entries the storage cannot skip later in the transaction ("could
	   not find the row in stripe", Citus 13.2).  Classified in full, its
	   records go in once, after; a failed insert retries the whole file.
	   The sample, which only says whether a file is new, is not asked
	   where the session found columnar storage (on Citus a shard's
	   planner, with the statistics of before a load, read its whole
	   tenant for it: 98 s of a million-record re-upload's 114 s); a table
	   converted since the session began is found below. */
	bool columnar = false;

	if (!L->ordered_path && r->records && !L->db->columnar &&
	    (st = cl_classify_sample(L, &new_file)) != CL_DB_OK)
		return st;

	if (new_file && (st = cl_schema_is_columnar(L->db, &columnar, &r->err)) != CL_DB_OK)
		return st;
	if (new_file && !columnar) {
		st = take_for_new(L);
		if (st == CL_DB_OK && L->applied)
			return CL_DB_OK;
		if (st != CL_DB_OK && !(st == CL_DB_RETRY && strcmp(r->err.sqlstate, "23505") == 0))
			return st;
		if ((st = cl_load_exec0(L, CL_SQL_LOAD_ROLLBACK_NEW)) != CL_DB_OK)
			return st;
		memset(&r->err, 0, sizeof(r->err));
	}
	if (L->direct && (st = cl_stage_file(L, true)) != CL_DB_OK)
		return st;
	if ((st = classify_in_full(L)) != CL_DB_OK)
		return st;
	CL_FAILPOINT("after_journal", L->db->conn);
	return r->conflict_count ? cl_explain_conflicts(L) : CL_DB_OK;
}

/* The records classified with the file (a new file's), else now. */
static enum cl_db_status apply_file(struct load *L)
{
	return L->applied ? CL_DB_OK : cl_apply_new(L);
}

/* A clearing file's journal rows; a held file's are written without its
 * duplicates, and its records that would have been applied are parked
 * then (explain.c), the journal rows telling them apart. */
static enum cl_db_status journal_file(struct load *L, bool duplicates)
{
	enum cl_db_status st = write_journal(L, duplicates);

	return st == CL_DB_OK && !duplicates ? cl_explain_park_held(L) : st;
}

/* Clearing files: stage.c, plan.c, classify.c, apply.c. */
static const struct cl_family_ops clearing_family = {
	.stage = cl_stage_file,
	.plan = cl_plan,
	.classify = classify_file,
	.apply = apply_file,
	.journal = journal_file,
	.feed = true,
};

static enum cl_db_status attempt(struct load *L, bool rewind)
{
	struct cl_load_result *r = L->r;
	enum cl_db_status st;
	const char *outcome;

	CL_FAILPOINT_REARM(); /* a new attempt */
	r->reason[0] = '\0';
	r->new_count = r->duplicate_count = r->conflict_count = 0;
	L->in_commit = false;
	L->quiet = false;
	L->direct = false; /* the family's stage says (stage.c, direct_fit) */
	L->near_count = 0;
	/* diff writes nothing (no load row, stage or journal rows: plan.c),
	   so it runs for a role that may only SELECT, in a read-only
	   transaction and on a hot standby, and takes no lock a load waits
	   for (no originator locks either: a dry run whose plan is streamed
	   to a slow, or stopped, reader must never hold up real loads; its
	   near-duplicate answer is a prediction anyway) */
	if (L->o->dry_run && L->family->plan)
		st = cl_load_exec0(L, CL_SQL_PLAN_BEGIN);
	/* work_mem: the exact-key join hashes the file's keys; at the
	   server's default (4 MB) a million keys spill to 16 batches on disk
	   (0.3-0.5 s more).  For this transaction only. */
	else if ((st = cl_load_exec0(L, CL_SQL_DB_BEGIN)) == CL_DB_OK &&
		 (st = cl_load_exec0(L, CL_SQL_LOAD_WORK_MEM)) == CL_DB_OK &&
		 (st = lock_uuid(L)) == CL_DB_OK)
		st = take_load_id(L);
	if (st != CL_DB_OK)
		return st;
	CL_FAILPOINT("after_load_row", L->db->conn);
	st = L->family->stage(L, rewind);
	if (st != CL_DB_OK)
		return st;
	if (r->invalid_count && L->incomplete && L->o->defer_incomplete) {
		cl_db_rollback(L->db);
		r->outcome = CL_OUTCOME_INCOMPLETE;
		return CL_DB_OK;
	}
	if (r->invalid_count && L->unsupported) {
		/* not a clearing file: not an attempt at one either */
		cl_db_rollback(L->db);
		r->outcome = CL_OUTCOME_UNSUPPORTED;
		return CL_DB_OK;
	}
	if (r->invalid_count) {
		park_rejected(L);
		return CL_DB_OK;
	}
	if (L->h->on_read)
		L->h->on_read(L->h->ctx, r->records);
	if (L->o->dry_run && L->family->plan) {
		if ((st = L->family->plan(L)) != CL_DB_OK)
			return st;
		cl_db_rollback(L->db);
		r->outcome = CL_OUTCOME_NONE;
		return CL_DB_OK;
	}
	st = L->family->classify(L);
	if (st != CL_DB_OK)
		return st;
	if (L->o->dry_run) {
		/* the diff of a family without a plan (a statement's): its
		   counts, from a transaction rolled back (it stages and
		   journals like a load: not on a standby) */
		cl_db_rollback(L->db);
		r->outcome = CL_OUTCOME_NONE;
		return CL_DB_OK;
	}
	if (r->conflict_count && L->o->on_conflict == CL_ON_CONFLICT_HOLD) {
		/* nothing is applied; the attempt and its conflicts are kept */
		conflict_reason(L, "file held, nothing applied");
		if (L->family->journal && (st = L->family->journal(L, false)) != CL_DB_OK)
			return st;
		r->outcome = CL_OUTCOME_HELD;
		outcome = "held";
	} else {
		if (L->h->on_phase)
			L->h->on_phase(L->h->ctx, "applying");
		st = L->family->apply(L);
		if (st != CL_DB_OK)
			return st;
		CL_FAILPOINT("after_insert", L->db->conn);
		if (r->conflict_count) {
			conflict_reason(L, "quarantined");
			r->outcome = CL_OUTCOME_QUARANTINED;
			outcome = "quarantined";
		} else {
			r->outcome = CL_OUTCOME_COMMITTED;
			outcome = "committed";
		}
		if (L->family->journal && (st = L->family->journal(L, true)) != CL_DB_OK)
			return st;
	}
	if (L->h->on_phase)
		L->h->on_phase(L->h->ctx, "committing");
	/* a held file applied nothing: no commit number (its new records are
	   parked, and clearing_take_feed_commit refuses a load without any) */
	if ((st = empty_stage(L)) != CL_DB_OK || (st = insert_load_row(L, outcome)) != CL_DB_OK ||
	    (r->new_count && L->family->feed && r->outcome != CL_OUTCOME_HELD &&
	     (st = feed_commit(L)) != CL_DB_OK))
		return st;
	st = cl_load_commit(L);
	if (st == CL_DB_OK) {
		r->load_id = strtoll(L->load_id, NULL, 10);
		CL_FAILPOINT("after_commit", L->db->conn);
	}
	return st;
}

static void fail(struct load *L, enum cl_outcome o)
{
	L->r->outcome = o;
	L->r->load_id = 0;
	if (!L->r->reason[0])
		snprintf(L->r->reason, sizeof(L->r->reason), "%.511s", L->r->err.message);
}

/* A load refused with insufficient_privilege (42501), rolled back: when
 * row-level security is why (the tenant is none the role may see), say
 * so, and which --tenant-access mends it (else db.c's grant hint stands). */
static void explain_row_security(struct load *L)
{
	struct cl_error ignored;
	char denies[8];
	const char *role;

	if (!L->db->conn || PQstatus(L->db->conn) != CONNECTION_OK ||
	    PQtransactionStatus(L->db->conn) != PQTRANS_IDLE ||
	    cl_db_value(L->db, CL_SQL_LOAD_ROW_SECURITY_DENIES, 1, &L->o->tenant, denies,
			sizeof(denies), &ignored) != CL_DB_OK ||
	    strcmp(denies, "t") != 0)
		return;
	role = PQuser(L->db->conn);
	cl_error_detail(&L->r->err, "row-level security is on and role \"%s\" may not see tenant "
				    "\"%s\"", role, L->o->tenant);
	cl_error_hint(&L->r->err, "the schema's owner runs 'clearing-load init --tenant-access "
				  "%s=%s' (or gives it to a role %s is a member of)",
		      role, L->o->tenant, role);
}

void cl_load_file(struct cl_db *db, const char *path, const struct cl_load_opts *opts,
		  const struct cl_load_hooks *hooks, struct cl_load_result *res)
{
	struct load L;
	struct cl_error e;
	enum cl_db_status st;
	unsigned max = opts->max_retries ? opts->max_retries : CL_DB_MAX_RETRIES;

	memset(res, 0, sizeof(*res));
	memset(&L, 0, sizeof(L));
	L.db = db;
	L.o = opts;
	L.h = hooks;
	L.r = res;
	L.path = path;
	clock_gettime(CLOCK_MONOTONIC, &L.t0);
	if (!cl_uuid_v4(res->load_uuid)) {
		cl_error_set(&res->err, path, 0, "random", "could not generate a load UUID");
		fail(&L, CL_OUTCOME_FAILED);
		goto out;
	}
	if (cl_input_open_spooled(path, &L.in, &e) != CL_OK) {
		/* no file to load (gone since the command line was checked,
		   unreadable): nothing was attempted, so no load row */
		hooks->on_error(hooks->ctx, &e);
		res->invalid_count = 1;
		res->unreadable = true;
		res->outcome = CL_OUTCOME_REJECTED;
		snprintf(res->reason, sizeof(res->reason), "%.511s", e.message);
		goto out;
	}
	if (!db->conn || PQstatus(db->conn) != CONNECTION_OK) {
		/* an earlier file lost the connection: one new try */
		cl_db_close(db);
		if (cl_db_connect(db, db->conninfo, &res->err) != CL_DB_OK) {
			fail(&L, CL_OUTCOME_FAILED);
			goto out;
		}
	}
	L.family = cl_statement_detect(&L) ? &cl_statement_family : &clearing_family;
	for (;;) {
		st = attempt(&L, res->retries > 0);
		if (st == CL_DB_OK)
			break;
		cl_db_rollback(L.db);
		if (cl_interrupt_signal() && !L.in_commit) {
			int sig = cl_interrupt_signal();

			cl_error_set(&res->err, NULL, 0, "interrupted",
				     "interrupted by %s: rolled back, nothing from this file was applied",
				     sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal");
			res->err.sqlstate[0] = '\0';
			res->reason[0] = '\0';
			fail(&L, CL_OUTCOME_FAILED);
			break;
		}
		if (st == CL_DB_RETRY && res->retries < max && db->conn) {
			res->retries++;
			L.ordered_path = true;
			note(&L, "%s: nothing was committed, retrying the whole file (retry %u)",
			     res->err.message, res->retries);
			continue;
		}
		if (st == CL_DB_ERROR && strcmp(res->err.code, "file_changed") == 0 &&
		    opts->defer_incomplete) {
			res->outcome = CL_OUTCOME_INCOMPLETE;
			break;
		}
		if (st == CL_DB_ERROR && strcmp(res->err.code, "file_changed") == 0) {
			/* nothing applied; the attempt is recorded */
			hooks->on_error(hooks->ctx, &res->err);
			res->invalid_count = 1;
			snprintf(res->reason, sizeof(res->reason), "%.511s", res->err.message);
			record_rejected(&L);
			break;
		}
		if (st == CL_DB_ERROR && strncmp(res->err.sqlstate, "22", 2) == 0 && db->conn &&
		    PQstatus(db->conn) == CONNECTION_OK) {
			/* a data exception: the server refused a value of this
			   file that the parser let through (a CSV date that does
			   not exist, say): the file is invalid, not the database;
			   nothing was applied */
			struct cl_error refused = res->err;

			refused.file = cl_input_name(L.in);
			hooks->on_error(hooks->ctx, &refused);
			res->invalid_count = 1;
			snprintf(res->reason, sizeof(res->reason),
				 "the database refused a value of this file: %.400s", refused.message);
			record_rejected(&L);
			break;
		}
		if (st == CL_DB_LOST && L.in_commit) {
			/* lost around COMMIT and unreachable: the third outcome */
			fail(&L, CL_OUTCOME_UNKNOWN);
			break;
		}
		if (strcmp(res->err.sqlstate, "42501") == 0)
			explain_row_security(&L);
		fail(&L, CL_OUTCOME_FAILED);
		break;
	}
out:
	res->seconds = elapsed(&L);
	cl_input_free(L.in);
	cl_stage_release(&L.stage);
}


enum cl_db_status cl_load_record_archive(struct cl_db *db, long long load_id, const char *path,
					 struct cl_error *err)
{
	char id[24], stored[4 * 1024];
	const char *p[2] = { id, stored };

	/* a text column holds only UTF-8: a byte of the path that is not
	   (a Latin-1 name) is stored as \xNN, as the load row's file name */
	(void)cl_text_escape(path, stored, sizeof(stored), CL_ESC_INVALID);
	snprintf(id, sizeof(id), "%lld", load_id);
	return cl_db_exec(db, CL_SQL_LOAD_RECORD_ARCHIVE, 2, p, NULL, err);
}
