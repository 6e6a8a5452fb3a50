-- 048: the feed commit's check that a load applied a record of its tenant
-- reads the load's records by their own index
-- (docs/design/0067-probe-by-the-load.md).
--
-- clearing_take_feed_commit (024, 036) asked, on one server,
-- EXISTS (record WHERE load_id = l_ AND tenant = t_): the planner may walk
-- the tenant's records by the natural-key index and filter them by load.
-- A new tenant the statistics do not know looks like a row or two there.
-- In columnar storage each record that walk reads is fetched by itself
-- (a chunk of every column it reads decompressed for one row): a tenant
-- holding 30,000 pacs.008 records before a pain.001's (its records sort
-- after them) took 128 s to commit the load at 20M records.  The load's
-- own records are found by clearing_record_load_ordinal, whatever the
-- tenant or the storage: clearing_load_has_tenant reads them in ordinal
-- order (an order only that index gives; the tenant's condition outside
-- the subquery, so no other index can take it), the first one of tenant
-- t_ ends it (a load is of one tenant: its first record).  A function of
-- its own so that its plan can be read (tests/citus/test_columnar.sh).
-- On Citus the function checks the load row, as in 036.  Runs again
-- harmlessly.
CREATE OR REPLACE FUNCTION clearing_load_has_tenant(l_ bigint, t_ text)
RETURNS boolean
LANGUAGE sql STABLE AS $$
SELECT EXISTS (SELECT 1
	       FROM (SELECT r.tenant FROM clearing_record r
		     WHERE r.load_id = l_
		     ORDER BY r.ordinal OFFSET 0) r
	       WHERE r.tenant = t_)
$$;

REVOKE ALL ON FUNCTION clearing_load_has_tenant(bigint, text) FROM PUBLIC;

CREATE OR REPLACE FUNCTION clearing_take_feed_commit(l_ bigint, t_ text, n_ bigint)
RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
DECLARE
	seq bigint;
	distributed boolean := false;
BEGIN
	IF l_ IS DISTINCT FROM clearing_session_load_id() THEN
		PERFORM clearing_refuse('feed commit of load ' || coalesce(l_::text, 'NULL'),
					'this session did not take that load id');
	END IF;
	IF NOT clearing_tenant_writable(t_) THEN
		PERFORM clearing_refuse('feed commit of tenant ' || t_,
					'row security hides that tenant from this login');
	END IF;
	-- (two statements: pg_dist_partition exists only where citus is)
	IF pg_catalog.to_regclass('pg_catalog.pg_dist_partition') IS NOT NULL THEN
		distributed := EXISTS (SELECT 1 FROM pg_catalog.pg_dist_partition
				       WHERE logicalrelid = pg_catalog.to_regclass('clearing_record'));
	END IF;
	IF n_ IS NULL OR n_ < 1 THEN
		PERFORM clearing_refuse('feed commit of load ' || l_,
					'the load applied no record of tenant ' || t_);
	ELSIF distributed THEN
		IF NOT EXISTS (SELECT 1 FROM clearing_load l
			       WHERE l.load_id = l_ AND l.tenant = t_ AND l.new_count = n_) THEN
			PERFORM clearing_refuse('feed commit of load ' || l_,
						'the load applied no record of tenant ' || t_ ||
						' (its load row says no ' || n_ || ' new)');
		END IF;
	ELSIF NOT clearing_load_has_tenant(l_, t_) THEN
		PERFORM clearing_refuse('feed commit of load ' || l_,
					'the load applied no record of tenant ' || t_);
	END IF;
	PERFORM pg_catalog.pg_advisory_xact_lock(7306385526012115201);
	seq := pg_catalog.nextval('clearing_feed_seq');
	INSERT INTO clearing_feed_commit (commit_seq, load_id, tenant, records)
	VALUES (seq, l_, t_, n_);
	PERFORM pg_catalog.pg_notify('clearing_load_feed', seq::text || ' ' || t_);
	RETURN seq;
END
$$;
