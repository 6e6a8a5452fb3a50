#!/bin/sh
# tests/bench/distributed.sh - the distributed figures of `make bench`
# (issue 31): one business day of DIST_N ACH entries (8 originators) loaded
# into the schema distributed on a Citus coordinator with two workers
# (tests/citus/cluster.sh starts them on this machine), then its exact
# re-upload and show --trace of one of its entries, each beside its
# baseline: a plain COPY of the day's rows as the loader stored them, the
# same keys, into a distributed twin, the same schema made by init in a
# second Citus database of the same cluster (so its clearing_record is
# distributed on the same shard column, with the same shard count,
# indexes and co-location).
#
#   sh tests/bench/distributed.sh        (run.sh runs it; needs W, CL_BIN,
#                                          CL_TOOLS, DIST_N in the environment;
#                                          DIST_INIT_ARGS: init's arguments for
#                                          both databases, e.g. --columnar)
#
# Without a cluster (CL_CITUS_WORKERS unset) it re-runs itself under
# tests/citus/cluster.sh, which installs Citus when it is not (root) and
# removes the cluster afterwards.  It only measures: each figure is
# $W/dist_NAME.m (tests/tools/stopwatch's "SECONDS KB RC"), a wrong answer
# $W/dist_NAME.wrong; run.sh makes the rows.  Before each figure: VACUUM
# ANALYZE on the coordinator (Citus sends it to the shards) and CHECKPOINT
# on every node, then sync.
set -u
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
: "${W:?}" "${CL_BIN:?}" "${CL_TOOLS:?}" "${DIST_N:?}"
if [ -z "${CL_CITUS_WORKERS:-}" ]; then
	exec sh "$root/tests/citus/cluster.sh" sh "$0" "$@"
fi
export PGOPTIONS="-c client_min_messages=warning"
log() { echo "bench: $(date -u +%H:%M:%S) [distributed] $*" >&2; }
sql() { psql -XAtq -v ON_ERROR_STOP=1 -c "$1"; }
settle() {
	sql "vacuum analyze" && sql "checkpoint" || return 1
	for _w in $CL_CITUS_WORKERS; do
		psql -XAtq -p "$_w" -d postgres -c checkpoint || return 1
	done
	sync
}
rm -f "$W"/dist_*.m "$W"/dist_*.wrong "$W/dist_bytes" "$W/dist_shards"

DB=cl_bench_dist_$$
TWIN_DB=cl_bench_dist_twin_$$
for _db in "$DB" "$TWIN_DB"; do
	createdb "$_db" && sh "$CL_DB_SETUP" "$_db" &&
		PGDATABASE=$_db "$CL_BIN" init ${DIST_INIT_ARGS:-} >"$W/dist_init.out" 2>&1 ||
		{ log "init of $_db failed: $(cat "$W/dist_init.out")"; exit 1; }
done
export PGDATABASE=$DB
# the shard count, for the rows' label
SHARDS=$(sql "select shard_count from citus_tables where table_name = 'clearing_record'::regclass")
echo "$SHARDS" >"$W/dist_shards"

"$CL_TOOLS/gen_ach" --entries "$DIST_N" --seed 1 --effective 260302 --company-count 8 >"$W/dist.ach" ||
	{ log "gen_ach failed"; exit 1; }
cat "$W/dist.ach" >/dev/null
wc -c <"$W/dist.ach" | tr -d ' ' >"$W/dist_bytes"
settle

# shellcheck source=lib.sh
. "$here/lib.sh"
# stopwatch NAME CMD...: one timed run of CMD as figure NAME
stopwatch() {
	_n=$1
	shift
	timed "$W/dist_$_n.m" "$W/dist_$_n.out" "$W/dist_$_n.err" "$@"
}
# load NAME NEW DUP: a timed load of the day that must report NEW new and
# DUP duplicate records
load() {
	stopwatch "$1" "$CL_BIN" load --format json "$W/dist.ach"
	_lrc=$?
	_new=$(sed -n 's/.*"new":\([0-9]*\).*/\1/p' "$W/dist_$1.out" | head -n 1)
	_dup=$(sed -n 's/.*"duplicate":\([0-9]*\).*/\1/p' "$W/dist_$1.out" | head -n 1)
	if [ "$_lrc" -ne 0 ] || [ "$_new" != "$2" ] || [ "$_dup" != "$3" ]; then
		echo "exit $_lrc, new ${_new:-?} (want $2), duplicate ${_dup:-?} (want $3)" >"$W/dist_$1.wrong"
		log "$1: $(cat "$W/dist_$1.wrong"); stderr: $(head -c 400 "$W/dist_$1.err")"
	fi
	log "$1: $(cat "$W/dist_$1.m")"
}

log "load of $DIST_N entries, exact re-upload, show ($SHARDS shards)"
load load "$DIST_N" 0
# no VACUUM or ANALYZE between a load and its re-upload (as the curve)
load exact 0 "$DIST_N"
_lid=$(sql "select min(load_id) from clearing_load where file_name like '%dist.ach'")
_trace=$(sql "select trace_number from clearing_record where load_id = $_lid
	      order by ordinal offset $((DIST_N / 2)) limit 1")
# the records spread over both workers (else the figures are not of a
# distributed table)
_nodes=$(sql "select count(distinct nodeport) from citus_shards s
	      where s.table_name = 'clearing_record'::regclass and s.shard_size > 8192 * 2")
[ "$_nodes" = 2 ] || echo "the records are on $_nodes workers, not 2" >"$W/dist_load.wrong"
sync
# show: best of 5, as the curve's (its floors: program start, psql's own
# binary connecting to the coordinator)
_psql="$("${PG_CONFIG:-pg_config}" --bindir 2>/dev/null)/psql"
[ -x "$_psql" ] || _psql=psql
best() {
	_bn=$1
	shift
	best_of_runs 5 "$W/dist_$_bn.m" stopwatch "$_bn" "$@" || {
		echo "exit $(cut -d' ' -f3 "$W/dist_$_bn.m"): $(head -n 1 "$W/dist_$_bn.err" | cut -c1-160)" \
			>"$W/dist_$_bn.wrong"
		return 1
	}
}
best show "$CL_BIN" show --trace "$_trace" || log "show: $(cat "$W/dist_show.wrong")"
best start "$CL_BIN" --version
best connect "$_psql" -XAtqc 'select 1'

# the baseline: the day's rows as the loader stored them, in the file's
# order (curve.sh), COPYed into the twin's distributed clearing_record
psql -Xq -v ON_ERROR_STOP=1 -c "\\copy (select * from clearing_record where load_id = $_lid order by ordinal) to '$W/dist.copy'" &&
	(PGDATABASE=$TWIN_DB && settle) && settle &&
	stopwatch copy psql -Xq -v ON_ERROR_STOP=1 -d "$TWIN_DB" -c "\\copy clearing_record from '$W/dist.copy'" ||
	log "COPY baseline failed: $(cat "$W/dist_copy.err" 2>/dev/null)"
_twin=$(PGDATABASE=$TWIN_DB && sql "select count(*) from clearing_record")
[ "$_twin" = "$DIST_N" ] || echo "the twin holds $_twin records, not $DIST_N" >"$W/dist_copy.wrong"
log "copy: $(cat "$W/dist_copy.m")"
rm -f "$W/dist.copy" "$W/dist.ach"
exit 0
