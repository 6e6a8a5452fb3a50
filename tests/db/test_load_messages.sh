#!/bin/sh
# A file that changes under the loader.  What the loader applies is what
# it read, and the SHA-256 it records is of those bytes.  A file read once
# (staged) reads a change it has not read yet (the file's own checks then
# decide); a new NACHA file is read twice (first alone, then COPYed into
# the records: decision 0058), and a retry (a key applied by another load
# meanwhile) reads the file again: when a later read's bytes are not the
# first's, nothing is applied: the attempt is recorded as rejected (exit
# 3), in words an operator can read, no "(SQLSTATE none)", "nothing
# applied" said once.
. "$(dirname "$0")/lib.sh"
: "${CL_TOOLS:?}"
: "${CL_BIN_FP:?CL_BIN_FP must name the failpoint build}"
db_new
cl init >/dev/null

# stopped: run "$@" (a failpoint build with CL_FAILPOINT=...:stop) in the
# background until it has stopped itself; its pid in $pid
stopped() {
	"$@" >"$TMP/out" 2>"$TMP/err" &
	pid=$!
	until grep -q '^State:[[:space:]]*T' "/proc/$pid/status" 2>/dev/null; do
		kill -0 "$pid" 2>/dev/null || fail "the loader ended before the failpoint: $(cat "$TMP/err")"
	done
}
resume() {
	kill -CONT "$pid"
	set +e
	wait "$pid"
	rc=$?
	set -e
}

# 1. changed while it is read: the loader stops after staging its first
# record (64 KiB read of 1.9 MB) and the last entry's amount changes; the
# loader reads the changed amount, the batch control no longer adds up:
# rejected by the file's own check, nothing applied
"$CL_TOOLS/gen_ach" -n 20000 >"$TMP/g.ach"
last=$(grep -n '^6' "$TMP/g.ach" | tail -n 1 | cut -d: -f1)
stopped env CL_FAILPOINT=mid_copy:stop "$CL_BIN_FP" load "$TMP/g.ach"
printf '9999999999' | dd of="$TMP/g.ach" bs=1 seek=$(((last - 1) * 95 + 29)) conv=notrunc 2>/dev/null
resume
assert_eq "$rc" 3 "a file broken while it is read: exit status"
grep -q "g.ach:[0-9]*: error: batch [0-9]* total \(debit\|credit\) mismatch" "$TMP/err" ||
	fail "the broken batch is not named: $(cat "$TMP/err")"
assert_eq "$(q "select count(*) from clearing_record")" 0 "nothing applied (1)"

# 2. a cosmetic change to a new NACHA file between its two reads (the
# loader stops at the first record it COPYs into the records, the second
# read): the bytes are not the first read's: rejected, nothing applied
"$CL_TOOLS/gen_ach" -n 20000 >"$TMP/f.ach"
last=$(grep -n '^6' "$TMP/f.ach" | tail -n 1 | cut -d: -f1)
stopped env CL_FAILPOINT=mid_copy:stop "$CL_BIN_FP" load "$TMP/f.ach"
printf 'CHANGED UNDER LOADER  ' | dd of="$TMP/f.ach" bs=1 seek=$(((last - 1) * 95 + 54)) conv=notrunc 2>/dev/null
resume
assert_eq "$rc" 3 "a new NACHA file changed between its reads: exit status"
assert_eq "$(q "select outcome || ' ' || (reason like 'the file changed while it was loaded%')::text
	from clearing_load where file_name like '%f.ach'")" "rejected true" \
	"a new NACHA file changed between its reads: recorded"
grep -q "f.ach: detail: first read 20000 records, SHA-256 [0-9a-f]\{64\}; read in attempt 1 20000 records" "$TMP/err" ||
	fail "the change between reads is not said: $(cat "$TMP/err")"
assert_eq "$(q "select count(*) from clearing_record")" 0 "nothing applied (2)"

# 2b. a cosmetic change read the same way in a file read once (ISO 20022,
# staged): applied, and the recorded SHA-256 is that of the bytes read,
# the changed file
"$CL_TOOLS/gen_iso" --type pain.001 --tx 4000 --start 1 --seed 3 --msg-id M9 >"$TMP/f.xml"
stopped env CL_FAILPOINT=mid_copy:stop "$CL_BIN_FP" load "$TMP/f.xml"
at=$(grep -b -o '<Ustrd>Invoice [0-9]*</Ustrd>' "$TMP/f.xml" | tail -n 1 | cut -d: -f1)
printf 'f' | dd of="$TMP/f.xml" bs=1 seek=$((at + 13)) conv=notrunc 2>/dev/null
grep -q '<Ustrd>Invoicf [0-9]*</Ustrd>' "$TMP/f.xml" || fail "the test did not change the file (2b)"
resume
assert_eq "$rc" 0 "a cosmetic change read while loading: exit status"
assert_eq "$(q "select sha256 from clearing_load where outcome = 'committed'")" \
	"$(sha256sum "$TMP/f.xml" | cut -d' ' -f1)" "the SHA-256 of the bytes read"
assert_eq "$(q "select count(*) from clearing_record")" 4000 "every record once"

# 3. changed between attempts: a pain.001 loader stops after classifying;
# meanwhile another load applies one of its payments and the file's first
# remittance text changes.  Its insert meets that key (23505), the retry
# reads other bytes: rejected, nothing of it applied.  Its first payment
# is applied already (an earlier file), so the file is classified in full
# (a file taken for new settles that race in its attempt: 3b)
"$CL_TOOLS/gen_iso" --type pain.001 --tx 200 --start 1 --seed 7 --msg-id M1 >"$TMP/p.xml"
"$CL_TOOLS/gen_iso" --type pain.001 --tx 1 --start 150 --seed 7 --msg-id M2 >"$TMP/q.xml"
"$CL_TOOLS/gen_iso" --type pain.001 --tx 1 --start 1 --seed 7 --msg-id M0 >"$TMP/o.xml"
expect_exit 0 cl load --tenant t3 "$TMP/o.xml"
stopped env CL_FAILPOINT=after_journal:stop "$CL_BIN_FP" load --tenant t3 "$TMP/p.xml"
expect_exit 0 cl load --tenant t3 "$TMP/q.xml"
# in place (a writer that replaces the file gives the loader, which holds
# it open, the old bytes)
at=$(grep -b -o '<Ustrd>Invoice 1</Ustrd>' "$TMP/p.xml" | head -n 1 | cut -d: -f1)
printf 'f' | dd of="$TMP/p.xml" bs=1 seek=$((at + 13)) conv=notrunc 2>/dev/null
grep -q '<Ustrd>Invoicf 1</Ustrd>' "$TMP/p.xml" || fail "the test did not change the file"
resume
assert_eq "$rc" 3 "a file changed between attempts: exit status"
assert_eq "$(q "select count(*) from clearing_record where tenant = 't3'")" 2 \
	"nothing of it applied (the other loads' payments only)"
assert_eq "$(q "select outcome || ' ' || (reason like 'the file changed while it was loaded%')::text
	from clearing_load where tenant = 't3' and file_name like '%p.xml'")" "rejected true" \
	"the attempt is recorded"
grep -q "^clearing-load: $TMP/p.xml: error: the file changed while it was loaded (SHA-256 or record count differs between reads): nothing applied\$" "$TMP/err" ||
	fail "no clear message: $(cat "$TMP/err")"
if grep -q 'SQLSTATE none' "$TMP/err"; then fail "SQLSTATE none: $(cat "$TMP/err")"; fi
# where the numbers came from, and what to do
grep -q "^clearing-load: $TMP/p.xml: detail: first read 200 records, SHA-256 [0-9a-f]\{64\}; read in attempt 2 200 records, SHA-256 [0-9a-f]\{64\}\$" "$TMP/err" ||
	fail "no detail: $(cat "$TMP/err")"
grep -q "^clearing-load: $TMP/p.xml: hint: load a file only once whoever writes it has finished" "$TMP/err" ||
	fail "no hint: $(cat "$TMP/err")"
assert_eq "$(grep -o 'nothing applied\|nothing from this file was applied' "$TMP/err" | wc -l)" 1 \
	"'nothing applied' said once"

# 3b. the same race for a file taken for new (none of its sampled keys
# applied): its insert meets the key the other load applied meanwhile
# (23505), the attempt rolls back to its savepoint and classifies in full:
# that payment a duplicate, the rest applied from the bytes it read, no
# retry, the journal naming the one duplicate
"$CL_TOOLS/gen_iso" --type pain.001 --tx 200 --start 1 --seed 8 --msg-id N1 >"$TMP/p8.xml"
"$CL_TOOLS/gen_iso" --type pain.001 --tx 1 --start 150 --seed 8 --msg-id N2 >"$TMP/q8.xml"
stopped env CL_FAILPOINT=after_journal:stop "$CL_BIN_FP" load --format json --tenant t4 "$TMP/p8.xml"
expect_exit 0 cl load --tenant t4 "$TMP/q8.xml"
resume
assert_eq "$rc" 0 "a new file meeting a key applied meanwhile: exit status"
assert_eq "$(q "select count(*) from clearing_record where tenant = 't4'")" 200 \
	"every payment once"
assert_eq "$(q "select outcome, new_count, duplicate_count, retries from clearing_load
	where tenant = 't4' and file_name like '%p8.xml'")" "committed|199|1|0" "the load row"
assert_eq "$(q "select e.reason from clearing_dedupe_event e join clearing_load l using (load_id)
	where l.tenant = 't4' and l.file_name like '%p8.xml'")" "duplicate" "its journal"
echo ok
