/* row.c - struct cl_record to clearing_record columns. */
#include "row.h"

#include <stdint.h>

#include "banking_days.h"
#include "near.h"

/* The STORED fields, in the def's order (that of CL_SQL_RECORD_COLUMNS). */
#define STORED_ID_STORED(n) CL_F_##n,
#define STORED_ID_UNSTORED(n)
static const unsigned char stored_ids[] = {
#define CL_FIELD(n, type, cap, scope, store, ...) STORED_ID_##store(n)
#include "record_fields.def"
#undef CL_FIELD
};

/* Columns of a stage row: the tenant, the stored fields, load_id,
 * ordinal and the journal's key. */
#define STAGE_COLUMNS ((int)sizeof(stored_ids) + 4)

/* One field's value as a binary COPY column, NULL for none. */
static void copy_field(struct cl_copy_in *c, const struct cl_field *f, const struct cl_record *r)
{
	const char *p = (const char *)r + f->offset;

	switch ((enum cl_field_type)f->type) {
	case CL_FT_STATIC:
		cl_copy_text(c, cl_field_str(f, r), false);
		return;
	case CL_FT_TEXT:
		cl_copy_text(c, p, !(f->flags & CL_FF_NOTNULL));
		return;
	case CL_FT_DATE: {
		long days;

		if (cl_date_days(p, &days))
			cl_copy_date(c, days);
		else
			cl_copy_null(c); /* "": none (the parsers check every date) */
		return;
	}
	case CL_FT_HASHOPT:
		if (!cl_field_has(f, r)) {
			cl_copy_null(c);
			return;
		}
		/* fall through */
	case CL_FT_HASH:
		cl_copy_bytes(c, p, 32);
		return;
	case CL_FT_AMOUNT:
		cl_copy_int8(c, r->amount_minor);
		return;
	case CL_FT_DIR:
		cl_copy_text(c, cl_direction_name(*(const enum cl_direction *)(const void *)p), true);
		return;
	case CL_FT_LINE:
		cl_copy_int8(c, (int64_t) * (const unsigned long *)(const void *)p);
		return;
	case CL_FT_COUNT:
		cl_copy_int4(c, (int32_t) * (const unsigned *)(const void *)p);
		return;
	case CL_FT_DERIVED: {
		/* the only derived field: the near identity, "" (NULL) for the
		   kinds the rule is not about */
		char near[CL_NEAR_KEY_MAX];

		cl_near_key(r, near, sizeof(near));
		cl_copy_text(c, near, true);
		return;
	}
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
