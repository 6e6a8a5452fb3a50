#!/bin/sh
# diff writes nothing, so it runs where nothing can be written: on a real
# streaming replica of the test server (pg_basebackup -R with a replication
# slot, its own data directory, socket and port under a temporary
# directory), as a role that may only SELECT, and in a transaction that
# is read-only by default.  Its output there is byte for byte the primary's
# (the timing aside): duplicates, conflicts, near duplicates, alternate
# keys, several batches, and a file the whole-file checks reject.
#
# The server must accept replication connections from this machine
# (wal_level replica, max_wal_senders, a `replication` line in pg_hba.conf:
# tests/db/run.sh creates its server so).  Skipped, with the reason, only
# when the server cannot be replicated here: not on this machine, no
# superuser or replication role, no server binaries of its version.
. "$(dirname "$0")/lib.sh"
: "${CL_TOOLS:?}"

skip() {
	echo "skipped: $*"
	exit 0
}
case "${PGHOST:-/}" in
/* | localhost | 127.0.0.1 | ::1) ;;
*) skip "the server ($PGHOST) is not on this machine: no replica can be started next to it" ;;
esac
[ "$(q "select rolsuper or rolreplication from pg_roles where rolname = current_user")" = t ] ||
	skip "role $(q "select current_user") may not replicate (neither superuser nor REPLICATION)"
major=$(($(q "show server_version_num") / 10000))
BINDIR=/usr/lib/postgresql/$major/bin
[ -x "$BINDIR/postgres" ] || BINDIR=$(pg_config --bindir 2>/dev/null || echo /nonexistent)
[ -x "$BINDIR/postgres" ] && [ "$("$BINDIR/postgres" -V | sed 's/[^0-9]*\([0-9]*\).*/\1/')" = "$major" ] ||
	skip "no PostgreSQL $major server binaries on this machine"
[ "$(q "show wal_level")" != minimal ] || fail "the server has wal_level = minimal: no replica possible (set wal_level = replica)"
[ "$(q "show max_wal_senders")" -gt 0 ] || fail "the server has max_wal_senders = 0 (set it to 10)"

# the replica: its directory is the server's OS user's when run as root
# (PostgreSQL refuses to run as root), so it is under /tmp, not in $TMP,
# which that user cannot enter; one of this name is a dead run's (no living
# process has our pid)
S=/tmp/cl_standby_$$
rm -rf "$S"
mkdir -m 700 "$S" || fail "cannot make $S"
SPORT=$((20000 + $$ % 20000))
SLOT="cl_standby_$$"
RO="cl_diff_reader_$$"
as_owner() { "$@"; }
if [ "$(id -u)" = 0 ]; then
	owner=$(stat -c %U "$(q "show data_directory")" 2>/dev/null || echo postgres)
	[ "$owner" != root ] || owner=postgres
	as_owner() { runuser -u "$owner" -- "$@"; }
fi
_standby_cleanup() {
	if [ -f "$S/data/postmaster.pid" ]; then
		as_owner "$BINDIR/pg_ctl" -D "$S/data" -m immediate stop >/dev/null 2>&1 || true
	fi
	psql -XAtq -d postgres -c "select pg_drop_replication_slot(slot_name) from pg_replication_slots
		where slot_name = '$SLOT'" >/dev/null 2>&1 || true
	rm -rf "$S"
	_db_cleanup
	psql -XAtq -d postgres -c "drop role if exists $RO" >/dev/null 2>&1 || true
}
trap _standby_cleanup EXIT

db_new
cl init >/dev/null
# a role that may read the tables and nothing else (no TEMPORARY either)
q "create role $RO login;
   revoke temporary on database $PGDATABASE from public;
   grant connect on database $PGDATABASE to $RO;
   grant usage on schema public to $RO;
   grant select on all tables in schema public to $RO" >/dev/null

# ---- the history, loaded on the primary ----
"$CL_TOOLS/gen_ach" -n 5000 --skip-every 10 >"$TMP/a.ach"
"$CL_TOOLS/gen_ach" -n 5000 --bump-amount-every 7 >"$TMP/b.ach"
"$CL_TOOLS/gen_ach" -n 40 -e 260302 >"$TMP/mon.ach"
"$CL_TOOLS/gen_ach" -n 40 -e 260303 >"$TMP/tue.ach"
"$CL_TOOLS/gen_iso" --type pacs.008 --tx 3 --msg-version 02 >"$TMP/v02.xml"
"$CL_TOOLS/gen_iso" --type pacs.008 --tx 3 --msg-version 08 >"$TMP/v08.xml"
"$CL_TOOLS/gen_iso" --type pain.001 --tx 200 >"$TMP/p.xml"
# one payment in both forms in one file: the whole-file check rejects it
{
	sed '/<\/FIToFICstmrCdtTrf>/,$d' "$TMP/v08.xml"
	sed -n '/<CdtTrfTxInf>/,/<\/CdtTrfTxInf>/p' "$TMP/v02.xml" | sed -n '1,/<\/CdtTrfTxInf>/p'
	sed -n '/<\/FIToFICstmrCdtTrf>/,$p' "$TMP/v08.xml"
} >"$TMP/both.xml"
sed -i -e "s|<NbOfTxs>3</NbOfTxs>|<NbOfTxs>4</NbOfTxs>|" -e "/<CtrlSum>/d" -e "/<TtlIntrBkSttlmAmt/d" "$TMP/both.xml"
cl load "$TMP/a.ach" >/dev/null
cl load --tenant near "$TMP/mon.ach" >/dev/null
cl load --tenant alt "$TMP/v02.xml" >/dev/null
cl load --tenant iso "$TMP/p.xml" >/dev/null
cl load --tenant batch --ach-key=batch "$TMP/a.ach" >/dev/null

# the cases: TENANT FILE [OPTIONS]
cases="default:b.ach near:tue.ach alt:v08.xml iso:p.xml both:both.xml batch:b.ach default:b.ach:--ach-key=batch"
# diffs LABEL: every case's diff with the connection as it is, into $TMP/LABEL.*
diffs() {
	_n=0
	for c in $cases; do
		_n=$((_n + 1))
		_t=${c%%:*} _rest=${c#*:}
		_f=${_rest%%:*} _o=
		[ "$_f" = "$_rest" ] || _o=${_rest#*:}
		set +e
		# shellcheck disable=SC2086 # the options, one word
		"$CL_BIN" diff --format json --tenant "$_t" $_o "$TMP/$_f" >"$TMP/$1.$_n" 2>"$TMP/$1.$_n.err"
		echo "exit $?" >>"$TMP/$1.$_n"
		set -e
		# the only differences allowed: the time it took, and the UUID a
		# rejected file's report names (a new one each run)
		sed -i -e 's/"seconds":[0-9.]*,//' -e 's/"load_uuid":"[-0-9a-f]*"//' "$TMP/$1.$_n"
	done
}
# same LABEL: LABEL's diffs are the primary's, byte for byte
same() {
	_n=0
	for c in $cases; do
		_n=$((_n + 1))
		cmp -s "$TMP/primary.$_n" "$TMP/$1.$_n" ||
			fail "$1: diff of $c differs from the primary's: $(diff "$TMP/primary.$_n" "$TMP/$1.$_n" | head -n 5) $(cat "$TMP/$1.$_n.err")"
		cmp -s "$TMP/primary.$_n.err" "$TMP/$1.$_n.err" ||
			fail "$1: diff of $c says other things on stderr: $(diff "$TMP/primary.$_n.err" "$TMP/$1.$_n.err" | head -n 5)"
	done
}

events=$(q "select count(*) from clearing_dedupe_event")
loads=$(q "select count(*) from clearing_load")
diffs primary
# what the primary's diffs say (so that "the same" means something)
assert_eq "$(tail -n 1 "$TMP/primary.1")" "exit 4" "b.ach: conflicts"
assert_eq "$(grep -c '"action":"duplicate"' "$TMP/primary.1")" 3857 "b.ach: duplicates over three batches"
assert_eq "$(grep -c '"action":"conflict"' "$TMP/primary.1")" 643 "b.ach: conflicts"
assert_eq "$(grep -c '"action":"new"' "$TMP/primary.1")" 500 "b.ach: new"
grep '"action":"conflict"' "$TMP/primary.1" | grep -q '"fields":\["amount_minor"\]' || fail "b.ach: the conflicts' field"
assert_eq "$(grep -c '"reason":"near_duplicate"' "$TMP/primary.2")" 40 "tue.ach: near duplicates"
grep -q '"matched_key":"1100000000|121042880000001|2026-03-02"' "$TMP/primary.2" || fail "tue.ach: the record it matched"
assert_eq "$(grep -c '"reason":"near_duplicate"' "$TMP/primary.3")" 3 "v08.xml: alternate keys"
assert_eq "$(grep -c '"action":"duplicate"' "$TMP/primary.4")" 200 "p.xml: duplicates"
assert_eq "$(tail -n 1 "$TMP/primary.5")" "exit 3" "both.xml: rejected"
grep -q 'one payment appears under 2 payment identities in this file' "$TMP/primary.5.err" ||
	fail "both.xml: the in-file check: $(cat "$TMP/primary.5.err")"
assert_eq "$(grep -c '"reason":"near_duplicate"' "$TMP/primary.6")" 4500 "b.ach against v1-batch records: the other key rule"
assert_eq "$(grep -c '"reason":"near_duplicate"' "$TMP/primary.7")" 4500 "b.ach under --ach-key=batch: the other key rule"
assert_eq "$(q "select count(*) from clearing_dedupe_event")" "$events" "diff wrote no journal rows"
assert_eq "$(q "select count(*) from clearing_load")" "$loads" "diff wrote no load rows"

# ---- on the primary: a SELECT-only role, a read-only transaction ----
(export PGOPTIONS="-c role=$RO" && diffs select_only)
same select_only
(export PGOPTIONS="-c default_transaction_read_only=on" && diffs read_only)
same read_only

# ---- the replica ----
pg_basebackup -D "$S/base" -R -X stream -C -S "$SLOT" -c fast >"$TMP/basebackup.log" 2>&1 ||
	fail "pg_basebackup: $(cat "$TMP/basebackup.log")"
# the replica's configuration, last in postgresql.auto.conf so that it wins
: >"$S/base/postgresql.conf"
printf '%s\n' "local all all trust" "local replication all trust" >"$S/base/pg_hba.conf"
: >"$S/base/pg_ident.conf"
{
	echo "port = $SPORT"
	echo "listen_addresses = ''"
	echo "unix_socket_directories = '$S'"
	echo "hot_standby = on"
	echo "shared_buffers = '16MB'"
	echo "logging_collector = off"
	echo "timezone = '$(q "show timezone")'"
	for g in max_connections max_worker_processes max_wal_senders max_prepared_transactions \
		max_locks_per_transaction; do
		echo "$g = $(q "show $g")"
	done
	case "$PGHOST" in
	/*) # over the socket, peer authentication: the replica's own user
		echo "primary_conninfo = 'host=$PGHOST port=${PGPORT:-5432} user=${owner:-$(q "select current_user")} application_name=$SLOT'" ;;
	esac
} >>"$S/base/postgresql.auto.conf"
mv "$S/base" "$S/data"
[ "$(id -u)" != 0 ] || chown -R "$owner" "$S"
chmod 700 "$S/data"
as_owner "$BINDIR/pg_ctl" -D "$S/data" -l "$S/log" -w -t 120 start >/dev/null 2>&1 ||
	fail "the replica did not start: $(tail -n 20 "$S/log")"

# everything the primary has written, replayed: a bounded wait on the LSN
lsn=$(q "select pg_current_wal_lsn()")
standby() { (export PGHOST="$S" PGPORT="$SPORT" && "$@"); }
assert_eq "$(standby q "select pg_is_in_recovery()")" t "the replica is a standby"
i=0
until [ "$(standby q "select pg_last_wal_replay_lsn() >= '$lsn'::pg_lsn")" = t ]; do
	i=$((i + 1))
	[ "$i" -le 600 ] || fail "the replica did not replay to $lsn in 60 s: $(tail -n 5 "$S/log")"
	sleep 0.1
done
assert_eq "$(standby q "select count(*) from clearing_load")" "$loads" "the replica has the loads"

standby diffs standby
same standby
(export PGUSER="$RO" && standby diffs standby_select_only)
same standby_select_only
echo "ok: diff on a hot standby, as a SELECT-only role and read-only, says what it says on the primary"
