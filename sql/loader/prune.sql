-- prune.sql - journal retention (loader/prune.c; the audit table:
-- 014_prune_audit.sql).

-- name: prune_loads
-- The loads started before $1, after load $2, oldest first, at most $3:
-- a range of clearing_load's primary key, filtered by time.
SELECT load_id
FROM clearing_load
WHERE started_at < $1::timestamptz AND load_id > $2::bigint
ORDER BY load_id
LIMIT $3::bigint

-- name: prune_load_events
-- Remove load $1's journal rows (only its duplicates when $2): the BRIN
-- index on load_id finds them (prune_no_seqscan first: the planner would
-- rather read a journal whole whose statistics say one load is much of it).
DELETE FROM clearing_dedupe_event
WHERE load_id = $1::bigint AND (NOT $2::boolean OR reason = 'duplicate')

-- name: prune_citus_propagate
-- On Citus (migration 037: the journal is distributed, its append-only
-- trigger on every shard, on the workers): each later SET LOCAL of this
-- transaction is sent to the workers too.  For this transaction only.
SET LOCAL citus.propagate_set_commands = 'local'

-- name: prune_citus_maintenance
-- On Citus, after prune_citus_propagate: db_maintenance's setting as a SET
-- LOCAL, which reaches the workers, whose shards' triggers then let
-- prune_load_events through (set_config is not sent to them; 0023).
SET LOCAL clearing_load.maintenance = 'prune'

-- name: prune_no_seqscan
-- For this transaction only (prune.c's one per load).
SELECT pg_catalog.set_config('enable_seqscan', 'off', true)

-- name: prune_record_audit
-- What a prune removed: loads started before $1, duplicates only $2, $3
-- loads, $4 events.
INSERT INTO clearing_prune_audit (journal_before, duplicates_only, loads, events)
VALUES ($1::timestamptz, $2::boolean, $3::bigint, $4::bigint)
RETURNING prune_id
