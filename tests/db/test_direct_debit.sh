#!/bin/sh
# Direct debits (issue 30, docs/design/0036-direct-debit-keys.md): a pain.008
# re-sent whole is all duplicate; re-sent with one collection changed (its
# amount, its debtor account) that collection is held as a conflict and
# diff says so before loading; one re-sent under a corrected mandate
# reference is held too (the alternate key), never applied twice; show of
# a collection names its mandate; the feed carries it; a pacs.003 is keyed
# by its sender as a pacs.008 is.
. "$(dirname "$0")/lib.sh"
: "${CL_TOOLS:?}"
db_new
cl init >/dev/null
G="$CL_TOOLS/gen_iso"

"$G" --type pain.008 --tx 6 --per-pmtinf 4 >"$TMP/dd.xml"
"$G" --type pain.008 --tx 6 --per-pmtinf 4 --msg-id RESENT >"$TMP/again.xml"
"$G" --type pain.008 --tx 6 --per-pmtinf 4 --msg-id BUMP --bump-amount-every 6 >"$TMP/amount.xml"
"$G" --type pain.008 --tx 6 --per-pmtinf 4 --msg-id DEBTOR --new-debtor-every 3 >"$TMP/debtor.xml"
sed 's|<MndtId>MNDT-2</MndtId>|<MndtId>MNDT-2-CORR</MndtId>|' "$TMP/dd.xml" >"$TMP/mandate.xml"
cmp -s "$TMP/dd.xml" "$TMP/mandate.xml" && fail "fixture: no mandate changed"

cl_load "$TMP/dd.xml" >"$TMP/o" || fail "first load: $(cat "$TMP/o")"
grep -q '"new":6,' "$TMP/o" || fail "six collections new: $(cat "$TMP/o")"
assert_eq "$(q "select count(*) from clearing_record where kind = 'pain.008' and direction = 'debit'
	and mandate_id is not null and creditor_scheme_id = 'DE98ZZZ09999999999'
	and sequence_type = 'RCUR' and mandate_date is not null")" 6 "stored with mandate and creditor"

# the same collections re-sent under another MsgId: all duplicate
cl_load "$TMP/again.xml" >"$TMP/o" || fail "re-sent: $(cat "$TMP/o")"
grep -q '"new":0,"duplicate":6,"conflict":0' "$TMP/o" || fail "re-sent: all duplicate: $(cat "$TMP/o")"

# one amount changed: diff says conflict first, load holds the file
expect_exit 4 cl diff --format json "$TMP/amount.xml"
assert_eq "$(grep -c '"action":"conflict"' "$TMP/out")" 1 "diff: one conflict"
grep '"action":"conflict"' "$TMP/out" | grep -q '"field":"amount_minor"' ||
	fail "diff names the amount: $(grep conflict "$TMP/out")"
assert_eq "$(grep -c '"action":"duplicate"' "$TMP/out")" 5 "diff: five duplicates"
expect_exit 4 cl load --format json "$TMP/amount.xml"
grep -q '"outcome":"held"' "$TMP/out" || fail "amount: held: $(cat "$TMP/out")"

# two debtor accounts changed: two conflicts naming the debtor account
expect_exit 4 cl diff --format json "$TMP/debtor.xml"
assert_eq "$(grep -c '"action":"conflict"' "$TMP/out")" 2 "diff: two conflicts"
grep '"action":"conflict"' "$TMP/out" | grep -q '"field":"debtor_account"' ||
	fail "diff names the debtor account: $(grep conflict "$TMP/out")"
expect_exit 4 cl load --format json "$TMP/debtor.xml"
grep -q '"outcome":"held"' "$TMP/out" || fail "debtor: held: $(cat "$TMP/out")"

# a corrected mandate reference: another natural key, the same collection
# by creditor and EndToEndId: held as a near duplicate, never applied
expect_exit 4 cl load --format json "$TMP/mandate.xml"
grep -q '"outcome":"held"' "$TMP/out" || fail "mandate: held: $(cat "$TMP/out")"
assert_eq "$(q "select count(*) from clearing_dedupe_event where reason = 'near_duplicate'
	and natural_key like '%|MNDT-2-CORR|E2E-1-2'")" 1 "the corrected mandate journaled as a near duplicate"
assert_eq "$(q "select count(*) from clearing_record")" 6 "no collection applied twice"

# show names the mandate and the sequence type
key=$(q "select natural_key from clearing_record where end_to_end_id = 'E2E-1-3'")
assert_eq "$key" "DE98ZZZ09999999999|MNDT-3|E2E-1-3" "the key: creditor, mandate, EndToEndId"
expect_exit 0 cl show "$key"
grep -q "^  mandate    MNDT-3 signed 2025-11-04, RCUR, creditor DE98ZZZ09999999999$" "$TMP/out" ||
	fail "show names the mandate, its sequence type and creditor: $(cat "$TMP/out")"
expect_exit 0 cl show --e2e E2E-1-3 --format json
grep -q '"mandate_id":"MNDT-3"' "$TMP/out" || fail "show JSON: $(cat "$TMP/out")"

# the feed carries the collections with their mandates
expect_exit 0 cl feed --consumer dd --format json
assert_eq "$(grep -c '"kind":"pain.008"' "$TMP/out")" 6 "the feed: six collections"
grep -q '"mandate_id":"MNDT-1"' "$TMP/out" || fail "feed carries the mandate: $(head -n 1 "$TMP/out")"

# pacs.003: by the sender and the UETR, as pacs.008; without UETR by TxId,
# and one collection in both forms is held (0008)
"$G" --type pacs.003 --tx 3 --msg-version 08 >"$TMP/p08.xml"
"$G" --type pacs.003 --tx 3 --msg-version 02 >"$TMP/p02.xml"
cl_load "$TMP/p08.xml" >"$TMP/o" || fail "pacs.003: $(cat "$TMP/o")"
grep -q '"new":3,' "$TMP/o" || fail "pacs.003 new: $(cat "$TMP/o")"
assert_eq "$(q "select count(*) from clearing_record where kind = 'pacs.003'
	and natural_key like 'uetr|%|DEUTDEFF' and mandate_id like 'MNDT-%'")" 3 "pacs.003 keyed by UETR and sender"
expect_exit 4 cl load --format json "$TMP/p02.xml"
grep -q '"outcome":"held"' "$TMP/out" || fail "pacs.003 without UETR held: $(cat "$TMP/out")"
assert_eq "$(q "select count(*) from clearing_record where kind = 'pacs.003'")" 3 "no collection twice"
