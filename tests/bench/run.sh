#!/bin/sh
# tests/bench/run.sh - `make bench`: the figures of issues 2-5, in one run on
# one machine, each beside its floor or baseline and its target.
#
#   parsers  NACHA validate / parse --format json on a 1,000,000-entry file,
#            beside `wc -l`; ISO 20022 validate on 200,000-transaction
#            pain.001 and pacs.008 files, beside `xmllint --stream --noout`.
#   loader   against a throwaway cluster (pg_virtualenv, or the server PG*
#            names): first load of 1,000,000 ACH entries, the exact
#            re-upload, a 90%-duplicate re-upload, and the first load of
#            1,000,000 new entries into a table holding >= 10,000,000 rows;
#            baseline: a plain COPY of the same rows into a table of the
#            same shape and indexes.
#
# Prints a table and writes it, with the date and the machine, to
# tests/out/bench/figures.md (the README's figures come from there).
# BENCH_QUICK=1 scales every size down 10x (a smoke run); BENCH_KEEP=1 keeps
# the generated files and the database (for EXPLAIN afterwards).
# Needs CL_BIN (clearing-load) and CL_TOOLS (gen_ach, gen_iso).
set -u
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
: "${CL_BIN:?CL_BIN must name the clearing-load binary}"
: "${CL_TOOLS:?CL_TOOLS must name the directory holding gen_ach and gen_iso}"

# A throwaway cluster unless PG* names a server.  Settings for a bulk
# workload (both the loader and the COPY baseline run under them).
PG_SETTINGS="shared_buffers=512MB max_wal_size=8GB checkpoint_timeout=30min autovacuum=off"
if [ -z "${PGHOST:-}${PGPORT:-}${PGDATABASE:-}${PGSERVICE:-}" ] && [ -z "${CL_IN_PGVENV:-}" ]; then
	if command -v pg_virtualenv >/dev/null 2>&1; then
		set --
		for s in $PG_SETTINGS; do set -- "$@" -o "$s"; done
		CL_IN_PGVENV=1 CL_BENCH_SETTINGS="$PG_SETTINGS" exec pg_virtualenv "$@" sh "$0"
	fi
	echo "bench: no pg_virtualenv and no PG* server: database figures skipped" >&2
fi

OUT="$root/tests/out/bench"
W="${BENCH_WORK:-$OUT/work}"
mkdir -p "$OUT" "$W"
RES="$W/results.tsv"
: >"$RES"

if [ -n "${BENCH_QUICK:-}" ]; then
	ACH_N=100000 ISO_N=20000 BASE_N=1000000 SCALE="BENCH_QUICK=1 (sizes / 10)"
else
	ACH_N=1000000 ISO_N=200000 BASE_N=10000000 SCALE="full"
fi

now_ns() { date +%s%N; }
log() { echo "bench: $*" >&2; }

# measure NAME CMD...: run CMD (stdout to /dev/null), record its wall time
# in seconds and its peak RSS in kB in $W/NAME.m as "SECONDS KB RC".
measure() {
	_n=$1
	shift
	# the parse figure is "parse --format json to /dev/null": its
	# 800 MB of JSON must not be timed as a disk write
	_out="$W/$_n.out"
	case $_n in parse_*) _out=/dev/null ;; esac
	_t0=$(now_ns)
	/usr/bin/time -f '%M' -o "$W/$_n.rss" "$@" >"$_out" 2>"$W/$_n.err"
	_rc=$?
	_t1=$(now_ns)
	_kb=$(tail -n 1 "$W/$_n.rss")
	case $_kb in '' | *[!0-9]*) _kb=0 ;; esac
	echo "$(awk -v a="$_t0" -v b="$_t1" 'BEGIN{printf "%.3f", (b-a)/1e9}') $_kb $_rc" >"$W/$_n.m"
	return $_rc
}

# best_of N NAME CMD...: the fastest of N runs (peak RSS: the largest).
best_of() {
	_k=$1
	_bn=$2
	shift 2
	_best=""
	_maxkb=0
	_i=0
	while [ "$_i" -lt "$_k" ]; do
		measure "$_bn" "$@" || { log "$_bn failed: $(head -c 400 "$W/$_bn.err")"; return 1; }
		read -r _s _kb _rc <"$W/$_bn.m"
		if [ -z "$_best" ] || awk -v a="$_s" -v b="$_best" 'BEGIN{exit !(a<b)}'; then _best=$_s; fi
		[ "$_kb" -gt "$_maxkb" ] && _maxkb=$_kb
		_i=$((_i + 1))
	done
	echo "$_best $_maxkb 0" >"$W/$_bn.m"
}

# row LABEL SECONDS BYTES RECORDS KB RATIO TARGET RESULT: one result line.
row() {
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$@" >>"$RES"
}

# fig NAME BYTES RECORDS LABEL [REF_NAME RATIO_TARGET MB_S_TARGET KB_TARGET]
# Record measurement NAME as a row: MB/s, records/s, peak memory, the ratio
# of its wall time to REF_NAME's and the verdict against the targets
# ("-" = none).
fig() {
	_name=$1 _bytes=$2 _recs=$3 _label=$4
	_ref=${5:--} _rt=${6:--} _mbt=${7:--} _kbt=${8:--}
	if [ ! -s "$W/$_name.m" ]; then
		row "$_label" "-" "-" "-" "-" "-" "$(target_text "$_rt" "$_mbt" "$_kbt" "$_ref")" "NOT RUN"
		return
	fi
	read -r _s _kb _rc <"$W/$_name.m"
	_ratio="-"
	if [ "$_ref" != "-" ] && [ -s "$W/$_ref.m" ]; then
		read -r _rs _rkb _rrc <"$W/$_ref.m"
		_ratio=$(awk -v a="$_s" -v b="$_rs" 'BEGIN{ if (b > 0) printf "%.2f", a/b; else print "-" }')
	fi
	_verdict=PASS
	_have_target=0
	if [ "$_rt" != "-" ]; then
		_have_target=1
		if [ "$_ratio" = "-" ] || awk -v r="$_ratio" -v t="$_rt" 'BEGIN{exit !(r>t)}'; then _verdict=MISS; fi
	fi
	if [ "$_mbt" != "-" ]; then
		_have_target=1
		awk -v b="$_bytes" -v s="$_s" -v t="$_mbt" 'BEGIN{exit !(b/1e6/s < t)}' && _verdict=MISS
	fi
	if [ "$_kbt" != "-" ]; then
		_have_target=1
		[ "$_kb" -gt "$_kbt" ] && _verdict=MISS
	fi
	[ "$_have_target" = 1 ] || _verdict="-"
	[ -f "$W/$_name.wrong" ] && _verdict="WRONG: $(cat "$W/$_name.wrong")"
	row "$_label" "$_s" \
		"$(awk -v b="$_bytes" -v s="$_s" 'BEGIN{ if (b > 0 && s > 0) printf "%.0f", b/1e6/s; else print "-" }')" \
		"$(awk -v r="$_recs" -v s="$_s" 'BEGIN{ if (s > 0) printf "%.0f", r/s; else print "-" }')" \
		"$(awk -v k="$_kb" 'BEGIN{printf "%.1f", k/1024}')" \
		"$_ratio" "$(target_text "$_rt" "$_mbt" "$_kbt" "$_ref")" "$_verdict"
}

target_text() {
	_t=""
	[ "$1" != "-" ] && _t="<= ${1}x $4"
	[ "$2" != "-" ] && _t="${_t:+$_t, }>= $2 MB/s"
	[ "$3" != "-" ] && _t="${_t:+$_t, }<= $(($3 / 1024)) MB"
	echo "${_t:--}"
}

size_of() { wc -c <"$1" | tr -d ' '; }

# ---------------------------------------------------------------- parsers
log "generating a $ACH_N-entry NACHA file and $ISO_N-transaction pain.001 / pacs.008 files"
"$CL_TOOLS/gen_ach" --entries "$ACH_N" --seed 1 >"$W/a.ach" || { log "gen_ach failed"; exit 1; }
"$CL_TOOLS/gen_iso" --type pain.001 --tx "$ISO_N" >"$W/p1.xml" || { log "gen_iso pain.001 failed"; exit 1; }
"$CL_TOOLS/gen_iso" --type pacs.008 --tx "$ISO_N" >"$W/p8.xml" || { log "gen_iso pacs.008 failed"; exit 1; }
cat "$W/a.ach" "$W/p1.xml" "$W/p8.xml" >/dev/null # into the page cache
A_BYTES=$(size_of "$W/a.ach")
P1_BYTES=$(size_of "$W/p1.xml")
P8_BYTES=$(size_of "$W/p8.xml")

log "parsers"
best_of 3 wc_ach wc -l "$W/a.ach"
best_of 3 validate_ach "$CL_BIN" validate "$W/a.ach"
best_of 3 parse_ach "$CL_BIN" parse --format json "$W/a.ach"
best_of 3 xmllint_p1 xmllint --stream --noout "$W/p1.xml"
best_of 3 validate_p1 "$CL_BIN" validate "$W/p1.xml"
best_of 3 xmllint_p8 xmllint --stream --noout "$W/p8.xml"
best_of 3 validate_p8 "$CL_BIN" validate "$W/p8.xml"

fig wc_ach "$A_BYTES" "$ACH_N" "wc -l, NACHA $ACH_N entries (floor)"
fig validate_ach "$A_BYTES" "$ACH_N" "validate, NACHA $ACH_N entries" wc_ach - 500 16384
fig parse_ach "$A_BYTES" "$ACH_N" "parse --format json >/dev/null, NACHA" wc_ach - 150
fig xmllint_p1 "$P1_BYTES" "$ISO_N" "xmllint --stream --noout, pain.001 $ISO_N tx (floor)"
fig validate_p1 "$P1_BYTES" "$ISO_N" "validate, pain.001 $ISO_N tx" xmllint_p1 1.5 - 16384
fig xmllint_p8 "$P8_BYTES" "$ISO_N" "xmllint --stream --noout, pacs.008 $ISO_N tx (floor)"
fig validate_p8 "$P8_BYTES" "$ISO_N" "validate, pacs.008 $ISO_N tx" xmllint_p8 1.5 - 16384
rm -f "$W/p1.xml" "$W/p8.xml"

# ---------------------------------------------------------------- loader
DB_NOTE=""
db_bench() {
	export PGDATABASE=cl_bench_$$
	dropdb --if-exists "$PGDATABASE" >/dev/null 2>&1
	createdb "$PGDATABASE" || { log "createdb failed"; return 1; }
	sql() { psql -XAtq -v ON_ERROR_STOP=1 -c "$1"; }
	"$CL_BIN" init >"$W/init.out" 2>&1 || { log "init failed: $(cat "$W/init.out")"; return 1; }
	PG_VERSION=$(sql "show server_version")
	DB_NOTE="PostgreSQL $PG_VERSION"
	[ -n "${CL_BENCH_SETTINGS:-}" ] && DB_NOTE="$DB_NOTE, throwaway cluster ($CL_BENCH_SETTINGS)"

	# The 90%-duplicate file: entries 10% further on; the 10M file: new.
	"$CL_TOOLS/gen_ach" --entries "$ACH_N" --seed 1 --start $((ACH_N / 10)) >"$W/b.ach" ||
		{ log "gen_ach --start failed"; return 1; }
	"$CL_TOOLS/gen_ach" --entries "$ACH_N" --seed 1 --start $((ACH_N + ACH_N / 10)) >"$W/c.ach" ||
		{ log "gen_ach --start failed"; return 1; }
	cat "$W/b.ach" "$W/c.ach" >/dev/null

	# load NAME FILE NEW DUP: a timed load that must report NEW new and DUP
	# duplicate records (else the figure is marked WRONG).
	# settle: what autovacuum would have done, then a checkpoint, so that
	# no timed step pays for an earlier one.
	settle() { sql "vacuum analyze" && sql "checkpoint"; }

	load() {
		settle
		measure "$1" "$CL_BIN" load --format json "$2"
		_lrc=$?
		_json=$(cat "$W/$1.out")
		_new=$(echo "$_json" | sed -n 's/.*"new":\([0-9]*\).*/\1/p' | head -n 1)
		_dup=$(echo "$_json" | sed -n 's/.*"duplicate":\([0-9]*\).*/\1/p' | head -n 1)
		if [ "$_lrc" -ne 0 ] || [ "$_new" != "$3" ] || [ "$_dup" != "$4" ]; then
			echo "exit $_lrc, new ${_new:-?} (want $3), duplicate ${_dup:-?} (want $4)" >"$W/$1.wrong"
			log "$1: $(cat "$W/$1.wrong"); stderr: $(head -c 400 "$W/$1.err")"
		fi
		log "$1: $(cat "$W/$1.m") $_json"
	}

	log "loader: first load of $ACH_N entries"
	load load_first "$W/a.ach" "$ACH_N" 0

	# Baseline: the same rows, as the loader stored them, COPYed into a
	# table of the same shape with the same indexes.
	psql -Xq -v ON_ERROR_STOP=1 -c "\\copy clearing_record to '$W/rows.copy'" ||
		{ log "export of the rows failed"; return 1; }
	# The better of two runs (the machine may be shared: a baseline should
	# not be flattered by noise).
	sql "create table bench_copy (like clearing_record including all)"
	_best=""
	for _try in 1 2; do
		sql "truncate bench_copy"
		settle
		measure copy_try psql -Xq -v ON_ERROR_STOP=1 -c "\\copy bench_copy from '$W/rows.copy'" ||
			log "COPY baseline failed: $(cat "$W/copy_try.err")"
		read -r _s _kb _rc <"$W/copy_try.m"
		if [ -z "$_best" ] || awk -v a="$_s" -v b="$_best" 'BEGIN{exit !(a<b)}'; then
			_best=$_s
			cp "$W/copy_try.m" "$W/copy_base.m"
		fi
	done
	sql "drop table bench_copy"
	rm -f "$W/rows.copy"

	log "loader: exact re-upload"
	load load_exact "$W/a.ach" 0 "$ACH_N"
	log "loader: 90%-duplicate re-upload"
	load load_90 "$W/b.ach" $((ACH_N / 10)) $((ACH_N - ACH_N / 10))

	# The steady state: >= BASE_N rows.  Made in SQL from the rows the loads
	# above applied: copies with natural_key || '#sK' (so they interleave
	# with real keys all through the unique index) and every other column
	# unchanged, inserted with the indexes dropped and then rebuilt, as a
	# restore would; then ANALYZE, as autovacuum would.
	log "loader: building the $BASE_N-row steady state"
	_t0=$(now_ns)
	_have=$(sql "select count(*) from clearing_record")
	_copies=$(((BASE_N + _have - 1) / _have - 1))
	_cols=$(sql "select string_agg(case when attname = 'natural_key'
				then 'natural_key || ''#s'' || k' else quote_ident(attname) end, ', ' order by attnum)
		     from pg_attribute where attrelid = 'clearing_record'::regclass and attnum > 0 and not attisdropped")
	_names=$(sql "select string_agg(quote_ident(attname), ', ' order by attnum)
		      from pg_attribute where attrelid = 'clearing_record'::regclass and attnum > 0 and not attisdropped")
	sql "select 'alter table clearing_record add constraint ' || quote_ident(conname) || ' ' || pg_get_constraintdef(oid)
	     from pg_constraint where conrelid = 'clearing_record'::regclass and contype in ('p', 'u')" >"$W/cons.sql"
	sql "select pg_get_indexdef(indexrelid) from pg_index where indrelid = 'clearing_record'::regclass
	     and indexrelid not in (select conindid from pg_constraint where conrelid = 'clearing_record'::regclass)" >"$W/idx.sql"
	{
		echo "begin;"
		sql "select 'alter table clearing_record drop constraint ' || quote_ident(conname) || ';'
		     from pg_constraint where conrelid = 'clearing_record'::regclass and contype in ('p', 'u')"
		sql "select 'drop index ' || indexrelid::regclass::text || ';' from pg_index
		     where indrelid = 'clearing_record'::regclass
		     and indexrelid not in (select conindid from pg_constraint where conrelid = 'clearing_record'::regclass)"
		echo "insert into clearing_record ($_names) select $_cols from clearing_record, generate_series(1, $_copies) k;"
		echo "set maintenance_work_mem = '1GB';"
		sed 's/$/;/' "$W/cons.sql" "$W/idx.sql"
		echo "commit;"
		echo "vacuum analyze clearing_record;"
	} >"$W/steady.sql"
	psql -Xq -v ON_ERROR_STOP=1 -f "$W/steady.sql" >"$W/steady.out" 2>&1 ||
		{ log "steady state failed: $(cat "$W/steady.out")"; return 1; }
	BASE_HAVE=$(sql "select count(*) from clearing_record")
	STEADY_S=$(awk -v a="$_t0" -v b="$(now_ns)" 'BEGIN{printf "%.0f", (b-a)/1e9}')
	log "steady state: $BASE_HAVE rows in $STEADY_S s"

	log "loader: first load of $ACH_N new entries into $BASE_HAVE rows"
	load load_steady "$W/c.ach" "$ACH_N" 0

	# Its baseline: the same new rows COPYed into the same big table (taken
	# out again first, then vacuumed), so the cost of a big unique index is
	# in both figures.
	_lid=$(sql "select max(load_id) from clearing_record")
	psql -Xq -v ON_ERROR_STOP=1 -c "\\copy (select * from clearing_record where load_id = $_lid) to '$W/rows.copy'" &&
		sql "delete from clearing_record where load_id = $_lid" && settle &&
		measure copy_steady psql -Xq -v ON_ERROR_STOP=1 -c "\\copy clearing_record from '$W/rows.copy'" ||
		log "steady-state COPY baseline failed: $(cat "$W/copy_steady.err" 2>/dev/null)"
	rm -f "$W/rows.copy"
	[ -n "${BENCH_KEEP:-}" ] || dropdb "$PGDATABASE" >/dev/null 2>&1
	return 0
}

BASE_HAVE=$BASE_N
STEADY_S="-"
if psql -XAtqc 'select 1' postgres >/dev/null 2>&1; then
	db_bench || log "database part incomplete"
else
	log "no PostgreSQL server reachable: database figures not run"
fi
fig copy_base "$A_BYTES" "$ACH_N" "plain COPY of the same $ACH_N rows (baseline)"
fig load_first "$A_BYTES" "$ACH_N" "load: first load, $ACH_N entries" copy_base 1.5 - 32768
fig load_exact "$A_BYTES" "$ACH_N" "load: exact re-upload (all duplicate)" copy_base 1.2 - 32768
fig load_90 "$A_BYTES" "$ACH_N" "load: 90%-duplicate re-upload" copy_base 1.4 - 32768
fig copy_steady "$A_BYTES" "$ACH_N" "plain COPY of the same $ACH_N new rows into $BASE_HAVE rows"
fig load_steady "$A_BYTES" "$ACH_N" "load: $ACH_N new into $BASE_HAVE rows" copy_steady - - 32768

# ---------------------------------------------------------------- report
MODEL=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
MEM=$(awk '/^MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo)
DATE=$(date -u '+%Y-%m-%d %H:%M UTC')
{
	echo "## Benchmark figures"
	echo
	echo "Measured by \`make bench\` ($SCALE) on $DATE: $(nproc) CPUs ($MODEL), $MEM memory${DB_NOTE:+; $DB_NOTE}."
	echo "Ratios are wall-time ratios to the floor or baseline (parsers: best of 3 runs; the"
	printf '%s\n' "COPY baseline: better of 2, psql \\copy of the rows the loader stored into a table"
	echo "LIKE clearing_record INCLUDING ALL; loads: one run each, after VACUUM ANALYZE and"
	echo "CHECKPOINT; peak memory: maximum RSS of the process, from /usr/bin/time)."
	echo "The ${BASE_HAVE}-row steady state (built in ${STEADY_S} s) holds the rows of the loads above"
	echo "plus copies of them made in SQL with natural_key || '#sK' (every other column"
	echo "unchanged), indexes rebuilt after, then VACUUM ANALYZE; its baseline is a plain"
	echo "COPY of the same $ACH_N new rows into that same table (taken out again and vacuumed first)."
	echo
	echo "| measurement | wall s | MB/s | records/s | peak MB | ratio | target | result |"
	echo "|---|---:|---:|---:|---:|---:|---|---|"
	awk -F '\t' '{ printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7, $8 }' "$RES"
} >"$OUT/figures.md"
echo
awk -F '\t' 'BEGIN { printf "%-52s %8s %7s %10s %8s %6s  %-34s %s\n", "measurement", "wall s", "MB/s", "records/s", "peak MB", "ratio", "target", "result" }
	{ printf "%-52s %8s %7s %10s %8s %6s  %-34s %s\n", $1, $2, $3, $4, $5, $6, $7, $8 }' "$RES"
echo
echo "bench: figures written to $OUT/figures.md"
[ -n "${BENCH_KEEP:-}" ] || rm -f "$W"/*.ach
