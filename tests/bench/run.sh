#!/bin/sh
# tests/bench/run.sh - `make bench`: the parsers beside their floors and the
# loader's growth curve, in one run on one machine, each figure beside its
# baseline and its target.
#
#   parsers  NACHA validate / parse --format json on a 1,000,000-entry file,
#            beside `wc -l`; ISO 20022 validate on 200,000-transaction
#            pain.001 and pacs.008 files, and as many direct debits in
#            pain.008 and pacs.003 files, beside `xmllint --stream --noout`;
#            the bank's answers (camt.053, pacs.002 beside xmllint, BAI2
#            beside wc -l, MT940 beside wc -l) of as many items; each validate (and parse) head
#            to head with clearing-load built from BENCH_BASE.
#   loader   against a throwaway cluster (pg_virtualenv, or the server PG*
#            names): the growth curve of curve.sh, one business day of
#            1,000,000 entries at 0, 5M and 20M records of history, on the
#            plain and on the hash-partitioned schema; baseline: a plain
#            COPY of the same rows into a twin of the table, of the same
#            size and shape.
#
# Prints the tables and writes them, with the date and the machine, to
# tests/out/bench/figures.md; results.sh copies a full run's into
# docs/bench/results.md.
# BENCH_QUICK=1 scales every size down 10x (a smoke run, for CI);
# BENCH_CURVES names the curves to run (default "plain partitioned
# reconcile distributed columnar distributed-columnar"; reconcile:
# reconcile.sh, a statement against the history; distributed:
# distributed.sh, a day on a Citus coordinator and two workers against a
# distributed twin; columnar: the plain schema's curve in columnar storage,
# init --columnar, which needs Citus's citus_columnar: after distributed,
# which installs Citus; distributed-columnar: distributed.sh with both
# databases made by init --columnar);
# BENCH_POINTS the curve's points
# (records of history, default "0 5000000 20000000"); BENCH_DIST_N the
# distributed day's entries (default the curve's day);
# BENCH_KEEP=1 keeps the generated files and the databases (for EXPLAIN
# afterwards).  Needs CL_BIN (clearing-load) and CL_TOOLS (gen_ach, gen_iso).
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
		CL_IN_PGVENV=1 CL_BENCH_SETTINGS="$PG_SETTINGS" exec pg_virtualenv -t "$@" sh "$0"
	fi
	echo "bench: no pg_virtualenv and no PG* server: database figures skipped" >&2
fi

OUT="$root/tests/out/bench"
W="${BENCH_WORK:-$OUT/work}"
mkdir -p "$OUT" "$W"
RES="$W/results.tsv"
: >"$RES"

if [ -n "${BENCH_QUICK:-}" ]; then
	ACH_N=100000 ISO_N=20000 ISO_OVL=2000 CURVE_POINTS="0 500000 2000000"
	SCALE="BENCH_QUICK=1 (sizes / 10)"
else
	ACH_N=1000000 ISO_N=200000 ISO_OVL=20000 CURVE_POINTS="0 5000000 20000000"
	SCALE="full"
fi
# BENCH_POINTS: the curve's points (records of history) instead
[ -z "${BENCH_POINTS:-}" ] || CURVE_POINTS=$BENCH_POINTS
# every curve, in the order run (BENCH_CURVES: some of them)
ALL_CURVES="plain partitioned reconcile distributed columnar distributed-columnar"
# (a run of some curves, points or another distributed size says so where
# a full one says "full": results.sh copies only a full run's figures)
[ "${BENCH_CURVES:-$ALL_CURVES}" = "$ALL_CURVES" ] && [ -z "${BENCH_POINTS:-}${BENCH_DIST_N:-}" ] ||
	[ -n "${BENCH_QUICK:-}" ] ||
	SCALE="full sizes, part of it:${BENCH_CURVES:+ BENCH_CURVES=\"$BENCH_CURVES\"}${BENCH_POINTS:+ BENCH_POINTS=\"$BENCH_POINTS\"}${BENCH_DIST_N:+ BENCH_DIST_N=$BENCH_DIST_N}"
# (the history of every later point is copied from the day loaded at 0)
case " $CURVE_POINTS " in
" 0 "*) ;;
*) echo "bench: BENCH_POINTS=\"$CURVE_POINTS\": the first point must be 0 (the later points' history is made from the day loaded there); try BENCH_POINTS=\"0 $CURVE_POINTS\"" >&2; exit 2 ;;
esac
# BENCH_DIST_N: the distributed day's entries (default: the curve's day)
DIST_N=${BENCH_DIST_N:-$ACH_N}
PARTITIONS=8

now_ns() { date +%s%N; }
log() { echo "bench: $(date -u +%H:%M:%S) $*" >&2; }

# shellcheck source=lib.sh
. "$here/lib.sh"

# measure NAME CMD...: run CMD (stdout to $W/NAME.out), record its wall
# time and peak RSS in $W/NAME.m (lib.sh, timed).
measure() {
	_n=$1
	shift
	# the parse figure is "parse --format json to /dev/null": its
	# 800 MB of JSON must not be timed as a disk write
	_out="$W/$_n.out"
	case $_n in parse_*) _out=/dev/null ;; esac
	timed "$W/$_n.m" "$_out" "$W/$_n.err" "$@"
}

# best_of N NAME CMD...: the fastest of N runs (peak RSS: the largest).
best_of() {
	_bok=$1 _bn=$2
	shift 2
	best_of_runs "$_bok" "$W/$_bn.m" measure "$_bn" "$@" ||
		{ log "$_bn failed: $(head -c 400 "$W/$_bn.err")"; return 1; }
}

# row LABEL SECONDS BYTES RECORDS KB RATIO TARGET RESULT: one result line.
row() {
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$@" >>"$RES"
}

# fig NAME BYTES RECORDS LABEL [REF_NAME RATIO_TARGET MB_S_TARGET KB_TARGET S_TARGET]
# Record measurement NAME as a row: MB/s, records/s, peak memory, the ratio
# of its wall time to REF_NAME's and the verdict against the targets
# ("-" = none).
fig() {
	_name=$1 _bytes=$2 _recs=$3 _label=$4
	_ref=${5:--} _rt=${6:--} _mbt=${7:--} _kbt=${8:--} _st=${9:--}
	if [ ! -s "$W/$_name.m" ]; then
		row "$_label" "-" "-" "-" "-" "-" "$(target_text "$_rt" "$_mbt" "$_kbt" "$_ref" "$_st")" "NOT RUN"
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
	if [ "$_st" != "-" ]; then
		_have_target=1
		awk -v s="$_s" -v t="$_st" 'BEGIN{exit !(s > t)}' && _verdict=MISS
	fi
	[ "$_have_target" = 1 ] || _verdict="-"
	[ -f "$W/$_name.wrong" ] && _verdict="WRONG: $(cat "$W/$_name.wrong")"
	row "$_label" "$_s" \
		"$(awk -v b="$_bytes" -v s="$_s" 'BEGIN{ if (b > 0 && s > 0) printf "%.0f", b/1e6/s; else print "-" }')" \
		"$(awk -v r="$_recs" -v s="$_s" 'BEGIN{ if (s > 0) printf "%.0f", r/s; else print "-" }')" \
		"$(awk -v k="$_kb" 'BEGIN{printf "%.1f", k/1024}')" \
		"$_ratio" "$(target_text "$_rt" "$_mbt" "$_kbt" "$_ref" "$_st")" "$_verdict"
}

target_text() {
	_t=""
	[ "$1" != "-" ] && _t="<= ${1}x $4"
	[ "$2" != "-" ] && _t="${_t:+$_t, }>= $2 MB/s"
	[ "$3" != "-" ] && _t="${_t:+$_t, }<= $(($3 / 1024)) MB"
	[ "${5:--}" != "-" ] && _t="${_t:+$_t, }<= $(awk -v s="$5" 'BEGIN{printf "%g", s * 1000}') ms"
	echo "${_t:--}"
}

size_of() { wc -c <"$1" | tr -d ' '; }

# ------------------------------------------------------- head to head
# "No reader gets slower": each family's validate (and NACHA's, pain.001's
# and pacs.008's parse) beside the same command of clearing-load built from
# BENCH_BASE (a git revision of this repository; default the one in
# tests/bench/base-rev, the last commit before the reading engine became
# one), on the same file in the same run.  Target: at most 1.1x.  Skipped,
# and said, when the tree is no git checkout or the revision does not build.
BASE_REV=${BENCH_BASE:-$(sed -n '/^[0-9a-f]/{p;q;}' "$here/base-rev" 2>/dev/null)}
BASE_BIN=""
if [ -n "$BASE_REV" ] && git -C "$root" rev-parse -q --verify "$BASE_REV^{commit}" >/dev/null 2>&1; then
	log "building clearing-load at $BASE_REV for the head-to-head figures"
	rm -rf "$W/base"
	mkdir -p "$W/base"
	if git -C "$root" archive "$BASE_REV" | tar -x -C "$W/base" &&
		make -s -C "$W/base" -j"$(nproc)" clearing-load >"$W/base.log" 2>&1; then
		BASE_BIN="$W/base/clearing-load"
		BASE_SHORT=$(git -C "$root" rev-parse --short "$BASE_REV")
	else
		log "clearing-load at $BASE_REV did not build ($W/base.log): no head-to-head figures"
	fi
else
	log "no base revision (BENCH_BASE, tests/bench/base-rev) in this tree: no head-to-head figures"
fi

# head_to_head NAME FILE: validate (and for clearing files parse) of FILE
# by the base build, as validate_NAME / parse_NAME by this one.
head_to_head() {
	[ -n "$BASE_BIN" ] || return 0
	best_of 3 "validate_${1}_base" "$BASE_BIN" validate "$2"
	# (parse of a statement: the base build refused it, nothing to compare)
	case $1 in c53 | bai | p2) return 0 ;; esac
	[ -s "$W/parse_$1.m" ] && best_of 3 "parse_${1}_base" "$BASE_BIN" parse --format json "$2"
	return 0
}

# head_to_head_figs NAME BYTES RECORDS LABEL: the rows: this build's figure
# again, its ratio to the base build's.
head_to_head_figs() {
	[ -n "$BASE_BIN" ] || return 0
	for _c in validate parse; do
		[ -s "$W/${_c}_${1}_base.m" ] || continue
		cp "$W/${_c}_$1.m" "$W/${_c}_${1}_now.m"
		fig "${_c}_${1}_base" "$2" "$3" "$_c, $4, clearing-load at $BASE_SHORT (head to head)"
		fig "${_c}_${1}_now" "$2" "$3" "$_c, $4, this build" "${_c}_${1}_base" 1.1
	done
}

# ---------------------------------------------------------------- parsers
log "generating a $ACH_N-entry NACHA file and $ISO_N-transaction pain.001 / pacs.008 files"
"$CL_TOOLS/gen_ach" --entries "$ACH_N" --seed 1 >"$W/a.ach" || { log "gen_ach failed"; exit 1; }
"$CL_TOOLS/gen_iso" --type pain.001 --tx "$ISO_N" >"$W/p1.xml" || { log "gen_iso pain.001 failed"; exit 1; }
"$CL_TOOLS/gen_iso" --type pacs.008 --tx "$ISO_N" >"$W/p8.xml" || { log "gen_iso pacs.008 failed"; exit 1; }
"$CL_TOOLS/gen_iso" --type pain.008 --tx "$ISO_N" >"$W/d8.xml" || { log "gen_iso pain.008 failed"; exit 1; }
"$CL_TOOLS/gen_iso" --type pacs.003 --tx "$ISO_N" >"$W/d3.xml" || { log "gen_iso pacs.003 failed"; exit 1; }
"$CL_TOOLS/gen_iso" --type camt.056 --tx "$ISO_N" >"$W/c56.xml" || { log "gen_iso camt.056 failed"; exit 1; }
cat "$W/a.ach" "$W/p1.xml" "$W/p8.xml" "$W/d8.xml" "$W/d3.xml" >/dev/null # into the page cache
cat "$W/c56.xml" >/dev/null
A_BYTES=$(size_of "$W/a.ach")
P1_BYTES=$(size_of "$W/p1.xml")
P8_BYTES=$(size_of "$W/p8.xml")
D8_BYTES=$(size_of "$W/d8.xml")
D3_BYTES=$(size_of "$W/d3.xml")
C56_BYTES=$(size_of "$W/c56.xml")

log "parsers"
best_of 3 wc_ach wc -l "$W/a.ach"
best_of 3 validate_ach "$CL_BIN" validate "$W/a.ach"
best_of 3 parse_ach "$CL_BIN" parse --format json "$W/a.ach"
best_of 3 xmllint_p1 xmllint --stream --noout "$W/p1.xml"
best_of 3 validate_p1 "$CL_BIN" validate "$W/p1.xml"
best_of 3 xmllint_p8 xmllint --stream --noout "$W/p8.xml"
best_of 3 validate_p8 "$CL_BIN" validate "$W/p8.xml"
best_of 3 parse_p1 "$CL_BIN" parse --format json "$W/p1.xml"
best_of 3 parse_p8 "$CL_BIN" parse --format json "$W/p8.xml"
best_of 3 xmllint_d8 xmllint --stream --noout "$W/d8.xml"
best_of 3 validate_d8 "$CL_BIN" validate "$W/d8.xml"
best_of 3 parse_d8 "$CL_BIN" parse --format json "$W/d8.xml"
best_of 3 xmllint_d3 xmllint --stream --noout "$W/d3.xml"
best_of 3 validate_d3 "$CL_BIN" validate "$W/d3.xml"
best_of 3 xmllint_c56 xmllint --stream --noout "$W/c56.xml"
best_of 3 validate_c56 "$CL_BIN" validate "$W/c56.xml"
best_of 3 parse_c56 "$CL_BIN" parse --format json "$W/c56.xml"
head_to_head ach "$W/a.ach"
head_to_head p1 "$W/p1.xml"
head_to_head p8 "$W/p8.xml"

fig wc_ach "$A_BYTES" "$ACH_N" "wc -l, NACHA $ACH_N entries (floor)"
fig validate_ach "$A_BYTES" "$ACH_N" "validate, NACHA $ACH_N entries" wc_ach - 500 16384
fig parse_ach "$A_BYTES" "$ACH_N" "parse --format json >/dev/null, NACHA" wc_ach - 150
fig xmllint_p1 "$P1_BYTES" "$ISO_N" "xmllint --stream --noout, pain.001 $ISO_N tx (floor)"
fig validate_p1 "$P1_BYTES" "$ISO_N" "validate, pain.001 $ISO_N tx" xmllint_p1 1.5 - 16384
fig xmllint_p8 "$P8_BYTES" "$ISO_N" "xmllint --stream --noout, pacs.008 $ISO_N tx (floor)"
fig validate_p8 "$P8_BYTES" "$ISO_N" "validate, pacs.008 $ISO_N tx" xmllint_p8 1.5 - 16384
fig parse_p1 "$P1_BYTES" "$ISO_N" "parse --format json >/dev/null, pain.001" xmllint_p1
fig parse_p8 "$P8_BYTES" "$ISO_N" "parse --format json >/dev/null, pacs.008" xmllint_p8
fig xmllint_d8 "$D8_BYTES" "$ISO_N" "xmllint --stream --noout, pain.008 $ISO_N tx (floor)"
fig validate_d8 "$D8_BYTES" "$ISO_N" "validate, pain.008 $ISO_N tx" xmllint_d8 1.5 - 16384
fig parse_d8 "$D8_BYTES" "$ISO_N" "parse --format json >/dev/null, pain.008" xmllint_d8
fig xmllint_d3 "$D3_BYTES" "$ISO_N" "xmllint --stream --noout, pacs.003 $ISO_N tx (floor)"
fig validate_d3 "$D3_BYTES" "$ISO_N" "validate, pacs.003 $ISO_N tx" xmllint_d3 1.5 - 16384
fig xmllint_c56 "$C56_BYTES" "$ISO_N" "xmllint --stream --noout, camt.056 $ISO_N tx (floor)"
fig validate_c56 "$C56_BYTES" "$ISO_N" "validate, camt.056 $ISO_N tx" xmllint_c56 1.5 - 16384
fig parse_c56 "$C56_BYTES" "$ISO_N" "parse --format json >/dev/null, camt.056" xmllint_c56
head_to_head_figs ach "$A_BYTES" "$ACH_N" "NACHA"
head_to_head_figs p1 "$P1_BYTES" "$ISO_N" "pain.001"
head_to_head_figs p8 "$P8_BYTES" "$ISO_N" "pacs.008"
rm -f "$W/p1.xml" "$W/p8.xml" "$W/d8.xml" "$W/d3.xml" "$W/c56.xml"

# The bank's answers, each family beside the C floor that reads the same
# file: a camt.053 statement and a pacs.002 status report of $ISO_N items
# beside xmllint, a BAI2 file of $ISO_N details beside wc -l
# and an MT940 file of $ISO_N statement lines and a bank CSV export of as
# many rows (read by its map) beside wc -l
# (tests/bench/gen_answers.py writes them).
log "generating a camt.053, a BAI2 file, a pacs.002 and an MT940 of $ISO_N items each"
python3 "$here/gen_answers.py" csv-map >"$W/ans.csv-map" || { log "gen_answers csv-map failed"; exit 1; }
for _k in camt.053 bai2 pacs.002 mt940 csv; do
	python3 "$here/gen_answers.py" "$_k" "$ISO_N" >"$W/ans.$_k" || { log "gen_answers $_k failed"; exit 1; }
done
cat "$W/ans.camt.053" "$W/ans.bai2" "$W/ans.pacs.002" "$W/ans.mt940" >/dev/null
MT_BYTES=$(size_of "$W/ans.mt940")
BC_BYTES=$(size_of "$W/ans.csv")
C53_BYTES=$(size_of "$W/ans.camt.053")
BAI_BYTES=$(size_of "$W/ans.bai2")
P2_BYTES=$(size_of "$W/ans.pacs.002")
best_of 3 xmllint_c53 xmllint --stream --noout "$W/ans.camt.053"
best_of 3 validate_c53 "$CL_BIN" validate "$W/ans.camt.053"
best_of 3 wc_bai wc -l "$W/ans.bai2"
best_of 3 validate_bai "$CL_BIN" validate "$W/ans.bai2"
best_of 3 xmllint_p2 xmllint --stream --noout "$W/ans.pacs.002"
best_of 3 validate_p2 "$CL_BIN" validate "$W/ans.pacs.002"
best_of 3 parse_c53 "$CL_BIN" parse --format json "$W/ans.camt.053"
best_of 3 parse_bai "$CL_BIN" parse --format json "$W/ans.bai2"
best_of 3 parse_p2 "$CL_BIN" parse --format json "$W/ans.pacs.002"
best_of 3 wc_mt wc -l "$W/ans.mt940"
best_of 3 validate_mt "$CL_BIN" validate "$W/ans.mt940"
best_of 3 parse_mt "$CL_BIN" parse --format json "$W/ans.mt940"
best_of 3 wc_bc wc -l "$W/ans.csv"
best_of 3 validate_bc "$CL_BIN" validate --csv-map "$W/ans.csv-map" "$W/ans.csv"
best_of 3 parse_bc "$CL_BIN" parse --format json --csv-map "$W/ans.csv-map" "$W/ans.csv"
head_to_head c53 "$W/ans.camt.053"
head_to_head bai "$W/ans.bai2"
head_to_head p2 "$W/ans.pacs.002"
fig xmllint_c53 "$C53_BYTES" "$ISO_N" "xmllint --stream --noout, camt.053 $ISO_N entries (floor)"
fig validate_c53 "$C53_BYTES" "$ISO_N" "validate, camt.053 $ISO_N entries" xmllint_c53 1.5 - 16384
fig wc_bai "$BAI_BYTES" "$ISO_N" "wc -l, BAI2 $ISO_N details (floor)"
fig validate_bai "$BAI_BYTES" "$ISO_N" "validate, BAI2 $ISO_N details" wc_bai - - 16384
fig xmllint_p2 "$P2_BYTES" "$ISO_N" "xmllint --stream --noout, pacs.002 $ISO_N statuses (floor)"
fig validate_p2 "$P2_BYTES" "$ISO_N" "validate, pacs.002 $ISO_N statuses" xmllint_p2 1.5 - 16384
fig parse_c53 "$C53_BYTES" "$ISO_N" "parse --format json >/dev/null, camt.053" xmllint_c53
fig parse_bai "$BAI_BYTES" "$ISO_N" "parse --format json >/dev/null, BAI2" wc_bai
fig parse_p2 "$P2_BYTES" "$ISO_N" "parse --format json >/dev/null, pacs.002" xmllint_p2
fig wc_mt "$MT_BYTES" "$ISO_N" "wc -l, MT940 $ISO_N statement lines (floor)"
fig validate_mt "$MT_BYTES" "$ISO_N" "validate, MT940 $ISO_N statement lines" wc_mt - - 16384
fig parse_mt "$MT_BYTES" "$ISO_N" "parse --format json >/dev/null, MT940" wc_mt
fig wc_bc "$BC_BYTES" "$ISO_N" "wc -l, bank CSV $ISO_N rows (floor)"
fig validate_bc "$BC_BYTES" "$ISO_N" "validate --csv-map, bank CSV $ISO_N rows" wc_bc
fig parse_bc "$BC_BYTES" "$ISO_N" "parse --format json >/dev/null, bank CSV" wc_bc
head_to_head_figs c53 "$C53_BYTES" "$ISO_N" "camt.053"
head_to_head_figs bai "$BAI_BYTES" "$ISO_N" "BAI2"
head_to_head_figs p2 "$P2_BYTES" "$ISO_N" "pacs.002"
rm -f "$W/ans.camt.053" "$W/ans.bai2" "$W/ans.pacs.002" "$W/ans.mt940" "$W/ans.csv" "$W/ans.csv-map"

# ---------------------------------------------------------------- loader
DB_NOTE=""
DIST_NOTE=""
DIST_RAN=""
DISTC_RAN=""

# dist_bench [--columnar]: the distributed section (tests/bench/distributed.sh,
# on its own Citus coordinator and two workers): a day of DIST_N entries,
# its exact re-upload and show --trace, beside a COPY of the same rows into
# a distributed twin; with --columnar, both databases made by init
# --columnar (the shards in columnar storage, 0064).  Needs Citus
# installed, or root to install it.
dist_bench() {
	_dinit=${1:-}
	DIST_RAN=1
	[ -z "$_dinit" ] || DISTC_RAN=1
	# (no figure of an earlier run left to be reported as this one's)
	rm -f "$W"/dist_*.m "$W"/dist_*.wrong "$W/dist_bytes" "$W/dist_shards"
	_lib=$("${PG_CONFIG:-pg_config}" --pkglibdir 2>/dev/null)
	if [ ! -f "$_lib/citus.so" ] && [ "$(id -u)" != 0 ]; then
		log "distributed: Citus is not installed and installing it needs root: not run"
		DIST_NOTE="not run: Citus not installed"
	else
		log "distributed: a day of $DIST_N entries on a Citus coordinator and two workers"
		W="$W" CL_BIN="$CL_BIN" CL_TOOLS="$CL_TOOLS" DIST_N="$DIST_N" DIST_INIT_ARGS="$_dinit" \
			sh "$here/distributed.sh" || log "distributed section incomplete"
	fi
	_dbytes=$(cat "$W/dist_bytes" 2>/dev/null || echo 0)
	_dtag="[distributed${_dinit:+, columnar}, $(cat "$W/dist_shards" 2>/dev/null || echo "?") shards on 2 workers]"
	fig dist_copy "$_dbytes" "$DIST_N" "$_dtag plain COPY of the day's $DIST_N rows into the distributed twin (baseline)"
	fig dist_load "$_dbytes" "$DIST_N" "$_dtag load: $DIST_N new entries" dist_copy 1.3 - 32768
	fig dist_exact "$_dbytes" "$DIST_N" "$_dtag load: exact re-upload" dist_copy 1.3 - 32768
	fig dist_show 0 1 "$_dtag show --trace (best of 5)" - - - - 0.05
	fig dist_start 0 1 "$_dtag clearing-load --version: process start (floor, best of 5)"
	fig dist_connect 0 1 "$_dtag psql binary: connect to the coordinator, select 1 (floor, best of 5)"
}
. "$here/curve.sh"
. "$here/reconcile.sh"
: >"$W/storage.tsv"
if psql -XAtqc 'select 1' postgres >/dev/null 2>&1; then
	DB_NOTE="PostgreSQL $(psql -XAtqc 'show server_version' postgres)"
	[ -n "${CL_BENCH_SETTINGS:-}" ] && DB_NOTE="$DB_NOTE, throwaway cluster ($CL_BENCH_SETTINGS)"
	for _c in ${BENCH_CURVES:-$ALL_CURVES}; do
		log "loader: the growth curve, $_c schema"
		case $_c in
		plain) curve plain 0 || log "plain curve incomplete" ;;
		partitioned) curve partitioned "$PARTITIONS" || log "partitioned curve incomplete" ;;
		columnar) curve columnar 0 --columnar || log "columnar curve incomplete" ;;
		reconcile) recon_bench || log "reconcile bench incomplete" ;;
		distributed) dist_bench ;;
		distributed-columnar) dist_bench --columnar ;;
		*) log "unknown curve $_c (plain, partitioned, reconcile, distributed, columnar, distributed-columnar)" ;;
		esac
	done
else
	log "no PostgreSQL server reachable: database figures not run"
fi

# ---------------------------------------------------------------- report
MODEL=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
MEM=$(awk '/^MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo)
DATE=$(date -u '+%Y-%m-%d %H:%M UTC')
{
	echo "## Benchmark figures"
	echo
	echo "Measured by \`make bench\` ($SCALE) on $DATE: $(nproc) CPUs ($MODEL), $MEM memory${DB_NOTE:+; $DB_NOTE}."
	echo "Ratios are wall-time ratios to the floor or baseline (parsers: best of 3 runs; the"
	printf '%s\n' "COPY baseline: one psql \\copy, as the loads; loads: one run each, after VACUUM ANALYZE"
	echo "and CHECKPOINT; peak memory: maximum RSS of the process, from wait4; tests/tools/stopwatch)."
	echo "The loader's figures are a growth curve (tests/bench/curve.sh): one business day of"
	echo "$ACH_N ACH entries (8 originators) at $CURVE_POINTS records of history, on the plain"
	echo "schema, on $PARTITIONS hash partitions and in columnar storage (init --columnar, its twin"
	echo "too). History is made in SQL from the first day's rows"
	echo "(keys and near identities suffixed, value dates 1 to 18 weeks back, a quarter in three light"
	echo "tenants, one record in ten re-uploaded once); VACUUM ANALYZE and CHECKPOINT before each day,"
	echo "none between a load and its re-uploads. Each load's baseline is a plain COPY of the day's"
	echo "rows as the loader stored them, the same keys, into a twin: the same schema again (init"
	echo "--schema, the same partitions) holding the same history and earlier days, not this day's."
	if [ -n "$DIST_RAN" ]; then
		echo "The distributed rows (tests/bench/distributed.sh): a day of $DIST_N ACH entries loaded into"
		echo "an empty schema distributed by init on a Citus coordinator with two workers on this machine"
		echo "(tests/citus/cluster.sh), its exact re-upload and show --trace; their baseline a plain COPY"
		echo "of the day's rows as the loader stored them into a twin: the same schema made by init in a"
		echo "second Citus database of the same cluster${DIST_NOTE:+ ($DIST_NOTE)}."
	fi
	if [ -n "$DISTC_RAN" ]; then
		echo "The rows tagged \"distributed, columnar\": the same, both databases made by init --columnar"
		echo "(every shard of clearing_record in columnar storage)."
	fi
	echo
	echo "| measurement | wall s | MB/s | records/s | peak MB | ratio | target | result |"
	echo "|---|---:|---:|---:|---:|---:|---|---|"
	awk -F '\t' '{ printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7, $8 }' "$RES"
	echo
	echo "Storage, after each day's loads (clearing_record with its TOAST and indexes, over every"
	echo "partition; the journal with its indexes):"
	echo
	echo "| point | records | bytes a record | journal events | bytes an event |"
	echo "|---|---:|---:|---:|---:|"
	awk -F '\t' '{ printf "| %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5 }' "$W/storage.tsv"
} >"$OUT/figures.md"
echo
awk -F '\t' 'BEGIN { printf "%-52s %8s %7s %10s %8s %6s  %-34s %s\n", "measurement", "wall s", "MB/s", "records/s", "peak MB", "ratio", "target", "result" }
	{ printf "%-52s %8s %7s %10s %8s %6s  %-34s %s\n", $1, $2, $3, $4, $5, $6, $7, $8 }' "$RES"
echo
awk -F '\t' 'BEGIN { printf "%-40s %10s %14s %14s %14s\n", "storage", "records", "bytes/record", "events", "bytes/event" }
	{ printf "%-40s %10s %14s %14s %14s\n", $1, $2, $3, $4, $5 }' "$W/storage.tsv"
echo
echo "bench: figures written to $OUT/figures.md"
[ -n "${BENCH_KEEP:-}" ] || rm -f "$W"/*.ach "$W"/*.xml
