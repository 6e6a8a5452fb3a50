/* statement_field_text.c - a column of a bank's answer item as text
 * (statement_fields.h), apart from the descriptor table so that the SQL
 * generator links the table alone. */
#include "rules/statement_fields.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "rules/statement_identity.h"

const char *cl_stmt_field_text(const struct cl_stmt_field *f, const struct cl_stmt_row *row,
			       char buf[CL_STMT_FIELD_TEXT_MAX], bool *number)
{
	const char *m = (const char *)row + f->offset;

	*number = false;
	if (!(f->items & (1u << row->item)) ||
	    (f->has && !*(const bool *)((const char *)row + f->has - 1)))
		return NULL;
	switch (f->type) {
	case CL_SFT_TEXT:
	case CL_SFT_KEY:
	case CL_SFT_DATE:
		return *m ? m : NULL;
	case CL_SFT_CSTR: {
		const char *s = *(const char *const *)(const void *)m;

		return s && *s ? s : NULL;
	}
	case CL_SFT_ITEM:
		return cl_stmt_item_name(row->item);
	case CL_SFT_HASH:
		for (int i = 0; i < 32; i++)
			snprintf(buf + 2 * i, 3, "%02x", ((const unsigned char *)m)[i]);
		return buf;
	case CL_SFT_BOOL:
		*number = true; /* a JSON literal, unquoted */
		return *(const bool *)(const void *)m ? "true" : "false";
	case CL_SFT_DIR:
		return cl_direction_name(*(const enum cl_direction *)(const void *)m);
	case CL_SFT_AMOUNT:
		snprintf(buf, CL_STMT_FIELD_TEXT_MAX, "%" PRId64, *(const int64_t *)(const void *)m);
		break;
	case CL_SFT_COUNT:
		snprintf(buf, CL_STMT_FIELD_TEXT_MAX, "%lu", *(const unsigned long *)(const void *)m);
		break;
	case CL_SFT_SIGNED: {
		long v = *(const long *)(const void *)m;

		if (v < 0)
			return NULL;
		snprintf(buf, CL_STMT_FIELD_TEXT_MAX, "%ld", v);
		break;
	}
	case CL_SFT_PAGE: {
		unsigned v = *(const unsigned *)(const void *)m;

		if (!v)
			return NULL;
		snprintf(buf, CL_STMT_FIELD_TEXT_MAX, "%u", v);
		break;
	}
	default: /* given by the loader: no value of the row's */
		return NULL;
	}
	*number = true;
	return buf;
}
