#!/bin/sh
# Install the Debian packages clearing-load needs to build, test and demo,
# when they are missing.  Needs root (or sudo) only when something is missing.
set -eu
PKGS="gcc make pkg-config libpq-dev libxml2-dev libxml2-utils zlib1g-dev libssl-dev
libcsv-dev libcmocka-dev postgresql postgresql-common groff-base man-db clang
libclang-rt-14-dev time python3 python3-jsonschema strace chromium"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "deps: installing$missing" >&2
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
