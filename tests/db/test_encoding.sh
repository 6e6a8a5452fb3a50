#!/bin/sh
# The loader always talks UTF-8 to the server: a PGCLIENTENCODING of LATIN1
# (a login profile on one of two cron hosts) must not store a non-ASCII id
# under other bytes and apply the same file again.
. "$(dirname "$0")/lib.sh"
: "${CL_TOOLS:?}"
db_new
cl init >/dev/null
"$CL_TOOLS/gen_iso" --type pain.001 --tx 2 | sed 's|<EndToEndId>E2E-1-1</EndToEndId>|<EndToEndId>E2E-é-1</EndToEndId>|' >"$TMP/e.xml"
grep -q 'E2E-é-1' "$TMP/e.xml" || fail "fixture not made"
cl_load "$TMP/e.xml" >"$TMP/o" || fail "first load: $(cat "$TMP/o")"
PGCLIENTENCODING=LATIN1 "$CL_BIN" load --format json "$TMP/e.xml" >"$TMP/o2" || fail "LATIN1 load: $(cat "$TMP/o2")"
grep -q '"new":0,"duplicate":2,' "$TMP/o2" || fail "PGCLIENTENCODING=LATIN1 applied again: $(cat "$TMP/o2")"
assert_eq "$(q "select count(*) from clearing_record where end_to_end_id = 'E2E-é-1'")" 1 "stored as sent"
