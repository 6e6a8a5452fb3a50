# Input errors on the load path: a directory, a missing file and standard
# input that is not a clearing file are each rejected with the file named
# (the spool error path once printed freed memory as the file name).
. "$(dirname "$0")/lib.sh"
db_new
cl init >/dev/null

expect_exit 3 cl load "$TMP"
grep -qF "clearing-load: $TMP: error: could not read \"$TMP\": Is a directory" "$TMP/err" ||
	fail "directory not named: $(cat "$TMP/err")"

expect_exit 3 cl load "$TMP/missing.ach"
grep -qF "could not open \"$TMP/missing.ach\": No such file or directory" "$TMP/err" ||
	fail "missing file not named: $(cat "$TMP/err")"

printf 'junk\n' | { expect_exit 3 cl load -; }
grep -qF "(stdin)" "$TMP/err" || fail "stdin not named: $(cat "$TMP/err")"

# a valid file on standard input is spooled and loaded once
cl load - <"$TESTDATA/demo/original.ach" >/dev/null
assert_eq "$(q 'select count(*) from clearing_record')" 15 "records from stdin"
assert_eq "$(q "select count(*) from clearing_load where outcome = 'committed'")" 1 "committed loads"
echo ok
