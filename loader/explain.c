/* explain.c - what each conflict differs in, and (quarantine) the
 * conflicting records parked with their full content, both from the
 * stage: the file is not read again.  A held load parks its conflicting
 * records as a quarantined one does (its outcome tells them apart), and
 * the records it would have applied. */
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
	/* a held file's new records too: nothing else keeps them (none new:
	   no pending table either); on Citus once its journal rows are
	   written (cl_explain_park_held_citus) */
	if (st == CL_DB_OK && !L->o->dry_run && L->o->on_conflict == CL_ON_CONFLICT_HOLD &&
	    L->r->new_count && !L->db->citus)
		st = cl_load_exec0(L, CL_SQL_EXPLAIN_PARK_HELD);
	return st;
}

enum cl_db_status cl_explain_park_held_citus(struct load *L)
{
	if (!L->db->citus || L->o->dry_run || !L->r->new_count)
		return CL_DB_OK;
	return cl_load_exec0(L, CL_SQL_EXPLAIN_PARK_HELD_CITUS);
}
