# A statement whose balances do not add up is loaded and its break
# reported (docs/design/0028-statement-balance-breaks.md): validate warns with
# the numbers and exits 0, load stores it, reconcile matches its entries
# and reports one exception balance_break carrying the difference (exit
# 10).  A camt.052 balance report (no entries, a TxsSummry that counts
# some) is valid and loads.  A statement of two pages in two files: each
# page valid alone, the whole added up once the last page is in, a break
# found only when the pages together do not add up, a page missing
# reported.
. "$(dirname "$0")/lib.sh"
: "${CL_TOOLS:?}"
db_new
cl init ${CL_INIT_ARGS:-} >/dev/null
GEN="python3 $CL_ROOT/tests/db/stmt_gen.py"
SCHEMA="$CL_ROOT/man/clearing-load-output.schema.json"
CHECK="$CL_ROOT/tests/tools/json_output_check.py"
J="$TMP/all.jsonl"
: >"$J"
A=DE10718999515662907726

# ours: a pain.001 of 3 from account A, in each tenant
"$CL_TOOLS/gen_iso" --type pain.001 --tx 3 --per-pmtinf 3 --seed 7 >"$TMP/p.xml"
for t in brk rpt pg; do
	expect_exit 0 cl load --tenant $t "$TMP/p.xml"
done
amt() { q "select amount_minor from clearing_record where tenant = 'brk' and end_to_end_id = '$1'"; }
a1=$(amt E2E-7-1) a2=$(amt E2E-7-2) a3=$(amt E2E-7-3)

# ---- a closing balance off by 0.01 ----
$GEN account=$A date=2026-03-03 seq=1 off=1 >"$TMP/brk.xml" <<S
$a1 EUR DBIT 2026-03-03 e2e=E2E-7-1
$a2 EUR DBIT 2026-03-03 e2e=E2E-7-2
$a3 EUR DBIT 2026-03-03 e2e=E2E-7-3
S
expect_exit 0 cl validate "$TMP/brk.xml"
grep -q 'valid camt.053.001.08, 7 records' "$TMP/out" || fail "validate: $(cat "$TMP/out")"
grep -q 'warning: /Document/BkToCstmrStmt/Stmt/Bal: balance break of 0.01 EUR: closing balance CLBD' "$TMP/err" ||
	fail "validate shows the break: $(cat "$TMP/err")"
# for a machine: a warning object, as an error would be (diff and load alike)
expect_exit 1 cl diff --tenant brk --format json "$TMP/brk.xml"
grep -q '^{"type":"warning",.*"code":"statement_balance","message":"balance break of 0.01 EUR' "$TMP/out" ||
	fail "diff --format json: no warning object: $(cat "$TMP/out")"
expect_exit 0 cl load --tenant brk "$TMP/brk.xml"
grep -q '4 records: 4 new' "$TMP/out" || fail "the statement loads: $(cat "$TMP/out")"
grep -q 'warning: .*balance break of 0.01 EUR' "$TMP/err" || fail "load shows the break: $(cat "$TMP/err")"
expect_exit 10 cl reconcile --tenant brk --format json
cat "$TMP/out" >>"$J"
assert_eq "$(grep -c '"status":"matched"' "$TMP/out")" 3 "its entries are matched"
assert_eq "$(grep -c '"status":"exception"' "$TMP/out")" 1 "one exception"
grep -q '"status":"exception","reason":"balance_break","detail":"the balances do not add up: a break of 0.01 EUR (closing balance -'.*' EUR, opening balance 0.00 EUR plus the booked entries is -' "$TMP/out" ||
	fail "the break as money: $(grep balance_break "$TMP/out")"
grep -q '"item":"statement",.*"amount_minor":1,"currency":"EUR"' "$TMP/out" ||
	fail "the break's difference: $(grep balance_break "$TMP/out")"
grep -q '"balance":{"opening_minor":0,"closing_minor":-'"$((a1 + a2 + a3 - 1))"',"computed_minor":-'"$((a1 + a2 + a3))"',"difference_minor":1,"currency":"EUR","pages":\[\],"last_page":null,"missing_pages":\[\]}' "$TMP/out" ||
	fail "the balance: $(grep balance_break "$TMP/out")"
grep -q '"type":"reconcile_summary".*"matched":3,"unmatched_ours":0,"unmatched_theirs":0,"exception":1,' "$TMP/out" ||
	fail "summary: $(tail -1 "$TMP/out")"
# a second run gives the same answer; the text output says it as money
expect_exit 10 cl reconcile --tenant brk --quiet "$TMP/brk.xml"
grep -q '^exception .*: the balances do not add up: a break of 0.01 EUR' "$TMP/out" ||
	fail "text: $(cat "$TMP/out")"

# ---- a balance report: balances and a TxsSummry, no entries ----
: | $GEN account=$A date=2026-03-03 seq=2 msg=camt.052 opening=10000 off=5000 summary=3 >"$TMP/rpt.xml"
expect_exit 0 cl validate "$TMP/rpt.xml"
[ ! -s "$TMP/err" ] || fail "a balance report is no break: $(cat "$TMP/err")"
expect_exit 0 cl load --tenant rpt "$TMP/rpt.xml"
grep -q 'camt.052.001.08, 1 record: 1 new' "$TMP/out" || fail "report loads: $(cat "$TMP/out")"
assert_eq "$(q "select opening_minor || ' ' || closing_minor || ' ' || summary_entries
               from clearing_statement_item where tenant = 'rpt' and item = 'statement'")" \
	"10000 15000 3" "the report's balances and summary stored"
expect_exit 0 cl reconcile --tenant rpt
grep -q '0 exceptions' "$TMP/out" || fail "report: $(cat "$TMP/out")"

# ---- two pages in two files ----
# page 1: E2E-7-1 and -2, opening 0 to its interim balance; page 2:
# E2E-7-3 from its interim balance to the closing
net12=$((0 - a1 - a2))
page1() {
	$GEN account=$A date=2026-03-03 seq=$1 page=1 last=false close_type=ITBD <<S
$a1 EUR DBIT 2026-03-03 e2e=E2E-7-1
$a2 EUR DBIT 2026-03-03 e2e=E2E-7-2
S
}
page2() { # SEQ OPENING [PAGE LAST]
	echo "$a3 EUR DBIT 2026-03-03 e2e=E2E-7-3" |
		$GEN account=$A date=2026-03-03 seq=$1 page=${3:-2} last=${4:-true} open_type=ITBD opening=$2
}
page1 3 >"$TMP/p3-1.xml"
page2 3 $net12 >"$TMP/p3-2.xml"
for f in p3-1 p3-2; do
	expect_exit 0 cl validate "$TMP/$f.xml"
	[ ! -s "$TMP/err" ] || fail "$f adds up alone: $(cat "$TMP/err")"
done
# page 1 alone: the last page missing
expect_exit 10 cl reconcile --tenant pg --format json "$TMP/p3-1.xml"
cat "$TMP/out" >>"$J"
grep -q '"reason":"page_missing","detail":"its last page not loaded (pages loaded: 1)' "$TMP/out" ||
	fail "page 1 alone: $(cat "$TMP/out")"
assert_eq "$(grep -c '"status":"matched"' "$TMP/out")" 2 "page 1's entries matched"
# page 2 in another load: the whole adds up
expect_exit 0 cl reconcile --tenant pg "$TMP/p3-2.xml"
grep -q '1 matched, 0 unmatched ours, 0 unmatched theirs, 0 exceptions' "$TMP/out" ||
	fail "both pages add up: $(cat "$TMP/out")"

# each page adds up alone, the pages together do not: page 2 opens 0.25
# below page 1's close
page1 4 >"$TMP/p4-1.xml"
page2 4 $((net12 - 25)) >"$TMP/p4-2.xml"
for f in p4-1 p4-2; do
	expect_exit 0 cl validate "$TMP/$f.xml"
	[ ! -s "$TMP/err" ] || fail "$f adds up alone: $(cat "$TMP/err")"
done
expect_exit 10 cl reconcile --tenant pg --format json "$TMP/p4-1.xml" "$TMP/p4-2.xml"
cat "$TMP/out" >>"$J"
assert_eq "$(grep -c '"reason":"balance_break"' "$TMP/out")" 1 "one break for the two pages"
grep -q '"reason":"balance_break","detail":"the balances do not add up: a break of -0.25 EUR (.*, pages 1,2)' "$TMP/out" ||
	fail "pages break: $(grep balance_break "$TMP/out")"
grep -q '"pages":\[1,2\],"last_page":2,"missing_pages":\[\]' "$TMP/out" ||
	fail "pages: $(grep balance_break "$TMP/out")"

# three pages, page 2 never came
page1 5 >"$TMP/p5-1.xml"
page2 5 $net12 3 true >"$TMP/p5-3.xml"
expect_exit 10 cl reconcile --tenant pg --format json "$TMP/p5-1.xml" "$TMP/p5-3.xml"
cat "$TMP/out" >>"$J"
grep -q '"reason":"page_missing","detail":"page 2 of 3 not loaded (pages loaded: 1,3)' "$TMP/out" ||
	fail "page 2 missing: $(cat "$TMP/out")"
grep -q '"pages":\[1,3\],"last_page":3,"missing_pages":\[2\]' "$TMP/out" ||
	fail "missing pages: $(grep page_missing "$TMP/out")"
assert_eq "$(grep -c '"reason":"page_missing"' "$TMP/out")" 1 "one item for the statement"

python3 "$CHECK" "$SCHEMA" --expect reconcile,reconcile_summary "$J" ||
	fail "JSON output not valid against the schema"
echo "ok"
