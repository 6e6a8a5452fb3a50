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

# 200,000 lines of errors: the report stops at --max-errors (default 100)
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
