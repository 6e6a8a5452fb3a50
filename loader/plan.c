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

/* Records per batch: each is kept (about 4 KB) until its batch's answer
 * is back, so that diff stays within a few MB whatever the file. */
#define PLAN_BATCH 2000

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

/* Classify the n records of batch `b` (ordinals first + 1 ...) and report
 * each. */
static enum cl_db_status plan_flush(struct load *L, struct cl_row_array *a,
				    const struct cl_record *b, size_t n, unsigned long first)
{
	/* on Citus the rules to try as parameters too (plan_context) */
	const char *p[3] = { cl_row_array_rows(a), L->plan_near, L->plan_ach_key };
	PGresult *res;
	enum cl_db_status st;
	int row = 0, rows;

	if (!n)
		return CL_DB_OK;
	if ((st = prepare_batch(L)) != CL_DB_OK)
		return st;
	cl_watchdog_arm(L->db->conn);
	res = PQexecPrepared(L->db->conn, "cl_plan_batch", L->db->citus ? 3 : 1, p, NULL, NULL, 0);
	cl_watchdog_disarm();
	if (PQresultStatus(res) != PGRES_TUPLES_OK)
		return cl_db_fail(L->db, res, "statement failed", &L->r->err);
	rows = PQntuples(res);
	for (size_t i = 0; i < n; i++) {
		unsigned long ordinal = first + i + 1;
		bool hit = row < rows && strtoul(PQgetvalue(res, row, D_ORDINAL), NULL, 10) == ordinal;

		plan_emit(L, &b[i], ordinal, hit ? res : NULL, row);
		row += hit;
	}
	PQclear(res);
	cl_row_array_reset(a);
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

enum cl_db_status cl_plan(struct load *L)
{
	struct cl_record *b = NULL;
	struct cl_row_array a;
	struct cl_parser *p = NULL;
	const struct cl_record *rec;
	struct cl_error e;
	enum cl_status ps;
	enum cl_db_status st;
	unsigned long ordinal = 0, first = 0;
	size_t n = 0;

	L->r->duplicate_count = L->r->conflict_count = L->near_count = 0;
	memset(&a, 0, sizeof(a));
	st = plan_context(L);
	if (st == CL_DB_OK)
		st = cl_plan_columns(L, &a);
	if (st == CL_DB_OK && cl_stage_open_parser(L, &p, &e) != CL_OK) {
		L->r->err = e;
		st = CL_DB_ERROR;
	}
	if (st != CL_DB_OK) {
		cl_row_array_release(&a);
		return st;
	}
	b = cl_xmalloc(PLAN_BATCH * sizeof(*b));
	while (st == CL_DB_OK && (ps = cl_stage_reread(L, p, &rec)) == CL_OK) {
		b[n++] = *rec;
		cl_row_array_add(&a, rec, ++ordinal, L->o->tenant, NULL);
		if (n == PLAN_BATCH) {
			st = plan_flush(L, &a, b, n, first);
			first = ordinal;
			n = 0;
		}
	}
	if (st == CL_DB_OK && ps != CL_END)
		st = CL_DB_ERROR; /* L->r->err says why */
	if (st == CL_DB_OK)
		st = plan_flush(L, &a, b, n, first);
	cl_parser_free(p);
	free(b);
	cl_row_array_release(&a);
	if (st == CL_DB_OK && ordinal != L->r->records) {
		cl_error_set(&L->r->err, cl_input_name(L->in), 0, "file_changed",
			     "the file changed while it was read (%lu records, then %lu)",
			     L->r->records, ordinal);
		st = CL_DB_ERROR;
	}
	L->r->new_count = L->r->records - L->r->duplicate_count - L->r->conflict_count;
	return st;
}
