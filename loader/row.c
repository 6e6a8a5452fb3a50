/* row.c - struct cl_record to clearing_record columns. */
#include "row.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "banking_days.h"
#include "near.h"
#include "xmalloc.h"

/* The STORED fields, in the def's order (that of CL_SQL_RECORD_COLUMNS). */
#define STORED_ID_STORED(n) CL_F_##n,
#define STORED_ID_UNSTORED(n)
static const unsigned char stored_ids[] = {
#define CL_FIELD(n, type, cap, scope, store, ...) STORED_ID_##store(n)
#include "record_fields.def"
#undef CL_FIELD
};

const struct cl_field *cl_row_stored(size_t i)
{
	return i < sizeof(stored_ids) ? &cl_fields[stored_ids[i]] : NULL;
}

/* Columns of a stage row: the tenant, the stored fields, load_id,
 * ordinal and the journal's key. */
#define STAGE_COLUMNS ((int)sizeof(stored_ids) + 4)

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
		/* the only derived field: the near identity, "" (NULL) for the
		   kinds the rule is not about */
		cl_near_key(r, v->buf, sizeof(v->buf));
		if (v->buf[0]) {
			v->kind = CL_RV_TEXT;
			v->s = v->buf;
		}
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
	case CL_RV_HASH: cl_copy_bytes(c, v.s, 32); return;
	case CL_RV_INT8: cl_copy_int8(c, v.i); return;
	case CL_RV_INT4: cl_copy_int4(c, (int32_t)v.i); return;
	case CL_RV_DATE: cl_copy_date(c, v.days); return;
	}
}

void cl_row_copy_staged(struct cl_copy_in *c, const struct cl_record *r, unsigned long ordinal,
			const char *tenant, int64_t load_id, const char *journal_key)
{
	cl_copy_row(c, STAGE_COLUMNS);
	cl_copy_text(c, tenant, false);
	for (size_t i = 0; i < sizeof(stored_ids); i++)
		copy_field(c, &cl_fields[stored_ids[i]], r);
	cl_copy_int8(c, load_id);
	cl_copy_int8(c, (int64_t)ordinal);
	cl_copy_text(c, journal_key, false);
}

/* ---- records as json ---- */

static void json_need(struct cl_row_json *j, size_t n)
{
	if (j->len + n + 1 <= j->cap)
		return;
	while (j->len + n + 1 > j->cap)
		j->cap = j->cap ? 2 * j->cap : 64 * 1024;
	j->buf = cl_xrealloc(j->buf, j->cap);
}

static void json_put(struct cl_row_json *j, const char *s, size_t n)
{
	json_need(j, n);
	memcpy(j->buf + j->len, s, n);
	j->len += n;
	j->buf[j->len] = '\0';
}

static void json_puts(struct cl_row_json *j, const char *s)
{
	json_put(j, s, strlen(s));
}

/* A json string: quotes, backslashes and control characters escaped. */
static void json_string(struct cl_row_json *j, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	const char *run = s;

	json_put(j, "\"", 1);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		char esc[6] = { '\\', 'u', '0', '0', hex[ch >> 4], hex[ch & 15] };

		if (ch >= 0x20 && ch != '"' && ch != '\\')
			continue;
		json_put(j, run, (size_t)(s - run));
		if (ch == '"' || ch == '\\') {
			esc[1] = (char)ch;
			json_put(j, esc, 2);
		} else {
			json_put(j, esc, 6);
		}
		run = s + 1;
	}
	json_put(j, run, (size_t)(s - run));
	json_put(j, "\"", 1);
}

static void json_value(struct cl_row_json *j, const struct cl_row_value *v)
{
	static const char hex[] = "0123456789abcdef";
	char num[24], h[2 * 32 + 6];

	switch (v->kind) {
	case CL_RV_NULL:
		json_puts(j, "null");
		return;
	case CL_RV_TEXT:
	case CL_RV_DATE:
		json_string(j, v->s);
		return;
	case CL_RV_HASH:
		/* bytea's hex input form, its backslash escaped for json */
		memcpy(h, "\"\\\\x", 4);
		for (int i = 0; i < 32; i++) {
			h[4 + 2 * i] = hex[(unsigned char)v->s[i] >> 4];
			h[5 + 2 * i] = hex[(unsigned char)v->s[i] & 15];
		}
		h[68] = '"';
		json_put(j, h, 69);
		return;
	case CL_RV_INT8:
	case CL_RV_INT4:
		snprintf(num, sizeof(num), "%lld", (long long)v->i);
		json_puts(j, num);
		return;
	}
}

void cl_row_json_add(struct cl_row_json *j, const struct cl_record *rec, unsigned long ordinal,
		     const char *journal_key)
{
	char num[24];
	const struct cl_field *f;

	json_puts(j, j->n++ ? ",{" : "[{");
	snprintf(num, sizeof(num), "%lu", ordinal);
	json_puts(j, "\"ordinal\":");
	json_puts(j, num);
	json_puts(j, ",\"journal_key\":");
	if (journal_key)
		json_string(j, journal_key);
	else
		json_puts(j, "null");
	for (size_t i = 0; (f = cl_row_stored(i)) != NULL; i++) {
		struct cl_row_value v;

		cl_row_value(f, rec, &v);
		json_puts(j, ",\"");
		json_puts(j, f->name);
		json_puts(j, "\":");
		json_value(j, &v);
	}
	json_puts(j, "}");
}

const char *cl_row_json_text(struct cl_row_json *j)
{
	if (!j->n)
		return "[]";
	json_puts(j, "]");
	j->len--; /* the next record goes before it */
	return j->buf;
}

void cl_row_json_reset(struct cl_row_json *j)
{
	j->len = 0;
	j->n = 0;
	if (j->buf)
		j->buf[0] = '\0';
}

void cl_row_json_release(struct cl_row_json *j)
{
	free(j->buf);
	memset(j, 0, sizeof(*j));
}
