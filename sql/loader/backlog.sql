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
