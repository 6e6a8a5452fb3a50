# MT940 reconciled as camt.053 (docs/design/0035-mt940.md): the same
# bookings written as a camt.053 (stmt_gen.py) and as an MT940
# (mt940_gen.py: the end-to-end id in :86: as "/EREF/" or as the German
# ?2x "EREF+") give the same reconcile answers against the same pain.001:
# matched by end-to-end id, an amount off by 0.01 an exception, a payment
# not booked unmatched ours, a booking not ours unmatched theirs.  An
# entry booked net of a charge (/OCMT/, /CHGS/) matched as camt's with its
# AmtDtls/InstdAmt and Chrgs.  An MT940 whose balances do not add up is validated and loaded with a
# warning and reconciled with its break (exit 10); a statement of two
# pages (:60M:/:62M:) is added up once both are loaded; a re-delivered
# MT940 is all duplicate.
. "$(dirname "$0")/lib.sh"
: "${CL_TOOLS:?}"
db_new
cl init ${CL_INIT_ARGS:-} >/dev/null
CAMT="python3 $CL_ROOT/tests/db/stmt_gen.py"
MT="python3 $CL_ROOT/tests/db/mt940_gen.py"
A=DE10718999515662907726

"$CL_TOOLS/gen_iso" --type pain.001 --tx 5 --per-pmtinf 5 --seed 7 >"$TMP/p.xml"
for t in camt mt de brk pg; do
	expect_exit 0 cl load --tenant $t "$TMP/p.xml"
done
amt() { q "select amount_minor from clearing_record where tenant = 'camt' and end_to_end_id = '$1'"; }
a1=$(amt E2E-7-1) a2=$(amt E2E-7-2) a3=$(amt E2E-7-3) a4=$(amt E2E-7-4)
cat >"$TMP/bookings" <<S
$a1 EUR DBIT 2026-03-03 e2e=E2E-7-1 svcr=B1
$((a2 + 1)) EUR DBIT 2026-03-03 e2e=E2E-7-2 svcr=B2
$a3 EUR DBIT 2026-03-03 e2e=E2E-7-3 svcr=B3
5000 EUR CRDT 2026-03-03 e2e=NOT-OURS-1 svcr=B4
$((a4 - 250)) EUR DBIT 2026-03-03 e2e=E2E-7-4 svcr=B5 instd=$a4 chrgs=250
S
$CAMT account=$A date=2026-03-03 seq=5 <"$TMP/bookings" >"$TMP/s.xml"
$MT account=$A date=2026-03-03 seq=5 <"$TMP/bookings" >"$TMP/s.sta"
$MT account=$A date=2026-03-03 seq=5 style=de envelope=1 <"$TMP/bookings" >"$TMP/s-de.sta"

expect_exit 0 cl validate "$TMP/s.sta"
grep -q 'valid mt940, 11 records' "$TMP/out" || fail "validate: $(cat "$TMP/out")"
expect_exit 0 cl load --tenant camt "$TMP/s.xml"
expect_exit 0 cl load --tenant mt "$TMP/s.sta"
grep -q '6 records: 6 new' "$TMP/out" || fail "load: $(cat "$TMP/out")"
expect_exit 0 cl load --tenant de "$TMP/s-de.sta"
assert_eq "$(q "select string_agg(end_to_end_id, ',' order by entry_index)
               from clearing_statement_item where tenant = 'de' and item = 'entry'")" \
	"E2E-7-1,E2E-7-2,E2E-7-3,NOT-OURS-1,E2E-7-4" "the German EREF+ read"
assert_eq "$(q "select statement_key from clearing_statement_item where tenant = 'mt' and item = 'statement'")" \
	"mt940|$A|EUR|n:5|d:2026-03-03" "the MT940 statement key"
# a re-delivered MT940 is all duplicate
expect_exit 0 cl load --tenant mt "$TMP/s.sta"
grep -q '6 records: 0 new, 6 duplicate' "$TMP/out" || fail "again: $(cat "$TMP/out")"

# the answers, without what names the file: status, reason, amount,
# direction and reference of each, sorted
answers() { python3 "$CL_ROOT/tests/db/recon_answers.py" "$1"; }
for t in camt mt de; do
	expect_exit 10 cl reconcile --tenant $t --format json
	answers "$TMP/out" >"$TMP/answers.$t"
	python3 "$CL_ROOT/tests/tools/json_output_check.py" "$CL_ROOT/man/clearing-load-output.schema.json" \
		--expect reconcile,reconcile_summary "$TMP/out" || fail "$t: JSON output not valid against the schema"
done
grep -q 'summary matched=3 unmatched_ours=1 unmatched_theirs=1 exception=1' "$TMP/answers.camt" ||
	fail "camt answers: $(cat "$TMP/answers.camt")"
# booked net of a charge: /OCMT/ and /CHGS/ (in :86:, in the German style in
# the :61: supplementary details) as camt's AmtDtls/InstdAmt and Chrgs
grep -q '^matched matched e2e E2E-7-4 the amount instructed (.* EUR) is ours, booked net of charges of 2.50 EUR entry '"$((a4 - 250))"' EUR' "$TMP/answers.camt" ||
	fail "camt charged: $(grep E2E-7-4 "$TMP/answers.camt")"
diff -u "$TMP/answers.camt" "$TMP/answers.mt" || fail "MT940 and camt.053 answer differently"
diff -u "$TMP/answers.camt" "$TMP/answers.de" || fail "MT940 (German :86:) and camt.053 answer differently"

# ---- a closing balance off by 0.01: a warning, loaded, reconciled with its break ----
head -3 "$TMP/bookings" | $MT account=$A date=2026-03-04 seq=6 off=1 >"$TMP/brk.sta"
expect_exit 0 cl validate "$TMP/brk.sta"
grep -q 'warning: balance break of 0.01 EUR: closing balance :62F:' "$TMP/err" ||
	fail "validate shows the break: $(cat "$TMP/err")"
expect_exit 0 cl load --tenant brk "$TMP/brk.sta"
grep -q 'warning: balance break of 0.01 EUR' "$TMP/err" || fail "load shows the break: $(cat "$TMP/err")"
expect_exit 10 cl reconcile --tenant brk --format json
grep -q '"status":"exception","reason":"balance_break"' "$TMP/out" ||
	fail "no balance_break: $(cat "$TMP/out")"
grep -q '"item":"statement",.*"amount_minor":1,"currency":"EUR"' "$TMP/out" ||
	fail "the break's difference: $(grep balance_break "$TMP/out")"
grep -q '"type":"reconcile_summary".*"matched":2,"unmatched_ours":0,"unmatched_theirs":0,"exception":2,' "$TMP/out" ||
	fail "summary: $(tail -1 "$TMP/out")"

# ---- two pages: added up once both are in ----
printf '%s EUR DBIT 2026-03-05 e2e=E2E-7-1\n' "$a1" |
	$MT account=$A date=2026-03-05 seq=7 page=1 last=false >"$TMP/pg1.sta"
printf '%s EUR DBIT 2026-03-05 e2e=E2E-7-2\n' "$a2" |
	$MT account=$A date=2026-03-05 seq=7 page=2 opening=-"$a1" >"$TMP/pg2.sta"
expect_exit 0 cl load --tenant pg "$TMP/pg2.sta"
expect_exit 10 cl reconcile --tenant pg --format json
grep -q '"reason":"page_missing"' "$TMP/out" || fail "page 1 missing: $(cat "$TMP/out")"
expect_exit 0 cl load --tenant pg "$TMP/pg1.sta"
assert_eq "$(q "select string_agg(statement_key, ' ' order by statement_key)
               from clearing_statement_item where tenant = 'pg' and item = 'statement'")" \
	"mt940|$A|EUR|n:7|d:2026-03-05|p:1 mt940|$A|EUR|n:7|d:2026-03-05|p:2" "the pages' keys"
# (the run reconciles page 1, new: the whole statement adds up, no exception)
expect_exit 0 cl reconcile --tenant pg --format json
grep -q '"type":"reconcile_summary".*"matched":1,"unmatched_ours":0,"unmatched_theirs":0,"exception":0,' "$TMP/out" ||
	fail "the two pages add up: $(cat "$TMP/out")"
echo "ok"
