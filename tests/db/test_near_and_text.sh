#!/bin/sh
# ACH near duplicates (a re-dated copy within 5 banking days is a conflict,
# not new; 6 banking days later it is new), and text that COPY must escape
# (quotes, backslashes, tabs, newlines, "\N") stored and read back unchanged.
. "$(dirname "$0")/lib.sh"
: "${CL_TOOLS:?}"
db_new
cl init >/dev/null

# 2026-03-02 is a Monday
"$CL_TOOLS/gen_ach" -n 40 -e 260302 >"$TMP/mon.ach"
"$CL_TOOLS/gen_ach" -n 40 -e 260303 >"$TMP/tue.ach"      # 1 banking day later
"$CL_TOOLS/gen_ach" -n 40 -e 260309 >"$TMP/nextmon.ach"  # 5 banking days
"$CL_TOOLS/gen_ach" -n 40 -e 260310 >"$TMP/nexttue.ach"  # 6 banking days
cl_load "$TMP/mon.ach" >/dev/null

for f in tue nextmon; do
	expect_exit 4 cl diff --format json "$TMP/$f.ach"
	assert_eq "$(grep -c '"reason":"near_duplicate"' "$TMP/out")" 40 "$f: diff shows near duplicates"
	grep '"reason":"near_duplicate"' "$TMP/out" | grep -qF '"fields":["value_date"]' ||
		fail "$f: the differing field is the date: $(head -n 1 "$TMP/out")"
	grep '"reason":"near_duplicate"' "$TMP/out" | grep -q '"matched_key":"1100000000|121042880000001|2026-03-02"' ||
		fail "$f: near duplicate names the record it matched"
	expect_exit 4 cl load --format json "$TMP/$f.ach"
	grep -q '"outcome":"held",' "$TMP/out" && grep -q '"records":40,"errors":0,"load_id":[0-9]*,"load_uuid":"[-0-9a-f]*","new":0,"duplicate":0,"conflict":40,' "$TMP/out" ||
		fail "$f: held: $(cat "$TMP/out")"
done
assert_eq "$(q "select count(*) from clearing_record")" 40 "no re-dated copy applied"
assert_eq "$(q "select count(*) from clearing_dedupe_event where reason = 'near_duplicate'
	and fields = '{value_date}' and matched_key like '%|2026-03-02'")" 80 "near duplicates journaled"

# 6 banking days later: a new payment, not a copy
cl_load "$TMP/nexttue.ach" >"$TMP/out"
grep -q '"new":40' "$TMP/out" || fail "6 banking days: $(cat "$TMP/out")"

# show explains a record: its load and the near-duplicate hits on it
expect_exit 0 cl show --format json --trace 121042880000001
assert_eq "$(grep -c '"type":"record"' "$TMP/out")" 2 "trace matches the Monday and the next-Tuesday record"
assert_eq "$(grep '"type":"event"' "$TMP/out" | grep -c '"reason":"near_duplicate"')" 2 \
	"show lists both near-duplicate hits"
expect_exit 7 cl show "no|such|key"

# tenants are separate key spaces: the same file under another tenant is new
"$CL_BIN" load --tenant bank-b --format json "$TMP/mon.ach" >"$TMP/out" || fail "tenant load"
grep -q '"new":40,"duplicate":0' "$TMP/out" || fail "other tenant: $(cat "$TMP/out")"
expect_exit 7 cl show --tenant nobody --trace 121042880000001

# nasty text: an EndToEndId and an InstrId with what COPY must escape
"$CL_TOOLS/gen_iso" --type pain.001 --tx 3 --seed 9 >"$TMP/p.xml"
sed -e 's|<EndToEndId>E2E-9-1</EndToEndId>|<EndToEndId>a\\tb"c\x27d\\\\N\&#9;t\&#10;n\\.</EndToEndId>|' \
	-e 's|<InstrId>I-2</InstrId>|<InstrId>\\N</InstrId>|' "$TMP/p.xml" >"$TMP/nasty.xml"
grep -q 'a\\tb' "$TMP/nasty.xml" || fail "fixture not made"
"$CL_BIN" parse --format json --no-mask "$TMP/nasty.xml" >"$TMP/parsed.json" || fail "nasty file does not parse"
cl_load "$TMP/nasty.xml" >"$TMP/out" || fail "nasty load: $(cat "$TMP/out")"
# read back: the values as stored equal the values the parser gave
q "select end_to_end_id from clearing_record where kind = 'pain.001' order by ordinal limit 1" >"$TMP/e2e"
printf 'a\\tb"c'"'"'d\\\\N\tt\nn\\.\n' >"$TMP/want"
cmp -s "$TMP/e2e" "$TMP/want" || fail "EndToEndId changed: $(od -c "$TMP/e2e" | head -5)"
assert_eq "$(q "select count(*) from clearing_record where instr_id = '\\N'")" 1 "a literal \\N is text, not NULL"
assert_eq "$(q "select count(*) from clearing_record where natural_key like '%a\\\\tb%'")" 1 "key with backslash"
# and the exact repeat finds every record again (the keys compare equal)
"$CL_BIN" load --format json "$TMP/nasty.xml" >"$TMP/out"
grep -q '"new":0,"duplicate":3' "$TMP/out" || fail "nasty repeat: $(cat "$TMP/out")"
echo ok
