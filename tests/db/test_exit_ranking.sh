#!/bin/sh
# Exit status ranking (docs/design/0026-exit-status-ranking.md): what a person
# must look at outranks "retry later".  An ingest run with a rejected file,
# a held file and a file still arriving exits 4 (held), not 75: cron and the
# systemd unit take 75 as "the next run retries" and would count the run a
# success.  Each file is filed as before (the ranking changes the status
# only).
. "$(dirname "$0")/lib.sh"
: "${CL_TOOLS:?}"
db_new
cl init >/dev/null || fail "init"
IN="$TMP/inbox"
AR="$TMP/archive"
mkdir -p "$IN"
ingest() { cl ingest --archive "$AR" --min-age 0 "$@" "$IN"; }

"$CL_TOOLS/gen_ach" -n 20 --start 500 >"$TMP/other.ach"
cl load "$TESTDATA/demo/original.ach" >/dev/null || fail "the original" # changed-amount.ach conflicts with it
sed '3s/^\(.\{29\}\)\(.\)/\1X/' "$TMP/other.ach" >"$IN/bad.ach"          # rejected (3)
cp "$TESTDATA/demo/changed-amount.ach" "$IN/changed.ach"                 # held (4)
head -n 5 "$TMP/other.ach" >"$IN/partial.ach"                            # still arriving (0)
expect_exit 4 ingest
grep -q 'file=partial.ach outcome=waiting' "$TMP/out" || fail "partial.ach not waiting: $(cat "$TMP/out")"
[ -f "$IN/partial.ach" ] || fail "the file still arriving was moved"
[ -f "$AR/rejected/bad.ach" ] || fail "bad.ach not rejected: $(find "$AR")"
[ -f "$AR/held/changed.ach" ] || fail "changed.ach not held: $(find "$AR")"
grep -q 'exit=4$' "$TMP/out" || fail "the run line: $(cat "$TMP/out")"

# rejected beside still arriving: 3, not 75
sed '3s/^\(.\{29\}\)\(.\)/\1X/' "$TMP/other.ach" >"$IN/bad2.ach"
expect_exit 3 ingest
[ -f "$IN/partial.ach" ] || fail "the file still arriving was moved"
# still arriving alone: 0, a file not ready yet (decision record 0031;
# it was 75 on every run until --arrival-limit: test_ingest_truncated)
expect_exit 0 ingest
[ -f "$IN/partial.ach" ] || fail "the file still arriving was moved"

# load over several files: held outranks rejected, whichever comes first
cp "$TESTDATA/demo/changed-amount.ach" "$TMP/changed.ach"
sed '3s/^\(.\{29\}\)\(.\)/\1X/' "$TMP/other.ach" >"$TMP/bad.ach"
expect_exit 4 cl load "$TMP/bad.ach" "$TMP/changed.ach"
expect_exit 4 cl load "$TMP/changed.ach" "$TMP/bad.ach"
echo ok
