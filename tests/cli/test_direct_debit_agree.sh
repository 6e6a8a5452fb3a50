# Every pain.008 and pacs.003 file of testdata/iso20022 (real ones and our
# generator's): parse's records carry exactly the ids, amounts, mandates,
# sequence types, creditor identifiers and dates an independent reader
# (tests/tools/dd_counts.py, ElementTree) finds, in the same order.
. "$(dirname "$0")/lib.sh"
DIR="$TESTDATA/iso20022"
n=0
for f in "$DIR"/corpus/pain.008/*/*.xml "$DIR"/gen/dd_*.xml "$DIR"/gen/pacs003_*.xml; do
	python3 "$CL_ROOT/tests/tools/dd_counts.py" "$f" >"$TMP/want" || fail "dd_counts.py $f"
	"$CL_BIN" parse --format json --no-mask "$f" 2>/dev/null | python3 -c '
import json, sys
for l in sys.stdin:
    o = json.loads(l)
    if o["type"] != "record":
        continue
    v = [o["end_to_end_id"], o["tx_id"], o["uetr"], str(o["amount_minor"]), o["currency"],
         o["mandate_id"], o["mandate_date"], o["sequence_type"], o["creditor_scheme_id"],
         o["value_date"]]
    print("\t".join(x if x else "-" for x in v))' >"$TMP/got"
	[ -s "$TMP/want" ] || fail "$f: the independent reader found no collection"
	diff -u "$TMP/want" "$TMP/got" || fail "$f: parse differs from the independent reader"
	n=$((n + 1))
done
[ "$n" -ge 18 ] || fail "only $n direct debit files compared"
