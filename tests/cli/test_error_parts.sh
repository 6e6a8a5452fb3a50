# An error may carry a detail (where each number came from) and a hint (what
# to do): text output gives each a line of its own under the error's
# FILE:LINE, JSON output the keys "detail" and "hint", null when not set.
. "$(dirname "$0")/lib.sh"
A="$TESTDATA/demo/original.ach"

# the batch control's entry hash (line 19, columns 11-20) one too low: 1125667850
awk 'NR == 19 { print substr($0, 1, 10) "1125667850" substr($0, 21); next } { print }' "$A" \
	>"$TMP/hash.ach"
run validate "$TMP/hash.ach"
expect_status 3
expect_stderr - <<OUT
clearing-load: $TMP/hash.ach:19: error: batch 1 entry hash mismatch (batch control 1125667850, computed 1125667851)
clearing-load: $TMP/hash.ach:19: detail: batch control 1125667850: columns 11-20 of line 19; computed 1125667851: the last 10 digits of the sum of the receiving DFI identifications (entry detail columns 4-11) of the 15 entries after the batch header at line 2
OUT
run validate --format json "$TMP/hash.ach"
expect_status 3
expect_stdout_has '"code":"batch_entry_hash","message":"batch 1 entry hash mismatch (batch control 1125667850, computed 1125667851)","detail":"batch control 1125667850: columns 11-20 of line 19; computed 1125667851: the last 10 digits'
grep -q '"hint":null' "$TMP/stdout" || fail "no null hint: $(cat "$TMP/stdout")"

# unknown format: a hint, no detail
printf 'PK\003\004' >"$TMP/x.zip"
run validate --format json "$TMP/x.zip"
expect_status 3
expect_stdout_has '"code":"unknown_format","message":"unknown format: expected a NACHA file header (\"101\"), a BAI2 file (\"01,\" at its first byte), an MT940/MT942 statement (\":20:\" or \"{1:\"), an ISO 20022 XML document (\"<\") or a CSV export (a header row naming scheme and kind)","detail":null,"hint":"check that this is the clearing file itself: a file compressed other than with gzip (zip, bzip2, xz) must be unpacked first","sqlstate":null}'
grep -q '"detail":null' "$TMP/stdout" || fail "no null detail: $(cat "$TMP/stdout")"

# an error with neither: no such keys, no such lines
awk 'NR == 11 { print substr($0, 1, 11) "9" substr($0, 13); next } { print }' "$A" >"$TMP/digit.ach"
run validate --format json "$TMP/digit.ach"
expect_status 3
expect_stdout_has '"code":"routing_check_digit"'
grep -q '"detail":null,"hint":null' "$TMP/stdout" || fail "parts that were not set: $(cat "$TMP/stdout")"
run validate "$TMP/digit.ach"
if grep -q ': detail: \|: hint: ' "$TMP/stderr"; then fail "part lines that were not set: $(cat "$TMP/stderr")"; fi
echo ok
