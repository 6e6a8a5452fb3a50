# Messages quote bytes from hostile files: control characters and invalid
# UTF-8 never reach the terminal or the JSON report raw.
. "$(dirname "$0")/lib.sh"

printf '<?xml version="1.0" encoding="U\033[31mRED\033[0m\377"?>\n<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.03"/>\n' >"$TMP/esc.xml"
run validate "$TMP/esc.xml"
expect_status 3
if LC_ALL=C grep -q "$(printf '\033')" "$TMP/stderr"; then
	fail "an ESC byte reached stderr"
fi
if LC_ALL=C grep -q "$(printf '\377')" "$TMP/stderr"; then
	fail "a 0xFF byte reached stderr"
fi
expect_stderr_has '\x1B[31mRED\x1B[0m'

run validate --format json "$TMP/esc.xml"
expect_status 3
python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]' "$TMP/stdout" ||
	fail "validate --format json printed invalid JSON or invalid UTF-8"

# A file name with a newline cannot forge a second diagnostic line.
name="$TMP/$(printf 'x\nclearing-load: forged')"
printf 'junk\n' >"$name"
run validate "$name"
expect_status 3
# Two lines, the error and its hint, each naming the file escaped.
[ "$(wc -l <"$TMP/stderr")" -eq 2 ] || fail "a file name split the diagnostic: $(cat "$TMP/stderr")"
[ "$(grep -c -F 'x\x0Aclearing-load: forged:1: ' "$TMP/stderr")" -eq 2 ] ||
	fail "a diagnostic line does not name the file escaped: $(cat "$TMP/stderr")"
echo ok
