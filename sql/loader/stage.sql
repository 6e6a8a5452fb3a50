-- stage.sql - the file read into pg_temp.cl_stage, or a new NACHA file
-- straight into clearing_record (decision 0058), and the checks that need
-- the whole file (loader/stage.c).

-- fragment: stage_ddl_local
-- In a DO block that declares ddl as the setting
-- citus.enable_ddl_propagation (NULL on one server): on Citus, the DDL of
-- temporary objects that follows is the coordinator's own, not sent to
-- the workers, until {stage_ddl_restored}.
IF ddl IS NOT NULL THEN
    PERFORM pg_catalog.set_config('citus.enable_ddl_propagation', 'off', true);
  END IF

-- fragment: stage_ddl_restored
-- The setting as it was before {stage_ddl_local}.
IF ddl IS NOT NULL THEN
    PERFORM pg_catalog.set_config('citus.enable_ddl_propagation', ddl, true);
  END IF

-- fragment: stage_direct_views_dropped
-- The views that depend on pg_temp.cl_stage, the pending records
-- (classify_pending_all) and, on Citus, the same renamed once they were
-- copied to the coordinator (classify_pending_local_citus); then the view
-- that stands for the stage of a direct load (stage_direct_view).  No
-- other object depends on them.  (One server's stage needs none dropped:
-- its table and views go with the transaction, a direct load's views are
-- dropped before its COMMIT; on Citus the views of a staged load outlive
-- it, stage_create_citus drops them all.)
DROP VIEW IF EXISTS pg_temp.cl_pending, pg_temp.cl_pending_stage, pg_temp.cl_stage

-- name: stage_create
-- The stage of one attempt: every record of the file with all its
-- clearing_record columns, and the key as the journal keeps it (accounts
-- masked).  Dropped with the transaction.  When clearing_record is
-- partitioned (init --partitions), the stage is partitioned the same way
-- (its key and every partition's bounds, read from the catalog): the
-- statements that read it then read the records a partition of
-- clearing_record at a time, so the INSERT of the new records fills one
-- partition after the other (in file order it went round them a row at
-- a time, 30% slower on 8 partitions) and the probes stay in one
-- partition's index pages.  Only the first level is copied: a partition
-- that is itself partitioned gets a plain one.  (A plain clearing_record:
-- no partition key, no partitions, a plain stage.)
DO $stage$
DECLARE
  root oid := 'clearing_record'::pg_catalog.regclass;
  part record;
BEGIN
  EXECUTE pg_catalog.format(
    'CREATE TEMPORARY TABLE cl_stage (LIKE clearing_record, journal_key text) %s '
    'ON COMMIT DROP', coalesce('PARTITION BY ' || pg_catalog.pg_get_partkeydef(root), ''));
  FOR part IN
    SELECT pg_catalog.row_number() OVER (ORDER BY c.oid) AS n,
           pg_catalog.pg_get_expr(c.relpartbound, c.oid) AS bound
    FROM pg_catalog.pg_inherits i
    JOIN pg_catalog.pg_class c ON c.oid = i.inhrelid
    WHERE i.inhparent = root AND c.relispartition
  LOOP
    EXECUTE pg_catalog.format(
      'CREATE TEMPORARY TABLE %I PARTITION OF pg_temp.cl_stage %s ON COMMIT DROP',
      'cl_stage_' || part.n, part.bound);
  END LOOP;
END
$stage$

-- name: stage_copy
-- Every record streamed into the stage, in binary (loader/db.h).
COPY pg_temp.cl_stage ({record_columns}, journal_key) FROM STDIN (FORMAT binary)

-- name: stage_direct_view
-- A new file read straight into clearing_record (loader/stage.c,
-- cl_stage_copy_records; decision 0058): its stage is a view of this
-- load's records (clearing_record_load_ordinal), so the probes that follow
-- (classify.sql: the near duplicates) read them as they read a stage.  No
-- key as the journal keeps it: any journal row the probes write makes the
-- load fall back to a real stage (loader/load.c).  The load id is a
-- constant (a Citus worker has no setting clearing_load.load_id).  The
-- view would outlive the transaction: the load drops it before its COMMIT
-- (stage_direct_drop), and any left by a previous load of the session
-- first.  On Citus a temporary view is the coordinator's own (not
-- propagated).
DO $direct$
DECLARE
  ddl text := pg_catalog.current_setting('citus.enable_ddl_propagation', true);
BEGIN
  {stage_ddl_local};
  {stage_direct_views_dropped};
  EXECUTE pg_catalog.format(
    'CREATE TEMPORARY VIEW cl_stage AS '
    'SELECT r.*, NULL::text AS journal_key FROM clearing_record r WHERE r.load_id = %s',
    pg_catalog.current_setting('clearing_load.load_id')::bigint);
  {stage_ddl_restored};
END
$direct$

-- name: stage_direct_drop
-- A direct load's views dropped before its COMMIT (a temporary view
-- outlives its transaction, and a view of clearing_record kept by a
-- session would stand in the way of another session's ALTER TABLE).
DO $drop$
DECLARE
  ddl text := pg_catalog.current_setting('citus.enable_ddl_propagation', true);
BEGIN
  {stage_ddl_local};
  {stage_direct_views_dropped};
  {stage_ddl_restored};
END
$drop$

-- name: stage_direct_copy
-- A new file's records straight into clearing_record, in binary: the
-- unique index's check on insert is the exact-key probe (a key applied
-- already, or by a concurrent load, fails it with 23505 and the load falls
-- back to its stage: loader/load.c).
COPY clearing_record ({record_columns}) FROM STDIN (FORMAT binary)

-- name: stage_create_citus
-- The stage on Citus (docs/design/0046-distributed-stage.md): this load's
-- rows of clearing_stage (migration 035), distributed on shard and
-- co-located with clearing_record, seen through a temporary view of the
-- same name, so that the statements that read the stage read it on
-- either, and on Citus each probe of a staged record is a join of one
-- stage shard with the same shard of clearing_record, sent whole to its
-- worker.  The view names the load id (the setting clearing_load.load_id,
-- an integer) and the attempt's nonce (clearing_load.stage_nonce, 043),
-- each as a constant, since a worker has no such setting.  The rows are
-- written and deleted in the load's transaction (stage_empty_citus):
-- another session never sees them.  Its pending copies (classify.sql,
-- classify_pending_citus) are the view cl_stage_pending.  A view outlives
-- its transaction, so those of the session's previous load are dropped
-- first.  Its pending records under their alternate keys (classify.sql,
-- classify_alt_stage_citus) are the view cl_alt_stage, its exact-key
-- matches (classify_exact_citus) the view cl_stage_match, each under the
-- same load id and nonce (044).  DDL of temporary objects is the
-- coordinator's own: not sent to the workers.
DO $stage$
DECLARE
  ddl text := pg_catalog.current_setting('citus.enable_ddl_propagation');
  pending boolean;
BEGIN
  {stage_ddl_local};
  DROP VIEW IF EXISTS pg_temp.cl_pending, pg_temp.cl_pending_stage, pg_temp.cl_stage,
    pg_temp.cl_stage_pending, pg_temp.cl_alt_stage, pg_temp.cl_stage_match;
  FOREACH pending IN ARRAY ARRAY[false, true] LOOP
    EXECUTE pg_catalog.format(
      'CREATE TEMPORARY VIEW %I AS SELECT * FROM clearing_stage '
      'WHERE load_id = %s AND nonce = %s AND pending = %L',
      CASE WHEN pending THEN 'cl_stage_pending' ELSE 'cl_stage' END,
      pg_catalog.current_setting('clearing_load.load_id')::bigint,
      pg_catalog.current_setting('clearing_load.stage_nonce')::bigint, pending);
  END LOOP;
  EXECUTE pg_catalog.format(
    'CREATE TEMPORARY VIEW cl_alt_stage AS SELECT * FROM clearing_alt_stage '
    'WHERE load_id = %s AND nonce = %s',
    pg_catalog.current_setting('clearing_load.load_id')::bigint,
    pg_catalog.current_setting('clearing_load.stage_nonce')::bigint);
  EXECUTE pg_catalog.format(
    'CREATE TEMPORARY VIEW cl_stage_match AS SELECT * FROM clearing_stage_match '
    'WHERE load_id = %s AND nonce = %s',
    pg_catalog.current_setting('clearing_load.load_id')::bigint,
    pg_catalog.current_setting('clearing_load.stage_nonce')::bigint);
  {stage_ddl_restored};
END
$stage$

-- name: stage_copy_citus
-- Every record streamed into clearing_stage (Citus sends each row to the
-- shard of its shard column), under the attempt's nonce (load_set_context).
COPY clearing_stage ({record_columns}, journal_key, nonce) FROM STDIN (FORMAT binary)

-- name: stage_commutative_citus
-- Before a load writes or deletes rows of clearing_stage in more than one
-- shard (the pending copies, the DELETE below): Citus takes no shard lock
-- that conflicts with another load's for it.  By default a multi-shard
-- modification locks each shard ShareUpdateExclusive until COMMIT, so a
-- new file's load (its records inserted: clearing_record's shards locked)
-- deleting its stage rows waited for a re-upload that had written its
-- pending copies (the stage's shards locked) and was waiting to insert
-- its new records: a distributed deadlock, one of them retried.  A load's
-- stage rows are its own (its load id, its transaction): no other
-- modification touches them, so its writes of them commute with every
-- other.  For the next statement only (stage_commutative_default_citus).
SET LOCAL citus.all_modifications_commutative = on

-- name: stage_commutative_default_citus
-- Back to Citus's locks, for the records' inserts (the unique index's
-- waits are serialized by them).
SET LOCAL citus.all_modifications_commutative TO DEFAULT

-- name: stage_empty_citus
-- This load's rows of clearing_stage deleted, before its COMMIT (load id
-- $1): the table holds no committed row.
DELETE FROM clearing_stage WHERE load_id = $1::bigint

-- name: stage_match_empty_citus
-- The same of clearing_stage_match (migration 042), after a load whose
-- exact-key join matched (load id $1).
DELETE FROM clearing_stage_match WHERE load_id = $1::bigint

-- name: stage_alt_empty_citus
-- The same of clearing_alt_stage (migration 041), after a load that staged
-- records with alternate keys (load id $1).
DELETE FROM clearing_alt_stage WHERE load_id = $1::bigint

-- name: stage_statistics
-- The planner needs the stage's row count and that keys are unique, not
-- fine histograms: a 3,000-row sample (17 ms) instead of 30,000 (120 ms
-- for a million records).  For this transaction only.
SET LOCAL default_statistics_target = 10

-- name: stage_analyze
-- Statistics of the stage, for the classification's plans.
ANALYZE pg_temp.cl_stage

-- The checks that need the whole file, one fragment each over a relation
-- cl_stage of the staged records' columns (the stage itself for a load,
-- the file's records passed as parameters for diff: the statements below).

-- fragment: stage_check_duplicates
-- Two staged records of the file under one key (first and last line, how
-- many, the key, false), and one payment under two natural keys: the same
-- alternate key and content (first and last line, how many keys, the
-- alternate key, true).  The first ten, in file order.
SELECT min(position), max(position), count(*),
       min(coalesce(journal_key, natural_key)), false
FROM cl_stage
GROUP BY kind, natural_key
HAVING count(*) > 1
UNION ALL
SELECT * FROM (
  SELECT DISTINCT ON (1, 2) min(position), max(position),
         count(DISTINCT natural_key), min(a), true
  FROM (SELECT kind, alt_key a, coalesce(alt_fp, fingerprint) fingerprint,
               natural_key, position
        FROM cl_stage WHERE alt_key IS NOT NULL
        UNION ALL
        SELECT kind, alt_key2, coalesce(alt_fp, fingerprint), natural_key,
               position
        FROM cl_stage WHERE alt_key2 IS NOT NULL) ids
  GROUP BY kind, a, fingerprint
  HAVING count(DISTINCT natural_key) > 1
  ORDER BY 1, 2, 4) pairs
ORDER BY 1
LIMIT 10

-- fragment: stage_check_near
-- Two ACH records of the file that are one payment (or return) under two
-- keys (the same near identity of rules/near.h, other natural keys, near
-- dates).  Every pair (lines, dates, kind), the first ten in file order.
SELECT a.position, b.position, a.value_date, b.value_date, a.kind
FROM cl_stage a
JOIN cl_stage b ON b.kind = a.kind AND b.near_key = a.near_key
WHERE a.near_key IS NOT NULL AND b.ordinal > a.ordinal
  AND b.natural_key <> a.natural_key
  AND clearing_near_dates(a.value_date, b.value_date)
ORDER BY 1, 2
LIMIT 10

-- name: stage_in_file_duplicates
-- The check stage_check_duplicates on the stage.
WITH cl_stage AS NOT MATERIALIZED (SELECT * FROM pg_temp.cl_stage)
{stage_check_duplicates}

-- name: stage_in_file_near
-- The check stage_check_near on the stage.
WITH cl_stage AS NOT MATERIALIZED (SELECT * FROM pg_temp.cl_stage)
{stage_check_near}

-- name: stage_in_file_duplicates_citus
-- stage_in_file_duplicates on Citus: the columns the check reads, read
-- once from the shards, the check on the coordinator (its groups and its
-- self-join are not on the shard).
WITH cl_stage AS MATERIALIZED (
  SELECT kind, natural_key, journal_key, alt_key, alt_key2, alt_fp, fingerprint, position
  FROM pg_temp.cl_stage)
{stage_check_duplicates}

-- name: stage_in_file_near_citus
-- stage_in_file_near on Citus, the same way.
WITH cl_stage AS MATERIALIZED (
  SELECT kind, near_key, natural_key, value_date, ordinal, position
  FROM pg_temp.cl_stage WHERE near_key IS NOT NULL)
{stage_check_near}

-- name: stage_given_duplicates
-- The check stage_check_duplicates on the file's records given as $1 (an
-- array of clearing_record, plan.sql) with their journal keys as $2 (text
-- array, in the same order), for diff.
WITH cl_stage AS (
  SELECT c.*, k.journal_key
  FROM pg_catalog.unnest($1::clearing_record[]) c
  JOIN pg_catalog.unnest($2::text[]) WITH ORDINALITY AS k(journal_key, ordinal)
    ON k.ordinal = c.ordinal)
{stage_check_duplicates}

-- name: stage_given_near
-- The check stage_check_near on the file's records given as $1 (an array
-- of clearing_record, plan.sql), for diff.
WITH cl_stage AS (SELECT * FROM pg_catalog.unnest($1::clearing_record[]))
{stage_check_near}
