#!/bin/sh
# A connection lost during COMMIT: the loader must end with a definite,
# true report, or exit 6 with the load UUID when the server stays
# unreachable, and `loads --uuid` must then resolve it.
#
# The loader talks to the server through tests/tools/cut_proxy, which reads
# the wire protocol and cuts the connection
#   after-commit   when the server's CommandComplete "COMMIT" passes (the
#                  transaction committed; the client never hears it), or
#   before-commit  when the client's COMMIT passes (it never reaches the
#                  server: the transaction rolls back),
# and then either keeps relaying (the loader can reconnect and ask) or goes
# down (the server is unreachable for the loader).  Every case asserts the
# proxy really cut, the exit status, the report, and that the database then
# equals one clean run after a normal re-run.
# Also: the loader's backend terminated by pg_terminate_backend() while the
# loader is stopped at the before_commit / after_commit failpoints
# (CL_FAILPOINT=NAME:stop raises SIGSTOP; the test waits for that state in
# /proc, a condition, not a guessed delay, then SIGCONTs it).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/proof_lib.sh"

N=2000
PROXY="$CL_TOOLS/cut_proxy"
[ -x "$PROXY" ] || fail "no $PROXY"
HOST=$(pg_server_host)
PORT=$(pg_server_port)
tpl_init

# proxy_start CUT THEN: a proxy in front of the server; sets PPORT, PPID_.
proxy_start() {
	rm -f "$TMP/events"
	set -- $("$PROXY" --to "$HOST" --to-port "$PORT" --cut "$1" --then "$2" \
		--events "$TMP/events" --daemon 2>"$TMP/proxy.err") || fail "cut_proxy did not start"
	PPORT=$1
	PPID_=$2
	_proof_pids="$_proof_pids $PPID_"
}
proxy_stop() { kill "$PPID_" 2>/dev/null || true; }

# loaded_uuid_state UUID: "committed" if `loads --uuid` says so, else the
# exit status and output.
loads_says() {
	run_rc _lrc "$CL_BIN" loads --uuid "$1" --format json
	if grep -q '"outcome":"committed"' "$TMP/run.out"; then
		echo committed
	else
		echo "not-committed($_lrc)"
	fi
}

for fmt in ach pain.001 pacs.008; do
	f="$TMP/f.$fmt"
	make_file "$fmt" "$f" "$N"
	tag=$(echo "$fmt" | tr . _)
	db_use "ref_$tag"
	cl_load "$f" >/dev/null || fail "$fmt: clean load"
	ref_dump=$(record_dump)
	n=$(q "select count(*) from clearing_record")

	for cut in after-commit before-commit; do
		for then in pass down; do
			case_="$fmt cut $cut, then $then"
			db_use "${tag}_$(echo "$cut" | tr - _)_$then"
			proxy_start "$cut" "$then"
			run_rc rc "$CL_BIN" load --format json \
				--db "host=127.0.0.1 port=$PPORT dbname=$PGDATABASE" "$f"
			cp "$TMP/run.out" "$TMP/first.json"
			cp "$TMP/run.err" "$TMP/first.err"
			proxy_stop
			grep -q "^cut $cut" "$TMP/events" 2>/dev/null ||
				fail "$case_: the proxy never saw the COMMIT to cut (exit $rc: $(cat "$TMP/first.err"))"
			applied=$(q "select count(*) from clearing_record")
			committed=0
			if [ "$then" = pass ]; then
				# The server is reachable again: the report must be definite.
				case $rc in
				0)
					assert_eq "$(jget outcome "$TMP/first.json")" committed "$case_: outcome"
					assert_eq "$(jget new "$TMP/first.json")" "$n" "$case_: new"
					[ "$(record_dump)" = "$ref_dump" ] || fail "$case_: reported committed, database differs"
					committed=1
					;;
				5)
					[ "$cut" = before-commit ] || fail "$case_: the load committed but was reported rolled back"
					assert_eq "$applied" 0 "$case_: reported rolled back, records visible"
					;;
				*)
					fail "$case_: expected a definite report (0 or 5) once the server answers, got $rc: $(cat "$TMP/first.err")"
					;;
				esac
				[ "$cut" = after-commit ] && [ "$committed" = 0 ] && fail "$case_: committed load not reported as such"
			else
				# Unreachable: exit 6 with the load UUID, resolved later.
				assert_eq "$rc" 6 "$case_: exit status with the server unreachable ($(cat "$TMP/first.err"))"
				uuid=$(uuid_in "$TMP/first.json" "$TMP/first.err")
				[ -n "$uuid" ] || fail "$case_: exit 6 without the load UUID"
				if [ -s "$TMP/first.json" ]; then
					assert_eq "$(jget outcome "$TMP/first.json")" unknown "$case_: outcome"
				fi
				said=$(loads_says "$uuid")
				if [ "$cut" = after-commit ]; then
					assert_eq "$said" committed "$case_: loads --uuid $uuid"
					[ "$(record_dump)" = "$ref_dump" ] || fail "$case_: committed load, database differs"
					committed=1
				else
					case $said in committed) fail "$case_: loads --uuid calls a rolled-back load committed" ;; esac
					assert_eq "$applied" 0 "$case_: rolled back, records visible"
				fi
			fi
			# A normal re-run, directly: the truth, and one clean run.
			cl_load "$f" >"$TMP/rerun.json" || fail "$case_: re-run failed"
			if [ "$committed" = 1 ]; then
				assert_eq "$(jget new "$TMP/rerun.json")" 0 "$case_: re-run new"
				assert_eq "$(jget duplicate "$TMP/rerun.json")" "$n" "$case_: re-run duplicate"
			else
				assert_eq "$(jget new "$TMP/rerun.json")" "$n" "$case_: re-run new"
			fi
			[ "$(record_dump)" = "$ref_dump" ] || fail "$case_: after the re-run, database differs"
			check_invariants
			echo "ok $case_ (exit $rc)"
		done
	done
done

# pg_terminate_backend() from a second session while the loader is stopped
# at a failpoint (CL_FAILPOINT=NAME:stop raises SIGSTOP), then SIGCONT.
if [ -n "${CL_BIN_FP:-}" ]; then
	f="$TMP/f.ach"
	db_use ref_term
	cl_load "$f" >/dev/null
	ref_dump=$(record_dump)
	for fp in before_commit after_commit; do
		db_use "term_$fp"
		CL_FAILPOINT="$fp:stop" "$CL_BIN_FP" load --format json "$f" >"$TMP/t.json" 2>"$TMP/t.err" &
		pid=$!
		# Wait for the loader to reach its failpoint: its state becomes T.
		i=0
		while [ "$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null)" != T ]; do
			i=$((i + 1))
			[ "$i" -lt 6000 ] || fail "$fp:stop: the loader never stopped"
			kill -0 "$pid" 2>/dev/null || fail "$fp:stop: the loader exited before its failpoint: $(cat "$TMP/t.err" "$TMP/t.json")"
			sleep 0.01
		done
		killed=$(q "select count(pg_terminate_backend(pid)) from pg_stat_activity
			    where datname = current_database() and pid <> pg_backend_pid()
			    and backend_type = 'client backend'")
		assert_eq "$killed" 1 "$fp: backends terminated"
		kill -CONT "$pid"
		# A retry reaches the same failpoint again and stops again: let it
		# go on each time until it exits.
		i=0
		while kill -0 "$pid" 2>/dev/null; do
			st=$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null || true)
			case $st in
			T) kill -CONT "$pid" ;;
			Z | '') break ;;
			esac
			i=$((i + 1))
			[ "$i" -lt 6000 ] || fail "$fp: the loader did not finish"
			sleep 0.01
		done
		set +e
		wait "$pid"
		rc=$?
		set -e
		case "$fp:$rc" in
		before_commit:0 | after_commit:0)
			assert_eq "$(jget outcome "$TMP/t.json")" committed "$fp: outcome"
			[ "$(record_dump)" = "$ref_dump" ] || fail "$fp: reported committed, database differs"
			;;
		before_commit:5)
			assert_eq "$(q 'select count(*) from clearing_record')" 0 "$fp: rolled back, records visible"
			;;
		*) fail "$fp: backend terminated: expected a definite report, got $rc: $(cat "$TMP/t.err")" ;;
		esac
		cl_load "$f" >/dev/null || fail "$fp: re-run failed"
		[ "$(record_dump)" = "$ref_dump" ] || fail "$fp: after the re-run, database differs"
		check_invariants
		echo "ok pg_terminate_backend at $fp (exit $rc)"
	done
fi
echo "commit cut: all passed"
