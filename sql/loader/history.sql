-- history.sql - what `show` and `loads` read (loader/history.c).
-- Embedded at build time by sql/gen_record_sql.c as CL_SQL_<NAME>.

-- The records of one `show` lookup: one statement per kind of value.  Each
-- selects at most $3 records (show asks for one more than it prints, to
-- know whether there are more); matched_by says which column matched.

-- fragment: history_kinds
-- Every kind of record, as a text[]: a lookup by key lists them, so the
-- unique index is used on all of (tenant, kind, natural_key) (no skip
-- scan needed).
ARRAY['ach.entry', 'ach.return', 'ach.noc', 'pain.001', 'pacs.008', 'pacs.009', 'pacs.004',
      'pain.008', 'pacs.003', 'camt.056', 'camt.029']

-- name: history_connections_citus
-- On Citus only, before show's first statement: this session's reads of
-- several shards each use one connection to a worker, the same one for
-- every statement, run one task after another
-- (docs/design/0055-citus-show-one-connection.md).  By default Citus opens
-- more connections to a worker while a statement's tasks wait (up to 16),
-- and keeps only one of them once it ends: each statement of show (a probe
-- of each shard, a few rows) paid new connections, each its own TLS
-- handshake, backend and catalog caches, far more than the probes.  For
-- this session only.
SELECT pg_catalog.set_config('citus.max_adaptive_executor_pool_size', '1', false)

-- name: history_show_by_key
-- The records of tenant $1 under natural key $2, of any kind, at most $3;
-- in the shards that key has under each kind (rules/shard.h): values when
-- the statement is planned, so a partitioned table is planned for their
-- partitions alone (at most three: an entry's, a return's or NOC's, any
-- other kind's), and the unique index of a partitioned table is used on
-- all four of its columns.  The kinds are written out again here: shards
-- taken from {history_kinds} by a subquery would not be values when the
-- statement is planned.
SELECT 'natural_key' AS matched_by, {show_columns}
FROM clearing_record r
WHERE r.tenant = $1
  AND r.kind = ANY ({history_kinds})
  AND r.natural_key = $2
  AND r.shard = ANY (ARRAY[clearing_shard('ach.entry', $2), clearing_shard('ach.return', $2),
                           clearing_shard('ach.noc', $2), clearing_shard('pain.001', $2),
                           clearing_shard('pacs.008', $2), clearing_shard('pacs.009', $2),
                           clearing_shard('pacs.004', $2), clearing_shard('pain.008', $2),
                           clearing_shard('pacs.003', $2), clearing_shard('camt.056', $2),
                           clearing_shard('camt.029', $2)])
ORDER BY r.kind, r.natural_key
LIMIT $3::bigint

-- name: history_trace_shards
-- The shards that hold the records of tenant $1 with trace number or
-- original trace $2, as the bigint[] $4 of history_show_by_trace: the
-- trace's own (an entry's shard is its trace, a return's or NOC's its
-- original trace: rules/shard.h) and the shards of the returns and NOCs
-- whose own trace it is (migration 023).
SELECT pg_catalog.array_append(
         ARRAY(SELECT s.shard FROM clearing_trace_shard s
               WHERE s.tenant = $1 AND s.trace_number = $2),
         clearing_shard_of($2)) AS shards

-- name: history_show_by_trace
-- The records of tenant $1 with ACH trace number $2, and the returns and
-- NOCs that name $2 as their original trace; at most $3; in the shards $4
-- (history_trace_shards), so that a partitioned table is planned for
-- their partitions alone (a value, known when the statement is planned).
SELECT CASE WHEN r.trace_number = $2 THEN 'trace_number' ELSE 'original_trace' END
         AS matched_by,
       {show_columns}
FROM clearing_record r
WHERE r.tenant = $1 AND r.shard = ANY ($4::bigint[])
  AND (r.trace_number = $2 OR r.original_trace = $2)
ORDER BY r.kind, r.natural_key
LIMIT $3::bigint

-- name: history_show_by_e2e
-- The records of tenant $1 with EndToEndId $2, and the returns that name
-- $2 as their original EndToEndId; at most $3.
SELECT CASE WHEN r.end_to_end_id = $2 THEN 'end_to_end_id' ELSE 'orgnl_end_to_end_id' END
         AS matched_by,
       {show_columns}
FROM clearing_record r
WHERE r.tenant = $1 AND (r.end_to_end_id = $2 OR r.orgnl_end_to_end_id = $2)
ORDER BY r.kind, r.natural_key
LIMIT $3::bigint

-- name: history_show_by_uetr
-- The records of tenant $1 with UETR $2 (in any case: UETRs are stored in
-- lowercase), and the returns that name $2 as their original UETR; at
-- most $3.
SELECT CASE WHEN r.uetr = pg_catalog.lower($2) THEN 'uetr' ELSE 'orgnl_uetr' END
         AS matched_by,
       {show_columns}
FROM clearing_record r
WHERE r.tenant = $1 AND (r.uetr = pg_catalog.lower($2) OR r.orgnl_uetr = pg_catalog.lower($2))
ORDER BY r.kind, r.natural_key
LIMIT $3::bigint

-- The number of records a lookup matches, asked only when there are more
-- than shown: the same conditions as the lookup above.

-- name: history_count_by_key
-- How many records of tenant $1 have natural key $2.
SELECT pg_catalog.count(*)
FROM clearing_record r
WHERE r.tenant = $1
  AND r.kind = ANY ({history_kinds})
  AND r.natural_key = $2

-- name: history_count_by_trace
-- How many records of tenant $1 have trace number or original trace $2.
SELECT pg_catalog.count(*)
FROM clearing_record r
WHERE r.tenant = $1 AND (r.trace_number = $2 OR r.original_trace = $2)

-- name: history_count_by_e2e
-- How many records of tenant $1 have EndToEndId or original EndToEndId $2.
SELECT pg_catalog.count(*)
FROM clearing_record r
WHERE r.tenant = $1 AND (r.end_to_end_id = $2 OR r.orgnl_end_to_end_id = $2)

-- name: history_count_by_uetr
-- How many records of tenant $1 have UETR or original UETR $2 (any case).
SELECT pg_catalog.count(*)
FROM clearing_record r
WHERE r.tenant = $1 AND (r.uetr = pg_catalog.lower($2) OR r.orgnl_uetr = pg_catalog.lower($2))

-- The tenants other than $1 that hold records a lookup matches, when the
-- lookup found none in tenant $1 (show without --tenant): each tenant and
-- its count, at most 10 tenants.  Two statements: the tenants, walked
-- through clearing_load_tenant_started one at a time (a loose index scan,
-- a recursive CTE of the load history only), then the records of those
-- tenants by the same index as the lookup itself (the tenants an array:
-- one probe per tenant).  On Citus a recursive CTE cannot share a statement
-- with a distributed table (docs/design/0047-citus-show-conflicts-reconcile.md).

-- name: history_tenants_other
-- Every tenant other than $1 that has loads, as one text[], by a skip scan
-- of the (tenant, load) index: one probe per tenant, never the load table.
WITH RECURSIVE t(tenant) AS (
  (SELECT l.tenant FROM clearing_load l ORDER BY l.tenant LIMIT 1)
  UNION ALL
  SELECT (SELECT l.tenant FROM clearing_load l WHERE l.tenant > t.tenant
          ORDER BY l.tenant LIMIT 1)
  FROM t WHERE t.tenant IS NOT NULL
)
SELECT pg_catalog.array_agg(t.tenant ORDER BY t.tenant)
FROM t
WHERE t.tenant IS NOT NULL AND t.tenant <> $1

-- fragment: history_other_count
-- Each tenant of the statement's $1 (text[], history_tenants_other) and how
-- many records it holds that the condition after it matches (the first:
-- the tenant among them), counted by the lookup's own index; the
-- statement closes with {history_other_group}.
SELECT r.tenant, pg_catalog.count(*) AS records
FROM clearing_record r
WHERE

-- fragment: history_other_group
-- The end of each statement of {history_other_count}: at most 10 tenants.
GROUP BY r.tenant
ORDER BY r.tenant
LIMIT 10

-- name: history_other_tenants_by_key
-- The tenants of $1 with records under natural key $2.
{history_other_count}
  r.tenant = ANY ($1::text[])
  AND r.kind = ANY ({history_kinds})
  AND r.natural_key = $2
{history_other_group}

-- name: history_other_tenants_by_trace
-- The tenants of $1 with records of trace or original trace $2.
{history_other_count}
  r.tenant = ANY ($1::text[])
  AND (r.trace_number = $2 OR r.original_trace = $2)
{history_other_group}

-- name: history_other_tenants_by_e2e
-- The tenants of $1 with records of EndToEndId or original EndToEndId $2.
{history_other_count}
  r.tenant = ANY ($1::text[])
  AND (r.end_to_end_id = $2 OR r.orgnl_end_to_end_id = $2)
{history_other_group}

-- name: history_other_tenants_by_uetr
-- The tenants of $1 with records of UETR or original UETR $2 (any case).
{history_other_count}
  r.tenant = ANY ($1::text[])
  AND (r.uetr = pg_catalog.lower($2) OR r.orgnl_uetr = pg_catalog.lower($2))
{history_other_group}

-- In columnar storage (init --columnar, docs/design/0065): the lookups of
-- a value or its original, each column read by its own index.  The forms
-- above ask for the records that match either column; a heap's planner
-- answers that with a bitmap OR of the two indexes, but columnar storage
-- has no bitmap scan, and the planner then read every record of the
-- tenant through the key index (show --trace: 5.8 s at 1.1M records,
-- over 300 s at 5.2M).  Here one index scan a column: the records of the
-- value, then those of the original that are not already among them (the
-- value's column not the value).  Each part's columns have r.shard (the
-- distribution column, one of {show_columns}) at the same place, so that
-- Citus sends the whole UNION ALL to each shard.

-- name: history_show_by_trace_columnar
-- history_show_by_trace in columnar storage: tenant $1, trace $2, at most
-- $3 records, in the shards $4.
SELECT u.*
FROM (SELECT 'trace_number' AS matched_by, {show_columns}
      FROM clearing_record r
      WHERE r.tenant = $1 AND r.shard = ANY ($4::bigint[]) AND r.trace_number = $2
      UNION ALL
      SELECT 'original_trace', {show_columns}
      FROM clearing_record r
      WHERE r.tenant = $1 AND r.shard = ANY ($4::bigint[]) AND r.original_trace = $2
        AND r.trace_number IS DISTINCT FROM $2) u
ORDER BY u.kind, u.natural_key
LIMIT $3::bigint

-- name: history_show_by_e2e_columnar
-- history_show_by_e2e in columnar storage: tenant $1, EndToEndId $2, at
-- most $3 records.
SELECT u.*
FROM (SELECT 'end_to_end_id' AS matched_by, {show_columns}
      FROM clearing_record r
      WHERE r.tenant = $1 AND r.end_to_end_id = $2
      UNION ALL
      SELECT 'orgnl_end_to_end_id', {show_columns}
      FROM clearing_record r
      WHERE r.tenant = $1 AND r.orgnl_end_to_end_id = $2
        AND r.end_to_end_id IS DISTINCT FROM $2) u
ORDER BY u.kind, u.natural_key
LIMIT $3::bigint

-- name: history_show_by_uetr_columnar
-- history_show_by_uetr in columnar storage: tenant $1, UETR $2, at most
-- $3 records.
SELECT u.*
FROM (SELECT 'uetr' AS matched_by, {show_columns}
      FROM clearing_record r
      WHERE r.tenant = $1 AND r.uetr = pg_catalog.lower($2)
      UNION ALL
      SELECT 'orgnl_uetr', {show_columns}
      FROM clearing_record r
      WHERE r.tenant = $1 AND r.orgnl_uetr = pg_catalog.lower($2)
        AND r.uetr IS DISTINCT FROM pg_catalog.lower($2)) u
ORDER BY u.kind, u.natural_key
LIMIT $3::bigint

-- name: history_count_by_trace_columnar
-- history_count_by_trace in columnar storage: tenant $1, trace $2.
SELECT pg_catalog.count(*)
FROM (SELECT r.shard FROM clearing_record r
      WHERE r.tenant = $1 AND r.trace_number = $2
      UNION ALL
      SELECT r.shard FROM clearing_record r
      WHERE r.tenant = $1 AND r.original_trace = $2
        AND r.trace_number IS DISTINCT FROM $2) u

-- name: history_count_by_e2e_columnar
-- history_count_by_e2e in columnar storage: tenant $1, EndToEndId $2.
SELECT pg_catalog.count(*)
FROM (SELECT r.shard FROM clearing_record r
      WHERE r.tenant = $1 AND r.end_to_end_id = $2
      UNION ALL
      SELECT r.shard FROM clearing_record r
      WHERE r.tenant = $1 AND r.orgnl_end_to_end_id = $2
        AND r.end_to_end_id IS DISTINCT FROM $2) u

-- name: history_count_by_uetr_columnar
-- history_count_by_uetr in columnar storage: tenant $1, UETR $2.
SELECT pg_catalog.count(*)
FROM (SELECT r.shard FROM clearing_record r
      WHERE r.tenant = $1 AND r.uetr = pg_catalog.lower($2)
      UNION ALL
      SELECT r.shard FROM clearing_record r
      WHERE r.tenant = $1 AND r.orgnl_uetr = pg_catalog.lower($2)
        AND r.uetr IS DISTINCT FROM pg_catalog.lower($2)) u

-- fragment: history_other_count_columnar
-- {history_other_count} in columnar storage: each tenant of $1 and how
-- many records of it the UNION ALL after it holds (its parts' columns:
-- r.tenant, r.shard); the statement closes with
-- {history_other_group_columnar}.
SELECT u.tenant, pg_catalog.count(*) AS records
FROM

-- fragment: history_other_group_columnar
-- The end of each statement of {history_other_count_columnar}.
GROUP BY u.tenant
ORDER BY u.tenant
LIMIT 10

-- name: history_other_tenants_by_trace_columnar
-- history_other_tenants_by_trace in columnar storage: the tenants $1,
-- trace $2.
{history_other_count_columnar}
     (SELECT r.tenant, r.shard FROM clearing_record r
      WHERE r.tenant = ANY ($1::text[]) AND r.trace_number = $2
      UNION ALL
      SELECT r.tenant, r.shard FROM clearing_record r
      WHERE r.tenant = ANY ($1::text[]) AND r.original_trace = $2
        AND r.trace_number IS DISTINCT FROM $2) u
{history_other_group_columnar}

-- name: history_other_tenants_by_e2e_columnar
-- history_other_tenants_by_e2e in columnar storage: the tenants $1,
-- EndToEndId $2.
{history_other_count_columnar}
     (SELECT r.tenant, r.shard FROM clearing_record r
      WHERE r.tenant = ANY ($1::text[]) AND r.end_to_end_id = $2
      UNION ALL
      SELECT r.tenant, r.shard FROM clearing_record r
      WHERE r.tenant = ANY ($1::text[]) AND r.orgnl_end_to_end_id = $2
        AND r.end_to_end_id IS DISTINCT FROM $2) u
{history_other_group_columnar}

-- name: history_other_tenants_by_uetr_columnar
-- history_other_tenants_by_uetr in columnar storage: the tenants $1,
-- UETR $2.
{history_other_count_columnar}
     (SELECT r.tenant, r.shard FROM clearing_record r
      WHERE r.tenant = ANY ($1::text[]) AND r.uetr = pg_catalog.lower($2)
      UNION ALL
      SELECT r.tenant, r.shard FROM clearing_record r
      WHERE r.tenant = ANY ($1::text[]) AND r.orgnl_uetr = pg_catalog.lower($2)
        AND r.uetr IS DISTINCT FROM pg_catalog.lower($2)) u
{history_other_group_columnar}

-- The facts of the records one lookup found, each kind of fact for all of
-- them in one statement (show sends the same few statements whatever the
-- number of records): the records as parallel arrays, in the order show
-- prints them; each row of an answer starts with i, the record's place in
-- those arrays (from 1), and the answer is in order of i.  Each element is
-- its own index probe.

-- name: history_loads_of
-- The loads that applied the records: load ids $1 (bigint[], repeats
-- allowed), with the columns of history_loads, so that a load has one
-- shape in every output; by load_id.  Then two columns that are not the
-- load's: whether tenant $2 has any version parked in quarantine and any
-- reconciliation match at all (one probe of each table's tenant index).
-- When it has none, show does not ask for the records' parked versions
-- or matches: in a fresh session each of those statements costs more to
-- plan than this probe.
SELECT {load_columns},
       EXISTS (SELECT 1 FROM clearing_quarantine q WHERE q.tenant = $2) AS tenant_has_parked,
       EXISTS (SELECT 1 FROM clearing_reconcile_match m WHERE m.tenant = $2)
         AS tenant_has_reconciled,
       EXISTS (SELECT 1 FROM clearing_break_decision d WHERE d.tenant = $2)
         AS tenant_has_decided
FROM clearing_load l
WHERE l.load_id = ANY ($1::bigint[])
ORDER BY l.load_id

-- name: history_loads_of_citus
-- history_loads_of on Citus: the loads $1 (bigint[]) and flags of tenant
-- $2 as there, but for the parked versions whether $2 has one in the
-- shards $3 (bigint[]: the
-- shards of the records shown), a router plan of those shards, not a read
-- of every shard of the quarantine (a tenant-wide EXISTS has no shard to
-- name).  A version history_quarantine_of finds is in those shards (under
-- the record's own key, whose shard is the record's) or is one whose
-- journal row names the record under another key, in any shard: for
-- those show sends history_quarantine_of whatever this says, when
-- history_events_of shows such a row (docs/design/0060-citus-show-routed.md).
SELECT {load_columns},
       EXISTS (SELECT 1 FROM clearing_quarantine q
               WHERE q.tenant = $2 AND q.shard = ANY ($3::bigint[])) AS shards_have_parked,
       EXISTS (SELECT 1 FROM clearing_reconcile_match m WHERE m.tenant = $2)
         AS tenant_has_reconciled,
       EXISTS (SELECT 1 FROM clearing_break_decision d WHERE d.tenant = $2)
         AS tenant_has_decided
FROM clearing_load l
WHERE l.load_id = ANY ($1::bigint[])
ORDER BY l.load_id

-- fragment: history_load_of_q
-- The load of q (a materialized CTE's row), as l: a probe of its primary
-- key per row (LIMIT: not pulled up into a join, whose planner, not knowing
-- the CTE's size, would hash the whole load history).
SELECT l.load_uuid, l.file_name, l.outcome, l.started_at
FROM clearing_load l
WHERE l.load_id = q.load_id
LIMIT 1

-- fragment: history_event_columns
-- An event q as show prints it, with its load l (history_load_of_q).
q.reason, q.load_id, l.load_uuid, l.file_name, q.position, l.outcome,
       q.kind, q.natural_key, q.matched_key, q.matched_load_id, q.matched_position,
       pg_catalog.array_to_string(q.fields, ',') AS fields,
       pg_catalog.to_char(q.created_at, {iso_ts}) AS created_at

-- fragment: history_events_naming_k
-- The journal rows that name record k (its load_id and ordinal: a row of
-- history_events_of's k), as e: a probe of clearing_dedupe_event_matched.
SELECT e.reason, e.load_id, e.ordinal, e.position, e.kind, e.natural_key, e.matched_key,
           e.matched_load_id, e.matched_position, e.fields, e.created_at
    FROM clearing_dedupe_event e
    WHERE e.matched_load_id = k.load_id AND e.matched_ordinal = k.ordinal

-- fragment: history_events_with_loads
-- The events e (history_events_naming_k's rows with k's i) with their
-- loads, as show prints them, in the order they happened for each record.
SELECT q.i, {history_event_columns}
FROM e AS q
CROSS JOIN LATERAL ({history_load_of_q}) l
ORDER BY q.i, q.created_at, q.load_id, q.ordinal

-- name: history_events_of
-- The dedupe events that hit each record: the record applied by load
-- $1[i] as its ordinal $2[i], in the order they happened; after i, the
-- columns of history_key_events, so that an event has one shape.
-- The events read first (a probe of clearing_dedupe_event_matched for each
-- record, a lateral subquery with ORDER BY, which PostgreSQL does not pull
-- up), then their loads (a probe of clearing_load's key per event): on
-- Citus the journal is distributed (migration 037, every shard asked: a
-- near duplicate's row is in its own key's shard) and the load history
-- the coordinator's, which a plain join would send whole to every shard
-- (docs/design/0047-citus-show-conflicts-reconcile.md, 0049).
WITH k AS MATERIALIZED (
  SELECT * FROM ROWS FROM (pg_catalog.unnest($1::bigint[]), pg_catalog.unnest($2::bigint[]))
    WITH ORDINALITY AS k(load_id, ordinal, i)),
e AS MATERIALIZED (
  SELECT k.i, e.*
  FROM k
  CROSS JOIN LATERAL (
    {history_events_naming_k}
    ORDER BY e.shard) e)
{history_events_with_loads}

-- name: history_events_of_citus
-- history_events_of on Citus for records whose every event is in their
-- own shard: the journal rows that name the record applied by load $1[i]
-- as its ordinal $2[i], read in the records' shards $3 (bigint[]) alone,
-- a router plan of those shards, not every shard of the journal.  show
-- sends it when every record shown is of a kind whose copies are journaled
-- in the record's shard (rules/shard.h cl_shard_holds_copies: the ACH
-- kinds, whose shard is the trace their near identity and both key rules
-- share); otherwise history_events_of.  The same columns and order.
WITH k AS MATERIALIZED (
  SELECT * FROM ROWS FROM (pg_catalog.unnest($1::bigint[]), pg_catalog.unnest($2::bigint[]))
    WITH ORDINALITY AS k(load_id, ordinal, i)),
e AS MATERIALIZED (
  SELECT k.i, e.*
  FROM k
  CROSS JOIN LATERAL (
    {history_events_naming_k}
      AND e.shard = ANY ($3::bigint[])
    ORDER BY e.shard) e)
{history_events_with_loads}

-- name: history_key_events
-- The dedupe events of a key that has no record: tenant $1, journal key
-- $2.  Held conflicts of a never-applied key cannot exist, nor can plain
-- duplicates (they matched a record under their own key): this finds near
-- duplicates, through clearing_dedupe_event_key (migration 011).  The
-- events read first, then their loads, as history_events_of.
WITH e AS MATERIALIZED (
  SELECT e.reason, e.load_id, e.ordinal, e.position, e.kind, e.natural_key, e.matched_key,
         e.matched_load_id, e.matched_position, e.fields, e.created_at
  FROM clearing_dedupe_event e
  WHERE e.tenant = $1 AND e.natural_key = $2 AND e.reason <> 'duplicate')
SELECT {history_event_columns}
FROM e AS q
CROSS JOIN LATERAL ({history_load_of_q}) l
ORDER BY q.created_at, q.load_id, q.ordinal

-- fragment: history_parked_columns
-- A parked version as show prints it, with the load that parked it (its
-- file and outcome): the columns, of clearing_quarantine q and
-- clearing_load l.
q.load_id, l.load_uuid, l.file_name, l.outcome AS load_outcome, q.position, q.kind,
       q.natural_key, q.alt_key,
       q.amount_minor, q.currency, q.value_date, q.receiving_account, q.debtor_account,
       q.creditor_account, pg_catalog.encode(q.fingerprint, 'hex') AS fingerprint,
       pg_catalog.to_char(q.quarantined_at, {iso_ts}) AS quarantined_at

-- fragment: history_parked
-- The parked versions the condition after it matches (its closing
-- parenthesis, then {history_parked_shown}, end the statement): read
-- first, then joined with their loads.  One text for one server and Citus:
-- the quarantine is distributed there and the load history the
-- coordinator's; a materialized CTE is read on its own (on Citus a
-- distributed subplan) and the join is then local.
WITH q AS MATERIALIZED (
  SELECT q.* FROM clearing_quarantine q
  WHERE

-- fragment: history_parked_shown
-- The versions of {history_parked} with their loads, as show prints them.
SELECT {history_parked_columns}
FROM q
CROSS JOIN LATERAL ({history_load_of_q}) l
ORDER BY q.load_id, q.ordinal

-- name: history_quarantine_of
-- The versions of each record parked in quarantine: those under its own
-- key (tenant $1, kind $2[i], natural key $3[i]: a conflict) and those
-- whose journal row names it as the record they copy (a near duplicate,
-- parked under its own, other key; the record: load $4[i], ordinal
-- $5[i]).  After i, the version's ordinal (its order, with load_id), then
-- the columns of history_parked; a version both ways is one row.  The
-- keys, the journal's rows (the coordinator's on Citus) and the parked
-- versions (distributed there: probes per key, lateral subqueries
-- PostgreSQL does not pull up, as 0040's) are each read on their own, then
-- joined with their loads (docs/design/0047-citus-show-conflicts-reconcile.md).
WITH k AS MATERIALIZED (
  SELECT k.kind, k.natural_key, k.i
  FROM ROWS FROM (pg_catalog.unnest($2::text[]), pg_catalog.unnest($3::text[]))
    WITH ORDINALITY AS k(kind, natural_key, i)),
j AS MATERIALIZED (
  SELECT k.i, e.load_id, e.ordinal
  FROM ROWS FROM (pg_catalog.unnest($4::bigint[]), pg_catalog.unnest($5::bigint[]))
    WITH ORDINALITY AS k(load_id, ordinal, i)
  JOIN clearing_dedupe_event e
    ON e.matched_load_id = k.load_id AND e.matched_ordinal = k.ordinal),
q AS MATERIALIZED (
  SELECT k.i, q.*
  FROM k
  CROSS JOIN LATERAL (
    SELECT q.* FROM clearing_quarantine q
    WHERE q.tenant = $1 AND q.kind = k.kind AND q.natural_key = k.natural_key
    ORDER BY q.shard) q
  UNION ALL
  SELECT j.i, q.*
  FROM j
  CROSS JOIN LATERAL (
    SELECT q.* FROM clearing_quarantine q
    WHERE q.load_id = j.load_id AND q.ordinal = j.ordinal
    ORDER BY q.shard) q)
SELECT DISTINCT q.i, q.ordinal AS parked_ordinal, {history_parked_columns}
FROM q
CROSS JOIN LATERAL ({history_load_of_q}) l
ORDER BY 1, 3, 2

-- name: history_reconciled_of
-- The statement entries (and pacs.002 and pain.002 statuses) that matched
-- each record (tenant $1, kind $2[i], natural key $3[i]), as their
-- statement's file and line (no key: it holds the account), by the run
-- that found each; of a status, which (ACCP, RJCT, ...) and why.
SELECT k.i, m.entry_kind, s.statement_id, s.seq_nb, s.entry_index,
       s.load_id AS entry_load_id, l.file_name AS entry_file, s.position AS entry_position,
       s.booking_date, m.rule, m.run_id, pg_catalog.to_char(m.matched_at, {iso_ts}) AS matched_at,
       s.item AS entry_item,
       CASE WHEN s.item = 'status' THEN s.status END AS payment_status,
       CASE WHEN s.item = 'status' THEN s.status_reason END AS status_reason
FROM ROWS FROM (pg_catalog.unnest($2::text[]), pg_catalog.unnest($3::text[]))
  WITH ORDINALITY AS k(kind, natural_key, i)
JOIN clearing_reconcile_match m
  ON m.tenant = $1 AND m.record_kind = k.kind AND m.record_key = k.natural_key
JOIN clearing_statement_item s
  ON s.tenant = m.tenant AND s.kind = m.entry_kind AND s.natural_key = m.entry_key
JOIN clearing_load l ON l.load_id = s.load_id
ORDER BY k.i, m.matched_at, m.entry_kind, m.entry_key

-- fragment: history_cancellations_read
-- The cancellations (camt.056 and camt.029) as history_cancellations_of
-- reads them; the probe's own condition (the tenant, a reference) follows.
SELECT c.kind, c.natural_key, c.cancellation_status, c.reason_code, c.load_id, c.ordinal
FROM clearing_record c
WHERE c.kind IN ('camt.056', 'camt.029')

-- name: history_cancellations_of
-- The cancellation requests (camt.056) and their answers (camt.029) of
-- tenant $1 that name each record (its kind $2[i], UETR $3[i], EndToEndId
-- $4[i], TxId $5[i]; '' for none) as the payment they concern: by its
-- UETR, else (one without OrgnlUETR) by its EndToEndId and, when both have
-- one, its TxId; with the load that applied each, in the order they were
-- loaded.  A cancellation names no cancellation.  Index probes of
-- orgnl_uetr and orgnl_end_to_end_id (011), from the values show read;
-- the records read on their own (one CTE per reference: Citus refuses a
-- UNION ALL in a lateral, one server an OR of the two), then joined with
-- their loads (on Citus the records are distributed, the loads the
-- coordinator's).  show sends it only when a record has a UETR or an
-- EndToEndId: else nothing can match, and on Citus it would read every
-- shard of the records twice (docs/design/0055-citus-show-one-connection.md).
WITH k AS MATERIALIZED (
  SELECT k.kind, k.uetr, k.e2e, k.txid, k.i
  FROM ROWS FROM (pg_catalog.unnest($2::text[]), pg_catalog.unnest($3::text[]),
                  pg_catalog.unnest($4::text[]), pg_catalog.unnest($5::text[]))
    WITH ORDINALITY AS k(kind, uetr, e2e, txid, i)
  WHERE k.kind NOT IN ('camt.056', 'camt.029')),
by_uetr AS MATERIALIZED (
  SELECT k.i, c.*
  FROM k
  CROSS JOIN LATERAL ({history_cancellations_read}
      AND c.tenant = $1 AND c.orgnl_uetr = NULLIF(k.uetr, '')
    ORDER BY c.shard) c),
by_e2e AS MATERIALIZED (
  SELECT k.i, c.*
  FROM k
  CROSS JOIN LATERAL ({history_cancellations_read}
      AND c.tenant = $1 AND c.orgnl_end_to_end_id = NULLIF(k.e2e, '')
      AND c.orgnl_uetr IS NULL
      AND coalesce(c.orgnl_tx_id = NULLIF(k.txid, ''), true)
    ORDER BY c.shard) c),
q AS (
  SELECT * FROM by_uetr
  UNION ALL
  SELECT * FROM by_e2e)
SELECT q.i, q.kind AS cancellation_kind, q.natural_key AS cancellation_key,
       q.cancellation_status, q.reason_code AS cancellation_reason, q.load_id,
       pg_catalog.to_char(l.started_at, {iso_ts}) AS loaded_at
FROM q
CROSS JOIN LATERAL ({history_load_of_q}) l
ORDER BY q.i, q.load_id, q.ordinal

-- name: history_decisions_of
-- The decisions on each record as a break (tenant $1, kind $2[i], natural
-- key $3[i]; clearing-load break), each with who, when and why, the
-- record's id and the other items of the decision (a match's entry), in
-- the order they were made.
SELECT k.i, d.action AS decision, d.decided_by,
       pg_catalog.to_char(d.decided_at, {iso_ts}) AS decided_at, d.reason AS decision_reason,
       d.item_id,
       (SELECT pg_catalog.string_agg(o.item_id, ' ' ORDER BY o.item_id)
        FROM clearing_break_decision o
        WHERE o.decision_id = d.decision_id AND o.item_id <> d.item_id) AS decided_with
FROM ROWS FROM (pg_catalog.unnest($2::text[]), pg_catalog.unnest($3::text[]))
  WITH ORDINALITY AS k(kind, natural_key, i)
JOIN clearing_break_decision d
  ON d.tenant = $1 AND d.side = 'record' AND d.item_kind = k.kind AND d.item_key = k.natural_key
ORDER BY k.i, d.version

-- name: history_key_quarantine
-- The versions parked under a key that was never applied (tenant $1,
-- natural key $2): show KEY still shows them.
{history_parked} q.tenant = $1 AND q.natural_key = $2)
{history_parked_shown}

-- name: history_quarantine_by_trace
-- The versions parked by held and quarantined loads of tenant $1 with ACH trace number
-- $2: show finds a payment seen only in such a file.
{history_parked} q.tenant = $1 AND q.trace_number = $2)
{history_parked_shown}

-- name: history_quarantine_by_e2e
-- The versions parked by held and quarantined loads of tenant $1 with EndToEndId
-- $2: show finds a payment seen only in such a file.
{history_parked} q.tenant = $1 AND q.end_to_end_id = $2)
{history_parked_shown}

-- name: history_quarantine_by_uetr
-- The versions parked by held and quarantined loads of tenant $1 with UETR
-- $2 (any case): show finds a payment seen only in such a file.
{history_parked} q.tenant = $1 AND q.uetr = pg_catalog.lower($2))
{history_parked_shown}

-- name: history_lock_uuid
-- Try the session-level advisory lock on load UUID $1 (any case): false
-- while the load's transaction, which holds it (load_lock_uuid), runs.
SELECT pg_catalog.pg_try_advisory_lock(pg_catalog.hashtextextended(pg_catalog.lower($1), 0))

-- name: history_unlock_uuid
-- Release the lock history_lock_uuid took on load UUID $1.
SELECT pg_catalog.pg_advisory_unlock(pg_catalog.hashtextextended(pg_catalog.lower($1), 0))

-- name: history_loads
-- Loads, newest first: started since $1 (NULL: all), load UUID $2 only and
-- tenant $4 only when not NULL, at most $3.
SELECT {load_columns}
FROM clearing_load l
WHERE ($1::timestamptz IS NULL OR l.started_at >= $1::timestamptz)
  AND ($2::uuid IS NULL OR l.load_uuid = $2::uuid)
  AND ($4::text IS NULL OR l.tenant = $4::text)
ORDER BY l.load_id DESC
LIMIT $3::bigint
