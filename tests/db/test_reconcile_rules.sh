#!/bin/sh
# Matching rules per account or bank (clearing-load match-rules; sql/032):
# the same pain.001 and statements reconciled in two tenants, one without
# rules (today's answer) and one with a rules file: a tolerance (absolute
# and relative) and the charges expected match with the difference
# recorded, a date window makes a far record an exception, a bank's prefix
# trusts other references.  A rules file with an error stores nothing.
. "$(dirname "$0")/lib.sh"
: "${CL_TOOLS:?}"
db_new
cl init ${CL_INIT_ARGS:-} >/dev/null
GEN="python3 $CL_ROOT/tests/db/stmt_gen.py"
A=DE69784865475539195432
B=DE99000000000000000001

"$CL_TOOLS/gen_iso" --type pain.001 --tx 8 --per-pmtinf 8 --seed 9 >"$TMP/p.xml"
for t in plain ruled; do expect_exit 0 cl load --tenant $t "$TMP/p.xml"; done
amt() { q "select amount_minor from clearing_record where tenant = 'plain' and end_to_end_id = 'E2E-9-$1'"; }
a1=$(amt 1) a2=$(amt 2) a3=$(amt 3) a4=$(amt 4) a5=$(amt 5) a6=$(amt 6) a7=$(amt 7)
[ "$(q "select count(distinct debtor_account) || ' ' || min(debtor_account) || ' ' || min(value_date)
        from clearing_record where tenant = 'plain'")" = "1 $A 2026-03-03" ] || fail "the test's pain.001 changed"
# entry 4 is off by 0.01% of ours: more than the tolerance (2), within
# relative=0.01%; entry 3 by 15.00, more than 0.01% of ours, within the
# charges expected (20.00)
d4=$((a4 / 10000))
[ "$d4" -gt 2 ] && [ "$((a3 / 10000))" -lt 1500 ] || fail "the amounts do not fit the rule"
$GEN account=$A date=2026-03-03 seq=1 >"$TMP/s1.xml" <<S
$a1 EUR DBIT 2026-03-03 e2e=E2E-9-1
$((a2 + 1)) EUR DBIT 2026-03-03 e2e=E2E-9-2
$((a3 + 1500)) EUR DBIT 2026-03-03 e2e=E2E-9-3
$((a4 + d4)) EUR DBIT 2026-03-03 e2e=E2E-9-4
$a5 EUR DBIT 2026-03-10 e2e=E2E-9-5
$((a6 + 100000)) EUR DBIT 2026-03-03 e2e=E2E-9-6
S
$GEN account=$B date=2026-03-03 seq=1 >"$TMP/s2.xml" <<S
$a7 EUR DBIT 2026-03-03 e2e=E2E-9-7
S
# st FILE: each entry's "reference status reason difference charges"
st() {
	python3 - "$1" <<'PY'
import json, sys
for l in open(sys.argv[1]):
    o = json.loads(l)
    if o.get("type") != "reconcile" or not o.get("entry"):
        continue
    e = o["entry"]
    print(o.get("reference"), o["status"], o["reason"], o.get("difference_minor"), e.get("charges_minor"))
PY
}

# without rules: today's answer
expect_exit 10 cl reconcile --tenant plain --format json "$TMP/s1.xml"
st "$TMP/out" >"$TMP/plain1"
assert_eq "$(tr '\n' ';' <"$TMP/plain1")" \
	"E2E-9-1 matched matched None None;E2E-9-2 exception differs 1 None;E2E-9-3 exception differs 1500 None;E2E-9-4 exception differs $d4 None;E2E-9-5 matched matched None None;E2E-9-6 exception differs 100000 None;" \
	"without rules"
expect_exit 0 cl reconcile --tenant plain --format json "$TMP/s2.xml"
assert_eq "$(st "$TMP/out")" "E2E-9-7 matched matched None None" "without rules: by its e2e"

# a file with an error stores nothing (exit 3, its line); none loaded: list exits 7
expect_exit 7 cl match-rules --tenant ruled list
printf '%s\n' "$A tolerance=2" "$B windw=3" >"$TMP/bad.rules"
expect_exit 3 cl match-rules --tenant ruled load "$TMP/bad.rules"
grep -q "bad.rules:2: .*expected a key of tolerance, relative, window, refs, charges, found \"windw=3\"" "$TMP/err" ||
	fail "the error names the line: $(cat "$TMP/err")"
printf '%s\n' "$A refs=e2e,nonsense" >"$TMP/bad2.rules"
expect_exit 3 cl match-rules --tenant ruled load "$TMP/bad2.rules"
printf '%s\n' "$A relative=0.001%" >"$TMP/bad3.rules"
expect_exit 3 cl match-rules --tenant ruled load "$TMP/bad3.rules"
printf '%s\n' "$A" "$A window=1" >"$TMP/bad4.rules"
expect_exit 3 cl match-rules --tenant ruled load "$TMP/bad4.rules"
expect_exit 2 cl match-rules --tenant ruled load "$TMP/nosuch.rules"
assert_eq "$(q "select count(*) from clearing_match_rule_set")" 0 "nothing stored"

cat >"$TMP/r.rules" <<R
# the account: tolerance, charges expected, a window of 3 days
$A tolerance=2 relative=0.01% charges=2000 window=3   # ours
DE99*  refs=uetr        # a bank whose statements carry UETRs only
*                       # every other account: the defaults
R
expect_exit 0 cl match-rules --tenant ruled load "$TMP/r.rules"
grep -q "version 1, 3 rules" "$TMP/err" || fail "load's message: $(cat "$TMP/err")"
expect_exit 0 cl match-rules --tenant ruled list
assert_eq "$(grep -v '^#' "$TMP/out" | tr '\n' ';')" \
	"* tolerance=0 relative=0.00% charges=0;$A tolerance=2 relative=0.01% window=3 charges=2000;DE99* tolerance=0 relative=0.00% refs=uetr charges=0;" \
	"list: the rules in force"
head -n 1 "$TMP/out" | grep -q "^# version 1 from .*r.rules (sha256 [0-9a-f]\{64\}), loaded by [^ ]* at 20[0-9T:-]*Z$" ||
	fail "list's head: $(head -n 1 "$TMP/out")"
expect_exit 7 cl match-rules --tenant plain list

expect_exit 10 cl reconcile --tenant ruled --format json "$TMP/s1.xml"
cp "$TMP/out" "$TMP/r1.json"
assert_eq "$(st "$TMP/r1.json" | tr '\n' ';')" \
	"E2E-9-1 matched matched None None;E2E-9-2 matched within_tolerance 1 None;E2E-9-3 matched charges_expected 1500 1500;E2E-9-4 matched within_tolerance $d4 None;E2E-9-5 exception outside_window None None;E2E-9-6 exception differs 100000 None;" \
	"with the account's rule"
python3 "$CL_ROOT/tests/tools/json_output_check.py" "$CL_ROOT/man/clearing-load-output.schema.json" \
	--expect reconcile,reconcile_summary "$TMP/r1.json" || fail "JSON against the schema"
# the difference is recorded with the match, never silently exact
assert_eq "$(q "select string_agg(r.end_to_end_id || ' ' || coalesce(m.difference_minor::text, '-'), ';' order by r.end_to_end_id)
               from clearing_reconcile_match m join clearing_record r
                 on r.tenant = m.tenant and r.kind = m.record_kind and r.natural_key = m.record_key
               where m.tenant = 'ruled'")" "E2E-9-1 -;E2E-9-2 1;E2E-9-3 1500;E2E-9-4 $d4" "matches and their differences"
expect_exit 10 cl reconcile --tenant ruled -v "$TMP/s1.xml"
grep -q "booked [0-9.]* EUR, ours [0-9.]* EUR: a difference of 15.00 EUR taken as the charges it expects" "$TMP/out" ||
	fail "text of charges expected: $(cat "$TMP/out")"
grep -q "beyond the date window of the account's matching rule" "$TMP/out" ||
	fail "text of the window: $(cat "$TMP/out")"

# the bank's prefix: its statements trust the UETR only; E2E-9-7 by its
# e2e is no match, the same amount and day a suggestion
expect_exit 0 cl reconcile --tenant ruled --format json "$TMP/s2.xml"
assert_eq "$(st "$TMP/out")" "None suggested suggested None None" "the bank's rule: the e2e not trusted"
# --match-account overrides the rule's references
$GEN account=$B date=2026-03-03 seq=2 >"$TMP/s3.xml" <<S
$a7 EUR DBIT 2026-03-03 e2e=E2E-9-7
S
expect_exit 0 cl reconcile --tenant ruled --match-account "$B=e2e" --format json "$TMP/s3.xml"
assert_eq "$(st "$TMP/out")" "E2E-9-7 matched matched None None" "--match-account over the rule"

# a new set: version 2 is in force, version 1 kept
printf '%s\n' "* window=0" >"$TMP/r2.rules"
expect_exit 0 cl match-rules --tenant ruled load "$TMP/r2.rules"
assert_eq "$(q "select string_agg(version || ':' || rules, ' ' order by version) from clearing_match_rule_set
               where tenant = 'ruled' and loaded_by = session_user")" "1:3 2:1" "two versions, who loaded them"
expect_exit 0 cl match-rules --tenant ruled list
assert_eq "$(grep -v '^#' "$TMP/out")" "* tolerance=0 relative=0.00% window=0 charges=0" "version 2 in force"
echo "ok"
