# The statement readers (parsers/statement.h) through their test tool,
# statement_dump: one JSON object a line, errors as FILE:LINE on stderr,
# exit 1 for an invalid file.  validate checks a statement with the same
# readers (parse prints the rows load stores of it); load and
# reconcile read statements with them too: tests/db/test_reconcile.sh.
. "$(dirname "$0")/lib.sh"
: "${CL_TOOLS:?}"
D="$CL_TOOLS/statement_dump"
B="$CL_ROOT/tests/fuzz/seeds/bai2/two-accounts.bai"
C="$TESTDATA/statements/corpus/camt.053/ing_example_camt.xml"

dump() {
	set +e
	"$D" "$@" >"$TMP/stdout" 2>"$TMP/stderr"
	STATUS=$?
	set -e
	LAST="statement_dump $*"
}

dump "$B"
expect_status 0
expect_stderr - </dev/null
[ "$(wc -l <"$TMP/stdout")" -eq 6 ] || fail "expected 2 statements and 4 entries: $(cat "$TMP/stdout")"
expect_stdout_has '{"kind":"entry","message_type":"bai2","statement":1,"entry":2,"line":5,"ntry_ref":null,"cust_ref":"CREF002","txs":0,"value_date":"2026-12-01","bank_tx_code":"475","funds_type":"V","btch_msg_id":null,"btch_pmt_inf_id":null,"text":"CHECK PAID MORE TEXT ABOUT THE CHECK","acct_svcr_ref":"BREF002","amount_minor":5000,"ccy":"USD","direction":"debit","status":null,"booking_date":"2026-11-29"}'

# the same read 1 byte at a time
cp "$TMP/stdout" "$TMP/whole"
dump --chunk 1 "$B"
expect_status 0
expect_stdout "$TMP/whole"

# a wrong account trailer total: one error, exit 1
sed 's/^49,301000,6/49,301001,6/' "$B" >"$TMP/bad.bai"
dump "$TMP/bad.bai"
expect_status 1
expect_stderr - <<OUT
$TMP/bad.bai:8: error: 49 account trailer control total is 301001, but the amounts it covers add up to 301000 (bai2_control_total)
DETAIL: amounts as written, in minor units, from line 3 to line 8
OUT

dump "$C"
expect_status 0
[ "$(grep -c '"kind":"entry"' "$TMP/stdout")" -eq 9 ] || fail "expected 9 entries: $(cat "$TMP/stdout")"

# validate and parse: the readers' checks, the items counted, no record
run validate --format json "$C"
expect_status 0
expect_stdout_has '"outcome":"valid","valid":true,"format":"iso20022","message_type":"camt.053.001.02"'
run validate --format json "$B"
expect_status 0
expect_stdout_has '"format":"bai2","message_type":"bai2"'
expect_stdout_has '"records":6,"errors":0'
run validate "$TMP/bad.bai"
expect_status 3
expect_stderr_has "$TMP/bad.bai:8: error: 49 account trailer control total is 301001"
run parse --format json "$B"
expect_status 0
# a BAI2 file's rows: its accounts and details, as load stores them
[ "$(grep -c '"type":"statement_item"' "$TMP/stdout")" -ge 2 ] || fail "parse of BAI2: $(cat "$TMP/stdout")"
if grep -q '"type":"record"' "$TMP/stdout"; then fail "parse printed a record of a statement: $(cat "$TMP/stdout")"; fi
echo ok
