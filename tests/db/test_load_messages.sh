#!/bin/sh
# What load says when a file changes under it: nothing applied,
# the attempt recorded as rejected (exit 3), in words an operator can read:
# no "(SQLSTATE none)", "nothing applied" said once.
. "$(dirname "$0")/lib.sh"
: "${CL_TOOLS:?}"
: "${CL_BIN_FP:?CL_BIN_FP must name the failpoint build}"
db_new
cl init >/dev/null

# change_under_loader FILE COLUMN TEXT: load FILE (20000 entries, 1.9 MB)
# with the failpoint build stopped after pass 2's first row, well before it
# has read the last entry again; write TEXT into the last entry at COLUMN
# (1-based), in place; let the loader go on; its exit status in $rc.
change_under_loader() {
	"$CL_TOOLS/gen_ach" -n 20000 >"$1"
	_last=$(grep -n '^6' "$1" | tail -n 1 | cut -d: -f1)
	CL_FAILPOINT=mid_copy:stop "$CL_BIN_FP" load "$1" >"$TMP/out" 2>"$TMP/err" &
	_pid=$!
	# wait until the loader has stopped itself at the failpoint
	until grep -q '^State:[[:space:]]*T' "/proc/$_pid/status" 2>/dev/null; do
		kill -0 "$_pid" 2>/dev/null || fail "the loader ended before the failpoint: $(cat "$TMP/err")"
	done
	printf '%s' "$3" | dd of="$1" bs=1 seek=$(((_last - 1) * 95 + $2 - 1)) conv=notrunc 2>/dev/null
	kill -CONT "$_pid"
	set +e
	wait "$_pid"
	rc=$?
	set -e
}

# the last entry's individual name (columns 55-76, cosmetic)
change_under_loader "$TMP/f.ach" 55 'CHANGED UNDER LOADER  '
assert_eq "$rc" 3 "a file changed during the load: exit status"
assert_eq "$(q "select count(*) from clearing_record")" 0 "nothing applied"
assert_eq "$(q "select outcome || ' ' || (reason like 'the file changed while it was loaded%')::text
	from clearing_load")" "rejected true" "the attempt is recorded"
grep -q "^clearing-load: $TMP/f.ach: error: the file changed while it was loaded (SHA-256 or record count differs" "$TMP/err" ||
	fail "no clear message: $(cat "$TMP/err")"
if grep -q 'SQLSTATE none' "$TMP/err"; then fail "SQLSTATE none: $(cat "$TMP/err")"; fi
# where the numbers came from, and what to do
grep -q "^clearing-load: $TMP/f.ach: detail: first pass 20000 records, SHA-256 [0-9a-f]\{64\}; second pass 20000 records, SHA-256 [0-9a-f]\{64\}\$" "$TMP/err" ||
	fail "no detail: $(cat "$TMP/err")"
grep -q "^clearing-load: $TMP/f.ach: hint: load a file only once whoever writes it has finished" "$TMP/err" ||
	fail "no hint: $(cat "$TMP/err")"
assert_eq "$(grep -o 'nothing applied\|nothing from this file was applied' "$TMP/err" | wc -l)" 1 \
	"'nothing applied' said once"

# the same, but the change breaks the file (the amount, columns 30-39: the
# batch control no longer adds up): the message says the file changed and
# what it now reads
change_under_loader "$TMP/g.ach" 30 '9999999999'
assert_eq "$rc" 3 "a file broken during the load: exit status"
grep -q "g.ach:[0-9]*: error: the file changed while it was loaded (line [0-9]* now reads: " "$TMP/err" ||
	fail "changed and broken: $(cat "$TMP/err")"
grep -q "g.ach:[0-9]*: hint: load a file only once whoever writes it has finished" "$TMP/err" ||
	fail "changed and broken, no hint: $(cat "$TMP/err")"
assert_eq "$(q "select count(*) from clearing_record")" 0 "nothing applied (2)"
assert_eq "$(q "select count(*) from clearing_load where outcome = 'rejected'")" 2 "both attempts recorded"
echo ok
