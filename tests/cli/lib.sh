# tests/cli/lib.sh - sourced by tests/cli/test_*.sh.
#   run ARGS...            run $CL_BIN, capture stdout/stderr/status in $TMP
#   expect_status N        the last run exited N
#   expect_stdout FILE|-   stdout equals FILE (or stdin)
#   expect_stderr FILE|-   stderr equals FILE (or stdin)
#   expect_stderr_has TEXT stderr contains TEXT
set -eu
export LC_ALL=C
: "${CL_BIN:?}"
CL_ROOT=${CL_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
TESTDATA="$CL_ROOT/testdata"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

run() {
	set +e
	"$CL_BIN" "$@" >"$TMP/stdout" 2>"$TMP/stderr"
	STATUS=$?
	set -e
	LAST="clearing-load $*"
}

expect_status() {
	if [ "$STATUS" != "$1" ]; then
		echo "--- stdout"; cat "$TMP/stdout"; echo "--- stderr"; cat "$TMP/stderr"
		fail "$LAST: expected exit $1, got $STATUS"
	fi
}

_expect_file() {
	if [ "$2" = - ]; then cat >"$TMP/expected"; else cp "$2" "$TMP/expected"; fi
	if ! diff -u "$TMP/expected" "$TMP/$1" >"$TMP/diff"; then
		cat "$TMP/diff"
		fail "$LAST: $1 differs from the expected text"
	fi
}

expect_stdout() { _expect_file stdout "$1"; }
expect_stderr() { _expect_file stderr "$1"; }

expect_stderr_has() {
	grep -qF -- "$1" "$TMP/stderr" || { cat "$TMP/stderr"; fail "$LAST: stderr lacks '$1'"; }
}

expect_stdout_has() {
	grep -qF -- "$1" "$TMP/stdout" || { cat "$TMP/stdout"; fail "$LAST: stdout lacks '$1'"; }
}
