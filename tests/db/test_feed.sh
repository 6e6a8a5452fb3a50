# clearing-load feed: the records applied since a consumer's acknowledged
# position, in commit order; the same records again until acknowledged; a
# load that began first and commits last is never skipped; NOTIFY on commit.
. "$(dirname "$0")/lib.sh"
: "${CL_TOOLS:?}" "${CL_BIN_FP:?}"
db_new
cl init ${CL_INIT_ARGS:-} >/dev/null
assert_init_args
"$CL_TOOLS/gen_ach" -n 50 >"$TMP/a.ach"
"$CL_TOOLS/gen_ach" -n 50 --start 1000 >"$TMP/b.ach"
cl load "$TMP/a.ach" >/dev/null
cl load "$TMP/b.ach" >/dev/null
positions() { sed -n 's/.*"feed_position":\([0-9]*\).*/\1/p' "$1"; }

# everything, in order, once
expect_exit 0 cl feed --consumer ledger --format json
assert_eq "$(grep -c '"type":"feed_record"' "$TMP/out")" 100 "all records"
python3 "$CL_ROOT/tests/tools/json_output_check.py" "$CL_ROOT/man/clearing-load-output.schema.json" \
	--expect feed_record "$TMP/out" || fail "feed JSON against the schema"
positions "$TMP/out" >"$TMP/pos"
sort -n -c "$TMP/pos" 2>/dev/null || fail "feed positions not increasing"
assert_eq "$(sort -u "$TMP/pos" | wc -l)" 100 "positions unique"
grep -q '"applied_at":"20' "$TMP/out" || fail "applied_at: $(head -1 "$TMP/out")"
grep -q "100 records after position 0 of consumer ledger" "$TMP/err" || fail "note: $(cat "$TMP/err")"

# not acknowledged: the same records again, same positions
expect_exit 0 cl feed --consumer ledger --format json
positions "$TMP/out" | cmp -s - "$TMP/pos" || fail "a re-read differs"

# acknowledge the 60th: the next read starts after it
p60=$(sed -n 60p "$TMP/pos")
expect_exit 0 cl feed --consumer ledger --ack "$p60"
expect_exit 0 cl feed --consumer ledger --format json
assert_eq "$(positions "$TMP/out" | head -1)" "$(sed -n 61p "$TMP/pos")" "after the ack"
assert_eq "$(grep -c feed_record "$TMP/out")" 40 "the rest"
# a position only moves forward; an unknown one or garbage is refused
expect_exit 0 cl feed --consumer ledger --ack "$(sed -n 10p "$TMP/pos")"
grep -q "had acknowledged $p60 already" "$TMP/err" || fail "backwards ack: $(cat "$TMP/err")"
expect_exit 7 cl feed --consumer ledger --ack 99999999999
expect_exit 2 cl feed --consumer ledger --ack 12x
expect_exit 2 cl feed --format json
assert_eq "$(q "select position from clearing_feed_consumer where consumer = 'ledger'")" "$p60" "stored position"
# the view for SQL readers agrees
assert_eq "$(q "select count(*) from clearing_feed where feed_position > $p60")" 40 "view"

# a tenant's records only
cl load --tenant t2 "$TMP/a.ach" >/dev/null
expect_exit 0 cl feed --consumer t2reader --tenant t2 --format json
assert_eq "$(grep -c '"tenant":"t2"' "$TMP/out")" 50 "tenant filter"
assert_eq "$(grep -c feed_record "$TMP/out")" 50 "tenant filter: nothing else"

# a long load that began first and commits last: it is stopped after its
# insert (load id taken, not committed) while short loads of another tenant
# (the long one holds its originators' locks) commit; a polling
# consumer that has acknowledged the short ones still receives it, and every
# record exactly once
q "truncate clearing_record, clearing_dedupe_event, clearing_load, clearing_quarantine,
   clearing_feed_commit, clearing_feed_consumer" >/dev/null
N=${FEED_BIG:-300000}
"$CL_TOOLS/gen_ach" -n "$N" --start 100000 >"$TMP/big.ach"
"$CL_TOOLS/gen_ach" -n 20 --start 10 >"$TMP/s1.ach"
"$CL_TOOLS/gen_ach" -n 20 --start 40 >"$TMP/s2.ach"
CL_FAILPOINT=after_insert:stop "$CL_BIN_FP" load "$TMP/big.ach" >"$TMP/big.out" 2>"$TMP/big.err" &
pid=$!
i=0
while [ "$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null)" != T ]; do
	i=$((i + 1))
	[ "$i" -lt 60000 ] || fail "the long load never reached after_insert"
	kill -0 "$pid" 2>/dev/null || fail "the long load ended early: $(cat "$TMP/big.err")"
	sleep 0.01
done
cl load --tenant short "$TMP/s1.ach" >/dev/null
cl load --tenant short "$TMP/s2.ach" >/dev/null
assert_eq "$(q "select min(load_id) from clearing_load")" "$(q "select min(load_id) from clearing_load where file_name like '%s1.ach'")" \
	"the short loads committed (the long one not yet)"
: >"$TMP/received"
poll() {
	cl feed --consumer poller --limit 100000 --format csv -q >"$TMP/page" || fail "feed: $(cat "$TMP/err")"
	tail -n +2 "$TMP/page" >>"$TMP/received"
	last=$(tail -n +2 "$TMP/page" | tail -1 | cut -d, -f2 | tr -d '"')
	[ -z "$last" ] || cl feed --consumer poller --ack "$last" -q || fail "ack $last"
}
poll
assert_eq "$(wc -l <"$TMP/received")" 40 "the short loads first"
kill -CONT "$pid"
wait "$pid" || fail "the long load: $(cat "$TMP/big.err")"
for _ in 1 2 3 4 5; do poll; done
assert_eq "$(wc -l <"$TMP/received")" $((N + 40)) "every record received"
assert_eq "$(cut -d, -f2 "$TMP/received" | sort -u | wc -l)" $((N + 40)) "each exactly once"

# NOTIFY on commit, on channel clearing_load_feed
"$CL_TOOLS/gen_ach" -n 5 --start 90 >"$TMP/n.ach"
printf 'LISTEN clearing_load_feed;\n\\! %s load %s >/dev/null\nSELECT 1;\n' "$CL_BIN" "$TMP/n.ach" |
	psql -X >"$TMP/notify" 2>&1
grep -q 'Asynchronous notification "clearing_load_feed" with payload "[0-9]* default"' "$TMP/notify" ||
	fail "no notification: $(cat "$TMP/notify")"
echo ok
