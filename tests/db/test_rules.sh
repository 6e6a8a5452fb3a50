#!/bin/sh
# The rule cases of tests/rules/*.test (format: tests/rules/README) loaded
# into PostgreSQL, each under its own tenant: an invalid case exits 3 with
# validate's error lines (the first one first), is recorded as rejected and
# applies nothing; a valid case is committed with as many rows as validate
# counts records.
. "$(dirname "$0")/lib.sh"
db_new
cl init >/dev/null
python3 "$CL_ROOT/tests/rules/run.py" load "$CL_ROOT"/tests/rules/*.test
