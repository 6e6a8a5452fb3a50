#!/bin/sh
# A file taken for new (loader/load.c classify_file: no key of a sample
# of it applied) is inserted without the exact-key probes; whatever proves
# it is not new is undone to a savepoint and the file classified in full,
# in the same attempt.  Each way out of that path gives what the full
# classification gives: an applied key the sample did not ask about (the
# insert's unique check), a near duplicate (a re-dated copy), a conflict
# under an unsampled key; and a file that is new indeed.
. "$(dirname "$0")/lib.sh"
: "${CL_TOOLS:?}"
db_new
cl init ${CL_INIT_ARGS:-} >/dev/null
assert_init_args

field() { grep '"type":"file"' "$TMP/out" | json_field "$1"; }
# (of the file's first load: DOUBLE=1 loads each file twice)
first_load() { q "select min(load_id) from clearing_load where file_name like '%/$1'"; }
records_of() { q "select count(*) from clearing_record where load_id = $(first_load "$1")"; }
events_of() { q "select e.reason || ':' || e.ordinal from clearing_dedupe_event e
		 where e.load_id = $(first_load "$1") order by e.ordinal"; }
gen() { _o=$1; shift; "$CL_TOOLS/gen_ach" "$@" >"$TMP/$_o"; }

# 1. new indeed: every record applied, nothing journaled, no retry
gen a --entries 200 --start 20001 --effective 261201
cl_load "$TMP/a" >"$TMP/out" || fail "new file exited $?"
assert_eq "$(field outcome):$(field new):$(field duplicate):$(field retries)" committed:200:0:0 "new file"
assert_eq "$(records_of a)" 200 "new file: records"
assert_eq "$(events_of a)" "" "new file: journal"

# 2. one applied key at ordinal 2 (of 5,000 keys the sample asks ordinals
#    1, 5, 9, ... and the last: loader/key_sample.h): the insert fails on
#    it, the full classification finds it
gen one --entries 1 --start 2 --effective 261201
cl_load "$TMP/one" >/dev/null || fail "one-entry file exited $?"
gen b --entries 5000 --start 1 --effective 261201
cl_load "$TMP/b" >"$TMP/out" || fail "file with an unsampled duplicate exited $?"
assert_eq "$(field outcome):$(field new):$(field duplicate):$(field retries)" committed:4999:1:0 \
	"unsampled duplicate"
assert_eq "$(records_of b)" 4999 "unsampled duplicate: records"
assert_eq "$(events_of b)" "duplicate:2" "unsampled duplicate: journal"

# 3. a re-dated copy of an applied entry at ordinal 5: a near duplicate;
#    the file is held, nothing of it applied, its one conflict journaled
gen d --entries 40 --start 1 --effective 261203 --seed 7
cl_load "$TMP/d" >"$TMP/out" || fail "seed-7 file exited $?"
gen e --entries 40 --start 1 --effective 261204 --seed 7
rc=0
cl_load "$TMP/e" >"$TMP/out" || rc=$?
assert_eq "$rc" 4 "re-dated copy: exit status (held)"
assert_eq "$(field outcome):$(field new):$(field retries)" held:0:0 "re-dated copy"
assert_eq "$(records_of e)" 0 "re-dated copy: nothing applied"
[ "$(field conflict)" -ge 1 ] || fail "re-dated copy: no conflict counted: $(cat "$TMP/out")"
events_of e | grep -q '^near_duplicate:' || fail "re-dated copy: no near duplicate journaled: $(events_of e)"

# 4. another amount under an applied key at ordinal 3 (unsampled): held
gen f --entries 1 --start 10003 --effective 261201 --bump-amount-every 1
gen g --entries 5000 --start 10001 --effective 261201
cl_load "$TMP/f" >/dev/null || fail "one-entry file f exited $?"
rc=0
cl_load "$TMP/g" >"$TMP/out" || rc=$?
assert_eq "$rc" 4 "unsampled conflict: exit status (held)"
assert_eq "$(field outcome):$(field conflict):$(field retries)" held:1:0 "unsampled conflict"
assert_eq "$(records_of g)" 0 "unsampled conflict: nothing applied"
assert_eq "$(events_of g)" "conflict:3" "unsampled conflict: journal"
# 5. which files are read straight into clearing_record (decision 0058),
#    seen by the failpoint direct_copied, reached only on that path: a new
#    NACHA file (killed there: nothing applied; then loaded whole), not
#    its re-upload, not an ISO 20022 file
fp() { rc=0; env CL_FAILPOINT=direct_copied:kill "$CL_BIN_FP" load --format json "$@" \
	>"$TMP/out" 2>"$TMP/err" || rc=$?; }
#    (in columnar storage, CL_INIT_ARGS=--columnar, no file is taken for
#    new: loader/load.c classify_file; the new NACHA file is staged too)
gen h --entries 300 --start 30001 --effective 261201
fp "$TMP/h"
case " ${CL_INIT_ARGS:-} " in
*" --columnar "*)
	assert_eq "$rc" 0 "columnar: new NACHA file staged (direct_copied not reached): $(cat "$TMP/err")"
	assert_eq "$(field outcome):$(field new):$(field duplicate)" committed:300:0 \
		"columnar: new NACHA file" ;;
*)
	assert_eq "$rc" 137 "new NACHA file: killed at direct_copied (the direct path)"
	assert_eq "$(q "select count(*) from clearing_record r join clearing_load l using (load_id)
			where l.file_name like '%/h'")" 0 "new NACHA file killed: nothing applied"
	cl_load "$TMP/h" >"$TMP/out" || fail "new NACHA file after the kill exited $?" ;;
esac
assert_eq "$(field outcome):$(field new):$(field duplicate)" committed:300:0 "new NACHA file, loaded again"
fp "$TMP/h"
assert_eq "$rc" 0 "re-upload: the staged path (direct_copied not reached): $(cat "$TMP/err")"
assert_eq "$(field outcome):$(field new):$(field duplicate)" committed:0:300 "re-upload"
"$CL_TOOLS/gen_iso" --type pain.001 --tx 50 >"$TMP/i.xml"
fp "$TMP/i.xml"
assert_eq "$rc" 0 "ISO 20022 file: the staged path (direct_copied not reached): $(cat "$TMP/err")"
assert_eq "$(field outcome):$(field new)" committed:50 "ISO 20022 file"
echo "ok   test_new_file"
