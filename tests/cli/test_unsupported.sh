# A well-formed ISO 20022 message that clearing-load neither loads nor
# reconciles (a FedNow admi.002 message rejection) is reported as exactly one error,
# code unsupported_message, naming the message and what it is, and nothing
# else: whoever sweeps an inbox can tell it from a broken file by that
# alone.  Bank statements, notifications and pacs.002 and pain.002 status
# reports are
# read by the statement readers instead (valid by their own checks, no
# clearing record; test_statement_dump.sh).  The files are copies of real
# ones (testdata/iso20022/SOURCES.md).
. "$(dirname "$0")/lib.sh"
C="$TESTDATA/iso20022/corpus"

# FILE MESSAGE: validate and parse give one error, this one, and exit 9
# (unsupported), as load, diff and ingest do (tests/db/test_unattended.sh)
one() {
	for cmd in validate parse; do
		run $cmd --format json "$C/$1"
		expect_status 9
		n=$(grep -c '"type":"error"' "$TMP/stdout" || true)
		[ "$cmd" = parse ] && n=$(grep -c ': error: ' "$TMP/stderr" || true)
		[ "$n" = 1 ] || fail "$1: $cmd: $n errors, expected 1: $(cat "$TMP/stdout" "$TMP/stderr")"
	done
	run validate --format json "$C/$1"
	expect_stdout_has "\"code\":\"unsupported_message\",\"message\":\"$2\""
	if grep -q '"type":"record"' "$TMP/stdout"; then fail "$1: a record: $(cat "$TMP/stdout")"; fi
}
L='clearing-load loads pain.001, pacs.008, pacs.009, pacs.004, pain.008, pacs.003, camt.056 and camt.029'
one edge-cases/fednow-sample-message-admi002_no_xmldecl_crlf.xml "admi.002.001.01 is a message rejection, not a clearing file: $L"

# statements and pacs.002 reports: the statement readers' verdict, their
# message type, no clearing record; parse prints the rows load stores of
# them (JSON statement_item), with validate's verdict
for f in camt.053/genkgo_camt053.v8.xml:camt.053.001.08 camt.054/genkgo_camt054.v8-with-UETR.xml:camt.054.001.08 \
	pacs.002/cbprplus/cbprplus_2025_pacs.002.min.xml:pacs.002.001.10 pacs.002/rtp/tch_rtp_pacs002.ACTC.xml:pacs.002.001.10 \
	pain.002/nordea_pain_002_v3_txn_reject.xml:pain.002.001.03 pain.002/moov_postfinance_pain002-epo.xml:pain.002.001.03.ch.02; do
	run validate --format json "$C/${f%%:*}"
	expect_status 0
	if grep -q '"type":"record"\|"type":"error"' "$TMP/stdout"; then
		fail "validate ${f%%:*}: $(cat "$TMP/stdout")"
	fi
	expect_stdout_has "\"message_type\":\"${f#*:}\""
	run parse --format json "$C/${f%%:*}"
	expect_status 0
	expect_stdout_has "\"type\":\"statement_item\""
	expect_stdout_has "\"message_type\":\"${f#*:}\""
	if grep -q '"type":"record"' "$TMP/stdout"; then fail "parse ${f%%:*}: a clearing record"; fi
done
# the text line of an entry: file:line item key amount currency direction date status
run parse "$C/camt.053/genkgo_camt053.v8.xml"
expect_status 0
grep -q "^$C/camt.053/genkgo_camt053.v8.xml:[0-9]* entry camt.053|" "$TMP/stdout" ||
	fail "no entry line: $(cat "$TMP/stdout")"
# the account masked in the account and in the keys, unless --no-mask
run parse --format json "$C/camt.053/genkgo_camt053.v8.xml"
# (the bank's Stmt/Id happens to contain the IBAN: an id, shown as written)
if grep -q '"account":"NL26\|_key":"camt.053|NL26' "$TMP/stdout"; then fail "an account unmasked: $(head -1 "$TMP/stdout")"; fi
expect_stdout_has '"natural_key":"camt.053|**************6890||esn:12312|p:2|stmt","statement_key":"camt.053|**************6890||esn:12312|p:2","message_type":"camt.053.001.08","account":"**************6890"'
run parse --format json --no-mask "$C/camt.053/genkgo_camt053.v8.xml"
expect_stdout_has '"natural_key":"camt.053|NL26VAYB8060476890||esn:12312|p:2|stmt","statement_key":"camt.053|NL26VAYB8060476890||esn:12312|p:2","message_type":"camt.053.001.08","account":"NL26VAYB8060476890"'
# CSV: the rows under their own header row
run parse --format csv "$C/pacs.002/rtp/tch_rtp_pacs002.ACTC.xml"
expect_status 0
[ "$(sed -n 2p "$TMP/stdout" | cut -d, -f1-3)" = '"file","kind","item"' ] ||
	fail "no statement header row: $(head -3 "$TMP/stdout")"

# several files: the most severe status, invalid (3) before unsupported (9)
head -c 1500 "$C/camt.053/genkgo_camt053.v8.xml" >"$TMP/cut.xml"
run validate "$C/edge-cases/fednow-sample-message-admi002_no_xmldecl_crlf.xml" "$TMP/cut.xml"
expect_status 3

# a statement cut short is a broken file, said as the statement reader
# finds it
head -c 1500 "$C/camt.053/genkgo_camt053.v8.xml" >"$TMP/cut.xml"
run validate "$TMP/cut.xml"
expect_status 3
echo ok

# a pacs.002 of no status (GrpHdr alone: both 0..n of the schema empty) is
# an empty message, invalid as an empty clearing message is
run validate "$C/pacs.002/moov_valid_pacs_v11_minimal.xml"
expect_status 3
expect_stderr_has "reports no status: expected at least one <OrgnlGrpInfAndSts> or <TxInfAndSts>"
