# Usage conventions: --help to stdout with exit 0, misuse is one line plus a
# hint on stderr with exit 2, --version names the libraries.
. "$(dirname "$0")/lib.sh"

run --help
expect_status 0
expect_stdout_has "Usage: clearing-load COMMAND"
[ ! -s "$TMP/stderr" ] || fail "--help wrote to stderr"

run
expect_status 2
expect_stderr - <<'OUT'
clearing-load: no command given
Try 'clearing-load --help' for more information.
OUT

run frobnicate
expect_status 2
expect_stderr - <<'OUT'
clearing-load: unknown command "frobnicate"
Try 'clearing-load --help' for more information.
OUT

run --version
expect_status 0
expect_stdout_has "clearing-load 0.1.0"
expect_stdout_has "libpq "
expect_stdout_has "libxml2 "
expect_stdout_has "zlib "

for cmd in parse validate init load diff show loads; do
	run "$cmd" --help
	expect_status 0
	expect_stdout_has "Usage: clearing-load $cmd"
	[ ! -s "$TMP/stderr" ] || fail "$cmd --help wrote to stderr"
	run "$cmd" --no-such-option
	expect_status 2
	expect_stderr - <<OUT
clearing-load $cmd: unrecognized option '--no-such-option'
Try 'clearing-load $cmd --help' for more information.
OUT
done

run parse
expect_status 2
expect_stderr_has "clearing-load parse: no file given"

# --help is printed from the option tables: no line wider than 79 columns
for cmd in "" init load diff parse validate show loads; do
	"$CL_BIN" $cmd --help >"$TMP/help"
	if awk 'length($0) > 79 { bad = 1 } END { exit !bad }' "$TMP/help"; then
		fail "clearing-load $cmd --help has a line wider than 79 columns"
	fi
done

# a value an option's table line refuses: one line naming what it expects
while IFS='|' read -r args message; do
	# shellcheck disable=SC2086
	run $args
	expect_status 2
	cmd=${args%% *}
	expect_stderr - <<OUT
clearing-load $cmd: $message
Try 'clearing-load $cmd --help' for more information.
OUT
done <<'CASES'
init -p 0|invalid --partitions "0" (expected 1 to 1024)
init --partitions=1025|invalid --partitions "1025" (expected 1 to 1024)
load --on-conflict=park x|invalid --on-conflict "park" (expected hold or quarantine)
diff -f yaml x|invalid --format "yaml" (expected text, json or csv)
show -n 0 KEY|invalid --limit "0" (expected 1 to 1000000)
loads --limit=x|invalid --limit "x" (expected 1 to 1000000)
loads --since 2026-13-01|invalid --since "2026-13-01" (expected a date YYYY-MM-DD, or YYYY-MM-DDTHH:MM[:SS][Z|+HH:MM])
loads -u x|invalid --uuid "x" (expected a UUID)
loads -t Bank2|invalid --tenant "Bank2" (expected 1 to 63 of a-z 0-9 _ . -, starting with a letter or digit)
loads -x|invalid option -- 'x'
loads --since|option '--since' requires an argument
init -p|option '-p' requires an argument
init extra|unexpected argument "extra"
init --tenant-access bob|invalid --tenant-access "bob" (expected ROLE=TENANT, the tenant 1 to 63 of a-z 0-9 _ . -)
init --tenant-access =acme|invalid --tenant-access "=acme" (expected ROLE=TENANT, the tenant 1 to 63 of a-z 0-9 _ . -)
init --tenant-access bob=Acme|invalid --tenant-access "bob=Acme" (expected ROLE=TENANT, the tenant 1 to 63 of a-z 0-9 _ . -)
init --row-security maybe|invalid --row-security "maybe" (expected on or off)
show --trace 1 KEY|give only one of --trace, --e2e, --uetr or a KEY
show|give one of --trace, --e2e, --uetr or a KEY
CASES

# init's role lists are bounded, a role name is never empty, a schema name
# has at most 63 bytes: usage errors before any connection
roles=
for i in $(seq 33); do roles="$roles --reader-role r$i"; done
# shellcheck disable=SC2086
run init $roles
expect_status 2
expect_stderr_has "at most 32 roles and 32 --tenant-access at once"
run init --loader-role ""
expect_status 2
expect_stderr_has "a role name is empty"
run loads --schema "$(printf 's%.0s' $(seq 64))" --db "host=127.0.0.1 port=1"
expect_status 2
expect_stderr_has "expected a schema name of at most 63 bytes"

run validate --format yaml x
expect_status 2
expect_stderr_has 'invalid --format "yaml" (expected text, json or csv)'

run validate --max-errors 0 x
expect_status 2
expect_stderr_has 'invalid --max-errors "0"'

# the shared file options are checked alike by every command that reads files
for cmd in parse validate load diff; do
	run "$cmd" --ach-key=loose x
	expect_status 2
	expect_stderr_has "clearing-load $cmd: invalid --ach-key \"loose\" (expected strict or batch)"
	run "$cmd" --max-errors 0 x
	expect_status 2
	expect_stderr_has "clearing-load $cmd: invalid --max-errors \"0\""
done

run validate --quiet --verbose /dev/null
expect_status 2
expect_stderr_has "--quiet and --verbose cannot be used together"

run parse --schema x.xsd x
expect_status 2

# Tenants are key spaces: a blank, a capital or an empty name is refused
# before anything is read.
for t in 'bank2 ' Bank2 '' ' bank2' 'a/b'; do
	run load --tenant "$t" x.ach
	expect_status 2
	expect_stderr_has "invalid --tenant"
done
run show --tenant Bank2 --trace 1
expect_status 2

# A missing file (a typo, a glob that matched nothing) is the command line's
# mistake: exit 2, the name and what is wrong with it.
run validate "$TMP/does-not-exist.ach"
expect_status 2
expect_stderr_has "clearing-load validate: $TMP/does-not-exist.ach: no such file"

# A directory is not a file: a usage error too, naming it.
run validate "$TMP"
expect_status 2
expect_stderr_has "clearing-load validate: $TMP is a directory: give the files in it"

# Neither NACHA nor XML.
printf 'hello\n' >"$TMP/hello.txt"
run validate "$TMP/hello.txt"
expect_status 3
expect_stderr - <<OUT
clearing-load: $TMP/hello.txt:1: error: unknown format: expected a NACHA file header ("101"), a BAI2 file ("01," at its first byte), an MT940/MT942 statement (":20:" or "{1:"), an ISO 20022 XML document ("<") or a CSV export (a header row naming scheme and kind)
clearing-load: $TMP/hello.txt:1: hint: check that this is the clearing file itself: a file compressed other than with gzip (zip, bzip2, xz) must be unpacked first
OUT
expect_stdout - <<OUT
$TMP/hello.txt: invalid, 1 error
OUT

: >"$TMP/empty"
run validate --format json "$TMP/empty"
expect_status 3
expect_stdout_has '"code":"empty_file"'

# A write error on stdout is reported, not ignored.
if [ -w /dev/full ]; then
	run --help >/dev/full
	set +e
	"$CL_BIN" --help >/dev/full 2>"$TMP/err"
	st=$?
	set -e
	[ "$st" -ne 0 ] || fail "--help to /dev/full exited 0"
	grep -q "could not write standard output" "$TMP/err" || fail "no write error message"
fi
# standard input at most once: a second "-" would read an empty stream;
# refused before any file is read or a database is asked
for cmd in parse validate load diff; do
	case $cmd in
	load | diff) run "$cmd" --db "host=127.0.0.1 port=1" - - </dev/null ;;
	*) run "$cmd" - - </dev/null ;;
	esac
	expect_status 2
	expect_stderr - <<OUT
clearing-load $cmd: standard input (-) given more than once
Try 'clearing-load $cmd --help' for more information.
OUT
done
# a password in --db in any spelling is a usage error, never sent and never
# a "database unavailable" (exit 2, not 5)
for conninfo in "PASSWORD=x dbname=a" "host=h Password = 'y'" "postgresql://h/db?PASSWORD=x"; do
	run loads --db "$conninfo"
	expect_status 2
	expect_stderr_has "clearing-load loads: --db must not contain a password"
done
# a --db libpq cannot read is a usage error, not "database unavailable"
# (exit 5), and a bad URI is never echoed (it may hold a password)
for conninfo in "host=h port" "postgresql://u:secret@[bad"; do
	run load --db "$conninfo" "$TESTDATA/demo/original.ach"
	expect_status 2
	expect_stderr_has "clearing-load load: --db is not a connection string libpq can read: "
	if grep -q secret "$TMP/stderr"; then fail "the URI was echoed: $(cat "$TMP/stderr")"; fi
done
# loads --uuid with a filter: refused, so a filter cannot turn "committed in
# another tenant" into "did not commit"; before connecting
for f in "--tenant bank2" "--since 2030-01-01"; do
	run loads --db "host=127.0.0.1 port=1" --uuid 065ef28c-0000-4000-8000-000000000001 $f
	expect_status 2
	expect_stderr_has "clearing-load loads: --uuid cannot be combined with ${f%% *}"
done
# ingest writes text or JSON: its --help offers no CSV, and --format csv is
# refused as any value outside the list
run ingest --help
expect_status 0
expect_stdout_has "text (default) or json"
if grep -q 'json or csv' "$TMP/stdout"; then fail "ingest --help offers csv: $(grep format "$TMP/stdout")"; fi
mkdir -p "$TMP/inbox"
run ingest --format csv --archive "$TMP/archive" "$TMP/inbox"
expect_status 2
expect_stderr_has 'clearing-load ingest: invalid --format "csv" (expected text or json)'
# reconcile's statement files as every command's: a missing one or a
# directory is a usage error, before any connection (no run recorded)
run reconcile --db "host=127.0.0.1 port=1" "$TMP/missing.xml"
expect_status 2
expect_stderr_has "clearing-load reconcile: $TMP/missing.xml: no such file"
run reconcile --db "host=127.0.0.1 port=1" "$TMP"
expect_status 2
expect_stderr_has "clearing-load reconcile: $TMP is a directory"
echo ok
