# BAI2 ACH settlement lines (clearing-load(1) RECONCILIATION): a type 16
# detail has no item count, so a line never matches a batch; a line of an
# ACH type code whose amount is the net sum of one ACH batch (else one
# file) of ours that day is suggested naming it, and that batch's records
# are not also unmatched ours.  The BAI2 file is written from the
# specification (the layout is at the top of parsers/statement_bai2.c).
. "$(dirname "$0")/lib.sh"
: "${CL_TOOLS:?}"
db_new
cl init ${CL_INIT_ARGS:-} >/dev/null

# ours, all dated Tuesday 2026-03-03, company 1100000000: file 1, two
# batches of 3; file 2, two batches of 2 (other traces)
"$CL_TOOLS/gen_ach" --entries 6 --batch-size 3 --seed 3 --effective 260303 >"$TMP/f1.ach"
"$CL_TOOLS/gen_ach" --entries 4 --batch-size 2 --start 10 --seed 4 --effective 260303 >"$TMP/f2.ach"
expect_exit 0 cl load --tenant settle "$TMP/f1.ach"
expect_exit 0 cl load --tenant settle "$TMP/f2.ach"
L1=$(q "select min(load_id) from clearing_load where tenant = 'settle'")
L2=$(q "select max(load_id) from clearing_load where tenant = 'settle'")
# net WHERE: the net as booked on our account (a credit to a receiver is
# a debit of ours) of the records WHERE
net() {
	q "select sum(case direction when 'credit' then -amount_minor else amount_minor end)
	   from clearing_record where tenant = 'settle' and $1"
}
B1=$(net "load_id = $L1 and batch_number = '0000001'")
B2=$(net "load_id = $L1 and batch_number = '0000002'")
F2=$(net "load_id = $L2")
[ "$F2" != "$(net "load_id = $L2 and batch_number = '0000001'")" ] &&
	[ "$F2" != "$(net "load_id = $L2 and batch_number = '0000002'")" ] ||
	fail "file 2 nets as one of its batches: the test needs them apart"

# detail NET CODE_CREDIT CODE_DEBIT REF TEXT: a 16 of that net amount, the
# credit or debit type code by its sign
detail() {
	if [ "$1" -ge 0 ]; then
		echo "16,$2,$1,0,$4,,$5/"
	else
		echo "16,$3,$((-$1)),0,$4,,$5/"
	fi
}
{
	detail "$B1" 166 466 SREF1 "ACH SETTLEMENT"
	detail "$F2" 169 469 SREF2 "ACH SETTLEMENT FILE"
	detail 12345 166 466 SREF3 "ACH SETTLEMENT NOT OURS"
	detail "$B2" 195 495 SREF4 "INCOMING WIRE"
} >"$TMP/details"
# bai DETAILS FILE_ID ACCOUNT: a BAI2 file of 2026-03-03 with those 16
# records.  The closing ledger balance is the opening (0) plus credits
# less debits; the 49 total adds up the 03 and 16 amounts as written;
# record counts include the header and the trailer
bai() {
	_close=$(awk -F, '{ n += ($2 < 400 ? $3 : -$3) } END { print n }' "$1")
	_total=$(awk -F, -v c="$_close" '{ n += $3 } END { print n + c }' "$1")
	_n=$(wc -l <"$1")
	echo "01,BANKSEND,CUSTRECV,260303,2300,$2,80,,2/"
	echo "02,CUSTRECV,BANKSEND,1,260303,2400,USD,2/"
	echo "03,$3,USD,010,0,,,015,$_close,,/"
	cat "$1"
	echo "49,$_total,$((_n + 2))/"
	echo "98,$_total,1,$((_n + 4))/"
	echo "99,$_total,1,$((_n + 6))/"
}
bai "$TMP/details" S0303 555000222 >"$TMP/day.bai"
expect_exit 0 cl validate "$TMP/day.bai"

expect_exit 10 cl reconcile --tenant settle --ach-company 1100000000 --format json "$TMP/day.bai"
cp "$TMP/out" "$TMP/r.json"
# line 4: batch 1 of file 1; line 5: file 2 (its batches each net to
# another amount); line 6: no batch of that sum; line 7: a wire is no ACH
# line, though its amount is batch 2's; batch 2's records are unmatched
# ours, those of the suggested batch and file are not
assert_eq "$(recon_st "$TMP/r.json" | sed 's/|12104288000000\([0-9]\)|2026-03-03/ \1/' | tr '\n' ';')" \
	"4 suggested suggested_batch;5 suggested suggested_batch;6 unmatched_theirs no_record;7 unmatched_theirs no_record;ours 1100000000 4;ours 1100000000 5;ours 1100000000 6;" \
	"BAI2 settlement lines"
grep -q '"line":4,.*"rule":"ach_batch_sum","reference":"'"$L1"'/1100000000/0000001","record":null,"records":3,' "$TMP/r.json" ||
	fail "batch 1 named: $(grep '"line":4,' "$TMP/r.json")"
grep -q '"line":5,.*"rule":"ach_file_sum","reference":"'"$L2"'","record":null,"records":4,' "$TMP/r.json" ||
	fail "file 2 named: $(grep '"line":5,' "$TMP/r.json")"
grep -q '"type":"reconcile_summary".*"matched":0,"unmatched_ours":3,"unmatched_theirs":2,"exception":0,"suggested":2,"new_matches":0,' "$TMP/r.json" ||
	fail "summary: $(tail -n 1 "$TMP/r.json")"
assert_eq "$(q "select count(*) from clearing_reconcile_match where tenant = 'settle'")" 0 \
	"a suggestion records no match"
python3 "$CL_ROOT/tests/tools/json_output_check.py" "$CL_ROOT/man/clearing-load-output.schema.json" \
	--expect reconcile,reconcile_summary "$TMP/r.json" || fail "JSON output not valid against the schema"

# the text output says what the suggestion is, and that it is no match
expect_exit 10 cl reconcile --tenant settle --ach-company 1100000000 "$TMP/day.bai"
grep -q "^suggested .* line 4: .*: no reference matched: the net sum of our ACH batch (load/company/batch) $L1/1100000000/0000001, 3 records dated that day (a suggestion, not a match: a BAI2 detail has no item count)$" "$TMP/out" ||
	fail "text: $(cat "$TMP/out")"

# accept a suggested batch (break accept): the entry and the batch's
# records, as the run listed them, one decision; the next run shows the
# line accepted and still lists batch 2's records (not the accepted ones)
eid() { grep "\"line\":$1," "$2" | sed -n 's/.*"id":"\(e[0-9]*\.[0-9]*\)".*/\1/p'; }
S4=$(eid 4 "$TMP/r.json")
S5=$(eid 5 "$TMP/r.json")
expect_exit 0 cl break accept --tenant settle "$S4" --note "batch 1 settled in one amount"
rids() { q "select string_agg('r' || load_id || '.' || ordinal, ' ' order by ordinal)
            from clearing_record where tenant = 'settle' and $1"; }
assert_eq "$(q "select string_agg(item_id, ' ' order by version, item_id) from clearing_break_decision
               where tenant = 'settle' and side = 'record' and action = 'accepted'")" \
	"$(rids "load_id = $L1 and batch_number = '0000001'")" "accepted: batch 1's three records"
assert_eq "$(q "select count(distinct decision_id) || ' ' || count(*) from clearing_break_decision
               where tenant = 'settle'")" "1 4" "one decision: the line and its three records"
expect_exit 0 cl break accept --tenant settle "$S5" --note "file 2 settled in one amount"
assert_eq "$(q "select count(*) from clearing_break_decision where tenant = 'settle' and side = 'record'
               and item_id in (select 'r' || load_id || '.' || ordinal from clearing_record
                               where tenant = 'settle' and load_id = $L2)")" 4 "accepted: file 2's four records"
expect_exit 2 cl break accept --tenant settle "$(eid 6 "$TMP/r.json")" --note "no suggestion"
expect_exit 10 cl reconcile --tenant settle --ach-company 1100000000 --format json "$TMP/day.bai"
assert_eq "$(recon_st "$TMP/out" | sed 's/|12104288000000\([0-9]\)|2026-03-03/ \1/' | tr '\n' ';')" \
	"4 accepted suggested_batch;5 accepted suggested_batch;6 unmatched_theirs no_record;7 unmatched_theirs no_record;ours 1100000000 4;ours 1100000000 5;ours 1100000000 6;" \
	"the next run: the lines accepted"

# ACH returns settled in one amount (168 credit, 468 debit): two returns of
# ours dated 03-03 in one batch (tenant rets), a 168 line of their net sum
# is suggested naming their batch, and they are not unmatched ours; a 168
# line of another amount is no record of ours
R1=55192 R2=1234
python3 - "$R1" "$R2" >"$TMP/ret.ach" <<'PY'
import sys
a = [int(x) for x in sys.argv[1:]]
rows = ["101 121042882 1210428822603030000A094101BANK                   COMPANY                        ",
        "5220COMPANY 0                           1100000000PPDRETURN    260303260303   1121042880000001"]
for i, amt in enumerate(a):
    trace = "1210428800009%02d" % (i + 1)
    rows.append("621121042882123456789        %010dRETURN %-8dRECEIVER %-13d  1%s" % (amt, i + 1, i + 1, trace))
    rows.append("799R01%-15s      12104288%44s%s" % ("1210428800000%02d" % (i + 1), "", trace))
n = 2 * len(a)
h = 12104288 * len(a)
rows.append("8220%06d%010d%012d%012d1100000000%19s%6s121042880000001" % (n, h, 0, sum(a), "", ""))
rows.append("9000001000001%08d%010d%012d%012d%39s" % (n, h, 0, sum(a), ""))
for r in rows:
    assert len(r) == 94, (len(r), r)
    print(r)
PY
expect_exit 0 cl load --tenant rets "$TMP/ret.ach"
assert_eq "$(q "select count(*) || ' ' || sum(case direction when 'credit' then amount_minor else -amount_minor end)
               from clearing_record where tenant = 'rets' and kind = 'ach.return'
               and value_date = '2026-03-03'")" "2 $((R1 + R2))" "the returns loaded, credits"
LR=$(q "select max(load_id) from clearing_load where tenant = 'rets'")
{
	detail "$((R1 + R2))" 168 468 RREF1 "ACH RETURN SETTLEMENT"
	detail 777 168 468 RREF2 "ACH RETURN SETTLEMENT NOT OURS"
} >"$TMP/rdetails"
bai "$TMP/rdetails" R0303 555000333 >"$TMP/ret.bai"
expect_exit 10 cl reconcile --tenant rets --ach-company 1100000000 --format json "$TMP/ret.bai"
assert_eq "$(recon_st "$TMP/out" | tr '\n' ';')" "4 suggested suggested_batch;5 unmatched_theirs no_record;" \
	"BAI2 return settlement lines"
grep -q '"line":4,.*"rule":"ach_return_batch_sum","reference":"'"$LR"'/1100000000/0000001","record":null,"records":2,' "$TMP/out" ||
	fail "the returns' batch named: $(grep '"line":4,' "$TMP/out")"
python3 "$CL_ROOT/tests/tools/json_output_check.py" "$CL_ROOT/man/clearing-load-output.schema.json" \
	--expect reconcile,reconcile_summary "$TMP/out" || fail "returns: JSON output not valid against the schema"
expect_exit 10 cl reconcile --tenant rets --ach-company 1100000000 "$TMP/ret.bai"
grep -q "^suggested .* line 4: .*: no reference matched: the net sum of our ACH returns of the batch (load/company/batch) $LR/1100000000/0000001, 2 records dated that day" "$TMP/out" ||
	fail "returns text: $(cat "$TMP/out")"
echo "ok"
