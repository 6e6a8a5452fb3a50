-- 037: the journal's rows carry the shard of the staged record they are
-- about, and on a Citus coordinator the journal is distributed on it,
-- co-located with clearing_record (docs/design/0049-journal-distributed.md;
-- 0023's and 0047's open point).
--
-- clearing_dedupe_event gains `shard`, written by the loader with each row:
-- the shard of the staged record the row is about (every journal insert
-- reads the stage, which carries it), so a re-upload's journal rows are on
-- the node of their records, and a parked version's journal row in the
-- shard of the version (clearing_quarantine's shard).  A resolution's row
-- has the shard of the record it applies (a correction: its key's) or of
-- the version it dismisses; a statement item's (never a distributed row)
-- the shard of its own key.  A default cannot compute it (it reads other
-- columns) and Citus refuses a generated distribution column.
--
-- The rows of before get theirs: a parked version's from the quarantine
-- row of the same load and ordinal; a duplicate, conflict or dismissal of
-- the matched record's own key (matched_key NULL) from that record (the
-- shard is a function of the key); the rest (near duplicates, alternate
-- keys, corrections, statement items) from the key the row keeps.
--
-- On a Citus coordinator the table is then distributed on shard,
-- co-located with clearing_record, its rows moved to the shards and their
-- copy in the coordinator's own table truncated, and its append-only
-- trigger and row-security policy made again as 025 makes those of the
-- other distributed tables.  The journal has no unique constraint
-- ((load_id, ordinal, reason) is unique by construction, 003), so no key
-- gains the column.  On one server nothing else changes: the same indexes.
--
-- One DO block (025): on a distributed journal it does nothing (it runs
-- again harmlessly), and nothing in it is sent to the workers.
DO $journal$
DECLARE
	rls boolean;
	citus boolean := EXISTS (SELECT 1 FROM pg_catalog.pg_extension WHERE extname = 'citus');
BEGIN
	IF citus THEN
		-- (a statement of its own: pg_dist_partition is only where citus is)
		IF EXISTS (SELECT 1 FROM pg_dist_partition
			   WHERE logicalrelid = 'clearing_dedupe_event'::regclass) THEN
			RETURN;
		END IF;
	END IF;
	ALTER TABLE clearing_dedupe_event ADD COLUMN IF NOT EXISTS shard bigint;
	IF EXISTS (SELECT 1 FROM clearing_dedupe_event WHERE shard IS NULL) THEN
		-- the parked versions' and the matched records' shards: on one
		-- server views (a probe of each table's index per row); on Citus
		-- read first into temporary tables (Citus refuses a correlated
		-- read of a distributed table from a local one)
		IF citus THEN
			CREATE TEMPORARY TABLE cl_037_parked ON COMMIT DROP AS
			SELECT q.load_id, q.ordinal, q.shard FROM clearing_quarantine q;
			CREATE TEMPORARY TABLE cl_037_matched ON COMMIT DROP AS
			SELECT r.load_id, r.ordinal, r.tenant, r.kind, r.shard FROM clearing_record r
			WHERE (r.load_id, r.ordinal) IN (SELECT e.matched_load_id, e.matched_ordinal
							 FROM clearing_dedupe_event e
							 WHERE e.shard IS NULL AND e.matched_key IS NULL);
			CREATE INDEX ON cl_037_parked (load_id, ordinal);
			CREATE INDEX ON cl_037_matched (load_id, ordinal);
			ANALYZE cl_037_parked;
			ANALYZE cl_037_matched;
		ELSE
			CREATE TEMPORARY VIEW cl_037_parked AS
			SELECT q.load_id, q.ordinal, q.shard FROM clearing_quarantine q;
			CREATE TEMPORARY VIEW cl_037_matched AS
			SELECT r.load_id, r.ordinal, r.tenant, r.kind, r.shard FROM clearing_record r;
		END IF;
		UPDATE clearing_dedupe_event e SET shard = coalesce(
			(SELECT q.shard FROM pg_temp.cl_037_parked q
			 WHERE q.load_id = e.load_id AND q.ordinal = e.ordinal),
			(SELECT r.shard FROM pg_temp.cl_037_matched r
			 WHERE r.load_id = e.matched_load_id AND r.ordinal = e.matched_ordinal
			   AND e.matched_key IS NULL AND e.reason IN ('duplicate', 'conflict', 'dismissal')
			   AND r.tenant = e.tenant AND r.kind = e.kind),
			clearing_shard(e.kind, e.natural_key))
		WHERE e.shard IS NULL;
		IF NOT citus THEN
			DROP VIEW pg_temp.cl_037_parked, pg_temp.cl_037_matched;
		END IF;
	END IF;
	ALTER TABLE clearing_dedupe_event ALTER COLUMN shard SET NOT NULL;
	IF NOT citus THEN
		RETURN;
	END IF;

	rls := (SELECT c.relrowsecurity FROM pg_catalog.pg_class c
		WHERE c.oid = 'clearing_dedupe_event'::regclass);
	DROP POLICY IF EXISTS clearing_tenant ON clearing_dedupe_event;
	DROP TRIGGER IF EXISTS clearing_dedupe_event_append_only ON clearing_dedupe_event;
	PERFORM create_distributed_table('clearing_dedupe_event', 'shard',
					 colocate_with => 'clearing_record');
	PERFORM truncate_local_data_after_distributing_table('clearing_dedupe_event'::regclass);
	PERFORM pg_catalog.set_config('citus.enable_unsafe_triggers', 'on', true);
	PERFORM clearing_make_append_only('clearing_dedupe_event'::regclass);
	IF rls THEN
		PERFORM clearing_set_row_security(true);
	END IF;
END
$journal$;
