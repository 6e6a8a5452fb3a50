# tests/db/proof_lib.sh - helpers of the exactly-once proof suites
# (test_failpoints, test_commit_cut, test_concurrency8, test_security,
# test_double_compare).  Sourced after lib.sh:
#
#   . "$(dirname "$0")/lib.sh"
#   . "$(dirname "$0")/proof_lib.sh"
#   tpl_init                      # a database with the schema, used as template
#   db_use NAME                   # a fresh copy of it as PGDATABASE (dropped on exit)
#   make_file FMT OUT N [ARGS]    # FMT ach | pain.001 | pacs.008, N records
#   check_invariants              # no key twice, journal agrees with the loads
#   state                         # per tenant and kind: count and amount sum
#   jsum FIELD FILE               # sum of FIELD over the "type":"file" objects
: "${CL_TOOLS:?CL_TOOLS must name the directory holding gen_ach and gen_iso}"

_proof_dbs=""
_proof_pids=""
_proof_cleanup() {
	for _p in $_proof_pids; do kill "$_p" 2>/dev/null || true; done
	for _d in $_proof_dbs; do dropdb --if-exists -f "$_d" >/dev/null 2>&1 || true; done
	_db_cleanup
}
trap _proof_cleanup EXIT

_proof_tag="$(basename "$0" .sh | sed 's/^test_//')_$$"

# tpl_init: make the template database (schema by `clearing-load init`).
tpl_init() {
	CL_TPL="cl_tpl_$_proof_tag"
	createdb "$CL_TPL" || fail "createdb $CL_TPL"
	_proof_dbs="$_proof_dbs $CL_TPL"
	PGDATABASE=$CL_TPL "$CL_BIN" init >"$TMP/init.out" 2>&1 || fail "init: $(cat "$TMP/init.out")"
}

# db_use NAME: a fresh database from the template, exported as PGDATABASE.
db_use() {
	_d="cl_${1}_$_proof_tag"
	dropdb --if-exists -f "$_d" >/dev/null 2>&1 || true
	createdb -T "$CL_TPL" "$_d" || fail "createdb $_d"
	_proof_dbs="$_proof_dbs $_d"
	export PGDATABASE="$_d"
}

# db_empty NAME: a fresh database without the schema.
db_empty() {
	_d="cl_${1}_$_proof_tag"
	dropdb --if-exists -f "$_d" >/dev/null 2>&1 || true
	createdb "$_d" || fail "createdb $_d"
	_proof_dbs="$_proof_dbs $_d"
	export PGDATABASE="$_d"
}

# make_file FMT OUT N [ARGS...]: a generated file of N record indexes.
make_file() {
	_fmt=$1 _out=$2 _n=$3
	shift 3
	case $_fmt in
	ach) "$CL_TOOLS/gen_ach" --entries "$_n" --batch-size 200 "$@" >"$_out" ;;
	pain.001 | pacs.008) "$CL_TOOLS/gen_iso" --type "$_fmt" --tx "$_n" "$@" >"$_out" ;;
	*) fail "make_file: unknown format $_fmt" ;;
	esac || fail "generating $_fmt file $_out"
}

# state: what one clean run must equal, per tenant and kind.
state() {
	q "select tenant, kind, count(*), sum(amount_minor) from clearing_record
	   group by tenant, kind order by tenant, kind"
}

# The content of clearing_record without positions or load references:
# equal for the same set of applied records whichever file applied each.
content_dump() {
	q "select tenant, kind, natural_key, key_rule, encode(fingerprint, 'hex'),
	          amount_minor, currency, direction, value_date
	   from clearing_record order by tenant, kind, natural_key"
}

# check_invariants: no record twice; every committed load's new count is
# the number of records it applied and its duplicate + conflict counts the
# number of journal rows it wrote; a held load applied nothing and
# journaled its conflicts; no record or journal row belongs to a load that
# was never recorded.
check_invariants() {
	_twice=$(q "select count(*) from (select 1 from clearing_record
		    group by tenant, kind, natural_key having count(*) > 1) t")
	assert_eq "$_twice" 0 "records applied twice"
	_bad=$(q "select coalesce(string_agg(load_id::text || ':' || outcome, ' '), '')
		  from clearing_load l where l.outcome = 'committed' and (
		  (select count(*) from clearing_record r where r.load_id = l.load_id) <> l.new_count or
		  (select count(*) from clearing_dedupe_event e where e.load_id = l.load_id)
		  <> l.duplicate_count + l.conflict_count)")
	assert_eq "$_bad" "" "loads whose counts disagree with clearing_record / the journal"
	# A held load applies nothing and keeps its conflicts in the journal.
	_bad=$(q "select coalesce(string_agg(load_id::text, ' '), '') from clearing_load l
		  where l.outcome = 'held' and (
		  exists (select 1 from clearing_record r where r.load_id = l.load_id) or
		  (select count(*) from clearing_dedupe_event e where e.load_id = l.load_id
		   and e.reason <> 'duplicate') <> l.conflict_count)")
	assert_eq "$_bad" "" "held loads that applied records or lost their conflicts"
	_orphans=$(q "select count(*) from clearing_record r where not exists (
		      select 1 from clearing_load l where l.load_id = r.load_id
		      and l.outcome in ('committed', 'quarantined'))")
	assert_eq "$_orphans" 0 "records of loads that did not commit"
	_orphans=$(q "select count(*) from clearing_dedupe_event e where not exists (
		      select 1 from clearing_load l where l.load_id = e.load_id)")
	assert_eq "$_orphans" 0 "journal rows of loads that never committed"
}

# jsum FIELD FILE: sum of FIELD over the "type":"file" objects in FILE.
jsum() {
	python3 -c '
import json, sys
t = 0
for line in open(sys.argv[2]):
    line = line.strip()
    if not line.startswith("{"):
        continue
    o = json.loads(line)
    if o.get("type") == "file":
        t += int(o.get(sys.argv[1]) or 0)
print(t)' "$1" "$2"
}

# jget FIELD FILE: FIELD of the first "type":"file" object in FILE.
jget() {
	python3 -c '
import json, sys
for line in open(sys.argv[2]):
    line = line.strip()
    if not line.startswith("{"):
        continue
    o = json.loads(line)
    if o.get("type") == "file":
        v = o.get(sys.argv[1])
        print("" if v is None else v)
        break' "$1" "$2"
}

# run_rc VAR CMD...: run CMD (stdout $TMP/run.out, stderr $TMP/run.err),
# store its exit status in VAR.
run_rc() {
	_var=$1
	shift
	set +e
	"$@" >"$TMP/run.out" 2>"$TMP/run.err"
	eval "$_var=\$?"
	set -e
}

# uuid_in FILE...: the first UUID printed in the files.
uuid_in() {
	grep -ohE '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}' "$@" 2>/dev/null |
		head -n 1
}

# pg_server_host / pg_server_port: where the server listens, for a proxy.
pg_server_port() { q "show port"; }
pg_server_host() {
	case "${PGHOST:-}" in
	'') q "select split_part(setting, ',', 1) from pg_settings where name = 'unix_socket_directories'" ;;
	*) echo "${PGHOST%%,*}" ;;
	esac
}
