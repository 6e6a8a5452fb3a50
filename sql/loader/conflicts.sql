-- conflicts.sql - what `clearing-load conflicts` lists and `resolve` does
-- (loader/conflicts.c; the tables: 016_conflicts.sql).  A conflict is a
-- version parked in clearing_quarantine (c) with its journal row (e), the
-- record it matched (r) and, once resolved, its clearing_resolution row.

-- name: conflicts_list
-- The conflicts of load $1 only and of tenant $2 only when not NULL, the
-- resolved ones too when $3, by load and ordinal; the version's amount and
-- currency (for people: money), then its accounts (for masking its key).  A version is parked once, by the first
-- load that met it: load $1's conflicts are those it parked and those
-- under a key its journal names as a conflict (a re-run of a held file),
-- and, where the journal keeps that key masked (an account in it), those
-- of the same key: a conflict against the record one of its conflicts
-- matched.
-- Per parked version one probe of its journal row (a lateral: the
-- planner would rather walk every conflict's journal row; in the
-- version's shard, where the journal keeps it since migration 037), then
-- of the matched record by its (load_id, ordinal) index; load $1's
-- journal rows that are not plain duplicates read once, by
-- clearing_dedupe_event_attention.  The parked versions, their journal
-- rows, load $1's and the matched records are each read in a materialized
-- CTE, then joined with the loads and resolutions: one text for one server
-- and Citus, where the quarantine, the journal and the records are
-- distributed and the rest the coordinator's (each CTE is read on its
-- own, the probes lateral subqueries PostgreSQL does not pull up, as
-- 0040's, with ORDER BY, not LIMIT, which Citus refuses there; a version
-- has one journal row that is not a plain duplicate;
-- docs/design/0047-citus-show-conflicts-reconcile.md, 0049).
WITH c AS MATERIALIZED (
  SELECT c.load_id, c.ordinal, c.position, c.tenant, c.kind, c.natural_key, c.shard,
         c.amount_minor, c.currency, c.receiving_account, c.debtor_account, c.creditor_account
  FROM clearing_quarantine c
  WHERE ($2::text IS NULL OR c.tenant = $2::text)),
e AS MATERIALIZED (
  SELECT c.load_id, c.ordinal, e.reason, e.matched_key, e.matched_load_id,
         e.matched_ordinal, e.matched_position
  FROM c
  CROSS JOIN LATERAL (
    SELECT e.reason, e.matched_key, e.matched_load_id, e.matched_ordinal, e.matched_position
    FROM clearing_dedupe_event e
    WHERE e.load_id = c.load_id AND e.ordinal = c.ordinal AND e.shard = c.shard
      AND e.reason <> 'duplicate'
    ORDER BY e.shard) e),
k AS MATERIALIZED (
  SELECT k.tenant, k.kind, k.natural_key, k.reason, k.matched_load_id, k.matched_ordinal
  FROM clearing_dedupe_event k
  WHERE k.load_id = $1::bigint AND k.reason <> 'duplicate'),
r AS MATERIALIZED (
  SELECT e.load_id, e.ordinal, r.load_id AS matched_load_id
  FROM e
  CROSS JOIN LATERAL (
    SELECT r.load_id FROM clearing_record r
    WHERE r.load_id = e.matched_load_id AND r.ordinal = e.matched_ordinal
    ORDER BY r.shard) r)
SELECT c.load_id, l.outcome, l.file_name, c.position AS line, c.ordinal, c.tenant, c.kind,
       c.natural_key, e.reason, e.matched_key, e.matched_load_id,
       e.matched_position AS matched_line, ml.file_name AS matched_file_name,
       v.verdict, v.resolution_load_id, v.correction_key, v.note, v.resolved_by,
       pg_catalog.to_char(v.resolved_at, {iso_ts}) AS resolved_at,
       c.amount_minor, c.currency,
       c.receiving_account, c.debtor_account, c.creditor_account
FROM c
JOIN clearing_load l ON l.load_id = c.load_id
JOIN e ON e.load_id = c.load_id AND e.ordinal = c.ordinal
JOIN r ON r.load_id = c.load_id AND r.ordinal = c.ordinal
JOIN clearing_load ml ON ml.load_id = r.matched_load_id
LEFT JOIN clearing_resolution v ON v.load_id = c.load_id AND v.ordinal = c.ordinal
WHERE ($1::bigint IS NULL OR c.load_id = $1::bigint
       OR (c.tenant, c.kind, c.natural_key) IN (SELECT k.tenant, k.kind, k.natural_key FROM k)
       OR (e.reason = 'conflict'
           AND (e.matched_load_id, e.matched_ordinal) IN (
             SELECT k.matched_load_id, k.matched_ordinal FROM k WHERE k.reason = 'conflict')))
  AND ($3::boolean OR v.load_id IS NULL)
ORDER BY c.load_id, c.ordinal

-- name: conflicts_changes
-- The differing compared fields of each conflict listed (load $1[i],
-- ordinal $2[i]), those its journal row names, in the order of the
-- field table; after i, the name, the matched record's (old) and the version's
-- (new) value; by i.  One statement for the whole list: the versions,
-- their journal rows and the records they name each read on their own
-- (materialized CTEs, as conflicts_list's; on Citus each a distributed
-- read of the whole list at once, not one per conflict), then compared.
WITH k AS MATERIALIZED (
  SELECT * FROM ROWS FROM (pg_catalog.unnest($1::bigint[]), pg_catalog.unnest($2::bigint[]))
    WITH ORDINALITY AS k(load_id, ordinal, i)),
c AS MATERIALIZED (
  SELECT k.i, c.* FROM k CROSS JOIN LATERAL (
    SELECT c.* FROM clearing_quarantine c
    WHERE c.load_id = k.load_id AND c.ordinal = k.ordinal ORDER BY c.shard) c),
e AS MATERIALIZED (
  SELECT k.i, e.fields, e.matched_load_id, e.matched_ordinal
  FROM k
  JOIN clearing_dedupe_event e
    ON e.load_id = k.load_id AND e.ordinal = k.ordinal AND e.reason <> 'duplicate'),
r AS MATERIALIZED (
  SELECT e.i, r.* FROM e CROSS JOIN LATERAL (
    SELECT r.* FROM clearing_record r
    WHERE r.load_id = e.matched_load_id AND r.ordinal = e.matched_ordinal ORDER BY r.shard) r)
SELECT c.i, x.f AS field, x.o AS old_value, x.n AS new_value
FROM c
JOIN e ON e.i = c.i
JOIN r ON r.i = c.i AND r.load_id = e.matched_load_id AND r.ordinal = e.matched_ordinal
CROSS JOIN LATERAL (
  SELECT v.f, v.o, v.n, pg_catalog.row_number() OVER () AS k
  FROM (VALUES {compared_changes}) AS v(f, o, n)
  WHERE v.f = ANY (e.fields)) x
ORDER BY c.i, x.k

-- name: conflicts_find
-- The conflict of load $1 with ordinal $2 or at line $3 (the other NULL):
-- its ordinal and tenant, at most two (two: the line is ambiguous).
SELECT c.ordinal, c.tenant
FROM clearing_quarantine c
WHERE c.load_id = $1::bigint
  AND ($2::bigint IS NULL OR c.ordinal = $2::bigint)
  AND ($3::bigint IS NULL OR c.position = $3::bigint)
ORDER BY c.load_id, c.ordinal
LIMIT 2

-- name: conflicts_resolution
-- How conflict (load $1, ordinal $2) was resolved, if it was.
SELECT v.verdict, v.resolution_load_id, v.correction_key
FROM clearing_resolution v
WHERE v.load_id = $1::bigint AND v.ordinal = $2::bigint

-- name: conflicts_target
-- The record conflict (load $1, ordinal $2) matched, the number of
-- corrections it has (its next correction's key: rules/correction.h), and
-- its accounts (for masking that key).
-- The journal rows and the records they name read on their own
-- (materialized CTEs, as conflicts_list's).
WITH e AS MATERIALIZED (
  SELECT e.matched_load_id, e.matched_ordinal
  FROM clearing_dedupe_event e
  WHERE e.load_id = $1::bigint AND e.ordinal = $2::bigint AND e.reason <> 'duplicate'),
r AS MATERIALIZED (
  SELECT r.*
  FROM e
  CROSS JOIN LATERAL (
    SELECT r.load_id, r.ordinal, r.position, r.natural_key,
           r.receiving_account, r.debtor_account, r.creditor_account
    FROM clearing_record r
    WHERE r.load_id = e.matched_load_id AND r.ordinal = e.matched_ordinal
    ORDER BY r.shard) r)
SELECT r.load_id, r.ordinal, r.position, r.natural_key,
       (SELECT pg_catalog.count(*) FROM clearing_resolution v
        WHERE v.matched_load_id = r.load_id AND v.matched_ordinal = r.ordinal
          AND v.verdict = 'accepted') AS corrections,
       r.receiving_account, r.debtor_account, r.creditor_account
FROM r
LIMIT 1

-- name: conflicts_insert_load
-- The clearing_load row of a resolution: load UUID $1, of conflict load
-- $2's tenant and file, $3 records applied, reason $4; committed.  Its
-- load id (NULL: no load $2), taken by clearing_write_resolution_load
-- (024).
SELECT clearing_write_resolution_load($1::uuid, $2::bigint, $3::bigint, $4::text)

-- name: conflicts_apply_correction
-- The version parked as conflict (load $1, ordinal $2) applied as a new
-- record under natural key $4, of load $3 (the resolution's) as its
-- ordinal 1, with the shard of that key; every other column as parked
-- (its line the line in its file).  RETURNING: on Citus a row computed on
-- the coordinator then goes to its shard as an INSERT, which row security
-- checks, not as COPY, which it refuses (docs/design/0046).
INSERT INTO clearing_record ({record_columns})
SELECT {record_columns}
FROM (SELECT p.*
      FROM clearing_quarantine q
      CROSS JOIN LATERAL pg_catalog.jsonb_populate_record(NULL::clearing_record,
        pg_catalog.to_jsonb(q) || pg_catalog.jsonb_build_object('natural_key', $4::text,
                                                                'shard', clearing_shard(q.kind, $4::text),
                                                                'load_id', $3::bigint,
                                                                'ordinal', 1)) p
      WHERE q.load_id = $1::bigint AND q.ordinal = $2::bigint) c
RETURNING 1

-- name: conflicts_journal
-- The journal row of a resolution: load $1 (the resolution's) ordinal 1,
-- reason $4 ('correction': under the correction's key $5; 'dismissal':
-- $5 NULL, under the conflict's key) for conflict (load $2, ordinal $3),
-- naming the record it matched and the compared fields that differ (as
-- the conflict's own journal row names them); in the shard of the record
-- it applies (the correction's key's) or of the version it dismisses.  The
-- version, its journal rows and the record read on their own (materialized CTEs, as
-- conflicts_list's), then written to the journal; RETURNING as in
-- conflicts_apply_correction.
INSERT INTO clearing_dedupe_event (load_id, ordinal, position, tenant, kind, natural_key,
                                          reason, matched_key, matched_load_id, matched_ordinal,
                                          matched_position, fields, shard)
WITH c AS MATERIALIZED (
  SELECT c.position, c.tenant, c.kind, c.natural_key, c.shard FROM clearing_quarantine c
  WHERE c.load_id = $2::bigint AND c.ordinal = $3::bigint),
e AS MATERIALIZED (
  SELECT e.fields, e.matched_load_id, e.matched_ordinal
  FROM clearing_dedupe_event e
  WHERE e.load_id = $2::bigint AND e.ordinal = $3::bigint AND e.reason <> 'duplicate'),
r AS MATERIALIZED (
  SELECT r.*
  FROM e
  CROSS JOIN LATERAL (
    SELECT r.load_id, r.ordinal, r.position, r.natural_key
    FROM clearing_record r
    WHERE r.load_id = e.matched_load_id AND r.ordinal = e.matched_ordinal
    ORDER BY r.shard) r)
SELECT $1::bigint, 1, c.position, c.tenant, c.kind, coalesce($5::text, c.natural_key), $4::text,
       CASE WHEN r.natural_key = coalesce($5::text, c.natural_key) THEN NULL
            ELSE r.natural_key END,
       r.load_id, r.ordinal, r.position,
       e.fields,
       coalesce(clearing_shard(c.kind, $5::text), c.shard)
FROM c
CROSS JOIN e
JOIN r ON r.load_id = e.matched_load_id AND r.ordinal = e.matched_ordinal
RETURNING 1

-- name: conflicts_record_resolution
-- Conflict (load $1, ordinal $2) of tenant $3 resolved: verdict $4, the
-- record it matched (load $5, ordinal $6), the resolution's load $7, the
-- correction's key $8 (accepted), note $9.
INSERT INTO clearing_resolution (load_id, ordinal, tenant, verdict, matched_load_id,
                                        matched_ordinal, resolution_load_id, correction_key,
                                        note)
VALUES ($1::bigint, $2::bigint, $3::text, $4::text, $5::bigint, $6::bigint, $7::bigint,
        $8::text, $9::text)
