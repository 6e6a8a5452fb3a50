#!/bin/sh
# A reconcile run killed (SIGKILL) before and after its COMMIT, cut off
# from the server before it, interrupted (SIGINT) at its COMMIT and after
# it, and stopped (SIGTERM) while it waits for another run of its tenant:
# each then run again.  Every match is recorded once, by one run, and the
# answer is the one an uninterrupted run gives; the exit status and the
# message say what became of the run.  Each case in a tenant of its own
# (matches and runs are append-only).
# Needs the failpoint build (CL_BIN_FP, made by `make check-db`).
. "$(dirname "$0")/lib.sh"
: "${CL_TOOLS:?}" "${CL_BIN_FP:?the failpoint build (make FAILPOINTS=1)}"
db_new
cl init ${CL_INIT_ARGS:-} >/dev/null
GEN="python3 $CL_ROOT/tests/db/stmt_gen.py"
"$CL_TOOLS/gen_ach" --entries 6 --batch-size 3 --seed 3 --effective 260303 >"$TMP/a.ach"
CO=1100000000

# setup TENANT: ours, an ACH file of 6; the statement (its lines in
# $TMP/s.xml) books the first 5 by trace and one of the bank's own, and
# is loaded (not reconciled)
setup() {
	expect_exit 0 cl load --tenant "$1" "$TMP/a.ach"
	q "select amount_minor || ' USD ' || case direction when 'credit' then 'DBIT' else 'CRDT' end
	          || ' 2026-03-03 trace=' || trace_number
	   from clearing_record where tenant = '$1' order by trace_number limit 5" >"$TMP/lines"
	echo "4242 USD CRDT 2026-03-03 e2e=THEIRS" >>"$TMP/lines"
	$GEN account=GB33BUKB20201555555555 ccy=USD date=2026-03-03 seq=1 <"$TMP/lines" >"$TMP/s.xml"
	expect_exit 0 cl load --tenant "$1" "$TMP/s.xml"
}
WANT="8 matched matched;9 matched matched;10 matched matched;11 matched matched;12 matched matched;13 unmatched_theirs no_record;ours $CO|121042880000006|2026-03-03;"
# recorded TENANT: matches, runs, statements reconciled
recorded() {
	q "select (select count(*) from clearing_reconcile_match where tenant = '$1') || ' ' ||
	          (select count(*) from clearing_reconcile_run where tenant = '$1') || ' ' ||
	          (select count(*) from clearing_reconcile_statement where tenant = '$1')"
}
# rerun TENANT NEW: reconcile again (the statements not reconciled, else
# the file): the whole answer, NEW matches recorded now, each match once
rerun() {
	expect_exit 10 cl reconcile --tenant "$1" --ach-company "$CO" --format json "$TMP/s.xml"
	assert_eq "$(recon_st "$TMP/out" | tr '\n' ';')" "$WANT" "$1: the answer"
	grep -q '"type":"reconcile_summary".*"new_matches":'"$2"',' "$TMP/out" ||
		fail "$1: new matches: $(tail -n 1 "$TMP/out")"
	assert_eq "$(q "select count(*) || ' ' || count(distinct (record_kind, record_key)) || ' ' ||
	                       count(distinct run_id)
	                from clearing_reconcile_match where tenant = '$1'")" "5 5 1" \
		"$1: each match once, by one run"
}
no_lock() {
	assert_eq "$(q "select count(*) from pg_locks where locktype = 'advisory'")" 0 \
		"$1: no run's lock left"
}

# uninterrupted: the answer the others must give
setup plain
rerun plain 5

# killed before COMMIT: nothing of the run; the next run without files
# takes the statement (still not reconciled)
setup k1
expect_exit 137 env CL_FAILPOINT=reconcile_before_commit "$CL_BIN_FP" reconcile --tenant k1 \
	--ach-company "$CO" --format json
[ ! -s "$TMP/out" ] || fail "k1: a killed run printed: $(cat "$TMP/out")"
assert_eq "$(recorded k1)" "0 0 0" "k1: nothing recorded"
expect_exit 10 cl reconcile --tenant k1 --ach-company "$CO" --format json
assert_eq "$(recon_st "$TMP/out" | tr '\n' ';')" "$WANT" "k1: the pending statement's answer"
rerun k1 0

# killed after COMMIT: its run recorded, its answer never printed; again:
# the same answer, nothing new
setup k2
expect_exit 137 env CL_FAILPOINT=reconcile_after_commit "$CL_BIN_FP" reconcile --tenant k2 \
	--ach-company "$CO" --format json
[ ! -s "$TMP/out" ] || fail "k2: a killed run printed: $(cat "$TMP/out")"
assert_eq "$(recorded k2)" "5 1 1" "k2: the run committed"
rerun k2 0

# cut off before COMMIT: retry later (75), nothing recorded
setup cut
expect_exit 75 env CL_FAILPOINT=reconcile_before_commit:disconnect "$CL_BIN_FP" reconcile \
	--tenant cut --ach-company "$CO" "$TMP/s.xml"
assert_eq "$(recorded cut)" "0 0 0" "cut: nothing recorded"
rerun cut 5

# sigint_at FAILPOINT TENANT: a run of TENANT stopped at FAILPOINT, sent
# SIGINT, resumed: it must exit 130; its stderr in $TMP/TENANT.err, its
# output in $TMP/TENANT.out
sigint_at() {
	CL_FAILPOINT=$1:stop "$CL_BIN_FP" reconcile --tenant "$2" --ach-company "$CO" --format json \
		"$TMP/s.xml" >"$TMP/$2.out" 2>"$TMP/$2.err" &
	_pid=$!
	wait_stopped "$_pid" "reconcile ($1)" "$TMP/$2.err"
	kill -INT "$_pid"
	kill -CONT "$_pid"
	_rc=0
	wait "$_pid" || _rc=$?
	assert_eq "$_rc" 130 "$2: interrupted by SIGINT: $(cat "$TMP/$2.err")"
}

# SIGINT at COMMIT: it rolls back, 130, and says so
setup int
sigint_at reconcile_before_commit int
grep -q 'interrupted: the run rolled back, nothing of it recorded' "$TMP/int.err" ||
	fail "int: the message: $(cat "$TMP/int.err")"
[ ! -s "$TMP/int.out" ] || fail "int: an interrupted run printed: $(cat "$TMP/int.out")"
assert_eq "$(recorded int)" "0 0 0" "int: nothing recorded"
no_lock int
rerun int 5

# SIGINT after COMMIT: committed, 130, the message says so; again: the
# same answer, nothing new
setup int2
sigint_at reconcile_after_commit int2
grep -q 'interrupted after run [0-9]* committed: its matches are recorded' "$TMP/int2.err" ||
	fail "int2: the message: $(cat "$TMP/int2.err")"
assert_eq "$(recorded int2)" "5 1 1" "int2: the run committed"
rerun int2 0

# SIGTERM while waiting for another run of the tenant (its lock held
# here): the wait is cancelled at once, 143, nothing recorded
setup term
hold_recon_lock term
"$CL_BIN" reconcile --tenant term --ach-company "$CO" >"$TMP/term.out" 2>"$TMP/term.err" &
pid=$!
wait_advisory false 1 "term: the run never waited"
kill -TERM "$pid"
rc=0
wait "$pid" || rc=$?
assert_eq "$rc" 143 "term: interrupted by SIGTERM: $(cat "$TMP/term.err")"
grep -q 'interrupted: the run rolled back' "$TMP/term.err" ||
	fail "term: the message: $(cat "$TMP/term.err")"
assert_eq "$(advisory false)" 0 "term: its wait ended with it"
release_recon_lock
assert_eq "$(recorded term)" "0 0 0" "term: nothing recorded"
no_lock term
rerun term 5
echo ok
