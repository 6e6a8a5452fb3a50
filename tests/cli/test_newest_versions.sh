# The newest published version of each clearing message (the ISO catalogue
# of 19 March 2026) is read, and the one after it is refused as newer: our
# generator's files with their namespace moved to the newest version are
# valid with every record, and one version past it is a version not read.
. "$(dirname "$0")/lib.sh"
: "${CL_TOOLS:?}"
for spec in pain.001:13 pacs.008:14 pain.008:12 pacs.003:12 camt.056:12 camt.029:14; do
	t=${spec%%:*} v=${spec##*:}
	"$CL_TOOLS/gen_iso" --type "$t" --tx 3 >"$TMP/g.xml" || fail "gen_iso $t"
	sed "s/$t\.001\.[0-9][0-9]/$t.001.$v/" "$TMP/g.xml" >"$TMP/new.xml"
	run validate "$TMP/new.xml"
	expect_status 0
	expect_stdout_has "valid $t.001.$v, 3 records"
	sed "s/$t\.001\.[0-9][0-9]/$t.001.$((v + 1))/" "$TMP/g.xml" >"$TMP/next.xml"
	run validate "$TMP/next.xml"
	expect_status 3
	grep -q "unsupported_version\|newer\|version" "$TMP/stderr" ||
		fail "$t.001.$((v + 1)): $(cat "$TMP/stderr")"
done
