#!/bin/sh
# Crash at every named failpoint, for every format, then re-run the same
# load normally: the database must equal that of one clean run.
#
# For each format (ACH, pain.001, pacs.008), each failpoint of the load
# (after_load_row, mid_copy, after_insert, after_journal, before_commit,
# after_commit) and each action (kill: the loader SIGKILLs itself;
# disconnect: its connection's socket is shut down under it):
#   - the failpoint build (CL_BIN_FP) with CL_FAILPOINT=NAME:ACTION loads
#     the file; kill must really kill it (exit 137: the point was reached);
#     before COMMIT nothing of the file may be visible, after it all of it,
#     and `loads --uuid` must call the first attempt committed;
#     disconnect must end in a definite report (0 committed or 5 rolled
#     back), true to what the database holds;
#   - the normal build then loads the same file: it must report every
#     record new, or every record duplicate when the first attempt
#     committed;
#   - clearing_record then equals (sorted dump) that of one clean run, no
#     key is there twice, and every committed load's counts agree with
#     the records and journal rows it wrote.
# And `init` killed (or disconnected) between migrations, re-run, gives the
# schema of a clean init (pg_dump --schema-only), which then loads.
# The normal build ignores CL_FAILPOINT.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/proof_lib.sh"
: "${CL_BIN_FP:?CL_BIN_FP must name the failpoint build}"

N=3000
POINTS="after_load_row mid_copy after_insert after_journal before_commit after_commit"

tpl_init

# The normal build is inert: CL_FAILPOINT changes nothing.
make_file ach "$TMP/inert.ach" 50
db_use inert
run_rc rc env CL_FAILPOINT=before_commit:kill "$CL_BIN" load --format json "$TMP/inert.ach"
assert_eq "$rc" 0 "normal build with CL_FAILPOINT set: exit status"
assert_eq "$(q 'select count(*) from clearing_record')" 50 "normal build with CL_FAILPOINT set: records"

for fmt in ach pain.001 pacs.008; do
	f="$TMP/f.$fmt"
	make_file "$fmt" "$f" "$N"
	tag=$(echo "$fmt" | tr . _)

	db_use "ref_$tag"
	cl_load "$f" >"$TMP/ref.json" || fail "$fmt: clean load failed"
	ref_dump=$(record_dump)
	ref_state=$(state)
	n=$(q "select count(*) from clearing_record")
	[ "$n" -gt 0 ] || fail "$fmt: clean load applied nothing"
	echo "$fmt: clean run: $ref_state"

	for fp in $POINTS; do
		for act in kill disconnect; do
			case_="$fmt $fp:$act"
			db_use "${tag}_${fp}_$act"
			run_rc rc env CL_FAILPOINT="$fp:$act" "$CL_BIN_FP" load --format json "$f"
			cp "$TMP/run.out" "$TMP/first.json"
			cp "$TMP/run.err" "$TMP/first.err"
			applied=$(q "select count(*) from clearing_record")
			committed_loads=$(q "select count(*) from clearing_load where outcome = 'committed'")
			first_committed=0
			if [ "$act" = kill ]; then
				[ "$rc" = 137 ] || fail "$case_: expected the failpoint to SIGKILL the loader (137), got $rc: $(cat "$TMP/first.err")"
				if [ "$fp" = after_commit ]; then
					assert_eq "$(state)" "$ref_state" "$case_: killed after COMMIT: the file must be applied"
					uuid=$(q "select load_uuid from clearing_load where outcome = 'committed'")
					[ -n "$uuid" ] || fail "$case_: no committed clearing_load row"
					run_rc lrc "$CL_BIN" loads --uuid "$uuid" --format json
					assert_eq "$lrc" 0 "$case_: loads --uuid exit status"
					grep -q '"outcome":"committed"' "$TMP/run.out" ||
						fail "$case_: loads --uuid $uuid does not say committed: $(cat "$TMP/run.out")"
					first_committed=1
				else
					assert_eq "$applied" 0 "$case_: killed before COMMIT: records visible"
					assert_eq "$committed_loads" 0 "$case_: killed before COMMIT: committed load rows"
				fi
			else
				case $rc in
				0)
					assert_eq "$(jget outcome "$TMP/first.json")" committed "$case_: exit 0 outcome"
					assert_eq "$(state)" "$ref_state" "$case_: reported committed, database"
					first_committed=1
					;;
				75)
					assert_eq "$applied" 0 "$case_: reported rolled back (75), but records are visible"
					assert_eq "$committed_loads" 0 "$case_: reported rolled back (75), but a load committed"
					;;
				*)
					fail "$case_: expected a definite report (0 or 75), got $rc: $(cat "$TMP/first.err")"
					;;
				esac
			fi

			cl_load "$f" >"$TMP/rerun.json" || fail "$case_: re-run failed: $(cat "$TMP/rerun.json")"
			if [ "$first_committed" = 1 ]; then
				assert_eq "$(jget new "$TMP/rerun.json")" 0 "$case_: re-run after a commit: new"
				assert_eq "$(jget duplicate "$TMP/rerun.json")" "$n" "$case_: re-run after a commit: duplicate"
			else
				assert_eq "$(jget new "$TMP/rerun.json")" "$n" "$case_: re-run after a rollback: new"
				assert_eq "$(jget duplicate "$TMP/rerun.json")" 0 "$case_: re-run after a rollback: duplicate"
			fi
			[ "$(record_dump)" = "$ref_dump" ] || fail "$case_: clearing_record differs from one clean run"
			check_invariants
			echo "ok $case_ (first attempt exit $rc, committed=$first_committed)"
		done
	done
done

# init, interrupted between migrations, then re-run: the schema of a clean
# init, which loads.
db_empty init_ref
cl init >/dev/null
schema_dump() { # pg_dump's \restrict lines carry a random key
	pg_dump --schema-only --no-owner "$PGDATABASE" | grep -v -e '^--' -e '^\\restrict' -e '^\\unrestrict'
}
schema_dump >"$TMP/schema.ref"
for act in kill disconnect; do
	db_empty "init_$act"
	run_rc rc env CL_FAILPOINT="init_between_migrations:$act" "$CL_BIN_FP" init
	case $act in
	kill) [ "$rc" = 137 ] || fail "init $act: expected SIGKILL (137), got $rc: $(cat "$TMP/run.err")" ;;
	*) [ "$rc" != 0 ] || fail "init $act: a lost connection between migrations must not exit 0" ;;
	esac
	run_rc rc "$CL_BIN" init
	assert_eq "$rc" 0 "init after an interrupted init: $(cat "$TMP/run.err")"
	schema_dump >"$TMP/schema.got"
	diff -u "$TMP/schema.ref" "$TMP/schema.got" >&2 || fail "init $act: schema differs from a clean init"
	run_rc rc "$CL_BIN" init
	assert_eq "$rc" 0 "init again (idempotent)"
	cl_load "$TMP/inert.ach" >/dev/null || fail "init $act: load after re-init failed"
	assert_eq "$(q 'select count(*) from clearing_record')" 50 "init $act: load after re-init"
	echo "ok init_between_migrations:$act"
done
echo "failpoints: all passed"
