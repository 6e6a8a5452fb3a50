#!/bin/sh
# One ACH return twice in a file, in batches of two companies: the file is
# invalid (exit 3, recorded as rejected, nothing applied), for load and
# diff alike; it was retried 8 times as a race with another loader and
# ended with exit 5 and no record of the attempt.
. "$(dirname "$0")/lib.sh"
F="$TESTDATA/keys/return-twice-two-companies.ach"
db_new
cl init ${CL_INIT_ARGS:-} >/dev/null
assert_init_args

expect_exit 3 cl diff "$F"
grep -q 'the same return identity (natural key "091400600000001|R01|091000017611242|2000-01-01") appears again in this file, on lines 3 and 7' \
	"$TMP/err" || fail "diff: $(cat "$TMP/err")"
expect_exit 3 cl load -v --format json "$F"
grep -q '"outcome":"rejected"' "$TMP/out" || fail "load: $(cat "$TMP/out")"
grep -q '"retries":0' "$TMP/out" || fail "load retried: $(cat "$TMP/out")"
if grep -q 'another load meanwhile' "$TMP/err"; then fail "taken for a race: $(cat "$TMP/err")"; fi
assert_eq "$(q "select count(*) from clearing_record")" 0 "nothing applied"
assert_eq "$(q "select outcome from clearing_load")" rejected "the attempt is recorded"
echo ok
