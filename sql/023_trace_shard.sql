-- 023: the shard of every ACH return and NOC under its own trace number
-- (clearing-load-keys(7), "The shard identity"), so that show --trace
-- names the partitions it reads.
--
-- An entry's shard is its own trace and a return's or NOC's is its
-- original trace (rules/shard.h): show --trace T finds both in the
-- partition of T.  A return or NOC whose own trace is T is elsewhere, in
-- the partition of its original trace; this table says which.  show asks
-- it first, then plans its lookup for those partitions alone: in a fresh
-- session, planning a lookup over every partition of a hash-partitioned
-- clearing_record (each with its own 17 indexes) cost more than the
-- lookup itself.  On a distributed PostgreSQL the same lookup goes to the
-- shards it names, not to every node.
--
-- The trigger below writes it, in the transaction that inserts the record,
-- whoever inserts it (a load, resolve, a copy or restore of the rows into
-- an initialised database); rows are never updated or deleted, as records
-- are not.  A row whose record is gone (none is, today) would only make
-- show read one partition more.  Runs again harmlessly.
CREATE TABLE IF NOT EXISTS clearing_trace_shard (
	tenant        text NOT NULL,
	trace_number  text NOT NULL,
	shard         bigint NOT NULL,
	PRIMARY KEY (tenant, trace_number, shard)
);

-- search_path FROM CURRENT: this schema, whatever the inserting session's
-- search path is (a copy into one of several clearing-load schemas).
CREATE OR REPLACE FUNCTION clearing_note_trace_shard() RETURNS trigger
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
	INSERT INTO clearing_trace_shard (tenant, trace_number, shard)
	VALUES (NEW.tenant, NEW.trace_number, NEW.shard)
	ON CONFLICT DO NOTHING;
	RETURN NULL;
END
$$;

-- On a partitioned clearing_record it reaches every partition.  The WHEN
-- condition costs an entry nothing but the test of its kind.
DROP TRIGGER IF EXISTS clearing_record_trace_shard ON clearing_record;
CREATE TRIGGER clearing_record_trace_shard AFTER INSERT ON clearing_record
	FOR EACH ROW WHEN (NEW.kind IN ('ach.return', 'ach.noc') AND NEW.trace_number IS NOT NULL)
	EXECUTE FUNCTION clearing_note_trace_shard();

-- The returns and NOCs applied before this version.
INSERT INTO clearing_trace_shard (tenant, trace_number, shard)
SELECT DISTINCT r.tenant, r.trace_number, r.shard
FROM clearing_record r
WHERE r.kind IN ('ach.return', 'ach.noc') AND r.trace_number IS NOT NULL
ON CONFLICT DO NOTHING;

SELECT clearing_make_append_only('clearing_trace_shard');

-- What the roles may do with it (015): a loader's records write it through
-- the trigger, in the loader's name; show reads it.
INSERT INTO clearing_privilege (relation, role_kind, privileges) VALUES
	('clearing_trace_shard', 'loader', 'SELECT, INSERT'),
	('clearing_trace_shard', 'reader', 'SELECT')
ON CONFLICT DO NOTHING;

-- Row-level security as clearing_record has it: a role that sees only its
-- tenants sees only their trace numbers here too.
SELECT clearing_set_row_security(true)
WHERE (SELECT c.relrowsecurity FROM pg_catalog.pg_class c
       WHERE c.oid = 'clearing_record'::regclass);
