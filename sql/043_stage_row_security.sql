-- 043: row security stays off the stage tables of a Citus coordinator
-- (clearing_stage, 035; clearing_stage_match, 042), and
-- clearing_set_row_security has one definition again (it had 015's and
-- 025's, which differed only in the policy's form).
--
-- A load COPYs its records into its stage, and PostgreSQL refuses COPY FROM
-- into a table whose row security is active for the role ("COPY FROM not
-- supported with row-level security"): on Citus, every load by a role under
-- row security failed.  The stage tables are on Citus what one server's
-- temporary tables are (sql/loader/stage.sql, classify.sql): a load writes
-- its rows and deletes them in its own transaction, so no other session
-- ever sees one, and one server has no row security on them either.  Row
-- security applies where the rows land, as on one server: the records, the
-- quarantine and the journal (the policy's check on INSERT), and the
-- loader's own check of its tenant before it starts (load.sql,
-- load_row_security_denies).
--
-- The policy: one server evaluates the visible tenants once a statement
-- (an initplan); Citus cannot send that form to the shards, so there the
-- policy calls the function (STABLE) in each shard's query (025).
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
		IF t.relname IN ('clearing_stage', 'clearing_stage_match') THEN
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

-- what an earlier init left on the stage tables goes now
DO $stage_rls$
BEGIN
	IF pg_catalog.to_regclass('clearing_stage') IS NOT NULL THEN
		PERFORM clearing_set_row_security(
			(SELECT c.relrowsecurity FROM pg_catalog.pg_class c
			 WHERE c.oid = 'clearing_record'::regclass));
	END IF;
END
$stage_rls$;
