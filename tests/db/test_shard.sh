#!/bin/sh
# The shard identity (rules/shard.h, migrations 022 and 023): one rule in
# C and in SQL; on the hash-partitioned schema each probe of a record goes
# to one partition, the near-duplicate probe included, and show --trace to
# the partitions of its shards; a database from before
# version 22 gets every record's shard when init upgrades it; the move of
# keys(7) copies a database into one split otherwise.
. "$(dirname "$0")/lib.sh"
: "${CL_TOOLS:?}"
V="$CL_ROOT/tests/db/shard_vectors.tsv"
db_new
cl init --partitions 4 >/dev/null

# ---- one rule: the vectors through rules/shard.c and clearing_shard ----
# (traces, keys too short to have the field, a 19-digit trace, non-ASCII
# ISO keys, empty keys)
"$CL_TOOLS/near_vectors" shards <"$V" >"$TMP/c.tsv" || fail "near_vectors shards"
n=$(wc -l <"$V" | tr -d ' ')
psql -XAtq -v ON_ERROR_STOP=1 >"$TMP/v.out" <<SQL || fail "shard vectors: $(cat "$TMP/v.out")"
CREATE TEMP TABLE v (no serial, kind text, natural_key text);
CREATE TEMP TABLE c (no int, shard bigint);
\copy v (kind, natural_key) from '$V' with (format csv, delimiter E'\t', quote E'\x01')
\copy c from '$TMP/c.tsv' with (format csv, delimiter E'\t', quote E'\x01')
SELECT count(*) FROM v JOIN c USING (no);
SELECT v.no || ': C ' || c.shard || ', SQL ' || public.clearing_shard(v.kind, coalesce(v.natural_key, ''))
FROM v JOIN c USING (no)
WHERE c.shard IS DISTINCT FROM public.clearing_shard(v.kind, coalesce(v.natural_key, ''))
ORDER BY v.no;
SQL
assert_eq "$(cat "$TMP/v.out")" "$n" "C and SQL shards of every vector (count, then differences)"
# an entry under either ACH key rule, its return and its NOC: one shard,
# the trace
assert_eq "$(cut -f2 "$TMP/c.tsv" | sed -n 1,6p | sort -u)" 121042880000001 "the trace is the shard"

# ---- every record the loader writes has the rule's shard ----
"$CL_TOOLS/gen_ach" --entries 3000 --seed 11 --effective 261201 >"$TMP/day1.ach"
"$CL_TOOLS/gen_ach" --entries 3000 --seed 11 --effective 261202 >"$TMP/day1-redated.ach"
"$CL_TOOLS/gen_iso" --type pacs.008 --tx 300 >"$TMP/p.xml"
"$CL_TOOLS/gen_iso" --type pain.001 --tx 300 >"$TMP/pain.xml"
cl load "$TMP/day1.ach" >/dev/null || fail "entries"
cl load "$TMP/p.xml" >/dev/null || fail "pacs.008"
cl load "$TMP/pain.xml" >/dev/null || fail "pain.001"
cl load "$TESTDATA/near/return.ach" >/dev/null || fail "returns"
cl load "$TESTDATA/ach/corpus/rubyritas-ach/spec/ach/fixtures/return_noc.txt" >/dev/null || fail "NOCs"
"$CL_TOOLS/gen_ach" --entries 200 --seed 12 --effective 261130 >"$TMP/batch.ach"
cl load --ach-key=batch "$TMP/batch.ach" >/dev/null || fail "v1-batch entries"
assert_eq "$(q "select string_agg(distinct kind, ',' order by kind) from clearing_record")" \
	"ach.entry,ach.noc,ach.return,pacs.008,pain.001" "the kinds loaded"
assert_eq "$(q "select count(*) from clearing_record where key_rule = 'v1-batch'")" 200 "v1-batch entries"
assert_eq "$(q "select count(*) from clearing_record where shard <> clearing_shard(kind, natural_key)")" 0 \
	"records whose shard is not the rule's"
assert_eq "$(q "select count(*) from clearing_record
	where kind = 'ach.entry' and shard <> trace_number::bigint
	   or kind in ('ach.return', 'ach.noc') and shard <> original_trace::bigint")" 0 \
	"ACH records not in the shard of their trace"
[ "$(q "select count(distinct tableoid) from clearing_record")" = 4 ] || fail "records not spread over the 4 partitions"

# ---- each probe in one partition ----
# The re-dated day: every entry is a near duplicate, found (held, exit 4).
expect_exit 4 cl load "$TMP/day1-redated.ach"
assert_eq "$(q "select count(*) from clearing_dedupe_event where reason = 'near_duplicate'")" 3000 \
	"near duplicates found across partitions"
# The loader's near-duplicate statement, run on the re-dated copies of 500
# applied entries as the loader runs it, under EXPLAIN ANALYZE: each
# partition's near index is probed only for the copies of its shard (the
# loops of the four add up to 500, one partition a copy; without the shard
# in the probe each is probed 500 times).
stmt() { "$CL_TOOLS/loader_sql" "$1" | python3 "$CL_ROOT/tests/tools/plan_check.py" unwrap; }
psql -XAtq -v ON_ERROR_STOP=1 >"$TMP/near.json" 2>"$TMP/near.err" <<SQL || fail "near statement: $(cat "$TMP/near.err")"
BEGIN;
SELECT set_config('clearing_load.tenant', 'default', true),
       set_config('clearing_load.load_id', '999999', true) \g /dev/null
$(stmt stage_create) \g /dev/null
INSERT INTO pg_temp.cl_stage SELECT r.*, NULL FROM clearing_record r
WHERE r.kind = 'ach.entry' AND r.key_rule = 'v1' ORDER BY r.load_id, r.ordinal LIMIT 500;
UPDATE pg_temp.cl_stage SET value_date = value_date + 1, load_id = 999999,
	natural_key = company_id || '|' || trace_number || '|' || (value_date + 1)::text;
$(stmt classify_event_create) \g /dev/null
$(stmt classify_pending_all) \g /dev/null
EXPLAIN (ANALYZE, FORMAT JSON) $(stmt classify_near)
ROLLBACK;
SQL
python3 - "$TMP/near.json" >"$TMP/loops" <<'PY' || fail "near plan: $(cat "$TMP/loops")"
import json, sys
text = open(sys.argv[1]).read()
plan = json.loads(text[text.index('['):])
loops = {}
def walk(n):
    if n.get("Index Name", "").endswith("near_key_value_date_idx"):
        loops[n["Relation Name"]] = loops.get(n["Relation Name"], 0) + n.get("Actual Loops", 0)
    for c in n.get("Plans", []):
        walk(c)
walk(plan[0]["Plan"])
print(len(loops), sum(loops.values()), max(loops.values()))
PY
read -r parts total most <"$TMP/loops"
assert_eq "$parts" 4 "partitions whose near index the plan holds"
assert_eq "$total" 500 "near-index probes of 500 staged records (one partition each)"
[ "$most" -lt 500 ] || fail "one partition probed for every record: $(cat "$TMP/loops")"

# The stage is partitioned as the table is (sql/loader/stage.sql): every
# staged record in the partition of the same bounds as the one that holds
# its key (the INSERT of the new records then fills one partition after
# another).
psql -XAtq -v ON_ERROR_STOP=1 >"$TMP/stage.out" 2>&1 <<SQL || fail "stage: $(cat "$TMP/stage.out")"
BEGIN;
$(stmt stage_create) \g /dev/null
INSERT INTO pg_temp.cl_stage SELECT r.*, NULL FROM clearing_record r;
SELECT count(*) FROM pg_inherits WHERE inhparent = 'pg_temp.cl_stage'::regclass;
SELECT count(*) FILTER (WHERE pg_get_expr(cs.relpartbound, cs.oid) = pg_get_expr(cr.relpartbound, cr.oid))
       || '/' || count(*)
FROM pg_temp.cl_stage s JOIN clearing_record r USING (tenant, kind, natural_key, shard)
JOIN pg_class cs ON cs.oid = s.tableoid JOIN pg_class cr ON cr.oid = r.tableoid;
ROLLBACK;
SQL
n=$(q "select count(*) from clearing_record")
assert_eq "$(tr '\n' ' ' <"$TMP/stage.out")" "4 $n/$n " "stage partitions, and staged records in the partition of their key's bounds"

# planned_relations FILE: the relations an EXPLAIN (FORMAT JSON) in FILE
# reads, as $nparts (how many) and $rels (their names).
planned_relations() {
	python3 - "$1" >"$TMP/parts" <<'PY' || fail "plan of $1: $(cat "$TMP/parts")"
import json, sys
text = open(sys.argv[1]).read()
plan = json.loads(text[text.index('['):])
rels = set()
def walk(n):
    if "Relation Name" in n:
        rels.add(n["Relation Name"])
    for c in n.get("Plans", []):
        walk(c)
walk(plan[0]["Plan"])
print(len(rels), ",".join(sorted(rels)))
PY
	read -r nparts rels <"$TMP/parts"
}

# ---- show --trace reads the partitions of its shards (migration 023) ----
# Every return and NOC is in clearing_trace_shard under its own trace;
# show --trace of that trace finds it, in the partition of its original
# trace (without the table's row, the lookup would leave that shard out
# and miss it); the lookup of the trace of an entry (that no return or
# NOC has as its own) is planned for one partition of the four.
assert_eq "$(q "select count(*) from clearing_record r
	where r.kind in ('ach.return', 'ach.noc') and r.trace_number is not null
	  and not exists (select from clearing_trace_shard s where s.tenant = r.tenant
	                  and s.trace_number = r.trace_number and s.shard = r.shard)")" 0 \
	"returns and NOCs without their trace's shard"
own=$(q "select count(*) from clearing_record where kind in ('ach.return', 'ach.noc')
	and shard <> clearing_shard_of(trace_number)")
[ "$own" -gt 0 ] || fail "no return or NOC sharded away from its own trace"
q "select trace_number, natural_key from clearing_record where kind in ('ach.return', 'ach.noc')
	and shard <> clearing_shard_of(trace_number) order by 1, 2" >"$TMP/own"
found=0
while IFS='|' read -r t k; do
	cl show --trace "$t" --limit 1000 --format json >"$TMP/show" || fail "show --trace $t: $(cat "$TMP/show")"
	grep -F "\"natural_key\":\"$k\"" "$TMP/show" | grep -q '"matched_by":"trace_number"' ||
		fail "show --trace $t: its return or NOC $k not found: $(head -c 600 "$TMP/show")"
	found=$((found + 1))
done <"$TMP/own"
assert_eq "$found" "$own" "returns and NOCs found by their own trace"
entry=$(q "select r.trace_number from clearing_record r where r.kind = 'ach.entry' and r.key_rule = 'v1'
	and not exists (select from clearing_trace_shard s where s.trace_number = r.trace_number)
	order by r.load_id, r.ordinal limit 1")
psql -XAtq -v ON_ERROR_STOP=1 >"$TMP/show.json" 2>"$TMP/show.err" <<SQL || fail "show plan: $(cat "$TMP/show.err")"
PREPARE shards AS $(stmt history_trace_shards);
EXECUTE shards('default', '$entry') \gset
PREPARE lookup AS $(stmt history_show_by_trace);
EXPLAIN (FORMAT JSON) EXECUTE lookup('default', '$entry', 101, :'shards');
SQL
planned_relations "$TMP/show.json"
assert_eq "$nparts" 1 "partitions planned for show --trace of an entry ($rels)"
# show KEY: planned for the partitions of the key's shards under each
# kind (here three: the entry's trace, the company id a return's key would
# start with, the whole key), not the four; and it finds the entry.
key=$(q "select natural_key from clearing_record where kind = 'ach.entry' and key_rule = 'v1'
	and trace_number = '$entry' order by load_id limit 1")
cl show "$key" --format json >"$TMP/show" || fail "show $key: $(cat "$TMP/show")"
grep -q "\"natural_key\":\"$key\"" "$TMP/show" || fail "show $key: not found: $(head -c 600 "$TMP/show")"
psql -XAtq -v ON_ERROR_STOP=1 >"$TMP/show.json" 2>"$TMP/show.err" <<SQL || fail "show KEY plan: $(cat "$TMP/show.err")"
PREPARE by_key AS $(stmt history_show_by_key);
EXPLAIN (FORMAT JSON) EXECUTE by_key('default', '$key', 101);
SQL
planned_relations "$TMP/show.json"
[ "$nparts" -le 3 ] || fail "partitions planned for show KEY: $nparts ($rels), want at most 3 of 4"

# ---- the move of keys(7): every table into a database split otherwise ----
# Its documented command, from these 4 partitions into a new database of
# 8 (partitions p0..p3 exist in both, so rows copied partition by partition
# would be refused): the same records, journal and loads; ids and feed
# positions go on; the moved history is probed as before.
# A reader limited by row-level security to tenant "other" comes along:
# init in the new database, run again after the copy, grants it from the
# copied rows (keys(7)).
OLD=$PGDATABASE
NEW="${OLD}_moved"
READER=cl_moved_reader_$$
role_new "$READER" nologin
cl init --reader-role "$READER" --tenant-access "$READER=other" --row-security on >/dev/null ||
	fail "init with a reader of tenant other"
cl load --tenant other "$TESTDATA/demo/original.ach" >/dev/null || fail "tenant other's load"
createdb "$NEW"
db_also_drop "$NEW"
PGDATABASE=$NEW cl init --partitions 8 >/dev/null
pg_dump --data-only --load-via-partition-root \
	--exclude-table-data=clearing_schema_version \
	--exclude-table-data=clearing_privilege \
	--exclude-table-data=clearing_trace_shard "$OLD" >"$TMP/move.sql" || fail "pg_dump of the move"
PGDATABASE=$NEW psql -Xq -v ON_ERROR_STOP=1 --single-transaction -f "$TMP/move.sql" >"$TMP/move.out" 2>&1 ||
	fail "restore of the move: $(cat "$TMP/move.out")"
counts="select (select count(*) || '/' || sum(amount_minor) from clearing_record),
	(select count(*) from clearing_dedupe_event), (select count(*) from clearing_load),
	(select max(load_id) from clearing_load), (select count(*) from clearing_trace_shard)"
before=$(q "$counts")
after=$(PGDATABASE=$NEW q "$counts")
next_load=$(PGDATABASE=$NEW q "select nextval('clearing_load_load_id_seq')")
PGDATABASE=$NEW expect_exit 4 cl load "$TMP/day1-redated.ach"
moved_near=$(PGDATABASE=$NEW q "select count(*) from clearing_dedupe_event where reason = 'near_duplicate'")
parts=$(PGDATABASE=$NEW q "select count(distinct tableoid) from clearing_record")
PGDATABASE=$NEW cl init --row-security on >/dev/null || fail "init again after the move"
granted=$(PGDATABASE=$NEW q "select has_table_privilege('$READER', 'clearing_record', 'SELECT')")
seen=$(PGDATABASE=$NEW q "set role $READER; select count(*) || ' ' || string_agg(distinct tenant, ',')
	from clearing_record")
other=$(q "select count(*) from clearing_record where tenant = 'other'")
dropdb -f "$NEW"
assert_eq "$after" "$before" "records, journal and loads after the move"
[ "$next_load" -gt "$(q "select max(load_id) from clearing_load")" ] || fail "load ids start again after the move"
assert_eq "$moved_near" 6000 "near duplicates found in the moved history"
assert_eq "$parts" 8 "moved records spread over the 8 partitions"
assert_eq "$granted" t "the reader granted again by init after the move"
assert_eq "$seen" "$other other" "the moved reader sees its tenant's records only"

# ---- a database of before version 22 gets its shards ----
dropdb -f "$PGDATABASE"
createdb "$PGDATABASE"
cl init >/dev/null
cl load "$TMP/day1.ach" >/dev/null || fail "entries (plain schema)"
cl load "$TESTDATA/near/return.ach" >/dev/null || fail "returns (plain schema)"
# back to version 21: no shard column, 022 and 023 not applied
# and the feed view made by migration 013 without it, row-level security on
cl init --row-security=on >/dev/null
latest=$(q "select max(version) from clearing_schema_version")
q "drop table clearing_trace_shard; drop function clearing_note_trace_shard() cascade;
   drop view clearing_feed; alter table clearing_record drop column shard;
   alter table clearing_quarantine drop column shard;
   delete from clearing_schema_version where version >= 22" >/dev/null
q "$(sed -n '/^CREATE OR REPLACE VIEW clearing_feed/,/;$/p' "$CL_ROOT/sql/013_feed.sql")
   alter view clearing_feed set (security_invoker = on)" >/dev/null
cl init >/dev/null || fail "init upgrading to version $latest"
assert_eq "$(q "select max(version) from clearing_schema_version")" "$latest" "schema version"
assert_eq "$(q "select count(*) || '/' || count(s.shard) from clearing_record r
	left join clearing_trace_shard s on s.tenant = r.tenant and s.trace_number = r.trace_number
	  and s.shard = r.shard
	where r.kind in ('ach.return', 'ach.noc')")" "1/1" "returns given their trace's shard by the migration"
assert_eq "$(q "select relrowsecurity from pg_class where oid = 'clearing_trace_shard'::regclass")" t \
	"row-level security on the new table, as on the records"
assert_eq "$(q "select count(*) from clearing_record where shard is distinct from clearing_shard(kind, natural_key)")" 0 \
	"records given the rule's shard by the migration"
assert_eq "$(q "select attnotnull from pg_attribute where attrelid = 'clearing_record'::regclass and attname = 'shard'")" t \
	"shard NOT NULL"
# the upgraded history is probed as before: a re-upload is all duplicates,
# the re-dated day all near duplicates
cl load "$TMP/day1.ach" >"$TMP/out" || fail "re-upload after the upgrade"
grep -q "0 new, 3000 duplicate" "$TMP/out" || fail "re-upload after the upgrade: $(cat "$TMP/out")"
expect_exit 4 cl load "$TMP/day1-redated.ach"
grep -q "3000 conflict" "$TMP/out" || fail "near duplicates after the upgrade: $(cat "$TMP/out")"
assert_eq "$(q "select attname from pg_attribute where attrelid = 'clearing_feed'::regclass
	and attnum > 0 order by attnum desc limit 1")" shard "the feed view made again, with the shard"
assert_eq "$(q "select reloptions::text from pg_class where oid = 'clearing_feed'::regclass")" \
	"{security_invoker=on}" "the feed view keeps its reader's rights"
# records stay append-only: the migration's triggers are back
expect_exit 1 q "update clearing_record set shard = 0"
echo "ok: one shard rule in C and SQL, one partition per probe and per show --trace, shards given on upgrade, the move"
