# ingest killed (SIGKILL) at each moment of a file's move into the archive:
# after the link and before the unlink from the inbox; after the unlink and
# before the archive row; after the reason file and before the row.  The
# next run completes the move from its note (ARCHIVE/.moving): the file is
# archived exactly once (no NAME.2, the same inode), loaded once (no second
# load row), its archive row written, its reason file there, its event
# given once.  The kill before the move (after COMMIT) is test_ingest's.
. "$(dirname "$0")/lib.sh"
: "${CL_TOOLS:?}" "${CL_BIN_FP:?}"
db_new
cl init >/dev/null
IN="$TMP/inbox"
AR="$TMP/archive"
mkdir -p "$IN"
DAY=$(date -u +%Y-%m-%d)
EV='echo "$CL_EVENT $(basename "$CL_FILE") $CL_LOAD_ID $CL_ARCHIVED" >>'"'$TMP/events'"
loads() { q "select count(*) from clearing_load"; }
ingest() { cl ingest --archive "$AR" --min-age 0 --on-event "$EV" "$@" "$IN"; }
killed_at() { # FAILPOINT: a run of the failpoint build killed there
	set +e
	CL_FAILPOINT="$1" "$CL_BIN_FP" ingest --archive "$AR" --min-age 0 --on-event "$EV" "$IN" \
		>"$TMP/killed.out" 2>"$TMP/killed.err"
	rc=$?
	set -e
	assert_eq "$rc" 137 "killed at $1 ($(cat "$TMP/killed.out" "$TMP/killed.err"))"
}
start=9000
for fp in ingest_after_link ingest_after_unlink ingest_before_archive_row; do
	start=$((start + 100))
	"$CL_TOOLS/gen_ach" -n 10 --start $start >"$IN/k.ach"
	ino=$(stat -c %i "$IN/k.ach")
	n=$(loads)
	: >"$TMP/events"
	killed_at "$fp"
	assert_eq "$(loads)" $((n + 1)) "$fp: the load committed before the kill"
	lid=$(q "select max(load_id) from clearing_load")
	assert_eq "$(q "select count(*) from clearing_load_archive where load_id = $lid")" 0 \
		"$fp: killed before the row"
	ls "$AR/.moving/" | grep -q . || fail "$fp: no note of the move: $(find "$AR")"
	expect_exit 0 ingest
	assert_eq "$(loads)" $((n + 1)) "$fp: not loaded again ($(cat "$TMP/out"))"
	[ ! -e "$IN/k.ach" ] || fail "$fp: still in the inbox"
	# archived exactly once: k.ach of the first round, then k.ach.2, .3 as
	# this loop re-uses the name; never one more than the rounds
	got=$(find "$AR/done" -name 'k.ach*' | wc -l)
	want=$((start / 100 - 90))
	assert_eq "$got" "$want" "$fp: archived once ($(find "$AR/done" -name 'k.ach*'))"
	path=$(q "select path from clearing_load_archive where load_id = $lid")
	[ -n "$path" ] && [ "$(stat -c %i "$path")" = "$ino" ] ||
		fail "$fp: the archive row ($path) is not the file moved: $(ls -i "$AR/done/$DAY")"
	grep -q "^ingest file=k.ach outcome=committed load_id=$lid .*archived=$path .*completed" \
		"$TMP/out" || fail "$fp: the completed move not said: $(cat "$TMP/out")"
	assert_eq "$(ls -A "$AR/.moving")" "" "$fp: the note removed"
	assert_eq "$(wc -l <"$TMP/events")" 0 "$fp: no event for a committed file"
done

# a held file killed between link and unlink: the next run completes the
# move, writes its reason file and gives its event, once
cl load "$TESTDATA/demo/original.ach" >/dev/null
cp "$TESTDATA/demo/changed-amount.ach" "$IN/changed.ach"
n=$(loads)
: >"$TMP/events"
killed_at ingest_after_link
[ -f "$IN/changed.ach" ] && [ -f "$AR/held/changed.ach" ] || fail "killed between link and unlink: $(find "$IN" "$AR/held")"
lid=$(q "select max(load_id) from clearing_load")
assert_eq "$(wc -l <"$TMP/events")" 0 "the killed run gave no event"
expect_exit 4 ingest
assert_eq "$(loads)" $((n + 1)) "held file not loaded again"
[ ! -e "$IN/changed.ach" ] && [ ! -e "$AR/held/changed.ach.2" ] || fail "held: $(find "$IN" "$AR/held")"
grep -q '^outcome: held$' "$AR/held/changed.ach.reason" || fail "reason file: $(find "$AR/held")"
assert_eq "$(q "select path from clearing_load_archive where load_id = $lid")" "$AR/held/changed.ach" "held: the row"
grep -qx "held changed.ach $lid $AR/held/changed.ach" "$TMP/events" || fail "held event: $(cat "$TMP/events")"
assert_eq "$(wc -l <"$TMP/events")" 1 "one event"
expect_exit 0 ingest
assert_eq "$(wc -l <"$TMP/events")" 1 "still one event"

# the database down when the next run completes the move: the file leaves
# the inbox, the note stays, and the run after records the row
"$CL_TOOLS/gen_ach" -n 10 --start 9900 >"$IN/down.ach"
killed_at ingest_after_link
lid=$(q "select max(load_id) from clearing_load")
expect_exit 75 cl ingest --archive "$AR" --min-age 0 --db "host=127.0.0.1 port=1" "$IN"
[ ! -e "$IN/down.ach" ] && [ -f "$AR/done/$DAY/down.ach" ] || fail "down: $(find "$IN" "$AR" -name 'down*')"
ls "$AR/.moving/" | grep -q . || fail "the note went before the row was written"
expect_exit 0 ingest
assert_eq "$(q "select path from clearing_load_archive where load_id = $lid")" "$AR/done/$DAY/down.ach" "down: the row"
assert_eq "$(ls -A "$AR/.moving")" "" "down: the note removed"
assert_eq "$(find "$AR" -name 'down.ach*' | wc -l)" 1 "down: archived once"
echo ok
