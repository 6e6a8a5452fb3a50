#!/bin/sh
# Run each cmocka unit-test binary given; fail when any fails or none ran.
set -u
fail=0
n=0
started=$(date +%s)
for t in "$@"; do
	n=$((n + 1))
	t0=$(date +%s)
	if ! "$t"; then
		echo "FAILED: $t" >&2
		fail=$((fail + 1))
	fi
	# a binary's wall time, so that a slow one is seen in CI's log
	echo "unit: $(basename "$t") $(($(date +%s) - t0)) s"
done
if [ "$n" -eq 0 ]; then
	echo "no unit tests found" >&2
	exit 1
fi
echo "unit: $((n - fail)) passed, $fail failed in $(($(date +%s) - started)) s"
[ "$fail" -eq 0 ]
