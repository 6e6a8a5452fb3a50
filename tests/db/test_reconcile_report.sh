#!/bin/sh
# reconcile --report FILE: a self-contained HTML page of the run, opened
# in a real headless browser (Debian's chromium): it renders (a
# screenshot), its numbers (the data attributes of the counts, the breaks'
# amounts, the ageing) are the JSON's of the same run, a hostile account or
# note is text, never markup, it names no external resource, and a path
# that cannot be written is refused before anything is recorded.
. "$(dirname "$0")/lib.sh"
: "${CL_TOOLS:?}"
command -v chromium >/dev/null 2>&1 || fail "chromium not installed (apt-get install -y chromium)"
db_new
cl init ${CL_INIT_ARGS:-} >/dev/null
GEN="python3 $CL_ROOT/tests/db/stmt_gen.py"

"$CL_TOOLS/gen_iso" --type pain.001 --tx 7 --per-pmtinf 3 --seed 7 >"$TMP/p.xml"
expect_exit 0 cl load "$TMP/p.xml"
amt() { q "select amount_minor from clearing_record where end_to_end_id = '$1'"; }
a1=$(amt E2E-7-1) a2=$(amt E2E-7-2) a3=$(amt E2E-7-3)
A=DE10718999515662907726
$GEN account=$A date=2026-03-03 seq=1 >"$TMP/s1.xml" <<S
$a1 EUR DBIT 2026-03-03 e2e=E2E-7-1
$((a2 + 1)) EUR DBIT 2026-03-03 e2e=E2E-7-2
$a3 EUR DBIT 2026-03-03
4242 EUR CRDT 2026-03-03 e2e=THEIRS-ONLY
S
# a second account, its id markup (an Othr/Id is free text)
EVIL='<img src=x onerror=alert(1)>'
printf '777 USD CRDT 2026-03-04 e2e=X\n' | $GEN account=EVILACCOUNT ccy=USD date=2026-03-04 seq=2 |
	sed 's/EVILACCOUNT/\&lt;img src=x onerror=alert(1)\&gt;/' >"$TMP/s2.xml"
grep -q '<Id>&lt;img src=x onerror=alert(1)&gt;</Id>' "$TMP/s2.xml" || fail "the statement: $(cat "$TMP/s2.xml")"

# a path that cannot be written: refused before the run
expect_exit 2 cl reconcile --report "$TMP/no/such/dir/r.html" "$TMP/s1.xml"
assert_eq "$(q "select count(*) from clearing_reconcile_run")" 0 "nothing recorded"

expect_exit 10 cl reconcile --format json --no-mask --report "$TMP/r.html" "$TMP/s1.xml" "$TMP/s2.xml"
cp "$TMP/out" "$TMP/r.json"
[ -s "$TMP/r.html" ] || fail "no report written"
if ls "$TMP" | grep -q "r.html.tmp"; then fail "a temporary file left: $(ls "$TMP")"; fi
# self-contained: no URL, no script, no external resource
RES='<[a-z][^>]* (src|href)=|<script|<link|<img|url\('
if grep -Eiq "$RES" "$TMP/r.html"; then fail "an external resource or script: $(grep -Ei "$RES" "$TMP/r.html")"; fi

# a decided item too (a hostile note), then the page of a second run
WID=$(grep '"amount_minor":4242' "$TMP/r.json" | sed -n 's/.*"id":"\([er][0-9.]*\)".*/\1/p')
[ -n "$WID" ] || fail "no id of the 4242 entry"
expect_exit 0 cl break write-off "$WID" --note "<script>alert('note')</script> & fee"
expect_exit 10 cl reconcile --format json --no-mask --report "$TMP/r2.html" "$TMP/s1.xml" "$TMP/s2.xml"
cp "$TMP/out" "$TMP/r2.json"

# a real browser: a screenshot of each page, and its DOM
for p in r r2; do
	rm -f "$TMP/$p.png"
	HOME=$TMP chromium --headless --no-sandbox --disable-gpu --window-size=1200,900 \
		--screenshot="$TMP/$p.png" "file://$TMP/$p.html" >"$TMP/chr.out" 2>&1 ||
		fail "chromium --screenshot: $(tail -5 "$TMP/chr.out")"
	[ -f "$TMP/$p.png" ] || fail "no screenshot: $(tail -5 "$TMP/chr.out")"
	head -c 8 "$TMP/$p.png" | od -An -tx1 | tr -d ' \n' | grep -q '^89504e470d0a1a0a$' ||
		fail "the screenshot is no PNG"
	[ "$(wc -c <"$TMP/$p.png")" -gt 10000 ] || fail "a trivial screenshot: $(wc -c <"$TMP/$p.png") bytes"
	HOME=$TMP chromium --headless --no-sandbox --disable-gpu --dump-dom "file://$TMP/$p.html" \
		>"$TMP/$p.dom" 2>"$TMP/chr.err" || fail "chromium --dump-dom: $(tail -5 "$TMP/chr.err")"
	grep -q 'id="breaks"' "$TMP/$p.dom" || fail "no DOM dumped: $(head -c 300 "$TMP/$p.dom")"
	python3 - "$TMP/$p.dom" "$TMP/$p.json" "$EVIL" <<'PY' || fail "the page of $p against its JSON"
import html.parser, json, sys
dom, js, evil = sys.argv[1], sys.argv[2], sys.argv[3]
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.summary, self.breaks, self.ageing, self.text = [], {}, {}, 0, []
        self.decided = []
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.append(tag)
        if "data-key" in a:
            self.summary[a["data-key"]] = int(a["data-value"])
        if tag == "tr" and "data-id" in a and "data-age-days" in a:
            self.cur = a["data-id"]
            self.breaks[self.cur] = None
        elif tag == "tr" and "data-id" in a:
            self.cur = None
            self.decided.append(a["data-id"])
        elif tag == "tr":
            self.cur = None
        if "data-amount-minor" in a and getattr(self, "cur", None):
            self.breaks[self.cur] = int(a["data-amount-minor"]) if a["data-amount-minor"] else None
        if "data-bucket" in a:
            self.ageing += int(a["data-count"])
    def handle_data(self, d):
        self.text.append(d)
p = P()
p.feed(open(dom).read())
lines = [json.loads(l) for l in open(js)]
summ = [l for l in lines if l["type"] == "reconcile_summary"][0]
for k in ("statements", "matched", "unmatched_ours", "unmatched_theirs", "exception",
          "suggested", "decided", "new_matches"):
    assert p.summary.get(k) == summ[k], (k, p.summary.get(k), summ[k])
want = {}
for l in lines:
    if l["type"] == "reconcile" and l["status"] in ("unmatched_ours", "unmatched_theirs",
                                                     "exception", "suggested"):
        src = l["entry"] or l["record"]
        want[l["id"]] = src["amount_minor"]
assert p.breaks == want, (p.breaks, want)
assert p.ageing == len(want), (p.ageing, len(want))
dec = sorted(l["id"] for l in lines if l["type"] == "reconcile" and l["decision"])
assert sorted(p.decided) == dec, (p.decided, dec)
# no markup from the files or a note: only the page's own elements
assert set(p.tags) <= {"html", "head", "meta", "title", "style", "body", "h1", "h2", "span",
                       "p", "table", "tbody", "tr", "th", "td"}, set(p.tags)
text = "".join(p.text)
assert evil in text, "the hostile account is not shown as text"
print("page ok: %d breaks, %d decided" % (len(want), len(dec)))
PY
done
grep -q "&lt;script&gt;alert(&#39;note&#39;)&lt;/script&gt; &amp; fee" "$TMP/r2.html" ||
	fail "the note escaped: $(grep -o 'alert[^<]*' "$TMP/r2.html" | head -3)"
echo ok
