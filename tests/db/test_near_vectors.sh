#!/bin/sh
# One near-duplicate rule in C and in SQL: the same test vectors through
# rules/near.c (tests/tools/near_vectors) and through migration 010's
# public.clearing_near_key and public.clearing_near_dates (and 003's
# clearing_banking_days) give the same answers; the loader stores the C
# identity, and migration 010's backfill computes the same one.
. "$(dirname "$0")/lib.sh"
: "${CL_TOOLS:?}"
V="$CL_ROOT/tests/db/near_vectors.tsv"
db_new
cl init >/dev/null

# the identity: every vector (blank- and zero-filled accounts, escaped
# separators, empty fields, plain, dishonored and contested return codes,
# NOCs, kinds the rule is not about)
"$CL_TOOLS/near_vectors" keys <"$V" >"$TMP/c.tsv" || fail "near_vectors keys"
n=$(wc -l <"$V" | tr -d ' ')
# CSV with a tab delimiter and a quote that never occurs: fields as they
# are, an empty field is NULL (as the loader stores an empty field)
psql -XAtq -v ON_ERROR_STOP=1 >"$TMP/keys.out" <<SQL || fail "key vectors: $(cat "$TMP/keys.out")"
CREATE TEMP TABLE v (no serial, kind text, company_id text, trace_number text,
	receiving_account text, receiving_dfi text, amount_minor bigint, original_trace text,
	reason_code text, original_rdfi text);
CREATE TEMP TABLE c (no int, near_key text, near_hash text);
\copy v (kind, company_id, trace_number, receiving_account, receiving_dfi, amount_minor, original_trace, reason_code, original_rdfi) from '$V' with (format csv, delimiter E'\t', quote E'\x01')
\copy c from '$TMP/c.tsv' with (format csv, delimiter E'\t', quote E'\x01')
SELECT count(*) FROM v JOIN c USING (no);
SELECT v.no || ': C ' || coalesce(c.near_key, '(null)') || ', SQL '
	|| coalesce(public.clearing_near_key(v.kind, v.company_id, v.trace_number,
		v.receiving_account, v.receiving_dfi, v.amount_minor, v.original_trace,
		v.reason_code, v.original_rdfi), '(null)')
FROM v JOIN c USING (no)
WHERE c.near_key IS DISTINCT FROM public.clearing_near_key(v.kind, v.company_id,
	v.trace_number, v.receiving_account, v.receiving_dfi, v.amount_minor,
	v.original_trace, v.reason_code, v.original_rdfi)
ORDER BY v.no;
-- the stored form, the shard (here the line times 1000003) and the
-- identity's hash (migration 034): C's and SQL's
SELECT v.no || ': C hash ' || coalesce(c.near_hash, '(null)')
FROM v JOIN c USING (no)
WHERE c.near_hash IS DISTINCT FROM pg_catalog.encode(public.clearing_near_hash(v.no * 1000003::bigint,
	public.clearing_near_key(v.kind, v.company_id, v.trace_number, v.receiving_account,
	v.receiving_dfi, v.amount_minor, v.original_trace, v.reason_code, v.original_rdfi)), 'hex')
ORDER BY v.no;
SQL
assert_eq "$(cat "$TMP/keys.out")" "$n" "C and SQL identities of every vector (count, then differences)"
[ "$(cut -f3 "$TMP/c.tsv" | grep -c '^[0-9a-f]\{32\}$')" -gt 20 ] || fail "few hashes: $(head -3 "$TMP/c.tsv")"
grep -q '^15	E|110000\\\\0|121042880000001|12\\\\34|' "$TMP/c.tsv" || fail "escaped backslash: $(sed -n 15p "$TMP/c.tsv")"
grep -q '^22	R|121042880000001|R61|09101298|10000	' "$TMP/c.tsv" || fail "dishonored keeps its code"
grep -q '^21	R|121042880000001|plain|09101298|10000	' "$TMP/c.tsv" || fail "R03 is plain"
[ "$(sed -n 1,5p "$TMP/c.tsv" | cut -f2 | sort -u | wc -l)" = 1 ] || fail "justified accounts differ"

# the date rule: every pair of a few weeks around weekends, the Unix epoch
# and a leap day, and each date against no date
"$CL_TOOLS/near_vectors" dates 2026-02-20 40 1969-12-20 21 2024-02-20 14 >"$TMP/d.tsv" ||
	fail "near_vectors dates"
psql -XAtq -v ON_ERROR_STOP=1 >"$TMP/dates.out" <<SQL || fail "date vectors: $(cat "$TMP/dates.out")"
CREATE TEMP TABLE d (a date, b date, days int, near boolean);
\copy d from '$TMP/d.tsv' with (format csv, delimiter E'\t', quote E'\x01')
SELECT count(*), count(*) FILTER (WHERE near), count(*) FILTER (WHERE a IS NULL OR b IS NULL) FROM d;
SELECT a || ' ' || b || ': C ' || coalesce(days::text, '-') || ' ' || near
	|| ', SQL ' || coalesce(public.clearing_banking_days(a, b)::text, '-') || ' '
	|| public.clearing_near_dates(a, b)
FROM d WHERE days IS DISTINCT FROM public.clearing_banking_days(a, b)
	OR near IS DISTINCT FROM public.clearing_near_dates(a, b);
SQL
total=$((40 * 42 + 21 * 23 + 14 * 16))
set -- $(head -n 1 "$TMP/dates.out" | tr '|' ' ')
assert_eq "$1" "$total" "date pairs"
[ "$2" -gt "$3" ] && [ "$2" -lt "$1" ] || fail "both near and far pairs: $(head -n 1 "$TMP/dates.out")"
assert_eq "$(sed 1d "$TMP/dates.out")" "" "C and SQL banking days and near dates differ"

# the loader stores the C identity of each ACH record (NULL for others)
# (each file into a tenant of its own; files that are rejected add nothing)
for f in "$CL_ROOT"/testdata/near/*.ach $(find "$CL_ROOT/testdata/ach/corpus" -name '*.ach' | sort) \
	"$CL_ROOT"/testdata/keys/pacs008-two.xml; do
	"$CL_BIN" load --tenant "$(basename "$f")" "$f" >/dev/null 2>&1 || true
done
recompute="public.clearing_near_hash(shard, public.clearing_near_key(kind, company_id, trace_number,
	receiving_account, receiving_dfi, amount_minor, original_trace, reason_code, original_rdfi))"
[ "$(q "select count(*) from clearing_record where kind like 'ach.%'")" -gt 20 ] || fail "few ACH records"
[ "$(q "select count(*) from clearing_record where kind = 'ach.return' and value_date is null")" -gt 0 ] ||
	fail "no return without a date loaded"
[ "$(q "select count(*) from clearing_record where kind like 'pacs.%'")" -gt 0 ] || fail "no pacs loaded"
assert_eq "$(q "select count(*) from clearing_record
	where near_key is distinct from $recompute or (kind like 'ach.%') <> (near_key is not null)")" 0 \
	"stored identities are the SQL ones"
# and the backfill gives each record the identity the loader stored
q "create table before as select tenant, kind, natural_key, near_key from clearing_record" >/dev/null
# (migration 010 stores the text, 034 turns it into its hash: the column
# back to text and empty, the feed view that names it dropped, both run
# again)
q "set clearing_load.maintenance = 'test'; drop view clearing_feed;
   alter table clearing_record alter column near_key type text collate \"C\" using null;
   alter table clearing_quarantine alter column near_key type text collate \"C\" using null;
   delete from clearing_schema_version where version >= 10" >/dev/null
cl init >/dev/null || fail "re-init 10"
assert_eq "$(q "select format_type(atttypid, atttypmod) from pg_attribute
	where attrelid = 'clearing_record'::regclass and attname = 'near_key'")" bytea "near_key's type after 034"
assert_eq "$(q "select count(*) from before b join clearing_record r using (tenant, kind, natural_key)
	where r.near_key is not distinct from b.near_key")" "$(q "select count(*) from before")" "backfill"
