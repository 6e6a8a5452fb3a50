#!/usr/bin/env python3
"""recon_answers.py FILE - reconcile --format json's answers without what
names the file (statement keys, load ids): per item its status, reason,
rule, reference, detail and the entry's and record's money, dates and key,
sorted; and the summary's counts.  Two statements of the same bookings in
other formats give the same lines (test_reconcile_mt940.sh,
test_reconcile_csv.sh)."""
import json
import sys

rows = []
for line in open(sys.argv[1]):
    o = json.loads(line)
    if o.get("type") == "reconcile_summary":
        rows.append("summary " + " ".join("%s=%s" % (k, o[k]) for k in
                    ("matched", "unmatched_ours", "unmatched_theirs", "exception")))
    elif "status" in o:
        e, r = o.get("entry") or {}, o.get("record") or {}
        rows.append(" ".join(str(x) for x in
                    (o["status"], o["reason"], o["rule"], o["reference"], o["detail"],
                     e.get("item"), e.get("amount_minor"), e.get("currency"), e.get("direction"),
                     e.get("booking_date"), e.get("value_date"), r.get("natural_key"))))
print("\n".join(sorted(rows)))
