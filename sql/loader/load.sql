-- load.sql - a file's load: its clearing_load row, staging, explaining
-- conflicts and applying the new records (loader/load.c).  The near
-- duplicates within the file are still in loader/load.c.

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

-- name: load_in_file_duplicates
-- Two staged records of the file under one key (first and last line, how
-- many, the key, false), and one payment under two natural keys: the same
-- alternate key and content (first and last line, how many keys, the
-- alternate key, true).  The first ten, in file order.
SELECT min(position), max(position), count(*),
       min(coalesce(journal_key, natural_key)), false
FROM pg_temp.cl_stage
GROUP BY kind, natural_key
HAVING count(*) > 1
UNION ALL
SELECT * FROM (
  SELECT DISTINCT ON (1, 2) min(position), max(position),
         count(DISTINCT natural_key), min(a), true
  FROM (SELECT kind, alt_key a, coalesce(alt_fp, fingerprint) fingerprint,
               natural_key, position
        FROM pg_temp.cl_stage WHERE alt_key IS NOT NULL
        UNION ALL
        SELECT kind, alt_key2, coalesce(alt_fp, fingerprint), natural_key,
               position
        FROM pg_temp.cl_stage WHERE alt_key2 IS NOT NULL) ids
  GROUP BY kind, a, fingerprint
  HAVING count(DISTINCT natural_key) > 1
  ORDER BY 1, 2, 4) pairs
ORDER BY 1
LIMIT 10

-- name: load_lock_uuid
-- The transaction-level advisory lock on load UUID $1 (any case), held
-- from BEGIN to the end of the load: history_lock_uuid tells a running
-- load by it.
SELECT pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended(pg_catalog.lower($1), 0))

-- name: load_create_stage
-- The stage table of pass 1: what classification needs of each record.
CREATE TEMPORARY TABLE cl_stage (
  ordinal bigint NOT NULL, position bigint NOT NULL, kind text NOT NULL,
  natural_key text COLLATE "C" NOT NULL, fingerprint bytea NOT NULL,
  journal_key text, alt_key text COLLATE "C", alt_key2 text COLLATE "C",
  alt_fp bytea) ON COMMIT DROP

-- name: load_copy_stage
-- Pass 1 streams every record into the stage table.
COPY pg_temp.cl_stage (ordinal, position, kind, natural_key, fingerprint,
                       journal_key, alt_key, alt_key2, alt_fp) FROM STDIN

-- name: load_stage_statistics
-- The planner needs the stage's row count and that keys are unique, not
-- fine histograms: a 3,000-row sample (17 ms) instead of 30,000 (120 ms
-- for a million records).  For this transaction only.
SET LOCAL default_statistics_target = 10

-- name: load_analyze_stage
-- Statistics of the stage table, for the classification's plan.
ANALYZE pg_temp.cl_stage

-- name: load_explain
-- The differing compared fields of each conflict, named in its journal row:
-- conflict c (as in the file) against the applied record r it matched.
UPDATE public.clearing_dedupe_event e
SET fields = ARRAY(SELECT f FROM (VALUES {compared_diffs}) AS d(f, differs)
                   WHERE differs)
FROM pg_temp.cl_conflict c, public.clearing_record r
WHERE e.load_id = c.load_id AND e.ordinal = c.ordinal
  AND r.tenant = e.tenant AND r.kind = c.kind
  AND r.natural_key = coalesce(e.matched_key, c.natural_key)

-- name: load_quarantine
-- Park the conflicting records with their full content.  A version
-- already parked (same key, same fingerprint) is not parked again: a
-- re-run must not put one payment twice in the queue someone works
-- through; its journal row says what happened.
INSERT INTO public.clearing_quarantine ({record_columns})
SELECT {record_columns}
FROM pg_temp.cl_conflict c
WHERE NOT EXISTS (SELECT 1 FROM public.clearing_quarantine q
                  WHERE q.tenant = c.tenant AND q.kind = c.kind
                    AND q.natural_key = c.natural_key
                    AND q.fingerprint = c.fingerprint)

-- name: load_create_conflict
-- The conflicting records, in full, for load_explain and load_quarantine.
CREATE TEMPORARY TABLE cl_conflict (LIKE public.clearing_record) ON COMMIT DROP

-- name: load_copy_conflict
-- The conflicting records streamed from a re-read of the file.
COPY pg_temp.cl_conflict ({record_columns}) FROM STDIN

-- name: load_journal_raced
-- The records the ordered path skipped: another load committed their keys
-- after this one's classification.  Journaled like the classification
-- would have (duplicate or conflict); returns each one's ordinal and
-- reason.
COPY (INSERT INTO public.clearing_dedupe_event (load_id, ordinal, position,
        tenant, kind, natural_key, reason, matched_key, matched_load_id,
        matched_ordinal, matched_position)
      SELECT n.load_id, n.ordinal, n.position, n.tenant, n.kind,
             coalesce(s.journal_key, s.natural_key),
             CASE WHEN r.fingerprint = n.fingerprint THEN 'duplicate' ELSE 'conflict' END,
             NULL, r.load_id, r.ordinal, r.position
      FROM pg_temp.cl_new n
      JOIN pg_temp.cl_stage s ON s.ordinal = n.ordinal
      JOIN public.clearing_record r ON r.tenant = n.tenant AND r.kind = n.kind
       AND r.natural_key = n.natural_key AND r.load_id <> n.load_id
      RETURNING ordinal, reason) TO STDOUT

-- name: load_copy_new
-- Pass 2: the new records streamed straight into clearing_record (the
-- unique index is the arbiter: a key committed meanwhile fails the COPY).
COPY public.clearing_record ({record_columns}) FROM STDIN

-- name: load_create_new
-- The ordered path (a retry): the new records are staged first.
CREATE TEMPORARY TABLE cl_new (LIKE public.clearing_record) ON COMMIT DROP

-- name: load_copy_new_staged
-- The ordered path: the new records streamed into their stage.
COPY pg_temp.cl_new ({record_columns}) FROM STDIN

-- name: load_insert_new_ordered
-- The ordered path: the staged new records into clearing_record in key
-- order (loaders that insert in one order cannot deadlock), a key
-- committed meanwhile skipped; returns how many were inserted.
WITH ins AS (
  INSERT INTO public.clearing_record ({record_columns})
  SELECT {record_columns} FROM pg_temp.cl_new ORDER BY kind, natural_key
  ON CONFLICT (tenant, kind, natural_key) DO NOTHING
  RETURNING 1)
SELECT count(*) FROM ins

-- name: load_work_mem
-- The exact-key join hashes the file's keys; at the server's default
-- (4 MB) a million keys spill to 16 batches on disk (0.3-0.5 s more).
-- For this transaction only.
SET LOCAL work_mem = '128MB'

-- name: load_forget_duplicates
-- A held file keeps its attempt and its conflicts, not its duplicates:
-- this load's duplicate journal rows are deleted.
DELETE FROM public.clearing_dedupe_event
WHERE load_id = pg_catalog.current_setting('clearing_load.load_id')::bigint
  AND reason = 'duplicate'
