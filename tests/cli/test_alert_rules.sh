# contrib/clearing-load.rules.yml: Prometheus alerting rules that promtool
# accepts (where promtool exists; else the YAML's shape is checked with
# python3), on metrics that ingest writes and clearing-load(1) documents,
# and installed by `make install`.
. "$(dirname "$0")/lib.sh"
R="$CL_ROOT/contrib/clearing-load.rules.yml"
[ -s "$R" ] || fail "contrib/clearing-load.rules.yml missing"
if command -v promtool >/dev/null 2>&1; then
	promtool check rules "$R" >"$TMP/check" 2>&1 || fail "promtool check rules: $(cat "$TMP/check")"
	grep -q 'SUCCESS: [1-9][0-9]* rules found' "$TMP/check" || fail "promtool: $(cat "$TMP/check")"
elif ! python3 -c 'import yaml' 2>/dev/null; then
	echo "note: neither promtool (Debian package prometheus) nor python3-yaml here: not checked"
else
	echo "note: no promtool here (Debian package prometheus); the YAML's shape is checked"
	python3 - "$R" <<'PY' || fail "the rules file's shape"
import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
n = 0
for g in d["groups"]:
    assert isinstance(g["name"], str) and g["rules"], g
    for r in g["rules"]:
        assert set(r) <= {"alert", "expr", "for", "labels", "annotations"}, r
        assert r["alert"] and r["expr"], r
        n += 1
assert n > 0
PY
fi

# every metric the rules name is one ingest writes and the man page names
grep -o 'clearing_load_[a-z_]*' "$R" | sort -u >"$TMP/used"
[ -s "$TMP/used" ] || fail "no metric in the rules"
man=$(sed 's/\\//g' "$CL_ROOT/man/clearing-load.1")
while read -r m; do
	base=${m%_oldest_age_seconds}
	printf '%s\n' "$man" | grep -q "$base" || fail "$m (rules) is not in clearing-load(1)"
	grep -rq "\"$(echo "$base" | sed 's/^clearing_load_ingest_//; s/^clearing_load_backlog_//')" \
		"$CL_ROOT/cmd/ingest_report.c" "$CL_ROOT/loader/backlog.c" || fail "$m (rules) is not written by ingest"
done <"$TMP/used"

# make install places it beside the cron example
if command -v make >/dev/null 2>&1; then
	D="$TMP/root"
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -C "$CL_ROOT" -s -o "$CL_BIN" \
		install BIN="$CL_BIN" B="$TMP/b" DESTDIR="$D" PREFIX=/usr >"$TMP/i.out" 2>&1 ||
		fail "make install: $(tail -n 5 "$TMP/i.out")"
	cmp -s "$R" "$D/usr/share/doc/clearing-load/clearing-load.rules.yml" ||
		fail "make install did not place the rules: $(cd "$D" && find . -name '*.yml')"
fi
echo ok
