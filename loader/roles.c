/* roles.c - least-privilege roles and row-level security (see roles.h). */
#include "loader/roles.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>

#include "gen/loader_sql.h"
#include "loader/failpoint.h"

const char *cl_role_kind_name(enum cl_role_kind k)
{
	return k == CL_ROLE_LOADER ? "loader" : k == CL_ROLE_READER ? "reader" : "consumer";
}


/* Run an INSERT ... RETURNING that gives a row only when role `role`
 * exists. */
static enum cl_db_status record(struct cl_db *db, const char *sql, const char *role,
				const char *value, struct cl_error *err)
{
	const char *p[2] = { role, value };
	PGresult *res;
	enum cl_db_status st = cl_db_exec(db, sql, 2, p, &res, err);
	int rows;

	if (st != CL_DB_OK)
		return st;
	rows = PQntuples(res);
	PQclear(res);
	if (rows == 1)
		return CL_DB_OK;
	cl_error_set(err, NULL, 0, "no_role", "role \"%s\" does not exist", role);
	cl_error_hint(err, "create it first (CREATE ROLE ... LOGIN), then run init again");
	return CL_DB_ERROR;
}

static enum cl_db_status count(struct cl_db *db, const char *sql, int n, const char *const *p,
			       unsigned *out, struct cl_error *err)
{
	char b[24];
	enum cl_db_status st = cl_db_value(db, sql, n, p, b, sizeof(b), err);

	*out = st == CL_DB_OK ? (unsigned)strtoul(b, NULL, 10) : 0;
	return st;
}

struct roles_txn {
	const struct cl_roles_request *req;
	struct cl_roles_result *r;
};

static enum cl_db_status roles_txn(struct cl_db *db, void *ctx, struct cl_error *err)
{
	const struct cl_roles_request *req = ((struct roles_txn *)ctx)->req;
	struct cl_roles_result *r = ((struct roles_txn *)ctx)->r;
	enum cl_db_status st;
	const char *on[1];

	r->granted = r->rls_tables = 0;
	if ((st = cl_db_exec(db, CL_SQL_DB_BEGIN, 0, NULL, NULL, err)) != CL_DB_OK ||
	    (st = cl_db_exec(db, CL_SQL_SCHEMA_LOCK, 0, NULL, NULL, err)) != CL_DB_OK)
		goto fail;
	for (unsigned i = 0; i < req->nroles; i++)
		if ((st = record(db, CL_SQL_ROLES_RECORD, req->role[i],
				 cl_role_kind_name(req->kind[i]), err)) != CL_DB_OK)
			goto fail;
	for (unsigned i = 0; i < req->naccess; i++)
		if ((st = record(db, CL_SQL_ROLES_TENANT_ACCESS, req->access_role[i],
				 req->access_tenant[i], err)) != CL_DB_OK)
			goto fail;
	CL_FAILPOINT("init_roles_recorded", db->conn);
	if ((st = count(db, CL_SQL_ROLES_GRANT, 0, NULL, &r->granted, err)) != CL_DB_OK)
		goto fail;
	on[0] = req->row_security > 0 ? "true" : "false";
	if (req->row_security >= 0 &&
	    (st = count(db, CL_SQL_ROLES_ROW_SECURITY, 1, on, &r->rls_tables, err)) != CL_DB_OK)
		goto fail;
	if ((st = cl_db_exec(db, CL_SQL_DB_COMMIT, 0, NULL, NULL, err)) != CL_DB_OK)
		goto fail;
	return CL_DB_OK;
fail:
	cl_db_rollback(db);
	return st;
}

enum cl_db_status cl_roles_apply(struct cl_db *db, const struct cl_roles_request *req,
				 struct cl_roles_result *r, struct cl_error *err)
{
	struct roles_txn t = { req, r };

	/* run again on a deadlock or a serialization failure (db.h) */
	return cl_db_run_txn(db, roles_txn, &t, NULL, err);
}
