# The rule cases of tests/rules/*.test (format: tests/rules/README) through
# validate: text with notes and --format json, the whole result of each.
. "$(dirname "$0")/lib.sh"
python3 "$CL_ROOT/tests/rules/run.py" validate "$CL_ROOT"/tests/rules/*.test
