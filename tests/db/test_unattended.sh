# What a script needs from an unattended load: a bounded wait for the server
# (--wait-limit), SIGTERM rolling the file back with its name said, an
# endless input refused, and exit codes that tell retry (75) from
# configuration (78), a quarantine (8) from a hold (4), and a statement (9)
# from an invalid file (3).
. "$(dirname "$0")/lib.sh"
: "${CL_TOOLS:?}" "${CL_BIN_FP:?}"
db_new
cl init >/dev/null
"$CL_TOOLS/gen_ach" -n 50 >"$TMP/a.ach"
records() { q "select count(*) from clearing_record"; }

# --wait-limit: a session holds clearing_record locked; the loader's wait
# for it ends after 2 s with the file rolled back, exit 75, and the reason
psql -XAtq -c "begin; lock table clearing_record in access exclusive mode; select pg_sleep(120)" \
	>/dev/null 2>&1 &
holder=$!
i=0
until [ "$(q "select count(*) from pg_locks where relation = 'clearing_record'::regclass
              and mode = 'AccessExclusiveLock' and granted")" = 1 ]; do
	i=$((i + 1))
	[ "$i" -lt 3000 ] || fail "the lock holder never got its lock"
	sleep 0.01
done
expect_exit 75 cl load --wait-limit 2 "$TMP/a.ach"
grep -q "no answer from the server within the wait limit (2 s)" "$TMP/err" || fail "wait limit: $(cat "$TMP/err")"
grep -q "nothing from this file was applied" "$TMP/err" || fail "wait limit: rolled back not said"
q "select pg_terminate_backend(pid) from pg_stat_activity where query like '%pg_sleep(120)%' and pid <> pg_backend_pid()" >/dev/null
wait "$holder" 2>/dev/null || true
assert_eq "$(q "select count(*) from clearing_load where outcome = 'committed'")" 0 "nothing committed after the wait limit"
expect_exit 0 cl load "$TMP/a.ach"
assert_eq "$(records)" 50 "the same file loads once the lock is gone"

# --wait-limit at COMMIT: a proxy swallows the COMMIT and keeps the
# connection open (a hung pooler).  The wait ends after 2 s; the outcome is
# then settled by the load UUID: the old session went with its connection,
# nothing committed, and the retried file commits once.
srv_host=$(case "${PGHOST:-}" in '') q "select split_part(setting, ',', 1) from pg_settings
	where name = 'unix_socket_directories'" ;; *) echo "${PGHOST%%,*}" ;; esac)
set -- $("$CL_TOOLS/cut_proxy" --to "$srv_host" --to-port "$(q "show port")" --cut stall-commit \
	--events "$TMP/events" --daemon 2>"$TMP/proxy.err") || fail "cut_proxy did not start"
pport=$1
ppid=$2
"$CL_TOOLS/gen_ach" -n 30 --start 3000 >"$TMP/s.ach"
expect_exit 0 cl load --format json --wait-limit 2 --db "host=127.0.0.1 port=$pport dbname=$PGDATABASE" "$TMP/s.ach"
kill "$ppid" 2>/dev/null || true
grep -q "stall before-commit" "$TMP/events" || fail "the proxy never stalled a COMMIT"
grep -q '"outcome":"committed"' "$TMP/out" || fail "stalled COMMIT: $(cat "$TMP/out" "$TMP/err")"
grep -q '"retries":1' "$TMP/out" || fail "stalled COMMIT: not retried once: $(cat "$TMP/out")"
assert_eq "$(records)" 80 "the stalled file applied once"
set --

# TCP keepalives on by default (idle 60 s), off when the conninfo says
# keepalives=0: the loader's socket, seen by ss(8) while the loader is
# stopped mid-COPY behind a relaying proxy
if command -v ss >/dev/null 2>&1; then
	set -- $("$CL_TOOLS/cut_proxy" --to "$srv_host" --to-port "$(q "show port")" --cut none \
		--daemon 2>"$TMP/proxy.err") || fail "cut_proxy did not start"
	pport=$1
	ppid=$2
	"$CL_TOOLS/gen_ach" -n 2000 --start 5000 >"$TMP/k.ach"
	for ka in on off; do
		extra=
		[ "$ka" = off ] && extra=keepalives=0
		CL_FAILPOINT=mid_copy:stop "$CL_BIN_FP" load --db "host=127.0.0.1 port=$pport dbname=$PGDATABASE $extra" \
			"$TMP/k.ach" >/dev/null 2>&1 &
		pid=$!
		wait_stopped "$pid" "keepalives $ka: the loader (mid_copy)"
		ss -tnoHp state established | grep "pid=$pid," >"$TMP/ss" || true
		kill -TERM "$pid"
		kill -CONT "$pid"
		wait "$pid" 2>/dev/null || true
		grep -q "pid=$pid," "$TMP/ss" || fail "keepalives $ka: the loader's socket not found by ss"
		if [ "$ka" = on ]; then
			grep -q 'timer:(keepalive,[0-9.]*\(sec\|min\)' "$TMP/ss" || fail "keepalives not on by default: $(cat "$TMP/ss")"
		elif grep -q 'keepalive' "$TMP/ss"; then
			fail "keepalives=0 in the conninfo not honoured: $(cat "$TMP/ss")"
		fi
	done
	kill "$ppid" 2>/dev/null || true
	set --
else
	echo "note: no ss here: the keepalive check is skipped"
fi

# SIGTERM (and SIGINT) while the file is read: rolled back, the file named,
# exit 143 (130)
"$CL_TOOLS/gen_ach" -n 2000 --start 9000 >"$TMP/big.ach"
for sig in TERM:143 INT:130; do
	CL_FAILPOINT=mid_copy:stop "$CL_BIN_FP" load "$TMP/big.ach" "$TMP/a.ach" >"$TMP/t.out" 2>"$TMP/t.err" &
	pid=$!
	wait_stopped "$pid" "the loader (mid_copy)" "$TMP/t.err"
	kill -"${sig%:*}" "$pid"
	kill -CONT "$pid"
	set +e
	wait "$pid"
	rc=$?
	set -e
	assert_eq "$rc" "${sig#*:}" "SIG${sig%:*} exit status"
	grep -q "big.ach: interrupted by SIG${sig%:*}: rolled back, nothing from this file was applied" \
		"$TMP/t.err" || fail "SIG${sig%:*} message: $(cat "$TMP/t.err")"
	grep -q "interrupted: 1 more file not read" "$TMP/t.err" || fail "later files not said: $(cat "$TMP/t.err")"
	assert_eq "$(records)" 80 "nothing of the interrupted file applied"
done

# an endless input is refused at once, not spooled
expect_exit 3 cl load /dev/zero
grep -q "input starts with a NUL byte" "$TMP/err" || fail "/dev/zero: $(cat "$TMP/err")"

# quarantined (8) is not held (4)
cl load "$TESTDATA/demo/original.ach" >/dev/null
expect_exit 4 cl load "$TESTDATA/demo/changed-amount.ach"
expect_exit 8 cl load --on-conflict=quarantine "$TESTDATA/demo/changed-amount.ach"

# a cancellation request is not a clearing file: 9, and no load row (a bank
# statement is loaded as one: test_reconcile.sh)
n=$(q "select count(*) from clearing_load")
expect_exit 9 cl load "$TESTDATA/unsupported/pacs.028-minimal.xml"
assert_eq "$(q "select count(*) from clearing_load")" "$n" "an unsupported message leaves no load row"
expect_exit 9 cl diff "$TESTDATA/unsupported/pacs.028-minimal.xml"

# configuration (78): a role without privileges; a server that is not there
# is retry later (75)
role="cl_nopriv_$$" # roles are the cluster's: one per run
q "create role $role login password 'np'" >/dev/null
set +e
PGPASSWORD=np "$CL_BIN" load --db "host=127.0.0.1 port=$(q "show port") user=$role dbname=$PGDATABASE" \
	"$TMP/a.ach" >"$TMP/out" 2>"$TMP/err"
rc=$?
set -e
q "drop role $role" >/dev/null
assert_eq "$rc" 78 "no privileges: configuration ($(cat "$TMP/err"))"
grep -q "SQLSTATE 42501" "$TMP/err" || fail "permission denied: $(cat "$TMP/err")"
expect_exit 75 cl load --db "host=127.0.0.1 port=1" "$TMP/a.ach"

# the database refusing the load for another reason (here a trigger of the
# site's own): 5, nothing applied
q "create function refuse() returns trigger language plpgsql as
     \$\$ begin raise exception 'loads are frozen for the audit'; end \$\$;
   create trigger refuse before insert on clearing_load for each row execute function refuse()" >/dev/null
"$CL_TOOLS/gen_ach" -n 5 --start 7000 >"$TMP/c.ach"
expect_exit 5 cl load "$TMP/c.ach"
grep -q "loads are frozen for the audit (SQLSTATE P0001)" "$TMP/err" || fail "refused: $(cat "$TMP/err")"
echo ok
