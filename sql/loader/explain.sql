-- explain.sql - the conflicts of a load explained, and parked
-- (loader/explain.c).  Conflicts: this load's journal rows
-- (pg_temp.cl_event, classify.sql) that are not plain duplicates, through
-- its partial index cl_event_attention.

-- name: explain_fields
-- The differing compared fields of each conflict, named in its journal
-- row (conflict c as staged from the file, against the applied record r
-- it matched: one probe of the unique index per conflict, in the
-- partition of the matched key's shard), before the rows are appended to
-- the journal (load_write_journal).
UPDATE pg_temp.cl_event e
SET fields = (SELECT ARRAY(SELECT f FROM (VALUES {compared_diffs}) AS d(f, differs)
                           WHERE differs)
              FROM clearing_record r
              WHERE r.tenant = e.tenant AND r.kind = c.kind
                AND r.natural_key = coalesce(e.matched_key, c.natural_key)
                AND r.shard = clearing_shard(c.kind, coalesce(e.matched_key, c.natural_key))
              LIMIT 1)
FROM pg_temp.cl_stage c
WHERE e.reason <> 'duplicate' AND c.ordinal = e.ordinal

-- fragment: explain_not_parked
-- Staged record c has no version parked yet (same key, same fingerprint):
-- a re-run must not put one payment twice in the queue someone works
-- through.  (The shard is the key's: on Citus the probe of a staged
-- record is then in its own shard, co-located, stage.sql.)
NOT EXISTS (SELECT 1 FROM clearing_quarantine q
            WHERE q.tenant = c.tenant AND q.kind = c.kind
              AND q.natural_key = c.natural_key
              AND q.fingerprint = c.fingerprint AND q.shard = c.shard)

-- fragment: explain_not_parked_as_conflict
-- Staged record c has no version parked as a conflict yet (same key, same
-- fingerprint, parked with a conflict's journal row: what `conflicts`
-- lists).  A version a rejected or held file parked only for show has no
-- such row, and does not stand in for the conflict.
-- Per conflict one probe of the journal's conflicts under its key as
-- journaled (journal_key: a pain.001's account masked;
-- clearing_dedupe_event_key), then of the version each parked (the
-- quarantine's primary key); OFFSET 0 keeps it a probe (the planner would
-- rather hash every conflict of the journal).
NOT EXISTS (SELECT 1 FROM clearing_dedupe_event k
            JOIN clearing_quarantine q ON q.load_id = k.load_id AND q.ordinal = k.ordinal
            WHERE k.tenant = c.tenant AND k.natural_key = coalesce(c.journal_key, c.natural_key)
              AND k.reason <> 'duplicate' AND k.kind = c.kind
              AND q.natural_key = c.natural_key AND q.fingerprint = c.fingerprint
            OFFSET 0)

-- name: explain_quarantine
-- Park the conflicting records of a held or quarantined load with their
-- full content (what `conflicts` lists and `resolve` applies).  A version
-- already parked as a conflict (same key, same fingerprint) is not
-- parked again, as a re-run must not put one payment twice in the queue
-- someone works through; its journal row says what happened.
INSERT INTO clearing_quarantine ({record_columns})
SELECT {record_columns}
FROM pg_temp.cl_stage c
WHERE c.ordinal IN (
    SELECT e.ordinal FROM pg_temp.cl_event e WHERE e.reason <> 'duplicate')
  AND {explain_not_parked_as_conflict}

-- name: explain_park_rejected
-- A rejected file's records that could be read, parked, never applied:
-- show finds a payment seen only in a rejected file ("seen in rejected
-- load 12, line 40").  A version already parked is not parked again.
-- On Citus the same statement: one INSERT ... SELECT per shard of the
-- distributed stage, on its worker.
INSERT INTO clearing_quarantine ({record_columns})
SELECT {record_columns}
FROM pg_temp.cl_stage c
WHERE {explain_not_parked}

-- The Citus forms of the statements above (classify.sql says when and why
-- they run): the applied records and parked versions the conflicts need
-- are read first by a probe of the distributed table on its key (with its
-- shard), a lateral subquery with ORDER BY as the load's probes
-- (classify.sql), then compared on the coordinator: Citus cannot send a
-- subquery correlated with the stage to the shards otherwise.

-- fragment: explain_citus_probe_parked
-- The parked versions q of staged record c (its key and contents), on
-- Citus.
SELECT q.*
FROM clearing_quarantine q
WHERE q.tenant = c.tenant AND q.kind = c.kind AND q.natural_key = c.natural_key
  AND q.fingerprint = c.fingerprint AND q.shard = c.shard
ORDER BY q.shard

-- fragment: explain_citus_conflicts
-- The staged conflicts c (not plain duplicates), with the tenant, key and
-- shard of the record each matched.
SELECT c.*, e.tenant AS m_tenant, coalesce(e.matched_key, c.natural_key) AS m_key,
       clearing_shard(c.kind, coalesce(e.matched_key, c.natural_key)) AS m_shard
FROM (SELECT * FROM pg_temp.cl_stage c
      WHERE c.ordinal IN (
        SELECT e.ordinal FROM pg_temp.cl_event e WHERE e.reason <> 'duplicate')) c
JOIN pg_temp.cl_event e ON e.ordinal = c.ordinal
WHERE e.reason <> 'duplicate'

-- name: explain_fields_citus
-- explain_fields on Citus.
UPDATE pg_temp.cl_event e
SET fields = d.fields
FROM (WITH c AS MATERIALIZED ({explain_citus_conflicts}),
           r AS MATERIALIZED (
             SELECT c.ordinal AS c_ordinal, r.*
             FROM c CROSS JOIN LATERAL (
               SELECT r.*
               FROM clearing_record r
               WHERE r.tenant = c.m_tenant AND r.kind = c.kind
                 AND r.natural_key = c.m_key AND r.shard = c.m_shard
               ORDER BY r.shard) r)
      SELECT c.ordinal,
             ARRAY(SELECT f FROM (VALUES {compared_diffs}) AS d(f, differs)
                   WHERE differs) AS fields
      FROM c JOIN r ON r.c_ordinal = c.ordinal) d
WHERE e.reason <> 'duplicate' AND e.ordinal = d.ordinal

-- fragment: explain_quarantine_citus_insert
-- explain_quarantine on Citus: the versions of the conflicts' keys and
-- contents parked already (a join on the quarantine's key and shard),
-- then their journal rows (distributed too, since migration 037: a probe
-- of each version's own rows, in its shard), then compared on the
-- coordinator.
INSERT INTO clearing_quarantine ({record_columns})
WITH c AS MATERIALIZED (
       SELECT c.* FROM pg_temp.cl_stage c
       WHERE c.ordinal IN (
         SELECT e.ordinal FROM pg_temp.cl_event e WHERE e.reason <> 'duplicate')),
     q AS MATERIALIZED (
       SELECT q.load_id, q.ordinal, q.shard, q.natural_key, q.fingerprint
       FROM c CROSS JOIN LATERAL ({explain_citus_probe_parked}) q),
     k AS MATERIALIZED (
       SELECT q.natural_key, q.fingerprint, k.tenant, k.kind, k.natural_key AS journal_key
       FROM q CROSS JOIN LATERAL (
         SELECT k.tenant, k.kind, k.natural_key
         FROM clearing_dedupe_event k
         WHERE k.load_id = q.load_id AND k.ordinal = q.ordinal AND k.shard = q.shard
           AND k.reason <> 'duplicate'
         ORDER BY k.shard) k)
SELECT {record_columns}
FROM c
WHERE NOT EXISTS (SELECT 1 FROM k
                  WHERE k.tenant = c.tenant
                    AND k.journal_key = coalesce(c.journal_key, c.natural_key)
                    AND k.kind = c.kind
                    AND k.natural_key = c.natural_key AND k.fingerprint = c.fingerprint)

-- name: explain_quarantine_citus
-- The insert above, its rows computed on the coordinator, with RETURNING:
-- Citus then writes them to the shards as INSERTs, which row security
-- checks, not as COPY, which it refuses (docs/design/0046).
WITH parked AS ({explain_quarantine_citus_insert}
                RETURNING 1)
SELECT count(*) FROM parked

-- name: explain_park_held
-- A held file's other records, those it would have applied, parked too
-- (show finds a payment seen only in a held file ("seen in held load
-- 12, line 40")).  Run once the held load's journal rows are written
-- (loader/load.c, journal_file), on one server and on Citus alike: the
-- pending records without a journal row of this load other than a plain
-- duplicate's, not parked yet.  The journal rows are read through the
-- partial index clearing_dedupe_event_attention, in the pending record's
-- shard (on Citus the journal is distributed on it, 037); OFFSET 0 keeps
-- the NOT EXISTS a probe per pending record, where the planner would read
-- every conflict of the load for each.  On Citus one INSERT ... SELECT per
-- shard of the stage, on its worker, as the parking of a rejected file's
-- (a held file is never applied: its pending records are the view of the
-- stage, never the coordinator's copy).
INSERT INTO clearing_quarantine ({record_columns})
SELECT {record_columns}
FROM pg_temp.cl_pending c
WHERE NOT EXISTS (SELECT 1 FROM clearing_dedupe_event e
                  WHERE e.load_id = c.load_id AND e.ordinal = c.ordinal
                    AND e.reason <> 'duplicate' AND e.shard = c.shard
                  OFFSET 0)
  AND {explain_not_parked}
