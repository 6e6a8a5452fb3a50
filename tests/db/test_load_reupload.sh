#!/bin/sh
# Issue 4 proof, for each format (NACHA, pain.001, pacs.008): the original
# upload with records missing, the corrected re-upload (only the missing
# ones applied), the exact repeat (nothing applied, everything journaled),
# a re-upload with changed amounts (held: nothing applied, conflicts named,
# exit 4), the same with --on-conflict=quarantine; and diff never changes
# the database and agrees with what load then does.
. "$(dirname "$0")/lib.sh"
: "${CL_TOOLS:?}"
db_new
# CL_INIT_ARGS="--partitions 4": the same against the hash-partitioned
# schema (test_partitioned.sh); "--columnar", in columnar storage
# (tests/citus/test_columnar.sh)
cl init ${CL_INIT_ARGS:-} >/dev/null
assert_init_args

# gen FMT OUT ARGS...: 200 records of FMT
gen() {
	_fmt=$1 _out=$2
	shift 2
	case $_fmt in
	ach) "$CL_TOOLS/gen_ach" -n 200 "$@" >"$_out" ;;
	pain.001 | pacs.008) "$CL_TOOLS/gen_iso" --type "$_fmt" --tx 200 "$@" >"$_out" ;;
	esac
}

# field NAME: from the file object of the last cl_load/diff output ($TMP/out)
field() {
	grep '"type":"file"' "$TMP/out" | json_field "$1"
}

count() { q "select count(*) from clearing_record where kind = '$1'"; }

for fmt in ach pain.001 pacs.008; do
	case $fmt in
	ach) kind=ach.entry ;;
	*) kind=$fmt ;;
	esac
	d="$TMP/$fmt"
	mkdir -p "$d"
	gen "$fmt" "$d/orig" --skip-every 10
	gen "$fmt" "$d/full"
	gen "$fmt" "$d/bump" --bump-amount-every 50
	orig_n=$("$CL_BIN" parse --format csv "$d/orig" | tail -n +2 | wc -l)
	[ "$orig_n" -ge 170 ] || fail "$fmt: generator gave $orig_n records"

	# 1. the original upload (records missing)
	cl_load "$d/orig" >"$TMP/out" || fail "$fmt: original load exited $?"
	assert_eq "$(field outcome)" committed "$fmt original outcome"
	assert_eq "$(field new)" "$orig_n" "$fmt original: all new"
	assert_eq "$(count "$kind")" "$orig_n" "$fmt original rows"

	# 2. diff of the corrected re-upload: exit 1, changes nothing
	record_dump >"$TMP/before"
	before_loads=$(q "select count(*) from clearing_load")
	before_events=$(q "select count(*) from clearing_dedupe_event")
	expect_exit 1 cl diff --format json --no-mask "$d/full"
	diff_new=$(field new)
	diff_dup=$(field duplicate)
	assert_eq "$(grep -c '"action":"new"' "$TMP/out")" "$diff_new" "$fmt diff: one new record object per new record"
	assert_eq "$diff_dup" "$orig_n" "$fmt diff: the original's records are duplicates"
	record_dump >"$TMP/after"
	cmp -s "$TMP/before" "$TMP/after" || fail "$fmt: diff changed clearing_record"
	assert_eq "$(q "select count(*) from clearing_load")" "$before_loads" "$fmt: diff wrote no load row"
	assert_eq "$(q "select count(*) from clearing_dedupe_event")" "$before_events" "$fmt: diff wrote no journal row"
	grep '"action":"new"' "$TMP/out" | sed -n 's/.*"natural_key":"\([^"]*\)".*/\1/p' |
		sort >"$TMP/diff_new_keys"

	# 3. the corrected re-upload: only the missing records are applied,
	#    exactly the ones diff announced
	cl_load "$d/full" >"$TMP/out" || fail "$fmt: corrected load exited $?"
	assert_eq "$(field new)" "$diff_new" "$fmt corrected: new as diff said"
	assert_eq "$(field duplicate)" "$orig_n" "$fmt corrected: duplicates"
	full_n=$((orig_n + diff_new))
	assert_eq "$(count "$kind")" "$full_n" "$fmt rows after the corrected re-upload"
	lid=$(field load_id)
	q "select natural_key from clearing_record where load_id = $lid order by 1" >"$TMP/applied_keys"
	cmp -s "$TMP/diff_new_keys" "$TMP/applied_keys" || { diff "$TMP/diff_new_keys" "$TMP/applied_keys" | head; fail "$fmt: load applied other keys than diff announced"; }
	assert_eq "$(q "select count(*) from clearing_dedupe_event where load_id = $lid and reason = 'duplicate'")" \
		"$orig_n" "$fmt: each skipped duplicate journaled"

	# 4. the exact repeat: nothing applied, everything journaled
	expect_exit 0 cl diff "$d/full"
	"$CL_BIN" load --format json "$d/full" >"$TMP/out" || fail "$fmt: repeat exited $?"
	assert_eq "$(field new)" 0 "$fmt repeat: nothing new"
	assert_eq "$(field duplicate)" "$full_n" "$fmt repeat: all duplicates"
	lid=$(field load_id)
	assert_eq "$(q "select count(*) from clearing_dedupe_event where load_id = $lid")" "$full_n" \
		"$fmt repeat: every record journaled"
	assert_eq "$(q "select count(*) from clearing_dedupe_event e join clearing_record r
		on r.load_id = e.matched_load_id and r.ordinal = e.matched_ordinal
		where e.load_id = $lid and r.natural_key = (select natural_key from clearing_record
		  where load_id = e.matched_load_id and ordinal = e.matched_ordinal)")" "$full_n" \
		"$fmt repeat: every journal row points at the applied record"
	assert_eq "$(count "$kind")" "$full_n" "$fmt rows after the repeat"

	# 5. changed amounts: diff names the conflicts (exit 4), load holds the
	#    file (exit 4): nothing applied, the attempt and conflicts recorded
	bumped=$(( $("$CL_BIN" parse --format csv "$d/bump" | tail -n +2 | wc -l) ))
	expect_exit 4 cl diff --format json "$d/bump"
	nconf=$(field conflict)
	[ "$nconf" -ge 3 ] || fail "$fmt: diff found only $nconf conflicts"
	grep '"action":"conflict"' "$TMP/out" | grep -qF '"fields":["amount_minor"]' ||
		fail "$fmt: diff does not name amount_minor as the differing field"
	grep '"action":"conflict"' "$TMP/out" |
		grep -q '"changes":\[{"field":"amount_minor","old":[0-9]*,"new":[0-9]*}' ||
		fail "$fmt: diff does not show old -> new amounts as numbers"
	record_dump >"$TMP/before"
	expect_exit 4 cl load --format json "$d/bump"
	assert_eq "$(field outcome)" held "$fmt bump: held"
	assert_eq "$(field new)" 0 "$fmt bump: nothing new"
	assert_eq "$(field conflict)" "$nconf" "$fmt bump: load and diff agree on conflicts"
	lid=$(field load_id)
	record_dump >"$TMP/after"
	cmp -s "$TMP/before" "$TMP/after" || fail "$fmt: a held file changed clearing_record"
	assert_eq "$(q "select outcome from clearing_load where load_id = $lid")" held "$fmt: held load row"
	assert_eq "$(q "select count(*) from clearing_dedupe_event where load_id = $lid and reason = 'conflict'
		and fields = '{amount_minor}'")" "$nconf" "$fmt: conflicts journaled with the differing field"
	q "select reason from clearing_load where load_id = $lid" | grep -q "conflicting record" ||
		fail "$fmt: held load has no reason"

	# 6. the same with quarantine: clean records applied (none are new
	#    here), conflicting ones parked with their new content
	#    (the held load of 5 parked them first: a version is parked once)
	held_lid=$lid
	expect_exit 8 cl load --format json --on-conflict=quarantine "$d/bump"
	assert_eq "$(field outcome)" quarantined "$fmt: quarantined"
	lid=$(field load_id)
	assert_eq "$(q "select count(*) from clearing_quarantine where load_id in ($held_lid, $lid)")" \
		"$nconf" "$fmt: parked"
	assert_eq "$(q "select count(*) from clearing_quarantine qq join clearing_record r using (tenant, kind, natural_key)
		where qq.load_id in ($held_lid, $lid) and qq.amount_minor = r.amount_minor + 1")" "$nconf" \
		"$fmt: quarantine holds the new (changed) amounts, clearing_record the old"
	record_dump >"$TMP/after"
	cmp -s "$TMP/before" "$TMP/after" || fail "$fmt: quarantine changed applied records"
	: "$bumped"
done

# no key twice anywhere, and every journal row's key is the key of the
# record it matched (or a near duplicate)
assert_eq "$(q "select count(*) from (select tenant, kind, natural_key from clearing_record
	group by 1, 2, 3 having count(*) > 1) d")" 0 "no key twice"
# no account number of an applied record appears in the journal
assert_eq "$(q "select count(*) from clearing_dedupe_event e join clearing_record r
	on r.load_id = e.matched_load_id and r.ordinal = e.matched_ordinal
	where strpos(e.natural_key, r.debtor_account) > 0 or strpos(e.natural_key, r.creditor_account) > 0
	   or strpos(e.natural_key, r.receiving_account) > 0")" 0 "no account numbers in the journal"
echo ok
