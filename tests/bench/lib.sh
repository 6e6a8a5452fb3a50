# shellcheck shell=sh
# tests/bench/lib.sh - sourced by run.sh and distributed.sh: what both do
# to time a command.  Needs CL_TOOLS (tests/tools/stopwatch).

# timed M OUT ERR CMD...: one run of CMD, stdout to OUT and stderr to ERR,
# its wall time in seconds and peak RSS in kB in file M as "SECONDS KB RC"
# (tests/tools/stopwatch: timed inside one exec, not by date(1) around
# /usr/bin/time, which added about 20 ms to every figure); "0 0 RC" when
# the command could not be timed.  Returns CMD's exit status.
timed() {
	_tm=$1 _to=$2 _te=$3
	shift 3
	"$CL_TOOLS/stopwatch" "$_tm" "$@" >"$_to" 2>"$_te"
	_trc=$?
	[ -s "$_tm" ] || echo "0 0 $_trc" >"$_tm"
	return $_trc
}

# best_of_runs K M RUN NAME CMD...: RUN NAME CMD... K times, each leaving
# "SECONDS KB RC" in file M; then M holds the fastest time and the largest
# peak RSS ("SECONDS KB 0").  At the first run that fails it returns 1, M
# the failed run's.
best_of_runs() {
	_bk=$1 _bm=$2 _brun=$3
	shift 3
	_best="" _maxkb=0 _bi=0
	while [ "$_bi" -lt "$_bk" ]; do
		"$_brun" "$@" || return 1
		read -r _bs _bkb _brc <"$_bm"
		if [ -z "$_best" ] || awk -v a="$_bs" -v b="$_best" 'BEGIN{exit !(a<b)}'; then _best=$_bs; fi
		[ "$_bkb" -gt "$_maxkb" ] && _maxkb=$_bkb
		_bi=$((_bi + 1))
	done
	echo "$_best $_maxkb 0" >"$_bm"
}
