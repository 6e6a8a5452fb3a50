# The same payment keys and fingerprints alike however a tool wrote the
# fields that do not change it.
. "$(dirname "$0")/lib.sh"
K="$TESTDATA/keys"

keys_of() {
	"$CL_BIN" parse --format json "$1" |
		sed 's/.*"natural_key":"\([^"]*\)".*"fingerprint":"\([0-9a-f]*\)".*/\1 \2/'
}

# ACH company identification left- or right-justified in columns 41-50
# (review 47: the right-justified copy was applied a second time)
keys_of "$K/company-left.ach" >"$TMP/left"
keys_of "$K/company-right.ach" >"$TMP/right"
[ -s "$TMP/left" ] || fail "no records"
diff -u "$TMP/left" "$TMP/right" || fail "company id justification changed keys or fingerprints"
grep -q '^ABC1234|' "$TMP/left" || fail "company id not trimmed: $(head -1 "$TMP/left")"
echo ok
