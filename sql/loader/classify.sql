-- classify.sql - the originator locks and the classification of a load's
-- staged records against the tenant's applied ones (loader/classify.c):
-- each statement writes journal rows of this load (the setting
-- clearing_load.load_id) for the tenant (clearing_load.tenant) into
-- pg_temp.cl_event, the load's journal until load_write_journal appends it
-- to clearing_dedupe_event: the journal is append-only, so what is known
-- only later (the fields a conflict differs in, whether the file is held
-- and keeps no duplicates) is settled here first.
--
-- After the exact-key join the statements read pg_temp.cl_pending, the
-- staged records it did not match; a pending record journaled since (by
-- the alternate-key or a near-duplicate statement) has a row that is never
-- a plain duplicate, found through the partial index cl_event_attention.
--
-- 1129072716 ("CLoL") is the first key of every originator lock: any
-- constant, never changed.

-- name: classify_lock_returns
-- One lock per tenant ($1) for the files that carry ACH returns or NOCs
-- (they have no originator in their near identity): a return file and its
-- re-dated copy loaded at once run one after the other.
SELECT pg_catalog.pg_advisory_xact_lock(1129072716, pg_catalog.hashtext($1 || '|returns'))

-- name: classify_lock_alt_key
-- One lock per tenant ($1) for the files with alternate keys: two loads of
-- one payment in its two forms (with and without UETR) run one after the
-- other, the second sees the first.
SELECT pg_catalog.pg_advisory_xact_lock(1129072716, pg_catalog.hashtext($1 || '|alt_key'))

-- name: classify_lock_tenant
-- The exclusive tenant-wide lock of tenant $1, for a file of too many
-- originators to lock one by one.
SELECT pg_catalog.pg_advisory_xact_lock(1129072716, pg_catalog.hashtext($1))

-- name: classify_lock_tenant_shared
-- The shared tenant lock of tenant $1, taken before its originator locks.
SELECT pg_catalog.pg_advisory_xact_lock_shared(1129072716, pg_catalog.hashtext($1))

-- name: classify_lock_originator
-- The lock of originator (company id) $2 of tenant $1.
SELECT pg_catalog.pg_advisory_xact_lock(1129072716, pg_catalog.hashtext($1 || '|' || $2))

-- The rules' probes, one fragment each (sql/gen_record_sql.c): given a
-- staged record c (a row of clearing_record's columns), the applied record
-- r of the tenant (the setting clearing_load.tenant) that the rule matches
-- it with, at most one.  Each is written once, here; the statements below
-- say which staged records a rule looks at, in the order of precedence of
-- cl_classify (exact key, alternate keys, near duplicates, the other ACH
-- key rule).

-- Each rule's match condition is a fragment of its own (classify_match_X:
-- applied record r matches staged record c, the tenant aside), read by
-- its probe below and by the Citus form of its statement (at the end of
-- this file): one definition of each rule on both.

-- fragment: classify_match_exact
-- The same key.
r.kind = c.kind AND r.natural_key = c.natural_key AND r.shard = c.shard

-- fragment: classify_probe_exact
-- The same key: one probe of the unique index, in the one partition of
-- the key's shard (rules/shard.h) when the table is partitioned.  The
-- tenant is the staged record's (every staged record has the load's):
-- the same probe on Citus, where it runs on the worker of c's shard,
-- which has no setting clearing_load.tenant.
SELECT r.*
FROM clearing_record r
WHERE r.tenant = c.tenant
  AND {classify_match_exact}
LIMIT 1

-- fragment: classify_match_near
-- An ACH near duplicate (rules/near.h): the same near identity, another
-- natural key and a near date.
r.near_key = c.near_key AND r.shard = c.shard
  AND r.kind IS NOT DISTINCT FROM c.kind
  AND r.natural_key <> c.natural_key
  AND clearing_near_dates(r.value_date, c.value_date)

-- fragment: classify_probe_near
-- An ACH near duplicate (rules/near.h): the same near identity, another
-- natural key and a near date; the closest in date.  One probe of
-- clearing_record_near_key (migration 010), in one partition: a near
-- duplicate has the same trace, so the same shard (rules/shard.h).  The
-- kind compared with IS NOT DISTINCT FROM (kind is never null), which no
-- index can take: compared with =, the unique index (tenant, kind) looked
-- as good as the near index to a planner without statistics (a table
-- never analyzed: autovacuum off, just restored) and each probe read a
-- whole partition of the tenant's records.
SELECT r.*
FROM clearing_record r
WHERE r.tenant = c.tenant
  AND {classify_match_near}
ORDER BY abs(r.value_date - c.value_date), r.load_id, r.ordinal
LIMIT 1

-- fragment: classify_match_rule_v1
-- A v1 entry c against a v1-batch entry r: the same originator, trace
-- number and effective date.
r.kind = 'ach.entry' AND r.key_rule = 'v1-batch'
  AND r.company_id = c.company_id AND r.trace_number = c.trace_number
  AND r.value_date = c.value_date AND r.shard = c.shard

-- fragment: classify_match_rule_batch
-- A v1-batch entry c against a v1 entry r, the same way.
r.kind = 'ach.entry' AND r.key_rule = 'v1'
  AND r.company_id = c.company_id AND r.trace_number = c.trace_number
  AND r.value_date = c.value_date AND r.shard = c.shard

-- fragment: classify_of_tenant
-- The applied records of this load's tenant (the setting): each
-- one-server probe below is this, AND its rule's condition.
SELECT r.*
FROM clearing_record r
WHERE r.tenant = pg_catalog.current_setting('clearing_load.tenant')

-- fragment: classify_probe_rule_v1
-- A v1 entry against the tenant's v1-batch entries: the same originator,
-- trace number and effective date (the partial index of migration 004).
{classify_of_tenant}
  AND {classify_match_rule_v1}
ORDER BY r.load_id, r.ordinal
LIMIT 1

-- fragment: classify_probe_rule_batch
-- A v1-batch entry against the tenant's v1 entries, the same way (the
-- trace-number index of migration 011).
{classify_of_tenant}
  AND {classify_match_rule_batch}
ORDER BY r.load_id, r.ordinal
LIMIT 1

-- fragment: classify_match_alt
-- An applied record r found by an alternate key of c (either against
-- either) is the same payment: another natural key, the same content
-- (the same fingerprint, or the instructed agent aside when both have an
-- alt_fp).
r.natural_key <> c.natural_key
  AND (r.fingerprint = c.fingerprint OR r.alt_fp = c.alt_fp)

-- fragment: classify_probe_alt
-- One payment under another natural key (record.h: alt_key): either
-- alternate key against either index of migrations 006 and 008, the same
-- content (the same fingerprint, or the instructed agent aside when both
-- have an alt_fp).  Four probes, never a join on an OR.
SELECT r.*
FROM (SELECT * FROM clearing_record r
      WHERE r.tenant = pg_catalog.current_setting('clearing_load.tenant')
        AND r.kind = c.kind AND r.alt_key = c.alt_key
      UNION ALL
      SELECT * FROM clearing_record r
      WHERE r.tenant = pg_catalog.current_setting('clearing_load.tenant')
        AND r.kind = c.kind AND r.alt_key = c.alt_key2
      UNION ALL
      SELECT * FROM clearing_record r
      WHERE r.tenant = pg_catalog.current_setting('clearing_load.tenant')
        AND r.kind = c.kind AND r.alt_key2 = c.alt_key
      UNION ALL
      SELECT * FROM clearing_record r
      WHERE r.tenant = pg_catalog.current_setting('clearing_load.tenant')
        AND r.kind = c.kind AND r.alt_key2 = c.alt_key2) r
WHERE {classify_match_alt}
ORDER BY r.load_id, r.ordinal
LIMIT 1

-- name: classify_event_create
-- The journal rows of this attempt, as clearing_dedupe_event will hold
-- them (but created_at, its default there).  Dropped with the transaction.
CREATE TEMPORARY TABLE cl_event ON COMMIT DROP AS
SELECT load_id, ordinal, position, tenant, kind, natural_key, reason, matched_key,
       matched_load_id, matched_ordinal, matched_position, fields, shard
FROM clearing_dedupe_event
WITH NO DATA

-- name: classify_event_index
-- The rows that are not plain duplicates by ordinal, for the statements
-- that ask whether a pending record was journaled (a probe each): a
-- partial index, so the exact-key join's duplicates add nothing to it.
CREATE INDEX cl_event_attention ON pg_temp.cl_event (ordinal) WHERE reason <> 'duplicate'

-- name: classify_sample
-- Is a key of the file applied already?  Asked of the sample of its keys
-- the loader took while staging it (loader/key_sample.h: at most 2,048
-- evenly spaced, and the last; kinds $1 and keys $2, text arrays of equal
-- length): when none is, the file is taken for new and its records are
-- inserted without the exact-key probes, the unique index's own check on
-- insert standing in for them (loader/load.c).  A probe of the unique
-- index per sampled key, the first match ends it; the stage is not read.
SELECT EXISTS (
  SELECT 1
  FROM (SELECT pg_catalog.current_setting('clearing_load.tenant') AS tenant, u.kind,
               u.natural_key, clearing_shard(u.kind, u.natural_key) AS shard
        FROM ROWS FROM (pg_catalog.unnest($1::text[]), pg_catalog.unnest($2::text[]))
          AS u(kind, natural_key)) c
  CROSS JOIN LATERAL ({classify_probe_exact}) r)

-- fragment: classify_exact_rows
-- The exact-key join's rows (the staged record, the applied one it
-- matches), in the column order of classify_exact_columns.  One probe of
-- the unique index per staged record (a lateral with LIMIT is always a
-- nested loop over the stage): as a plain join the plan flipped with the
-- table's size and with statistics left stale by the previous load (a
-- hash join reads the tenant's every record, a merge join sorts them, a
-- nested loop the wrong way round went quadratic).  (The load id is the
-- staged record's, the load's own.)
SELECT c.load_id, c.ordinal, c.position, r.tenant, c.kind,
       coalesce(c.journal_key, c.natural_key),
       CASE WHEN r.fingerprint = c.fingerprint THEN 'duplicate' ELSE 'conflict' END,
       r.load_id, r.ordinal, r.position, c.shard
FROM pg_temp.cl_stage c
CROSS JOIN LATERAL ({classify_probe_exact}) r

-- fragment: classify_exact_columns
-- The columns classify_exact_rows fills, of a journal row (its matched
-- key is an exact match's own: none), without parentheses: the Citus
-- form adds the attempt's nonce.
load_id, ordinal, position, tenant, kind, natural_key, reason, matched_load_id,
 matched_ordinal, matched_position, shard

-- name: classify_exact
-- Exact key matches: one INSERT ... SELECT writes the journal rows of the
-- staged records whose key this tenant has applied (duplicate: same
-- fingerprint; conflict: other content); its row count is the number of
-- matches.  On Citus the same probe writes its rows on the workers
-- (classify_exact_citus).
INSERT INTO pg_temp.cl_event ({classify_exact_columns})
{classify_exact_rows}

-- name: classify_exact_citus
-- classify_exact on Citus: the same probe, its rows written where it ran.
-- The stage is distributed and co-located with clearing_record
-- (stage_create_citus): each task the join of one stage shard with the
-- same shard of clearing_record, LIMIT and all, on its worker, its rows
-- into the same shard of clearing_stage_match (migration 042, seen
-- through the view cl_stage_match): nothing comes back to the
-- coordinator but the row count, the number of matches.  Its conflicts
-- are then brought to the journal rows (classify_exact_conflicts_citus),
-- its plain duplicates journaled from where they are
-- (load_write_duplicates_citus):
-- docs/design/0057-duplicates-journaled-on-the-workers.md.  Each row under
-- the attempt's nonce $1 (load_set_context), as the stage's: the load reads
-- its matches through the view cl_stage_match, by load id and nonce (044).
INSERT INTO clearing_stage_match ({classify_exact_columns}, nonce)
SELECT m.*, $1::bigint
FROM ({classify_exact_rows}) m

-- name: classify_exact_journal_citus
-- classify_exact on Citus when the outcome will keep its duplicates
-- (loader/load.c, classify_in_full): the same probe, its rows written
-- straight into the journal, in the staged record's shard (the journal is
-- co-located with the stage, 037), one task per shard on its worker: no
-- row comes back to the coordinator or is written twice.  Its row count is
-- the number of matches.  After the savepoint classify_savepoint_citus: a
-- conflict among them (classify_exact_attention_citus), or a file then
-- held, undoes it (classify_rollback_citus):
-- docs/design/0061-exact-matches-journaled-at-the-join.md.
INSERT INTO clearing_dedupe_event ({classify_exact_columns})
{classify_exact_rows}

-- name: classify_exact_attention_citus
-- Whether classify_exact_journal_citus journaled a match that is not a
-- plain duplicate for load $1: through the journal's partial index of
-- those rows (clearing_dedupe_event_attention), a probe per shard.
SELECT EXISTS (SELECT 1 FROM clearing_dedupe_event
               WHERE load_id = $1::bigint AND reason <> 'duplicate')

-- name: classify_savepoint_citus
-- Before a staged file's classification on Citus (loader/load.c,
-- classify_in_full): what classify_rollback_citus undoes.
SAVEPOINT cl_classify

-- name: classify_rollback_citus
-- The classification that journaled its exact matches undone (its journal
-- rows, its temporary tables of the coordinator), the stage kept: the file
-- is classified again with its matches kept beside the stage.
ROLLBACK TO SAVEPOINT cl_classify

-- fragment: classify_match_rows
-- This load's rows of clearing_stage_match (classify_exact_citus) as
-- journal rows (one server's classify_exact writes the same), for an
-- INSERT into the journal or its rows on the coordinator.
(load_id, ordinal, position, tenant, kind, natural_key, reason, matched_key, matched_load_id,
 matched_ordinal, matched_position, shard)
SELECT load_id, ordinal, position, tenant, kind, natural_key, reason, NULL, matched_load_id,
       matched_ordinal, matched_position, shard
FROM pg_temp.cl_stage_match

-- name: classify_exact_conflicts_citus
-- The conflicts among classify_exact_citus's matches as journal rows on
-- the coordinator, to be explained, parked or held as on one server; its
-- row count is the number of conflicts.
INSERT INTO pg_temp.cl_event {classify_match_rows}
WHERE reason = 'conflict'

-- name: classify_conflict_rows
-- The conflicts of this load (ordinal, reason), through the partial index
-- cl_event_attention (it holds only the rows that are not plain
-- duplicates).
COPY (SELECT ordinal, reason FROM pg_temp.cl_event
      WHERE reason <> 'duplicate') TO STDOUT

-- name: classify_pending
-- The staged records the exact-key join did not match, for the
-- statements after it: they then read these (a tenth of a 90%-duplicate
-- re-upload) instead of the whole stage less its journal rows each time.
CREATE TEMPORARY TABLE cl_pending ON COMMIT DROP AS
SELECT s.* FROM pg_temp.cl_stage s
WHERE NOT EXISTS (
  SELECT 1 FROM pg_temp.cl_event e
  WHERE e.ordinal = s.ordinal)

-- name: classify_pending_citus
-- classify_pending on Citus: the pending records as copies in the
-- distributed stage (its pending rows, beside the staged ones in their
-- shard), so that the probes after it are co-located joins too.  Citus
-- joins no distributed table with the temporary journal rows: the pending
-- records are those without an applied record of their key, found by the
-- same probe as classify_exact, on each worker.  Its row count plus the
-- exact matches must be the file's records: a key committed by another
-- load between the two statements would be neither journaled nor pending,
-- so the loader then retries the file (loader/classify.c).
INSERT INTO clearing_stage ({record_columns}, journal_key, pending, nonce)
SELECT {record_columns}, journal_key, true, nonce
FROM pg_temp.cl_stage c
WHERE NOT EXISTS ({classify_probe_exact})

-- name: classify_pending_local_citus
-- The pending records on the coordinator, as a temporary table of the
-- same name in place of the view of the stage, before the statements that
-- leave out the pending records journaled since (a join with the
-- temporary journal rows, which Citus makes with no distributed table):
-- the other ACH key rule, the insert once some were journaled, the
-- ordered path (a held file is never applied: none of these).  Nothing
-- when they are a table already.  (The view is renamed on the
-- coordinator alone: DDL of a temporary object is not sent to the
-- workers.)
DO $local$
DECLARE
  ddl text := pg_catalog.current_setting('citus.enable_ddl_propagation');
BEGIN
  IF EXISTS (SELECT 1 FROM pg_catalog.pg_class
             WHERE relname = 'cl_pending' AND relkind = 'v'
               AND relnamespace = pg_catalog.pg_my_temp_schema()) THEN
    PERFORM pg_catalog.set_config('citus.enable_ddl_propagation', 'off', true);
    ALTER VIEW pg_temp.cl_pending RENAME TO cl_pending_stage;
    CREATE TEMPORARY TABLE cl_pending ON COMMIT DROP AS
      SELECT * FROM pg_temp.cl_pending_stage;
    PERFORM pg_catalog.set_config('citus.enable_ddl_propagation', ddl, true);
  END IF;
END
$local$

-- name: classify_pending_view_citus
-- The pending copies of this load as pg_temp.cl_pending (stage.sql,
-- stage_create_citus, made their view and drops it at the session's next
-- load).
CREATE TEMPORARY VIEW cl_pending AS SELECT * FROM pg_temp.cl_stage_pending

-- name: classify_pending_no_nestloop
-- The anti-join above as a hash join whatever the statistics say (just
-- after a load they are stale): a nested loop over the journal rows of
-- this load would be quadratic.  Back to the default after it.
SET LOCAL enable_nestloop = off

-- name: classify_pending_nestloop_default
-- Nested loops back: the statements after it probe indexes.
SET LOCAL enable_nestloop TO DEFAULT

-- name: classify_pending_analyze
-- Its statistics, for the plans that read it.
ANALYZE pg_temp.cl_pending

-- name: classify_pending_all
-- When the exact-key join matched nothing, every staged record is
-- pending, as a view of the stage, not a copy (dropped with the stage at the
-- transaction's end; a direct load's before it: stage.sql, stage_direct_drop).
CREATE TEMPORARY VIEW cl_pending AS SELECT * FROM pg_temp.cl_stage

-- fragment: classify_tenant_near
-- Has the tenant applied ACH records (every one has a near identity: one
-- probe of clearing_record_near_key)?  (The first row of the index's
-- order under a LIMIT, not EXISTS: the plan then reads one index entry,
-- never the table until a match.)
coalesce((SELECT true FROM clearing_record
          WHERE tenant = pg_catalog.current_setting('clearing_load.tenant')
            AND near_key IS NOT NULL
          ORDER BY near_key
          LIMIT 1), false)

-- name: classify_near_wanted
-- Is a near-duplicate search worth it: ACH records staged, and the tenant
-- has applied ACH records?
SELECT EXISTS (SELECT 1 FROM pg_temp.cl_stage WHERE near_key IS NOT NULL)
   AND {classify_tenant_near}

-- name: classify_rule_v1_wanted
-- Has the tenant applied entries under the v1-batch rule (one probe of the
-- partial index of migration 004)?  Without any, a v1 load's probes for
-- them are skipped.
SELECT coalesce((SELECT true FROM clearing_record
                 WHERE tenant = pg_catalog.current_setting('clearing_load.tenant')
                   AND key_rule = 'v1-batch'
                 LIMIT 1), false)

-- fragment: classify_near_rows
-- The journal row of pending record c as a near duplicate of the applied
-- record r a probe found: the columns, then the SELECT (CROSS JOIN
-- LATERAL (probe) r and a WHERE follow).
(load_id, ordinal, position, tenant, kind,
    natural_key, reason, matched_key, matched_load_id, matched_ordinal, matched_position, shard)
  SELECT c.load_id, c.ordinal, c.position, r.tenant, r.kind,
         coalesce(c.journal_key, c.natural_key), 'near_duplicate', r.natural_key,
         r.load_id, r.ordinal, r.position, c.shard
  FROM pg_temp.cl_pending c

-- fragment: classify_near_event
-- A pending record c journaled as a near duplicate of the applied record r
-- a probe found (CROSS JOIN LATERAL (probe) r and a WHERE follow, then
-- classify_near_returned), streamed out.
COPY (
  INSERT INTO pg_temp.cl_event {classify_near_rows}

-- fragment: classify_near_returned
-- The end of a classify_near_event statement: the records not journaled
-- yet, and each journaled one's ordinal and reason.
    AND {apply_unjournaled}
  RETURNING ordinal, reason) TO STDOUT

-- name: classify_near
-- ACH near duplicates among the pending records without a journal row yet
-- (entries, returns and NOCs): an applied record of this tenant with the
-- same near identity (rules/near.h), another natural key and a near date
-- is the same payment or return again; the closest in date is named in
-- the journal.  A lateral probe of clearing_record_near_key (migration
-- 010) per pending record, whatever the table holds: as a plain join the
-- planner hashes the tenant's every record once the file is large.
-- Returns each journaled record's ordinal and reason.  The only pending
-- records journaled before it are the alternate-key statement's, records
-- with an alternate key, which have no near identity (ISO payments, ACH
-- records): none is left out.  On Citus the same statement: the pending
-- records are the distributed stage's (classify_pending_citus), each
-- probe on the worker of its shard, LIMIT and all.
{classify_near_event}
  CROSS JOIN LATERAL ({classify_probe_near}) r
  WHERE c.near_key IS NOT NULL AND c.alt_key IS NULL
  RETURNING ordinal, reason) TO STDOUT

-- name: classify_near_side_create
-- A new file's records as classify_near's probe reads them (tenant, kind,
-- key, shard, near identity, date: loader/row.c cl_row_copy_near writes
-- them in this order), on the second connection of loader/near_side.c,
-- in a transaction of its own: dropped with it.
CREATE TEMPORARY TABLE cl_near_side ON COMMIT DROP AS
SELECT tenant, kind, natural_key, shard, near_key, value_date
FROM clearing_record
WITH NO DATA

-- name: classify_near_side_lock_timeout
-- The second connection waits for no lock: one it would wait for gives
-- up its probe (55P03), and the first connection probes after its COPY.
-- A lock queued on clearing_record or one of its partitions behind the
-- first connection (VACUUM FULL, CLUSTER, LOCK TABLE, ALTER TABLE) would
-- otherwise queue the second's locks behind it while the first waits for
-- the second's answer: a wait the server cannot see as a deadlock.
SET LOCAL lock_timeout = '1s'

-- name: classify_near_side_copy
-- The rows of cl_near_side.
COPY pg_temp.cl_near_side FROM STDIN (FORMAT binary)

-- name: classify_near_side
-- classify_near's probe of a new file's records (cl_near_side), on the
-- second connection while the first COPYs them into clearing_record
-- (decision 0059): a row when any has a near duplicate among the applied
-- records.  The first connection's rows are not seen (its transaction
-- has not committed), nor need they be: the file holds no near duplicate
-- of its own (stage.c, direct_fit).  Sent after the load's originator
-- locks are held: what it sees of the tenant's records is what
-- classify_near would see after the COPY.
SELECT 1
FROM pg_temp.cl_near_side c
CROSS JOIN LATERAL ({classify_probe_near}) r
WHERE c.near_key IS NOT NULL
LIMIT 1

-- name: classify_rule_v1
-- The other ACH key rule, for a v1 load: an entry whose originator, trace
-- number and effective date are already applied under the v1-batch rule
-- is the same payment under another key, never new: journaled as a near
-- duplicate (a conflict: the operator decides), like a re-dated copy.  The
-- probe goes through the partial index of migration 004 (empty unless
-- --ach-key=batch was ever used).
{classify_near_event}
  CROSS JOIN LATERAL ({classify_probe_rule_v1}) r
  WHERE c.kind = 'ach.entry'
  {classify_near_returned}

-- name: classify_rule_batch
-- The same for a v1-batch load (the rare, weaker mode): its entries
-- against the tenant's v1 entries, probed through the trace-number index
-- of migration 011 (no index holds v1 entries by originator, trace and
-- date; one would cost every load): a probe reads the tenant's records of
-- one trace number, one a business day at most.
{classify_near_event}
  CROSS JOIN LATERAL ({classify_probe_rule_batch}) r
  WHERE c.kind = 'ach.entry'
  {classify_near_returned}

-- name: classify_alt
-- One payment under another natural key (record.h: alt_key): a pending
-- record (its key is not applied) whose alternate key and content are,
-- under another key (the same pacs.008 sent before without its UETR, or
-- after with it).  A near duplicate: a conflict the operator decides on.
-- The same content: the same fingerprint, or the instructed agent aside
-- when both have an alt_fp (one form of a payment may lack it).  Another
-- fingerprint is another payment that happens to reuse an id: new.  Four
-- probes per pending record (either alternate key against either index of
-- migrations 006 and 008), never a join on an OR: that one went quadratic
-- (80 s for a 22,000-transaction re-upload).
{classify_near_event}
  CROSS JOIN LATERAL ({classify_probe_alt}) r
  WHERE c.alt_key IS NOT NULL
  RETURNING ordinal, reason) TO STDOUT

-- The Citus forms (docs/design/0038-loading-on-citus.md), run instead of
-- the statements above when the database is a Citus one (db.sql,
-- db_session_setup).  Citus cannot push down a lateral probe with LIMIT
-- whose outer side is the stage (a temporary table, or an array): "cannot
-- push down this subquery".  Here each rule's probe is a lateral subquery
-- of clearing_record on the rule's own condition (the fragments
-- classify_match_X above) and on the tenant as a column of the staged
-- record (the setting clearing_load.tenant is the coordinator's: Citus
-- would send current_setting() to the workers, which do not know it),
-- giving every match; of a rule that names one match the first is kept on
-- the coordinator (DISTINCT ON), where the probes above take it with LIMIT
-- 1.  Citus plans the staged side as an intermediate result (read once on
-- the coordinator, in this session, and sent to every worker; the staged
-- records a statement reads are a MATERIALIZED CTE of the temporary
-- tables only, so that all of it runs here) and the probe as one task per
-- shard of clearing_record.
--
-- Each probe ends in ORDER BY r.shard, which orders nothing (a staged
-- record's matches are in its shard) and keeps the probe a probe
-- (docs/design/0040-citus-probe-plans.md): PostgreSQL does not pull a
-- subquery with ORDER BY up into a join, so on each worker it stays the
-- inner side of a nested loop over the staged records, planned on its
-- own with the staged record's columns as parameters, and every index
-- path it has names them in its Index Cond (every index of
-- clearing_record but clearing_record_load_ordinal begins with the
-- tenant).  As a plain join the planner could take a shard, or a whole
-- index of it, for the outer side (it did: a whole scan of an empty
-- partial index).  The shard being equal to the staged record's, the
-- order costs no sort.

-- fragment: classify_citus_of_tenant
-- The records of the staged record c's tenant: each Citus probe below is
-- this, AND its rule's condition, ORDER BY r.shard.
SELECT r.*
FROM clearing_record r
WHERE r.tenant = c.tenant

-- fragment: classify_citus_probe_exact
-- classify_probe_exact on Citus: the record of c's key (one at most).
{classify_citus_of_tenant} AND {classify_match_exact}
ORDER BY r.shard

-- fragment: classify_citus_probe_near
-- classify_probe_near on Citus: c's near duplicates.
{classify_citus_of_tenant} AND {classify_match_near}
ORDER BY r.shard

-- fragment: classify_citus_probe_rule_v1
-- classify_probe_rule_v1 on Citus.
{classify_citus_of_tenant} AND {classify_match_rule_v1}
ORDER BY r.shard

-- fragment: classify_citus_probe_rule_batch
-- classify_probe_rule_batch on Citus.
{classify_citus_of_tenant} AND {classify_match_rule_batch}
ORDER BY r.shard

-- fragment: classify_citus_first_rule_v1
-- classify_probe_rule_v1 on Citus with the staged record's tenant, for a
-- co-located join (the pending records the distributed stage's): the
-- first match, as on one server, the LIMIT sent to the worker with the
-- rest.  (Over an intermediate result, as diff's, Citus refuses a LIMIT
-- in a lateral subquery: there the probe above.)
{classify_citus_of_tenant} AND {classify_match_rule_v1}
ORDER BY r.load_id, r.ordinal
LIMIT 1

-- fragment: classify_citus_first_rule_batch
-- classify_probe_rule_batch the same way.
{classify_citus_of_tenant} AND {classify_match_rule_batch}
ORDER BY r.load_id, r.ordinal
LIMIT 1

-- fragment: classify_citus_alt
-- The end of each of classify_probe_alt's four probes on Citus as diff
-- asks them (plan.sql: diff stages nothing, so it has no alternate-key
-- stage to join; a load asks classify_alt_citus), after the alternate
-- key's condition: the same kind and content.  A record of any shard (an
-- alternate key is not the shard's), so every task probes, and sorts the
-- few matches of each staged record by shard.  (Citus takes no UNION ALL
-- of them in one lateral subquery: four laterals.)
r.kind = c.kind AND {classify_match_alt}
ORDER BY r.shard

-- fragment: classify_citus_probe_alt_11
-- The first: c's alt_key against alt_key.
{classify_citus_of_tenant} AND r.alt_key = c.alt_key AND {classify_citus_alt}

-- fragment: classify_citus_probe_alt_21
-- The second: c's alt_key2 against alt_key.
{classify_citus_of_tenant} AND r.alt_key = c.alt_key2 AND {classify_citus_alt}

-- fragment: classify_citus_probe_alt_12
-- The third: c's alt_key against alt_key2.
{classify_citus_of_tenant} AND r.alt_key2 = c.alt_key AND {classify_citus_alt}

-- fragment: classify_citus_probe_alt_22
-- The fourth: c's alt_key2 against alt_key2.
{classify_citus_of_tenant} AND r.alt_key2 = c.alt_key2 AND {classify_citus_alt}

-- name: classify_citus_propagate
-- The settings below on the workers too: with citus.propagate_set_commands 'local', Citus sends
-- each later SET LOCAL of the transaction to the workers it is in a
-- transaction with, and to each it opens one with later.  For this
-- transaction only; run on Citus only, before the classification (the
-- stage's own checks, local self-joins, are done by then).
SET LOCAL citus.propagate_set_commands = 'local'

-- name: classify_citus_no_hashjoin
-- No hash join, on the coordinator and the workers: a hash join of a
-- shard's records would read the tenant's history at every load
-- (docs/design/0019; the lateral probes cannot be hashed, the other
-- joins of a load's statements could).  The anti-join of classify_pending (local) is still
-- a hash join: every join method is then off, the cheapest is taken.
SET LOCAL enable_hashjoin = off

-- name: classify_citus_no_mergejoin
-- No merge join either (it sorts a shard's records).
SET LOCAL enable_mergejoin = off

-- name: classify_citus_no_seqscan
-- No scan of a shard either: a probe's only path that names no staged
-- column (its subquery's other paths are index scans whose Index Cond
-- does).  When the probes were plain joins, a worker's planner, seeing
-- the staged records as a function of 1,000 rows whatever their number,
-- took a shard with stale or missing statistics for the outer side of the
-- nested loop (tests/citus/run.sh reads the plans).  The temporary tables
-- the coordinator reads have no index: their scans stay.
SET LOCAL enable_seqscan = off

-- name: classify_citus_no_jit
-- No JIT compilation on the workers either (db_session_setup turns it off
-- on the coordinator only): a lateral probe's plan is costed per staged
-- record without the repeated probes' caching, so a task of 100,000
-- staged records passed jit_inline_above_cost and compiled for 5 s,
-- doubling an exact re-upload's time.
SET LOCAL jit = off

-- name: classify_sample_citus
-- classify_sample on Citus: the sampled records read in the distributed
-- stage by their ordinals ($1, a bigint array: loader/key_sample.h), each
-- probed by classify_probe_exact in its own shard: a join of one stage
-- shard with the same shard of clearing_record per task, on its worker
-- (as classify_exact), only the counts coming back.  No first match
-- ends it (at most 2,049 probes in all, spread over the shards).  (As arrays,
-- the keys were an intermediate result sent to every worker, each task
-- probing its shard for all of them.)
SELECT pg_catalog.count(*) <> 0
FROM pg_temp.cl_stage c
CROSS JOIN LATERAL ({classify_probe_exact}) r
WHERE c.ordinal = ANY ($1::bigint[])

-- name: classify_sample_keys_citus
-- classify_sample on Citus for a file read straight into clearing_record
-- (loader/load.c: no stage to read the sampled records from): tenant $1,
-- kinds $2 and keys $3 (text arrays of equal length), an inner join of the
-- keys with the records, so every shard's task probes its shard's unique
-- index for the keys whose shard value is its own.
SELECT EXISTS (
  SELECT 1
  FROM clearing_record r
  JOIN ROWS FROM (pg_catalog.unnest($2::text[]), pg_catalog.unnest($3::text[]))
         AS u(kind, natural_key)
    ON r.kind = u.kind AND r.natural_key = u.natural_key
   AND r.shard = clearing_shard(u.kind, u.natural_key)
  WHERE r.tenant = $1)

-- name: classify_near_wanted_citus
-- classify_near_wanted on Citus, for tenant $1.  The stage's question
-- with LIMIT 1, which Citus sends to each shard (an EXISTS of the
-- distributed stage alone brought every staged ACH record's row back to
-- the coordinator: 0.4 s for 100,000).
SELECT EXISTS (SELECT 1 FROM pg_temp.cl_stage WHERE near_key IS NOT NULL LIMIT 1)
   AND coalesce((SELECT true FROM clearing_record
                 WHERE tenant = $1 AND near_key IS NOT NULL
                 LIMIT 1), false)

-- name: classify_tenant_near_citus
-- Has tenant $1 applied ACH records (classify_tenant_near on Citus)?
SELECT coalesce((SELECT true FROM clearing_record
                 WHERE tenant = $1 AND near_key IS NOT NULL
                 LIMIT 1), false)

-- name: classify_rule_v1_wanted_citus
-- classify_rule_v1_wanted on Citus, for tenant $1.
SELECT coalesce((SELECT true FROM clearing_record
                 WHERE tenant = $1 AND key_rule = 'v1-batch'
                 LIMIT 1), false)

-- name: classify_match_create_citus
-- The journal rows a co-located probe found on Citus, before those of
-- pending records journaled since are left out (classify_match_journal_citus):
-- Citus joins no distributed table with the temporary journal rows, so
-- the probe (a join of the distributed pending records with clearing_record,
-- one task per shard pair) writes its matches here, and the coordinator
-- filters them.  Dropped with the transaction.
CREATE TEMPORARY TABLE cl_match ON COMMIT DROP AS
SELECT * FROM pg_temp.cl_event WITH NO DATA

-- name: classify_match_journal_citus
-- The matches of cl_match whose pending record has no journal row yet
-- ({apply_unjournaled}) into the journal rows, cl_match emptied; returns
-- each one's ordinal and reason.  A pending record's first applied match
-- (each probe gives one per pending record but classify_alt_citus, one
-- per alternate key).  Temporary tables only: the coordinator's.
COPY (WITH c AS (DELETE FROM pg_temp.cl_match RETURNING *)
      INSERT INTO pg_temp.cl_event
      SELECT DISTINCT ON (c.ordinal) * FROM c
      WHERE {apply_unjournaled}
      ORDER BY c.ordinal, c.matched_load_id, c.matched_ordinal
      RETURNING ordinal, reason) TO STDOUT

-- name: classify_rule_v1_citus
-- classify_rule_v1 on Citus: the distributed pending entries (every one,
-- journaled or not: classify_match_journal_citus leaves out the journaled
-- ones after), each probed in its shard, into cl_match: one join of a
-- stage shard with the same shard of clearing_record per task.
INSERT INTO pg_temp.cl_match {classify_near_rows}
  CROSS JOIN LATERAL ({classify_citus_first_rule_v1}) r
  WHERE c.kind = 'ach.entry'

-- name: classify_rule_batch_citus
-- classify_rule_batch on Citus, the same way.
INSERT INTO pg_temp.cl_match {classify_near_rows}
  CROSS JOIN LATERAL ({classify_citus_first_rule_batch}) r
  WHERE c.kind = 'ach.entry'

-- name: classify_alt_stage_citus
-- Before classify_alt_citus: the pending records with an alternate key
-- (the distributed stage's, pg_temp.cl_pending), each under each of its
-- alternate keys, into clearing_alt_stage in that key's shard (migration
-- 041), where clearing_alt_key holds the applied records' alternate keys:
-- Citus moves each row to its shard worker to worker (a repartitioned
-- INSERT ... SELECT).  The key as the journal keeps it, the staged
-- record's own shard, the journal row's, and its nonce, the attempt's
-- (044: the load reads this table by load id and nonce).  With
-- RETURNING, so that where Citus does not repartition (a schema of one
-- shard, or citus.enable_repartitioned_insert_select off) it sends the
-- rows through the coordinator as INSERTs per shard, which row security
-- checks, not as COPY, which it refuses (docs/design/0046).
WITH staged AS (
  INSERT INTO clearing_alt_stage (shard, load_id, ordinal, position, tenant, kind, alt_key,
                                  natural_key, journal_key, fingerprint, alt_fp, record_shard,
                                  nonce)
  SELECT clearing_shard(c.kind, a.alt_key), c.load_id, c.ordinal, c.position, c.tenant, c.kind,
         a.alt_key, c.natural_key, coalesce(c.journal_key, c.natural_key), c.fingerprint,
         c.alt_fp, c.shard, c.nonce
  FROM pg_temp.cl_pending c
  CROSS JOIN LATERAL (VALUES (c.alt_key), (c.alt_key2)) a (alt_key)
  WHERE c.alt_key IS NOT NULL AND a.alt_key IS NOT NULL
  RETURNING 1)
SELECT count(*) FROM staged

-- name: classify_alt_citus
-- classify_alt on Citus: each alternate key of a pending record
-- (classify_alt_stage_citus) against the applied records' alternate keys
-- of its shard (clearing_alt_key), the first applied of each with the
-- same content (classify_match_alt), into cl_match: one join of an
-- alternate-key stage shard with the same shard of clearing_alt_key per
-- task, on its worker.  Either key against either: each side holds a row
-- per key.  classify_match_journal_citus then keeps, per pending record,
-- the first applied of its (at most two) matches, as classify_alt's
-- LIMIT 1 over its four probes does.
INSERT INTO pg_temp.cl_match (load_id, ordinal, position, tenant, kind, natural_key, reason,
                              matched_key, matched_load_id, matched_ordinal, matched_position,
                              shard)
SELECT c.load_id, c.ordinal, c.position, r.tenant, r.kind, c.journal_key, 'near_duplicate',
       r.natural_key, r.load_id, r.ordinal, r.position, c.record_shard
FROM pg_temp.cl_alt_stage c
CROSS JOIN LATERAL (
  SELECT r.*
  FROM clearing_alt_key r
  WHERE r.tenant = c.tenant AND r.kind = c.kind AND r.alt_key = c.alt_key
    AND r.shard = c.shard AND {classify_match_alt}
  ORDER BY r.load_id, r.ordinal
  LIMIT 1) r
