-- 012: where `clearing-load ingest` moved each file it loaded, one row per
-- move.  A row of its own, appended after the move: the load's row is
-- never rewritten for it, and a file loaded twice (a crash between COMMIT
-- and the move, then the all-duplicate second run) has the second load's
-- row pointing to where it went.
CREATE TABLE IF NOT EXISTS clearing_load_archive (
	load_id     bigint NOT NULL,  -- a committed clearing_load.load_id (no foreign
	                              -- key: clearing_load's maintenance need not name
	                              -- this table)
	path        text NOT NULL,
	archived_at timestamptz NOT NULL DEFAULT now(),
	PRIMARY KEY (load_id, path)
);
