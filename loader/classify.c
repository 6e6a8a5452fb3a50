/* classify.c - a load's staged records against the tenant's applied ones:
 * duplicates, conflicts and near duplicates, as journal rows written in
 * the database (pg_temp.cl_event, appended to the journal by load.c once
 * the outcome is known).  The statements are sql/loader/classify.sql. */
#include "loader/load_int.h"

#include <inttypes.h>
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/loader_sql.h"
#include "loader/failpoint.h"
#include "loader/interrupt.h"

/* ---- near duplicates and concurrency: originator locks ---- */

/*
 * A near duplicate has another key than the record it copies, so the unique
 * index cannot stop two concurrent loaders from applying both dates of one
 * payment.  ACH loaders therefore take a transaction-scoped advisory lock
 * per (tenant, originator) of the file before classifying: two loads that
 * share an originator run one after the other (the second sees the first's
 * records), loads of other originators run in parallel.  Locks are taken
 * in one global order (sorted company ids, after a shared tenant lock), so
 * they cannot deadlock; since ACH entry keys contain the originator, two
 * such loaders never wait on each other's rows either.  A file of too many
 * originators (stage.c) takes one exclusive tenant-wide lock instead.
 */

static int cmp_company(const void *a, const void *b)
{
	return strcmp(a, b);
}

enum cl_db_status cl_classify_lock_originators(struct load *L)
{
	struct load_stage *s = &L->stage;
	const char *p[2] = { L->o->tenant, NULL };
	bool wide = s->companies_overflow;
	enum cl_db_status st;
	size_t i;

	if (s->nreturns) {
		/* returns and NOCs have no originator in their near identity:
		   one lock per tenant for the files that carry them, so a
		   return file and its re-dated copy loaded at once run one
		   after the other */
		st = cl_db_exec(L->db, CL_SQL_CLASSIFY_LOCK_RETURNS, 1, p, NULL, &L->r->err);
		if (st != CL_DB_OK)
			return st;
	}
	if (s->has_alt) {
		/* one lock per tenant for the files with alternate keys: two
		   loads of one payment in its two forms (with and without UETR)
		   run one after the other, the second sees the first */
		st = cl_db_exec(L->db, CL_SQL_CLASSIFY_LOCK_ALT_KEY, 1, p, NULL, &L->r->err);
		if (st != CL_DB_OK)
			return st;
	}
	if (!s->ncompanies)
		return CL_DB_OK;
	st = cl_db_exec(L->db, wide ? CL_SQL_CLASSIFY_LOCK_TENANT : CL_SQL_CLASSIFY_LOCK_TENANT_SHARED,
			1, p, NULL, &L->r->err);
	if (st != CL_DB_OK || wide)
		return st;
	qsort(s->companies, s->ncompanies, sizeof(s->companies[0]), cmp_company);
	for (i = 0; i < s->ncompanies && st == CL_DB_OK; i++) {
		p[1] = s->companies[i];
		st = cl_db_exec(L->db, CL_SQL_CLASSIFY_LOCK_ORIGINATOR, 2, p, NULL, &L->r->err);
	}
	return st;
}

/* ---- classification ---- */

/* A journal row written by a statement that returns (ordinal, reason):
 * counted.  Only conflicts and near duplicates come back this way; plain
 * duplicates are counted by the exact statement's row count. */
static int on_classified(void *ctx, char **f, int nf)
{
	struct load *L = ctx;

	if (nf < 2 || !f[0] || !f[1] || strtoul(f[0], NULL, 10) == 0)
		return 0;
	if (strcmp(f[1], "near_duplicate") == 0)
		L->near_count++;
	if (strcmp(f[1], "duplicate") != 0)
		L->r->conflict_count++;
	return 0;
}

static bool all_matched(const struct load *L)
{
	return L->r->duplicate_count + L->r->conflict_count >= L->r->records;
}

/* A yes-or-no question; on Citus its form that takes the tenant as $1. */
static enum cl_db_status ask(struct load *L, const char *sql, const char *sql_citus, bool *yes)
{
	char got[8];
	const char *p[1] = { L->o->tenant };
	enum cl_db_status st = L->db->citus
		? cl_db_value(L->db, sql_citus, 1, p, got, sizeof(got), &L->r->err)
		: cl_db_value(L->db, sql, 0, NULL, got, sizeof(got), &L->r->err);

	*yes = st == CL_DB_OK && strcmp(got, "t") == 0;
	return st;
}

/* ACH near duplicates (rules/near.h) and the other ACH key rule, among the
 * pending records without a journal row; skipped when there is nothing to
 * look for (no ACH record staged, or a tenant without ACH records yet). */
static enum cl_db_status near_duplicates(struct load *L)
{
	bool batch = L->o->parse.ach_key == CL_ACH_KEY_BATCH;
	bool citus = L->db->citus;
	enum cl_db_status st;
	bool yes, spared;

	/* a file copied straight into the records (load.c) was asked
	   before its copy: its own records are the tenant's now */
	if (L->direct)
		yes = L->direct_near_wanted;
	else if ((st = ask(L, CL_SQL_CLASSIFY_NEAR_WANTED, CL_SQL_CLASSIFY_NEAR_WANTED_CITUS,
			   &yes)) != CL_DB_OK)
		return st;
	if (!yes)
		return CL_DB_OK;
	/* one statement on both (Citus: the distributed stage's pending
	   rows, classify_pending_citus); a new file's ran beside its COPY
	   when it could (near_side.c), and is not run again when it found
	   none */
	spared = L->direct && cl_near_side_clear(L);
	if (cl_interrupt_signal()) {
		/* (it came while the first connection waited for the second:
		   it cancelled no statement) */
		cl_error_set(&L->r->err, NULL, 0, "interrupted",
			     "interrupted while looking for near duplicates");
		return CL_DB_ERROR;
	}
	st = spared ? CL_DB_OK
		    : cl_copy_out(L->db, CL_SQL_CLASSIFY_NEAR, on_classified, L, &L->r->err);
	/* the other key rule: a v1 load looks only if the tenant ever loaded
	   under v1-batch (the rare mode); a v1-batch load always looks */
	if (st == CL_DB_OK && !batch)
		st = ask(L, CL_SQL_CLASSIFY_RULE_V1_WANTED, CL_SQL_CLASSIFY_RULE_V1_WANTED_CITUS,
			 &yes);
	if (st != CL_DB_OK || !(batch || yes))
		return st;
	if (!citus)
		return cl_copy_out(L->db, batch ? CL_SQL_CLASSIFY_RULE_BATCH : CL_SQL_CLASSIFY_RULE_V1,
				   on_classified, L, &L->r->err);
	/* Citus: the probe a co-located join of the distributed pending
	   records into cl_match, then the journaled ones left out on the
	   coordinator (the temporary journal rows are its own) */
	st = cl_load_exec0(L, batch ? CL_SQL_CLASSIFY_RULE_BATCH_CITUS : CL_SQL_CLASSIFY_RULE_V1_CITUS);
	if (st == CL_DB_OK)
		st = cl_copy_out(L->db, CL_SQL_CLASSIFY_MATCH_JOURNAL_CITUS, on_classified, L,
				 &L->r->err);
	return st;
}

/* One payment under another natural key (classify.sql, classify_alt).  On
 * Citus the pending records are staged again under their alternate keys,
 * in those keys' shards (migration 041), and each probes the applied
 * records' alternate keys of its shard into cl_match; the first match of
 * each pending record is journaled on the coordinator. */
static enum cl_db_status alternate_keys(struct load *L)
{
	enum cl_db_status st;

	if (!L->db->citus)
		return cl_copy_out(L->db, CL_SQL_CLASSIFY_ALT, on_classified, L, &L->r->err);
	if ((st = cl_load_exec_commutative(L, CL_SQL_CLASSIFY_ALT_STAGE_CITUS, 0, NULL, NULL)) !=
		    CL_DB_OK ||
	    (st = cl_load_exec0(L, CL_SQL_CLASSIFY_ALT_CITUS)) != CL_DB_OK)
		return st;
	return cl_copy_out(L->db, CL_SQL_CLASSIFY_MATCH_JOURNAL_CITUS, on_classified, L, &L->r->err);
}

static enum cl_db_status exact_matches_citus(struct load *L);

enum cl_db_status cl_classify_ask_near(struct load *L)
{
	/* (plan.sql's question: the tenant's applied ACH records) */
	return ask(L, CL_SQL_PLAN_NEAR_WANTED, CL_SQL_CLASSIFY_TENANT_NEAR_CITUS,
		   &L->direct_near_wanted);
}

/* Exact key matches: one INSERT ... SELECT writes the journal rows (no
 * RETURNING: a data-modifying statement's RETURNING rows are gathered in a
 * tuplestore before the first is sent, 0.9 s for a million matches); its
 * row count is the number of matches, and the conflicts among them are
 * read back through the partial index of migration 005. */
static enum cl_db_status exact_matches(struct load *L)
{
	unsigned long matched;
	enum cl_db_status st;
	PGresult *res;

	if (L->db->citus)
		return exact_matches_citus(L);
	if ((st = cl_db_exec(L->db, CL_SQL_CLASSIFY_EXACT, 0, NULL, &res, &L->r->err)) != CL_DB_OK)
		return st;
	matched = strtoul(PQcmdTuples(res), NULL, 10);
	PQclear(res);
	if (matched == 0)
		return CL_DB_OK;
	st = cl_copy_out(L->db, CL_SQL_CLASSIFY_CONFLICT_ROWS, on_classified, L, &L->r->err);
	if (st != CL_DB_OK)
		return st;
	if (L->r->conflict_count > matched) {
		cl_error_set(&L->r->err, cl_input_name(L->in), 0, "internal",
			     "the journal holds %lu conflicts for %lu matches: nothing applied",
			     L->r->conflict_count, matched);
		return CL_DB_ERROR;
	}
	L->r->duplicate_count = matched - L->r->conflict_count;
	return CL_DB_OK;
}

/* Exact key matches on Citus when the outcome will keep their duplicates
 * (load.c, classify_in_full; decision 0061): written straight into the
 * journal on the workers, each in its shard, nothing brought to the
 * coordinator or written twice.  A conflict among them (it must be
 * explained, parked or held on the coordinator, as on one server) asks
 * the caller to undo them and classify again (L->classify_again); the
 * journal's partial index of the rows that are not plain duplicates tells,
 * a probe per shard.  The statement commutes with every other load's:
 * its rows are this load's own. */
static enum cl_db_status exact_matches_journaled(struct load *L)
{
	unsigned long matched = 0;
	enum cl_db_status st;
	char attention[8];
	const char *p[1] = { L->load_id };

	if ((st = cl_load_exec_commutative(L, CL_SQL_CLASSIFY_EXACT_JOURNAL_CITUS, 0, NULL,
					   &matched)) != CL_DB_OK)
		return st;
	if (!matched)
		return CL_DB_OK;
	if ((st = cl_db_value(L->db, CL_SQL_CLASSIFY_EXACT_ATTENTION_CITUS, 1, p, attention,
			      sizeof(attention), &L->r->err)) != CL_DB_OK)
		return st;
	if (strcmp(attention, "f") != 0) {
		L->classify_again = true;
		return CL_DB_OK;
	}
	L->r->duplicate_count = L->journaled_duplicates = matched;
	return CL_DB_OK;
}

/* Exact key matches on Citus: written on the workers, beside their staged
 * records (classify.sql, classify_exact_citus, into clearing_stage_match);
 * the conflicts among them brought to the coordinator's journal rows, to
 * be explained, parked or held as on one server; the plain duplicates
 * left where they are: load.c journals them there when the outcome is
 * known (write_journal).  Both writes commute with every other load's
 * (cl_load_exec_commutative): their rows are this load's own. */
static enum cl_db_status exact_matches_citus(struct load *L)
{
	unsigned long matched = 0, conflicts;
	enum cl_db_status st;
	PGresult *res;
	char nonce[24];
	const char *p[1] = { nonce };

	if (L->journal_at_join)
		return exact_matches_journaled(L);
	snprintf(nonce, sizeof(nonce), "%" PRId64, L->stage_nonce);
	if ((st = cl_load_exec_commutative(L, CL_SQL_CLASSIFY_EXACT_CITUS, 1, p, &matched)) !=
	    CL_DB_OK)
		return st;
	L->stage_matched = matched != 0;
	if (!matched)
		return CL_DB_OK;
	if ((st = cl_db_exec(L->db, CL_SQL_CLASSIFY_EXACT_CONFLICTS_CITUS, 0, NULL, &res,
			     &L->r->err)) != CL_DB_OK)
		return st;
	conflicts = strtoul(PQcmdTuples(res), NULL, 10);
	PQclear(res);
	if (conflicts &&
	    (st = cl_copy_out(L->db, CL_SQL_CLASSIFY_CONFLICT_ROWS, on_classified, L, &L->r->err)) !=
		    CL_DB_OK)
		return st;
	if (L->r->conflict_count != conflicts || conflicts > matched) {
		cl_error_set(&L->r->err, cl_input_name(L->in), 0, "internal",
			     "%lu conflicts written, %lu read back, of %lu matches: nothing applied",
			     conflicts, L->r->conflict_count, matched);
		return CL_DB_ERROR;
	}
	L->r->duplicate_count = matched - conflicts;
	L->unjournaled_duplicates = L->r->duplicate_count;
	return CL_DB_OK;
}

/* On Citus, the pending records as copies in the distributed stage
 * (classify.sql, classify_pending_citus): those with no applied record of
 * their key, a statement after the exact-key one.  A key another load
 * committed in between would be neither journaled nor pending: then the
 * counts do not add up and the file is classified again from scratch, as
 * after any race the unique index reports (23505: load.c retries).  When
 * the join journaled its matches (decision 0061), the count it returned is
 * of journal rows written, and a trigger that drops one looks the same as
 * a race: the shortfall undoes the join's rows and the file is classified
 * the way that counts matches apart from journal rows (classify_again),
 * which tells the two apart (write_journal's count, or this race). */
static enum cl_db_status make_pending_citus(struct load *L)
{
	unsigned long pending = 0, matched = L->r->duplicate_count + L->r->conflict_count;
	enum cl_db_status st;

	if ((st = cl_load_exec_commutative(L, CL_SQL_CLASSIFY_PENDING_CITUS, 0, NULL, &pending)) !=
	    CL_DB_OK)
		return st;
	if (pending + matched != L->r->records) {
		if (L->journaled_duplicates) {
			L->classify_again = true;
			return CL_DB_OK;
		}
		cl_error_set(&L->r->err, cl_input_name(L->in), 0, "race",
			     "%lu records matched, %lu pending, of %lu: another load applied keys "
			     "of this file meanwhile",
			     matched, pending, L->r->records);
		snprintf(L->r->err.sqlstate, sizeof(L->r->err.sqlstate), "23505");
		return CL_DB_RETRY;
	}
	return cl_load_exec0(L, CL_SQL_CLASSIFY_PENDING_VIEW_CITUS);
}

/* The staged records the exact-key join did not match, as cl_pending: a
 * table of them, or, when it matched none, a view of the whole stage. */
static enum cl_db_status make_pending(struct load *L)
{
	enum cl_db_status st;

	if (L->r->duplicate_count + L->r->conflict_count == 0)
		return cl_load_exec0(L, CL_SQL_CLASSIFY_PENDING_ALL);
	if (L->db->citus)
		return make_pending_citus(L);
	if ((st = cl_load_exec0(L, CL_SQL_CLASSIFY_PENDING_NO_NESTLOOP)) != CL_DB_OK ||
	    (st = cl_load_exec0(L, CL_SQL_CLASSIFY_PENDING)) != CL_DB_OK ||
	    (st = cl_load_exec0(L, CL_SQL_CLASSIFY_PENDING_NESTLOOP_DEFAULT)) != CL_DB_OK)
		return st;
	return cl_load_exec0(L, CL_SQL_CLASSIFY_PENDING_ANALYZE);
}

enum cl_db_status cl_classify_pending_local(struct load *L)
{
	return L->db->citus ? cl_load_exec0(L, CL_SQL_CLASSIFY_PENDING_LOCAL_CITUS) : CL_DB_OK;
}

enum cl_db_status cl_classify_citus_settings(struct load *L)
{
	enum cl_db_status st;

	if (!L->db->citus)
		return CL_DB_OK;
	if ((st = cl_load_exec0(L, CL_SQL_CLASSIFY_CITUS_PROPAGATE)) != CL_DB_OK ||
	    (st = cl_load_exec0(L, CL_SQL_CLASSIFY_CITUS_NO_HASHJOIN)) != CL_DB_OK ||
	    (st = cl_load_exec0(L, CL_SQL_CLASSIFY_CITUS_NO_MERGEJOIN)) != CL_DB_OK ||
	    (st = cl_load_exec0(L, CL_SQL_CLASSIFY_CITUS_NO_JIT)) != CL_DB_OK)
		return st;
	return cl_load_exec0(L, CL_SQL_CLASSIFY_CITUS_NO_SEQSCAN);
}

enum cl_db_status cl_classify_sample(struct load *L, bool *new_file)
{
	struct cl_text_array kinds = { 0 }, keys = { 0 };
	char got[8];
	const char *p[3];
	enum cl_db_status st;

	CL_FAILPOINT("classify_sample", L->db->conn);
	/* on Citus the sampled records are read in the distributed stage by
	   their ordinals, each probed in its own shard (a co-located join),
	   or, for a file not staged (L->direct), their keys joined with the
	   records in every shard; on one server the keys are the probes'
	   outer side */
	if (L->db->citus && L->direct) {
		cl_key_sample_arrays(&L->stage.sample, &kinds, &keys);
		p[0] = L->o->tenant;
		p[1] = cl_text_array_text(&kinds);
		p[2] = cl_text_array_text(&keys);
		st = cl_db_value(L->db, CL_SQL_CLASSIFY_SAMPLE_KEYS_CITUS, 3, p, got, sizeof(got),
				 &L->r->err);
	} else if (L->db->citus) {
		cl_key_sample_ordinals(&L->stage.sample, &kinds);
		p[0] = cl_text_array_text(&kinds);
		st = cl_db_value(L->db, CL_SQL_CLASSIFY_SAMPLE_CITUS, 1, p, got, sizeof(got),
				 &L->r->err);
	} else {
		cl_key_sample_arrays(&L->stage.sample, &kinds, &keys);
		p[0] = cl_text_array_text(&kinds);
		p[1] = cl_text_array_text(&keys);
		st = cl_db_value(L->db, CL_SQL_CLASSIFY_SAMPLE, 2, p, got, sizeof(got), &L->r->err);
	}
	*new_file = st == CL_DB_OK && strcmp(got, "f") == 0;
	cl_text_array_free(&kinds);
	cl_text_array_free(&keys);
	return st;
}

enum cl_db_status cl_classify(struct load *L, bool assume_new)
{
	unsigned long exact_conflicts = 0;
	enum cl_db_status st;

	L->r->duplicate_count = L->r->conflict_count = 0;
	L->near_count = 0;
	L->pending_journaled = false;
	L->unjournaled_duplicates = 0;
	L->journaled_duplicates = 0;
	L->classify_again = false;
	L->stage_matched = false;
	if ((st = cl_load_exec0(L, CL_SQL_CLASSIFY_EVENT_CREATE)) != CL_DB_OK ||
	    (st = cl_load_exec0(L, CL_SQL_CLASSIFY_EVENT_INDEX)) != CL_DB_OK ||
	    (L->db->citus && (st = cl_load_exec0(L, CL_SQL_CLASSIFY_MATCH_CREATE_CITUS)) != CL_DB_OK))
		return st;
	/* a file taken for new skips the exact-key probes: its insert's
	   unique check finds any applied key instead (load.c) */
	st = assume_new ? CL_DB_OK : exact_matches(L);
	if (st == CL_DB_OK && L->classify_again)
		return CL_DB_OK;
	if (st == CL_DB_OK && !all_matched(L))
		st = make_pending(L);
	if (st == CL_DB_OK && L->classify_again)
		return CL_DB_OK;
	exact_conflicts = L->r->conflict_count;
	if (st == CL_DB_OK && L->stage.has_alt && !all_matched(L))
		st = alternate_keys(L);
	if (st == CL_DB_OK && !all_matched(L))
		st = near_duplicates(L);
	if (st != CL_DB_OK)
		return st;
	L->pending_journaled = L->r->conflict_count > exact_conflicts;
	L->r->new_count = L->r->records - L->r->duplicate_count - L->r->conflict_count;
	return CL_DB_OK;
}
