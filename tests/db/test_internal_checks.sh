#!/bin/sh
# The loader's own count checks, reached: a load counts what it read,
# classified and inserted, and when the database applied fewer rows than it
# sent, it says so and applies nothing from the file.  What makes the counts
# differ here is a real one: a BEFORE INSERT trigger an administrator added
# to clearing_record (on Citus, to the journal) that drops a row (returns
# NULL), which PostgreSQL allows on the owner's table; the loader's own
# statements are all it checks.  Each path that inserts records has its check:
#   - a new NACHA file COPYed straight into the records (decision 0058):
#     "N records copied of M read" (loader/stage.c cl_stage_copy_records);
#   - a staged file's INSERT of its new records: "N new records inserted,
#     classification found M" (loader/apply.c).
# and each write of the journal (loader/load.c write_journal), a trigger on
# clearing_dedupe_event dropping a row:
#   - the journal rows of a held file (its near duplicates) and, on one
#     server, of a re-upload: "N records journaled, classification found M";
#   - on Citus, a re-upload's duplicates journaled on the workers:
#     "N duplicates journaled, classification found M"; a row trigger on a
#     distributed table needs citus.enable_unsafe_triggers, which the
#     administrator sets for it.
. "$(dirname "$0")/lib.sh"
: "${CL_TOOLS:?}"
db_new
cl init ${CL_INIT_ARGS:-} >/dev/null
assert_init_args
q "create function drop_third() returns trigger language plpgsql as \$\$
   begin if new.ordinal = 3 then return null; end if; return new; end \$\$"
gen() { _o=$1; shift; "$CL_TOOLS/gen_ach" "$@" >"$TMP/$_o"; }
loaded() { q "select count(*) from clearing_load where file_name like '%/$1' and outcome = 'committed'"; }
# held_short: a's re-dated copy (40 near duplicates of a: held) with the
# journal's trigger on: one journal row short, nothing kept of it
held_short() {
	gen a2 --entries 40 --start 1 --effective 261202
	expect_exit 5 cl load "$TMP/a2"
	grep -q "/a2: 39 records journaled, classification found 40: nothing applied (does a trigger or rule on clearing_dedupe_event drop rows?)" "$TMP/err" ||
		fail "the held file's journal count: $(cat "$TMP/err")"
	assert_eq "$(q "select count(*) from clearing_load where file_name like '%/a2'")" 0 "no load row of a2"
	assert_eq "$(q "select count(*) from clearing_quarantine")" 0 "nothing of a2 parked"
}
if [ "$(q "select count(*) from pg_extension where extname = 'citus'")" != 0 ]; then
	gen a --entries 40 --start 1 --effective 261201
	cl load "$TMP/a" >/dev/null || fail "a, new"
	unsafe() { PGOPTIONS="${PGOPTIONS:-} -c citus.enable_unsafe_triggers=on" q "$1" >/dev/null; }
	unsafe "create trigger zz_drop_third before insert on clearing_dedupe_event
		for each row execute function drop_third()"
	expect_exit 5 cl load "$TMP/a"
	grep -q "/a: 39 duplicates journaled, classification found 40: nothing applied (does a trigger or rule on clearing_dedupe_event drop rows?)" "$TMP/err" ||
		fail "the journal's count on Citus: $(cat "$TMP/err")"
	assert_eq "$(loaded a)" 1 "no committed re-upload of a"
	assert_eq "$(q "select count(*) from clearing_dedupe_event")" 0 "no journal row of the re-upload"
	held_short
	unsafe "drop trigger zz_drop_third on clearing_dedupe_event"
	cl load --format json "$TMP/a" >"$TMP/out" || fail "a again, no trigger: exit $?"
	assert_eq "$(grep '"type":"file"' "$TMP/out" | json_field duplicate)" 40 "a's re-upload after the trigger"
	assert_eq "$(q "select count(*) from clearing_dedupe_event")" 40 "its 40 duplicates journaled once"
	echo ok
	exit 0
fi

q "create trigger zz_drop_third before insert on clearing_record
   for each row execute function drop_third()"

# 1. a new file, taken for new: its COPY into the records is one row short
#    (in columnar storage no file is taken for new: loader/load.c; its
#    insert from the stage is)
gen a --entries 40 --start 1 --effective 261201
expect_exit 5 cl load "$TMP/a"
case " ${CL_INIT_ARGS:-} " in
*" --columnar "*) short="/a: 39 new records inserted, classification found 40: nothing applied" ;;
*) short="/a: 39 records copied of 40 read: nothing applied (does a trigger on clearing_record drop rows?)" ;;
esac
grep -q "$short" "$TMP/err" || fail "the direct COPY's count: $(cat "$TMP/err")"
assert_eq "$(q "select count(*) from clearing_record")" 0 "nothing applied from a"
assert_eq "$(loaded a)" 0 "no committed load of a"

# 2. a staged file (one of its sampled keys applied: classified in full,
#    its new records inserted from the stage): the insert is one row short
gen one --entries 1 --start 1 --effective 261201
cl load "$TMP/one" >/dev/null || fail "one-entry file"
expect_exit 5 cl load "$TMP/a"
grep -q "/a: 38 new records inserted, classification found 39: nothing applied (does a trigger" "$TMP/err" ||
	fail "the staged insert's count: $(cat "$TMP/err")"
assert_eq "$(q "select count(*) from clearing_record")" 1 "nothing applied from a, staged"
assert_eq "$(q "select count(*) from clearing_dedupe_event")" 0 "no journal row of a"
assert_eq "$(loaded a)" 0 "no committed load of a, staged"

# 3. the trigger gone, the same file loads whole: nothing was left behind
q "drop trigger zz_drop_third on clearing_record"
cl load --format json "$TMP/a" >"$TMP/out" || fail "a, no trigger: exit $?"
assert_eq "$(grep '"type":"file"' "$TMP/out" | json_field new):$(grep '"type":"file"' "$TMP/out" | json_field duplicate)" \
	39:1 "a after the trigger"
assert_eq "$(q "select count(*) from clearing_record")" 40 "every record of a, once"

# 4. the journal one row short: a's re-upload (its 40 duplicates) and its
#    re-dated copy (held)
q "create trigger zz_drop_third before insert on clearing_dedupe_event
   for each row execute function drop_third()"
journal=$(q "select count(*) from clearing_dedupe_event")
expect_exit 5 cl load "$TMP/a"
grep -q "/a: 39 records journaled, classification found 40: nothing applied (does a trigger or rule on clearing_dedupe_event drop rows?)" "$TMP/err" ||
	fail "the re-upload's journal count: $(cat "$TMP/err")"
assert_eq "$(loaded a)" 1 "no committed re-upload of a"
assert_eq "$(q "select count(*) from clearing_dedupe_event")" "$journal" "no journal row of the re-upload"
held_short
q "drop trigger zz_drop_third on clearing_dedupe_event"
expect_exit 4 cl load "$TMP/a2"
assert_eq "$(q "select count(*) from clearing_dedupe_event where reason = 'near_duplicate'")" 40 \
	"a2 held after the trigger, its 40 near duplicates journaled"
echo ok
