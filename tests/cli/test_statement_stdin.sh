# One detection: a statement or status report is told by the one parser in
# its one pass over the input (no rewind), so a file read from standard
# input through a pipe (which cannot be rewound) gets the same verdict as
# the same file named, for validate and parse (issue 27).  Before, the
# statement detection read the file and rewound it, which a pipe cannot
# do: a statement piped in was read as a clearing file
# (unsupported_message; BAI2: unknown_format).
. "$(dirname "$0")/lib.sh"
S="$TESTDATA/statements/corpus"
for f in "$S"/camt.053/abn_amro_example_camt.xml "$S"/pacs.002/*.xml; do
	[ -f "$f" ] || continue
	run validate "$f"
	named=$STATUS
	grep -v '"file"' "$TMP/stdout" | sed 's/"file":"[^"]*"//g' >"$TMP/named"
	set +e
	cat "$f" | "$CL_BIN" validate - >"$TMP/stdout" 2>"$TMP/stderr"
	STATUS=$?
	set -e
	[ "$STATUS" = "$named" ] || fail "$f: validate exits $named, from standard input $STATUS: $(cat "$TMP/stdout" "$TMP/stderr")"
	if grep -q unsupported_message "$TMP/stdout" "$TMP/stderr" || grep -q "not a clearing file" "$TMP/stdout" "$TMP/stderr"; then fail "$f from stdin: read as a clearing file"; fi
	# parse reads it the same way whether named or piped
	run parse "$f"
	p_named=$STATUS
	set +e
	cat "$f" | "$CL_BIN" parse - >/dev/null 2>&1
	STATUS=$?
	set -e
	[ "$STATUS" = "$p_named" ] || fail "$f: parse exits $p_named, from standard input $STATUS"
done
# BAI2 on standard input: a statement, not an unknown format
printf '01,BANK,CUST,260101,0800,1,,,2/\n02,CUST,BANK,1,260101,,USD,2/\n03,123456789,USD,010,1000,,/\n49,1000,2/\n98,1000,1,4/\n99,1000,1,6/\n' >"$TMP/a.bai2"
run validate "$TMP/a.bai2"
named=$STATUS
set +e
cat "$TMP/a.bai2" | "$CL_BIN" validate - >"$TMP/stdout" 2>"$TMP/stderr"
STATUS=$?
set -e
[ "$STATUS" = "$named" ] || fail "BAI2: validate exits $named, from standard input $STATUS: $(cat "$TMP/stderr")"
if grep -q unknown_format "$TMP/stderr"; then fail "BAI2 from stdin: unknown format"; fi
echo ok
