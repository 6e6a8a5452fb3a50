-- 011: an index for every lookup a user makes, so that `show` and `loads`
-- cost the same at 20 million records as at 20 thousand.
--
-- show --trace, --e2e and --uetr match a record by its own reference or a
-- return by its original one: one partial index each (a record without
-- the reference adds nothing to it), which the lookups' OR becomes a
-- BitmapOr of.  Without them each lookup was a scan of the tenant's rows
-- (4-5 s at 21M records).  The ACH trace index costs every ACH entry about
-- 40 bytes and its load about 5%; the ISO indexes cost only ISO records.
CREATE INDEX IF NOT EXISTS clearing_record_trace ON clearing_record
	(tenant, trace_number) WHERE trace_number IS NOT NULL;
CREATE INDEX IF NOT EXISTS clearing_record_original_trace ON clearing_record
	(tenant, original_trace) WHERE original_trace IS NOT NULL;
CREATE INDEX IF NOT EXISTS clearing_record_e2e ON clearing_record
	(tenant, end_to_end_id) WHERE end_to_end_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS clearing_record_orgnl_e2e ON clearing_record
	(tenant, orgnl_end_to_end_id) WHERE orgnl_end_to_end_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS clearing_record_uetr ON clearing_record
	(tenant, uetr) WHERE uetr IS NOT NULL;
CREATE INDEX IF NOT EXISTS clearing_record_orgnl_uetr ON clearing_record
	(tenant, orgnl_uetr) WHERE orgnl_uetr IS NOT NULL;

-- The events of a key that has no record (show of a near duplicate):
-- only events that are not plain duplicates can name such a key (a
-- duplicate always matched an applied record under its own key), so the
-- index holds only those, like clearing_dedupe_event_attention.
CREATE INDEX IF NOT EXISTS clearing_dedupe_event_key ON clearing_dedupe_event
	(tenant, natural_key) WHERE reason <> 'duplicate';

-- The events that hit a record (show): a btree again, instead of 005's
-- BRIN bloom index.  A BRIN range is summarized only by VACUUM, and an
-- unsummarized range is read whole: right after a re-upload of a million
-- records show read about 19,000 heap blocks, and how long it took
-- depended on when autovacuum last ran.  The btree costs a re-upload about
-- 1 s per million duplicates and about 40 bytes an event; show's lookup is
-- then a probe at any size.
DROP INDEX IF EXISTS clearing_dedupe_event_matched_bloom;
CREATE INDEX IF NOT EXISTS clearing_dedupe_event_matched ON clearing_dedupe_event
	(matched_load_id, matched_ordinal);

-- The journal's BRIN index by load (the loader reads a load's own events
-- back through it) summarizes a block range as soon as the next one is
-- written, not only at the next VACUUM: the summarizing is queued for
-- autovacuum's workers, the insert pays nothing.
ALTER INDEX clearing_dedupe_event_load_idx SET (autosummarize = on);

-- loads: the newest first, of one tenant or all.
CREATE INDEX IF NOT EXISTS clearing_load_tenant_started ON clearing_load
	(tenant, load_id DESC);
