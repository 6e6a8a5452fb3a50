-- 042: on a Citus coordinator, the exact-key matches of the loads being
-- classified, on the workers beside their staged records
-- (docs/design/0057-duplicates-journaled-on-the-workers.md).  On any other
-- PostgreSQL it does nothing: one server writes a load's matches into its
-- temporary journal rows (sql/loader/classify.sql, classify_exact).
--
-- clearing_stage_match holds one row per staged record whose key its
-- tenant has applied: the journal row it will be (clearing_dedupe_event's
-- columns but fields and created_at), in the staged record's shard,
-- co-located with clearing_stage and clearing_record, so that the
-- exact-key join writes it where it ran and the journal's rows of the
-- plain duplicates are appended from it where they are: a re-upload's
-- million matches never cross to the coordinator.  Like clearing_stage
-- (035, 039): written and deleted in the load's own transaction, never a
-- committed row, unlogged.  No index: a load reads its rows twice (its
-- conflicts, its duplicates) and deletes them, each a scan of what the
-- load itself wrote (and what concurrent loads are writing); an index
-- would be written once per match to spare nothing.
--
-- Runs again harmlessly.
DO $match$
DECLARE
	rls boolean;
BEGIN
	IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_extension WHERE extname = 'citus') THEN
		RETURN;
	END IF;
	IF pg_catalog.to_regclass('clearing_stage_match') IS NULL THEN
		CREATE UNLOGGED TABLE clearing_stage_match (
			shard            bigint NOT NULL,
			load_id          bigint NOT NULL,
			ordinal          bigint NOT NULL,
			position         bigint NOT NULL,
			tenant           text NOT NULL,
			kind             text NOT NULL,
			natural_key      text COLLATE "C" NOT NULL,
			reason           text NOT NULL,
			matched_load_id  bigint NOT NULL,
			matched_ordinal  bigint NOT NULL,
			matched_position bigint NOT NULL);
		PERFORM create_distributed_table('clearing_stage_match', 'shard',
						 colocate_with => 'clearing_record');
	END IF;
	INSERT INTO clearing_privilege (relation, role_kind, privileges) VALUES
		('clearing_stage_match', 'loader', 'SELECT, INSERT, DELETE')
	ON CONFLICT DO NOTHING;
	rls := (SELECT c.relrowsecurity FROM pg_catalog.pg_class c
		WHERE c.oid = 'clearing_record'::regclass);
	IF rls THEN
		PERFORM clearing_set_row_security(true);
	END IF;
END
$match$;
