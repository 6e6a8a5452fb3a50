-- commit.sql - finding out what became of a load whose COMMIT result was
-- lost (loader/commit.c).

-- name: commit_backend_alive
-- Is the backend of process id $1 (the session that sent the COMMIT)
-- still there?  One row while it runs.
SELECT 1 FROM pg_catalog.pg_stat_activity WHERE pid = $1::integer

-- name: commit_find_load
-- The load_id of load UUID $1, if its transaction committed.
SELECT load_id FROM clearing_load WHERE load_uuid = $1
