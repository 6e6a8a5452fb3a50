#!/bin/sh
# A payment and its re-dated copy (a near duplicate: another key, so the
# unique index cannot see it) loaded by two loaders whose transactions
# overlap: the first stops right after classifying (failpoint
# after_journal:stop), the second must wait for it instead of classifying
# against a database that does not yet show the first file; exactly one
# date is applied, the other file is held.
. "$(dirname "$0")/lib.sh"
: "${CL_TOOLS:?}" "${CL_BIN_FP:?the failpoint build (make FAILPOINTS=1)}"
db_new
cl init ${CL_INIT_ARGS:-} >/dev/null
assert_init_args
"$CL_TOOLS/gen_ach" -n 50 -e 260302 >"$TMP/mon.ach"
"$CL_TOOLS/gen_ach" -n 50 -e 260303 >"$TMP/tue.ach"

# wait_for DESCRIPTION COMMAND...: poll a condition (bounded: 30 s)
wait_for() {
	_what=$1
	shift
	_i=0
	until "$@"; do
		_i=$((_i + 1))
		[ $_i -le 300 ] || fail "timed out waiting for $_what"
		sleep 0.1
	done
}
stopped() { [ "$(sed 's/^[0-9]* ([^)]*) \(.\).*/\1/' "/proc/$1/stat" 2>/dev/null)" = T ]; }
gone() { ! kill -0 "$1" 2>/dev/null; }
waiting_or_gone() {
	gone "$1" || [ "$(q "select count(*) from pg_locks where locktype = 'advisory' and not granted")" -ge 1 ]
}

CL_FAILPOINT=after_journal:stop "$CL_BIN_FP" load --format json "$TMP/mon.ach" >"$TMP/mon.json" 2>&1 &
p1=$!
wait_for "the first loader to stop after classifying" stopped $p1
"$CL_BIN" load --format json "$TMP/tue.ach" >"$TMP/tue.json" 2>&1 &
p2=$!
wait_for "the second loader to wait (or finish)" waiting_or_gone $p2
gone $p2 && fail "the second loader did not wait for the first: $(cat "$TMP/tue.json")"
kill -CONT $p1
set +e
wait $p1
r1=$?
wait $p2
r2=$?
set -e
assert_eq "$r1" 0 "the first file is applied"
assert_eq "$r2" 4 "the re-dated copy is held"
assert_eq "$(q "select count(*) || ' ' || min(value_date) from clearing_record")" "50 2026-03-02" \
	"only the first date applied"
assert_eq "$(q "select count(*) from clearing_dedupe_event where reason = 'near_duplicate'")" 50 \
	"the copy's entries journaled as near duplicates"
echo ok
