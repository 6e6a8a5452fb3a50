#!/bin/sh
# Grouped matching (sql/loader/reconcile.sql reconcile_group, reconcile_split;
# docs/design/0042-matching-rules.md): an entry without references for
# the exact sum of one PmtInf of ours that day is matched to its records;
# two sets of that sum make a suggestion that names none (accept refused);
# a payment booked in two entries of its reference adding up to it is
# matched by both (split); a second run over the statement says the same.
. "$(dirname "$0")/lib.sh"
: "${CL_TOOLS:?}"
db_new
cl init ${CL_INIT_ARGS:-} >/dev/null
GEN="python3 $CL_ROOT/tests/db/stmt_gen.py"
A=DE69784865475539195432

# file 1: PMT-1 (E2E-9-1..3), PMT-2 (4..6), PMT-3 (7, 8), all 2026-03-03;
# file 2 the same amounts under other ids, only its PMT-3 dated 2026-03-03
"$CL_TOOLS/gen_iso" --type pain.001 --tx 8 --per-pmtinf 3 --seed 9 >"$TMP/p1.xml"
python3 - "$TMP/p1.xml" >"$TMP/p2.xml" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
t = t.replace("E2E-9-", "E2E-X-").replace("<UETR>", "<UETR>f", -1)
t = re.sub(r"<UETR>f.", "<UETR>f", t)
t = re.sub(r"<MsgId>([^<]*)</MsgId>", r"<MsgId>\1-X</MsgId>", t)
def day(m):
    b = m.group(0)
    return b if "<PmtInfId>PMT-3<" in b else b.replace("2026-03-03", "2026-03-05")
t = re.sub(r"<PmtInf>.*?</PmtInf>", day, t, flags=re.S)
sys.stdout.write(t)
PY
expect_exit 0 cl load "$TMP/p1.xml"
expect_exit 0 cl load "$TMP/p2.xml"
assert_eq "$(q "select count(*) || ' ' || count(*) filter (where value_date = '2026-03-03') from clearing_record")" \
	"16 10" "two files, file 2's PMT-3 on the day"
amt() { q "select amount_minor from clearing_record where end_to_end_id = 'E2E-9-$1'"; }
sum() { q "select sum(amount_minor) from clearing_record where end_to_end_id like 'E2E-9-%' and pmt_inf_id = '$1'"; }
p1=$(sum PMT-1) p3=$(sum PMT-3) a4=$(amt 4)
$GEN account=$A date=2026-03-03 seq=1 >"$TMP/s.xml" <<S
$p1 EUR DBIT 2026-03-03
1000 EUR DBIT 2026-03-03 e2e=E2E-9-4
$((a4 - 1000)) EUR DBIT 2026-03-03 e2e=E2E-9-4
$p3 EUR DBIT 2026-03-03
777 EUR DBIT 2026-03-03
S
# line, status, reason, rule, records of each entry; then
# unmatched ours' e2e
st() {
	python3 - "$1" <<'PY'
import json, sys
ours = []
for l in open(sys.argv[1]):
    o = json.loads(l)
    if o.get("type") != "reconcile":
        continue
    if o.get("entry"):
        print(o["entry"]["line"], o["status"], o["reason"], o.get("rule"), o.get("records"))
    elif o["status"] == "unmatched_ours":
        ours.append(o["record"]["natural_key"].split("|")[-1])
print("ours", " ".join(sorted(ours)))
PY
}
want="8 matched grouped group_pmt_inf_id 3
9 matched split e2e None
10 matched split e2e None
11 suggested suggested_group group_pmt_inf_id 2
12 unmatched_theirs no_record None None
ours E2E-9-5 E2E-9-6 E2E-9-7 E2E-9-8 E2E-X-7 E2E-X-8"
expect_exit 10 cl reconcile --format json "$TMP/s.xml"
cp "$TMP/out" "$TMP/r1.json"
assert_eq "$(st "$TMP/r1.json")" "$want" "grouped, split, ambiguous"
python3 "$CL_ROOT/tests/tools/json_output_check.py" "$CL_ROOT/man/clearing-load-output.schema.json" \
	--expect reconcile,reconcile_summary "$TMP/r1.json" || fail "JSON against the schema"
assert_eq "$(q "select string_agg(r.end_to_end_id || ' ' || m.rule, ';' order by r.end_to_end_id, m.entry_key)
               from clearing_reconcile_match m join clearing_record r
                 on r.kind = m.record_kind and r.natural_key = m.record_key")" \
	"E2E-9-1 group_pmt_inf_id;E2E-9-2 group_pmt_inf_id;E2E-9-3 group_pmt_inf_id;E2E-9-4 e2e;E2E-9-4 e2e" \
	"the group's three records and the split's two entries recorded"
# the ambiguous suggestion names no set: accept is refused
id=$(grep '"reason":"suggested_group"' "$TMP/r1.json" | sed -n 's/.*"id":"\(e[0-9]*\.[0-9]*\)".*/\1/p')
expect_exit 2 cl break accept "$id" --note "which set?"
grep -q "no suggestion of one record or one set of records" "$TMP/out" || fail "accept: $(cat "$TMP/out")"
# text
expect_exit 10 cl reconcile -v "$TMP/s.xml"
grep -q "no reference matched: the exact sum of 3 records of ours sharing a PmtInf" "$TMP/out" ||
	fail "text of a group: $(cat "$TMP/out")"
grep -q "2 sets of our records .* add up to it" "$TMP/out" || fail "text of an ambiguous group: $(cat "$TMP/out")"
grep -q "booked in several entries" "$TMP/out" || fail "text of a split: $(cat "$TMP/out")"
# a second run: the same answer, nothing recorded again
n=$(q "select count(*) from clearing_reconcile_match")
expect_exit 10 cl reconcile --format json "$TMP/s.xml"
assert_eq "$(st "$TMP/out")" "$want" "the second run"
assert_eq "$(q "select count(*) from clearing_reconcile_match")" "$n" "nothing recorded again"

# a reversal (RvslInd) of the bank's own entry on the same statement: the
# two paired, each the other's original, nothing recorded; a reversal
# sharing no reference with it stays unmatched theirs
$GEN account=$A date=2026-03-04 seq=2 >"$TMP/s2.xml" <<S
5555 EUR CRDT 2026-03-04 svcr=BANK-REF-1
5555 EUR DBIT 2026-03-04 svcr=BANK-REF-1 rvsl=1
6666 EUR DBIT 2026-03-04 svcr=BANK-REF-2 rvsl=1
S
n=$(q "select count(*) from clearing_reconcile_match")
expect_exit 10 cl reconcile --format json "$TMP/s2.xml"
python3 - "$TMP/out" >"$TMP/pairs" <<'PY'
import json, sys
for l in open(sys.argv[1]):
    o = json.loads(l)
    if o.get("type") == "reconcile" and o.get("entry"):
        g = o.get("original") or {}
        print(o["entry"]["line"], o["status"], o["reason"], (g.get("natural_key") or "-").split("|")[-1])
PY
assert_eq "$(tr '\n' ';' <"$TMP/pairs")" \
	"8 matched reversed_by_entry #2;9 matched reverses_entry #1;10 unmatched_theirs no_record -;" \
	"the reversal and its entry paired"
assert_eq "$(q "select count(*) from clearing_reconcile_match")" "$n" "a pair records nothing"
python3 "$CL_ROOT/tests/tools/json_output_check.py" "$CL_ROOT/man/clearing-load-output.schema.json" \
	--expect reconcile,reconcile_summary "$TMP/out" || fail "pairs: JSON against the schema"
# an ACH batch of ours booked as one amount without references (the entry
# names no trace): matched to the batch's entries (group_ach_batch), each
# of its records recorded; the day's other batches stay unmatched ours
"$CL_TOOLS/gen_ach" --entries 12 --batch-size 4 --seed 21 --effective 260306 >"$TMP/a.ach"
expect_exit 0 cl load --tenant achgrp "$TMP/a.ach"
# one batch of the file, of one direction, its sum as booked (a credit to
# a receiver is a debit of ours), a sum no other batch has
set -- $(q "with b as (
              select company_id, batch_number, count(*) n, sum(amount_minor) s,
                     min(direction) d, max(direction) d2
              from clearing_record where tenant = 'achgrp' and kind = 'ach.entry'
              group by company_id, batch_number)
            select concat_ws(' ', company_id, batch_number, n, s,
                             case d when 'credit' then 'DBIT' else 'CRDT' end)
            from b where d = d2 and n >= 2
              and (select count(*) from b b2 where b2.s = b.s) = 1
            order by batch_number limit 1")
[ $# = 5 ] || fail "no batch of one direction in the generated file"
co=$1 bn=$2 bcount=$3 bsum=$4 bway=$5
$GEN account=$A ccy=USD date=2026-03-06 seq=5 >"$TMP/s5.xml" <<S
$bsum USD $bway 2026-03-06
S
expect_exit 0 cl reconcile --tenant achgrp --ach-company "$co" --format json "$TMP/s5.xml"
assert_eq "$(st "$TMP/out" | head -1)" "8 matched grouped group_ach_batch $bcount" \
	"an ACH batch booked as one amount"
grep -q 'the exact sum of 4 records of ours sharing an ACH batch' "$TMP/out" ||
	fail "text of an ACH batch group: $(cat "$TMP/out")"
assert_eq "$(q "select count(*) || ' ' || count(distinct r.batch_number) || ' ' || min(r.batch_number)
               from clearing_reconcile_match m join clearing_record r
                 on r.tenant = m.tenant and r.kind = m.record_kind and r.natural_key = m.record_key
               where m.tenant = 'achgrp' and m.rule = 'group_ach_batch'")" \
	"$bcount 1 $bn" "the batch's entries recorded, no other"
echo "ok"
