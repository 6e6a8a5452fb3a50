#!/bin/sh
# Splice the figures of the last full `make bench` (tests/out/bench/figures.md)
# into README.md between the bench markers: the README's figures are
# regenerated, never typed.  A BENCH_QUICK run is not spliced.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
fig="$root/tests/out/bench/figures.md"
[ -f "$fig" ] || { echo "bench: no $fig" >&2; exit 1; }
if [ -n "${BENCH_QUICK:-}" ]; then
	echo "bench: BENCH_QUICK run: README.md left as it is"
	exit 0
fi
awk -v fig="$fig" '
	/<!-- bench:begin -->/ { print; while ((getline l < fig) > 0) print l; skip = 1; next }
	/<!-- bench:end -->/ { skip = 0 }
	!skip { print }
' "$root/README.md" >"$root/README.md.tmp"
mv "$root/README.md.tmp" "$root/README.md"
echo "bench: README.md figures updated from $fig"
