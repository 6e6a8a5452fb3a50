# Output scripts can rely on, without a database: parse and validate JSON
# valid against man/clearing-load-output.schema.json (records, statement
# items, errors, files); CSV with NULL as an empty field; control characters from files
# escaped in text; a reader that goes away; help COMMAND; -q everywhere;
# malformed identifiers as usage errors; a file name that is not UTF-8.
. "$(dirname "$0")/lib.sh"
SCHEMA="$CL_ROOT/man/clearing-load-output.schema.json"
CHECK="$CL_ROOT/tests/tools/json_output_check.py"
D="$TESTDATA/demo"

# ---- JSON: every object valid, every type seen ----
# an EndToEndId holding a CR and the C1 CSI (U+009B), then "[2J"
sed 's/<EndToEndId>E2E-1-1</<EndToEndId>E2E\&#13;1\xc2\x9b[2J</' "$D/original-pain001.xml" \
	>"$TMP/c1.xml"
grep -q 'E2E&#13;1' "$TMP/c1.xml" || fail "fixture not made"
sed '3s/^\(.\{29\}\)0/\1X/' "$D/original.ach" >"$TMP/bad.ach"
# and every tenth file of the corpora (other projects' files: all formats)
find "$TESTDATA/iso20022/corpus" "$TESTDATA/ach/corpus" "$TESTDATA/hostile" "$TESTDATA/csv" \
	"$TESTDATA/statements" -type f | sort | awk 'NR % 10 == 1' >"$TMP/sample"
{
	printf '%s\n' "$D/original.ach" "$D/corrected-pain001.xml" "$TMP/c1.xml" "$TMP/bad.ach"
	cat "$TMP/sample"
} | while IFS= read -r f; do
	"$CL_BIN" parse --format json "$f" >>"$TMP/parse.jsonl" 2>/dev/null || true
	"$CL_BIN" validate --format json "$f" >>"$TMP/validate.jsonl" 2>/dev/null || true
done
python3 "$CHECK" "$SCHEMA" --expect record,error,statement_item "$TMP/parse.jsonl" || fail "parse JSON"
python3 "$CHECK" "$SCHEMA" --expect file,error "$TMP/validate.jsonl" || fail "validate JSON"
# the record's keys are the field table's OUT fields, in order
python3 "$CHECK" "$SCHEMA" --record-keys | tail -n +4 >"$TMP/schema.keys"
"$CL_BIN" parse --format csv "$D/original.ach" | head -n 1 | tr -d '"' | tr , '\n' |
	tail -n +2 >"$TMP/csv.keys"
diff -u "$TMP/csv.keys" "$TMP/schema.keys" || fail "the schema's record keys differ from the field table's"
# one shape: an ACH record and an ISO record have the same keys
head -n 1 "$TMP/parse.jsonl" | python3 -c 'import json,sys; print(list(json.loads(sys.stdin.read())))' >"$TMP/k1"
grep -m 1 '"scheme":"iso20022"' "$TMP/parse.jsonl" |
	python3 -c 'import json,sys; print(list(json.loads(sys.stdin.read())))' >"$TMP/k2"
cmp -s "$TMP/k1" "$TMP/k2" || fail "ACH and ISO records differ in keys"
# errors: on stdout in JSON, and still on stderr
run parse --format json "$TMP/bad.ach"
expect_status 3
expect_stdout_has '"type":"error","format_version":1,"file":"'
expect_stderr_has 'bad.ach:3: error:'

# ---- text: control characters from the file escaped ----
for cmd in parse validate; do
	run $cmd "$TMP/c1.xml"
	for out in stdout stderr; do
		if LC_ALL=C grep -q "$(printf '\r')" "$TMP/$out" ||
			LC_ALL=C grep -q "$(printf '\302\233')" "$TMP/$out"; then
			fail "$cmd: a raw CR or CSI on $out"
		fi
	done
done
run parse "$TMP/c1.xml"
expect_stdout_has '|E2E\x0D1\xC2\x9B[2J 1805068 EUR credit 2026-03-03'
run parse --format json "$TMP/c1.xml"
expect_stdout_has '"end_to_end_id":"E2E\r1\u009b[2J"'

# ---- CSV: NULL is an empty field, never "0" or "" ----
run validate --format csv "$TMP/bad.ach" "$D/original.ach"
expect_status 3
grep -q '^"error","[^"]*bad.ach","3","30",,,"numeric",' "$TMP/stdout" ||
	fail "validate csv error row: $(cat "$TMP/stdout")"
grep -q '^"file","[^"]*original.ach",,,,,"valid",' "$TMP/stdout" ||
	fail "validate csv file row: $(cat "$TMP/stdout")"
if grep -q '"0"' "$TMP/stdout"; then fail "a missing number as 0: $(cat "$TMP/stdout")"; fi
run parse --format csv "$D/original.ach"
if grep -q '""' "$TMP/stdout"; then fail "parse csv: a NULL written as \"\""; fi

# ---- a reader that went away: the command's own status, nothing said ----
"$CL_TOOLS/gen_ach" --entries 20000 --seed 3 >"$TMP/big.ach"
cp "$TMP/big.ach" "$TMP/bigbad.ach"
printf 'garbage\n' >>"$TMP/bigbad.ach"
for f in big bigbad; do
	set +e
	"$CL_BIN" parse "$TMP/$f.ach" >/dev/null 2>&1
	want=$?
	set -e
	# the read end closed before the first write
	got=$(python3 - "$CL_BIN" "$TMP/$f.ach" "$TMP/$f.err" <<'PY'
import os, subprocess, sys
r, w = os.pipe()
os.close(r)
with open(sys.argv[3], "wb") as err:
    print(subprocess.call([sys.argv[1], "parse", sys.argv[2]], stdout=w, stderr=err))
PY
)
	said=$(grep -v 'error:\|note:\|detail:\|hint:' "$TMP/$f.err" || true)
	[ "$got" = "$want" ] || fail "$f: reader gone at once: exit $got, not $want"
	[ -z "$said" ] || fail "$f: reader gone at once: said $said"
	# and a reader that reads one line and goes: | head -n 1
	"$CL_BIN" parse "$TMP/$f.ach" 2>"$TMP/$f.err2" | head -n 1 >/dev/null
	if grep -q 'could not write' "$TMP/$f.err2"; then fail "$f: | head: $(cat "$TMP/$f.err2")"; fi
	st=$(python3 - "$CL_BIN" "$TMP/$f.ach" <<'PY'
import subprocess, sys
p = subprocess.Popen([sys.argv[1], "parse", sys.argv[2]], stdout=subprocess.PIPE,
                     stderr=subprocess.DEVNULL)
p.stdout.readline()
p.stdout.close()
print(p.wait())
PY
)
	[ "$st" = "$want" ] || fail "$f: reader gone after a line: exit $st, not $want"
done

# ---- help COMMAND, -q everywhere, malformed identifiers ----
# every command the general help lists
cmds=$("$CL_BIN" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z]*\)  .*/\1/p')
[ "$(echo "$cmds" | wc -w)" -ge 13 ] || fail "commands not found in --help: $cmds"
for cmd in $cmds; do
	"$CL_BIN" "$cmd" --help >"$TMP/h1"
	run help "$cmd"
	expect_status 0
	expect_stdout "$TMP/h1"
	grep -q -- '-q, --quiet' "$TMP/h1" || fail "$cmd has no -q"
done
run help nosuch
expect_status 2
for cmd in show loads; do
	run $cmd -q --db 'host=/nonexistent-cl port=1' --trace 121042880000001
	[ "$cmd" = loads ] && run $cmd -q --db 'host=/nonexistent-cl port=1'
	[ "$STATUS" != 2 ] || fail "$cmd -q refused: $(cat "$TMP/stderr")"
done
run show --trace 12104288000000
expect_status 2
expect_stderr_has 'invalid --trace "12104288000000" (expected an ACH trace number: 15 digits)'
run show --trace 1210428800000x1
expect_status 2
run show --uetr not-a-uuid
expect_status 2
expect_stderr_has '(expected a UUID: 8-4-4-4-12 hex digits)'
run show --e2e 123456789012345678901234567890123456
expect_status 2
run loads --uuid 12345
expect_status 2
expect_stderr_has 'expected a UUID'

# ---- a file name that is not UTF-8 ----
bad=$(printf 'n\377me.ach')
cp "$D/original.ach" "$TMP/$bad"
run validate "$TMP/$bad"
expect_status 0
expect_stdout_has 'n\xFFme.ach: valid nacha, 15 records'
run validate "$TMP/$bad.missing"
expect_status 2
expect_stderr_has 'n\xFFme.ach.missing: no such file'
run validate --format json "$TMP/$bad"
python3 "$CHECK" "$SCHEMA" "$TMP/stdout" >/dev/null || fail "JSON of a non-UTF-8 name"
