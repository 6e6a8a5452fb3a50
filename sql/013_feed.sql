-- 013: the feed, an exactly-once cursor for downstream systems
-- (clearing-load feed, clearing-load(1) FEED).
--
-- load_id is taken when a load begins, so it is not commit-ordered: a
-- reader of "load_id > last seen" skips a long load that commits after a
-- later, shorter one.  Each load that applies records therefore takes a
-- commit number as the last statement before its COMMIT, under a
-- transaction-level advisory lock that every such load takes: the lock
-- goes only once the COMMIT is visible, so commit numbers become visible
-- in their order and a reader never sees N + 1 before N.  A record's feed
-- position is its load's commit number * 2^32 + its ordinal in the file.
CREATE SEQUENCE IF NOT EXISTS clearing_feed_seq;

CREATE TABLE IF NOT EXISTS clearing_feed_commit (
	commit_seq   bigint PRIMARY KEY,
	load_id      bigint NOT NULL UNIQUE,
	tenant       text NOT NULL,
	records      bigint NOT NULL,      -- records the load applied
	committed_at timestamptz NOT NULL DEFAULT pg_catalog.clock_timestamp()
);

-- Each consumer's acknowledged position (everything up to it received).
CREATE TABLE IF NOT EXISTS clearing_feed_consumer (
	consumer     text PRIMARY KEY,
	position     bigint NOT NULL DEFAULT 0,
	acked_at     timestamptz
);

-- The records of one load in file order, for the feed's range scans (load
-- ids only grow: the index grows at its right edge).
CREATE INDEX IF NOT EXISTS clearing_record_load_ordinal
	ON clearing_record (load_id, ordinal);

-- For readers who use SQL: every applied record with its feed position and
-- the time its load committed, in feed order when sorted by feed_position.
-- r.* is expanded when the view is made: a later migration that adds a
-- column to clearing_record re-creates the view.
CREATE OR REPLACE VIEW clearing_feed AS
SELECT (f.commit_seq << 32) + r.ordinal AS feed_position,
       f.committed_at AS applied_at,
       r.*
FROM clearing_feed_commit f
JOIN clearing_record r ON r.load_id = f.load_id AND r.tenant = f.tenant;
