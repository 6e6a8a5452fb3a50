#!/bin/sh
# Invalid files (exit 3: nothing applied, the attempt recorded as rejected),
# an unreachable database (exit 5), a missing schema, usage errors, several
# files (the highest exit code wins), standard input.
. "$(dirname "$0")/lib.sh"
: "${CL_TOOLS:?}"
db_new

"$CL_TOOLS/gen_ach" -n 50 >"$TMP/good.ach"
"$CL_TOOLS/gen_ach" -n 50 --start 1000 >"$TMP/good2.ach"

# no schema yet: a clear message, exit 78 (configuration: a retry will not mend it)
expect_exit 78 cl load "$TMP/good.ach"
grep -q "run 'clearing-load init'" "$TMP/err" || fail "missing schema message: $(cat "$TMP/err")"
cl init >/dev/null

# an invalid file: one entry's amount changed, so the batch totals disagree
sed '3s/^\(.\{29\}\)\(.\)/\1X/' "$TMP/good.ach" >"$TMP/bad.ach"
expect_exit 3 cl load --format json "$TMP/bad.ach"
grep -q "bad.ach:3" "$TMP/err" || fail "error does not name file and line: $(cat "$TMP/err")"
grep '"type":"file"' "$TMP/out" | grep -q '"outcome":"rejected"' || fail "outcome: $(cat "$TMP/out")"
assert_eq "$(q "select count(*) from clearing_record")" 0 "nothing applied from an invalid file"
assert_eq "$(q "select outcome || ' ' || (reason like 'line 3:%') from clearing_load")" "rejected true" \
	"the rejected attempt is recorded with its reason"
assert_eq "$(q "select count(*) from clearing_dedupe_event")" 0 "no journal rows for a rejected file"

# diff of an invalid file: exit 3, an error object (and the file's), nothing recorded
expect_exit 3 cl diff --format json "$TMP/bad.ach"
grep -q '"type":"error",.*"line":3,.*"code":"numeric"' "$TMP/out" || fail "diff error object: $(cat "$TMP/out")"
assert_eq "$(q "select count(*) from clearing_load")" 1 "diff records no rejected row"

# a file that does not exist is a usage error: nothing recorded
n=$(q "select count(*) from clearing_load")
expect_exit 2 cl load "$TMP/no-such-file.ach"
grep -q "no-such-file.ach: no such file" "$TMP/err" || fail "open error: $(cat "$TMP/err")"
assert_eq "$(q "select count(*) from clearing_load")" "$n" "a missing file leaves no load row"

# several files: each in its own transaction, the highest exit code wins
expect_exit 3 cl load --format json "$TMP/good.ach" "$TMP/bad.ach" "$TMP/good2.ach"
assert_eq "$(grep -c '"outcome":"committed"' "$TMP/out")" 2 "good files committed around a bad one"
assert_eq "$(q "select count(*) from clearing_record")" 100 "both good files applied"

# standard input (spooled so it can be read twice)
"$CL_TOOLS/gen_ach" -n 30 --start 5000 | "$CL_BIN" load --format json - >"$TMP/out" ||
	fail "load from stdin failed"
grep -q '"new":30' "$TMP/out" || fail "stdin load: $(cat "$TMP/out")"
gzip -c "$TMP/good.ach" >"$TMP/good.ach.gz"
expect_exit 0 cl load --format json "$TMP/good.ach.gz"
grep -q '"duplicate":50' "$TMP/out" || fail "gzip re-upload: $(cat "$TMP/out")"

# an unreachable database: exit 75 (retry later), nothing printed on stdout
expect_exit 75 cl load --db "host=127.0.0.1 port=1 connect_timeout=2" "$TMP/good.ach"
grep -q "could not connect" "$TMP/err" || fail "unreachable message: $(cat "$TMP/err")"
[ ! -s "$TMP/out" ] || fail "stdout not empty: $(cat "$TMP/out")"
expect_exit 75 cl loads --db "host=127.0.0.1 port=1 connect_timeout=2"

# usage errors: one line and the hint, exit 2
expect_exit 2 cl load
grep -q "Try 'clearing-load load --help'" "$TMP/err" || fail "usage hint: $(cat "$TMP/err")"
expect_exit 2 cl load --on-conflict=maybe "$TMP/good.ach"
expect_exit 2 cl load --format xml "$TMP/good.ach"
expect_exit 2 cl load --db "dbname=x password=secret" "$TMP/good.ach"
grep -q "must not contain a password" "$TMP/err" || fail "password message: $(cat "$TMP/err")"
expect_exit 2 cl load --db "postgresql://u:secret@localhost/x" "$TMP/good.ach"
expect_exit 2 cl diff --bogus "$TMP/good.ach"
expect_exit 2 cl show
expect_exit 2 cl show --trace 1 KEY
expect_exit 2 cl loads --since yesterday
expect_exit 2 cl loads --uuid not-a-uuid
expect_exit 0 cl load --help
grep -q "^Usage: clearing-load load" "$TMP/out" || fail "help on stdout"

# quiet: nothing on stdout for a successful load
expect_exit 0 cl load -q "$TMP/good.ach"
[ ! -s "$TMP/out" ] || fail "-q printed: $(cat "$TMP/out")"
echo ok
