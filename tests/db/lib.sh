# tests/db/lib.sh - sourced by every tests/db/test_*.sh.
#
#   . "$(dirname "$0")/lib.sh"
#   db_new                        # fresh database, PGDATABASE exported, dropped on exit
#                                 # (CL_DB_SETUP, when set, is run on its name)
#   db_also_drop NAME             # another database made by the test, dropped on exit
#   role_new NAME [OPTIONS]       # a role, dropped on exit after the databases
#   cl init                       # run clearing-load (CL_BIN) with args
#   expect_exit 3 cl load bad.ach # assert an exit code (stdout/stderr in $TMP/out, $TMP/err)
#   q "select count(*) from clearing_record"   # one value, unaligned
#   assert_init_args              # clearing_record as CL_INIT_ARGS asked init
#   assert_eq "$(q ...)" 42 "what it means"
#   cl_load FILE... [opts]        # `clearing-load load --format json`; with DOUBLE=1
#                                 # it loads twice and asserts the second run
#                                 # applied nothing and changed no clearing_record row
set -eu
export LC_ALL=C
: "${CL_BIN:?}"
CL_ROOT=${CL_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
TESTDATA="$CL_ROOT/testdata"
TMP=$(mktemp -d)
_db_also=""
# db_also_drop NAME: another database the test made, dropped on exit too
# (whether the test passed or failed midway)
db_also_drop() {
	_db_also="$_db_also $1"
}
_roles_made=""
# role_new NAME [OPTIONS]: CREATE ROLE NAME OPTIONS, dropped on exit (after
# the databases that hold its grants)
role_new() {
	psql -XAtq -v ON_ERROR_STOP=1 -c "create role $1 ${2:-}" >/dev/null || fail "create role $1"
	_roles_made="$_roles_made $1"
}
_db_cleanup() {
	if [ -n "${PGDATABASE:-}" ] && [ "${_db_made:-0}" = 1 ]; then
		dropdb --if-exists -f "$PGDATABASE" >/dev/null 2>&1 || true
	fi
	for _d in $_db_also; do
		dropdb --if-exists -f "$_d" >/dev/null 2>&1 || true
	done
	for _r in $_roles_made; do
		psql -XAtq -d postgres -c "drop role if exists $_r" >/dev/null 2>&1 || true
	done
	rm -rf "$TMP"
}
trap _db_cleanup EXIT

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

db_new() {
	_name="cl_$(basename "$0" .sh)_$$"
	createdb "$_name" || fail "createdb $_name"
	export PGDATABASE="$_name"
	_db_made=1
	# another kind of server (tests/citus/cluster.sh: a Citus database)
	[ -z "${CL_DB_SETUP:-}" ] || sh "$CL_DB_SETUP" "$_name" || fail "$CL_DB_SETUP $_name"
}

cl() {
	"$CL_BIN" "$@"
}

q() {
	psql -XAtq -v ON_ERROR_STOP=1 -c "$1"
}

assert_eq() {
	[ "$1" = "$2" ] || fail "${3:-values differ}: expected '$2', got '$1'"
}

expect_exit() {
	_want=$1
	shift
	set +e
	"$@" >"$TMP/out" 2>"$TMP/err"
	_got=$?
	set -e
	if [ "$_got" != "$_want" ]; then
		echo "--- stdout" >&2; cat "$TMP/out" >&2
		echo "--- stderr" >&2; cat "$TMP/err" >&2
		fail "expected exit $_want, got $_got: $*"
	fi
}

# A stable dump of the business content of clearing_record (no ids, times
# or load references), sorted: equal dumps mean equal applied records.
record_dump() {
	q "select tenant, kind, natural_key, key_rule, encode(fingerprint,'hex'),
	          amount_minor, currency, direction, value_date, position
	   from clearing_record order by tenant, kind, natural_key"
}

# json_field NAME: the value of "NAME": in the (first) JSON object on stdin.
json_field() {
	sed -n "s/.*\"$1\":\(\"[^\"]*\"\|[^,}]*\).*/\1/p" | tr -d '"' | head -n 1
}

# cl_load ARGS...: `clearing-load load --format json ARGS`; prints its stdout,
# returns its exit code.  DOUBLE=1: after a successful load, load again and
# fail unless the second run applied nothing and left clearing_record equal.
cl_load() {
	set +e
	"$CL_BIN" load --format json "$@" >"$TMP/load1.json" 2>"$TMP/load1.err"
	_rc=$?
	set -e
	cat "$TMP/load1.json"
	cat "$TMP/load1.err" >&2
	if [ "${DOUBLE:-}" = 1 ] && [ "$_rc" -eq 0 ]; then
		record_dump >"$TMP/before2"
		set +e
		"$CL_BIN" load --format json "$@" >"$TMP/load2.json" 2>"$TMP/load2.err"
		_rc2=$?
		set -e
		[ "$_rc2" -eq 0 ] || fail "DOUBLE: second load exited $_rc2: $(cat "$TMP/load2.err")"
		record_dump >"$TMP/after2"
		cmp -s "$TMP/before2" "$TMP/after2" || fail "DOUBLE: second load changed clearing_record"
		if grep '"type":"file"' "$TMP/load2.json" | grep -qv '"new":0[,}]'; then
			fail "DOUBLE: second load applied records: $(cat "$TMP/load2.json")"
		fi
	fi
	return "$_rc"
}

# assert_init_args: clearing_record is what CL_INIT_ARGS asked init for:
# hash-partitioned (--partitions), in columnar storage (--columnar).
assert_init_args() {
	case " ${CL_INIT_ARGS:-} " in
	*" --partitions "*)
		[ "$(q "select count(*) from pg_inherits
			where inhparent = 'clearing_record'::regclass")" -gt 1 ] ||
			fail "clearing_record is not partitioned" ;;
	esac
	case " ${CL_INIT_ARGS:-} " in
	*" --columnar "*)
		assert_eq "$(q "select count(*) filter (where a.amname <> 'columnar')
			from pg_class c join pg_am a on a.oid = c.relam
			where c.oid = 'clearing_record'::regclass
			   or c.oid in (select inhrelid from pg_inherits
					where inhparent = 'clearing_record'::regclass)")" 0 \
			"tables of clearing_record not in columnar storage" ;;
	esac
}

# wait_stopped PID WHAT [ERRFILE]: until process PID stops at a failpoint's
# :stop (state T); fails if it exits first (saying ERRFILE's text) or has
# not stopped after a minute.  WHAT names it in the message.
wait_stopped() {
	_i=0
	while [ "$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null || true)" != T ]; do
		_i=$((_i + 1))
		[ "$_i" -lt 6000 ] || fail "$2 never reached its failpoint"
		kill -0 "$1" 2>/dev/null || fail "$2 exited early${3:+: $(cat "$3")}"
		sleep 0.01
	done
}

# load_at_once TENANT FILE1 FILE2: two loaders started together on the two
# files under TENANT; their JSON reports in $TMP/r1 and $TMP/r2 (exit
# statuses are not checked: the caller asserts what the database holds).
load_at_once() {
	"$CL_BIN" load --tenant "$1" --format json "$2" >"$TMP/r1" 2>&1 &
	_p1=$!
	"$CL_BIN" load --tenant "$1" --format json "$3" >"$TMP/r2" 2>&1 &
	_p2=$!
	wait $_p1 || true
	wait $_p2 || true
}

# hold_recon_lock TENANT: a session of its own takes reconcile's lock of
# TENANT (sql/loader/reconcile.sql reconcile_lock) and holds it until
# release_recon_lock; returns once it is granted.
hold_recon_lock() {
	mkfifo "$TMP/rlock.in"
	psql -XAtq <"$TMP/rlock.in" >"$TMP/rlock.out" 2>&1 &
	_lockpid=$!
	exec 3>"$TMP/rlock.in"
	echo "begin; select pg_advisory_xact_lock(hashtextextended('clearing-load reconcile $1', 0));" >&3
	wait_advisory true 1 "the lock was never taken"
}
release_recon_lock() {
	echo "commit;" >&3
	exec 3>&-
	wait "$_lockpid"
	rm -f "$TMP/rlock.in"
}
# advisory GRANTED: how many advisory locks are held (true) or waited for
# (false)
advisory() { q "select count(*) from pg_locks where locktype = 'advisory' and granted = $1"; }
# wait_advisory GRANTED N WHY: until N advisory locks are held (true) or
# waited for (false); fails saying WHY after 30 s
wait_advisory() {
	_i=0
	until [ "$(advisory "$1")" = "$2" ]; do
		_i=$((_i + 1)); [ "$_i" -lt 3000 ] || fail "$3"; sleep 0.01
	done
}

# recon_st FILE: the items of reconcile --format json output FILE, one a
# line: "LINE STATUS REASON" for an entry, "ours KEY" for unmatched ours
recon_st() {
	sed -n 's/.*"status":"\([a-z_]*\)","reason":"\([a-z_]*\)".*"line":\([0-9]*\),.*/\3 \1 \2/p; s/.*"status":"unmatched_ours","reason":"\([a-z_]*\)".*"natural_key":"\([^"]*\)".*/ours \2/p' "$1"
}
