# Bank CSV statements reconciled as camt.053
# (docs/design/0041-bank-csv-statements.md): the same bookings written as
# a camt.053 (stmt_gen.py) and as a bank's CSV export with its column map
# (csv_gen.py: a signed amount with a running balance, German shape; a
# debit and a credit column, US shape) give the same reconcile answers
# against the same pain.001: matched by end-to-end id, an amount off by
# 0.01 an exception, a payment not booked unmatched ours, a booking not ours
# unmatched theirs.  The statement key is the account, currency and period;
# a re-delivered export is all duplicate, one with a row changed held; a balance column that does not
# add up is a warning and a balance_break; a row that does not read is
# refused with its line and column, nothing applied.
. "$(dirname "$0")/lib.sh"
: "${CL_TOOLS:?}"
db_new
cl init ${CL_INIT_ARGS:-} >/dev/null
CAMT="python3 $CL_ROOT/tests/db/stmt_gen.py"
GEN="python3 $CL_ROOT/tests/db/csv_gen.py"
A=DE10718999515662907726

"$CL_TOOLS/gen_iso" --type pain.001 --tx 4 --per-pmtinf 4 --seed 7 >"$TMP/p.xml"
for t in camt sg pr brk bad; do
	expect_exit 0 cl load --tenant $t "$TMP/p.xml"
done
amt() { q "select amount_minor from clearing_record where tenant = 'camt' and end_to_end_id = '$1'"; }
a1=$(amt E2E-7-1) a2=$(amt E2E-7-2) a3=$(amt E2E-7-3)
cat >"$TMP/bookings" <<S
$a1 EUR DBIT 2026-03-03 e2e=E2E-7-1 svcr=B1
$((a2 + 1)) EUR DBIT 2026-03-03 e2e=E2E-7-2 svcr=B2
$a3 EUR DBIT 2026-03-03 e2e=E2E-7-3 svcr=B3
5000 EUR CRDT 2026-03-03 e2e=NOT-OURS-1 svcr=B4
S
$CAMT account=$A date=2026-03-03 seq=5 <"$TMP/bookings" >"$TMP/s.xml"
$GEN account=$A style=signed opening=100000000 map="$TMP/sg.map" <"$TMP/bookings" >"$TMP/sg.csv"
$GEN account=$A style=pair map="$TMP/pr.map" <"$TMP/bookings" >"$TMP/pr.csv"

# without the map a bank's CSV is no format clearing-load knows
expect_exit 3 cl validate "$TMP/sg.csv"
expect_exit 0 cl validate --csv-map "$TMP/sg.map" "$TMP/sg.csv"
grep -q 'valid csv:test-signed, 9 records' "$TMP/out" || fail "validate: $(cat "$TMP/out")"
expect_exit 0 cl load --tenant camt "$TMP/s.xml"
expect_exit 0 cl load --tenant sg --csv-map "$TMP/sg.map" "$TMP/sg.csv"
grep -q '5 records: 5 new' "$TMP/out" || fail "load: $(cat "$TMP/out")"
assert_eq "$(q "select statement_key || ' ' || opening_minor || ' ' || closing_minor
               from clearing_statement_item where tenant = 'sg' and item = 'statement'")" \
	"csv|$A|EUR|f:2026-03-03|t:2026-03-03 100000000 $((100000000 - a1 - a2 - 1 - a3 + 5000))" \
	"the CSV statement key and its balances"
# a re-delivered export is all duplicate
expect_exit 0 cl load --tenant sg --csv-map "$TMP/sg.map" "$TMP/sg.csv"
grep -q '5 records: 0 new, 5 duplicate' "$TMP/out" || fail "again: $(cat "$TMP/out")"
# the same period exported again with a row changed (its bank reference) is
# the same statement, held as a conflict: not a second statement booking it
# all again
sed '4s/;B2;/;B9;/' "$TMP/sg.csv" >"$TMP/changed.csv"
cmp -s "$TMP/sg.csv" "$TMP/changed.csv" && fail "the row is not changed"
expect_exit 4 cl load --tenant sg --csv-map "$TMP/sg.map" "$TMP/changed.csv"
assert_eq "$(q "select count(*) from clearing_statement_item where tenant = 'sg' and item = 'statement'")" 1 \
	"one statement"

answers() { python3 "$CL_ROOT/tests/db/recon_answers.py" "$1"; }
expect_exit 10 cl reconcile --tenant camt --format json
answers "$TMP/out" >"$TMP/answers.camt"
expect_exit 10 cl reconcile --tenant sg --format json
answers "$TMP/out" >"$TMP/answers.sg"
python3 "$CL_ROOT/tests/tools/json_output_check.py" "$CL_ROOT/man/clearing-load-output.schema.json" \
	--expect reconcile,reconcile_summary "$TMP/out" || fail "JSON output not valid against the schema"
# reconcile loads the export itself with the map
expect_exit 10 cl reconcile --tenant pr --csv-map "$TMP/pr.map" --format json "$TMP/pr.csv"
answers "$TMP/out" >"$TMP/answers.pr"
grep -q 'summary matched=2 unmatched_ours=1 unmatched_theirs=1 exception=1' "$TMP/answers.camt" ||
	fail "camt answers: $(cat "$TMP/answers.camt")"
diff -u "$TMP/answers.camt" "$TMP/answers.sg" || fail "CSV (signed) and camt.053 answer differently"
diff -u "$TMP/answers.camt" "$TMP/answers.pr" || fail "CSV (debit/credit) and camt.053 answer differently"

# ---- ingest reads an inbox of exports by the map ----
mkdir -p "$TMP/in" "$TMP/ar"
cp "$TMP/pr.csv" "$TMP/in/export.csv"
expect_exit 0 cl ingest --tenant ing --archive "$TMP/ar" --min-age 0 --csv-map "$TMP/pr.map" "$TMP/in"
assert_eq "$(q "select count(*) from clearing_statement_item where tenant = 'ing' and kind = 'csv'")" 5 \
	"ingest loaded the export's statement and entries"

# ---- a balance column off by 0.01: a warning, loaded, reconciled with its break ----
head -3 "$TMP/bookings" | sed 's/03-03/03-04/' |
	$GEN account=$A style=signed off=1 map="$TMP/brk.map" >"$TMP/brk.csv"
expect_exit 0 cl validate --csv-map "$TMP/brk.map" "$TMP/brk.csv"
grep -q 'warning: balance break of 0.01 EUR' "$TMP/err" || fail "validate shows the break: $(cat "$TMP/err")"
expect_exit 10 cl reconcile --tenant brk --csv-map "$TMP/brk.map" --format json "$TMP/brk.csv"
grep -q '"status":"exception","reason":"balance_break"' "$TMP/out" ||
	fail "no balance_break: $(cat "$TMP/out")"

# ---- damage: an amount that does not read; nothing applied ----
sed '4s/;-\([0-9]*\),\([0-9]*\);/;-\1x\2;/' "$TMP/sg.csv" >"$TMP/bad.csv"
expect_exit 3 cl load --tenant bad --csv-map "$TMP/sg.map" "$TMP/bad.csv"
grep -q 'bad.csv:4: error: amount "-[0-9]*x[0-9]*": "x" where the map says decimal ","' "$TMP/err" ||
	fail "the bad amount: $(cat "$TMP/err")"
assert_eq "$(q "select count(*) from clearing_statement_item where tenant = 'bad'")" 0 "nothing applied"
expect_exit 3 cl validate --format json --csv-map "$TMP/sg.map" "$TMP/bad.csv"
grep -q '"line":4,"column":9,.*"code":"csv_amount"' "$TMP/out" || fail "the line and column: $(cat "$TMP/out")"
# a map that names a column the export has not: the header's error
sed 's/^amount = Betrag$/amount = Umsatz/' "$TMP/sg.map" >"$TMP/other.map"
expect_exit 3 cl validate --csv-map "$TMP/other.map" "$TMP/sg.csv"
grep -q 'the header names no column "Umsatz"' "$TMP/err" ||
	fail "the header: $(cat "$TMP/out" "$TMP/err")"
# a map that does not read: a usage error naming its line
printf 'bank = x\ndecimal = ;\n' >"$TMP/broken.map"
expect_exit 2 cl validate --csv-map "$TMP/broken.map" "$TMP/sg.csv"
grep -q 'broken.map:2: decimal: expected "." or ","' "$TMP/err" || fail "the map's error: $(cat "$TMP/err")"
echo "ok"
