#!/bin/sh
# tests/citus/dbsetup.sh DBNAME - make the new database DBNAME of the
# coordinator (PGHOST, PGPORT) a Citus database: the same database on each
# worker (CL_CITUS_WORKERS, their ports on PGHOST), CREATE EXTENSION citus on
# every node, and on the coordinator the node registrations (Citus keeps
# them per database).  tests/db/lib.sh db_new runs it when CL_DB_SETUP names
# it (tests/citus/cluster.sh does).
set -eu
db=$1
: "${CL_CITUS_WORKERS:?}"
for w in $CL_CITUS_WORKERS; do
	PGOPTIONS="-c client_min_messages=warning" createdb -h "$PGHOST" -p "$w" "$db"
	psql -XAtq -v ON_ERROR_STOP=1 -h "$PGHOST" -p "$w" -d "$db" -c 'CREATE EXTENSION citus'
done
{
	echo 'CREATE EXTENSION citus;'
	echo "SELECT citus_set_coordinator_host('$PGHOST', $PGPORT);"
	for w in $CL_CITUS_WORKERS; do
		echo "SELECT citus_add_node('$PGHOST', $w);"
	done
} | psql -XAtq -v ON_ERROR_STOP=1 -d "$db" >/dev/null
