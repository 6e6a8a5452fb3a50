# The source keeps one definition of each field and rule
# (tests/tools/one_definition.py says what is checked); and the checker
# itself fails on a file that breaks each rule.
. "$(dirname "$0")/lib.sh"
python3 "$CL_ROOT/tests/tools/one_definition.py" "$CL_ROOT" >"$TMP/out" || {
	cat "$TMP/out"
	fail "the source repeats a definition"
}
grep -q '^one definition: [0-9]* fields, [0-9]* source files, 0 problems$' "$TMP/out" ||
	fail "unexpected checker output: $(cat "$TMP/out")"
# a tree that breaks each rule once
mkdir -p "$TMP/tree/base" "$TMP/tree/parsers" "$TMP/tree/cmd" "$TMP/tree/loader" "$TMP/tree/sql" \
	"$TMP/tree/rules"
cp "$CL_ROOT/base/record_fields.def" "$TMP/tree/base/"
cp "$CL_ROOT/rules/statement_fields.def" "$TMP/tree/rules/"
for f in a b c; do
	printf 'static const char q[] = "SELECT r.trace_number FROM t";\n' >"$TMP/tree/cmd/$f.c"
	printf 'static const char s[] = "booking_date";\n' >"$TMP/tree/rules/$f.c"
done
printf 'void f(void) { char sql[64]; (void)sql; } /* as review 7 asked */\n' >"$TMP/tree/loader/x.c"
if python3 "$CL_ROOT/tests/tools/one_definition.py" "$TMP/tree" >"$TMP/bad"; then
	fail "the checker passed a tree that breaks its rules: $(cat "$TMP/bad")"
fi
grep -q '^field trace_number is written as a name in 3 C files' "$TMP/bad" || fail "no field repeat: $(cat "$TMP/bad")"
grep -q '^field booking_date is written as a name in 3 C files' "$TMP/bad" ||
	fail "no statement column repeat: $(cat "$TMP/bad")"
grep -q '^loader/x.c: SQL built in a fixed buffer' "$TMP/bad" || fail "no fixed buffer: $(cat "$TMP/bad")"
grep -q "^loader/x.c: a comment carries the id 'review 7'" "$TMP/bad" || fail "no review id: $(cat "$TMP/bad")"
echo ok
