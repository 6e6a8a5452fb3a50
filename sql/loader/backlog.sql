-- backlog.sql - what waits for a person, for ingest's metrics
-- (loader/backlog.c): each statement one row, (count, age in whole seconds
-- of the oldest; 0 when none), for one tenant.

-- name: backlog_visible
-- Whether this login sees tenant $1's rows under row security (a count of
-- rows it cannot see would be a false 0).
SELECT clearing_tenant_writable($1::text)

-- name: backlog_conflicts
-- Tenant $1's parked versions (held and quarantined loads' conflicts) not
-- yet accepted or dismissed, and the oldest one's age.
SELECT count(*),
       coalesce(extract(epoch FROM pg_catalog.now() - min(q.quarantined_at))::bigint, 0)
FROM clearing_quarantine q
WHERE q.tenant = $1::text
  AND NOT EXISTS (SELECT 1 FROM clearing_resolution r
		  WHERE r.load_id = q.load_id AND r.ordinal = q.ordinal)

-- name: backlog_loads
-- Tenant $1's loads of outcome $2 (held, quarantined) with a conflict (a
-- parked version) not yet accepted or dismissed: from the parked versions,
-- each load found by its key (never a walk of the tenant's loads).  (Loading a held file
-- again with --on-conflict quarantine parks nothing new: the versions are
-- the held load's, and wait until resolved.)  Their number and the oldest
-- one's age.
SELECT count(*),
       coalesce(extract(epoch FROM pg_catalog.now() - min(l.started_at))::bigint, 0)
FROM clearing_load l
WHERE l.load_id IN (SELECT q.load_id FROM clearing_quarantine q
		    WHERE q.tenant = $1::text
		      AND NOT EXISTS (SELECT 1 FROM clearing_resolution r
				      WHERE r.load_id = q.load_id AND r.ordinal = q.ordinal))
  AND l.outcome = $2::text

-- name: backlog_statements
-- Tenant $1's statements loaded and not yet taken by
-- a reconcile run: their number and the age of the oldest one's load.
SELECT count(*),
       coalesce(extract(epoch FROM pg_catalog.now() - min(l.started_at))::bigint, 0)
FROM (SELECT s.statement_key, min(s.load_id) AS load_id
      FROM clearing_statement_item s
      WHERE s.tenant = $1::text AND s.item = 'statement'
	AND NOT EXISTS (SELECT 1 FROM clearing_reconcile_statement r
			WHERE r.tenant = s.tenant AND r.statement_key = s.statement_key)
      GROUP BY s.statement_key) u
JOIN clearing_load l ON l.load_id = u.load_id

-- name: backlog_differences
-- Tenant $1's last reconcile run: its statement entries unmatched and its
-- exceptions (what it left for a person), and the run's age; no row when
-- there was none.
SELECT unmatched_theirs + exceptions,
       extract(epoch FROM pg_catalog.now() - finished_at)::bigint
FROM clearing_reconcile_run
WHERE tenant = $1::text
ORDER BY run_id DESC
LIMIT 1

-- name: backlog_breaks
-- Tenant $1's open reconcile breaks of status $2 (clearing-load break
-- list's: the breaks of each statement's latest run under no decision in
-- force, less records matched since), and the age of the oldest: since a
-- run first reported it.
WITH latest AS (
  SELECT s.statement_key, max(s.run_id) AS run_id
  FROM clearing_reconcile_statement s
  WHERE s.tenant = $1::text
  GROUP BY s.statement_key),
open AS (
  SELECT (SELECT min(o.reported_at) FROM clearing_reconcile_break o
          WHERE o.tenant = $1::text AND o.item_id = b.item_id) AS since
  FROM latest l
  JOIN clearing_reconcile_break b
    ON b.tenant = $1::text AND b.statement_key = l.statement_key AND b.run_id = l.run_id
  WHERE b.status = $2::text
    AND NOT EXISTS (SELECT 1 FROM clearing_break_live($1::text, b.side, b.item_kind, b.item_key))
    AND NOT EXISTS (
      SELECT 1 FROM clearing_reconcile_match m
      WHERE b.side = 'record' AND m.tenant = $1::text AND m.record_kind = b.item_kind
        AND m.record_key = b.item_key))
SELECT count(*), coalesce(extract(epoch FROM pg_catalog.now() - min(since))::bigint, 0)
FROM open
