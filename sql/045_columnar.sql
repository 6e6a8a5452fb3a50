-- 045: clearing_record in columnar storage, for `init --columnar`
-- (docs/design/0063-columnar-records.md; clearing-load-keys(7), SCALING PAST
-- ONE SERVER).
--
-- Columnar storage (the citus_columnar extension, Citus 13.2) keeps a
-- record in about a quarter of its heap row: 83 bytes against 330 in
-- 0063's measure, with every index as it is.  The table stays what it is
-- to every statement (same columns, same indexes, same unique key); what
-- changes is what the storage refuses:
--   * UPDATE and DELETE (the table is append-only by its storage too);
--   * INSERT ... ON CONFLICT of a new row: the loader's ordered retry uses
--     another form there (sql/loader/columnar.sql);
--   * AFTER ... FOR EACH ROW triggers: 023's trigger, which notes the shard
--     of a return or NOC under its own trace, becomes a statement trigger
--     over the rows the statement inserted (a transition table), on
--     clearing_record: rows inserted into one of its partitions by name
--     (the loader inserts into clearing_record) are not noted;
--   * a rollback to a savepoint after an insert (the loader takes no file
--     for new there: loader/load.c).
-- A migration after this one must not UPDATE clearing_record.
--
-- This migration only defines the function; init --columnar calls it
-- (loader/schema.c), on a new database or an existing one (a rewrite of
-- the table under an exclusive lock: every load and reader waits).  Not on
-- Citus (refused: its distributed tables are altered by its own
-- functions, not tested here).  Runs again harmlessly.

-- 023's note, for every row a statement inserted.
CREATE OR REPLACE FUNCTION clearing_note_trace_shards() RETURNS trigger
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
	INSERT INTO clearing_trace_shard (tenant, trace_number, shard)
	SELECT DISTINCT a.tenant, a.trace_number, a.shard FROM added a
	WHERE a.kind IN ('ach.return', 'ach.noc') AND a.trace_number IS NOT NULL
	ON CONFLICT DO NOTHING;
	RETURN NULL;
END
$$;

-- clearing_record (each partition of a partitioned one) converted to
-- columnar storage; returns how many tables it converted (0: it was).
CREATE OR REPLACE FUNCTION clearing_make_columnar() RETURNS integer
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
	heap_tables regclass[];
	t regclass;
BEGIN
	IF EXISTS (SELECT 1 FROM pg_catalog.pg_extension WHERE extname = 'citus') THEN
		RAISE EXCEPTION 'columnar storage of clearing_record is not supported on Citus'
			USING ERRCODE = '0A000',
			      HINT = 'init without --columnar; a Citus database keeps clearing_record '
				     'distributed in heap storage (clearing-load-keys(7), SCALING PAST ONE SERVER)';
	END IF;
	IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_am WHERE amname = 'columnar') THEN
		IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_available_extensions
			       WHERE name = 'citus_columnar') THEN
			RAISE EXCEPTION 'columnar storage needs the citus_columnar extension, which this '
					'server does not have'
				USING ERRCODE = '0A000',
				      HINT = 'install Citus 13.2 for this PostgreSQL (its citus_columnar '
					     'extension), or init without --columnar';
		END IF;
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
	-- the row trigger of 023 first: columnar storage refuses a table
	-- with one
	IF EXISTS (SELECT 1 FROM pg_catalog.pg_trigger
		   WHERE tgrelid = 'clearing_record'::regclass AND tgname = 'clearing_record_trace_shard'
		     AND (tgtype & 1) = 1) THEN
		DROP TRIGGER clearing_record_trace_shard ON clearing_record;
		CREATE TRIGGER clearing_record_trace_shard AFTER INSERT ON clearing_record
			REFERENCING NEW TABLE AS added
			FOR EACH STATEMENT EXECUTE FUNCTION clearing_note_trace_shards();
	END IF;
	FOREACH t IN ARRAY heap_tables LOOP
		EXECUTE pg_catalog.format('ALTER TABLE %s SET ACCESS METHOD columnar', t);
	END LOOP;
	RETURN pg_catalog.cardinality(heap_tables);
END
$$;
