# A FedNow payment keyed by its business application header's sender
# (AppHdr Fr, a routing number) is the payment keyed by its Document's
# InstgAgt: loaded once, the copy that names InstgAgt is a duplicate, not a
# second payment; an AppHdr naming another message gives no sender, and
# validate, diff and load refuse it alike.  The file is the FedNow
# Service's published sample (testdata/iso20022/SOURCES.md), its InstgAgt
# and InstdAgt taken out (tests/cli/test_apphdr_sender.sh reads them).
. "$(dirname "$0")/lib.sh"
db_new
cl init >/dev/null
F="$TESTDATA/iso20022/corpus/pacs.008/fednow/sample-participant-to-fednow-message.xml"
awk '/<InstgAgt>|<InstdAgt>/ { skip = 1 } !skip { print } /<\/InstgAgt>|<\/InstdAgt>/ { skip = 0 }' \
	"$F" >"$TMP/noagt.xml"
sed 's|<MsgDefIdr>pacs.008.001.08</MsgDefIdr>|<MsgDefIdr>pacs.009.001.08</MsgDefIdr>|' \
	"$TMP/noagt.xml" >"$TMP/other.xml"

expect_exit 0 cl load --format json "$TMP/noagt.xml"
grep -q '"new":1,"duplicate":0,"conflict":0' "$TMP/out" || fail "first: $(cat "$TMP/out")"
assert_eq "$(q "select natural_key || ' ' || instructing_agent || ' ' || instructed_agent || ' ' || amount_minor from clearing_record")" \
	"uetr|8a562c67-ca16-48ba-b074-65581be6f011|111111111 111111111 021150706 5174" "keyed by the AppHdr"
# the same payment with the Document's own InstgAgt (111111111) and
# InstdAgt (the receiving bank 333333333, not the Fed's 021150706): the same
# key; the instructed agent is in the fingerprint, so a conflict (held), never new
expect_exit 4 cl load --format json "$F"
grep -q '"new":0,"duplicate":0,"conflict":1' "$TMP/out" || fail "with InstgAgt: $(cat "$TMP/out")"
assert_eq "$(q "select count(*) from clearing_record")" 1 "one payment"

# another message's header: refused by validate, diff and load alike
set +e
"$CL_BIN" validate -q "$TMP/other.xml" >/dev/null 2>&1; v=$?
"$CL_BIN" diff -q --tenant o "$TMP/other.xml" >/dev/null 2>&1; d=$?
"$CL_BIN" load -q --tenant o "$TMP/other.xml" >/dev/null 2>"$TMP/lerr"; l=$?
set -e
assert_eq "$v $d $l" "3 3 3" "validate, diff, load"
grep -q 'its MsgDefIdr "pacs.009.001.08" (line 41) names another message than this pacs.008.001.08' "$TMP/lerr" ||
	fail "load's error: $(cat "$TMP/lerr")"
assert_eq "$(q "select count(*) from clearing_record where tenant = 'o'")" 0 "nothing applied"
echo ok
