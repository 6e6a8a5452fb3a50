# The MT940/MT942 files of testdata/statements/real/*_mt940: for each
# valid one (MANIFEST error codes "-"), an independent reader
# (tests/tools/mt940_counts.py, written from the SWIFT field formats, no
# code shared) counts the messages and statement lines and adds up their
# credits minus debits; MANIFEST says the same (and
# tests/unit/test_statement_corpus.c holds the C reader to MANIFEST), and
# validate exits 0 on it and 3 on each invalid one.
. "$(dirname "$0")/lib.sh"
cd "$TESTDATA/statements"
n=0
grep -E '^real/[a-z]+_mt940/' MANIFEST | while read -r path stmts entries txs statuses amount codes; do
	if [ "$codes" = - ]; then
		got=$(python3 "$CL_ROOT/tests/tools/mt940_counts.py" "$path")
		[ "$got" = "$path $stmts $entries $txs $statuses $amount" ] ||
			fail "$path: the independent reader counts \"$got\", MANIFEST \"$stmts $entries $txs $statuses $amount\""
		run validate -q "$path"
		[ "$STATUS" = 0 ] || fail "$path: validate exits $STATUS: $(cat "$TMP/stderr")"
	else
		run validate -q "$path"
		[ "$STATUS" = 3 ] || fail "$path: validate exits $STATUS, want 3 ($codes)"
	fi
done
[ "$(grep -c '^real/wolph_mt940/.* -$' MANIFEST)" -ge 20 ] || fail "fewer than 20 valid MT940 files"
echo ok
