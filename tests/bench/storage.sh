#!/bin/sh
# tests/bench/storage.sh - what a record costs on disk: the heap (with its
# TOAST) and each index of clearing_record, per record and per entry, and
# the journal (clearing_dedupe_event) per event, on the server PG* names.
# Not part of `make bench` (about 4 minutes at 1M records, 15 at 10M on a
# 2-core machine under other load).
#
# The first ST_BASE records (default 1,000,000) are loaded by clearing-load
# itself from generated files, a realistic mix: 70% ACH entries (8
# originators, one file), 20% pain.001, 10% pacs.008 (the same payments
# forwarded: the pacs.008 of a pain.001 shares its UETR and EndToEndId);
# the ACH entries in ST_DAYS (default 5) daily files, other payments each
# day under the same trace numbers (originators that restart them daily: a
# day's keys land beside their twins of every earlier day, as they would
# in a table of years); then a tenth of the first day again (a duplicate
# journal row per entry).
# Each index then holds what the loads left in it, page splits and all.
# With ST_N above ST_BASE, copies of the loaded rows are added in SQL until
# the table holds ST_N, as a restore would (indexes dropped, rows inserted,
# indexes rebuilt: packed to their fillfactor, a lower bound of what loads
# would leave): copy k of an ACH entry is the same originator and trace
# k * ST_DAYS days earlier (trace numbers restart daily: every key of the day has a
# twin of each earlier day), of an ISO record the same payment with every
# reference suffixed ".k" and a new UETR (each lookup index holds distinct
# values, as real ones would, not duplicates its B-tree would fold).
#   ST_N (default ST_BASE), ST_BASE (default 1000000), ST_KEEP=1 keeps the
# database, ST_INIT_ARGS: init's options (--columnar: docs/design/0063),
# ST_MIX=ach: the ACH entries alone (ST_BASE of them, the ST_DAYS files:
# the processor of issue 31, whose billion records are ACH entries).
# On a Citus coordinator (CL_DB_SETUP, as tests/citus/cluster.sh sets it, makes
# the new database a Citus one; init makes the schema distributed) the sizes are
# the shards' (citus_table_size, citus_relation_size); ST_N above ST_BASE is
# refused there.  Prints one row per relation: bytes, entries (the shards'
# on Citus: the record count), bytes a record (over every record), bytes an
# entry.
set -eu
BASE=${ST_BASE:-1000000}
DAYS=${ST_DAYS:-5}
N=${ST_N:-$BASE}
: "${CL_BIN:?CL_BIN must name the clearing-load binary}"
: "${CL_TOOLS:?CL_TOOLS must name the test tools (build/release/tools)}"
DB=cl_storage_$$
W=$(mktemp -d)
createdb "$DB"
# on a Citus cluster (tests/citus/cluster.sh names its database setup)
[ -z "${CL_DB_SETUP:-}" ] || sh "$CL_DB_SETUP" "$DB"
trap 'rm -rf "$W"; [ -n "${ST_KEEP:-}" ] || dropdb --if-exists "$DB" >/dev/null 2>&1 || true' EXIT
export PGDATABASE="$DB"
sql() { psql -XAtq -v ON_ERROR_STOP=1 -c "$1"; }
# shellcheck disable=SC2086
"$CL_BIN" init ${ST_INIT_ARGS:-} >"$W/init.out" 2>&1 || { cat "$W/init.out" >&2; exit 1; }

case ${ST_MIX:-mix} in
mix)
	ach=$((BASE * 7 / 10))
	p1=$((BASE * 2 / 10))
	p8=$((BASE - ach - p1)) ;;
ach) ach=$BASE p1=0 p8=0 ;;
*) echo "storage.sh: ST_MIX is mix or ach, not ${ST_MIX}" >&2; exit 2 ;;
esac
# citus: clearing_record is distributed (its sizes are its shards')
citus=f
if [ "$(sql "select to_regclass('pg_dist_partition') is not null")" = t ]; then
	citus=$(sql "select exists (select 1 from pg_dist_partition
				    where logicalrelid = 'clearing_record'::regclass)")
fi
if [ "$citus" = t ] && [ "$N" -gt "$BASE" ]; then
	echo "storage.sh: ST_N above ST_BASE (the copies made in SQL) is not done on Citus" >&2
	exit 2
fi
# the ACH entries as DAYS daily files of other payments under the same trace
# numbers (restarting daily: a day's keys land beside the earlier days')
per_day=$((ach / DAYS))
d=0
while [ "$d" -lt "$DAYS" ]; do
	"$CL_TOOLS/gen_ach" --entries "$per_day" --seed $((d + 1)) --effective "$(printf '2603%02d' $((2 + d)))" \
		--company-count 8 >"$W/day$d.ach"
	d=$((d + 1))
done
others=
if [ "$p1" -gt 0 ]; then
	"$CL_TOOLS/gen_ach" --entries $((per_day / 10)) --seed 1 --effective 260302 --company-count 8 >"$W/dup.ach"
	"$CL_TOOLS/gen_iso" --type pain.001 --tx "$p1" --seed 1 >"$W/p1.xml"
	"$CL_TOOLS/gen_iso" --type pacs.008 --tx "$p8" --seed 1 >"$W/p8.xml"
	others="p1.xml p8.xml dup.ach"
fi
# shellcheck disable=SC2086
for f in $(cd "$W" && ls day*.ach) $others; do
	"$CL_BIN" load -q "$W/$f" >"$W/load.out" 2>&1 || { cat "$W/load.out" >&2; exit 1; }
	rm -f "$W/$f"
done

if [ "$N" -gt "$BASE" ]; then
	copies=$(((N - BASE + BASE - 1) / BASE))
	names=$(sql "select string_agg(quote_ident(attname), ', ' order by attnum)
		     from pg_attribute where attrelid = 'clearing_record'::regclass and attnum > 0
		     and not attisdropped")
	# each column of copy k (x: the loaded row, u: copy k's new UETR)
	cols=$(sql "select string_agg(case
		when attname = 'natural_key' then 'case when x.kind like ''ach.%''
			then left(x.natural_key, length(x.natural_key) - 10) || (x.value_date - $DAYS * k)::text
			when x.uetr is not null and x.natural_key like ''uetr|%''
			then replace(x.natural_key, x.uetr, u) else x.natural_key || ''.'' || k end'
		when attname = 'value_date' then 'x.value_date - $DAYS * k'
		when attname in ('uetr') then 'case when x.uetr is null then null else u end'
		when attname in ('end_to_end_id', 'tx_id', 'instr_id', 'msg_id', 'pmt_inf_id', 'alt_key', 'alt_key2')
			then 'x.' || attname || ' || ''.'' || k'
		when attname = 'shard' then 'case when x.kind like ''ach.%'' then x.shard
			else clearing_shard(x.kind, case when x.uetr is not null and x.natural_key like ''uetr|%''
			then replace(x.natural_key, x.uetr, u) else x.natural_key || ''.'' || k end) end'
		when attname = 'load_id' then '1000000 + 100 * k + x.load_id'
		else 'x.' || quote_ident(attname) end, ', ' order by attnum)
	     from pg_attribute where attrelid = 'clearing_record'::regclass and attnum > 0
	     and not attisdropped")
	{
		echo "begin;"
		echo "set maintenance_work_mem = '512MB';"
		echo "alter table clearing_record disable trigger user;"
		echo "create temp table idx_def as select pg_get_indexdef(indexrelid) def, indexrelid::regclass::text name
		      from pg_index where indrelid = 'clearing_record'::regclass and not indisprimary;"
		echo "select 'drop index ' || name from idx_def \\gexec"
		echo "alter table clearing_record drop constraint clearing_record_key;"
		echo "insert into clearing_record ($names)
		      select $cols from clearing_record x, generate_series(1, $copies) k,
		      lateral (select gen_random_uuid()::text u where k > 0 and x.ordinal >= 0) g
		      where x.load_id < 1000000;"
		echo "alter table clearing_record add constraint clearing_record_key primary key (tenant, kind, natural_key);"
		echo "select def from idx_def \\gexec"
		echo "alter table clearing_record enable trigger user;"
		echo "commit;"
	} >"$W/grow.sql"
	psql -Xq -v ON_ERROR_STOP=1 -f "$W/grow.sql" >"$W/grow.out" 2>&1 || { cat "$W/grow.out" >&2; exit 1; }
fi
sql "vacuum analyze"

# one row per relation: the heap (with TOAST), each index, the journal
if [ "$citus" = t ]; then
	tsize=citus_table_size rsize=citus_relation_size
	# the coordinator's reltuples are its empty shell's: the row counts
	rtuples="(select n from r)" etuples="(select n from e)"
else
	tsize=pg_table_size rsize=pg_relation_size
	rtuples=c.reltuples::numeric etuples=c.reltuples::numeric
fi
sql "with r as (select count(*)::numeric n from clearing_record),
	e as (select count(*)::numeric n from clearing_dedupe_event),
	rel as (
	  select 1 o, 'clearing_record heap+toast' name,
		 $tsize('clearing_record') bytes, (select n from r) entries, 'r' per
	  union all
	  select 2, i.indexrelid::regclass::text, $rsize(i.indexrelid),
		 $rtuples, 'r'
	  from pg_index i join pg_class c on c.oid = i.indexrelid
	  where i.indrelid = 'clearing_record'::regclass
	  union all
	  select 3, 'clearing_dedupe_event heap', $tsize('clearing_dedupe_event'), (select n from e), 'e'
	  union all
	  select 4, i.indexrelid::regclass::text, $rsize(i.indexrelid),
		 $etuples, 'e'
	  from pg_index i join pg_class c on c.oid = i.indexrelid
	  where i.indrelid = 'clearing_dedupe_event'::regclass)
      select name, bytes, greatest(entries, 0)::bigint,
	     round(bytes / nullif(case per when 'r' then (select n from r) else (select n from e) end, 0), 1),
	     round(bytes / nullif(greatest(entries, 0), 0), 1)
      from rel order by o, bytes desc" >"$W/rows"
records=$(sql "select count(*) from clearing_record")
events=$(sql "select count(*) from clearing_dedupe_event")
printf '%d records (%s loaded), %d journal events\n' "$records" "$BASE" "$events"
printf '%-46s %14s %12s %10s %10s\n' relation bytes entries B/record B/entry
awk -F '|' '{ printf "%-46s %14s %12s %10s %10s\n", $1, $2, $3, $4, $5 }' "$W/rows"
awk -F '|' -v n="$records" '$1 !~ /dedupe_event/ { s += $2 } END {
	printf "%-46s %14.0f %12s %10.1f\n", "clearing_record with its indexes", s, "", s / n }' "$W/rows"
