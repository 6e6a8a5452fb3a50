-- 020: the near-duplicate index holds a 64-bit hash of the near identity,
-- not its text.  The identity is some 60 bytes (originator, trace, account,
-- RDFI, amount); its index was the largest of clearing_record (157 bytes a
-- record at 20M records, more than the unique key's), and a probe for a
-- new record's copies read it from disk once it outgrew memory.  The hash
-- (PostgreSQL's own hashtextextended, the function hash partitioning of
-- text rests on) makes an entry of the tenant, 8 bytes and the date; the
-- probe still compares the identity itself on the row it finds, so a
-- collision of two identities costs one row read, never a wrong match
-- (sql/loader/classify.sql classify_probe_near).  Runs again harmlessly.
CREATE INDEX IF NOT EXISTS clearing_record_near_hash ON clearing_record
	(tenant, pg_catalog.hashtextextended(near_key, 0), value_date)
	WHERE near_key IS NOT NULL;
DROP INDEX IF EXISTS clearing_record_near_key;
