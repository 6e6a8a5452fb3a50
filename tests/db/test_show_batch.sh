#!/bin/sh
# show of several records at once: each record followed by its own load,
# journal events, parked versions and statement matches, exactly as show
# of each record by its key prints it (show fetches each kind of fact for
# all the records it found in one statement).  One trace, two records
# (March and April): March with two duplicate events, a near duplicate
# parked in quarantine and a statement entry matched to it; April with a
# duplicate and a conflict parked under its own key (which its journal row
# names too: one version, shown once).
. "$(dirname "$0")/lib.sh"
: "${CL_TOOLS:?}"
db_new
cl init >/dev/null
T=121042880000701
"$CL_TOOLS/gen_ach" -n 3 --start 700 -e 260302 >"$TMP/mar.ach"
"$CL_TOOLS/gen_ach" -n 3 --start 700 -e 260303 >"$TMP/mar-next-day.ach"
"$CL_TOOLS/gen_ach" -n 3 --start 700 -e 260401 >"$TMP/apr.ach"
"$CL_TOOLS/gen_ach" -n 3 --start 700 -e 260401 --bump-amount-every 1 >"$TMP/apr-other.ach"
for f in mar apr mar mar apr; do
	expect_exit 0 cl load --tenant b "$TMP/$f.ach"
done
expect_exit 8 cl load --tenant b --on-conflict=quarantine "$TMP/mar-next-day.ach"
expect_exit 8 cl load --tenant b --on-conflict=quarantine "$TMP/apr-other.ach"
# a statement booking the March entry (by its trace), reconciled
q "copy (select amount_minor, 'USD', case direction when 'credit' then 'DBIT' else 'CRDT' end,
             value_date, 'trace=' || trace_number
      from clearing_record where tenant = 'b' and trace_number = '$T' and value_date = '2026-03-02')
   to stdout with (delimiter ' ')" |
	python3 "$CL_ROOT/tests/db/stmt_gen.py" account=US00SHOW ccy=USD date=2026-03-02 seq=1 >"$TMP/s.xml"
expect_exit 0 cl reconcile --tenant b "$TMP/s.xml"
mar=$(q "select natural_key from clearing_record where tenant = 'b' and trace_number = '$T' and value_date = '2026-03-02'")
apr=$(q "select natural_key from clearing_record where tenant = 'b' and trace_number = '$T' and value_date = '2026-04-01'")

expect_exit 0 cl show --verbose --tenant b --trace $T
assert_eq "$(grep -v '^  ' "$TMP/out" | tr '\n' ' ')" \
	"record: load: event: event: event: quarantine: reconciled: record: load: event: event: quarantine: " \
	"show --trace: the sections of both records, each record's facts after it"
grep -A7 '^reconciled:' "$TMP/out" | grep -q 'entry_file .*/s.xml$' || fail "the statement entry: $(cat "$TMP/out")"

# the same as show of each record by its key, in every format (text: both
# the summary and --verbose) (but for
# matched_by, which says what the search matched)
for f in text json csv; do
	cl show --verbose --tenant b --format $f --trace $T >"$TMP/both.$f"
	cl show --verbose --tenant b --format $f "$mar" >"$TMP/one.$f"
	cl show --verbose --tenant b --format $f "$apr" >>"$TMP/one.$f"
	for w in both one; do
		sed 's/^  matched_by .*//; s/"matched_by":"[a-z_]*"//; s/^"record","[a-z_]*",/"record",,/' \
			"$TMP/$w.$f" >"$TMP/$w.$f.cut"
	done
	cmp -s "$TMP/both.$f.cut" "$TMP/one.$f.cut" ||
		fail "show --trace --format $f is not show KEY of each: $(diff "$TMP/one.$f.cut" "$TMP/both.$f.cut")"
done
# each event names its own record; the conflict parked under April's key
# once, though it is found by its key and by its journal row
grep '"type":"event"' "$TMP/both.json" >"$TMP/events"
mar_load=$(q "select load_id from clearing_record where tenant = 'b' and natural_key = '$mar'")
apr_load=$(q "select load_id from clearing_record where tenant = 'b' and natural_key = '$apr'")
assert_eq "$(grep -c "\"matched_load_id\":$mar_load," "$TMP/events")" 3 "March's events"
assert_eq "$(grep -c "\"matched_load_id\":$apr_load," "$TMP/events")" 2 "April's events"
assert_eq "$(grep '"type":"quarantine"' "$TMP/both.json" | grep -c "\"natural_key\":\"$apr\"")" 1 \
	"April's conflict, parked once"
# --limit 1: the first record only, with all of its facts
expect_exit 0 cl show --verbose --tenant b --limit 1 --trace $T
assert_eq "$(grep -v '^  ' "$TMP/out" | tr '\n' ' ')" \
	"record: load: event: event: event: quarantine: reconciled: " "show --limit 1"
grep -q '2 records match; shown the first 1' "$TMP/err" || fail "show --limit 1: $(cat "$TMP/err")"

# ---- for a person (text, no --verbose): a summary of each record ----
mar_amt=$(q "select 'USD ' || to_char(amount_minor / 100.0, 'FM999,999,990.00') from clearing_record
             where tenant = 'b' and natural_key = '$mar'")
total=$(q "select 'USD ' || to_char(sum(amount_minor) / 100.0, 'FM999,999,990.00')
           from clearing_record where tenant = 'b' and trace_number = '$T'")
expect_exit 0 cl show --tenant b "$mar"
lines=$(wc -l <"$TMP/out")
[ "$lines" -le 20 ] || fail "show: $lines lines for one payment: $(cat "$TMP/out")"
head -1 "$TMP/out" | grep -q "^ach.entry $mar  tenant b$" || fail "show: what: $(head -1 "$TMP/out")"
grep -q "^  amount     $mar_amt credit, value date 2026-03-02$" "$TMP/out" ||
	fail "show: the amount as money: $(cat "$TMP/out")"
grep -q "^  parties    receiving_account \*\*\*\*\*\*\*\*[0-9]\{4\}, receiving_dfi [0-9]*, company_id" \
	"$TMP/out" || fail "show: the parties, masked: $(cat "$TMP/out")"
grep -q "^  status     applied by load $mar_load (committed " "$TMP/out" || fail "show: status: $(cat "$TMP/out")"
grep -q "^  events     3 (2 duplicate, 1 near_duplicate):$" "$TMP/out" || fail "show: events: $(cat "$TMP/out")"
grep -q "^  parked     load [0-9]* (quarantined) mar-next-day.ach line 3: $mar_amt" "$TMP/out" ||
	fail "show: parked: $(cat "$TMP/out")"
grep -q "^  reconciled .* s.xml line [0-9]*, booked 2026-03-02" "$TMP/out" ||
	fail "show: reconciled: $(cat "$TMP/out")"
if grep -q "^  amount_minor\|fingerprint\|load_uuid" "$TMP/out"; then
	fail "show: a summary has no minor units, fingerprints or UUIDs: $(cat "$TMP/out")"
fi
# both records, and their total per currency
expect_exit 0 cl show --tenant b --trace $T
assert_eq "$(tail -1 "$TMP/out")" "2 records: $total (2)" "show: the total"
# a fourth event: the last three printed, all four counted
expect_exit 0 cl load --tenant b "$TMP/mar.ach"
expect_exit 0 cl show --tenant b "$mar"
grep -q "^  events     4 (3 duplicate, 1 near_duplicate); the last ones:$" "$TMP/out" ||
	fail "show: the last events: $(cat "$TMP/out")"
assert_eq "$(grep -c '^    .*  \(duplicate\|near_duplicate\) ' "$TMP/out")" 3 "show: the last three events"
[ "$(wc -l <"$TMP/out")" -le 20 ] || fail "show: more than 20 lines: $(cat "$TMP/out")"
echo "ok"
