#!/bin/sh
# Cancellation requests and their answers (issue 30, docs/design/
# 0043-cancellation-requests.md): the SWIFT CBPR+ scenario c.29.1.1 (a
# pacs.008 cancelled as a duplicate: camt.056 A->B, camt.029 CNCL B->A)
# loads; the camt.056 re-sent is all duplicate, re-sent with its reason
# changed held as a conflict; show of the payment says the cancellation
# was requested and answered CNCL; reconcile of a statement of the
# payment's account that does not book it says the payment was cancelled
# (matched, why cancelled), not a break, while a payment whose
# cancellation was answered RJCR stays unmatched ours.
. "$(dirname "$0")/lib.sh"
: "${CL_TOOLS:?CL_TOOLS must name the test tools}"
db_new
cl init >/dev/null
C="$CL_ROOT/testdata/iso20022/corpus/cancellation/c.29.1.1"
GEN="python3 $CL_ROOT/tests/db/stmt_gen.py"
UETR=174c245f-2682-4291-ad67-2a41e530cd27

cl_load "$C/CBPR_c.29.1.1_pacs.008_AtoB.xml" >"$TMP/o" || fail "pacs.008: $(cat "$TMP/o")"
cl_load "$C/CBPR_c.29.1.1_camt.056-AtoB.xml" >"$TMP/o" || fail "camt.056: $(cat "$TMP/o")"
grep -q '"new":1,' "$TMP/o" || fail "camt.056 new: $(cat "$TMP/o")"
assert_eq "$(q "select natural_key, orgnl_uetr, case_id, reason_code, amount_minor, currency,
	coalesce(direction, '-') from clearing_record where kind = 'camt.056'")" \
	"case|MYMBGB2L|MYMBGB2LXXXCSE-1|$UETR|$UETR|MYMBGB2LXXXCSE-1|DUPL|59163600|RON|-" "camt.056 stored"

# re-sent: all duplicate; re-sent with another reason: a conflict, held
cl_load "$C/CBPR_c.29.1.1_camt.056-AtoB.xml" >"$TMP/o" || fail "camt.056 again: $(cat "$TMP/o")"
grep -q '"new":0,"duplicate":1,"conflict":0' "$TMP/o" || fail "re-sent camt.056 all duplicate: $(cat "$TMP/o")"
sed 's|<Cd>DUPL</Cd>|<Cd>FRAD</Cd>|' "$C/CBPR_c.29.1.1_camt.056-AtoB.xml" >"$TMP/frad.xml"
# diff says so before loading
expect_exit 0 cl diff --format json "$C/CBPR_c.29.1.1_camt.056-AtoB.xml"
assert_eq "$(grep -c '"action":"duplicate"' "$TMP/out")" 1 "diff: the request duplicate"
expect_exit 4 cl diff --format json "$TMP/frad.xml"
grep '"action":"conflict"' "$TMP/out" | grep -q '"field":"reason_code"' ||
	fail "diff names the reason: $(cat "$TMP/out")"
expect_exit 4 cl load --format json "$TMP/frad.xml"
grep -q '"outcome":"held"' "$TMP/out" || fail "another reason held: $(cat "$TMP/out")"
assert_eq "$(q "select count(*) from clearing_record where kind = 'camt.056'")" 1 "one request"

# show before the answer: requested only
cl show --uetr "$UETR" >"$TMP/show" || fail "show: $(cat "$TMP/show")"
grep -q "^  cancellation requested on .* (camt.056 case|MYMBGB2L|MYMBGB2LXXXCSE-1|$UETR, reason DUPL)" "$TMP/show" ||
	fail "show: requested: $(cat "$TMP/show")"
if grep -q "cancellation answered" "$TMP/show"; then fail "answered before the answer: $(cat "$TMP/show")"; fi

# a second payment of the account (another UETR and EndToEndId), its
# cancellation answered RJCR: still expected on the statement
sed "s|$UETR|0e0b7a4e-1d7c-4c1e-9b6e-3c2f0a9d8e71|; s|E2E04044506271305|E2E-REJECTED-1|" \
	"$C/CBPR_c.29.1.1_pacs.008_AtoB.xml" >"$TMP/p2.xml"
sed "s|$UETR|0e0b7a4e-1d7c-4c1e-9b6e-3c2f0a9d8e71|; s|E2E04044506271305|E2E-REJECTED-1|;
	s|<Conf>CNCL</Conf>|<Conf>RJCR</Conf>|; s|CNCL-IJKL|RJCR-IJKL|" \
	"$C/CBPR_c.29.1.1_camt.029-BtoA.xml" >"$TMP/rjcr.xml"
cl_load "$TMP/p2.xml" >"$TMP/o" || fail "second payment: $(cat "$TMP/o")"
cl_load "$TMP/rjcr.xml" >"$TMP/o" || fail "RJCR answer: $(cat "$TMP/o")"

# the answer: CNCL
cl_load "$C/CBPR_c.29.1.1_camt.029-BtoA.xml" >"$TMP/o" || fail "camt.029: $(cat "$TMP/o")"
grep -q '"new":1,' "$TMP/o" || fail "camt.029 new: $(cat "$TMP/o")"
assert_eq "$(q "select natural_key, cancellation_id, cancellation_status from clearing_record
	where kind = 'camt.029' and orgnl_uetr = '$UETR'")" "sts|INGBROBU|CNCL-IJKL|CNCL-IJKL|CNCL" "camt.029 stored"
cl show --uetr "$UETR" >"$TMP/show" || fail "show: $(cat "$TMP/show")"
grep -q "^  cancellation answered CNCL on .* (camt.029 sts|INGBROBU|CNCL-IJKL)" "$TMP/show" ||
	fail "show: answered CNCL: $(cat "$TMP/show")"
# the payment's own record says it (the lines follow the pacs.008's)
sed -n '/^pacs.008 /,/^$/p' "$TMP/show" | grep -q "cancellation answered CNCL" ||
	fail "show: not under the payment: $(cat "$TMP/show")"
cl show --format json --uetr "$UETR" >"$TMP/showj" || fail "show json"
grep -q '"type":"cancellation".*"cancellation_status":"CNCL"' "$TMP/showj" || fail "show json: $(cat "$TMP/showj")"
cl show --e2e E2E-REJECTED-1 >"$TMP/show2" || fail "show 2"
grep -q "cancellation answered RJCR" "$TMP/show2" || fail "show: RJCR: $(cat "$TMP/show2")"

# the statement of the debtor's account for the day books neither payment
# (one entry of someone else's): the cancelled one is not a break
$GEN account=25698745 ccy=RON date=2022-10-20 seq=1 >"$TMP/s.xml" <<S
4242 RON CRDT 2022-10-20 e2e=THEIRS-ONLY
S
expect_exit 10 cl reconcile --format json "$TMP/s.xml"
cp "$TMP/out" "$TMP/r.json"
grep '"status":"matched","reason":"cancelled"' "$TMP/r.json" | grep -q "uetr|$UETR|MYMBGB2L" ||
	fail "reconcile: the cancelled payment: $(cat "$TMP/r.json")"
grep '"reason":"cancelled"' "$TMP/r.json" | grep -q 'camt.029 sts|INGBROBU|CNCL-IJKL' ||
	fail "reconcile names the answer: $(grep cancelled "$TMP/r.json")"
grep '"status":"unmatched_ours","reason":"not_booked"' "$TMP/r.json" |
	grep -q 'uetr|0e0b7a4e-1d7c-4c1e-9b6e-3c2f0a9d8e71|MYMBGB2L' ||
	fail "reconcile: the RJCR one unmatched ours: $(cat "$TMP/r.json")"
grep -q '"type":"reconcile_summary".*"unmatched_ours":1,' "$TMP/r.json" ||
	fail "reconcile summary: $(tail -n 1 "$TMP/r.json")"
assert_eq "$(q "select count(*) from clearing_reconcile_match")" 0 "a cancellation is no match recorded"
# the requests and answers are never unmatched ours nor matched by an entry
if grep -q '"record":{"kind":"camt.0' "$TMP/r.json"; then fail "a camt record in reconcile: $(cat "$TMP/r.json")"; fi
grep -q '"record":{"kind":"pacs.008"' "$TMP/r.json" || fail "fixture: no record in the answer"
# the answer's record shows no amount (it names none), not "0"
sed -n '/^camt.029 /,/^$/p' "$TMP/show" | grep -q '^  amount     no amount$' ||
	fail "show: the answer's amount: $(cat "$TMP/show")"

# a pacs.004 returning a direct debit (pacs.003) attaches to it as it does to
# a credit transfer: by OrgnlUETR, whatever the kind it returns (show's
# lookups and reconcile's return arms name no kind)
"$CL_TOOLS/gen_iso" --type pacs.003 --tx 1 >"$TMP/dd.xml"
DDU=$(sed -n 's|.*<UETR>\([^<]*\)</UETR>.*|\1|p' "$TMP/dd.xml")
[ -n "$DDU" ] || fail "fixture: no UETR in the pacs.003"
sed "s|7a562c67-ca16-48ba-b074-65581be6f001|$DDU|" \
	"$CL_ROOT/testdata/iso20022/corpus/pacs.004/cbprplus_p.2.3.1.a_pacs.004_DtoC.xml" >"$TMP/ret.xml"
cl_load "$TMP/dd.xml" >"$TMP/o" || fail "pacs.003: $(cat "$TMP/o")"
cl_load "$TMP/ret.xml" >"$TMP/o" || fail "pacs.004 of the pacs.003: $(cat "$TMP/o")"
cl show --format json --uetr "$DDU" >"$TMP/showd" || fail "show dd"
grep '"kind":"pacs.003"' "$TMP/showd" | grep -q '"matched_by":"uetr"' || fail "show: the collection: $(cat "$TMP/showd")"
grep '"kind":"pacs.004"' "$TMP/showd" | grep -q '"matched_by":"orgnl_uetr"' || fail "show: its return: $(cat "$TMP/showd")"
# a statement of the collection's account and day that does not book it:
# returned, not expected there (matched, reason returned, the pacs.004
# named), no break
DA=$(q "select coalesce(creditor_account, debtor_account) from clearing_record where kind = 'pacs.003' and uetr = '$DDU'")
DD=$(q "select value_date from clearing_record where kind = 'pacs.003' and uetr = '$DDU'")
DC=$(q "select currency from clearing_record where kind = 'pacs.003' and uetr = '$DDU'")
echo "100 $DC CRDT $DD e2e=NOT-OURS" |
	python3 "$CL_ROOT/tests/db/stmt_gen.py" account="$DA" ccy="$DC" date="$DD" >"$TMP/dds.xml"
expect_exit 10 cl reconcile --format json "$TMP/dds.xml"
cp "$TMP/out" "$TMP/ddr"
grep '"record":{"kind":"pacs.003"' "$TMP/ddr" | grep -q '"status":"matched","reason":"returned","detail":"returned before the bank booked it (pacs.004 ' ||
	fail "reconcile: the returned collection: $(grep pacs.003 "$TMP/ddr")"
