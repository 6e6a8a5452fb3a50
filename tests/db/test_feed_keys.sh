#!/bin/sh
# The feed keeps its word to receivers (clearing-load(1) FEED): the key a
# receiver is told to deduplicate on, (tenant, kind, natural_key), is
# unique and whole in the machine formats; a receiver written from the man
# page alone gets every applied record exactly once while loaders and the
# receiver itself are killed; a consumer that row security leaves blind is
# refused, not told "0 records".
. "$(dirname "$0")/lib.sh"
: "${CL_TOOLS:?}"
db_new
cl init >/dev/null

# Two pain.001 files with the same EndToEndIds from two debtors whose IBANs
# end in the same four characters: 40 payments, 40 keys.  Masked, the keys
# would be 20 ("DE47**************1234|E2E-1-1" twice).
"$CL_TOOLS/gen_iso" --type pain.001 --tx 20 --msg-id A >"$TMP/g.xml"
sed 's|<DbtrAcct><Id><IBAN>[A-Z0-9]*</IBAN>|<DbtrAcct><Id><IBAN>DE47370400440532011234</IBAN>|' \
	"$TMP/g.xml" >"$TMP/p1.xml"
sed 's|<DbtrAcct><Id><IBAN>[A-Z0-9]*</IBAN>|<DbtrAcct><Id><IBAN>DE79500105170648891234</IBAN>|; s|<MsgId>A</MsgId>|<MsgId>B</MsgId>|' \
	"$TMP/g.xml" >"$TMP/p2.xml"
cl load --tenant t2 "$TMP/p1.xml" >/dev/null
cl load --tenant t2 "$TMP/p2.xml" >/dev/null
assert_eq "$(q "select count(*) from clearing_record where tenant = 't2'")" 40 "both files applied"
q "select tenant || '|' || kind || '|' || natural_key from clearing_record order by 1" >"$TMP/keys.db"

expect_exit 0 cl feed --consumer k --format json
python3 -c '
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get("type") == "feed_record":
        print("%s|%s|%s" % (r["tenant"], r["kind"], r["natural_key"]))' "$TMP/out" | sort >"$TMP/keys.json"
assert_eq "$(sort -u "$TMP/keys.json" | wc -l)" 40 "json: 40 distinct keys"
cmp -s "$TMP/keys.db" "$TMP/keys.json" || fail "json keys differ from the stored keys: $(diff "$TMP/keys.db" "$TMP/keys.json" | head)"

expect_exit 0 cl feed --consumer k --format csv
python3 -c '
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if r["type"] == "feed_record":
        print("%s|%s|%s" % (r["tenant"], r["kind"], r["natural_key"]))' "$TMP/out" | sort >"$TMP/keys.csv"
cmp -s "$TMP/keys.db" "$TMP/keys.csv" || fail "csv keys differ from the stored keys: $(diff "$TMP/keys.db" "$TMP/keys.csv" | head)"
grep -q 'DE47370400440532011234' "$TMP/out" || fail "csv: the debtor account is masked"

# for people, on a terminal: masked unless --no-mask
expect_exit 0 cl feed --consumer k
grep -q 'DE47370400440532011234' "$TMP/out" && fail "text: an account printed whole"
grep -q '1234' "$TMP/out" || fail "text: no masked account: $(head "$TMP/out")"
expect_exit 0 cl feed --consumer k --no-mask
grep -q 'DE47370400440532011234' "$TMP/out" || fail "text --no-mask: masked"

# A receiver written from FEED alone: read a page with --format json, store
# each record under (tenant, kind, natural_key) in its own table (a record
# seen again is skipped), then --ack the page's last feed_position.
q "create table recv (tenant text, kind text, natural_key text, feed_position bigint,
                      primary key (tenant, kind, natural_key))" >/dev/null
cat >"$TMP/receiver.py" <<'EOF'
import json, subprocess, sys
cl, consumer = sys.argv[1], sys.argv[2]
while True:
    page = subprocess.run([cl, "feed", "--consumer", consumer, "--format", "json", "-q",
                           "--limit", "150"], capture_output=True, text=True, check=True).stdout
    recs = [json.loads(l) for l in page.splitlines()]
    recs = [r for r in recs if r.get("type") == "feed_record"]
    if not recs:
        break
    rows = "".join("%s\t%s\t%s\t%d\n" % (r["tenant"], r["kind"], r["natural_key"],
                                          r["feed_position"]) for r in recs)
    subprocess.run(["psql", "-XAtq", "-v", "ON_ERROR_STOP=1", "-c",
                    "create temp table page (like recv); copy page from stdin; "
                    "insert into recv select * from page on conflict do nothing"],
                   input=rows, text=True, check=True, capture_output=True)
    subprocess.run([cl, "feed", "--consumer", consumer, "-q", "--ack",
                    str(recs[-1]["feed_position"])], check=True)
EOF
receive() { python3 "$TMP/receiver.py" "$CL_BIN" ledger; }

# Overlapping ACH files of three tenants loaded four at a time while the
# receiver runs; in each round one loader and the receiver are killed
# (kill -9) at a moment that varies from round to round.
for i in 0 1 2 3 4 5; do
	"$CL_TOOLS/gen_ach" -n 300 --start $((i * 150)) >"$TMP/f$i.ach"
done
round=0
while [ "$round" -lt 6 ]; do
	pids=""
	for i in 0 1 2 3; do
		f=$(( (round + i) % 6 ))
		"$CL_BIN" load -q --tenant "t$((i % 3))" "$TMP/f$f.ach" >/dev/null 2>&1 &
		pids="$pids $!"
	done
	receive >/dev/null 2>&1 &
	rpid=$!
	sleep "0.$(( (round * 37) % 9 + 1 ))"
	victim=$(echo $pids | cut -d' ' -f$((round % 4 + 1)))
	kill -9 "$victim" "$rpid" 2>/dev/null || true
	for p in $pids $rpid; do wait "$p" || true; done
	round=$((round + 1))
done
# every file loaded to the end (a killed load applied all of it or none:
# loading again is harmless), then the receiver reads to the end
for i in 0 1 2 3 4 5; do
	for t in t0 t1 t2; do
		expect_exit 0 cl load -q --tenant "$t" "$TMP/f$i.ach"
	done
done
receive || fail "the receiver failed"
assert_eq "$(q "select count(*) from recv")" "$(q "select count(*) from clearing_record")" \
	"the receiver holds as many records as were applied"
assert_eq "$(q "select count(*) from clearing_record r left join recv v using (tenant, kind, natural_key)
               where v.tenant is null")" 0 "no applied record missing at the receiver"
assert_eq "$(q "select count(*) from recv v join clearing_feed f using (tenant, kind, natural_key)
               where f.feed_position <> v.feed_position")" 0 "each stored at its own position"

# Row security on and no tenant for the consumer's login: refused (78), not
# "0 records" for ever; with a tenant granted it reads that tenant's records.
sfx=$$
C=cl_feedc_$sfx
role_new "$C" "login password 'pw'"
port=$(q "show port")
as_c() { PGPASSWORD=pw "$CL_BIN" feed --db "host=127.0.0.1 port=$port user=$C dbname=$PGDATABASE" "$@"; }
expect_exit 0 cl init --consumer-role "$C" --row-security on
expect_exit 78 as_c --consumer blind --format json
grep -q "row security hides every tenant from this login: consumer blind would receive nothing" "$TMP/err" ||
	fail "blind consumer: $(cat "$TMP/err")"
grep -q "tenant-access" "$TMP/err" || fail "no hint: $(cat "$TMP/err")"
[ -s "$TMP/out" ] && fail "blind consumer printed records"
expect_exit 0 cl init --tenant-access "$C=t2"
expect_exit 78 as_c --consumer blind --tenant t1 --format json
grep -q "row security hides tenant t1 from this login" "$TMP/err" || fail "hidden tenant: $(cat "$TMP/err")"
expect_exit 0 as_c --consumer blind --format json
assert_eq "$(grep -c '"tenant":"t2"' "$TMP/out")" "$(grep -c feed_record "$TMP/out")" "t2 only"
[ "$(grep -c feed_record "$TMP/out")" -gt 0 ] || fail "the granted consumer received nothing"
expect_exit 0 cl init --row-security off
echo ok
