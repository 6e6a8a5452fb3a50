# tests/bench/curve.sh - sourced by run.sh: the growth curve.  The same
# business day (ACH_N new entries of 8 originators) loaded into a table
# holding, in turn, each of CURVE_POINTS records of history, on a fresh
# database per schema (plain, or init --partitions N):
#
#   diff     the day's file as a dry run, before it is loaded
#   load     the day's file (ACH_N new)
#   exact    the same file again, right after (no VACUUM or ANALYZE between)
#   90%      a file of the day's last 90% and 10% more, right after
#   show     show --trace of one of the day's entries, and loads (best of 5)
#   pacs.008 an ISO_OVL-transaction file, then one sharing half of it
#   ISO      a pain.001, a pain.008, a pacs.003, a camt.056 and a camt.029
#            of ISO_OVL transactions, each loaded once (the others' ratio:
#            to pain.001's)
#   COPY     the baseline: the day's rows as the loader stored them, the
#            same keys, COPYed into the twin: a second clearing-load schema
#            of the same shape (init --schema bench_twin, the same
#            partitions) that holds the same history and every earlier
#            day's rows, not this day's.  The same index work as the load
#            into a table of the same size, whose pages the day's loads have
#            not touched.  The rows in the file's order, as a COPY of the
#            file would send them: read back from a partitioned table they
#            come grouped by partition, and grouped they COPYed roughly
#            15-20% faster at 5.2M records, whose indexes outgrow
#            shared_buffers (0058, "Measured (stop 45)"), an order the
#            loader's COPY of a new file, streamed, cannot have.  (Earlier runs COPYed the rows under fresh keys
#            into the same table right after the loads: into pages the load
#            had just split, a baseline that ran fast at some points; the
#            day's own rows deleted and COPYed back land in pages split for
#            them, faster still: at 20M records 31.2 s against 63.5 s under
#            fresh keys.)  Then the day's other new rows go to the twin too.
#
# The history is made in SQL from the first day's rows, as a restore would
# (indexes dropped, rows inserted, indexes rebuilt, VACUUM ANALYZE): copy k
# has natural_key || '#hK' and a near_key hashed anew with K (so its keys
# interleave with real ones all through each index), a value date 1 to 18 weeks back (90
# business days), its own load, and every fourth copy one of three light
# tenants (the daily file goes to the heavy one); one record in ten of each
# copy was re-uploaded once (a duplicate journal row).  Between days:
# VACUUM ANALYZE and CHECKPOINT, what autovacuum and the night would have
# done.  Needs run.sh's helpers (measure, fig, ...) and W, CL_BIN, CL_TOOLS.

sql() { psql -XAtq -v ON_ERROR_STOP=1 -c "$1"; }
# settle: before a figure, VACUUM ANALYZE, CHECKPOINT and sync (what an
# earlier phase left the OS to write, a dropped database's files, a
# checkpoint's, is written now, not during the figure: the same reconcile
# took 27 s in a run of its own and 55 s after the two curves)
settle() { sql "vacuum analyze" && sql "checkpoint" && sync; }

# cl_load NAME FILE NEW DUP [TENANT]: a timed load that must report NEW new
# and DUP duplicate records (else the figure is marked WRONG).
cl_load() {
	measure "$1" "$CL_BIN" load --format json --tenant "${5:-default}" "$2"
	_lrc=$?
	_json=$(cat "$W/$1.out")
	_new=$(echo "$_json" | sed -n 's/.*"new":\([0-9]*\).*/\1/p' | head -n 1)
	_dup=$(echo "$_json" | sed -n 's/.*"duplicate":\([0-9]*\).*/\1/p' | head -n 1)
	if [ "$_lrc" -ne 0 ] || [ "$_new" != "$3" ] || [ "$_dup" != "$4" ]; then
		echo "exit $_lrc, new ${_new:-?} (want $3), duplicate ${_dup:-?} (want $4)" >"$W/$1.wrong"
		log "$1: $(cat "$W/$1.wrong"); stderr: $(head -c 400 "$W/$1.err")"
	fi
	log "$1: $(cat "$W/$1.m")"
}

# The columns of clearing_record, each as the history copy k writes it.
history_columns() {
	sql "select string_agg(case attname
		when 'tenant' then 'case when k % 4 = 0 then ''light'' || (k / 4 % 3 + 1) else tenant end'
		when 'natural_key' then 'natural_key || ''#h'' || k'
		when 'near_key' then 'substr(sha256(near_key || int8send(k::bigint)), 1, 16)'
		when 'shard' then 'case when kind like ''ach.%'' then shard
			else clearing_shard(kind, natural_key || ''#h'' || k) end'
		when 'value_date' then 'value_date - 7 * (k % 18 + 1)'
		when 'load_id' then '1000000 + k'
		else quote_ident(attname) end, ', ' order by attnum)
	     from pg_attribute where attrelid = 'clearing_record'::regclass and attnum > 0
	     and not attisdropped"
}

# The baseline's table: clearing-load's schema once more (curve: init
# --schema, the same partitions).  Empty: no twin (the reconcile bench).
TWIN=""

# The condition on pg_index that an index of clearing_record holds entries
# (itself, or on a partitioned table one of its partitions' indexes; an
# empty B-tree is its metapage alone).
filled_index() {
	echo "greatest(pg_relation_size(indexrelid), (select max(pg_relation_size(relid))
	      from pg_partition_tree(indexrelid))) > 8192"
}

# grow_to N: history copies of the template load's rows until the table
# holds at least N records; the same copies into the twin (when there is
# one: it holds the template load's rows too).
grow_to() {
	_t0=$(now_ns)
	_have=$(sql "select count(*) from clearing_record")
	_tpl=$(sql "select count(*) from clearing_record where load_id = $TEMPLATE_LOAD")
	_n=$(((($1 - _have) + _tpl - 1) / _tpl))
	[ "$_n" -gt 0 ] || return 0
	_k0=$((KCOPIES + 1))
	KCOPIES=$((KCOPIES + _n))
	grow_schema || return 1
	if [ -n "$TWIN" ]; then
		(PGOPTIONS="-c search_path=$TWIN" && export PGOPTIONS && grow_schema) || return 1
	fi
	log "history: $(sql "select count(*) from clearing_record") records in" \
		"$(awk -v a="$_t0" -v b="$(now_ns)" 'BEGIN{printf "%.0f", (b-a)/1e9}') s${TWIN:+ (and its twin)}"
}

# grow_schema: copies _k0 to KCOPIES (_tpl rows each) into the tables the
# search path finds first (PGOPTIONS).
grow_schema() {
	_names=$(sql "select string_agg(quote_ident(attname), ', ' order by attnum)
		      from pg_attribute where attrelid = 'clearing_record'::regclass and attnum > 0
		      and not attisdropped")
	sql "select 'alter table clearing_record add constraint ' || quote_ident(conname) || ' '
		|| pg_get_constraintdef(oid)
	     from pg_constraint where conrelid = 'clearing_record'::regclass and contype in ('p', 'u')" \
		>"$W/cons.sql"
	# (on a partitioned table pg_get_indexdef says ON ONLY, which would
	# leave the partitions without the index)
	# (the indexes that hold entries: a partial index the copies never
	# enter, such as the UETR index of an ACH history, stays and costs the
	# insert nothing, where its rebuild would read the whole table, 8 s at
	# 20M records)
	sql "select replace(pg_get_indexdef(indexrelid), ' ON ONLY ', ' ON ')
	     from pg_index where indrelid = 'clearing_record'::regclass
	     and $(filled_index)
	     and indexrelid not in (select conindid from pg_constraint
				    where conrelid = 'clearing_record'::regclass)" >"$W/idx.sql"
	{
		echo "begin;"
		sql "select 'alter table clearing_record drop constraint ' || quote_ident(conname) || ';'
		     from pg_constraint where conrelid = 'clearing_record'::regclass and contype in ('p', 'u')"
		sql "select 'drop index ' || indexrelid::regclass::text || ';' from pg_index
		     where indrelid = 'clearing_record'::regclass
		     and $(filled_index)
		     and indexrelid not in (select conindid from pg_constraint
					    where conrelid = 'clearing_record'::regclass)"
		echo "insert into clearing_record ($_names)
		      select $(history_columns) from clearing_record, generate_series($_k0, $KCOPIES) k
		      where load_id = $TEMPLATE_LOAD;"
		echo "insert into clearing_load (load_id, load_uuid, tenant, file_name, outcome, started_at,
			finished_at, record_count, new_count, duplicate_count) overriding system value
		      select 1000000 + k, gen_random_uuid(), 'default', 'history-' || k, 'committed',
			now() - interval '1 day' * (200 - k), now() - interval '1 day' * (200 - k), $_tpl, $_tpl, 0
		      from generate_series($_k0, $KCOPIES) k
		      union all
		      select 2000000 + k, gen_random_uuid(), 'default', 'reupload-' || k, 'committed',
			now() - interval '1 day' * (200 - k), now() - interval '1 day' * (200 - k),
			$_tpl / 10, 0, $_tpl / 10
		      from generate_series($_k0, $KCOPIES) k;"
		echo "insert into clearing_dedupe_event (load_id, ordinal, position, tenant, kind, natural_key,
			reason, matched_load_id, matched_ordinal, matched_position, shard)
		      select 2000000 + k, ordinal, position,
			case when k % 4 = 0 then 'light' || (k / 4 % 3 + 1) else tenant end, kind,
			natural_key || '#h' || k, 'duplicate', 1000000 + k, ordinal, position, shard
		      from clearing_record, generate_series($_k0, $KCOPIES) k
		      where load_id = $TEMPLATE_LOAD and ordinal % 10 = 0;"
		echo "set maintenance_work_mem = '1GB';"
		sed 's/$/;/' "$W/cons.sql" "$W/idx.sql"
		echo "do \$\$ begin if exists (select 1 from pg_index where not indisvalid and indrelid in
			(select relid from pg_partition_tree('clearing_record'))) then
			raise exception 'an index of clearing_record is not valid'; end if; end \$\$;"
		echo "commit;"
		echo "vacuum analyze;"
	} >"$W/grow.sql"
	psql -Xq -v ON_ERROR_STOP=1 -f "$W/grow.sql" >"$W/grow.out" 2>&1 ||
		{ log "history failed: $(cat "$W/grow.out")"; return 1; }
}

# storage P: bytes per record (table, TOAST and indexes, over every
# partition) and per journal event, as a storage row.
storage() {
	sql "select (select count(*) from clearing_record),
		    (select coalesce(sum(pg_total_relation_size(relid)), pg_total_relation_size('clearing_record'))
		     from pg_partition_tree('clearing_record')),
		    (select count(*) from clearing_dedupe_event),
		    pg_total_relation_size('clearing_dedupe_event')" |
		awk -F '|' -v p="$1" '{ printf "%s\t%d\t%.0f\t%d\t%.0f\n", p, $1, $2 / $1, $3, ($3 ? $4 / $3 : 0) }' \
			>>"$W/storage.tsv"
}

# day LABEL DAY: one business day at the table's present size.
day() {
	_lbl=$1 _d=$2
	_p="${_lbl}_$_d"
	_size=$(sql "select count(*) from clearing_record")
	_tag="[$_lbl, $(awk -v n="$_size" 'BEGIN { if (n >= 1e6) printf "%.1fM", n / 1e6; else printf "%d", n }') records]"
	_eff=$(printf '2603%02d' $((2 + _d)))
	"$CL_TOOLS/gen_ach" --entries "$ACH_N" --seed $((_d + 1)) --effective "$_eff" \
		--company-count 8 >"$W/day.ach" || { log "gen_ach failed"; return 1; }
	"$CL_TOOLS/gen_ach" --entries "$ACH_N" --seed $((_d + 1)) --effective "$_eff" \
		--company-count 8 --start $((ACH_N / 10)) >"$W/day90.ach" || return 1
	"$CL_TOOLS/gen_iso" --type pacs.008 --tx "$ISO_OVL" --seed $((_d + 1)) >"$W/p8a.xml" || return 1
	"$CL_TOOLS/gen_iso" --type pacs.008 --tx "$ISO_OVL" --seed $((_d + 1)) \
		--start $((ISO_OVL / 2 + 1)) --msg-id "MSG-B-$_d" >"$W/p8b.xml" || return 1
	# the other ISO 20022 kinds a day brings, each loaded once beside pain.001
	# (the cancellations are of p8a's payments, their keys their own)
	for _k in pain.001 pain.008 pacs.003 camt.056 camt.029; do
		"$CL_TOOLS/gen_iso" --type "$_k" --tx "$ISO_OVL" --seed $((_d + 1)) \
			--msg-id "MSG-$_k-$_d" >"$W/k-$_k.xml" || return 1
	done
	_bytes=$(size_of "$W/day.ach")
	_p8bytes=$(size_of "$W/p8b.xml")
	cat "$W/day.ach" "$W/day90.ach" >/dev/null
	settle

	log "$_tag diff, load, exact and 90% re-uploads"
	measure "${_p}_diff" "$CL_BIN" diff --format json "$W/day.ach"
	_drc=$(cut -d' ' -f3 "$W/${_p}_diff.m")
	[ "$_drc" = 1 ] || echo "exit status $_drc (want 1: new records)" >"$W/${_p}_diff.wrong"
	cl_load "${_p}_load" "$W/day.ach" "$ACH_N" 0
	_lid=$(sql "select max(load_id) from clearing_load where file_name like '%day.ach'")
	[ -n "$TEMPLATE_LOAD" ] || TEMPLATE_LOAD=$_lid
	cl_load "${_p}_exact" "$W/day.ach" 0 "$ACH_N"
	cl_load "${_p}_90" "$W/day90.ach" $((ACH_N / 10)) $((ACH_N - ACH_N / 10))

	_trace=$(sql "select trace_number from clearing_record where load_id = $_lid
		      order by ordinal offset $((ACH_N / 2)) limit 1")
	# latency on a machine that is not writing back the day's loads (sync:
	# no VACUUM, ANALYZE or CHECKPOINT, the history as the loads left it)
	sync
	best_of 5 "${_p}_show" "$CL_BIN" show --trace "$_trace" ||
		echo "show failed" >"$W/${_p}_show.wrong"
	best_of 5 "${_p}_loads" "$CL_BIN" loads ||
		echo "loads failed" >"$W/${_p}_loads.wrong"
	# their floors: starting the program, and connecting with psql's own
	# binary (Debian's psql on PATH is a Perl wrapper: ~70 ms of its own)
	best_of 5 "${_p}_start" "$CL_BIN" --version
	_psql="$("${PG_CONFIG:-pg_config}" --bindir 2>/dev/null)/psql"
	[ -x "$_psql" ] || _psql=psql
	best_of 5 "${_p}_connect" "$_psql" -XAtqc 'select 1'
	storage "$_tag"

	cl_load "${_p}_p8a" "$W/p8a.xml" "$ISO_OVL" 0 "iso$_d"
	cl_load "${_p}_p8b" "$W/p8b.xml" $((ISO_OVL / 2)) $((ISO_OVL / 2)) "iso$_d"
	for _k in pain.001 pain.008 pacs.003 camt.056 camt.029; do
		cl_load "${_p}_l$_k" "$W/k-$_k.xml" "$ISO_OVL" 0 "iso$_d"
	done

	# the baseline: the day's rows as the loader stored them, COPYed into
	# the twin (the same keys into the same indexes of a table of the same
	# size); then the day's other new rows (the 90% re-upload's tenth, the
	# pacs.008 files; the history's loads are numbered from 1000000), so
	# that the twin holds what the table holds
	psql -Xq -v ON_ERROR_STOP=1 -c "\\copy (select * from clearing_record where load_id = $_lid order by ordinal) to '$W/rows.copy'" &&
		settle &&
		measure "${_p}_copy" psql -Xq -v ON_ERROR_STOP=1 -c "\\copy $TWIN.clearing_record from '$W/rows.copy'" &&
		sql "insert into $TWIN.clearing_record select * from clearing_record
		     where load_id > $_lid and load_id < 1000000" ||
		log "COPY baseline failed: $(cat "$W/${_p}_copy.err" 2>/dev/null)"
	rm -f "$W/rows.copy"
	# logged as the loads are, so a run stopped early still gives the
	# ratios of the points it finished
	log "${_p}_copy: $(cat "$W/${_p}_copy.m" 2>/dev/null)"
	_twin=$(sql "select (select count(*) from clearing_record) - (select count(*) from $TWIN.clearing_record)")
	[ "$_twin" = 0 ] || echo "the twin differs from the table by $_twin records" >"$W/${_p}_copy.wrong"

	fig "${_p}_copy" "$_bytes" "$ACH_N" "$_tag plain COPY of the day's $ACH_N rows into the twin (baseline)"
	# the load's target: 1.5x on the plain schema, 1.3x on the partitioned
	# one (issue 31: the partitioned load within 1.3x its COPY)
	_lt=1.5
	[ "$_lbl" = partitioned ] && _lt=1.3
	fig "${_p}_load" "$_bytes" "$ACH_N" "$_tag load: $ACH_N new entries" "${_p}_copy" "$_lt" - 32768
	fig "${_p}_diff" "$_bytes" "$ACH_N" "$_tag diff of the same file, before it" "${_p}_load" 1.0 - 32768
	fig "${_p}_exact" "$_bytes" "$ACH_N" "$_tag load: exact re-upload" "${_p}_copy" 1.2 - 32768
	fig "${_p}_90" "$_bytes" "$ACH_N" "$_tag load: 90%-duplicate re-upload" "${_p}_copy" 1.5 - 32768
	fig "${_p}_show" 0 1 "$_tag show --trace (best of 5)" - - - - 0.05
	fig "${_p}_loads" 0 1 "$_tag loads (best of 5)" - - - - 0.05
	fig "${_p}_start" 0 1 "$_tag clearing-load --version: process start (floor, best of 5)"
	fig "${_p}_connect" 0 1 "$_tag psql binary: connect, select 1 (floor, best of 5)"
	fig "${_p}_p8a" "$_p8bytes" "$ISO_OVL" "$_tag load: pacs.008, $ISO_OVL transactions"
	fig "${_p}_p8b" "$_p8bytes" "$ISO_OVL" "$_tag load: pacs.008 sharing half of it" "${_p}_p8a" 1.5 - 32768
	for _k in pain.001 pain.008 pacs.003 camt.056 camt.029; do
		_ref=-
		[ "$_k" = pain.001 ] || _ref="${_p}_lpain.001"
		fig "${_p}_l$_k" "$(size_of "$W/k-$_k.xml")" "$ISO_OVL" \
			"$_tag load: $_k, $ISO_OVL transactions (ratio: to pain.001's)" "$_ref"
	done
	rm -f "$W"/k-*.xml
}

# curve LABEL PARTITIONS [INIT_OPTION...]: the whole curve on a fresh
# database, made by init with those options (--columnar: the table and its
# twin in columnar storage).
curve() {
	_cv_label=$1 _cv_parts=$2
	shift 2
	export PGDATABASE="cl_bench_${_cv_label}_$$"
	dropdb --if-exists "$PGDATABASE" >/dev/null 2>&1
	createdb "$PGDATABASE" || { log "createdb failed"; return 1; }
	TWIN=bench_twin
	sql "create schema $TWIN" || return 1
	for _schema in public "$TWIN"; do
		if [ "$_cv_parts" -gt 0 ]; then
			"$CL_BIN" init --schema "$_schema" --partitions "$_cv_parts" "$@" >"$W/init.out" 2>&1
		else
			"$CL_BIN" init --schema "$_schema" "$@" >"$W/init.out" 2>&1
		fi || { log "init failed: $(cat "$W/init.out")"; return 1; }
	done
	TEMPLATE_LOAD=""
	KCOPIES=0
	_d=0
	for _point in $CURVE_POINTS; do
		if [ "$_point" -gt 0 ]; then
			grow_to "$_point" || return 1
		fi
		day "$_cv_label" "$_d" || return 1
		_d=$((_d + 1))
	done
	[ -n "${BENCH_KEEP:-}" ] || dropdb "$PGDATABASE" >/dev/null 2>&1
	TWIN=""
	return 0
}
