#!/bin/sh
# tests/citus/cluster.sh - a throwaway Citus cluster on this machine, for
# the distributed tests (issue 31; docs/design/0023-citus-distribution.md).
#
#   sh tests/citus/cluster.sh COMMAND [ARG]...
#
# Installs Citus 13.2.2 for PostgreSQL 15 with ../shared/citus/build.sh
# beside the repository (root and apt; nothing to do when it is installed),
# then starts a coordinator and two workers: three clusters made by initdb
# under one temporary directory, each on 127.0.0.1 only with its own port,
# trust authentication on loopback, shared_preload_libraries = citus.  In
# the database postgres of each node: CREATE EXTENSION citus; on the
# coordinator citus_set_coordinator_host and citus_add_node for both
# workers.  Runs COMMAND with PGHOST, PGPORT, PGUSER naming the coordinator
# and CL_CITUS_WORKERS ("PORT PORT") and CL_DB_SETUP (tests/citus/dbsetup.sh:
# makes a new database a Citus one, see tests/db/lib.sh db_new), then stops
# the three servers and removes the directory, whatever COMMAND did; exits
# with COMMAND's status.  Every wait is bounded (pg_ctl -w -t).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
[ $# -gt 0 ] || { echo "usage: sh tests/citus/cluster.sh COMMAND [ARG]..." >&2; exit 2; }
pgbin=${PGBIN:-/usr/lib/postgresql/15/bin}
build=${CL_CITUS_BUILD:-$root/../shared/citus/build.sh}
[ -f "$build" ] || { echo "citus: $build not found (../shared beside the repository)" >&2; exit 1; }
if [ "$(id -u)" = 0 ]; then
	PG_CONFIG="$pgbin/pg_config" sh "$build" "${TMPDIR:-/tmp}/citus-build-$(id -u)"
	# initdb and postgres refuse root: the servers run as postgres
	as() { runuser -u postgres -- "$@"; }
else
	[ -f "$("$pgbin/pg_config" --pkglibdir)/citus.so" ] ||
		{ echo "citus: not installed, and installing needs root: sudo sh $build" >&2; exit 1; }
	as() { "$@"; }
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/cl-citus.XXXXXX")
chmod 755 "$dir"
[ "$(id -u)" != 0 ] || chown postgres "$dir"
nodes="coord w1 w2"
stop() {
	for n in $nodes; do
		[ ! -f "$dir/$n/postmaster.pid" ] ||
			as "$pgbin/pg_ctl" -D "$dir/$n" -m immediate -t 30 -w stop >/dev/null 2>&1 || true
	done
	rm -rf "$dir"
}
trap stop EXIT
trap 'exit 130' INT TERM

# three free ports on loopback (bound and let go; a race with another
# program taking one makes pg_ctl fail below, loudly)
ports=$(python3 -c '
import socket
s = [socket.socket() for _ in range(3)]
for x in s: x.bind(("127.0.0.1", 0))
print(" ".join(str(x.getsockname()[1]) for x in s))
for x in s: x.close()')
i=0
for n in $nodes; do
	i=$((i + 1))
	port=$(echo "$ports" | cut -d' ' -f$i)
	eval "port_$n=$port"
	as "$pgbin/initdb" -D "$dir/$n" -U postgres -A trust --no-sync -E UTF8 --locale=C.UTF-8 >"$dir/$n.initdb.log" 2>&1 ||
		{ cat "$dir/$n.initdb.log" >&2; exit 1; }
	# max_worker_processes: every database with Citus runs its maintenance
	# daemon (distributed deadlock detection, recovery of prepared
	# transactions) as a background worker, and the suites make a database
	# a test; the default 8 left later databases without one
	cat >>"$dir/$n/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$dir'
shared_preload_libraries = 'citus'
max_connections = 200
fsync = off
synchronous_commit = off
full_page_writes = off
shared_buffers = 64MB
max_prepared_transactions = 100
max_worker_processes = 128
citus.max_background_task_executors_per_node = 1
CONF
	# trust on loopback only: the throwaway servers listen nowhere else
	printf 'local all all trust\nhost all all 127.0.0.1/32 trust\n' >"$dir/$n/pg_hba.conf"
	as "$pgbin/pg_ctl" -D "$dir/$n" -l "$dir/$n.log" -w -t 60 start >/dev/null ||
		{ cat "$dir/$n.log" >&2; exit 1; }
done
psql_on() { _p=$1; shift; psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$_p" -U postgres -d postgres "$@"; }
for p in $port_coord $port_w1 $port_w2; do
	psql_on "$p" -c 'CREATE EXTENSION IF NOT EXISTS citus' >/dev/null
done
psql_on "$port_coord" -c "SELECT citus_set_coordinator_host('127.0.0.1', $port_coord)" \
	-c "SELECT citus_add_node('127.0.0.1', $port_w1)" \
	-c "SELECT citus_add_node('127.0.0.1', $port_w2)" >/dev/null
echo "citus: coordinator 127.0.0.1:$port_coord, workers :$port_w1 :$port_w2 ($dir)" >&2

export PGHOST=127.0.0.1 PGPORT="$port_coord" PGUSER=postgres
unset PGDATABASE PGSERVICE PGPASSWORD || true
export CL_CITUS_WORKERS="$port_w1 $port_w2" CL_DB_SETUP="$here/dbsetup.sh" CL_CITUS_DIR="$dir"
set +e
"$@"
rc=$?
set -e
exit "$rc"
