#!/usr/bin/env python3
"""statement_counts.py FILE... - count what a camt.052/053/054 or pacs.002
file holds, independently of the C reader (ElementTree, namespaces
dropped): one line per file, "statements entries transactions statuses
amount", the columns of testdata/statements/MANIFEST.  amount is the sum of
the entries' amounts (credits minus debits, minor units) for camt, of the
transaction statuses' original amounts for pacs.002."""
import sys
import xml.etree.ElementTree as ET
from decimal import Decimal

EXP = {"JPY": 0, "KRW": 0, "CLP": 0, "BHD": 3, "KWD": 3, "OMR": 3, "JOD": 3, "TND": 3}


def local(tag):
    return tag.rsplit("}", 1)[-1]


def minor(text, ccy):
    return int(Decimal(text.strip()) * (10 ** EXP.get(ccy, 2)))


def child(el, name):
    for c in el:
        if local(c.tag) == name:
            return c
    return None


def count(path):
    root = ET.parse(path).getroot()
    stmts = entries = txs = statuses = amount = 0
    for el in root.iter():
        name = local(el.tag)
        if name in ("Stmt", "Ntfctn", "Rpt"):
            stmts += 1
        elif name == "Ntry":
            entries += 1
            amt, ind = child(el, "Amt"), child(el, "CdtDbtInd")
            if amt is not None and ind is not None:
                v = minor(amt.text, amt.get("Ccy", ""))
                amount += v if ind.text.strip() == "CRDT" else -v
        elif name == "TxDtls":
            txs += 1
        elif name == "OrgnlGrpInfAndSts":
            statuses += 1
        elif name == "TxInfAndSts":
            statuses += 1
            ref = child(el, "OrgnlTxRef")
            if ref is not None:
                a = child(ref, "IntrBkSttlmAmt")
                if a is None and child(ref, "Amt") is not None:
                    a = child(child(ref, "Amt"), "InstdAmt")
                if a is not None:
                    amount += minor(a.text, a.get("Ccy", ""))
    return stmts, entries, txs, statuses, amount


for f in sys.argv[1:]:
    print(f, *count(f))
