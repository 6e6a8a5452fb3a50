# The bank CSV maps of contrib/csv-maps/ read their sample exports of
# testdata/statements/csv/ (docs/design/0041-bank-csv-statements.md): each
# valid, one statement of three entries whose balances add up (no
# warning), from standard input as named; its statement key the account,
# currency and period; and without --csv-map the same file is no format.
. "$(dirname "$0")/lib.sh"
M="$CL_ROOT/contrib/csv-maps"
n=0
for map in "$M"/*.map; do
	b=$(basename "$map" .map)
	f="$TESTDATA/statements/csv/$b.csv"
	[ -f "$f" ] || fail "$b: no sample $f"
	run validate --csv-map "$map" "$f"
	[ "$STATUS" = 0 ] || fail "$b: validate exits $STATUS: $(cat "$TMP/stdout" "$TMP/stderr")"
	grep -q "valid csv:$b, 7 records" "$TMP/stdout" || fail "$b: $(cat "$TMP/stdout")"
	if grep -q "warning" "$TMP/stderr"; then fail "$b: $(cat "$TMP/stderr")"; fi
	set +e
	"$CL_BIN" validate --csv-map "$map" - <"$f" >"$TMP/piped" 2>&1
	s=$?
	set -e
	[ "$s" = 0 ] || fail "$b from standard input: $(cat "$TMP/piped")"
	run parse --format json --no-mask --csv-map "$map" "$f"
	grep -q '"item":"statement","natural_key":"csv|[A-Z0-9-]*|[A-Z]*|f:2026-03-0[0-9]|t:2026-03-0[0-9]|stmt"' "$TMP/stdout" ||
		fail "$b: statement key: $(head -1 "$TMP/stdout")"
	run validate "$f"
	[ "$STATUS" = 3 ] || fail "$b without a map: exit $STATUS"
	n=$((n + 1))
done
[ "$n" -ge 3 ] || fail "only $n maps"
echo ok
