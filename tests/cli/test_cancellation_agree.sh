# Every camt.056 and camt.029 file of testdata/iso20022 (the SWIFT CBPR+ and
# HVPS+ scenarios and our generator's): parse's records carry exactly the
# ids, case, original references, amounts, statuses, reasons and assigners
# an independent reader (tests/tools/cxl_counts.py, ElementTree) finds, in
# the same order.
. "$(dirname "$0")/lib.sh"
DIR="$TESTDATA/iso20022"
n=0
for f in "$DIR"/corpus/cancellation/*/*camt.0[25][69]*.xml "$DIR"/gen/cxl_*.xml; do
	[ -f "$f" ] || continue
	python3 "$CL_ROOT/tests/tools/cxl_counts.py" "$f" >"$TMP/want" || fail "cxl_counts.py $f"
	"$CL_BIN" parse --format json --no-mask "$f" 2>/dev/null | python3 -c '
import json, sys
for l in sys.stdin:
    o = json.loads(l)
    if o["type"] != "record":
        continue
    v = [o["kind"], o["cancellation_id"], o["case_id"], o["orgnl_uetr"],
         o["orgnl_end_to_end_id"], o["orgnl_tx_id"], o["orgnl_instr_id"], o["orgnl_msg_id"],
         str(o["amount_minor"]) if o["currency"] else None, o["currency"],
         o["cancellation_status"], o["reason_code"], o["instructing_agent"]]
    print("\t".join(x if x else "-" for x in v))' >"$TMP/got"
	[ -s "$TMP/want" ] || fail "$f: the independent reader found no cancellation"
	diff -u "$TMP/want" "$TMP/got" || fail "$f: parse differs from the independent reader"
	n=$((n + 1))
done
[ "$n" -ge 11 ] || fail "only $n cancellation files compared"
