#!/bin/sh
# tests/bench/key_layout.sh - the evidence behind the ACH key's layout
# (clearing-load-keys(7), "Decision: the date stays last"): the cost of a
# day's inserts into a primary key that holds DAYS earlier days, with the
# effective date last in the key (rule v1: company|trace|date) and first
# (date|company|trace), on the server PG* names.  Trace numbers restart
# every day (the worst case for v1: each new key lands beside its twin of
# every earlier day, all through the index); a checkpoint before each day,
# as the night's would be, so full-page writes count.  Only the key
# columns and a 300-byte row, not clearing_record.
#   KL_DAYS (default 20), KL_N entries a day (default 1000000), 8 originators.
# Prints one line per layout: seconds for the day, WAL bytes, index size.
set -eu
DAYS=${KL_DAYS:-20}
N=${KL_N:-1000000}
DB=cl_key_layout_$$
createdb "$DB"
trap 'dropdb --if-exists "$DB" >/dev/null 2>&1 || true' EXIT
sql() { psql -XAtq -v ON_ERROR_STOP=1 -d "$DB" -c "$1"; }
# key LAYOUT DAY: the SQL expression of day DAY's keys (i: 0..N-1)
key() {
	case $1 in
	v1) echo "lpad((i % 8)::text, 10, '1') || '|0910000' || lpad((i / 8)::text, 8, '0') || '|' || (date '2026-01-01' + $2)" ;;
	date) echo "(date '2026-01-01' + $2) || '|' || lpad((i % 8)::text, 10, '1') || '|0910000' || lpad((i / 8)::text, 8, '0')" ;;
	esac
}
for layout in v1 date; do
	sql "create unlogged table h (d int, i int); insert into h select d, i
	     from generate_series(0, $DAYS - 1) d, generate_series(0, $N - 1) i"
	sql "create table t_$layout (tenant text, kind text, natural_key text, pad text);
	     insert into t_$layout select 'default', 'ach.entry', $(key "$layout" d), repeat('x', 300) from h order by random();
	     alter table t_$layout add primary key (tenant, kind, natural_key);
	     drop table h"
	sql "vacuum analyze t_$layout"
	sql "checkpoint"
	lsn0=$(sql "select pg_current_wal_lsn()")
	t0=$(date +%s%N)
	sql "insert into t_$layout select 'default', 'ach.entry', $(key "$layout" "$DAYS"), repeat('x', 300)
	     from generate_series(0, $N - 1) i"
	t1=$(date +%s%N)
	wal=$(sql "select pg_current_wal_lsn() - '$lsn0'::pg_lsn")
	idx=$(sql "select pg_relation_size('t_${layout}_pkey')")
	printf '%-5s %d days of %d: day %d inserted in %s s, WAL %s MB, key index %s MB\n' \
		"$layout" "$DAYS" "$N" "$((DAYS + 1))" "$(awk "BEGIN { printf \"%.2f\", ($t1 - $t0) / 1e9 }")" \
		"$((wal / 1048576))" "$((idx / 1048576))"
	sql "drop table t_$layout"
	sql "checkpoint"
done
