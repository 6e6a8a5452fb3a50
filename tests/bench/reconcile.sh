# tests/bench/reconcile.sh - sourced by run.sh: reconcile a bank statement
# of RECON_N entries against RECON_HIST records of history, beside loading
# that statement (the issue's target: at most 2x its load, bounded memory).
#
#   history    RECON_HIST_WANT records: an ACH file of an earlier day
#              loaded, then copied in SQL (curve.sh's grow_to) to weeks
#              before it: the same trace numbers (ACH trace sequences
#              restart every day), so each entry's trace finds a record
#              in each copy and the nearest in date is taken
#   the day    RECON_N ACH entries of 4 originators, loaded
#   statement  a camt.053 of the day's entries as the bank books them, by
#              their traces (tests/db/stmt_gen.py): every 1000th entry left
#              out (unmatched ours), every 1000th + 500 a cent more
#              (exceptions), 10 entries of the bank's own (unmatched theirs)
#   load       clearing-load load of the statement (the baseline)
#   reconcile  clearing-load reconcile without files (the loaded statement
#              not yet reconciled) with --ach-company: the figure (a file
#              operand adds its load, all duplicate then)
#
# The answer is checked: the counts of each status must be the ones made.
# Needs run.sh's helpers (measure, fig, log, ...) and W, CL_BIN, CL_TOOLS.

recon_bench() {
	if [ -n "${BENCH_QUICK:-}" ]; then
		RECON_N=100000 RECON_HIST_WANT=1000000
	else
		RECON_N=1000000 RECON_HIST_WANT=10000000
	fi
	export PGDATABASE="cl_bench_reconcile_$$"
	dropdb --if-exists "$PGDATABASE" >/dev/null 2>&1
	createdb "$PGDATABASE" || { log "createdb failed"; return 1; }
	"$CL_BIN" init >/dev/null || { log "init failed"; return 1; }
	# the first day of history loaded, the rest made from it in SQL as the
	# growth curve does (curve.sh's grow_to: keys suffixed, value dates 1 to
	# 18 weeks back, a quarter in three light tenants)
	"$CL_TOOLS/gen_ach" --entries "$RECON_N" --seed 11 --effective 260223 >"$W/rh.ach" &&
		"$CL_BIN" load -q "$W/rh.ach" || { log "history failed"; return 1; }
	TEMPLATE_LOAD=$(sql "select max(load_id) from clearing_load")
	KCOPIES=0
	grow_to "$RECON_HIST_WANT" || return 1
	RECON_HIST=$(sql "select count(*) from clearing_record")
	"$CL_TOOLS/gen_ach" --entries "$RECON_N" --seed 5 --effective 260302 >"$W/rd.ach" &&
		"$CL_BIN" load -q "$W/rd.ach" || { log "the day's load failed"; return 1; }
	RECON_HIST=$((RECON_HIST + RECON_N))
	settle
	_companies=$(sql "select string_agg(distinct company_id, ',') from clearing_record
	                  where value_date = '2026-03-02'")
	# the bank's bookings: a credit to a receiver is a debit of ours
	sql "copy (select amount_minor + case when ordinal % 1000 = 500 then 1 else 0 end,
	                  'USD', case direction when 'credit' then 'DBIT' else 'CRDT' end,
	                  '2026-03-02', 'trace=' || trace_number
	           from clearing_record where value_date = '2026-03-02' and ordinal % 1000 <> 0
	           order by ordinal) to stdout with (format text, delimiter ' ')" >"$W/rs.txt"
	_i=0
	while [ "$_i" -lt 10 ]; do
		echo "$((_i + 1)) USD CRDT 2026-03-02 e2e=BANK-ONLY-$_i" >>"$W/rs.txt"
		_i=$((_i + 1))
	done
	python3 "$root/tests/db/stmt_gen.py" account=US00RECON0000001 ccy=USD date=2026-03-02 \
		seq=302 <"$W/rs.txt" >"$W/rs.xml" || { log "stmt_gen failed"; return 1; }
	_entries=$(wc -l <"$W/rs.txt" | tr -d ' ')
	_bytes=$(size_of "$W/rs.xml")
	settle
	log "reconcile: a $_entries-entry statement against $RECON_HIST records"
	measure recon_load "$CL_BIN" load "$W/rs.xml" || log "statement load failed: $(head -c 400 "$W/recon_load.err")"
	settle
	measure recon_run "$CL_BIN" reconcile -q --format json --ach-company "$_companies"
	_rrc=$?
	# the answer: what was made, nothing else
	_sum=$(grep '"type":"reconcile_summary"' "$W/recon_run.out")
	_missing=$(sql "select count(*) from clearing_record where value_date = '2026-03-02' and ordinal % 1000 = 0")
	_cent=$(sql "select count(*) from clearing_record where value_date = '2026-03-02' and ordinal % 1000 = 500")
	_want="\"matched\":$((_entries - 10 - _cent)),\"unmatched_ours\":$_missing,\"unmatched_theirs\":10,\"exception\":$_cent,\"suggested\":0,"
	if [ "$_rrc" != 10 ] || ! echo "$_sum" | grep -q "$_want"; then
		echo "exit $_rrc, $_sum; want $_want" >"$W/recon_run.wrong"
		log "reconcile: $(cat "$W/recon_run.wrong") $(head -c 400 "$W/recon_run.err")"
	fi
	fig recon_load "$_bytes" "$_entries" "load: a camt.053 of $_entries entries"
	fig recon_run "$_bytes" "$_entries" "reconcile it, $RECON_HIST records of history" \
		recon_load 2 - 65536
	[ -n "${BENCH_KEEP:-}" ] || { dropdb "$PGDATABASE" >/dev/null 2>&1; rm -f "$W"/r[hds].*; }
	unset PGDATABASE
}
