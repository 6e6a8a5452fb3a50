-- 022: the shard identity of every record (clearing-load-keys(7), "The
-- shard identity"; rules/shard.h), stored in column shard.
--
-- A hash-partitioned clearing_record (init --partitions) made since this
-- version is split on it (migration 002): for ACH records it is the trace
-- their natural key and their near identity share (an entry's trace, a
-- return's or NOC's original trace), so a near-duplicate probe goes to one
-- partition instead of asking every one, and the unique key (tenant,
-- kind, natural_key, shard) stays global (the shard is a function of the
-- kind and the natural key).  The loader computes it in C when it writes a
-- row and names it in every probe of a record; clearing_shard computes the
-- same here, for the records applied before this version and for a parked
-- version applied under a corrected key (tests/db/test_shard.sh holds the
-- two to one answer).
--
-- A table partitioned before this version stays partitioned on
-- natural_key: its records get their shard below and every probe still
-- goes to the partition of its natural key, but the near-duplicate probe
-- asks every partition, as it did (to move it, see keys(7)).  Runs again
-- harmlessly.

-- The shard of a shard text: the number when it is 1 to 18 ASCII digits
-- (every trace number), else the first 8 bytes of its SHA-256, big-endian,
-- as a signed bigint.
CREATE OR REPLACE FUNCTION clearing_shard_of(t text) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE WHEN t ~ '^[0-9]{1,18}$' THEN t::bigint
	ELSE ('x' || encode(substr(sha256(convert_to(t, 'UTF8')), 1, 8), 'hex'))::bit(64)::bigint
	END;

-- The shard of a record of `kind` under `natural_key`: an entry's trace
-- (the second field of its key from the end), a return's or NOC's
-- original trace (the first), any other kind's whole key.
CREATE OR REPLACE FUNCTION clearing_shard(kind text, natural_key text) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN clearing_shard_of(CASE kind
	WHEN 'ach.entry' THEN split_part(natural_key, '|', -2)
	WHEN 'ach.return' THEN split_part(natural_key, '|', 1)
	WHEN 'ach.noc' THEN split_part(natural_key, '|', 1)
	ELSE natural_key END);

ALTER TABLE clearing_record ADD COLUMN IF NOT EXISTS shard bigint;
ALTER TABLE clearing_quarantine ADD COLUMN IF NOT EXISTS shard bigint;

-- The records and parked versions of before: both tables are append-only
-- (migration 015), so their triggers are off for this one statement each,
-- inside this migration's transaction.
ALTER TABLE clearing_record DISABLE TRIGGER clearing_record_append_only;
UPDATE clearing_record SET shard = clearing_shard(kind, natural_key) WHERE shard IS NULL;
ALTER TABLE clearing_record ENABLE TRIGGER clearing_record_append_only;
ALTER TABLE clearing_quarantine DISABLE TRIGGER clearing_quarantine_append_only;
UPDATE clearing_quarantine SET shard = clearing_shard(kind, natural_key) WHERE shard IS NULL;
ALTER TABLE clearing_quarantine ENABLE TRIGGER clearing_quarantine_append_only;

ALTER TABLE clearing_record ALTER COLUMN shard SET NOT NULL;
ALTER TABLE clearing_quarantine ALTER COLUMN shard SET NOT NULL;

-- The feed view's r.* was expanded when it was made (migration 013): made
-- again, it has the new column (at its end, where the table has it after
-- an upgrade).  CREATE OR REPLACE keeps its grants but resets its options,
-- so the security_invoker of row-level security (015) is put back.
DO $feed$
DECLARE
	opts text[] := (SELECT reloptions FROM pg_catalog.pg_class
			WHERE oid = 'clearing_feed'::regclass);
BEGIN
	CREATE OR REPLACE VIEW clearing_feed AS
	SELECT (f.commit_seq << 32) + r.ordinal AS feed_position,
	       f.committed_at AS applied_at,
	       r.*
	FROM clearing_feed_commit f
	JOIN clearing_record r ON r.load_id = f.load_id AND r.tenant = f.tenant;
	IF opts IS NOT NULL THEN
		EXECUTE pg_catalog.format('ALTER VIEW clearing_feed SET (%s)',
					  pg_catalog.array_to_string(opts, ', '));
	END IF;
END
$feed$;
