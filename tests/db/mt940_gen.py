#!/usr/bin/env python3
"""mt940_gen.py - write an MT940 customer statement for the reconcile tests
(test_reconcile_mt940.sh): the bookings stmt_gen.py writes as a camt.053,
read from standard input in its format, one a line:

    AMOUNT_MINOR CCY CRDT|DBIT DATE [e2e=X] [instr=X] [svcr=X]
                 [instd=MINOR] [chrgs=MINOR]

(instd= and chrgs=: "/OCMT/" and "/CHGS/", in :86: with style=slash, in
the :61: supplementary details with style=de).

account= (an IBAN or another id), ccy=, date= (YYYY-MM-DD, the statement's
day: its closing balance date), seq= (the :28C: statement number),
opening= (minor units, default 0); the closing balance is the opening plus
the entries, plus off= (minor units) when given.  style=slash writes the
end-to-end id as "/EREF/X" in :86: (Dutch banks' structure), style=de as
the German ?20-?29 subfields "EREF+X" (default slash).  page=N and
last=false make it page N of several (:28C: seq/N, :60M: on pages after
the first, :62M: on pages before the last).  envelope=1 wraps it in SWIFT
blocks {1:}{2:}{4: ... -}.  Lines end in CRLF."""
import sys


def amt(minor, ccy):
    exp = 0 if ccy in ("JPY", "KRW") else 2
    s = "%d" % minor
    if exp == 0:
        return s + ","
    s = s.rjust(exp + 1, "0")
    return s[:-exp] + "," + s[-exp:]


def yymmdd(day):
    return day[2:4] + day[5:7] + day[8:10]


def main():
    args = dict(a.split("=", 1) for a in sys.argv[1:])
    acct, ccy = args["account"], args.get("ccy", "EUR")
    seq, day = args.get("seq", "1"), args["date"]
    style = args.get("style", "slash")
    page = args.get("page")
    last = args.get("last", "true") == "true"
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
    out = []
    if args.get("envelope"):
        out.append("{1:F01BANKDEFFAXXX0000000000}{2:O9401200%sBANKDEFFAXXX00000000002603031200N}{4:"
                   % yymmdd(day))
    out.append(":20:STMT%s%s" % (seq, "P" + page if page else ""))
    out.append(":25:%s" % acct)
    out.append(":28C:%s%s" % (seq, "/" + page if page else ""))
    opening = int(args.get("opening", "0"))
    closing = opening + net + int(args.get("off", "0"))
    first = page is None or page == "1"

    def bal(tag, minor):
        return ":%s:%s%s%s%s" % (tag, "C" if minor >= 0 else "D", yymmdd(day), ccy,
                                 amt(abs(minor), ccy))
    out.append(bal("60F" if first else "60M", opening))
    for e in entries:
        ref = e.get("e2e", "NONREF")[:16]
        bank = "//" + e["svcr"] if "svcr" in e else ""
        out.append(":61:%s%s%s%s%s%s%s" % (yymmdd(e["date"]), e["date"][5:7] + e["date"][8:10],
                                          "C" if e["dir"] == "CRDT" else "D", amt(e["amount"], ccy),
                                          "NTRF", ref, bank))
        codes = ""
        if "instd" in e:
            codes += "/OCMT/%s%s/" % (ccy, amt(int(e["instd"]), ccy))
        if "chrgs" in e:
            codes += "/CHGS/%s%s/" % (ccy, amt(int(e["chrgs"]), ccy))
        if codes and style == "de":
            out.append(codes)
        if style == "de":
            purpose = ""
            if "e2e" in e:
                purpose += "EREF+" + e["e2e"]
            if "instr" in e:
                purpose += "KREF+" + e["instr"]
            purpose += "SVWZ+PAYMENT"
            sub = ["?2%d%s" % (i, purpose[i * 27:(i + 1) * 27])
                   for i in range((len(purpose) + 26) // 27)]
            text = "166?00SEPA-UEBERWEISUNG?10931" + "".join(sub)
        else:
            text = "/TRTP/SEPA OVERBOEKING"
            if "e2e" in e:
                text += "/EREF/" + e["e2e"]
            if "instr" in e:
                text += "/KREF/" + e["instr"]
            text += "/REMI/PAYMENT" + codes
        lines = [text[i:i + 65] for i in range(0, len(text), 65)]
        out.append(":86:" + lines[0])
        out.extend(lines[1:])
    out.append(bal("62F" if last else "62M", closing))
    out.append("-}" if args.get("envelope") else "-")
    sys.stdout.write("\r\n".join(out) + "\r\n")


main()
