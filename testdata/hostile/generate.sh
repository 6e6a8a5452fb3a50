#!/bin/sh
# testdata/hostile/generate.sh OUTDIR - write the hostile inputs too big to
# commit into OUTDIR (tests/cli/test_hostile.sh calls it with a temporary
# directory).  Plain sh, head, tr and gzip; about 3 s and 1.2 GB of disk:
#
#   deep-nesting.xml       100,000 nested elements inside a pain.001 Document
#   huge-text-node.xml     a 100 MiB text node (the creditor name)
#   quadratic-blowup.xml   an internal entity of 20,000 bytes used 20,000 times
#                          (400 MB if substituted)
#   many-attributes.xml    one tag with 20,000 attributes
#   many-names.xml         300,000 distinct element names (libxml2's name dictionary)
#   many-errors.ach        a file header, then 200,000 bad lines
#   long-line.ach          "101" and then 1 GiB of 'A' without a line end
#   gzip-bomb.gz           10 GiB of zeros as 100 gzip members (~10 MB)
#   gzip-bomb.ach.gz       a NACHA file header, then the same 10 GiB of zeros
#   csv-huge-field.csv     an export header, then a row whose first field is
#                          100 MiB
#   csv-huge-header.csv    "scheme,kind," and a 100 MiB column name
#   csv-wide-header.csv    a header of 3,000,000 columns
#   csv-many-fields.csv    an export header, then a row of 3,000,000 fields
#   csv-garbage.csv        an export header, then 4 KiB of random bytes
#                          (binary-garbage.bin)
#   csv-nul-byte.csv       an export header and a pain.001 row with a NUL byte
#                          in creditor_name
#   csv-invalid-utf8.csv   the same with bytes C3 28 FF in creditor_name
#   csv-quote-bomb.csv     an export header, then a quote that never closes
#                          over 1,000,000 lines
#   csv-quote-run.csv      an export header, then 100 MiB of '"' (doubled
#                          quotes: one field of 50 MiB of quotes, if read)
# (the CSV files are small enough to commit but are made here, from the
# export's own header, so that they follow it)
set -eu
LC_ALL=C
export LC_ALL
out=${1:?usage: generate.sh OUTDIR}
mkdir -p "$out"

mark=HOSTILE-MARKER-7F3A
ns=urn:iso:std:iso:20022:tech:xsd:pain.001.001.09
head_xml() {
	printf '<?xml version="1.0" encoding="UTF-8"?>\n%s<Document xmlns="%s">\n' "${1:-}" "$ns"
	printf '<CstmrCdtTrfInitn><GrpHdr><MsgId>HOSTILE-MSG-1</MsgId>'
	printf '<CreDtTm>2026-11-29T23:00:00Z</CreDtTm><NbOfTxs>1</NbOfTxs>'
	printf '<InitgPty><Nm>Hostile</Nm></InitgPty></GrpHdr><PmtInf><PmtInfId>P1</PmtInfId>'
	printf '<PmtMtd>TRF</PmtMtd><ReqdExctnDt><Dt>2026-11-30</Dt></ReqdExctnDt>'
	printf '<Dbtr><Nm>Debtor</Nm></Dbtr><DbtrAcct><Id><IBAN>DE89370400440532013000</IBAN>'
	printf '</Id></DbtrAcct><DbtrAgt><FinInstnId><BICFI>COBADEFFXXX</BICFI></FinInstnId>'
	printf '</DbtrAgt><CdtTrfTxInf><PmtId><EndToEndId>E2E-1</EndToEndId></PmtId>'
	printf '<Amt><InstdAmt Ccy="EUR">1.00</InstdAmt></Amt><Cdtr><Nm>'
}
tail_xml() {
	printf '</Nm></Cdtr></CdtTrfTxInf></PmtInf></CstmrCdtTrfInitn></Document>\n'
}
# N copies of a string, fast: doubling, then cut
repeat() { # STRING COUNT
	s=$1
	n=$2
	len=${#s}
	printf '%s' "$s" >"$out/.rep"
	have=1
	while [ $((have * 2)) -le "$n" ]; do
		cat "$out/.rep" "$out/.rep" >"$out/.rep2"
		mv "$out/.rep2" "$out/.rep"
		have=$((have * 2))
	done
	cat "$out/.rep"
	head -c $(((n - have) * len)) "$out/.rep"
	rm -f "$out/.rep"
}

{
	head_xml
	printf '%s' "$mark"
	repeat '<Nm>' 100000
	repeat '</Nm>' 100000
	tail_xml
} >"$out/deep-nesting.xml"

{
	head_xml
	printf '%s ' "$mark"
	head -c 104857600 /dev/zero | tr '\0' 'A'
	tail_xml
} >"$out/huge-text-node.xml"

{
	printf '<!DOCTYPE Document [\n<!ENTITY a "'
	head -c 20000 /dev/zero | tr '\0' 'a'
	printf '">\n]>\n'
} >"$out/.doctype"
{
	head_xml "$(cat "$out/.doctype")
"
	printf '%s ' "$mark"
	repeat '&a;' 20000
	tail_xml
} >"$out/quadratic-blowup.xml"
rm -f "$out/.doctype"

{
	printf '<?xml version="1.0" encoding="UTF-8"?>\n<Document xmlns="%s">\n' "$ns"
	printf '<CstmrCdtTrfInitn Note="%s"' "$mark"
	awk 'BEGIN { for (i = 0; i < 20000; i++) printf " a%d=\"x\"", i }'
	printf '>\n</CstmrCdtTrfInitn></Document>\n'
} >"$out/many-attributes.xml"

{
	printf '<?xml version="1.0" encoding="UTF-8"?>\n<Document xmlns="%s">\n' "$ns"
	printf '<CstmrCdtTrfInitn><Nm>%s</Nm>' "$mark"
	awk 'BEGIN { for (i = 0; i < 300000; i++) printf "<n%d/>", i }'
	printf '</CstmrCdtTrfInitn></Document>\n'
} >"$out/many-names.xml"

# 200,000 lines of errors: 5 of each kind reported, the others summed up
{
	printf '101 121042882 2313801042611292300A094101Hostile Test Bank      Hostile Originator             \n'
	awk -v m="$mark" 'BEGIN { for (i = 0; i < 200000; i++) print "5XYZ " m }'
} >"$out/many-errors.ach"

{
	printf '101'
	head -c 1073741824 /dev/zero | tr '\0' 'A'
} >"$out/long-line.ach"

# one member of 100 MiB of zeros (~100 KB), then 100 of them = 10 GiB
head -c 104857600 /dev/zero | gzip -9n >"$out/.zeros.gz"
i=0
: >"$out/gzip-bomb.gz"
while [ $i -lt 10 ]; do
	cat "$out/.zeros.gz" "$out/.zeros.gz" "$out/.zeros.gz" "$out/.zeros.gz" "$out/.zeros.gz" \
		"$out/.zeros.gz" "$out/.zeros.gz" "$out/.zeros.gz" "$out/.zeros.gz" "$out/.zeros.gz"
	i=$((i + 1))
done >"$out/gzip-bomb.gz"
{
	printf '101 121042882 2313801042611292300A094101Hostile Test Bank      Hostile Originator             \n' |
		gzip -9n
	cat "$out/gzip-bomb.gz"
} >"$out/gzip-bomb.ach.gz"
rm -f "$out/.zeros.gz"

# CSV exports (parse --format csv --no-mask of control-valid.xml, with the
# marker as the creditor's name)
csv_header='"file","position","scheme","kind","natural_key","key_rule","fingerprint","amount_minor","direction","currency","value_date","trace_number","sec_code","transaction_code","receiving_dfi","receiving_account","individual_id","individual_name","company_id","company_name","company_entry_description","batch_number","addenda_text","reason_code","original_trace","original_rdfi","corrected_data","dishonored_code","message_type","msg_id","pmt_inf_id","instr_id","end_to_end_id","tx_id","uetr","rtr_id","orgnl_uetr","orgnl_end_to_end_id","orgnl_tx_id","orgnl_msg_id","initiating_party_id","debtor_name","debtor_account","debtor_agent","creditor_name","creditor_account","creditor_agent","instructing_agent","instructed_agent","remittance_text","addenda_count"'
csv_row() { # CREDITOR-NAME-BYTES (printf format)
	printf '"control-valid.xml","20","iso20022","pain.001","DE89370400440532013000|HOSTILE-E2E-1","v1","","12345","credit","EUR","2026-11-30","","","","","","","","","","","","","","","","","","pain.001.001.09","HOSTILE-MSG-1","HOSTILE-PMT-1","","HOSTILE-E2E-1","","","","","","","","","Debtor Name","DE89370400440532013000","COBADEFFXXX","'
	printf "$1"
	printf '","GB29NWBK60161331926819","NWBKGB2LXXX","","","Invoice 42",""\n'
}
{
	printf '%s\n"%s ' "$csv_header" "$mark"
	head -c 104857600 /dev/zero | tr '\0' 'A'
	printf '"\n'
} >"$out/csv-huge-field.csv"
{
	printf 'scheme,kind,%s' "$mark"
	head -c 104857600 /dev/zero | tr '\0' 'A'
	printf '\n'
} >"$out/csv-huge-header.csv"
{
	printf 'scheme,kind'
	head -c 3000000 /dev/zero | tr '\0' ','
	printf '\n%s\n' "$mark"
} >"$out/csv-wide-header.csv"
{
	printf '%s\n%s' "$csv_header" "$mark"
	head -c 3000000 /dev/zero | tr '\0' ','
	printf '\n'
} >"$out/csv-many-fields.csv"
{
	printf '%s\n' "$csv_header"
	cat "$(dirname "$0")/binary-garbage.bin"
	printf '%s\n' "$mark"
} >"$out/csv-garbage.csv"
{
	printf '%s\n' "$csv_header"
	csv_row "$mark\\000"
} >"$out/csv-nul-byte.csv"
{
	printf '%s\n' "$csv_header"
	csv_row "$mark \\303\\050\\377"
} >"$out/csv-invalid-utf8.csv"
{
	printf '%s\n"%s\n' "$csv_header" "$mark"
	awk 'BEGIN { for (i = 0; i < 1000000; i++) print "a,b,c" }'
} >"$out/csv-quote-bomb.csv"
{
	printf '%s\n"%s' "$csv_header" "$mark"
	head -c 104857600 /dev/zero | tr '\0' '"'
	printf '\n'
} >"$out/csv-quote-run.csv"
