/* explain.c - what each conflict differs in, and (quarantine) the
 * conflicting records parked with their full content, both from the
 * stage: the file is not read again. */
#include "load_int.h"

#include "loader_sql.h"

enum cl_db_status cl_explain_conflicts(struct load *L)
{
	enum cl_db_status st;

	if ((st = cl_load_exec0(L, CL_SQL_EXPLAIN_FIELDS)) != CL_DB_OK)
		return st;
	if (L->o->on_conflict == CL_ON_CONFLICT_QUARANTINE)
		st = cl_load_exec0(L, CL_SQL_EXPLAIN_QUARANTINE);
	return st;
}
