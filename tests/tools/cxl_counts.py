#!/usr/bin/env python3
"""cxl_counts.py FILE... - what a camt.056 (cancellation request) or camt.029
(its answer) holds, read independently of the C reader (ElementTree,
namespaces dropped, the Document found inside any envelope): one line per
Undrlyg/TxInf or CxlDtls/TxInfAndSts, in file order, tab-separated:

    kind own-id case-id OrgnlUETR OrgnlEndToEndId OrgnlTxId OrgnlInstrId
    OrgnlMsgId amount-in-minor-units currency status reason assigner

own-id is CxlId (camt.056) or CxlStsId (camt.029); the case, the original
message id and the assigner are the transaction's, else its underlying
group's, else the message's (the assigner: BIC, else clearing member id,
else the AppHdr sender); the status (camt.029) is TxCxlSts, else Sts/Conf;
"-" for none.  tests/cli/test_cancellation_agree.sh holds it equal to
parse's records."""
import sys
import xml.etree.ElementTree as ET
from decimal import Decimal

from iso_tree import EXP, find, local, text


def agent(el):
    fi = find(el, "Agt", "FinInstnId")
    if fi is None:
        return None
    return text(fi, "BICFI") or text(fi, "BIC") or text(fi, "ClrSysMmbId", "MmbId")


def main(paths):
    for path in paths:
        root = ET.parse(path).getroot()
        doc = next((e for e in root.iter() if local(e.tag) == "Document"), root)
        hdr = next((e for e in root.iter() if local(e.tag) == "AppHdr"), None)
        hdr_fr = None
        if hdr is not None:
            fi = find(hdr, "Fr", "FIId", "FinInstnId")
            hdr_fr = fi is not None and (text(fi, "BICFI") or text(fi, "ClrSysMmbId", "MmbId"))
        msg = doc[0]
        req = local(msg.tag) == "FIToFIPmtCxlReq"
        asg = find(msg, "Assgnmt")
        grp_asgnr = agent(find(asg, "Assgnr"))
        grp_case = text(msg, "Case", "Id") if req else text(msg, "RslvdCase", "Id")
        conf = None if req else text(msg, "Sts", "Conf")
        for und in (c for c in msg if local(c.tag) == ("Undrlyg" if req else "CxlDtls")):
            og = find(und, "OrgnlGrpInfAndCxl" if req else "OrgnlGrpInfAndSts")
            for tx in (c for c in und if local(c.tag) == ("TxInf" if req else "TxInfAndSts")):
                a = find(tx, "OrgnlIntrBkSttlmAmt")
                minor = ccy = None
                if a is not None:
                    ccy = a.get("Ccy")
                    minor = str(int(Decimal(a.text.strip()) * (10 ** EXP.get(ccy, 2))))
                rsn = find(tx, "CxlRsnInf" if req else "CxlStsRsnInf", "Rsn")
                vals = ["camt.056" if req else "camt.029",
                        text(tx, "CxlId" if req else "CxlStsId"),
                        text(tx, "Case" if req else "RslvdCase", "Id")
                        or (text(og, "Case", "Id") if og is not None and req else None)
                        or grp_case,
                        (text(tx, "OrgnlUETR") or "").lower() or None,
                        text(tx, "OrgnlEndToEndId"), text(tx, "OrgnlTxId"),
                        text(tx, "OrgnlInstrId"),
                        text(tx, "OrgnlGrpInf", "OrgnlMsgId")
                        or (text(og, "OrgnlMsgId") if og is not None else None),
                        minor, ccy,
                        None if req else (text(tx, "TxCxlSts") or conf),
                        (text(rsn, "Cd") or text(rsn, "Prtry")) if rsn is not None else None,
                        agent(find(tx, "Assgnr")) or grp_asgnr or hdr_fr]
                print("\t".join(v if v else "-" for v in vals))


if __name__ == "__main__":
    main(sys.argv[1:])
