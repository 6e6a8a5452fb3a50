#!/bin/sh
# Decisions on reconcile's breaks (clearing-load break; sql/027): accept a
# suggestion, match by hand, write off, reopen, each with who, when and
# why, recorded once; the next run shows a decided item with the decision
# as its status and no longer counts it a break; bulk by filter; two
# operators at once decide once; a decision killed (SIGKILL) before its
# COMMIT recorded nothing.  Needs the failpoint build (CL_BIN_FP).
. "$(dirname "$0")/lib.sh"
: "${CL_TOOLS:?}" "${CL_BIN_FP:?the failpoint build (make FAILPOINTS=1)}"
db_new
cl init ${CL_INIT_ARGS:-} >/dev/null
GEN="python3 $CL_ROOT/tests/db/stmt_gen.py"
SCHEMA="$CL_ROOT/man/clearing-load-output.schema.json"
CHECK="$CL_ROOT/tests/tools/json_output_check.py"
A=DE10718999515662907726

# ours: a pain.001 of 7; the statement books one exact, one a cent off
# (an exception), one without its reference (suggested), one of the
# bank's own (unmatched theirs), PMT-2 as a batch; E2E-7-7 is not booked
"$CL_TOOLS/gen_iso" --type pain.001 --tx 7 --per-pmtinf 3 --seed 7 >"$TMP/p.xml"
expect_exit 0 cl load "$TMP/p.xml"
amt() { q "select amount_minor from clearing_record where end_to_end_id = '$1'"; }
rid() { q "select 'r' || load_id || '.' || ordinal from clearing_record where end_to_end_id = '$1'"; }
a1=$(amt E2E-7-1) a2=$(amt E2E-7-2) a3=$(amt E2E-7-3)
pmt2=$(q "select sum(amount_minor) from clearing_record where pmt_inf_id = 'PMT-2'")
$GEN account=$A date=2026-03-03 seq=1 >"$TMP/s1.xml" <<S
$a1 EUR DBIT 2026-03-03 e2e=E2E-7-1
$((a2 + 1)) EUR DBIT 2026-03-03 e2e=E2E-7-2
$a3 EUR DBIT 2026-03-03
4242 EUR CRDT 2026-03-03 e2e=THEIRS-ONLY
$pmt2 EUR DBIT 2026-03-03 batch=3 pmtinf=PMT-2
S
expect_exit 10 cl reconcile --format json "$TMP/s1.xml"
cp "$TMP/out" "$TMP/r1.json"
python3 "$CHECK" "$SCHEMA" --expect reconcile,reconcile_summary "$TMP/r1.json" || fail "reconcile's JSON against the schema"
# id_of REASON FILE: the id of the item of that reason
id_of() { grep "\"reason\":\"$1\"" "$2" | sed -n 's/.*"id":"\([er][0-9.]*\)".*/\1/p'; }
status_of() { grep "\"id\":\"$1\"" "$2" | sed -n 's/.*"status":"\([a-z_]*\)".*/\1/p'; }
SUG=$(id_of suggested "$TMP/r1.json")
DIF=$(id_of differs "$TMP/r1.json")
THEIRS=$(id_of no_record "$TMP/r1.json")
OURS=$(id_of not_booked "$TMP/r1.json")
for v in "$SUG" "$DIF" "$THEIRS"; do
	case $v in e[0-9]*.[0-9]*) ;; *) fail "an entry's id: '$v': $(cat "$TMP/r1.json")" ;; esac
done
assert_eq "$OURS" "$(rid E2E-7-7)" "unmatched ours is named by its record"
assert_eq "$(grep -c '"status":"matched".*"id":null' "$TMP/r1.json")" 2 "a match has no id"
grep '"reason":"no_record"' "$TMP/r1.json" | grep -q '"age_days":[0-9][0-9]*,"first_reported":"[0-9-]*","decision":null' ||
	fail "an open break's age: $(grep no_record "$TMP/r1.json")"
assert_eq "$(q "select count(*) from clearing_reconcile_break")" 4 "the run's breaks recorded"
# an open break's age is from when reconcile first reported it (today),
# not from its booking date (2026-03-03, months before the run)
assert_eq "$(grep -c '"age_days":0,"first_reported":"'"$(q "select current_date")"'"' "$TMP/r1.json")" 4 \
	"each break is new today"

# text for a person: the breaks first, each with its id and age, the
# matches counted (listed with -v, after the breaks), the open breaks'
# money per account
expect_exit 10 cl reconcile "$TMP/s1.xml"
cp "$TMP/out" "$TMP/t1"
head -n 1 "$TMP/t1" | grep -q '^exception ' || fail "text: the breaks first: $(cat "$TMP/t1")"
if grep -q "^matched" "$TMP/t1"; then fail "text lists matches without -v: $(cat "$TMP/t1")"; fi
grep -q '^2 matched (--verbose lists each)$' "$TMP/t1" || fail "text counts the matches: $(cat "$TMP/t1")"
grep -q "^ *id $THEIRS, open [0-9]* days$" "$TMP/t1" || fail "text: a break's id and age: $(cat "$TMP/t1")"
eur() { q "select 'EUR ' || to_char(($1) / 100.0, 'FM999,999,990.00')"; }
grep -q "^open breaks of \*\{18\}7726: $(eur "$a2 + 1 + $a3 + 4242 + $(amt E2E-7-7)") (4)$" "$TMP/t1" ||
	fail "text: the open breaks' money per account: $(cat "$TMP/t1")"
expect_exit 10 cl reconcile -v "$TMP/s1.xml"
assert_eq "$(grep -v '^ ' "$TMP/out" | cut -d' ' -f1 | head -n 6 | tr '\n' ' ')" \
	"exception suggested unmatched_theirs unmatched_ours matched matched " "-v: breaks, then matches"

expect_exit 0 cl break list --format json
python3 "$CHECK" "$SCHEMA" --expect break "$TMP/out" || fail "break list's JSON against the schema"
assert_eq "$(grep -c '"type":"break"' "$TMP/out")" 4 "4 open breaks"

# usage: a decision needs a reason; an item is an id; a filter or items
expect_exit 2 cl break write-off "$THEIRS"
grep -q -- '--note TEXT is required' "$TMP/err" || fail "no note: $(cat "$TMP/err")"
expect_exit 2 cl break write-off "bogus" --note x
expect_exit 2 cl break write-off "$THEIRS" --reason suggested --note x
expect_exit 2 cl break frobnicate --note x
expect_exit 7 cl break write-off e999999.1 --note "no such"
expect_exit 2 cl break accept "$THEIRS" --note "not a suggestion"
grep -q 'no suggestion' "$TMP/out" || fail "accept of no suggestion: $(cat "$TMP/out")"
assert_eq "$(q "select count(*) from clearing_break_decision")" 0 "nothing recorded yet"

# accept the suggestion; the same decision again records nothing
expect_exit 0 cl break accept "$SUG" --note "same amount and day, our E2E-7-3"
expect_exit 0 cl break accept "$SUG" --note "again" --format json
grep -q '"outcome":"already"' "$TMP/out" || fail "accepted again: $(cat "$TMP/out")"
assert_eq "$(q "select string_agg(side || ' ' || action || ' ' || version, ';' order by side)
               from clearing_break_decision")" "entry accepted 1;record accepted 1" \
	"accept: the entry and the record it suggested, once"
assert_eq "$(q "select count(*) from clearing_break_decision
               where decided_by = session_user and reason = 'same amount and day, our E2E-7-3'")" 2 \
	"who and why kept"
# a conflicting decision is refused, nothing recorded
expect_exit 2 cl break write-off "$SUG" --note "changed my mind"
grep -q "was accepted by .*reopen it first" "$TMP/out" || fail "refusal: $(cat "$TMP/out")"
# who is the login, whatever an insert says
q "insert into clearing_break_decision values ('x', 'entry', 'k', 'k', 1, 0, 'e1.1',
   'written_off', true, null, null, 'r', 'mallory', '2000-01-01')"
assert_eq "$(q "select decided_by = session_user and decided_at > '2001-01-01' from clearing_break_decision where tenant = 'x'")" t \
	"decided_by and decided_at are the session's"

# match by hand: the cent-off entry to E2E-7-2; write off the bank's own
expect_exit 0 cl break match "$DIF" "$(rid E2E-7-2)" --note "bank's fee of one cent"
expect_exit 0 cl break write-off "$THEIRS" --note "the bank's interest, booked by finance"
# a record matched by hand is not matched again
expect_exit 2 cl break match "$THEIRS" "$(rid E2E-7-2)" --note "twice"

# the next run remembers: statuses are the decisions, exit 0 (no break
# but unmatched ours left)
expect_exit 0 cl reconcile --format json "$TMP/s1.xml"
cp "$TMP/out" "$TMP/r2.json"
python3 "$CHECK" "$SCHEMA" --expect reconcile "$TMP/r2.json" || fail "second run's JSON against the schema"
assert_eq "$(status_of "$SUG" "$TMP/r2.json")" accepted "the suggestion accepted"
assert_eq "$(status_of "$DIF" "$TMP/r2.json")" matched_by_hand "the cent off matched by hand"
assert_eq "$(status_of "$THEIRS" "$TMP/r2.json")" written_off "the bank's own written off"
assert_eq "$(status_of "$OURS" "$TMP/r2.json")" unmatched_ours "E2E-7-7 still open"
grep "\"id\":\"$DIF\"" "$TMP/r2.json" | grep -q "\"decision\":{\"action\":\"matched_by_hand\",\"by\":\"[^\"]*\",\"at\":\"[0-9T:Z-]*\",\"reason\":\"bank's fee of one cent\",\"with\":\\[\"$(rid E2E-7-2)\"\\]}" ||
	fail "the decision in the answer: $(grep "$DIF" "$TMP/r2.json")"
grep -q '"type":"reconcile_summary".*"unmatched_theirs":0,"exception":0,"suggested":0,.*"decided":3' "$TMP/r2.json" ||
	fail "second run's summary: $(tail -n 1 "$TMP/r2.json")"
expect_exit 0 cl reconcile "$TMP/s1.xml"
grep -q "^written_off .*written off by .* (the bank's interest, booked by finance)" "$TMP/out" ||
	fail "text names the decision: $(cat "$TMP/out")"
expect_exit 0 cl break list --format json
assert_eq "$(grep -c '"type":"break"' "$TMP/out")" 1 "1 open break left"

# reopen: the item is a break again in the next run
expect_exit 0 cl break reopen "$THEIRS" --note "finance says not interest"
expect_exit 0 cl break reopen "$THEIRS" --note "again" --format json
grep -q '"outcome":"already"' "$TMP/out" || fail "reopened again: $(cat "$TMP/out")"
expect_exit 10 cl reconcile --format json "$TMP/s1.xml"
assert_eq "$(status_of "$THEIRS" "$TMP/out")" unmatched_theirs "reopened: a break again"
# reopening a match reopens the record with it
expect_exit 0 cl break reopen "$DIF" --note "check the fee"
assert_eq "$(q "select string_agg(side || ' ' || action, ';' order by side) from clearing_break_decision
               where version = 2 and action = 'reopened' and item_id <> '$THEIRS'")" \
	"entry reopened;record reopened" "a match's entry and record reopened together"
expect_exit 0 cl break match "$DIF" "$(rid E2E-7-2)" --note "bank's fee of one cent, checked"

# bulk: the unmatched ours of the account written off by filter
expect_exit 7 cl break write-off --statement-account NOSUCH --note "nothing"
expect_exit 0 cl break write-off --statement-account "$A" --reason not_booked --note "cancelled payment"
assert_eq "$(q "select item_id from clearing_break_decision where action = 'written_off' and reason = 'cancelled payment'")" \
	"$OURS" "the filter selected E2E-7-7 alone"

# two operators at once, conflicting decisions: one decides, the other is
# refused; the same decision at once: recorded once
t0=$(q "select count(*) from clearing_break_decision where item_id = '$THEIRS'")
hold_recon_lock default
"$CL_BIN" break write-off "$THEIRS" --note "op one" >"$TMP/o1" 2>&1 &
p1=$!
"$CL_BIN" break match "$THEIRS" "$(rid E2E-7-3)" --note "op two" >"$TMP/o2" 2>&1 &
p2=$!
wait_advisory false 2 "the two operators never waited for the lock"
release_recon_lock
set +e
wait $p1; c1=$?
wait $p2; c2=$?
set -e
assert_eq "$(printf '%s\n' "$c1" "$c2" | sort | tr '\n' ' ')" "0 2 " "one decided, one refused: $(cat "$TMP/o1" "$TMP/o2")"
assert_eq "$(q "select count(*) from clearing_break_decision where item_id = '$THEIRS'")" "$((t0 + 1))" \
	"the item decided once"
expect_exit 0 cl break reopen "$THEIRS" --note "for the next case"
n0=$(q "select count(*) from clearing_break_decision")
hold_recon_lock default
"$CL_BIN" break write-off "$THEIRS" --note "same" >"$TMP/o1" 2>&1 &
p1=$!
"$CL_BIN" break write-off "$THEIRS" --note "same" >"$TMP/o2" 2>&1 &
p2=$!
wait_advisory false 2 "the two operators never waited for the lock"
release_recon_lock
set +e
wait $p1; c1=$?
wait $p2; c2=$?
set -e
assert_eq "$c1 $c2" "0 0" "the same decision at once: both succeed"
assert_eq "$(q "select count(*) from clearing_break_decision")" "$((n0 + 1))" "recorded once"

# show of a record: its decisions, with who, when, why and the entry
expect_exit 0 cl show --e2e E2E-7-3
grep -q "^  decided    accepted by [^ ]* at [0-9T:+-]*: same amount and day, our E2E-7-3 ($(rid E2E-7-3) with $SUG)$" "$TMP/out" ||
	fail "show names the decision: $(cat "$TMP/out")"
expect_exit 0 cl show --e2e E2E-7-7 --format json
python3 "$CHECK" "$SCHEMA" --expect record,decision "$TMP/out" || fail "show's JSON against the schema"
grep -q '"type":"decision".*"decision":"written_off".*"decision_reason":"cancelled payment","item_id":"'"$OURS"'","decided_with":null' "$TMP/out" ||
	fail "show's decision in JSON: $(grep decision "$TMP/out")"

# killed before its COMMIT: nothing recorded; run again: decided
expect_exit 0 cl break reopen "$THEIRS" --note "for the kill"
n0=$(q "select count(*) from clearing_break_decision")
set +e
CL_FAILPOINT=break_before_commit:kill "$CL_BIN_FP" break write-off "$THEIRS" --note "killed" >/dev/null 2>&1
rc=$?
set -e
assert_eq "$rc" 137 "killed at its failpoint"
assert_eq "$(q "select count(*) from clearing_break_decision")" "$n0" "a killed decision recorded nothing"
expect_exit 0 cl break write-off "$THEIRS" --note "after the kill"
assert_eq "$(q "select count(*) from clearing_break_decision")" "$((n0 + 1))" "then once"

# a later statement of the account covering the same day: the records a
# person matched (E2E-7-2 by hand, E2E-7-3 an accepted suggestion) are
# booked, as reconcile's matches are, not listed again; the written-off
# E2E-7-7 is listed with its decision
$GEN account=$A date=2026-03-03 seq=2 >"$TMP/s2.xml" <<S
77 EUR CRDT 2026-03-03 e2e=THEIRS-TOO
S
expect_exit 10 cl reconcile --format json "$TMP/s2.xml"
assert_eq "$(grep '"status"' "$TMP/out" | sed -n 's/.*"status":"\([a-z_]*\)".*"reason":"\([a-z_]*\)".*/\1 \2/p' | sort | tr '\n' ';')" \
	"unmatched_theirs no_record;written_off not_booked;" "the second statement: its own entry and E2E-7-7"
grep -q "\"id\":\"$OURS\"" "$TMP/out" || fail "E2E-7-7 named: $(cat "$TMP/out")"
expect_exit 0 cl break reopen "$SUG" --note "not E2E-7-3 after all"
expect_exit 10 cl reconcile --format json "$TMP/s2.xml"
assert_eq "$(status_of "$(rid E2E-7-3)" "$TMP/out")" unmatched_ours "reopened: the record is not booked again"

# a record a person matched is taken: a later statement booking E2E-7-2
# again, at its exact amount, is an exception, not a second match
m0=$(q "select count(*) from clearing_reconcile_match")
$GEN account=$A date=2026-03-03 seq=3 >"$TMP/s3.xml" <<S
$a2 EUR DBIT 2026-03-03 e2e=E2E-7-2
S
expect_exit 10 cl reconcile --format json "$TMP/s3.xml"
grep -q '"status":"exception","reason":"taken".*"reference":"E2E-7-2"' "$TMP/out" ||
	fail "a second booking of a record matched by hand: $(cat "$TMP/out")"
assert_eq "$(q "select count(*) from clearing_reconcile_match")" "$m0" "no match recorded for it"
echo "ok"
