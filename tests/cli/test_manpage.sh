# The man pages are clean roff, and every option of every --help is in
# clearing-load(1) and the other way round.
. "$(dirname "$0")/lib.sh"
MAN1="$CL_ROOT/man/clearing-load.1"
MAN7="$CL_ROOT/man/clearing-load-keys.7"

for page in "$MAN1" "$MAN7"; do
	[ -f "$page" ] || fail "missing $page"
	warnings=$(groff -man -Tutf8 -ww -z "$page" 2>&1)
	[ -z "$warnings" ] || fail "groff warnings in $page: $warnings"
	if command -v man >/dev/null 2>&1; then
		MANWIDTH=80 man -l "$page" >"$TMP/rendered" 2>"$TMP/man.err" || fail "man -l $page failed"
		[ ! -s "$TMP/man.err" ] || fail "man -l $page: $(cat "$TMP/man.err")"
	fi
done

# Every --help, as the option tables print it: the program's and each
# command's.  Everything below is derived from this one output.
{
	"$CL_BIN" --help
	for cmd in init load diff parse validate show loads ingest feed prune conflicts resolve reconcile break match-rules; do "$CL_BIN" "$cmd" --help; done
} >"$TMP/help" || fail "--help failed"

# Long options named anywhere in --help and anywhere in clearing-load(1)
# (roff writes \-\-name).
grep -o -- '--[a-z][a-z0-9-]*' "$TMP/help" | sort -u >"$TMP/help.opts"
sed 's/\\-/-/g' "$MAN1" | grep -o -- '--[a-z][a-z0-9-]*' | sort -u >"$TMP/man.opts"
if ! diff -u "$TMP/help.opts" "$TMP/man.opts" >"$TMP/opts.diff"; then
	cat "$TMP/opts.diff"
	fail "options differ between --help (-) and clearing-load(1) (+)"
fi

# Each option line as "-s --long=ARG": its short name, long name and whether
# it takes an argument; from the option lines of --help ...
awk '/^  -[A-Za-z], --/ { s = substr($1, 1, 2) " "; l = $2 }
     /^      --/ { s = ""; l = $1 }
     /^  -[A-Za-z], --|^      --/ { sub(/=.*/, "=ARG", l); print s l }' "$TMP/help" |
	sort -u >"$TMP/help.lines"
# ... and from the tagged paragraphs (.TP) of OPTIONS in clearing-load(1):
# ".BI \-d " conninfo" "\fR, \fP\-\-db=" conninfo", ".B \-\-no\-mask"
sed -n '/^\.SH OPTIONS/,/^\.SH /p' "$MAN1" | grep -A1 '^\.TP' | grep -v '^\.TP\|^--$' |
	sed 's/\\-/-/g' |
	awk '{ s = ""; l = ""
	       if (match($0, /(^|[ "])-[A-Za-z]([ "]|$)/)) {
		       s = substr($0, RSTART, RLENGTH); gsub(/[ "]/, "", s); s = s " "
	       }
	       if (match($0, /--[a-z][a-z0-9-]*=?/)) {
		       l = substr($0, RSTART, RLENGTH); sub(/=$/, "=ARG", l)
	       }
	       if (l != "") print s l }' | sort -u >"$TMP/man.lines"
[ -s "$TMP/help.lines" ] || fail "no option line found in --help"
if ! diff -u "$TMP/help.lines" "$TMP/man.lines" >"$TMP/lines.diff"; then
	cat "$TMP/lines.diff"
	fail "option lines (short name, argument) differ between --help (-) and OPTIONS (+)"
fi

# Every exit code in the "Exit status" paragraphs of --help is in EXIT STATUS
# and the other way round.
# The table's lines start with the code ("  75  retry later ..."; "130
# interrupted by SIGINT, 143 by SIGTERM"); the man page tags each with .B or .BR.
sed -n '/^Exit status/,/^$/p' "$TMP/help" >"$TMP/help.table"
{ sed -n 's/^ *\([0-9][0-9]*\)  .*/\1/p' "$TMP/help.table"
  grep -o ', [0-9][0-9]* by SIG' "$TMP/help.table" | grep -o '[0-9][0-9]*'; } |
	sort -u >"$TMP/help.codes"
sed -n '/^\.SH "EXIT STATUS"/,/^\.SH/p' "$MAN1" | grep -A1 '^\.TP' | grep '^\.BR\? [0-9]' |
	grep -o '[0-9][0-9]*' | sort -u >"$TMP/man.codes"
diff -u "$TMP/help.codes" "$TMP/man.codes" || fail "exit codes differ between --help and EXIT STATUS"
# and the README's table: its rows start "| CODE |" ("| 130, 143 |")
awk '/^Exit status, one table/ { on = 1 } on && /^\|/ { t = 1; print; next } t { exit }' "$CL_ROOT/README.md" |
	sed -n 's/^| \([0-9][0-9, ]*\) |.*/\1/p' |
	tr ',' '\n' | tr -d ' ' | sort -u >"$TMP/readme.codes"
[ -s "$TMP/readme.codes" ] || fail "no exit status table found in README.md"
diff -u "$TMP/help.codes" "$TMP/readme.codes" || fail "exit codes differ between --help and README.md"
# the order of severity: help prints it from cl_exit_worse()'s table; the
# man page's EXIT STATUS says the same
help_order=$(tr '\n' ' ' <"$TMP/help.table" | grep -o 'most severe wins: [0-9/, ]*' | grep -o '[0-9/]*' | tr '\n' ' ')
man_order=$(sed -n '/^\.SH "EXIT STATUS"/,/^\.SH/p' "$MAN1" | tr '\n' ' ' |
	grep -o 'most severe status wins, in this order: [0-9/, ]*' | grep -o '[0-9/]*' | tr '\n' ' ')
[ -n "$help_order" ] || fail "no order of severity in 'clearing-load help'"
[ "$man_order" = "$help_order" ] ||
	fail "order of severity: EXIT STATUS '$man_order', 'clearing-load help' '$help_order'"

# The terms the messages use are defined once, in TERMS, each a tagged
# paragraph of its own.
sed -n '/^\.SH TERMS/,/^\.SH /p' "$MAN1" | grep -A1 '^\.TP' | grep '^\.I' |
	sed 's/^\.IR* "*\([a-z ]*\).*/\1/' | sed 's/ *$//' >"$TMP/terms"
for term in load tenant "natural key" fingerprint duplicate conflict "near duplicate" held quarantined \
	committed rejected unsupported "still arriving" "outcome unknown"; do
	grep -qx "$term" "$TMP/terms" || fail "TERMS does not define \"$term\": $(tr '\n' ',' <"$TMP/terms")"
done
echo ok
