# A rejected file applies nothing, but its records that could be read are
# parked (clearing_quarantine), so show finds a payment seen only there
# ("seen in rejected load N, line L"); they are no conflicts to resolve, a
# re-run parks nothing twice, and the corrected file loads as new.
. "$(dirname "$0")/lib.sh"
: "${CL_TOOLS:?}"
db_new
cl init >/dev/null
"$CL_TOOLS/gen_ach" -n 20 >"$TMP/good.ach"
sed '3s/^\(.\{29\}\)\(.\)/\1X/' "$TMP/good.ach" >"$TMP/bad.ach" # line 3: a bad amount
expect_exit 3 cl load "$TMP/bad.ach"
assert_eq "$(q "select count(*) from clearing_record")" 0 "nothing applied"
assert_eq "$(q "select outcome from clearing_load")" rejected "recorded as rejected"
lid=$(q "select load_id from clearing_load")
# the 19 entries read (line 3 is not one)
assert_eq "$(q "select count(*) from clearing_quarantine where load_id = $lid")" 19 "readable records parked"
t=$(q "select trace_number from clearing_quarantine where position = 24")
expect_exit 7 cl show --trace "$t"
grep -q "seen in rejected load $lid, line 24" "$TMP/err" || fail "show: $(cat "$TMP/err")"
expect_exit 0 cl conflicts
grep -q "0 unresolved conflicts" "$TMP/err" || fail "a rejected file has no conflicts: $(cat "$TMP/err")"
# a re-run parks nothing twice
expect_exit 3 cl load "$TMP/bad.ach"
assert_eq "$(q "select count(*) from clearing_quarantine")" 19 "parked once"
# the corrected file: every record new
expect_exit 0 cl load --format json "$TMP/good.ach"
grep -q '"new":20' "$TMP/out" || fail "corrected file: $(cat "$TMP/out")"
expect_exit 0 cl show --trace "$t"
# a file that cannot even be opened as a clearing file parks nothing
printf 'not a clearing file\n' >"$TMP/junk.txt"
expect_exit 3 cl load "$TMP/junk.txt"
assert_eq "$(q "select count(*) from clearing_quarantine")" 19 "nothing parked from junk"
echo ok
