#!/usr/bin/env python3
"""mt940_counts.py FILE... - read an MT940/MT942 file independently of the
C reader (written from the SWIFT MT940/MT942 field formats, no code
shared): one line per file, "statements entries transactions statuses
amount", the columns of testdata/statements/MANIFEST.  A statement is a
message (its ":20:"), an entry a statement line ":61:" (each one
transaction: its references), amount the lines' credits (C, RD) minus
debits (D, RC) in minor units of the message's currency (:60F:/:60M:,
else :34F:).  With --balances, also one line per MT940 message: opening,
credits, debits, closing and whether they add up."""
import re
import sys

EXP = {"JPY": 0, "KRW": 0, "HUF": 2, "CLP": 0, "BHD": 3, "KWD": 3, "OMR": 3, "JOD": 3,
       "TND": 3}
TAG = re.compile(r"^:(\d\d[A-Za-z]?):(.*)$")
LINE61 = re.compile(r"^(\d{6})(\d{4})?\s*(RC|RD|C|D|rc|rd|c|d)([A-Za-z])?([\d,]+)")


def minor(text, ccy):
    """'1234,5' -> minor units."""
    whole, _, frac = text.partition(",")
    exp = EXP.get(ccy.upper(), 2)
    frac = (frac + "0" * exp)[:exp]
    return int(whole or "0") * 10 ** exp + int(frac or "0")


def fields(path):
    """The fields of the file, each (tag, first line), messages split at ":20:"."""
    data = open(path, "rb").read().decode("latin-1")
    out = []
    for raw in data.splitlines():
        line = raw.strip("\r\x01\x03\x1a ")
        if "{4:" in line:
            line = line.split("{4:", 1)[1]
        m = TAG.match(line)
        if m:
            out.append((m.group(1).upper(), m.group(2)))
    return out


def count(path, balances):
    stmts = entries = amount = 0
    ccy, opening, cdt, dbt, rows = "EUR", None, 0, 0, []
    for tag, value in fields(path):
        if tag == "20":
            stmts += 1
            ccy, opening, cdt, dbt = "EUR", None, 0, 0
        elif tag in ("60F", "60M"):
            ccy = value[7:10]
            opening = minor(value[10:], ccy) * (-1 if value[0] in "Dd" else 1)
        elif tag == "34F" and opening is None:
            ccy = value[:3]
        elif tag == "61":
            m = LINE61.match(value)
            if not m:
                continue
            entries += 1
            a = minor(m.group(5), ccy)
            credit = m.group(3).upper() in ("C", "RD")
            amount += a if credit else -a
            if credit:
                cdt += a
            else:
                dbt += a
        elif tag in ("62F", "62M") and opening is not None:
            closing = minor(value[10:], ccy) * (-1 if value[0] in "Dd" else 1)
            rows.append("%s %d %d %d %d %s" % (ccy, opening, cdt, dbt, closing,
                                              "ok" if opening + cdt - dbt == closing else "break"))
    print("%s %d %d %d %d %d" % (path, stmts, entries, entries, 0, amount))
    if balances:
        for r in rows:
            print("  " + r)


def main():
    balances = "--balances" in sys.argv
    for path in sys.argv[1:]:
        if path != "--balances":
            count(path, balances)


main()
