-- columnar.sql - the statements of columnar storage (init --columnar,
-- migrations 045, 046 and 047, docs/design/0063-columnar-records.md,
-- 0064-columnar-on-citus.md and 0066): init's, and the
-- loader's where the storage refuses what it does on a heap
-- (loader/schema.c, loader/load.c, loader/apply.c).

-- name: columnar_refused
-- Why init --columnar cannot be done here, before anything is changed:
-- 'version' (a PostgreSQL before 15, which cannot change a table's
-- access method), 'unavailable' (no citus_columnar extension on this
-- server), 'privilege' (the extension is not created in this database and
-- this role, not a superuser, cannot create it: it is not a trusted
-- extension), 'owner' (on Citus, where the planner settings are the
-- database's, 046, and not yet set: this role neither a superuser nor the
-- database's owner), '' (it can).  clearing_make_columnar (046) checks
-- the extension and the settings again.
SELECT CASE
  WHEN pg_catalog.current_setting('server_version_num')::integer < 150000 THEN 'version'
  WHEN NOT EXISTS (SELECT 1 FROM pg_catalog.pg_am WHERE amname = 'columnar')
       AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_available_extensions
                       WHERE name = 'citus_columnar') THEN 'unavailable'
  WHEN NOT EXISTS (SELECT 1 FROM pg_catalog.pg_am WHERE amname = 'columnar')
       AND NOT (SELECT r.rolsuper FROM pg_catalog.pg_roles r
                WHERE r.rolname = CURRENT_USER) THEN 'privilege'
  WHEN EXISTS (SELECT 1 FROM pg_catalog.pg_extension WHERE extname = 'citus')
       AND NOT pg_catalog.pg_has_role(
             (SELECT d.datdba FROM pg_catalog.pg_database d
              WHERE d.datname = pg_catalog.current_database()), 'USAGE')
       AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_db_role_setting s
                       WHERE s.setrole = 0
                         AND s.setdatabase = (SELECT d.oid FROM pg_catalog.pg_database d
                                              WHERE d.datname = pg_catalog.current_database())
                         AND s.setconfig @> ARRAY['columnar.enable_custom_scan=off',
                                                  'enable_seqscan=off']) THEN 'owner'
  ELSE '' END

-- name: columnar_make
-- init --columnar: clearing_record in columnar storage (045, 046); how many
-- tables were converted (0: they were).
SELECT clearing_make_columnar()

-- name: columnar_lookups
-- init --columnar, after columnar_make: the indexes columnar storage does
-- without dropped (047: the records by day and amount).
SELECT clearing_columnar_lookups()

-- fragment: columnar_is_table
-- Is clearing_record (of the search path; none: false) in columnar
-- storage, itself or its partitions?
EXISTS (
  SELECT 1 FROM pg_catalog.pg_class c JOIN pg_catalog.pg_am a ON a.oid = c.relam
  WHERE a.amname = 'columnar'
    AND (c.oid = pg_catalog.to_regclass('clearing_record')
         OR c.oid IN (SELECT i.inhrelid FROM pg_catalog.pg_inherits i
                      WHERE i.inhparent = pg_catalog.to_regclass('clearing_record'))))

-- name: columnar_is
-- Is clearing_record in columnar storage?  (On Citus asked at connect,
-- loader/db.c; elsewhere columnar_session's row says it.)
SELECT {columnar_is_table}

-- name: columnar_session
-- A session's settings where clearing_record is in columnar storage (sent
-- after db_session_setup, whose search path it reads; nothing elsewhere;
-- not on Citus, where they are the database's: 046):
-- no columnar custom scan and no sequential scan where an index serves.
-- citus_columnar's planner hook prices a scan of the whole table (its
-- custom scan with chunk filters, or its sequential scan while the table
-- is a few stripes) at or below a probe of an index, whose cost it
-- raises by reading a whole stripe of every column: a probe per record of
-- a file then read the table once per record (classify_sample: 2,048
-- scans of 140,000 records, over 300 s).
SELECT pg_catalog.set_config('columnar.enable_custom_scan', 'off', false),
       pg_catalog.set_config('enable_seqscan', 'off', false)
WHERE {columnar_is_table}

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

-- name: columnar_insert_new_ordered_citus
-- columnar_insert_new_ordered on Citus, where cl_pending is then the
-- coordinator's copy (classify_pending_local_citus), which Citus joins
-- with no distributed table: the keys committed meanwhile were probed
-- first, in their shards, into cl_match (apply.sql, apply_raced_match_citus);
-- the pending records without a match are inserted, in key order.
WITH ins AS (
  INSERT INTO clearing_record ({record_columns})
  SELECT {record_columns}
  FROM pg_temp.cl_pending c
  WHERE {apply_unjournaled}
    AND NOT EXISTS (SELECT 1 FROM pg_temp.cl_match m WHERE m.ordinal = c.ordinal)
  ORDER BY kind, natural_key
  RETURNING 1)
SELECT count(*) FROM ins

-- name: columnar_match_empty
-- cl_match emptied after columnar_insert_new_ordered_citus inserted every
-- new record (the matches of records journaled before are not for
-- classify_match_journal_citus to read again).
DELETE FROM pg_temp.cl_match
