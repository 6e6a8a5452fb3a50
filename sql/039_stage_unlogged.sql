-- 039: on a Citus coordinator, the stage of a load is not written to the
-- WAL (docs/design/0051-every-probe-co-located.md): clearing_stage
-- (migration 035) unlogged, as one server's stage, a temporary table, is.
-- It never holds a committed row (a load writes its rows and deletes them
-- in its own transaction), so what a crash takes from it (an unlogged
-- table is emptied by crash recovery) is nothing anyone could have seen;
-- its WAL (the staged rows, its index, and their deletion: about a third
-- of a new file's load on the workers) was written for nothing.  Citus
-- sends ALTER TABLE ... SET UNLOGGED to every shard.  On any other
-- PostgreSQL (no clearing_stage) it does nothing.  Runs again harmlessly.
DO $unlogged$
BEGIN
	IF EXISTS (SELECT 1 FROM pg_catalog.pg_class
		   WHERE oid = pg_catalog.to_regclass('clearing_stage')
		     AND relpersistence = 'p') THEN
		ALTER TABLE clearing_stage SET UNLOGGED;
	END IF;
END
$unlogged$;
