# clearing-load prune --journal-before DATE: the journal rows of older loads
# go (only the duplicates with --duplicates-only), an audit row says how
# many; records, loads and the quarantine stay, and a re-upload of a pruned
# load's file is still all duplicate.
. "$(dirname "$0")/lib.sh"
db_new
cl init >/dev/null
D="$TESTDATA/demo"
cl load "$D/original.ach" >/dev/null
cl load "$D/original.ach" >/dev/null           # 15 duplicate events
expect_exit 4 cl load "$D/changed-amount.ach"  # held: conflict events
events() { q "select count(*) from clearing_dedupe_event $1"; }
dups=$(events "where reason = 'duplicate'")
conf=$(events "where reason <> 'duplicate'")
[ "$dups" -gt 0 ] && [ "$conf" -gt 0 ] || fail "setup: $dups duplicate and $conf other events"
q "select * from clearing_record order by tenant, kind, natural_key" >"$TMP/records.before"
q "select load_id, outcome, new_count, duplicate_count, conflict_count from clearing_load order by 1" >"$TMP/loads.before"
tomorrow=$(date -u -d tomorrow +%Y-%m-%d)

# nothing is older than yesterday: nothing goes, and that is recorded too
expect_exit 0 cl prune --journal-before 2000-01-01
grep -q "^pruned 0 journal rows (every reason) of 0 loads started before 2000-01-01 UTC: audit row 1$" "$TMP/out" ||
	fail "empty prune: $(cat "$TMP/out")"

# duplicates only: the conflicts stay
expect_exit 0 cl prune --journal-before "$tomorrow" --duplicates-only
assert_eq "$(events "where reason = 'duplicate'")" 0 "duplicates pruned"
assert_eq "$(events "where reason <> 'duplicate'")" "$conf" "conflicts kept"
assert_eq "$(q "select loads || ' ' || events || ' ' || duplicates_only from clearing_prune_audit where prune_id = 2")" \
	"1 $dups true" "audit row"

# everything before tomorrow
expect_exit 0 cl prune --journal-before "$tomorrow"
assert_eq "$(events "")" 0 "journal empty"
assert_eq "$(q "select events from clearing_prune_audit where prune_id = 3")" "$conf" "audit of the rest"
q "select * from clearing_record order by tenant, kind, natural_key" | cmp -s - "$TMP/records.before" ||
	fail "prune changed clearing_record"
q "select load_id, outcome, new_count, duplicate_count, conflict_count from clearing_load order by 1" |
	cmp -s - "$TMP/loads.before" || fail "prune changed the load history"
# the keys remain: a re-upload is still all duplicate
cl_load "$D/original.ach" >"$TMP/o"
grep -q '"new":0,"duplicate":15' "$TMP/o" || fail "re-upload after prune: $(cat "$TMP/o")"

# usage
expect_exit 2 cl prune
expect_exit 2 cl prune --journal-before 2026-1-1
expect_exit 2 cl prune --journal-before yesterday
echo ok
