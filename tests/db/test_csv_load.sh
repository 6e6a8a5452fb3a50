#!/bin/sh
# A CSV export read back is deduplicated like the file it came from: its
# keys and fingerprints are recomputed, not trusted, so loading the export
# of an ACH (or pain.001) file after that file reports every record a
# duplicate, applies nothing and journals each one; the corrected file's
# export applies only the new records; an export with one row twice is
# refused whole (in-file duplicate key, as for ISO files); a masked export
# is refused; an export edited into a form its parser could not have given
# (an entry's date emptied, an IBAN in lowercase or with blanks, a company
# id with leading blanks) is refused, not applied under a second key, and no
# account number reaches clearing_load.reason.
. "$(dirname "$0")/lib.sh"
db_new
cl init >/dev/null
D="$TESTDATA/demo"

field() {
	grep '"type":"file"' "$TMP/out" | json_field "$1"
}

for src in original.ach original-pain001.xml; do
	n=$("$CL_BIN" parse --format csv "$D/$src" | tail -n +2 | wc -l)
	[ "$n" -ge 8 ] || fail "$src: only $n records"
	"$CL_BIN" parse --no-mask --format csv "$D/$src" >"$TMP/$src.csv"

	cl_load "$D/$src" >"$TMP/out" || fail "$src: load exited $?"
	assert_eq "$(field new)" "$n" "$src: all new"
	record_dump >"$TMP/before"

	cl_load "$TMP/$src.csv" >"$TMP/out" || fail "$src.csv: load exited $?"
	assert_eq "$(field outcome)" committed "$src.csv outcome"
	assert_eq "$(field new)" 0 "$src.csv: nothing new"
	assert_eq "$(field duplicate)" "$n" "$src.csv: every record a duplicate"
	assert_eq "$(field conflict)" 0 "$src.csv: no conflict"
	record_dump >"$TMP/after"
	cmp -s "$TMP/before" "$TMP/after" || fail "$src.csv changed clearing_record"
	load_id=$(field load_id)
	assert_eq "$(q "select format from clearing_load where load_id = $load_id")" csv \
		"$src.csv: load row format"
	assert_eq "$(q "select count(*) from clearing_dedupe_event where load_id = $load_id
		and reason = 'duplicate' and matched_key is null")" "$n" "$src.csv: journaled duplicates"
	# the journal points at the CSV rows (line 2 on) and at the original's records
	assert_eq "$(q "select min(position) from clearing_dedupe_event where load_id = $load_id")" 2 \
		"$src.csv: journal positions are CSV lines"
done

# the corrected ACH file's export: only its new records are applied
"$CL_BIN" parse --no-mask --format csv "$D/corrected.ach" >"$TMP/corrected.csv"
expect_exit 1 cl diff --format json "$D/corrected.ach"
want_new=$(grep '"type":"file"' "$TMP/out" | json_field new)
[ "$want_new" -gt 0 ] || fail "corrected.ach has no new records"
cl_load "$TMP/corrected.csv" >"$TMP/out" || fail "corrected.csv: load exited $?"
assert_eq "$(field new)" "$want_new" "corrected.csv: the new records of corrected.ach"
cl_load "$D/corrected.ach" >"$TMP/out" || fail "corrected.ach after its export: exit $?"
assert_eq "$(field new)" 0 "corrected.ach after its export: nothing new"

# one row twice in one CSV: the file cannot be deduplicated, nothing applied
before=$(q "select count(*) from clearing_record")
"$CL_BIN" parse --no-mask --format csv "$D/changed-amount.ach" >"$TMP/twice.csv"
tail -n 1 "$TMP/twice.csv" >>"$TMP/twice.csv"
expect_exit 3 cl load "$TMP/twice.csv"
grep -q 'error: the same payment identity (natural key ".*") appears twice in this file, on lines [0-9]* and [0-9]*, the second a copy of the first: the file cannot be loaded' "$TMP/err" ||
	fail "in-file duplicate not named: $(cat "$TMP/err")"
assert_eq "$(q "select count(*) from clearing_record")" "$before" "twice.csv applied records"

# an export with masked accounts cannot be loaded
"$CL_BIN" parse --format csv "$D/corrected-pain001.xml" >"$TMP/masked.csv"
expect_exit 3 cl load "$TMP/masked.csv"
grep -q 'error: column debtor_account on line 2 is masked: export the file with parse --format csv --no-mask' "$TMP/err" ||
	fail "masked export not refused: $(cat "$TMP/err")"
assert_eq "$(q "select count(*) from clearing_record")" "$before" "masked.csv applied records"

# edit CSV IN: on data row ROW (1 = first), column COL becomes VAL; the
# columns named in DROP (comma-separated) go.  The export quotes every
# field and the demo files have no quote or comma inside one.
csv_edit() { # IN ROW COL VAL DROP (parse's CSV: values quoted, NULL an empty field)
	python3 - "$@" <<'PY'
import csv, sys
src, row, col, val, drop = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
drop = set(drop.split(","))
def q(v):
	return "" if v == "" else '"' + v.replace('"', '""') + '"'
with open(src, newline="") as f:
	rows = list(csv.reader(f))
names = rows[0]
for n, r in enumerate(rows):
	if n == row:
		r = [val if names[i] == col else v for i, v in enumerate(r)]
	print(",".join(q(v) for i, v in enumerate(r) if names[i] not in drop))
PY
}

# (original.ach and original-pain001.xml are loaded above)
"$CL_BIN" parse --no-mask --format csv "$D/original.ach" >"$TMP/a.csv"
"$CL_BIN" parse --no-mask --format csv "$D/original-pain001.xml" >"$TMP/p.csv"
before=$(q "select count(*) from clearing_record")
K=natural_key,key_rule,fingerprint
csv_edit "$TMP/a.csv" 1 value_date "" "$K" >"$TMP/nodate.csv"
csv_edit "$TMP/a.csv" 1 company_id "   1100000000" "$K" >"$TMP/blanks.csv"
csv_edit "$TMP/p.csv" 1 debtor_account de83999441097718893142 "$K" >"$TMP/lciban.csv"
csv_edit "$TMP/p.csv" 1 debtor_account "DE83 9994 4109 7718 8931 42" "$K" >"$TMP/spiban.csv"
for f in nodate lciban spiban; do
	expect_exit 3 cl load "$TMP/$f.csv"
	assert_eq "$(q "select count(*) from clearing_record")" "$before" "$f.csv applied records"
done
# blanks the NACHA parser drops: the same key, so duplicates, not new
cl_load "$TMP/blanks.csv" >"$TMP/out" || fail "blanks.csv: load exited $?"
assert_eq "$(field new)" 0 "blanks.csv: nothing new"
assert_eq "$(q "select count(*) from clearing_record")" "$before" "blanks.csv applied records"
# a key mismatch is recorded without the debtor's IBAN
csv_edit "$TMP/p.csv" 1 end_to_end_id E2E-9-9 "" >"$TMP/km.csv"
expect_exit 3 cl load "$TMP/km.csv"
grep -q 'error: natural_key on line 2 is not the key its fields give: part 2 is "E2E-1-1" in the natural_key column, "E2E-9-9" from the fields' "$TMP/err" ||
	fail "key mismatch not named: $(cat "$TMP/err")"
assert_eq "$(q "select count(*) from clearing_load where reason like '%DE83999441097718893142%'
	or reason like '%639476144923%'")" 0 "account numbers in clearing_load.reason"
assert_eq "$(q "select count(*) from clearing_load where reason like '%is not the key its fields give%'")" 1 \
	"key mismatch recorded"

