/* conflicts.c - list and resolve conflicts (conflicts.h; statements:
 * sql/loader/conflicts.sql). */
#include "loader/conflicts.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/record.h"
#include "base/xmalloc.h"
#include "gen/loader_sql.h"
#include "loader/uuid.h"
#include "rules/correction.h"

/* The columns of conflicts_list before the version's amount, currency
 * and accounts. */
#define LIST_CONFLICT_COLS 19

/* OIDs of int2, int4, int8 (pg_type.h is server-side) */
static bool integer_type(Oid t)
{
	return t == 20 || t == 21 || t == 23;
}

static const char *value_or_null(PGresult *res, int i, int c)
{
	return PQgetisnull(res, i, c) ? NULL : PQgetvalue(res, i, c);
}

/* Row i of the list into *c, with its changes: the rows of ch
 * (conflicts_changes: i + 1 in its first column, in order) from *next on
 * that are its; *next is left after them. */
static void fill(PGresult *res, int i, PGresult *ch, int *next, struct cl_conflict *c)
{
	c->ncols = LIST_CONFLICT_COLS;
	for (int k = 0; k < LIST_CONFLICT_COLS; k++) {
		c->cols[k].name = PQfname(res, k);
		c->cols[k].value = value_or_null(res, i, k);
		c->cols[k].account = false;
		c->cols[k].number = integer_type(PQftype(res, k));
	}
	c->amount_minor = value_or_null(res, i, LIST_CONFLICT_COLS);
	c->currency = value_or_null(res, i, LIST_CONFLICT_COLS + 1);
	c->naccounts = 0;
	for (int k = LIST_CONFLICT_COLS + 2; k < PQnfields(res) && c->naccounts < 3; k++)
		if (!PQgetisnull(res, i, k))
			c->accounts[c->naccounts++] = PQgetvalue(res, i, k);
	c->nchanges = 0;
	for (; *next < PQntuples(ch) && atoi(PQgetvalue(ch, *next, 0)) == i + 1; (*next)++) {
		struct cl_conflict_change *x;
		const struct cl_field *fd;
		int r = *next;

		if (c->nchanges == CL_CONFLICT_MAX_CHANGES)
			continue;
		x = &c->changes[c->nchanges++];
		x->field = PQgetvalue(ch, r, 1);
		x->old_value = value_or_null(ch, r, 2);
		x->new_value = value_or_null(ch, r, 3);
		fd = cl_field_by_name(x->field, strlen(x->field));
		x->account = fd && (fd->flags & CL_FF_ACCOUNT);
	}
}

enum cl_db_status cl_conflicts_list(struct cl_db *db, long long load_id, const char *tenant,
				    bool all, cl_conflict_fn fn, void *ctx, unsigned long *found,
				    struct cl_error *err)
{
	char id[24];
	const char *p[3] = { NULL, tenant, all ? "true" : "false" };
	PGresult *res, *ch;
	enum cl_db_status st;
	struct cl_conflict *c;
	struct cl_text_array loads = { 0 }, ords = { 0 };
	const char *cp[2];
	int n, next = 0;

	*found = 0;
	if (load_id) {
		snprintf(id, sizeof(id), "%lld", load_id);
		p[0] = id;
	}
	if ((st = cl_db_exec(db, CL_SQL_CONFLICTS_LIST, 3, p, &res, err)) != CL_DB_OK)
		return st;
	n = PQntuples(res);
	/* the changes of every conflict listed, in one statement */
	for (int i = 0; i < n; i++) {
		cl_text_array_add(&loads, PQgetvalue(res, i, 0));
		cl_text_array_add(&ords, PQgetvalue(res, i, 4));
	}
	cp[0] = cl_text_array_text(&loads);
	cp[1] = cl_text_array_text(&ords);
	if (n > 0 && (st = cl_db_exec(db, CL_SQL_CONFLICTS_CHANGES, 2, cp, &ch, err)) == CL_DB_OK) {
		c = cl_xmalloc(sizeof(*c));
		for (int i = 0; i < n; i++) {
			fill(res, i, ch, &next, c);
			fn(ctx, c);
			(*found)++;
		}
		free(c);
		PQclear(ch);
	}
	cl_text_array_free(&loads);
	cl_text_array_free(&ords);
	PQclear(res);
	return st;
}

/* ---- resolve ---- */


/* Which conflict: *ordinal and out->tenant, or outcome NOT_FOUND /
 * AMBIGUOUS. */
static enum cl_db_status find(struct cl_db *db, const char *load, long long ordinal,
			      long long line, struct cl_resolution *out, struct cl_error *err)
{
	char ord[24], ln[24];
	const char *p[3] = { load, NULL, NULL };
	PGresult *res;
	enum cl_db_status st;

	snprintf(ord, sizeof(ord), "%lld", ordinal);
	snprintf(ln, sizeof(ln), "%lld", line);
	if (ordinal)
		p[1] = ord;
	else
		p[2] = ln;
	if ((st = cl_db_exec(db, CL_SQL_CONFLICTS_FIND, 3, p, &res, err)) != CL_DB_OK)
		return st;
	if (PQntuples(res) == 0)
		out->outcome = CL_RESOLVE_NOT_FOUND;
	else if (PQntuples(res) > 1)
		out->outcome = CL_RESOLVE_AMBIGUOUS;
	else {
		out->ordinal = strtoll(PQgetvalue(res, 0, 0), NULL, 10);
		snprintf(out->tenant, sizeof(out->tenant), "%s", PQgetvalue(res, 0, 1));
	}
	PQclear(res);
	return CL_DB_OK;
}

/* Resolved before?  out->verdict and outcome ALREADY or OTHER. */
static enum cl_db_status resolved_before(struct cl_db *db, const char *load, const char *ord,
					 enum cl_verdict v, struct cl_resolution *out,
					 struct cl_error *err)
{
	const char *p[2] = { load, ord };
	PGresult *res;
	enum cl_db_status st;

	if ((st = cl_db_exec(db, CL_SQL_CONFLICTS_RESOLUTION, 2, p, &res, err)) != CL_DB_OK)
		return st;
	if (PQntuples(res)) {
		snprintf(out->verdict, sizeof(out->verdict), "%s", PQgetvalue(res, 0, 0));
		out->resolution_load_id = strtoll(PQgetvalue(res, 0, 1), NULL, 10);
		snprintf(out->correction_key, sizeof(out->correction_key), "%s",
			 PQgetvalue(res, 0, 2));
		out->outcome = strcmp(out->verdict, v == CL_VERDICT_ACCEPT ? "accepted"
									   : "dismissed") == 0
				       ? CL_RESOLVE_ALREADY
				       : CL_RESOLVE_OTHER;
	}
	PQclear(res);
	return CL_DB_OK;
}

/* The body of the transaction, after BEGIN. */
static enum cl_db_status resolve(struct cl_db *db, const char *load, long long ordinal,
				 long long line, enum cl_verdict v, const char *note,
				 struct cl_resolution *out, struct cl_error *err)
{
	bool accept = v == CL_VERDICT_ACCEPT;
	char ord[24], uuid[CL_UUID_LEN], reason[160], rl[24], m_load[24], m_ord[24];
	const char *p[9];
	PGresult *res;
	enum cl_db_status st;

	if ((st = find(db, load, ordinal, line, out, err)) != CL_DB_OK ||
	    out->outcome != CL_RESOLVE_DONE)
		return st;
	snprintf(ord, sizeof(ord), "%lld", out->ordinal);
	/* the tenant's exclusive lock: loads of the tenant and other
	   resolvers wait; then whatever resolved it meanwhile is seen */
	p[0] = out->tenant;
	if ((st = cl_db_exec(db, CL_SQL_CLASSIFY_LOCK_TENANT, 1, p, NULL, err)) != CL_DB_OK ||
	    (st = resolved_before(db, load, ord, v, out, err)) != CL_DB_OK ||
	    out->outcome != CL_RESOLVE_DONE)
		return st;
	p[0] = load;
	p[1] = ord;
	if ((st = cl_db_exec(db, CL_SQL_CONFLICTS_TARGET, 2, p, &res, err)) != CL_DB_OK)
		return st;
	if (PQntuples(res) == 0) {
		PQclear(res);
		out->outcome = CL_RESOLVE_NO_RECORD;
		return CL_DB_OK;
	}
	snprintf(m_load, sizeof(m_load), "%s", PQgetvalue(res, 0, 0));
	snprintf(m_ord, sizeof(m_ord), "%s", PQgetvalue(res, 0, 1));
	out->matched_load_id = strtoll(m_load, NULL, 10);
	out->matched_line = strtoll(PQgetvalue(res, 0, 2), NULL, 10);
	if (accept &&
	    !cl_correction_key(PQgetvalue(res, 0, 3), strtoul(PQgetvalue(res, 0, 4), NULL, 10) + 1,
			       out->correction_key, sizeof(out->correction_key))) {
		PQclear(res);
		cl_error_set(err, NULL, 0, "key_too_long",
			     "the correction's key would be longer than %zu bytes",
			     sizeof(out->correction_key) - 1);
		return CL_DB_ERROR;
	}
	for (int k = 5; k < 8; k++)
		if (!PQgetisnull(res, 0, k))
			snprintf(out->accounts[out->naccounts++], sizeof(out->accounts[0]), "%s",
				 PQgetvalue(res, 0, k));
	PQclear(res);

	if (!cl_uuid_v4(uuid)) {
		cl_error_set(err, NULL, 0, "random", "could not generate a load UUID");
		return CL_DB_ERROR;
	}
	snprintf(reason, sizeof(reason), "resolve: the conflict of load %s, ordinal %s, %s", load,
		 ord, accept ? "accepted as a correction" : "dismissed");
	p[0] = uuid;
	p[1] = load;
	p[2] = accept ? "1" : "0";
	p[3] = reason;
	if ((st = cl_db_value(db, CL_SQL_CONFLICTS_INSERT_LOAD, 4, p, rl, sizeof(rl), err)) !=
	    CL_DB_OK)
		return st;
	out->resolution_load_id = strtoll(rl, NULL, 10);
	if (accept) {
		p[0] = load;
		p[1] = ord;
		p[2] = rl;
		p[3] = out->correction_key;
		if ((st = cl_db_exec(db, CL_SQL_CONFLICTS_APPLY_CORRECTION, 4, p, NULL, err)) !=
			    CL_DB_OK ||
		    /* on Citus its alternate keys in their shards too */
		    (db->citus &&
		     (st = cl_db_exec(db, CL_SQL_APPLY_ALT_KEYS_CITUS, 1, &p[2], NULL, err)) != CL_DB_OK))
			return st;
	}
	p[0] = rl;
	p[1] = load;
	p[2] = ord;
	p[3] = accept ? "correction" : "dismissal";
	p[4] = accept ? out->correction_key : NULL;
	if ((st = cl_db_exec(db, CL_SQL_CONFLICTS_JOURNAL, 5, p, NULL, err)) != CL_DB_OK)
		return st;
	snprintf(out->verdict, sizeof(out->verdict), "%s", accept ? "accepted" : "dismissed");
	p[0] = load;
	p[1] = ord;
	p[2] = out->tenant;
	p[3] = out->verdict;
	p[4] = m_load;
	p[5] = m_ord;
	p[6] = rl;
	p[7] = accept ? out->correction_key : NULL;
	p[8] = note;
	if ((st = cl_db_exec(db, CL_SQL_CONFLICTS_RECORD_RESOLUTION, 9, p, NULL, err)) != CL_DB_OK)
		return st;
	if (accept) {
		/* the correction's commit number, as a load's: the same two
		   statements, the last before COMMIT (013_feed.sql) */
		p[0] = rl;
		p[1] = out->tenant;
		p[2] = "1";
		if ((st = cl_db_exec(db, CL_SQL_LOAD_FEED_LOCK, 0, NULL, NULL, err)) != CL_DB_OK ||
		    (st = cl_db_exec(db, CL_SQL_LOAD_FEED_COMMIT, 3, p, NULL, err)) != CL_DB_OK)
			return st;
	}
	return cl_db_exec(db, CL_SQL_DB_COMMIT, 0, NULL, NULL, err);
}

/* One attempt of a resolution (cl_db_run_txn's ctx and body). */
struct resolve_txn {
	const char *load;
	long long ordinal, line;
	enum cl_verdict v;
	const char *note;
	struct cl_resolution *out;
};

static enum cl_db_status resolve_txn(struct cl_db *db, void *ctx, struct cl_error *err)
{
	struct resolve_txn *t = ctx;
	enum cl_db_status st;

	memset(t->out, 0, sizeof(*t->out));
	if ((st = cl_db_exec(db, CL_SQL_DB_BEGIN, 0, NULL, NULL, err)) != CL_DB_OK)
		return st;
	return resolve(db, t->load, t->ordinal, t->line, t->v, t->note, t->out, err);
}

enum cl_db_status cl_conflicts_resolve(struct cl_db *db, long long load_id, long long ordinal,
				       long long line, enum cl_verdict v, const char *note,
				       struct cl_resolution *out, struct cl_error *err)
{
	char load[24];
	struct resolve_txn t = { load, ordinal, line, v, note, out };
	enum cl_db_status st;

	snprintf(load, sizeof(load), "%lld", load_id);
	/* a deadlock or serialization failure: the whole resolution again */
	st = cl_db_run_txn(db, resolve_txn, &t, NULL, err);
	/* a failure, or nothing to do: nothing is kept */
	cl_db_rollback(db);
	return st;
}
