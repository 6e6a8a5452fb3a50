#!/bin/sh
# tests/citus/run.sh - clearing-load on a Citus coordinator with two workers
# (issue 31; docs/design/0023-citus-distribution.md).
#
#   CL_BIN=./clearing-load CL_BIN_FP=build/release-failpoints/clearing-load \
#   CL_TOOLS=build/release/tools sh tests/citus/run.sh   (make check-citus)
#
# Without a cluster (CL_CITUS_WORKERS unset) it re-runs itself under
# tests/citus/cluster.sh, which builds Citus when it is not installed and
# starts a throwaway coordinator and two workers.  Each section makes its
# own database, a Citus one (tests/db/lib.sh db_new with CL_DB_SETUP).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
if [ -z "${CL_CITUS_WORKERS:-}" ]; then
	exec sh "$here/cluster.sh" sh "$here/run.sh" "$@"
fi
: "${CL_BIN:?CL_BIN must name the clearing-load binary}"
CL_ROOT=$(cd "$here/../.." && pwd)
export CL_BIN CL_ROOT
# shellcheck source=../db/lib.sh
. "$CL_ROOT/tests/db/lib.sh"
# the migration that distributes (its number, from its file name)
citus_v=$(basename "$CL_ROOT"/sql/[0-9]*_citus.sql | sed "s/^0*\([0-9]*\)_.*/\1/")
# it and every later one, as init applies them again when taken back
citus_again=$(( $(ls "$CL_ROOT"/sql/[0-9]*.sql | wc -l) - citus_v + 1 ))
export PGOPTIONS="-c client_min_messages=warning"
w1=${CL_CITUS_WORKERS% *}
w2=${CL_CITUS_WORKERS#* }
started=$(date +%s)
section() { echo "--- $* ($(($(date +%s) - started)) s)"; }

# q_err SQL: run SQL expecting an error; prints the error text
q_err() {
	if psql -XAtq -v ON_ERROR_STOP=1 -c "$1" >"$TMP/qout" 2>"$TMP/qerr"; then
		fail "expected an error from: $1 (got: $(cat "$TMP/qout"))"
	fi
	cat "$TMP/qerr"
}

section "init on the coordinator distributes the per-record tables"
db_new
cl init >"$TMP/out" || fail "init: $(cat "$TMP/out")"
latest=$(q "select max(version) from clearing_schema_version")
grep -q "schema at version $latest" "$TMP/out" || fail "init said: $(cat "$TMP/out")"
assert_eq "$(q "select string_agg(table_name || ' ' || citus_table_type || ' ' || distribution_column, ', '
		order by table_name::text) from citus_tables")" \
	"clearing_alt_key distributed shard, clearing_alt_stage distributed shard, clearing_dedupe_event distributed shard, clearing_quarantine distributed shard, clearing_record distributed shard, clearing_stage distributed shard, clearing_stage_match distributed shard, clearing_tenant_access reference <none>, clearing_trace_shard distributed shard" \
	"the tables Citus holds"
assert_eq "$(q "select count(distinct colocation_id) from citus_tables where citus_table_type = 'distributed'")" 1 \
	"the distributed tables are co-located"
# the load history and the feed stay the coordinator's (the journal is
# distributed since 037, co-located: above)
assert_eq "$(q "select count(*) from pg_dist_partition where logicalrelid::text in
		('clearing_load', 'clearing_feed_commit', 'clearing_feed_consumer')")" 0 \
	"ordered tables stay local"
assert_eq "$(q "select pg_get_indexdef('clearing_record_key'::regclass)")" \
	"CREATE UNIQUE INDEX clearing_record_key ON public.clearing_record USING btree (tenant, kind, natural_key, shard)" \
	"the unique key contains the distribution column"
# the stage (035) is not written to the WAL (039), on every shard
assert_eq "$(q "select relpersistence from pg_class where oid = 'clearing_stage'::regclass")" u \
	"the stage is unlogged"
assert_eq "$(q "select string_agg(distinct r.result, ',') from run_command_on_shards('clearing_stage',
		\$\$select relpersistence from pg_class where oid = '%s'::regclass\$\$) r")" u \
	"the stage's shards are unlogged"
assert_eq "$(q "select string_agg(distinct r.result, ',') from run_command_on_shards('clearing_alt_stage',
		\$\$select relpersistence from pg_class where oid = '%s'::regclass\$\$) r")" u \
	"the alternate keys' stage shards are unlogged (041)"
assert_eq "$(q "select string_agg(distinct r.result, ',') from run_command_on_shards('clearing_stage_match',
		\$\$select relpersistence from pg_class where oid = '%s'::regclass\$\$) r")" u \
	"the exact-key matches' shards are unlogged (042)"
# 038's fillfactor reached every shard's index of the records by load and ordinal
assert_eq "$(q "select string_agg(distinct result, ',') from run_command_on_shards('clearing_record',
		\$\$select coalesce(c.reloptions::text, 'none') from pg_index i join pg_class c on c.oid = i.indexrelid
		  where i.indrelid = '%s'::regclass and c.relname like 'clearing_record_load_ordinal%%'\$\$)")" \
	"{fillfactor=100}" "each shard's load and ordinal index filled"
cl init >"$TMP/out" || fail "second init"
grep -q "up to date at version $latest" "$TMP/out" || fail "second init said: $(cat "$TMP/out")"

# 025 runs again harmlessly (a table already distributed is left as it is)
q "delete from clearing_schema_version where version >= $citus_v" >/dev/null
cl init >"$TMP/out" || fail "init running 025 again"
grep -q "applied $citus_again migration" "$TMP/out" || fail "025 again: $(cat "$TMP/out")"
assert_eq "$(q "select count(*) from citus_tables")" 9 "the same tables after 025 again"

# alt_key_table_holds N: clearing_alt_key (041) holds N rows, exactly the
# alternate keys (alt_key, alt_key2) of the applied records, each in its
# key's shard, none else; clearing_alt_stage holds no committed row
alt_key_table_holds() {
	assert_eq "$(q "with k as materialized (
			select r.load_id, r.ordinal, a.k, r.natural_key, r.fingerprint, r.alt_fp
			from clearing_record r cross join lateral (values (r.alt_key), (r.alt_key2)) a (k)
			where r.alt_key is not null and a.k is not null),
		x as materialized (
			select load_id, ordinal, alt_key, natural_key, fingerprint, alt_fp
			from clearing_alt_key where shard = clearing_shard(kind, alt_key))
		select (select count(*) from k) || ' ' || (select count(*) from clearing_alt_key)
			|| ' ' || (select count(*) from (select * from k except select * from x) d)
			|| ' ' || (select count(*) from (select * from x except select * from k) d)
			|| ' ' || (select count(*) from clearing_alt_stage)")" "$1 $1 0 0 0" \
		"the applied records' alternate keys, each in its shard"
}

section "a database loaded before Citus: 025 distributes its records"
up="cl_citus_up_$$"
db_also_drop "$up"
createdb "$up"
export PGDATABASE="$up"
cl init -q --row-security on || fail "init without citus"
cl load -q "$TESTDATA/demo/original.ach" || fail "load without citus"
cl load -q "$TESTDATA/near/return.ach" || fail "returns without citus"
cl load -q "$TESTDATA/demo/original.ach" || fail "a re-upload without citus"
"$CL_TOOLS/gen_iso" --type pacs.008 --tx 3 --msg-version 02 >"$TMP/up_v02.xml"
"$CL_TOOLS/gen_iso" --type pacs.008 --tx 3 --msg-version 08 >"$TMP/up_v08.xml"
cl load -q "$TMP/up_v02.xml" || fail "pacs.008 without citus"
record_dump >"$TMP/up_before"
# the journal's rows with the shards the loader wrote; then the column
# dropped, as a database made before 037 has none: 037 gives them theirs
# again (on Citus, from the records and parked versions read first)
journal_dump() {
	q "select load_id, ordinal, reason, natural_key, matched_load_id, matched_ordinal, shard
	   from clearing_dedupe_event order by load_id, ordinal, reason"
}
journal_dump >"$TMP/up_journal_before"
[ "$(wc -l <"$TMP/up_journal_before")" -ge 15 ] || fail "no journal rows: $(cat "$TMP/up_journal_before")"
n_before=$(q "select count(*) from clearing_record")
traces_before=$(q "select count(*) from clearing_trace_shard")
[ "$n_before" -gt 0 ] && [ "$traces_before" -gt 0 ] || fail "nothing loaded: $n_before, $traces_before"
sh "$CL_DB_SETUP" "$up"
# (a database made before 025 has none of 027's break tables and functions,
# made here by the same init: dropped, as they would not be, and made again
# by 027 after 025 has distributed the records; Citus refuses to distribute
# a table a function outside its metadata depends on)
q "drop table clearing_reconcile_break, clearing_break_decision cascade;
   drop sequence if exists clearing_break_decision_seq;
   do \$\$ declare f regprocedure; begin
     for f in select oid::regprocedure from pg_proc where proname like 'clearing\\_break\\_%' loop
       execute 'drop function ' || f || ' cascade';
     end loop; end \$\$" >/dev/null
q "delete from clearing_schema_version where version >= $citus_v" >/dev/null
q "alter table clearing_dedupe_event drop column shard" >/dev/null
cl init -q || fail "init distributing a loaded database"
assert_eq "$(q "select count(*) from citus_tables where citus_table_type = 'distributed'")" 8 \
	"distributed on upgrade"
journal_dump >"$TMP/up_journal_after"
cmp -s "$TMP/up_journal_before" "$TMP/up_journal_after" ||
	fail "the journal's shards given by 037: $(diff "$TMP/up_journal_before" "$TMP/up_journal_after")"
record_dump >"$TMP/up_after"
cmp -s "$TMP/up_before" "$TMP/up_after" || fail "records changed by the distribution"
assert_eq "$(q "select count(*) from clearing_trace_shard")" "$traces_before" "trace shards moved"
assert_eq "$(q "select pg_relation_size('clearing_record') + pg_relation_size('clearing_trace_shard')
		+ pg_relation_size('clearing_dedupe_event')")" 0 \
	"no copy of the records left in the coordinator's own tables"
assert_eq "$(q "select count(*) from pg_policy where polrelid = 'clearing_record'::regclass
		and pg_get_expr(polqual, polrelid) = '(tenant = ANY (clearing_visible_tenants()))'")" 1 \
	"row security kept, with the policy Citus can send"
assert_eq "$(q "select count(*) from run_command_on_shards('clearing_record',
		\$\$select count(*) from %s\$\$) where result::bigint > 0")" \
	"$(q "select count(distinct get_shard_id_for_distribution_column('clearing_record', shard))
	      from clearing_record")" "every record in the shard of its shard value"
# 041 wrote the alternate keys of the pacs records applied before into
# clearing_alt_key (alt_key_table_holds below); the same payment without
# its UETR meets them there: held, never applied
alt_key_table_holds 6
cl load "$TMP/up_v08.xml" >"$TMP/out" 2>&1 && fail "the other form applied: $(cat "$TMP/out")"
grep -q "3 records: 0 new, 0 duplicate, 3 conflict" "$TMP/out" ||
	fail "the other form after 041: $(cat "$TMP/out")"
export PGDATABASE="$_name"

section "init --partitions fails on Citus (the distribution takes its place)"
db_also_drop "cl_citus_parts_$$"
createdb "cl_citus_parts_$$" && sh "$CL_DB_SETUP" "cl_citus_parts_$$"
expect_exit 5 env PGDATABASE="cl_citus_parts_$$" "$CL_BIN" init --partitions 4
grep -q "clearing_record is hash-partitioned (init --partitions): on Citus it is distributed on its shard instead" "$TMP/err" ||
	fail "init --partitions: $(cat "$TMP/err")"
assert_eq "$(PGDATABASE="cl_citus_parts_$$" q "select count(*) from pg_dist_partition")" 0 \
	"nothing distributed"

section "records spread over both workers, one key once"
# 400 ACH entries written as a restore would (the owner's INSERT), each with
# the shard the loader computes (clearing_shard, held to rules/shard.c by
# tests/db/test_shard.sh)
q "insert into clearing_record (tenant, kind, natural_key, key_rule, fingerprint, amount_minor,
	currency, trace_number, company_id, value_date, load_id, ordinal, position, shard)
   select 't' || (i % 2), 'ach.entry', '1234567890|' || lpad(i::text, 15, '0') || '|2026-01-05', 'v1',
	'\\x00', i, 'USD', lpad(i::text, 15, '0'), '1234567890', date '2026-01-05', 1, i, i,
	clearing_shard('ach.entry', '1234567890|' || lpad(i::text, 15, '0') || '|2026-01-05')
   from generate_series(1, 400) i" >/dev/null
q "select s.nodeport || ' ' || sum(r.result::bigint)
   from run_command_on_shards('clearing_record', \$\$select count(*) from %s\$\$) r
   join citus_shards s using (shardid) group by s.nodeport order by 1" >"$TMP/spread"
assert_eq "$(wc -l <"$TMP/spread")" 2 "records on two nodes: $(cat "$TMP/spread")"
awk '{ n += $2; if ($2 < 100) bad = 1 } END { exit !(n == 400 && !bad) }' "$TMP/spread" ||
	fail "400 records, at least 100 on each worker: $(cat "$TMP/spread")"
grep -qE "^($w1|$w2) " "$TMP/spread" || fail "not on the workers: $(cat "$TMP/spread")"
# the unique key is global: the same key again is refused, whichever node
err=$(q_err "insert into clearing_record (tenant, kind, natural_key, key_rule, fingerprint,
	amount_minor, currency, load_id, ordinal, position, shard)
   select tenant, kind, natural_key, key_rule, '\\x01', 1, currency, 2, 1, 1, shard
   from clearing_record where natural_key = '1234567890|000000000000007|2026-01-05'")
echo "$err" | grep -q 'duplicate key value violates unique constraint "clearing_record_key' ||
	fail "a second row of one key: $err"

section "append-only on every shard, for the owner too"
for t in clearing_record clearing_quarantine clearing_trace_shard; do
	err=$(q_err "update $t set tenant = tenant")
	echo "$err" | grep -q "UPDATE on public.${t}_[0-9]* refused: the table is append-only" ||
		fail "update of $t: $err"
	err=$(q_err "delete from $t")
	echo "$err" | grep -q "DELETE on public.${t}_[0-9]* refused: the table is append-only" ||
		fail "delete of $t: $err"
done
err=$(q_err "delete from clearing_record where shard = clearing_shard('ach.entry', '1234567890|000000000000007|2026-01-05')")
echo "$err" | grep -q "refused: the table is append-only" || fail "one-shard delete: $err"
assert_eq "$(q "select count(*) from clearing_record")" 400 "nothing deleted"
err=$(q_err "update clearing_load set tenant = tenant")
echo "$err" | grep -q "UPDATE on public.clearing_load refused" || fail "local table: $err"

section "roles and row security"
role_new "cl_citus_loader_$$" LOGIN
role_new "cl_citus_reader_$$" LOGIN
cl init -q --loader-role "cl_citus_loader_$$" --reader-role "cl_citus_reader_$$" \
	--tenant-access "cl_citus_reader_$$=t1" --row-security on || fail "init with roles"
as_reader() { psql -XAtq -v ON_ERROR_STOP=1 -U "cl_citus_reader_$$" -c "$1"; }
assert_eq "$(as_reader "select count(*) || ' ' || count(*) filter (where tenant = 't1') from clearing_record")" \
	"200 200" "the reader sees its tenant's records only"
err=$(psql -XAtq -v ON_ERROR_STOP=1 -U "cl_citus_loader_$$" -c "update clearing_record set amount_minor = 0" 2>&1) &&
	fail "the loader updated records"
echo "$err" | grep -q "permission denied for table clearing_record" || fail "loader update: $err"

section "a load on Citus does what it does on one server"
# The same commands on a plain database of the coordinator (no citus
# extension: one server's PostgreSQL) and on a Citus one: the same output
# (times and instants masked), exit statuses, records, journal,
# quarantine and load history.  They run every classification statement
# in its Citus form (docs/design/0038-loading-on-citus.md): new files (the
# sample's path), exact and changed re-uploads (duplicates, conflicts held
# and quarantined), ACH near duplicates, returns, the other ACH key rule
# both ways, alternate keys of pacs.008, a rejected file parked, and diff.
: "${CL_TOOLS:?CL_TOOLS must name the test tools}"
"$CL_TOOLS/gen_ach" -n 3000 --seed 5 >"$TMP/big.ach"
"$CL_TOOLS/gen_ach" -n 3000 --seed 5 --skip-every 3 --bump-amount-every 7 >"$TMP/big-changed.ach"
"$CL_TOOLS/gen_ach" -n 3000 --seed 5 --only-every 5 -e 260303 >"$TMP/big-redated.ach"
"$CL_TOOLS/gen_ach" -n 3600 --seed 5 -e 260303 >"$TMP/big-more.ach" # 3000 re-dated, 600 new
"$CL_TOOLS/gen_iso" --type pacs.008 --tx 3 --msg-version 02 >"$TMP/v02.xml"
"$CL_TOOLS/gen_iso" --type pacs.008 --tx 3 --msg-version 08 >"$TMP/v08.xml"
"$CL_TOOLS/gen_ach" -n 20 --start 5000 >"$TMP/good.ach"
sed '3s/^\(.\{29\}\)\(.\)/\1X/' "$TMP/good.ach" >"$TMP/bad.ach" # line 3: a bad amount
python3 "$CL_ROOT/tests/db/stmt_gen.py" account=DE10718999515662907726 date=2026-03-03 seq=1 \
	>"$TMP/s1.xml" <<S
88499 USD DBIT 2026-03-02 e2e=E2E-7-1
4242 EUR CRDT 2026-03-03 e2e=THEIRS-ONLY
S
# run ARGS: clearing-load ARGS into $out, with its exit status
run() {
	set +e
	"$CL_BIN" "$@" >"$TMP/so" 2>"$TMP/se"
	_rc=$?
	set -e
	{ echo "\$ $* -> $_rc"; cat "$TMP/so" "$TMP/se"; } | sed -E \
		-e 's/in [0-9.]+ s/in T s/' -e 's/"seconds":[0-9.]+/"seconds":T/' \
		-e 's/[0-9]{4}-[0-9]{2}-[0-9]{2}[ T][0-9:.]+(\+00(:00)?|Z)?/TS/g' \
		-e 's/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/UUID/g' >>"$out"
}
scenario() {
	out="$TMP/scn.$1"
	: >"$out"
	run init -q
	run load --tenant t1 "$TESTDATA/demo/original.ach"
	run load --tenant t1 "$TESTDATA/demo/original.ach"
	run diff --tenant t1 "$TESTDATA/demo/changed-amount.ach"
	run load --tenant t1 "$TESTDATA/demo/changed-amount.ach"
	run load --tenant t1 "$TESTDATA/demo/corrected.ach"
	run load --tenant t1 --on-conflict=quarantine "$TESTDATA/demo/changed-amount.ach"
	run load --tenant t1 "$TESTDATA/near/account-right-redated.ach"
	run diff --tenant t1 "$TESTDATA/near/account-left.ach"
	run load --tenant t1 "$TESTDATA/near/account-left.ach"
	run load --tenant t1 "$TESTDATA/near/return.ach"
	run load --tenant t1 "$TESTDATA/near/return-redated.ach"
	run load --tenant t1 "$TESTDATA/demo/original-pain001.xml"
	run load --tenant t1 "$TESTDATA/demo/corrected-pain001.xml"
	run load --tenant t1 "$TMP/v02.xml"
	run diff --tenant t1 "$TMP/v08.xml"
	run load --tenant t1 "$TMP/v08.xml"
	run load --tenant t1 "$TMP/bad.ach"
	run load --tenant t1 "$TMP/bad.ach"
	run load --tenant t1 "$TMP/big.ach"
	run diff --tenant t1 --format json "$TMP/big-changed.ach"
	run load --tenant t1 --on-conflict=quarantine "$TMP/big-changed.ach"
	run load --tenant t1 "$TMP/big-redated.ach"
	run load --tenant t2 --ach-key batch "$TMP/big.ach"
	run diff --tenant t2 "$TMP/big-redated.ach"
	run load --tenant t2 "$TMP/big-redated.ach"
	run load --tenant t3 "$TMP/big.ach"
	run load --tenant t3 --ach-key batch "$TMP/big-changed.ach"
	# one session, four files: a new one (COPYed straight into the records,
	# decision 0058), its re-dated copy with 600 new entries (near
	# duplicates quarantined, the new ones applied: on Citus its pending
	# records copied to the coordinator, a view that outlives the
	# transaction), a new one again (seen failing when the direct load's
	# view did not drop that one), an exact re-upload: each file's stage
	# or views made and dropped in turn
	run load --tenant t4 --on-conflict=quarantine "$TMP/big.ach" "$TMP/big-more.ach" \
		"$TMP/good.ach" "$TMP/big.ach"
	run loads
	run feed --consumer c1 --format json --limit 3
	run feed --consumer c1 --ack 4294967299
	run feed --consumer c1 --format json --limit 2
	run load --tenant t1 "$TMP/s1.xml"
	record_dump >>"$out"
	q "select load_id, ordinal, position, tenant, kind, natural_key, reason, matched_key,
		matched_load_id, matched_ordinal, matched_position, fields, shard
	   from clearing_dedupe_event order by load_id, ordinal, reason" >>"$out"
	q "select load_id, ordinal, position, tenant, kind, natural_key, encode(fingerprint, 'hex'), shard
	   from clearing_quarantine order by load_id, ordinal" >>"$out"
	q "select load_id, tenant, outcome, record_count, new_count, duplicate_count, conflict_count,
		file_name from clearing_load order by load_id" >>"$out"
}
plain="cl_citus_plain_$$"
db_also_drop "$plain"
createdb "$plain"
PGDATABASE=$plain scenario plain
assert_eq "$(PGDATABASE=$plain q "select count(*) from pg_extension where extname = 'citus'")" 0 \
	"the plain database is one server's"
# a Citus database of its own (the earlier sections' rows aside)
db_also_drop "cl_citus_scn_$$"
createdb "cl_citus_scn_$$" && sh "$CL_DB_SETUP" "cl_citus_scn_$$"
export PGDATABASE="cl_citus_scn_$$"
scenario citus
assert_eq "$(q "select count(*) from citus_tables where citus_table_type = 'distributed'")" 8 \
	"the scenario ran on distributed tables"
grep -q '^\$ load --tenant t1 .*changed-amount.ach -> 4$' "$TMP/scn.citus" ||
	fail "a changed re-upload is held: $(cat "$TMP/scn.citus")"
grep -q "original.ach: nacha, 15 records: 0 new, 15 duplicate, 0 conflict" "$TMP/scn.citus" ||
	fail "an exact re-upload: $(head -c 3000 "$TMP/scn.citus")"
grep -q "near_duplicate" "$TMP/scn.citus" || fail "no near duplicate journaled"
grep -q "good.ach: nacha, 20 records: 20 new, 0 duplicate, 0 conflict — committed" "$TMP/scn.citus" ||
	fail "a new file after a quarantined one in one session: $(grep -A12 'tenant t4' "$TMP/scn.citus" | head -c 3000)"
cp "$TMP/scn.plain" "$TMP/scn.citus" /tmp/ 2>/dev/null || true
if ! cmp -s "$TMP/scn.plain" "$TMP/scn.citus"; then
	diff "$TMP/scn.plain" "$TMP/scn.citus" | head -n 40 >&2
	fail "Citus and one server differ"
fi
echo "  $(grep -c '^\$ ' "$TMP/scn.citus") commands, $(wc -l <"$TMP/scn.citus") lines alike"

section "show, conflicts and resolve on Citus do what they do on one server"
# (docs/design/0047-citus-show-conflicts-reconcile.md) On the databases of
# the scenario above, the one server's and the Citus one: show by trace,
# key, EndToEndId and UETR (records with their events, parked versions and
# cancellations; a tenant that has none, the others named), conflicts
# (held, quarantined, near duplicates; by load; JSON), resolve (accepted:
# a correction applied; again; dismissed), then conflicts and show of the
# correction: the same output, records, journal and resolutions.  Without
# 0047 each of show, conflicts and resolve exits 5 on Citus.
C29="$TESTDATA/iso20022/corpus/cancellation/c.29.1.1"
UETR29=174c245f-2682-4291-ad67-2a41e530cd27
ops() {
	out="$TMP/ops.$1"
	: >"$out"
	run load --tenant t1 "$C29/CBPR_c.29.1.1_pacs.008_AtoB.xml"
	run load --tenant t1 "$C29/CBPR_c.29.1.1_camt.056-AtoB.xml"
	run load --tenant t1 "$C29/CBPR_c.29.1.1_camt.029-BtoA.xml"
	run show --trace 121042880000010
	run show --tenant t1 --trace 121042880000010
	run show --tenant t1 --format json '1100000000|121042880000010|2026-03-02'
	run show --tenant t1 --trace 121042880009901
	run show --tenant t1 '1100000007|121042880009901|2026-03-02'
	run show --tenant t1 --e2e "$(q "select end_to_end_id from clearing_record where tenant = 't1'
		and kind = 'pain.001' order by load_id, ordinal limit 1")"
	run show --tenant t1 --uetr "$UETR29"
	run show --tenant t1 --format json --uetr "$UETR29"
	run show --tenant t2 --limit 2 --trace "$(q "select trace_number from clearing_record
		where tenant = 't2' order by natural_key limit 1")"
	# a record a near duplicate matched, parked under its own key, while the
	# record's shard holds no parked version of t1: on Citus show asks the
	# record's shard whether there are parked versions, and sends
	# history_quarantine_of for the near duplicate's event
	# (docs/design/0060-citus-show-routed.md)
	ndkey=
	for k in $(q "select clearing_shard(e.kind, e.matched_key) || ':' || e.matched_key
		from clearing_dedupe_event e join clearing_quarantine p on p.load_id = e.load_id
			and p.ordinal = e.ordinal and p.shard = e.shard
		where e.tenant = 't1' and e.reason = 'near_duplicate' and e.matched_key is not null
			and clearing_shard(e.kind, e.matched_key) <> e.shard
		order by e.load_id, e.ordinal"); do
		[ "$(q "select count(*) from clearing_quarantine p where p.tenant = 't1'
			and p.shard = ${k%%:*}")" = 0 ] || continue
		ndkey=${k#*:}
		break
	done
	[ -n "$ndkey" ] || fail "no near duplicate parked outside its record's shard"
	run show --tenant t1 --format json "$ndkey"
	grep -q '"type":"quarantine"' "$TMP/so" || fail "no parked near duplicate shown: $(cat "$TMP/so")"
	run conflicts --tenant t1
	run conflicts --all --format json
	held=$(q "select load_id from clearing_load where outcome = 'held' and tenant = 't1'
		order by load_id limit 1")
	run conflicts --load "$held"
	run resolve --load "$held" --line 13 --accept --note 'the bank confirmed'
	run resolve --load "$held" --line 13 --accept
	run resolve --load "$held" --line 13 --dismiss
	near=$(q "select e.load_id || ' ' || e.position from clearing_dedupe_event e
		join clearing_quarantine q on q.load_id = e.load_id and q.ordinal = e.ordinal
			and q.shard = e.shard
		where e.tenant = 't1' and e.reason = 'near_duplicate' order by e.load_id limit 1")
	run resolve --load "${near% *}" --line "${near#* }" --dismiss
	big=$(q "select load_id || ' ' || ordinal from clearing_quarantine where tenant = 't1'
		and load_id > $held order by load_id, ordinal limit 1")
	run resolve --load "${big% *}" --ordinal "${big#* }" --accept
	v08=$(q "select load_id from clearing_load where tenant = 't1' and outcome = 'held'
		and file_name like '%v08.xml' order by load_id limit 1")
	run resolve --load "$v08" --ordinal 2 --accept
	run conflicts --all
	run show --tenant t1 '1100000000|121042880000010|2026-03-02#corr1'
	run loads --limit 5
	record_dump >>"$out"
	q "select load_id, ordinal, position, tenant, kind, natural_key, reason, matched_key,
		matched_load_id, matched_ordinal, matched_position, fields, shard
	   from clearing_dedupe_event order by load_id, ordinal, reason" >>"$out"
	q "select load_id, ordinal, tenant, verdict, matched_load_id, matched_ordinal,
		resolution_load_id, correction_key, note from clearing_resolution order by load_id, ordinal" >>"$out"
	q "select load_id, tenant, outcome, record_count, new_count, file_name
	   from clearing_load order by load_id" >>"$out"
}
PGDATABASE=$plain ops plain
ops citus
grep -q '^\$ resolve .* --accept --note the bank confirmed -> 0$' "$TMP/ops.citus" ||
	fail "resolve on Citus: $(cat "$TMP/ops.citus")"
grep -q '"type":"cancellation"' "$TMP/ops.citus" || fail "no cancellation shown: $(cat "$TMP/ops.citus")"
grep -q '#corr1' "$TMP/ops.citus" || fail "no correction applied: $(cat "$TMP/ops.citus")"
grep -q '^\$ resolve --load [0-9]* --ordinal 2 --accept -> 0$' "$TMP/ops.citus" ||
	fail "a pacs.008 near duplicate accepted: $(cat "$TMP/ops.citus")"
# every applied pacs record's alternate keys (the scenario's loads, the
# correction just applied) in clearing_alt_key, none else
n_alt=$(q "select count(alt_key) + count(alt_key2) filter (where alt_key is not null)
	from clearing_record")
[ "$n_alt" -ge 8 ] || fail "pacs records' alternate keys: $n_alt"
alt_key_table_holds "$n_alt"
if ! cmp -s "$TMP/ops.plain" "$TMP/ops.citus"; then
	diff "$TMP/ops.plain" "$TMP/ops.citus" | head -n 40 >&2
	fail "show, conflicts or resolve: Citus and one server differ"
fi
# (docs/design/0062-citus-show-events-routed.md) what show on Citus relies
# on to read an ACH record's events in its shard alone: in the scenario's
# journal (loads, re-dated and changed copies, the other key rule,
# returns, resolve's corrections), every row that names an ACH record is
# in that record's shard (asked of the one server's copy: the same shard
# values, and a join Citus would not co-locate); a pacs record's may not be
ach_rows=$(PGDATABASE=$plain q "select count(*) filter (where e.shard <> r.shard) || ' ' ||
	count(*) filter (where e.matched_key is not null) || ' ' || count(*)
	from clearing_dedupe_event e join clearing_record r
		on r.load_id = e.matched_load_id and r.ordinal = e.matched_ordinal
	where r.kind in ('ach.entry', 'ach.return', 'ach.noc')")
set -- $ach_rows
assert_eq "$1" 0 "journal rows naming an ACH record outside its shard (of $3)"
[ "$2" -ge 1 ] || fail "no journal row names an ACH record under another key: $ach_rows"
echo "  journal rows naming an ACH record: $3, $2 of them under another key, 0 outside its shard"
echo "  $(grep -c '^\$ ' "$TMP/ops.citus") commands, $(wc -l <"$TMP/ops.citus") lines alike"

section "row security: a reader's show and conflicts on Citus as on one server"
# (docs/design/0047-citus-show-conflicts-reconcile.md) The same databases,
# a reader given tenant t2 only and row security on (0013): its conflicts
# list t2's alone, show of a t1 record finds nothing and names no other
# tenant, show of a t2 record shows it; the same on both.
role_new "cl_citus_rs_$$" LOGIN
rs() {
	out="$TMP/rs.$1"
	: >"$out"
	run init -q --reader-role "cl_citus_rs_$$" --tenant-access "cl_citus_rs_$$=t2" --row-security on
	run conflicts --db "user=cl_citus_rs_$$" --all
	run show --db "user=cl_citus_rs_$$" --tenant t1 --trace 121042880000010
	run show --db "user=cl_citus_rs_$$" --trace 121042880000010
	run show --db "user=cl_citus_rs_$$" --tenant t2 --limit 2 --trace "$(q "select trace_number
		from clearing_record where tenant = 't2' order by natural_key limit 1")"
}
PGDATABASE=$plain rs plain
rs citus
grep -q '  tenant t2  ' "$TMP/rs.citus" || fail "the reader sees t2: $(cat "$TMP/rs.citus")"
! grep -q ' tenant t1 ' "$TMP/rs.citus" || fail "the reader sees t1: $(cat "$TMP/rs.citus")"
if ! cmp -s "$TMP/rs.plain" "$TMP/rs.citus"; then
	diff "$TMP/rs.plain" "$TMP/rs.citus" | head -n 40 >&2
	fail "row security: Citus and one server differ"
fi
echo "  $(grep -c '^\$ ' "$TMP/rs.citus") commands, $(wc -l <"$TMP/rs.citus") lines alike"

section "show --trace on Citus: the records in their shard, one connection to each worker"
# (docs/design/0055-citus-show-one-connection.md) show --trace of an ACH
# entry (no return or NOC under its own trace: the trace's shard alone) in
# the scenario's Citus database, every command the coordinator sends to a
# worker logged (citus.log_remote_commands, into the coordinator's log):
# the records are read in one shard (a router plan: the lookup names the
# shard; no cancellation statement, which would read every shard twice for
# an entry nothing can cancel), and all that show reads on a worker goes
# through one connection.  Before 0055: 65 reads of the records' shards, 3
# connections to each worker (measured on this machine).
# an entry with no parked version of its tenant under its shard value and
# no event under another key (else show must read the parked versions of
# every shard: t1's entries mostly have re-dated or changed copies parked)
trace= tenant=
for tt in $(q "select r.tenant || ':' || r.trace_number from clearing_record r
	where r.kind = 'ach.entry' and r.trace_number not in (select s.trace_number
		from clearing_trace_shard s)
	and not exists (select 1 from clearing_quarantine p where p.tenant = r.tenant
		and p.shard = r.shard)
	order by r.tenant desc, r.natural_key limit 200"); do
	other=0
	for lo in $(q "select load_id || ':' || ordinal from clearing_record
		where tenant = '${tt%%:*}' and trace_number = '${tt#*:}'"); do
		other=$((other + $(q "select count(*) from clearing_dedupe_event e
			where e.matched_load_id = ${lo%:*} and e.matched_ordinal = ${lo#*:}
			and e.matched_key is not null")))
	done
	[ "$other" != 0 ] || { tenant=${tt%%:*} trace=${tt#*:}; break; }
done
[ -n "$trace" ] || fail "no ACH entry with nothing parked in its shard"
log="$CL_CITUS_DIR/coord.log"
[ -f "$log" ] || fail "no coordinator log at $log"
before=$(wc -l <"$log")
PGOPTIONS="$PGOPTIONS -c citus.log_remote_commands=on -c log_min_messages=notice" \
	"$CL_BIN" show --tenant "$tenant" --trace "$trace" >"$TMP/show1" 2>&1 || fail "show: $(cat "$TMP/show1")"
grep -q "$trace" "$TMP/show1" || fail "show found no record: $(cat "$TMP/show1")"
tail -n +"$((before + 1))" "$log" >"$TMP/show1.log"
assert_eq "$(grep -c 'issuing .*clearing_record_[0-9]' "$TMP/show1.log")" 1 \
	"show --trace reads the records in one shard"
# (docs/design/0060-citus-show-routed.md) whether there are parked versions
# to show is asked of the record's shard alone (before 0060: every shard of
# the quarantine, 32 tasks); (0062) an ACH entry's events are read in its
# shard alone (before: every shard of the journal); the trace's shards
# still read every shard of their table, one task each, no more
assert_eq "$(grep -c 'issuing .*clearing_quarantine_[0-9]' "$TMP/show1.log")" 1 \
	"show --trace asks the quarantine in the record's shard alone"
shards=$(q "select shard_count from citus_tables where table_name = 'clearing_record'::regclass")
assert_eq "$(grep -c 'issuing .*clearing_trace_shard_[0-9]' "$TMP/show1.log")" "$shards" \
	"show --trace reads each shard of clearing_trace_shard once"
assert_eq "$(grep -c 'issuing .*clearing_dedupe_event_[0-9]' "$TMP/show1.log")" 1 \
	"show --trace reads the journal in the entry's shard alone"
# each worker: the connections show's commands went through
for w in $w1 $w2; do
	n=$(grep -o "on server [^ ]*:$w connectionId: [0-9]*" "$TMP/show1.log" | sort -u | wc -l)
	[ "$n" -le 1 ] || fail "show opened $n connections to the worker on port $w"
done
echo "  1 read of the records' shards, 1 of the quarantine's, 1 of the journal's, $shards of the trace's, at most 1 connection to each worker"

section "reconcile and break on Citus do what they do on one server"
# (docs/design/0052-citus-reconcile.md) On a one-server database and a
# Citus one, each new: ours (a pain.001 of 7 in three PmtInf, an ACH file
# of 6 in two batches, a pacs.008 and its pacs.004), then statements that
# book one exact, one a cent off, one without its reference (suggested),
# one of the bank's own, a PmtInf as a batch, an ACH batch by its traces,
# an ACH entry the wrong way, a payment net of the bank's charges, the
# pacs.008 and its return; a pacs.002 that rejects a payment, then its
# booking (rejected_booked); break decisions (accept a suggestion, match
# by hand, write off, reopen) and reconcile again; a loader granted t1
# only under row security reconciles t1, is refused t2; the same output
# (times and UUIDs masked), matches, runs, breaks and decisions.  Before 0052
# reconcile exited 5 on Citus at its first statement, writing nothing;
# before 040 every break decision did.
# every reconcile statement that reads clearing_record has its form that
# reads the copy (reconcile_copy_NAME; without it a new statement would
# fail on Citus, or a changed one read the distributed table)
for n in $("$CL_TOOLS/loader_sql" --list); do
	case $n in reconcile_copy_*) continue ;; reconcile_*) ;; *) continue ;; esac
	"$CL_TOOLS/loader_sql" "$n" | grep -Eq '(FROM|JOIN)[[:space:]]+clearing_record([^_a-z.]|$)' || continue
	"$CL_TOOLS/loader_sql" --list | grep -qx "reconcile_copy_${n#reconcile_}" ||
		fail "$n reads clearing_record and has no Citus form (sql/loader/reconcile_copy.sql)"
done
GEN="python3 $CL_ROOT/tests/db/stmt_gen.py"
"$CL_TOOLS/gen_iso" --type pain.001 --tx 7 --per-pmtinf 3 --seed 7 >"$TMP/rp.xml"
"$CL_TOOLS/gen_ach" --entries 6 --batch-size 3 --seed 3 --effective 260303 >"$TMP/ra.ach"
CH="$TESTDATA/iso20022/corpus/chains/cbprplus_p.2.1.2"
RA=DE10718999515662907726
UETR=174c245f-2682-4291-ad67-2a41e530cd27
rsts() { # MSGID E2E STATUS REASON
	cat <<X
<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pacs.002.001.10"><FIToFIPmtStsRpt>
<GrpHdr><MsgId>$1</MsgId><CreDtTm>2026-03-04T10:00:00</CreDtTm></GrpHdr>
<OrgnlGrpInfAndSts><OrgnlMsgId>MSG-7</OrgnlMsgId><OrgnlMsgNmId>pain.001.001.09</OrgnlMsgNmId></OrgnlGrpInfAndSts>
<TxInfAndSts><OrgnlEndToEndId>$2</OrgnlEndToEndId><TxSts>$3</TxSts><StsRsnInf><Rsn><Cd>$4</Cd></Rsn></StsRsnInf></TxInfAndSts>
</FIToFIPmtStsRpt></Document>
X
}
# rid_of REASON: the id of the first item of that reason in the last run's JSON
rid_of() { sed -n "s/.*\"reason\":\"$1\".*\"id\":\"\([er][0-9.]*\)\".*/\1/p" "$TMP/so" | head -n 1; }
recon() {
	out="$TMP/recon.$1"
	: >"$out"
	# (RECON_INIT: init's first arguments, --columnar: every output alike)
	[ -z "${RECON_INIT:-}" ] || "$CL_BIN" init -q $RECON_INIT >/dev/null ||
		fail "init $RECON_INIT for $1"
	run init -q
	run load --tenant t1 "$TMP/rp.xml"
	run load --tenant t1 "$TMP/ra.ach"
	run load --tenant t1 "$CH/p.2.1.2_pacs.008_AtoB.xml"
	run load --tenant t1 "$CH/p.2.1.2_pacs.004_BtoA.xml"
	amt() { q "select amount_minor from clearing_record where tenant = 't1' and end_to_end_id = '$1'"; }
	a1=$(amt E2E-7-1) a2=$(amt E2E-7-2) a3=$(amt E2E-7-3) a7=$(amt E2E-7-7)
	pmt2=$(q "select sum(amount_minor) from clearing_record where tenant = 't1' and pmt_inf_id = 'PMT-2'")
	$GEN account=$RA date=2026-03-03 seq=1 >"$TMP/rs1.xml" <<S
$a1 EUR DBIT 2026-03-03 e2e=E2E-7-1
$((a2 + 1)) EUR DBIT 2026-03-03 e2e=E2E-7-2
$a3 EUR DBIT 2026-03-03
4242 EUR CRDT 2026-03-03 e2e=THEIRS-ONLY
$pmt2 EUR DBIT 2026-03-03 batch=3 pmtinf=PMT-2
S
	net1=$(q "select sum(case direction when 'credit' then -amount_minor else amount_minor end)
		from clearing_record where tenant = 't1' and kind = 'ach.entry' and batch_number = '0000001'")
	e4=$(q "select amount_minor from clearing_record where tenant = 't1' and trace_number = '121042880000004'")
	e5=$(q "select amount_minor from clearing_record where tenant = 't1' and trace_number = '121042880000005'")
	$GEN account=GB33BUKB20201555555555 ccy=USD date=2026-03-03 seq=2 >"$TMP/rs2.xml" <<S
$net1 USD CRDT 2026-03-03 batch=3 traces=121042880000001,121042880000002,121042880000003
$e4 USD CRDT 2026-03-03 trace=121042880000004
$e5 USD CRDT 2026-03-03 trace=121042880000005
S
	p8=$(q "select amount_minor from clearing_record where kind = 'pacs.008' and uetr = '$UETR'")
	p4=$(q "select amount_minor from clearing_record where kind = 'pacs.004' and orgnl_uetr = '$UETR'")
	$GEN account=96325874 ccy=USD date=2021-05-11 seq=3 >"$TMP/rs3.xml" <<S
$p8 USD DBIT 2021-05-11 uetr=$UETR
$p4 USD CRDT 2021-05-11 uetr=$UETR rtr=AC04
S
	rsts STS-R E2E-7-6 RJCT AC04 >"$TMP/rsts.xml"
	# E2E-7-7 booked net of the bank's charges of 150 (its instructed amount
	# ours); the status report rejects E2E-7-6, which S1 booked in PMT-2
	$GEN account=$RA date=2026-03-05 seq=4 >"$TMP/rs4.xml" <<S
$((a7 - 150)) EUR DBIT 2026-03-05 e2e=E2E-7-7 instd=$a7 chrgs=150
S
	run reconcile --tenant t1 --format json "$TMP/rs1.xml"
	sug=$(rid_of suggested) dif=$(rid_of differs) theirs=$(rid_of no_record)
	run reconcile --tenant t1 --format json "$TMP/rs1.xml"
	run reconcile --tenant t1 -v --ach-company 1100000000 "$TMP/rs2.xml"
	run reconcile --tenant t1 --format json "$TMP/rs3.xml"
	run load --tenant t1 "$TMP/rsts.xml"
	run reconcile --tenant t1 --format json "$TMP/rsts.xml"
	run reconcile --tenant t1 --format json "$TMP/rs4.xml"
	run break list --tenant t1
	run break accept --tenant t1 "$sug" --note "same amount and day, our E2E-7-3"
	run break match --tenant t1 "$dif" "$(q "select 'r' || load_id || '.' || ordinal from clearing_record
		where tenant = 't1' and end_to_end_id = 'E2E-7-2'")" --note "the bank's fee of one cent"
	run break write-off --tenant t1 "$theirs" --note "the bank's interest"
	run reconcile --tenant t1 -v "$TMP/rs1.xml"
	run break reopen --tenant t1 "$theirs" --note "not interest"
	run reconcile --tenant t1 --format json "$TMP/rs1.xml"
	run break list --tenant t1 --format json
	# a loader granted t1 only, row security on: its reconcile of t1 as
	# the owner's; of t2 (the same payments and statement there) refused
	run load --tenant t2 "$TMP/rp.xml"
	run load --tenant t2 "$TMP/rs4.xml"
	run init -q --loader-role "cl_citus_rl_$$" --tenant-access "cl_citus_rl_$$=t1" --row-security on
	run reconcile --db "user=cl_citus_rl_$$" --tenant t1 --format json "$TMP/rs4.xml"
	run reconcile --db "user=cl_citus_rl_$$" --tenant t2 --format json "$TMP/rs4.xml"
	run break list --db "user=cl_citus_rl_$$" --tenant t2
	q "select tenant, entry_kind, entry_key, record_kind, record_key, rule, run_id, difference_minor
	   from clearing_reconcile_match order by entry_key, record_key" >>"$out"
	q "select run_id, tenant, statements, refs, matched, unmatched_ours, unmatched_theirs,
		exceptions, suggested, new_matches from clearing_reconcile_run order by run_id" >>"$out"
	q "select tenant, run_id, statement_key, item_id, side, item_kind, item_key, status, reason,
		amount_minor, record_kind, record_key, record_ids from clearing_reconcile_break
	   order by run_id, item_id" >>"$out"
	q "select tenant, version, side, item_kind, item_key, item_id, action, reason
	   from clearing_break_decision order by decision_id, item_id" >>"$out"
}
role_new "cl_citus_rl_$$" LOGIN
rplain="cl_citus_rplain_$$"
db_also_drop "$rplain"
createdb "$rplain"
PGDATABASE=$rplain recon plain
db_also_drop "cl_citus_recon_$$"
createdb "cl_citus_recon_$$" && sh "$CL_DB_SETUP" "cl_citus_recon_$$"
PGDATABASE="cl_citus_recon_$$" recon citus
# (and in columnar storage, on one server and on Citus: reconcile reads a
# copy of the records there too, the days and files by the storage's own
# scan, docs/design/0065-columnar-lookups.md)
db_also_drop "${rplain}_col"
createdb "${rplain}_col"
PGDATABASE="${rplain}_col" RECON_INIT=--columnar recon columnar
db_also_drop "cl_citus_recon_col_$$"
createdb "cl_citus_recon_col_$$" && sh "$CL_DB_SETUP" "cl_citus_recon_col_$$"
PGDATABASE="cl_citus_recon_col_$$" RECON_INIT=--columnar recon citus_columnar
for c in columnar citus_columnar; do
	if ! cmp -s "$TMP/recon.plain" "$TMP/recon.$c"; then
		diff "$TMP/recon.plain" "$TMP/recon.$c" | head -n 40 >&2
		fail "reconcile or break: $c and one server's heap differ"
	fi
done
for w in '"reason":"matched"' '"reason":"differs"' '"reason":"suggested"' '"reason":"no_record"' \
	'"reason":"not_booked"' 'trace_batch 121042880000001: a batch of 3 records, count and sum exact' \
	'pmt_inf_id PMT-2: a batch of 3 records, count and sum exact' \
	'"reason":"rejected_booked","detail":"rejected by a status report (RJCT AC04) but booked"' \
	'booked net of charges of 1.50 EUR' '"original":{"kind":"pacs.008"' '^accepted  *camt' \
	'^matched_by_hand  *camt' '^written_off  *camt' 'decided: reopened (was written_off'; do
	grep -q -e "$w" "$TMP/recon.citus" || fail "reconcile on Citus: no $w: $(cat "$TMP/recon.citus")"
done
! grep -q -e '-> 5$' "$TMP/recon.citus" || fail "a command failed on Citus: $(grep -B1 -A3 -e '-> 5$' "$TMP/recon.citus")"
if ! cmp -s "$TMP/recon.plain" "$TMP/recon.citus"; then
	diff "$TMP/recon.plain" "$TMP/recon.citus" | head -n 40 >&2
	fail "reconcile or break: Citus and one server differ"
fi
echo "  $(grep -c '^\$ ' "$TMP/recon.citus") commands, $(wc -l <"$TMP/recon.citus") lines alike"

section "records a load applies spread over both workers"
q "select s.nodeport || ' ' || sum(r.result::bigint)
   from run_command_on_shards('clearing_record', \$\$select count(*) from %s\$\$) r
   join citus_shards s using (shardid) group by s.nodeport order by 1" >"$TMP/spread"
total=$(q "select count(*) from clearing_record")
assert_eq "$(wc -l <"$TMP/spread")" 2 "records on two nodes: $(cat "$TMP/spread")"
grep -qE "^($w1|$w2) " "$TMP/spread" || fail "not on the workers: $(cat "$TMP/spread")"
awk -v total="$total" '{ n += $2; if ($2 < total / 4) bad = 1 } END { exit !(n == total && !bad) }' \
	"$TMP/spread" || fail "$total records, at least a quarter on each worker: $(cat "$TMP/spread")"
assert_eq "$(q "select count(*) from pg_class where relname = 'clearing_record' and relkind = 'r'
	and pg_relation_size(oid) = 0")" 1 "nothing in the coordinator's own table"
echo "  $(tr '\n' ' ' <"$TMP/spread")"

section "the probes' plans: per shard, index probes only"
# Each Citus form of a dedupe probe, explained (tests/tools/loader_sql
# prints what the loader sends) in a session that does what a load does
# before it: the stage (every applied record of tenant t1 again, a tenth
# under changed keys), the journal rows, the settings.  The stage is a
# distributed table co-located with clearing_record (035): Citus plans each
# probe as one task per shard pair, a stage shard joined with the same
# shard of the records (the checks below); every task must read its shard
# by index probes only: a nested loop over the staged records, never a
# scan or a hash of a shard's records (the history).  A key given as a
# constant is one shard (a router plan).
stmt() {
	"$CL_TOOLS/loader_sql" "$1" | python3 "$CL_ROOT/tests/tools/plan_check.py" unwrap ||
		fail "loader_sql has no statement $1"
}
S="$TMP/plans.sql"
# emit LINE...: lines of the session (printf: no backslash is interpreted)
emit() { printf '%s\n' "$@" >>"$S"; }
: >"$S"
emit '\set ON_ERROR_STOP 1' "PREPARE setup AS $(stmt db_session_setup)" '\g /dev/null' \
	"EXECUTE setup('public')" '\g /dev/null' 'BEGIN;' 'SET LOCAL citus.explain_all_tasks = on;' \
	"SELECT set_config('clearing_load.load_id', '999999', true),
	        set_config('clearing_load.stage_nonce', '7', true);" '\g /dev/null' \
	"$(stmt stage_create_citus)" '\g /dev/null' \
	"INSERT INTO clearing_stage SELECT r.*, NULL, false, 7 FROM clearing_record r WHERE tenant = 't1';" \
	"UPDATE clearing_stage SET natural_key = natural_key || '~' WHERE ordinal % 10 = 0;" \
	"UPDATE clearing_stage SET load_id = 999999;"
for n in classify_citus_propagate classify_citus_no_hashjoin classify_citus_no_mergejoin \
	 classify_citus_no_jit classify_citus_no_seqscan; do
	emit "$(stmt $n)" '\g /dev/null'
done
for n in classify_event_create classify_event_index classify_match_create_citus \
	 classify_pending_all classify_alt_stage_citus; do
	emit "$(stmt $n)" '\g /dev/null'
done
# the writes of the alternate keys (041), the pending records' here and
# the applied records' at the end: each row moved to its key's shard
# worker to worker, not through the coordinator (read below)
emit '\echo @@write classify_alt_stage_citus' "EXPLAIN $(stmt classify_alt_stage_citus)" '\g'
# the sample's probe: the sampled records' ordinals in the stage
emit '\echo @@plan classify_sample_citus' "PREPARE s AS $(stmt classify_sample_citus)" '\g /dev/null' \
	"EXPLAIN EXECUTE s('{1,2,10,20}')" '\g'
# (classify_exact_citus's $1, the attempt's nonce, as the stage's: 7)
for n in classify_pending_citus classify_exact_citus classify_exact_journal_citus \
	 classify_near explain_park_rejected \
	 classify_rule_v1_citus classify_rule_batch_citus classify_alt_citus \
	 explain_park_held; do
	emit "\\echo @@plan $n" "EXPLAIN $(stmt $n | sed 's/\$1::bigint/7::bigint/')" '\g'
done
# the statements that still read the pending records on the coordinator
# (they leave out those journaled since, rows of a temporary table there):
# the pending records copied there first, as the loader does; the ordered
# path's re-probe then reads the distributed ones (cl_pending_stage)
emit "$(stmt classify_pending_local_citus)" '\g /dev/null'
emit "\\echo @@plan apply_raced_match_citus" "EXPLAIN $(stmt apply_raced_match_citus)" '\g'
# (its load id as a constant: Citus plans no EXPLAIN EXECUTE of a
# repartitioned INSERT ... SELECT with a parameter; the loader's
# PQexecParams runs it)
# the exact-key join's plain duplicates journaled from where it wrote them
# (0057; classify_exact_citus, explained above, wrote them)
emit '\echo @@write load_write_duplicates_citus' "EXPLAIN $(stmt load_write_duplicates_citus)" '\g'
emit '\echo @@write apply_alt_keys_citus' \
	"EXPLAIN $(stmt apply_alt_keys_citus | sed 's/\$1::bigint/999999/')" '\g'
emit 'ROLLBACK;'
psql -XAtq -f "$S" >"$TMP/plans" 2>"$TMP/plans.err" || fail "plans: $(cat "$TMP/plans.err")"
shards=$(q "select count(*) from citus_shards where table_name = 'clearing_record'::regclass")
# every read of a shard (a line "... on clearing_record_N", or of the
# alternate keys' clearing_alt_key_N, or of the journal's
# clearing_dedupe_event_N) must be an index scan whose next line
# is an Index Cond on the staged record (a column of an intermediate
# result or of a stage shard): a probe per staged record, the shard the
# inner side of the nested loop
awk -v shards="$shards" '
	/^@@plan / { name = $2; seen++; skip = 0; next }
	/^@@write / { skip = 1; next }
	skip { next }
	probe { probe = 0
		if ($0 !~ /Index Cond: .*(intermediate_result\.|clearing_(alt_)?stage\.|[( ]u\.)/) { print name ": not a probe per staged record: " last " / " $0; bad = 1 } }
	/ on clearing_(record|quarantine|alt_key|dedupe_event)_[0-9]+/ && !/Insert on/ { reads[name]++; last = $0
		if ($0 !~ /Index (Only )?Scan using clearing_(record|quarantine|alt_key|dedupe_event)_[a-z0-9_]+ on clearing_(record|quarantine|alt_key|dedupe_event)_[0-9]+/) {
			print name ": a shard read whole: " $0; bad = 1
		} else probe = 1 }
	/Task Count: / { if ($3 > tasks[name]) tasks[name] = $3 }
	END {
		if (seen != 11) { print "explained " seen " statements, not 11"; bad = 1 }
		for (n in tasks) if (tasks[n] != shards || !reads[n]) { print n ": " tasks[n] " tasks, " reads[n] " shard reads"; bad = 1 }
		exit bad
	}' "$TMP/plans" >"$TMP/plans.bad" || fail "$(head -c 4000 "$TMP/plans.bad")"
echo "  11 statements, $(grep -cE ' on clearing_(record|quarantine|alt_key|dedupe_event)_[0-9]' "$TMP/plans") shard reads, each an index probe per staged record"
# the probes of the distributed stage (migration 035): each task joins one
# shard of clearing_stage, read by its load_id, with the same shard of
# clearing_record (co-located: the shards of one hash range), by index,
# on the worker: no intermediate result sent, no repartition, no
# coordinator-side join
q "select s.shardid || ' ' || s.table_name || ' ' || p.shardminvalue from citus_shards s
   join pg_dist_shard p using (shardid)
   where s.table_name in ('clearing_record'::regclass, 'clearing_quarantine'::regclass,
	'clearing_stage'::regclass, 'clearing_alt_key'::regclass, 'clearing_alt_stage'::regclass)" \
	>"$TMP/shardmap"
# The alternate keys' probe (migration 041) joins the same way a shard of
# clearing_alt_stage with the same shard of clearing_alt_key (each in the
# alternate key's shard); the parking of a held file's records reads the
# stage's pending records with the journal rows and parked versions of
# their shard (docs/design/0054-alternate-keys-on-citus.md).  Every
# statement explained is held to it.  Any other Citus statement with a LATERAL is explained
# above (as a probe, or as a write: the alternate keys' two, whose LATERAL
# is a record's own two keys), or named here with why not: diff's batch probe
# (plan_batch_citus: Citus cannot EXPLAIN it in the settings' transaction,
# 0040), the conflicts' single-record reads (explain_fields_citus,
# explain_quarantine_citus: one key, a router plan, checked below) and
# show's events of ACH records (history_events_of_citus: the journal in
# the records' shards, a router plan whose shard reads the section "show
# --trace on Citus" counts, 0062).
unexplained="plan_batch_citus explain_fields_citus explain_quarantine_citus history_events_of_citus"
for n in $("$CL_TOOLS/loader_sql" --list); do
	case $n in *_citus) ;; *) continue ;; esac
	"$CL_TOOLS/loader_sql" "$n" | grep -q LATERAL || continue
	grep -qxE "@@(plan|write) $n" "$TMP/plans" || case " $unexplained " in *" $n "*) ;;
		*) fail "$n probes clearing_record and its plan is not read here" ;; esac
done
awk '
	FNR == NR { range[$1] = $3; next }
	/^@@plan / { name = $2; on = 1; seen++; next }
	/^@@write / { on = 0; next }
	!on { next }
	/intermediate_result|Repartition|Distributed Subplan|MapMergeJob/ {
		print name ": not co-located: " $0; bad = 1 }
	/->  Task$/ { check(); stage = ""; rec = "" }
	/ on clearing_(alt_)?stage_[0-9]+/ && !/Insert on/ { match($0, /clearing_(alt_)?stage_[0-9]+/); stage = substr($0, RSTART, RLENGTH); sub(/.*_/, "", stage)
		if ($0 !~ /(Index Scan using clearing_(alt_)?stage_load_[0-9]+|Bitmap Heap Scan) on/) { print name ": the stage shard read whole: " $0; bad = 1 } }
	/ on clearing_(record|quarantine|alt_key)_[0-9]+/ && !/Insert on/ { match($0, /on clearing_(record|quarantine|alt_key)_[0-9]+/)
		rec = substr($0, RSTART, RLENGTH); sub(/.*_/, "", rec); recs++ }
	function check() { if (stage == "" && rec == "") return; tasks++
		if (stage == "" || rec == "" || range[stage] != range[rec]) {
			print name ": a task joins stage shard " stage " with record shard " rec; bad = 1 } }
	END { check()
		if (seen != 11 || tasks < 11 || recs < tasks) { print "co-located plans: " seen " statements, " tasks " tasks, " recs " record shard reads"; bad = 1 }
		exit bad
	}' "$TMP/shardmap" "$TMP/plans" >"$TMP/plans.bad" || fail "$(head -c 4000 "$TMP/plans.bad")"
echo "  11 statements: every task one stage shard with the same record shard, by index"
awk '/^@@/ { name = ($1 == "@@write") ? $2 : ""; next }
	name != "" && /INSERT\/SELECT method: repartition$/ { ok[name] = 1 }
	END { n = split("classify_alt_stage_citus apply_alt_keys_citus", w, " ")
		for (i = 1; i <= n; i++) if (!ok[w[i]]) { print w[i] ": not a repartitioned INSERT ... SELECT"; bad = 1 }
		exit bad }' "$TMP/plans" >"$TMP/plans.bad" || fail "$(cat "$TMP/plans.bad"): $(grep -A3 '^@@write' "$TMP/plans")"
echo "  the alternate keys' two writes: repartitioned, worker to worker"
# a re-upload's matches written and journaled on the workers (0057): the
# exact-key join into the shards of clearing_stage_match, its duplicates
# from there into the journal's, each INSERT ... SELECT pushed down (one
# task per shard writing the shard it read: no INSERT/SELECT method line,
# which a pull to the coordinator or a repartition would print)
for w in classify_exact_citus:clearing_stage_match load_write_duplicates_citus:clearing_dedupe_event; do
	awk -v name="${w%%:*}" -v target="${w#*:}" -v shards="$shards" '
		/^@@/ { on = ($2 == name); next }
		!on { next }
		/INSERT\/SELECT method/ { print name ": " $0; bad = 1 }
		$0 ~ "Insert on " target "_[0-9]+" { ins++ }
		/Task Count: / { tasks = $3 }
		END { if (ins != shards || tasks != shards) { print name ": " tasks " tasks, " ins " inserts into shards of " target ", not " shards; bad = 1 }
			exit bad }' "$TMP/plans" >"$TMP/plans.bad" ||
		fail "$(cat "$TMP/plans.bad"): $(sed -n "/^@@[a-z]* ${w%%:*}\$/,/^@@/p" "$TMP/plans" | head -n 40)"
done
echo "  a re-upload's matches and their journal rows written by the workers, each task in its shard"
# one key as a constant: one shard (a router plan), as show and the
# single-record probes see it
plan=$(printf '%s\n' "explain select * from clearing_record r where r.tenant = 't1'
	and r.kind = 'ach.entry' and r.natural_key = '1100000000|121042880000010|2026-03-02'
	and r.shard = clearing_shard('ach.entry', '1100000000|121042880000010|2026-03-02')" | psql -XAtq)
echo "$plan" | grep -q 'Task Count: 1$' || fail "one key is not one shard: $plan"

section "the journal on the workers, beside the records"
# (docs/design/0049-journal-distributed.md, migration 037) The journal is
# distributed on the shard of the staged record each row is about,
# co-located with clearing_record: an exact re-upload's rows are written
# to the shards on both workers, each duplicate in the shard of the record
# it matched; none in the coordinator's own table.  Then prune (its
# DELETE refused by every shard's append-only trigger unless its
# maintenance setting reaches the workers), loads, conflicts and show give
# what they give on one server (new databases of each, the same commands).
journal_both() {
	out="$TMP/journal.$1"
	: >"$out"
	run init -q
	run load --tenant t1 "$TMP/big.ach"
	run load --tenant t1 "$TMP/big.ach"
	run load --tenant t1 --on-conflict=quarantine "$TMP/big-changed.ach"
	run load --tenant t1 "$TMP/big-redated.ach"
	[ "$1" = plain ] || journal_placed
	run prune --journal-before "$(date -u -d tomorrow +%F)" --duplicates-only
	run loads
	run conflicts --all
	run show --tenant t1 --trace "$(q "select trace_number from clearing_record
		where tenant = 't1' order by natural_key limit 1")"
	q "select load_id, ordinal, reason, matched_load_id, matched_ordinal, shard
	   from clearing_dedupe_event order by load_id, ordinal, reason" >>"$out"
	q "select loads, events, duplicates_only from clearing_prune_audit order by prune_id" >>"$out"
}
journal_placed() {
	assert_eq "$(q "select duplicate_count from clearing_load where load_id = 2")" 3000 \
		"load 2 is an exact re-upload"
	q "select s.nodeport || ' ' || sum(r.result::bigint)
	   from run_command_on_shards('clearing_dedupe_event',
		\$\$select count(*) from %s where load_id = 2\$\$) r
	   join citus_shards s using (shardid) group by s.nodeport order by 1" >"$TMP/jspread"
	assert_eq "$(wc -l <"$TMP/jspread")" 2 "the re-upload's journal rows on two nodes: $(cat "$TMP/jspread")"
	grep -qE "^($w1|$w2) " "$TMP/jspread" || fail "not on the workers: $(cat "$TMP/jspread")"
	awk '{ n += $2; if ($2 < 750) bad = 1 } END { exit !(n == 3000 && !bad) }' "$TMP/jspread" ||
		fail "3000 journal rows, at least a quarter on each worker: $(cat "$TMP/jspread")"
	assert_eq "$(q "select pg_relation_size('clearing_dedupe_event'::regclass)")" 0 \
		"nothing in the coordinator's own journal table"
	# each duplicate and conflict in the shard of the record it matched
	assert_eq "$(q "with e as materialized (select matched_load_id, matched_ordinal, shard
			from clearing_dedupe_event where reason <> 'near_duplicate'),
		r as materialized (select load_id, ordinal, shard from clearing_record)
		select count(*) || ' ' || count(*) filter (where r.shard <> e.shard)
		from e join r on r.load_id = e.matched_load_id and r.ordinal = e.matched_ordinal")" \
		"$(q "select count(*) || ' 0' from clearing_dedupe_event where reason <> 'near_duplicate'")" \
		"every duplicate and conflict beside its record"
	echo "  the re-upload's journal rows: $(tr '\n' ' ' <"$TMP/jspread")"
}
db_also_drop "cl_citus_jplain_$$"
createdb "cl_citus_jplain_$$"
PGDATABASE="cl_citus_jplain_$$" journal_both plain
db_also_drop "cl_citus_journal_$$"
createdb "cl_citus_journal_$$" && sh "$CL_DB_SETUP" "cl_citus_journal_$$"
PGDATABASE="cl_citus_journal_$$" journal_both citus
grep -q '^pruned [1-9][0-9]* journal rows' "$TMP/journal.citus" || fail "prune on Citus: $(cat "$TMP/journal.citus")"
if ! cmp -s "$TMP/journal.plain" "$TMP/journal.citus"; then
	diff "$TMP/journal.plain" "$TMP/journal.citus" | head -n 40 >&2
	fail "the journal, prune, loads, conflicts, show: Citus and one server differ"
fi
assert_eq "$(PGDATABASE="cl_citus_journal_$$" q "select count(*) from clearing_dedupe_event
	where reason = 'duplicate'")" 0 "duplicates pruned"
echo "  $(grep -c '^\$ ' "$TMP/journal.citus") commands, $(wc -l <"$TMP/journal.citus") lines alike"
export PGDATABASE="cl_citus_scn_$$"

section "exact matches journaled at the join, undone for a conflict or a held file"
# (docs/design/0061-exact-matches-journaled-at-the-join.md) A staged file's
# exact-key join writes its matches straight into the journal, after a
# savepoint; a conflict among them, or a file then held, undoes that and
# classifies the file again with the matches kept beside the stage (the
# failpoint classify_again is on that way alone).  Files: 100 entries
# dated 03-02 and 100 more dated 03-03 applied; then the 200 dated 03-02
# (100 exact duplicates, 100 near duplicates of the second ones), and the
# first 100 with every 7th amount changed (exact conflicts).
: "${CL_BIN_FP:?CL_BIN_FP must name the failpoint build}"
"$CL_TOOLS/gen_ach" -n 100 --seed 9 -e 260302 >"$TMP/jj-a.ach"
"$CL_TOOLS/gen_ach" -n 100 --seed 9 --start 100 -e 260303 >"$TMP/jj-b.ach"
"$CL_TOOLS/gen_ach" -n 200 --seed 9 -e 260302 >"$TMP/jj-ab.ach"
"$CL_TOOLS/gen_ach" -n 100 --seed 9 -e 260302 --bump-amount-every 7 >"$TMP/jj-a7.ach"
db_also_drop "cl_citus_jj_$$"
createdb "cl_citus_jj_$$" && sh "$CL_DB_SETUP" "cl_citus_jj_$$"
export PGDATABASE="cl_citus_jj_$$"
cl init -q || fail "init"
cl load -q "$TMP/jj-a.ach" "$TMP/jj-b.ach" || fail "the first loads"
journal() { q "select string_agg(reason || ' ' || n, ' ' order by reason)
	       from (select reason, count(*) as n from clearing_dedupe_event
		     where load_id = (select max(load_id) from clearing_load) group by reason) e"; }
events() { q "select count(*) from clearing_dedupe_event"; }
# an exact re-upload: journaled at the join, never undone
CL_FAILPOINT=classify_again expect_exit 0 "$CL_BIN_FP" load "$TMP/jj-a.ach"
assert_eq "$(journal)" "duplicate 100" "the exact re-upload's journal rows"
# undone_held_quarantined FILE HELD QUARANTINED [FP]: FILE's
# classification undone (killed at classify_again: nothing applied,
# nothing journaled), then FILE held with the journal HELD (no duplicate),
# then quarantined with the journal QUARANTINED; FP set: quarantined with
# the failpoint armed, so a quarantined FILE must not reach the undo
undone_held_quarantined() {
	before=$(events)
	CL_FAILPOINT=classify_again expect_exit 137 "$CL_BIN_FP" load "$1"
	assert_eq "$(events)" "$before" "$1 killed where its classification is undone: nothing journaled"
	expect_exit 4 "$CL_BIN" load "$1"
	assert_eq "$(journal)" "$2" "$1 held: its journal"
	if [ -n "${4:-}" ]; then
		CL_FAILPOINT=classify_again expect_exit 8 "$CL_BIN_FP" load --on-conflict=quarantine "$1"
	else
		expect_exit 8 "$CL_BIN" load --on-conflict=quarantine "$1"
	fi
	assert_eq "$(journal)" "$3" "$1 quarantined: its journal"
}
# 100 duplicates and 100 near duplicates: undone for the held file, held
# with its near duplicates alone; quarantined, it keeps its duplicates,
# journaled at the join (never undone)
undone_held_quarantined "$TMP/jj-ab.ach" "near_duplicate 100" "duplicate 100 near_duplicate 100" fp
# exact conflicts: undone at once (the journal's rows that are not plain
# duplicates), held with its conflicts alone; quarantined, its duplicates
# and conflicts
undone_held_quarantined "$TMP/jj-a7.ach" "conflict 14" "conflict 14 duplicate 86"
assert_eq "$(q "select count(*) from clearing_record")" 200 "200 records, each applied once"
assert_eq "$(q "select count(*) from clearing_stage_match")" 0 "no match row left"
export PGDATABASE="cl_citus_scn_$$"

section "four loaders of overlapping files at once, one killed"
: "${CL_BIN_FP:?CL_BIN_FP must name the failpoint build}"
# overlapping ranges of ACH entries and pain.001 transactions (as
# tests/db/test_concurrency.sh), each round under a tenant of its own;
# one loader killed just before its COMMIT, then its files loaded again:
# every record applied exactly once, the counts add up.  Rounds 3 and 4 in
# a database whose records are in columnar storage (init --columnar, 046)
i=0
for start in 0 200 400 600; do
	"$CL_TOOLS/gen_ach" -n 400 --start "$start" --seed 7 >"$TMP/a$i.ach"
	"$CL_TOOLS/gen_iso" --type pain.001 --tx 250 --start $((start / 4 * 3 + 1)) --seed 7 \
		--msg-id "M$i" >"$TMP/p$i.xml"
	i=$((i + 1))
done
for f in "$TMP"/a*.ach "$TMP"/p*.xml; do
	"$CL_BIN" parse --format csv --no-mask "$f" | tail -n +2
done | cut -d, -f4,5 | sort -u >"$TMP/union"
want=$(wc -l <"$TMP/union")
heap_db=$PGDATABASE
for round in 1 2 3 4; do
	t="race$round"
	if [ "$round" = 3 ]; then
		PGDATABASE=cl_citus_colrace_$$
		db_also_drop "$PGDATABASE"
		createdb "$PGDATABASE" && sh "$CL_DB_SETUP" "$PGDATABASE"
		"$CL_BIN" init --columnar >"$TMP/init" || fail "init --columnar: $(cat "$TMP/init")"
		CL_INIT_ARGS=--columnar assert_init_args
	fi
	pids=""
	for i in 0 1 2 3; do
		if [ "$i" = 0 ]; then
			env CL_FAILPOINT=before_commit "$CL_BIN_FP" load --tenant "$t" --format json \
				"$TMP/a$i.ach" "$TMP/p$((3 - i)).xml" >"$TMP/r$i.json" 2>"$TMP/r$i.err" &
			killed=$!
		else
			"$CL_BIN" load --tenant "$t" --format json "$TMP/a$i.ach" "$TMP/p$((3 - i)).xml" \
				>"$TMP/r$i.json" 2>"$TMP/r$i.err" &
			pids="$pids $!"
		fi
	done
	for p in $pids; do
		wait "$p" || fail "round $round: a loader exited $?: $(cat "$TMP"/r*.err)"
	done
	set +e
	wait "$killed"
	rc=$?
	set -e
	assert_eq "$rc" 137 "round $round: the killed loader died by SIGKILL"
	# its files again, now that it is gone
	"$CL_BIN" load --tenant "$t" --format json "$TMP/a0.ach" "$TMP/p3.xml" >"$TMP/r0.json" 2>"$TMP/r0.err" ||
		fail "round $round: the killed loader's files again: $(cat "$TMP/r0.err")"
	assert_eq "$(q "select count(*) from clearing_record where tenant = '$t'")" "$want" \
		"round $round: every record once"
	assert_eq "$(q "select count(*) from (select 1 from clearing_record where tenant = '$t'
		group by kind, natural_key having count(*) > 1) d")" 0 "round $round: no key twice"
	reported=$(cat "$TMP"/r[0-3].json | grep '"type":"file"' | sed -n 's/.*"new":\([0-9]*\).*/\1/p' |
		awk '{ s += $1 } END { print s }')
	assert_eq "$reported" "$want" "round $round: the reported new counts add up to the rows"
	assert_eq "$(q "select sum(new_count) from clearing_load where tenant = '$t'")" "$want" \
		"round $round: the load rows add up"
	# (the journal is distributed, 037: its counts read on their own,
	# then compared with the coordinator's load rows)
	assert_eq "$(q "with e as materialized (select load_id, count(*) as n from clearing_dedupe_event
			where tenant = '$t' and reason = 'duplicate' group by load_id)
		select count(*) from clearing_load l left join e on e.load_id = l.load_id
		where l.tenant = '$t' and l.duplicate_count <> coalesce(e.n, 0)")" 0 \
		"round $round: the journal agrees with the duplicate counts"
	[ "$(q "select count(*) from clearing_dedupe_event where tenant = '$t' and reason = 'duplicate'")" -gt 0 ] ||
		fail "round $round: no duplicate journaled"
	assert_eq "$(q "select string_agg(result, ' ') from run_command_on_workers(
		\$\$select count(*) from pg_prepared_xacts\$\$)")" "0 0" "round $round: no prepared transaction left"
	# the distributed stage (migration 035) holds no row once the loads are
	# done, the killed one's neither (its transaction aborted)
	assert_eq "$(q "select count(*) from clearing_stage")" 0 "round $round: the stage is empty"
	assert_eq "$(q "select count(*) from clearing_stage_match")" 0 "round $round: no exact-key match is left (042)"
done
PGDATABASE=$heap_db

section "a re-upload waits for no other tenant's load (commutative writes)"
# Two tenants' exact re-uploads at once: A stopped at its COMMIT, holding
# every lock its statements took (its matches written, its duplicates
# journaled, its stage's and matches' rows deleted, all in every shard),
# while B runs whole.  They share no key, no originator lock (those are
# per tenant) and no feed commit (they apply nothing): B may wait for A
# only on the shard locks Citus takes for a multi-shard modification.  By
# default (citus.all_modifications_commutative off) a multi-shard DELETE
# locks each shard ShareUpdateExclusive until COMMIT, which conflicts with
# itself: B's deletes would wait for A's COMMIT, here for ever (A is
# stopped), and timeout ends B.  The loader runs those statements
# commutative (loader/load.c, cl_load_exec_commutative).
"$CL_TOOLS/gen_ach" -n 300 --seed 11 >"$TMP/w1.ach"
"$CL_TOOLS/gen_ach" -n 300 --seed 12 >"$TMP/w2.ach"
"$CL_BIN" load --tenant wait1 "$TMP/w1.ach" >/dev/null 2>"$TMP/w.err" || fail "wait1's load: $(cat "$TMP/w.err")"
"$CL_BIN" load --tenant wait2 "$TMP/w2.ach" >/dev/null 2>"$TMP/w.err" || fail "wait2's load: $(cat "$TMP/w.err")"
CL_FAILPOINT=before_commit:stop "$CL_BIN_FP" load --tenant wait1 --format json "$TMP/w1.ach" \
	>"$TMP/wa.json" 2>"$TMP/wa.err" &
a=$!
wait_stopped "$a" "wait1's re-upload" "$TMP/wa.err"
set +e
timeout 120 "$CL_BIN" load --tenant wait2 --format json "$TMP/w2.ach" >"$TMP/wb.json" 2>"$TMP/wb.err"
rc=$?
set -e
kill -CONT "$a"
[ "$rc" = 0 ] || { wait "$a" || true; fail "wait2's re-upload beside wait1's stopped one: exit $rc (124: it waited for it): $(cat "$TMP/wb.err")"; }
grep -q '"duplicate":300[,}]' "$TMP/wb.json" || fail "wait2's re-upload: $(cat "$TMP/wb.json")"
wait "$a" || fail "wait1's re-upload, continued: $(cat "$TMP/wa.err")"
grep -q '"duplicate":300[,}]' "$TMP/wa.json" || fail "wait1's re-upload: $(cat "$TMP/wa.json")"
assert_eq "$(q "select count(*) from clearing_dedupe_event where tenant in ('wait1', 'wait2') and reason = 'duplicate'")" 600 \
	"both re-uploads journaled their duplicates"
assert_eq "$(q "select count(*) from clearing_stage_match")" 0 "no exact-key match is left"

section "ingest: the database suite's tests on Citus"
# (docs/design/0047-citus-show-conflicts-reconcile.md) tests/db's ingest
# tests as they are, each in a Citus database of its own (tests/db/lib.sh
# db_new runs CL_DB_SETUP): an inbox walked, files moved once, a killed
# ingest resumed, a truncated file refused.  (test_ingest_events needs a
# trigger on clearing_record, which Citus refuses on a distributed table.)
for t in test_ingest test_ingest_truncated test_ingest_killed; do
	sh "$CL_ROOT/tests/db/$t.sh" >"$TMP/$t.log" 2>&1 || fail "$t on Citus: $(tail -n 20 "$TMP/$t.log")"
done

section "roles and row security: the database suite's tests on Citus"
# (docs/design/0047-citus-show-conflicts-reconcile.md, "Roles and row
# security on Citus") tests/db's tests as they are, each in a Citus
# database of its own.  test_privileges_enforced: a loader role (not the
# owner) loads, the feed commit taken for it by clearing_take_feed_commit
# (036); the loader writes no load row, archive path or commit number but
# its own.  Without 036 its first load fails on Citus ("modified in this
# transaction by a different user").  test_feed_keys: a consumer under row
# security, refused when blind, fed its tenant's records when granted one.
# Without feed_records' page read first (feed.sql) that read crashes the
# coordinator (Citus 13.2.2, signal 11).  test_privileges_enforced's loads
# by a loader under row security whose rows the coordinator computes (near
# duplicates quarantined, a held file, a resolution): without RETURNING on
# those inserts Citus COPYs them into the shards, which row security
# refuses (0046).  Then a statement reconciled twice and a break written
# off by that loader: reconcile reads the shards and writes the
# coordinator's tables (0052).
for t in test_privileges_enforced test_feed_keys; do
	sh "$CL_ROOT/tests/db/$t.sh" >"$TMP/$t.log" 2>&1 || fail "$t on Citus: $(tail -n 20 "$TMP/$t.log")"
done

section "the ordered retry on Citus, as the owner and under row security"
# tests/db/test_ordered_retry.sh as it is, in a Citus database: a load
# stopped after classifying while another commits keys of its file; its
# insert fails on a worker's unique index, the file is retried on the
# ordered path (0018), where a third load's key, committed meanwhile, is
# skipped and journaled from the workers' matches (apply.c, journal_raced);
# then the same as a loader role under row security, whose journal rows
# and ordered insert the coordinator writes with RETURNING (0046).
sh "$CL_ROOT/tests/db/test_ordered_retry.sh" >"$TMP/ordered.log" 2>&1 ||
	fail "test_ordered_retry on Citus: $(tail -n 20 "$TMP/ordered.log")"

section "the loader's count checks on Citus"
# tests/db/test_internal_checks.sh's Citus part: a trigger an administrator
# puts on the distributed journal (citus.enable_unsafe_triggers) that drops
# a duplicate's row; the re-upload's count of duplicates journaled on the
# workers falls short and nothing is applied.
sh "$CL_ROOT/tests/db/test_internal_checks.sh" >"$TMP/checks.log" 2>&1 ||
	fail "test_internal_checks on Citus: $(tail -n 20 "$TMP/checks.log")"

section "columnar storage on one server (a plain database of the coordinator)"
# tests/citus/test_columnar.sh: init --columnar and the database suite's
# load, re-upload, race and retry tests in columnar storage (045), which
# needs Citus's citus_columnar extension installed, as here
CL_DB_SETUP= sh "$here/test_columnar.sh" >"$TMP/columnar.log" 2>&1 ||
	fail "test_columnar: $(tail -n 20 "$TMP/columnar.log")"

section "columnar storage on Citus: the distributed table's shards"
# the same test in Citus databases (046): init --columnar converts every
# shard on both workers (a new database and a loaded one), returns noted
# by the shards' statement triggers, the key sample's probe an index scan
# in every shard's task (the database's settings, on the workers), the
# owner's refusal, the ordered retry and the count checks
sh "$here/test_columnar.sh" >"$TMP/columnar_citus.log" 2>&1 ||
	fail "test_columnar on Citus: $(tail -n 20 "$TMP/columnar_citus.log")"

echo "citus: all sections passed in $(($(date +%s) - started)) s"
