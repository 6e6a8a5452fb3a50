#!/usr/bin/env python3
"""recon_scenario.py - the camt.053.001.08 of issue 29's scenario for
test_reconcile_scenario.sh: the bank's statement of a pain.001 of 50
payments (standard input: "E2E AMOUNT_MINOR" a line, in the file's order,
all debits of account= in EUR on date=):

  1-5    one entry booked as a batch (Btch PmtInfId pmtinf=, NbOfTxs 5,
         TtlAmt their sum), each payment in its own TxDtls with its amount
  6-7    each booked 2.50 less, its TxDtls itemising it: Amt the booked
         amount, AmtDtls/InstdAmt and TxAmt ours, Chrgs/Rcrd/Amt 2.50
  8-9    each booked 2.50 less, the entry itemising it: the entry's
         AmtDtls/InstdAmt ours and Chrgs/TtlChrgsAndTaxAmt 2.50, its TxDtls
         references and AmtDtls/TxAmt (ours) only
  10     booked 0.01 more
  11-13  not booked
  14-50  booked as they are
  and two credits that are not ours (THEIRS-1, THEIRS-2).
The balances agree with the entries."""
import sys

def amt(minor):
    s = ("%d" % minor).rjust(3, "0")
    return s[:-2] + "." + s[-2:]

def main():
    args = dict(a.split("=", 1) for a in sys.argv[1:])
    acct, day, pmtinf = args["account"], args["date"], args.get("pmtinf", "PMT-1")
    pays = [(l.split()[0], int(l.split()[1])) for l in sys.stdin if l.strip()]
    assert len(pays) == 50, len(pays)
    fee = 250
    entries = []  # (amount, dir, xml of what follows BkTxCd)

    def refs(e2e):
        return "<Refs><EndToEndId>%s</EndToEndId></Refs>" % e2e

    batch = pays[0:5]
    total = sum(a for _, a in batch)
    x = ("<NtryDtls><Btch><PmtInfId>%s</PmtInfId><NbOfTxs>5</NbOfTxs>"
         '<TtlAmt Ccy="EUR">%s</TtlAmt><CdtDbtInd>DBIT</CdtDbtInd></Btch>' % (pmtinf, amt(total)))
    for e2e, a in batch:
        x += ('<TxDtls>%s<Amt Ccy="EUR">%s</Amt><CdtDbtInd>DBIT</CdtDbtInd></TxDtls>'
              % (refs(e2e), amt(a)))
    entries.append((total, "DBIT", x + "</NtryDtls>"))
    for e2e, a in pays[5:7]:
        entries.append((a - fee, "DBIT",
                        '<NtryDtls><TxDtls>%s<Amt Ccy="EUR">%s</Amt><CdtDbtInd>DBIT</CdtDbtInd>'
                        '<AmtDtls><InstdAmt><Amt Ccy="EUR">%s</Amt></InstdAmt>'
                        '<TxAmt><Amt Ccy="EUR">%s</Amt></TxAmt></AmtDtls>'
                        '<Chrgs><Rcrd><Amt Ccy="EUR">%s</Amt><CdtDbtInd>DBIT</CdtDbtInd>'
                        '<ChrgInclInd>true</ChrgInclInd></Rcrd></Chrgs></TxDtls></NtryDtls>'
                        % (refs(e2e), amt(a - fee), amt(a), amt(a), amt(fee))))
    for e2e, a in pays[7:9]:
        entries.append((a - fee, "DBIT",
                        '<AmtDtls><InstdAmt><Amt Ccy="EUR">%s</Amt></InstdAmt></AmtDtls>'
                        '<Chrgs><TtlChrgsAndTaxAmt Ccy="EUR">%s</TtlChrgsAndTaxAmt></Chrgs>'
                        '<NtryDtls><TxDtls>%s<AmtDtls><TxAmt><Amt Ccy="EUR">%s</Amt></TxAmt>'
                        '</AmtDtls></TxDtls></NtryDtls>' % (amt(a), amt(fee), refs(e2e), amt(a))))
    e2e, a = pays[9]
    entries.append((a + 1, "DBIT", "<NtryDtls><TxDtls>%s</TxDtls></NtryDtls>" % refs(e2e)))
    for e2e, a in pays[13:]:
        entries.append((a, "DBIT", "<NtryDtls><TxDtls>%s</TxDtls></NtryDtls>" % refs(e2e)))
    entries.append((1234567, "CRDT", "<NtryDtls><TxDtls>%s</TxDtls></NtryDtls>" % refs("THEIRS-1")))
    entries.append((7654321, "CRDT", "<NtryDtls><TxDtls>%s</TxDtls></NtryDtls>" % refs("THEIRS-2")))

    opening = 100000000
    net = sum(a if d == "CRDT" else -a for a, d, _ in entries)
    o = sys.stdout
    o.write('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08">\n'
            '<BkToCstmrStmt><GrpHdr><MsgId>STMT-SCN</MsgId><CreDtTm>%sT23:00:00</CreDtTm>'
            '</GrpHdr>\n<Stmt><Id>STMT-SCN-1</Id><ElctrncSeqNb>%s</ElctrncSeqNb>'
            '<CreDtTm>%sT23:00:00</CreDtTm><FrToDt><FrDtTm>%sT00:00:00</FrDtTm>'
            '<ToDtTm>%sT23:59:59</ToDtTm></FrToDt>\n'
            '<Acct><Id><IBAN>%s</IBAN></Id><Ccy>EUR</Ccy></Acct>\n'
            % (day, args.get("seq", "1"), day, day, day, acct))
    for tp, v in (("OPBD", opening), ("CLBD", opening + net)):
        o.write('<Bal><Tp><CdOrPrtry><Cd>%s</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">%s</Amt>'
                '<CdtDbtInd>%s</CdtDbtInd><Dt><Dt>%s</Dt></Dt></Bal>\n'
                % (tp, amt(abs(v)), "CRDT" if v >= 0 else "DBIT", day))
    for a, d, x in entries:
        o.write('<Ntry><Amt Ccy="EUR">%s</Amt><CdtDbtInd>%s</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>'
                '<BookgDt><Dt>%s</Dt></BookgDt><ValDt><Dt>%s</Dt></ValDt>'
                '<BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>%s</Cd><SubFmlyCd>ESCT</SubFmlyCd></Fmly>'
                '</Domn></BkTxCd>%s</Ntry>\n'
                % (amt(a), d, day, day, "ICDT" if d == "DBIT" else "RCDT", x))
    o.write("</Stmt></BkToCstmrStmt></Document>\n")

main()
