-- 036: a loader role (not the schema owner) loads on a Citus coordinator
-- (docs/design/0047-citus-show-conflicts-reconcile.md, "The loader role on
-- Citus").
--
-- clearing_take_feed_commit (024) runs as the schema owner and, before it
-- takes a commit number, checks that the load applied a record of its
-- tenant by reading clearing_record.  On Citus the loader's inserts of the
-- same transaction went through the loader's own connections to the
-- workers, and Citus refuses the owner's read of those placements ("cannot
-- perform query on placements that were modified in this transaction by a
-- different user"): the load failed closed, nothing applied.  So when
-- clearing_record is distributed the function checks instead the load row
-- of the same load, which clearing_write_load (024) wrote as the owner on
-- the coordinator in the same transaction, for the load id this session
-- took and a tenant the login may write: it must name tenant t_ and n_ new
-- records.  The session and tenant checks are unchanged; on one server
-- (clearing_record not distributed) the function is 024's, word for word
-- in what it checks.
--
-- Runs again harmlessly (CREATE OR REPLACE keeps the grants; on Citus a
-- distributed function's new body reaches the workers with it).
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
	ELSIF NOT EXISTS (SELECT 1 FROM clearing_record r
			  WHERE r.load_id = l_ AND r.tenant = t_) THEN
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
