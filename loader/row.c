/* row.c - struct cl_record to clearing_record columns. */
#include "loader/row.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/banking_days.h"
#include "base/xmalloc.h"
#include "rules/near.h"
#include "rules/shard.h"

/* The STORED fields, in the def's order (that of CL_SQL_RECORD_COLUMNS). */
#define STORED_ID_STORED(n) CL_F_##n,
#define STORED_ID_UNSTORED(n)
static const unsigned char stored_ids[] = {
#define CL_FIELD(n, type, cap, scope, store, ...) STORED_ID_##store(n)
#include "base/record_fields.def"
#undef CL_FIELD
};

const struct cl_field *cl_row_stored(size_t i)
{
	return i < sizeof(stored_ids) ? &cl_fields[stored_ids[i]] : NULL;
}

/* Columns of a stage row: the tenant, the stored fields, load_id,
 * ordinal and the journal's key. */
#define STAGE_COLUMNS ((int)sizeof(stored_ids) + 4)

/* The near identity's digest context: made at the first ACH record,
 * reused for the process (base/sha256.h: no fetch, no allocation a
 * digest). */
static struct cl_sha256 *near_sha;

void cl_row_value(const struct cl_field *f, const struct cl_record *r, struct cl_row_value *v)
{
	const char *p = (const char *)r + f->offset;

	v->kind = CL_RV_NULL;
	switch ((enum cl_field_type)f->type) {
	case CL_FT_STATIC:
		if ((v->s = cl_field_str(f, r)) != NULL)
			v->kind = CL_RV_TEXT;
		return;
	case CL_FT_TEXT:
		if (*p || (f->flags & CL_FF_NOTNULL)) {
			v->kind = CL_RV_TEXT;
			v->s = p;
		}
		return;
	case CL_FT_DATE:
		/* "": none (the parsers check every date) */
		if (cl_date_days(p, &v->days)) {
			v->kind = CL_RV_DATE;
			v->s = p;
		}
		return;
	case CL_FT_HASHOPT:
		if (!cl_field_has(f, r))
			return;
		/* fall through */
	case CL_FT_HASH:
		v->kind = CL_RV_HASH;
		v->s = p;
		v->len = 32;
		return;
	case CL_FT_AMOUNT:
		v->kind = CL_RV_INT8;
		v->i = r->amount_minor;
		return;
	case CL_FT_DIR:
		v->s = cl_direction_name(*(const enum cl_direction *)(const void *)p);
		if (v->s && *v->s)
			v->kind = CL_RV_TEXT;
		return;
	case CL_FT_LINE:
		v->kind = CL_RV_INT8;
		v->i = (int64_t) * (const unsigned long *)(const void *)p;
		return;
	case CL_FT_COUNT:
		v->kind = CL_RV_INT4;
		v->i = (int32_t) * (const unsigned *)(const void *)p;
		return;
	case CL_FT_DERIVED:
		/* the only derived field: the near identity's stored form
		   (its shard and hash), NULL for the kinds the rule is not
		   about */
		if (!near_sha)
			near_sha = cl_sha256_new();
		if (cl_near_hash(near_sha, r, cl_shard(r->kind, r->natural_key), v->buf)) {
			v->kind = CL_RV_HASH;
			v->s = (const char *)v->buf;
			v->len = CL_NEAR_HASH_LEN;
		}
		return;
	case CL_FT_SHARD:
		v->kind = CL_RV_INT8;
		v->i = cl_shard(r->kind, r->natural_key);
		return;
	}
}

/* One field's value as a binary COPY column. */
static void copy_field(struct cl_copy_in *c, const struct cl_field *f, const struct cl_record *r)
{
	struct cl_row_value v;

	cl_row_value(f, r, &v);
	switch (v.kind) {
	case CL_RV_NULL: cl_copy_null(c); return;
	case CL_RV_TEXT: cl_copy_bytes(c, v.s, strlen(v.s)); return;
	case CL_RV_HASH: cl_copy_bytes(c, v.s, v.len); return;
	case CL_RV_INT8: cl_copy_int8(c, v.i); return;
	case CL_RV_INT4: cl_copy_int4(c, (int32_t)v.i); return;
	case CL_RV_DATE: cl_copy_date(c, v.days); return;
	}
}

/* The CL_SQL_RECORD_COLUMNS of one record. */
static void copy_record_columns(struct cl_copy_in *c, const struct cl_record *r,
				unsigned long ordinal, const char *tenant, int64_t load_id)
{
	cl_copy_text(c, tenant, false);
	for (size_t i = 0; i < sizeof(stored_ids); i++)
		copy_field(c, &cl_fields[stored_ids[i]], r);
	cl_copy_int8(c, load_id);
	cl_copy_int8(c, (int64_t)ordinal);
}

void cl_row_copy_staged(struct cl_copy_in *c, const struct cl_record *r, unsigned long ordinal,
			const char *tenant, int64_t load_id, const char *journal_key,
			const int64_t *nonce)
{
	cl_copy_row(c, STAGE_COLUMNS + (nonce != NULL));
	copy_record_columns(c, r, ordinal, tenant, load_id);
	cl_copy_text(c, journal_key, false);
	if (nonce)
		cl_copy_int8(c, *nonce);
}

void cl_row_copy_record(struct cl_copy_in *c, const struct cl_record *r, unsigned long ordinal,
			const char *tenant, int64_t load_id)
{
	cl_copy_row(c, STAGE_COLUMNS - 1);
	copy_record_columns(c, r, ordinal, tenant, load_id);
}

/* The columns of pg_temp.cl_near_side after the tenant, in its order
 * (classify.sql, classify_near_side_create). */
static const unsigned char near_side_ids[] = { CL_F_kind, CL_F_natural_key, CL_F_shard,
					       CL_F_near_key, CL_F_value_date };

void cl_row_copy_near(struct cl_copy_in *c, const struct cl_record *r, const char *tenant)
{
	cl_copy_row(c, 1 + (int)sizeof(near_side_ids));
	cl_copy_text(c, tenant, false);
	for (size_t i = 0; i < sizeof(near_side_ids); i++)
		copy_field(c, &cl_fields[near_side_ids[i]], r);
}

/* ---- records as an array of clearing_record ---- */

static void buf_put(char **buf, size_t *len, size_t *cap, const char *p, size_t n)
{
	if (*len + n + 1 > *cap) {
		while (*len + n + 1 > *cap)
			*cap = *cap ? 2 * *cap : 64 * 1024;
		*buf = cl_xrealloc(*buf, *cap);
	}
	memcpy(*buf + *len, p, n);
	*len += n;
	(*buf)[*len] = '\0';
}

/* Text p[0..n) into `out` quoted for an array element or a composite
 * field: in double quotes, each quote and backslash escaped. */
static void quoted(char **buf, size_t *len, size_t *cap, const char *p, size_t n)
{
	const char *run = p, *end = p + n;

	buf_put(buf, len, cap, "\"", 1);
	for (; p < end; p++) {
		if (*p != '"' && *p != '\\')
			continue;
		buf_put(buf, len, cap, run, (size_t)(p - run));
		buf_put(buf, len, cap, "\\", 1);
		run = p;
	}
	buf_put(buf, len, cap, run, (size_t)(end - run));
	buf_put(buf, len, cap, "\"", 1);
}

void cl_row_array_columns(struct cl_row_array *a, const char *const *names, size_t n)
{
	const struct cl_field *f;

	a->cols = cl_xrealloc(a->cols, (n ? n : 1) * sizeof(*a->cols));
	a->ncols = n;
	for (size_t c = 0; c < n; c++) {
		a->cols[c] = CL_ROW_COL_NULL;
		if (strcmp(names[c], "tenant") == 0)
			a->cols[c] = CL_ROW_COL_TENANT;
		else if (strcmp(names[c], "ordinal") == 0)
			a->cols[c] = CL_ROW_COL_ORDINAL;
		for (int i = 0; (f = cl_row_stored((size_t)i)) != NULL; i++)
			if (strcmp(names[c], f->name) == 0)
				a->cols[c] = i;
	}
}

void cl_row_array_add(struct cl_row_array *a, const struct cl_record *rec, unsigned long ordinal,
		      const char *tenant, const char *journal_key)
{
	static const char hex[] = "0123456789abcdef";
	char num[24], h[2 + 2 * 32];
	size_t len = 0;

	/* the composite's text, "(v,v,...)", a NULL as nothing */
	a->one_len = 0;
	buf_put(&a->one, &a->one_len, &a->one_cap, "(", 1);
	for (size_t c = 0; c < a->ncols; c++) {
		struct cl_row_value v;
		const char *t = NULL;

		if (c)
			buf_put(&a->one, &a->one_len, &a->one_cap, ",", 1);
		v.kind = CL_RV_NULL;
		if (a->cols[c] == CL_ROW_COL_TENANT) {
			v.kind = CL_RV_TEXT;
			v.s = tenant;
		} else if (a->cols[c] == CL_ROW_COL_ORDINAL) {
			v.kind = CL_RV_INT8;
			v.i = (int64_t)ordinal;
		} else if (a->cols[c] >= 0) {
			cl_row_value(cl_row_stored((size_t)a->cols[c]), rec, &v);
		}
		switch (v.kind) {
		case CL_RV_NULL:
			continue;
		case CL_RV_TEXT:
		case CL_RV_DATE:
			t = v.s;
			len = strlen(t);
			break;
		case CL_RV_HASH:
			/* bytea's hex input form */
			h[0] = '\\';
			h[1] = 'x';
			for (size_t i = 0; i < v.len; i++) {
				h[2 + 2 * i] = hex[(unsigned char)v.s[i] >> 4];
				h[3 + 2 * i] = hex[(unsigned char)v.s[i] & 15];
			}
			t = h;
			len = 2 + 2 * v.len;
			break;
		case CL_RV_INT8:
		case CL_RV_INT4:
			len = (size_t)snprintf(num, sizeof(num), "%lld", (long long)v.i);
			t = num;
			break;
		}
		quoted(&a->one, &a->one_len, &a->one_cap, t, len);
	}
	buf_put(&a->one, &a->one_len, &a->one_cap, ")", 1);
	/* ... as an element of the array, and the journal key beside it */
	buf_put(&a->rows, &a->rows_len, &a->rows_cap, a->n ? "," : "{", 1);
	quoted(&a->rows, &a->rows_len, &a->rows_cap, a->one, a->one_len);
	buf_put(&a->keys, &a->keys_len, &a->keys_cap, a->n ? "," : "{", 1);
	if (journal_key)
		quoted(&a->keys, &a->keys_len, &a->keys_cap, journal_key, strlen(journal_key));
	else
		buf_put(&a->keys, &a->keys_len, &a->keys_cap, "NULL", 4);
	a->n++;
}

/* "}" appended for the caller, then taken back: the next record goes
 * before it. */
static const char *closed(char **buf, size_t *len, size_t *cap, unsigned long n)
{
	if (!n)
		return "{}";
	buf_put(buf, len, cap, "}", 1);
	(*len)--;
	return *buf;
}

const char *cl_row_array_rows(struct cl_row_array *a)
{
	return closed(&a->rows, &a->rows_len, &a->rows_cap, a->n);
}

const char *cl_row_array_keys(struct cl_row_array *a)
{
	return closed(&a->keys, &a->keys_len, &a->keys_cap, a->n);
}

void cl_row_array_reset(struct cl_row_array *a)
{
	a->rows_len = a->keys_len = 0;
	a->n = 0;
}

void cl_row_array_release(struct cl_row_array *a)
{
	free(a->rows);
	free(a->keys);
	free(a->one);
	free(a->cols);
	memset(a, 0, sizeof(*a));
}
