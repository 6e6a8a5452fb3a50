#!/bin/sh
# The ordered retry (docs/design/0018), reached deterministically: a loader
# stopped after classifying (failpoint after_journal:stop) while another load
# commits keys of its file; its insert then fails on the unique index
# (23505), the attempt is rolled back and the whole file retried on the
# ordered path.  Stopped there again, a third load commits one of the keys
# the retry still takes for new: the ordered insert skips it (ON CONFLICT DO
# NOTHING) and journals it as the duplicate it now is (apply.c,
# journal_raced).  Every key applied once, every record of the file
# journaled or applied.  Then the same as a loader role under row security
# (init --row-security on), which on Citus writes the journal rows and the
# ordered insert from the coordinator (docs/design/0046).  And a key of
# the file inserted by another load not yet committed when the ordered
# insert runs (inflight).  CL_INIT_ARGS: init's arguments (--columnar:
# tests/citus/test_columnar.sh).
#
# ISO 20022 files: they take no originator lock (an ACH file's loads of one
# originator run one after the other), so the loads overlap.
. "$(dirname "$0")/lib.sh"
: "${CL_TOOLS:?}" "${CL_BIN_FP:?the failpoint build (make FAILPOINTS=1)}"
db_new
sfx=$$
LOADER=cl_ldr_$sfx
role_new "$LOADER" "login password 'pw'"
port=$(q "show port")
cl init ${CL_INIT_ARGS:-} --loader-role "$LOADER" >/dev/null
assert_init_args

# files TENANT TAG: the scenario's pain.001 files $TMP/TENANT.{p,x,y,z}.xml:
# transactions 1-10, 1-20, 15-30 and 12, message ids TAG-TENANT-*
files() {
	for f in p:1:10 x:1:20 y:15:16 z:12:1; do
		IFS=: read -r n s c <<EOF
$f
EOF
		"$CL_TOOLS/gen_iso" --type pain.001 --start "$s" --tx "$c" --msg-id "$2-$1-$n" \
			>"$TMP/$1.$n.xml"
	done
}

# scenario TENANT AS: pain.001 transactions 1-10 applied; the stopped load
# (1-20); a load of 15-30 commits; the retry, stopped again; a load of 12
# commits; the retry applies 11, 13 and 14 and journals 1-10, 12 and 15-20
# as duplicates.  AS is "" (the test's own role) or a login role.
scenario() {
	_t=$1 _as=$2
	_pw=${PGPASSWORD:-}
	if [ -n "$_as" ]; then
		set -- --db "host=127.0.0.1 port=$port user=$_as dbname=$PGDATABASE"
		_pw=pw
	else
		set --
	fi
	files "$_t" ORD
	PGPASSWORD=$_pw "$CL_BIN" load "$@" --tenant "$_t" "$TMP/$_t.p.xml" >/dev/null 2>"$TMP/p.err" ||
		fail "$_t: the first ten: $(cat "$TMP/p.err")"
	PGPASSWORD=$_pw CL_FAILPOINT=after_journal:stop "$CL_BIN_FP" load "$@" -v --tenant "$_t" \
		--format json "$TMP/$_t.x.xml" >"$TMP/x.json" 2>"$TMP/x.err" &
	_px=$!
	wait_stopped $_px "$_t: the load of 1-20" "$TMP/x.err"
	PGPASSWORD=$_pw "$CL_BIN" load "$@" --tenant "$_t" "$TMP/$_t.y.xml" >/dev/null 2>"$TMP/y.err" ||
		fail "$_t: 15-30 beside the stopped load: $(cat "$TMP/y.err")"
	kill -CONT $_px
	wait_stopped $_px "$_t: the retry of 1-20" "$TMP/x.err"
	grep -q "nothing was committed, retrying the whole file (retry 1)" "$TMP/x.err" ||
		fail "$_t: no retry: $(cat "$TMP/x.err")"
	PGPASSWORD=$_pw "$CL_BIN" load "$@" --tenant "$_t" "$TMP/$_t.z.xml" >/dev/null 2>"$TMP/z.err" ||
		fail "$_t: 12 beside the retry: $(cat "$TMP/z.err")"
	kill -CONT $_px
	set +e
	wait $_px
	_rc=$?
	set -e
	assert_eq "$_rc" 0 "$_t: the retried load: $(cat "$TMP/x.err")"
	grep -q "retry 2" "$TMP/x.err" && fail "$_t: retried twice: $(cat "$TMP/x.err")"
	assert_eq "$(json_field new <"$TMP/x.json")/$(json_field duplicate <"$TMP/x.json")" 3/17 \
		"$_t: the retry's new records and duplicates"
	assert_eq "$(q "select count(*) || ' ' || count(distinct natural_key) from clearing_record
		       where tenant = '$_t'")" "30 30" "$_t: transactions 1-30, each once"
	_x=$(q "select max(load_id) from clearing_load where file_name like '%$_t.x.xml'")
	_z=$(q "select max(load_id) from clearing_load where file_name like '%$_t.z.xml'")
	assert_eq "$(q "select count(*) from clearing_record where load_id = $_x")" 3 \
		"$_t: 11, 13 and 14 applied by the retried load"
	assert_eq "$(q "select count(*) from clearing_dedupe_event where load_id = $_x
		       and reason = 'duplicate'")" 17 "$_t: its 17 duplicates journaled"
	assert_eq "$(q "select count(*) from clearing_dedupe_event where load_id = $_x
		       and matched_load_id = $_z")" 1 "$_t: the key the ordered insert skipped, journaled"
	assert_eq "$(q "select count(*) || ' ' || count(distinct ordinal) from (
		       select ordinal from clearing_dedupe_event where load_id = $_x
		       union all select ordinal from clearing_record where load_id = $_x) s")" "20 20" \
		"$_t: each of the file's 20 records either applied or journaled"
}

# inflight TENANT: the same, but the load of 12 stopped after its insert
# (failpoint after_insert:stop), not committed, when the retry inserts: the
# retry's insert waits on the unique index for that load's transaction.
# When it commits, the retry skips the key and journals it (ON CONFLICT DO
# NOTHING), or, in columnar storage (CL_INIT_ARGS=--columnar), which has no
# ON CONFLICT for a new row, fails with 23505 and is retried a second
# time.  Either way the same records applied and journaled.
inflight() {
	_t=$1
	files "$_t" INF
	"$CL_BIN" load --tenant "$_t" "$TMP/$_t.p.xml" >/dev/null 2>"$TMP/p.err" ||
		fail "$_t: the first ten: $(cat "$TMP/p.err")"
	CL_FAILPOINT=after_journal:stop "$CL_BIN_FP" load -v --tenant "$_t" --format json \
		"$TMP/$_t.x.xml" >"$TMP/x.json" 2>"$TMP/x.err" &
	_px=$!
	wait_stopped $_px "$_t: the load of 1-20" "$TMP/x.err"
	"$CL_BIN" load --tenant "$_t" "$TMP/$_t.y.xml" >/dev/null 2>"$TMP/y.err" ||
		fail "$_t: 15-30 beside the stopped load: $(cat "$TMP/y.err")"
	kill -CONT $_px
	wait_stopped $_px "$_t: the retry of 1-20" "$TMP/x.err"
	CL_FAILPOINT=after_insert:stop "$CL_BIN_FP" load --tenant "$_t" "$TMP/$_t.z.xml" \
		>/dev/null 2>"$TMP/z.err" &
	_pz=$!
	wait_stopped $_pz "$_t: the load of 12" "$TMP/z.err"
	kill -CONT $_px
	# the retry's insert waits for the load of 12's transaction
	_i=0
	until [ "$(q "select count(*) from pg_stat_activity
		     where wait_event_type = 'Lock' and pid <> pg_backend_pid()")" = 1 ]; do
		_i=$((_i + 1)); [ "$_i" -lt 3000 ] || fail "$_t: the retry never waited for the load of 12"
		kill -0 $_px 2>/dev/null || fail "$_t: the retry ended first: $(cat "$TMP/x.err")"
		sleep 0.01
	done
	kill -CONT $_pz
	wait $_pz || fail "$_t: the load of 12: $(cat "$TMP/z.err")"
	case " ${CL_INIT_ARGS:-} " in
	*" --columnar "*)
		# the second retry stops at the failpoint too
		_retries=2
		wait_stopped $_px "$_t: the second retry of 1-20" "$TMP/x.err"
		kill -CONT $_px ;;
	*) _retries=1 ;;
	esac
	set +e
	wait $_px
	_rc=$?
	set -e
	assert_eq "$_rc" 0 "$_t: the retried load: $(cat "$TMP/x.err")"
	assert_eq "$(json_field retries <"$TMP/x.json")" "$_retries" "$_t: the retries"
	assert_eq "$(json_field new <"$TMP/x.json")/$(json_field duplicate <"$TMP/x.json")" 3/17 \
		"$_t: the retry's new records and duplicates"
	assert_eq "$(q "select count(*) || ' ' || count(distinct natural_key) from clearing_record
		       where tenant = '$_t'")" "30 30" "$_t: transactions 1-30, each once"
	_x=$(q "select max(load_id) from clearing_load where file_name like '%$_t.x.xml'")
	assert_eq "$(q "select count(*) || ' ' || count(distinct ordinal) from (
		       select ordinal from clearing_dedupe_event where load_id = $_x
		       union all select ordinal from clearing_record where load_id = $_x) s")" "20 20" \
		"$_t: each of the file's 20 records either applied or journaled"
}

scenario default ""
# (not on Citus: the retry's insert waits on a worker, which this
# session's pg_stat_activity does not show)
[ "$(q "select count(*) from pg_extension where extname = 'citus'")" = 1 ] || inflight waiting
cl init --tenant-access "$LOADER=acme" --row-security on >/dev/null
scenario acme "$LOADER"
echo ok
