# pain.002, the bank's status report to the initiator, read as pacs.002 is:
# loaded idempotently (the same report again is all duplicate, one status
# changed is held), and reconcile attaches its statuses to the pain.001
# payments they answer -- a transaction's by its OrgnlEndToEndId, a
# payment information block's (PmtInfSts) to every payment of that block
# of the original message and to none of another block, the group's to
# every payment of the message -- and show of a payment says the status;
# a statement that does not book the rejected ones reports no break.
. "$(dirname "$0")/lib.sh"
: "${CL_TOOLS:?}"
db_new
cl init >/dev/null

# two blocks of two payments: PMT-1 (E2E-5-1, E2E-5-2), PMT-2 (E2E-5-3, E2E-5-4)
"$CL_TOOLS/gen_iso" --type pain.001 --tx 4 --per-pmtinf 2 --seed 5 --msg-id MSG-P >"$TMP/p.xml"
expect_exit 0 cl load "$TMP/p.xml"
sts() { # BLOCK1-STATUS TX3-STATUS
	cat <<X
<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.002.001.10"><CstmrPmtStsRpt>
<GrpHdr><MsgId>CS-1</MsgId><CreDtTm>2026-03-03T10:00:00</CreDtTm></GrpHdr>
<OrgnlGrpInfAndSts><OrgnlMsgId>MSG-P</OrgnlMsgId><OrgnlMsgNmId>pain.001.001.09</OrgnlMsgNmId><GrpSts>PART</GrpSts></OrgnlGrpInfAndSts>
<OrgnlPmtInfAndSts><OrgnlPmtInfId>PMT-1</OrgnlPmtInfId><PmtInfSts>$1</PmtInfSts><StsRsnInf><Rsn><Cd>AM04</Cd></Rsn></StsRsnInf></OrgnlPmtInfAndSts>
<OrgnlPmtInfAndSts><OrgnlPmtInfId>PMT-2</OrgnlPmtInfId>
<TxInfAndSts><OrgnlInstrId>I-3</OrgnlInstrId><OrgnlEndToEndId>E2E-5-3</OrgnlEndToEndId><TxSts>$2</TxSts><StsRsnInf><Rsn><Cd>AC01</Cd></Rsn></StsRsnInf></TxInfAndSts>
<TxInfAndSts><OrgnlEndToEndId>E2E-5-4</OrgnlEndToEndId><TxSts>ACCP</TxSts></TxInfAndSts>
</OrgnlPmtInfAndSts>
</CstmrPmtStsRpt></Document>
X
}
sts RJCT RJCT >"$TMP/s.xml"
sts RJCT ACCP >"$TMP/s2.xml"

# rows: the report, the group, block 1 and two transactions (block 2 says
# no PmtInfSts: no row); keyed pain.002|MsgId|grp#1, |pmt#1, |#1, |#2
expect_exit 0 cl load --format json "$TMP/s.xml"
grep -q '"new":5,"duplicate":0,"conflict":0' "$TMP/out" || fail "first: $(cat "$TMP/out")"
assert_eq "$(q "select string_agg(natural_key || ' ' || coalesce(pmt_inf_id, '-') || ' ' || coalesce(status, '-'), ', ' order by natural_key)
                from clearing_statement_item where kind = 'pain.002'")" \
	"pain.002|CS-1|#1 PMT-2 RJCT, pain.002|CS-1|#2 PMT-2 ACCP, pain.002|CS-1|grp#1 - PART, pain.002|CS-1|pmt#1 PMT-1 RJCT, pain.002|CS-1|stmt - -" "rows"
expect_exit 0 cl load --format json "$TMP/s.xml"
grep -q '"new":0,"duplicate":5,"conflict":0' "$TMP/out" || fail "again: $(cat "$TMP/out")"
# one status changed (RJCT to ACCP): a conflict, the file held
expect_exit 4 cl load --format json "$TMP/s2.xml"
grep -q '"conflict":1' "$TMP/out" || fail "changed: $(cat "$TMP/out")"

# reconcile: block 1's RJCT attaches to its two payments (not block 2's),
# the transaction's RJCT to E2E-5-3, the ACCP to E2E-5-4; the group's PART
# to all four
expect_exit 0 cl reconcile --format json "$TMP/s.xml"
grep -q '"detail":"a status of the whole original message (group status): attached to its 2 records".*"payment_status":"RJCT".*"rule":"msg_id","reference":"MSG-P"' "$TMP/out" ||
	fail "block status: $(cat "$TMP/out")"
m() { q "select string_agg(r.end_to_end_id, ' ' order by r.end_to_end_id)
         from clearing_reconcile_match m join clearing_statement_item s
           on s.tenant = m.tenant and s.kind = m.entry_kind and s.natural_key = m.entry_key
         join clearing_record r on r.tenant = m.tenant and r.kind = m.record_kind and r.natural_key = m.record_key
         where s.natural_key = 'pain.002|CS-1|$1'"; }
assert_eq "$(m 'pmt#1')" "E2E-5-1 E2E-5-2" "block 1's status: its payments only"
assert_eq "$(m '#1')" "E2E-5-3" "a transaction's status"
assert_eq "$(m '#2')" "E2E-5-4" "a transaction's status"
assert_eq "$(m 'grp#1')" "E2E-5-1 E2E-5-2 E2E-5-3 E2E-5-4" "the group's status"

# show of a payment of block 1 says it was rejected, and by what
expect_exit 0 cl show --e2e E2E-5-1
grep -q '^  status RJCT AM04 by pain.002 s.xml line 5 (rule msg_id, run [0-9]*)$' "$TMP/out" ||
	fail "show: $(cat "$TMP/out")"
expect_exit 0 cl show --e2e E2E-5-3 --format json
grep -q '"type":"reconciled".*"entry_kind":"pain.002".*"entry_item":"status","payment_status":"RJCT","status_reason":"AC01"' "$TMP/out" ||
	fail "show json: $(cat "$TMP/out")"
# the statement of the payments' day books only E2E-5-4: the three a
# status rejected were not to be booked (matched, reason rejected, the
# status named), no break; without the report they would be unmatched ours
A=$(q "select min(debtor_account) from clearing_record where kind = 'pain.001'")
day=$(q "select min(value_date) from clearing_record where kind = 'pain.001'")
a4=$(q "select amount_minor from clearing_record where end_to_end_id = 'E2E-5-4'")
echo "$a4 EUR DBIT $day e2e=E2E-5-4" |
	python3 "$CL_ROOT/tests/db/stmt_gen.py" account="$A" date="$day" >"$TMP/c.xml"
expect_exit 0 cl reconcile --format json "$TMP/c.xml"
for e in E2E-5-1 E2E-5-2 E2E-5-3; do
	grep '"natural_key":"[^"]*|'"$e"'"' "$TMP/out" | grep -q '"status":"matched","reason":"rejected","detail":"rejected before the bank booked it (pain.002 pain.002|CS-1|' ||
		fail "$e rejected: $(grep "$e" "$TMP/out")"
done
assert_eq "$(grep -c '"status":"unmatched_ours"' "$TMP/out")" 0 "no rejected payment a break"
echo ok
