# Statements and status reports as banks write them (issue 27): what
# validate says of each case, exactly.  load says the same of every file of
# testdata/statements (tests/db/test_statement_agree.sh).
. "$(dirname "$0")/lib.sh"
A="$TESTDATA/statements/agree"

# several Stmt in one BkToCstmrStmt: valid, each its own statement
run validate "$A/camt053-two-statements-one-account.xml"
expect_status 0
expect_stdout - <<OUT
$A/camt053-two-statements-one-account.xml: valid camt.053.001.08, 4 records
OUT

# one statement twice (its key: account, currency, Stmt/Id): invalid for
# every command, with load's message
H="hint: one statement (its account, currency and Stmt/Id or ElctrncSeqNb; a BAI2 account of one group) is in the file twice: ask the bank for a file that reports it once"
run validate -q "$A/camt053-statement-repeated.xml"
expect_status 3
expect_stderr - <<OUT
clearing-load: $A/camt053-statement-repeated.xml:9: error: this item has the same statement key as the one on line 5 (2 times in the file): camt.053|******************3000||id:S1|stmt
clearing-load: $A/camt053-statement-repeated.xml:9: $H
clearing-load: $A/camt053-statement-repeated.xml:11: error: this item has the same statement key as the one on line 7 (2 times in the file): camt.053|******************3000||id:S1|#1
clearing-load: $A/camt053-statement-repeated.xml:11: $H
OUT

# BAI2: one account twice in one group (one originator, one as-of date)
run validate -q "$A/bai2-account-twice.bai"
expect_status 3
expect_stderr - <<OUT
clearing-load: $A/bai2-account-twice.bai:6: error: this item has the same statement key as the one on line 3 (2 times in the file): bai2|SENDR1|1|111|USD|2026-11-30|stmt
clearing-load: $A/bai2-account-twice.bai:6: $H
clearing-load: $A/bai2-account-twice.bai:7: error: this item has the same statement key as the one on line 4 (2 times in the file): bai2|SENDR1|1|111|USD|2026-11-30|#1
clearing-load: $A/bai2-account-twice.bai:7: $H
OUT

# BAI2 88 continuing a 03 account summary after trailing commas ("045,
# 765000,,,/": the summaries go on in the 88): every summary added once
cat >"$TMP/c88.bai" <<'BAI'
01,WPACAU2DK,WIBSCUST,060302,1301,01,080,,2/
02,WIBSCUST,WPACAU2DK,1,060302,,AUD,2/
03,032000000007,AUD,010,300000,,,015,-100000,,,045,765000,,,/
88,100,9760000,1,,400,503333,2,/
16,175,9760000,0,REF1,,DEPOSIT/
16,475,250000,0,REF2,,CHEQUE/
16,475,253333,0,REF3,,CHEQUE/
49,21491666,6/
98,21491666,1,8/
99,21491666,1,10/
BAI
run validate "$TMP/c88.bai"
expect_status 0
expect_stdout - <<OUT
$TMP/c88.bai: valid bai2, 4 records
OUT
# the same summaries on one line: the same verdict
sed -e '3s|,,,/$|,,,100,9760000,1,,400,503333,2,/|' -e '4d' \
	-e 's/^49,21491666,6/49,21491666,5/; s/^98,21491666,1,8/98,21491666,1,7/; s/^99,21491666,1,10/99,21491666,1,9/' \
	"$TMP/c88.bai" >"$TMP/c1.bai"
run validate "$TMP/c1.bai"
expect_status 0
# a summary split inside its fields ("010,300000/" then "88,,,015,...")
sed -e '3s|^03,032000000007,AUD,010,300000,,,|03,032000000007,AUD,010,300000/\n88,,,|' \
	-e 's/^49,21491666,6/49,21491666,7/; s/^98,21491666,1,8/98,21491666,1,9/; s/^99,21491666,1,10/99,21491666,1,11/' \
	"$TMP/c88.bai" >"$TMP/c2.bai"
run validate "$TMP/c2.bai"
expect_status 0
# a wrong total is still found
sed 's/^49,21491666,6/49,21491667,6/' "$TMP/c88.bai" >"$TMP/c3.bai"
run validate -q "$TMP/c3.bai"
expect_status 3
expect_stderr_has "$TMP/c3.bai:8: error: 49 account trailer control total is 21491667, but the amounts it covers add up to 21491666"

# BAI2 control totals are required: a blank one (49, 98, 99) checks
# nothing and is refused, even where the amounts add up to zero
B="$CL_ROOT/tests/fuzz/seeds/bai2/two-accounts.bai"
for t in '49,0,3:11:49 account trailer:0' '98,301000,2,11:12:98 group trailer:301000' '99,301000,1,13:13:99 file trailer:301000'; do
	rec=${t%%:*} rest=${t#*:}
	line=${rest%%:*} rest=${rest#*:}
	what=${rest%%:*} sum=${rest#*:}
	blank=$(echo "$rec" | sed 's/^\([0-9]*\),[-0-9]*,/\1,,/')
	sed "s|^$rec/|$blank/|" "$B" >"$TMP/blank.bai"
	grep -q "^$blank/" "$TMP/blank.bai" || fail "no $blank in the test file"
	run validate -q "$TMP/blank.bai"
	expect_status 3
	expect_stderr - <<OUT
clearing-load: $TMP/blank.bai:$line: error: $what control total is blank: expected the sum of the amounts it covers ($sum here)
clearing-load: $TMP/blank.bai:$line: hint: the control total is a required field of BAI2 trailers: ask the bank for the file with its totals
OUT
done

# amounts: every lexical form of xs:decimal the schema allows
# (ActiveOrHistoricCurrencyAndAmount: fractionDigits 5, totalDigits 18,
# minInclusive 0), in minor units of the currency; the rest refused
# saying which facet
T="$A/camt053-two-statements-one-account.xml"
amount() { # TEXT: the first entry's amount written TEXT
	sed "0,/>10.00</s//>$1</" "$T" >"$TMP/amt.xml"
}
for ok in '.34:34' '+10:1000' '0010.00:1000' '10.:1000' ' 10.5 :1050' '10.50000000:1050' '-0:0' '-0.00:0' '0.1:10'; do
	amount "${ok%%:*}"
	"$CL_TOOLS/statement_dump" "$TMP/amt.xml" >"$TMP/dump" 2>"$TMP/dumperr" ||
		fail "amount '${ok%%:*}' refused: $(cat "$TMP/dumperr")"
	grep -q "\"entry\":1,\"line\":7,.*\"amount_minor\":${ok#*:}," "$TMP/dump" ||
		fail "amount '${ok%%:*}': expected ${ok#*:} minor units: $(grep '"line":7' "$TMP/dump")"
	run validate -q "$TMP/amt.xml"
	expect_status 0
done
P='/Document/BkToCstmrStmt/Stmt/Ntry/Amt'
for bad in \
	'-10.00:is negative: expected zero or more (the direction is CdtDbtInd'"'"'s)' \
	'10.001:has more decimals than EUR'"'"'s 2' \
	'0.000001:has 6 decimals: expected at most 5 (fractionDigits of the schema)' \
	'1234567890123456789:has 19 digits: expected at most 18 (totalDigits of the schema)' \
	'.:is not a decimal number: expected digits with an optional sign and decimal point (xs:decimal: 12.50, +12.5, 0012.50, .5)' \
	'+-1:is not a decimal number: expected digits with an optional sign and decimal point (xs:decimal: 12.50, +12.5, 0012.50, .5)' \
	'10,00:is not a decimal number: expected digits with an optional sign and decimal point (xs:decimal: 12.50, +12.5, 0012.50, .5)' \
	'1e3:is not a decimal number: expected digits with an optional sign and decimal point (xs:decimal: 12.50, +12.5, 0012.50, .5)' \
	'999999999999999999:is too large: EUR has 2 decimals and the amount in minor units passes 2^63'; do
	amount "${bad%%:*}"
	run validate -q "$TMP/amt.xml"
	expect_status 3
	expect_stderr_has "clearing-load: $TMP/amt.xml:7: error: $P: amount \"${bad%%:*}\" ${bad#*:}"
done
# pacs.002: the original amount the same way
G="$TESTDATA/statements/corpus/pacs.002/aws_guidance_pacs.002.001.12.xml"
sed 's|>92406.00<|>.34<|' "$G" >"$TMP/p.xml"
run validate "$TMP/p.xml"
expect_status 0
"$CL_TOOLS/statement_dump" "$TMP/p.xml" | grep -q '"amount_minor":34,' || fail "pacs.002 .34: $("$CL_TOOLS/statement_dump" "$TMP/p.xml")"
sed 's|>92406.00<|>-1<|' "$G" >"$TMP/p.xml"
run validate -q "$TMP/p.xml"
expect_status 3
expect_stderr_has 'error: /Document/FIToFIPmtStsRpt/TxInfAndSts/OrgnlTxRef: original amount "-1" is negative'

# dates: every lexical form of xs:date and xs:dateTime in Dt and DtTm
# (the calendar date as written is what load stores: tests/unit/
# test_statement_identity.c); what is neither is refused
for d in '2026-11-30+02:00' '2026-11-30Z' '2026-11-30T10:00:00' '2026-11-30T10:00:00.123+01:00' '2026-11-30T24:00:00Z'; do
	sed "0,/<ValDt><Dt>2026-11-30</s//<ValDt><Dt>$d</" "$T" >"$TMP/d.xml"
	run validate -q "$TMP/d.xml"
	expect_status 0
done
sed "0,/<BookgDt><Dt>2026-11-30</s//<BookgDt><Dt>2026-11-31</" "$T" >"$TMP/d.xml"
run validate -q "$TMP/d.xml"
expect_status 3
expect_stderr - <<OUT
clearing-load: $TMP/d.xml:7: error: /Document/BkToCstmrStmt/Stmt/Ntry/BookgDt/Dt: "2026-11-31" is not a date: expected an xs:date (YYYY-MM-DD) or xs:dateTime (YYYY-MM-DDThh:mm:ss[.fff]), either with an optional time zone (Z, +hh:mm, -hh:mm)
OUT

# template placeholders are no dates and no ids
HP="hint: the file was made from a template whose fields were never filled in: ask the bank for the file as sent"
sed 's|<CreDtTm>2026-11-30T18:00:00</CreDtTm></GrpHdr>|<CreDtTm>[[$CreDtTm]]</CreDtTm></GrpHdr>|' "$T" >"$TMP/ph.xml"
run validate -q "$TMP/ph.xml"
expect_status 3
expect_stderr - <<OUT
clearing-load: $TMP/ph.xml:4: error: /Document/BkToCstmrStmt/GrpHdr/CreDtTm: value "[[\$CreDtTm]]" is a template placeholder, not a date
clearing-load: $TMP/ph.xml:4: $HP
OUT
for v in '##YYYY##-##MM##-##DD##' '{{date}}' '${DATE}'; do
	sed "0,/<ValDt><Dt>2026-11-30</s//<ValDt><Dt>$v</" "$T" >"$TMP/ph.xml"
	run validate -q "$TMP/ph.xml"
	expect_status 3
	expect_stderr_has "clearing-load: $TMP/ph.xml:7: error: /Document/BkToCstmrStmt/Stmt/Ntry/ValDt/Dt: value \"$v\" is a template placeholder, not a date"
done
for v in '{{MSGID}}' '${msgId}' '##MSGID##' '[[MsgId]]'; do
	sed "s|<MsgId>STMT-1</MsgId>|<MsgId>$v</MsgId>|" "$T" >"$TMP/ph.xml"
	run validate -q "$TMP/ph.xml"
	expect_status 3
	expect_stderr_has "clearing-load: $TMP/ph.xml:4: error: /Document/BkToCstmrStmt/GrpHdr/MsgId: value \"$v\" is a template placeholder, not a value"
done
sed "s|<Id>S2</Id>|<Id>{{STMT_ID}}</Id>|" "$T" >"$TMP/ph.xml"
run validate -q "$TMP/ph.xml"
expect_status 3
expect_stderr_has "clearing-load: $TMP/ph.xml:9: error: /Document/BkToCstmrStmt/Stmt/Id: value \"{{STMT_ID}}\" is a template placeholder, not a value"
# pacs.002: its CreDtTm and original ids the same way
sed 's|<OrgnlEndToEndId>[^<]*<|<OrgnlEndToEndId>${E2E}<|' "$G" >"$TMP/p.xml"
run validate -q "$TMP/p.xml"
expect_status 3
expect_stderr_has "/OrgnlEndToEndId: value \"\${E2E}\" is a template placeholder, not a value"

# one message per Document (the schema's Document is one message
# element): a second FIToFIPmtStsRpt or BkToCstmrStmt is refused, not read
# as more of the first
{ sed '$d' "$G"; sed -n '3,$p' "$G"; } >"$TMP/two.xml"
run validate -q "$TMP/two.xml"
expect_status 3
expect_stderr - <<OUT
clearing-load: $TMP/two.xml:62: error: a second <FIToFIPmtStsRpt> in the Document: a pacs.002.001.12 Document holds one message (the first began on line 3)
OUT
{ sed '$d' "$T"; sed -n '3,$p' "$T"; } >"$TMP/two.xml"
run validate -q "$TMP/two.xml"
expect_status 3
expect_stderr_has "$TMP/two.xml:14: error: a second <BkToCstmrStmt> in the Document: a camt.053.001.08 Document holds one message (the first began on line 3)"
# the same where the message stands without its Document (TCH RTP)
R="$TESTDATA/statements/corpus/pacs.002/rtp/tch_rtp_pacs002.ACTC.xml"
sed '47r /dev/stdin' "$R" >"$TMP/two.xml" <<XML
$(sed -n '11,47p' "$R")
XML
run validate -q "$TMP/two.xml"
expect_status 3
expect_stderr_has "$TMP/two.xml:48: error: a second <FIToFIPmtStsRpt> in the Document: a pacs.002.001.10 Document holds one message (the first began on line 11)"

# every published version whose fields we read are the same: camt.052,
# camt.053 and camt.054 .001.02 to .001.14, pacs.002 .001.03 to .001.16
# (keys(7) STATEMENT KEYS); .001.01 camt and pacs.002.001.02 name some
# elements otherwise (testdata/statements/versions, docs/design/0037);
# the ones around them are refused, saying why
msg() { # FAMILY ROOT ITEM: the hand-made statement as that message
	sed -e "s/camt\.053\.001\.08/$1/" -e "s/BkToCstmrStmt>/$2>/g" -e "s/<Stmt>/<$3>/g" \
		-e "s|</Stmt>|</$3>|g" "$T"
}
for v in 02 03 04 05 06 07 08 09 10 11 12 13 14; do
	for m in camt.052:BkToCstmrAcctRpt:Rpt camt.053:BkToCstmrStmt:Stmt camt.054:BkToCstmrDbtCdtNtfctn:Ntfctn; do
		f=${m%%:*} r=${m#*:}
		msg "$f.001.$v" "${r%%:*}" "${r#*:}" >"$TMP/v.xml"
		run validate "$TMP/v.xml"
		expect_status 0
		expect_stdout - <<OUT
$TMP/v.xml: valid $f.001.$v, 4 records
OUT
	done
done
for v in 03 04 05 06 07 08 09 10 11 12 13 14 15 16; do
	sed "s/pacs\.002\.001\.12/pacs.002.001.$v/" "$G" >"$TMP/v.xml"
	run validate "$TMP/v.xml"
	expect_status 0
	expect_stdout_has "valid pacs.002.001.$v"
done
V="$TESTDATA/statements/versions"
run validate "$V/camt053-v01-entries.xml" "$V/pacs002-v02.xml"
expect_status 0
expect_stdout - <<OUT
$V/camt053-v01-entries.xml: valid camt.053.001.01, 6 records
$V/pacs002-v02.xml: valid pacs.002.001.02, 3 records
OUT
for v in camt.053.001.15 camt.054.001.15; do
	msg "$v" BkToCstmrStmt Stmt >"$TMP/v.xml"
	[ "${v%.001.*}" = camt.054 ] && msg "$v" BkToCstmrDbtCdtNtfctn Ntfctn >"$TMP/v.xml"
	run validate -q "$TMP/v.xml"
	expect_status 3
	expect_stderr - <<OUT
clearing-load: $TMP/v.xml:2: error: unsupported message version $v: newer than ${v%.15}.14, the newest this build reads: read it with a newer clearing-load, or ask the bank for ${v%.15}.14
OUT
done
# a .001.01 camt with the root of the later versions is not one
msg camt.053.001.01 BkToCstmrStmt Stmt >"$TMP/v.xml"
run validate -q "$TMP/v.xml"
expect_status 3
expect_stderr_has "error: element <BkToCstmrStmt> under Document: a camt.053.001.01 message has <BkToCstmrStmtV01>"
sed "s/pacs\.002\.001\.12/pacs.002.001.01/" "$G" >"$TMP/v.xml"
run validate -q "$TMP/v.xml"
expect_status 3
expect_stderr_has "error: unsupported message version pacs.002.001.01: no such version was published (ISO 20022 publishes pacs.002 from .001.02); expected camt.052, camt.053 or camt.054 (.001.01 to .001.14), pacs.002 (.001.02 to .001.16) or pain.002 (.001.02 to .001.15)"
sed "s/pacs\.002\.001\.12/pacs.002.001.17/" "$G" >"$TMP/v.xml"
run validate -q "$TMP/v.xml"
expect_status 3
expect_stderr_has "error: unsupported message version pacs.002.001.17: newer than pacs.002.001.16, the newest this build reads"

# BAI2 identifiers the same way
sed 's/^01,BANKSEND,CUSTRECV,261130,0800,FILE001,/01,BANKSEND,CUSTRECV,261130,0800,{{FILE_ID}},/' "$B" >"$TMP/ph.bai"
run validate -q "$TMP/ph.bai"
expect_status 3
expect_stderr - <<OUT
clearing-load: $TMP/ph.bai:1: error: 01 file header file identification number "{{FILE_ID}}" is a template placeholder, not a value
clearing-load: $TMP/ph.bai:1: $HP
OUT
echo ok
