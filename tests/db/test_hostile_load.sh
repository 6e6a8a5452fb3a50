#!/bin/sh
# load of hostile inputs: every file of testdata/hostile/ and the
# big ones generate.sh makes (entity bombs, deep nesting, 100 MiB text node,
# 1 GiB line, gzip bombs, ...) is refused with exit 3 and applies nothing:
# clearing_record and the dedupe journal stay empty, also when a hostile file
# comes in the same run as a valid one.  The two control files then load
# (1 record each), which shows the run above could have applied something.
# Messages, memory and the network are checked by tests/cli/test_hostile.sh.
. "$(dirname "$0")/lib.sh"
db_new
expect_exit 0 cl init

hostile=$CL_ROOT/testdata/hostile
sh "$hostile/generate.sh" "$TMP/big"

n=0
for f in "$hostile"/*.xml "$hostile"/*.ach "$hostile"/*.gz "$hostile"/*.bin "$TMP"/big/*; do
	case $(basename "$f") in
	control-valid.*) continue ;;  # loaded at the end
	schemaloc-url.xml | xinclude.xml) continue ;; # valid documents, see test_hostile
	esac
	expect_exit 3 cl load --format json "$f"
	grep -q '"type":"error"' "$TMP/out" || grep -q "error" "$TMP/err" ||
		fail "$(basename "$f"): exit 3 without an error reported"
	n=$((n + 1))
done
[ "$n" -ge 25 ] || fail "only $n hostile files loaded"
assert_eq "$(q "select count(*) from clearing_record")" 0 "records applied from hostile files"
assert_eq "$(q "select count(*) from clearing_dedupe_event")" 0 "journal rows from hostile files"

# a hostile file beside a valid one in one run: the valid one is applied, the
# hostile one is not, and the exit status is 3
expect_exit 3 cl load --format json "$hostile/nul-bytes.ach" "$hostile/control-valid.xml" \
	"$hostile/xxe-file.xml"
assert_eq "$(q "select count(*) from clearing_record")" 1 "only the valid file's record"
assert_eq "$(q "select count(*) from clearing_record where kind = 'pain.001'")" 1 \
	"the record is the valid pain.001's"

# the controls: the same shapes without the hostile part do load
expect_exit 0 cl load --format json "$hostile/control-valid.ach"
assert_eq "$(q "select count(*) from clearing_record")" 2 "control files applied"
assert_eq "$(q "select count(*) from clearing_record where kind = 'ach.entry'")" 1 \
	"the control ACH entry"
echo "ok: $n hostile files applied nothing"
