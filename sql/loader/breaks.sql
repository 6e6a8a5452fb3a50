-- breaks.sql - a person's decisions on reconcile's breaks, and the breaks
-- still open (loader/breaks.c; clearing-load break; the functions and the
-- tables in sql/027_break_decisions.sql).

-- name: breaks_decide
-- Decision $2 (accept, match, write_off, reopen) on the items $3 (a text
-- array of ids) of tenant $1, with the records $4 (match) and reason $5:
-- one row per item, read by name.
SELECT item_id, outcome, detail
FROM clearing_break_decide($1, $2, $3::text[], $4::text[], $5)

-- name: breaks_open
-- The open breaks of tenant $1 (the breaks of each statement's latest run
-- under no decision in force, and no record of theirs matched since by a
-- later statement), of account $2, dated $3, of status $4 and reason $5
-- (each NULL: any), oldest first (first reported, then its date); read by
-- name.
WITH latest AS (
  SELECT s.statement_key, max(s.run_id) AS run_id
  FROM clearing_reconcile_statement s
  WHERE s.tenant = $1
  GROUP BY s.statement_key)
SELECT b.item_id, b.status, b.reason, b.statement_key, b.account, b.amount_minor, b.currency,
       b.item_date, b.side, b.item_kind, b.item_key, b.record_kind, b.record_key, b.run_id,
       f.first AS first_reported,
       CURRENT_DATE - f.first AS age_days
FROM latest l
JOIN clearing_reconcile_break b
  ON b.tenant = $1 AND b.statement_key = l.statement_key AND b.run_id = l.run_id
CROSS JOIN LATERAL (
  SELECT min(o.reported_at)::date AS first FROM clearing_reconcile_break o
  WHERE o.tenant = $1 AND o.item_id = b.item_id) f
WHERE ($2::text IS NULL OR b.account = $2)
  AND ($3::date IS NULL OR b.item_date = $3::date)
  AND ($4::text IS NULL OR b.status = $4)
  AND ($5::text IS NULL OR b.reason = $5)
  AND NOT EXISTS (SELECT 1 FROM clearing_break_live($1, b.side, b.item_kind, b.item_key))
  AND NOT EXISTS (
    SELECT 1 FROM clearing_reconcile_match m
    WHERE b.side = 'record' AND m.tenant = $1 AND m.record_kind = b.item_kind
      AND m.record_key = b.item_key)
ORDER BY f.first, b.item_date, b.item_id
