#!/bin/sh
# Run every tests/cli/test_*.sh with CL_BIN (the program), CL_TOOLS (test
# tools) and CL_ROOT (the repository) set; each test passes by exiting 0.
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${CL_BIN:?CL_BIN must name the clearing-load binary}"
CL_ROOT=$(cd "$here/../.." && pwd)
export CL_BIN CL_ROOT CL_TOOLS="${CL_TOOLS:-}" LC_ALL=C
# sanitizer builds: also catch writes into dead stack frames
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_stack_use_after_return=1}"
# CL_CLI_OUT: the logs' directory (CI runs two of these side by side)
out="${CL_CLI_OUT:-$CL_ROOT/tests/out/cli}"
mkdir -p "$out"
pass=0
fail=0
tests="$*"
[ -n "$tests" ] || tests=$(ls "$here"/test_*.sh 2>/dev/null)
for t in $tests; do
	name=$(basename "$t" .sh)
	if sh "$t" >"$out/$name.log" 2>&1; then
		pass=$((pass + 1))
		echo "ok   $name"
	else
		fail=$((fail + 1))
		echo "FAIL $name (log: $out/$name.log)"
		tail -n 30 "$out/$name.log" | sed 's/^/    /'
	fi
done
[ $((pass + fail)) -gt 0 ] || { echo "cli: no tests found" >&2; exit 1; }
echo "cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
