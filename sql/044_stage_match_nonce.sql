-- 044: on a Citus coordinator, the exact-key matches (clearing_stage_match,
-- 042) and the alternate-key stage (clearing_alt_stage, 041) of a load read
-- under its attempt's nonce, as its stage is since 043
-- (docs/design/0046-distributed-stage.md, "Row security and the stage").
-- On any other PostgreSQL it does nothing.
--
-- Both tables are one table a loader role may write, and a load read the
-- rows of its load id there: rows another session committed under a load
-- id to come (load ids come from a sequence) were read as that load's own
-- matches, conflicts journaled against its records, its records held for
-- them.  Now each row carries the nonce of the attempt that wrote it
-- (sql/loader/load.sql, load_set_context: 63 random bits no other session
-- sees), and the load reads only its own (sql/loader/stage.sql,
-- stage_create_citus).  Both are emptied by the transaction that fills
-- them: no committed row of a load has a nonce to lose.
--
-- Runs again harmlessly.
DO $nonce$
BEGIN
	-- (one connection a worker for this transaction, as 043's)
	IF pg_catalog.to_regclass('clearing_stage_match') IS NOT NULL THEN
		PERFORM pg_catalog.set_config('citus.multi_shard_modify_mode', 'sequential', true);
		ALTER TABLE clearing_stage_match ADD COLUMN IF NOT EXISTS nonce bigint;
	END IF;
	IF pg_catalog.to_regclass('clearing_alt_stage') IS NOT NULL THEN
		PERFORM pg_catalog.set_config('citus.multi_shard_modify_mode', 'sequential', true);
		ALTER TABLE clearing_alt_stage ADD COLUMN IF NOT EXISTS nonce bigint;
	END IF;
END
$nonce$;
