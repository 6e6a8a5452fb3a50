#!/bin/sh
# What PRIVILEGES promises, tried against the database itself (clearing-load(1)
# PRIVILEGES, migration 024): every write a role must not make is refused,
# table by table and role by role; the load history, archive paths and feed
# commit numbers are written only through clearing-load's own functions, each
# for the caller's own load: a loader cannot forge a commit number (a
# consumer that acknowledged one far ahead would never receive a later load),
# a load row for a load it did not take, or an archive path for a load that
# does not exist; and loads, ingest and resolve still work as that loader.
. "$(dirname "$0")/lib.sh"
db_new
sfx=$$
LOADER=cl_ldr_$sfx READER=cl_rdr_$sfx CONSUMER=cl_csm_$sfx
for r in $LOADER $READER $CONSUMER; do
	role_new "$r" "login password 'pw'"
done
port=$(q "show port")
conn() { echo "host=127.0.0.1 port=$port user=$1 dbname=$PGDATABASE"; }
run_as() { _r=$1 _c=$2; shift 2; PGPASSWORD=pw "$CL_BIN" "$_c" --db "$(conn "$_r")" "$@"; }
# try ROLE SQL: exit 0 when the statement is refused for lack of privilege
# (SQLSTATE 42501); prints the error
try_refused() {
	set +e
	PGPASSWORD=pw psql -XAtq -v ON_ERROR_STOP=1 -v VERBOSITY=verbose "$(conn "$1")" -c "$2" \
		>/dev/null 2>"$TMP/try.err"
	_rc=$?
	set -e
	[ "$_rc" != 0 ] && grep -q "42501" "$TMP/try.err"
}
D=$TESTDATA/demo
expect_exit 0 cl init --loader-role $LOADER --reader-role $READER --consumer-role $CONSUMER
run_as $LOADER load "$D/original.ach" >/dev/null || fail "a load as the loader"

# every table and sequence of the schema, every role, every write: refused
# unless clearing_privilege grants it
checked=0
for rel in $(q "select c.relname from pg_class c
		where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p', 'S')
		  and c.relname like 'clearing%' and not c.relispartition order by 1"); do
	kind=$(q "select relkind from pg_class where oid = '$rel'::regclass")
	col=$(q "select attname from pg_attribute where attrelid = '$rel'::regclass and attnum > 0
		 and not attisdropped and attidentity = '' and attgenerated = '' order by attnum limit 1")
	for role in $LOADER $READER $CONSUMER; do
		rk=$(q "select role_kind from clearing_role where role_name = '$role'")
		granted=$(q "select coalesce((select privileges from clearing_privilege
			     where relation = '$rel' and role_kind = '$rk'), '')")
		if [ "$kind" = S ]; then
			try_refused $role "select setval('$rel', 1000000000)" ||
				fail "$role setval on $rel: $(cat "$TMP/try.err")"
			case $granted in *USAGE*) continue ;; esac
			try_refused $role "select nextval('$rel')" ||
				fail "$role nextval on $rel: $(cat "$TMP/try.err")"
			checked=$((checked + 1))
			continue
		fi
		for op in INSERT UPDATE DELETE TRUNCATE; do
			case ", $granted," in *", $op,"*) continue ;; esac
			case $op in
			INSERT) sql="insert into $rel default values" ;;
			UPDATE) sql="update $rel set $col = $col" ;;
			DELETE) sql="delete from $rel" ;;
			TRUNCATE) sql="truncate $rel" ;;
			esac
			try_refused $role "$sql" || fail "$role: $sql: $(cat "$TMP/try.err")"
			checked=$((checked + 1))
		done
	done
done
[ "$checked" -gt 100 ] || fail "only $checked writes tried"

# the three tables a loader used to insert into directly: no longer
for rel in clearing_feed_commit clearing_load clearing_load_archive; do
	assert_eq "$(q "select has_table_privilege('$LOADER', '$rel', 'INSERT')")" f "loader INSERT on $rel"
done
try_refused $LOADER "insert into clearing_feed_commit (commit_seq, load_id, tenant, records)
		      values (1000000000, 1, 'default', 1)" || fail "forged commit: $(cat "$TMP/try.err")"
try_refused $LOADER "select nextval('clearing_feed_seq')" || fail "feed sequence: $(cat "$TMP/try.err")"
# the functions refuse another session's load id, a load without records, a
# load row for an id not taken here, an archive path of no load
try_refused $LOADER "select clearing_take_feed_commit(1, 'default', 5)" ||
	fail "commit for a load not taken: $(cat "$TMP/try.err")"
grep -q "this session did not take that load id" "$TMP/try.err" || fail "why: $(cat "$TMP/try.err")"
try_refused $LOADER "select nextval(pg_get_serial_sequence('clearing_load', 'load_id'));
		      select clearing_take_feed_commit(currval(pg_get_serial_sequence('clearing_load', 'load_id')), 'default', 5)" ||
	fail "commit for a load without records: $(cat "$TMP/try.err")"
grep -q "applied no record" "$TMP/try.err" || fail "why: $(cat "$TMP/try.err")"
try_refused $LOADER "select clearing_write_load(1000000, gen_random_uuid(), 'default', 'x', 1, null,
		      null, null, null, null, null, null, 0, 0, 0, 0, 0, 'committed', null, 0)" ||
	fail "load row for a load not taken: $(cat "$TMP/try.err")"
try_refused $LOADER "select clearing_write_archive(1000000, '/tmp/x')" ||
	fail "archive path of no load: $(cat "$TMP/try.err")"
grep -q "no such load" "$TMP/try.err" || fail "why: $(cat "$TMP/try.err")"
for role in $READER $CONSUMER; do
	try_refused $role "select clearing_write_archive(1, '/tmp/x')" ||
		fail "$role calls a write function: $(cat "$TMP/try.err")"
done
assert_eq "$(q "select max(commit_seq) from clearing_feed_commit")" 1 "no commit number forged"
assert_eq "$(q "select count(*) from clearing_load")" 1 "no load row forged"

# row security: a loader may not write the history of a tenant it cannot see
expect_exit 0 cl init --tenant-access $LOADER=acme --row-security on
try_refused $LOADER "select clearing_write_archive(1, '/tmp/x')" ||
	fail "archive path of a hidden tenant: $(cat "$TMP/try.err")"
grep -q "row security hides its tenant" "$TMP/try.err" || fail "why: $(cat "$TMP/try.err")"
# ... and a new NACHA file, which is otherwise COPYed straight into the
# records (decision 0058), is staged: PostgreSQL refuses COPY FROM into a
# table whose row security is active for the role.  The failpoint
# direct_copied (reached only on that path) kills the loader if it is taken.
# On Citus the stage is a distributed table, kept out of row security
# (migration 043): the load COPYs into it, and its re-upload journals its
# duplicates from the workers' matches.
"${CL_TOOLS:?}/gen_ach" -n 40 --start 8000 >"$TMP/rls.ach"
for pass in new again; do
	set +e
	PGPASSWORD=pw env CL_FAILPOINT=direct_copied:kill "${CL_BIN_FP:?}" load --db "$(conn $LOADER)" \
		--tenant acme "$TMP/rls.ach" >/dev/null 2>"$TMP/rls.err"
	rc=$?
	set -e
	assert_eq "$rc" 0 "the NACHA file ($pass) under row security: $(cat "$TMP/rls.err")"
	assert_eq "$(q "select count(*) from clearing_record where tenant = 'acme'")" 40 \
		"its records applied once under row security ($pass)"
done
assert_eq "$(q "select count(*) from clearing_dedupe_event e join clearing_load l using (load_id)
	       where l.file_name like '%rls.ach' and e.reason = 'duplicate'")" 40 \
	"the re-upload's 40 duplicates journaled under row security"
# On Citus the stage is one table every loader role may write, without row
# security (migration 043): rows committed there under the load ids to come
# (copies of acme's records under other keys, as a role that guessed them
# would write) are never read by a load, which reads its own nonce's rows.
if [ "$(q "select count(*) from pg_extension where extname = 'citus'")" != 0 ]; then
	cols=$(q "select string_agg(case attname when 'natural_key' then 'natural_key || ''#planted'''
		  when 'load_id' then 'n' else quote_ident(attname) end, ', ' order by attnum)
		  from pg_attribute where attrelid = 'clearing_record'::regclass and attnum > 0
		  and not attisdropped")
	next=$(q "select last_value from $(q "select pg_get_serial_sequence('clearing_load', 'load_id')")")
	PGPASSWORD=pw psql -XAtq -v ON_ERROR_STOP=1 "$(conn $LOADER)" \
		-c "insert into clearing_stage select $cols, null, false
		    from clearing_record r, generate_series($next + 1, $next + 20) n
		    where r.tenant = 'acme'" >/dev/null 2>"$TMP/plant.err" ||
		fail "rows committed into the stage by the loader role: $(cat "$TMP/plant.err")"
	assert_eq "$(q "select count(*) from clearing_stage")" 800 "the rows planted for 20 load ids"
	"${CL_TOOLS:?}/gen_ach" -n 40 --start 9000 >"$TMP/rls2.ach"
	PGPASSWORD=pw "${CL_BIN:?}" load --db "$(conn $LOADER)" --tenant acme "$TMP/rls2.ach" \
		>/dev/null 2>"$TMP/rls2.err" || fail "a load beside planted stage rows: $(cat "$TMP/rls2.err")"
	assert_eq "$(q "select count(*) from clearing_record where tenant = 'acme'")" 80 \
		"its 40 records applied, not the planted ones"
	assert_eq "$(q "select count(*) from clearing_record where natural_key like '%#planted'")" 0 \
		"no planted row applied"
fi
# Under row security, the loads whose rows the loader writes from the
# coordinator's copy on Citus (docs/design/0046): near duplicates journaled
# and parked while the rest goes in (--on-conflict quarantine), then a held
# file's journal rows and parked records.  A re-dated copy of a payment is
# its near duplicate (another key, the same payment).
acme() { q "select count(*) from clearing_record where tenant = 'acme'"; }
before=$(acme)
"$CL_TOOLS/gen_ach" -n 50 --start 6000 -e 260302 >"$TMP/mon.ach"
"$CL_TOOLS/gen_ach" -n 60 --start 6000 -e 260303 >"$TMP/tue.ach"
"$CL_TOOLS/gen_ach" -n 70 --start 6000 -e 260304 >"$TMP/wed.ach"
run_as $LOADER load --tenant acme "$TMP/mon.ach" >/dev/null 2>"$TMP/mon.err" ||
	fail "Monday under row security: $(cat "$TMP/mon.err")"
# day NAME STATUS NEAR PARKED [OPTION]: NAME's file loaded as the loader
# under row security exits STATUS, its NEAR near duplicates journaled and
# PARKED records parked; sets $day_id to its load id
day() {
	_d=$1 _want=$2 _near=$3 _parked=$4
	shift 4
	set +e
	run_as $LOADER load --tenant acme "$@" "$TMP/$_d.ach" >/dev/null 2>"$TMP/$_d.err"
	_rc=$?
	set -e
	assert_eq "$_rc" "$_want" "$_d under row security: $(cat "$TMP/$_d.err")"
	day_id=$(q "select max(load_id) from clearing_load where file_name like '%$_d.ach'")
	assert_eq "$(q "select count(*) from clearing_dedupe_event
		       where load_id = $day_id and reason <> 'duplicate'")" "$_near" "$_d's near duplicates journaled"
	assert_eq "$(q "select count(*) from clearing_quarantine where load_id = $day_id")" "$_parked" \
		"$_d's records parked"
}
day tue 8 50 50 --on-conflict quarantine
tue=$day_id
assert_eq "$(acme)" "$((before + 60))" "Monday's 50 and Tuesday's 10 new records applied"
# held: its 60 near duplicates parked and the 10 records it would have applied
day wed 4 60 70
wed=$day_id
assert_eq "$(acme)" "$((before + 60))" "nothing of the held file applied"
# ... a pacs.008 and its re-upload, whose alternate keys go to their own
# shards on Citus (a repartitioned INSERT ... SELECT: INSERTs per shard)
"$CL_TOOLS/gen_iso" --type pacs.008 --tx 30 --msg-id RLS-PACS >"$TMP/rls.pacs.xml"
for pass in new again; do
	run_as $LOADER load --tenant acme "$TMP/rls.pacs.xml" >/dev/null 2>"$TMP/pacs.err" ||
		fail "pacs.008 ($pass) under row security: $(cat "$TMP/pacs.err")"
done
assert_eq "$(acme)" "$((before + 90))" "the pacs.008's 30 records applied once"
before=$((before + 30))
# ... and on Citus another pacs.008 and its re-upload with the repartitioned
# INSERT ... SELECT off, as on a schema of one shard: Citus then sends the
# alternate keys through the coordinator, as INSERTs with their RETURNING
# (COPY, refused under row security, without it)
if [ "$(q "select count(*) from pg_extension where extname = 'citus'")" != 0 ]; then
	"$CL_TOOLS/gen_iso" --type pacs.008 --tx 20 --seed 5 --msg-id RLS-PACS2 >"$TMP/rls.pacs2.xml"
	for pass in new again; do
		PGOPTIONS="-c citus.enable_repartitioned_insert_select=off" \
			run_as $LOADER load --tenant acme "$TMP/rls.pacs2.xml" >/dev/null 2>"$TMP/pacs.err" ||
			fail "pacs.008 ($pass) under row security, not repartitioned: $(cat "$TMP/pacs.err")"
	done
	assert_eq "$(acme)" "$((before + 80))" "its 20 records applied once"
	assert_eq "$(q "select count(*) from clearing_alt_key where tenant = 'acme'")" 100 \
		"both pacs.008s' alternate keys indexed, two each"
	before=$((before + 20))
	# Rows committed by the loader role into the exact-key matches and the
	# alternate-key stage (one table each, every loader may write them)
	# under the next 20 load ids: conflicts for ordinals 1-40, and copies of
	# acme's applied alternate keys under other natural keys (each would be
	# a near duplicate of a record that has it).  A load reads only its own
	# attempt's rows, by its nonce (044): a re-upload of the NACHA file is
	# all duplicate, a new pacs.008 all new, not held.  (RETURNING: Citus
	# then INSERTs the rows into the shards; COPY is refused under row
	# security.)
	next=$(q "select last_value from $(q "select pg_get_serial_sequence('clearing_load', 'load_id')")")
	PGPASSWORD=pw psql -XAtq -v ON_ERROR_STOP=1 "$(conn $LOADER)" \
		-c "insert into clearing_stage_match (shard, load_id, ordinal, position, tenant, kind,
		      natural_key, reason, matched_load_id, matched_ordinal, matched_position)
		    select 1, n, o, 1, 'acme', 'ach.entry', 'planted', 'conflict', 1, 1, 1
		    from generate_series($next + 1, $next + 20) n, generate_series(1, 40) o
		    returning 1" \
		-c "insert into clearing_alt_stage (shard, load_id, ordinal, position, tenant, kind, alt_key,
		      natural_key, journal_key, fingerprint, alt_fp, record_shard)
		    select a.shard, n, o, 1, a.tenant, a.kind, a.alt_key, a.natural_key || '#planted',
		           a.natural_key || '#planted', a.fingerprint, a.alt_fp, a.shard
		    from clearing_alt_key a, generate_series($next + 1, $next + 20) n,
		         generate_series(1, 20) o
		    where a.tenant = 'acme'
		    returning 1" >/dev/null 2>"$TMP/plant.err" ||
		fail "rows committed into the matches and the alternate-key stage: $(cat "$TMP/plant.err")"
	run_as $LOADER load --tenant acme --format json "$TMP/rls.ach" >"$TMP/again.json" 2>"$TMP/again.err" ||
		fail "a re-upload beside planted matches: $(cat "$TMP/again.json" "$TMP/again.err")"
	assert_eq "$(grep '"type":"file"' "$TMP/again.json" | json_field duplicate)" 40 \
		"the re-upload all duplicate, no planted conflict read"
	"$CL_TOOLS/gen_iso" --type pacs.008 --tx 20 --seed 9 --msg-id RLS-PACS3 >"$TMP/rls.pacs3.xml"
	run_as $LOADER load --tenant acme --format json "$TMP/rls.pacs3.xml" >"$TMP/p3.json" 2>"$TMP/p3.err" ||
		fail "a pacs.008 beside a planted alternate-key stage: $(cat "$TMP/p3.json" "$TMP/p3.err")"
	assert_eq "$(grep '"type":"file"' "$TMP/p3.json" | json_field new)" 20 \
		"the new pacs.008 all new, no planted alternate key read"
	before=$((before + 20))
fi
# ... and the resolutions of two of Tuesday's: the correction and both
# journal rows written from the coordinator on Citus
run_as $LOADER resolve --load "$tue" --ordinal 1 --accept >/dev/null 2>"$TMP/acc.err" ||
	fail "accept under row security: $(cat "$TMP/acc.err")"
run_as $LOADER resolve --load "$tue" --ordinal 2 --dismiss >/dev/null 2>"$TMP/dis.err" ||
	fail "dismiss under row security: $(cat "$TMP/dis.err")"
assert_eq "$(acme)" "$((before + 61))" "the correction applied under row security"
assert_eq "$(q "select string_agg(reason, ',' order by reason) from clearing_dedupe_event
	       where load_id > $wed and tenant = 'acme' and reason <> 'duplicate'")" correction,dismissal \
	"both resolutions journaled under row security"
# ... and a morning's reconcile and a break decided, as the loader under
# row security: a pain.001 of three, a statement booking two of them exactly
# and one entry of the bank's only; E2E-7-3 is ours unmatched.  On Citus
# reconcile reads the records from the shards and writes its runs, matches
# and decisions into the coordinator's tables (docs/design/0052).
A=DE10718999515662907726
"$CL_TOOLS/gen_iso" --type pain.001 --tx 3 --seed 7 --msg-id RLS-P1 >"$TMP/rls.p1.xml"
run_as $LOADER load --tenant acme "$TMP/rls.p1.xml" >/dev/null 2>"$TMP/p1.err" ||
	fail "pain.001 under row security: $(cat "$TMP/p1.err")"
amt() { q "select amount_minor from clearing_record where tenant = 'acme' and end_to_end_id = '$1'"; }
python3 "$CL_ROOT/tests/db/stmt_gen.py" account=$A date=2026-03-03 seq=1 >"$TMP/rls.s1.xml" <<S
$(amt E2E-7-1) EUR DBIT 2026-03-03 e2e=E2E-7-1
$(amt E2E-7-2) EUR DBIT 2026-03-03 e2e=E2E-7-2
4242 EUR CRDT 2026-03-03 e2e=THEIRS-ONLY
S
for pass in first again; do
	set +e
	run_as $LOADER reconcile --tenant acme --format json "$TMP/rls.s1.xml" >"$TMP/rec.json" 2>"$TMP/rec.err"
	rc=$?
	set -e
	assert_eq "$rc" 10 "reconcile ($pass) under row security: $(cat "$TMP/rec.err")"
	assert_eq "$(grep -c '"status":"matched"' "$TMP/rec.json")/$(grep -c '"status":"unmatched_theirs"' "$TMP/rec.json")/$(grep -c '"status":"unmatched_ours"' "$TMP/rec.json")" \
		2/1/1 "reconcile's items ($pass) under row security"
done
assert_eq "$(q "select count(*) from clearing_reconcile_match")" 2 "the two matches recorded once"
theirs=$(grep '"status":"unmatched_theirs"' "$TMP/rec.json" | sed -n 's/.*"id":"\(e[0-9.]*\)".*/\1/p')
[ -n "$theirs" ] || fail "no id for the bank's own entry: $(cat "$TMP/rec.json")"
run_as $LOADER break write-off "$theirs" --tenant acme --note "bank fee, booked by hand" \
	>/dev/null 2>"$TMP/brk.err" || fail "break write-off under row security: $(cat "$TMP/brk.err")"
set +e
run_as $LOADER reconcile --tenant acme --format json "$TMP/rls.s1.xml" >"$TMP/rec.json" 2>"$TMP/rec.err"
set -e
grep -q '"status":"written_off"' "$TMP/rec.json" ||
	fail "the written-off entry under row security: $(cat "$TMP/rec.json" "$TMP/rec.err")"
# psql's COPY FROM into the records is refused (one server: Citus runs a
# distributed table's COPY itself, and an empty one reaches no shard)
if [ "$(q "select count(*) from pg_extension where extname = 'citus'")" = 0 ]; then
	set +e
	PGPASSWORD=pw psql -XAtq -v ON_ERROR_STOP=1 "$(conn $LOADER)" \
		-c "copy clearing_record (tenant) from stdin" </dev/null >/dev/null 2>"$TMP/try.err"
	rc=$?
	set -e
	[ "$rc" != 0 ] && grep -q "row-level security" "$TMP/try.err" ||
		fail "COPY FROM into the records under row security: $rc $(cat "$TMP/try.err")"
fi
expect_exit 0 cl init --row-security off

# genuine work as the loader: loads (a conflict held), ingest with its
# archive rows, resolve with its correction in the feed
run_as $LOADER load "$D/corrected.ach" >/dev/null || fail "corrected as the loader"
set +e
run_as $LOADER load "$D/changed-amount.ach" >/dev/null 2>"$TMP/held.err"
rc=$?
set -e
assert_eq "$rc" 4 "held as the loader: $(cat "$TMP/held.err")"
held=$(q "select max(load_id) from clearing_load where outcome = 'held'")
ord=$(q "select min(ordinal) from clearing_quarantine where load_id = $held")
run_as $LOADER resolve --load "$held" --ordinal "$ord" --accept >/dev/null ||
	fail "resolve as the loader"
assert_eq "$(q "select count(*) from clearing_feed_commit f join clearing_load l using (load_id)
	       where l.reason like 'resolve:%' and l.tenant = 'default'")" 1 "the correction took its commit number"
mkdir -p "$TMP/inbox" "$TMP/archive"
"${CL_TOOLS:?}/gen_ach" -n 10 --start 7000 >"$TMP/inbox/new.ach"
run_as $LOADER ingest --min-age 0 --archive "$TMP/archive" "$TMP/inbox" >"$TMP/ingest.out" 2>"$TMP/ingest.err" ||
	fail "ingest as the loader: $(cat "$TMP/ingest.err")"
assert_eq "$(q "select count(*) from clearing_load_archive a join clearing_load l using (load_id)
	       where l.file_name like '%new.ach'")" 1 "the archive row, through its function: $(cat "$TMP/ingest.out" "$TMP/ingest.err")"
# commit numbers are the sequence's, in commit order, one per applying load
# of records (a statement's load stores statement items, which the feed
# does not carry)
assert_eq "$(q "select count(*) from clearing_feed_commit")" \
	"$(q "select count(*) from clearing_load l where new_count > 0 and outcome in ('committed', 'quarantined')
	      and not exists (select 1 from clearing_statement_item i where i.load_id = l.load_id)")" \
	"one commit per applying load"
echo ok
