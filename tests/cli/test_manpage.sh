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

# Long options named in --help (main and every command).
{
	"$CL_BIN" --help
	for cmd in init load diff parse validate show loads; do "$CL_BIN" "$cmd" --help; done
} | grep -o -- '--[a-z][a-z0-9-]*' | sort -u >"$TMP/help.opts"
# Long options documented in the man page (roff writes \-\-name).
sed 's/\\-/-/g' "$MAN1" | grep -o -- '--[a-z][a-z0-9-]*' | sort -u >"$TMP/man.opts"
if ! diff -u "$TMP/help.opts" "$TMP/man.opts" >"$TMP/opts.diff"; then
	cat "$TMP/opts.diff"
	fail "options differ between --help (-) and clearing-load(1) (+)"
fi

# Every exit code in --help is in EXIT STATUS and the other way round.
"$CL_BIN" --help | tr '\n' ' ' | grep -o '[0-7] [a-z][a-z ]*' | cut -c1 | sort -u >"$TMP/help.codes"
sed -n '/^\.SH "EXIT STATUS"/,/^\.SH/p' "$MAN1" | grep -A1 '^\.TP' | grep -o '^\.B [0-9]\|^[0-9]$' |
	grep -o '[0-9]' | sort -u >"$TMP/man.codes"
diff -u "$TMP/help.codes" "$TMP/man.codes" || fail "exit codes differ between --help and EXIT STATUS"
echo ok
