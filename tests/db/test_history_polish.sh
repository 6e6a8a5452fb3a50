#!/bin/sh
# show and loads as the acceptance review asked (findings 6, 17, 22, 33, 40,
# 45, 46, 48, 51) and init's answers (20, 45, 17): what the operator reads
# must be true and complete.
. "$(dirname "$0")/lib.sh"
: "${CL_TOOLS:?}"
db_new
expect_exit 0 cl init
# the last migration's number (not their count: a branch may lack one)
latest=$(ls "$CL_ROOT"/sql/[0-9]*.sql | tail -n 1 | sed 's|.*/0*||; s|_.*||')

# 17: a date that does not exist is a usage error, before connecting (the
# database given cannot be reached: exit 2, not 5)
for d in 2026-13-45 2026-02-30 2025-02-29 2026-11-30T25:00 2026-11-30T10:00+99 yesterday; do
	expect_exit 2 cl loads --db "host=127.0.0.1 port=1 connect_timeout=2" --since "$d"
	grep -q "invalid --since \"$d\" (expected a date YYYY-MM-DD" "$TMP/err" || fail "since $d: $(cat "$TMP/err")"
done
for d in 2024-02-29 2026-11-30 2026-11-30T10:00 2026-11-30T10:00:05.5Z "2026-11-30 10:00:05+01:00" 2026-11-30T10:00-05; do
	expect_exit 0 cl loads --since "$d"
done

# two tenants, the same file
"$CL_TOOLS/gen_ach" -n 5 >"$TMP/a.ach"
sha=$(sha256sum "$TMP/a.ach" | cut -c1-12)
expect_exit 0 cl load --tenant bank-a "$TMP/a.ach"
expect_exit 0 cl load --tenant bank-b "$TMP/a.ach"

# 6, 46: the text line names the tenant and the file's SHA-256; --tenant filters
expect_exit 0 cl loads
grep -q " committed   5 records: 5 new, 0 duplicate, 0 conflict, 0 errors  bank-a  " "$TMP/out" ||
	fail "loads text counts: $(cat "$TMP/out")"
assert_eq "$(grep -c "  bank-a  sha256:$sha  $TMP/a.ach  " "$TMP/out")" 1 "loads text: tenant and sha256 of bank-a"
assert_eq "$(grep -c "  bank-b  sha256:$sha  $TMP/a.ach  " "$TMP/out")" 1 "loads text: tenant and sha256 of bank-b"
expect_exit 0 cl loads --tenant bank-b --format json
assert_eq "$(grep -c '"type":"load"' "$TMP/out")" 1 "loads --tenant lists one tenant's loads"
grep -q '"tenant":"bank-b"' "$TMP/out" || fail "loads --tenant: $(cat "$TMP/out")"
expect_exit 0 cl loads --tenant nobody
[ ! -s "$TMP/out" ] || fail "loads --tenant nobody: $(cat "$TMP/out")"
expect_exit 2 cl loads --tenant 'Bank-A'

# 51: one ISO 8601 form for every time in JSON and CSV
iso='[0-9]\{4\}-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9][+-][0-9][0-9]:[0-9][0-9]'
expect_exit 0 cl loads --format json -n 1
grep -q "\"started_at\":\"$iso\",\"finished_at\":\"$iso\"" "$TMP/out" || fail "loads json times: $(cat "$TMP/out")"
expect_exit 0 cl show --tenant bank-a --format csv --trace 121042880000001
grep -q "^\"load\",.*,\"$iso\",\"$iso\",\$" "$TMP/out" || fail "show csv times: $(cat "$TMP/out")"
# the exact repeat: its duplicate events carry created_at in the same form
expect_exit 0 cl load --tenant bank-a "$TMP/a.ach"
expect_exit 0 cl show --tenant bank-a --format json --trace 121042880000001
grep '"type":"event"' "$TMP/out" | grep -q "\"created_at\":\"$iso\"" || fail "show event time: $(cat "$TMP/out")"

# 35: diff text keeps its columns whatever the width of the line number
"$CL_TOOLS/gen_ach" -n 12 --start 500 >"$TMP/cols.ach"
expect_exit 1 cl diff "$TMP/cols.ach"
assert_eq "$(grep -c '^new ' "$TMP/out")" 12 "diff lines"
assert_eq "$(grep '^new ' "$TMP/out" | awk '{ print index($0, "ach.entry") }' | sort -u | wc -l)" 1 \
	"the kind column starts at one offset on lines 3 to 14"
# ... and ends with the money it would apply, per currency (a person's
# total: load's own records, summed by the database once loaded)
expect_exit 0 cl load --tenant cols "$TMP/cols.ach"
new_total=$(q "select 'USD ' || to_char(sum(amount_minor) / 100.0, 'FM999,999,990.00')
               from clearing_record where tenant = 'cols'")
expect_exit 1 cl diff --tenant cols2 "$TMP/cols.ach"
assert_eq "$(tail -n 1 "$TMP/out")" "$TMP/cols.ach: new: $new_total (12)" "diff's money per currency"
# load's own line: "new:" when the whole file was applied, "in the file:"
# when it was not (here: all duplicate), nothing with -q
expect_exit 0 cl load --tenant cols3 "$TMP/cols.ach"
assert_eq "$(tail -n 1 "$TMP/out")" "$TMP/cols.ach: new: $new_total (12)" "load's money, a first delivery"
expect_exit 0 cl load --tenant cols3 "$TMP/cols.ach"
assert_eq "$(tail -n 1 "$TMP/out")" "$TMP/cols.ach: in the file: $new_total (12)" "load's money, a re-delivery"
expect_exit 0 cl load -q --tenant cols3 "$TMP/cols.ach"
assert_eq "$(cat "$TMP/out")" "" "load -q: no money line"

# 37: a sender's file name cannot forge a line in show or loads text
evil="$TMP/$(printf 'evil\n\033[31mname.ach')"
cp "$TMP/cols.ach" "$evil"
expect_exit 0 cl load --tenant evil "$evil"
expect_exit 0 cl show --verbose --tenant evil --trace 121042880000501
grep -q '^  file_name .*/evil\\x0A\\x1B\[31mname.ach$' "$TMP/out" || fail "show text file name: $(cat "$TMP/out")"
expect_exit 0 cl show --tenant evil --trace 121042880000501
grep -q '^  file .*/evil\\x0A\\x1B\[31mname.ach line [0-9]*$' "$TMP/out" ||
	fail "show summary file name: $(cat "$TMP/out")"
expect_exit 0 cl loads --tenant evil
assert_eq "$(wc -l <"$TMP/out")" 1 "one load, one line"
grep -q 'evil\\x0A\\x1B\[31mname.ach' "$TMP/out" || fail "loads text file name: $(cat "$TMP/out")"

# diff CSV names the key a near duplicate copies; show text has no
# line for an empty column (JSON writes it as null)
"$CL_TOOLS/gen_ach" -n 2 --start 700 -e 260302 >"$TMP/mon.ach"
"$CL_TOOLS/gen_ach" -n 2 --start 700 -e 260303 >"$TMP/tue.ach"
expect_exit 0 cl load --tenant nd "$TMP/mon.ach"
expect_exit 4 cl diff --tenant nd --format csv "$TMP/tue.ach"
head -n 1 "$TMP/out" | grep -q '"matched_time","matched_key","changes","message"$' || fail "diff csv header: $(head -n 1 "$TMP/out")"
grep -q ',"1100000000|121042880000701|2026-03-02","value_date: 2026-03-02 -> 2026-03-03",' "$TMP/out" ||
	fail "diff csv matched_key: $(cat "$TMP/out")"
expect_exit 4 cl load --tenant nd "$TMP/tue.ach"
expect_exit 0 cl show --verbose --tenant nd --trace 121042880000701
if grep -q '^  [a-z_]* *$' "$TMP/out"; then fail "show text prints an empty column: $(grep '^  [a-z_]* *$' "$TMP/out")"; fi

# show prints a pacs record's alternate key (why a copy under another
# key is held as its near duplicate)
"$CL_TOOLS/gen_iso" --type pacs.008 --tx 1 >"$TMP/p8.xml"
expect_exit 0 cl load --tenant alt "$TMP/p8.xml"
e2e=$(grep -o '<EndToEndId>[^<]*' "$TMP/p8.xml" | head -n 1 | cut -c13-)
expect_exit 0 cl show --tenant alt --format json --e2e "$e2e"
grep '"type":"record"' "$TMP/out" | grep -q '"alt_key":"[a-z0-9]*|' || fail "show alt_key: $(cat "$TMP/out")"

# a near duplicate parked in quarantine (under its own key) is shown
# with the record it copies, and under its own key
expect_exit 0 cl load --tenant ndq "$TMP/mon.ach"
expect_exit 8 cl load --tenant ndq --on-conflict=quarantine "$TMP/tue.ach"
expect_exit 0 cl show --tenant ndq --format json --trace 121042880000701
grep '"type":"quarantine"' "$TMP/out" | grep -q '"natural_key":"1100000000|121042880000701|2026-03-03"' ||
	fail "show: the parked near duplicate is missing: $(cat "$TMP/out")"
expect_exit 7 cl show --tenant ndq --format json '1100000000|121042880000701|2026-03-03'
grep -q '"type":"quarantine"' "$TMP/out" || fail "show KEY of a parked key: $(cat "$TMP/out")"

# 48: not found is 7, never 1
expect_exit 7 cl show --tenant bank-a --trace 999999999999999
grep -q 'no record of tenant "bank-a" matches "999999999999999"' "$TMP/err" || fail "show not found: $(cat "$TMP/err")"
# 22: a key copied from masked output finds nothing, and show says why
expect_exit 7 cl show '******************3142|E2E-1-1'
grep -q 'hint: this key looks masked' "$TMP/err" || fail "masked key hint: $(cat "$TMP/err")"

# 40: more records than --limit: said on stderr, with the count
"$CL_TOOLS/gen_ach" -n 3 -e 260302 >"$TMP/d1.ach"
"$CL_TOOLS/gen_ach" -n 3 -e 260320 >"$TMP/d2.ach"
"$CL_TOOLS/gen_ach" -n 3 -e 260410 >"$TMP/d3.ach"
for f in d1 d2 d3; do expect_exit 0 cl load --tenant lim "$TMP/$f.ach"; done
expect_exit 0 cl show --tenant lim --format json --limit 2 --trace 121042880000001
assert_eq "$(grep -c '"type":"record"' "$TMP/out")" 2 "show --limit 2"
grep -q '3 records match; shown the first 2: use --limit to see more' "$TMP/err" || fail "show cut silently: $(cat "$TMP/err")"
expect_exit 0 cl show --tenant lim --format json --trace 121042880000001
assert_eq "$(grep -c '"type":"record"' "$TMP/out")" 3 "show, default limit"
[ ! -s "$TMP/err" ] || fail "show said more when there is none: $(cat "$TMP/err")"
expect_exit 2 cl show --limit 0 --trace 1

# 33: --uetr finds the returns of the payment too, marked as such
C="$TESTDATA/iso20022/corpus/chains/cbprplus_p.2.1.2"
for f in "$C"/p.2.1.2_pacs.008_*.xml "$C"/p.2.1.2_pacs.004_*.xml; do
	expect_exit 0 cl load --tenant chain "$f"
done
expect_exit 0 cl show --tenant chain --format json --uetr 174C245F-2682-4291-AD67-2A41E530CD27
assert_eq "$(grep '"type":"record"' "$TMP/out" | grep '"kind":"pacs.008"' | grep -c '"matched_by":"uetr","tenant":"chain",')" 3 \
	"the three hops of the payment"
assert_eq "$(grep '"type":"record"' "$TMP/out" | grep '"kind":"pacs.004"' | grep -c '"matched_by":"orgnl_uetr","tenant":"chain",')" 2 \
	"the two returns of the payment"

# 45: an older binary against a newer schema never says "up to date"
q "insert into clearing_schema_version (version, name) values ($latest + 1, 'from_a_newer_release')"
expect_exit 78 cl init
grep -q "the database schema is at version $((latest + 1)), newer than this clearing-load's ($latest): nothing was changed" \
	"$TMP/err" || fail "init on a newer schema: $(cat "$TMP/err")"
[ ! -s "$TMP/out" ] || fail "init on a newer schema printed: $(cat "$TMP/out")"
q "delete from clearing_schema_version where version = $latest + 1"

# 17: another partitioning than the table's is the operator's mistake (2)
expect_exit 2 cl init --partitions 4
# 20: "in 4 partitions"
main_db=$PGDATABASE
db_also_drop "$main_db"
export PGDATABASE="${main_db}_p"
createdb "$PGDATABASE"
expect_exit 0 cl init --partitions 4
grep -q "clearing_record hash-partitioned in 4 partitions\$" "$TMP/out" || fail "init wording: $(cat "$TMP/out")"
echo ok
