#!/usr/bin/env python3
"""bai2_counts.py [--items] FILE... - read a BAI2 file independently of the
C reader (written from the BAI 2005 Cash Management specification, no code
shared): one line per file, "statements entries transactions statuses
amount", the columns of testdata/statements/MANIFEST.  A statement is an
account (03), an entry a transaction detail (16); amount is the details'
credits (type codes 100-399) minus debits (400-699) in minor units.  With
--items, also one line per account and detail (account, currency, 010/015
balances, as-of date; detail amount, direction, type code, bank and customer
reference, value date), and every trailer check that fails ("CHECK ...")."""
import sys

EXP = {"JPY": 0, "KRW": 0, "CLP": 0, "BHD": 3, "KWD": 3, "OMR": 3, "JOD": 3, "TND": 3}


def logical_records(text):
    """Physical lines joined with their 88 continuations: (line, code, fields)."""
    recs = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip("\r\n ")
        if not line:
            continue
        code = line[:2]
        if code == "88" and recs:
            prev = recs[-1]
            body = line[3:] if line[2:3] == "," else line[2:]
            prev[2].append((n, body))
            continue
        recs.append([n, code, [(n, line[3:] if line[2:3] == "," else line[2:])]])
    return recs


def fields_of(parts, code):
    """Fields of a record: a 16's text is everything after its sixth field
    (slashes and commas included); other records end at the first "/"."""
    if code == "16":
        first = parts[0][1]
        cut = first.split(",")
        # type, amount, funds type (+ its extra fields), bank ref, cust ref, text
        return cut, [p[1] for p in parts[1:]]
    joined = ""
    for i, (_, body) in enumerate(parts):
        body = body.split("/", 1)[0]
        joined += ("," if i else "") + body
    return joined.split(","), []


def funds_extra(ftype, rest):
    """How many fields follow a funds type code."""
    if ftype == "S":
        return 3
    if ftype == "V":
        return 2
    if ftype == "D":
        try:
            return 1 + 2 * int(rest[0])
        except (ValueError, IndexError):
            return 1
    return 0


def minor(s, ccy):
    s = s.strip()
    if s in ("", "+", "-"):
        return None
    return int(s)  # BAI2 amounts carry implied decimals: minor units as written


def yymmdd(s):
    s = s.strip()
    return "20%s-%s-%s" % (s[0:2], s[2:4], s[4:6]) if len(s) == 6 and s.isdigit() else ""


def read(path, items):
    text = open(path, encoding="latin-1").read()
    stmts = entries = amount = 0
    out, checks = [], []
    group_ccy, asof = "USD", ""
    acct_sum = acct_recs = 0
    grp_sum = grp_recs = grp_accts = 0
    file_sum = file_recs = file_groups = 0
    for line, code, parts in logical_records(text):
        nphys = len(parts)
        f, more_text = fields_of(parts, code)
        file_recs += nphys
        grp_recs += nphys
        acct_recs += nphys
        if code == "01":
            file_recs = nphys
        elif code == "02":
            grp_recs = nphys
            grp_sum = grp_accts = 0
            asof = yymmdd(f[3]) if len(f) > 3 else ""
            group_ccy = f[5].strip() if len(f) > 5 and f[5].strip() else "USD"
        elif code == "03":
            stmts += 1
            grp_accts += 1
            acct_recs = nphys
            acct_sum = 0
            ccy = f[1].strip() if len(f) > 1 and f[1].strip() else group_ccy
            bal = {}
            i = 2
            while i + 1 < len(f):
                tcode, amt = f[i].strip(), f[i + 1]
                if not tcode:  # an empty field before "/" (",/")
                    i += 1
                    continue
                ftype = f[i + 3].strip() if i + 3 < len(f) else ""
                v = minor(amt, ccy)
                if v is not None:
                    acct_sum += v
                    if tcode in ("010", "015"):
                        bal[tcode] = v
                i += 4 + funds_extra(ftype, f[i + 4:])
            out.append("S acct=%s ccy=%s open=%s close=%s asof=%s" % (
                f[0].strip(), ccy, bal.get("010", ""), bal.get("015", ""), asof))
        elif code == "16":
            entries += 1
            tcode, amt = f[0].strip(), f[1] if len(f) > 1 else ""
            ftype = f[2].strip() if len(f) > 2 else ""
            k = 3 + funds_extra(ftype, f[3:])
            val = yymmdd(f[3]) if ftype == "V" and len(f) > 3 else ""
            bank = f[k].strip() if len(f) > k else ""
            cust = f[k + 1].strip() if len(f) > k + 1 else ""
            if bank.endswith("/") and len(f) == k + 1:
                bank = bank[:-1]
            if cust.endswith("/") and len(f) == k + 2:
                cust = cust[:-1]
            v = minor(amt, ccy) or 0
            acct_sum += v
            t = int(tcode) if tcode.isdigit() else 0
            direction = "C" if 100 <= t <= 399 else "D" if 400 <= t <= 699 else "-"
            amount += v if direction == "C" else -v if direction == "D" else 0
            out.append("E amt=%d dir=%s code=%s bank=%s cust=%s val=%s" % (
                v, direction, tcode, bank, cust, val))
        elif code == "49":
            tot = minor(f[0], "") if f else None
            cnt = f[1].strip() if len(f) > 1 else ""
            if tot != acct_sum:
                checks.append("CHECK line %d: 49 total %s, sum %d" % (line, f[0] if f else "", acct_sum))
            if cnt != str(acct_recs):
                checks.append("CHECK line %d: 49 records %s, counted %d" % (line, cnt, acct_recs))
            grp_sum += acct_sum
        elif code == "98":
            if minor(f[0], "") != grp_sum:
                checks.append("CHECK line %d: 98 total %s, sum %d" % (line, f[0], grp_sum))
            if len(f) < 3 or f[1].strip() != str(grp_accts) or f[2].strip() != str(grp_recs):
                checks.append("CHECK line %d: 98 accounts/records %s, counted %d/%d" % (
                    line, ",".join(f[1:3]), grp_accts, grp_recs))
            file_sum += grp_sum
            file_groups += 1
        elif code == "99":
            if minor(f[0], "") != file_sum:
                checks.append("CHECK line %d: 99 total %s, sum %d" % (line, f[0], file_sum))
            if len(f) < 3 or f[1].strip() != str(file_groups) or f[2].strip() != str(file_recs):
                checks.append("CHECK line %d: 99 groups/records %s, counted %d/%d" % (
                    line, ",".join(f[1:3]), file_groups, file_recs))
    if items:
        for o in out + checks:
            print("  " + o)
    return stmts, entries, 0, 0, amount


items = "--items" in sys.argv
for p in [a for a in sys.argv[1:] if a != "--items"]:
    print(p, *read(p, items))
