# Statements loaded idempotently, and clearing-load reconcile: statements
# generated from loaded records with controlled differences (missing,
# extra, an amount off by one cent, a batch booking, a return, a pacs.002
# reject that was booked), the corpus's camt.053/054 and pacs.002 loaded
# with the right counts and totals, a BAI2 file written from the
# specification, JSON output against the schema.
. "$(dirname "$0")/lib.sh"
: "${CL_TOOLS:?}"
db_new
cl init ${CL_INIT_ARGS:-} >/dev/null
GEN="python3 $CL_ROOT/tests/db/stmt_gen.py"
SCHEMA="$CL_ROOT/man/clearing-load-output.schema.json"
CHECK="$CL_ROOT/tests/tools/json_output_check.py"
J="$TMP/all.jsonl"
: >"$J"

# ---- loading statements ----

# the corpus: every file loads (or is rejected) as its MANIFEST says, with
# one item per statement, entry and status, and the entries' net amount
grep -v '^#' "$TESTDATA/statements/MANIFEST" | while read -r path stmts entries txs statuses amount errors; do
	f="$TESTDATA/statements/$path"
	want=0
	[ "$errors" = - ] || want=3
	# read without error but refused by the statement keys (rules/): one
	# BAI2 account twice in one group (as agree/bai2-account-twice.bai)
	[ "$path" = real/moov_bai2/sample1.txt ] && want=3
	set +e
	"$CL_BIN" load --tenant corpus --format json "$f" >"$TMP/o" 2>"$TMP/e"
	got=$?
	set -e
	# a second version of one statement (genkgo's v2..v8 of one Stmt/Id)
	# is held: the same statement key with other content
	[ "$got" = 4 ] && grep -q '"outcome":"held"' "$TMP/o" && continue
	[ "$got" = "$want" ] || fail "$path: exit $got, want $want: $(cat "$TMP/e")"
	[ "$want" = 0 ] || continue
	id=$(sed -n 's/.*"type":"file".*"load_id":\([0-9]*\).*/\1/p' "$TMP/o")
	headers=$stmts
	[ "$statuses" -gt 0 ] && [ "$stmts" = 0 ] && headers=1 # a pacs.002 report
	# of the statuses, those of transactions are stored, and those of
	# groups that have a GrpSts and an OrgnlMsgId (one without says
	# nothing of the group's payments)
	txsts=$("$CL_TOOLS/statement_dump" "$f" 2>/dev/null | grep -c '"kind":"transaction_status"' || true)
	grpsts=$("$CL_TOOLS/statement_dump" "$f" 2>/dev/null |
		grep '"kind":"group_status"' | grep -v '"orgnl_msg_id":null' | grep -vc '"status":null' || true)
	# and a row per transaction of an entry of several (028)
	txrows=$("$CL_TOOLS/statement_dump" "$f" 2>/dev/null | grep '"kind":"transaction"' |
		sed -n 's/.*"statement":\([0-9]*\),"entry":\([0-9]*\),.*"tx":{"index":.*/\1 \2/p' |
		sort | uniq -c | awk '$1 > 1 { n += $1 } END { print n + 0 }')
	items=$(q "select count(*) from clearing_statement_item where load_id = $id")
	dups=$(q "select duplicate_count from clearing_load where load_id = $id")
	assert_eq "$((items + dups))" "$((headers + entries + txsts + grpsts + txrows))" "$path: items"
	[ "$dups" = 0 ] || continue
	[ "$txsts" = "$statuses" ] || continue
	net=$(q "select coalesce(sum(case when item = 'status' then coalesce(amount_minor, 0)
	                                   when direction = 'credit' then amount_minor
	                                   else -amount_minor end), 0)
	         from clearing_statement_item where load_id = $id and item in ('entry', 'status')")
	assert_eq "$net" "$amount" "$path: amount"
done

# a re-delivered statement is all duplicate; a changed one (same account
# and sequence number, one amount other) conflicts and is held
A=DE10718999515662907726
printf '100 EUR DBIT 2026-03-03 e2e=X1\n200 EUR CRDT 2026-03-03 e2e=X2\n' |
	$GEN account=$A date=2026-03-03 seq=90 >"$TMP/s90.xml"
printf '100 EUR DBIT 2026-03-03 e2e=X1\n201 EUR CRDT 2026-03-03 e2e=X2\n' |
	$GEN account=$A date=2026-03-03 seq=90 >"$TMP/s90b.xml"
expect_exit 0 cl load --tenant dedupe "$TMP/s90.xml"
grep -q '3 records: 3 new, 0 duplicate, 0 conflict' "$TMP/out" || fail "s90: $(cat "$TMP/out")"
expect_exit 0 cl load --tenant dedupe "$TMP/s90.xml"
grep -q '3 records: 0 new, 3 duplicate, 0 conflict' "$TMP/out" || fail "s90 again: $(cat "$TMP/out")"
expect_exit 4 cl load --tenant dedupe "$TMP/s90b.xml"
grep -q '0 new, 1 duplicate, 2 conflict.*held' "$TMP/out" || fail "s90 changed: $(cat "$TMP/out")"
assert_eq "$(q "select count(*) from clearing_statement_item where tenant = 'dedupe'")" 3 \
	"nothing of a held statement stored"
assert_eq "$(q "select string_agg(array_to_string(fields, ','), ' ' order by ordinal)
               from clearing_dedupe_event where tenant = 'dedupe' and reason = 'conflict'")" \
	"closing_minor amount_minor" "the conflicts name what differs"
assert_eq "$(q "select count(*) from clearing_dedupe_event where tenant = 'dedupe'
               and natural_key like '%$A%'")" 0 "the journal's keys are masked"
expect_exit 0 cl diff --tenant dedupe "$TMP/s90.xml"

# BAI2, written from the specification: a file (01), a group (02), an
# account (03: opening ledger 010, closing ledger 015) with four details
# (16, one continued by an 88: ACH credits by their traces, a wire, a
# cheque), the trailers' control totals (the sums of the amounts as
# written) and record counts
cat >"$TMP/day.bai" <<'BAI'
01,BANKSEND,CUSTRECV,260303,2300,F0303,80,,2/
02,CUSTRECV,BANKSEND,1,260303,2400,USD,2/
03,555000111,USD,010,100000,,,015,168850,,/
16,165,55192,0,BREFA1,121042880000001,ACH CREDIT/
16,195,40847,0,BREFA2,121042880000005,INCOMING WIRE/
16,475,5000,V,260304,,BREFA3,CHK1001,CHECK PAID
88,NUMBER 1001/
16,165,77777,0,BREFA4,,ACH CREDIT NO REFERENCE/
49,447666,7/
98,447666,1,9/
99,447666,1,11/
BAI
expect_exit 0 cl load --tenant bai "$TMP/day.bai"
grep -q 'bai2, 5 records: 5 new' "$TMP/out" || fail "bai2: $(cat "$TMP/out")"
assert_eq "$(q "select string_agg(coalesce(ach_trace, '-') || ' ' || coalesce(end_to_end_id, '-')
                 || ' ' || amount_minor || ' ' || direction, ';' order by entry_index)
               from clearing_statement_item where tenant = 'bai' and item = 'entry'")" \
	"121042880000001 - 55192 credit;121042880000005 - 40847 credit;- CHK1001 5000 debit;- - 77777 credit" \
	"bai2 entries: traces from the customer reference"
expect_exit 0 cl load --tenant bai "$TMP/day.bai"
grep -q '0 new, 5 duplicate' "$TMP/out" || fail "bai2 again: $(cat "$TMP/out")"
sed 's/^49,447666,7/49,447667,7/' "$TMP/day.bai" >"$TMP/bad.bai"
expect_exit 3 cl load --tenant bai "$TMP/bad.bai"

# ---- reconciliation ----

# ours: a pain.001 of 7 (PmtInf PMT-1 1-3, PMT-2 4-6, PMT-3 7), an ACH file
# of 6 in two batches of company 1100000000, a pacs.008 and its pacs.004
"$CL_TOOLS/gen_iso" --type pain.001 --tx 7 --per-pmtinf 3 --seed 7 >"$TMP/p.xml"
"$CL_TOOLS/gen_ach" --entries 6 --batch-size 3 --seed 3 --effective 260303 >"$TMP/a.ach"
CH="$TESTDATA/iso20022/corpus/chains/cbprplus_p.2.1.2"
for f in "$TMP/p.xml" "$TMP/a.ach" "$CH/p.2.1.2_pacs.008_AtoB.xml" "$CH/p.2.1.2_pacs.004_BtoA.xml"; do
	expect_exit 0 cl load "$f"
done
amt() { q "select amount_minor from clearing_record where end_to_end_id = '$1'"; }
a1=$(amt E2E-7-1) a2=$(amt E2E-7-2) a3=$(amt E2E-7-3)
pmt2=$(q "select sum(amount_minor) from clearing_record where pmt_inf_id = 'PMT-2'")
UETR=174c245f-2682-4291-ad67-2a41e530cd27

# S1, the pain.001's account: one exact, one a cent off, one without its
# reference (suggested), one the bank has and we do not, PMT-2 booked as a
# batch; E2E-7-7 is not booked (unmatched ours)
$GEN account=$A date=2026-03-03 seq=1 >"$TMP/s1.xml" <<S
$a1 EUR DBIT 2026-03-03 e2e=E2E-7-1
$((a2 + 1)) EUR DBIT 2026-03-03 e2e=E2E-7-2
$a3 EUR DBIT 2026-03-03
4242 EUR CRDT 2026-03-03 e2e=THEIRS-ONLY
$pmt2 EUR DBIT 2026-03-03 batch=3 pmtinf=PMT-2
S
expect_exit 10 cl reconcile --format json "$TMP/s1.xml"
cp "$TMP/out" "$TMP/s1.json"
cat "$TMP/out" >>"$J"
assert_eq "$(recon_st "$TMP/s1.json" | tr '\n' ';')" \
	"8 matched matched;9 exception differs;10 suggested suggested;11 unmatched_theirs no_record;12 matched matched;ours ******************7726|E2E-7-7;" \
	"S1 statuses"
grep -q '"reason":"differs","detail":"the same reference (e2e) with another amount (ours '"$a2"' EUR, booked '"$((a2 + 1))"' EUR)"' "$TMP/s1.json" ||
	fail "the cent off: $(grep differs "$TMP/s1.json")"
grep -q '"type":"reconcile_summary".*"statements":1,"matched":2,"unmatched_ours":1,"unmatched_theirs":1,"exception":1,"suggested":1,"new_matches":4,' "$TMP/s1.json" ||
	fail "S1 summary: $(tail -n 1 "$TMP/s1.json")"
assert_eq "$(q "select count(*) from clearing_reconcile_match")" 4 "E2E-7-1 and the 3 of PMT-2"

# idempotent: the same answer again, nothing recorded twice
expect_exit 10 cl reconcile --format json "$TMP/s1.xml"
grep -v reconcile_summary "$TMP/out" >"$TMP/s1b.items"
grep -v reconcile_summary "$TMP/s1.json" >"$TMP/s1.items"
cmp -s "$TMP/s1.items" "$TMP/s1b.items" || fail "a second run differs: $(diff "$TMP/s1.items" "$TMP/s1b.items")"
grep -q '"new_matches":0,' "$TMP/out" || fail "second run recorded matches: $(tail -n 1 "$TMP/out")"
assert_eq "$(q "select count(*) from clearing_reconcile_match")" 4 "each match once"
assert_eq "$(q "select count(distinct run_id) from clearing_reconcile_match")" 1 "by the run that found it"
assert_eq "$(q "select count(*) from clearing_reconcile_run")" 2 "each run recorded"
assert_eq "$(q "select count(*) from clearing_statement_item where load_id in
               (select load_id from clearing_load where file_name like '%s1.xml')")" 6 \
	"the statement loaded once (the second load all duplicate)"

# S2, the ACH settlement account: batch 1 by its traces (net as booked:
# credits to the receivers are debits of ours), entry 4 (a debit of the
# receiver, a credit of ours), entry 5 booked the wrong way; entry 6 not
# booked
net1=$(q "select sum(case direction when 'credit' then -amount_minor else amount_minor end)
          from clearing_record where kind = 'ach.entry' and batch_number = '0000001'")
[ "$net1" -gt 0 ] || fail "batch 1 nets to $net1: the test needs a credit to us"
e4=$(q "select amount_minor from clearing_record where trace_number = '121042880000004'")
e5=$(q "select amount_minor from clearing_record where trace_number = '121042880000005'")
$GEN account=GB33BUKB20201555555555 ccy=USD date=2026-03-03 seq=2 >"$TMP/s2.xml" <<S
$net1 USD CRDT 2026-03-03 batch=3 traces=121042880000001,121042880000002,121042880000003
$e4 USD CRDT 2026-03-03 trace=121042880000004
$e5 USD CRDT 2026-03-03 trace=121042880000005
S
expect_exit 10 cl reconcile -v --ach-company 1100000000 "$TMP/s2.xml"
# text is for a person: amounts as money, the booked entries added up
# per status at the end
usd() {
	q "select 'USD ' || to_char(($1) / 100.0, 'FM999,999,990.00')"
}
grep -q '^matched .*|#1 line 8: '"$(usd "$net1")"' credit trace_batch 121042880000001: a batch of 3 records, count and sum exact$' "$TMP/out" ||
	fail "ACH batch: $(cat "$TMP/out")"
assert_eq "$(tail -n 1 "$TMP/out")" "booked: matched $(usd "$net1 + $e4") (2); exception $(usd "$e5") (1)" \
	"the booked entries' money per status"
grep -q '^matched .*|#2 line 9: .* trace 121042880000004 -> ach.entry 1100000000|121042880000004|2026-03-03' "$TMP/out" ||
	fail "ACH entry: $(cat "$TMP/out")"
grep -q '^exception .*|#3 line 10: .*: the same reference (trace) booked the other way (credit)$' "$TMP/out" ||
	fail "ACH direction: $(cat "$TMP/out")"
grep -q '^unmatched_ours *ach.entry 1100000000|121042880000006|2026-03-03 ' "$TMP/out" ||
	fail "ACH not booked: $(cat "$TMP/out")"
assert_eq "$(grep -c '^unmatched_ours' "$TMP/out")" 1 "only entry 6 is ours unmatched (USD, the company)"

# S3: the pacs.008 by its UETR, and its return (RtrInf) matched to the
# pacs.004, linked to the payment it returns; nothing else: exit 0
p8=$(q "select amount_minor from clearing_record where kind = 'pacs.008' and uetr = '$UETR'")
p4=$(q "select amount_minor from clearing_record where kind = 'pacs.004' and orgnl_uetr = '$UETR'")
$GEN account=96325874 ccy=USD date=2021-05-11 seq=3 >"$TMP/s3.xml" <<S
$p8 USD DBIT 2021-05-11 uetr=$UETR
$p4 USD CRDT 2021-05-11 uetr=$UETR rtr=AC04
S
expect_exit 0 cl reconcile --format json "$TMP/s3.xml"
cat "$TMP/out" >>"$J"
grep -q '"status":"matched".*"line":8,.*"rule":"uetr".*"record":{"kind":"pacs.008"' "$TMP/out" ||
	fail "pacs.008: $(cat "$TMP/out")"
grep -q '"status":"matched".*"line":9,.*"record":{"kind":"pacs.004".*"original":{"kind":"pacs.008","natural_key":"uetr|'"$UETR"'|' "$TMP/out" ||
	fail "the return: $(cat "$TMP/out")"

# a pacs.002 rejects E2E-7-7, and a later statement books it: the status is
# attached (matched), the booking an exception; a status of a payment we
# do not have is unmatched theirs
cat >"$TMP/sts.xml" <<'X'
<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pacs.002.001.10"><FIToFIPmtStsRpt>
<GrpHdr><MsgId>STS-1</MsgId><CreDtTm>2026-03-03T10:00:00</CreDtTm></GrpHdr>
<OrgnlGrpInfAndSts><OrgnlMsgId>MSG-7</OrgnlMsgId><OrgnlMsgNmId>pain.001.001.09</OrgnlMsgNmId></OrgnlGrpInfAndSts>
<TxInfAndSts><OrgnlEndToEndId>E2E-7-7</OrgnlEndToEndId><TxSts>RJCT</TxSts><StsRsnInf><Rsn><Cd>AC04</Cd></Rsn></StsRsnInf></TxInfAndSts>
<TxInfAndSts><OrgnlEndToEndId>E2E-NOT-OURS</OrgnlEndToEndId><TxSts>ACSC</TxSts></TxInfAndSts>
</FIToFIPmtStsRpt></Document>
X
a7=$(amt E2E-7-7)
$GEN account=$A date=2026-03-04 seq=4 >"$TMP/s4.xml" <<S
$a7 EUR DBIT 2026-03-04 e2e=E2E-7-7
S
expect_exit 10 cl reconcile --format json "$TMP/sts.xml" "$TMP/s4.xml"
cat "$TMP/out" >>"$J"
grep -q '"status":"matched".*"item":"status".*"payment_status":"RJCT".*"record":{"kind":"pain.001","natural_key":"[*]*7726|E2E-7-7"' "$TMP/out" ||
	fail "status attached: $(cat "$TMP/out")"
grep -q '"status":"unmatched_theirs","reason":"status_not_ours"' "$TMP/out" || fail "unknown status: $(cat "$TMP/out")"
grep -q '"status":"exception","reason":"rejected_booked","detail":"rejected by a status report (RJCT AC04) but booked"' "$TMP/out" ||
	fail "rejected but booked: $(cat "$TMP/out")"
grep -q '"unmatched_ours":0,' "$TMP/out" || fail "S4's period has nothing else of ours: $(tail -n 1 "$TMP/out")"

# a status names its payment within the message it answers: a RJCT of
# E2E-7-1 answering another message (OrgnlMsgId MSG-OTHER) is not our
# E2E-7-1 of MSG-7 (an EndToEndId is the customer's, not unique)
cat >"$TMP/sts2.xml" <<'X'
<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pacs.002.001.10"><FIToFIPmtStsRpt>
<GrpHdr><MsgId>STS-2</MsgId><CreDtTm>2026-03-03T11:00:00</CreDtTm></GrpHdr>
<OrgnlGrpInfAndSts><OrgnlMsgId>MSG-OTHER</OrgnlMsgId><OrgnlMsgNmId>pain.001.001.09</OrgnlMsgNmId></OrgnlGrpInfAndSts>
<TxInfAndSts><OrgnlEndToEndId>E2E-7-1</OrgnlEndToEndId><TxSts>RJCT</TxSts><StsRsnInf><Rsn><Cd>AC01</Cd></Rsn></StsRsnInf></TxInfAndSts>
</FIToFIPmtStsRpt></Document>
X
assert_eq "$(q "select count(*) from clearing_record where end_to_end_id = 'E2E-7-1' and msg_id = 'MSG-7'")" 1 \
	"E2E-7-1 is ours, in MSG-7"
expect_exit 10 cl reconcile --format json "$TMP/sts2.xml"
cat "$TMP/out" >>"$J"
grep -q '"status":"unmatched_theirs","reason":"status_not_ours".*"item":"status".*"payment_status":"RJCT"' "$TMP/out" ||
	fail "a status of another message's E2E-7-1: $(cat "$TMP/out")"
! grep -q '"status":"matched".*"item":"status"' "$TMP/out" ||
	fail "a status of another message attached to ours: $(cat "$TMP/out")"

# a pacs.002 group status (GrpSts RJCT of the original message MSG-G, no
# transaction status): attached to each record of that message as a
# transaction status is (one item, its records counted, a match recorded
# per record); a statement that books one of them anyway: an exception
"$CL_TOOLS/gen_iso" --type pain.001 --tx 2 --seed 9 --msg-id MSG-G >"$TMP/g.xml"
expect_exit 0 cl load --tenant grp "$TMP/g.xml"
cat >"$TMP/stsg.xml" <<'X'
<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pacs.002.001.10"><FIToFIPmtStsRpt>
<GrpHdr><MsgId>STS-G</MsgId><CreDtTm>2026-03-03T10:00:00</CreDtTm></GrpHdr>
<OrgnlGrpInfAndSts><OrgnlMsgId>MSG-G</OrgnlMsgId><OrgnlMsgNmId>pain.001.001.09</OrgnlMsgNmId><GrpSts>RJCT</GrpSts><StsRsnInf><Rsn><Cd>AM05</Cd></Rsn></StsRsnInf></OrgnlGrpInfAndSts>
</FIToFIPmtStsRpt></Document>
X
g1=$(q "select amount_minor from clearing_record where tenant = 'grp' and end_to_end_id = 'E2E-9-1'")
GA=$(q "select debtor_account from clearing_record where tenant = 'grp' and end_to_end_id = 'E2E-9-1'")
$GEN account="$GA" date=2026-03-03 seq=9 >"$TMP/s9.xml" <<S
$g1 EUR DBIT 2026-03-03 e2e=E2E-9-1
S
expect_exit 10 cl reconcile --tenant grp --format json "$TMP/stsg.xml" "$TMP/s9.xml"
cat "$TMP/out" >>"$J"
grep -q '"status":"matched","reason":"matched","detail":"a status of the whole original message (group status): attached to its 2 records".*"item":"status".*"payment_status":"RJCT".*"rule":"msg_id","reference":"MSG-G","record":null,"records":2' "$TMP/out" ||
	fail "group status attached: $(cat "$TMP/out")"
grep -q '"status":"exception","reason":"rejected_booked","detail":"rejected by a status report (RJCT AM05) but booked"' "$TMP/out" ||
	fail "a rejected group booked: $(cat "$TMP/out")"
assert_eq "$(q "select count(*) from clearing_reconcile_match where tenant = 'grp' and rule = 'msg_id'")" 2 \
	"group status: a match per record of the message"
assert_eq "$(q "select count(*) from clearing_statement_item where tenant = 'grp' and item = 'status'
                and natural_key like '%|grp#1'")" 1 "group status: keyed grp#1"

# an ACH return (R01 of a debit: the money goes back, a debit of ours) by
# its own trace: matched to the ach.return (the original entry is not
# loaded here: no original, and no late flag without it)
expect_exit 0 cl load --tenant ret "$TESTDATA/ach/corpus/moov-io-ach/test/testdata/return-WEB.ach"
$GEN account=US00RET ccy=USD date=2000-01-03 seq=7 >"$TMP/s7.xml" <<S
12354 USD DBIT 2000-01-03 trace=091000017611242 rtr=R01
4565 USD DBIT 2000-01-03 trace=021000029461242 rtr=R03
S
expect_exit 10 cl reconcile --tenant ret --format json "$TMP/s7.xml"
cat "$TMP/out" >>"$J"
grep -q '"status":"matched","reason":"matched".*"line":8,.*"rule":"trace","reference":"091000017611242","record":{"kind":"ach.return",.*"original":null' "$TMP/out" ||
	fail "ACH return: $(cat "$TMP/out")"
grep -q '"status":"exception","reason":"differs",.*"line":9,.*"record":{"kind":"ach.return"' "$TMP/out" ||
	fail "ACH return of a credit booked as a debit: $(cat "$TMP/out")"

# a NOC (COR entry, no money moves) of entry 1 of an ACH file, effective
# on the statement's day: the bank books entry 1's return, entry 2 as it
# is.  The return is no return of ours (only the NOC names that original:
# not an exception against the NOC), entry 2 matches by its own trace
# (the NOC is no second candidate), and the NOC is never unmatched ours
# (entry 1 is: the bank booked its return, not it)
"$CL_TOOLS/gen_ach" --entries 2 --seed 3 --effective 260303 >"$TMP/n.ach"
sed 's/^\(5220.*Vendor Pay      \)000000/\1260303/' \
	"$TESTDATA/ach/corpus/moov-io-ach/test/testdata/cor-example.ach" >"$TMP/cor.ach"
expect_exit 0 cl load --tenant noc "$TMP/n.ach"
expect_exit 0 cl load --tenant noc "$TMP/cor.ach"
assert_eq "$(q "select kind || ' ' || original_trace || ' ' || value_date from clearing_record
                where tenant = 'noc' and kind = 'ach.noc'")" "ach.noc 121042880000001 2026-03-03" "NOC loaded"
n1=$(q "select amount_minor from clearing_record where tenant = 'noc' and trace_number = '121042880000001' and kind = 'ach.entry'")
n2=$(q "select amount_minor from clearing_record where tenant = 'noc' and trace_number = '121042880000002'")
$GEN account=US00NOC ccy=USD date=2026-03-03 seq=8 >"$TMP/s8.xml" <<S
$n1 USD CRDT 2026-03-03 trace=121042880000001 rtr=R01
$n2 USD CRDT 2026-03-03 trace=121042880000002
S
expect_exit 10 cl reconcile --tenant noc --format json --ach-company 1100000000,121042882 "$TMP/s8.xml"
cat "$TMP/out" >>"$J"
assert_eq "$(recon_st "$TMP/out" | tr '\n' ';')" \
	"8 unmatched_theirs return_not_ours;9 matched matched;ours 1100000000|121042880000001|2026-03-03;" \
	"NOC: never matched, never unmatched ours"
grep -q '"line":8,.*"original":{"kind":"ach.entry"' "$TMP/out" || fail "NOC: the return names entry 1: $(cat "$TMP/out")"
! grep -q '"kind":"ach.noc"' "$TMP/out" || fail "NOC in the answer: $(cat "$TMP/out")"

# E2E-7-1 booked again on another statement: an exception, not a match
$GEN account=$A date=2026-03-05 seq=5 >"$TMP/s5.xml" <<S
$a1 EUR DBIT 2026-03-05 e2e=E2E-7-1
S
expect_exit 10 cl reconcile "$TMP/s5.xml"
grep -q '^exception .*: already matched by an entry of another statement$' "$TMP/out" ||
	fail "booked twice over two statements: $(cat "$TMP/out")"

# without files: the loaded statements no run has reconciled (here only
# S6, loaded by load), then none
$GEN account=$A date=2026-03-06 seq=6 >"$TMP/s6.xml" </dev/null
expect_exit 0 cl load "$TMP/s6.xml"
expect_exit 0 cl reconcile --format csv
head -n 1 "$TMP/out" | grep -q '^"status","reason","statement",' || fail "csv header: $(cat "$TMP/out")"
grep -q 'reconcile run [0-9]*: 1 statement: 0 matched' "$TMP/err" || fail "pending: $(cat "$TMP/err")"
expect_exit 0 cl reconcile
grep -q 'reconcile run [0-9]*: 0 statements' "$TMP/out" || fail "nothing pending: $(cat "$TMP/out")"

# show says which statement entry matched a record
expect_exit 0 cl show --verbose --e2e E2E-7-1
grep -A6 '^reconciled:' "$TMP/out" | grep -q 'entry_file .*s1.xml' || fail "show: $(cat "$TMP/out")"
expect_exit 0 cl show --format json --e2e E2E-7-1
cat "$TMP/out" >>"$J"

# not a statement; standard input; an unknown reference
expect_exit 3 cl reconcile "$TMP/a.ach"
grep -q 'a.ach:1: error: a clearing file (nacha), not a bank statement or status report' "$TMP/err" || fail "ach: $(cat "$TMP/err")"
grep -q 'expected camt.052, camt.053, camt.054, BAI2, MT940, a bank CSV export (--csv-map), pacs.002 or pain.002' "$TMP/err" ||
	fail "not_a_statement names every statement format read: $(cat "$TMP/err")"
expect_exit 2 cl reconcile -
expect_exit 2 cl reconcile --match e2e,iban "$TMP/s1.xml"

# one record found by two references of an entry (its EndToEndId and its
# InstrId, each probed by its own index) is one candidate, not "several";
# a reference the run does not match by finds nothing
i3=$(q "select instr_id from clearing_record where end_to_end_id = 'E2E-7-3'")
[ -n "$i3" ] || fail "E2E-7-3 has no InstrId"
$GEN account=$A date=2026-03-03 seq=9 >"$TMP/s9.xml" <<S
$a3 EUR DBIT 2026-03-03 e2e=E2E-7-3 instr=$i3
S
expect_exit 0 cl reconcile --format json "$TMP/s9.xml"
grep -q '"status":"matched","reason":"matched".*"rule":"e2e"' "$TMP/out" ||
	fail "two references, one record: $(cat "$TMP/out")"
$GEN account=$A date=2026-03-03 seq=10 >"$TMP/s10.xml" <<S
$a3 EUR DBIT 2026-03-03 instr=$i3
S
expect_exit 10 cl reconcile --match e2e --format json "$TMP/s10.xml"
assert_eq "$(recon_st "$TMP/out" | head -n 1)" "8 unmatched_theirs no_record" \
	"an InstrId when the run matches by EndToEndId only"
# per account (a bank's own use of the fields): the account's references,
# not --match's (E2E-7-3 is S9's: found by its InstrId, it is taken); the
# run records both
expect_exit 10 cl reconcile --match e2e --match-account "$A=instr_id" --format json "$TMP/s10.xml"
assert_eq "$(recon_st "$TMP/out" | head -n 1)" "8 exception taken" \
	"the account's InstrId over --match e2e"
expect_exit 10 cl reconcile --match instr_id --match-account "$A=e2e" \
	--match-account "GB33BUKB20201555555555=instr_id" --format json "$TMP/s10.xml"
assert_eq "$(recon_st "$TMP/out" | head -n 1)" "8 unmatched_theirs no_record" \
	"the account's EndToEndId over --match instr_id"
assert_eq "$(q "select refs from clearing_reconcile_run order by run_id desc limit 1")" \
	"instr_id; $A=e2e; GB33BUKB20201555555555=instr_id" "the run's references, each account's"
for bad in "=e2e" "$A=" "$A=e2e,bogus" "$A"; do
	expect_exit 2 cl reconcile --match-account "$bad" "$TMP/s10.xml"
	grep -q 'invalid --match-account' "$TMP/err" || fail "--match-account $bad: $(cat "$TMP/err")"
done
expect_exit 2 cl reconcile --match-account "$A=e2e" --match-account "$A=trace" "$TMP/s10.xml"
grep -q "account $A twice" "$TMP/err" || fail "an account twice: $(cat "$TMP/err")"
set --
for i in $(seq 1 33); do set -- "$@" --match-account "ACC$i=e2e"; done
expect_exit 2 cl reconcile "$@" "$TMP/s10.xml"
grep -q "at most 32 --match-account at once" "$TMP/err" || fail "33 accounts: $(cat "$TMP/err")"
set --

# a batch entry whose sum is not its PmtInf's (a cent more) differs; one
# whose PmtInf we do not have has no batch; an ACH entry the bank booked
# twice in one statement: the first matched, the second an exception
pmt1=$(q "select sum(amount_minor) from clearing_record where pmt_inf_id = 'PMT-1'")
t6=121042880000006
l6=$(q "select amount_minor || ' USD ' || case direction when 'credit' then 'DBIT' else 'CRDT' end
        from clearing_record where trace_number = '$t6'")
$GEN account=$A date=2026-03-03 seq=12 >"$TMP/s12.xml" <<S
$((pmt1 + 1)) EUR DBIT 2026-03-03 batch=3 pmtinf=PMT-1
500 EUR DBIT 2026-03-03 batch=2 pmtinf=PMT-NONE
S
expect_exit 10 cl reconcile --format json "$TMP/s12.xml"
assert_eq "$(recon_st "$TMP/out" | grep -v '^ours' | tr '\n' ';')" \
	"8 exception batch_differs;9 unmatched_theirs no_batch;" "batch differs, no batch"
$GEN account=GB33BUKB20201555555555 ccy=USD date=2026-03-03 seq=13 >"$TMP/s13.xml" <<S
$l6 2026-03-03 trace=$t6
$l6 2026-03-03 trace=$t6
S
expect_exit 10 cl reconcile --format json "$TMP/s13.xml"
assert_eq "$(recon_st "$TMP/out" | grep -v '^ours' | tr '\n' ';')" \
	"8 matched matched;9 exception booked_twice;" "booked twice in one statement"

# pacs.002 statuses after the booking: a payment's second status (ACSP,
# then ACSC) is matched as the first was, never "taken"; a rejection of a
# payment a statement booked before (E2E-7-3, booked by S9) is an exception
sts() { # MSGID E2E STATUS
	cat <<X
<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pacs.002.001.10"><FIToFIPmtStsRpt>
<GrpHdr><MsgId>$1</MsgId><CreDtTm>2026-03-04T10:00:00</CreDtTm></GrpHdr>
<OrgnlGrpInfAndSts><OrgnlMsgId>MSG-7</OrgnlMsgId><OrgnlMsgNmId>pain.001.001.09</OrgnlMsgNmId></OrgnlGrpInfAndSts>
<TxInfAndSts><OrgnlEndToEndId>$2</OrgnlEndToEndId><TxSts>$3</TxSts></TxInfAndSts>
</FIToFIPmtStsRpt></Document>
X
}
sts STS-P E2E-7-1 ACSP >"$TMP/stsp.xml"
sts STS-C E2E-7-1 ACSC >"$TMP/stsc.xml"
expect_exit 0 cl reconcile --format json "$TMP/stsp.xml"
expect_exit 0 cl reconcile --format json "$TMP/stsc.xml"
grep -q '"status":"matched","reason":"matched".*"item":"status".*"payment_status":"ACSC"' "$TMP/out" ||
	fail "a second status: $(cat "$TMP/out")"
sts STS-R E2E-7-3 RJCT >"$TMP/stsr.xml"
expect_exit 10 cl reconcile --format json "$TMP/stsr.xml"
grep -q '"status":"exception","reason":"rejected_booked".*"item":"status".*"payment_status":"RJCT"' "$TMP/out" ||
	fail "rejected after the booking: $(cat "$TMP/out")"

# two runs at once over one statement: the second waits for the first
# (reconcile_lock, held here first so that both wait), then finds the match
# recorded: recorded once, both answers the same
$GEN account=$A date=2026-03-03 seq=11 >"$TMP/s11.xml" <<S
$a2 EUR DBIT 2026-03-03 e2e=E2E-7-2
S
expect_exit 0 cl load "$TMP/s11.xml"
hold_recon_lock default
"$CL_BIN" reconcile --format json "$TMP/s11.xml" >"$TMP/r1.out" 2>"$TMP/r1.err" &
r1=$!
"$CL_BIN" reconcile --format json "$TMP/s11.xml" >"$TMP/r2.out" 2>"$TMP/r2.err" &
r2=$!
wait_advisory false 2 "the runs never waited"
release_recon_lock
rc1=0; wait "$r1" || rc1=$?
rc2=0; wait "$r2" || rc2=$?
assert_eq "$rc1 $rc2" "0 0" "both runs: $(cat "$TMP/r1.err" "$TMP/r2.err")"
assert_eq "$(cat "$TMP/r1.out" "$TMP/r2.out" | sed -n 's/.*"new_matches":\([0-9]*\).*/\1/p' | sort | tr '\n' ' ')" \
	"0 1 " "one run recorded the match, the other found it recorded"
assert_eq "$(q "select count(*) from clearing_reconcile_match m join clearing_statement_item s
               on s.tenant = m.tenant and s.kind = m.entry_kind and s.natural_key = m.entry_key
               where s.seq_nb = '11'")" 1 \
	"the match of the statement recorded once"
grep -v reconcile_summary "$TMP/r1.out" >"$TMP/r1.items"
grep -v reconcile_summary "$TMP/r2.out" >"$TMP/r2.items"
cmp -s "$TMP/r1.items" "$TMP/r2.items" || fail "two answers: $(diff "$TMP/r1.items" "$TMP/r2.items")"

# a whole ACH file booked in one entry (tenant achfile: its 4 entries in
# two batches, count 4 and the file's net): matched by the file of its
# first trace, each of the 4 recorded; the same file a cent off, in another
# statement, is the file that differs (its count is the entry's), not its
# first batch; a count that is neither a batch's nor the file's, no match
"$CL_TOOLS/gen_ach" --entries 4 --batch-size 2 --seed 5 --start 100 --effective 260304 >"$TMP/f.ach"
expect_exit 0 cl load --tenant achfile "$TMP/f.ach"
assert_eq "$(q "select count(distinct batch_number) || ' ' || count(*) from clearing_record
               where tenant = 'achfile'")" "2 4" "the file: two batches, 4 entries"
fnet=$(q "select sum(case direction when 'credit' then -amount_minor else amount_minor end)
          from clearing_record where tenant = 'achfile'")
fline() { # NET COUNT: a statement line of that net, as booked
	if [ "$1" -ge 0 ]; then echo "$1 USD CRDT 2026-03-04 batch=$2 traces=$FT"; else echo "$((-$1)) USD DBIT 2026-03-04 batch=$2 traces=$FT"; fi
}
FT=121042880000101,121042880000102,121042880000103,121042880000104
fline "$fnet" 4 | $GEN account=GB33BUKB20201555555555 ccy=USD date=2026-03-04 seq=30 >"$TMP/s30.xml"
expect_exit 0 cl reconcile -v --tenant achfile --ach-company 1100000000 "$TMP/s30.xml"
grep -q '^matched .*|#1 line 8: .* trace_file 121042880000101: a whole ACH file of 4 records, count and sum exact$' "$TMP/out" ||
	fail "ACH file: $(cat "$TMP/out")"
assert_eq "$(q "select count(*) || ' ' || min(rule) from clearing_reconcile_match where tenant = 'achfile'")" \
	"4 trace_file" "each record of the file matched once"
fline "$((fnet + 1))" 4 | $GEN account=GB33BUKB20201555555555 ccy=USD date=2026-03-04 seq=31 >"$TMP/s31.xml"
expect_exit 10 cl reconcile --tenant achfile --format json "$TMP/s31.xml"
grep -q '"status":"exception","reason":"batch_differs","detail":"our ACH file has 4 records netting '"$fnet"' as booked.*"rule":"trace_file"' "$TMP/out" ||
	fail "ACH file a cent off: $(cat "$TMP/out")"
cat "$TMP/out" >>"$J"
FT=121042880000101,121042880000102,121042880000103
fline "$fnet" 3 | $GEN account=GB33BUKB20201555555555 ccy=USD date=2026-03-04 seq=32 >"$TMP/s32.xml"
expect_exit 10 cl reconcile --tenant achfile --format json "$TMP/s32.xml"
grep -q '"status":"exception","reason":"batch_differs",.*"rule":"trace_batch"' "$TMP/out" ||
	fail "ACH count of neither: $(cat "$TMP/out")"
assert_eq "$(q "select count(*) from clearing_reconcile_match where tenant = 'achfile'")" 4 \
	"nothing recorded for a file that differs"

# every object valid against the schema
python3 "$CHECK" "$SCHEMA" --expect reconcile,reconcile_summary,reconciled,record "$J" ||
	fail "JSON output not valid against the schema"

# statements and runs are append-only: nothing here updated or deleted
# a row of the loader's tables (every load row's counts are its own)
assert_eq "$(q "select count(*) from clearing_load l where new_count <> (select count(*)
               from clearing_statement_item i where i.load_id = l.load_id)
               and format in ('iso20022', 'bai2') and message_type like 'camt%' and outcome = 'committed'")" 0 \
	"every statement load's new count is its items"
echo "ok"
