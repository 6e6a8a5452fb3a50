#!/bin/sh
# A loader killed with SIGKILL mid-file (and at each other failpoint), then
# re-run: every record exactly once, and the re-run reports the truth.
# Needs the failpoint build (CL_BIN_FP, made by `make check-db`).
. "$(dirname "$0")/lib.sh"
: "${CL_TOOLS:?}" "${CL_BIN_FP:?the failpoint build (make FAILPOINTS=1)}"
db_new
cl init ${CL_INIT_ARGS:-} >/dev/null
assert_init_args
"$CL_TOOLS/gen_ach" -n 3000 --skip-every 3 >"$TMP/orig.ach"
"$CL_TOOLS/gen_ach" -n 3000 >"$TMP/full.ach"
full=3000

for fp in after_load_row mid_copy after_journal after_insert before_commit after_commit; do
	q "truncate clearing_record, clearing_dedupe_event, clearing_load, clearing_quarantine, clearing_feed_commit restart identity" >/dev/null
	"$CL_BIN" load -q "$TMP/orig.ach" || fail "$fp: original load"
	orig=$(q "select count(*) from clearing_record")
	set +e
	CL_FAILPOINT=$fp "$CL_BIN_FP" load --format json "$TMP/full.ach" >"$TMP/killed.json" 2>"$TMP/killed.err"
	rc=$?
	set -e
	assert_eq "$rc" 137 "$fp: the loader was killed (SIGKILL)"
	[ ! -s "$TMP/killed.json" ] || fail "$fp: a killed loader printed a report"
	if [ "$fp" = after_commit ]; then
		assert_eq "$(q "select count(*) from clearing_record")" "$full" "$fp: committed before the kill"
	else
		assert_eq "$(q "select count(*) from clearing_record")" "$orig" "$fp: nothing of the killed load"
		assert_eq "$(q "select count(*) from clearing_load where outcome <> 'committed' or load_id > 1")" 0 \
			"$fp: no trace of the killed load"
	fi
	# the re-run
	"$CL_BIN" load --format json "$TMP/full.ach" >"$TMP/rerun.json" || fail "$fp: re-run exited $?"
	assert_eq "$(q "select count(*) from clearing_record")" "$full" "$fp: every record once after the re-run"
	assert_eq "$(q "select count(*) from (select 1 from clearing_record group by tenant, kind, natural_key
		having count(*) > 1) d")" 0 "$fp: no key twice"
	if [ "$fp" = after_commit ]; then
		grep -q '"new":0,"duplicate":3000' "$TMP/rerun.json" || fail "$fp: re-run: $(cat "$TMP/rerun.json")"
		assert_eq "$(q "select count(*) from clearing_load where outcome = 'committed' and new_count = $((full - orig))")" 1 \
			"$fp: the killed load is on record as committed"
	else
		grep -q "\"new\":$((full - orig)),\"duplicate\":$orig," "$TMP/rerun.json" ||
			fail "$fp: re-run: $(cat "$TMP/rerun.json")"
	fi
done

# mid_copy with a disconnect instead of a kill: the loader sees a broken
# connection before COMMIT: exit 75 (retry later), nothing applied
q "truncate clearing_record, clearing_dedupe_event, clearing_load, clearing_quarantine, clearing_feed_commit restart identity" >/dev/null
expect_exit 75 env CL_FAILPOINT=mid_copy:disconnect "$CL_BIN_FP" load "$TMP/full.ach"
assert_eq "$(q "select count(*) from clearing_record")" 0 "disconnect mid-copy: nothing applied"
"$CL_BIN" load -q "$TMP/full.ach"
assert_eq "$(q "select count(*) from clearing_record")" "$full" "re-run after the disconnect"

# the normal build has no failpoints: the variable is inert
CL_FAILPOINT=mid_copy "$CL_BIN" load -q "$TMP/full.ach" || fail "normal build obeyed CL_FAILPOINT"
echo ok
