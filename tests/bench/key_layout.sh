#!/bin/sh
# tests/bench/key_layout.sh - the evidence behind the ACH key's layout
# (clearing-load-keys(7), "Decision: the date stays last"): the cost of a
# day's inserts into a primary key that holds DAYS earlier days, with the
# effective date last in the key (rule v1: company|trace|date) and first
# (date|company|trace), on the server PG* names.  Trace numbers restart
# every day (the worst case for v1: each new key lands beside its twin of
# every earlier day, all through the index); a checkpoint before each day,
# as the night's would be, so full-page writes count.  Only the key
# columns and a KL_PAD-byte row, not clearing_record.
#   KL_DAYS (default 20), KL_N entries a day (default 1000000), 8 originators,
#   KL_PAD (default 300) bytes of padding a row,
#   KL_LOOKUPS=1: the table also has the two other indexes every ACH entry
#   enters whose order is the trace's, whatever the key's layout: the near
#   identity's (tenant, near_key, value_date; migration 010) and the trace's
#   (tenant, trace_number, day; migration 020).
# Prints one line per layout: seconds for the day, WAL bytes, index size;
# then, per index, its pages and the buffer reads and hits of the day's
# insert (pg_statio_user_indexes): on a server whose shared_buffers is much
# smaller than the index (a throwaway one with shared_buffers=16MB), the
# reads are the distinct pages the day had to bring in, what a server whose
# memory does not hold the index reads from disk (the OS page cache here
# may hold them, so the seconds are not that server's).
set -eu
DAYS=${KL_DAYS:-20}
N=${KL_N:-1000000}
PAD=${KL_PAD:-300}
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
# the other columns of day DAY's row i: the trace, the near identity (the
# trace, an account and an amount that depend on the entry only: the same
# payment every day), the date
rest() {
	echo "'0910000' || lpad((i / 8)::text, 8, '0'),
	      'E|' || lpad((i % 8)::text, 10, '1') || '|0910000' || lpad((i / 8)::text, 8, '0')
		|| '|' || lpad(((i::bigint * 7919) % 1000000000)::text, 12, '0') || '|091000019|' || (1000 + i % 90000),
	      date '2026-01-01' + $1, repeat('x', $PAD)"
}
sql "select 'shared_buffers ' || current_setting('shared_buffers')"
for layout in v1 date; do
	sql "create unlogged table h (d int, i int); insert into h select d, i
	     from generate_series(0, $DAYS - 1) d, generate_series(0, $N - 1) i"
	sql "create table t_$layout (tenant text, kind text, natural_key text, trace_number text,
	       near_key text, value_date date, pad text);
	     insert into t_$layout select 'default', 'ach.entry', $(key "$layout" d), $(rest d)
	     from h order by random();
	     alter table t_$layout add primary key (tenant, kind, natural_key);
	     drop table h"
	if [ -n "${KL_LOOKUPS:-}" ]; then
		sql "create index t_${layout}_near on t_$layout (tenant, near_key, value_date);
		     create index t_${layout}_trace on t_$layout (tenant, trace_number, (value_date - date '2000-01-01'))"
	fi
	sql "vacuum analyze t_$layout"
	sql "checkpoint"
	sql "select indexrelname, idx_blks_read, idx_blks_hit from pg_statio_user_indexes
	     where relname = 't_$layout'" >"/tmp/kl_$$.before"
	lsn0=$(sql "select pg_current_wal_lsn()")
	t0=$(date +%s%N)
	sql "insert into t_$layout select 'default', 'ach.entry', $(key "$layout" "$DAYS"), $(rest "$DAYS")
	     from generate_series(0, $N - 1) i"
	t1=$(date +%s%N)
	wal=$(sql "select pg_current_wal_lsn() - '$lsn0'::pg_lsn")
	idx=$(sql "select pg_relation_size('t_${layout}_pkey')")
	printf '%-5s %d days of %d: day %d inserted in %s s, WAL %s MB, key index %s MB\n' \
		"$layout" "$DAYS" "$N" "$((DAYS + 1))" "$(awk "BEGIN { printf \"%.2f\", ($t1 - $t0) / 1e9 }")" \
		"$((wal / 1048576))" "$((idx / 1048576))"
	# (the counters of the inserting session reach the view when it ends)
	sql "select indexrelname, pg_relation_size(indexrelid) / 8192, idx_blks_read, idx_blks_hit
	     from pg_statio_user_indexes where relname = 't_$layout' order by indexrelname" |
		while IFS='|' read -r name pages rd hit; do
			b=$(grep "^$name|" "/tmp/kl_$$.before" || echo "$name|0|0")
			rd0=$(echo "$b" | cut -d'|' -f2)
			hit0=$(echo "$b" | cut -d'|' -f3)
			printf '      %-14s %9d pages, the day read %9d and hit %9d\n' \
				"$name" "$pages" "$((rd - rd0))" "$((hit - hit0))"
		done
	rm -f "/tmp/kl_$$.before"
	sql "drop table t_$layout"
	sql "checkpoint"
done
