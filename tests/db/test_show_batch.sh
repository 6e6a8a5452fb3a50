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

expect_exit 0 cl show --tenant b --trace $T
assert_eq "$(grep -v '^  ' "$TMP/out" | tr '\n' ' ')" \
	"record: load: event: event: event: quarantine: reconciled: record: load: event: event: quarantine: " \
	"show --trace: the sections of both records, each record's facts after it"
grep -A7 '^reconciled:' "$TMP/out" | grep -q 'entry_file .*/s.xml$' || fail "the statement entry: $(cat "$TMP/out")"

# the same as show of each record by its key, in every format (but for
# matched_by, which says what the search matched)
for f in text json csv; do
	cl show --tenant b --format $f --trace $T >"$TMP/both.$f"
	cl show --tenant b --format $f "$mar" >"$TMP/one.$f"
	cl show --tenant b --format $f "$apr" >>"$TMP/one.$f"
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
expect_exit 0 cl show --tenant b --limit 1 --trace $T
assert_eq "$(grep -v '^  ' "$TMP/out" | tr '\n' ' ')" \
	"record: load: event: event: event: quarantine: reconciled: " "show --limit 1"
grep -q '2 records match; shown the first 1' "$TMP/err" || fail "show --limit 1: $(cat "$TMP/err")"
echo "ok"
