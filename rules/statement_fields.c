/* statement_fields.c - the descriptor table of statement_fields.def
 * (statement_fields.h). */
#include "rules/statement_fields.h"

#include <stddef.h>

#include "rules/statement_identity.h"

#define STATEMENT CL_SI_STATEMENT
#define ENTRY CL_SI_ENTRY
#define STATUS CL_SI_STATUS
#define ALL CL_SI_ALL
#define COMPARED CL_SF_COMPARED
#define FP_S CL_SF_FP_S
#define FP_E CL_SF_FP_E
#define FP_T CL_SF_FP_T
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

_Static_assert(sizeof(cl_stmt_fields) / sizeof(cl_stmt_fields[0]) == CL_SC_COUNT,
	       "one descriptor a column");
