-- 046: init --columnar on a Citus coordinator: the distributed
-- clearing_record's shards in columnar storage
-- (docs/design/0064-columnar-on-citus.md; 045, 0063).
--
-- What 045 does on one server, done the way Citus can:
--   * the table is converted by Citus's own alter_table_set_access_method,
--     which makes a columnar twin of the distributed table (the same shard
--     count, placement, co-location, indexes and policies; new shard names
--     and a new table), moves the rows, drops the old table and makes the
--     views on it again (clearing_feed, its options kept); Citus refuses
--     ALTER TABLE SET ACCESS METHOD on a distributed table.  The grants and
--     comments of both, which the twin and the view made again lack, are
--     given again here, and the new table is analyzed (its statistics are
--     the old table's, gone);
--   * 023's note of a return's shard is a statement trigger on every
--     shard, as on one server, but it reads the rows a shard received one
--     at a time ('each' below): a statement that reads the transition
--     table and writes a distributed table in one (INSERT ... SELECT) is
--     planned by Citus, on the worker, apart from the trigger's transition
--     table ("could not find named tuplestore"); a SELECT of the transition
--     table alone is not Citus's to plan, and each row is written as 023's
--     row trigger wrote it;
--   * the planner settings of sql/loader/columnar.sql (columnar_session)
--     are the database's (ALTER DATABASE ... SET, which Citus sends to
--     every worker): a worker runs a shard's query in a session Citus
--     opened, which takes no setting of the loader's session.  Set once:
--     sql/loader/columnar.sql's columnar_refused asks for the database's
--     owner only while they are not.
-- Runs again harmlessly.

-- 023's note, for every row a statement inserted; with the argument
-- 'each' (Citus), one row at a time.
CREATE OR REPLACE FUNCTION clearing_note_trace_shards() RETURNS trigger
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
	t text;
	n text;
	s bigint;
BEGIN
	IF TG_NARGS > 0 AND TG_ARGV[0] = 'each' THEN
		FOR t, n, s IN SELECT DISTINCT a.tenant, a.trace_number, a.shard FROM added a
			       WHERE a.kind IN ('ach.return', 'ach.noc') AND a.trace_number IS NOT NULL
		LOOP
			INSERT INTO clearing_trace_shard (tenant, trace_number, shard)
			VALUES (t, n, s)
			ON CONFLICT DO NOTHING;
		END LOOP;
		RETURN NULL;
	END IF;
	INSERT INTO clearing_trace_shard (tenant, trace_number, shard)
	SELECT DISTINCT a.tenant, a.trace_number, a.shard FROM added a
	WHERE a.kind IN ('ach.return', 'ach.noc') AND a.trace_number IS NOT NULL
	ON CONFLICT DO NOTHING;
	RETURN NULL;
END
$$;

-- The grants of acl on table or view rel given again (as its owner: the
-- grantor is the role that runs it), but the owner's own; for what
-- clearing_make_columnar's conversion on Citus drops.
CREATE OR REPLACE FUNCTION clearing_grant_again(rel regclass, acl aclitem[]) RETURNS void
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
	g record;
BEGIN
	-- (none: the owner's default privileges, nothing to give)
	IF acl IS NULL OR pg_catalog.cardinality(acl) = 0 THEN
		RETURN;
	END IF;
	FOR g IN SELECT a.grantee, a.privilege_type, a.is_grantable
		 FROM pg_catalog.aclexplode(acl) a
		 WHERE a.grantee <> (SELECT c.relowner FROM pg_catalog.pg_class c WHERE c.oid = rel)
		 ORDER BY 1, 2
	LOOP
		EXECUTE pg_catalog.format('GRANT %s ON %s TO %s%s', g.privilege_type, rel,
			CASE WHEN g.grantee = 0 THEN 'PUBLIC'
			     ELSE pg_catalog.quote_ident((SELECT r.rolname FROM pg_catalog.pg_roles r
							 WHERE r.oid = g.grantee)) END,
			CASE WHEN g.is_grantable THEN ' WITH GRANT OPTION' ELSE '' END);
	END LOOP;
END
$$;

-- clearing_record (each partition of a partitioned one; on Citus the
-- distributed table) converted to columnar storage; returns how many
-- tables it converted (0: it was).
CREATE OR REPLACE FUNCTION clearing_make_columnar() RETURNS integer
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
	citus boolean := EXISTS (SELECT 1 FROM pg_catalog.pg_extension WHERE extname = 'citus');
	heap_tables regclass[];
	t regclass;
	record_acl aclitem[];
	feed_acl aclitem[];
	record_note text;
	feed_note text;
BEGIN
	IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_am WHERE amname = 'columnar') THEN
		IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_available_extensions
			       WHERE name = 'citus_columnar') THEN
			RAISE EXCEPTION 'columnar storage needs the citus_columnar extension, which this '
					'server does not have'
				USING ERRCODE = '0A000',
				      HINT = 'install Citus 13.2 for this PostgreSQL (its citus_columnar '
					     'extension), or init without --columnar';
		END IF;
		-- (on Citus, on every worker too)
		CREATE EXTENSION IF NOT EXISTS citus_columnar;
	END IF;
	-- its tables not yet columnar
	SELECT coalesce(pg_catalog.array_agg(c.oid::regclass ORDER BY c.oid), '{}') INTO heap_tables
	FROM pg_catalog.pg_class c
	WHERE c.relkind = 'r'
	  AND c.relam <> (SELECT a.oid FROM pg_catalog.pg_am a WHERE a.amname = 'columnar')
	  AND (c.oid = 'clearing_record'::regclass
	       OR c.oid IN (SELECT i.inhrelid FROM pg_catalog.pg_inherits i
			    WHERE i.inhparent = 'clearing_record'::regclass));
	-- all of them locked at once, before anything else (a load locks
	-- partitions as it routes rows: one partition at a time could
	-- deadlock with it)
	IF pg_catalog.cardinality(heap_tables) > 0 THEN
		LOCK TABLE clearing_record IN ACCESS EXCLUSIVE MODE;
	END IF;
	-- (on Citus, every trigger made again on every shard, here and by
	-- alter_table_set_access_method, with the setting 025 uses)
	IF citus THEN
		PERFORM pg_catalog.set_config('citus.enable_unsafe_triggers', 'on', true);
	END IF;
	-- the row trigger of 023 first: columnar storage refuses a table
	-- with one
	IF EXISTS (SELECT 1 FROM pg_catalog.pg_trigger
		   WHERE tgrelid = 'clearing_record'::regclass AND tgname = 'clearing_record_trace_shard'
		     AND (tgtype & 1) = 1) THEN
		DROP TRIGGER clearing_record_trace_shard ON clearing_record;
		IF citus THEN
			CREATE TRIGGER clearing_record_trace_shard AFTER INSERT ON clearing_record
				REFERENCING NEW TABLE AS added
				FOR EACH STATEMENT EXECUTE FUNCTION clearing_note_trace_shards('each');
		ELSE
			CREATE TRIGGER clearing_record_trace_shard AFTER INSERT ON clearing_record
				REFERENCING NEW TABLE AS added
				FOR EACH STATEMENT EXECUTE FUNCTION clearing_note_trace_shards();
		END IF;
	END IF;
	IF citus THEN
		IF pg_catalog.cardinality(heap_tables) > 0 THEN
			SELECT c.relacl, pg_catalog.obj_description(c.oid, 'pg_class')
			INTO record_acl, record_note
			FROM pg_catalog.pg_class c WHERE c.oid = 'clearing_record'::regclass;
			SELECT c.relacl, pg_catalog.obj_description(c.oid, 'pg_class')
			INTO feed_acl, feed_note
			FROM pg_catalog.pg_class c WHERE c.oid = pg_catalog.to_regclass('clearing_feed');
			PERFORM alter_table_set_access_method('clearing_record', 'columnar');
			PERFORM clearing_grant_again('clearing_record', record_acl);
			EXECUTE pg_catalog.format('COMMENT ON TABLE clearing_record IS %L', record_note);
			IF pg_catalog.to_regclass('clearing_feed') IS NOT NULL THEN
				PERFORM clearing_grant_again('clearing_feed', feed_acl);
				EXECUTE pg_catalog.format('COMMENT ON VIEW clearing_feed IS %L', feed_note);
			END IF;
			ANALYZE clearing_record;
		END IF;
		-- (once: a role that does not own the database runs init
		-- --columnar again)
		IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_db_role_setting s
			       WHERE s.setrole = 0
				 AND s.setdatabase = (SELECT d.oid FROM pg_catalog.pg_database d
						      WHERE d.datname = pg_catalog.current_database())
				 AND s.setconfig @> ARRAY['columnar.enable_custom_scan=off',
							  'enable_seqscan=off']) THEN
			EXECUTE pg_catalog.format('ALTER DATABASE %I SET columnar.enable_custom_scan = off',
						  pg_catalog.current_database());
			EXECUTE pg_catalog.format('ALTER DATABASE %I SET enable_seqscan = off',
						  pg_catalog.current_database());
		END IF;
	ELSE
		FOREACH t IN ARRAY heap_tables LOOP
			EXECUTE pg_catalog.format('ALTER TABLE %s SET ACCESS METHOD columnar', t);
		END LOOP;
	END IF;
	RETURN pg_catalog.cardinality(heap_tables);
END
$$;
