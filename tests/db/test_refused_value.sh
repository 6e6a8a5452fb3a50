#!/bin/sh
# A value the parser lets through but PostgreSQL refuses (a data exception,
# SQLSTATE class 22: here a CSV effective date 2026-02-31) makes the file
# invalid, not the database: exit 3, recorded as rejected with the server's
# reason, nothing applied (not exit 5 with no audit row).
# Should the CSV parser learn to refuse the date itself, this stays true.
. "$(dirname "$0")/lib.sh"
F="$CL_ROOT/testdata/csv/date-does-not-exist.csv"
db_new
cl init >/dev/null
grep -q '"2026-02-31"' "$F" || fail "fixture has no 2026-02-31"
expect_exit 3 cl load --format json "$F"
grep -q '"outcome":"rejected"' "$TMP/out" || fail "rejected: $(cat "$TMP/out")"
grep -q '2026-02-31' "$TMP/err" || fail "the error names the value: $(cat "$TMP/err")"
assert_eq "$(q "select count(*) from clearing_record")" 0 "nothing applied"
assert_eq "$(q "select outcome || ' ' || (reason like '%2026-02-31%')::text from clearing_load")" \
	"rejected true" "the attempt is recorded with its reason"
