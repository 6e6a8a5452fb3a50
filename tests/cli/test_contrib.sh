# contrib/: the systemd units pass systemd-analyze verify without a warning
# (where systemd-analyze exists), and every option the units and the cron
# line give is one `clearing-load ingest` takes.
. "$(dirname "$0")/lib.sh"
C="$CL_ROOT/contrib"
for f in clearing-load-ingest@.service clearing-load-ingest@.timer clearing-load.cron clearing-load.sysusers; do
	[ -s "$C/$f" ] || fail "contrib/$f missing"
done

if command -v systemd-analyze >/dev/null 2>&1; then
	# an instance of each template, the program path pointing at our binary
	sed "s|/usr/local/bin/clearing-load|$CL_BIN|" "$C/clearing-load-ingest@.service" \
		>"$TMP/clearing-load-ingest@bank1.service"
	cp "$C/clearing-load-ingest@.timer" "$TMP/clearing-load-ingest@bank1.timer"
	(cd "$TMP" && systemd-analyze verify --man=no ./clearing-load-ingest@bank1.service \
		./clearing-load-ingest@bank1.timer) >"$TMP/verify.out" 2>&1 ||
		fail "systemd-analyze verify: $(cat "$TMP/verify.out")"
	[ ! -s "$TMP/verify.out" ] || fail "systemd-analyze verify warns: $(cat "$TMP/verify.out")"
	# the sandbox: exposure 3.0 or less ("OK"; the unit without it was 8.6,
	# "EXPOSED"); --offline (systemd 252) rates the file, not a loaded unit
	(cd "$TMP" && systemd-analyze security --offline=yes --no-pager \
		./clearing-load-ingest@bank1.service) >"$TMP/security.out" 2>&1 ||
		fail "systemd-analyze security: $(tail -n 3 "$TMP/security.out")"
	score=$(sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\) .*/\1/p' "$TMP/security.out")
	[ -n "$score" ] || fail "no exposure level: $(tail -n 3 "$TMP/security.out")"
	awk -v s="$score" 'BEGIN { exit !(s <= 3.0) }' ||
		fail "the service's exposure is $score, more than 3.0: $(cat "$TMP/security.out")"
	# writable: the instance's inbox and archive, the metrics directory
	for d in /srv/clearing-load/%i /var/lib/prometheus/node-exporter; do
		grep -q "^ReadWritePaths=-$d$" "$C/clearing-load-ingest@.service" ||
			fail "the service cannot write $d"
	done
	for d in CL_INBOX CL_ARCHIVE; do
		sed -n "s/^Environment=$d=//p" "$C/clearing-load-ingest@.service" |
			grep -q '^/srv/clearing-load/%i/' || fail "$d is not under /srv/clearing-load/%i"
	done
	sed -n 's/^Environment=CL_METRICS=//p' "$C/clearing-load-ingest@.service" |
		grep -q '^/var/lib/prometheus/node-exporter/' || fail "CL_METRICS is not in the metrics directory"
else
	echo "note: no systemd-analyze here; the option check below still runs"
fi

# the options of ExecStart and of the cron command are ingest's
run ingest --help
expect_status 0
cp "$TMP/stdout" "$TMP/help"
{ sed -n 's/^ExecStart=//p' "$C/clearing-load-ingest@.service"
  grep -v '^#' "$C/clearing-load.cron" | grep 'clearing-load ingest'; } |
	grep -o -- '--[a-z][a-z-]*' | sort -u >"$TMP/used"
[ -s "$TMP/used" ] || fail "no option found in the units and the cron line"
while read -r opt; do
	grep -q -- "$opt[= ]" "$TMP/help" || fail "$opt (contrib) is not an ingest option"
done <"$TMP/used"

# the cron line: five time fields, a user, the command
grep -v '^#' "$C/clearing-load.cron" | grep 'clearing-load ingest' |
	awk 'NF < 8 || $6 !~ /^[a-z_][a-z0-9_-]*$/ || $7 !~ /^\// { bad = 1 } END { exit bad }' ||
	fail "the cron line is not: m h dom mon dow user command"

# the user the service and the cron line run as is one the sysusers.d file
# creates (a fresh system has no such user: the unit would fail with
# 217/USER), and systemd-sysusers reads that file
svc_user=$(sed -n 's/^User=//p' "$C/clearing-load-ingest@.service")
cron_user=$(grep -v '^#' "$C/clearing-load.cron" | awk '/clearing-load ingest/ { print $6 }')
sys_user=$(awk '$1 == "u" { print $2 }' "$C/clearing-load.sysusers")
[ -n "$svc_user" ] && [ "$svc_user" = "$sys_user" ] && [ "$cron_user" = "$sys_user" ] ||
	fail "users: service $svc_user, cron $cron_user, sysusers.d $sys_user"
if command -v systemd-sysusers >/dev/null 2>&1; then
	systemd-sysusers --dry-run --root="$TMP/sysroot" "$C/clearing-load.sysusers" >"$TMP/su.out" 2>&1 ||
		fail "systemd-sysusers: $(cat "$TMP/su.out")"
	grep -q "$sys_user" "$TMP/su.out" || fail "systemd-sysusers would not create $sys_user: $(cat "$TMP/su.out")"
fi
echo ok
