#!/bin/sh
# A transient error (deadlock detected, 40P01; serialization failure,
# 40001) ends no command: the transaction that met it committed nothing and
# runs again, at most CL_DB_MAX_RETRIES (8) times, as a load's file does;
# -v says so.  Here init's roles transaction is made to deadlock with another
# session, deterministically: init stops at its failpoint holding
# clearing_role; the other session takes clearing_record, then waits for
# clearing_role; init goes on and wants clearing_record for row-level
# security: a cycle.  The other session's deadlock_timeout is long, so the
# server's check in init's session finds it and init is the one refused.
. "$(dirname "$0")/lib.sh"
: "${CL_BIN_FP:?CL_BIN_FP must name the failpoint build}"
db_new
cl init >/dev/null || fail "init"
R=cl_transient_reader_$$
role_new "$R" nologin

CL_FAILPOINT=init_roles_recorded:stop "$CL_BIN_FP" init -v --reader-role "$R" \
	--tenant-access "$R=other" --row-security on >"$TMP/init.out" 2>"$TMP/init.err" &
pid=$!
wait_stopped "$pid" "init (init_roles_recorded)" "$TMP/init.err"
psql -XAtq -v ON_ERROR_STOP=1 >"$TMP/other.out" 2>&1 <<'SQL' &
SET deadlock_timeout = '10min';
BEGIN;
LOCK TABLE clearing_record IN ACCESS SHARE MODE;
LOCK TABLE clearing_role IN EXCLUSIVE MODE;
COMMIT;
SELECT 'other session done';
SQL
other=$!
# until the other session waits for clearing_role (init holds it)
i=0
until [ "$(q "select count(*) from pg_locks where relation = 'clearing_role'::regclass
	and mode = 'ExclusiveLock' and not granted")" = 1 ]; do
	i=$((i + 1)); [ "$i" -lt 3000 ] || fail "the other session never waited for clearing_role"
	kill -0 "$other" 2>/dev/null || fail "the other session ended early: $(cat "$TMP/other.out")"
	sleep 0.01
done
kill -CONT "$pid"
# the retry: the same transaction from its start, at the failpoint again
wait_stopped "$pid" "init's retry (init_roles_recorded)" "$TMP/init.err"
kill -CONT "$pid"
set +e
wait "$pid"
rc=$?
wait "$other"
orc=$?
set -e
[ "$rc" = 0 ] || fail "init after a deadlock exited $rc: $(cat "$TMP/init.err")"
[ "$orc" = 0 ] || fail "the other session: $(cat "$TMP/other.out")"
grep -q 'other session done' "$TMP/other.out" || fail "the other session: $(cat "$TMP/other.out")"
grep -q 'deadlock detected (SQLSTATE 40P01): nothing was committed, retrying the transaction (retry 1 of 8)' \
	"$TMP/init.err" || fail "init -v does not say it retried: $(cat "$TMP/init.err")"
grep -q 'row-level security on' "$TMP/init.out" || fail "init's output: $(cat "$TMP/init.out")"
assert_eq "$(q "select relrowsecurity from pg_class where oid = 'clearing_record'::regclass")" t \
	"row-level security on after the retry"
assert_eq "$(q "select count(*) from clearing_tenant_access where role_name = '$R' and tenant = 'other'")" 1 \
	"the tenant access recorded once"
assert_eq "$(q "select has_table_privilege('$R', 'clearing_record', 'SELECT')")" t "the reader granted"

# without -v the retry is silent: same run, no failpoint, nothing on stderr
cl init --reader-role "$R" >/dev/null 2>"$TMP/quiet.err" || fail "init again"
[ ! -s "$TMP/quiet.err" ] || fail "init printed on stderr: $(cat "$TMP/quiet.err")"
echo "ok"
