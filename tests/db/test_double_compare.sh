#!/bin/sh
# The double-run property in one test run: the same scenario played once
# with every load performed once, and once with every load performed twice
# in a row, must leave clearing_record byte-for-byte equal (sorted dump,
# positions included).  Each second run must apply nothing (new 0, the same
# exit status as the first).
#
# The scenario, for ACH, pain.001 and pacs.008, in two tenants: an original
# upload with records missing, the corrected re-upload, the exact repeat, a
# re-upload with changed amounts (held), the same with
# --on-conflict=quarantine, and a partial overlap.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/proof_lib.sh"

tpl_init
for fmt in ach pain.001 pacs.008; do
	make_file "$fmt" "$TMP/orig.$fmt" 600 --skip-every 7
	make_file "$fmt" "$TMP/full.$fmt" 600
	make_file "$fmt" "$TMP/bump.$fmt" 600 --bump-amount-every 50
	make_file "$fmt" "$TMP/more.$fmt" 600 --start 300
done

# do_load TIMES WANT_RC ARGS...: load (json); TIMES=2 loads again and
# asserts the second applied nothing and exited the same.
do_load() {
	_times=$1 _want=$2
	shift 2
	run_rc _rc "$CL_BIN" load --format json "$@"
	case " $_want " in *" $_rc "*) ;; *) fail "load $*: exit $_rc, want $_want: $(cat "$TMP/run.err")" ;; esac
	if [ "$_times" = 2 ]; then
		_first=$_rc
		_before=$(record_dump)
		run_rc _rc "$CL_BIN" load --format json "$@"
		[ "$_rc" = "$_first" ] || [ "$_first" != 0 ] || fail "second load $*: exit $_rc after $_first"
		case " $_want " in *" $_rc "*) ;; *) fail "second load $*: exit $_rc: $(cat "$TMP/run.err")" ;; esac
		assert_eq "$(jsum new "$TMP/run.out")" 0 "second load $*: new"
		[ "$(record_dump)" = "$_before" ] || fail "second load $*: clearing_record changed"
	fi
}

scenario() {
	for tenant in default other; do
		for fmt in ach pain.001 pacs.008; do
			do_load "$1" 0 --tenant "$tenant" "$TMP/orig.$fmt"
			do_load "$1" 0 --tenant "$tenant" "$TMP/full.$fmt"
			do_load "$1" 0 --tenant "$tenant" "$TMP/full.$fmt"
			do_load "$1" 4 --tenant "$tenant" "$TMP/bump.$fmt"
			do_load "$1" "0 8" --tenant "$tenant" --on-conflict=quarantine "$TMP/bump.$fmt"
			do_load "$1" 0 --tenant "$tenant" "$TMP/more.$fmt"
		done
	done
}

db_use single
scenario 1
check_invariants
single=$(record_dump)
[ -n "$single" ] || fail "the single run applied nothing"
quarantined=$(q "select count(*) from clearing_quarantine")
[ "$quarantined" -gt 0 ] || fail "the scenario quarantined nothing"

db_use double
scenario 2
check_invariants
double=$(record_dump)
if [ "$single" != "$double" ]; then
	printf '%s\n' "$single" >"$TMP/single"
	printf '%s\n' "$double" >"$TMP/double"
	diff "$TMP/single" "$TMP/double" | head -n 20 >&2
	fail "clearing_record after the double run differs from the single run"
fi
echo "double-run: clearing_record equal ($(printf '%s\n' "$single" | wc -l) rows; $quarantined quarantined)"
