-- schema.sql - what `init` runs around the migrations, and the check that
-- every other command makes first (loader/schema.c).

-- name: schema_lock
-- Serialize every init: a transaction-level advisory lock on a constant
-- key (any constant will do, as long as it never changes).
SELECT pg_catalog.pg_advisory_xact_lock(7308604897068083200)

-- name: schema_namespace
-- Does schema $1 (--schema) exist?  When it does not, the first schema of
-- the search path that does would get the tables: the temporary one.
SELECT pg_catalog.to_regnamespace(pg_catalog.quote_ident($1)) IS NOT NULL

-- name: schema_create_version_table
-- The table of applied migrations, created by the first init.
CREATE TABLE IF NOT EXISTS clearing_schema_version (
 version integer PRIMARY KEY,
 name text NOT NULL,
 applied_at timestamptz NOT NULL DEFAULT now())

-- name: schema_current_version
-- The version of the newest migration applied (0 when none); every
-- command but init asks it first, and the table not there (undefined_table)
-- is a database init never ran on.
SELECT coalesce(max(version), 0) FROM clearing_schema_version

-- name: schema_count_partitions
-- The number of hash partitions of clearing_record.
SELECT count(*) FROM pg_catalog.pg_inherits
WHERE inhparent = 'clearing_record'::pg_catalog.regclass

-- name: schema_set_partitions
-- Tell the migration about to run how many hash partitions to create ($1),
-- for this transaction only.
SELECT pg_catalog.set_config('clearing_load.partitions', $1, true)

-- name: schema_record_version
-- Record migration $1 (its version), named $2, as applied.
INSERT INTO clearing_schema_version (version, name) VALUES ($1, $2)

-- name: schema_elsewhere
-- The other schemas of this database that hold clearing-load's tables (a
-- clearing_schema_version table), quoted and comma-separated ('' when none):
-- a command that found none under its --schema $1 names them.
SELECT coalesce(pg_catalog.string_agg(pg_catalog.quote_ident(n.nspname), ', '
				     ORDER BY n.nspname), '')
FROM pg_catalog.pg_class c
JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
WHERE c.relname = 'clearing_schema_version' AND c.relkind IN ('r', 'p')
  AND n.nspname <> $1 AND n.nspname !~ '^pg_(toast_)?temp_'
