-- match_rules.sql - the matching rules of reconcile (loader/match_rules.c;
-- clearing-load match-rules; the tables: sql/032_match_rules.sql; read by
-- reconcile.sql's reconcile_rule).

-- name: match_rules_set
-- A new rule set of tenant $1 from file $2 (its SHA-256 $3, $4 rules): the
-- tenant's next version (under reconcile's lock of the tenant: a run reads
-- one set whole, two loads number theirs one after the other); who and
-- when from the trigger.
INSERT INTO clearing_match_rule_set (tenant, version, file, sha256, rules, loaded_by, loaded_at)
SELECT $1, coalesce(max(version), 0) + 1, $2, $3, $4::integer, '', 'now'
FROM clearing_match_rule_set
WHERE tenant = $1
RETURNING version

-- name: match_rules_rule
-- Rule $3 (line $4) of version $2 of tenant $1: tolerance $5 minor units,
-- $6 basis points, window $7 days (NULL: none), references $8 (NULL: the
-- run's), charges expected up to $9 minor units.
INSERT INTO clearing_match_rule (tenant, version, pattern, line, tolerance_minor, tolerance_bp,
  window_days, refs, charges_max_minor)
VALUES ($1, $2::integer, $3, $4::integer, $5::bigint, $6::integer, $7::integer, $8, $9::bigint)

-- name: match_rules_list
-- The rules in force of tenant $1 (its latest set), by pattern, with the
-- set's version, file, who loaded it and when (UTC); read by name.
SELECT r.pattern, r.line, r.tolerance_minor, r.tolerance_bp, r.window_days, r.refs,
       r.charges_max_minor, s.version, s.file, s.sha256, s.loaded_by,
       pg_catalog.to_char(s.loaded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
         AS loaded_at
FROM (SELECT * FROM clearing_match_rule_set WHERE tenant = $1
      ORDER BY version DESC LIMIT 1) s
LEFT JOIN clearing_match_rule r ON r.tenant = s.tenant AND r.version = s.version
ORDER BY r.pattern
