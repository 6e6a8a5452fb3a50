#!/bin/sh
# A large new NACHA file's near-duplicate probe on a second connection,
# run while the first COPYs its records into clearing_record
# (loader/near_side.c, docs/design/0059): the same answer as the probe
# after the COPY in every case, and that probe spared only when the
# second connection's answer is "none".  The failpoints name the path:
# near_side_sent (the probe sent: its connection is the second one),
# near_side_clear (its answer read, none found: reached only then).
. "$(dirname "$0")/lib.sh"
: "${CL_TOOLS:?}" "${CL_BIN_FP:?the failpoint build (make FAILPOINTS=1)}"
db_new
# a loader role allowed one connection (case 7)
ONE=cl_one_$$
role_new "$ONE" "login password 'pw' connection limit 1"
port=$(q "show port")
cl init ${CL_INIT_ARGS:-} --loader-role "$ONE" >/dev/null
assert_init_args

N=25000 # records of a large file: over CL_NEAR_SIDE_MIN (20,000)
gen() { _o=$1; shift; "$CL_TOOLS/gen_ach" --seed 7 "$@" >"$TMP/$_o"; }
field() { grep '"type":"file"' "$TMP/out" | json_field "$1"; }
load_of() { q "select min(load_id) from clearing_load where file_name like '%/$1'"; }
records_of() { q "select count(*) from clearing_record where load_id = $(load_of "$1")"; }
near_of() { q "select count(*) from clearing_dedupe_event where load_id = $(load_of "$1")
	       and reason = 'near_duplicate'"; }
all_records() { q "select count(*) from clearing_record"; }
# fp POINT:ACTION FILE: the failpoint build loads FILE; its exit status in rc
fp() {
	rc=0
	env CL_FAILPOINT="$1" "$CL_BIN_FP" load --format json "$TMP/$2" >"$TMP/out" 2>"$TMP/err" ||
		rc=$?
}

# the tenant's history: entries 1-100 of one originator
gen h --entries 100 --start 1 --effective 261201
cl_load "$TMP/h" >/dev/null || fail "history exited $?"

# 1. new indeed: the second connection finds no near duplicate and the
#    probe after the COPY is spared (killed there: nothing applied); then
#    loaded whole
gen n --entries $N --start 100001 --effective 261202
fp near_side_clear:kill n
assert_eq "$rc" 137 "new file: killed where the second connection's answer spares the probe: $(cat "$TMP/err")"
assert_eq "$(all_records)" 100 "new file killed: nothing applied"
cl_load "$TMP/n" >"$TMP/out" || fail "new file exited $?"
assert_eq "$(field outcome):$(field new):$(field conflict)" "committed:$N:0" "new file"
assert_eq "$(records_of n)" "$N" "new file: records"

# 2. re-dated copies of entries 50-100 in a large file: the second
#    connection finds them (near_side_clear never reached) and the file is
#    held with the 51 near duplicates the probe after the COPY journals
gen m --entries $N --start 50 --effective 261202
fp near_side_clear:kill m
assert_eq "$rc" 4 "re-dated copies: held, not killed: $(cat "$TMP/err")"
assert_eq "$(field outcome):$(field new)" held:0 "re-dated copies"
assert_eq "$(records_of m)" 0 "re-dated copies: nothing applied"
assert_eq "$(near_of m)" 51 "re-dated copies: near duplicates journaled"

# 3. the second connection's server process ended once its probe is
#    sent, or the connection cut by the loader: the probe after the COPY
#    answers, for a new file and for re-dated copies alike
gen n2 --entries $N --start 200001 --effective 261203
CL_FAILPOINT=near_side_sent:stop "$CL_BIN_FP" load --format json "$TMP/n2" >"$TMP/out" \
	2>"$TMP/err" &
pn=$!
wait_stopped $pn "the load of n2" "$TMP/err"
assert_eq "$(q "select count(pg_catalog.pg_terminate_backend(pid)) from pg_stat_activity
	       where query like '%FROM pg_temp.cl_near_side c%' and pid <> pg_backend_pid()")" 1 \
	"the second connection's server process ended"
kill -CONT $pn
rc=0
wait $pn || rc=$?
assert_eq "$rc:$(field outcome):$(field new)" "0:committed:$N" \
	"second connection ended, new file: $(cat "$TMP/err")"
gen m2 --entries $N --start 60 --effective 261203
fp near_side_sent:disconnect m2
assert_eq "$rc:$(field outcome):$(field new)" 4:held:0 \
	"second connection cut, re-dated copies: $(cat "$TMP/err")"
assert_eq "$(near_of m2)" 41 "second connection cut: near duplicates journaled"

# 4. killed with its probe sent: nothing applied; the same file then loads
gen n3 --entries $N --start 300001 --effective 261203
fp near_side_sent:kill n3
assert_eq "$rc" 137 "killed with the probe sent"
assert_eq "$(all_records)" $((100 + 2 * N)) "killed with the probe sent: nothing applied"
cl_load "$TMP/n3" >"$TMP/out" || fail "n3 after the kill exited $?"
assert_eq "$(field outcome):$(field new)" "committed:$N" "n3 after the kill"

# 5. a small file has no second connection (near_side_sent not reached)
gen s --entries 50 --start 400001 --effective 261203
fp near_side_sent:kill s
assert_eq "$rc:$(field outcome):$(field new)" 0:committed:50 "small file: $(cat "$TMP/err")"

# 6. racing: a load of entries 500001-500010, stopped before its commit
#    with its originator's lock held, and a large file with re-dated copies
#    of them.  The large file waits for the lock and sends its probe only
#    then: it sees the originals and is held; nothing is applied twice.
gen o --entries 10 --start 500001 --effective 261210
gen big --entries $N --start 500001 --effective 261211
CL_FAILPOINT=after_journal:stop "$CL_BIN_FP" load --format json "$TMP/o" >"$TMP/o.out" \
	2>"$TMP/o.err" &
po=$!
wait_stopped $po "the load of the originals" "$TMP/o.err"
"$CL_BIN" load --format json "$TMP/big" >"$TMP/out" 2>"$TMP/big.err" &
pb=$!
wait_advisory false 1 "the large file never waited for the originator's lock"
kill -CONT $po
rc=0
wait $po || rc=$?
assert_eq "$rc" 0 "the originals: $(cat "$TMP/o.err")"
rc=0
wait $pb || rc=$?
assert_eq "$rc:$(field outcome):$(field new)" 4:held:0 "the large file after the originals: $(cat "$TMP/big.err")"
assert_eq "$(near_of big)" 10 "the large file: its re-dated copies journaled"
assert_eq "$(q "select count(*) from clearing_dedupe_event
	       where load_id = $(load_of big) and matched_load_id = $(load_of o)")" 10 \
	"the large file: each near duplicate of the originals' load"
assert_eq "$(records_of o)" 10 "the originals: applied once"

# 7. a loader role allowed two connections opens the second (killed
#    there); allowed one, the second is refused, the load goes on without
#    it (near_side_sent not reached) and the probe after the COPY answers,
#    for re-dated copies and for a new file.  (Each load after the last
#    one's server processes are gone: they end after the loader does.)
one() {
	_i=0
	until [ "$(q "select count(*) from pg_stat_activity where usename = '$ONE'")" = 0 ]; do
		_i=$((_i + 1)); [ "$_i" -lt 3000 ] || fail "$ONE's connections never ended"; sleep 0.01
	done
	rc=0
	PGPASSWORD=pw CL_FAILPOINT=near_side_sent:kill "$CL_BIN_FP" load --format json \
		--db "host=127.0.0.1 port=$port user=$ONE dbname=$PGDATABASE" "$TMP/$1" \
		>"$TMP/out" 2>"$TMP/err" || rc=$?
}
gen m3 --entries $N --start 70 --effective 261204
q "alter role $ONE connection limit 2" >/dev/null
one m3
assert_eq "$rc" 137 "two connections allowed: the second opened: $(cat "$TMP/err")"
q "alter role $ONE connection limit 1" >/dev/null
one m3
assert_eq "$rc:$(field outcome):$(field new)" 4:held:0 "one connection, re-dated copies: $(cat "$TMP/err")"
assert_eq "$(near_of m3)" 31 "one connection: near duplicates journaled"
gen n4 --entries $N --start 600001 --effective 261204
one n4
assert_eq "$rc:$(field outcome):$(field new)" "0:committed:$N" "one connection, new file: $(cat "$TMP/err")"

# 9. the load ends before it reads the second connection's answer, its
#    probe still running: the probe is cancelled (cl_near_side_close), not
#    left to run on in the server.  The probe is held there for the test:
#    clearing_near_dates, which it calls for each record of the same near
#    identity as an applied one (entries 1-100 of the history, on another
#    date, so no near duplicate), sleeps an hour when called on the second
#    connection (the session that has pg_temp.cl_near_side), its server's
#    check of its client (client_connection_check_interval) off: only a
#    cancel ends it.  The loader is stopped at near_side_sent until that
#    probe sleeps.  (a) SIGINT then: the load fails; (b) the COPY fails on
#    an applied key the sample did not ask about: the load falls back.
#    Without the cancel the probe would sleep on (until the test's
#    database is dropped) and side_probe_ends fails.
side_probes() { q "select count(*) from pg_stat_activity where pid <> pg_backend_pid()
		   and query like '%FROM pg_temp.cl_near_side c%' and state = 'active'
		   ${1:+and wait_event = '$1'}"; }
side_probe_ends() {
	_i=0
	until [ "$(side_probes)" = 0 ]; do
		_i=$((_i + 1)); [ "$_i" -lt 3000 ] || fail "$1: the second connection's probe still runs"
		sleep 0.01
	done
}
# stopped PID: until its second connection's probe sleeps in the hold
probe_held() {
	wait_stopped "$1" "the load" "$TMP/err"
	_i=0
	until [ "$(side_probes PgSleep)" = 1 ]; do
		_i=$((_i + 1)); [ "$_i" -lt 3000 ] || fail "the second connection's probe never held"
		sleep 0.01
	done
}
nd=$(q "select p.oid::regprocedure from pg_proc p where p.proname = 'clearing_near_dates'")
ns=$(q "select pronamespace::regnamespace from pg_proc where oid = '$nd'::regprocedure")
q "select pg_get_functiondef('$nd'::regprocedure)" >"$TMP/near_dates.sql"
hold_probe() {
	psql -XAtq -v ON_ERROR_STOP=1 >/dev/null <<-EOF || fail "hold_probe"
	create or replace function $ns.clearing_near_dates(a date, b date) returns boolean
	language plpgsql volatile as \$\$
	begin
		if pg_catalog.to_regclass('pg_temp.cl_near_side') is not null then
			perform pg_catalog.set_config('client_connection_check_interval', '0', true);
			perform pg_catalog.pg_sleep(3600);
		end if;
		return a is null or b is null
			or (a between b - 9 and b + 9 and $ns.clearing_banking_days(a, b) <= 5);
	end \$\$;
	EOF
}
release_probe() { psql -XAtq -v ON_ERROR_STOP=1 -f "$TMP/near_dates.sql" >/dev/null; }
# held_load FILE: its load (pid in pn) stopped at near_side_sent, its
# probe held; clearing_near_dates itself again (the probe held sleeps on,
# and the first connection's own probe is not held)
held_load() {
	hold_probe
	CL_FAILPOINT=near_side_sent:stop "$CL_BIN_FP" load --format json "$TMP/$1" >"$TMP/out" \
		2>"$TMP/err" &
	pn=$!
	probe_held $pn
	release_probe
}
gen f --entries $N --start 1 --effective 261221
before=$(all_records)
held_load f
kill -INT $pn
kill -CONT $pn
rc=0
wait $pn || rc=$?
assert_eq "$rc:$(field outcome)" 130:failed "interrupted, its probe held: $(cat "$TMP/err")"
assert_eq "$(all_records)" "$before" "interrupted, its probe held: nothing applied"
side_probe_ends "interrupted"
cl_load "$TMP/f" >"$TMP/out" || fail "f after the interrupted load exited $?"
assert_eq "$(field outcome):$(field new)" "committed:$N" "f after the interrupted load"
# (b) entry 2 (unsampled: the sample of 25,000 keys asks every 16th and
#     the last, loader/key_sample.h) applied first
gen f2 --entries 1 --start 2 --effective 261211
cl_load "$TMP/f2" >/dev/null || fail "f2 exited $?"
gen f3 --entries $N --start 1 --effective 261211
held_load f3
kill -CONT $pn
rc=0
wait $pn || rc=$?
side_probe_ends "fallen back"
assert_eq "$rc:$(field outcome):$(field new):$(field duplicate)" "0:committed:$((N - 1)):1" \
	"an applied key unsampled, its probe held: $(cat "$TMP/err")"

# 10. each wait of the second connection's setup is given up after 10 s
#     (near_side.c, SETUP_WAIT_LIMIT) whatever the wait limit (here the
#     longest, a day): its connection attempt goes to a listener that
#     accepts it and never answers (tests/tools/cut_proxy --cut
#     stall-connect: the loader's second connection through it), as a
#     pooler with no server connection to spare.  The load goes on without
#     it (near_side_sent not reached: killed there otherwise) and commits.
#     Without the bound it would wait a day: the guard of 180 s fails it
#     (-k: the loader ends at a SIGTERM only once the connection attempt
#     ends).
set -- $("$CL_TOOLS/cut_proxy" --to 127.0.0.1 --to-port "$port" --cut stall-connect --nth 2 \
	--events "$TMP/events" --daemon 2>"$TMP/proxy.err") || fail "cut_proxy did not start"
pport=$1
ppid=$2
trap 'kill "$ppid" 2>/dev/null || true; _db_cleanup' EXIT
gen g --entries $N --start 800001 --effective 261208
rc=0
env -u PGCONNECT_TIMEOUT CL_FAILPOINT=near_side_sent:kill timeout -k 10 180 "$CL_BIN_FP" load \
	--wait-limit 86400 --format json --db "host=127.0.0.1 port=$pport dbname=$PGDATABASE" \
	"$TMP/g" >"$TMP/out" 2>"$TMP/err" || rc=$?
kill "$ppid"
assert_eq "$rc:$(field outcome):$(field new)" "0:committed:$N" \
	"second connection never answered: $(cat "$TMP/err")"
assert_eq "$(cat "$TMP/events")" "stall connect conn 2" "the second connection stalled"

# 8. on a partitioned schema: an ACCESS EXCLUSIVE lock of a partition
#    queued behind the load (as VACUUM FULL or LOCK TABLE queue) before
#    its second connection plans its probe.  The second gives up at once
#    (its lock_timeout): the load commits and the lock is granted; without
#    it the lock would wait for the load, the load for the second
#    connection's answer and that for the lock (here until the lock's own
#    timeout of 60 s, which then fails).
part=$(q "select c.relname from pg_inherits i join pg_class c on c.oid = i.inhrelid
	 where i.inhparent = 'clearing_record'::regclass order by 1 limit 1")
if [ -n "$part" ]; then
	gen n5 --entries $N --start 700001 --effective 261207
	CL_FAILPOINT=near_side_start:stop "$CL_BIN_FP" load --format json "$TMP/n5" >"$TMP/out" \
		2>"$TMP/err" &
	pn=$!
	wait_stopped $pn "the load of n5" "$TMP/err"
	psql -XAtq -1 -v ON_ERROR_STOP=1 -c "set local lock_timeout = '60s'" \
		-c "lock table $part in access exclusive mode" -c "select 'granted'" \
		>"$TMP/lock.out" 2>&1 &
	pl=$!
	_i=0
	until [ "$(q "select count(*) from pg_locks where relation = '$part'::regclass
		      and mode = 'AccessExclusiveLock' and not granted")" = 1 ]; do
		_i=$((_i + 1)); [ "$_i" -lt 3000 ] || fail "the lock of $part never queued"; sleep 0.01
	done
	kill -CONT $pn
	rc=0
	wait $pn || rc=$?
	assert_eq "$rc:$(field outcome):$(field new)" "0:committed:$N" \
		"a lock queued on $part: $(cat "$TMP/err")"
	rc=0
	wait $pl || rc=$?
	assert_eq "$rc:$(grep -x granted "$TMP/lock.out")" 0:granted \
		"the lock of $part, after the load: $(cat "$TMP/lock.out")"
fi
echo "ok   test_near_side"
