# The bash completion (contrib/gen-bash-completion.sh, generated from the
# program's --help at build time) completes every command and every option
# of every command's --help, short and long, and nothing a command lacks.
. "$(dirname "$0")/lib.sh"
command -v bash >/dev/null 2>&1 || { echo "note: no bash here"; echo ok; exit 0; }
sh "$CL_ROOT/contrib/gen-bash-completion.sh" "$CL_BIN" >"$TMP/completion" ||
	fail "gen-bash-completion.sh failed"
bash -n "$TMP/completion" || fail "the completion is not bash"

# WORDS...: what the completion offers for the last word, one a line
complete_words() {
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		_clearing_load; [ ${#COMPREPLY[@]} -eq 0 ] || printf "%s\n" "${COMPREPLY[@]}"' sh "$TMP/completion" "$@"
}

cmds=$("$CL_BIN" --help | awk '/^Commands:/ { on = 1; next } on && /^$/ { exit } on { print $1 }')
[ "$(echo "$cmds" | wc -w)" -ge 13 ] || fail "commands in --help: $cmds"
complete_words clearing-load "" >"$TMP/top"
for c in $cmds --version --help; do
	grep -qx -- "$c" "$TMP/top" || fail "'clearing-load <TAB>' does not offer $c: $(tr '\n' ' ' <"$TMP/top")"
done
complete_words clearing-load sh >"$TMP/sh"
assert_sh=$(tr '\n' ' ' <"$TMP/sh")
[ "$assert_sh" = "show " ] || fail "'clearing-load sh<TAB>': $assert_sh"

n=0
for c in $cmds; do
	"$CL_BIN" "$c" --help >"$TMP/help"
	# every option of the command's --help: "-d, --db=..." and "--no-mask"
	grep -o -- '^  -[A-Za-z], --[a-z][a-z0-9-]*\|^      --[a-z][a-z0-9-]*' "$TMP/help" |
		tr ',' ' ' | tr -s ' ' '\n' | grep . >"$TMP/opts"
	echo "-h --help" | tr ' ' '\n' >>"$TMP/opts"
	sort -u "$TMP/opts" -o "$TMP/opts"
	complete_words clearing-load "$c" - | sort -u >"$TMP/offered"
	if ! diff -u "$TMP/opts" "$TMP/offered" >"$TMP/diff"; then
		cat "$TMP/diff"
		fail "$c: the options completed differ from --help (-: --help, +: completed)"
	fi
	# a long option by its prefix, after another option and its value
	first=$(grep -- '^--' "$TMP/opts" | head -n 1)
	complete_words clearing-load "$c" -q "$(echo "$first" | cut -c1-4)" >"$TMP/pre"
	grep -qx -- "$first" "$TMP/pre" || fail "$c: $(echo "$first" | cut -c1-4)<TAB> does not offer $first"
	n=$((n + $(wc -l <"$TMP/opts")))
done
[ "$n" -gt 150 ] || fail "only $n options completed"
# an operand: file names (bash's default), no option
complete_words clearing-load load "" >"$TMP/files"
[ ! -s "$TMP/files" ] || fail "an operand completes as options: $(cat "$TMP/files")"
echo ok
