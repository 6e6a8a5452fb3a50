#!/usr/bin/env python3
"""stmt_gen.py - write a camt.053.001.08 bank statement for the reconcile
tests (test_reconcile.sh, tests/bench): one statement of one account
(account=IBAN or other id, ccy=, date=, seq=) whose entries are read from
standard input, one a line:

    AMOUNT_MINOR CCY CRDT|DBIT DATE [e2e=X] [uetr=X] [txid=X] [instr=X]
                 [trace=X] [svcr=X] [pmtinf=X] [batch=N] [rtr=CODE] [rvsl=1]
                 [instd=MINOR] [chrgs=MINOR]

batch=N makes the entry a batch entry (Btch NbOfTxs N, TtlAmt the amount;
traces=T1,...,TN gives it N TxDtls without amounts, each with its ACH trace
as ClrSysRef); rtr=CODE a return (RtrInf); rvsl=1 a reversal (RvslInd);
instd= and chrgs= the entry's AmtDtls/InstdAmt and Chrgs/TtlChrgsAndTaxAmt
(minor units, its currency).  The balances agree with the entries:
opening= (minor units, default 0) plus the entries is the closing balance,
unless off= (minor units) is added to it.  open_type= and close_type=
(OPBD, CLBD; ITBD for a page's interim balances), page=N and last=false
(StmtPgntn), msg=camt.052 (an account report, Rpt), summary=N (TxsSummry
TtlNtries/NbOfNtries N)."""
import sys
from xml.sax.saxutils import escape

def amt(minor, ccy):
    exp = 0 if ccy in ("JPY", "KRW") else 2
    s = "%d" % minor
    if exp == 0:
        return s
    s = s.rjust(exp + 1, "0")
    return s[:-exp] + "." + s[-exp:]

def main():
    args = dict(a.split("=", 1) for a in sys.argv[1:])
    acct, ccy = args["account"], args.get("ccy", "EUR")
    seq, day = args.get("seq", "1"), args["date"]
    out = sys.stdout
    entries, net = [], 0
    for line in sys.stdin:
        f = line.split()
        if not f:
            continue
        e = {"amount": int(f[0]), "ccy": f[1], "dir": f[2], "date": f[3]}
        for kv in f[4:]:
            k, v = kv.split("=", 1)
            e[k] = v
        net += e["amount"] if e["dir"] == "CRDT" else -e["amount"]
        entries.append(e)
    out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
    report = args.get("msg") == "camt.052"
    root, stag = ("BkToCstmrAcctRpt", "Rpt") if report else ("BkToCstmrStmt", "Stmt")
    out.write('<Document xmlns="urn:iso:std:iso:20022:tech:xsd:%s.001.08">\n'
              % ("camt.052" if report else "camt.053"))
    out.write('<%s><GrpHdr><MsgId>STMT-%s-%s</MsgId><CreDtTm>%sT23:00:00</CreDtTm>'
              '</GrpHdr>\n' % (root, seq, args.get("page", "1"), day))
    pg = ""
    if "page" in args:
        pg = ('<%sPgntn><PgNb>%s</PgNb><LastPgInd>%s</LastPgInd></%sPgntn>'
              % (stag, args["page"], args.get("last", "true"), stag))
    out.write('<%s><Id>STMT-%s</Id>%s<ElctrncSeqNb>%s</ElctrncSeqNb><CreDtTm>%sT23:00:00'
              '</CreDtTm><FrToDt><FrDtTm>%sT00:00:00</FrDtTm><ToDtTm>%sT23:59:59</ToDtTm>'
              '</FrToDt>\n' % (stag, seq, pg, seq, day, args.get("from", day), day))
    if acct[:2].isalpha() and acct[2:4].isdigit():
        out.write('<Acct><Id><IBAN>%s</IBAN></Id><Ccy>%s</Ccy></Acct>\n' % (acct, ccy))
    else:
        out.write('<Acct><Id><Othr><Id>%s</Id></Othr></Id><Ccy>%s</Ccy></Acct>\n' % (acct, ccy))
    def bal(tp, minor):
        out.write('<Bal><Tp><CdOrPrtry><Cd>%s</Cd></CdOrPrtry></Tp><Amt Ccy="%s">%s</Amt>'
                  '<CdtDbtInd>%s</CdtDbtInd><Dt><Dt>%s</Dt></Dt></Bal>\n'
                  % (tp, ccy, amt(abs(minor), ccy), "CRDT" if minor >= 0 else "DBIT", day))
    opening = int(args.get("opening", "0"))
    bal(args.get("open_type", "OPBD"), opening)
    bal(args.get("close_type", "CLBD"), opening + net + int(args.get("off", "0")))
    if "summary" in args:
        out.write('<TxsSummry><TtlNtries><NbOfNtries>%s</NbOfNtries></TtlNtries></TxsSummry>\n'
                  % args["summary"])
    for i, e in enumerate(entries, 1):
        out.write('<Ntry><Amt Ccy="%s">%s</Amt><CdtDbtInd>%s</CdtDbtInd>%s<Sts><Cd>BOOK</Cd>'
                  '</Sts><BookgDt><Dt>%s</Dt></BookgDt><ValDt><Dt>%s</Dt></ValDt>'
                  % (e["ccy"], amt(e["amount"], e["ccy"]), e["dir"],
                     "<RvslInd>true</RvslInd>" if "rvsl" in e else "", e["date"], e["date"]))
        if "svcr" in e:
            out.write('<AcctSvcrRef>%s</AcctSvcrRef>' % escape(e["svcr"]))
        code = "RRTN" if "rtr" in e else ("ESCT" if e["dir"] == "DBIT" else "ESCT")
        fam = "ICDT" if e["dir"] == "DBIT" else "RCDT"
        out.write('<BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>%s</Cd><SubFmlyCd>%s</SubFmlyCd>'
                  '</Fmly></Domn></BkTxCd>' % (fam, code))
        if "instd" in e:
            out.write('<AmtDtls><InstdAmt><Amt Ccy="%s">%s</Amt></InstdAmt></AmtDtls>'
                      % (e["ccy"], amt(int(e["instd"]), e["ccy"])))
        if "chrgs" in e:
            out.write('<Chrgs><TtlChrgsAndTaxAmt Ccy="%s">%s</TtlChrgsAndTaxAmt></Chrgs>'
                      % (e["ccy"], amt(int(e["chrgs"]), e["ccy"])))
        out.write('<NtryDtls>')
        if "batch" in e:
            n = int(e["batch"])
            out.write('<Btch>')
            if "pmtinf" in e:
                out.write('<PmtInfId>%s</PmtInfId>' % escape(e["pmtinf"]))
            out.write('<NbOfTxs>%d</NbOfTxs><TtlAmt Ccy="%s">%s</TtlAmt><CdtDbtInd>%s'
                      '</CdtDbtInd></Btch>' % (n, e["ccy"], amt(e["amount"], e["ccy"]), e["dir"]))
            for t in e.get("traces", "").split(","):
                if t:
                    out.write('<TxDtls><Refs><ClrSysRef>%s</ClrSysRef></Refs></TxDtls>' % t)
        else:
            out.write('<TxDtls><Refs>')
            for k, tag in (("instr", "InstrId"), ("e2e", "EndToEndId"), ("uetr", "UETR"),
                           ("txid", "TxId"), ("trace", "ClrSysRef")):
                if k in e:
                    out.write('<%s>%s</%s>' % (tag, escape(e[k]), tag))
            out.write('</Refs><Amt Ccy="%s">%s</Amt><CdtDbtInd>%s</CdtDbtInd>'
                      % (e["ccy"], amt(e["amount"], e["ccy"]), e["dir"]))
            if "rtr" in e:
                out.write('<RtrInf><Rsn><Cd>%s</Cd></Rsn></RtrInf>' % e["rtr"])
            out.write('</TxDtls>')
        out.write('</NtryDtls></Ntry>\n')
    out.write('</%s></%s></Document>\n' % (stag, root))

main()
