-- 025: on a Citus coordinator, the per-record tables distributed on their
-- shard identity (docs/design/0023-citus-distribution.md; clearing-load-keys(7),
-- SCALING).  On any other PostgreSQL (no citus extension in this database)
-- it does nothing.
--
-- clearing_record, clearing_quarantine and clearing_trace_shard become
-- distributed tables on shard, co-located: every probe of a record names its
-- shard (classify.sql), so it goes to one shard, and the unique key
-- (tenant, kind, natural_key, shard) stays global because the shard is a
-- function of the kind and the natural key (migration 022).  Citus wants
-- every unique constraint to contain the distribution column: the record's
-- key gains shard (under its name, clearing_record_key, which the loader's
-- ON CONFLICT names), the quarantine's (load_id, ordinal) too (one staged
-- record has one shard, so nothing that was unique stops being).
--
-- clearing_tenant_access becomes a reference table (a copy on every node):
-- the row-security policy reads it through clearing_visible_tenants() in
-- each shard's query, on the workers.  Citus cannot send 015's policy (a
-- subquery, evaluated once per statement) to the shards: here the policy
-- calls the function (STABLE) instead, and clearing_set_row_security makes
-- it so on every table it is asked to.  Everything whose order matters stays
-- a local table of the coordinator: the load history and its identity, the
-- feed's commit numbers and consumers, the journal (no shard column yet),
-- the archive, the prune audit, the roles, the schema version; advisory
-- locks and NOTIFY are the coordinator's.
--
-- Append-only: Citus refuses a table with triggers unless
-- citus.enable_unsafe_triggers is on.  The append-only statement triggers
-- (015) and 023's AFTER INSERT row trigger are dropped, the tables
-- distributed, and the triggers made again with the setting on for this
-- transaction: Citus then creates them on every shard, where a distributed
-- UPDATE or DELETE fires them (each shard's statement trigger refuses it,
-- tests/citus/run.sh).  023's trigger writes the co-located shard of
-- clearing_trace_shard of the same shard value, on the same node.
--
-- Runs again harmlessly: a table already distributed is left as it is.
DO $citus$
DECLARE
	t text;
	f regprocedure;
	rls boolean;
	ns oid := (SELECT relnamespace FROM pg_catalog.pg_class
		   WHERE oid = 'clearing_record'::regclass);
BEGIN
	IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_extension WHERE extname = 'citus') THEN
		RETURN;
	END IF;
	IF EXISTS (SELECT 1 FROM pg_catalog.pg_inherits
		   WHERE inhparent = 'clearing_record'::regclass) THEN
		RAISE EXCEPTION 'clearing_record is hash-partitioned (init --partitions): '
				'on Citus it is distributed on its shard instead'
			USING ERRCODE = '0A000',
			      HINT = 'run init without --partitions in a new database on the Citus coordinator';
	END IF;
	IF EXISTS (SELECT 1 FROM pg_catalog.pg_class c
		   JOIN pg_dist_partition p ON p.logicalrelid = c.oid
		   WHERE c.oid = 'clearing_record'::regclass) THEN
		RETURN;
	END IF;

	-- Citus cannot send a policy with a subquery to the shards (015's
	-- initplan form): on these tables the policy calls the function for
	-- each row instead, and is made again after the distribution when
	-- row-level security was on
	rls := (SELECT c.relrowsecurity FROM pg_catalog.pg_class c
		WHERE c.oid = 'clearing_record'::regclass);
	EXECUTE $f$
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
					'(tenant = ANY (clearing_visible_tenants()))', t.rel);
			END IF;
			EXECUTE pg_catalog.format('ALTER TABLE %s %s ROW LEVEL SECURITY', t.rel,
						  CASE WHEN on_ THEN 'ENABLE' ELSE 'DISABLE' END);
			n := n + 1;
		END LOOP;
		EXECUTE pg_catalog.format('ALTER VIEW clearing_feed SET (security_invoker = %s)',
					  CASE WHEN on_ THEN 'on' ELSE 'off' END);
		RETURN n;
	END
	$$
	$f$;
	-- the policy's function reads the reference table inside a shard's
	-- query, on a node that holds a copy of it: a read of that local copy,
	-- which Citus refuses as nested unless told
	ALTER FUNCTION clearing_visible_tenants() SET citus.allow_nested_distributed_execution = on;
	FOREACH t IN ARRAY ARRAY['clearing_record', 'clearing_quarantine', 'clearing_trace_shard'] LOOP
		EXECUTE pg_catalog.format('DROP POLICY IF EXISTS clearing_tenant ON %I', t);
	END LOOP;

	DROP TRIGGER IF EXISTS clearing_record_trace_shard ON clearing_record;
	FOREACH t IN ARRAY ARRAY['clearing_record', 'clearing_quarantine', 'clearing_trace_shard'] LOOP
		EXECUTE pg_catalog.format('DROP TRIGGER IF EXISTS %I ON %I', t || '_append_only', t);
	END LOOP;
	ALTER TABLE clearing_record DROP CONSTRAINT clearing_record_key,
		ADD CONSTRAINT clearing_record_key PRIMARY KEY (tenant, kind, natural_key, shard);
	ALTER TABLE clearing_quarantine DROP CONSTRAINT clearing_quarantine_pkey,
		ADD CONSTRAINT clearing_quarantine_pkey PRIMARY KEY (load_id, ordinal, shard);

	PERFORM create_distributed_table('clearing_record', 'shard');
	PERFORM create_distributed_table('clearing_quarantine', 'shard',
					 colocate_with => 'clearing_record');
	PERFORM create_distributed_table('clearing_trace_shard', 'shard',
					 colocate_with => 'clearing_record');
	PERFORM create_reference_table('clearing_tenant_access');

	-- the rows of before are in the shards now; their copy in the
	-- coordinator's own table (account numbers among them) goes
	FOREACH t IN ARRAY ARRAY['clearing_record', 'clearing_quarantine', 'clearing_trace_shard',
				 'clearing_tenant_access'] LOOP
		PERFORM truncate_local_data_after_distributing_table(t::regclass);
	END LOOP;

	-- the functions the shards' queries, policies and triggers call, on
	-- every node (after the tables: a function of SQL reads its tables
	-- when it is made)
	FOR f IN SELECT p.oid::regprocedure FROM pg_catalog.pg_proc p
		 WHERE p.pronamespace = ns AND p.proname LIKE 'clearing\_%' AND p.prokind = 'f'
		 ORDER BY p.oid
	LOOP
		PERFORM create_distributed_function(f);
	END LOOP;

	PERFORM pg_catalog.set_config('citus.enable_unsafe_triggers', 'on', true);
	PERFORM clearing_make_append_only(x::regclass)
	FROM unnest(ARRAY['clearing_record', 'clearing_quarantine', 'clearing_trace_shard']) AS x;
	CREATE TRIGGER clearing_record_trace_shard AFTER INSERT ON clearing_record
		FOR EACH ROW WHEN (NEW.kind IN ('ach.return', 'ach.noc') AND NEW.trace_number IS NOT NULL)
		EXECUTE FUNCTION clearing_note_trace_shard();
	IF rls THEN
		PERFORM clearing_set_row_security(true);
	END IF;
END
$citus$;
