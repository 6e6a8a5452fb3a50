#!/bin/sh
# The field table (base/record_fields.def) and the database agree: every
# column the loader writes exists in clearing_record and in
# clearing_quarantine with the type the table implies, and clearing_record
# has no column the table does not know.
. "$(dirname "$0")/lib.sh"
: "${CL_TOOLS:?CL_TOOLS must name the test tools}"
db_new
cl init >/dev/null

"$CL_TOOLS/field_columns" | sort >"$TMP/table"
[ "$(wc -l <"$TMP/table")" -gt 40 ] || fail "field_columns printed too little: $(cat "$TMP/table")"
columns() {
	q "select column_name || ':' || case data_type when 'character varying' then 'text'
		else data_type end from information_schema.columns
		where table_schema = 'public' and table_name = '$1' order by 1"
}
columns clearing_record >"$TMP/record"
diff -u "$TMP/table" "$TMP/record" || fail "clearing_record and the field table differ"
# the quarantine table has every column the loader parks there
columns clearing_quarantine >"$TMP/quarantine"
comm -23 "$TMP/table" "$TMP/quarantine" >"$TMP/missing"
[ ! -s "$TMP/missing" ] || fail "clearing_quarantine lacks: $(cat "$TMP/missing")"
echo "ok: $(wc -l <"$TMP/table") columns agree"
