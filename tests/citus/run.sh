#!/bin/sh
# tests/citus/run.sh - clearing-load on a Citus coordinator with two workers
# (issue 31; docs/design/0023-citus-distribution.md).
#
#   CL_BIN=./clearing-load sh tests/citus/run.sh
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
	"clearing_quarantine distributed shard, clearing_record distributed shard, clearing_tenant_access reference <none>, clearing_trace_shard distributed shard" \
	"the tables Citus holds"
assert_eq "$(q "select count(distinct colocation_id) from citus_tables where citus_table_type = 'distributed'")" 1 \
	"the distributed tables are co-located"
# the journal, the load history and the feed stay the coordinator's
assert_eq "$(q "select count(*) from pg_dist_partition where logicalrelid::text in
		('clearing_load', 'clearing_dedupe_event', 'clearing_feed_commit', 'clearing_feed_consumer')")" 0 \
	"ordered tables stay local"
assert_eq "$(q "select pg_get_indexdef('clearing_record_key'::regclass)")" \
	"CREATE UNIQUE INDEX clearing_record_key ON public.clearing_record USING btree (tenant, kind, natural_key, shard)" \
	"the unique key contains the distribution column"
cl init >"$TMP/out" || fail "second init"
grep -q "up to date at version $latest" "$TMP/out" || fail "second init said: $(cat "$TMP/out")"

# 025 runs again harmlessly (a table already distributed is left as it is)
q "delete from clearing_schema_version where version >= $citus_v" >/dev/null
cl init >"$TMP/out" || fail "init running 025 again"
grep -q "applied $citus_again migration" "$TMP/out" || fail "025 again: $(cat "$TMP/out")"
assert_eq "$(q "select count(*) from citus_tables")" 4 "the same tables after 025 again"

section "a database loaded before Citus: 025 distributes its records"
up="cl_citus_up_$$"
db_also_drop "$up"
createdb "$up"
export PGDATABASE="$up"
cl init -q --row-security on || fail "init without citus"
cl load -q "$TESTDATA/demo/original.ach" || fail "load without citus"
cl load -q "$TESTDATA/near/return.ach" || fail "returns without citus"
record_dump >"$TMP/up_before"
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
cl init -q || fail "init distributing a loaded database"
assert_eq "$(q "select count(*) from citus_tables where citus_table_type = 'distributed'")" 3 \
	"distributed on upgrade"
record_dump >"$TMP/up_after"
cmp -s "$TMP/up_before" "$TMP/up_after" || fail "records changed by the distribution"
assert_eq "$(q "select count(*) from clearing_trace_shard")" "$traces_before" "trace shards moved"
assert_eq "$(q "select pg_relation_size('clearing_record') + pg_relation_size('clearing_trace_shard')")" 0 \
	"no copy of the records left in the coordinator's own tables"
assert_eq "$(q "select count(*) from pg_policy where polrelid = 'clearing_record'::regclass
		and pg_get_expr(polqual, polrelid) = '(tenant = ANY (clearing_visible_tenants()))'")" 1 \
	"row security kept, with the policy Citus can send"
assert_eq "$(q "select count(*) from run_command_on_shards('clearing_record',
		\$\$select count(*) from %s\$\$) where result::bigint > 0")" \
	"$(q "select count(distinct get_shard_id_for_distribution_column('clearing_record', shard))
	      from clearing_record")" "every record in the shard of its shard value"
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

section "every dedupe probe of a record goes to one shard"
# The probes of sql/loader/classify.sql, each with the staged record c of
# one applied key (its columns as values): one task, and the record found.
c_kind="'ach.entry'"
c_key="'1234567890|000000000000007|2026-01-05'"
probe() {
	sed -n "/^-- fragment: $1\$/,/^\$/p" "$CL_ROOT/sql/loader/classify.sql" | grep -v '^--' |
		sed "s/c\.kind/$c_kind/g; s/c\.natural_key/$2/g;
		     s/c\.shard/clearing_shard($c_kind, $c_key)/g;
		     s/c\.near_key/r.near_key/g; s/c\.value_date/date '2026-01-05'/g;
		     s/c\.company_id/'1234567890'/g; s/c\.trace_number/'000000000000007'/g"
}
for p in classify_probe_exact:"$c_key":1 classify_probe_near:"'other'":0 \
	 classify_probe_rule_v1:"$c_key":0 classify_probe_rule_batch:"$c_key":1; do
	name=${p%%:*}; rest=${p#*:}; key=${rest%:*}; want=${rest##*:}
	sql=$(probe "$name" "$key")
	[ -n "$sql" ] || fail "no fragment $name in sql/loader/classify.sql"
	# the tenant as the loader names it, a setting: Citus sends a SET LOCAL
	# to the workers only when told to (finding of issue 31: the loader's
	# set_config is not sent, a worker does not know the setting)
	plan=$(printf '%s\n' "begin;" "set local citus.propagate_set_commands = 'local';" \
		"set local clearing_load.tenant = 't1';" "explain $sql;" "commit;" |
		psql -XAtq -v ON_ERROR_STOP=1)
	echo "$plan" | grep -q 'Task Count: 1$' || fail "$name is not a one-shard plan: $plan"
	got=$(printf '%s\n' "begin;" "set local citus.propagate_set_commands = 'local';" \
		"set local clearing_load.tenant = 't1';" "select count(*) from ($sql) x;" "commit;" |
		psql -XAtq -v ON_ERROR_STOP=1)
	assert_eq "$got" "$want" "$name: rows found"
done

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

section "a load on Citus fails closed (the classification is not distributable yet)"
# Known gap of issue 31 (docs/design/0023-citus-distribution.md): the probes are
# LATERAL joins of the staged records with clearing_record, which Citus
# cannot push down.  Until they are rewritten, a load must fail whole,
# leaving nothing: no record, no load row.
before=$(q "select count(*) from clearing_record")
expect_exit 5 cl load --tenant t1 "$TESTDATA/demo/original.ach"
grep -q "cannot push down this subquery (SQLSTATE 0A000): nothing from this file was applied" "$TMP/err" ||
	fail "load: $(cat "$TMP/err")"
assert_eq "$(q "select count(*) from clearing_record")" "$before" "nothing applied"
assert_eq "$(q "select count(*) from clearing_load")" 0 "no load row"

echo "citus: all sections passed in $(($(date +%s) - started)) s"
