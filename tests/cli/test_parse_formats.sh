# parse and validate print exactly what they promise, in every format, from
# a file, from standard input and from gzip; accounts masked unless --no-mask.
. "$(dirname "$0")/lib.sh"
EXP="$CL_ROOT/tests/cli/expected"
D="$TESTDATA/demo"
cd "$D"

run parse original.ach
expect_status 0
expect_stdout "$EXP/parse-original-ach.txt"
[ ! -s "$TMP/stderr" ] || fail "parse wrote to stderr"

run parse --format json original.ach
expect_status 0
expect_stdout "$EXP/parse-original-ach.jsonl"
grep -q '"receiving_account":"\*\*\*\**[0-9]\{4\}"' "$TMP/stdout" || fail "accounts not masked"

run parse --format csv original-pain001.xml
expect_status 0
expect_stdout "$EXP/parse-original-pain001.csv"

run parse --format json --no-mask original.ach
expect_status 0
grep -q '"receiving_account":"[0-9]\{12\}"' "$TMP/stdout" || fail "--no-mask did not show full accounts"

# standard input and gzip give the same records; the checksum is of the raw bytes
"$CL_BIN" parse --format json - <original.ach >"$TMP/stdin.jsonl"
sed 's|"file":"original.ach"|"file":"(stdin)"|' "$EXP/parse-original-ach.jsonl" >"$TMP/want.jsonl"
diff -u "$TMP/want.jsonl" "$TMP/stdin.jsonl" || fail "parse - differs from parse FILE"
gzip -c original.ach >"$TMP/original.gz"
run validate --format json "$TMP/original.gz"
expect_status 0
expect_stdout_has "\"sha256\":\"$(sha256sum "$TMP/original.gz" | cut -d' ' -f1)\""
expect_stdout_has '"records":15'

run validate original.ach corrected.ach original-pain001.xml
expect_status 0
expect_stdout - <<'OUT'
original.ach: valid nacha, 15 records
corrected.ach: valid nacha, 20 records
original-pain001.xml: valid pain.001.001.09, 8 records
OUT

# --schema validates while streaming (the official XSD of the message)
run validate --schema "$TESTDATA/iso20022/corpus/xsd/pain.001.001.09.xsd" original-pain001.xml
expect_status 0
expect_stdout - <<'OUT'
original-pain001.xml: valid pain.001.001.09, 8 records
OUT

run validate -q original.ach
expect_status 0
[ ! -s "$TMP/stdout" ] || fail "validate -q printed a summary"

# several files: the highest exit status wins, each file is reported
printf 'junk\n' >"$TMP/junk.txt"
run validate original.ach "$TMP/junk.txt"
expect_status 3
expect_stdout_has "original.ach: valid nacha, 15 records"
expect_stdout_has "junk.txt: invalid, 1 error"
echo ok
