-- feed.sql - what `clearing-load feed` reads and writes (loader/feed.c;
-- the tables: 013_feed.sql).  A feed position is commit_seq * 2^32 +
-- ordinal.

-- name: feed_acked
-- Consumer $1's acknowledged position (no row: it has acknowledged nothing).
SELECT position FROM clearing_feed_consumer WHERE consumer = $1

-- name: feed_commits
-- The commits from commit number $1 on, of tenant $2 only when not NULL,
-- in commit order, at most $3: one probe of the primary key, then its
-- range.
SELECT commit_seq, load_id, tenant, pg_catalog.to_char(committed_at, {iso_ts}) AS applied_at
FROM clearing_feed_commit
WHERE commit_seq >= $1::bigint AND ($2::text IS NULL OR tenant = $2::text)
ORDER BY commit_seq
LIMIT $3::bigint

-- name: feed_records
-- The records load $1 (of tenant $2, its commit number $3, committed at
-- $4) applied, after ordinal $5, in file order, at most $6: a range of
-- the (load_id, ordinal) index, read in its order (a load id is one
-- tenant's: $2 is not a condition, which would let the planner combine
-- indexes and sort the whole load for each page).  A correction (the
-- record of a resolution's load, 016_conflicts.sql) names the record it
-- corrects (corrects_load_id, corrects_ordinal; else NULL).
-- The page of records is read first, on its own (a materialized CTE), and
-- joined to the resolution afterwards: on Citus the join of the distributed
-- records, under row security, with the coordinator's clearing_resolution
-- in one query crashed the coordinator (Citus 13.2.2, signal 11; 0047); one
-- server reads the same index range.
WITH r AS MATERIALIZED (
	SELECT r.* FROM clearing_record r
	WHERE r.load_id = $1::bigint AND r.ordinal > $5::bigint AND $2::text IS NOT NULL
	ORDER BY r.load_id, r.ordinal
	LIMIT $6::bigint)
SELECT ($3::bigint << 32) + r.ordinal AS feed_position, $4::text AS applied_at,
       {show_columns}, v.matched_load_id AS corrects_load_id,
       v.matched_ordinal AS corrects_ordinal
FROM r
LEFT JOIN clearing_resolution v
  ON v.resolution_load_id = r.load_id AND v.verdict = 'accepted' AND r.ordinal = 1
ORDER BY r.load_id, r.ordinal

-- name: feed_position_exists
-- Is $1 the feed position of an applied record?
SELECT 1
FROM clearing_feed_commit f
JOIN clearing_record r ON r.load_id = f.load_id
WHERE f.commit_seq = ($1::bigint >> 32) AND r.ordinal = ($1::bigint & 4294967295)

-- name: feed_ack
-- Consumer $1 has received everything up to position $2: its position
-- only moves forward.  The position it holds now.
INSERT INTO clearing_feed_consumer AS c (consumer, position, acked_at)
VALUES ($1, $2::bigint, pg_catalog.now())
ON CONFLICT (consumer) DO UPDATE
SET position = GREATEST(c.position, excluded.position), acked_at = excluded.acked_at
RETURNING position

-- name: feed_blind
-- Whether row security hides every record this session could be fed:
-- row security is active for it on clearing_record and the tenants it
-- may see (clearing_visible_tenants, the policy's own list) are none, or
-- do not include tenant $1 when one is given.  Such a consumer would be
-- told "0 records" for ever: it is refused instead.
SELECT pg_catalog.row_security_active('clearing_record'::pg_catalog.regclass)
       AND ($1::text IS NULL AND pg_catalog.cardinality(clearing_visible_tenants()) = 0
            OR $1::text IS NOT NULL AND NOT $1::text = ANY (clearing_visible_tenants()))
