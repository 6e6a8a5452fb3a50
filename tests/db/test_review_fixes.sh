# Findings of the acceptance review, each fixed, each kept fixed here:
#  21  an ISO file with one natural key twice is rejected (exit 3), not half applied
#   2  --on-conflict=quarantine does not park the same version twice
#  43  a diff whose output nobody reads holds up no load
#   8  an ACH file loaded with --ach-key=batch and again without (or the other
#      way round) is not applied twice
. "$(dirname "$0")/lib.sh"
db_new
cl init >/dev/null
D="$TESTDATA/demo"

# 21
expect_exit 3 cl diff "$TESTDATA/keys/duplicate-e2e.xml"
grep -q 'appears twice in this file' "$TMP/err" || fail "diff: no duplicate_key error: $(cat "$TMP/err")"
expect_exit 3 cl load "$TESTDATA/keys/duplicate-e2e.xml"
grep -q 'duplicate-e2e.xml:[0-9]*: error: the same payment identity (natural key .*) appears twice in this file, on lines [0-9]* and [0-9]*' "$TMP/err" ||
	fail "load: no duplicate_key error naming both lines: $(cat "$TMP/err")"
# load says what differs between the two, word for word as validate does
grep ': error: ' "$TMP/err" >"$TMP/load.err"
grep -q 'as two different payments (amount 18050.68 vs 14360.20, ' "$TMP/load.err" ||
	fail "load: the two payments' difference not named: $(cat "$TMP/load.err")"
expect_exit 3 cl validate "$TESTDATA/keys/duplicate-e2e.xml"
grep ': error: ' "$TMP/err" | diff - "$TMP/load.err" >/dev/null ||
	fail "load and validate word the duplicate differently: $(cat "$TMP/err" "$TMP/load.err")"
assert_eq "$(q 'select count(*) from clearing_record')" 0 "records applied from a file with a key twice"
assert_eq "$(q "select outcome from clearing_load")" rejected "the attempt is recorded as rejected"

# 2
cl load "$D/corrected.ach" >/dev/null
expect_exit 8 cl load --on-conflict=quarantine "$D/changed-amount.ach"
expect_exit 8 cl load --on-conflict=quarantine "$D/changed-amount.ach"
assert_eq "$(q 'select count(*) from clearing_quarantine')" 2 "conflicting versions parked (once each)"
assert_eq "$(q "select count(*) from clearing_dedupe_event where reason = 'conflict'")" 4 \
	"every run still journals its conflicts"

# 43: a diff stopped while streaming its plan (a reader that never reads)
# must not block a load of the same originators.  The plan of 3000 entries
# is far larger than a pipe buffer, so the diff really blocks.
"$CL_TOOLS/gen_ach" --entries 3000 >"$TMP/big.ach"
"$CL_TOOLS/gen_ach" --entries 10 --start 9000 >"$TMP/other.ach"
mkfifo "$TMP/plan"
"$CL_BIN" diff "$TMP/big.ach" >"$TMP/plan" 2>/dev/null &
dpid=$!
exec 3<"$TMP/plan"      # open the reader, read nothing: diff blocks on its output
timeout 15 "$CL_BIN" load "$TMP/other.ach" >"$TMP/out" 2>&1 ||
	fail "a load waited behind a diff whose output was not read: $(cat "$TMP/out")"
kill -0 "$dpid" 2>/dev/null || fail "the diff did not block: the test proves nothing"
exec 3<&-
kill "$dpid" 2>/dev/null || true
wait "$dpid" 2>/dev/null || true
# 8, both ways, in fresh tenants
"$CL_TOOLS/gen_ach" --entries 10 --start 8000 >"$TMP/kb.ach"
cl load --tenant rule-a --ach-key=batch "$TMP/kb.ach" >/dev/null
expect_exit 4 cl load --tenant rule-a "$TMP/kb.ach"
assert_eq "$(q "select count(*) from clearing_record where tenant = 'rule-a'")" 10 \
	"batch key first, then strict: each payment once"
cl load --tenant rule-b "$TMP/kb.ach" >/dev/null
expect_exit 4 cl load --tenant rule-b --ach-key=batch "$TMP/kb.ach"
assert_eq "$(q "select count(*) from clearing_record where tenant = 'rule-b'")" 10 \
	"strict first, then batch key: each payment once"
assert_eq "$(q "select count(*) from clearing_dedupe_event e join clearing_load l using (load_id)
	where l.tenant in ('rule-a', 'rule-b') and e.reason = 'near_duplicate'")" 20 \
	"every entry journaled as the same payment under the other key rule"
# 15: while a load's transaction has not ended (here: a session holding the
# UUID lock every load holds from BEGIN to its end), `loads --uuid` says
# "still in progress" (exit 6), never "did not commit"
u=6f1c2a3b-0000-4000-8000-00000000abcd
mkfifo "$TMP/sql"
psql -XAtq -v ON_ERROR_STOP=1 <"$TMP/sql" >"$TMP/psql.out" 2>&1 &
ppid=$!
exec 4>"$TMP/sql"
echo "begin; select pg_advisory_xact_lock(hashtextextended(lower('$u'), 0)); select 'locked';" >&4
while ! grep -q locked "$TMP/psql.out"; do
	kill -0 "$ppid" 2>/dev/null || fail "psql ended: $(cat "$TMP/psql.out")"
done
expect_exit 6 cl loads --uuid "$u"
grep -q "still in progress" "$TMP/err" || fail "loads --uuid: $(cat "$TMP/err")"
echo "rollback;" >&4
exec 4>&-
wait "$ppid"
expect_exit 7 cl loads --uuid "$u"
grep -q "did not commit" "$TMP/err" || fail "loads --uuid after the end: $(cat "$TMP/err")"
echo ok
