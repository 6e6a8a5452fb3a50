-- load.sql - a file's load: its clearing_load row and its transaction
-- (loader/load.c).

-- name: load_insert_row
-- The clearing_load row of this attempt: load UUID $1, tenant $2, file
-- name $3; returns its load_id.
INSERT INTO public.clearing_load (load_uuid, tenant, file_name, outcome, started_at)
VALUES ($1, $2, $3, 'committed', now())
RETURNING load_id

-- name: load_set_context
-- Tenant $1 and load_id $2 as settings of this transaction: COPY takes no
-- parameters, and the classification statements read these.
SELECT pg_catalog.set_config('clearing_load.tenant', $1, true),
       pg_catalog.set_config('clearing_load.load_id', $2, true)

-- name: load_update_row
-- What became of load $1: file size $2, SHA-256 $3, format $4, message
-- type $5, sender $6, receiver $7, file creation time $8, file id $9,
-- record count $10, new $11, duplicates $12, conflicts $13, invalid $14,
-- outcome $15, reason $16 and retries $17.
UPDATE public.clearing_load
SET file_size = $2, sha256 = $3, format = $4, message_type = $5, sender = $6,
    receiver = $7, file_created = $8, file_id = $9, record_count = $10,
    new_count = $11, duplicate_count = $12, conflict_count = $13,
    invalid_count = $14, outcome = $15, reason = $16, retries = $17,
    finished_at = pg_catalog.clock_timestamp()
WHERE load_id = $1

-- name: load_lock_uuid
-- The transaction-level advisory lock on load UUID $1 (any case), held
-- from BEGIN to the end of the load: history_lock_uuid tells a running
-- load by it.
SELECT pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended(pg_catalog.lower($1), 0))

-- name: load_work_mem
-- The exact-key join hashes the file's keys; at the server's default
-- (4 MB) a million keys spill to 16 batches on disk (0.3-0.5 s more).
-- For this transaction only.
SET LOCAL work_mem = '128MB'

-- name: load_write_journal
-- The load's journal rows (pg_temp.cl_event, classify.sql) appended to the
-- journal, once, when the outcome is known: all of them, or for a held
-- file ($1 false: it keeps its attempt and its conflicts, not its
-- duplicates) those that are not plain duplicates.  The journal is
-- append-only: nothing written here is changed or deleted later.
INSERT INTO public.clearing_dedupe_event (load_id, ordinal, position, tenant, kind,
  natural_key, reason, matched_key, matched_load_id, matched_ordinal, matched_position, fields)
SELECT load_id, ordinal, position, tenant, kind, natural_key, reason, matched_key,
       matched_load_id, matched_ordinal, matched_position, fields
FROM pg_temp.cl_event
WHERE $1::boolean OR reason <> 'duplicate'

-- name: load_record_archive
-- Where ingest moved load $1's file: $2 (the same move twice adds nothing).
INSERT INTO public.clearing_load_archive (load_id, path)
VALUES ($1::bigint, $2)
ON CONFLICT DO NOTHING

-- name: load_feed_lock
-- The lock every load that applies records takes just before COMMIT, held
-- until the COMMIT is visible (013_feed.sql: why commit numbers then
-- become visible in their order).  The key is clearing-load's own.
SELECT pg_catalog.pg_advisory_xact_lock(7306385526012115201)

-- name: load_feed_commit
-- The load's commit number, its last statement before COMMIT (after
-- load_feed_lock): load $1 of tenant $2 applied $3 records.  The NOTIFY on
-- channel clearing_load_feed ("COMMIT_SEQ TENANT") is delivered when the
-- transaction commits, so a consumer need not poll.
WITH c AS (
    INSERT INTO public.clearing_feed_commit (commit_seq, load_id, tenant, records)
    VALUES (pg_catalog.nextval('public.clearing_feed_seq'), $1::bigint, $2, $3::bigint)
    RETURNING commit_seq, tenant)
SELECT pg_catalog.pg_notify('clearing_load_feed', c.commit_seq::text || ' ' || c.tenant)
FROM c
