/* plan.c - diff: every record's fate, in file order (the file read again:
 * a dry run reports every record, new ones too, as the parser gives it). */
#include "load_int.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader_sql.h"

/* ---- diff: the plan, record by record ---- */

struct plan {
	struct load *L;
	struct cl_parser *p;
	unsigned long ordinal;     /* of the last record read */
	bool failed;
	struct cl_error err;
};

static void plan_emit(struct plan *P, const struct cl_record *rec, struct cl_plan_item *it)
{
	struct load *L = P->L;

	it->rec = rec;
	it->ordinal = P->ordinal;
	it->position = rec->position;
	L->h->on_plan(L->h->ctx, it);
}

/* Emit every record before ordinal `upto` as new; leave *rec at `upto`. */
static bool plan_advance(struct plan *P, unsigned long upto, const struct cl_record **rec)
{
	enum cl_status ps;

	for (;;) {
		ps = cl_parser_next(P->p, rec, &P->err);
		if (ps == CL_NOTE)
			continue;
		if (ps != CL_OK) {
			P->failed = ps != CL_END || upto != 0;
			return false;
		}
		if (++P->ordinal == upto)
			return true;
		{
			struct cl_plan_item it;

			memset(&it, 0, sizeof(it));
			it.action = CL_ACTION_NEW;
			plan_emit(P, *rec, &it);
		}
	}
}

enum {
	D_ORDINAL, D_REASON, D_MLOAD, D_MFILE, D_MPOS, D_MTIME, D_MKEY, D_FIELDS, D_OLD0
};

static int on_detail(void *ctx, char **f, int nf)
{
	struct plan *P = ctx;
	const struct cl_record *rec;
	struct cl_plan_item it;
	unsigned i;

	if (P->failed || nf < D_OLD0)
		return 1;
	if (!plan_advance(P, strtoul(f[D_ORDINAL], NULL, 10), &rec))
		return 1;
	memset(&it, 0, sizeof(it));
	it.reason = strcmp(f[D_REASON], "duplicate") == 0	  ? "duplicate"
		    : strcmp(f[D_REASON], "conflict") == 0 ? "conflict"
							   : "near_duplicate";
	it.action = strcmp(it.reason, "duplicate") == 0 ? CL_ACTION_DUPLICATE : CL_ACTION_CONFLICT;
	it.matched_load_id = strtoll(f[D_MLOAD], NULL, 10);
	it.matched_file = f[D_MFILE];
	it.matched_position = strtoul(f[D_MPOS], NULL, 10);
	it.matched_time = f[D_MTIME];
	it.matched_key = f[D_MKEY];
	if (f[D_FIELDS] && it.action == CL_ACTION_CONFLICT) {
		/* the compared fields, in table order: column D_OLD0 + k is the
		   k-th of them ({compared_r} of plan_detail) */
		int k = 0;

		for (i = 0; i < CL_NFIELDS && D_OLD0 + k < nf && it.nfields < CL_DIFF_FIELDS_MAX;
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
	plan_emit(P, rec, &it);
	return 0;
}

enum cl_db_status cl_plan(struct load *L)
{
	struct plan P;
	enum cl_db_status st;
	const struct cl_record *rec;

	memset(&P, 0, sizeof(P));
	P.L = L;
	if (cl_stage_open_parser(L, &P.p, &P.err) != CL_OK) {
		L->r->err = P.err;
		return CL_DB_ERROR;
	}
	st = cl_copy_out(L->db, CL_SQL_PLAN_DETAIL, on_detail, &P, &L->r->err);
	if (st == CL_DB_OK && !P.failed)
		plan_advance(&P, 0, &rec); /* the rest are new */
	cl_parser_free(P.p);
	if (st == CL_DB_OK && P.failed) {
		L->r->err = P.err;
		st = CL_DB_ERROR;
	}
	return st;
}
