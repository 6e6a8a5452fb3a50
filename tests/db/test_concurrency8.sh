#!/bin/sh
# Eight loaders at once over heavily overlapping ACH, pain.001 and pacs.008
# files, five rounds, each on a fresh database:
#   - every loader exits 0 and every file commits (a deadlock or
#     serialization failure may be retried, never surface);
#   - the reported "new" counts of all loaders add up to the rows, and each
#     file's new + duplicate is its record count, with no conflict;
#   - clearing_record holds exactly the records of one sequential run of
#     all files (same keys, fingerprints and amounts), none twice, and
#     every committed load's counts agree with its records and journal.
# The loaders start together: each waits for a shared lock the test holds
# until all are started (flock), no sleeps.  Retries are counted from
# clearing_load.retries and the verbose output, and printed.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/proof_lib.sh"

LOADERS=8
ROUNDS=${CONC_ROUNDS:-5}
tpl_init

# The files: ACH index ranges shifted by 250 over 2000 entries, plus every
# 2nd / 3rd entry of a wider range; ISO ranges shifted by 300 over 1500,
# each with its own MsgId and grouping, as real re-uploads come.
files=""
i=0
while [ "$i" -lt 6 ]; do
	make_file ach "$TMP/a$i.ach" 2000 --start $((i * 250)) --batch-size $((150 + i * 50)) \
		--created "26030112$((10 + i))"
	files="$files $TMP/a$i.ach"
	i=$((i + 1))
done
make_file ach "$TMP/a_even.ach" 4000 --only-every 2 --created 2603011300
make_file ach "$TMP/a_third.ach" 4000 --only-every 3 --created 2603011301
files="$files $TMP/a_even.ach $TMP/a_third.ach"
i=0
while [ "$i" -lt 4 ]; do
	make_file pain.001 "$TMP/p$i.xml" 1500 --start $((1 + i * 300)) --msg-id "PAIN-$i" \
		--per-pmtinf $((100 + i * 100))
	make_file pacs.008 "$TMP/x$i.xml" 1500 --start $((1 + i * 300)) --msg-id "PACS-$i"
	files="$files $TMP/p$i.xml $TMP/x$i.xml"
	i=$((i + 1))
done
set -- $files
nfiles=$#

# The reference: every file once, one after another.
db_use ref
"$CL_BIN" load --format json $files >"$TMP/ref.json" 2>"$TMP/ref.err" ||
	fail "sequential reference load failed: $(cat "$TMP/ref.err")"
ref=$(content_dump)
total=$(q "select count(*) from clearing_record")
[ "$(jsum new "$TMP/ref.json")" = "$total" ] || fail "reference: new counts do not add up"
echo "reference: $nfiles files, $total distinct records"

round=1
all_retries=0
while [ "$round" -le "$ROUNDS" ]; do
	db_use "round$round"
	exec 9>"$TMP/barrier"
	flock -x 9
	pids=""
	j=0
	while [ "$j" -lt "$LOADERS" ]; do
		# Loader j: every third file starting at its own offset, in its
		# own direction, so each file is loaded by several loaders at once.
		list=""
		k=0
		while [ "$k" -lt "$nfiles" ]; do
			if [ $(((k + j) % 3)) -eq 0 ]; then
				eval "f=\${$((k + 1))}"
				if [ $((j % 2)) -eq 0 ]; then list="$list $f"; else list="$f $list"; fi
			fi
			k=$((k + 1))
		done
		flock -s "$TMP/barrier" "$CL_BIN" load -v --format json $list \
			>"$TMP/l$j.json" 2>"$TMP/l$j.err" 9>&- &
		pids="$pids $!"
		j=$((j + 1))
	done
	flock -u 9
	exec 9>&-
	j=0
	failed=""
	for pid in $pids; do
		set +e
		wait "$pid"
		rc=$?
		set -e
		[ "$rc" = 0 ] || failed="$failed loader$j:exit$rc($(head -c 300 "$TMP/l$j.err"))"
		j=$((j + 1))
	done
	[ -z "$failed" ] || fail "round $round: loaders failed:$failed"

	cat "$TMP"/l*.json >"$TMP/all.json"
	reported_new=$(jsum new "$TMP/all.json")
	rows=$(q "select count(*) from clearing_record")
	assert_eq "$rows" "$total" "round $round: rows"
	assert_eq "$reported_new" "$rows" "round $round: reported new counts vs rows"
	assert_eq "$(jsum conflict "$TMP/all.json")" 0 "round $round: conflicts"
	notcommitted=$(grep '"type":"file"' "$TMP/all.json" | grep -vc '"outcome":"committed"' || true)
	assert_eq "$notcommitted" 0 "round $round: files not committed"
	# Each file's new + duplicate = its record count (the reference's).
	python3 - "$TMP/ref.json" "$TMP/all.json" <<'EOF' || fail "round $round: per-file counts"
import json, sys
def objs(p):
    for line in open(p):
        line = line.strip()
        if line.startswith("{"):
            o = json.loads(line)
            if o.get("type") == "file":
                yield o
want = {o["file"]: o["new"] + o["duplicate"] + o["conflict"] for o in objs(sys.argv[1])}
bad = [(o["file"], o["new"], o["duplicate"], want.get(o["file"]))
       for o in objs(sys.argv[2]) if o["new"] + o["duplicate"] != want.get(o["file"])]
if bad:
    print("files whose new + duplicate differ from their records:", bad, file=sys.stderr)
    sys.exit(1)
EOF
	[ "$(content_dump)" = "$ref" ] || fail "round $round: clearing_record differs from the sequential run"
	check_invariants
	retries=$(q "select coalesce(sum(retries), 0) || ' (at most ' || coalesce(max(retries), 0) || ' for one file)' from clearing_load")
	noted=$(cat "$TMP"/l*.err | grep -ci 'retr' || true)
	deadlocks=$(cat "$TMP"/l*.err | grep -ci 'deadlock' || true)
	all_retries=$((all_retries + ${retries%% *}))
	echo "ok round $round: $LOADERS loaders, $(grep -c '"type":"file"' "$TMP/all.json") loads, $rows rows, new adds up; retries $retries (verbose lines: $noted retry, $deadlocks deadlock)"
	round=$((round + 1))
done
echo "concurrency: $ROUNDS rounds passed, $all_retries retries in all"
