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
echo ok
