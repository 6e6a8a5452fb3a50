/*
 * statement_fields.h - the columns of a bank's answer item
 * (statement_fields.def): one descriptor each, in the order of the .def,
 * which is the order of the stage's COPY (loader/statement_load.c writes
 * a row by walking this table; sql/gen_record_sql.c writes the SQL
 * column lists from it).
 */
#ifndef CL_STATEMENT_FIELDS_H
#define CL_STATEMENT_FIELDS_H

#include <stdbool.h>
#include <stddef.h>

enum cl_stmt_field_type {
	CL_SFT_TEXT, CL_SFT_CSTR, CL_SFT_KEY, CL_SFT_ITEM, CL_SFT_HASH, CL_SFT_DATE,
	CL_SFT_BOOL, CL_SFT_DIR, CL_SFT_AMOUNT, CL_SFT_COUNT, CL_SFT_SIGNED, CL_SFT_PAGE,
	/* given by the loader */
	CL_SFT_TENANT, CL_SFT_RULE, CL_SFT_LOAD, CL_SFT_ORDINAL, CL_SFT_JOURNAL_KEY,
};

/* the rows that carry a column: 1 << enum cl_stmt_row_item */
#define CL_SI_STATEMENT 1u
#define CL_SI_ENTRY 2u
#define CL_SI_STATUS 4u
#define CL_SI_TX 8u
#define CL_SI_ALL 15u

#define CL_SF_COMPARED 1u
#define CL_SF_FP_S 2u
#define CL_SF_FP_E 4u
#define CL_SF_FP_T 8u
#define CL_SF_STAGE 16u
#define CL_SF_FP_X 32u

struct cl_stmt_field {
	const char *name;
	enum cl_stmt_field_type type;
	unsigned items;  /* CL_SI_* */
	unsigned flags;  /* CL_SF_* */
	size_t offset;   /* of the member in struct cl_stmt_row (not given) */
	size_t has;      /* of the bool saying it is present, + 1; 0: always */
};

extern const struct cl_stmt_field cl_stmt_fields[];
extern const size_t cl_stmt_nfields;

/* The index of each column in cl_stmt_fields[]; CL_STMT_COLUMN(n) its name
 * (a column named in C is named through the table). */
enum cl_stmt_column {
#define CL_STMT_FIELD(name, type, member, items, flags) CL_SC_##name,
#define CL_STMT_OPT(name, type, member, has, items, flags) CL_SC_##name,
#define CL_STMT_GIVEN(name, type, items, flags) CL_SC_##name,
#include "rules/statement_fields.def"
#undef CL_STMT_FIELD
#undef CL_STMT_OPT
#undef CL_STMT_GIVEN
	CL_SC_COUNT
};
#define CL_STMT_COLUMN(n) (cl_stmt_fields[CL_SC_##n].name)

struct cl_stmt_row;

/* Column f of row as text, for output to a person or a program (parse):
 * NULL when the row has no value there (a column its item does not
 * carry, an absent amount, "" text, a negative SIGNED, a PAGE of 0, and
 * every column the loader gives); the item and direction by name, the
 * fingerprint in hex, numbers in decimal.  *number is set for numbers and
 * booleans (JSON writes them unquoted).  The result is the row's own text
 * or buf. */
#define CL_STMT_FIELD_TEXT_MAX 65
const char *cl_stmt_field_text(const struct cl_stmt_field *f, const struct cl_stmt_row *row,
			       char buf[CL_STMT_FIELD_TEXT_MAX], bool *number);

#endif
