# Every valid XML statement and status report of testdata/statements (the
# MANIFEST's lines without an error code) counted by an independent reader,
# tests/tools/statement_counts.py (Python's ElementTree: statements, entries,
# transaction details, statuses -- group, payment information block
# (pain.002) and transaction -- and the amount they add up to), against
# the MANIFEST the C readers are held to (tests/unit/test_statement_corpus.c).
. "$(dirname "$0")/lib.sh"
M="$TESTDATA/statements/MANIFEST"
n=0
grep -v '^#' "$M" | while read -r path stmts entries txs statuses amount errors; do
	case "$path" in *.xml) ;; *) continue ;; esac
	[ "$errors" = - ] || continue
	got=$(cd "$TESTDATA/statements" && python3 "$CL_ROOT/tests/tools/statement_counts.py" "$path")
	[ "$got" = "$path $stmts $entries $txs $statuses $amount" ] ||
		fail "$path: the MANIFEST says $stmts $entries $txs $statuses $amount, Python counts ${got#* }"
done
# (the subshell's failures end the test through set -e)
[ "$(grep -c '^corpus/pain.002/' "$M")" -ge 4 ] || fail "the pain.002 reports are not in the MANIFEST"
echo ok
