# ingest's metrics file beyond the last run: counters (*_total) that carry
# on across runs (and start again only when the file is removed), and the
# backlog read from the database, which stays while a held file waits for a
# person (the last-run gauge goes back to 0): held and quarantined loads,
# unresolved conflicts, unreconciled statements, the last reconcile run's
# differences, each with the age of the oldest.  A figure the login cannot
# read (row security hides the tenant, the database is down) is a comment
# and no value, never a false 0.  promtool (when installed) lints the file.
. "$(dirname "$0")/lib.sh"
: "${CL_TOOLS:?}"
db_new
cl init >/dev/null
IN="$TMP/inbox"
AR="$TMP/archive"
M="$TMP/m.prom"
mkdir -p "$IN"
ingest() { cl ingest --archive "$AR" --min-age 0 --metrics-file "$M" "$@" "$IN"; }
# metric NAME [LABELS]: the value of NAME{inbox="...",LABELS}, "" when absent
metric() {
	_l="inbox=\"$IN\"${2:+,$2}"
	awk -v s="$1{$_l}" 'index($0, s " ") == 1 { print substr($0, length(s) + 2) }' "$M"
}
lint() {
	if command -v promtool >/dev/null 2>&1; then
		promtool check metrics <"$M" >"$TMP/lint" 2>&1 || fail "promtool check metrics: $(cat "$TMP/lint")"
	fi
}
T='tenant="default"'

# one committed file: the counters start
"$CL_TOOLS/gen_ach" -n 20 >"$IN/a.ach"
expect_exit 0 ingest
assert_eq "$(metric clearing_load_ingest_runs_total)" 1 "runs_total"
assert_eq "$(metric clearing_load_ingest_files_total 'outcome="committed"')" 1 "files_total committed"
assert_eq "$(metric clearing_load_ingest_records_total 'outcome="new"')" 20 "records_total new"
grep -q '^# TYPE clearing_load_ingest_files_total counter$' "$M" || fail "counter type: $(cat "$M")"
for b in conflicts held_loads quarantined_loads unreconciled_statements; do
	assert_eq "$(metric clearing_load_backlog_$b "$T")" 0 "backlog $b at first"
	assert_eq "$(metric clearing_load_backlog_${b}_oldest_age_seconds "$T")" 0 "backlog $b age at first"
done
grep -q '^# clearing_load_backlog_reconcile_differences: not read: no reconcile run yet$' "$M" ||
	fail "no reconcile run: $(grep reconcile "$M")"
lint

# a held file: the gauge of the last run says 1, then 0 on an empty run;
# the counter and the backlog keep it while it waits for a person
cl load "$TESTDATA/demo/original.ach" >/dev/null
cp "$TESTDATA/demo/changed-amount.ach" "$IN/changed.ach"
expect_exit 4 ingest
assert_eq "$(metric clearing_load_ingest_files 'outcome="held"')" 1 "last run: held"
expect_exit 0 ingest
assert_eq "$(metric clearing_load_ingest_files 'outcome="held"')" 0 "the last-run gauge goes back to 0"
assert_eq "$(metric clearing_load_ingest_runs_total)" 3 "runs_total carries on"
assert_eq "$(metric clearing_load_ingest_files_total 'outcome="held"')" 1 "files_total held carries on"
assert_eq "$(metric clearing_load_ingest_files_total 'outcome="committed"')" 1 "files_total committed carries on"
assert_eq "$(metric clearing_load_backlog_held_loads "$T")" 1 "the held load still waits"
con=$(q "select count(*) from clearing_quarantine")
[ "$con" -gt 0 ] || fail "conflicts parked"
assert_eq "$(metric clearing_load_backlog_conflicts "$T")" "$con" "unresolved conflicts"
age=$(metric clearing_load_backlog_held_loads_oldest_age_seconds "$T")
want=$(q "select extract(epoch from now() - min(started_at))::bigint from clearing_load where outcome = 'held'")
[ "$age" -ge 0 ] && [ "$age" -le $((want + 1)) ] || fail "held age $age (the database says $want)"
lint

# the person resolves the held load's conflicts: nothing held waits
held_lid=$(q "select load_id from clearing_load where outcome = 'held'")
for o in $(q "select ordinal from clearing_quarantine where load_id = $held_lid"); do
	cl resolve --load "$held_lid" --ordinal "$o" --dismiss >/dev/null
done
expect_exit 0 ingest
assert_eq "$(metric clearing_load_backlog_held_loads "$T")" 0 "held conflicts resolved"
assert_eq "$(metric clearing_load_backlog_held_loads_oldest_age_seconds "$T")" 0 "no age when none waits"
assert_eq "$(metric clearing_load_backlog_conflicts "$T")" 0 "no conflict left"

# a quarantined load waits for its conflicts, then is done with them
# (tenant t2: the same files conflict there afresh)
T2='tenant="t2"'
cl load --tenant t2 "$TESTDATA/demo/original.ach" >/dev/null
cp "$TESTDATA/demo/changed-amount.ach" "$IN/changed.ach"
expect_exit 8 ingest --tenant t2 --on-conflict quarantine
assert_eq "$(metric clearing_load_backlog_quarantined_loads "$T2")" 1 "the quarantined load waits"
lid=$(q "select max(load_id) from clearing_load where outcome = 'quarantined'")
assert_eq "$(metric clearing_load_backlog_conflicts "$T2")" \
	"$(q "select count(*) from clearing_quarantine where load_id = $lid")" "its conflicts"
for o in $(q "select ordinal from clearing_quarantine where load_id = $lid"); do
	cl resolve --load "$lid" --ordinal "$o" --accept >/dev/null
done
expect_exit 0 ingest --tenant t2
assert_eq "$(metric clearing_load_backlog_quarantined_loads "$T2")" 0 "conflicts resolved"
assert_eq "$(metric clearing_load_backlog_conflicts "$T2")" 0 "no conflict left"

# a statement loaded and not reconciled, then reconciled
cp "$TESTDATA/statements/corpus/camt.053/nordea_example_camt.xml" "$IN/stmt.xml"
expect_exit 0 ingest
assert_eq "$(metric clearing_load_backlog_unreconciled_statements "$T")" 1 "a statement waits for reconcile"
set +e
cl reconcile >/dev/null 2>&1
set -e
expect_exit 0 ingest
assert_eq "$(metric clearing_load_backlog_unreconciled_statements "$T")" 0 "reconciled"
d=$(metric clearing_load_backlog_reconcile_differences "$T")
assert_eq "$d" "$(q "select unmatched_theirs + exceptions from clearing_reconcile_run order by run_id desc limit 1")" \
	"the last reconcile run's differences"
# the open breaks by status, and the age of the oldest (clearing-load break)
cl break list --format json >"$TMP/breaks" 2>&1 || fail "break list: $(cat "$TMP/breaks")"
theirs=$(grep -c '"status":"unmatched_theirs"' "$TMP/breaks" || true)
[ "$theirs" -gt 0 ] || fail "the statement leaves no break unmatched theirs: $(cat "$TMP/breaks")"
assert_eq "$(metric clearing_load_backlog_breaks_unmatched_theirs "$T")" "$theirs" "open breaks unmatched theirs"
age=$(metric clearing_load_backlog_breaks_unmatched_theirs_oldest_age_seconds "$T")
# (since reconcile first reported it, not since the entries' booking date,
# months back)
first=$(q "select extract(epoch from now() - min(reported_at))::bigint from clearing_reconcile_break")
[ "$age" -ge 0 ] && [ "$age" -le "$first" ] && [ "$first" -lt 3600 ] ||
	fail "the oldest open break's age $age, since first reported $first"
[ "$(q "select min(booking_date) < current_date - 1 from clearing_statement_item where item = 'entry'")" = t ] ||
	fail "the statement's entries should be older than its reconcile"
expect_exit 0 cl break write-off --reason no_record --note "the test writes them off"
expect_exit 0 ingest
assert_eq "$(metric clearing_load_backlog_breaks_unmatched_theirs "$T")" 0 "decided: no open break"
assert_eq "$(metric clearing_load_backlog_breaks_unmatched_theirs_oldest_age_seconds "$T")" 0 "no age"
lint

# the database down: the run's counters go on, the backlog is not read
# (a comment each, no value), the run's status is its own
runs=$(metric clearing_load_ingest_runs_total)
expect_exit 0 cl ingest --archive "$AR" --min-age 0 --metrics-file "$M" --db "host=127.0.0.1 port=1" "$IN"
assert_eq "$(metric clearing_load_ingest_runs_total)" $((runs + 1)) "runs_total with the database down"
grep -q '^# clearing_load_backlog_held_loads: not read: the database could not be reached$' "$M" ||
	fail "not read: $(grep backlog "$M")"
grep -q '^clearing_load_backlog_' "$M" && fail "a backlog value with the database down: $(grep '^clearing_load_backlog_' "$M")"
lint

# a loader that row security limits to another tenant: no false 0
sfx=$$
LDR=cl_mldr_$sfx
role_new $LDR "login password 'pw'"
expect_exit 0 cl init --loader-role $LDR --tenant-access $LDR=other --row-security on
port=$(q "show port")
PGPASSWORD=pw "$CL_BIN" ingest --archive "$AR" --min-age 0 --metrics-file "$M" \
	--db "host=127.0.0.1 port=$port user=$LDR dbname=$PGDATABASE" "$IN" >"$TMP/out" 2>"$TMP/err" ||
	fail "ingest as the loader: $(cat "$TMP/out" "$TMP/err")"
grep -q '^# clearing_load_backlog_conflicts: not read: row security hides the tenant from this login$' "$M" ||
	fail "row security: $(grep backlog "$M")"
grep -q '^clearing_load_backlog_' "$M" && fail "a backlog value for a hidden tenant: $(grep '^clearing_load_backlog_' "$M")"
# its own tenant: read
PGPASSWORD=pw "$CL_BIN" ingest --archive "$AR" --min-age 0 --metrics-file "$M" --tenant other \
	--db "host=127.0.0.1 port=$port user=$LDR dbname=$PGDATABASE" "$IN" >"$TMP/out" 2>"$TMP/err" ||
	fail "ingest as the loader, its tenant: $(cat "$TMP/out" "$TMP/err")"
assert_eq "$(metric clearing_load_backlog_conflicts 'tenant="other"')" 0 "the loader's own tenant read"
expect_exit 0 cl init --row-security off

# the counters start again only when the file is removed (documented)
rm "$M"
expect_exit 0 ingest
assert_eq "$(metric clearing_load_ingest_runs_total)" 1 "a removed file starts the counters again"
echo ok
