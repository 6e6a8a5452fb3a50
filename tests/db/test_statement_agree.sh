# validate and load give one verdict on every statement and status report
# of testdata/statements (every file of testdata/statements/real/, whatever
# its name, and the hand-made ones of
# testdata/statements/agree/): each file is validated, diffed and then
# loaded into a tenant of its own; the exit statuses must agree (0 valid
# and committed -- diff: 1, new records -- 3 invalid and rejected, 9
# unsupported), and a rejected file's first error is validate's first error
# for diff and load alike.  The same file piped in (standard input, which
# cannot be rewound: one detection, in the one pass) gets the same verdict
# from validate and load.
. "$(dirname "$0")/lib.sh"
db_new
cl init >/dev/null

n=0
bad=""
for f in $(find "$TESTDATA/statements" -type f \( -name '*.xml' -o -name '*.bai' -o -path '*/real/*' \) | sort); do
	n=$((n + 1))
	set +e
	"$CL_BIN" validate -q "$f" >/dev/null 2>"$TMP/verr"
	v=$?
	"$CL_BIN" diff -q --tenant "t$n" "$f" >/dev/null 2>"$TMP/derr"
	d=$?
	"$CL_BIN" load -q --tenant "t$n" "$f" >/dev/null 2>"$TMP/lerr"
	l=$?
	cat "$f" | "$CL_BIN" validate -q - >/dev/null 2>&1
	vp=$?
	cat "$f" | "$CL_BIN" load -q --tenant "p$n" - >/dev/null 2>&1
	lp=$?
	set -e
	[ "$vp" = "$v" ] && [ "$lp" = "$v" ] || bad="$bad
${f#"$TESTDATA"/}: validate exits $v, piped in: validate $vp, load $lp"
	[ "$d" = 1 ] && d=0
	if [ "$v" != "$d" ]; then
		bad="$bad
${f#"$TESTDATA"/}: validate exits $v, diff $d (1 read as 0)
validate: $(head -3 "$TMP/verr")
diff: $(head -3 "$TMP/derr")"
	elif [ "$v" != "$l" ]; then
		bad="$bad
${f#"$TESTDATA"/}: validate exits $v, load $l
validate: $(head -3 "$TMP/verr")
load: $(head -3 "$TMP/lerr")"
	elif [ "$v" != 0 ]; then
		a=$(grep ': error: ' "$TMP/verr" | head -1)
		b=$(grep ': error: ' "$TMP/lerr" | head -1)
		c=$(grep ': error: ' "$TMP/derr" | head -1)
		[ "$a" = "$c" ] || bad="$bad
${f#"$TESTDATA"/}: first errors differ
validate: $a
diff:     $c"
		[ "$a" = "$b" ] || bad="$bad
${f#"$TESTDATA"/}: first errors differ
validate: $a
load:     $b"
	fi
done
[ -z "$bad" ] || fail "$bad"
[ "$n" -ge 100 ] || fail "only $n statement files found"

# dates written with a time zone or as date-times are stored as the
# calendar date written (keys(7) STATEMENT KEYS, Dates)
T="$TESTDATA/statements/agree/camt053-two-statements-one-account.xml"
sed -e '0,/<BookgDt><Dt>2026-11-30</s//<BookgDt><Dt>2017-04-01+02:00</' \
	-e '0,/<ValDt><Dt>2026-11-30<\/Dt>/s//<ValDt><DtTm>2017-04-02T23:30:00.5-05:00<\/DtTm>/' \
	"$T" >"$TMP/dates.xml"
expect_exit 0 cl load --tenant dates "$TMP/dates.xml"
assert_eq "$(q "select booking_date || ' ' || value_date from clearing_statement_item
	where tenant = 'dates' and item = 'entry' order by position limit 1")" "2017-04-01 2017-04-02" \
	"an entry's dates with a time zone ($(grep -m1 ValDt "$TMP/dates.xml"))"
echo ok
