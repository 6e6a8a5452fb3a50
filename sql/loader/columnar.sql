-- columnar.sql - the statements of columnar storage (init --columnar,
-- migration 045, docs/design/0063-columnar-records.md): init's, and the
-- loader's where the storage refuses what it does on a heap
-- (loader/schema.c, loader/load.c, loader/apply.c).

-- name: columnar_refused
-- Why init --columnar cannot be done here, before anything is changed:
-- 'citus' (a Citus database), 'unavailable' (no citus_columnar extension
-- on this server), '' (it can).  clearing_make_columnar (045) checks the
-- same again.
SELECT CASE
  WHEN EXISTS (SELECT 1 FROM pg_catalog.pg_extension WHERE extname = 'citus') THEN 'citus'
  WHEN NOT EXISTS (SELECT 1 FROM pg_catalog.pg_am WHERE amname = 'columnar')
   AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_available_extensions
                   WHERE name = 'citus_columnar') THEN 'unavailable'
  ELSE '' END

-- name: columnar_make
-- init --columnar: clearing_record in columnar storage (045); how many
-- tables were converted (0: they were).
SELECT clearing_make_columnar()

-- name: columnar_is
-- Is clearing_record in columnar storage (itself, or its partitions)?
SELECT EXISTS (
  SELECT 1 FROM pg_catalog.pg_class c JOIN pg_catalog.pg_am a ON a.oid = c.relam
  WHERE a.amname = 'columnar'
    AND (c.oid = 'clearing_record'::pg_catalog.regclass
         OR c.oid IN (SELECT i.inhrelid FROM pg_catalog.pg_inherits i
                      WHERE i.inhparent = 'clearing_record'::pg_catalog.regclass)))

-- name: columnar_insert_new_ordered
-- apply.sql's apply_insert_new_ordered where clearing_record is in columnar
-- storage, which has no ON CONFLICT for a new row: a key committed
-- meanwhile is left out by its probe (one probe of the unique index a
-- record, classify.sql's; journaled after, as the rows ON CONFLICT skips
-- are), a key another load has inserted but not yet committed fails the
-- insert when that load commits (23505: the file is retried, and its next
-- classification finds the key).
WITH ins AS (
  INSERT INTO clearing_record ({record_columns})
  SELECT {record_columns}
  FROM (SELECT c.*
        FROM pg_temp.cl_pending c
        LEFT JOIN LATERAL ({classify_probe_exact}) r ON true
        WHERE {apply_unjournaled} AND r.tenant IS NULL) c
  ORDER BY kind, natural_key
  RETURNING 1)
SELECT count(*) FROM ins
