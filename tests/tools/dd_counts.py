#!/usr/bin/env python3
"""dd_counts.py FILE... - what a pain.008 or pacs.003 file holds, read
independently of the C reader (ElementTree, namespaces dropped): one line
per DrctDbtTxInf, in file order, tab-separated:

    EndToEndId TxId UETR amount-in-minor-units currency MndtId DtOfSgntr
    SeqTp CdtrSchmeId value-date

each from where the message puts it (SeqTp and CdtrSchmeId of the
transaction, else of its PmtInf, else, SeqTp, of the group header; the
value date is ReqdColltnDt of the PmtInf in pain.008, IntrBkSttlmDt of
the transaction, else of the group header, in pacs.003); "-" for none.
tests/cli/test_direct_debit_agree.sh holds it equal to parse's records."""
import sys
import xml.etree.ElementTree as ET
from decimal import Decimal

from iso_tree import EXP, find, local, text


def scheme_id(el):
    return (text(el, "CdtrSchmeId", "Id", "PrvtId", "Othr", "Id")
            or text(el, "CdtrSchmeId", "Id", "PrvtId", "OthrId", "Id"))


def amount(el, name):
    a = find(el, name)
    if a is None:
        return "-", "-"
    ccy = a.get("Ccy")
    return str(int(Decimal(a.text.strip()) * (10 ** EXP.get(ccy, 2)))), ccy


def line(tx, amt, seq, cdtr, date):
    minor, ccy = amt
    vals = [text(tx, "PmtId", "EndToEndId"), text(tx, "PmtId", "TxId"),
            (text(tx, "PmtId", "UETR") or "").lower() or None, minor, ccy,
            text(tx, "DrctDbtTx", "MndtRltdInf", "MndtId"),
            text(tx, "DrctDbtTx", "MndtRltdInf", "DtOfSgntr"), seq, cdtr, date]
    print("\t".join(v if v else "-" for v in vals))


def main(paths):
    for path in paths:
        root = ET.parse(path).getroot()
        msg = root if local(root.tag) != "Document" else root[0]
        grp = find(msg, "GrpHdr")
        if local(msg.tag) in ("CstmrDrctDbtInitn", "pain.008.001.01"):
            for pmt in (c for c in msg if local(c.tag) == "PmtInf"):
                for tx in (c for c in pmt if local(c.tag) == "DrctDbtTxInf"):
                    seq = text(tx, "PmtTpInf", "SeqTp") or text(pmt, "PmtTpInf", "SeqTp")
                    cdtr = scheme_id(find(tx, "DrctDbtTx")) or scheme_id(pmt)
                    line(tx, amount(tx, "InstdAmt"), seq, cdtr, text(pmt, "ReqdColltnDt"))
        else:
            for tx in (c for c in msg if local(c.tag) == "DrctDbtTxInf"):
                seq = text(tx, "PmtTpInf", "SeqTp") or text(grp, "PmtTpInf", "SeqTp")
                date = text(tx, "IntrBkSttlmDt") or text(grp, "IntrBkSttlmDt")
                line(tx, amount(tx, "IntrBkSttlmAmt"), seq, scheme_id(find(tx, "DrctDbtTx")),
                     date)


if __name__ == "__main__":
    main(sys.argv[1:])
