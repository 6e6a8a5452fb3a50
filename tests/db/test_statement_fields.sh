#!/bin/sh
# The statement field table (rules/statement_fields.def) and the database
# agree: every column the loader stores is a column of
# clearing_statement_item, as the migrations make it, with the type the
# table says, and the table has no column the field table does not know;
# the keys compare bytewise (COLLATE "C") in both.
. "$(dirname "$0")/lib.sh"
: "${CL_TOOLS:?CL_TOOLS must name the test tools}"
db_new
cl init >/dev/null

"$CL_TOOLS/field_columns" statement | sort >"$TMP/table"
[ "$(wc -l <"$TMP/table")" -gt 40 ] || fail "field_columns printed too little: $(cat "$TMP/table")"
q "select column_name || ':' || data_type from information_schema.columns
	where table_schema = 'public' and table_name = 'clearing_statement_item'
	order by 1" >"$TMP/db"
diff -u "$TMP/table" "$TMP/db" || fail "clearing_statement_item and the field table differ"
assert_eq "$(q "select string_agg(column_name, ' ' order by column_name)
	from information_schema.columns where table_schema = 'public'
	and table_name = 'clearing_statement_item' and collation_name = 'C'")" \
	"natural_key statement_key" "the keys collate bytewise"
echo "ok: $(wc -l <"$TMP/table") columns agree"
