#!/bin/sh
# A NOC's corrected data, a return's dishonored/contested code and a
# pacs.004's OrgnlMsgId are columns (migration 007): they
# are stored, and a conflict on one of them names it.
. "$(dirname "$0")/lib.sh"
db_new
cl init >/dev/null
F="$CL_ROOT/testdata/ach/corpus/RiverFinancial-nacha/test/fixtures/achfiles/cor.ach"

cl_load "$F" >"$TMP/o" || fail "NOC: $(cat "$TMP/o")"
assert_eq "$(q "select corrected_data from clearing_record where kind = 'ach.noc'")" \
	"1918171614" "the corrected data is stored"
# the same NOC with other corrected data (addenda 98 columns 36-64: in no
# control total): a conflict that names the field
sed '4s/^\(.\{35\}\)1918171614/\19999999999/' "$F" >"$TMP/other.ach"
cmp -s "$F" "$TMP/other.ach" && fail "fixture not changed"
expect_exit 4 cl diff --format json "$TMP/other.ach"
# (masked like an account: a C01's corrected data is the right account
# number)
grep -qF '"fields":["corrected_data"],"changes":[{"field":"corrected_data","old":"******1614","new":"******9999"}]' "$TMP/out" ||
	fail "diff names corrected_data, masked: $(cat "$TMP/out")"
expect_exit 4 cl diff --no-mask --format json "$TMP/other.ach"
grep -qF '{"field":"corrected_data","old":"1918171614","new":"9999999999"}' "$TMP/out" ||
	fail "diff --no-mask: $(cat "$TMP/out")"
expect_exit 4 cl load "$TMP/other.ach"
assert_eq "$(q "select array_to_string(fields, ',') from clearing_dedupe_event where reason = 'conflict'")" \
	"corrected_data" "the journal names the field"

# a record applied before schema 7 has the new columns empty: "not known",
# not named as a difference.  Simulated: the value removed
# and migration 7 dated after the record's load.
q "set clearing_load.maintenance = 'test'; update clearing_record set corrected_data = null where kind = 'ach.noc';
   update clearing_schema_version set applied_at = now() where version = 7" >/dev/null
expect_exit 4 cl diff --format json "$TMP/other.ach"
if grep -q '"fields":\[[^]]*corrected_data' "$TMP/out"; then
	fail "an unknown old value is named as a difference: $(cat "$TMP/out")"
fi
grep -q '"action":"conflict"' "$TMP/out" || fail "still a conflict: $(cat "$TMP/out")"
