# A statement read through the one ISO 20022 row (xml_message.c) is fed to
# libxml2 in pieces its reader's queues can hold: 3,000 empty <Ntry/> in a
# row complete an item every 7 bytes, and each is an error of its own, never
# the reader's internal_limit (a piece of the clearing reader's size once
# completed more items than the statement queue holds).
. "$(dirname "$0")/lib.sh"
T="$TESTDATA/statements/agree/camt053-two-statements-one-account.xml"
python3 - "$T" >"$TMP/dense.xml" <<'PY'
import sys
s = open(sys.argv[1]).read()
i = s.index('<Ntry>')
j = s.index('</Ntry>', i) + len('</Ntry>')
print(s[:i] + '<Ntry/>' * 3000 + s[j:], end='')
PY
run validate "$TMP/dense.xml"
expect_status 3
if grep -q "internal_limit\|items completed in" "$TMP/stderr" "$TMP/stdout"; then
	fail "a piece completed more items than the queue holds: $(grep -m1 "items completed in" "$TMP/stderr")"
fi
grep -q 'missing_element\|entry' "$TMP/stderr" || fail "no entry error: $(head -3 "$TMP/stderr")"
echo ok
