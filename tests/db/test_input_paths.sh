# Input errors on the load path: a directory and a missing file are usage
# errors that record nothing; standard input that is not a clearing file is
# rejected with the file named (the spool error path once printed freed
# memory as the file name).  A file unreadable by its permissions is
# refused with the system's reason and no load row.
. "$(dirname "$0")/lib.sh"
db_new
cl init >/dev/null

expect_exit 2 cl load "$TMP"
grep -qF "clearing-load load: $TMP is a directory" "$TMP/err" ||
	fail "directory not named: $(cat "$TMP/err")"

expect_exit 2 cl load "$TMP/missing.ach"
grep -qF "clearing-load load: $TMP/missing.ach: no such file" "$TMP/err" ||
	fail "missing file not named: $(cat "$TMP/err")"
assert_eq "$(q "select count(*) from clearing_load")" 0 "no load row for a missing file or a directory"

if [ "$(id -u)" != 0 ]; then # root reads any file
	cp "$TESTDATA/demo/original.ach" "$TMP/locked.ach"
	chmod 000 "$TMP/locked.ach"
	expect_exit 3 cl load "$TMP/locked.ach"
	grep -qF "Permission denied" "$TMP/err" || fail "unreadable file: $(cat "$TMP/err")"
	assert_eq "$(q "select count(*) from clearing_load")" 0 "no load row for an unreadable file"
fi

printf 'junk\n' | { expect_exit 3 cl load -; }
grep -qF "(stdin)" "$TMP/err" || fail "stdin not named: $(cat "$TMP/err")"

# a valid file on standard input is spooled and loaded once
cl load - <"$TESTDATA/demo/original.ach" >/dev/null
assert_eq "$(q 'select count(*) from clearing_record')" 15 "records from stdin"
assert_eq "$(q "select count(*) from clearing_load where outcome = 'committed'")" 1 "committed loads"
echo ok
