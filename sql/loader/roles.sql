-- roles.sql - least-privilege roles and row-level security (loader/roles.c;
-- the definitions: 015_append_only_roles.sql).

-- name: roles_record
-- Role $1 is of kind $2 (loader, reader, consumer); a role has one kind.
-- Returns a row only when the role exists.
INSERT INTO clearing_role (role_name, role_kind)
SELECT r.rolname, $2 FROM pg_catalog.pg_roles r WHERE r.rolname = $1
ON CONFLICT (role_name) DO UPDATE SET role_kind = excluded.role_kind
RETURNING role_name

-- name: roles_tenant_access
-- Role $1 (and its members) may see tenant $2 under row-level security.
-- Returns a row only when the role exists.
INSERT INTO clearing_tenant_access (role_name, tenant)
SELECT r.rolname, $2 FROM pg_catalog.pg_roles r WHERE r.rolname = $1
ON CONFLICT (role_name, tenant) DO UPDATE SET tenant = excluded.tenant
RETURNING role_name

-- name: roles_grant
-- Grant every recorded role exactly its kind's privileges; the number of
-- roles.
SELECT clearing_apply_grants()

-- name: roles_row_security
-- Row-level security on ($1 true) or off; the number of tables.
SELECT clearing_set_row_security($1::boolean)
