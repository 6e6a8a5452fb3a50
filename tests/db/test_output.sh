# Output scripts can rely on, with a database: the JSON of load, diff, show
# and loads (and their errors, and a database that cannot be reached) valid
# against man/clearing-load-output.schema.json; parse's CSV read back by
# psql's \copy into typed columns; control characters from a file escaped
# in diff, show and loads; text times with their offset; show naming the
# other tenants; a file name that is not UTF-8 loaded.
. "$(dirname "$0")/lib.sh"
SCHEMA="$CL_ROOT/man/clearing-load-output.schema.json"
CHECK="$CL_ROOT/tests/tools/json_output_check.py"
D="$TESTDATA/demo"
db_new
cl init >/dev/null

# a pain.001 whose EndToEndId E2E-1-1 holds a CR and the C1 CSI (U+009B)
sed 's/<EndToEndId>E2E-1-1</<EndToEndId>E2E\&#13;1\xc2\x9b[2J</' "$D/original-pain001.xml" \
	>"$TMP/c1.xml"
sed '3s/^\(.\{29\}\)0/\1X/' "$D/original.ach" >"$TMP/bad.ach"

# ---- every command's JSON: valid, every type seen ----
J="$TMP/all.jsonl"
run_json() { # STATUS ARGS...: run clearing-load ARGS, append its stdout to $J
	_st=$1
	shift
	expect_exit "$_st" cl "$@"
	cat "$TMP/out" >>"$J"
}
run_json 1 diff --format json "$D/original.ach"
run_json 0 load --format json "$D/original.ach" "$TMP/c1.xml"
run_json 3 load --format json "$TMP/bad.ach"
run_json 3 diff --format json "$TMP/bad.ach"
run_json 1 diff --format json "$D/corrected.ach"
run_json 4 diff --format json "$D/changed-amount.ach"
grep '"action":"conflict"' "$TMP/out" | head -n 1 >"$TMP/conflict"
grep -q '"fields":\["amount_minor"\],"changes":\[{"field":"amount_minor","old":[0-9]*,"new":[0-9]*}\]' \
	"$TMP/conflict" || fail "diff: fields not an array, or amounts not numbers: $(cat "$TMP/conflict")"
grep '"action":"new"' "$J" | head -n 1 >"$TMP/new"
grep -q '"reason":null,"matched_load_id":null,"matched_file":null,"matched_position":null,"matched_time":null,"matched_key":null,"fields":\[\],"changes":\[\]' \
	"$TMP/new" || fail "diff: a new record's missing members are not null: $(cat "$TMP/new")"
run_json 8 load --format json --on-conflict quarantine "$D/changed-amount.ach"
trace=$(q "select r.trace_number from clearing_quarantine q join clearing_record r using (tenant, kind, natural_key) limit 1")
[ -n "$trace" ] || fail "no quarantined record"
run_json 0 show --format json --trace "$trace"
for t in record load event quarantine; do
	grep -q "\"type\":\"$t\"" "$TMP/out" || fail "show: no $t object: $(cat "$TMP/out")"
done
run_json 0 show --format json --e2e "$(printf 'E2E\r1\302\233[2J')"
run_json 7 show --format json --trace 999999999999999
grep -q '"type":"error",.*"code":"not_found"' "$TMP/out" || fail "show: no not_found object"
run_json 0 loads --format json
run_json 7 loads --format json --uuid 00000000-0000-4000-8000-000000000000
# one shape of a record: parse, diff and show give the same keys
keys() { python3 -c 'import json,sys; print(list(json.loads(sys.stdin.readline())))'; }
"$CL_BIN" parse --format json "$D/original.ach" | keys >"$TMP/k.parse"
grep '"type":"record"' "$J" | grep '"action"' | head -n 1 | keys >"$TMP/k.diff"
grep '"type":"record"' "$J" | grep '"matched_by"' | head -n 1 | keys >"$TMP/k.show"
for k in diff show; do
	python3 - "$TMP/k.parse" "$TMP/k.$k" <<'PY' || fail "$k: the record's keys are not parse's"
import ast, sys
a = ast.literal_eval(open(sys.argv[1]).read())
b = ast.literal_eval(open(sys.argv[2]).read())
sys.exit(0 if b[:len(a)] == a else 1)
PY
done
# a database that cannot be reached: the error and a file object per file
# (the exit status that of text output: the exit code table is not this
# test's)
set +e
"$CL_BIN" load --db "host=/nonexistent-cl port=1" "$D/original.ach" >/dev/null 2>&1
down=$?
set -e
case $down in 0 | 1 | 2 | 3 | 4) fail "load with no database exited $down" ;; esac
for cmd in load diff; do
	expect_exit "$down" "$CL_BIN" "$cmd" --format json --db "host=/nonexistent-cl port=1" \
		"$D/original.ach" "$TMP/c1.xml"
	[ "$(grep -c '"type":"error"' "$TMP/out")" = 1 ] || fail "$cmd: no error object: $(cat "$TMP/out")"
	[ "$(grep -c '"type":"file",.*"outcome":"failed"' "$TMP/out")" = 2 ] ||
		fail "$cmd: not a failed file object per file: $(cat "$TMP/out")"
	cat "$TMP/out" >>"$J"
done
expect_exit "$down" "$CL_BIN" show --format json --db "host=/nonexistent-cl port=1" --trace "$trace"
cat "$TMP/out" >>"$J"
python3 "$CHECK" "$SCHEMA" --expect record,file,error,load,event,quarantine "$J" ||
	fail "JSON output not valid against the schema"

# ---- CSV into typed columns with psql's \copy ----
"$CL_BIN" parse --format csv "$D/original.ach" "$D/original-pain001.xml" >"$TMP/p.csv"
cols=$(head -n 1 "$TMP/p.csv" | tr -d '"' | tr , '\n' | awk '
	$1 == "position" || $1 == "addenda_count" { print $1 " integer"; next }
	$1 == "amount_minor" { print $1 " bigint"; next }
	$1 == "value_date" { print $1 " date"; next }
	{ print $1 " text" }' | paste -sd, -)
q "create table parsed ($cols)"
psql -XAtq -v ON_ERROR_STOP=1 -c "\\copy parsed from '$TMP/p.csv' csv header" ||
	fail "\\copy of parse's CSV into typed columns failed"
assert_eq "$(q "select count(*) from parsed")" 23 "records read back"
assert_eq "$(q "select count(*) from parsed where scheme = 'nacha' and end_to_end_id is null and addenda_count is not null")" 15 \
	"NACHA records: ISO fields NULL, counts numbers"
assert_eq "$(q "select count(*) from parsed where scheme = 'iso20022' and addenda_count is null and trace_number is null")" 8 \
	"ISO records: NACHA fields NULL"
assert_eq "$(q "select sum(amount_minor) from parsed")" \
	"$(q "select sum(amount_minor) from clearing_record where kind in ('ach.entry', 'pain.001') and tenant = 'default' and load_id in (select load_id from clearing_load where file_name like '%original.ach' or file_name like '%c1.xml')")" \
	"amounts read back"
"$CL_BIN" loads --format csv >"$TMP/l.csv"
q "create table loads_csv (type text, load_id bigint, load_uuid uuid, tenant text, file_name text,
	file_size bigint, sha256 text, format text, message_type text, sender text, receiver text,
	file_created text, file_id text, record_count integer, new_count integer,
	duplicate_count integer, conflict_count integer, invalid_count integer, outcome text,
	reason text, retries integer, started_at timestamptz, finished_at timestamptz,
	archived_as text)"
psql -XAtq -v ON_ERROR_STOP=1 -c "\\copy loads_csv from '$TMP/l.csv' csv header" ||
	fail "\\copy of loads' CSV into typed columns failed"
assert_eq "$(q "select count(*) from loads_csv l join clearing_load c using (load_id)
	where l.reason is not distinct from c.reason and l.started_at = date_trunc('second', c.started_at)")" \
	"$(q "select count(*) from clearing_load")" "loads read back, NULL reasons as NULL"

# ---- text: control characters escaped, times with their offset ----
raw() { # FILE: does it hold a raw CR or CSI?
	LC_ALL=C grep -q "$(printf '\r')" "$1" || LC_ALL=C grep -q "$(printf '\302\233')" "$1"
}
sed 's/2026-03-03/2026-03-04/' "$TMP/c1.xml" >"$TMP/c1b.xml"
expect_exit 4 cl diff "$TMP/c1b.xml"
! raw "$TMP/out" || fail "diff printed a raw CR or CSI: $(cat "$TMP/out")"
grep -q 'E2E\\x0D1\\xC2\\x9B\[2J' "$TMP/out" || fail "diff: the key not escaped: $(cat "$TMP/out")"
grep -q '[0-9]\{4\}-[0-9][0-9]-[0-9][0-9] [0-9:]\{8\}[+-][0-9][0-9]' "$TMP/out" ||
	fail "diff: a time without its offset: $(cat "$TMP/out")"
expect_exit 0 cl show --e2e "$(printf 'E2E\r1\302\233[2J')"
! raw "$TMP/out" && ! raw "$TMP/err" || fail "show (summary) printed a raw CR or CSI"
grep -q 'E2E\\x0D1\\xC2\\x9B\[2J' "$TMP/out" || fail "show summary: $(cat "$TMP/out")"
expect_exit 0 cl show --verbose --e2e "$(printf 'E2E\r1\302\233[2J')"
! raw "$TMP/out" && ! raw "$TMP/err" || fail "show printed a raw CR or CSI"
grep -q 'end_to_end_id *E2E\\x0D1\\xC2\\x9B\[2J' "$TMP/out" || fail "show: $(cat "$TMP/out")"
grep -q 'started_at *[0-9-]* [0-9:]*[+-][0-9][0-9]' "$TMP/out" || fail "show: time without offset"
cp "$D/corrected.ach" "$TMP/$(printf 'we\033[2Jird\r.ach')"
expect_exit 0 cl load --tenant weird "$TMP/$(printf 'we\033[2Jird\r.ach')"
! raw "$TMP/out" || fail "load printed a raw CR"
expect_exit 0 cl loads
! raw "$TMP/out" || fail "loads printed a raw CR"
if LC_ALL=C grep -q "$(printf '\033')" "$TMP/out"; then fail "loads printed a raw ESC"; fi
grep -q 'we\\x1B\[2Jird\\x0D.ach' "$TMP/out" || fail "loads: the file name not escaped: $(cat "$TMP/out")"
grep -q '^ *[0-9]*  [0-9-]* [0-9:]*[+-][0-9][0-9]  ' "$TMP/out" || fail "loads: time without offset"

# ---- show without --tenant: the other tenants named ----
expect_exit 0 cl load --tenant bank2 "$D/corrected-pain001.xml"
expect_exit 0 cl load --tenant bank3 "$D/corrected-pain001.xml"
e2e=$(q "select end_to_end_id from clearing_record where tenant = 'bank2' and end_to_end_id not in
	(select end_to_end_id from clearing_record where tenant = 'default' and end_to_end_id is not null) limit 1")
expect_exit 7 cl show --e2e "$e2e"
grep -q "hint: 2 records in other tenants: bank2, bank3; use --tenant" "$TMP/err" ||
	fail "show: other tenants not named: $(cat "$TMP/err")"
expect_exit 7 cl show --tenant default --e2e "$e2e"
if grep -q 'other tenants' "$TMP/err"; then fail "show --tenant named other tenants"; fi
expect_exit 7 cl show -q --e2e "$e2e"
[ ! -s "$TMP/err" ] || fail "show -q said: $(cat "$TMP/err")"

# ---- a file name that is not UTF-8: loaded, the name stored escaped ----
cp "$D/original.ach" "$TMP/$(printf 'n\377me.ach')"
expect_exit 0 cl load --tenant latin1 -v "$TMP/$(printf 'n\377me.ach')"
grep -q 'note: the file name is not valid UTF-8: stored as ".*n\\xFFme.ach"' "$TMP/err" ||
	fail "no note on the name: $(cat "$TMP/err")"
assert_eq "$(q "select count(*) from clearing_load where tenant = 'latin1' and outcome = 'committed'
	and pg_catalog.strpos(file_name, 'n\\xFFme.ach') > 0")" 1 "the name stored escaped"

# ---- progress: on a terminal with percent and time left; nothing else ----
"$CL_TOOLS/gen_ach" --entries 200000 --seed 11 >"$TMP/big.ach"
expect_exit 0 cl load --tenant big "$TMP/big.ach"
[ ! -s "$TMP/err" ] || fail "progress or a message when stderr is not a terminal: $(cat "$TMP/err")"
# stderr on a pseudo-terminal (what an operator's shell gives); a
# file of 200,000 entries passes the 100,000 records after which
# progress shows whatever the machine's speed
cat >"$TMP/on_terminal.py" <<'PY'
import os, pty, subprocess, sys
m, s = pty.openpty()
p = subprocess.Popen([sys.argv[1], "load", *sys.argv[4:], "--tenant", "big2", sys.argv[2]],
                     stdout=subprocess.DEVNULL, stderr=s)
os.close(s)
out = b""
while True:
    try:
        b = os.read(m, 4096)
    except OSError:
        break
    if not b:
        break
    out += b
open(sys.argv[3], "wb").write(out)
sys.exit(p.wait())
PY
python3 "$TMP/on_terminal.py" "$CL_BIN" "$TMP/big.ach" "$TMP/tty.err" || fail "load on a terminal failed"
grep -q 'reading [0-9]* records ([0-9.]* MB of [0-9.]* MB, [0-9]*%, about [0-9]*:[0-9][0-9] left)' \
	"$TMP/tty.err" || fail "no progress with percent and time left on a terminal: $(cat -v "$TMP/tty.err")"
# and once read, the line follows the server through the load (no "0:00
# left" standing while the records are compared, applied and committed):
# comparing, then applying, then committing, each saying how long the
# step before took
tr '\r' '\n' <"$TMP/tty.err" | sed 's/\x1b\[K//' | grep 'big.ach: 200000 records read in' >"$TMP/steps"
sed 's/.*; //' "$TMP/steps" | tr '\n' '|' >"$TMP/steps.seq"
assert_eq "$(cat "$TMP/steps.seq")" "comparing with the database|applying|committing|" \
	"the server's steps on the terminal: $(cat -v "$TMP/steps")"
grep -q 'records read in [0-9.]* s, compared in [0-9.]* s; applying$' "$TMP/steps" ||
	fail "applying: $(cat -v "$TMP/steps")"
grep -q 'records read in [0-9.]* s, then [0-9.]* s; committing$' "$TMP/steps" ||
	fail "committing: $(cat -v "$TMP/steps")"
# -q on a terminal: no progress at all (the file again: all duplicates)
python3 "$TMP/on_terminal.py" "$CL_BIN" "$TMP/big.ach" "$TMP/tty-q.err" -q || fail "load -q on a terminal failed"
[ ! -s "$TMP/tty-q.err" ] || fail "load -q on a terminal printed: $(cat -v "$TMP/tty-q.err")"
