-- apply.sql - the new records of a file into clearing_record
-- (loader/apply.c).  New: the pending records (classify.sql) without a
-- journal row of this load (pg_temp.cl_event); any they have is not a
-- plain duplicate (its partial index cl_event_attention).

-- fragment: apply_unjournaled
-- Pending record c has no journal row of this load but a duplicate's (a
-- plain duplicate is not pending).  Used by classify.sql too.
NOT EXISTS (SELECT 1 FROM pg_temp.cl_event e
            WHERE e.ordinal = c.ordinal AND e.reason <> 'duplicate')

-- name: apply_insert_new
-- The first attempt, when no pending record was journaled: all of them,
-- in one INSERT ... SELECT; the unique index is the arbiter (a key
-- committed meanwhile fails it with 23505).  Its row count is the number
-- inserted.
INSERT INTO clearing_record ({record_columns})
SELECT {record_columns}
FROM pg_temp.cl_pending c

-- fragment: apply_insert_new_unjournaled_insert
-- The same when some pending records were journaled (near duplicates,
-- alternate keys): those left out.
INSERT INTO clearing_record ({record_columns})
SELECT {record_columns}
FROM pg_temp.cl_pending c
WHERE {apply_unjournaled}

-- name: apply_insert_new_unjournaled
-- The insert above; its row count is the number inserted.
{apply_insert_new_unjournaled_insert}

-- name: apply_insert_new_unjournaled_citus
-- On Citus the pending records are then the coordinator's copy
-- (classify_pending_local_citus): with RETURNING, Citus writes them to the
-- shards as INSERTs, which row security checks, not as COPY, which it
-- refuses (docs/design/0046).  Returns how many were inserted.
WITH ins AS ({apply_insert_new_unjournaled_insert}
             RETURNING 1)
SELECT count(*) FROM ins

-- name: apply_insert_new_ordered
-- A retry: the new records in key order (loaders that insert in one order
-- cannot deadlock), a key committed meanwhile skipped; returns how many
-- were inserted.
WITH ins AS (
  INSERT INTO clearing_record ({record_columns})
  SELECT {record_columns}
  FROM pg_temp.cl_pending c
  WHERE {apply_unjournaled}
  ORDER BY kind, natural_key
  ON CONFLICT ON CONSTRAINT clearing_record_key DO NOTHING
  RETURNING 1)
SELECT count(*) FROM ins

-- fragment: apply_raced_rows
-- The journal row of pending record c whose key another load applied as
-- record r: the columns, then the SELECT (FROM c and r follow).
(load_id, ordinal, position,
        tenant, kind, natural_key, reason, matched_key, matched_load_id,
        matched_ordinal, matched_position, shard)
      SELECT c.load_id, c.ordinal, c.position, c.tenant, c.kind,
             coalesce(c.journal_key, c.natural_key),
             CASE WHEN r.fingerprint = c.fingerprint THEN 'duplicate' ELSE 'conflict' END,
             NULL, r.load_id, r.ordinal, r.position, c.shard

-- fragment: apply_raced_event
-- The journal row of pending record c whose key another load applied as
-- record r (FROM c and r follow).
INSERT INTO pg_temp.cl_event {apply_raced_rows}

-- fragment: apply_raced_probe
-- The record of pending record c's key another load applied.
FROM clearing_record r
        WHERE r.tenant = c.tenant AND r.kind = c.kind AND r.natural_key = c.natural_key
          AND r.shard = c.shard AND r.load_id <> c.load_id

-- name: apply_journal_raced
-- The records the ordered path skipped: new to this load's classification,
-- but another load committed their keys since.  Journaled as the
-- classification would have (duplicate or conflict); returns each one's
-- ordinal and reason.  A probe of the unique index per pending record.
COPY ({apply_raced_event}
      FROM pg_temp.cl_pending c
      CROSS JOIN LATERAL (
        SELECT r.fingerprint, r.load_id, r.ordinal, r.position
        {apply_raced_probe}
        LIMIT 1) r
      WHERE {apply_unjournaled}
      RETURNING ordinal, reason) TO STDOUT

-- name: apply_raced_match_citus
-- apply_journal_raced's probe on Citus: every distributed pending record
-- (pg_temp.cl_pending_stage, the view of them once cl_pending is the
-- coordinator's copy: classify_pending_local_citus) probed in its shard,
-- the matches into cl_match (classify.sql): a join of one stage shard
-- with the same shard of clearing_record per task.  The journaled ones
-- are left out after, on the coordinator (classify_match_journal_citus).
INSERT INTO pg_temp.cl_match {apply_raced_rows}
      FROM pg_temp.cl_pending_stage c
      CROSS JOIN LATERAL (
        SELECT r.fingerprint, r.load_id, r.ordinal, r.position
        {apply_raced_probe}
        LIMIT 1) r

-- name: apply_alt_keys_citus
-- On Citus, the alternate keys of the records load $1 applied (a load's
-- or a resolution's) into clearing_alt_key (migration 041), each in its
-- key's shard, where the next load's classify_alt_citus probes them; in
-- the transaction that applies them.  The records read by their load
-- (clearing_record_load_ordinal) in every shard, each row moved to its
-- key's shard worker to worker (a repartitioned INSERT ... SELECT).  With
-- RETURNING, as classify_alt_stage_citus: where Citus does not repartition
-- it sends the rows through the coordinator as INSERTs, which row security
-- checks, not as COPY (docs/design/0046).
WITH indexed AS (
  INSERT INTO clearing_alt_key (shard, tenant, kind, alt_key, natural_key, fingerprint, alt_fp,
                                load_id, ordinal, position)
  SELECT clearing_shard(r.kind, a.alt_key), r.tenant, r.kind, a.alt_key, r.natural_key,
         r.fingerprint, r.alt_fp, r.load_id, r.ordinal, r.position
  FROM clearing_record r
  CROSS JOIN LATERAL (VALUES (r.alt_key), (r.alt_key2)) a (alt_key)
  WHERE r.load_id = $1::bigint AND r.alt_key IS NOT NULL AND a.alt_key IS NOT NULL
  RETURNING 1)
SELECT count(*) FROM indexed
