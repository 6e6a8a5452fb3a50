#!/bin/sh
# Database-side errors name the next step (message, detail, hint) and exit
# by SQLSTATE: no schema here (and where the tables are, if elsewhere),
# another schema version (older: init; newer: upgrade the binary),
# permission denied and row-level security (which role; init
# --loader-role/--reader-role, --tenant-access), authentication refused (the
# server answered: 78) against unreachable (75).
. "$(dirname "$0")/lib.sh"
db_new

# no schema anywhere: init as the owner
expect_exit 78 cl loads
grep -q 'no clearing-load schema in schema "public" of this database' "$TMP/err" || fail "no schema: $(cat "$TMP/err")"
grep -q 'detail: looked in schema "public" .*no other schema of this database holds' "$TMP/err" ||
	fail "no schema detail: $(cat "$TMP/err")"
grep -q "hint: run 'clearing-load init' as the owner of schema \"public\"" "$TMP/err" || fail "no schema hint: $(cat "$TMP/err")"

# the tables in another schema: named, --schema suggested, init not
q "create schema alt" >/dev/null
cl init --schema alt >/dev/null || fail "init --schema alt"
expect_exit 78 cl loads
grep -q 'clearing-load tables are in schema alt' "$TMP/err" || fail "elsewhere detail: $(cat "$TMP/err")"
grep -q 'hint: run with --schema alt (or CLEARING_LOAD_SCHEMA)' "$TMP/err" || fail "elsewhere hint: $(cat "$TMP/err")"
expect_exit 0 cl loads --schema alt

# an older schema: init as the owner; a newer one: upgrade the binary
cl init >/dev/null || fail "init"
latest=$(q "select max(version) from clearing_schema_version")
q "delete from clearing_schema_version where version = $latest" >/dev/null
# the version before (migration numbers of helpers' branches may leave a gap)
prev=$(q "select max(version) from clearing_schema_version")
expect_exit 78 cl loads
grep -q "is at version $prev, this clearing-load needs $latest" "$TMP/err" || fail "older: $(cat "$TMP/err")"
grep -q "hint: run 'clearing-load init' once, as the owner of schema \"public\"" "$TMP/err" || fail "older hint: $(cat "$TMP/err")"
cl init >/dev/null || fail "init again"
q "insert into clearing_schema_version (version, name) values (9999, 'future')" >/dev/null
expect_exit 78 cl loads
grep -q 'hint: upgrade this clearing-load to the release of schema version 9999' "$TMP/err" || fail "newer hint: $(cat "$TMP/err")"
q "delete from clearing_schema_version where version = 9999" >/dev/null

# permission denied: which role, and the grant that mends it
R=cl_dberr_$$
role_new "$R" "login password 'right'"
PGUSER=$R PGPASSWORD=right expect_exit 78 cl loads
grep -q 'permission denied for table clearing_schema_version (SQLSTATE 42501)' "$TMP/err" || fail "denied: $(cat "$TMP/err")"
grep -q "detail: refused to role \"$R\" in schema \"public\"" "$TMP/err" || fail "denied detail: $(cat "$TMP/err")"
grep -q "hint: .*'clearing-load init --loader-role ROLE'.*'--reader-role ROLE'" "$TMP/err" || fail "denied hint: $(cat "$TMP/err")"

# row-level security: a loader of no tenant
cl init --loader-role "$R" --row-security on >/dev/null || fail "init --loader-role"
PGUSER=$R PGPASSWORD=right expect_exit 78 cl load --tenant t1 "$TESTDATA/demo/original.ach"
grep -q "detail: row-level security is on and role \"$R\" may not see tenant \"t1\"" "$TMP/err" || fail "row security: $(cat "$TMP/err")"
grep -q "hint: .*'clearing-load init --tenant-access $R=t1'" "$TMP/err" || fail "row security hint: $(cat "$TMP/err")"


# authentication refused: the server answered, 78 (not 75), not "could not be reached"
PGUSER=$R PGPASSWORD=wrong expect_exit 78 cl loads
grep -q 'detail: the server answered and refused the connection' "$TMP/err" || fail "auth detail: $(cat "$TMP/err")"
grep -q "hint: check the role's password" "$TMP/err" || fail "auth hint: $(cat "$TMP/err")"
PGUSER=$R PGPASSWORD=wrong expect_exit 78 cl load --format json "$TESTDATA/demo/original.ach"
grep -q 'could not be reached' "$TMP/out" && fail "auth said unreachable: $(cat "$TMP/out")"
grep -q 'the database refused the connection' "$TMP/out" || fail "auth reason: $(cat "$TMP/out")"
# unreachable: 75, retry later
expect_exit 75 cl loads --db "host=127.0.0.1 port=1"
grep -q 'hint: check the host and port' "$TMP/err" || fail "unreachable hint: $(cat "$TMP/err")"
echo ok
