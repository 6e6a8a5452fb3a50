-- reconcile_copy.sql - reconcile reading a copy of the records: on a
-- Citus coordinator (cl_db.citus; docs/design/0052-citus-reconcile.md)
-- and where clearing_record is in columnar storage (cl_db.columnar;
-- docs/design/0065-columnar-lookups.md).  reconcile's statements read
-- clearing_record in laterals over the statement's entries (temporary
-- tables) and together with the coordinator's tables (matches, statement
-- items, decisions): on Citus, forms Citus refuses; in columnar storage,
-- a day's records read through an index, each fetched from its chunk
-- (over 300 s for a day of 5 million; a heap's scan: 0.8 s).  There the
-- records a statement may read are copied first into a temporary table
-- (each read by reference a probe per key by its index: on Citus keys
-- first as an intermediate result, each probe ordered by shard as
-- 0040's; in columnar storage the day's and whole files' records read by
-- the storage's own scan, its chunk groups of other days and loads
-- skipped), and each statement is then its one-server text with
-- clearing_record read as that copy ({X@local}): all of it local,
-- planned by PostgreSQL as on one server.  The copy is a superset of what
-- the statements read: the statements keep their own conditions, so
-- their answer is the one server's.  Row security applies to the reads
-- that fill it.

-- name: reconcile_copy_create
-- The copy of the records the run's statements read, kept for the run
-- (break ids read the records of every statement's answer); its indexes
-- are those the statements probe by.
CREATE TEMPORARY TABLE IF NOT EXISTS cl_recon_record (LIKE clearing_record)

-- name: reconcile_copy_create_key
-- Its key: a record copied twice (by two reads) is one row.
CREATE UNIQUE INDEX IF NOT EXISTS cl_recon_record_key
  ON pg_temp.cl_recon_record (tenant, kind, natural_key)

-- name: reconcile_copy_create_load
-- A file's records, a group's by their ids.
CREATE INDEX IF NOT EXISTS cl_recon_record_load ON pg_temp.cl_recon_record (load_id, ordinal)

-- name: reconcile_copy_create_date
-- A day's records (suggestions, groups, unmatched ours).
CREATE INDEX IF NOT EXISTS cl_recon_record_date ON pg_temp.cl_recon_record (tenant, value_date)

-- name: reconcile_copy_create_trace
-- An ACH trace's records (a batch's, a return's original).
CREATE INDEX IF NOT EXISTS cl_recon_record_trace
  ON pg_temp.cl_recon_record (tenant, trace_number)

-- name: reconcile_copy_create_refs
-- The other columns the statements probe the copy by (reconcile_best's
-- arms, a batch's PmtInfId and message, the answers naming a record): as
-- clearing_record's own indexes serve them on one server.
DO $$
BEGIN
  CREATE INDEX IF NOT EXISTS cl_recon_record_uetr ON pg_temp.cl_recon_record (uetr);
  CREATE INDEX IF NOT EXISTS cl_recon_record_orgnl_uetr ON pg_temp.cl_recon_record (orgnl_uetr);
  CREATE INDEX IF NOT EXISTS cl_recon_record_e2e ON pg_temp.cl_recon_record (end_to_end_id);
  CREATE INDEX IF NOT EXISTS cl_recon_record_orgnl_e2e
    ON pg_temp.cl_recon_record (orgnl_end_to_end_id);
  CREATE INDEX IF NOT EXISTS cl_recon_record_tx_id ON pg_temp.cl_recon_record (tx_id);
  CREATE INDEX IF NOT EXISTS cl_recon_record_instr_id ON pg_temp.cl_recon_record (instr_id);
  CREATE INDEX IF NOT EXISTS cl_recon_record_original_trace
    ON pg_temp.cl_recon_record (original_trace);
  CREATE INDEX IF NOT EXISTS cl_recon_record_pmt_inf_id ON pg_temp.cl_recon_record (pmt_inf_id);
  CREATE INDEX IF NOT EXISTS cl_recon_record_msg_id ON pg_temp.cl_recon_record (msg_id);
END
$$

-- name: reconcile_copy_truncate
-- A run starts with an empty copy (a connection that ran one before).
TRUNCATE pg_temp.cl_recon_record

-- name: reconcile_copy_drop
-- The copy, once the run's answer is written.
DROP TABLE IF EXISTS pg_temp.cl_recon_record

-- name: reconcile_copy_read
-- The records of tenant $1 a statement's entries (the work table, filled)
-- may find: by each reference an entry has, in each of the record's
-- columns reconcile_best's arms probe (the trace in any window: the
-- statements apply theirs), by the PmtInfId and message id a batch or a
-- group status is matched by, and dated one of the days $2 (date[],
-- reconcile_copy_days; in columnar storage NULL, and the days read by
-- reconcile_copy_days_columnar): what suggestions, groups and unmatched
-- ours read.  Each read its own probe per key by its index (the
-- keys first, an intermediate result on Citus; ordered by shard, 0040).
WITH k AS MATERIALIZED (
  SELECT DISTINCT v.col, v.val
  FROM pg_temp.cl_recon_entry e
  CROSS JOIN LATERAL (VALUES ('uetr', e.uetr), ('e2e', e.end_to_end_id),
                             ('e2e', e.acct_svcr_ref), ('tx_id', e.tx_id),
                             ('tx_id', e.acct_svcr_ref), ('instr_id', e.instr_id),
                             ('trace', e.ach_trace), ('pmt_inf_id', e.pmt_inf_id),
                             ('pmt_inf_id', e.batch_pmt_inf_id), ('msg_id', e.msg_id))
    AS v(col, val)
  WHERE v.val IS NOT NULL),
a1 AS MATERIALIZED (
  SELECT x.*
  FROM (SELECT k.val FROM k WHERE k.col = 'uetr') k
  CROSS JOIN LATERAL (
    SELECT x.* FROM clearing_record x
    WHERE x.tenant = $1 AND x.uetr = k.val
    ORDER BY x.shard) x),
a2 AS MATERIALIZED (
  SELECT x.*
  FROM (SELECT k.val FROM k WHERE k.col = 'uetr') k
  CROSS JOIN LATERAL (
    SELECT x.* FROM clearing_record x
    WHERE x.tenant = $1 AND x.orgnl_uetr = k.val
    ORDER BY x.shard) x),
a3 AS MATERIALIZED (
  SELECT x.*
  FROM (SELECT k.val FROM k WHERE k.col = 'e2e') k
  CROSS JOIN LATERAL (
    SELECT x.* FROM clearing_record x
    WHERE x.tenant = $1 AND x.end_to_end_id = k.val
    ORDER BY x.shard) x),
a4 AS MATERIALIZED (
  SELECT x.*
  FROM (SELECT k.val FROM k WHERE k.col = 'e2e') k
  CROSS JOIN LATERAL (
    SELECT x.* FROM clearing_record x
    WHERE x.tenant = $1 AND x.orgnl_end_to_end_id = k.val
    ORDER BY x.shard) x),
a5 AS MATERIALIZED (
  SELECT x.*
  FROM (SELECT k.val FROM k WHERE k.col = 'tx_id') k
  CROSS JOIN LATERAL (
    SELECT x.* FROM clearing_record x
    WHERE x.tenant = $1 AND x.tx_id = k.val
    ORDER BY x.shard) x),
a6 AS MATERIALIZED (
  SELECT x.*
  FROM (SELECT k.val FROM k WHERE k.col = 'instr_id') k
  CROSS JOIN LATERAL (
    SELECT x.* FROM clearing_record x
    WHERE x.tenant = $1 AND x.instr_id = k.val
    ORDER BY x.shard) x),
a7 AS MATERIALIZED (
  SELECT x.*
  FROM (SELECT k.val FROM k WHERE k.col = 'trace') k
  CROSS JOIN LATERAL (
    SELECT x.* FROM clearing_record x
    WHERE x.tenant = $1 AND x.trace_number = k.val
    ORDER BY x.shard) x),
a8 AS MATERIALIZED (
  SELECT x.*
  FROM (SELECT k.val FROM k WHERE k.col = 'trace') k
  CROSS JOIN LATERAL (
    SELECT x.* FROM clearing_record x
    WHERE x.tenant = $1 AND x.original_trace = k.val
    ORDER BY x.shard) x),
a9 AS MATERIALIZED (
  SELECT x.*
  FROM (SELECT k.val FROM k WHERE k.col = 'pmt_inf_id') k
  CROSS JOIN LATERAL (
    SELECT x.* FROM clearing_record x
    WHERE x.tenant = $1 AND x.pmt_inf_id = k.val
    ORDER BY x.shard) x),
a10 AS MATERIALIZED (
  SELECT x.*
  FROM (SELECT k.val FROM k WHERE k.col = 'msg_id') k
  CROSS JOIN LATERAL (
    SELECT x.* FROM clearing_record x
    WHERE x.tenant = $1 AND x.msg_id = k.val
    ORDER BY x.shard) x),
by_day AS MATERIALIZED (
  SELECT x.*
  FROM pg_catalog.unnest($2::date[]) AS d(day)
  CROSS JOIN LATERAL (
    SELECT x.* FROM clearing_record x
    WHERE x.tenant = $1 AND x.value_date = d.day
    ORDER BY x.shard) x)
INSERT INTO pg_temp.cl_recon_record
SELECT * FROM a1 UNION ALL SELECT * FROM a2 UNION ALL SELECT * FROM a3
UNION ALL SELECT * FROM a4 UNION ALL SELECT * FROM a5 UNION ALL SELECT * FROM a6
UNION ALL SELECT * FROM a7 UNION ALL SELECT * FROM a8 UNION ALL SELECT * FROM a9
UNION ALL SELECT * FROM a10 UNION ALL SELECT * FROM by_day
ON CONFLICT DO NOTHING

-- name: reconcile_copy_days
-- The days whose records are copied: each entry's and those of the
-- statement's period ($1 to $2; NULL: none), as a date[] (a value for the
-- statements that read them).
SELECT pg_catalog.array_agg(d.day ORDER BY d.day)
FROM (SELECT e.on_date AS day FROM pg_temp.cl_recon_entry e WHERE e.on_date IS NOT NULL
      UNION
      SELECT g::date FROM pg_catalog.generate_series($1::date, $2::date, interval '1 day') g) d

-- name: reconcile_copy_days_columnar
-- In columnar storage, the records of tenant $1 dated one of the days $2
-- (date[], reconcile_copy_days; a value when the statement is planned, so
-- that the storage's scan skips the chunk groups of other days).
INSERT INTO pg_temp.cl_recon_record
SELECT x.* FROM clearing_record x
WHERE x.tenant = $1 AND x.value_date = ANY ($2::date[])
ON CONFLICT DO NOTHING

-- name: reconcile_copy_file_loads
-- The files (loads) of the ACH entries copied by the trace of a batch
-- entry, as a bigint[]: their whole files are copied (reconcile_batches
-- groups a file's entries, reconcile_record_matches records them).
SELECT pg_catalog.array_agg(DISTINCT c.load_id)
FROM pg_temp.cl_recon_record c
WHERE c.kind = 'ach.entry' AND c.trace_number IN (
  SELECT e.ach_trace FROM pg_temp.cl_recon_entry e
  WHERE e.batch_count IS NOT NULL AND e.ach_trace IS NOT NULL)

-- name: reconcile_copy_files
-- The records of tenant $1 of the loads $2 (bigint[],
-- reconcile_copy_file_loads), a probe of each load's by its index.
WITH f AS MATERIALIZED (
  SELECT x.*
  FROM pg_catalog.unnest($2::bigint[]) AS t(load_id)
  CROSS JOIN LATERAL (
    SELECT x.* FROM clearing_record x
    WHERE x.load_id = t.load_id AND x.tenant = $1
    ORDER BY x.shard) x)
INSERT INTO pg_temp.cl_recon_record
SELECT * FROM f
ON CONFLICT DO NOTHING

-- name: reconcile_copy_files_columnar
-- In columnar storage, the records of tenant $1 of the loads $2
-- (bigint[], a value when the statement is planned: the storage's scan
-- skips the chunk groups of other loads).
INSERT INTO pg_temp.cl_recon_record
SELECT x.* FROM clearing_record x
WHERE x.tenant = $1 AND x.load_id = ANY ($2::bigint[])
ON CONFLICT DO NOTHING

-- name: reconcile_copy_scan_citus
-- On Citus, before reconcile_copy_scan: the SET LOCAL commands that follow
-- sent to the workers too, whose sessions read the shards.
SET LOCAL citus.propagate_set_commands = 'local'

-- name: reconcile_copy_scan
-- In columnar storage, before the statements that read whole days and
-- whole files, the storage's own scan allowed, which reads only the chunk
-- groups that may hold them (the loader's sessions turn it off: columnar.sql's
-- columnar_session; on Citus the database's setting, 046).  Until
-- reconcile_copy_probe, in this transaction.
SET LOCAL columnar.enable_custom_scan = on

-- name: reconcile_copy_probe
-- After them: every read an index probe again.
SET LOCAL columnar.enable_custom_scan = off

-- name: reconcile_copy_related
-- The records of tenant $1 the statements read about those copied: an
-- ACH return's original entry (its trace, within the 70 days before it,
-- reconcile_return_original), a pacs.004's original (its OrgnlUETR, else
-- its OrgnlEndToEndId), and the answers that say a record was not to be
-- booked (a camt.029 or pacs.004 naming its UETR or EndToEndId,
-- reconcile_not_expected).  A probe per key by its index, as above.
WITH k AS MATERIALIZED (
  SELECT DISTINCT v.col, v.val, v.day
  FROM pg_temp.cl_recon_record c
  CROSS JOIN LATERAL (VALUES
      ('original_trace', CASE WHEN c.kind = 'ach.return' THEN c.original_trace END,
       c.value_date),
      ('uetr', CASE WHEN c.kind = 'pacs.004' THEN c.orgnl_uetr END, NULL::date),
      ('e2e', CASE WHEN c.kind = 'pacs.004' THEN c.orgnl_end_to_end_id END, NULL),
      ('orgnl_uetr', c.uetr, NULL), ('orgnl_e2e', c.end_to_end_id, NULL)) AS v(col, val, day)
  WHERE v.val IS NOT NULL),
o1 AS MATERIALIZED (
  SELECT x.*
  FROM (SELECT k.val, k.day FROM k WHERE k.col = 'original_trace') k
  CROSS JOIN LATERAL (
    SELECT x.* FROM clearing_record x
    WHERE x.tenant = $1 AND x.trace_number = k.val AND x.kind = 'ach.entry'
      AND (k.day IS NULL OR x.value_date BETWEEN k.day - 70 AND k.day)
    ORDER BY x.shard) x),
o2 AS MATERIALIZED (
  SELECT x.*
  FROM (SELECT k.val FROM k WHERE k.col = 'uetr') k
  CROSS JOIN LATERAL (
    SELECT x.* FROM clearing_record x
    WHERE x.tenant = $1 AND x.uetr = k.val
    ORDER BY x.shard) x),
o3 AS MATERIALIZED (
  SELECT x.*
  FROM (SELECT k.val FROM k WHERE k.col = 'e2e') k
  CROSS JOIN LATERAL (
    SELECT x.* FROM clearing_record x
    WHERE x.tenant = $1 AND x.end_to_end_id = k.val
    ORDER BY x.shard) x),
o4 AS MATERIALIZED (
  SELECT x.*
  FROM (SELECT k.val FROM k WHERE k.col = 'orgnl_uetr') k
  CROSS JOIN LATERAL (
    SELECT x.* FROM clearing_record x
    WHERE x.tenant = $1 AND x.orgnl_uetr = k.val
      AND x.kind IN ('camt.029', 'pacs.004')
    ORDER BY x.shard) x),
o5 AS MATERIALIZED (
  SELECT x.*
  FROM (SELECT k.val FROM k WHERE k.col = 'orgnl_e2e') k
  CROSS JOIN LATERAL (
    SELECT x.* FROM clearing_record x
    WHERE x.tenant = $1 AND x.orgnl_end_to_end_id = k.val
      AND x.kind IN ('camt.029', 'pacs.004')
    ORDER BY x.shard) x)
INSERT INTO pg_temp.cl_recon_record
SELECT * FROM o1 UNION ALL SELECT * FROM o2 UNION ALL SELECT * FROM o3
UNION ALL SELECT * FROM o4 UNION ALL SELECT * FROM o5
ON CONFLICT DO NOTHING

-- name: reconcile_copy_analyze
-- Statistics of the copy, for the plans of the statements that read it.
ANALYZE pg_temp.cl_recon_record

-- name: reconcile_copy_best
-- reconcile_best reading the copy: tenant $1, references $2, tolerance
-- $3 and $4, window $5, charges $6 as there.
{reconcile_best@local}

-- name: reconcile_copy_batches
-- reconcile_batches reading the copy (tenant $1).
{reconcile_batches@local}

-- name: reconcile_copy_suggest
-- reconcile_suggest reading the copy (tenant $1).
{reconcile_suggest@local}

-- name: reconcile_copy_suggest_batch
-- reconcile_suggest_batch reading the copy (tenant $1, originators $2).
{reconcile_suggest_batch@local}

-- name: reconcile_copy_group
-- reconcile_group reading the copy (tenant $1, account $2, originators $3).
{reconcile_group@local}

-- name: reconcile_copy_judge
-- reconcile_judge reading the copy (tenant $1, statement $2, its number $3).
{reconcile_judge@local}

-- name: reconcile_copy_record_matches
-- reconcile_record_matches reading the copy (tenant $1, statement $2, run $3).
{reconcile_record_matches@local}

-- name: reconcile_copy_unmatched_ours
-- reconcile_unmatched_ours reading the copy: tenant $1, statement $2, its
-- number $3, period $4 to $5, account $6, originators $7, currency $8,
-- kind $9 as there.
{reconcile_unmatched_ours@local}

-- name: reconcile_copy_break_ids
-- reconcile_break_ids reading the copy (tenant $1).
{reconcile_break_ids@local}
