#!/usr/bin/env python3
"""gen_answers.py KIND N - write a bank's answer of N items to standard
output, for the reader figures of `make bench` (tests/bench/run.sh):

  camt.053  one statement (camt.053.001.08) of N booked entries, each with
            one TxDtls carrying an EndToEndId; the balances add up
  bai2      one BAI2 file of one account with N type-16 details; every
            control total and record count as the specification says
  pacs.002  one FIToFIPmtStsRpt (pacs.002.001.10) of N TxInfAndSts
  csv       a bank's CSV export of N rows (semicolons, decimal comma,
            DD.MM.YYYY, a running balance; the map gen_answers.py csv-map
            prints), one account
  mt940     MT940 messages of 1,000 statement lines each (a FIN message is
            small; the reader holds one), N lines in all, each with a :86:
            carrying "/EREF/"; the balances add up

The amounts vary (1.00 to 9,999.99) so that no reader can take a shortcut."""
import sys

def amount(i):
    return 100 + (i * 7919) % 999900

def money(minor):
    return "%d.%02d" % (minor // 100, minor % 100)

def camt053(n, out):
    entries = []
    net = 0
    for i in range(n):
        a = amount(i)
        d = "CRDT" if i % 3 else "DBIT"
        net += a if d == "CRDT" else -a
        entries.append((a, d))
    w = out.write
    w('<?xml version="1.0" encoding="UTF-8"?>\n'
      '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08">\n'
      '<BkToCstmrStmt><GrpHdr><MsgId>BENCH-STMT</MsgId><CreDtTm>2026-03-03T23:00:00'
      '</CreDtTm></GrpHdr>\n<Stmt><Id>BENCH-STMT-1</Id><ElctrncSeqNb>1</ElctrncSeqNb>'
      '<CreDtTm>2026-03-03T23:00:00</CreDtTm>\n'
      '<Acct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>EUR</Ccy></Acct>\n')
    for tp, minor in (("OPBD", 0), ("CLBD", net)):
        w('<Bal><Tp><CdOrPrtry><Cd>%s</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">%s</Amt>'
          '<CdtDbtInd>%s</CdtDbtInd><Dt><Dt>2026-03-03</Dt></Dt></Bal>\n'
          % (tp, money(abs(minor)), "CRDT" if minor >= 0 else "DBIT"))
    for i, (a, d) in enumerate(entries):
        w('<Ntry><Amt Ccy="EUR">%s</Amt><CdtDbtInd>%s</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>'
          '<BookgDt><Dt>2026-03-03</Dt></BookgDt><ValDt><Dt>2026-03-03</Dt></ValDt>'
          '<AcctSvcrRef>SVC%09d</AcctSvcrRef><BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>%s</Cd>'
          '<SubFmlyCd>ESCT</SubFmlyCd></Fmly></Domn></BkTxCd><NtryDtls><TxDtls><Refs>'
          '<EndToEndId>E2E-%09d</EndToEndId></Refs><Amt Ccy="EUR">%s</Amt><CdtDbtInd>%s'
          '</CdtDbtInd></TxDtls></NtryDtls></Ntry>\n'
          % (money(a), d, i, "ICDT" if d == "DBIT" else "RCDT", i, money(a), d))
    w('</Stmt></BkToCstmrStmt></Document>\n')

def bai2(n, out):
    details, total, net = [], 0, 0
    for i in range(n):
        a = amount(i)
        code = 195 if i % 3 else 495
        net += a if code < 400 else -a
        total += a
        details.append("16,%d,%d,0,BREF%09d,CREF%09d,BENCH PAYMENT %d/" % (code, a, i, i, i))
    summary = "03,555000222,USD,010,0,,,015,%d,,/" % net
    t49 = total + net          # the 03 amounts (0 and the closing) and the 16s
    w = out.write
    w("01,BANKSEND,CUSTRECV,260303,2300,BENCH1,80,,2/\n")
    w("02,CUSTRECV,BANKSEND,1,260303,2400,USD,2/\n")
    w(summary + "\n")
    for d in details:
        w(d + "\n")
    w("49,%d,%d/\n" % (t49, n + 2))
    w("98,%d,1,%d/\n" % (t49, n + 4))
    w("99,%d,1,%d/\n" % (t49, n + 6))

def pacs002(n, out):
    w = out.write
    w('<?xml version="1.0" encoding="UTF-8"?>\n'
      '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pacs.002.001.10">\n'
      '<FIToFIPmtStsRpt><GrpHdr><MsgId>BENCH-STS</MsgId><CreDtTm>2026-03-03T23:00:00'
      '</CreDtTm></GrpHdr>\n<OrgnlGrpInfAndSts><OrgnlMsgId>BENCH-P8</OrgnlMsgId>'
      '<OrgnlMsgNmId>pacs.008.001.08</OrgnlMsgNmId></OrgnlGrpInfAndSts>\n')
    for i in range(n):
        w('<TxInfAndSts><OrgnlInstrId>I%09d</OrgnlInstrId><OrgnlEndToEndId>E2E-%09d'
          '</OrgnlEndToEndId><OrgnlTxId>TX%09d</OrgnlTxId><TxSts>%s</TxSts></TxInfAndSts>\n'
          % (i, i, i, "ACSC" if i % 10 else "RJCT"))
    w('</FIToFIPmtStsRpt></Document>\n')

def mt_money(minor):
    return "%d,%02d" % (minor // 100, minor % 100)

def mt940(n, out):
    w = out.write
    balance, i, seq = 0, 0, 0
    while i < n:
        seq += 1
        w(":20:BENCH%d\r\n:25:DE89370400440532013000\r\n:28C:%d/1\r\n" % (seq, seq))
        w(":60F:%s260303EUR%s\r\n" % ("C" if balance >= 0 else "D", mt_money(abs(balance))))
        for _ in range(min(1000, n - i)):
            a = amount(i)
            d = "C" if i % 3 else "D"
            balance += a if d == "C" else -a
            w(":61:2603030303%s%sNTRFNONREF//SVC%09d\r\n" % (d, mt_money(a), i))
            w(":86:/TRTP/SEPA OVERBOEKING/EREF/E2E-%09d/REMI/BENCH PAYMENT %d\r\n" % (i, i))
            i += 1
        w(":62F:%s260303EUR%s\r\n-\r\n" % ("C" if balance >= 0 else "D", mt_money(abs(balance))))

CSV_MAP = """bank = bench
delimiter = ;
decimal = ,
thousands = .
date_format = DD.MM.YYYY
booking_date = Buchungstag
value_date = Valuta
amount = Betrag
currency = Waehrung
account = Konto
balance = Saldo
end_to_end_id = Referenz
bank_reference = Bankreferenz
counterparty = Name
text = Verwendungszweck
"""

def csv(n, out):
    w = out.write
    w("Buchungstag;Valuta;Name;Verwendungszweck;Referenz;Bankreferenz;Konto;Waehrung;"
      "Betrag;Saldo\r\n")
    bal = 0
    for i in range(n):
        a = amount(i)
        s = a if i % 3 else -a
        bal += s
        w('03.03.2026;03.03.2026;"Partner %d";"Rechnung %d; bezahlt";E2E-%09d;SVC%09d;'
          'DE89370400440532013000;EUR;%s%d,%02d;%s%d,%02d\r\n'
          % (i, i, i, i, "-" if s < 0 else "", abs(s) // 100, abs(s) % 100,
             "-" if bal < 0 else "", abs(bal) // 100, abs(bal) % 100))

def main():
    if sys.argv[1] == "csv-map":
        sys.stdout.write(CSV_MAP)
        return
    kind, n = sys.argv[1], int(sys.argv[2])
    {"camt.053": camt053, "bai2": bai2, "pacs.002": pacs002, "mt940": mt940, "csv": csv}[kind](n, sys.stdout)

if __name__ == "__main__":
    main()
