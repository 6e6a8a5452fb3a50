#!/bin/sh
# tests/fuzz/run.sh [SECONDS] - build the libFuzzer harnesses with clang
# (-fsanitize=fuzzer,address,undefined, straight from parsers/*.c, not the gcc
# build tree) and run each for SECONDS (default 60; `make fuzz FUZZ_SECONDS=30`).
#
# Before fuzzing, every harness replays testdata/fuzz-regressions/ (a finding
# that comes back fails at once).  Seeds: tests/fuzz/seeds/, testdata/, and the
# shared corpus (CL_SHARED_CORPUS, default ../shared/corpus next to the
# checkout or /work/shared/corpus) when present.  The growing corpus of each
# harness is kept under tests/out/fuzz/corpus/ between runs; crashes, hangs
# and leaks are saved under tests/out/fuzz/crashes/<harness>/ and make the
# script exit 1.  Total time is about 6 x SECONDS plus the build.
#
# Environment: FUZZ_HARNESSES (default "ach iso20022 csv input parser statement"),
# FUZZ_CC (default clang), FUZZ_JOBS (parallel libFuzzer workers per
# harness, default 1), FUZZ_FLAGS (extra libFuzzer flags), FUZZ_SKIP (checks
# to switch off; default: those of tests/fuzz/open-findings, none with
# FUZZ_STRICT=1), FUZZ_SCHEMA=FILE.xsd (parse as validate --schema does),
# FUZZ_TRACE=1 (print every record and error when replaying
# one input: tests/out/fuzz/build/fuzz_ach FILE).
set -eu
LC_ALL=C
export LC_ALL

secs=${1:-}
[ -n "$secs" ] || secs=60
case $secs in
*[!0-9]*) echo "run.sh: SECONDS must be a number, got '$secs'" >&2; exit 2 ;;
esac

root=$(cd "$(dirname "$0")/../.." && pwd)
out=$root/tests/out/fuzz
build=$out/build
cc=${FUZZ_CC:-clang}
harnesses=${FUZZ_HARNESSES:-"ach iso20022 csv input parser statement"}
jobs=${FUZZ_JOBS:-1}
par=
[ "$jobs" -gt 1 ] && par="-jobs=$jobs -workers=$jobs"

if ! command -v "$cc" >/dev/null 2>&1; then
	echo "run.sh: $cc not found (apt-get install clang)" >&2
	exit 1
fi

# checks that fire on reported, still open findings (tests/fuzz/open-findings)
if [ -z "${FUZZ_STRICT:-}" ] && [ -z "${FUZZ_SKIP+set}" ]; then
	FUZZ_SKIP=$(sed 's/#.*//' "$root/tests/fuzz/open-findings" | tr -s ' \t\n' ',' |
		sed 's/^,//; s/,$//')
	export FUZZ_SKIP
	[ -z "$FUZZ_SKIP" ] || echo "fuzz: open findings, checks skipped: $FUZZ_SKIP"
fi

mkdir -p "$build" "$out/corpus" "$out/crashes"
# keep generated files out of git without touching the shared .gitignore
[ -f "$root/tests/out/.gitignore" ] || printf '*\n' >"$root/tests/out/.gitignore"

pkgs="libxml-2.0 zlib libcrypto"
pkg_cflags=$(pkg-config --cflags $pkgs)
pkg_libs="$(pkg-config --libs $pkgs) -lcsv" # libcsv has no pkg-config file
san="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
cflags="-std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -g -O1 $san
	-Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wvla
	-I$root $pkg_cflags"

# ---- build: the library once, then one binary per harness ----
echo "fuzz: building with $($cc --version | head -1)"
objs=
for src in "$root"/base/*.c "$root"/parsers/*.c "$root"/rules/*.c; do
	obj=$build/$(basename "$src" .c).o
	$cc $cflags -fsanitize=fuzzer-no-link -c -o "$obj" "$src"
	objs="$objs $obj"
done
$cc $cflags -Werror -fsanitize=fuzzer-no-link -c -o "$build/fuzz_common.o" \
	"$root/tests/fuzz/fuzz_common.c"
for h in $harnesses; do
	$cc $cflags -Werror -fsanitize=fuzzer -o "$build/fuzz_$h" \
		"$root/tests/fuzz/fuzz_$h.c" "$build/fuzz_common.o" $objs $pkg_libs
done

# ---- seeds ----
shared=${CL_SHARED_CORPUS:-}
if [ -z "$shared" ]; then
	for d in "$root/../shared/corpus" /work/shared/corpus; do
		if [ -d "$d" ]; then shared=$d; break; fi
	done
fi
seeds_for() { # harness -> seed directories that exist
	s=$root/tests/fuzz/seeds
	case $1 in
	ach) set -- "$s/ach" "$root/testdata" "${shared:+$shared/ach}" ;;
	iso20022) set -- "$s/xml" "$root/testdata" "${shared:+$shared/iso20022}" ;;
	csv) set -- "$s/csv" ;;
	statement) set -- "$s/bai2" "$s/mt940" "$root/testdata/statements" "${shared:+$shared/iso20022}" ;;
	*) set -- "$s/ach" "$s/xml" "$s/gz" "$s/csv" "$root/testdata" "$shared" ;;
	esac
	for d in "$@"; do
		[ -n "$d" ] && [ -d "$d" ] && printf '%s\n' "$d"
	done
}
dict_for() {
	case $1 in
	ach) echo "-dict=$root/tests/fuzz/ach.dict" ;;
	iso20022) echo "-dict=$root/tests/fuzz/xml.dict" ;;
	csv) echo "-dict=$root/tests/fuzz/csv.dict" ;;
	statement) echo "-dict=$root/tests/fuzz/statement.dict" ;;
	*) echo "" ;;
	esac
}

max_len_for() { # small inputs run faster and find the same bugs; gzip
	# inputs decode to up to 250 times their size
	case $1 in
	ach) echo 8192 ;;
	*) echo 16384 ;;
	esac
}

# ---- replay the regressions, then fuzz ----
cd "$out" # -jobs writes fuzz-N.log into the working directory
fail=0
regress=$root/testdata/fuzz-regressions
for h in $harnesses; do
	bin=$build/fuzz_$h
	art=$out/crashes/$h
	mkdir -p "$art" "$out/corpus/$h"
	if [ -d "$regress" ] && [ -n "$(ls -A "$regress" 2>/dev/null)" ]; then
		if ! "$bin" -rss_limit_mb=2048 -timeout=20 "$regress"/* >"$out/$h.regress.log" 2>&1
		then
			echo "fuzz: $h: a regression input fails again (see $out/$h.regress.log)" >&2
			fail=1
			continue
		fi
	fi
	start=$(date +%s)
	touch "$out/.start-$h"
	# shellcheck disable=SC2046 # word splitting of the seed list is intended
	set +e
	"$bin" -max_total_time="$secs" -rss_limit_mb=2048 -timeout=20 -max_len="$(max_len_for "$h")" \
		-artifact_prefix="$art/" -print_final_stats=1 $par \
		$(dict_for "$h") ${FUZZ_FLAGS:-} "$out/corpus/$h" $(seeds_for "$h") \
		>"$out/$h.log" 2>&1
	rc=$?
	set -e
	if [ "$jobs" -gt 1 ]; then
		cat fuzz-*.log >>"$out/$h.log" 2>/dev/null || true
		rm -f fuzz-*.log
	fi
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/$h.log" |
		awk '{ s += $1 } END { print s + 0 }')
	cov=$(grep -o 'cov: [0-9]*' "$out/$h.log" | tail -1 | cut -d' ' -f2)
	found=$(find "$art" -type f -newer "$out/.start-$h" | wc -l)
	printf 'fuzz: %-9s %5ss  %9s execs  cov %-6s crashes %s  exit %s\n' "$h" \
		"$(($(date +%s) - start))" "$execs" "${cov:-?}" "$found" "$rc"
	if [ "$rc" -ne 0 ] || [ "$found" -gt 0 ]; then
		echo "fuzz: $h: FAILED - inputs in $art, log $out/$h.log" >&2
		grep -E 'ERROR: |invariant broken|SUMMARY' "$out/$h.log" | head -5 >&2 || true
		fail=1
	fi
done
exit $fail
