#!/bin/sh
# make-deb.sh ROOT VERSION OUT - turn ROOT (a `make install DESTDIR=ROOT
# PREFIX=/usr` tree) into the Debian package OUT with dpkg-deb alone (no
# debhelper): man pages and the changelog compressed, the copyright, the
# control file with Depends read from the program's shared libraries
# (objdump -p NEEDED -> the file the loader finds -> dpkg -S), and a
# postinst that creates the user clearing-load (systemd-sysusers).
# Run by `make deb`.
set -eu
ROOT=${1:?usage: make-deb.sh ROOT VERSION OUT}
VERSION=${2:?}
OUT=${3:?}
export LC_ALL=C
BIN="$ROOT/usr/bin/clearing-load"
[ -x "$BIN" ] || { echo "make-deb.sh: no $BIN (make install DESTDIR=$ROOT PREFIX=/usr)" >&2; exit 1; }
DOC="$ROOT/usr/share/doc/clearing-load"

# Debian's layout: man pages and changelog compressed (-n: no time stamp,
# the same bytes each build), the licence as copyright
find "$ROOT/usr/share/man" -type f ! -name '*.gz' -exec gzip -9nf {} +
[ -f "$DOC/CHANGELOG.md" ] && gzip -9nc "$DOC/CHANGELOG.md" >"$DOC/changelog.gz" && rm "$DOC/CHANGELOG.md"
[ -f "$DOC/LICENSE" ] && mv "$DOC/LICENSE" "$DOC/copyright"

# Depends: the package of each library the program needs
deps=""
for lib in $(objdump -p "$BIN" | awk '$1 == "NEEDED" { print $2 }'); do
	path=$(ldconfig -p | awk -v l="$lib" '$1 == l && /x86-64|aarch64|64bit/ { print $NF; exit }')
	[ -n "$path" ] || path=$(ldconfig -p | awk -v l="$lib" '$1 == l { print $NF; exit }')
	[ -n "$path" ] || { echo "make-deb.sh: $lib not found by ldconfig" >&2; exit 1; }
	real=$(readlink -f "$path")
	pkg=$(dpkg -S "$real" 2>/dev/null || dpkg -S "$path" 2>/dev/null) ||
		{ echo "make-deb.sh: no package holds $path" >&2; exit 1; }
	pkg=${pkg%%:*}
	case " $deps " in *" $pkg "*) ;; *) deps="$deps $pkg" ;; esac
done
depends=$(echo $deps | sed 's/ /, /g')

mkdir -p "$ROOT/DEBIAN"
size=$(du -sk --exclude=DEBIAN "$ROOT" | cut -f1)
cat >"$ROOT/DEBIAN/control" <<CONTROL
Package: clearing-load
Version: $VERSION
Architecture: $(dpkg --print-architecture)
Maintainer: clearing-load maintainers <payments-ops@example.com>
Installed-Size: $size
Depends: $depends
Recommends: postgresql-client
Section: misc
Priority: optional
Homepage: https://example.com/clearing-load
Description: load NACHA ACH and ISO 20022 clearing files into PostgreSQL
 clearing-load ingests clearing files (NACHA ACH; ISO 20022 pain.001,
 pacs.008/009/004) and the bank's answers (camt.052/053/054, BAI2, pacs.002)
 into PostgreSQL, applies each record exactly once against a unique index
 and reconciles.  With man pages, systemd units for an inbox
 (clearing-load-ingest@.timer), a sysusers.d file, bash completion and a
 cron example in /usr/share/doc/clearing-load.
CONTROL
# the user the units run as; DPKG_ROOT: dpkg --root with
# --force-script-chrootless installs into another tree
cat >"$ROOT/DEBIAN/postinst" <<'POSTINST'
#!/bin/sh
set -e
if [ "$1" = configure ]; then
	if command -v systemd-sysusers >/dev/null 2>&1; then
		systemd-sysusers ${DPKG_ROOT:+--root="$DPKG_ROOT"} clearing-load.conf
	fi
	if [ -z "${DPKG_ROOT:-}" ] && [ -d /run/systemd/system ]; then
		systemctl daemon-reload || true
	fi
fi
POSTINST
cat >"$ROOT/DEBIAN/postrm" <<'POSTRM'
#!/bin/sh
set -e
if [ -z "${DPKG_ROOT:-}" ] && [ -d /run/systemd/system ]; then
	systemctl daemon-reload || true
fi
POSTRM
chmod 755 "$ROOT/DEBIAN/postinst" "$ROOT/DEBIAN/postrm"
dpkg-deb --root-owner-group -Zxz --build "$ROOT" "$OUT" >/dev/null
echo "$OUT"
