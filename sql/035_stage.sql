-- 035: on a Citus coordinator, the stage of a load distributed
-- (docs/design/0046-distributed-stage.md).  On any other PostgreSQL (no
-- citus extension in this database) it does nothing: one server stages
-- into a temporary table (sql/loader/stage.sql), never written to the WAL.
--
-- clearing_stage holds the records of the loads being classified, each
-- row with its load's load_id (a load reads only its own: the temporary
-- view pg_temp.cl_stage names its load_id) and its shard, the
-- distribution column, co-located with clearing_record: a staged record
-- is on the node, in the shard, of the record of its key, so each probe
-- of a staged record is a join of one stage shard with the same shard of
-- clearing_record, which Citus sends whole to the worker (with the LIMIT
-- of 0019's lateral probe).  Its columns are clearing_record's and the
-- key as the journal keeps it (a later migration that changes
-- clearing_record's columns changes these too), and whether the row is
-- the copy of a staged record as pending (classify.sql, the records the
-- exact-key probes did not match: the second copy of such a record, in
-- the same shard).
--
-- A load writes its rows and deletes them in its own transaction: no
-- other session ever sees them (another load's rows are uncommitted, then
-- gone); a load killed or rolled back leaves only dead rows, which no
-- snapshot sees and VACUUM removes.  The loader may SELECT, INSERT and
-- DELETE (its own rows; row security, when on, keeps it to its tenants).
--
-- Runs again harmlessly.
DO $stage$
BEGIN
	IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_extension WHERE extname = 'citus') THEN
		RETURN;
	END IF;
	IF pg_catalog.to_regclass('clearing_stage') IS NULL THEN
		CREATE TABLE clearing_stage (LIKE clearing_record, journal_key text,
					     pending boolean NOT NULL DEFAULT false);
		CREATE INDEX clearing_stage_load ON clearing_stage (load_id, ordinal);
	END IF;
	IF NOT EXISTS (SELECT 1 FROM pg_dist_partition
		       WHERE logicalrelid = 'clearing_stage'::regclass) THEN
		PERFORM create_distributed_table('clearing_stage', 'shard',
						 colocate_with => 'clearing_record');
	END IF;
	INSERT INTO clearing_privilege (relation, role_kind, privileges) VALUES
		('clearing_stage', 'loader', 'SELECT, INSERT, DELETE')
	ON CONFLICT DO NOTHING;
END
$stage$;
