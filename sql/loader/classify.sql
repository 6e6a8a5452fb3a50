-- classify.sql - the originator locks and the exact-key classification
-- (loader/classify.c).  The near-duplicate statements are still in
-- loader/classify.c.
--
-- 1129072716 ("CLoL") is the first key of every originator lock: any
-- constant, never changed.

-- name: classify_lock_returns
-- One lock per tenant ($1) for the files that carry ACH returns or NOCs
-- (they have no originator in their near identity): a return file and its
-- re-dated copy loaded at once run one after the other.
SELECT pg_catalog.pg_advisory_xact_lock(1129072716, pg_catalog.hashtext($1 || '|returns'))

-- name: classify_lock_alt_key
-- One lock per tenant ($1) for the files with alternate keys: two loads of
-- one payment in its two forms (with and without UETR) run one after the
-- other, the second sees the first.
SELECT pg_catalog.pg_advisory_xact_lock(1129072716, pg_catalog.hashtext($1 || '|alt_key'))

-- name: classify_lock_tenant
-- The exclusive tenant-wide lock of tenant $1, for a file of too many
-- originators to lock one by one.
SELECT pg_catalog.pg_advisory_xact_lock(1129072716, pg_catalog.hashtext($1))

-- name: classify_lock_tenant_shared
-- The shared tenant lock of tenant $1, taken before its originator locks.
SELECT pg_catalog.pg_advisory_xact_lock_shared(1129072716, pg_catalog.hashtext($1))

-- name: classify_lock_originator
-- The lock of originator (company id) $2 of tenant $1.
SELECT pg_catalog.pg_advisory_xact_lock(1129072716, pg_catalog.hashtext($1 || '|' || $2))

-- name: classify_exact
-- Exact key matches: one INSERT ... SELECT writes the journal rows of the
-- staged records whose key this tenant has applied (duplicate: same
-- fingerprint; conflict: other content); its row count is the number of
-- matches.
INSERT INTO public.clearing_dedupe_event (load_id, ordinal, position, tenant, kind,
  natural_key, reason, matched_key, matched_load_id, matched_ordinal, matched_position)
SELECT pg_catalog.current_setting('clearing_load.load_id')::bigint, s.ordinal,
       s.position, r.tenant, s.kind, coalesce(s.journal_key, s.natural_key),
       CASE WHEN r.fingerprint = s.fingerprint THEN 'duplicate' ELSE 'conflict' END,
       NULL, r.load_id, r.ordinal, r.position
FROM pg_temp.cl_stage s
JOIN public.clearing_record r
  ON r.tenant = pg_catalog.current_setting('clearing_load.tenant')
 AND r.kind = s.kind AND r.natural_key = s.natural_key

-- name: classify_conflict_rows
-- The conflicts of this load (ordinal, reason), through the partial index
-- of migration 005 (it holds only the journal rows that are not plain
-- duplicates).
COPY (SELECT ordinal, reason FROM public.clearing_dedupe_event
      WHERE load_id = pg_catalog.current_setting('clearing_load.load_id')::bigint
        AND reason <> 'duplicate') TO STDOUT

-- name: classify_duplicate_rows
-- The duplicates of this load (ordinal, reason): this load's journal rows
-- are the block ranges the BRIN index on load_id points at.
COPY (SELECT ordinal, reason FROM public.clearing_dedupe_event
      WHERE load_id = pg_catalog.current_setting('clearing_load.load_id')::bigint
        AND reason = 'duplicate') TO STDOUT

-- name: classify_large_table
-- Does clearing_record (with its partitions) hold, by the planner's
-- estimate, more than 8 times the file's records (the setting
-- clearing_load.records)?
SELECT coalesce(sum(c.reltuples) FILTER (WHERE c.reltuples > 0), 0) >
       8 * pg_catalog.current_setting('clearing_load.records')::float8
FROM pg_catalog.pg_class c
WHERE c.oid = 'public.clearing_record'::pg_catalog.regclass
   OR c.oid IN (SELECT inhrelid FROM pg_catalog.pg_inherits
                WHERE inhparent = 'public.clearing_record'::pg_catalog.regclass)

-- name: classify_set_records
-- The file's record count $1 as a setting of this transaction, for
-- classify_large_table.
SELECT pg_catalog.set_config('clearing_load.records', $1, true)

-- name: classify_hashjoin_off
-- No hash joins for the exact-key join against a table many times the
-- file's size (merge join or index probes instead).
SET LOCAL enable_hashjoin = off

-- name: classify_hashjoin_default
-- Hash joins back for the statements after the exact-key join.
SET LOCAL enable_hashjoin TO DEFAULT

-- name: classify_analyze_unmatched
-- Statistics of the staged ACH records without an exact match, for the
-- near-duplicate joins' plans.
ANALYZE pg_temp.cl_unmatched
