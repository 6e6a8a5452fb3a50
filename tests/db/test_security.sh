#!/bin/sh
# Hostile text reaches the database only as data, and what is private stays
# private.
#
# 1. SQL only through parameters or COPY: an ACH file whose company id,
#    individual id, account and names, and a pain.001 / pacs.008 whose
#    EndToEndId, InstrId, TxId, names and Ustrd, hold quotes, backslashes,
#    COPY escape sequences (\N, \., \t as text), SQL fragments and (XML,
#    as character references) tabs and newlines, load; every stored field
#    reads back byte for byte, names and remittance come back unchanged in
#    `parse --format json --no-mask`, and a canary table survives.
# 2. Account numbers and names never appear in the output or logs of load
#    (text and JSON, stdout and stderr, verbose; first load, duplicates,
#    held conflicts, quarantine), diff (text, JSON, CSV), show and loads,
#    nor in clearing_dedupe_event or clearing_load; accounts (also inside
#    pain.001 keys) are masked in output unless --no-mask.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/proof_lib.sh"

tpl_init
db_use sec
q "create table canary (x int); insert into canary values (42)"

hex() { printf '%s' "$1" | od -An -v -tx1 | tr -d ' \n'; }
# col_hex SQL-EXPR WHERE: the hex of one stored text value.
col_hex() { q "select encode(convert_to($1, 'UTF8'), 'hex') from clearing_record where $2"; }

# ---- 1a. ACH: patch fixed columns of a generated file (controls stay
# right: none of these fields is in a total or the entry hash).
COMPANY_ID="Q'\"\\N\\.\\t;"                  # 10: Q ' " \ N \ . \ t ;
INDIV_ID="ID'\";\\N\\.\\t\\r%_"             # 15
ACCOUNT="12'3\"4\\N\\.\\t5-6;7"             # 17
NAME="O'Brien \"\\N\\.\\t\" & ';"           # 22 at most
COMPANY_NAME="x');DROP TABLE c"             # 16
[ ${#COMPANY_ID} = 10 ] && [ ${#INDIV_ID} = 15 ] && [ ${#ACCOUNT} = 17 ] && [ ${#NAME} -le 22 ] || fail "test values have the wrong widths"
make_file ach "$TMP/plain.ach" 3 --batch-size 3
COMPANY_ID=$COMPANY_ID INDIV_ID=$INDIV_ID ACCOUNT=$ACCOUNT NAME=$NAME COMPANY_NAME=$COMPANY_NAME awk '
function put(s, col, width, v) {
	v = substr(v sprintf("%" width "s", ""), 1, width)
	return substr(s, 1, col - 1) v substr(s, col + width)
}
/^5/ { $0 = put($0, 5, 16, ENVIRON["COMPANY_NAME"]); $0 = put($0, 41, 10, ENVIRON["COMPANY_ID"]) }
/^6/ { $0 = put($0, 13, 17, ENVIRON["ACCOUNT"]); $0 = put($0, 40, 15, ENVIRON["INDIV_ID"]); $0 = put($0, 55, 22, ENVIRON["NAME"]) }
/^8/ { $0 = put($0, 45, 10, ENVIRON["COMPANY_ID"]) }
{ print }' "$TMP/plain.ach" >"$TMP/hostile.ach"

run_rc rc "$CL_BIN" validate "$TMP/hostile.ach"
assert_eq "$rc" 0 "hostile ACH must be valid NACHA ($(cat "$TMP/run.err"))"
run_rc rc "$CL_BIN" load --format json "$TMP/hostile.ach"
assert_eq "$rc" 0 "hostile ACH load ($(cat "$TMP/run.err"))"
assert_eq "$(jget new "$TMP/run.out")" 3 "hostile ACH: new"
assert_eq "$(q 'select x from canary')" 42 "canary table"
assert_eq "$(q "select count(*) from clearing_record where kind = 'ach.entry'")" 3 "ACH records"
for what in "company_id:$COMPANY_ID" "individual_id:$INDIV_ID" "receiving_account:$ACCOUNT"; do
	col=${what%%:*}
	val=${what#*:}
	got=$(q "select string_agg(distinct encode(convert_to($col, 'UTF8'), 'hex'), ',')
		 from clearing_record where kind = 'ach.entry'")
	assert_eq "$got" "$(hex "$val")" "ACH $col read back"
done
keys=$(q "select count(*) from clearing_record where kind = 'ach.entry'
	  and strpos(natural_key, convert_from(decode('$(hex "$COMPANY_ID")', 'hex'), 'UTF8')) > 0")
assert_eq "$keys" 3 "ACH natural keys hold the company id unchanged"
# The names come back unchanged through the JSON writer.
"$CL_BIN" parse --format json --no-mask "$TMP/hostile.ach" >"$TMP/parse.json" ||
	fail "parse of the hostile ACH file"
python3 - "$TMP/parse.json" "$NAME" "$COMPANY_NAME" "$ACCOUNT" <<'EOF' || fail "ACH parse --no-mask output"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
recs = [r for r in recs if r.get("kind") == "ach.entry"]
assert len(recs) == 3, recs
for r in recs:
    assert r["individual_name"] == sys.argv[2].rstrip(), (r["individual_name"], sys.argv[2])
    assert r["company_name"] == sys.argv[3].rstrip(), r["company_name"]
    assert r["receiving_account"] == sys.argv[4], r["receiving_account"]
EOF
# A second time: duplicates, matched by those keys.
run_rc rc "$CL_BIN" load --format json "$TMP/hostile.ach"
assert_eq "$rc" 0 "hostile ACH re-load"
assert_eq "$(jget duplicate "$TMP/run.out")" 3 "hostile ACH re-load: duplicates"

# ---- 1b. ISO 20022: text with XML escapes and character references.
E2E_XML="e2e&apos;&quot;\\N\\.\\t&#9;x&#10;y&amp;&lt;z"
E2E="e2e'\"\\N\\.\\t	x
y&<z"
TEXT_XML="O&apos;Brien &amp; &quot;Sons&quot; \\N \\. \\t&#9;|&#10;'); DROP TABLE canary; --"
TEXT="O'Brien & \"Sons\" \\N \\. \\t	|
'); DROP TABLE canary; --"
for t in pain.001 pacs.008; do
	make_file "$t" "$TMP/plain.$t" 2 --msg-id "SEC-$t"
	E2E_XML=$E2E_XML TEXT_XML=$TEXT_XML awk '
	# set(tag, v): replace the text of the first <tag> on the line (no
	# sub(): its replacement would read & and \\).
	function set(tag, v,   i, j, rest) {
		i = index($0, "<" tag ">")
		if (i == 0) return
		i += length(tag) + 2
		rest = substr($0, i)
		j = index(rest, "<")
		$0 = substr($0, 1, i - 1) v substr(rest, j)
	}
	/<EndToEndId>E2E-[^<]*-1</ { set("EndToEndId", ENVIRON["E2E_XML"]) }
	/<InstrId>I-1</ { set("InstrId", ENVIRON["E2E_XML"]) }
	/<TxId>TX-[^<]*-1</ { set("TxId", ENVIRON["E2E_XML"]) }
	/<Nm>Creditor 1</ { set("Nm", ENVIRON["TEXT_XML"]) }
	/<Ustrd>Invoice 1</ { set("Ustrd", ENVIRON["TEXT_XML"]) }
	{ print }' "$TMP/plain.$t" >"$TMP/hostile.$t"
	grep -q 'e2e&apos;' "$TMP/hostile.$t" || fail "$t: the EndToEndId was not patched"
	run_rc rc "$CL_BIN" load --format json "$TMP/hostile.$t"
	assert_eq "$rc" 0 "hostile $t load ($(cat "$TMP/run.err"))"
	assert_eq "$(jget new "$TMP/run.out")" 2 "hostile $t: new"
	assert_eq "$(q 'select x from canary')" 42 "canary table after $t"
	got=$(col_hex end_to_end_id "kind = '$t' and end_to_end_id like 'e2e%'")
	assert_eq "$got" "$(hex "$E2E")" "$t EndToEndId read back"
	got=$(col_hex instr_id "kind = '$t' and end_to_end_id like 'e2e%'")
	assert_eq "$got" "$(hex "$E2E")" "$t InstrId read back"
	if [ "$t" = pacs.008 ]; then
		got=$(col_hex tx_id "kind = '$t' and end_to_end_id like 'e2e%'")
		assert_eq "$got" "$(hex "$E2E")" "$t TxId read back"
	fi
	"$CL_BIN" parse --format json --no-mask "$TMP/hostile.$t" >"$TMP/parse.json" || fail "parse $t"
	python3 - "$TMP/parse.json" "$E2E" "$TEXT" <<'EOF' || fail "$t parse --no-mask output"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
r = [r for r in recs if (r.get("end_to_end_id") or "").startswith("e2e")]
assert len(r) == 1, recs
r = r[0]
assert r["end_to_end_id"] == sys.argv[2], repr(r["end_to_end_id"])
assert r["creditor_name"] == sys.argv[3], repr(r["creditor_name"])
assert r["remittance_text"] == sys.argv[3], repr(r["remittance_text"])
EOF
	run_rc rc "$CL_BIN" load --format json "$TMP/hostile.$t"
	assert_eq "$(jget duplicate "$TMP/run.out")" 2 "hostile $t re-load: duplicates"
done
check_invariants
echo "ok hostile text stored and read back unchanged"

# ---- 2. Accounts and names stay out of logs and the journal.
db_use priv
make_file ach "$TMP/p.ach" 40 --batch-size 20
make_file ach "$TMP/p_bump.ach" 40 --batch-size 20 --bump-amount-every 3 --created 2603011201
make_file pain.001 "$TMP/p.p1" 40 --msg-id PRIV-1
make_file pain.001 "$TMP/p_bump.p1" 40 --msg-id PRIV-2 --bump-amount-every 3
make_file pacs.008 "$TMP/p.p8" 40 --msg-id PRIV-3
make_file pacs.008 "$TMP/p_bump.p8" 40 --msg-id PRIV-4 --bump-amount-every 3
# The secrets: every account (ACH 13-29, IBANs) and every name.
{
	awk '/^6/ { a = substr($0, 13, 17); sub(/ +$/, "", a); print a; n = substr($0, 55, 22); sub(/ +$/, "", n); print n }' "$TMP/p.ach"
	sed -n 's/.*<IBAN>\([^<]*\)<.*/\1/p; s/.*<Id>\([A-Z0-9]\{12,\}\)<\/Id>.*/\1/p; s/.*<Nm>\([^<]*\)<.*/\1/p' \
		"$TMP/p.p1" "$TMP/p.p8"
} | sort -u | awk 'length($0) >= 5' >"$TMP/secrets.all"
# The initiating party's name is the file's sender, kept by design in
# clearing_load.sender and shown by `loads`: not a secret here (gen_iso uses
# the same name for the debtor of pain.001, so that one goes too).
sed -n 's/.*<InitgPty><Nm>\([^<]*\)<.*/\1/p' "$TMP/p.p1" "$TMP/p.p8" | sort -u >"$TMP/senders"
grep -v -x -F -f "$TMP/senders" "$TMP/secrets.all" >"$TMP/secrets" || true
[ "$(wc -l <"$TMP/secrets")" -ge 40 ] || fail "too few secrets collected: $(wc -l <"$TMP/secrets")"

: >"$TMP/logs"
logrun() { # run a command, appending its stdout and stderr to the logs
	set +e
	"$@" >>"$TMP/logs" 2>>"$TMP/logs"
	_r=$?
	set -e
	echo "$_r"
}
for fmtfile in p.ach p.p1 p.p8; do
	bump="$TMP/$(echo "$fmtfile" | sed 's/^p\./p_bump./')"
	f="$TMP/$fmtfile"
	assert_eq "$(logrun "$CL_BIN" load -v "$f")" 0 "$fmtfile: first load"
	assert_eq "$(logrun "$CL_BIN" load -v --format json "$f")" 0 "$fmtfile: duplicate load"
	assert_eq "$(logrun "$CL_BIN" load -v "$bump")" 4 "$fmtfile: conflicting load held"
	assert_eq "$(logrun "$CL_BIN" load -v --format json "$bump")" 4 "$fmtfile: conflicting load held (json)"
	r=$(logrun "$CL_BIN" load -v --on-conflict=quarantine "$bump")
	case $r in 0 | 8) ;; *) fail "$fmtfile: quarantine load exit $r" ;; esac
done
# diff and show print keys (a pain.001 key holds the debtor account) and
# accounts: masked.
for f in p.ach p_bump.ach p.p1 p_bump.p1 p.p8 p_bump.p8; do
	for fmt in text json csv; do
		r=$(logrun "$CL_BIN" diff -v --format "$fmt" "$TMP/$f")
		case $r in 0 | 4) ;; *) fail "diff --format $fmt $f: exit $r" ;; esac
	done
done
trace=$(awk '/^6/ { print substr($0, 80, 15); exit }' "$TMP/p.ach")
e2e=$(sed -n 's/.*<EndToEndId>\([^<]*\)<.*/\1/p' "$TMP/p.p1" | head -n 1)
uetr=$(sed -n 's/.*<UETR>\([^<]*\)<.*/\1/p' "$TMP/p.p8" | head -n 1)
for sel in "--trace $trace" "--e2e $e2e" "--uetr $uetr"; do
	assert_eq "$(logrun "$CL_BIN" show $sel)" 0 "show $sel"
	assert_eq "$(logrun "$CL_BIN" show --format json $sel)" 0 "show --format json $sel"
done
assert_eq "$(logrun "$CL_BIN" loads)" 0 "loads"
assert_eq "$(logrun "$CL_BIN" loads --format json)" 0 "loads --format json"
leaks=$(grep -F -f "$TMP/secrets" "$TMP/logs" | head -n 5 || true)
[ -z "$leaks" ] || fail "accounts or names in the loader's output or logs: $leaks"
assert_eq "$(q "select count(*) from clearing_dedupe_event")" "$(q "select coalesce(sum(case when outcome = 'held' then conflict_count
		else duplicate_count + conflict_count end), 0) from clearing_load")" \
	"journal rows vs reported duplicates and conflicts"
[ "$(q 'select count(*) from clearing_dedupe_event')" -gt 0 ] || fail "the journal is empty"
q "select e::text from clearing_dedupe_event e" >"$TMP/journal"
q "select l::text from clearing_load l" >"$TMP/loadrows"
leaks=$(grep -F -f "$TMP/secrets" "$TMP/journal" "$TMP/loadrows" | head -n 5 || true)
[ -z "$leaks" ] || fail "accounts or names in clearing_dedupe_event / clearing_load: $leaks"
echo "ok no account or name in output, logs, journal or load rows"
# ... and the masking is real: --no-mask shows the debtor account in keys.
iban=$(sed -n 's/.*<DbtrAcct><Id><IBAN>\([^<]*\)<.*/\1/p' "$TMP/p.p1" | head -n 1)
[ -n "$iban" ] || fail "no debtor IBAN in the pain.001 file"
"$CL_BIN" diff --no-mask --format json "$TMP/p.p1" >"$TMP/nomask.json" || true
grep -qF "$iban" "$TMP/nomask.json" || fail "diff --no-mask does not show the debtor account in keys"

# Masking: parse shows the last four characters only, --no-mask all.
acct=$(awk '/^6/ { a = substr($0, 13, 17); sub(/ +$/, "", a); print a; exit }' "$TMP/p.ach")
"$CL_BIN" parse --format json "$TMP/p.ach" >"$TMP/masked.json"
"$CL_BIN" parse --format json --no-mask "$TMP/p.ach" >"$TMP/unmasked.json"
! grep -qF "\"$acct\"" "$TMP/masked.json" || fail "parse prints an account unmasked by default"
grep -qF "\"$acct\"" "$TMP/unmasked.json" || fail "parse --no-mask does not print the account"
tail4=$(printf '%s' "$acct" | tail -c 4)
grep -qF "$tail4\"" "$TMP/masked.json" || fail "masked account lost its last four characters"
echo "security: all passed"
