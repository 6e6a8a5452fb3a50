# tests/tools/plan_check.py itself, on plans written as EXPLAIN (FORMAT
# JSON) gives them: the near probe as a planner without statistics chose it
# (the unique index, its condition on the tenant, kind and shard: the
# shard comes after the natural key, so it bounds nothing) fails; the probe
# of the near index passes; a sequential scan of the history fails.
. "$(dirname "$0")/lib.sh"
CHECK="$CL_ROOT/tests/tools/plan_check.py"

# plan NAME INDEX COND: a near probe under Nested Loop > Limit > Sort
plan() {
	printf '@@plan %s\n' "$1"
	printf '[{"Plan": {"Node Type": "Nested Loop", "Plans": [
	  {"Node Type": "Seq Scan", "Relation Name": "cl_pending"},
	  {"Node Type": "Limit", "Plans": [{"Node Type": "Sort", "Plans": [
	    {"Node Type": "Index Scan", "Relation Name": "clearing_record", "Index Name": "%s",
	     "Index Cond": "%s", "Filter": "(natural_key <> c.natural_key)"}]}]}]}}]\n' "$2" "$3"
}

plan near_by_key clearing_record_key \
	"((tenant = current_setting('clearing_load.tenant'::text)) AND (kind = c.kind) AND (shard = c.shard))" \
	>"$TMP/bad"
set +e
python3 "$CHECK" check "$TMP/bad" >"$TMP/bad.out" 2>&1
rc=$?
set -e
[ "$rc" = 1 ] || fail "the unique index walked by tenant, kind and shard passed: $(cat "$TMP/bad.out")"
grep -q "^FAIL near_by_key:" "$TMP/bad.out" || fail "not named: $(cat "$TMP/bad.out")"
grep -q "alone walks the tenant's every row" "$TMP/bad.out" || fail "not said why: $(cat "$TMP/bad.out")"

plan near_by_near clearing_record_near_key \
	"((tenant = current_setting('clearing_load.tenant'::text)) AND (near_key = c.near_key))" \
	>"$TMP/good"
python3 "$CHECK" check "$TMP/good" >"$TMP/good.out" 2>&1 || fail "the near index probe failed: $(cat "$TMP/good.out")"
grep -q "^ok   near_by_near: Index Scan on clearing_record using clearing_record_near_key" "$TMP/good.out" ||
	fail "the near index probe not listed: $(cat "$TMP/good.out")"

printf '@@plan whole\n[{"Plan": {"Node Type": "Seq Scan", "Relation Name": "clearing_record"}}]\n' >"$TMP/seq"
set +e
python3 "$CHECK" check "$TMP/seq" >"$TMP/seq.out" 2>&1
rc=$?
set -e
[ "$rc" = 1 ] && grep -q "reads the whole table" "$TMP/seq.out" ||
	fail "a sequential scan of the history passed: $(cat "$TMP/seq.out")"
echo ok
