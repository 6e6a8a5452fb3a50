/* explain.c - what each conflict differs in, and (quarantine) the
 * conflicting records parked with their full content, both from the
 * stage: the file is not read again.  A held load parks its conflicting
 * records as a quarantined one does (its outcome tells them apart), and
 * the records it would have applied (cl_explain_park_held). */
#include "loader/load_int.h"

#include "gen/loader_sql.h"

enum cl_db_status cl_explain_conflicts(struct load *L)
{
	enum cl_db_status st;

	st = cl_load_exec0(L, L->db->citus ? CL_SQL_EXPLAIN_FIELDS_CITUS : CL_SQL_EXPLAIN_FIELDS);
	if (st != CL_DB_OK)
		return st;
	/* held or quarantined, the new versions are kept for `conflicts` and
	   `resolve`; diff keeps nothing */
	if (!L->o->dry_run)
		st = cl_load_exec0(L, L->db->citus ? CL_SQL_EXPLAIN_QUARANTINE_CITUS
						 : CL_SQL_EXPLAIN_QUARANTINE);
	return st;
}

/* A held file's records that would have been applied, parked once its
 * journal rows are written (they tell them apart): nothing else keeps
 * them.  None new: no pending table either. */
enum cl_db_status cl_explain_park_held(struct load *L)
{
	if (!L->r->new_count)
		return CL_DB_OK;
	return cl_load_exec0(L, CL_SQL_EXPLAIN_PARK_HELD);
}
