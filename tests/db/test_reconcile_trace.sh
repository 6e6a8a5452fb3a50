# reconcile by ACH trace only within the trace window (clearing-load(1)
# RECONCILIATION, migration 020's clearing_trace_window): the record's
# effective date at most 2 banking days from the entry's date.  Trace
# numbers restart every day, so the history holds the same trace on other
# days, here with the same amounts (the same generator seed).
. "$(dirname "$0")/lib.sh"
: "${CL_TOOLS:?}"
db_new
cl init ${CL_INIT_ARGS:-} >/dev/null
GEN="python3 $CL_ROOT/tests/db/stmt_gen.py"
T1=121042880000001 T2=121042880000002 T3=121042880000003

# two weeks back (Monday 2026-02-16): traces 1-3; Monday 2026-03-02:
# traces 1-2 again, the same amounts; Friday 2026-03-13: traces 1-2,
# other amounts
"$CL_TOOLS/gen_ach" --entries 3 --seed 3 --effective 260216 >"$TMP/old.ach"
"$CL_TOOLS/gen_ach" --entries 2 --seed 3 --effective 260302 >"$TMP/mon.ach"
"$CL_TOOLS/gen_ach" --entries 2 --seed 5 --effective 260313 >"$TMP/fri.ach"
for f in old mon fri; do
	expect_exit 0 cl load --tenant win "$TMP/$f.ach"
done
assert_eq "$(q "select count(*) from clearing_record where tenant = 'win' and trace_number = '$T1'")" 3 \
	"the trace recurs on three days"

# line D TRACE DATE: a statement line of the record of TRACE dated D as
# the bank books it (a credit to the receiver is a debit of ours)
line() {
	q "select amount_minor || ' USD ' || case direction when 'credit' then 'DBIT' else 'CRDT' end
	          || ' $3 trace=' || trace_number
	   from clearing_record where tenant = 'win' and trace_number = '$2' and value_date = '$1'"
}
# recon SEQ DATE: reconcile statement SEQ of DATE (its lines on stdin)
recon() {
	$GEN account=US00WIN ccy=USD date="$2" seq="$1" >"$TMP/s$1.xml"
	set +e
	cl reconcile --tenant win --format json "$TMP/s$1.xml" >"$TMP/out" 2>"$TMP/err"
	set -e
	recon_st "$TMP/out" | tr '\n' ';'
}

# Wednesday 03-04, 2 banking days after Monday's trace 1: matched to
# Monday's record, the only candidate (two weeks back is outside: not
# "several"); trace 3 exists only two weeks back, with that amount: no
# record of ours, not a match to the old one
assert_eq "$({ line 2026-03-02 $T1 2026-03-04; line 2026-02-16 $T3 2026-03-04; } | recon 1 2026-03-04)" \
	"8 matched matched;9 unmatched_theirs no_record;" "two weeks back is outside the window"
grep -q '"line":8,.*"record":{"kind":"ach.entry","natural_key":"1100000000|'$T1'|2026-03-02"' "$TMP/out" ||
	fail "trace 1 matched to Monday's record: $(cat "$TMP/out")"

# Thursday 03-12, a banking day before Friday's trace 2 (a pre-funded
# credit origination debited early): matched
assert_eq "$(line 2026-03-13 $T2 2026-03-12 | recon 2 2026-03-12)" "8 matched matched;" \
	"a banking day before"
# Tuesday 03-17, 2 banking days (4 calendar days, over a weekend) after
# Friday's trace 1: matched
assert_eq "$(line 2026-03-13 $T1 2026-03-17 | recon 3 2026-03-17)" "8 matched matched;" \
	"2 banking days after, over a weekend"
# Wednesday 03-18, 3 banking days after Friday's trace 2: outside, no
# record of ours (and no suggestion: none of that amount is dated that day)
assert_eq "$(line 2026-03-13 $T2 2026-03-18 | recon 4 2026-03-18)" "8 unmatched_theirs no_record;" \
	"3 banking days after"

# a return booked by its original's trace is found by the return's own
# effective date: a return two weeks back is not this booking's
cat >"$TMP/ret.ach" <<'ACH'
101 121042882 1210428822602160000A094101BANK                   COMPANY                        
5220COMPANY 0                           1100000000PPDRETURN    260216260216   1121042880000001
621121042882123456789        0000055192RETURN 1       RECEIVER 1              1121042880000901
799R01121042880000001      12104288                                            121042880000901
822000000200121042880000000000000000000551921100000000                         121042880000001
9000001000001000000020012104288000000000000000000055192                                       
ACH
expect_exit 0 cl load --tenant win "$TMP/ret.ach"
assert_eq "$(q "select count(*) from clearing_record where tenant = 'win' and kind = 'ach.return'
                and original_trace = '$T1'")" 1 "the return loaded"
assert_eq "$(echo "55192 USD DBIT 2026-03-03 trace=$T1 rtr=R01" | recon 5 2026-03-03)" \
	"8 unmatched_theirs return_not_ours;" "a return two weeks back is not this one"

# a return of Friday's trace 1 (effective Monday 03-16), booked Tuesday
# 03-17: its original is Friday's entry of that trace and amount, a
# banking day before, not the entry of that trace two weeks back (which
# made it a late return): matched, Friday's entry named as the original
amt=$(q "select amount_minor from clearing_record where tenant = 'win' and trace_number = '$T1'
         and value_date = '2026-03-13'")
sed -e 's/260216260216/260316260316/' -e 's/0000901/0000902/g' \
	-e "/^6/s/0000055192/$(printf '%010d' "$amt")/" \
	-e "/^[89]/s/000000055192/$(printf '%012d' "$amt")/" "$TMP/ret.ach" >"$TMP/ret2.ach"
expect_exit 0 cl load --tenant win "$TMP/ret2.ach"
assert_eq "$(echo "$amt USD CRDT 2026-03-17 trace=$T1 rtr=R01" | recon 6 2026-03-17)" \
	"8 matched matched;" "a return of Friday's entry, a banking day after it"
grep -q '"original":{"kind":"ach.entry","natural_key":"1100000000|'$T1'|2026-03-13"' "$TMP/out" ||
	fail "the return's original is Friday's entry: $(cat "$TMP/out")"

# a return of Monday's trace 1 (effective Friday 03-06, 4 banking days
# after it), booked that Friday: R01's time frame is 2 banking days, so a
# late return (an exception), its original Monday's entry
sed -e 's/260216260216/260306260306/' -e 's/0000901/0000903/g' "$TMP/ret.ach" >"$TMP/ret3.ach"
expect_exit 0 cl load --tenant win "$TMP/ret3.ach"
assert_eq "$(echo "55192 USD CRDT 2026-03-06 trace=$T1 rtr=R01" | recon 7 2026-03-06)" \
	"8 exception late_return;" "a return 4 banking days after its entry"
grep -q '"original":{"kind":"ach.entry","natural_key":"1100000000|'$T1'|2026-03-02"' "$TMP/out" ||
	fail "the late return's original is Monday's entry: $(cat "$TMP/out")"
echo "ok"
