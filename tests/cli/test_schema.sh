# validate --schema: the Document element is validated, not the envelope
# around it, and a schema that cannot be used is a usage error naming it,
# said once before any file is read.
. "$(dirname "$0")/lib.sh"
XSD="$TESTDATA/iso20022/corpus/xsd/pain.001.001.09.xsd"
CBPR="$TESTDATA/iso20022/corpus/pain.001/001.09/cbprplus_2025_pain.001.min.xml"
P="$TESTDATA/demo/original-pain001.xml"

grep -q '<Envelope>' "$CBPR" || fail "fixture has no envelope"
run validate --schema "$XSD" "$CBPR"
expect_status 0
expect_stdout - <<OUT
$CBPR: valid pain.001.001.09, 1 record
OUT
# the same Document in another envelope, with an AppHdr the XSD knows nothing of
{
	echo '<?xml version="1.0" encoding="UTF-8"?>'
	echo '<BizMsg><AppHdr xmlns="urn:iso:std:iso:20022:tech:xsd:head.001.001.02"><BizMsgIdr>X</BizMsgIdr><MsgDefIdr>pain.001.001.09</MsgDefIdr></AppHdr>'
	sed 1d "$P"
	echo '</BizMsg>'
} >"$TMP/env.xml"
run validate --schema "$XSD" "$TMP/env.xml"
expect_status 0
# inside the envelope, the Document is still validated
sed 's#<EndToEndId>E2E-1-1</EndToEndId>#<EndToEndId>E2E-1-1</EndToEndId><Bogus>x</Bogus>#' "$TMP/env.xml" >"$TMP/env-bad.xml"
run validate --schema "$XSD" "$TMP/env-bad.xml"
expect_status 3
expect_stderr - <<OUT
clearing-load: $TMP/env-bad.xml:22: error: XML schema: element 'Bogus': this element is not expected; expected is ( UETR )
OUT

# a schema that is missing, or no XSD: exit 2 naming it, no file read
run validate --schema /nonexistent.xsd "$P"
expect_status 2
expect_stdout - </dev/null
expect_stderr - <<'OUT'
clearing-load validate: --schema: could not open the XML schema "/nonexistent.xsd": No such file or directory
Try 'clearing-load validate --help' for more information.
OUT
run validate --schema "$P" "$P"
expect_status 2
expect_stderr_has 'clearing-load validate: --schema: could not load the XML schema "'
echo ok
