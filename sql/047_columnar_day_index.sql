-- 047: in columnar storage, no index of the records by day and amount
-- (docs/design/0066-columnar-no-day-index.md; 045, 046, 0065).
--
-- clearing_record_value_amount (021: tenant, value_date, amount_minor)
-- serves reconcile's reads of a statement's days: its suggestions by day
-- and amount, and unmatched ours of its period (0050).  Where
-- clearing_record is in columnar storage, reconcile reads those days by
-- the storage's own scan, whose chunk groups it skips by their value_date
-- range, into a copy that has its own index of them (0065,
-- sql/loader/reconcile_copy.sql); no statement reads this index there.  It
-- costs 49 bytes a record on Citus (a shard holds a 32nd of a day's equal
-- amounts, which its B-tree would fold), 15 on one server, as loads leave
-- it (a million ACH entries a day).  A heap keeps it.
--
-- clearing_columnar_lookups() drops it where clearing_record (itself or its
-- partitions; on Citus its shards) is columnar: init --columnar calls it
-- after the conversion (sql/loader/columnar.sql, columnar_lookups), this
-- migration for a database that already is.  Runs again harmlessly.
CREATE OR REPLACE FUNCTION clearing_columnar_lookups() RETURNS void
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
	IF EXISTS (SELECT 1 FROM pg_catalog.pg_class c JOIN pg_catalog.pg_am a ON a.oid = c.relam
		   WHERE a.amname = 'columnar'
		     AND (c.oid = 'clearing_record'::regclass
			  OR c.oid IN (SELECT i.inhrelid FROM pg_catalog.pg_inherits i
				       WHERE i.inhparent = 'clearing_record'::regclass))) THEN
		DROP INDEX IF EXISTS clearing_record_value_amount;
	END IF;
END
$$;

SELECT clearing_columnar_lookups();
