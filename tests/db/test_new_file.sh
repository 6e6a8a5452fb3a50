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
echo "ok   test_new_file"
