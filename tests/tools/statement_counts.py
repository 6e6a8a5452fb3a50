#!/usr/bin/env python3
"""statement_counts.py FILE... - count what a camt.052/053/054, pacs.002 or pain.002
file holds, independently of the C reader (ElementTree, namespaces
dropped): one line per file, "statements entries transactions statuses
amount", the columns of testdata/statements/MANIFEST.  amount is the sum of
the entries' amounts (credits minus debits, minor units) for camt, of the
transaction statuses' original amounts for pacs.002.  With --items, also
one line per statement (Id, account, currency, FrDtTm, opening OPBD/PRCD
and closing CLBD balances), transaction (references, amount) and, after
its transactions, entry (amount, currency, direction, booking
and value dates, NtryRef, AcctSvcrRef, bank transaction code), in the order of the file; for pacs.002 one line
per group and transaction status (status, original references, amount)."""
import sys
import xml.etree.ElementTree as ET
from decimal import Decimal, InvalidOperation

EXP = {"JPY": 0, "KRW": 0, "CLP": 0, "BHD": 3, "KWD": 3, "OMR": 3, "JOD": 3, "TND": 3}


def local(tag):
    return tag.rsplit("}", 1)[-1]


def minor(text, ccy):
    try:
        return int(Decimal((text or "").strip()) * (10 ** EXP.get(ccy, 2)))
    except InvalidOperation:  # not a number: the C reader refuses the file
        return 0


def child(el, name):
    if el is None:
        return None
    for c in el:
        if local(c.tag) == name:
            return c
    return None


def path_text(el, *names):
    """The text at el/names[0]/names[1]/..., "" when absent."""
    for n in names:
        if el is None:
            return ""
        el = child(el, n)
    return (el.text or "").strip() if el is not None else ""


def balance(stmt, codes):
    for b in stmt:
        if local(b.tag) != "Bal":
            continue
        # .001.01 writes the type Tp/Cd, later versions Tp/CdOrPrtry/Cd
        code = path_text(b, "Tp", "CdOrPrtry", "Cd") or path_text(b, "Tp", "Cd")
        if code in codes:
            amt = child(b, "Amt")
            v = minor(amt.text, amt.get("Ccy", ""))
            if path_text(b, "CdtDbtInd") == "DBIT":
                v = -v
            date = path_text(b, "Dt", "Dt") or path_text(b, "Dt", "DtTm")
            return "%s:%d:%s" % (code, v, date[:10])
    return ":0:"


def date_of(el):
    return (path_text(el, "Dt") or path_text(el, "DtTm"))[:10]


def tx_code(ntry):
    b = child(ntry, "BkTxCd")
    if path_text(b, "Domn", "Cd"):
        return "/".join((path_text(b, "Domn", "Cd"), path_text(b, "Domn", "Fmly", "Cd"),
                         path_text(b, "Domn", "Fmly", "SubFmlyCd")))
    return path_text(b, "Prtry", "Cd")


def item_lines(root):
    out = []
    for st in root.iter():
        if local(st.tag) not in ("Stmt", "Ntfctn", "Rpt"):
            continue
        acct = child(st, "Acct")
        opening = balance(st, ("OPBD",))
        if opening == ":0:":
            opening = balance(st, ("PRCD",))
        out.append("S from=%s id=%s acct=%s%s ccy=%s open=%s close=%s" % (
            path_text(st, "FrToDt", "FrDtTm")[:10], path_text(st, "Id"),
            path_text(acct, "Id", "IBAN"), path_text(acct, "Id", "Othr", "Id") or
            path_text(acct, "Id", "BBAN") or path_text(acct, "Id", "UPIC") or
            path_text(acct, "Id", "PrtryAcct", "Id"),
            path_text(acct, "Ccy"), opening, balance(st, ("CLBD",))))
        for ntry in st:
            if local(ntry.tag) != "Ntry":
                continue
            amt = child(ntry, "Amt")
            ind = path_text(ntry, "CdtDbtInd")
            entry = ("E amt=%d ccy=%s dir=%s bk=%s val=%s ref=%s svcr=%s cust= code=%s" % (
                minor(amt.text, amt.get("Ccy", "")), amt.get("Ccy", ""),
                "C" if ind == "CRDT" else "D", date_of(child(ntry, "BookgDt")),
                date_of(child(ntry, "ValDt")), path_text(ntry, "NtryRef"),
                path_text(ntry, "AcctSvcrRef"), tx_code(ntry)))
            # the entry line follows its transactions, as the C reader
            # gives the entry once its NtryDtls are read
            for tx in ntry.iter():
                if local(tx.tag) != "TxDtls":
                    continue
                refs = child(tx, "Refs")
                out.append("T amt= e2e=%s txid=%s instr=%s svcr=%s uetr=%s" % tuple(
                    path_text(refs, n) for n in ("EndToEndId", "TxId", "InstrId", "AcctSvcrRef", "UETR")))
                a = child(tx, "Amt")
                if a is None:
                    a = child(child(child(tx, "AmtDtls"), "TxAmt"), "Amt")
                if a is not None:
                    d = path_text(tx, "CdtDbtInd") or ind
                    out.append("  tamt=%d %s %s" % (minor(a.text, a.get("Ccy", "")), a.get("Ccy", ""),
                                                    "C" if d == "CRDT" else "D"))
            out.append(entry)
    group_msg = ""
    for el in root.iter():
        name = local(el.tag)
        if name == "OrgnlGrpInfAndSts":
            group_msg = path_text(el, "OrgnlMsgId")
            out.append("P sts=%s e2e= txid= instr= uetr= msg=%s amt=-1" % (
                path_text(el, "GrpSts"), group_msg))
        elif name == "TxInfAndSts":
            ref = child(el, "OrgnlTxRef")
            a = child(ref, "IntrBkSttlmAmt")
            if a is None:
                a = child(child(ref, "Amt"), "InstdAmt")
            out.append("P sts=%s e2e=%s txid=%s instr=%s uetr=%s msg=%s amt=%d" % (
                path_text(el, "TxSts"), path_text(el, "OrgnlEndToEndId"),
                path_text(el, "OrgnlTxId"), path_text(el, "OrgnlInstrId"),
                path_text(el, "OrgnlUETR"),
                path_text(el, "OrgnlGrpInf", "OrgnlMsgId") or group_msg,
                minor(a.text, a.get("Ccy", "")) if a is not None else -1))
    return out


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
                amount += v if (ind.text or "").strip() == "CRDT" else -v
        elif name == "TxDtls":
            txs += 1
        elif name in ("OrgnlGrpInfAndSts", "OrgnlPmtInfAndSts"):
            statuses += 1  # (a pain.002 block's status is one too)
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


items = "--items" in sys.argv
for f in [a for a in sys.argv[1:] if a != "--items"]:
    print(f, *count(f))
    if items:
        for line in item_lines(ET.parse(f).getroot()):
            print(line)
