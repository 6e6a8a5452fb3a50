-- 015: records, the journal and the load history are append-only in the
-- database itself; least-privilege roles; optional row-level security by
-- tenant (clearing-load(1) PRIVILEGES).
--
-- Append-only: a statement trigger refuses UPDATE and DELETE on every table
-- that says what happened (records, journal, quarantined versions, load
-- history, archive paths, feed commits, prune audits), so that neither a
-- loader nor a mistaken owner script can rewrite them.  The documented
-- maintenance commands (init's migrations, prune) say so first with the
-- transaction-local setting clearing_load.maintenance; nothing else sets it.
-- TRUNCATE is left to the owner (no role of clearing-load is granted it).
CREATE OR REPLACE FUNCTION clearing_append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
	IF coalesce(pg_catalog.current_setting('clearing_load.maintenance', true), '') <> '' THEN
		RETURN NULL;
	END IF;
	RAISE EXCEPTION '% on %.% refused: the table is append-only', TG_OP, TG_TABLE_SCHEMA, TG_TABLE_NAME
		USING ERRCODE = '42501',
		      HINT = 'records, the journal and the load history are never rewritten: a correction '
			     'is a new record (clearing-load resolve), retention is clearing-load prune';
END
$$;

-- Make table t append-only (its partitions too): the trigger above, once.
-- A later migration that adds such a table calls it.
CREATE OR REPLACE FUNCTION clearing_make_append_only(t regclass) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	p regclass;
BEGIN
	FOR p IN
		SELECT t UNION ALL
		SELECT i.inhrelid::regclass FROM pg_catalog.pg_inherits i WHERE i.inhparent = t
	LOOP
		EXECUTE pg_catalog.format('DROP TRIGGER IF EXISTS %I ON %s',
					  (SELECT relname FROM pg_catalog.pg_class WHERE oid = p) || '_append_only', p);
		EXECUTE pg_catalog.format('CREATE TRIGGER %I BEFORE UPDATE OR DELETE ON %s '
					  'FOR EACH STATEMENT EXECUTE FUNCTION clearing_append_only()',
					  (SELECT relname FROM pg_catalog.pg_class WHERE oid = p) || '_append_only', p);
	END LOOP;
END
$$;

SELECT clearing_make_append_only(t) FROM unnest(ARRAY[
	'clearing_record', 'clearing_dedupe_event', 'clearing_quarantine',
	'clearing_load', 'clearing_load_archive', 'clearing_feed_commit',
	'clearing_prune_audit']::regclass[]) AS t;

-- What each kind of role may do with each relation, the one definition of
-- the roles (a later migration that adds a table adds its rows here).
--   loader:   loads files: reads what it classifies against, inserts its
--             records, journal rows, quarantined versions, its load row,
--             archive paths and feed commit; nothing is updated or deleted.
--   reader:   show, loads, diff (a dry run writes nothing), SQL readers.
--   consumer: a downstream system reading the feed and acknowledging it.
CREATE TABLE IF NOT EXISTS clearing_privilege (
	relation   text NOT NULL,   -- a table, view or sequence of this schema
	role_kind  text NOT NULL CHECK (role_kind IN ('loader', 'reader', 'consumer')),
	privileges text NOT NULL CHECK (privileges ~ '^[A-Z]+(, [A-Z]+)*$'),
	PRIMARY KEY (relation, role_kind)
);

INSERT INTO clearing_privilege (relation, role_kind, privileges) VALUES
	('clearing_schema_version', 'loader', 'SELECT'),
	('clearing_record', 'loader', 'SELECT, INSERT'),
	('clearing_dedupe_event', 'loader', 'SELECT, INSERT'),
	('clearing_quarantine', 'loader', 'SELECT, INSERT'),
	('clearing_load', 'loader', 'SELECT, INSERT'),
	('clearing_load_load_id_seq', 'loader', 'USAGE'),
	('clearing_load_archive', 'loader', 'SELECT, INSERT'),
	('clearing_feed_commit', 'loader', 'SELECT, INSERT'),
	('clearing_feed_seq', 'loader', 'USAGE'),
	('clearing_schema_version', 'reader', 'SELECT'),
	('clearing_record', 'reader', 'SELECT'),
	('clearing_dedupe_event', 'reader', 'SELECT'),
	('clearing_quarantine', 'reader', 'SELECT'),
	('clearing_load', 'reader', 'SELECT'),
	('clearing_load_archive', 'reader', 'SELECT'),
	('clearing_feed_commit', 'reader', 'SELECT'),
	('clearing_feed', 'reader', 'SELECT'),
	('clearing_prune_audit', 'reader', 'SELECT'),
	('clearing_schema_version', 'consumer', 'SELECT'),
	('clearing_record', 'consumer', 'SELECT'),
	('clearing_feed_commit', 'consumer', 'SELECT'),
	('clearing_feed', 'consumer', 'SELECT'),
	('clearing_feed_consumer', 'consumer', 'SELECT, INSERT, UPDATE')
ON CONFLICT DO NOTHING;

-- The roles init was told about (init --loader-role and the others).
CREATE TABLE IF NOT EXISTS clearing_role (
	role_name  name PRIMARY KEY,
	role_kind  text NOT NULL CHECK (role_kind IN ('loader', 'reader', 'consumer'))
);

-- Which tenants a role (and every role that is a member of it) may see and
-- load when row-level security is on.
CREATE TABLE IF NOT EXISTS clearing_tenant_access (
	role_name  name NOT NULL,
	tenant     text NOT NULL,
	PRIMARY KEY (role_name, tenant)
);

-- Exactly the privileges of clearing_privilege for every role of
-- clearing_role: everything else on those relations is revoked first.
-- Run by every init, so that a table added by a later migration reaches
-- the roles set up before it.
CREATE OR REPLACE FUNCTION clearing_apply_grants() RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
	r record;
	p record;
	n integer := 0;
	ns oid := (SELECT relnamespace FROM pg_catalog.pg_class
		   WHERE oid = 'clearing_privilege'::regclass);
BEGIN
	FOR r IN SELECT role_name, role_kind FROM clearing_role ORDER BY role_name LOOP
		IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = r.role_name) THEN
			RAISE EXCEPTION 'role "%" does not exist', r.role_name
				USING ERRCODE = '42704',
				      HINT = 'create it first (CREATE ROLE ... LOGIN), then run init again';
		END IF;
		EXECUTE pg_catalog.format('GRANT USAGE ON SCHEMA %I TO %I', ns::regnamespace, r.role_name);
		FOR p IN
			SELECT c.oid::regclass AS rel, c.relkind,
			       (SELECT v.privileges FROM clearing_privilege v
				WHERE v.relation = c.relname AND v.role_kind = r.role_kind) AS privileges
			FROM pg_catalog.pg_class c
			WHERE c.relnamespace = ns
			  AND c.relname IN (SELECT relation FROM clearing_privilege)
		LOOP
			EXECUTE pg_catalog.format('REVOKE ALL ON %s %s FROM %I',
						  CASE WHEN p.relkind = 'S' THEN 'SEQUENCE' ELSE 'TABLE' END,
						  p.rel, r.role_name);
			IF p.privileges IS NOT NULL THEN
				EXECUTE pg_catalog.format('GRANT %s ON %s %s TO %I', p.privileges,
							  CASE WHEN p.relkind = 'S' THEN 'SEQUENCE' ELSE 'TABLE' END,
							  p.rel, r.role_name);
			END IF;
		END LOOP;
		n := n + 1;
	END LOOP;
	RETURN n;
END
$$;

-- The tenants the login role may see: those of clearing_tenant_access for
-- it and for every role it is a member of.  SECURITY DEFINER so that no
-- role needs to read the table (it names every tenant); session_user, the
-- login role, because inside the function current_user is the owner.
CREATE OR REPLACE FUNCTION clearing_visible_tenants() RETURNS text[]
LANGUAGE sql STABLE SECURITY DEFINER SET search_path FROM CURRENT AS $$
	SELECT coalesce(pg_catalog.array_agg(a.tenant), '{}')
	FROM clearing_tenant_access a
	JOIN pg_catalog.pg_roles r ON r.rolname = a.role_name
	WHERE pg_catalog.pg_has_role(session_user, r.oid, 'MEMBER')
$$;

-- Row-level security on or off for every table of clearing_privilege that
-- has a tenant column: one policy, a role sees and writes only the rows of
-- its tenants.  The owner is not subject to it (it is not forced).  With
-- it on, the feed view runs with its reader's rights (security_invoker,
-- PostgreSQL 15 and later), so the policy reaches through it.
CREATE OR REPLACE FUNCTION clearing_set_row_security(on_ boolean) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
	t record;
	n integer := 0;
	ns oid := (SELECT relnamespace FROM pg_catalog.pg_class
		   WHERE oid = 'clearing_privilege'::regclass);
BEGIN
	FOR t IN
		SELECT c.oid::regclass AS rel, c.oid FROM pg_catalog.pg_class c
		WHERE c.relnamespace = ns AND c.relkind IN ('r', 'p')
		  AND c.relname IN (SELECT relation FROM clearing_privilege)
		  AND EXISTS (SELECT 1 FROM pg_catalog.pg_attribute a
			      WHERE a.attrelid = c.oid AND a.attname = 'tenant' AND NOT a.attisdropped)
	LOOP
		IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_policy
			       WHERE polrelid = t.oid AND polname = 'clearing_tenant') THEN
			EXECUTE pg_catalog.format('CREATE POLICY clearing_tenant ON %s USING '
				'(tenant = ANY ((SELECT clearing_visible_tenants())::text[]))', t.rel);
		END IF;
		EXECUTE pg_catalog.format('ALTER TABLE %s %s ROW LEVEL SECURITY', t.rel,
					  CASE WHEN on_ THEN 'ENABLE' ELSE 'DISABLE' END);
		n := n + 1;
	END LOOP;
	IF pg_catalog.current_setting('server_version_num')::integer >= 150000 THEN
		EXECUTE pg_catalog.format('ALTER VIEW clearing_feed SET (security_invoker = %s)',
					  CASE WHEN on_ THEN 'on' ELSE 'off' END);
	END IF;
	RETURN n;
END
$$;
