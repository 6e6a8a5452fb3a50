-- reconcile_citus.sql - reconcile on a Citus coordinator (cl_db.citus;
-- docs/design/0052-citus-reconcile.md).  reconcile's statements read
-- clearing_record (distributed there) in laterals over the statement's
-- entries (temporary tables) and together with the coordinator's tables
-- (matches, statement items, decisions), forms Citus refuses.  On Citus
-- the records a statement may read are copied first into a temporary
-- table of the coordinator (each read a distributed one, keys first as an
-- intermediate result, each probe ordered by shard as 0040's), and each
-- statement is then its one-server text with clearing_record read as that
-- copy ({X@local}): all of it local, planned by PostgreSQL as on one
-- server.  The copy is a superset of what the statements read: the
-- statements keep their own conditions, so their answer is the one
-- server's.  Row security applies to the reads that fill it.

-- name: reconcile_citus_create
-- The copy of the records the run's statements read, kept for the run
-- (break ids read the records of every statement's answer); its indexes
-- are those the statements probe by.
CREATE TEMPORARY TABLE IF NOT EXISTS cl_recon_record (LIKE clearing_record)

-- name: reconcile_citus_create_key
-- Its key: a record copied twice (by two reads) is one row.
CREATE UNIQUE INDEX IF NOT EXISTS cl_recon_record_key
  ON pg_temp.cl_recon_record (tenant, kind, natural_key)

-- name: reconcile_citus_create_load
-- A file's records, a group's by their ids.
CREATE INDEX IF NOT EXISTS cl_recon_record_load ON pg_temp.cl_recon_record (load_id, ordinal)

-- name: reconcile_citus_create_date
-- A day's records (suggestions, groups, unmatched ours).
CREATE INDEX IF NOT EXISTS cl_recon_record_date ON pg_temp.cl_recon_record (tenant, value_date)

-- name: reconcile_citus_create_trace
-- An ACH trace's records (a batch's, a return's original).
CREATE INDEX IF NOT EXISTS cl_recon_record_trace
  ON pg_temp.cl_recon_record (tenant, trace_number)

-- name: reconcile_citus_create_refs
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

-- name: reconcile_citus_truncate
-- A run starts with an empty copy (a connection that ran one before).
TRUNCATE pg_temp.cl_recon_record

-- name: reconcile_citus_drop
-- The copy, once the run's answer is written.
DROP TABLE IF EXISTS pg_temp.cl_recon_record

-- name: reconcile_citus_copy
-- The records of tenant $1 a statement's entries (the work table, filled)
-- may find: by each reference an entry has, in each of the record's
-- columns reconcile_best's arms probe (the trace in any window: the
-- statements apply theirs), by the PmtInfId and message id a batch or a
-- group status is matched by, and dated an entry's day or within the
-- statement's period ($2 to $3; NULL: none): what suggestions, groups and
-- unmatched ours read.  Each read its own probe per key by its index (the
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
d AS MATERIALIZED (
  SELECT DISTINCT e.on_date AS day FROM pg_temp.cl_recon_entry e WHERE e.on_date IS NOT NULL
  UNION
  SELECT g::date FROM pg_catalog.generate_series($2::date, $3::date, interval '1 day') g),
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
  FROM d
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

-- name: reconcile_citus_copy_files
-- The whole files (loads) of tenant $1 of the ACH entries copied by the
-- trace of a batch entry (reconcile_batches groups a file's entries,
-- reconcile_record_matches records them).
WITH t AS MATERIALIZED (
  SELECT DISTINCT c.load_id
  FROM pg_temp.cl_recon_record c
  WHERE c.kind = 'ach.entry' AND c.trace_number IN (
    SELECT e.ach_trace FROM pg_temp.cl_recon_entry e
    WHERE e.batch_count IS NOT NULL AND e.ach_trace IS NOT NULL)),
f AS MATERIALIZED (
  SELECT x.*
  FROM t
  CROSS JOIN LATERAL (
    SELECT x.* FROM clearing_record x
    WHERE x.load_id = t.load_id AND x.tenant = $1
    ORDER BY x.shard) x)
INSERT INTO pg_temp.cl_recon_record
SELECT * FROM f
ON CONFLICT DO NOTHING

-- name: reconcile_citus_copy_related
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

-- name: reconcile_citus_analyze
-- Statistics of the copy, for the plans of the statements that read it.
ANALYZE pg_temp.cl_recon_record

-- name: reconcile_citus_best
-- reconcile_best reading the copy: tenant $1, references $2, tolerance
-- $3 and $4, window $5, charges $6 as there.
{reconcile_best@local}

-- name: reconcile_citus_batches
-- reconcile_batches reading the copy (tenant $1).
{reconcile_batches@local}

-- name: reconcile_citus_suggest
-- reconcile_suggest reading the copy (tenant $1).
{reconcile_suggest@local}

-- name: reconcile_citus_suggest_batch
-- reconcile_suggest_batch reading the copy (tenant $1, originators $2).
{reconcile_suggest_batch@local}

-- name: reconcile_citus_group
-- reconcile_group reading the copy (tenant $1, account $2, originators $3).
{reconcile_group@local}

-- name: reconcile_citus_judge
-- reconcile_judge reading the copy (tenant $1, statement $2, its number $3).
{reconcile_judge@local}

-- name: reconcile_citus_record_matches
-- reconcile_record_matches reading the copy (tenant $1, statement $2, run $3).
{reconcile_record_matches@local}

-- name: reconcile_citus_unmatched_ours
-- reconcile_unmatched_ours reading the copy: tenant $1, statement $2, its
-- number $3, period $4 to $5, account $6, originators $7, currency $8,
-- kind $9 as there.
{reconcile_unmatched_ours@local}

-- name: reconcile_citus_break_ids
-- reconcile_break_ids reading the copy (tenant $1).
{reconcile_break_ids@local}
