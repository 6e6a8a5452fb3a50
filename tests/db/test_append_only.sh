#!/bin/sh
# The load path never UPDATEs or DELETEs clearing_record or the journal
# (clearing_dedupe_event): with triggers that refuse both (the ones
# migration 015 makes, created here when the schema lacks them), every load
# path that writes journal rows still succeeds and journals what it did:
# commit, exact repeat, quarantine, hold (conflicts kept, duplicates never
# written), near duplicates, alternate keys, the v1/batch key rules, and
# loaders racing on one file (retries).
. "$(dirname "$0")/lib.sh"
: "${CL_TOOLS:?}"
db_new
cl init >/dev/null

# the triggers: one per table, refusing any UPDATE or DELETE (42501)
for t in clearing_record clearing_dedupe_event; do
	[ "$(q "select count(*) from pg_trigger where tgrelid = 'public.$t'::regclass
		and tgname = '${t}_append_only'")" = 1 ] && continue
	q "create function public.${t}_append_only() returns trigger language plpgsql as \$\$
	   begin raise exception '% is append-only: % refused', tg_table_name, tg_op
	     using errcode = '42501'; end \$\$;
	   create trigger ${t}_append_only before update or delete on public.$t
	   for each statement execute function public.${t}_append_only()" >/dev/null
done
# they refuse (so a load that passes below did not need them)
for t in clearing_record clearing_dedupe_event; do
	set +e
	psql -XAtq -v ON_ERROR_STOP=1 -c "delete from $t" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	set -e
	[ "$rc" -ne 0 ] && grep -q "$t" "$TMP/err" || fail "the trigger on $t does not refuse: $(cat "$TMP/err")"
done

field() { grep '"type":"file"' "$TMP/out" | json_field "$1"; }
events() { q "select count(*) from clearing_dedupe_event where load_id = $1 ${2:+and $2}"; }
loaded() {
	_want=$1
	shift
	expect_exit "$_want" cl load --format json "$@"
	lid=$(field load_id)
}

# ---- NACHA: commit, re-upload, exact repeat, hold, quarantine ----
"$CL_TOOLS/gen_ach" -n 200 --skip-every 10 >"$TMP/orig.ach"
"$CL_TOOLS/gen_ach" -n 200 >"$TMP/full.ach"
"$CL_TOOLS/gen_ach" -n 200 --bump-amount-every 50 >"$TMP/bump.ach"
loaded 0 "$TMP/orig.ach"
assert_eq "$(field new)" 180 "original: new"
assert_eq "$(events "$lid")" 0 "original: no journal rows"
loaded 0 "$TMP/full.ach"
assert_eq "$(field new),$(field duplicate)" 20,180 "re-upload: counts"
assert_eq "$(events "$lid" "reason = 'duplicate' and fields is null")" 180 "re-upload: duplicates journaled"
loaded 0 "$TMP/full.ach"
assert_eq "$(events "$lid" "reason = 'duplicate'")" 200 "exact repeat: every record journaled"
# held: nothing applied, its conflicts journaled with their fields, its
# duplicates never written; the load row still counts them
loaded 4 "$TMP/bump.ach"
assert_eq "$(field outcome),$(field duplicate),$(field conflict)" held,196,4 "held: outcome and counts"
assert_eq "$(events "$lid")" 4 "held: only the conflicts journaled"
assert_eq "$(events "$lid" "reason = 'conflict' and fields = '{amount_minor}'")" 4 "held: conflicts name their field"
assert_eq "$(q "select duplicate_count || ',' || conflict_count || ',' || outcome from clearing_load
	where load_id = $lid")" 196,4,held "held: the load row"
# quarantined: the conflicts parked, duplicates and conflicts journaled
loaded 8 --on-conflict=quarantine "$TMP/bump.ach"
assert_eq "$(events "$lid" "reason = 'duplicate' and fields is null")" 196 "quarantined: duplicates journaled"
assert_eq "$(events "$lid" "reason = 'conflict' and fields = '{amount_minor}'")" 4 "quarantined: conflicts journaled"
# (parked once: the held load before parked the same versions)
assert_eq "$(q "select count(*) from clearing_quarantine q where q.tenant = 'default' and exists
   (select 1 from clearing_dedupe_event e where e.load_id = $lid and e.reason = 'conflict'
    and e.ordinal = q.ordinal)")" 4 "quarantined: parked"
assert_eq "$(q "select count(*) from clearing_record")" 200 "NACHA: each record once"
# diff writes nothing
before=$(q "select count(*) from clearing_dedupe_event")
expect_exit 4 cl diff --format json "$TMP/bump.ach"
assert_eq "$(grep -c '"action":"conflict"' "$TMP/out")" 4 "diff: the conflicts"
assert_eq "$(q "select count(*) from clearing_dedupe_event")" "$before" "diff: no journal rows"

# ---- near duplicates (a re-dated copy), held and quarantined ----
"$CL_TOOLS/gen_ach" -n 40 -e 260302 >"$TMP/mon.ach"
"$CL_TOOLS/gen_ach" -n 40 -e 260303 >"$TMP/tue.ach"
"$CL_BIN" load --tenant near "$TMP/mon.ach" >/dev/null
loaded 4 --tenant near "$TMP/tue.ach"
assert_eq "$(events "$lid" "reason = 'near_duplicate' and fields = '{value_date}'
	and matched_key like '%|2026-03-02'")" 40 "near: held, journaled with the field"
loaded 8 --tenant near --on-conflict=quarantine "$TMP/tue.ach"
assert_eq "$(events "$lid" "reason = 'near_duplicate' and fields = '{value_date}'")" 40 "near: quarantined"
assert_eq "$(q "select count(*) from clearing_record where tenant = 'near'")" 40 "near: no copy applied"

# ---- one pacs.008 payment with and without its UETR (alternate keys) ----
"$CL_TOOLS/gen_iso" --type pacs.008 --tx 3 --msg-version 02 >"$TMP/v02.xml"
"$CL_TOOLS/gen_iso" --type pacs.008 --tx 3 --msg-version 08 >"$TMP/v08.xml"
"$CL_BIN" load --tenant alt "$TMP/v02.xml" >/dev/null
loaded 4 --tenant alt "$TMP/v08.xml"
assert_eq "$(events "$lid" "reason = 'near_duplicate' and natural_key like 'uetr|%'
	and matched_key like 'txid|%' and fields is not null")" 3 "alt key: held, journaled"
loaded 8 --tenant alt --on-conflict=quarantine "$TMP/v08.xml"
assert_eq "$(events "$lid" "reason = 'near_duplicate'")" 3 "alt key: quarantined"

# ---- the other ACH key rule, both ways ----
"$CL_BIN" load --tenant rule --ach-key=batch "$TMP/orig.ach" >/dev/null
loaded 4 --tenant rule "$TMP/orig.ach"
assert_eq "$(events "$lid" "reason = 'near_duplicate'")" 180 "v1 load after v1-batch: held"
"$CL_BIN" load --tenant rule2 "$TMP/orig.ach" >/dev/null
loaded 8 --tenant rule2 --ach-key=batch --on-conflict=quarantine "$TMP/orig.ach"
assert_eq "$(events "$lid" "reason = 'near_duplicate'")" 180 "v1-batch load after v1: quarantined"

# ---- loaders racing on overlapping files: the loser retries ----
"$CL_TOOLS/gen_iso" --type pain.001 --tx 300 --msg-id A >"$TMP/pa.xml"
"$CL_TOOLS/gen_iso" --type pain.001 --tx 300 --start 101 --msg-id B >"$TMP/pb.xml"
for round in 1 2 3; do
	load_at_once "race$round" "$TMP/pa.xml" "$TMP/pb.xml"
	grep -q 'append-only' "$TMP/r1" "$TMP/r2" && fail "round $round: a trigger fired: $(cat "$TMP/r1" "$TMP/r2")"
	assert_eq "$(q "select count(*) from clearing_record where tenant = 'race$round'")" 400 \
		"round $round: each record once ($(cat "$TMP/r1" "$TMP/r2"))"
	assert_eq "$(q "select count(*) from clearing_dedupe_event e join clearing_load l using (load_id)
		where l.tenant = 'race$round' and e.reason = 'duplicate'")" 200 "round $round: the overlap journaled"
done
echo "ok: every load path ran with UPDATE and DELETE refused on the records and the journal"
