/*
 * roles.h - `clearing-load init --loader-role/--reader-role/--consumer-role`,
 * `--tenant-access` and `--row-security`: the database's least-privilege
 * roles (migration 015; clearing-load(1) PRIVILEGES).
 *
 * The privileges of each kind of role are defined once, in the table
 * clearing_privilege; the roles init was told about are kept in
 * clearing_role, and every init grants each of them exactly its kind's
 * privileges (everything else on clearing-load's relations is revoked), so
 * a table a later migration adds reaches them.  Nothing here prints.
 */
#ifndef CL_ROLES_H
#define CL_ROLES_H

#include <stdbool.h>

#include "loader/db.h"

#define CL_ROLES_MAX 32 /* roles and tenant grants on one command line */

enum cl_role_kind { CL_ROLE_LOADER, CL_ROLE_READER, CL_ROLE_CONSUMER };

struct cl_roles_request {
	const char *role[CL_ROLES_MAX];   /* role names ... */
	enum cl_role_kind kind[CL_ROLES_MAX]; /* ... and their kinds */
	unsigned nroles;
	const char *access_role[CL_ROLES_MAX]; /* --tenant-access ROLE=TENANT */
	const char *access_tenant[CL_ROLES_MAX];
	unsigned naccess;
	int row_security;                 /* -1 not asked, 0 off, 1 on */
};

struct cl_roles_result {
	unsigned granted;     /* roles granted their privileges (all of clearing_role) */
	unsigned rls_tables;  /* tables whose row-level security was switched */
};

/* Record the request's roles and tenant grants, grant every recorded role
 * its privileges, switch row-level security when asked: one transaction.
 * A role that does not exist is CL_DB_ERROR with err->code "no_role" (or
 * the server's 42704). */
enum cl_db_status cl_roles_apply(struct cl_db *db, const struct cl_roles_request *req,
				 struct cl_roles_result *r, struct cl_error *err) CL_MUST_CHECK;

const char *cl_role_kind_name(enum cl_role_kind k);

#endif
