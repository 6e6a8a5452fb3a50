#!/bin/sh
# Every statement the loader, diff, show and loads run against the history
# (clearing_record, clearing_dedupe_event, clearing_load) is an index probe
# or a range bounded by the file, at a size where plans used to flip: about
# 100,000 applied records, a stage as large as the table (most of it copies
# of applied records, a tenth under changed keys, some with other content),
# the journal of a 90%-duplicate re-upload and a year of other tenants'
# loads.  Each statement is explained (tests/tools/loader_sql prints what
# the program sends) in one session that does what the loader does before
# it (settings, stage, journal rows, pending table), first with the history
# never analyzed (right after the loads, before autovacuum), then analyzed;
# tests/tools/plan_check.py walks the plans.  On the plain and on the
# hash-partitioned schema (init --partitions 4).
. "$(dirname "$0")/lib.sh"
: "${CL_TOOLS:?CL_TOOLS must name the test tools}"
CHECK="$CL_ROOT/tests/tools/plan_check.py"
TENANT=default

# stmt NAME: the statement NAME as the loader sends it, without a COPY
# (...) TO STDOUT around it
stmt() {
	_s=$("$CL_TOOLS/loader_sql" "$1") || fail "loader_sql has no statement $1"
	printf '%s\n' "$_s" | python3 "$CHECK" unwrap
}

S="$TMP/session.sql"
emit() { printf '%s\n' "$@" >>"$S"; }
# run NAME: execute statement NAME, its rows discarded
run() { emit "$(stmt "$1")" '\g /dev/null'; }
EXPLAINED=""
# explain NAME [LABEL]: EXPLAIN statement NAME, its plan checked as LABEL
explain() {
	EXPLAINED="$EXPLAINED $1"
	emit "\\echo @@plan ${2:-$1}" "EXPLAIN (FORMAT JSON) $(stmt "$1")" '\g'
}
# explain_exec NAME ARGS [LABEL]: the same through PREPARE and EXECUTE
# (the statement has $n parameters)
explain_exec() {
	EXPLAINED="$EXPLAINED $1"
	emit "PREPARE $1 AS $(stmt "$1")" '\g /dev/null' \
		"\\echo @@plan ${3:-$1}" "EXPLAIN (FORMAT JSON) EXECUTE $1($2)" '\g'
}

# ---- the session, as the loader runs it (loader/load.c attempt) ----
emit '\set ON_ERROR_STOP 1'
emit "PREPARE db_session_setup AS $(stmt db_session_setup)" '\g /dev/null' \
	"EXECUTE db_session_setup('public')" '\g /dev/null'
run db_begin
run load_work_mem
explain load_take_id
emit "$(stmt load_take_id) AS load_id" '\gset'
emit "PREPARE load_set_context AS $(stmt load_set_context)" '\g /dev/null' \
	"EXECUTE load_set_context('$TENANT', :'load_id')" '\g /dev/null'
run stage_create
# The file: every applied record again, in load order; every 10th under a
# changed key (pending: near duplicates of ACH entries, alternate keys of
# pacs.008), every 50th (from the 5th) with other content (a conflict).
emit "INSERT INTO pg_temp.cl_stage SELECT r.*, NULL FROM public.clearing_record r" '\g /dev/null' \
	"UPDATE pg_temp.cl_stage s SET load_id = :load_id, ordinal = o.n, position = o.n
	 FROM (SELECT ctid, row_number() OVER (ORDER BY load_id, ordinal) n
	       FROM pg_temp.cl_stage) o
	 WHERE s.ctid = o.ctid" '\g /dev/null' \
	"UPDATE pg_temp.cl_stage SET natural_key = natural_key || '~'
	 WHERE ordinal % 10 = 0" '\g /dev/null' \
	"UPDATE pg_temp.cl_stage SET amount_minor = amount_minor + 1,
	   fingerprint = pg_catalog.sha256(fingerprint)
	 WHERE ordinal % 50 = 5" '\g /dev/null'
run stage_statistics
run stage_analyze
run classify_event_create
run classify_event_index
# classify (loader/classify.c cl_classify); the control: the exact-key join
# as a plain join without the settings, which must flip at this size
emit '\echo @@plan control_exact_join' "EXPLAIN (FORMAT JSON) $(stmt classify_exact | sed -n '1,/^FROM /p')
JOIN public.clearing_record r
  ON r.tenant = pg_catalog.current_setting('clearing_load.tenant')
 AND r.kind = c.kind AND r.natural_key = c.natural_key" '\g'
emit "SELECT pg_catalog.array_agg(kind ORDER BY ordinal) AS sample_kinds,
	        pg_catalog.array_agg(natural_key ORDER BY ordinal) AS sample_keys
	 FROM pg_temp.cl_stage WHERE ordinal % 64 = 1" '\gset'
explain_exec classify_sample ":'sample_kinds', :'sample_keys'"
explain classify_exact
run classify_exact
explain classify_conflict_rows
run classify_pending_no_nestloop
explain classify_pending
run classify_pending
run classify_pending_nestloop_default
run classify_pending_analyze
explain classify_alt
run classify_alt
explain classify_near_wanted
explain classify_rule_v1_wanted
explain classify_near
run classify_near
# a large new file's probe on the second connection (loader/near_side.c):
# the same probe, of a table of the file's near identities (here the
# stage's, each a day later)
run classify_near_side_create
emit "INSERT INTO pg_temp.cl_near_side
	 SELECT tenant, kind, natural_key, shard, near_key, value_date + 1 FROM pg_temp.cl_stage" \
	'\g /dev/null'
explain classify_near_side
explain classify_rule_v1
explain classify_rule_batch
# conflicts explained and parked (explain.c)
explain explain_fields
explain explain_quarantine
explain explain_park_held
# diff (plan.c): a batch of the file's records as an array of
# clearing_record, classified by the load's probes (the generic plan it
# runs), under each ACH key rule; the whole-file checks on the records
# given so
emit "SELECT pg_catalog.array_agg(pg_catalog.jsonb_populate_record(NULL::public.clearing_record,
        pg_catalog.to_jsonb(s)) ORDER BY s.ordinal) AS batch,
        pg_catalog.array_agg(s.journal_key ORDER BY s.ordinal) AS batch_keys
      FROM (SELECT * FROM pg_temp.cl_stage ORDER BY ordinal LIMIT 2000) s" '\gset'
emit "PREPARE plan_set_tenant AS $(stmt plan_set_tenant)" '\g /dev/null' \
	"EXECUTE plan_set_tenant('$TENANT')" '\g /dev/null' \
	"PREPARE plan_set_rules AS $(stmt plan_set_rules)" '\g /dev/null' \
	"EXECUTE plan_set_rules('on', 'v1')" '\g /dev/null'
explain plan_near_wanted
explain_exec plan_batch ":'batch'"
emit "EXECUTE plan_set_rules('on', 'batch')" '\g /dev/null' \
	"\\echo @@plan plan_batch_rule_batch" "EXPLAIN (FORMAT JSON) EXECUTE plan_batch(:'batch')" '\g'
explain_exec stage_given_duplicates ":'batch', :'batch_keys'"
explain_exec stage_given_near ":'batch'"
# held (load.c) or applied (apply.c)
explain_exec load_write_journal "false"
explain apply_insert_new
explain apply_insert_new_unjournaled
explain apply_insert_new_ordered
explain columnar_insert_new_ordered
explain apply_journal_raced
explain_exec load_insert_row "(:load_id)::bigint, pg_catalog.gen_random_uuid(), '$TENANT', 'plans.ach',
	1, 'x', 'nacha', 'nacha', 's', 'r', 'c', 'A', 1, 1, 0, 0, 0, 'committed', NULL, 0"
run db_rollback

# ---- show and loads (loader/history.c), with values that exist ----
emit "SELECT natural_key AS key, trace_number AS trace, load_id AS rec_load, ordinal AS rec_ord
      FROM public.clearing_record WHERE kind = 'ach.entry' ORDER BY load_id DESC, ordinal LIMIT 1" '\gset' \
	"SELECT end_to_end_id AS e2e, pg_catalog.upper(uetr) AS uetr FROM public.clearing_record
      WHERE kind = 'pacs.008' ORDER BY load_id, ordinal LIMIT 1" '\gset' \
	"SELECT load_id AS last_load, load_uuid AS last_uuid, started_at AS last_started
      FROM public.clearing_load ORDER BY load_id DESC LIMIT 1" '\gset'
show_args="'$TENANT', :'key', 101"
explain_exec history_show_by_key "$show_args"
explain_exec history_count_by_key "'$TENANT', :'key'"
explain_exec history_trace_shards "'$TENANT', :'trace'"
emit "EXECUTE history_trace_shards('$TENANT', :'trace')" '\gset trace_'
explain_exec history_show_by_trace "'$TENANT', :'trace', 101, :'trace_shards'"
explain_exec history_count_by_trace "'$TENANT', :'trace'"
explain_exec history_show_by_e2e "'$TENANT', :'e2e', 101"
explain_exec history_count_by_e2e "'$TENANT', :'e2e'"
explain_exec history_show_by_uetr "'$TENANT', :'uetr', 101"
explain_exec history_count_by_uetr "'$TENANT', :'uetr'"
# show without --tenant that found nothing: the other tenants (the year
# of loads of 40 other tenants below walked one tenant at a time)
explain_exec history_tenants_other "'$TENANT'"
explain_exec history_other_tenants_by_key "ARRAY['$TENANT'], :'key'"
explain_exec history_other_tenants_by_trace "ARRAY['$TENANT'], :'trace'"
explain_exec history_other_tenants_by_e2e "ARRAY['$TENANT'], :'e2e'"
explain_exec history_other_tenants_by_uetr "ARRAY['$TENANT'], :'uetr'"
# (their forms for columnar storage, here on a heap: tests/citus/
# test_columnar.sh reads their plans in columnar storage)
explain_exec history_show_by_trace_columnar "'$TENANT', :'trace', 101, :'trace_shards'"
explain_exec history_count_by_trace_columnar "'$TENANT', :'trace'"
explain_exec history_show_by_e2e_columnar "'$TENANT', :'e2e', 101"
explain_exec history_count_by_e2e_columnar "'$TENANT', :'e2e'"
explain_exec history_show_by_uetr_columnar "'$TENANT', :'uetr', 101"
explain_exec history_count_by_uetr_columnar "'$TENANT', :'uetr'"
explain_exec history_other_tenants_by_trace_columnar "ARRAY['$TENANT'], :'trace'"
explain_exec history_other_tenants_by_e2e_columnar "ARRAY['$TENANT'], :'e2e'"
explain_exec history_other_tenants_by_uetr_columnar "ARRAY['$TENANT'], :'uetr'"
# the facts of the records a lookup found, all of them at once: 100
# records of the first load (the re-upload's duplicates hit them)
emit "SELECT pg_catalog.array_agg(load_id ORDER BY load_id, ordinal) AS recs_load,
             pg_catalog.array_agg(ordinal ORDER BY load_id, ordinal) AS recs_ord,
             pg_catalog.array_agg(kind ORDER BY load_id, ordinal) AS recs_kind,
             pg_catalog.array_agg(natural_key ORDER BY load_id, ordinal) AS recs_key,
             pg_catalog.array_agg(coalesce(uetr, '') ORDER BY load_id, ordinal) AS recs_uetr,
             pg_catalog.array_agg(coalesce(end_to_end_id, '') ORDER BY load_id, ordinal) AS recs_e2e,
             pg_catalog.array_agg(coalesce(tx_id, '') ORDER BY load_id, ordinal) AS recs_txid
      FROM (SELECT load_id, ordinal, kind, natural_key, uetr, end_to_end_id, tx_id
            FROM public.clearing_record
            WHERE tenant = '$TENANT' ORDER BY load_id, ordinal LIMIT 100) r" '\gset'
explain_exec history_loads_of ":'recs_load', '$TENANT'"
explain_exec commit_find_load ":'last_uuid'"
explain_exec history_events_of ":'recs_load', :'recs_ord'"
explain_exec history_key_events "'$TENANT', :'key'"
explain_exec history_quarantine_of "'$TENANT', :'recs_kind', :'recs_key', :'recs_load', :'recs_ord'"
explain_exec history_reconciled_of "'$TENANT', :'recs_kind', :'recs_key'"
explain_exec history_cancellations_of "'$TENANT', :'recs_kind', :'recs_uetr', :'recs_e2e', :'recs_txid'"
explain_exec history_key_quarantine "'$TENANT', :'key'"
explain_exec history_quarantine_by_trace "'$TENANT', :'trace'"
explain_exec history_quarantine_by_e2e "'$TENANT', :'e2e'"
explain_exec history_quarantine_by_uetr "'$TENANT', :'uetr'"
# conflicts and resolve (loader/conflicts.c), on a conflict the
# quarantined load parked
emit "SELECT load_id AS q_load, ordinal AS q_ord, position AS q_line
      FROM public.clearing_quarantine ORDER BY load_id, ordinal LIMIT 1" '\gset'
explain_exec conflicts_list "NULL, NULL, true" conflicts_list_all
emit "\\echo @@plan conflicts_list_load" \
	"EXPLAIN (FORMAT JSON) EXECUTE conflicts_list(:q_load, '$TENANT', false)" '\g'
explain_exec conflicts_changes "ARRAY[:q_load]::bigint[], ARRAY[:q_ord]::bigint[]"
explain_exec conflicts_find ":q_load, NULL, :q_line"
explain_exec conflicts_target ":q_load, :q_ord"
explain_exec conflicts_insert_load "pg_catalog.gen_random_uuid(), :q_load, 1, 'x'"
explain_exec conflicts_apply_correction ":q_load, :q_ord, :q_load, 'k#corr1'"
explain_exec conflicts_journal ":q_load, :q_load, :q_ord, 'correction', 'k#corr1'"
explain_exec feed_records ":rec_load, '$TENANT', 1, 'x', 0, 1000"
explain_exec feed_position_exists "4294967297"
explain_exec prune_loads "now(), 0, 1000"
# (as prune.c sends it: after prune_no_seqscan, in one transaction)
run db_begin
run prune_no_seqscan
explain_exec prune_load_events ":rec_load, true"
run db_rollback
explain_exec history_loads "NULL, NULL, 100, NULL" history_loads_all
emit "\\echo @@plan history_loads_since" \
	"EXPLAIN (FORMAT JSON) EXECUTE history_loads(:'last_started', NULL, 100, NULL)" '\g' \
	"\\echo @@plan history_loads_uuid" \
	"EXPLAIN (FORMAT JSON) EXECUTE history_loads(NULL, :'last_uuid', 100, NULL)" '\g' \
	"\\echo @@plan history_loads_tenant" \
	"EXPLAIN (FORMAT JSON) EXECUTE history_loads(NULL, NULL, 100, '$TENANT')" '\g'

# ---- a statement loaded (loader/statement_load.c) and reconciled
# (loader/reconcile.c): the history's own statement (history() loads it)
# again, all duplicate, then reconciled ----
# execute NAME ARGS: run a statement prepared by explain_exec (or here)
execute() { emit "EXECUTE $1($2)" '\g /dev/null'; }
prepare() { emit "PREPARE $1 AS $(stmt "$1")" '\g /dev/null'; }
run db_begin
emit "$(stmt load_take_id) AS load_id" '\gset'
run statement_stage_create
# the stored items as the stage holds them, column by name
# (rules/statement_fields.def; dates and bools staged as text)
cols=$("$CL_TOOLS/field_columns" statement | awk -F: '{ printf "%s%s", (NR > 1 ? ", " : ""), $1 }')
vals=$("$CL_TOOLS/field_columns" statement | awk -F: '{ v = $1
	if ($2 == "date" || $2 == "boolean") v = v "::text"
	if ($1 == "load_id") v = ":load_id"
	printf "%s%s", (NR > 1 ? ", " : ""), v }')
emit "INSERT INTO pg_temp.cl_stmt_stage ($cols, journal_key)
      SELECT $vals, natural_key
      FROM public.clearing_statement_item" '\g /dev/null' "ANALYZE pg_temp.cl_stmt_stage" '\g /dev/null'
explain_exec statement_classify ":load_id, '$TENANT'"
execute statement_classify ":load_id, '$TENANT'"
explain statement_apply
run db_rollback
emit "SELECT statement_key AS skey, kind AS skind, account AS sacct, period_from AS sfrom,
             period_to AS sto
      FROM public.clearing_statement_item WHERE item = 'statement' LIMIT 1" '\gset'
run db_begin
for n in reconcile_settings reconcile_create reconcile_create_entry reconcile_create_best \
	reconcile_create_sugg reconcile_create_batch reconcile_truncate; do
	run $n
done
explain_exec reconcile_rule "'$TENANT', :'sacct'"
prepare reconcile_entries
execute reconcile_entries "'$TENANT', :'skey'"
run reconcile_analyze
explain_exec reconcile_best "'$TENANT', '{uetr,e2e,tx_id,instr_id,trace}', 0, 0, NULL, 0"
execute reconcile_best "'$TENANT', '{uetr,e2e,tx_id,instr_id,trace}', 0, 0, NULL, 0"
run reconcile_analyze_best
run reconcile_booked_twice
explain_exec reconcile_split "'$TENANT'"
execute reconcile_split "'$TENANT'"
explain_exec reconcile_batches "'$TENANT'"
execute reconcile_batches "'$TENANT'"
explain_exec reconcile_suggest "'$TENANT'"
execute reconcile_suggest "'$TENANT'"
explain_exec reconcile_suggest_batch "'$TENANT', '{1100000000}'"
execute reconcile_suggest_batch "'$TENANT', '{1100000000}'"
explain_exec reconcile_group "'$TENANT', :'sacct', '{1100000000}'"
execute reconcile_group "'$TENANT', :'sacct', '{1100000000}'"
explain_exec reconcile_judge "'$TENANT', :'skey', 0"
execute reconcile_judge "'$TENANT', :'skey', 0"
explain_exec reconcile_record_matches "'$TENANT', :'skey', 1"
execute reconcile_record_matches "'$TENANT', :'skey', 1"
run reconcile_analyze_answer
explain_exec reconcile_unmatched_ours "'$TENANT', :'skey', 0, :'sfrom', :'sto', :'sacct',
	'{1100000000}', 'USD', :'skind'"
# the breaks' ids (sql/027): a probe of a unique index per break
run reconcile_break_columns
explain_exec reconcile_break_ids "'$TENANT'"
run db_rollback

# ingest's metrics: what waits for a person (loader/backlog.c)
explain_exec backlog_loads "'$TENANT', 'held'"
explain_exec backlog_statements "'$TENANT'"

# Every statement that reads the history is explained above, but the
# definitions of the stage (LIKE) and of the load's journal rows (WITH NO
# DATA) and the schema's catalog lookups; and the Citus forms (NAME_citus,
# run only on a Citus database: tests/citus/run.sh reads their plans;
# reconcile_copy_*, reconcile's copy and its statements reading it, 0052);
# and a new file's direct load (0058): the view of its records that stands
# for the stage (the stage's readers are explained) and its COPY into
# clearing_record (a write, no plan); the definition (WITH NO DATA) of its
# second connection's table (0059).
for n in $("$CL_TOOLS/loader_sql" --list); do
	case $n in *_citus | reconcile_copy_*) continue ;; esac
	"$CL_TOOLS/loader_sql" "$n" | grep -Eq '(FROM|JOIN|INTO|UPDATE)[[:space:]]+clearing_(record|dedupe_event|load)([^_a-z.]|$)' ||
		continue
	case " $EXPLAINED stage_create classify_event_create schema_count_partitions plan_record_columns stage_direct_view stage_direct_copy classify_near_side_create " in
	*" $n "*) ;;
	*) fail "statement $n reads the history but test_plans.sh does not explain it" ;;
	esac
done

# Plans still unbounded (printed as KNOWN in the log, not failed): with the
# history never analyzed, the stage read whole for the pending records
# (classify_pending), loads --since walking clearing_load_pkey and prune's
# walk of clearing_load; in both states a tenant's loads sorted
# (loads --tenant: a bitmap scan of the tenant's loads and a sort, which
# the planner takes while the tenant has few loads, the ordered index scan
# once it has many).
KNOWN_ALWAYS="history_loads_tenant"
KNOWN_UNANALYZED="classify_pending history_loads_since prune_loads"
# Analyzed, history_key_events may walk clearing_dedupe_event_attention
# instead of clearing_dedupe_event_key: both are partial on reason <>
# 'duplicate', and when the sample says that subset is a handful of rows
# (this test's journal) either is as cheap; at size the key index wins on
# cost.  Seen in one run of six on the same data, so listed, not failed.
# The parking and conflict statements (explain_quarantine, conflicts_*)
# once took the journal's key or attention index for its order alone, a
# LIMIT over an index scan filtered by load and ordinal, when the sampled
# statistics made the journal look tiny: seen once in about eight runs on
# the plain schema, analyzed.  Listed, not failed, so CI does not flip
# with the sample; each is an index probe in every other run.  Seen so
# too for conflicts_journal (the same join of the journal by load and
# ordinal), in the DOUBLE=1 run on 4 partitions, beside four of the others.
# And for explain_park_held (its NOT EXISTS probe of the journal by load,
# ordinal and shard walking the whole key index, the other partial index
# on reason <> 'duplicate'), once in a whole CI run on 4 partitions,
# analyzed; an index probe in every run before and in the same run's
# sanitizers' suite.
KNOWN_ANALYZED="history_key_events explain_quarantine conflicts_list_all conflicts_list_load
	conflicts_changes conflicts_target conflicts_journal explain_park_held"

# plans LABEL KNOWN...: run the session, check its plans
plans() {
	psql -XAtq -f "$S" >"$TMP/plans.$1" 2>"$TMP/plans.$1.err" ||
		fail "$1: the session failed: $(cat "$TMP/plans.$1.err")"
	parts=$(q "select coalesce(string_agg(inhrelid::regclass::text, ','), '') from pg_inherits
		where inhparent = 'public.clearing_record'::regclass")
	echo "--- $1"
	_label=$1
	shift
	_known=""
	for n in $KNOWN_ALWAYS "$@"; do _known="$_known --known $n"; done
	# shellcheck disable=SC2086 # one word per option
	python3 "$CHECK" check --tables "$parts" --control control_exact_join $_known \
		"$TMP/plans.$_label" || FAILED="$FAILED; $_label"
}
FAILED=""

# history SCHEMA INIT_ARGS...: a fresh database with the history, checked
# before and after ANALYZE
history() {
	label=$1
	shift
	# the previous schema's database, never the one PG* named
	[ "${_db_made:-0}" = 1 ] && dropdb -f "$PGDATABASE"
	db_new
	cl init "$@" >/dev/null
	# autovacuum off for the history's tables: "never analyzed" is then
	# what the first pass sees, not whatever autovacuum did meanwhile
	for t in $(q "select c.oid::regclass from pg_class c where c.relkind = 'r' and (c.relname in
			('clearing_record', 'clearing_dedupe_event', 'clearing_load')
			or c.oid in (select inhrelid from pg_inherits
				     where inhparent = 'public.clearing_record'::regclass))"); do
		q "alter table $t set (autovacuum_enabled = off)"
	done
	# a year of other tenants' loads (the table show and diff join)
	q "insert into clearing_load (load_uuid, tenant, file_name, outcome, record_count,
		started_at, finished_at)
	   select gen_random_uuid(), 'other' || i % 40, 'day' || i || '.ach', 'committed', 1000,
		now() - interval '1 year' + i * interval '26 minutes',
		now() - interval '1 year' + i * interval '26 minutes' + interval '1 minute'
	   from generate_series(1, 20000) i"
	"$CL_TOOLS/gen_ach" --entries 100000 --seed 7 --skip-every 10 >"$TMP/a1.ach"
	"$CL_TOOLS/gen_ach" --entries 100000 --seed 7 >"$TMP/a2.ach"
	"$CL_TOOLS/gen_iso" --type pacs.008 --tx 3000 >"$TMP/p1.xml"
	"$CL_TOOLS/gen_ach" --entries 1000 --seed 7 --bump-amount-every 100 >"$TMP/bump.ach"
	cl load --tenant "$TENANT" "$TMP/a1.ach" >/dev/null || fail "$label: history load"
	cl load --tenant "$TENANT" "$TMP/a2.ach" >/dev/null || fail "$label: 90%-duplicate re-upload"
	cl load --tenant "$TENANT" "$TMP/p1.xml" >/dev/null || fail "$label: pacs.008 load"
	expect_exit 8 cl load --tenant "$TENANT" --on-conflict=quarantine "$TMP/bump.ach"
	assert_eq "$(q "select count(*) from clearing_record")" 103000 "$label: records applied"
	# a bank statement of 2,000 of the entries, by their traces (reconcile's
	# statements), and one extra entry
	{ q "copy (select amount_minor, 'USD', case direction when 'credit' then 'DBIT' else 'CRDT' end,
	            value_date, 'trace=' || trace_number from clearing_record
	          where kind = 'ach.entry' order by load_id, ordinal limit 2000)
	     to stdout with (delimiter ' ')"
	  echo "1 USD CRDT $(q "select min(value_date) from clearing_record where kind = 'ach.entry'") e2e=X"; } |
		python3 "$CL_ROOT/tests/db/stmt_gen.py" account=US00PLANS ccy=USD \
			date="$(q "select min(value_date) from clearing_record where kind = 'ach.entry'")" \
			seq=1 >"$TMP/s.xml"
	cl load --tenant "$TENANT" "$TMP/s.xml" >/dev/null || fail "$label: statement load"
	[ "$(q "select count(*) from clearing_dedupe_event")" -ge 90000 ] ||
		fail "$label: the journal lacks the re-upload's rows"
	plans "$label, never analyzed" $KNOWN_UNANALYZED
	q "analyze clearing_record; analyze clearing_dedupe_event; analyze clearing_load" >/dev/null
	plans "$label, analyzed" $KNOWN_ANALYZED
}

history plain
history "4 partitions" --partitions 4
[ -z "$FAILED" ] || fail "plans not bounded by the file (above) in:${FAILED#;}"
echo "ok: every statement's plan is bounded by the file, on both schemas"
