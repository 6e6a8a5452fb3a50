#!/bin/sh
# tests/cli/test_hostile.sh - hostile inputs: XXE, entity bombs, external
# DTDs, deep nesting, a 100 MiB text node, a 1 GiB line, binary garbage, gzip bombs, truncated and corrupt gzip,
# NUL bytes, invalid UTF-8, UTF-16, a schemaLocation URL, an XSD given
# to validate --schema that imports a URL and includes /etc/passwd, and CSV
# exports with a 100 MiB field or column name, millions of columns or
# fields, garbage after the header, a NUL byte, invalid UTF-8 and quote
# bombs.
#
# Each file goes through `validate`, `validate --format json` and `parse`:
#   - the exit status (3: invalid, nothing applied; 0 for the two controls
#     and the schemaLocation file, which is valid and must just not be
#     fetched);
#   - the exact first error line on stderr (file, line or element path,
#     message), and the error code in the JSON report;
#   - peak memory (/usr/bin/time %M) under 64 MiB (256 MiB for a sanitizer
#     build) and wall time under 20 s per run;
#   - nothing of the file on stdout: no HOSTILE-MARKER-7F3A (every hostile
#     file carries it where a record field would print it) and nothing of
#     /etc/passwd on stdout or stderr;
#   - no network and no other file: files that name a URL or a file run
#     under strace; any socket other than AF_UNIX, any connect(), or any
#     open of /etc/passwd fails the test.
# Small files are in testdata/hostile/ (made by make-fixtures.py); the big
# ones are generated into a temporary directory by generate.sh (~3 s).
# With CL_HOSTILE_TABLE=FILE set, a markdown table of the results is written
# there.  Needs CL_BIN and CL_ROOT (tests/cli/run.sh sets them).
set -eu
LC_ALL=C
export LC_ALL
: "${CL_BIN:?CL_BIN must name the clearing-load binary}"
: "${CL_ROOT:?CL_ROOT must name the repository root}"

hostile=$CL_ROOT/testdata/hostile
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cl-hostile.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
big=$tmp/big
sh "$hostile/generate.sh" "$big"

mark=HOSTILE-MARKER-7F3A
limit_kb=65536
if grep -q AddressSanitizer "$CL_BIN" 2>/dev/null; then
	limit_kb=262144 # ASan shadow memory and quarantine
fi
limit_s=20
have_strace=0
if command -v strace >/dev/null 2>&1 && strace -f -o /dev/null true 2>/dev/null; then
	have_strace=1
else
	echo "test_hostile: note: strace unavailable: network attempts are not checked" >&2
fi
timer=/usr/bin/time
[ -x "$timer" ] || { echo "test_hostile: /usr/bin/time is required (apt-get install time)" >&2; exit 1; }

failures=0
fail() {
	echo "FAIL: $*" >&2
	failures=$((failures + 1))
}
table=${CL_HOSTILE_TABLE:-}
if [ -n "$table" ]; then
	printf '| input | what it is | exit (validate / --format json / parse) | error codes | first error (`validate`) | peak RSS | time |\n' >"$table"
	printf '|---|---|---|---|---|---|---|\n' >>"$table"
fi

# what each input is, for the table
describe() {
	case $1 in
	control-ach) echo 'control: valid one-entry PPD file (the hostile NACHA files are this file with one change)' ;;
	control-xml) echo 'control: valid pain.001.001.09 (the hostile XML files are this file with one change)' ;;
	schemaloc-url) echo 'valid pain.001 with xsi:schemaLocation = http://clearing-load-xsd.invalid/...xsd' ;;
	xinclude) echo 'valid pain.001 with &lt;xi:include href="file:///etc/passwd" parse="text"/&gt; in Cdtr/Nm' ;;
	xxe-file) echo 'XXE: &lt;!ENTITY xxe SYSTEM "file:///etc/passwd"&gt; used in Cdtr/Nm' ;;
	xxe-http) echo 'XXE: &lt;!ENTITY xxe SYSTEM "http://.../secret"&gt; used in Cdtr/Nm' ;;
	xxe-parameter) echo 'external parameter entity &lt;!ENTITY % ext SYSTEM "http://127.0.0.1:9/evil.dtd"&gt; %ext;' ;;
	dtd-external) echo '&lt;!DOCTYPE Document SYSTEM "http://.../pain.001.dtd"&gt;' ;;
	dtd-external-file) echo '&lt;!DOCTYPE Document SYSTEM "file:///etc/passwd"&gt;' ;;
	internal-entity) echo 'harmless internal entity &lt;!ENTITY nm "..."&gt; used in Cdtr/Nm' ;;
	billion-laughs) echo 'billion laughs: 10 levels of 10 entity references each (10^9 "lol")' ;;
	quadratic-blowup) echo 'quadratic blowup: one 20,000-byte entity referenced 20,000 times (400 MB)' ;;
	deep-nesting) echo '100,000 nested elements (generated)' ;;
	huge-text-node) echo 'a 100 MiB text node in Cdtr/Nm (generated)' ;;
	many-attributes) echo 'one tag with 20,000 attributes (generated)' ;;
	many-names) echo '300,000 distinct element names (generated)' ;;
	truncated-xml) echo 'pain.001 cut after 1,100 bytes (inside a start tag)' ;;
	nul-byte-xml) echo 'a NUL byte in Cdtr/Nm' ;;
	invalid-utf8-xml) echo 'bytes C3 28 FF in Cdtr/Nm (invalid UTF-8)' ;;
	utf16-bom) echo 'the control document in UTF-16LE with BOM, encoding="UTF-16"' ;;
	utf16-no-bom) echo 'the same without BOM' ;;
	garbage-xml) echo '"&lt;" + 4 KiB of random bytes' ;;
	long-line) echo '"101" + 1 GiB of "A", no line end (generated)' ;;
	many-errors) echo 'a file header and 200,000 bad lines (generated): 5 errors of each kind shown, the others summed up' ;;
	nul-bytes-ach) echo 'two NUL bytes in the entry'\''s individual name' ;;
	invalid-utf8-ach) echo 'bytes FF FE C3 28 in the entry'\''s individual name' ;;
	truncated-ach) echo 'ACH file cut in the middle of the batch control record' ;;
	garbage-ach) echo '"101" + 4 KiB of random bytes' ;;
	garbage) echo '4 KiB of random bytes' ;;
	gzip-bomb) echo '10 GiB of zeros as 100 gzip members (10 MB, generated)' ;;
	gzip-bomb-ach) echo 'a gzipped NACHA file header, then the same 10 GiB of zeros' ;;
	gzip-truncated) echo 'gzipped ACH file cut in half' ;;
	gzip-corrupt) echo 'gzipped ACH file with 30 bytes flipped' ;;
	gzip-trailing) echo 'gzipped ACH file followed by plain bytes' ;;
	csv-huge-field) echo 'CSV: export header, then a row whose first field is 100 MiB (generated)' ;;
	csv-huge-header) echo 'CSV: "scheme,kind," and a 100 MiB column name (generated)' ;;
	csv-wide-header) echo 'CSV: a header of 3,000,000 columns (generated)' ;;
	csv-many-fields) echo 'CSV: export header, then a row of 3,000,000 fields (generated)' ;;
	csv-garbage) echo 'CSV: export header, then 4 KiB of random bytes (generated)' ;;
	csv-nul-byte) echo 'CSV: export header and a pain.001 row with a NUL byte in creditor_name (generated)' ;;
	csv-invalid-utf8) echo 'CSV: the same with bytes C3 28 FF in creditor_name (generated)' ;;
	csv-quote-bomb) echo 'CSV: a quote that never closes, then 1,000,000 lines (generated)' ;;
	csv-quote-run) echo 'CSV: a quote, then 100 MiB of quotes (generated)' ;;
	*) echo "$1" ;;
	esac
}

# run NAME CMD... : run the binary with /usr/bin/time (and strace when
# NET=1), leaving $tmp/out, $tmp/err, $rc, $kb, $secs.
run() {
	name=$1
	shift
	if [ "$NET" = 1 ] && [ "$have_strace" = 1 ]; then
		set +e
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
			$timer -f '%M %e' -o "$tmp/time" strace -f -qq \
			-e trace=socket,connect,open,openat \
			-o "$tmp/strace" "$CL_BIN" "$@" >"$tmp/out" 2>"$tmp/err"
		rc=$?
		set -e
		# strace's own time and memory would be counted, and LeakSanitizer
		# cannot run under ptrace: measure and check again alone
		net=$(grep -v 'AF_UNIX\|AF_LOCAL' "$tmp/strace" | grep 'socket(\|connect(' | head -1)
		[ -z "$net" ] || fail "$name: $*: tried the network: $net"
		if grep -q '/etc/passwd' "$tmp/strace"; then
			fail "$name: $*: opened /etc/passwd: $(grep /etc/passwd "$tmp/strace" | head -1)"
		fi
	fi
	set +e
	$timer -f '%M %e' -o "$tmp/time" "$CL_BIN" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	set -e
	kb=$(tail -1 "$tmp/time" | cut -d' ' -f1)
	secs=$(tail -1 "$tmp/time" | cut -d' ' -f2)
}

# check NAME FILE NET EXIT CODE FIRST-ERROR-LINE
#   FILE is shown as is in messages; CODE is the JSON "code" of the first
#   error ("-" when the file is valid); FIRST-ERROR-LINE is the exact first
#   line of stderr ("" when valid).
check() {
	name=$1 file=$2 NET=$3 want_rc=$4 want_code=$5 want_err=$6
	max_kb=0 max_s=0 rcs= codes= msg=
	for cmd in validate json parse; do
		case $cmd in
		validate) run "$name" validate "$file" ;;
		json) run "$name" validate --format json "$file" ;;
		parse) run "$name" parse --format json "$file" ;;
		esac
		[ "$rc" = "$want_rc" ] || fail "$name: $cmd: exit $rc, expected $want_rc"
		first=$(head -1 "$tmp/err")
		if [ "$cmd" != json ] && [ "$first" != "$want_err" ]; then
			fail "$name: $cmd: first stderr line
  got:      $first
  expected: $want_err"
		fi
		if [ "$cmd" = json ] && [ "$want_code" != - ]; then
			grep -q "\"code\":\"$want_code\"" "$tmp/out" ||
				fail "$name: validate --format json: no error with code $want_code in: $(head -c 300 "$tmp/out")"
		fi
		[ "$kb" -lt "$limit_kb" ] || fail "$name: $cmd: peak memory $kb KiB >= $limit_kb KiB"
		awk -v s="$secs" -v l="$limit_s" 'BEGIN { exit !(s < l) }' ||
			fail "$name: $cmd: took $secs s (limit $limit_s s)"
		if grep -q "$mark" "$tmp/out"; then
			fail "$name: $cmd: content of the hostile file reached stdout"
		fi
		if grep -q 'root:x:0:0\|/bin/bash\|nologin' "$tmp/out" "$tmp/err"; then
			fail "$name: $cmd: /etc/passwd content reached the output"
		fi
		if [ "$kb" -gt "$max_kb" ]; then max_kb=$kb; fi
		max_s=$(awk -v a="$secs" -v b="$max_s" 'BEGIN { printf "%.2f", (a > b) ? a : b }')
		rcs="$rcs${rcs:+/}$rc"
		if [ "$cmd" = json ] && [ "$rc" != 0 ]; then
			codes=$(grep -o '"code":"[a-z_0-9]*"' "$tmp/out" | cut -d'"' -f4 | sort -u |
				tr '\n' ' ' | sed 's/ $//; s/ /, /g')
		fi
		if [ "$cmd" = validate ]; then
			msg=$(head -1 "$tmp/err" | sed 's/^clearing-load: //')
		fi
	done
	if [ -n "$table" ]; then
		printf '| `%s` | %s | %s | %s | `%s` | %s MiB | %s s |\n' "$file" "$(describe "$name")" \
			"$rcs" "${codes:--}" "$(printf '%s' "${msg:-(valid)}" | sed 's/|/\\|/g')" \
			"$(awk -v k="$max_kb" 'BEGIN { printf "%.1f", k / 1024 }')" "$max_s" >>"$table"
	fi
}

cd "$tmp"
cp "$hostile"/* "$tmp/" # short, stable names in messages
cp "$big"/* "$tmp/"
P=clearing-load

# The controls: the fixtures are right apart from their hostile part.
#     name              file                      net exit code first error line
check control-ach       control-valid.ach         0   0    -    ""
check control-xml       control-valid.xml         0   0    -    ""
# Valid documents that name a URL or a file: never fetched, never included.
check schemaloc-url     schemaloc-url.xml         1   0    -    ""
check xinclude          xinclude.xml              1   0    -    ""

# XML: DTDs and entities are refused before libxml2 sees them.
D='document type declaration (<!DOCTYPE ...>) not allowed: ISO 20022 messages have none, and entities are never expanded'
check xxe-file          xxe-file.xml              1   3 xml_doctype "$P: xxe-file.xml:2: error: $D"
check xxe-http          xxe-http.xml              1   3 xml_doctype "$P: xxe-http.xml:2: error: $D"
check xxe-parameter     xxe-parameter.xml         1   3 xml_doctype "$P: xxe-parameter.xml:2: error: $D"
check dtd-external      dtd-external.xml          1   3 xml_doctype "$P: dtd-external.xml:2: error: $D"
check dtd-external-file dtd-external-file.xml     1   3 xml_doctype "$P: dtd-external-file.xml:2: error: $D"
check internal-entity   internal-entity.xml       0   3 xml_doctype "$P: internal-entity.xml:2: error: $D"
check billion-laughs    billion-laughs.xml        0   3 xml_doctype "$P: billion-laughs.xml:2: error: $D"
check quadratic-blowup  quadratic-blowup.xml      0   3 xml_doctype "$P: quadratic-blowup.xml:2: error: $D"
# XML: size, depth, bytes, encodings.
check deep-nesting      deep-nesting.xml          0   3 xml_depth \
	"$P: deep-nesting.xml:3: error: elements nested deeper than the limit of 64 levels"
check huge-text-node    huge-text-node.xml        0   3 xml_too_long \
	"$P: huge-text-node.xml:3: error: text node longer than the limit of 262144 bytes"
check many-attributes   many-attributes.xml       0   3 xml_too_many_attributes \
	"$P: many-attributes.xml:3: error: tag with more than 256 attributes"
check many-names        many-names.xml            0   3 xml_too_many_names \
	"$P: many-names.xml:3: error: more than 262144 bytes of distinct element and attribute names: ISO 20022 messages use a few hundred names"
check truncated-xml     truncated.xml             0   3 xml_truncated \
	"$P: truncated.xml:26: error: file ends inside the document (truncated?): expected the rest of the message, found the end of the file (couldn't find end of Start Tag RmtInf)"
check nul-byte-xml      nul-byte.xml              0   3 xml_encoding \
	"$P: nul-byte.xml:24: error: /Document/CstmrCdtTrfInitn/PmtInf[1]/CdtTrfTxInf[1]/Cdtr/Nm: character 0x0 is not allowed in XML: expected text without control characters"
check invalid-utf8-xml  invalid-utf8.xml          0   3 xml_encoding \
	"$P: invalid-utf8.xml:24: error: /Document/CstmrCdtTrfInitn/PmtInf[1]/CdtTrfTxInf[1]/Cdtr/Nm: invalid UTF-8 (bytes 0xC3 0x28 0xFF 0x20): expected UTF-8 text"
check utf16-bom         utf16.xml                 0   3 xml_encoding \
	"$P: utf16.xml:1: error: UTF-16 byte order mark: expected UTF-8 (ISO 20022 messages are UTF-8)"
check utf16-no-bom      utf16-no-bom.xml          0   3 xml_encoding \
	"$P: utf16-no-bom.xml:1: error: UTF-16 or UTF-32 text: expected UTF-8 (ISO 20022 messages are UTF-8)"
check garbage-xml       binary-garbage.xml        0   3 xml_malformed \
	"$P: binary-garbage.xml:1: error: not well-formed XML: invalid element name (expected an element start tag such as <Document>)"

# NACHA
check long-line         long-line.ach             0   3 record_length \
	"$P: long-line.ach:1: error: record must be 94 characters, found more than 65536: text past column 94 (\"AAAAAAAAAAAA...\")"
check many-errors       many-errors.ach           0   3 record_length \
	"$P: many-errors.ach:2: error: batch header record must be 94 characters, found 24 (columns 25-94 are missing and are not blank padding)"
# one kind of error flooding the file is shown 5 times and summed up in one
# line, so every kind is reported, and the count is of every error
[ "$(grep -c '^clearing-load: many-errors.ach:[0-9]*: error: ' "$tmp/err")" -lt 60 ] ||
	fail "many-errors: parse: $(grep -c ': error: ' "$tmp/err") errors reported, expected at most 6 of each kind"
grep -q '^clearing-load: many-errors.ach:7: error: and 199995 more service_class errors on lines 7 to 200001, not shown' "$tmp/err" ||
	fail "many-errors: parse: no summary of the service_class errors"
run many-errors validate many-errors.ach
[ "$(cat "$tmp/out")" = "many-errors.ach: invalid, 1400001 errors" ] ||
	fail "many-errors: validate: $(cat "$tmp/out"), expected every error counted (1400001)"
check nul-bytes-ach     nul-bytes.ach             0   3 bad_byte \
	"$P: nul-bytes.ach:3: error: unexpected NUL byte at column 59 (expected printable ASCII)"
check invalid-utf8-ach  invalid-utf8.ach          0   3 bad_byte \
	"$P: invalid-utf8.ach:3: error: unexpected non-ASCII byte 0xFF at column 60 (expected printable ASCII; NACHA files are plain ASCII)"
check truncated-ach     truncated.ach             0   3 record_length \
	"$P: truncated.ach:4: error: batch control record must be 94 characters, found 40 (columns 41-94 are missing and are not blank padding)"
check garbage-ach       binary-garbage.ach        0   3 bad_byte \
	"$P: binary-garbage.ach:1: error: unexpected control character 0x05 at column 4 (expected printable ASCII)"

# CSV exports: the field cap (1023 bytes) and the column cap stop a file
# at the first overlong field or header, named where its row starts
check csv-huge-field    csv-huge-field.csv        0   3 csv_field_too_long \
	"$P: csv-huge-field.csv:2: error: a field on line 2 is longer than 1023 bytes: no record field is (the longest, a name, holds 563)"
check csv-huge-header   csv-huge-header.csv       0   3 csv_field_too_long \
	"$P: csv-huge-header.csv:1: error: a field on line 1 is longer than 1023 bytes: no record field is (the longest, a name, holds 563)"
check csv-wide-header   csv-wide-header.csv       0   3 csv_header \
	"$P: csv-wide-header.csv:1: error: header row has 3000002 columns: expected at most 59 (the columns of parse --format csv)"
check csv-many-fields   csv-many-fields.csv       0   3 csv_field_count \
	"$P: csv-many-fields.csv:2: error: line 2 has 3000001 fields: the header has 51"
check csv-garbage       csv-garbage.csv           0   3 csv_field_count \
	"$P: csv-garbage.csv:2: error: line 2 has 1 fields: the header has 51"
check csv-nul-byte      csv-nul-byte.csv          0   3 csv_bad_byte \
	"$P: csv-nul-byte.csv:2: error: column creditor_name on line 2 contains a NUL byte"
check csv-invalid-utf8  csv-invalid-utf8.csv      0   3 csv_utf8 \
	"$P: csv-invalid-utf8.csv:2: error: column creditor_name on line 2 is not valid UTF-8"
check csv-quote-bomb    csv-quote-bomb.csv        0   3 csv_field_too_long \
	"$P: csv-quote-bomb.csv:2: error: a field of the row that starts on line 2 is longer than 1023 bytes when line 170 is read (a quote that never closes?): no record field is (the longest, a name, holds 563)"
check csv-quote-run     csv-quote-run.csv         0   3 csv_field_too_long \
	"$P: csv-quote-run.csv:2: error: a field on line 2 is longer than 1023 bytes: no record field is (the longest, a name, holds 563)"

# Neither format; gzip as a transport.
check garbage           binary-garbage.bin        0   3 unknown_format \
	"$P: binary-garbage.bin:1: error: unknown format: expected a NACHA file header (\"101\"), a BAI2 file (\"01,\" at its first byte), an MT940/MT942 statement (\":20:\" or \"{1:\"), an ISO 20022 XML document (\"<\") or a CSV export (a header row naming scheme and kind)"
check gzip-bomb         gzip-bomb.gz              0   3 unknown_format \
	"$P: gzip-bomb.gz:1: error: unknown format: expected a NACHA file header (\"101\"), a BAI2 file (\"01,\" at its first byte), an MT940/MT942 statement (\":20:\" or \"{1:\"), an ISO 20022 XML document (\"<\") or a CSV export (a header row naming scheme and kind)"
check gzip-bomb-ach     gzip-bomb.ach.gz          0   3 gzip_ratio \
	"$P: gzip-bomb.ach.gz:2: error: unexpected NUL byte at column 1 (expected printable ASCII)"
check gzip-truncated    truncated.ach.gz          0   3 gzip_truncated \
	"$P: truncated.ach.gz: error: gzip stream is truncated (input ends after 106 bytes)"
check gzip-corrupt      gzip-corrupt.ach.gz       0   3 gzip_corrupt \
	"$P: gzip-corrupt.ach.gz: error: gzip stream is corrupt: invalid bit length repeat"
check gzip-trailing     gzip-trailing-garbage.ach.gz 0 3 gzip_trailing \
	"$P: gzip-trailing-garbage.ach.gz: error: unexpected data after the end of the gzip stream (at raw byte 212)"

# validate --schema with an XSD whose xs:import names a URL and whose
# xs:include names /etc/passwd: refused, no network, nothing of the file
# shown; a schema that cannot be used is a usage error (exit 2)
if [ "$have_strace" = 1 ]; then
	# LeakSanitizer cannot run under ptrace: no leak check in this run
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 strace -f -qq \
		-e trace=socket,connect -o "$tmp/strace" "$CL_BIN" validate \
		--schema schema-import-url.xsd control-valid.xml >/dev/null 2>&1 || true
	net=$(grep -v 'AF_UNIX\|AF_LOCAL' "$tmp/strace" | grep 'socket(\|connect(' | head -1)
	[ -z "$net" ] || fail "schema-import-url: validate --schema tried the network: $net"
fi
set +e
"$CL_BIN" validate --schema schema-import-url.xsd control-valid.xml >"$tmp/out" 2>"$tmp/err"
rc=$?
set -e
[ "$rc" = 2 ] || fail "schema-import-url: validate --schema: exit $rc, expected 2"
if grep -q 'root:x:0:0\|/bin/bash\|nologin' "$tmp/out" "$tmp/err"; then
	fail "schema-import-url: /etc/passwd content reached the output: $(grep -h 'root:' "$tmp/err" | head -1)"
fi
grep -q '^clearing-load validate: --schema: could not load the XML schema "schema-import-url.xsd": it imports or includes "http://127.0.0.1:9/evil.xsd"' \
	"$tmp/err" || fail "schema-import-url: no clear error: $(head -3 "$tmp/err")"
if [ "$(grep -vc "^clearing-load validate: \|^Try 'clearing-load validate --help'" "$tmp/err")" != 0 ]; then
	fail "schema-import-url: something other than clearing-load printed: $(grep -v '^clearing-load: ' "$tmp/err" | head -2)"
fi
if [ -n "$table" ]; then
	printf '| `schema-import-url.xsd` | an XSD for `validate --schema` that imports http://127.0.0.1:9/evil.xsd and includes file:///etc/passwd | %s | - | `%s` | - | - |\n' \
		"$rc" "$(head -1 "$tmp/err" | sed 's/^clearing-load validate: //; s/|/\\|/g')" >>"$table"
fi

if [ "$failures" -ne 0 ]; then
	echo "test_hostile: $failures failure(s)" >&2
	exit 1
fi
echo "test_hostile: ok"
