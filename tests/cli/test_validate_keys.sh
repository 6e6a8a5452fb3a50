# validate (and parse) find a natural key that occurs twice in one ISO 20022
# file, without a database, with the loader's message and exit 3 (review
# 21: validate said "valid" for a file load and diff reject).
. "$(dirname "$0")/lib.sh"
: "${CL_TOOLS:?}"
P="$TESTDATA/demo/original-pain001.xml"

# pain.001: the second transaction gets the first one's EndToEndId (same
# debtor account): the same key twice, at lines 20 and 28 (the transaction elements)
sed 's#<EndToEndId>E2E-1-2</EndToEndId>#<EndToEndId>E2E-1-1</EndToEndId>#' "$P" >"$TMP/dupe2e.xml"
grep -c 'E2E-1-1<' "$TMP/dupe2e.xml" | grep -qx 2 || fail "fixture not made"
run validate "$TMP/dupe2e.xml"
expect_status 3
expect_stdout - <<OUT
$TMP/dupe2e.xml: invalid, 1 error
OUT
expect_stderr - <<OUT
clearing-load: $TMP/dupe2e.xml:28: error: the same payment identity (natural key "******************3142|E2E-1-1") appears twice in this file, on lines 20 and 28, as two different payments (amount 18050.68 vs 14360.20, instr_id "I-1" vs "I-2", uetr "646d9b60-9af6-4053-b27f-a97df9dcbffb" vs "832d3efe-f2e8-4de6-b379-6de3157fcd6a", creditor_name "Creditor 1" vs "Creditor 2" and 3 more fields): the file cannot be loaded, because the second would be taken as a re-upload of the first
clearing-load: $TMP/dupe2e.xml:28: hint: if the later record is a copy of the first, remove it and load the file again; if they are two payments, the sender must give them different references (clearing-load-keys(7) names the key fields)
OUT
run validate --no-mask --format json "$TMP/dupe2e.xml"
expect_status 3
expect_stdout_has '"line":28,"column":null,"other_line":20,"path":null,"code":"duplicate_key","message":"the same payment identity (natural key \"DE83999441097718893142|E2E-1-1\") appears twice in this file, on lines 20 and 28, as two different payments (amount 18050.68 vs 14360.20, instr_id \"I-1\" vs \"I-2\"'
run parse "$TMP/dupe2e.xml"
expect_status 3
expect_stderr_has 'appears twice in this file, on lines 20 and 28, as two different payments (amount 18050.68 vs 14360.20'
# standard input cannot be read again to compare the two: the lines only
run validate - <"$TMP/dupe2e.xml"
expect_stderr_has 'error: the same payment identity (natural key "******************3142|E2E-1-1") appears twice in this file, on lines 20 and 28: the file cannot be loaded'

# two payments that differ in their amount alone: the message says so
awk 'NR >= 20 && NR <= 27 { b[NR] = $0 } NR >= 28 && NR <= 35 && NR != 30 { print b[NR - 8]; next } { print }' "$P" >"$TMP/amount.xml"
run validate "$TMP/amount.xml"
expect_status 3
expect_stderr_has 'amount.xml:28: error: the same payment identity (natural key "******************3142|E2E-1-1") appears twice in this file, on lines 20 and 28, as two different payments (amount 18050.68 vs 14360.20): the file cannot be loaded, because the second would be taken as a re-upload of the first'
# the unchanged file stays valid
run validate "$P"
expect_status 0

# three times, and a second repeated key: one error per key, in the order
# of first occurrence, with the count
sed -e 's#<EndToEndId>E2E-1-[24]</EndToEndId>#<EndToEndId>E2E-1-1</EndToEndId>#' \
	-e 's#<EndToEndId>E2E-1-7</EndToEndId>#<EndToEndId>E2E-1-5</EndToEndId>#' "$P" >"$TMP/dup3.xml"
run validate --quiet "$TMP/dup3.xml"
expect_status 3
expect_stderr - <<OUT
clearing-load: $TMP/dup3.xml:36: error: the same payment identity (natural key "******************3142|E2E-1-1") appears 3 times in this file, first on line 20, last on line 36, the first and last as different payments (amount 18050.68 vs 17279.60, instr_id "I-1" vs "I-4", uetr "646d9b60-9af6-4053-b27f-a97df9dcbffb" vs "9ec96d80-0a58-41f2-8f0f-d2160be64eea", creditor_name "Creditor 1" vs "Creditor 4" and 3 more fields): the file cannot be loaded, because each later one would be taken as a re-upload of the first
clearing-load: $TMP/dup3.xml:36: hint: if the later record is a copy of the first, remove it and load the file again; if they are two payments, the sender must give them different references (clearing-load-keys(7) names the key fields)
clearing-load: $TMP/dup3.xml:52: error: the same payment identity (natural key "******************3142|E2E-1-5") appears twice in this file, on lines 44 and 52, as two different payments (amount 63203.58 vs 72664.33, instr_id "I-5" vs "I-7", uetr "a67c253c-c1a6-4860-95ce-07347de14b16" vs "04cc2423-8b4c-49a9-acf6-2db44f2be95b", creditor_name "Creditor 5" vs "Creditor 7" and 3 more fields): the file cannot be loaded, because the second would be taken as a re-upload of the first
clearing-load: $TMP/dup3.xml:52: hint: if the later record is a copy of the first, remove it and load the file again; if they are two payments, the sender must give them different references (clearing-load-keys(7) names the key fields)
OUT

# pacs.008: the same UETR and agents twice
"$CL_TOOLS/gen_iso" --type pacs.008 --tx 3 >"$TMP/p8.xml"
u2=$(grep -o '<UETR>[^<]*' "$TMP/p8.xml" | sed -n 2p | cut -c7-)
u1=$(grep -o '<UETR>[^<]*' "$TMP/p8.xml" | sed -n 1p | cut -c7-)
[ -n "$u1" ] && [ -n "$u2" ] || fail "no UETRs in the generated pacs.008"
sed "s#<UETR>$u2</UETR>#<UETR>$u1</UETR>#" "$TMP/p8.xml" >"$TMP/dupuetr.xml"
run validate "$TMP/dupuetr.xml"
expect_status 3
expect_stderr_has "natural key \"uetr|$u1|"
expect_stderr_has '") appears twice in this file, on lines '

# NACHA: the same return in batches of two companies (its key has no
# company id, so trace ranges per company cannot see it): every command
# that reads the file says so, with both lines
run validate "$TESTDATA/keys/return-twice-two-companies.ach"
expect_status 3
expect_stderr - <<OUT
clearing-load: $TESTDATA/keys/return-twice-two-companies.ach:7: error: the same return identity (natural key "091400600000001|R01|091000017611242|2000-01-01") appears again in this file, on lines 3 and 7: the file cannot be loaded, because the second would be taken as a re-upload of the first
clearing-load: $TESTDATA/keys/return-twice-two-companies.ach:7: hint: if the later record is a copy of the first, remove it and load the file again; if they are two payments, the sender must give them different references (clearing-load-keys(7) names the key fields)
OUT
run parse --format json "$TESTDATA/keys/return-twice-two-companies.ach"
expect_status 3

# one pacs.008 payment with and without its UETR in one file: two natural
# keys, one alternate key and fingerprint; the loader's message
"$CL_TOOLS/gen_iso" --type pacs.008 --tx 3 --msg-version 02 >"$TMP/v02.xml"
"$CL_TOOLS/gen_iso" --type pacs.008 --tx 3 --msg-version 08 >"$TMP/v08.xml"
{
	sed '/<\/FIToFICstmrCdtTrf>/,$d' "$TMP/v08.xml"
	sed -n '/<CdtTrfTxInf>/,/<\/CdtTrfTxInf>/p' "$TMP/v02.xml" | sed -n '1,/<\/CdtTrfTxInf>/p'
	sed -n '/<\/FIToFICstmrCdtTrf>/,$p' "$TMP/v08.xml"
} | sed -e 's|<NbOfTxs>3</NbOfTxs>|<NbOfTxs>4</NbOfTxs>|' -e '/<CtrlSum>/d' -e '/<TtlIntrBkSttlmAmt/d' >"$TMP/both.xml"
run validate "$TMP/v08.xml" "$TMP/v02.xml"
expect_status 0
run validate "$TMP/both.xml"
expect_status 3
expect_stderr - <<OUT
clearing-load: $TMP/both.xml:49: error: one payment appears under 2 payment identities in this file, first on line 13, last on line 49 (the same content and alternate key "e2e|DEUTDEFF|E2E-1-1", as when it is sent with and without its UETR): the file cannot be loaded, because each would be applied as a payment of its own
clearing-load: $TMP/both.xml:49: hint: the file holds one payment more than once (with and without its UETR, or under other references): keep one copy and load the file again
OUT

# many distinct keys: no false repeat (the set grows past its first table)
"$CL_TOOLS/gen_iso" --type pain.001 --tx 5000 >"$TMP/big.xml"
run validate "$TMP/big.xml"
expect_status 0
# past 32,768 keys validate stops looking (its memory budget) and says so
# under -v; a repeat among the first keys is still found
"$CL_TOOLS/gen_iso" --type pain.001 --tx 33000 >"$TMP/many.xml"
run validate -v "$TMP/many.xml"
expect_status 0
expect_stderr_has "repeated payment identities were looked for in the first 32768 records of this file only"
sed '0,/<EndToEndId>E2E-1-2</s//<EndToEndId>E2E-1-1</' "$TMP/many.xml" >"$TMP/many_dup.xml"
run validate "$TMP/many_dup.xml"
expect_status 3
expect_stderr_has 'appears twice in this file'
echo ok
