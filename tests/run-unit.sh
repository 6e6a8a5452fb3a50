#!/bin/sh
# Run each cmocka unit-test binary given; fail when any fails or none ran.
set -u
fail=0
n=0
for t in "$@"; do
	n=$((n + 1))
	if ! "$t"; then
		echo "FAILED: $t" >&2
		fail=$((fail + 1))
	fi
done
if [ "$n" -eq 0 ]; then
	echo "no unit tests found" >&2
	exit 1
fi
echo "unit: $((n - fail)) passed, $fail failed"
[ "$fail" -eq 0 ]
