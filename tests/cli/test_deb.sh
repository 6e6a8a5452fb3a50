# make deb: a Debian package built with dpkg-deb (contrib/make-deb.sh) that
# holds the program, its man pages, the systemd units, the sysusers.d file,
# the bash completion, the cron example and the changelog; whose Depends
# are the packages of the program's shared libraries and are installed
# here; that dpkg installs (under a temporary root that knows this
# machine's installed packages, so no dependency is forced), whose
# postinst creates the user the units run as, whose program runs, and that
# dpkg removes whole.
. "$(dirname "$0")/lib.sh"
for t in make dpkg dpkg-deb objdump; do
	command -v $t >/dev/null 2>&1 || { echo "note: no $t here"; echo ok; exit 0; }
done
mk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u CPPFLAGS -u CFLAGS -u LDFLAGS "$@"; }
# the program this test runs, packaged (-o: never rebuilt here), in a
# build directory of its own (B: CI runs two cli suites side by side)
mk make --no-print-directory -s -C "$CL_ROOT" -o "$CL_BIN" deb BIN="$CL_BIN" B="$TMP/b" DEB_OUT="$TMP" \
	>"$TMP/make.out" 2>&1 || fail "make deb: $(tail -n 5 "$TMP/make.out")"
version=$(sed -n 's/^#define CL_VERSION "\(.*\)"/\1/p' "$CL_ROOT/cmd/main.c")
deb="$TMP/clearing-load_${version}_$(dpkg --print-architecture).deb"
[ -s "$deb" ] || fail "no $deb: $(ls "$TMP")"

# the control file
dpkg-deb -f "$deb" Package Version Architecture >"$TMP/fields"
grep -qx "Package: clearing-load" "$TMP/fields" && grep -qx "Version: $version" "$TMP/fields" ||
	fail "control: $(cat "$TMP/fields")"
depends=$(dpkg-deb -f "$deb" Depends)
for p in libpq5 libxml2 libcsv3 zlib1g libssl3; do
	echo ", $depends," | grep -q ", $p," || fail "Depends lacks $p: $depends"
done
# ... each one a package installed here
for p in $(echo "$depends" | tr -d ','); do
	[ "$(dpkg-query -W -f '${Status}' "$p" 2>/dev/null)" = "install ok installed" ] ||
		fail "Depends names $p, which is not installed here"
done

# the files
dpkg-deb -c "$deb" | awk '{ print $6 }' >"$TMP/files"
for f in ./usr/bin/clearing-load ./usr/share/man/man1/clearing-load.1.gz \
	./usr/share/man/man7/clearing-load-keys.7.gz \
	./usr/lib/systemd/system/clearing-load-ingest@.service \
	./usr/lib/systemd/system/clearing-load-ingest@.timer ./usr/lib/sysusers.d/clearing-load.conf \
	./usr/share/bash-completion/completions/clearing-load \
	./usr/share/doc/clearing-load/clearing-load.cron ./usr/share/doc/clearing-load/changelog.gz \
	./usr/share/doc/clearing-load/copyright; do
	grep -qx -- "$f" "$TMP/files" || fail "the package lacks $f: $(cat "$TMP/files")"
done
if grep -v '^\./usr/' "$TMP/files" | grep -qv '^\./$'; then
	fail "files outside /usr: $(grep -v '^\./usr/' "$TMP/files")"
fi

# installed: a root whose dpkg database is this machine's (its packages
# installed, none of their files), so Depends are checked, not forced;
# the maintainer scripts run outside a chroot with DPKG_ROOT
R="$TMP/root"
mkdir -p "$R/var/lib/dpkg/info" "$R/var/lib/dpkg/updates" "$R/etc"
cp /var/lib/dpkg/status "$R/var/lib/dpkg/status"
: >"$R/var/lib/dpkg/available"
dpkg --root="$R" --force-script-chrootless --log=/dev/null -i "$deb" >"$TMP/dpkg.out" 2>&1 ||
	fail "dpkg -i: $(cat "$TMP/dpkg.out")"
[ "$(dpkg-query --root="$R" -W -f '${Status}' clearing-load)" = "install ok installed" ] ||
	fail "not installed: $(cat "$TMP/dpkg.out")"
"$R/usr/bin/clearing-load" --version >"$TMP/version" || fail "the installed program does not run"
grep -qx "clearing-load $version" "$TMP/version" || fail "--version: $(cat "$TMP/version")"
grep -q '^ExecStart=/usr/bin/clearing-load ingest ' "$R/usr/lib/systemd/system/clearing-load-ingest@.service" ||
	fail "the unit does not name /usr/bin/clearing-load"
zcat "$R/usr/share/man/man1/clearing-load.1.gz" | grep -q '^\.TH' || fail "man page not compressed roff"
zcat "$R/usr/share/doc/clearing-load/changelog.gz" | grep -q "^## $version" ||
	fail "the changelog has no entry for $version"
if command -v systemd-sysusers >/dev/null 2>&1; then
	grep -q '^clearing-load:' "$R/etc/passwd" || fail "postinst did not create the user clearing-load"
fi
dpkg --root="$R" --force-script-chrootless --log=/dev/null -r clearing-load >"$TMP/rm.out" 2>&1 ||
	fail "dpkg -r: $(cat "$TMP/rm.out")"
[ ! -e "$R/usr/bin/clearing-load" ] || fail "dpkg -r left the program"
echo ok
