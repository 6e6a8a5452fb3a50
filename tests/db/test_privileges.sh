#!/bin/sh
# Least privilege (clearing-load(1) PRIVILEGES): init --loader-role,
# --reader-role, --consumer-role grant exactly what each needs, idempotently;
# a load as the loader role gives the owner's results, conflicts included;
# records, the journal and the load history are append-only for everyone
# (privileges, and triggers that refuse the owner too), maintenance goes
# through prune; row-level security limits a role to its tenants; --schema
# puts the tables in another schema.
. "$(dirname "$0")/lib.sh"
db_new
sfx=$$
LOADER=cl_loader_$sfx READER=cl_reader_$sfx CONSUMER=cl_consumer_$sfx OTHER=cl_other_$sfx
for r in $LOADER $READER $CONSUMER $OTHER; do
	role_new "$r" "login password 'pw'"
done
port=$(q "show port")
run_as() { # run_as ROLE COMMAND ARGS...
	_r=$1 _c=$2
	shift 2
	PGPASSWORD=pw "$CL_BIN" "$_c" --db "host=127.0.0.1 port=$port user=$_r dbname=$PGDATABASE" "$@"
}
psql_as() {
	PGPASSWORD=pw psql -XAtq -v ON_ERROR_STOP=1 "host=127.0.0.1 port=$port user=$1 dbname=$PGDATABASE" -c "$2"
}
D=$TESTDATA/demo

expect_exit 0 cl init --loader-role $LOADER --reader-role $READER --consumer-role $CONSUMER
grep -q "roles: 3 granted" "$TMP/out" || fail "init names the roles: $(cat "$TMP/out")"
grants() {
	q "select grantee, table_name, privilege_type from information_schema.role_table_grants
	   where grantee in ('$LOADER', '$READER', '$CONSUMER') order by 1, 2, 3"
}
grants >"$TMP/g1"
# idempotent: again, and with a stray privilege added by hand, exactly the same
q "grant update on clearing_load to $LOADER" >/dev/null
expect_exit 0 cl init
grants >"$TMP/g2"
cmp -s "$TMP/g1" "$TMP/g2" || fail "init again: grants differ: $(diff "$TMP/g1" "$TMP/g2")"

# exactly what each needs: never UPDATE, DELETE or TRUNCATE on what says what happened
for t in clearing_record clearing_dedupe_event clearing_load clearing_quarantine clearing_load_archive \
	clearing_feed_commit clearing_reconcile_break clearing_break_decision; do
	for r in $LOADER $READER $CONSUMER; do
		for p in UPDATE DELETE TRUNCATE; do
			assert_eq "$(q "select has_table_privilege('$r', '$t', '$p')")" f "$r $p on $t"
		done
	done
	assert_eq "$(q "select has_table_privilege('$READER', '$t', 'INSERT')")" f "reader INSERT on $t"
done
assert_eq "$(q "select has_table_privilege('$LOADER', 'clearing_record', 'INSERT')")" t "loader inserts records"
assert_eq "$(q "select has_table_privilege('$CONSUMER', 'clearing_dedupe_event', 'SELECT')")" f \
	"the consumer reads the feed, not the journal"
assert_eq "$(q "select has_table_privilege('$CONSUMER', 'clearing_feed_consumer', 'UPDATE')")" t \
	"the consumer acknowledges"
# decisions on breaks (027): a loader decides (clearing-load break), a
# reader reads them, the consumer neither
assert_eq "$(q "select has_table_privilege('$LOADER', 'clearing_break_decision', 'INSERT')")" t \
	"the loader decides"
assert_eq "$(q "select has_sequence_privilege('$LOADER', 'clearing_break_decision_seq', 'USAGE')")" t \
	"the loader numbers its decisions"
assert_eq "$(q "select has_table_privilege('$READER', 'clearing_break_decision', 'SELECT')")" t \
	"the reader reads the decisions"
assert_eq "$(q "select has_table_privilege('$CONSUMER', 'clearing_break_decision', 'SELECT')")" f \
	"the consumer does not"
expect_exit 0 run_as $LOADER break list
expect_exit 7 run_as $LOADER break write-off e1.1 --note "no such item"
expect_exit 0 run_as $READER break list
if psql_as $READER "insert into clearing_break_decision values ('default', 'entry', 'k', 'k', 1, 1,
	'e1.1', 'written_off', true, null, null, 'r', '', now())" 2>"$TMP/e"; then
	fail "a reader recorded a decision"
fi
grep -q "permission denied" "$TMP/e" || fail "reader's decision: $(cat "$TMP/e")"

# the same loads as the loader role and as the owner (in a second database):
# the same outcomes, records and journal, conflicts included
sequence() { # sequence RUNNER...: the loads, their exit codes
	for f in original.ach original.ach corrected.ach changed-amount.ach; do
		set +e
		"$@" load --format json "$D/$f" >/dev/null 2>>"$TMP/seq.err"
		echo "$f $?"
		set -e
	done
	set +e
	"$@" load --format json --on-conflict quarantine "$D/changed-amount.ach" >/dev/null 2>>"$TMP/seq.err"
	echo "quarantine $?"
	set -e
}
outcome_dump() {
	q "select l.outcome, l.record_count, l.new_count, l.duplicate_count, l.conflict_count
	   from clearing_load l order by l.load_id"
	q "select e.ordinal, e.reason, e.fields from clearing_dedupe_event e order by e.load_id, e.ordinal"
	q "select count(*) from clearing_quarantine"
}
sequence run_as $LOADER >"$TMP/codes_loader"
record_dump >"$TMP/rec_loader"
outcome_dump >"$TMP/out_loader"
owner_db=$PGDATABASE
PGDATABASE=${owner_db}_o
createdb "$PGDATABASE"
export PGDATABASE
cl init >/dev/null
sequence "$CL_BIN" >"$TMP/codes_owner"
record_dump >"$TMP/rec_owner"
outcome_dump >"$TMP/out_owner"
dropdb "$PGDATABASE"
PGDATABASE=$owner_db
export PGDATABASE
cmp -s "$TMP/codes_loader" "$TMP/codes_owner" ||
	fail "exit codes as loader and owner: $(diff "$TMP/codes_loader" "$TMP/codes_owner"); $(cat "$TMP/seq.err")"
grep -q "changed-amount.ach 4" "$TMP/codes_loader" || fail "the conflict is held: $(cat "$TMP/codes_loader")"
cmp -s "$TMP/rec_loader" "$TMP/rec_owner" || fail "records as loader and owner differ"
cmp -s "$TMP/out_loader" "$TMP/out_owner" ||
	fail "loads and journal as loader and owner: $(diff "$TMP/out_loader" "$TMP/out_owner")"

# append-only: the loader may not, the owner's stray script is refused too
set +e
psql_as $LOADER "update clearing_record set amount_minor = 0" >/dev/null 2>"$TMP/e1"
psql_as $LOADER "delete from clearing_load" >/dev/null 2>>"$TMP/e1"
set -e
assert_eq "$(grep -c "permission denied" "$TMP/e1")" 2 "the loader cannot rewrite: $(cat "$TMP/e1")"
for stmt in "update clearing_record set amount_minor = 0" "delete from clearing_dedupe_event" \
	"update clearing_load set new_count = 0" "delete from clearing_quarantine"; do
	set +e
	q "$stmt" >/dev/null 2>"$TMP/e2"
	rc=$?
	set -e
	[ "$rc" != 0 ] && grep -q "append-only" "$TMP/e2" || fail "owner: $stmt: $(cat "$TMP/e2")"
done
# maintenance goes through prune (journal retention), which may delete
n=$(q "select count(*) from clearing_dedupe_event where reason = 'duplicate'")
[ "$n" -gt 0 ] || fail "duplicates journaled"
expect_exit 0 cl prune --journal-before 2999-01-01 --duplicates-only
assert_eq "$(q "select count(*) from clearing_dedupe_event where reason = 'duplicate'")" 0 "prune removed"

# the reader reads; loading is refused and records nothing
n=$(q "select count(*) from clearing_load")
set +e
run_as $READER load "$D/original.ach" >/dev/null 2>"$TMP/e3"
rc=$?
set -e
assert_eq "$rc" 78 "a reader cannot load: $(cat "$TMP/e3")"
assert_eq "$(q "select count(*) from clearing_load")" "$n" "nothing recorded"
run_as $READER loads >"$TMP/loads_r" || fail "reader: loads"
[ "$(wc -l <"$TMP/loads_r")" -ge 5 ] || fail "reader sees the loads: $(cat "$TMP/loads_r")"
t=$(q "select trace_number from clearing_record where trace_number is not null limit 1")
run_as $READER show --trace "$t" >/dev/null || fail "reader: show"
run_as $READER diff "$D/corrected.ach" >"$TMP/diff_r" 2>"$TMP/diff_re" ||
	fail "reader: diff writes nothing, so a reader may run it: $(cat "$TMP/diff_re")"
cl diff "$D/corrected.ach" >"$TMP/diff_o"
# (the time each took aside)
sed -i 's/ in [0-9.]* s\b//' "$TMP/diff_r" "$TMP/diff_o"
cmp -s "$TMP/diff_r" "$TMP/diff_o" || fail "diff as reader and owner: $(diff "$TMP/diff_r" "$TMP/diff_o")"

# the consumer reads the feed and acknowledges; it cannot load
run_as $CONSUMER feed --consumer ledger --format json >"$TMP/feed" || fail "consumer: feed"
pos=$(grep '"feed_position"' "$TMP/feed" | tail -n 1 | json_field feed_position)
[ -n "$pos" ] || fail "feed records: $(head -c 300 "$TMP/feed")"
run_as $CONSUMER feed --consumer ledger --ack "$pos" >/dev/null || fail "consumer: ack"
set +e
run_as $CONSUMER load "$D/original.ach" >/dev/null 2>&1
rc=$?
set -e
assert_eq "$rc" 78 "a consumer cannot load"

# a role init never heard of gets nothing; a role that does not exist is 78
set +e
run_as $OTHER loads >/dev/null 2>&1
rc=$?
set -e
assert_eq "$rc" 78 "an unknown role reads nothing"
expect_exit 78 cl init --reader-role cl_no_such_role_$sfx
grep -q "does not exist" "$TMP/err" || fail "names the missing role: $(cat "$TMP/err")"

# row-level security: the loader may load tenant acme only, the reader sees acme only
expect_exit 0 cl init --tenant-access $LOADER=acme --tenant-access $READER=acme --row-security on
grep -q "row-level security on" "$TMP/out" || fail "init says so: $(cat "$TMP/out")"
n=$(q "select count(*) from clearing_record where tenant = 'default'")
set +e
run_as $LOADER load "$D/corrected.ach" >/dev/null 2>"$TMP/e4"
rc=$?
set -e
assert_eq "$rc" 78 "the loader cannot load another tenant: $(cat "$TMP/e4")"
assert_eq "$(q "select count(*) from clearing_record where tenant = 'default'")" "$n" "nothing applied"
run_as $LOADER load --tenant acme "$D/original.ach" >/dev/null || fail "loader: its own tenant"
assert_eq "$(psql_as $READER "select string_agg(distinct tenant, ',') from clearing_record")" acme \
	"the reader sees its tenant's records only"
assert_eq "$(psql_as $READER "select string_agg(distinct tenant, ',') from clearing_load")" acme \
	"... and its loads"
assert_eq "$(psql_as $READER "select count(*) from clearing_feed where tenant <> 'acme'")" 0 \
	"... also through the feed view"
run_as $READER loads >"$TMP/loads_rls"
grep -q " default " "$TMP/loads_rls" && fail "loads shows another tenant: $(cat "$TMP/loads_rls")"
grep -q " acme " "$TMP/loads_rls" || fail "loads shows its tenant: $(cat "$TMP/loads_rls")"
expect_exit 0 cl init --row-security off
assert_eq "$(psql_as $READER "select count(distinct tenant) from clearing_record")" 2 "off again"

# --schema: the tables in another schema; public is left alone
q "create schema ops" >/dev/null
expect_exit 78 cl init --schema nowhere
grep -q "does not exist" "$TMP/err" || fail "init in a missing schema: $(cat "$TMP/err")"
expect_exit 0 cl init --schema ops
assert_eq "$(q "select count(*) from pg_tables where schemaname = 'ops' and tablename = 'clearing_record'")" 1 \
	"init made the tables in ops"
n=$(q "select count(*) from public.clearing_record")
expect_exit 0 cl load --schema ops "$D/original.ach"
assert_eq "$(q "select count(*) from ops.clearing_record")" 15 "loaded into ops"
assert_eq "$(q "select count(*) from public.clearing_record")" "$n" "public untouched"
CLEARING_LOAD_SCHEMA=ops expect_exit 0 cl load "$D/original.ach"
assert_eq "$(q "select count(*) from ops.clearing_load")" 2 "CLEARING_LOAD_SCHEMA"
assert_eq "$(q "select duplicate_count from ops.clearing_load order by load_id desc limit 1")" 15 \
	"the second load in ops is all duplicate"
echo "privileges ok"
