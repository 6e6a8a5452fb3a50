#!/bin/sh
# One pacs.008 payment with and without its UETR (acceptance review finding
# 10): keyed by UETR once and by instructing agent + TxId once, it has two
# natural keys but one alternate key (clearing-load-keys(7)).  Whichever form
# comes second is a near duplicate (held, exit 4, nothing applied); both
# forms in one file reject it (exit 3); two loaders racing with the two forms
# apply one.
. "$(dirname "$0")/lib.sh"
: "${CL_TOOLS:?}"
db_new
cl init >/dev/null

# the same three payments: .02 has no UETR, .08 has one
"$CL_TOOLS/gen_iso" --type pacs.008 --tx 3 --msg-version 02 >"$TMP/v02.xml"
"$CL_TOOLS/gen_iso" --type pacs.008 --tx 3 --msg-version 08 >"$TMP/v08.xml"
grep -q '<UETR>' "$TMP/v02.xml" && fail "fixture: v02 has a UETR"
grep -q '<UETR>' "$TMP/v08.xml" || fail "fixture: v08 has no UETR"

cl_load "$TMP/v02.xml" >"$TMP/o" || fail "v02: $(cat "$TMP/o")"
grep -q '"new":3,' "$TMP/o" || fail "v02 new: $(cat "$TMP/o")"
expect_exit 4 cl diff --format json "$TMP/v08.xml"
assert_eq "$(grep -c '"action":"conflict"' "$TMP/out")" 3 "diff: three conflicts"
grep -q '"matched_key":"txid|DEUTDEFF|TX-1-1"' "$TMP/out" || fail "diff names the matched key: $(head -n 1 "$TMP/out")"
expect_exit 4 cl load --format json "$TMP/v08.xml"
grep -q '"outcome":"held"' "$TMP/out" || fail "v08 held: $(cat "$TMP/out")"
assert_eq "$(q "select count(*) from clearing_record")" 3 "no payment applied twice"
assert_eq "$(q "select count(*) from clearing_dedupe_event where reason = 'near_duplicate'
	and natural_key like 'uetr|%' and matched_key like 'txid|%'")" 3 "journaled as near duplicates"

# the other order, in another tenant: UETR first, then the copy without it
"$CL_BIN" load --tenant t2 --format json "$TMP/v08.xml" >"$TMP/o" || fail "t2 v08: $(cat "$TMP/o")"
expect_exit 4 cl load --tenant t2 --format json "$TMP/v02.xml"
grep -q '"outcome":"held"' "$TMP/out" || fail "t2 v02 held: $(cat "$TMP/out")"
assert_eq "$(q "select count(*) from clearing_record where tenant = 't2'")" 3 "t2: no payment twice"
# quarantine applies nothing of the copies either
expect_exit 8 cl load --tenant t2 --on-conflict=quarantine --format json "$TMP/v02.xml"
assert_eq "$(q "select count(*) from clearing_record where tenant = 't2'")" 3 "t2: quarantine applies none"

# both forms in one file: rejected, both lines named
{
	sed '/<\/FIToFICstmrCdtTrf>/,$d' "$TMP/v08.xml"
	sed -n '/<CdtTrfTxInf>/,/<\/CdtTrfTxInf>/p' "$TMP/v02.xml" | sed -n '1,/<\/CdtTrfTxInf>/p'
	sed -n '/<\/FIToFICstmrCdtTrf>/,$p' "$TMP/v08.xml"
} >"$TMP/both.xml"
sed -i -e "s|<NbOfTxs>3</NbOfTxs>|<NbOfTxs>4</NbOfTxs>|" -e "/<CtrlSum>/d" -e "/<TtlIntrBkSttlmAmt/d" "$TMP/both.xml"
# structurally valid (its only error is the one payment under two keys,
# which validate finds too, without a database)
expect_exit 3 cl validate --format json "$TMP/both.xml"
assert_eq "$(grep -c '"type":"error"' "$TMP/out")" 1 "fixture both.xml: one error"
grep -q '"code":"duplicate_alt_key"' "$TMP/out" || fail "validate both.xml: $(cat "$TMP/out")"
expect_exit 3 cl load --tenant t3 "$TMP/both.xml"
grep -q 'one payment appears under 2 payment identities in this file, first on line [0-9]*, last on line [0-9]* (the same content and alternate key "e2e|DEUTDEFF|E2E-1-1"' "$TMP/err" ||
	fail "in-file alternate key: $(cat "$TMP/err")"
assert_eq "$(q "select count(*) from clearing_record where tenant = 't3'")" 0 "t3: nothing applied"

# two loaders at once with the two forms (new tenant each round): one applies
for round in 1 2 3 4 5; do
	load_at_once "race$round" "$TMP/v02.xml" "$TMP/v08.xml"
	assert_eq "$(q "select count(*) from clearing_record where tenant = 'race$round'")" 3 \
		"round $round: each payment once ($(cat "$TMP/r1" "$TMP/r2"))"
	cat "$TMP/r1" "$TMP/r2" | grep -q '"outcome":"held"' || fail "round $round: one held"
done

# without TxId (optional in .08) the alternate key is the EndToEndId tier:
# the copy without UETR, keyed e2e|..., is still held
sed 's|<TxId>[^<]*</TxId>||' "$TMP/v08.xml" >"$TMP/notx.xml"
sed 's|<UETR>[^<]*</UETR>||' "$TMP/notx.xml" >"$TMP/notx_nouetr.xml"
"$CL_BIN" load --tenant notx --format json "$TMP/notx.xml" >"$TMP/o" || fail "notx: $(cat "$TMP/o")"
expect_exit 4 cl load --tenant notx --format json "$TMP/notx_nouetr.xml"
assert_eq "$(q "select count(*) from clearing_record where tenant = 'notx'")" 3 "notx: no payment twice"

# different payments that reuse a TxId (other UETR, other amounts): new, not
# held; the same content under a fresh UETR is held
"$CL_TOOLS/gen_iso" --type pacs.008 --tx 3 --seed 2 --msg-id MSG-DAY2 |
	sed 's|<TxId>TX-2-|<TxId>TX-1-|' >"$TMP/day2.xml"
"$CL_BIN" load --tenant reuse --format json "$TMP/v08.xml" >/dev/null || fail "reuse v08"
cl_load --tenant reuse "$TMP/day2.xml" >"$TMP/o" || fail "reused TxIds: $(cat "$TMP/o")"
grep -q '"new":3,' "$TMP/o" || fail "reused TxIds are new payments: $(cat "$TMP/o")"
sed 's|<UETR>\(.\{8\}\)|<UETR>ffffffff|' "$TMP/v08.xml" >"$TMP/fresh_uetr.xml"
expect_exit 4 cl load --tenant reuse --format json "$TMP/fresh_uetr.xml"
assert_eq "$(q "select count(*) from clearing_record where tenant = 'reuse'")" 6 "reuse: 3 + 3"

# schema 6 on a database that has pacs records: the migration gives them the
# alternate keys the parser gives (drop the column, re-run migration 6)
for f in "$CL_ROOT"/testdata/iso20022/corpus/pacs.0*/*.xml; do
	"$CL_BIN" load --tenant corpus "$f" >/dev/null 2>&1 || true
done
q "select kind, natural_key, alt_key, alt_key2 from clearing_record where tenant = 'corpus' order by 1, 2" >"$TMP/alt_parser"
[ "$(grep -c '|' "$TMP/alt_parser")" -ge 5 ] || fail "corpus: too few pacs records: $(cat "$TMP/alt_parser")"
grep -q '|e2e|\||ouetr|' "$TMP/alt_parser" || fail "corpus: no alternate keys: $(cat "$TMP/alt_parser")"
# (back to schema 5: undo 006 and every later migration; a new migration
# must be undone here too, unless it runs again harmlessly as 011 to 026
# do;
# 013's view names every column, so it goes first)
q "drop view clearing_feed; drop index clearing_record_alt_key; drop index clearing_record_alt_key2;
   drop index if exists clearing_record_near_key;
   alter table clearing_record drop column alt_key, drop column corrected_data,
     drop column dishonored_code, drop column orgnl_msg_id, drop column alt_key2,
     drop column alt_fp, drop column near_key;
   alter table clearing_quarantine drop column alt_key, drop column corrected_data,
     drop column dishonored_code, drop column orgnl_msg_id, drop column alt_key2,
     drop column alt_fp, drop column near_key;
   delete from clearing_schema_version where version >= 6" >/dev/null
# (027 to 029 run again harmlessly too: the breaks' tables IF NOT EXISTS,
# the transactions' columns and the direct debits' ADD COLUMN IF NOT EXISTS;
# 032 the matching rules' and 033 the cancellations' IF NOT EXISTS; 034
# turns the near identity 010 stores into its hash when it is text; 035,
# the Citus stage, does nothing on one server; 036 and 040 replace a function;
# 037 gives the journal rows of before their shard; 038 sets an index's
# fillfactor; 039, the Citus stage unlogged, 041, the Citus tables of the
# alternate keys, and 042, the Citus table of the exact-key matches, do
# nothing on one server; 043 replaces a function, its Citus stage's column
# and row security nothing on one server; 044, the nonce of the Citus
# matches and alternate-key stage, nothing on one server; 045 and 046
# define the functions of init --columnar; 047 replaces a function and
# drops nothing where the table is a heap; 048 replaces a function)
[ "$(ls "$CL_ROOT"/sql/[0-9]*.sql | grep -v '/02[789]_' | grep -v '/03[2-9]_' | grep -v '/04[0-8]_' | wc -l)" = 26 ] ||
	fail "a migration was added after 026: undo it above before re-running 006"
# 037: the journal's shards as the loader wrote them, then the column
# dropped (a database of before): 037 gives every row the same again
q "select load_id, ordinal, reason, shard from clearing_dedupe_event order by 1, 2, 3" >"$TMP/shard_loader"
[ "$(wc -l <"$TMP/shard_loader")" -ge 3 ] || fail "too few journal rows: $(cat "$TMP/shard_loader")"
q "alter table clearing_dedupe_event drop column shard" >/dev/null
cl init >/dev/null || fail "re-init"
q "select load_id, ordinal, reason, shard from clearing_dedupe_event order by 1, 2, 3" >"$TMP/shard_037"
cmp -s "$TMP/shard_loader" "$TMP/shard_037" ||
	fail "037's journal shards differ: $(diff "$TMP/shard_loader" "$TMP/shard_037")"
q "select kind, natural_key, alt_key, alt_key2 from clearing_record where tenant = 'corpus' order by 1, 2" >"$TMP/alt_sql"
cmp -s "$TMP/alt_parser" "$TMP/alt_sql" || fail "migration 006 backfill differs: $(diff "$TMP/alt_parser" "$TMP/alt_sql")"

# the same payments with their UETRs but no instructed agent (it came only in
# the AppHdr, or was stripped): the UETR key has no instructed agent, so the
# copy meets the same keys and is held, not keyed by TxId and applied again
"$CL_BIN" load --tenant instd --format json "$CL_ROOT/testdata/keys/pacs008-two.xml" >"$TMP/o" ||
	fail "pacs008-two: $(cat "$TMP/o")"
expect_exit 4 cl load --tenant instd --format json "$CL_ROOT/testdata/keys/pacs008-two-no-instd.xml"
grep -q '"outcome":"held",' "$TMP/out" && grep -q '"records":2,"errors":0,"load_id":[0-9]*,"load_uuid":"[-0-9a-f]*","new":0,"duplicate":0,"conflict":2,' "$TMP/out" ||
	fail "no instructed agent: $(cat "$TMP/out")"
assert_eq "$(q "select count(*) from clearing_record where tenant = 'instd'")" 2 "instd: no payment twice"

# one form with its EndToEndId, the other with NOTPROVIDED and no UETR: the
# TxId is the identity they share (alt_key2)
sed 's|<EndToEndId>[^<]*</EndToEndId>|<EndToEndId>NOTPROVIDED</EndToEndId>|; s|<UETR>[^<]*</UETR>||' \
	"$TMP/v08.xml" >"$TMP/np_nouetr.xml"
"$CL_BIN" load --tenant np --format json "$TMP/v08.xml" >"$TMP/o" || fail "np v08: $(cat "$TMP/o")"
expect_exit 4 cl load --tenant np --format json "$TMP/np_nouetr.xml"
grep -q '"outcome":"held"' "$TMP/out" || fail "E2E NOTPROVIDED copy: $(cat "$TMP/out")"
"$CL_BIN" load --tenant np2 --format json "$TMP/np_nouetr.xml" >"$TMP/o" || fail "np2: $(cat "$TMP/o")"
expect_exit 4 cl load --tenant np2 --format json "$TMP/v08.xml"
assert_eq "$(q "select count(*) from clearing_record where tenant in ('np', 'np2')")" 6 "np: no payment twice"

# a copy with neither its UETR nor its instructed agent: the alternate key
# matches and the fingerprint without the instructed agent too: held
sed -e 's|<UETR>[^<]*</UETR>||' -e 's|<InstdAgt>.*</InstdAgt>||' "$CL_ROOT/testdata/keys/pacs008-two.xml" >"$TMP/bare.xml"
grep -q '<InstdAgt>' "$TMP/bare.xml" && fail "fixture: InstdAgt left"
"$CL_BIN" load --tenant bare --format json "$CL_ROOT/testdata/keys/pacs008-two.xml" >"$TMP/o" || fail "bare 1"
expect_exit 4 cl load --tenant bare --format json "$TMP/bare.xml"
grep -q '"outcome":"held"' "$TMP/out" || fail "bare copy: $(cat "$TMP/out")"
"$CL_BIN" load --tenant bare2 --format json "$TMP/bare.xml" >"$TMP/o" || fail "bare2 1"
expect_exit 4 cl load --tenant bare2 --format json "$CL_ROOT/testdata/keys/pacs008-two.xml"
assert_eq "$(q "select count(*) from clearing_record where tenant in ('bare', 'bare2')")" 4 "bare: no payment twice"

# keys stored in the earlier UETR form (uetr|U|InstgAgt|InstdAgt) are
# rewritten by migration 9, so an exact re-upload stays a duplicate
"$CL_BIN" load --tenant old --format json "$CL_ROOT/testdata/keys/pacs008-two.xml" >"$TMP/o" || fail "old 1"
# (010 stores the near identity as text, which 034 made its hash: the
# column back to text, and 013's view that names it dropped, before both
# run again)
q "set clearing_load.maintenance = 'test'; update clearing_record set natural_key = natural_key || '|COBADEFF', alt_fp = null
   where tenant = 'old' and natural_key like 'uetr|%';
   drop view clearing_feed;
   alter table clearing_record alter column near_key type text collate \"C\" using null;
   alter table clearing_quarantine alter column near_key type text collate \"C\" using null;
   delete from clearing_schema_version where version >= 9" >/dev/null
assert_eq "$(q "select count(*) from clearing_record where tenant = 'old' and natural_key like '%|COBADEFF'")" 2 "old form made"
cl init >/dev/null || fail "init 9"
cl_load --tenant old "$CL_ROOT/testdata/keys/pacs008-two.xml" >"$TMP/o" || fail "old re-upload: $(cat "$TMP/o")"
grep -q '"new":0,"duplicate":2,' "$TMP/o" || fail "after migration 9 the re-upload is a duplicate: $(cat "$TMP/o")"
