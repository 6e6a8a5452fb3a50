#!/bin/sh
# Run every tests/db/test_*.sh against a real PostgreSQL.
#
# With none of PGHOST, PGPORT, PGDATABASE, PGSERVICE set, the suite re-runs
# itself under `pg_virtualenv -t` (a throwaway cluster in a temporary
# directory, so that several suites can run at once, also as root).  Otherwise it uses the
# server those variables name.  Each test makes and drops its own database.
# A test that cannot reach a server fails: a skipped database test is a
# failure, not a pass.
set -u
here=$(cd "$(dirname "$0")" && pwd)
if [ -z "${PGHOST:-}${PGPORT:-}${PGDATABASE:-}${PGSERVICE:-}" ] && [ -z "${CL_IN_PGVENV:-}" ]; then
	command -v pg_virtualenv >/dev/null 2>&1 || {
		echo "db: pg_virtualenv not found (install postgresql-common, or set PGHOST)" >&2
		exit 1
	}
	# a server test_standby.sh can stream a replica of: WAL for replicas and
	# WAL senders (pg_createcluster's pg_hba.conf already has `replication`
	# lines, local peer and host scram-sha-256, which pg_virtualenv's
	# PGUSER and PGPASSWORD satisfy)
	CL_IN_PGVENV=1 exec pg_virtualenv -t -o wal_level=replica -o max_wal_senders=10 \
		-o max_replication_slots=10 sh "$here/run.sh" "$@"
fi
: "${CL_BIN:?CL_BIN must name the clearing-load binary}"
CL_ROOT="$(cd "$here/../.." && pwd)"
export CL_BIN CL_ROOT CL_TOOLS="${CL_TOOLS:-}"
export CL_OUT="${CL_OUT:-$CL_ROOT/tests/out/db}"
mkdir -p "$CL_OUT"
if ! psql -XAtqc 'select 1' postgres >/dev/null 2>&1; then
	echo "db: cannot connect to PostgreSQL (PGHOST=${PGHOST:-} PGPORT=${PGPORT:-})" >&2
	exit 1
fi
pass=0
fail=0
started=$(date +%s)
tests="$*"
[ -n "$tests" ] || tests=$(ls "$here"/test_*.sh 2>/dev/null)
for t in $tests; do
	name=$(basename "$t" .sh)
	# each test's wall time, so that a slow one is seen in CI's log
	t0=$(date +%s)
	if sh "$t" >"$CL_OUT/$name.log" 2>&1; then
		pass=$((pass + 1))
		echo "ok   $name ($(($(date +%s) - t0)) s)"
	else
		fail=$((fail + 1))
		echo "FAIL $name ($(($(date +%s) - t0)) s, log: $CL_OUT/$name.log)"
		tail -n 25 "$CL_OUT/$name.log" | sed 's/^/    /'
	fi
done
if [ $((pass + fail)) -eq 0 ]; then
	echo "db: no tests found" >&2
	exit 1
fi
echo "db${DOUBLE:+ (DOUBLE=$DOUBLE)}: $pass passed, $fail failed in $(($(date +%s) - started)) s"
[ "$fail" -eq 0 ]
