# resolve, prune and reconcile run their transactions through the one retry policy
# (cl_db_run_txn, CL_DB_MAX_RETRIES): a serialization failure (40001) or a
# deadlock (40P01) met inside one is the whole transaction run again, not
# the command's end.  The failure is made deterministic: a trigger raises
# 40001 the first time it fires (a sequence remembers, across the
# rollback), inside the command's transaction.  (init: test_transient.sh.)
. "$(dirname "$0")/lib.sh"
db_new
cl init >/dev/null
D=$TESTDATA/demo
# fail_once TABLE EVENT: TABLE's EVENT fails once with 40001
fail_once() {
	q "create sequence if not exists fail_$1;
	   create or replace function fail_$1() returns trigger language plpgsql as \$\$
	   begin
	     if nextval('fail_$1') = 1 then
	       raise exception 'could not serialize access (test)' using errcode = '40001';
	     end if;
	     return null;
	   end \$\$;
	   create trigger fail_$1 before $2 on $1 for each statement execute function fail_$1()" >/dev/null
}

# resolve: its resolution row meets the failure, the resolution is made
# once all the same
cl load "$D/original.ach" >/dev/null
set +e
cl load "$D/changed-amount.ach" >/dev/null 2>&1
set -e
lid=$(q "select load_id from clearing_load where outcome = 'held'")
ord=$(q "select min(ordinal) from clearing_dedupe_event where load_id = $lid and reason = 'conflict'")
fail_once clearing_resolution insert
expect_exit 0 cl resolve --load "$lid" --ordinal "$ord" --dismiss
assert_eq "$(q "select count(*) from clearing_resolution where load_id = $lid and ordinal = $ord")" 1 "resolved once"
assert_eq "$(q "select last_value from fail_clearing_resolution")" 2 "the trigger fired twice (failed, then passed)"

# prune: one load's delete meets the failure; every load's journal is
# pruned, the audit row says so once
fail_once clearing_dedupe_event delete
tomorrow=$(date -u -d tomorrow +%Y-%m-%d)
before=$(q "select count(*) from clearing_dedupe_event")
nloads=$(q "select count(*) from clearing_load")
[ "$before" -gt 0 ] || fail "no journal rows to prune"
expect_exit 0 cl prune --journal-before "$tomorrow"
assert_eq "$(q "select last_value from fail_clearing_dedupe_event")" $((nloads + 1)) \
	"the trigger fired once per load, and once more for the load whose delete failed"
assert_eq "$(q "select count(*) from clearing_dedupe_event")" 0 "every journal row pruned"
assert_eq "$(q "select events from clearing_prune_audit")" "$before" "the audit counts them once"

# reconcile: its run row meets the failure; the whole run again, its
# matches recorded once and its summary counted once
cl load -q "$TESTDATA/statements/corpus/camt.053/abn_amro_example_camt.xml"
fail_once clearing_reconcile_run insert
expect_exit 10 cl reconcile --format json # 10: differences (nothing of ours in this database)
assert_eq "$(q "select last_value from fail_clearing_reconcile_run")" 2 "the trigger fired twice (failed, then passed)"
assert_eq "$(q "select count(*) from clearing_reconcile_run")" 1 "one run recorded"
assert_eq "$(grep -c '"type":"reconcile_summary"' "$TMP/out")" 1 "one summary"
assert_eq "$(q "select count(*) from clearing_reconcile_statement")" \
	"$(q "select count(distinct statement_key) from clearing_statement_item")" "each statement marked once"
echo ok
