#!/bin/sh
# make demo: the main job end to end on sample files, against a throwaway
# PostgreSQL cluster of its own (pg_virtualenv), or the server named by PG*
# variables when they are set.
#
#   1. init the schema
#   2. load an original upload that lacks some records
#   3. diff its corrected re-upload (what would happen, per record)
#   4. load the corrected re-upload: only the missing records are applied
#   5. load it again: nothing applied, everything journaled
#   6. show the load history
set -eu
here=$(cd "$(dirname "$0")" && pwd)
if [ -z "${PGHOST:-}${PGPORT:-}${PGDATABASE:-}${PGSERVICE:-}" ] && [ -z "${CL_IN_PGVENV:-}" ]; then
	CL_IN_PGVENV=1 exec pg_virtualenv -t sh "$here/demo.sh" "$@"
fi
: "${CL_BIN:?}"
cd "$here/../testdata/demo"
step() { printf '\n\033[1m$ %s\033[0m\n' "$*"; }
run() { step "clearing-load $*"; "$CL_BIN" "$@" || echo "(exit status $?)"; }

run init
run validate "original.ach" "corrected.ach" "original-pain001.xml" "corrected-pain001.xml"
run load "original.ach" "original-pain001.xml"
run diff "corrected.ach" "corrected-pain001.xml"
run load "corrected.ach" "corrected-pain001.xml"
run load "corrected.ach"
run diff "changed-amount.ach"
run load "changed-amount.ach"
run loads
