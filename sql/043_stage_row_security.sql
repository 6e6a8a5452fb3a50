-- 043: row security stays off the stage of a Citus coordinator
-- (clearing_stage, 035), whose rows a load now reads under its attempt's
-- nonce; and clearing_set_row_security has one definition again (it had
-- 015's and 025's, which differed only in the policy's form)
-- (docs/design/0046-distributed-stage.md, "Row security and the stage").
--
-- A load COPYs its records into its stage, and PostgreSQL refuses COPY FROM
-- into a table whose row security is active for the role ("COPY FROM not
-- supported with row-level security"): on Citus, every load by a role under
-- row security failed.  One server's stage is a temporary table, private
-- to the session; Citus's is one table that every loader role may write.
-- Row security kept a role from writing rows of another tenant there, rows
-- another tenant's load would read under a load id the role guessed (load
-- ids come from a sequence).  Now a load reads only the rows of its load id
-- and its nonce, 63 random bits the server draws for each attempt
-- (sql/loader/load.sql, load_set_context), which the load sends with each
-- row it COPYs and no other session sees: rows someone else commits there
-- are never read, whatever their tenant.  Row security applies where the
-- rows land, the records, the quarantine and the journal, as on one
-- server.  clearing_stage_match and clearing_alt_stage, written by
-- INSERT ... SELECT from the stage, keep it.
--
-- The policy: one server evaluates the visible tenants once a statement
-- (an initplan); Citus cannot send that form to the shards, so there the
-- policy calls the function (STABLE) in each shard's query (025).
DO $nonce$
BEGIN
	IF pg_catalog.to_regclass('clearing_stage') IS NOT NULL THEN
		-- (one connection a worker for this transaction: Citus refuses
		-- the distributed function's command below after a parallel
		-- DDL of the stage's shards)
		PERFORM pg_catalog.set_config('citus.multi_shard_modify_mode', 'sequential', true);
		ALTER TABLE clearing_stage ADD COLUMN IF NOT EXISTS nonce bigint;
	END IF;
END
$nonce$;

CREATE OR REPLACE FUNCTION clearing_set_row_security(on_ boolean) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
	t record;
	n integer := 0;
	ns oid := (SELECT relnamespace FROM pg_catalog.pg_class
		   WHERE oid = 'clearing_privilege'::regclass);
	visible text := CASE
		WHEN EXISTS (SELECT 1 FROM pg_catalog.pg_extension WHERE extname = 'citus')
		THEN 'clearing_visible_tenants()'
		ELSE '(SELECT clearing_visible_tenants())::text[]' END;
BEGIN
	FOR t IN
		SELECT c.oid::regclass AS rel, c.oid, c.relname FROM pg_catalog.pg_class c
		WHERE c.relnamespace = ns AND c.relkind IN ('r', 'p')
		  AND c.relname IN (SELECT relation FROM clearing_privilege)
		  AND EXISTS (SELECT 1 FROM pg_catalog.pg_attribute a
			      WHERE a.attrelid = c.oid AND a.attname = 'tenant' AND NOT a.attisdropped)
	LOOP
		-- (Citus's stage: COPYed into, read under a nonce, above)
		IF t.relname = 'clearing_stage' THEN
			EXECUTE pg_catalog.format('DROP POLICY IF EXISTS clearing_tenant ON %s', t.rel);
			EXECUTE pg_catalog.format('ALTER TABLE %s DISABLE ROW LEVEL SECURITY', t.rel);
			CONTINUE;
		END IF;
		IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_policy
			       WHERE polrelid = t.oid AND polname = 'clearing_tenant') THEN
			EXECUTE pg_catalog.format('CREATE POLICY clearing_tenant ON %s USING '
				'(tenant = ANY (%s))', t.rel, visible);
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

-- what an earlier init left on the stage goes now
DO $stage_rls$
BEGIN
	IF pg_catalog.to_regclass('clearing_stage') IS NOT NULL
	   AND (SELECT c.relrowsecurity FROM pg_catalog.pg_class c
		WHERE c.oid = 'clearing_record'::regclass) THEN
		PERFORM clearing_set_row_security(true);
	END IF;
END
$stage_rls$;
