# Packaging as distributions do it: CPPFLAGS, CFLAGS and LDFLAGS from the
# environment reach every compile and the link (make -n: nothing is built),
# and `make install` with DESTDIR and PREFIX places the program, the man
# pages, the systemd units (naming the installed program) and the cron
# example, and nothing outside DESTDIR.
. "$(dirname "$0")/lib.sh"
command -v make >/dev/null 2>&1 || { echo "note: no make here"; echo ok; exit 0; }
# the make that runs this test passes its own flags and variables (-j,
# SANITIZE=1) down: this test's makes start clean
# (mk [VAR=VALUE]... ARG...: VAR=VALUE in make's environment)
mk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u CPPFLAGS -u CFLAGS -u LDFLAGS "$@"; }
M="make --no-print-directory -C $CL_ROOT"

mk CPPFLAGS=-DCL_PKG_CPP CFLAGS='-O1 -DCL_PKG_C' LDFLAGS=-Wl,-z,now $M -n -B clearing-load >"$TMP/n.out" 2>&1 ||
	fail "make -n: $(tail -n 5 "$TMP/n.out")"
grep -- ' -c ' "$TMP/n.out" >"$TMP/cc"
[ "$(wc -l <"$TMP/cc")" -gt 10 ] || fail "make -n shows no compiles: $(head -n 5 "$TMP/n.out")"
if grep -v -- '-DCL_PKG_CPP' "$TMP/cc" | grep -q .; then fail "a compile without CPPFLAGS: $(grep -v -- -DCL_PKG_CPP "$TMP/cc" | head -n 1)"; fi
if grep -v -- '-O1 -DCL_PKG_C' "$TMP/cc" | grep -q .; then fail "a compile without CFLAGS: $(grep -v -- '-O1 -DCL_PKG_C' "$TMP/cc" | head -n 1)"; fi
if grep -q -- ' -O2 ' "$TMP/cc"; then fail "the default -O2 beside the environment's CFLAGS"; fi
grep -- '-o clearing-load ' "$TMP/n.out" | grep -q -- '-Wl,-z,now' || fail "the link without LDFLAGS: $(grep -- '-o clearing-load ' "$TMP/n.out")"

# install the program this test runs (-o: never rebuilt here; B: a build
# directory of its own, CI runs two cli suites side by side)
R="$TMP/root"
mk $M -s -o "$CL_BIN" install BIN="$CL_BIN" B="$TMP/b" DESTDIR="$R" PREFIX=/usr >"$TMP/i.out" 2>&1 ||
	fail "make install: $(tail -n 5 "$TMP/i.out")"
for f in usr/bin/clearing-load usr/share/man/man1/clearing-load.1 usr/share/man/man7/clearing-load-keys.7 \
	usr/lib/systemd/system/clearing-load-ingest@.service usr/lib/systemd/system/clearing-load-ingest@.timer \
	usr/share/doc/clearing-load/clearing-load.cron usr/share/doc/clearing-load/LICENSE \
	usr/lib/sysusers.d/clearing-load.conf; do
	[ -s "$R/$f" ] || fail "make install did not place $f: $(cd "$R" && find . -type f)"
done
[ -x "$R/usr/bin/clearing-load" ] || fail "the installed program is not executable"
"$R/usr/bin/clearing-load" --version >/dev/null || fail "the installed program does not run"
grep -q '^ExecStart=/usr/bin/clearing-load ingest ' "$R/usr/lib/systemd/system/clearing-load-ingest@.service" ||
	fail "the unit does not name the installed program: $(grep ExecStart "$R/usr/lib/systemd/system/clearing-load-ingest@.service")"
grep -q ' /usr/bin/clearing-load ingest ' "$R/usr/share/doc/clearing-load/clearing-load.cron" ||
	fail "the cron line does not name the installed program"
if grep -q /usr/local "$R"/usr/lib/systemd/system/* "$R/usr/share/doc/clearing-load/clearing-load.cron"; then
	fail "/usr/local left in a unit or the cron line"
fi
mk $M -s uninstall DESTDIR="$R" PREFIX=/usr >/dev/null 2>&1 || fail "make uninstall"
[ -z "$(find "$R" -type f)" ] || fail "make uninstall left: $(find "$R" -type f)"
echo ok
