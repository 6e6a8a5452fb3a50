# ingest and a file that stops growing but stays truncated (an XML cut
# mid-element, an ACH without its 9 record): while younger than
# --arrival-limit it waits quietly (its line says why and when it will be
# rejected; no error messages, no event, exit 0), every run alike; then it
# is rejected, with its reason file and ONE event.  Each file left before
# loading says why on its own line (text and JSON).
. "$(dirname "$0")/lib.sh"
: "${CL_TOOLS:?}"
db_new
cl init >/dev/null
IN="$TMP/inbox"
AR="$TMP/archive"
mkdir -p "$IN"
EV='echo "$CL_EVENT $(basename "$CL_FILE")" >>'"'$TMP/events'"
loads() { q "select count(*) from clearing_load"; }
ingest() { cl ingest --archive "$AR" --min-age 0 --on-event "$EV" "$@" "$IN"; }

"$CL_TOOLS/gen_iso" --type pain.001 --tx 5 >"$TMP/full.xml"
head -c $(($(wc -c <"$TMP/full.xml") * 2 / 3)) "$TMP/full.xml" >"$IN/cut.xml"
"$CL_TOOLS/gen_ach" -n 5 | grep -v '^9' >"$IN/no9.ach"
: >"$TMP/events"

# two runs inside the limit: the same quiet answer each time
for run in 1 2; do
	expect_exit 0 ingest
	[ -s "$TMP/err" ] && fail "run $run: errors for files still arriving: $(cat "$TMP/err")"
	for f in cut.xml no9.ach; do
		[ -f "$IN/$f" ] || fail "run $run: $f left the inbox"
		grep -q "^ingest file=$f outcome=waiting .*reason=\"ends early or changed while read: .*rejected if unchanged for [0-9]* s more (--arrival-limit 900)\" exit=0\$" \
			"$TMP/out" || fail "run $run: $f's line: $(cat "$TMP/out")"
	done
	grep -q '^ingest run .* waiting=2 .* exit=0$' "$TMP/out" || fail "run $run: run line: $(cat "$TMP/out")"
	assert_eq "$(wc -l <"$TMP/events")" 0 "run $run: no event while it waits"
	assert_eq "$(loads)" 0 "run $run: nothing recorded"
done
# -q: nothing at all
expect_exit 0 ingest -q
[ -s "$TMP/out" ] || [ -s "$TMP/err" ] && fail "-q printed: $(cat "$TMP/out" "$TMP/err")"

# past the limit: rejected, each once, with its errors said, its reason and
# one event; the next run has nothing more to say about them
expect_exit 3 ingest --arrival-limit 0
for f in cut.xml no9.ach; do
	[ -f "$AR/rejected/$f" ] && [ -f "$AR/rejected/$f.reason" ] || fail "$f not rejected: $(find "$AR" "$IN")"
	grep -q "^ingest file=$f outcome=rejected " "$TMP/out" || fail "$f rejected line: $(cat "$TMP/out")"
	grep -qx "rejected $f" "$TMP/events" || fail "$f: event: $(cat "$TMP/events")"
done
grep -q 'error' "$TMP/err" || fail "the rejected files' errors not said: $(cat "$TMP/err")"
assert_eq "$(wc -l <"$TMP/events")" 2 "one event per file"
expect_exit 0 ingest --arrival-limit 0
assert_eq "$(wc -l <"$TMP/events")" 2 "no event on the next run"

# each file left before loading says why, on its line (text and JSON)
cp "$TMP/full.xml" "$IN/upload.xml.part"
cp "$TMP/full.xml" "$IN/young.xml"
mkfifo "$IN/pipe"
expect_exit 0 cl ingest --archive "$AR" --min-age 3600 "$IN"
grep -q '^ingest file=upload.xml.part outcome=not_ready reason="named as an upload in progress" exit=0$' "$TMP/out" ||
	fail "upload line: $(cat "$TMP/out")"
grep -q '^ingest file=young.xml outcome=not_ready reason="changed less than --min-age ago (changed [0-9]* s ago, --min-age 3600)" exit=0$' "$TMP/out" ||
	fail "young line: $(cat "$TMP/out")"
grep -q '^ingest file=pipe outcome=not_ready reason="not a regular file" exit=0$' "$TMP/out" ||
	fail "pipe line: $(cat "$TMP/out")"
grep -q '^ingest run .* not_ready=3 ' "$TMP/out" || fail "run line: $(cat "$TMP/out")"
expect_exit 0 cl ingest --archive "$AR" --min-age 3600 --format json "$IN"
grep -q '^{"type":"ingest_file","format_version":1,"file":"young.xml","outcome":"not_ready",.*"reason":"changed less than --min-age ago' "$TMP/out" ||
	fail "json: $(cat "$TMP/out")"
python3 "$CL_ROOT/tests/tools/json_output_check.py" "$CL_ROOT/man/clearing-load-output.schema.json" \
	--expect ingest_file,ingest_run "$TMP/out" || fail "ingest JSON against the schema"
echo ok
