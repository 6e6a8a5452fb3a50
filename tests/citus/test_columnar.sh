#!/bin/sh
# clearing_record in columnar storage (init --columnar, migrations 045 and
# 046, docs/design/0063-columnar-records.md and 0064), on one PostgreSQL
# that has Citus 13.2's citus_columnar extension installed (make
# check-citus installs it; tests/citus/run.sh runs this on a plain
# database of its coordinator, and tests/db/run.sh can run it on a
# throwaway server of its own), and, with CL_DB_SETUP (tests/citus/run.sh
# again), in Citus databases: the distributed table's shards columnar.
#
# The storage refuses what the loader used to rely on in three places
# (045): ON CONFLICT for a new row (the ordered retry), AFTER ROW triggers
# (023's note of a return's shard), and UPDATE and DELETE.  Here: init
# converts a new database and one that holds records (their content and
# the dedupe unchanged); returns and NOCs noted under their own trace by the
# statement trigger; the storage itself refuses an UPDATE; then the
# database suite's tests of the load, the re-upload, a new file (staged
# here, never COPYed straight in), near duplicates under racing loaders,
# racing and killed loaders, the ordered retry (a key committed meanwhile,
# and one another load has inserted but not yet committed: 23505 and a
# second retry here), conflicts and resolve, returns, the feed and the
# count checks, as they are, in columnar storage; the
# re-upload proof on a partitioned table whose partitions are columnar.
. "$(dirname "$0")/../db/lib.sh"
: "${CL_TOOLS:?}" "${CL_BIN_FP:?}"
DB_TESTS="$CL_ROOT/tests/db"
citus=; [ -z "${CL_DB_SETUP:-}" ] || citus=1
# on Citus: every shard of clearing_record on both workers columnar
assert_shards_columnar() {
	[ -n "$citus" ] || return 0
	q "select result from run_command_on_workers(\$\$select count(*) filter (where a.amname = 'columnar')
		|| '/' || count(*) from pg_class c join pg_am a on a.oid = c.relam
		where c.relname ~ '^clearing_record_[0-9]+\$'\$\$) order by nodeport" >"$TMP/shards"
	[ "$(wc -l <"$TMP/shards")" = 2 ] && ! awk -F/ '$1 != $2 || $1 == 0' "$TMP/shards" | grep -q . ||
		fail "$1: the shards' storage (columnar/all on each worker): $(cat "$TMP/shards")"
}

# the index of the records by day and amount (021), which columnar storage
# does without (047): "yes" where the table has it (on Citus its shards
# too: none of them without it), "no" where neither has it
day_index() {
	_c=$(q "select count(*) from pg_class where relname = 'clearing_record_value_amount'")
	_s=0
	if [ -n "$citus" ]; then
		_s=$(q "select sum(result::bigint) from run_command_on_workers(\$\$select count(*)
			from pg_class where relname ~ '^clearing_record_value_amount_[0-9]+\$'\$\$)")
		_t=$(q "select sum(result::bigint) from run_command_on_workers(\$\$select count(*)
			from pg_class where relname ~ '^clearing_record_[0-9]+\$'\$\$)")
		[ "$_s" = 0 ] || [ "$_s" = "$_t" ] || { echo "some shards ($_s of $_t)"; return; }
	fi
	case "$_c/$_s" in
	1/0) [ -n "$citus" ] && echo "not in the shards" || echo yes ;;
	1/*) echo yes ;;
	0/0) echo no ;;
	*) echo "the table $_c, the shards $_s" ;;
	esac
}

# ---- a new database ----
db_new
cl init --columnar >"$TMP/init" || fail "init --columnar: $(cat "$TMP/init")"
grep -q "clearing_record in columnar storage" "$TMP/init" || fail "init said: $(cat "$TMP/init")"
CL_INIT_ARGS=--columnar assert_init_args
assert_shards_columnar "a new database"
assert_eq "$(day_index)" no "the index by day and amount in a new columnar database"
assert_eq "$(q "select tgtype & 1 from pg_trigger where tgrelid = 'clearing_record'::regclass
		and tgname = 'clearing_record_trace_shard'")" 0 "023's note: a statement trigger"
cl init --columnar >"$TMP/init" || fail "init --columnar again: $(cat "$TMP/init")"
grep -q "schema up to date at version .*, clearing_record in columnar storage" "$TMP/init" ||
	fail "init again said: $(cat "$TMP/init")"

# ---- returns and NOCs under their own trace (the statement trigger) ----
"$CL_TOOLS/gen_ach" --entries 300 --seed 5 --company-count 3 >"$TMP/day.ach"
cl load "$TMP/day.ach" >/dev/null || fail "entries"
cl load "$TESTDATA/near/returns-3000.ach" >/dev/null || fail "returns"
cl load "$TESTDATA/ach/corpus/rubyritas-ach/spec/ach/fixtures/return_noc.txt" >/dev/null ||
	fail "NOCs"
notes=$(q "select count(*) from (select distinct tenant, trace_number, shard from clearing_record
	   where kind in ('ach.return', 'ach.noc') and trace_number is not null) r")
[ "$notes" -gt 3000 ] || fail "returns and NOCs with a trace: $notes"
assert_eq "$(q "select count(*) from clearing_trace_shard")" "$notes" \
	"clearing_trace_shard: each return's and NOC's own trace and shard, once"
q "select trace_number, natural_key from clearing_record where kind = 'ach.noc'
	and shard <> clearing_shard_of(trace_number) order by 1, 2 limit 1" >"$TMP/own"
IFS='|' read -r t k <"$TMP/own" || fail "no NOC sharded away from its own trace"
cl show --trace "$t" --format json >"$TMP/show" || fail "show --trace $t: $(cat "$TMP/show")"
grep -F "\"natural_key\":\"$k\"" "$TMP/show" | grep -q '"matched_by":"trace_number"' ||
	fail "show --trace $t: its NOC $k not found: $(head -c 600 "$TMP/show")"

# ---- a value or its original: what show finds, one index scan a column ----
# (columnar storage has no bitmap scan: a lookup of trace_number OR
# original_trace read the tenant's records through the key index, over
# 300 s at 5.2M; its columnar form, history.sql, reads each column's
# index.  What show finds is what the OR finds; the plans read no other
# index and no whole table)
"$CL_TOOLS/gen_iso" --type pacs.008 --tx 200 --seed 3 >"$TMP/p8.xml"
"$CL_TOOLS/gen_iso" --type camt.056 --tx 50 --seed 3 >"$TMP/c56.xml"
"$CL_TOOLS/gen_iso" --type pacs.008 --tx 5 --seed 4 >"$TMP/p8o.xml"
cl load "$TMP/p8.xml" >/dev/null && cl load "$TMP/c56.xml" >/dev/null &&
	cl load --tenant other "$TMP/p8o.xml" >/dev/null || fail "pacs.008, camt.056 loads"
stmt() { "$CL_TOOLS/loader_sql" "$1"; }
# found OPTION VALUE: show's records (matched_by|kind|natural_key), sorted
found() {
	cl show "$1" "$2" --format json >"$TMP/found" || fail "show $1 $2: $(cat "$TMP/found")"
	python3 -c 'import json, sys
for l in sys.stdin:
    r = json.loads(l)
    if r["type"] == "record":
        print(r["matched_by"] + "|" + r["kind"] + "|" + r["natural_key"])' <"$TMP/found" | LC_ALL=C sort
}
# wanted COLUMN ORIGINAL VALUE: the records of the default tenant whose
# COLUMN or ORIGINAL is VALUE, as found prints them
wanted() {
	q "select case when $1 = '$3' then '$1' else '$2' end || '|' || kind || '|' || natural_key
	   from clearing_record where tenant = 'default' and ($1 = '$3' or $2 = '$3')" | LC_ALL=C sort
}
rt=$(q "select original_trace from clearing_record where kind = 'ach.return' order by 1 limit 1")
e2e=E2E-3-7
uetr=$(q "select uetr from clearing_record where end_to_end_id = '$e2e' and tenant = 'default'")
[ -n "$rt" ] && [ -n "$uetr" ] || fail "no return's original trace ($rt) or UETR ($uetr)"
assert_eq "$(found --trace "$t")" "$(wanted trace_number original_trace "$t")" "show --trace $t (a NOC's own)"
assert_eq "$(found --trace "$rt")" "$(wanted trace_number original_trace "$rt")" \
	"show --trace $rt (a return's original)"
assert_eq "$(found --e2e "$e2e")" "$(wanted end_to_end_id orgnl_end_to_end_id "$e2e")" "show --e2e"
upper=$(printf '%s' "$uetr" | tr a-f A-F)
assert_eq "$(found --uetr "$upper")" "$(wanted uetr orgnl_uetr "$uetr")" "show --uetr, in upper case"
assert_eq "$(found --e2e "$e2e" | cut -d'|' -f1 | tr '\n' ' ')" "end_to_end_id orgnl_end_to_end_id " \
	"show --e2e: the payment and its cancellation request"
# (more than shown: counted; none in the tenant: the other tenants')
cl show --e2e "$e2e" --limit 1 >/dev/null 2>"$TMP/more" || fail "show --limit 1: $(cat "$TMP/more")"
grep -q "2 records match; shown the first 1" "$TMP/more" || fail "the count: $(cat "$TMP/more")"
cl show --uetr "$uetr" --limit 1 >/dev/null 2>"$TMP/more" || fail "show --limit 1: $(cat "$TMP/more")"
grep -q "2 records match; shown the first 1" "$TMP/more" || fail "the count: $(cat "$TMP/more")"
expect_exit 7 cl show --e2e E2E-4-1
grep -q "hint: 1 record in other tenant: other; use --tenant" "$TMP/err" ||
	fail "the other tenants: $(cat "$TMP/err")"
# (the plans: each column's own index, and no other index or scan of
# clearing_record; on Citus in every shard's task)
explain_lookup() {
	printf '%s\n' "PREPARE l AS $(stmt "$1");" "EXPLAIN (COSTS OFF) EXECUTE l($2);" "DEALLOCATE l;"
}
{
	if [ -n "$citus" ]; then echo "SET citus.explain_all_tasks = on;"; else echo "$(stmt columnar_session);"; fi
	echo "SELECT clearing_shard_of('$rt') AS s \\gset"
	explain_lookup history_show_by_trace_columnar "'default', '$rt', 101, ARRAY[:s]::bigint[]"
	explain_lookup history_count_by_trace_columnar "'default', '$rt'"
	explain_lookup history_other_tenants_by_trace_columnar "ARRAY['other'], '$rt'"
	for c in e2e uetr; do
		v=$e2e
		[ $c = uetr ] && v=$uetr
		explain_lookup "history_show_by_${c}_columnar" "'default', '$v', 101"
		explain_lookup "history_count_by_${c}_columnar" "'default', '$v'"
		explain_lookup "history_other_tenants_by_${c}_columnar" "ARRAY['other'], '$v'"
	done
} >"$TMP/lookups.sql"
psql -XAtq -v ON_ERROR_STOP=1 -f "$TMP/lookups.sql" >"$TMP/lplans" 2>&1 ||
	fail "the lookups' plans: $(cat "$TMP/lplans")"
# (a trace's indexes with its date, 020, lead with the same columns)
for i in 'trace(_date)?' 'original_trace(_date)?' e2e orgnl_e2e uetr orgnl_uetr; do
	grep -Eq "Index.* using clearing_record_${i}(_[0-9]+)? on" "$TMP/lplans" ||
		fail "the lookups' plans do not use clearing_record_$i: $(cat "$TMP/lplans")"
done
if grep -E "Seq Scan|ColumnarScan|Bitmap|using clearing_record_key" "$TMP/lplans"; then
	fail "the lookups' plans read another index or the whole table: $(cat "$TMP/lplans")"
fi
# (reconcile's read of a statement's days: the storage's own scan, which
# skips the chunk groups of other days (0065), never an index: columnar
# storage has no index of the records by day and amount, 047; on Citus in
# every shard's task)
{
	if [ -n "$citus" ]; then
		echo "SET citus.explain_all_tasks = on;"
		echo "BEGIN;"
		echo "$(stmt reconcile_copy_scan_citus);"
	else
		echo "$(stmt columnar_session);"
		echo "BEGIN;"
	fi
	echo "$(stmt reconcile_copy_create);"
	echo "$(stmt reconcile_copy_scan);"
	echo "PREPARE d AS $(stmt reconcile_copy_days_columnar);"
	echo "EXPLAIN (COSTS OFF) EXECUTE d('default', ARRAY[DATE '2026-03-03', DATE '2026-03-04']);"
	echo "ROLLBACK;"
} >"$TMP/days.sql"
psql -XAtq -v ON_ERROR_STOP=1 -f "$TMP/days.sql" >"$TMP/dplan" 2>&1 ||
	fail "the days' plan: $(cat "$TMP/dplan")"
grep -q "ColumnarScan" "$TMP/dplan" || fail "the days are not read by the storage's scan: $(cat "$TMP/dplan")"
if grep -E "Index|Seq Scan" "$TMP/dplan"; then
	fail "the days are read by an index or a sequential scan: $(cat "$TMP/dplan")"
fi

# ---- a probe of a record is an index scan ----
# (the loader's sessions turn the columnar custom scan and sequential
# scans off, sql/loader/columnar.sql columnar_session: citus_columnar's
# cost model prices a scan of the whole table at or below an index probe
# while the table is a few stripes, and a probe per record then reads the
# table for each.  Here 3,900 records in a few stripes: the key sample's
# probe as the loader sends it, and the near probe's shape, for a thousand
# records; the settings sent nowhere else, checked on a heap database below)
if [ -n "$citus" ]; then
	# (on Citus the settings are the database's, 046, which every worker
	# has: a shard's query runs in a session Citus opens there; the key
	# sample's probe is a join in every shard's task)
	q "select result from run_command_on_workers(\$\$select current_setting('enable_seqscan')
		|| '|' || current_setting('columnar.enable_custom_scan')\$\$)" >"$TMP/plans"
	psql -XAtq -v ON_ERROR_STOP=1 >>"$TMP/plans" 2>&1 <<SQL || fail "plans: $(cat "$TMP/plans")"
SELECT pg_catalog.set_config('clearing_load.tenant', 'default', false);
SELECT array_agg(kind) AS ks, array_agg(natural_key || 'x') AS ns
FROM (SELECT kind, natural_key FROM clearing_record LIMIT 1000) c \\gset
PREPARE sample AS $(stmt classify_sample_keys_citus);
SET citus.explain_all_tasks = on;
EXPLAIN (COSTS OFF) EXECUTE sample('default', :'ks', :'ns');
SQL
	assert_eq "$(grep -c "^off|off$" "$TMP/plans")" 2 "the settings on both workers"
	assert_eq "$(grep -c "Index.* using clearing_record_key_[0-9]" "$TMP/plans")" \
		"$(q "select shard_count from citus_tables where table_name = 'clearing_record'::regclass")" \
		"the key sample's probe: an index scan in every shard's task"
	grep -q "Index.* using clearing_record_key_[0-9]" "$TMP/plans" &&
		! grep -q "ColumnarScan\|Seq Scan on clearing_record" "$TMP/plans" ||
		fail "the probes' plans: $(cat "$TMP/plans")"
else
psql -XAtq -v ON_ERROR_STOP=1 >"$TMP/plans" 2>&1 <<SQL || fail "plans: $(cat "$TMP/plans")"
$(stmt columnar_session);
SELECT pg_catalog.set_config('clearing_load.tenant', 'default', false);
CREATE TEMP TABLE c AS SELECT tenant, kind, natural_key || 'x' AS natural_key, near_key, shard,
       value_date FROM clearing_record LIMIT 1000;
ANALYZE c;
SELECT array_agg(kind) AS ks, array_agg(natural_key) AS ns FROM c \gset
PREPARE sample AS $(stmt classify_sample);
EXPLAIN (COSTS OFF) EXECUTE sample(:'ks', :'ns');
EXPLAIN (COSTS OFF) SELECT count(*) FROM c CROSS JOIN LATERAL (
  SELECT r.natural_key, r.load_id FROM clearing_record r
  WHERE r.tenant = c.tenant AND r.near_key = c.near_key AND r.shard = c.shard
    AND r.kind IS NOT DISTINCT FROM c.kind AND r.natural_key <> c.natural_key
  ORDER BY abs(r.value_date - c.value_date), r.load_id, r.ordinal LIMIT 1) r;
SQL
grep -q "off|off" "$TMP/plans" && grep -q "Index Scan using clearing_record_near_key" "$TMP/plans" &&
	grep -q "Index.* using clearing_record_key" "$TMP/plans" &&
	! grep -q "ColumnarScan\|Seq Scan on clearing_record" "$TMP/plans" ||
	fail "the probes' plans: $(cat "$TMP/plans")"
fi

# ---- the feed commit's check reads the load's records by their index ----
# (migration 048: a tenant the statistics do not know looked like a row or
# two in the natural-key index, which the check then walked, fetching each
# of the tenant's records by itself: 128 s at 20M records.  Here statistics
# that say so of every tenant (each one a record, a load the whole table),
# under which the check as 036 wrote it walks clearing_record_key.  One
# server: on Citus the check reads the load row, 036.  The plan as
# executed, by auto_explain, which a superuser alone may load)
if [ -z "$citus" ]; then
	"$CL_TOOLS/gen_iso" --type pain.001 --tx 100 --seed 5 >"$TMP/p1f.xml"
	cl load --tenant feeda "$TMP/p8.xml" >/dev/null || fail "pacs.008 into feeda"
	q "alter table clearing_record alter column tenant set (n_distinct = -1),
	   alter column load_id set (n_distinct = 1); analyze clearing_record" >/dev/null
	cl load --tenant feedb "$TMP/p1f.xml" >/dev/null || fail "pain.001 into feedb"
	fl=$(q "select max(load_id) from clearing_load where tenant = 'feedb'")
	assert_eq "$(q "select clearing_load_has_tenant($fl, 'feedb'), clearing_load_has_tenant($fl, 'feeda'),
			clearing_load_has_tenant($fl + 1000, 'feedb')")" "t|f|f" \
		"the load's records: of its tenant, not of another, none of a load that is not"
	if [ "$(q "select rolsuper from pg_roles where rolname = current_user")" = t ]; then
		psql -XAtq -v ON_ERROR_STOP=1 >"$TMP/fplan" 2>&1 <<SQL || fail "the check's plan: $(cat "$TMP/fplan")"
$(stmt columnar_session);
LOAD 'auto_explain';
SET auto_explain.log_min_duration = 0;
SET auto_explain.log_nested_statements = on;
SET client_min_messages = log;
SELECT clearing_load_has_tenant($fl, 'feedb');
SQL
		grep -q "Index.* using clearing_record_load_ordinal on clearing_record" "$TMP/fplan" &&
			! grep -q "clearing_record_key\|ColumnarScan\|Seq Scan on clearing_record" "$TMP/fplan" ||
			fail "the feed commit's check does not read the load's records by their index: $(cat "$TMP/fplan")"
	else
		echo "(not a superuser: the feed commit check's plan not read)"
	fi
	q "alter table clearing_record alter column tenant reset (n_distinct),
	   alter column load_id reset (n_distinct); analyze clearing_record" >/dev/null
fi

# ---- append-only by the storage too ----
# (past the append-only trigger, as a migration is: the storage refuses)
# (on Citus the setting sent to the workers, SET LOCAL propagated, and
# the shards' storage refuses: its table access method has no update or
# delete)
for stmt in "update clearing_record set amount_minor = 0" "delete from clearing_record"; do
	if psql -XAtq -v ON_ERROR_STOP=1 -c "begin" \
		${citus:+-c "set local citus.propagate_set_commands = 'local'"} \
		-c "set local clearing_load.maintenance = 'test'" -c "$stmt" \
		>"$TMP/q.out" 2>"$TMP/q.err"; then
		fail "$stmt: not refused"
	fi
	grep -q "not supported for ColumnarScan\|columnar_fetch_row_version not implemented\|columnar_tuple_delete not implemented" \
		"$TMP/q.err" || fail "$stmt: $(cat "$TMP/q.err")"
done

# ---- a database that holds records, converted ----
PGDATABASE=${PGDATABASE}_loaded
createdb "$PGDATABASE" || fail "createdb $PGDATABASE"
db_also_drop "$PGDATABASE"
[ -z "$citus" ] || sh "$CL_DB_SETUP" "$PGDATABASE" || fail "Citus in $PGDATABASE"
READER=cl_col_reader_$$
role_new "$READER" login
cl init --reader-role "$READER" --tenant-access "$READER=default" --row-security on >/dev/null
# (and what init does not make: a grant and a comment by hand)
HAND=cl_col_hand_$$
role_new "$HAND"
q "grant select on clearing_feed to $HAND; grant select on clearing_record to $HAND;
   comment on view clearing_feed is 'the feed, by hand'"
"$CL_TOOLS/gen_iso" --type pacs.008 --tx 200 --seed 3 >"$TMP/p8.xml"
"$CL_TOOLS/gen_iso" --type pain.001 --tx 200 --seed 4 >"$TMP/p1.xml"
for f in "$TMP/day.ach" "$TMP/p8.xml" "$TMP/p1.xml" "$TESTDATA/near/return.ach"; do
	cl load "$f" >/dev/null || fail "load $f"
done
record_dump >"$TMP/heap.dump"
# (grants, row security and the feed view's options, which Citus's
# conversion makes again on its twin of the table)
access() {
	q "select c.relname, c.reloptions,
		(select string_agg(x::text, ',' order by x::text) from unnest(c.relacl) x),
		c.relrowsecurity, c.relforcerowsecurity,
		obj_description(c.oid, 'pg_class'),
		(select string_agg(polname || ':' || pg_get_expr(polqual, polrelid), ',')
		 from pg_policy where polrelid = c.oid)
	   from pg_class c where c.relname in ('clearing_record', 'clearing_feed') order by 1"
}
access >"$TMP/heap.access"
assert_eq "$(day_index)" yes "the index by day and amount of a heap"
grep -q "security_invoker=on" "$TMP/heap.access" && grep -q "$HAND=r/" "$TMP/heap.access" &&
	grep -q "by hand" "$TMP/heap.access" || fail "row security, grants: $(cat "$TMP/heap.access")"
n=$(q "select count(*) from clearing_record")
# (show's lookups of a value or its original: their heap forms before the
# conversion, their columnar forms after it, each session asking the
# storage once: the failpoint show_columnar_lookup is reached only there)
: "${CL_BIN_FP:?CL_BIN_FP must name the failpoint build}"
CL_FAILPOINT=show_columnar_lookup expect_exit 0 "$CL_BIN_FP" show --e2e E2E-3-1
# (a load asks its file's key sample whether the file is new, which a
# columnar table never takes it for: asked of a heap, not once converted)
"$CL_TOOLS/gen_ach" --entries 50 --seed 31 --start 700000 >"$TMP/s31.ach"
CL_FAILPOINT=classify_sample expect_exit 137 "$CL_BIN_FP" load "$TMP/s31.ach"
# (and reconcile: a copy of the records on Citus and in columnar storage,
# the failpoint reconcile_copied reached once the copy is made)
echo "1 EUR DBIT 2026-03-03 e2e=E2E-3-1" |
	python3 "$CL_ROOT/tests/db/stmt_gen.py" account=DE00COL date=2026-03-03 seq=1 >"$TMP/st.xml"
set +e
CL_FAILPOINT=reconcile_copied "$CL_BIN_FP" reconcile "$TMP/st.xml" >"$TMP/rc.out" 2>&1
rc=$?
set -e
if [ -n "$citus" ]; then
	assert_eq "$rc" 137 "reconcile on Citus, heap shards: a copy made"
elif [ "$rc" = 137 ]; then
	fail "reconcile of a heap on one server made a copy: $(cat "$TMP/rc.out")"
fi
# (init --columnar alone, giving no role: what it leaves is the conversion's)
cl init --columnar >"$TMP/init" || fail "init --columnar of a loaded database: $(cat "$TMP/init")"
grep -q "clearing_record in columnar storage" "$TMP/init" || fail "init said: $(cat "$TMP/init")"
CL_INIT_ARGS=--columnar assert_init_args
assert_shards_columnar "a loaded database"
assert_eq "$(day_index)" no "the index by day and amount after the conversion"
CL_FAILPOINT=show_columnar_lookup expect_exit 137 "$CL_BIN_FP" show --e2e E2E-3-1
CL_FAILPOINT=reconcile_copied expect_exit 137 "$CL_BIN_FP" reconcile "$TMP/st.xml"
expect_exit 0 cl show --e2e E2E-3-1
if [ -n "$citus" ]; then
	# (the conversion's new table analyzed: statistics in every shard)
	assert_eq "$(q "select count(*) from run_command_on_shards('clearing_record',
		\$\$select count(*) from pg_statistic where starelid = '%s'::regclass\$\$)
		where result::bigint = 0")" 0 "shards without statistics after the conversion"
fi
record_dump >"$TMP/col.dump"
cmp -s "$TMP/heap.dump" "$TMP/col.dump" || fail "the records changed in the conversion"
access >"$TMP/col.access"
cmp -s "$TMP/heap.access" "$TMP/col.access" ||
	fail "access changed in the conversion: $(diff "$TMP/heap.access" "$TMP/col.access")"
for f in "$TMP/day.ach" "$TMP/p8.xml" "$TMP/p1.xml" "$TESTDATA/near/return.ach"; do
	cl load --format json "$f" >"$TMP/again.json" || fail "re-upload of $f: $(cat "$TMP/again.json")"
	assert_eq "$(json_field new <"$TMP/again.json")" 0 "re-upload of $f: new records"
done
assert_eq "$(q "select count(*) from clearing_record")" "$n" "the re-uploads applied nothing"
"$CL_TOOLS/gen_iso" --type pain.001 --tx 50 --start 1000 --seed 4 >"$TMP/more.xml"
cl load --format json "$TMP/more.xml" >"$TMP/more.json" || fail "a new file: $(cat "$TMP/more.json")"
assert_eq "$(json_field new <"$TMP/more.json")" 50 "a new file after the conversion"
CL_FAILPOINT=classify_sample expect_exit 0 "$CL_BIN_FP" load "$TMP/s31.ach"
# (a database made columnar before migration 047: its index dropped by the
# migration, not by init --columnar)
q "create index clearing_record_value_amount on clearing_record (tenant, value_date, amount_minor)
   where value_date is not null" >/dev/null
assert_eq "$(day_index)" yes "the index by day and amount made again by hand"
q "delete from clearing_schema_version where version >= 47" >/dev/null
cl init >"$TMP/init" || fail "init of a columnar database before 047: $(cat "$TMP/init")"
assert_eq "$(day_index)" no "the index by day and amount after migration 047"

# ---- init --columnar by a role that may not create the extension ----
# (citus_columnar is not a trusted extension: refused before anything is
# changed; once a superuser created it, the same role converts; on Citus
# only once it owns the database too, whose settings init then sets)
PGDATABASE=${PGDATABASE%_loaded}_role
createdb "$PGDATABASE" || fail "createdb $PGDATABASE"
db_also_drop "$PGDATABASE"
[ -z "$citus" ] || sh "$CL_DB_SETUP" "$PGDATABASE" || fail "Citus in $PGDATABASE"
OWNER=cl_col_owner_$$
role_new "$OWNER" "login password 'pw'"
q "grant create on schema public to $OWNER; grant create on database $PGDATABASE to $OWNER"
as_owner="host=127.0.0.1 port=$(q "show port") user=$OWNER dbname=$PGDATABASE"
expect_exit 78 env PGPASSWORD=pw "$CL_BIN" init --db "$as_owner" --columnar
grep -q "the citus_columnar extension is not created in this database, and only a superuser can create it" \
	"$TMP/err" || fail "init --columnar by $OWNER: $(cat "$TMP/err")"
assert_eq "$(q "select to_regclass('clearing_record') is null")" t "nothing created"
# (the settings of columnar_session: none on a heap table)
env PGPASSWORD=pw "$CL_BIN" init --db "$as_owner" >/dev/null || fail "init by $OWNER"
assert_eq "$(psql -XAtq -v ON_ERROR_STOP=1 -c "$(stmt columnar_session)" | wc -l)" 0 \
	"columnar_session on a heap table: nothing set"
q "create extension citus_columnar"
if [ -n "$citus" ]; then
	expect_exit 78 env PGPASSWORD=pw "$CL_BIN" init --db "$as_owner" --columnar
	grep -q "this role does not own the database" "$TMP/err" ||
		fail "init --columnar on Citus by $OWNER, not the owner: $(cat "$TMP/err")"
	assert_eq "$(q "select count(*) from pg_class c join pg_am a on a.oid = c.relam
		where c.oid = 'clearing_record'::regclass and a.amname = 'columnar'")" 0 \
		"nothing converted"
	q "alter database $PGDATABASE owner to $OWNER"
fi
env PGPASSWORD=pw "$CL_BIN" init --db "$as_owner" --columnar >"$TMP/init" ||
	fail "init --columnar by $OWNER, the extension created: $(cat "$TMP/init")"
CL_INIT_ARGS=--columnar assert_init_args
assert_shards_columnar "converted by $OWNER"
if [ -n "$citus" ]; then
	# (again by a role that does not own the database: nothing left to
	# convert or set, not refused)
	q "alter database $PGDATABASE owner to current_user"
	env PGPASSWORD=pw "$CL_BIN" init --db "$as_owner" --columnar >"$TMP/init" ||
		fail "init --columnar again by $OWNER, no longer the owner: $(cat "$TMP/init")"
	grep -q "clearing_record in columnar storage" "$TMP/init" || fail "init said: $(cat "$TMP/init")"
fi

# ---- the database suite's tests, in columnar storage ----
if [ -n "$citus" ]; then
	# (those the Citus suite runs as they are and that take init's
	# arguments: the ordered retry, whose columnar form on Citus probes
	# the keys committed meanwhile first, apply.c; the count checks.
	# tests/citus/run.sh races four loaders, one killed, in columnar
	# storage too)
	for t in test_ordered_retry test_internal_checks; do
		CL_INIT_ARGS=--columnar sh "$DB_TESTS/$t.sh" >"$TMP/$t.log" 2>&1 ||
			fail "$t in columnar storage on Citus: $(tail -n 20 "$TMP/$t.log")"
	done
	echo "ok: init --columnar on Citus (new and loaded databases, every shard), returns noted, index probes on the workers, UPDATE refused, the owner's refusal, 2 suites in columnar storage"
	exit 0
fi
# (not test_near_side: its second connection serves the path of a file
# taken for new, which columnar storage does not take: loader/load.c; not
# test_alt_key: it takes a database back to schema 5 and runs the
# migrations again, whose UPDATEs columnar storage refuses, as it would
# refuse them in a database converted after them)
# (and every reconcile suite: a copy of the records there, the days and
# files read by the storage's own scan, reconcile_copy.sql)
for t in test_load_reupload test_new_file test_concurrency test_ordered_retry test_near_race \
	test_conflicts test_return_keys test_feed test_kill test_internal_checks \
	$(cd "$DB_TESTS" && ls test_reconcile*.sh | sed 's/\.sh$//'); do
	CL_INIT_ARGS=--columnar sh "$DB_TESTS/$t.sh" >"$TMP/$t.log" 2>&1 ||
		fail "$t in columnar storage: $(tail -n 20 "$TMP/$t.log")"
done
CL_INIT_ARGS="--partitions 4 --columnar" sh "$DB_TESTS/test_load_reupload.sh" \
	>"$TMP/parts.log" 2>&1 ||
	fail "test_load_reupload, 4 columnar partitions: $(tail -n 20 "$TMP/parts.log")"
echo "ok: init --columnar (new and loaded databases), returns noted, index probes, lookups of a value or its original, UPDATE refused, 23 suites in columnar storage"
