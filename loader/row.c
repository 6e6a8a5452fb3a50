/* row.c - struct cl_record to clearing_record columns. */
#include "row.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "fingerprint.h"
#include "near.h"

/* The STORED fields, in the def's order (that of CL_SQL_RECORD_COLUMNS). */
#define STORED_ID_STORED(n) CL_F_##n,
#define STORED_ID_UNSTORED(n)
static const unsigned char stored_ids[] = {
#define CL_FIELD(n, type, cap, scope, store, ...) STORED_ID_##store(n)
#include "record_fields.def"
#undef CL_FIELD
};


static void copy_hash(struct cl_copy_in *c, const unsigned char *h)
{
	char hex[65];

	cl_hex32(h, hex);
	cl_copy_raw(c, "\t\\\\x", 4);
	cl_copy_raw(c, hex, 64);
}

void cl_row_copy_field(struct cl_copy_in *c, const struct cl_field *f, const struct cl_record *r)
{
	const char *p = (const char *)r + f->offset;
	char b[32];
	int n;

	switch ((enum cl_field_type)f->type) {
	case CL_FT_STATIC:
		cl_copy_text(c, cl_field_str(f, r), false, false);
		return;
	case CL_FT_TEXT:
		cl_copy_text(c, p, false, !(f->flags & CL_FF_NOTNULL));
		return;
	case CL_FT_HASHOPT:
		if (!cl_field_has(f, r)) {
			cl_copy_raw(c, "\t\\N", 3);
			return;
		}
		/* fall through */
	case CL_FT_HASH:
		copy_hash(c, (const unsigned char *)p);
		return;
	case CL_FT_AMOUNT:
		n = snprintf(b, sizeof(b), "\t%" PRId64, r->amount_minor);
		cl_copy_raw(c, b, (size_t)n);
		return;
	case CL_FT_DIR: {
		const char *d = cl_direction_name(*(const enum cl_direction *)(const void *)p);

		cl_copy_text(c, d ? d : "", false, true);
		return;
	}
	case CL_FT_LINE:
		n = snprintf(b, sizeof(b), "\t%lu", *(const unsigned long *)(const void *)p);
		cl_copy_raw(c, b, (size_t)n);
		return;
	case CL_FT_COUNT:
		n = snprintf(b, sizeof(b), "\t%u", *(const unsigned *)(const void *)p);
		cl_copy_raw(c, b, (size_t)n);
		return;
	case CL_FT_DERIVED: {
		/* the only derived field: the near identity, "" (NULL) for the
		   kinds the rule is not about */
		char near[CL_NEAR_KEY_MAX];

		cl_near_key(r, near, sizeof(near));
		cl_copy_text(c, near, false, true);
		return;
	}
	}
}

/* The columns of CL_SQL_RECORD_COLUMNS, without the row's end. */
static void copy_columns(struct cl_copy_in *c, const struct cl_record *r, unsigned long ordinal,
			 const char *tenant, const char *load_id)
{
	char b[24];
	int n;

	cl_copy_text(c, tenant, true, false);
	for (size_t i = 0; i < sizeof(stored_ids); i++)
		cl_row_copy_field(c, &cl_fields[stored_ids[i]], r);
	cl_copy_text(c, load_id, false, false);
	n = snprintf(b, sizeof(b), "\t%lu", ordinal);
	cl_copy_raw(c, b, (size_t)n);
}

void cl_row_copy(struct cl_copy_in *c, const struct cl_record *r, unsigned long ordinal,
		 const char *tenant, const char *load_id)
{
	copy_columns(c, r, ordinal, tenant, load_id);
	cl_copy_row_end(c);
}

void cl_row_copy_staged(struct cl_copy_in *c, const struct cl_record *r, unsigned long ordinal,
			const char *tenant, const char *load_id, const char *journal_key)
{
	copy_columns(c, r, ordinal, tenant, load_id);
	if (journal_key)
		cl_copy_text(c, journal_key, false, false);
	else
		cl_copy_raw(c, "\t\\N", 3);
	cl_copy_row_end(c);
}
