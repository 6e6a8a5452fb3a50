# clearing-load ingest: one pass over an inbox.  Ready files only; each
# moved to the archive by its outcome, never overwriting; a reason beside the
# ones that need a person; the crash between COMMIT and the move harmless; a
# file still arriving left for the next run; one run at a time; metrics and
# --on-event.
. "$(dirname "$0")/lib.sh"
: "${CL_TOOLS:?}" "${CL_BIN_FP:?}"
db_new
cl init >/dev/null
IN="$TMP/inbox"
AR="$TMP/archive"
mkdir -p "$IN"
DAY=$(date -u +%Y-%m-%d)
records() { q "select count(*) from clearing_record"; }
loads() { q "select count(*) from clearing_load"; }
ingest() { cl ingest --archive "$AR" --min-age 0 "$@" "$IN"; }

# an empty inbox: exit 0, no connection made (the database named is not there)
expect_exit 0 cl ingest --archive "$AR" --db "host=127.0.0.1 port=1" "$IN"
grep -q '^ingest run .* committed=0 .* exit=0$' "$TMP/out" || fail "empty run line: $(cat "$TMP/out")"
for d in done rejected held unsupported; do [ -d "$AR/$d" ] || fail "archive/$d not made"; done

# what is not ready stays: a dot-file, an upload in progress, a file younger
# than --min-age, one open for writing
"$CL_TOOLS/gen_ach" -n 20 >"$TMP/good.ach"
"$CL_TOOLS/gen_ach" -n 20 --start 500 >"$TMP/other.ach"
cp "$TMP/good.ach" "$IN/.hidden.ach"
cp "$TMP/good.ach" "$IN/upload.ach.part"
cp "$TMP/good.ach" "$IN/UPLOAD.ACH.PART"
cp "$TMP/good.ach" "$IN/fresh.ach"
expect_exit 0 cl ingest --archive "$AR" --min-age 3600 "$IN"
grep -q 'not_ready=3 ' "$TMP/out" || fail "young, .part and .PART not ready: $(cat "$TMP/out")"
assert_eq "$(loads)" 0 "nothing loaded before it is ready"
rm "$IN/fresh.ach"
cp "$TMP/good.ach" "$IN/open.ach"
exec 3>>"$IN/open.ach" # a writer that has not closed it
expect_exit 0 ingest
exec 3>&-
[ -f "$IN/open.ach" ] || fail "a file open for writing was taken"
assert_eq "$(loads)" 0 "a file open for writing is not loaded"
rm "$IN/open.ach"

# committed: done/DAY/NAME, the move recorded with the load
cp "$TMP/good.ach" "$IN/day1.ach"
expect_exit 0 ingest --metrics-file "$TMP/m.prom"
[ -f "$AR/done/$DAY/day1.ach" ] && [ ! -e "$IN/day1.ach" ] || fail "not archived: $(find "$AR" "$IN")"
grep -q "^ingest file=day1.ach outcome=committed load_id=1 records=20 new=20 duplicate=0 .* archived=$AR/done/$DAY/day1.ach exit=0\$" \
	"$TMP/out" || fail "file line: $(cat "$TMP/out")"
assert_eq "$(q "select path from clearing_load_archive where load_id = 1")" "$AR/done/$DAY/day1.ach" "archive path stored"
expect_exit 0 cl loads --format json
grep -q "\"archived_as\":\"$AR/done/$DAY/day1.ach\"" "$TMP/out" || fail "loads: archived_as: $(cat "$TMP/out")"
grep -q "^clearing_load_ingest_files{inbox=\"$IN\",outcome=\"committed\"} 1\$" "$TMP/m.prom" ||
	fail "metrics: $(cat "$TMP/m.prom")"
grep -q "^clearing_load_ingest_exit_status{inbox=\"$IN\"} 0\$" "$TMP/m.prom" || fail "metrics exit status"
ok_time=$(sed -n 's/^clearing_load_ingest_last_success_timestamp_seconds{.*} //p' "$TMP/m.prom")
[ "$ok_time" -gt 0 ] || fail "last success time: $ok_time"

# the same name again (a re-upload): all duplicate, and never overwriting
cp "$TMP/good.ach" "$IN/day1.ach"
expect_exit 0 ingest
[ -f "$AR/done/$DAY/day1.ach.2" ] || fail "re-upload overwrote or was not moved: $(ls "$AR/done/$DAY")"
grep -q 'new=0 duplicate=20 ' "$TMP/out" || fail "re-upload: $(cat "$TMP/out")"
assert_eq "$(records)" 20 "a re-upload applies nothing"

# invalid, held and not a clearing file, each with its reason; --on-event
# for the ones that need a person; the event command's failure changes
# nothing
sed '3s/^\(.\{29\}\)\(.\)/\1X/' "$TMP/other.ach" >"$IN/bad.ach"
cl load "$TESTDATA/demo/original.ach" >/dev/null # changed-amount.ach conflicts with it
cp "$TESTDATA/demo/changed-amount.ach" "$IN/changed.ach"
cp "$TESTDATA/unsupported/pacs.028-minimal.xml" "$IN/statement.xml"
n=$(records)
expect_exit 4 ingest --on-event "echo \"\$CL_EVENT \$(basename \"\$CL_FILE\") \$CL_CONFLICT \$CL_ARCHIVED\" >>'$TMP/events'; exit 1"
assert_eq "$(records)" "$n" "nothing applied from invalid, held or unsupported files"
[ -f "$AR/rejected/bad.ach" ] && [ -f "$AR/rejected/bad.ach.reason" ] || fail "rejected: $(find "$AR")"
[ -f "$AR/held/changed.ach" ] && [ -f "$AR/held/changed.ach.reason" ] || fail "held: $(find "$AR")"
[ -f "$AR/unsupported/statement.xml" ] && [ -f "$AR/unsupported/statement.xml.reason" ] ||
	fail "unsupported: $(find "$AR")"
grep -q '^outcome: held$' "$AR/held/changed.ach.reason" || fail "reason file: $(cat "$AR/held/changed.ach.reason")"
grep -q '^reason: [0-9]* conflicting record' "$AR/held/changed.ach.reason" || fail "reason: $(cat "$AR/held/changed.ach.reason")"
grep -qx "held changed.ach [1-9][0-9]* $AR/held/changed.ach" "$TMP/events" || fail "held event: $(cat "$TMP/events")"
grep -qx "rejected bad.ach 0 $AR/rejected/bad.ach" "$TMP/events" || fail "rejected event: $(cat "$TMP/events")"
assert_eq "$(wc -l <"$TMP/events")" 2 "events only for held and rejected here"
grep -q 'on-event command exited 1' "$TMP/err" || fail "event failure not said: $(cat "$TMP/err")"
assert_eq "$(q "select count(*) from clearing_load where file_name like '%statement.xml'")" 0 \
	"an unsupported message is not recorded as a load"

# an unsupported message alone: routed to unsupported/, and the run is a success
cp "$TESTDATA/unsupported/pacs.028-minimal.xml" "$IN/statement.xml"
expect_exit 0 ingest
[ -f "$AR/unsupported/statement.xml.2" ] || fail "second message not routed: $(ls "$AR/unsupported")"
grep -q 'file=statement.xml outcome=unsupported .* exit=9$' "$TMP/out" || fail "unsupported line: $(cat "$TMP/out")"

# a bank statement is loaded (its items) and filed under done/ like any
# load; again, it is all duplicate
cp "$TESTDATA/statements/corpus/camt.053/nordea_example_camt.xml" "$IN/stmt.xml"
expect_exit 0 ingest
[ -f "$AR/done/$DAY/stmt.xml" ] || fail "statement not in done/: $(find "$AR" -name 'stmt*')"
grep -q 'file=stmt.xml outcome=committed load_id=[0-9]* records=7 new=7 ' "$TMP/out" || fail "statement line: $(cat "$TMP/out")"
cp "$TESTDATA/statements/corpus/camt.053/nordea_example_camt.xml" "$IN/stmt.xml"
expect_exit 0 ingest
grep -q 'file=stmt.xml outcome=committed load_id=[0-9]* records=7 new=0 duplicate=7 ' "$TMP/out" ||
	fail "statement again: $(cat "$TMP/out")"
[ -f "$AR/done/$DAY/stmt.xml.2" ] || fail "second statement not in done/: $(find "$AR" -name 'stmt*')"

# the crash between COMMIT and the move: the file stays, its records are
# applied; the next run finds it all duplicate and moves it
cp "$TMP/other.ach" "$IN/crash.ach"
before_crash=$(records)
set +e
CL_FAILPOINT=ingest_before_move "$CL_BIN_FP" ingest --archive "$AR" --min-age 0 "$IN" >/dev/null 2>&1
set -e
[ -f "$IN/crash.ach" ] || fail "crash: the file should still be in the inbox"
after_crash=$(records)
assert_eq "$after_crash" $((before_crash + 20)) "crash after COMMIT: the records are applied"
expect_exit 0 ingest
[ -f "$AR/done/$DAY/crash.ach" ] && [ ! -e "$IN/crash.ach" ] || fail "not moved after the crash: $(find "$IN" "$AR/done")"
grep -q 'file=crash.ach outcome=committed .* new=0 duplicate=20 ' "$TMP/out" || fail "second run: $(cat "$TMP/out")"
assert_eq "$(records)" "$after_crash" "nothing doubled after the crash"

# a re-upload renamed over the file while it is loaded (what an SFTP client
# does with NAME.part): the new version was never read, so it stays in the
# inbox, the version read stands; the next run loads the new one
"$CL_TOOLS/gen_ach" -n 10 --start 7000 >"$IN/swap.ach"
"$CL_TOOLS/gen_ach" -n 10 --start 7100 >"$TMP/swap2.ach"
before_swap=$(records)
CL_FAILPOINT=ingest_before_move:stop "$CL_BIN_FP" ingest --archive "$AR" --min-age 0 "$IN" \
	>"$TMP/swap.out" 2>"$TMP/swap.err" &
pid=$!
wait_stopped "$pid" "ingest (ingest_before_move)" "$TMP/swap.err"
cp "$TMP/swap2.ach" "$IN/swap.ach.part"
mv "$IN/swap.ach.part" "$IN/swap.ach"
kill -CONT "$pid"
set +e
wait "$pid"
rc=$?
set -e
assert_eq "$rc" 75 "a file replaced during its load: retry later ($(cat "$TMP/swap.out" "$TMP/swap.err"))"
cmp -s "$IN/swap.ach" "$TMP/swap2.ach" || fail "the re-upload left the inbox: $(find "$AR" -name 'swap*')"
[ ! -e "$AR/done/$DAY/swap.ach" ] || fail "the unread re-upload was archived as loaded"
grep -q 'swap.ach: replaced or changed while it was loaded: left in the inbox' "$TMP/swap.err" ||
	fail "not said: $(cat "$TMP/swap.err")"
assert_eq "$(records)" $((before_swap + 10)) "the version read stands"
expect_exit 0 ingest
cmp -s "$AR/done/$DAY/swap.ach" "$TMP/swap2.ach" || fail "the re-upload not loaded next: $(find "$AR" -name 'swap*')"
assert_eq "$(records)" $((before_swap + 20)) "the re-upload applied on the next run"

# a file that ends early while young is still arriving: left, not recorded,
# exit 0 (not ready yet: test_ingest_truncated); once older than
# --arrival-limit it is rejected
head -n 5 "$TMP/other.ach" >"$IN/partial.ach"
n=$(loads)
expect_exit 0 ingest
[ -f "$IN/partial.ach" ] || fail "a young truncated file was moved"
grep -q 'file=partial.ach outcome=waiting' "$TMP/out" || fail "waiting: $(cat "$TMP/out")"
assert_eq "$(loads)" "$n" "a file still arriving is not recorded"
expect_exit 3 ingest --arrival-limit 0
[ -f "$AR/rejected/partial.ach" ] || fail "an old truncated file is rejected"

# one run at a time: a run that finds the inbox locked does nothing, exit 0
cp "$TMP/good.ach" "$IN/locked.ach"
expect_exit 0 flock "$IN" "$CL_BIN" ingest --archive "$AR" --min-age 0 "$IN"
grep -q 'another ingest run holds this inbox: nothing done' "$TMP/err" || fail "lock: $(cat "$TMP/err")"
[ -f "$IN/locked.ach" ] || fail "the locked run moved a file"

# the database unreachable: retry later (75), the file stays; the metrics
# keep the last success
expect_exit 75 cl ingest --archive "$AR" --min-age 0 --db "host=127.0.0.1 port=1" \
	--metrics-file "$TMP/m.prom" "$IN"
[ -f "$IN/locked.ach" ] || fail "a file moved while the database was down"
grep -q "^clearing_load_ingest_exit_status{inbox=\"$IN\"} 75\$" "$TMP/m.prom" || fail "metrics exit 75"
grep -q "^clearing_load_ingest_last_success_timestamp_seconds{inbox=\"$IN\"} $ok_time\$" "$TMP/m.prom" ||
	fail "last success not kept: $(cat "$TMP/m.prom")"

# JSON: one object per file and per run
expect_exit 0 ingest --format json
grep -q '^{"type":"ingest_file","format_version":1,"file":"locked.ach","outcome":"committed",' "$TMP/out" || fail "json file: $(cat "$TMP/out")"
grep -q '^{"type":"ingest_run",.*"exit_status":0}$' "$TMP/out" || fail "json run: $(cat "$TMP/out")"
python3 "$CL_ROOT/tests/tools/json_output_check.py" "$CL_ROOT/man/clearing-load-output.schema.json" \
	--expect ingest_file,ingest_run "$TMP/out" || fail "ingest JSON against the schema"

# a file name that is not UTF-8 (a Latin-1 name): loaded, moved, and the move
# recorded with the byte escaped as the load row's file name is; the run
# exits 0 only because it was recorded
rm -f "$IN"/*
"$CL_TOOLS/gen_ach" -n 5 --start 9100 >"$IN/$(printf 'l\351gende.ach')"
expect_exit 0 ingest
[ -f "$AR/done/$DAY/$(printf 'l\351gende.ach')" ] || fail "the Latin-1 name not archived: $(ls "$AR/done/$DAY")"
grep -q 'not recorded' "$TMP/err" && fail "the move was not recorded: $(cat "$TMP/err")"
assert_eq "$(q "select count(*) from clearing_load_archive a join clearing_load l using (load_id)
	       where strpos(l.file_name, 'l\xE9gende.ach') > 0
	         and strpos(a.path, '/done/$DAY/l\xE9gende.ach') > 0")" 1 \
	"the archive row of the Latin-1 name, escaped"

# usage: no inbox, not a directory, no --archive
expect_exit 2 cl ingest --archive "$AR"
expect_exit 2 cl ingest --archive "$AR" "$TMP/good.ach"
expect_exit 2 cl ingest "$IN"
echo ok
