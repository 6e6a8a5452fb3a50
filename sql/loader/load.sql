-- load.sql - a file's load: its clearing_load row and its transaction
-- (loader/load.c).

-- name: load_take_id
-- The load_id of this attempt, taken from clearing_load's own sequence at
-- its start (the journal rows and records written before the load row
-- name it); the row itself is written once, at the end (load_insert_row).
SELECT pg_catalog.nextval(pg_catalog.pg_get_serial_sequence('clearing_load', 'load_id'))

-- name: load_set_context
-- Tenant $1 and load_id $2 as settings of this transaction: COPY takes no
-- parameters, and the classification statements read these.  The last
-- value says if row-level security is active on clearing_record for this role
-- (init --row-security on)?  PostgreSQL refuses COPY FROM into such a
-- table, so a new file is then staged (loader/stage.c, direct_fit).  Then
-- the attempt's stage nonce, 63 random bits from the server's strong
-- random source (gen_random_uuid): on Citus the stage is a shared table
-- that a loader role may write (migration 043), and a load reads only the
-- rows of its load id and its nonce, so rows another session committed
-- there under a load id it guessed are never read.
SELECT pg_catalog.set_config('clearing_load.tenant', $1, true),
       pg_catalog.set_config('clearing_load.load_id', $2, true),
       pg_catalog.row_security_active('clearing_record'::pg_catalog.regclass),
       pg_catalog.set_config('clearing_load.stage_nonce',
         (('x' || pg_catalog.substr(pg_catalog.md5(pg_catalog.gen_random_uuid()::text), 1, 16))
            ::bit(64)::bigint & 9223372036854775807)::text, true)

-- name: load_insert_row
-- The clearing_load row of this attempt, written once with what became of
-- it (the load history is append-only): load $1, UUID $2, tenant $3, file
-- name $4, file size $5, SHA-256 $6, format $7, message type $8, sender $9,
-- receiver $10, file creation time $11, file id $12, record count $13, new
-- $14, duplicates $15, conflicts $16, invalid $17, outcome $18, reason $19
-- and retries $20.  Through clearing_write_load (024): only for the load
-- id this session took.  started_at is the transaction's start.
SELECT clearing_write_load($1::bigint, $2::uuid, $3, $4, $5::bigint, $6, $7, $8, $9, $10,
    $11, $12, $13::bigint, $14::bigint, $15::bigint, $16::bigint, $17::bigint, $18, $19,
    $20::integer)

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

-- name: load_savepoint_new
-- Before a file taken for new is inserted at once: what is undone when it
-- is not (loader/load.c classify_file).
SAVEPOINT cl_new

-- name: load_rollback_new
-- The file was not new after all: its insert and classification undone,
-- the stage kept.
ROLLBACK TO SAVEPOINT cl_new

-- fragment: load_write_journal_insert
-- The load's journal rows (pg_temp.cl_event, classify.sql) appended to the
-- journal, once, when the outcome is known: all of them, or for a held
-- file (it keeps its attempt and its conflicts, not its duplicates) those
-- that are not plain duplicates (the statements' WHERE).  The journal is
-- append-only: nothing written here is changed or deleted later.
INSERT INTO clearing_dedupe_event (load_id, ordinal, position, tenant, kind,
  natural_key, reason, matched_key, matched_load_id, matched_ordinal, matched_position, fields,
  shard)
SELECT load_id, ordinal, position, tenant, kind, natural_key, reason, matched_key,
       matched_load_id, matched_ordinal, matched_position, fields, shard
FROM pg_temp.cl_event

-- name: load_write_journal
-- The journal rows, all of them or ($1 false) those that are not plain
-- duplicates.
{load_write_journal_insert}
WHERE $1::boolean OR reason <> 'duplicate'

-- name: load_write_journal_citus
-- load_write_journal on Citus: its rows are the coordinator's, and with
-- RETURNING Citus writes them to the shards as INSERTs, which row security
-- checks, not as COPY, which it refuses (docs/design/0046).  $1 as in
-- load_write_journal.
WITH journaled AS ({load_write_journal_insert}
                   WHERE $1::boolean OR reason <> 'duplicate'
                   RETURNING 1)
SELECT count(*) FROM journaled

-- name: load_write_duplicates_citus
-- On Citus, with load_write_journal when the journal keeps duplicates: the
-- load's plain duplicates (classify_exact_citus wrote them beside their
-- staged records, in clearing_stage_match; they have no row in
-- pg_temp.cl_event) appended to the journal in their shard, one task per
-- shard on its worker, nothing brought to the coordinator.  Its row count
-- must be the duplicates classify_exact_citus counted (loader/load.c).
-- The rows are those classify_exact writes on one server.
INSERT INTO clearing_dedupe_event {classify_match_rows}
WHERE reason = 'duplicate'

-- name: load_record_archive
-- Where ingest moved load $1's file: $2 (the same move twice adds
-- nothing); through clearing_write_archive (024).
SELECT clearing_write_archive($1::bigint, $2)

-- name: load_feed_lock
-- The lock every load that applies records takes just before COMMIT, held
-- until the COMMIT is visible (013_feed.sql: why commit numbers then
-- become visible in their order).  The key is clearing-load's own.
SELECT pg_catalog.pg_advisory_xact_lock(7306385526012115201)

-- name: load_feed_commit
-- The load's commit number, its last statement before COMMIT (after
-- load_feed_lock): load $1 of tenant $2 applied $3 records.  The number is
-- taken by clearing_take_feed_commit (024), never given; its NOTIFY on
-- channel clearing_load_feed ("COMMIT_SEQ TENANT") is delivered when the
-- transaction commits, so a consumer need not poll.
SELECT clearing_take_feed_commit($1::bigint, $2, $3::bigint)

-- name: load_row_security_denies
-- After an insufficient_privilege (42501) of a load under tenant $1: is it
-- row-level security (on for clearing_record, and tenant $1 not among the
-- tenants the login role may see), rather than a missing grant?
SELECT coalesce((SELECT c.relrowsecurity FROM pg_catalog.pg_class c
		 WHERE c.oid = 'clearing_record'::pg_catalog.regclass), false)
       AND NOT ($1 = ANY (clearing_visible_tenants()))
