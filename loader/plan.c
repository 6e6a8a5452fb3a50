/* plan.c - diff: every record's fate, in file order, found without
 * writing anything: the file is read again a batch at a time, each batch
 * sent as one parameter (an array of clearing_record) to plan_batch
 * (sql/loader/plan.sql), which runs the load's own probes (classify.sql)
 * over it. */
#include "loader/load_int.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"
#include "gen/loader_sql.h"
#include "loader/row.h"
#include "loader/watchdog.h"

/* Records per batch.  Two batches are held at once (one being read while
 * the server answers the other), each record kept (about 4.5 KB) until
 * its batch's answer is back, so that diff stays within a few MB whatever
 * the file. */
#define PLAN_BATCH 1000

/* One batch of records: read from the file, then sent to plan_batch. */
struct plan_batch {
	struct cl_record *b;       /* its records (PLAN_BATCH) */
	struct cl_row_array a;     /* the same as plan_batch's parameter */
	size_t n;                  /* records in it */
	unsigned long first;       /* the ordinal before its first */
	bool sent;                 /* its answer is awaited */
};

enum {
	D_ORDINAL, D_REASON, D_MLOAD, D_MFILE, D_MPOS, D_MTIME, D_MKEY, D_FIELDS, D_OLD0
};

/* The fate of record `rec` (ordinal `ordinal`): new when `res` is NULL,
 * else what row `row` of plan_batch says; counted and reported. */
static void plan_emit(struct load *L, const struct cl_record *rec, unsigned long ordinal,
		      const PGresult *res, int row)
{
	struct cl_plan_item it;
	const char *f[D_OLD0 + CL_NFIELDS];
	int nf = res ? PQnfields(res) : 0;

	memset(&it, 0, sizeof(it));
	it.rec = rec;
	it.ordinal = ordinal;
	it.position = rec->position;
	it.action = CL_ACTION_NEW;
	if (res) {
		if (nf > (int)(sizeof(f) / sizeof(f[0])))
			nf = (int)(sizeof(f) / sizeof(f[0]));
		for (int i = 0; i < nf; i++)
			f[i] = PQgetisnull(res, row, i) ? NULL : PQgetvalue(res, row, i);
		it.reason = strcmp(f[D_REASON], "duplicate") == 0  ? "duplicate"
			    : strcmp(f[D_REASON], "conflict") == 0 ? "conflict"
								   : "near_duplicate";
		it.action = strcmp(it.reason, "duplicate") == 0 ? CL_ACTION_DUPLICATE
								: CL_ACTION_CONFLICT;
		it.matched_load_id = strtoll(f[D_MLOAD], NULL, 10);
		it.matched_file = f[D_MFILE];
		it.matched_position = strtoul(f[D_MPOS], NULL, 10);
		it.matched_time = f[D_MTIME];
		it.matched_key = f[D_MKEY];
	}
	if (it.action == CL_ACTION_DUPLICATE)
		L->r->duplicate_count++;
	if (it.action == CL_ACTION_CONFLICT) {
		L->r->conflict_count++;
		if (strcmp(it.reason, "near_duplicate") == 0)
			L->near_count++;
	}
	if (res && f[D_FIELDS] && it.action == CL_ACTION_CONFLICT) {
		/* the compared fields, in table order: column D_OLD0 + k is the
		   k-th of them ({compared_r} of plan_batch) */
		int k = 0;

		for (unsigned i = 0; i < CL_NFIELDS && D_OLD0 + k < nf && it.nfields < CL_DIFF_FIELDS_MAX;
		     i++) {
			const struct cl_field *fd = &cl_fields[i];
			struct cl_field_diff *d;
			char buf[65];
			const char *hit;
			int col;

			if (!(fd->flags & CL_FF_COMPARED))
				continue;
			col = D_OLD0 + k++;
			/* fields is "{a,b}": look for the name between delimiters */
			hit = strstr(f[D_FIELDS], fd->name);
			if (!hit || (hit[fd->name_len] != ',' && hit[fd->name_len] != '}') ||
			    (hit[-1] != ',' && hit[-1] != '{'))
				continue;
			d = &it.fields[it.nfields++];
			d->field = fd->name;
			d->account = (fd->flags & CL_FF_ACCOUNT) != 0;
			snprintf(d->old_value, sizeof(d->old_value), "%s", f[col] ? f[col] : "");
			snprintf(d->new_value, sizeof(d->new_value), "%s",
				 cl_field_text(fd, rec, buf));
		}
	}
	if (L->h->on_plan)
		L->h->on_plan(L->h->ctx, &it);
}

enum cl_db_status cl_plan_columns(struct load *L, struct cl_row_array *a)
{
	PGresult *res;
	enum cl_db_status st;
	const char **names;
	int n;

	st = cl_db_exec(L->db, CL_SQL_PLAN_RECORD_COLUMNS, 0, NULL, &res, &L->r->err);
	if (st != CL_DB_OK)
		return st;
	n = PQntuples(res);
	names = cl_xmalloc((size_t)(n ? n : 1) * sizeof(*names));
	for (int i = 0; i < n; i++)
		names[i] = PQgetvalue(res, i, 0);
	cl_row_array_columns(a, names, (size_t)n);
	free(names);
	PQclear(res);
	return CL_DB_OK;
}

/* plan_batch is prepared once per connection (its planning would cost
 * more than a batch's probes): the server session it was prepared in. */
static const void *prepared_conn;
static int prepared_pid;

static enum cl_db_status prepare_batch(struct load *L)
{
	PGconn *conn = L->db->conn;
	PGresult *res;

	if (prepared_conn == conn && prepared_pid == PQbackendPID(conn))
		return CL_DB_OK;
	cl_watchdog_arm(conn);
	res = L->db->citus ? PQprepare(conn, "cl_plan_batch", CL_SQL_PLAN_BATCH_CITUS, 3, NULL)
			   : PQprepare(conn, "cl_plan_batch", CL_SQL_PLAN_BATCH, 1, NULL);
	cl_watchdog_disarm();
	if (PQresultStatus(res) != PGRES_COMMAND_OK)
		return cl_db_fail(L->db, res, "statement failed", &L->r->err);
	PQclear(res);
	prepared_conn = conn;
	prepared_pid = PQbackendPID(conn);
	return CL_DB_OK;
}

/* Send batch `pb` to plan_batch, not waiting for its answer. */
static enum cl_db_status plan_send(struct load *L, struct plan_batch *pb)
{
	/* on Citus the rules to try as parameters too (plan_context) */
	const char *p[3] = { cl_row_array_rows(&pb->a), L->plan_near, L->plan_ach_key };
	enum cl_db_status st;
	int ok;

	if (!pb->n)
		return CL_DB_OK;
	if ((st = prepare_batch(L)) != CL_DB_OK)
		return st;
	cl_watchdog_arm(L->db->conn);
	ok = PQsendQueryPrepared(L->db->conn, "cl_plan_batch", L->db->citus ? 3 : 1, p, NULL,
				 NULL, 0);
	cl_watchdog_disarm();
	if (!ok)
		return cl_db_fail(L->db, NULL, "statement failed", &L->r->err);
	pb->sent = true;
	return CL_DB_OK;
}

/* The answer of a batch sent: each of its records reported, in order (a
 * failed answer: none). */
static enum cl_db_status plan_receive(struct load *L, struct plan_batch *pb)
{
	enum cl_db_status st = CL_DB_OK;
	PGresult *res, *answer = NULL;
	int row = 0, rows;

	if (!pb->sent)
		return CL_DB_OK;
	pb->sent = false;
	cl_watchdog_arm(L->db->conn);
	while ((res = PQgetResult(L->db->conn)) != NULL) {
		if (!answer && st == CL_DB_OK && PQresultStatus(res) == PGRES_TUPLES_OK)
			answer = res;
		else if (st == CL_DB_OK)
			st = cl_db_fail(L->db, res, "statement failed", &L->r->err);
		else
			PQclear(res);
	}
	cl_watchdog_disarm();
	if (st == CL_DB_OK && !answer)
		st = cl_db_fail(L->db, NULL, "statement failed", &L->r->err);
	if (st != CL_DB_OK) {
		PQclear(answer);
		return st;
	}
	rows = PQntuples(answer);
	for (size_t i = 0; i < pb->n; i++) {
		unsigned long ordinal = pb->first + i + 1;
		bool hit = row < rows && strtoul(PQgetvalue(answer, row, D_ORDINAL), NULL, 10) == ordinal;

		plan_emit(L, &pb->b[i], ordinal, hit ? answer : NULL, row);
		row += hit;
	}
	PQclear(answer);
	cl_row_array_reset(&pb->a);
	pb->n = 0;
	return CL_DB_OK;
}

/* The tenant, and which of the later rules plan_batch tries (as
 * classify.c decides for a load). */
static enum cl_db_status plan_context(struct load *L)
{
	bool batch = L->o->parse.ach_key == CL_ACH_KEY_BATCH;
	char near[8] = "", v1[8] = "";
	const char *p[2] = { L->o->tenant, NULL };
	enum cl_db_status st;

	bool citus = L->db->citus;

	st = cl_db_exec(L->db, CL_SQL_PLAN_SET_TENANT, 1, p, NULL, &L->r->err);
	if (st == CL_DB_OK)
		st = cl_classify_citus_settings(L);
	if (st == CL_DB_OK)
		st = cl_db_value(L->db, citus ? CL_SQL_CLASSIFY_TENANT_NEAR_CITUS : CL_SQL_PLAN_NEAR_WANTED,
				 citus, p, near, sizeof(near), &L->r->err);
	if (st == CL_DB_OK && !batch)
		st = cl_db_value(L->db,
				 citus ? CL_SQL_CLASSIFY_RULE_V1_WANTED_CITUS : CL_SQL_CLASSIFY_RULE_V1_WANTED,
				 citus, p, v1, sizeof(v1), &L->r->err);
	if (st != CL_DB_OK)
		return st;
	L->plan_near = p[0] = strcmp(near, "t") == 0 ? "on" : "off";
	L->plan_ach_key = p[1] = batch ? "batch" : strcmp(v1, "t") == 0 ? "v1" : "none";
	if (citus)
		return cl_db_exec(L->db, CL_SQL_PLAN_SET_RULES_CITUS, 0, NULL, NULL, &L->r->err);
	return cl_db_exec(L->db, CL_SQL_PLAN_SET_RULES, 2, p, NULL, &L->r->err);
}

/* The records read into batches: while the server answers one, the next
 * is read and encoded (the loader's work and the server's overlap); each
 * batch's records are reported, in file order, once its answer is back. */
enum cl_db_status cl_plan(struct load *L)
{
	struct plan_batch pb[2], *cur = &pb[0];
	struct cl_parser *p = NULL;
	const struct cl_record *rec;
	struct cl_error e;
	enum cl_status ps = CL_END;
	enum cl_db_status st, st2;
	unsigned long ordinal = 0;

	L->r->duplicate_count = L->r->conflict_count = L->near_count = 0;
	memset(pb, 0, sizeof(pb));
	st = plan_context(L);
	for (int i = 0; i < 2 && st == CL_DB_OK; i++)
		st = cl_plan_columns(L, &pb[i].a);
	if (st == CL_DB_OK && cl_stage_open_parser(L, &p, &e) != CL_OK) {
		L->r->err = e;
		st = CL_DB_ERROR;
	}
	for (int i = 0; i < 2 && st == CL_DB_OK; i++)
		pb[i].b = cl_xmalloc(PLAN_BATCH * sizeof(*pb[i].b));
	while (st == CL_DB_OK && (ps = cl_stage_reread(p, &rec, &L->r->err)) == CL_OK) {
		if (!cur->n)
			cur->first = ordinal;
		cur->b[cur->n++] = *rec;
		cl_row_array_add(&cur->a, rec, ++ordinal, L->o->tenant, NULL);
		if (cur->n == PLAN_BATCH) {
			struct plan_batch *other = cur == &pb[0] ? &pb[1] : &pb[0];

			/* the batch before it answered and reported, this one
			   sent; the next is read while the server works */
			st = plan_receive(L, other);
			if (st == CL_DB_OK)
				st = plan_send(L, cur);
			cur = other;
		}
	}
	if (st == CL_DB_OK && ps != CL_END)
		st = CL_DB_ERROR; /* L->r->err says why */
	/* the batch in flight answered (whatever happened: the connection
	   must be free again), then the last */
	st2 = plan_receive(L, cur == &pb[0] ? &pb[1] : &pb[0]);
	if (st == CL_DB_OK)
		st = st2;
	if (st == CL_DB_OK && (st = plan_send(L, cur)) == CL_DB_OK)
		st = plan_receive(L, cur);
	cl_parser_free(p);
	for (int i = 0; i < 2; i++) {
		free(pb[i].b);
		cl_row_array_release(&pb[i].a);
	}
	if (st == CL_DB_OK && ordinal != L->r->records) {
		cl_error_set(&L->r->err, cl_input_name(L->in), 0, "file_changed",
			     "the file changed while it was read (%lu records, then %lu)",
			     L->r->records, ordinal);
		st = CL_DB_ERROR;
	}
	L->r->new_count = L->r->records - L->r->duplicate_count - L->r->conflict_count;
	return st;
}
