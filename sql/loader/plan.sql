-- plan.sql - diff (loader/plan.c): what a load of the file would do to
-- each record, found without writing anything (no load row, no stage, no
-- journal rows), so that diff runs for a role that may only SELECT, in a
-- read-only transaction and on a hot standby.  The file's records travel
-- a batch at a time as one parameter, an array of clearing_record (each
-- record's tenant, stored fields and ordinal; the columns' types and
-- collations are the table's), and the whole-file checks also get the
-- records' journal keys (stage.sql).

-- name: plan_begin
-- diff's transaction: read-only, and one snapshot for every batch (a load
-- committing meanwhile is seen by all of them or by none).
BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY

-- name: plan_set_tenant
-- Tenant $1 as a setting of this transaction, read by the rules' probes
-- (classify.sql).
SELECT pg_catalog.set_config('clearing_load.tenant', $1, true)

-- name: plan_near_wanted
-- Has the tenant applied ACH records (a near-duplicate search is worth
-- it)?
SELECT {classify_tenant_near}

-- name: plan_set_rules
-- Which of the later rules plan_batch tries, as the load would (settings
-- of this transaction): near duplicates ($1: on or off, plan_near_wanted),
-- the other ACH key rule ($2: v1, batch or none: a v1 file looks only if
-- the tenant ever loaded under v1-batch, classify_rule_v1_wanted); and
-- plans made once for every batch, not per batch (the statement is long
-- to plan and its batches alike).
SELECT pg_catalog.set_config('clearing_load.near', $1, true),
       pg_catalog.set_config('clearing_load.ach_key', $2, true),
       pg_catalog.set_config('plan_cache_mode', 'force_generic_plan', true)

-- name: plan_record_columns
-- The columns of clearing_record in their order, the order of the values
-- of a record in the arrays (see above).
SELECT a.attname
FROM pg_catalog.pg_attribute a
WHERE a.attrelid = 'clearing_record'::pg_catalog.regclass AND a.attnum > 0
  AND NOT a.attisdropped
ORDER BY a.attnum

-- fragment: plan_answer
-- What diff prints of record c that matched the applied record r of load l
-- (plan_batch says what, column by column).
SELECT c.ordinal, r.reason, r.load_id, l.file_name, r.position,
       pg_catalog.to_char(l.finished_at, {iso_ts}), r.matched_key,
       CASE WHEN r.reason <> 'duplicate'
            THEN ARRAY(SELECT f FROM (VALUES {compared_diffs}) AS d(f, differs) WHERE differs)
       END,
       {compared_r}

-- name: plan_batch
-- The records of a batch ($1: an array of clearing_record, see above)
-- that a load would not apply, each with the applied record it matched:
-- the rules' probes of the load (classify.sql), tried in the order of
-- precedence of
-- cl_classify (exact key; then alternate keys, near duplicates and the
-- other ACH key rule for the records without one), the first that
-- matches decides; one probe of an index each.  For each: ordinal,
-- reason, where and when the matched record was applied, its key (NULL:
-- the same key), the differing compared fields (conflicts) and the stored
-- compared fields of the matched record (columns 9 on, in the field
-- table's order), in file order.
{plan_answer}
FROM pg_catalog.unnest($1::clearing_record[]) c
CROSS JOIN LATERAL (
  SELECT CASE WHEN r.fingerprint = c.fingerprint THEN 'duplicate' ELSE 'conflict' END AS reason,
         NULL::text AS matched_key, r.*
  FROM ({classify_probe_exact}) r
  UNION ALL
  SELECT 'near_duplicate', r.natural_key, r.*
  FROM ({classify_probe_alt}) r
  WHERE c.alt_key IS NOT NULL
  UNION ALL
  SELECT 'near_duplicate', r.natural_key, r.*
  FROM ({classify_probe_near}) r
  WHERE c.near_key IS NOT NULL AND pg_catalog.current_setting('clearing_load.near') = 'on'
  UNION ALL
  SELECT 'near_duplicate', r.natural_key, r.*
  FROM ({classify_probe_rule_v1}) r
  WHERE c.kind = 'ach.entry'
    AND pg_catalog.current_setting('clearing_load.ach_key') = 'v1'
  UNION ALL
  SELECT 'near_duplicate', r.natural_key, r.*
  FROM ({classify_probe_rule_batch}) r
  WHERE c.kind = 'ach.entry'
    AND pg_catalog.current_setting('clearing_load.ach_key') = 'batch'
  LIMIT 1) r
JOIN clearing_load l ON l.load_id = r.load_id
ORDER BY c.ordinal

-- fragment: plan_citus_alt
-- A match of one of the alternate-key probes of plan_batch_citus (the
-- probe follows).
SELECT c.ordinal, 2, 0, 'near_duplicate', r.natural_key, r.*
  FROM c CROSS JOIN LATERAL

-- name: plan_batch_citus
-- plan_batch on Citus (classify.sql says when and why): the records of a
-- batch ($1, as above) probed in clearing_record by each rule's Citus
-- probe (classify.sql), on the tenant as the records' column; which later rules are tried as
-- parameters, not settings (the workers do not have them): near
-- duplicates $2 (on or off), the other ACH key rule $3 (v1, batch or
-- none).  Of each record's matches the first in the order of precedence
-- and of its rule's probe is kept, on the coordinator.
WITH c AS MATERIALIZED (SELECT * FROM pg_catalog.unnest($1::clearing_record[])),
m AS MATERIALIZED (
  SELECT c.ordinal AS c_ordinal, 1 AS precedence, 0 AS distance,
         CASE WHEN r.fingerprint = c.fingerprint THEN 'duplicate' ELSE 'conflict' END AS reason,
         NULL::text AS matched_key, r.*
  FROM c CROSS JOIN LATERAL ({classify_citus_probe_exact}) r
  UNION ALL
  {plan_citus_alt} ({classify_citus_probe_alt_11}) r
  UNION ALL {plan_citus_alt} ({classify_citus_probe_alt_21}) r
  UNION ALL {plan_citus_alt} ({classify_citus_probe_alt_12}) r
  UNION ALL {plan_citus_alt} ({classify_citus_probe_alt_22}) r
  UNION ALL
  SELECT c.ordinal, 3, abs(r.value_date - c.value_date), 'near_duplicate', r.natural_key, r.*
  FROM c CROSS JOIN LATERAL ({classify_citus_probe_near}) r
  WHERE c.near_key IS NOT NULL AND $2::text = 'on'
  UNION ALL
  SELECT c.ordinal, 4, 0, 'near_duplicate', r.natural_key, r.*
  FROM c CROSS JOIN LATERAL ({classify_citus_probe_rule_v1}) r
  WHERE c.kind = 'ach.entry' AND $3::text = 'v1'
  UNION ALL
  SELECT c.ordinal, 4, 0, 'near_duplicate', r.natural_key, r.*
  FROM c CROSS JOIN LATERAL ({classify_citus_probe_rule_batch}) r
  WHERE c.kind = 'ach.entry' AND $3::text = 'batch')
{plan_answer}
FROM c
JOIN (SELECT DISTINCT ON (m.c_ordinal) *
      FROM m
      ORDER BY m.c_ordinal, m.precedence, m.distance, m.load_id, m.ordinal) r
  ON r.c_ordinal = c.ordinal
JOIN clearing_load l ON l.load_id = r.load_id
ORDER BY c.ordinal

-- name: plan_set_rules_citus
-- plan_set_rules on Citus: the rules are plan_batch_citus's parameters;
-- its plan made for each batch with their values (Citus cannot plan a
-- distributed statement whose parameters it does not know).
SELECT pg_catalog.set_config('plan_cache_mode', 'force_custom_plan', true)
