#!/bin/sh
# validate, diff and load agree on ACH near duplicates inside one file: for
# many arrangements (an entry and re-dated copies at distances around the
# 5-banking-day edge and weekends, copies in one batch and across batches,
# several copies of one payment such as +20/+40/+22 days, more pairs than
# are reported, one batch twice under --ach-key=batch; returns with and
# without dates, plain, dishonored and contested codes, NOCs) the three give
# the same verdict and the same error lines (rules/near.h: one rule, every
# pair compared).
. "$(dirname "$0")/lib.sh"
: "${CL_TOOLS:?}"
db_new
cl init >/dev/null
G="$TMP/gen"
mkdir -p "$G"

. "$CL_ROOT/tests/tools/ach_batches.sh"

# yymmdd DAYS: 2026-03-02 (a Monday) plus DAYS
yymmdd() { date -u -d "2026-03-02 + $1 days" +%y%m%d; }

# errors FILE: the error lines of stderr FILE
errors() { grep ': error: ' "$1" || true; }

cases=0 invalid=0
# check NAME [OPTIONS]: validate, diff and load $G/NAME.* alike
check() {
	name=$1
	shift
	f="$G/$name.ach"
	[ -f "$f" ] || f="$G/$name.csv"
	cases=$((cases + 1))
	set +e
	"$CL_BIN" validate "$@" "$f" >/dev/null 2>"$TMP/v.err"; ev=$?
	"$CL_BIN" diff --tenant "d$cases" "$@" "$f" >/dev/null 2>"$TMP/d.err"; dv=$?
	"$CL_BIN" load --tenant "l$cases" "$@" "$f" >/dev/null 2>"$TMP/l.err"; lv=$?
	set -e
	errors "$TMP/v.err" >"$TMP/v.e"
	errors "$TMP/d.err" >"$TMP/d.e"
	errors "$TMP/l.err" >"$TMP/l.e"
	cp "$TMP/l.e" "$G/$name.errors"
	cmp -s "$TMP/v.e" "$TMP/l.e" || fail "$name: validate and load differ: $(diff "$TMP/v.e" "$TMP/l.e")"
	cmp -s "$TMP/d.e" "$TMP/l.e" || fail "$name: diff and load differ: $(diff "$TMP/d.e" "$TMP/l.e")"
	if [ -s "$TMP/l.e" ]; then
		[ "$ev" = 3 ] && [ "$dv" = 3 ] && [ "$lv" = 3 ] ||
			fail "$name: invalid, exit codes validate $ev diff $dv load $lv: $(cat "$TMP/l.err")"
		invalid=$((invalid + 1))
	else
		[ "$ev" = 0 ] && [ "$lv" = 0 ] ||
			fail "$name: valid, exit codes validate $ev load $lv: $(cat "$TMP/v.err" "$TMP/l.err")"
	fi
}

# an entry batch and a copy batch DAYS later (or earlier), from Monday
# 2026-03-02 and from Friday 2026-03-06: the edge is 5 banking days
for base in 0 4; do
	for d in 1 2 3 4 5 6 7 8 9 10 11 12 -1 -3 -4 -7 -8 -9 -10 20; do
		{ entries 0 3 "$(yymmdd "$base")"; entries 0 3 "$(yymmdd $((base + d)))"; } |
			assemble >"$G/pair-$base-$d.ach"
		check "pair-$base-$d"
	done
done
# from Monday: +7 (Monday, 5 banking days) is near, +8 (Tuesday, 6) is not
[ -s "$G/pair-0-7.errors" ] || fail "5 banking days later is near"
[ -s "$G/pair-0-8.errors" ] && fail "6 banking days later is not near"
# from Friday: +9 (Sunday, 5 banking days) is near, +10 (Monday, 6) is not
[ -s "$G/pair-4-9.errors" ] || fail "Friday to the second Sunday is near"
[ -s "$G/pair-4-10.errors" ] && fail "Friday to the second Monday is not near"

# several copies of one payment: every pair counts, not only the first and
# the previous copy
copies() {
	name=$1
	shift
	for d in "$@"; do entries 0 1 "$(yymmdd "$d")"; done | assemble >"$G/$name.ach"
	check "$name"
}
copies plus-20-40-22 0 20 40 22
grep -q ':12: error: the entries on lines 6 and 12 are one payment under two effective dates (2026-03-22 and 2026-03-24' "$G/plus-20-40-22.errors" ||
	fail "+20/+40/+22: the second and fourth copy: $(cat "$G/plus-20-40-22.errors")"
copies plus-8-3 0 8 3
copies chain-7-14-21 0 7 14 21
copies twelve-days 0 1 2 3 4 7 8 9 10 11 14 15
[ "$(wc -l <"$G/twelve-days.errors")" = 10 ] || fail "twelve copies: the first 10 pairs"
copies far-apart 0 10 20 30 40
[ -s "$G/far-apart.errors" ] && fail "copies 10 days apart are not near"
copies back-and-forth 20 0 22 2 40

# the copies of several payments in one batch, or spread over batches
{ entries 0 3 "$(yymmdd 0)"; entries 0 3 "$(yymmdd 1)"; entries 0 3 "$(yymmdd 14)"; } |
	assemble >"$G/one-batch.ach"
check one-batch
{ entries 0 3 "$(yymmdd 0)"; entries 0 1 "$(yymmdd 1)"; entries 1 2 "$(yymmdd 2)"; entries 2 1 "$(yymmdd 9)"; } |
	assemble >"$G/spread.ach"
check spread
{ entries 0 2 "$(yymmdd 0)"; entries 5 2 "$(yymmdd 0)"; entries 1 2 "$(yymmdd 3)"; } |
	assemble >"$G/partial.ach"
check partial
# one batch twice on one date: one key twice (the parser), and under
# --ach-key=batch two keys for one payment
{ entries 0 2 "$(yymmdd 0)"; entries 0 2 "$(yymmdd 0)"; } | assemble >"$G/twice.ach"
check twice
check twice --ach-key=batch
grep -q 'one payment twice (both effective 2026-03-02' "$G/twice.errors" || fail "batch twice: $(cat "$G/twice.errors")"

# returns and NOCs (CSV: the codes and dates set freely): ret NAME
# CODE:DATE... writes one return of the same entry per argument (its own
# trace each); a NOC when the code starts with C
csv_head=$("$CL_BIN" parse --format csv --no-mask "$CL_ROOT/testdata/near/return.ach" | head -n 1)
csv_row=$("$CL_BIN" parse --format csv --no-mask "$CL_ROOT/testdata/near/return.ach" | sed -n 2p)
# (without the fingerprint column, which the reader would check)
drop_fingerprint() {
	awk -F'","' -v OFS='","' '{ for (i = 7; i < NF; i++) $i = $(i + 1); NF--; print }'
}
ret() {
	name=$1
	shift
	{
		echo "$csv_head" | drop_fingerprint
		i=0
		for cd in "$@"; do
			i=$((i + 1))
			code=${cd%%:*} day=${cd#*:} kind=ach.return
			case $code in C*) kind=ach.noc ;; esac
			[ -n "$day" ] && day=$(date -u -d "2026-03-02 + $day days" +%F)
			trace=$(printf '1210428800%05d' "$i")
			echo "$csv_row" | awk -F'","' -v OFS='","' -v code="$code" -v day="$day" \
				-v trace="$trace" -v kind="$kind" '{
				$4 = kind; $5 = "099912340000015|" code "|" trace "|" day
				$11 = day; $12 = trace; $24 = code; print }' | drop_fingerprint
		done
	} >"$G/$name.csv"
	check "$name"
}
ret r-plain R01:0 R03:1
ret r-plain-far R01:0 R03:8
ret r-nodate R01:0 R01: R01:30
grep -q 'twice (effective 2026-03-02 and (none)' "$G/r-nodate.errors" || fail "no date: $(cat "$G/r-nodate.errors")"
ret r-dishonored R01:0 R61:1
ret r-dishonored-same R61:0 R61:2 R62:3
ret r-contested R71:0 R77:1 R71:3
ret r-mixed R01:0 R69:1 R02:2 R69: R70:2
ret noc C01:0 C01:1 C02:1 C01:
ret noc-vs-return C01:0 R01:0 R61:0
grep -q 'the returns or NOCs on lines 2 and 3 are one return under two effective dates (2026-03-02 and 2026-03-03' "$G/r-plain.errors" ||
	fail "R01 and R03: $(cat "$G/r-plain.errors")"
for n in r-plain-far r-dishonored noc-vs-return; do
	[ -s "$G/$n.errors" ] && fail "$n: not near: $(cat "$G/$n.errors")"
done
grep -q 'lines 2 and 3 are one return' "$G/r-dishonored-same.errors" || fail "R61 twice"
grep -q 'lines 3 and 4' "$G/r-dishonored-same.errors" && fail "R61 and R62 are two returns"
assert_eq "$(grep -c "are one return" "$G/noc.errors")" 3 "NOC C01 three times (one without a date): 3 pairs; C02 keeps its code"
[ -n "${NEAR_AGREE_KEEP:-}" ] && cp -r "$G" "$NEAR_AGREE_KEEP"

[ "$invalid" -gt 20 ] && [ "$invalid" -lt "$cases" ] ||
	fail "arrangements: $invalid of $cases invalid (both verdicts must occur)"
assert_eq "$(q "select count(*) from clearing_record r join clearing_load l using (load_id)
	where l.outcome <> 'committed'")" 0 "nothing applied from a rejected file"
