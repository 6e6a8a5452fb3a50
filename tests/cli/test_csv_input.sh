# CSV exports as input: validate and parse read them like any file (format
# told from the header), report a repeated natural key as load does (also
# for ACH records, which no parser proves unique in a CSV), and refuse a
# masked export.
. "$(dirname "$0")/lib.sh"
D="$TESTDATA/demo"
cd "$TMP"

"$CL_BIN" parse --no-mask --format csv "$D/original.ach" >orig.csv
run validate orig.csv
expect_status 0
expect_stdout - <<'OUT'
orig.csv: valid csv, 15 records
OUT
run validate --format json orig.csv
expect_status 0
expect_stdout_has '"format":"csv","message_type":"csv",'
expect_stdout_has '"records":15,'

# gzip is a transport here too; standard input works
gzip -c orig.csv >orig.csv.gz
run validate orig.csv.gz
expect_status 0
run parse --format json - <orig.csv
[ "$(grep -c '"scheme":"nacha"' "$TMP/stdout")" = 15 ] || fail "parse - of a CSV"

# one ACH row twice: the loader's message, line of the repeat and of the first
{ cat orig.csv; sed -n 6p orig.csv; } >twice.csv
run validate twice.csv
expect_status 3
expect_stderr - <<'ERR'
clearing-load: twice.csv:17: error: the same payment identity (natural key "1100000000|121042880000006|2026-03-02") appears twice in this file, on lines 6 and 17, the second a copy of the first: the file cannot be loaded, because the second would be taken as a re-upload of the first
clearing-load: twice.csv:17: hint: if the later record is a copy of the first, remove it and load the file again; if they are two payments, the sender must give them different references (clearing-load-keys(7) names the key fields)
ERR

# exported without --no-mask: refused, saying how to export
"$CL_BIN" parse --format csv "$D/original-pain001.xml" >masked.csv
run validate masked.csv
expect_status 3
expect_stderr_has 'masked.csv:2: error: column debtor_account on line 2 is masked: export the file with parse --format csv --no-mask'

# a header without kind is no CSV export
printf 'scheme,amount_minor\nnacha,1\n' >nokind.csv
run validate nokind.csv
expect_status 3
expect_stderr_has 'nokind.csv:1: error: unknown format: expected a NACHA file header ("101"), a BAI2 file ("01," at its first byte), an MT940/MT942 statement (":20:" or "{1:"), an ISO 20022 XML document ("<") or a CSV export (a header row naming scheme and kind)'

# hostile sizes stop at the first overlong field, with its line, whatever
# follows (libcsv's field buffer is capped at 1023 bytes)
{ head -n 1 orig.csv; printf '"'; head -c 5000000 /dev/zero | tr '\0' a; printf '"\n'; } >field.csv
run validate field.csv
expect_status 3
expect_stderr - <<'ERR'
clearing-load: field.csv:2: error: a field on line 2 is longer than 1023 bytes: no record field is (the longest, a name, holds 563)
ERR
{ head -n 1 orig.csv; head -c 3000000 /dev/zero | tr '\0' ,; printf '\n'; sed -n 2p orig.csv; } >wide.csv
run validate wide.csv
expect_status 3
expect_stderr - <<'ERR'
clearing-load: wide.csv:2: error: line 2 has 3000001 fields: the header has 59
ERR
