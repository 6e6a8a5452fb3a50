#!/bin/sh
# Four loaders at once on overlapping files (NACHA and pain.001), three
# rounds: every record exactly once, and the `new` counts the loaders
# report add up to the rows in clearing_record.  (The unique index is the
# arbiter; a loader that loses a race retries the file, in key order.)
. "$(dirname "$0")/lib.sh"
: "${CL_TOOLS:?}"
db_new
# CL_INIT_ARGS="--partitions 4": the same against the hash-partitioned
# schema (test_partitioned.sh); "--columnar", in columnar storage
# (tests/citus/test_columnar.sh)
cl init ${CL_INIT_ARGS:-} >/dev/null
assert_init_args

# overlapping ranges: ACH entry indexes 0..999 in four files of 400,
# pain.001 transactions 1..700 in four files of 250
i=0
for start in 0 200 400 600; do
	"$CL_TOOLS/gen_ach" -n 400 --start "$start" --seed 7 >"$TMP/a$i.ach"
	"$CL_TOOLS/gen_iso" --type pain.001 --tx 250 --start $((start / 4 * 3 + 1)) --seed 7 \
		--msg-id "M$i" >"$TMP/p$i.xml"
	i=$((i + 1))
done
# the union of what the files hold
for f in "$TMP"/a*.ach "$TMP"/p*.xml; do
	"$CL_BIN" parse --format csv --no-mask "$f" | tail -n +2
done | cut -d, -f4,5 | sort -u >"$TMP/union" # kind, natural_key (after file, position, scheme)
want=$(wc -l <"$TMP/union")

for round in 1 2 3; do
	q "truncate clearing_record, clearing_dedupe_event, clearing_load, clearing_quarantine, clearing_feed_commit restart identity" >/dev/null
	pids=""
	for i in 0 1 2 3; do
		"$CL_BIN" load -v --format json "$TMP/a$i.ach" "$TMP/p$((3 - i)).xml" \
			>"$TMP/r$round.$i.json" 2>"$TMP/r$round.$i.err" &
		pids="$pids $!"
	done
	n=0
	for p in $pids; do
		wait "$p" || fail "round $round: a loader exited $?: $(cat "$TMP"/r$round.*.err)"
		n=$((n + 1))
	done
	assert_eq "$n" 4 "four loaders"
	assert_eq "$(q "select count(*) from clearing_record")" "$want" "round $round: every record once"
	assert_eq "$(q "select count(*) from (select 1 from clearing_record group by tenant, kind, natural_key
		having count(*) > 1) d")" 0 "round $round: no key twice"
	reported=$(cat "$TMP"/r$round.*.json | grep '"type":"file"' | sed -n 's/.*"new":\([0-9]*\).*/\1/p' |
		awk '{ s += $1 } END { print s }')
	assert_eq "$reported" "$want" "round $round: reported new counts add up to the rows"
	assert_eq "$(grep -h '"type":"file"' "$TMP"/r$round.*.json | grep -c '"outcome":"committed"')" 8 \
		"round $round: every file committed"
	# every record a load did not apply is journaled as a duplicate of the
	# record that was applied
	assert_eq "$(q "select count(*) from clearing_load l where l.duplicate_count <>
		(select count(*) from clearing_dedupe_event e where e.load_id = l.load_id and e.reason = 'duplicate')")" 0 \
		"round $round: journal agrees with the reported duplicate counts"
	assert_eq "$(q "select sum(new_count) from clearing_load")" "$want" "round $round: load rows add up"
	grep -h "retrying" "$TMP"/r$round.*.err | head -n 3 || true
done
# a payment and its re-dated copy loaded at the same moment: exactly one
# is applied, the other is held as a near duplicate (the unique index
# cannot see this: the keys differ; the originator locks do)
"$CL_TOOLS/gen_ach" -n 50 --start 2000 -e 260302 >"$TMP/mon.ach"
"$CL_TOOLS/gen_ach" -n 50 --start 2000 -e 260303 >"$TMP/tue.ach"
for round in 1 2 3; do
	q "truncate clearing_record, clearing_dedupe_event, clearing_load, clearing_quarantine, clearing_feed_commit restart identity" >/dev/null
	"$CL_BIN" load --format json "$TMP/mon.ach" >"$TMP/n1.json" 2>&1 &
	p1=$!
	"$CL_BIN" load --format json "$TMP/tue.ach" >"$TMP/n2.json" 2>&1 &
	p2=$!
	set +e
	wait $p1
	r1=$?
	wait $p2
	r2=$?
	set -e
	assert_eq "$(echo "$r1 $r2" | tr ' ' '\n' | sort | tr '\n' ' ')" "0 4 " "round $round: one applied, one held"
	assert_eq "$(q "select count(*) from clearing_record")" 50 "round $round: only one date applied"
	assert_eq "$(q "select count(distinct value_date) from clearing_record")" 1 "round $round: one date"
	assert_eq "$(q "select count(*) from clearing_dedupe_event where reason = 'near_duplicate'")" 50 \
		"round $round: the other file's entries journaled as near duplicates"
done
echo ok
