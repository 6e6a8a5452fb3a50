#!/bin/sh
# Write the figures of a full `make bench` (tests/out/bench/figures.md) into
# docs/bench/results.md, the file the bench owns: replaced whole by each full
# run, never typed by hand, never spliced into the README or a man page.
# A BENCH_QUICK run, one of only some curves (BENCH_CURVES) or of other
# points (BENCH_POINTS) or another distributed size (BENCH_DIST_N) leaves the
# file as it is: its figures are not comparable with a full run's.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
fig="${BENCH_FIGURES:-$root/tests/out/bench/figures.md}"
out="${BENCH_RESULTS:-$root/docs/bench/results.md}"
[ -f "$fig" ] || { echo "bench: no $fig" >&2; exit 1; }
if [ -n "${BENCH_QUICK:-}" ]; then
	echo "bench: BENCH_QUICK run: $out left as it is"
	exit 0
fi
case "${BENCH_CURVES:-plain partitioned reconcile distributed columnar distributed-columnar}" in
"plain partitioned reconcile distributed columnar distributed-columnar") ;;
*)
	echo "bench: BENCH_CURVES=$BENCH_CURVES (not a full run): $out left as it is"
	exit 0
	;;
esac
if [ -n "${BENCH_POINTS:-}${BENCH_DIST_N:-}" ]; then
	echo "bench: BENCH_POINTS or BENCH_DIST_N set (not a full run): $out left as it is"
	exit 0
fi
grep -q '^Measured by `make bench` (full)' "$fig" ||
	{ echo "bench: $fig is not from a full run: $out left as it is" >&2; exit 1; }
mkdir -p "$(dirname "$out")"
{
	echo "# Benchmark results"
	echo
	echo "Written by \`make bench\` (tests/bench/results.sh) from its last full run and replaced"
	echo "whole by the next: do not edit. What it measures and how to run it: docs/bench/README.md."
	echo "Compare the ratios within one run, not seconds across runs or machines."
	echo
	sed 's/^## Benchmark figures$/## Figures/' "$fig"
} >"$out.tmp"
mv "$out.tmp" "$out"
echo "bench: $out written from $fig"
