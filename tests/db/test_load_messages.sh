#!/bin/sh
# What load says when a file changes under it (review 39): nothing applied,
# the attempt recorded as rejected (exit 3), in words an operator can read:
# no "(SQLSTATE none)", "nothing applied" said once.
. "$(dirname "$0")/lib.sh"
: "${CL_TOOLS:?}"
: "${CL_BIN_FP:?CL_BIN_FP must name the failpoint build}"
db_new
cl init >/dev/null

# 20000 entries (1.9 MB): pass 2 stops after its first row, well before it
# has read the last entry again
"$CL_TOOLS/gen_ach" -n 20000 >"$TMP/f.ach"
last=$(grep -n '^6' "$TMP/f.ach" | tail -n 1 | cut -d: -f1)
CL_FAILPOINT=mid_copy:stop "$CL_BIN_FP" load "$TMP/f.ach" >"$TMP/out" 2>"$TMP/err" &
pid=$!
# wait until the loader has stopped itself at the failpoint
until grep -q '^State:[[:space:]]*T' "/proc/$pid/status" 2>/dev/null; do
	kill -0 "$pid" 2>/dev/null || fail "the loader ended before the failpoint: $(cat "$TMP/err")"
done
# the last entry's individual name (columns 55-76, cosmetic), in place
printf 'CHANGED UNDER LOADER  ' | dd of="$TMP/f.ach" bs=1 seek=$(((last - 1) * 95 + 54)) conv=notrunc 2>/dev/null
kill -CONT "$pid"
set +e
wait "$pid"
rc=$?
set -e
assert_eq "$rc" 3 "a file changed during the load: exit status"
assert_eq "$(q "select count(*) from clearing_record")" 0 "nothing applied"
assert_eq "$(q "select outcome || ' ' || (reason like 'the file changed while it was loaded%')::text
	from clearing_load")" "rejected true" "the attempt is recorded"
grep -q "^clearing-load: $TMP/f.ach: error: the file changed while it was loaded (SHA-256 or record count differs" "$TMP/err" ||
	fail "no clear message: $(cat "$TMP/err")"
if grep -q 'SQLSTATE none' "$TMP/err"; then fail "SQLSTATE none: $(cat "$TMP/err")"; fi
assert_eq "$(grep -o 'nothing applied\|nothing from this file was applied' "$TMP/err" | wc -l)" 1 \
	"'nothing applied' said once"
echo ok

# the same, but the change breaks the file (an amount: the batch control no
# longer adds up): the message says the file changed and what it now reads
"$CL_TOOLS/gen_ach" -n 20000 >"$TMP/g.ach"
last=$(grep -n '^6' "$TMP/g.ach" | tail -n 1 | cut -d: -f1)
CL_FAILPOINT=mid_copy:stop "$CL_BIN_FP" load "$TMP/g.ach" >"$TMP/out" 2>"$TMP/err" &
pid=$!
until grep -q '^State:[[:space:]]*T' "/proc/$pid/status" 2>/dev/null; do
	kill -0 "$pid" 2>/dev/null || fail "the loader ended before the failpoint: $(cat "$TMP/err")"
done
# the last entry's amount (columns 30-39)
printf '9999999999' | dd of="$TMP/g.ach" bs=1 seek=$(((last - 1) * 95 + 29)) conv=notrunc 2>/dev/null
kill -CONT "$pid"
set +e
wait "$pid"
rc=$?
set -e
assert_eq "$rc" 3 "a file broken during the load: exit status"
grep -q "g.ach:[0-9]*: error: the file changed while it was loaded (line [0-9]* now reads: " "$TMP/err" ||
	fail "changed and broken: $(cat "$TMP/err")"
assert_eq "$(q "select count(*) from clearing_record")" 0 "nothing applied (2)"
