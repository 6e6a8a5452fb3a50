#!/bin/sh
# An ACH entry and a re-dated copy of it in ONE file (acceptance review
# finding 36): the file carries one payment twice under two keys.  load and
# diff reject it (exit 3) naming both lines of each pair, nothing applied,
# the attempt recorded; overlapping trace ranges that are not copies, and a
# copy dated 6 banking days later, load normally.
. "$(dirname "$0")/lib.sh"
D="$CL_ROOT/testdata/near"
db_new
cl init >/dev/null

expect_exit 3 cl diff "$D/redated-in-file.ach"
for pair in "3 and 8" "4 and 9" "5 and 10"; do
	grep -q "the entries on lines $pair are one payment under two effective dates (2026-03-02 and 2026-03-03" "$TMP/err" ||
		fail "diff names lines $pair: $(cat "$TMP/err")"
done
expect_exit 3 cl load --format json "$D/redated-in-file.ach"
grep -q '"outcome":"rejected"' "$TMP/out" || fail "rejected: $(cat "$TMP/out")"
grep -q 'redated-in-file.ach:8: error: the entries on lines 3 and 8' "$TMP/err" ||
	fail "error names file and line: $(cat "$TMP/err")"
assert_eq "$(q "select count(*) from clearing_record")" 0 "nothing applied"
assert_eq "$(q "select outcome || ' ' || (reason like 'line 8: the entries on lines 3 and 8 %')::text
	from clearing_load")" "rejected true" "the attempt is recorded with its reason"

# the same file with other accounts in the second batch: no copy
cl_load "$D/overlap-other-accounts.ach" >"$TMP/o1" || fail "overlap load: $(cat "$TMP/o1")"
grep -q '"new":6,' "$TMP/o1" || fail "overlap: $(cat "$TMP/o1")"
# and the copy 6 banking days later is a new payment (into a fresh tenant)
"$CL_BIN" load --tenant later --format json "$D/redated-6-banking-days.ach" >"$TMP/o2" ||
	fail "6 banking days: $(cat "$TMP/o2")"
grep -q '"new":6,' "$TMP/o2" || fail "6 banking days: $(cat "$TMP/o2")"
assert_eq "$(q "select count(*) from clearing_record")" 12 "both clean files applied"

# one batch twice, same date, under --ach-key=batch: two keys, one payment
expect_exit 3 cl load --tenant twin --ach-key=batch "$D/batch-twice.ach"
grep -q 'batch-twice.ach:7: error: the entries on lines 3 and 7 are one payment twice (both effective 2026-03-02: same originator' "$TMP/err" ||
	fail "batch twice: $(cat "$TMP/err")"
# the same return under two dates in one file
expect_exit 3 cl load --tenant ret "$D/return-twice-in-file.ach"
grep -q 'the returns or NOCs on lines 3 and 7 are one return under two effective dates (2026-03-02 and 2026-03-03: same original trace, original RDFI and amount)' "$TMP/err" ||
	fail "return twice in file: $(cat "$TMP/err")"
# across files: a re-dated return, and a re-dated entry whose account is
# justified the other way, are near duplicates: held
"$CL_BIN" load --tenant ret "$D/return.ach" >/dev/null || fail "return"
expect_exit 4 cl load --tenant ret --format json "$D/return-redated.ach"
grep -q '"outcome":"held"' "$TMP/out" || fail "re-dated return: $(cat "$TMP/out")"
"$CL_BIN" load --tenant acct "$D/account-left.ach" >/dev/null || fail "account-left"
expect_exit 4 cl load --tenant acct --format json "$D/account-right-redated.ach"
grep -q '"outcome":"held"' "$TMP/out" || fail "re-dated, account justified: $(cat "$TMP/out")"
assert_eq "$(q "select count(*) from clearing_record where tenant in ('twin', 'ret', 'acct')")" 2 \
	"one return and one entry applied, nothing twice"
# the hold names near duplicates as such, not as "same key, different content"
assert_eq "$(q "select reason from clearing_load where tenant = 'ret' and outcome = 'held'")" \
	"1 near duplicate (the same payment under another key): file held, nothing applied" "held reason"

# a return without a date matches its dated copy, an entry returned under two
# codes is returned once, a zero-filled account is the same account; in one
# file: rejected
for pair in "return-dated return-no-date" "return-no-date return-dated" "return-r01 return-r03" \
	"account-blank-filled account-zero-filled-redated"; do
	set -- $pair
	t=$(echo "$1" | tr -cd 'a-z0-9')
	"$CL_BIN" load --tenant "$t" "$D/$1.ach" >/dev/null || fail "$1"
	expect_exit 4 cl load --tenant "$t" --format json "$D/$2.ach"
	grep -q '"outcome":"held"' "$TMP/out" || fail "$1 then $2: $(cat "$TMP/out")"
	assert_eq "$(q "select count(*) from clearing_record where tenant = '$t'")" 1 "$1 then $2: once"
done
expect_exit 3 cl load --tenant both "$D/return-dated-and-not.ach"
grep -q 'the returns or NOCs on lines 3 and 7 are one return twice (effective 2026-03-02 and (none)' "$TMP/err" ||
	fail "dated and not, one file: $(cat "$TMP/err")"

# two loaders at once with a return file and its re-dated copy: one applies
# (returns take a per-tenant lock)
for round in 1 2 3; do
	load_at_once "rr$round" "$D/returns-3000.ach" "$D/returns-3000-redated.ach"
	assert_eq "$(q "select count(*) from clearing_record where tenant = 'rr$round'")" 3000 \
		"round $round: each return once ($(cat "$TMP/r1" "$TMP/r2"))"
done
