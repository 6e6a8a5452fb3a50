# tests/tools/ach_batches.sh - sourced by tests that build NACHA files from
# batches of gen_ach output (re-dated copies of entries, batches of other
# files).  Needs CL_TOOLS (gen_ach) and a scratch directory in $TMP.
#
#   batches SRC YYMMDD         the batches of NACHA file SRC, effective YYMMDD
#   entries START COUNT YYMMDD gen_ach's entries START.. (one originator;
#                              traces, accounts, RDFIs and amounts by index)
#   assemble                   batches on stdin to a valid file on stdout:
#                              batch numbers renumbered, file control
#                              recomputed, 9-filled

batches() {
	awk -v d="$2" '/^5/ { on = 1; $0 = substr($0, 1, 69) d substr($0, 76) }
		on { print } /^8/ { on = 0 }' "$1"
}

entries() {
	"$CL_TOOLS/gen_ach" -n "$2" --start "$1" --company-count 1 -e "$3" >"$TMP/ach_batches.ach" ||
		{ echo "gen_ach failed" >&2; return 1; }
	batches "$TMP/ach_batches.ach" "$3"
}

assemble() {
	"$CL_TOOLS/gen_ach" -n 1 | head -n 1
	awk '
	/^5/ { nb++; $0 = substr($0, 1, 87) sprintf("%07d", nb) }
	/^8/ { n += substr($0, 5, 6); h += substr($0, 11, 10); dr += substr($0, 21, 12)
	       cr += substr($0, 33, 12); $0 = substr($0, 1, 87) sprintf("%07d", nb) }
	{ print; lines++ }
	END {
		lines += 2
		printf "9%06d%06d%08.0f%010.0f%012.0f%012.0f%39s\n", nb, int((lines + 9) / 10), n,
			h % 10000000000, dr, cr, ""
		fill = sprintf("%94s", ""); gsub(/ /, "9", fill)
		for (; lines % 10; lines++)
			print fill
	}'
}
