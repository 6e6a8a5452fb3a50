-- db.sql - the settings of every session (loader/db.c).

-- name: db_session_setup
-- A secure search path: pg_catalog first (implicitly), then schema $1,
-- the one of clearing-load's tables (--schema), and the temporary schema
-- last, so no temporary table can stand in for one of ours; every function
-- call names pg_catalog.  For this session only: no JIT (its compile time costs more than
-- it saves on our statements), enough work_mem for the classification join
-- of a million keys to hash in memory, temp_buffers for the stage table
-- (settable only before the session first touches a temporary table), ISO
-- dates, and a server that checks every 10 s that we are still there while
-- it runs a statement: a session whose client gave up (--wait-limit, a kill)
-- is rolled back then, not when its statement ends, so its locks go.
-- (Where clearing_record is in columnar storage, columnar.sql's
-- columnar_session follows.)
-- Its last column says whether the database is a Citus one (the citus
-- extension is in it), asked once here: a load then runs the Citus forms
-- of the statements whose probes Citus cannot push down (classify.sql,
-- docs/design/0038-loading-on-citus.md).
SELECT pg_catalog.set_config('search_path', pg_catalog.quote_ident($1) || ', pg_temp', false),
       pg_catalog.set_config('client_connection_check_interval', '10s', false),
       pg_catalog.set_config('jit', 'off', false),
       pg_catalog.set_config('work_mem', '64MB', false),
       pg_catalog.set_config('temp_buffers', '128MB', false),
       pg_catalog.set_config('datestyle', 'ISO, YMD', false),
       EXISTS (SELECT 1 FROM pg_catalog.pg_extension WHERE extname = 'citus') AS citus

-- Transaction control, for every module that opens a transaction.

-- name: db_begin
-- Open a transaction.
BEGIN

-- name: db_commit
-- Commit the open transaction.
COMMIT

-- name: db_rollback
-- Roll the open transaction back.
ROLLBACK

-- name: db_maintenance
-- This transaction is the documented maintenance command $1 (init's
-- migrations, prune): the append-only tables' triggers (migration 015) let
-- it through.  Transaction-local.
SELECT pg_catalog.set_config('clearing_load.maintenance', $1, true)
