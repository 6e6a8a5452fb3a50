/* apply.c - the new records of a file, from its stage into clearing_record.
 *
 * New are the pending records (classify.c) without a journal row: one
 * INSERT ... SELECT in the database, nothing read back.  The unique index
 * on clearing_record is the arbiter: if a concurrent loader commits one of
 * "our" new keys after classification, the insert fails with 23505 (or two
 * loaders deadlock: 40P01).  Nothing has been committed, so the whole file is
 * rolled back and retried; the retry classifies that key as a duplicate
 * (or conflict).  A retry takes the ordered path: ON CONFLICT DO NOTHING
 * in one global key order (kind, natural_key), so contended loaders cannot
 * deadlock and make progress; a row it skips (a key committed
 * concurrently) is never dropped silently: it is journaled as a duplicate
 * in the same transaction, or, if its content differs, the attempt rolls
 * back and the next one holds (or quarantines) it as a conflict.  Columnar
 * storage (init --columnar) has no ON CONFLICT for a new row: there the
 * ordered path leaves out the keys committed meanwhile by a probe, and a
 * key another load has not yet committed fails it with 23505 (a retry).
 */
#include "loader/load_int.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/loader_sql.h"
#include "loader/schema.h"

struct raced {
	unsigned long dup, conflict;
};

static int on_raced(void *ctx, char **f, int nf)
{
	struct raced *x = ctx;

	if (nf < 2 || !f[0] || !f[1])
		return 0;
	if (strcmp(f[1], "duplicate") == 0)
		x->dup++;
	else
		x->conflict++;
	return 0;
}

/* The ordered path skipped `skipped` records: another loader committed
 * their keys after our classification (ON CONFLICT DO NOTHING waited for
 * it).  They are visible now: journal them as the classification would
 * have.  Duplicates keep this attempt going; a conflict, or a count that
 * does not add up, rolls the attempt back to be classified from scratch.
 * `probed`: on Citus, their matches are in cl_match already (columnar). */
static enum cl_db_status journal_raced(struct load *L, unsigned long skipped, bool probed)
{
	struct raced x = { 0, 0 };
	enum cl_db_status st;

	/* on Citus the probe is a co-located join writing cl_match (made
	   before the insert when `probed`), the journaled records left out
	   after, on the coordinator */
	if (L->db->citus && !probed)
		st = cl_load_exec0(L, CL_SQL_APPLY_RACED_MATCH_CITUS);
	else
		st = CL_DB_OK;
	if (st == CL_DB_OK)
		st = cl_copy_out(L->db,
				 L->db->citus ? CL_SQL_CLASSIFY_MATCH_JOURNAL_CITUS
					      : CL_SQL_APPLY_JOURNAL_RACED,
				 on_raced, &x, &L->r->err);
	if (st != CL_DB_OK)
		return st;
	if (x.conflict || x.dup != skipped) {
		cl_error_set(&L->r->err, cl_input_name(L->in), 0, "race",
			     "%lu records were applied by another load meanwhile, %lu with other "
			     "content",
			     skipped, x.conflict);
		snprintf(L->r->err.sqlstate, sizeof(L->r->err.sqlstate), "23505");
		return CL_DB_RETRY;
	}
	L->r->new_count -= skipped;
	L->r->duplicate_count += skipped;
	return CL_DB_OK;
}

/* On Citus, the alternate keys of the records this load applied into
 * their own shards (apply.sql, apply_alt_keys_citus), where the next
 * load's alternate-key probe finds them. */
static enum cl_db_status index_alt_keys(struct load *L)
{
	const char *p[1] = { L->load_id };

	if (!L->db->citus || !L->stage.has_alt)
		return CL_DB_OK;
	return cl_db_exec(L->db, CL_SQL_APPLY_ALT_KEYS_CITUS, 1, p, NULL, &L->r->err);
}

static enum cl_db_status insert_new(struct load *L);

enum cl_db_status cl_apply_new(struct load *L)
{
	enum cl_db_status st = insert_new(L);

	return st == CL_DB_OK && L->r->new_count ? index_alt_keys(L) : st;
}

/* The new records inserted: one INSERT ... SELECT, or the ordered path. */
static enum cl_db_status insert_new(struct load *L)
{
	unsigned long inserted;
	enum cl_db_status st;
	PGresult *res;

	if (L->r->new_count == 0)
		return CL_DB_OK;
	if (!L->ordered_path) {
		/* (on Citus a plain insert of the stage's view is one
		   INSERT ... SELECT per shard, on its worker) */
		if (L->pending_journaled && (st = cl_classify_pending_local(L)) != CL_DB_OK)
			return st;
		/* (on Citus those left out once some were journaled are the
		   coordinator's copy: the statement returns its count) */
		bool counted = L->pending_journaled && L->db->citus;

		st = cl_db_exec(L->db,
				counted		       ? CL_SQL_APPLY_INSERT_NEW_UNJOURNALED_CITUS
				: L->pending_journaled ? CL_SQL_APPLY_INSERT_NEW_UNJOURNALED
						       : CL_SQL_APPLY_INSERT_NEW,
				0, NULL, &res, &L->r->err);
		if (st != CL_DB_OK)
			return st;
		inserted = strtoul(counted ? PQgetvalue(res, 0, 0) : PQcmdTuples(res), NULL, 10);
		PQclear(res);
		if (inserted != L->r->new_count) {
			cl_error_set(&L->r->err, cl_input_name(L->in), 0, "internal",
				     "%lu new records inserted, classification found %lu: nothing "
				     "applied (does a trigger or rule on clearing_record drop rows?)",
				     inserted, L->r->new_count);
			return CL_DB_ERROR;
		}
		return CL_DB_OK;
	}
	/* (columnar storage, 045: asked here, on this rare path alone) */
	bool columnar;

	if ((st = cl_classify_pending_local(L)) != CL_DB_OK ||
	    (st = cl_schema_is_columnar(L->db, &columnar, &L->r->err)) != CL_DB_OK)
		return st;
	/* (columnar on Citus: the keys committed meanwhile probed first) */
	bool probed = columnar && L->db->citus;

	if (probed && (st = cl_load_exec0(L, CL_SQL_APPLY_RACED_MATCH_CITUS)) != CL_DB_OK)
		return st;
	st = cl_db_exec(L->db,
			probed	   ? CL_SQL_COLUMNAR_INSERT_NEW_ORDERED_CITUS
			: columnar ? CL_SQL_COLUMNAR_INSERT_NEW_ORDERED
				   : CL_SQL_APPLY_INSERT_NEW_ORDERED,
			0, NULL, &res, &L->r->err);
	if (st != CL_DB_OK)
		return st;
	inserted = strtoul(PQgetvalue(res, 0, 0), NULL, 10);
	PQclear(res);
	if (inserted == L->r->new_count)
		return probed ? cl_load_exec0(L, CL_SQL_COLUMNAR_MATCH_EMPTY) : CL_DB_OK;
	return journal_raced(L, L->r->new_count - inserted, probed);
}
