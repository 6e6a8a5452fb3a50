#!/bin/sh
# clearing-load conflicts and resolve: the conflicts of held and quarantined
# files listed with the old and the new value of each differing field; a
# version accepted as a correction (a record of its own, linked, journaled,
# in the feed once) or dismissed; resolving again changes nothing, the
# other verdict is refused; two resolvers at once apply once; show finds a
# payment seen only in a held file.
. "$(dirname "$0")/lib.sh"
: "${CL_TOOLS:?}"
CHECK="$CL_ROOT/tests/tools/json_output_check.py"
SCHEMA="$CL_ROOT/man/clearing-load-output.schema.json"
db_new
cl init ${CL_INIT_ARGS:-} >/dev/null
assert_init_args
D="$TESTDATA/demo"

# ---- a held file: two amounts changed ----
cl load "$D/corrected.ach" >/dev/null
expect_exit 4 cl load "$D/changed-amount.ach"
held=$(q "select max(load_id) from clearing_load")
assert_eq "$(q "select count(*) from clearing_quarantine where load_id = $held")" 2 \
	"a held file keeps its conflicting versions"
# for a person: two lines per conflict, the amounts as money, what
# differs old -> new, the total per currency at the end
expect_exit 0 cl conflicts
assert_eq "$(wc -l <"$TMP/out")" 5 "two lines per conflict and a total: $(cat "$TMP/out")"
grep -q "^load $held line 13  conflict  ach.entry .*  USD [0-9,]*\.[0-9][0-9]  tenant default  unresolved$" \
	"$TMP/out" || fail "compact first line: $(cat "$TMP/out")"
grep -q "^  amount USD 884.99 -> USD 885.00; matches load 1 line [0-9]* (" "$TMP/out" ||
	fail "compact change as money: $(cat "$TMP/out")"
total=$(q "select 'USD ' || to_char(sum(amount_minor) / 100.0, 'FM999,999,990.00')
           from clearing_quarantine where load_id = $held")
assert_eq "$(tail -1 "$TMP/out")" "2 conflicts: $total (2)" "the total per currency"
if grep -q '88499\|88500' "$TMP/out"; then fail "minor units for a person: $(cat "$TMP/out")"; fi
# --verbose: every column, as before
expect_exit 0 cl conflicts --verbose
assert_eq "$(grep -c '^conflict:' "$TMP/out")" 2 "two conflicts listed"
grep -q "^  outcome              held$" "$TMP/out" || fail "outcome: $(cat "$TMP/out")"
grep -q "^  line                 13$" "$TMP/out" || fail "line: $(cat "$TMP/out")"
grep -q "^  matched_line         15$" "$TMP/out" || fail "matched line: $(cat "$TMP/out")"
grep -q "^  changed              amount_minor: 88499 -> 88500$" "$TMP/out" ||
	fail "old and new value: $(cat "$TMP/out")"
grep -q "2 unresolved conflicts" "$TMP/err" || fail "count: $(cat "$TMP/err")"
expect_exit 0 cl conflicts --format json
cp "$TMP/out" "$TMP/conflicts.json"
python3 "$CHECK" "$SCHEMA" --expect conflict "$TMP/conflicts.json" || fail "conflicts JSON"
grep -q '"changes":\[{"field":"amount_minor","old":"88499","new":"88500"}\]' "$TMP/conflicts.json" ||
	fail "JSON changes: $(cat "$TMP/conflicts.json")"
expect_exit 0 cl conflicts --format csv
head -1 "$TMP/out" | grep -q '^"type","load_id","outcome",.*"field","old_value","new_value"$' ||
	fail "CSV header: $(head -1 "$TMP/out")"
assert_eq "$(grep -c '^"conflict",' "$TMP/out")" 2 "CSV: one row per changed field"

# ---- a quarantined file, another tenant ----
"$CL_TOOLS/gen_ach" --entries 10 --seed 7 >"$TMP/q1.ach"
"$CL_TOOLS/gen_ach" --entries 10 --seed 7 --bump-amount-every 5 >"$TMP/q2.ach"
cl load --tenant q "$TMP/q1.ach" >/dev/null
expect_exit 8 cl load --tenant q --on-conflict=quarantine "$TMP/q2.ach"
quar=$(q "select max(load_id) from clearing_load")
expect_exit 0 cl conflicts --verbose --tenant q
assert_eq "$(grep -c '^conflict:' "$TMP/out")" 2 "the tenant's conflicts"
grep -q "^  outcome              quarantined$" "$TMP/out" || fail "quarantined: $(cat "$TMP/out")"
expect_exit 0 cl conflicts --verbose --load "$held"
assert_eq "$(grep -c "^  load_id              $held$" "$TMP/out")" 2 "--load: that load's"
assert_eq "$(grep -c '^conflict:' "$TMP/out")" 2 "--load: only that load's"

# ---- accept: a correction, never an update ----
record_dump >"$TMP/before"
feed_before=$(q "select count(*) from clearing_feed_commit")
expect_exit 0 cl resolve --load "$held" --line 13 --accept --note "the bank confirmed"
grep -q "^accepted: load $held ordinal 10 (tenant default): correction .*#corr1 (load [0-9]*)$" \
	"$TMP/out" || fail "accept: $(cat "$TMP/out" "$TMP/err")"
corr=$(q "select resolution_load_id from clearing_resolution where load_id = $held and ordinal = 10")
orig_key=$(q "select natural_key from clearing_record where load_id = 1 and ordinal = 10")
assert_eq "$(q "select natural_key || ' ' || amount_minor || ' ' || position from clearing_record
	where load_id = $corr")" "$orig_key#corr1 88500 13" "the correction: own key, new amount"
assert_eq "$(q "select amount_minor from clearing_record where load_id = 1 and ordinal = 10")" 88499 \
	"the corrected record unchanged"
record_dump | grep -v '#corr1' | cmp -s - "$TMP/before" || fail "accept changed another record"
assert_eq "$(q "select reason || ' ' || matched_key || ' ' || matched_load_id || ' ' || matched_ordinal
	|| ' ' || array_to_string(fields, ',') from clearing_dedupe_event where load_id = $corr")" \
	"correction $orig_key 1 10 amount_minor" "journaled as a correction of the record"
assert_eq "$(q "select outcome || ' ' || new_count from clearing_load where load_id = $corr")" \
	"committed 1" "its load row"
assert_eq "$(q "select note from clearing_resolution where load_id = $held and ordinal = 10")" \
	"the bank confirmed" "the note kept"
assert_eq "$(q "select count(*) from clearing_feed_commit")" "$((feed_before + 1))" "a feed commit"
# again: nothing changes, exit 0
expect_exit 0 cl resolve --load "$held" --ordinal 10 --accept --format json
python3 "$CHECK" "$SCHEMA" --expect resolution "$TMP/out" || fail "resolution JSON"
grep -q '"verdict":"accepted","already":true' "$TMP/out" || fail "again: $(cat "$TMP/out")"
grep -q "was accepted before: nothing changed" "$TMP/err" || fail "again: $(cat "$TMP/err")"
assert_eq "$(q "select count(*) from clearing_record where natural_key like '%#corr%'")" 1 \
	"accepting again applies nothing"
# the other verdict: refused
expect_exit 2 cl resolve --load "$held" --line 13 --dismiss
grep -q "was accepted before: cannot dismiss it" "$TMP/err" || fail "refused: $(cat "$TMP/err")"

# ---- dismiss ----
n_rec=$(q "select count(*) from clearing_record")
expect_exit 0 cl resolve --load "$held" --line 24 --dismiss
grep -q "^dismissed: load $held ordinal 20" "$TMP/out" || fail "dismiss: $(cat "$TMP/out")"
assert_eq "$(q "select count(*) from clearing_record")" "$n_rec" "a dismissal applies nothing"
assert_eq "$(q "select count(*) from clearing_dedupe_event where reason = 'dismissal'")" 1 "journaled"
expect_exit 0 cl resolve --load "$held" --line 24 --dismiss
assert_eq "$(q "select count(*) from clearing_dedupe_event where reason = 'dismissal'")" 1 \
	"dismissing again journals nothing"
expect_exit 2 cl resolve --load "$held" --line 24 --accept
assert_eq "$(q "select count(*) from clearing_record")" "$n_rec" "a refused accept applies nothing"

# resolved: gone from the default list, in --all with the verdict
expect_exit 0 cl conflicts --load "$held"
[ ! -s "$TMP/out" ] || fail "resolved conflicts listed: $(cat "$TMP/out")"
expect_exit 0 cl conflicts --load "$held" --all --format json
python3 "$CHECK" "$SCHEMA" --expect conflict "$TMP/out" || fail "--all JSON"
grep -q '"verdict":"accepted",.*"note":"the bank confirmed"' "$TMP/out" || fail "--all: $(cat "$TMP/out")"
grep -q '"verdict":"dismissed"' "$TMP/out" || fail "--all: $(cat "$TMP/out")"

# ---- the feed: the correction once, after the record it corrects ----
expect_exit 0 cl feed --consumer ledger --format json
python3 "$CHECK" "$SCHEMA" --expect feed_record "$TMP/out" || fail "feed JSON"
assert_eq "$(grep -c '#corr1' "$TMP/out")" 1 "the correction in the feed once"
grep '#corr1' "$TMP/out" | grep -q '"corrects":{"load_id":1,"ordinal":10}' ||
	fail "the link: $(grep '#corr1' "$TMP/out")"
assert_eq "$(grep -v '#corr1' "$TMP/out" | grep -vc '"corrects":null')" 0 "others link nothing"
[ "$(tail -1 "$TMP/out" | grep -c '#corr1')" = 1 ] || fail "the correction is not last in commit order"

# ---- usage and not found ----
expect_exit 7 cl resolve --load "$held" --line 99 --accept
grep -q "no conflict is parked at load $held line 99" "$TMP/err" || fail "not found: $(cat "$TMP/err")"
expect_exit 2 cl resolve --load "$held" --line 13
expect_exit 2 cl resolve --load "$held" --line 13 --ordinal 10 --accept
expect_exit 2 cl resolve --line 13 --accept
expect_exit 2 cl resolve --load "$held" --line 13 --accept --dismiss

# ---- two resolvers at once: the second waits, then finds it resolved ----
mkfifo "$TMP/lock.in"
psql -XAtq <"$TMP/lock.in" >"$TMP/lock.out" 2>&1 &
lockpid=$!
exec 3>"$TMP/lock.in"
echo "begin; select pg_advisory_xact_lock(1129072716, hashtext('q'));" >&3
# waits: each a bounded poll of pg_locks
waiters() {
	q "select count(*) from pg_locks where locktype = 'advisory' and classid = 1129072716
	   and objid = (hashtext('q')::bigint & 4294967295)::oid and granted = $1"
}
i=0
until [ "$(waiters true)" = 1 ]; do
	i=$((i + 1)); [ "$i" -lt 3000 ] || fail "the lock was never taken"; sleep 0.01
done
qline=$(q "select position from clearing_quarantine where load_id = $quar order by ordinal limit 1")
cl resolve --load "$quar" --line "$qline" --accept >"$TMP/r1.out" 2>"$TMP/r1.err" &
r1=$!
cl resolve --load "$quar" --line "$qline" --accept >"$TMP/r2.out" 2>"$TMP/r2.err" &
r2=$!
i=0
until [ "$(waiters false)" = 2 ]; do
	i=$((i + 1)); [ "$i" -lt 3000 ] || fail "the resolvers never waited"; sleep 0.01
done
assert_eq "$(q "select count(*) from clearing_resolution where load_id = $quar")" 0 \
	"nothing resolved while the tenant is locked"
echo "commit;" >&3
exec 3>&-
wait "$lockpid"
rc1=0; wait "$r1" || rc1=$?
rc2=0; wait "$r2" || rc2=$?
assert_eq "$rc1 $rc2" "0 0" "both resolvers succeed"
assert_eq "$(cat "$TMP/r1.out" "$TMP/r2.out" | grep -c ', before: correction')" 1 \
	"one of them found it resolved: $(cat "$TMP/r1.out" "$TMP/r2.out")"
assert_eq "$(q "select count(*) from clearing_record where tenant = 'q' and natural_key like '%#corr%'")" 1 \
	"applied once"

# ---- a record's second correction: a near duplicate of it accepted ----
"$CL_TOOLS/gen_ach" --entries 10 --seed 7 --only-every 5 --effective 260303 >"$TMP/q3.ach"
expect_exit 8 cl load --tenant q --on-conflict=quarantine "$TMP/q3.ach"
q3=$(q "select max(load_id) from clearing_load")
q1=$(q "select min(load_id) from clearing_load where tenant = 'q'")
first=$(q "select natural_key from clearing_record where load_id = $q1 and ordinal = 5")
assert_eq "$(q "select count(*) from clearing_record where natural_key = '$first#corr1'")" 1 \
	"the first correction (the resolvers')"
expect_exit 0 cl resolve --load "$q3" --ordinal 1 --accept --format json
grep -q "\"correction_key\":\"$first#corr2\"" "$TMP/out" || fail "second correction: $(cat "$TMP/out")"
assert_eq "$(q "select value_date from clearing_record where natural_key = '$first#corr2'")" \
	2026-03-03 "the near duplicate's date applied"
expect_exit 0 cl feed --consumer qreader --tenant q --format json
grep "#corr2" "$TMP/out" | grep -q "\"corrects\":{\"load_id\":$q1,\"ordinal\":5}" ||
	fail "the second correction's link: $(grep '#corr' "$TMP/out")"

# ---- show: a payment seen only in a held file ----
"$CL_TOOLS/gen_ach" --entries 20 --seed 7 --bump-amount-every 5 >"$TMP/h2.ach"
expect_exit 4 cl load --tenant q "$TMP/h2.ach"
h2=$(q "select max(load_id) from clearing_load")
trace=$(q "select trace_number from clearing_quarantine where load_id = $h2
	and natural_key not in (select natural_key from clearing_record where tenant = 'q')
	order by ordinal limit 1")
line=$(q "select position from clearing_quarantine where load_id = $h2 and trace_number = '$trace'")
[ -n "$trace" ] || fail "the held file's new records were not kept"
expect_exit 7 cl show --verbose --tenant q --trace "$trace"
grep -q "hint: seen in held load $h2, line $line" "$TMP/err" || fail "show: $(cat "$TMP/err")"
grep -q "^  load_outcome         held$" "$TMP/out" || fail "show: $(cat "$TMP/out")"
expect_exit 7 cl show --tenant q --trace "$trace"
grep -q "^  parked     load $h2 (held) h2.ach line [0-9]*: USD [0-9,]*\.[0-9][0-9], value date " "$TMP/out" ||
	fail "show summary of a parked version: $(cat "$TMP/out")"
expect_exit 7 cl show --tenant q --trace "$trace" --format json
python3 "$CHECK" "$SCHEMA" --expect quarantine "$TMP/out" || fail "show JSON"
# the held file again: its versions are not parked twice
n_parked=$(q "select count(*) from clearing_quarantine")
expect_exit 4 cl load --tenant q "$TMP/h2.ach"
assert_eq "$(q "select count(*) from clearing_quarantine")" "$n_parked" "parked once"
# ... and its conflicts are the ones parked before: the unresolved one
# listed once, under the load that parked it
expect_exit 0 cl conflicts --tenant q --load "$(q "select max(load_id) from clearing_load")" \
	--format json
assert_eq "$(grep -c '"type":"conflict"' "$TMP/out")" 1 "a re-run's conflicts: $(cat "$TMP/out")"
assert_eq "$(json_field load_id <"$TMP/out")" "$quar" "listed under the load that parked it"

# ---- a version first seen in a rejected file is still a conflict ----
# A rejected file's records are parked for show; the same changed payment
# in a valid file later is a conflict conflicts lists and resolve reaches
sed 's/18050.68/18050.69/' "$D/original-pain001.xml" >"$TMP/r-bad.xml"       # CtrlSum off: rejected
sed 's/18050.68/18050.69/; s/227245.11/227245.12/g' "$D/original-pain001.xml" >"$TMP/r-good.xml"
cl load --tenant rj "$D/original-pain001.xml" >/dev/null
expect_exit 3 cl load --tenant rj "$TMP/r-bad.xml"
expect_exit 8 cl load --tenant rj --on-conflict quarantine "$TMP/r-good.xml"
rq=$(q "select max(load_id) from clearing_load")
assert_eq "$(q "select count(*) from clearing_quarantine where load_id = $rq")" 1 \
	"the conflict parked by the quarantined load"
expect_exit 0 cl conflicts --verbose --tenant rj
assert_eq "$(grep -c '^conflict:' "$TMP/out")" 1 "the conflict listed ($(cat "$TMP/err"))"
grep -q "^  load_id              $rq$" "$TMP/out" || fail "listed under its load: $(cat "$TMP/out")"

# ---- a held pain.001 loaded again: its conflicts listed under the re-run
# too (its keys hold the debtor's account: the journal keeps them masked,
# the parked versions in clear) ----
"$CL_TOOLS/gen_iso" --type pain.001 --tx 100 --seed 5 --msg-id PN1 >"$TMP/pn.xml"
"$CL_TOOLS/gen_iso" --type pain.001 --tx 100 --seed 5 --msg-id PN2 --bump-amount-every 50 >"$TMP/pn2.xml"
expect_exit 0 cl load --tenant pn "$TMP/pn.xml"
expect_exit 4 cl load --tenant pn "$TMP/pn2.xml"
expect_exit 4 cl load --tenant pn "$TMP/pn2.xml"
rerun=$(q "select max(load_id) from clearing_load where tenant = 'pn'")
expect_exit 0 cl conflicts --tenant pn --load "$rerun" --format json
assert_eq "$(grep -c '"type":"conflict"' "$TMP/out")" 2 "a held pain.001's re-run: $(cat "$TMP/out")"
echo ok
