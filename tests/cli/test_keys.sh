# The same payment keys and fingerprints alike however a tool wrote the
# fields that do not change it.
. "$(dirname "$0")/lib.sh"
K="$TESTDATA/keys"

keys_of() {
	"$CL_BIN" parse --format json "$1" |
		sed 's/.*"natural_key":"\([^"]*\)".*"fingerprint":"\([0-9a-f]*\)".*/\1 \2/'
}

# ACH company identification left- or right-justified in columns 41-50
# (the same keys and fingerprints, so the right-justified copy is not applied
# a second time)
keys_of "$K/company-left.ach" >"$TMP/left"
keys_of "$K/company-right.ach" >"$TMP/right"
[ -s "$TMP/left" ] || fail "no records"
diff -u "$TMP/left" "$TMP/right" || fail "company id justification changed keys or fingerprints"
grep -q '^ABC1234|' "$TMP/left" || fail "company id not trimmed: $(head -1 "$TMP/left")"
# pain.001.001.09 ReqdExctnDt as a date-time (the DtTm branch of the choice):
# accepted, its date part (as written) is the value date
sed 's#<ReqdExctnDt><Dt>2026-03-03</Dt></ReqdExctnDt>#<ReqdExctnDt><DtTm>2026-03-03T23:30:00-05:00</DtTm></ReqdExctnDt>#' \
	"$TESTDATA/demo/original-pain001.xml" >"$TMP/dttm.xml"
grep -q '<DtTm>' "$TMP/dttm.xml" || fail "fixture not changed"
run validate "$TMP/dttm.xml"
expect_status 0
run parse --format json "$TMP/dttm.xml"
expect_status 0
grep -q '"value_date":"2026-03-03"' "$TMP/stdout" || fail "value date not the DtTm's date"
keys_of "$TESTDATA/demo/original-pain001.xml" >"$TMP/dt"
keys_of "$TMP/dttm.xml" >"$TMP/dttm"
diff -u "$TMP/dt" "$TMP/dttm" || fail "Dt and DtTm of the same day key differently"
# "the USD equivalent of 18050.68 EUR" is another instruction than
# "18050.68 EUR": same key, other fingerprint, so a conflict
sed 's#<Amt><InstdAmt Ccy="EUR">18050.68</InstdAmt></Amt>#<Amt><EqvtAmt><Amt Ccy="EUR">18050.68</Amt><CcyOfTrf>USD</CcyOfTrf></EqvtAmt></Amt>#' \
	"$TESTDATA/demo/original-pain001.xml" >"$TMP/eqvt.xml"
grep -q '<EqvtAmt>' "$TMP/eqvt.xml" || fail "fixture not changed"
keys_of "$TMP/eqvt.xml" | head -n 1 >"$TMP/eq1"
head -n 1 "$TMP/dt" >"$TMP/in1"
[ "$(cut -d' ' -f1 "$TMP/eq1")" = "$(cut -d' ' -f1 "$TMP/in1")" ] || fail "EqvtAmt changed the key"
[ "$(cut -d' ' -f2 "$TMP/eq1")" != "$(cut -d' ' -f2 "$TMP/in1")" ] ||
	fail "EqvtAmt and InstdAmt fingerprint alike"
# The instructing agent from the group header, or only from the sender of
# the AppHdr before the Document (keys(7)): one payment, one key and one
# fingerprint, so a copy sent the other way is a duplicate, not new
tx='<CdtTrfTxInf><PmtId><EndToEndId>E8</EndToEndId><TxId>T8</TxId></PmtId><IntrBkSttlmAmt Ccy="EUR">10.00</IntrBkSttlmAmt><IntrBkSttlmDt>2026-03-04</IntrBkSttlmDt><ChrgBr>SHAR</ChrgBr><Dbtr><Nm>D</Nm></Dbtr><DbtrAgt><FinInstnId><BICFI>COBADEFF</BICFI></FinInstnId></DbtrAgt><CdtrAgt><FinInstnId><BICFI>INGBNL2A</BICFI></FinInstnId></CdtrAgt><Cdtr><Nm>C</Nm></Cdtr></CdtTrfTxInf>'
grp='<GrpHdr><MsgId>M8</MsgId><CreDtTm>2026-03-02T08:00:00</CreDtTm><NbOfTxs>1</NbOfTxs><SttlmInf><SttlmMtd>CLRG</SttlmMtd></SttlmInf>'
agents='<InstgAgt><FinInstnId><BICFI>ABNANL2AXXX</BICFI></FinInstnId></InstgAgt><InstdAgt><FinInstnId><BICFI>INGBNL2A</BICFI></FinInstnId></InstdAgt>'
doc='<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pacs.008.001.08"><FIToFICstmrCdtTrf>'
printf '%s%s%s</GrpHdr>%s</FIToFICstmrCdtTrf></Document>\n' "$doc" "$grp" "$agents" "$tx" >"$TMP/grp.xml"
printf '<Envelope><AppHdr xmlns="urn:iso:std:iso:20022:tech:xsd:head.001.001.02"><Fr><FIId><FinInstnId><BICFI>ABNANL2A</BICFI></FinInstnId></FIId></Fr><To><FIId><FinInstnId><BICFI>INGBNL2A</BICFI></FinInstnId></FIId></To></AppHdr>%s%s</GrpHdr>%s</FIToFICstmrCdtTrf></Document></Envelope>\n' \
	"$doc" "$grp" "$tx" >"$TMP/hdr.xml"
keys_of "$TMP/grp.xml" >"$TMP/grp"
keys_of "$TMP/hdr.xml" >"$TMP/hdr"
[ "$(cat "$TMP/grp")" != "" ] || fail "no key from the group header's instructing agent"
grep -q '^txid|ABNANL2A|T8 ' "$TMP/grp" || fail "group header key: $(cat "$TMP/grp")"
diff -u "$TMP/grp" "$TMP/hdr" || fail "the AppHdr sender keys otherwise than GrpHdr/InstgAgt"
# without either: refused, naming where the agent was looked for
printf '%s%s</GrpHdr>%s</FIToFICstmrCdtTrf></Document>\n' "$doc" "$grp" "$tx" >"$TMP/none.xml"
run validate "$TMP/none.xml"
expect_status 3
grep -q 'no instructing agent (CdtTrfTxInf/InstgAgt, GrpHdr/InstgAgt or AppHdr/Fr/FIId): the key names the bank that sent this hop' "$TMP/stderr" ||
	fail "refusal does not say where the agent was looked for: $(cat "$TMP/stderr")"
echo ok
