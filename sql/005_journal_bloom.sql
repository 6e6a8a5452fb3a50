-- 005: the journal's "which events hit record X" index becomes a BRIN
-- bloom index.
--
-- The btree on (matched_load_id, matched_ordinal) of 003 cost one index
-- insertion per journal row: about 1 s of the 3-4 s an exact re-upload of
-- a million records takes, paid on every re-upload, for a lookup only
-- `clearing-load show` makes.  A BRIN bloom index costs nothing while rows
-- are appended (new block ranges stay unsummarized until VACUUM, which
-- autovacuum runs on insert-heavy tables, or brin_summarize_new_values()
-- summarizes them) and answers `show` by reading a small summary per 16
-- heap pages (about 1.8 KB per 1,000 journal rows) and then only the
-- ranges whose filters match: 2.5 ms for one record among 2,000,000 events
-- here.  Unsummarized ranges are always read, so answers stay exact.
--
-- Sizing: a range of 16 pages holds about 800 journal rows; the ordinals
-- in it are (nearly) all distinct, the matched loads few.
DROP INDEX clearing_dedupe_event_matched_idx;
CREATE INDEX clearing_dedupe_event_matched_bloom ON clearing_dedupe_event
	USING brin (matched_load_id int8_bloom_ops (n_distinct_per_range = 16),
		    matched_ordinal int8_bloom_ops (n_distinct_per_range = 1000))
	WITH (pages_per_range = 16);

-- The journal rows that are not plain duplicates (conflicts and near
-- duplicates: what an operator must look at) by load.  A partial index:
-- a re-upload's million duplicates add nothing to it, and the loader reads
-- a load's conflicts back through it without touching the duplicates.
CREATE INDEX clearing_dedupe_event_attention ON clearing_dedupe_event
	(load_id, ordinal) WHERE reason <> 'duplicate';

-- The journal is append-only.  VACUUM summarizes the new BRIN ranges (the
-- loader reads a partly duplicate load's rows back through the index on
-- load_id, and unsummarized ranges are read whole): have autovacuum visit
-- it after every million new rows, not after 20% growth.
ALTER TABLE clearing_dedupe_event SET (
	autovacuum_vacuum_insert_threshold = 1000000,
	autovacuum_vacuum_insert_scale_factor = 0);
