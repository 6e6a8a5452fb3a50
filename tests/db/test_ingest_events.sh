# ingest: the outcomes the main ingest test does not reach.  A quarantined
# file (clean records applied, the file under done/ with its reason, exit 8,
# an event); a file the server refuses (left in the inbox for the next run,
# exit 5, a "failed" event, no load row); -q prints only what needs a person
# (and the run line when it did not exit 0);
# an --on-event command that outlives the wait limit is killed with what it
# started, and the run goes on; an outcome unknown (the connection cut after
# COMMIT, the server then unreachable) leaves the file for the next run,
# which finds it all duplicate; SIGTERM rolls the file back, names it and
# leaves it in the inbox.
. "$(dirname "$0")/lib.sh"
: "${CL_TOOLS:?}" "${CL_BIN_FP:?}"
db_new
cl init >/dev/null
IN="$TMP/inbox"
AR="$TMP/archive"
mkdir -p "$IN"
DAY=$(date -u +%Y-%m-%d)
EV='echo "$CL_EVENT $(basename "$CL_FILE") new=$CL_NEW conflict=$CL_CONFLICT exit=$CL_EXIT_STATUS load=$CL_LOAD_ID" >>'"'$TMP/events'"
ingest() { cl ingest --archive "$AR" --min-age 0 "$@" "$IN"; }

# quarantined: the clean records applied, the conflicts parked
cl load "$TESTDATA/demo/original.ach" >/dev/null
cp "$TESTDATA/demo/changed-amount.ach" "$IN/changed.ach"
expect_exit 8 ingest --on-conflict quarantine --on-event "$EV"
grep -q '^ingest file=changed.ach outcome=quarantined .* exit=8$' "$TMP/out" || fail "line: $(cat "$TMP/out")"
[ -f "$AR/done/$DAY/changed.ach" ] || fail "a quarantined file is done: $(find "$AR")"
[ -f "$AR/done/$DAY/changed.ach.reason" ] || fail "with its reason: $(find "$AR")"
grep -q '^outcome: quarantined$' "$AR/done/$DAY/changed.ach.reason" || fail "reason: $(cat "$AR/done/$DAY/changed.ach.reason")"
new=$(q "select new_count from clearing_load order by load_id desc limit 1")
con=$(q "select conflict_count from clearing_load order by load_id desc limit 1")
lid=$(q "select max(load_id) from clearing_load")
[ "$con" -gt 0 ] || fail "conflicts counted"
grep -qx "quarantined changed.ach new=$new conflict=$con exit=8 load=$lid" "$TMP/events" ||
	fail "event: $(cat "$TMP/events")"
assert_eq "$(q "select count(*) from clearing_quarantine")" "$con" "the conflicts parked"

# failed: the server refuses the insert (a trigger standing for any refusal):
# nothing recorded, the file stays for the next run, an event, exit 5
q "create function refuse() returns trigger language plpgsql as \$\$
   begin raise exception 'refused for the test' using errcode = 'P0001'; end \$\$;
   create trigger refuse before insert on clearing_record for each statement execute function refuse()" >/dev/null
"$CL_TOOLS/gen_ach" -n 5 --start 500 >"$IN/refused.ach"
: >"$TMP/events"
n=$(q "select count(*) from clearing_load")
expect_exit 5 ingest --on-event "$EV"
grep -q '^ingest file=refused.ach outcome=failed .* exit=5$' "$TMP/out" || fail "failed line: $(cat "$TMP/out")"
[ -f "$IN/refused.ach" ] || fail "a failed file stays in the inbox: $(find "$IN" "$AR")"
assert_eq "$(q "select count(*) from clearing_load")" "$n" "no load row for a rolled-back file"
grep -q '^failed refused.ach new=0 conflict=0 exit=5 load=$' "$TMP/events" || fail "failed event: $(cat "$TMP/events")"
q "drop trigger refuse on clearing_record" >/dev/null

# -q: a run that committed its files and exits 0 prints nothing
expect_exit 0 ingest -q
[ -s "$TMP/out" ] && fail "-q printed a committed file: $(cat "$TMP/out")"
[ -f "$AR/done/$DAY/refused.ach" ] || fail "loaded on the next run: $(find "$AR")"
# -q still prints a file that needs a person
cp "$TESTDATA/demo/changed-amount.ach" "$IN/changed2.ach"
expect_exit 4 ingest -q
grep -q '^ingest file=changed2.ach outcome=held ' "$TMP/out" || fail "-q prints the held file: $(cat "$TMP/out")"
grep -q '^ingest run .* exit=4$' "$TMP/out" || fail "-q prints the run line of exit 4: $(cat "$TMP/out")"

# an event command that outlives the wait limit: killed with its children,
# the run goes on to the next file
cp "$TESTDATA/demo/changed-amount.ach" "$IN/a-held.ach"
"$CL_TOOLS/gen_ach" -n 5 --start 700 >"$IN/b-fine.ach"
touch -d '-10 minutes' "$IN/a-held.ach"
marker="cl_evt_sleep_$$"
expect_exit 4 ingest --wait-limit 2 --on-event "sh -c 'exec -a $marker sleep 300' & sleep 300"
grep -q 'a-held.ach: --on-event command: killed after 2 s' "$TMP/err" || fail "killed: $(cat "$TMP/err")"
grep -q 'file=b-fine.ach outcome=committed' "$TMP/out" || fail "the next file: $(cat "$TMP/out")"
pgrep -f "$marker" >/dev/null && fail "a child of the event command survived"

# unknown: a proxy cuts the connection when the server's COMMIT passes and
# then goes down.  Exit 6 with the load UUID, the file left in the inbox, an
# event; the next run finds it all duplicate and files it under done/.
"$CL_TOOLS/gen_ach" -n 40 --start 9000 >"$IN/cut.ach"
host=$(case "${PGHOST:-}" in '') q "select split_part(setting, ',', 1) from pg_settings
	where name = 'unix_socket_directories'" ;; *) echo "${PGHOST%%,*}" ;; esac)
set -- $("$CL_TOOLS/cut_proxy" --to "$host" --to-port "$(q "show port")" --cut after-commit \
	--then down --events "$TMP/proxy.events" --daemon 2>"$TMP/proxy.err") || fail "cut_proxy did not start"
pport=$1
ppid=$2
: >"$TMP/events"
expect_exit 6 cl ingest --archive "$AR" --min-age 0 --db "host=127.0.0.1 port=$pport dbname=$PGDATABASE" \
	--on-event 'echo "$CL_EVENT $(basename "$CL_FILE") uuid=$CL_LOAD_UUID exit=$CL_EXIT_STATUS" >>'"'$TMP/events'" "$IN"
kill "$ppid" 2>/dev/null || true
set --
grep -q '^cut after-commit' "$TMP/proxy.events" || fail "the proxy never cut a COMMIT"
[ -f "$IN/cut.ach" ] || fail "a file of unknown outcome left the inbox: $(find "$AR" -name 'cut*')"
uuid=$(sed -n 's/^ingest file=cut.ach outcome=unknown .*load UUID \([0-9a-f-]*\).* exit=6$/\1/p' "$TMP/out")
[ -n "$uuid" ] || fail "unknown line: $(cat "$TMP/out")"
grep -qx "unknown cut.ach uuid=$uuid exit=6" "$TMP/events" || fail "unknown event: $(cat "$TMP/events")"
expect_exit 0 cl loads --uuid "$uuid" --format json
grep -q '"outcome":"committed"' "$TMP/out" || fail "the cut load: $(cat "$TMP/out")"
expect_exit 0 ingest
grep -q '^ingest file=cut.ach outcome=committed .* new=0 duplicate=40 ' "$TMP/out" || fail "after unknown: $(cat "$TMP/out")"
[ -f "$AR/done/$DAY/cut.ach" ] || fail "not filed after the unknown outcome: $(find "$AR" -name 'cut*')"

# SIGTERM while a file is read (systemctl stop): rolled back, the file
# named in its line and the run's, left in the inbox, exit 143, an event
"$CL_TOOLS/gen_ach" -n 2000 --start 20000 >"$IN/term.ach"
n=$(q "select count(*) from clearing_record")
: >"$TMP/events"
CL_FAILPOINT=mid_copy:stop "$CL_BIN_FP" ingest --archive "$AR" --min-age 0 --on-event "$EV" "$IN" \
	>"$TMP/t.out" 2>"$TMP/t.err" &
pid=$!
wait_stopped "$pid" "ingest (mid_copy)" "$TMP/t.err"
kill -TERM "$pid"
kill -CONT "$pid"
set +e
wait "$pid"
rc=$?
set -e
assert_eq "$rc" 143 "ingest after SIGTERM"
grep -q '^ingest file=term.ach outcome=failed .*reason="interrupted by SIGTERM: rolled back, nothing from this file was applied" exit=143$' \
	"$TMP/t.out" || fail "SIGTERM line: $(cat "$TMP/t.out" "$TMP/t.err")"
grep -q '^ingest run .* failed=1 .* exit=143$' "$TMP/t.out" || fail "SIGTERM run line: $(cat "$TMP/t.out")"
[ -f "$IN/term.ach" ] || fail "an interrupted file left the inbox"
assert_eq "$(q "select count(*) from clearing_record")" "$n" "nothing of the interrupted file applied"
grep -q '^failed term.ach new=0 conflict=0 exit=143 load=$' "$TMP/events" || fail "SIGTERM event: $(cat "$TMP/events")"

# a file name with a space, a quote and a newline: one line, the value
# quoted, the quote and the escape's backslash escaped
"$CL_TOOLS/gen_ach" -n 5 --start 30000 >"$IN/$(printf 'a b"c\nd.ach')"
rm -f "$IN/term.ach"
expect_exit 0 ingest
assert_eq "$(wc -l <"$TMP/out")" 2 "one line for the file, one for the run: $(cat "$TMP/out")"
grep -q '^ingest file="a b\\"c\\\\x0Ad.ach" outcome=committed .* archived="[^"]*/a b\\"c\\\\x0Ad.ach" exit=0$' "$TMP/out" ||
	fail "quoted name: $(cat "$TMP/out")"

# control characters from a file escaped in NAME.reason and CL_REASON as in
# every message: a pain.001 whose repeated EndToEndId holds a CR and the C1
# CSI; the reason file's "see:" line names the load's UUID
raw() { LC_ALL=C grep -q "$(printf '\r')" "$1" || LC_ALL=C grep -q "$(printf '\302\233')" "$1"; }
sed 's/<EndToEndId>E2E-1-1</<EndToEndId>E2E\&#13;\xc2\x9b[2J</' "$TESTDATA/keys/duplicate-e2e.xml" >"$IN/ctl.xml"
: >"$TMP/events"
expect_exit 3 ingest --on-event 'printf "%s\n" "$CL_REASON" >>'"'$TMP/events'"
R="$AR/rejected/ctl.xml.reason"
[ -f "$R" ] || fail "no reason file: $(find "$AR" -name 'ctl*')"
! raw "$R" || fail "a raw CR or CSI in the reason file: $(cat -v "$R")"
grep -q '^reason: line 28: .*E2E\\x0D\\xC2\\x9B\[2J' "$R" || fail "reason file: $(cat -v "$R")"
! raw "$TMP/events" || fail "a raw CR or CSI in CL_REASON: $(cat -v "$TMP/events")"
grep -q 'E2E\\x0D\\xC2\\x9B\[2J' "$TMP/events" || fail "CL_REASON: $(cat -v "$TMP/events")"
u=$(sed -n 's/^load_uuid: //p' "$R")
[ -n "$u" ] || fail "no load_uuid in the reason file"
grep -q "^see: clearing-load loads --uuid $u\b" "$R" || fail "see: line: $(grep '^see' "$R")"
echo ok
