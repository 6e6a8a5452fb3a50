#!/bin/sh
# init: creates the schema, is idempotent, two at once are safe, and
# --partitions makes clearing_record hash-partitioned on its shard identity.
. "$(dirname "$0")/lib.sh"
db_new

# two inits at once on an empty database: both succeed, one schema
"$CL_BIN" init >"$TMP/i1" 2>&1 &
p1=$!
"$CL_BIN" init >"$TMP/i2" 2>&1 &
p2=$!
wait $p1 || fail "first concurrent init failed: $(cat "$TMP/i1")"
wait $p2 || fail "second concurrent init failed: $(cat "$TMP/i2")"
assert_eq "$(q "select count(*) from clearing_schema_version")" "$(ls "$CL_ROOT"/sql/[0-9]*.sql | wc -l)" "one version row per migration"
assert_eq "$(q "select count(*) from pg_tables where schemaname = 'public' and tablename in
	('clearing_load', 'clearing_record', 'clearing_dedupe_event', 'clearing_quarantine')")" 4 "tables"
assert_eq "$(q "select count(*) from pg_inherits where inhparent = 'clearing_record'::regclass")" 0 \
	"not partitioned by default"

# again: nothing to do
expect_exit 0 cl init
# the last migration's number (not their count: a branch may lack one)
latest=$(ls "$CL_ROOT"/sql/[0-9]*.sql | tail -n 1 | sed 's|.*/0*||; s|_.*||')
grep -q "up to date at version $latest" "$TMP/out" || fail "second init: $(cat "$TMP/out")"

# the unique key contains (tenant, kind, natural_key) and nothing time-based
assert_eq "$(q "select pg_get_indexdef('clearing_record_key'::regclass)")" \
	"CREATE UNIQUE INDEX clearing_record_key ON public.clearing_record USING btree (tenant, kind, natural_key)" \
	"unique key"
# the index of a load's records only grows at its right edge: its pages are
# filled (038)
assert_eq "$(q "select reloptions from pg_class where oid = 'clearing_record_load_ordinal'::regclass")" \
	"{fillfactor=100}" "load and ordinal index fillfactor"

# a partitioning request on an existing plain table is refused, not applied
expect_exit 2 cl init --partitions 4
grep -q "already exists with 0 hash partitions" "$TMP/err" || fail "mismatch message: $(cat "$TMP/err")"

# partitioned schema in a second database
main_db=$PGDATABASE
db_also_drop "$main_db"
export PGDATABASE="${main_db}_p"
createdb "$PGDATABASE"
expect_exit 0 cl init --partitions 4
grep -q "hash-partitioned in 4" "$TMP/out" || fail "partitions reported: $(cat "$TMP/out")"
assert_eq "$(q "select partstrat from pg_partitioned_table where partrelid = 'clearing_record'::regclass")" h \
	"hash partitioned"
assert_eq "$(q "select count(*) from pg_inherits where inhparent = 'clearing_record'::regclass")" 4 "4 partitions"
assert_eq "$(q "select a.attname from pg_partitioned_table p
	join pg_attribute a on a.attrelid = p.partrelid and a.attnum = p.partattrs[0]
	where p.partrelid = 'clearing_record'::regclass")" shard "partitioned on the shard"
assert_eq "$(q "select pg_get_constraintdef(oid) from pg_constraint where conname = 'clearing_record_key'
	and conrelid = 'clearing_record'::regclass")" "PRIMARY KEY (tenant, kind, natural_key, shard)" \
	"the unique key holds the shard"
assert_eq "$(q "select count(*) from pg_inherits i join pg_class c on c.oid = i.inhrelid
	where i.inhparent = 'clearing_record_load_ordinal'::regclass and c.reloptions = '{fillfactor=100}'")" 4 \
	"each partition's load and ordinal index fillfactor"
expect_exit 0 cl init --partitions 4
expect_exit 2 cl init --partitions 0
expect_exit 2 cl init --partitions 2000
expect_exit 2 cl init --db "dbname=x password=secret"
grep -q "must not contain a password" "$TMP/err" || fail "password refused: $(cat "$TMP/err")"
echo ok
