-- 038: the index of the records by load and ordinal fills its pages
-- (docs/design/0050-every-index-a-lookup.md).
--
-- clearing_record_load_ordinal (013) only grows at its right edge: load
-- ids only grow, and a load's ordinals too.  A B-tree splits its rightmost
-- leaf at the index's fillfactor (90 by default), leaving a tenth of each
-- page for inserts that never come; at 100 it leaves none.  About 3 bytes
-- a record.  The pages written before stay as they are (no REINDEX: a
-- billion records' index rebuilt is an operator's choice, not a
-- migration's).
--
-- On the hash-partitioned schema the index is a partitioned index, whose
-- options cannot be set: each partition's index is set instead.  On a
-- Citus coordinator (025) one ALTER INDEX of the distributed table's index
-- reaches its shards.  One DO block (029).  Runs again harmlessly.
DO $fill$
DECLARE
	ix regclass;
BEGIN
	IF (SELECT c.relkind FROM pg_catalog.pg_class c
	    WHERE c.oid = 'clearing_record_load_ordinal'::regclass) = 'I' THEN
		FOR ix IN SELECT i.inhrelid::regclass FROM pg_catalog.pg_inherits i
			  WHERE i.inhparent = 'clearing_record_load_ordinal'::regclass
			  ORDER BY 1 LOOP
			EXECUTE pg_catalog.format('ALTER INDEX %s SET (fillfactor = 100)', ix);
		END LOOP;
	ELSE
		ALTER INDEX clearing_record_load_ordinal SET (fillfactor = 100);
	END IF;
END
$fill$;
