/* statement_fields.c - the descriptor table of statement_fields.def
 * (statement_fields.h). */
#include "rules/statement_fields.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rules/statement_identity.h"

#define STATEMENT CL_SI_STATEMENT
#define ENTRY CL_SI_ENTRY
#define STATUS CL_SI_STATUS
#define TX CL_SI_TX
#define ALL CL_SI_ALL
#define COMPARED CL_SF_COMPARED
#define FP_S CL_SF_FP_S
#define FP_E CL_SF_FP_E
#define FP_T CL_SF_FP_T
#define FP_X CL_SF_FP_X
#define STAGE CL_SF_STAGE

const struct cl_stmt_field cl_stmt_fields[] = {
#define CL_STMT_FIELD(name, type, member, items, flags) \
	{ #name, CL_SFT_##type, items, flags, offsetof(struct cl_stmt_row, member), 0 },
#define CL_STMT_OPT(name, type, member, has, items, flags) \
	{ #name, CL_SFT_##type, items, flags, offsetof(struct cl_stmt_row, member), \
	  offsetof(struct cl_stmt_row, has) + 1 },
#define CL_STMT_GIVEN(name, type, items, flags) { #name, CL_SFT_##type, items, flags, 0, 0 },
#include "rules/statement_fields.def"
#undef CL_STMT_FIELD
#undef CL_STMT_OPT
#undef CL_STMT_GIVEN
};

const size_t cl_stmt_nfields = sizeof(cl_stmt_fields) / sizeof(cl_stmt_fields[0]);

/* Each member has the C type its column's type says (the writer reads it
 * as that type). */
#define IS_TEXT(m) _Generic((m), char *: 1, default: 0)
#define IS_KEY(m) IS_TEXT(m)
#define IS_DATE(m) IS_TEXT(m)
#define IS_CSTR(m) _Generic((m), const char *: 1, default: 0)
#define IS_ITEM(m) _Generic((m), enum cl_stmt_row_item: 1, default: 0)
#define IS_HASH(m) (_Generic((m), unsigned char *: 1, default: 0) && sizeof(m) == 32)
#define IS_BOOL(m) _Generic((m), bool: 1, default: 0)
#define IS_DIR(m) _Generic((m), enum cl_direction: 1, default: 0)
#define IS_AMOUNT(m) _Generic((m), int64_t: 1, default: 0)
#define IS_COUNT(m) _Generic((m), unsigned long: 1, default: 0)
#define IS_SIGNED(m) _Generic((m), long: 1, default: 0)
#define IS_PAGE(m) _Generic((m), unsigned: 1, default: 0)
#define ROW (((struct cl_stmt_row *)0))
#define CL_STMT_FIELD(name, type, member, items, flags) \
	_Static_assert(IS_##type(ROW->member), #name ": member " #member " is no " #type);
#define CL_STMT_OPT(name, type, member, has, items, flags) \
	CL_STMT_FIELD(name, type, member, items, flags) \
	_Static_assert(IS_BOOL(ROW->has), #name ": " #has " is no bool");
#define CL_STMT_GIVEN(name, type, items, flags)
#include "rules/statement_fields.def"
#undef CL_STMT_FIELD
#undef CL_STMT_OPT
#undef CL_STMT_GIVEN

_Static_assert(sizeof(cl_stmt_fields) / sizeof(cl_stmt_fields[0]) == CL_SC_COUNT,
	       "one descriptor a column");
