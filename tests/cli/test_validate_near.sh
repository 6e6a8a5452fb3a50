# validate and parse find what load and diff reject without a database: an
# ACH payment twice in one file under two keys (a re-dated copy, a batch
# sent twice under --ach-key=batch, a re-dated return), with the loader's
# message and exit 3.  Files whose trace runs do
# not overlap pay nothing for the check.
. "$(dirname "$0")/lib.sh"
D="$TESTDATA/near"

run validate "$D/redated-in-file.ach"
expect_status 3
expect_stderr_has 'redated-in-file.ach:8: error: the entries on lines 3 and 8 are one payment under two effective dates (2026-03-02 and 2026-03-03: same originator, trace number, receiving account, RDFI and amount): the file cannot be loaded, because it would be applied twice'
expect_stderr_has 'redated-in-file.ach:10: error: the entries on lines 5 and 10 are one payment'
run parse "$D/redated-in-file.ach"
expect_status 3
expect_stderr_has 'the entries on lines 4 and 9 are one payment under two effective dates'

run validate --ach-key=batch "$D/batch-twice.ach"
expect_status 3
expect_stderr_has 'batch-twice.ach:7: error: the entries on lines 3 and 7 are one payment twice (both effective 2026-03-02: same originator'

run validate "$D/return-twice-in-file.ach"
expect_status 3
expect_stderr_has 'return-twice-in-file.ach:7: error: the returns or NOCs on lines 3 and 7 are one return under two effective dates (2026-03-02 and 2026-03-03'

# not copies: overlapping traces with other accounts, a copy 6 banking days on
for f in overlap-other-accounts redated-6-banking-days return; do
	run validate "$D/$f.ach"
	expect_status 0
done

# the CSV export of the re-dated file: the same finding
run parse --format csv --no-mask "$D/redated-in-file.ach"
expect_status 3
cp "$TMP/stdout" "$TMP/redated.csv"
grep -q '^"' "$TMP/redated.csv" || fail "no CSV written"
run validate "$TMP/redated.csv"
expect_status 3
expect_stderr_has 'are one payment under two effective dates (2026-03-02 and 2026-03-03'

# standard input cannot be read twice: a note under -v, the check is left to load
run validate -v - <"$D/redated-in-file.ach"
expect_status 0
expect_stderr_has 'left to load and diff'
# a return with and without its date in one file
run validate "$D/return-dated-and-not.ach"
expect_status 3
expect_stderr_has 'are one return twice (effective 2026-03-02 and (none): same original trace, original RDFI and amount)'
# three copies, the near pair not adjacent
run validate "$D/three-copies.ach"
expect_status 3
expect_stderr_has 'three-copies.ach:9: error: the entries on lines 3 and 9 are one payment under two effective dates (2026-03-02 and 2026-03-03'
# every pair of copies is compared, not only the first and the previous:
# an entry and re-dated copies at +20, +40 and +22 days hold one near
# pair, the copies at +20 and +22
. "$CL_ROOT/tests/tools/ach_batches.sh"
for d in 260302 260322 260411 260324; do entries 0 1 "$d"; done | assemble >"$TMP/plus-20-40-22.ach"
run validate "$TMP/plus-20-40-22.ach"
expect_status 3
expect_stderr_has 'plus-20-40-22.ach:12: error: the entries on lines 6 and 12 are one payment under two effective dates (2026-03-22 and 2026-03-24: same originator'
# validate's memory budget: past 32,768 ACH records the check stops, with a
# note under -v (load and diff check every record)
{ entries 0 17000 260302; entries 0 17000 260401; } | assemble >"$TMP/big.ach"
run validate "$TMP/big.ach"
expect_status 0
run validate -v "$TMP/big.ach"
expect_status 0
expect_stderr_has 'payments repeated under two dates were looked for in the first 32768 ACH records of this file only (validate keeps at most 32768 in memory); load and diff check every record'
