#!/usr/bin/env python3
"""csv_gen.py - write a bank CSV statement export and its column map for the
reconcile tests (test_reconcile_csv.sh): the bookings stmt_gen.py writes
as a camt.053, read from standard input in its format, one a line:

    AMOUNT_MINOR CCY CRDT|DBIT DATE [e2e=X] [svcr=X]

account=, map=FILE (where the map is written), style=signed (one signed
amount, decimal comma, ";", dates DD.MM.YYYY, a running balance column:
the German banks' shape) or style=pair (a debit and a credit column,
decimal point, ",", dates MM/DD/YYYY: the US banks' shape), opening=
(minor units), off= (added to the last balance: a balance break)."""
import sys


def money(minor, dec):
    s = "%d%s%02d" % (abs(minor) // 100, dec, abs(minor) % 100)
    return ("-" if minor < 0 else "") + s


def main():
    args = dict(a.split("=", 1) for a in sys.argv[1:])
    acct, style = args["account"], args.get("style", "signed")
    bal = int(args.get("opening", "0"))
    rows = []
    for line in sys.stdin:
        f = line.split()
        if not f:
            continue
        e = {"amount": int(f[0]), "ccy": f[1], "dir": f[2], "date": f[3]}
        for kv in f[4:]:
            k, v = kv.split("=", 1)
            e[k] = v
        rows.append(e)
    out = []
    if style == "signed":
        out.append("Umsaetze;Konto %s" % acct)
        out.append("Buchungstag;Valuta;Auftraggeber/Empfaenger;Verwendungszweck;"
                   "Kundenreferenz;Bankreferenz;Konto;Waehrung;Betrag;Saldo")
        for i, e in enumerate(rows):
            s = e["amount"] if e["dir"] == "CRDT" else -e["amount"]
            bal += s
            if i == len(rows) - 1:
                bal += int(args.get("off", "0"))
            d = e["date"][8:10] + "." + e["date"][5:7] + "." + e["date"][0:4]
            out.append(";".join([d, d, '"Partner %d"' % i, '"Rechnung %d; bezahlt"' % i,
                                 e.get("e2e", ""), e.get("svcr", ""), acct, e["ccy"],
                                 money(s, ","), money(bal, ",")]))
        mp = """# test map: signed amounts, German shape
bank = test-signed
delimiter = ;
skip = 1
decimal = ,
thousands = .
date_format = DD.MM.YYYY
booking_date = Buchungstag
value_date = Valuta
amount = Betrag
currency = Waehrung
account = Konto
balance = Saldo
end_to_end_id = Kundenreferenz
bank_reference = Bankreferenz
counterparty = Auftraggeber/Empfaenger
text = Verwendungszweck
"""
    else:
        out.append("Posting Date,Description,Debit,Credit,Reference,Bank Ref")
        for i, e in enumerate(rows):
            d = e["date"][5:7] + "/" + e["date"][8:10] + "/" + e["date"][0:4]
            a = money(e["amount"], ".")
            out.append(",".join([d, '"PAYMENT %d, ACH"' % i,
                                 a if e["dir"] == "DBIT" else "", a if e["dir"] == "CRDT" else "",
                                 e.get("e2e", ""), e.get("svcr", "")]))
        mp = """# test map: a debit and a credit column, US shape
bank = test-pair
date_format = MM/DD/YYYY
booking_date = Posting Date
debit = Debit
credit = Credit
currency = "%s"
account = "%s"
end_to_end_id = Reference
bank_reference = Bank Ref
text = Description
""" % (rows[0]["ccy"] if rows else "USD", acct)
    with open(args["map"], "w") as f:
        f.write(mp)
    sys.stdout.write("\r\n".join(out) + "\r\n")


main()
