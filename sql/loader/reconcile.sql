-- reconcile.sql - statement entries against applied records, both ways
-- (loader/reconcile.c; clearing-load(1) RECONCILIATION).  Every query is
-- bounded by one statement: its items by the statement index, each
-- reference an index probe of clearing_record, a batch by the file it came
-- in, unmatched ours and suggestions by the statement's period.

-- fragment: reconcile_no_money
-- The kinds of record that move no money: an ACH NOC (notification of
-- change, a COR entry of amount zero), a cancellation request (camt.056)
-- and its answer (camt.029).  A statement never books one: no entry
-- matches it and it is never unmatched ours (the loader links it to its
-- original, show says which).
'ach.noc', 'camt.056', 'camt.029'

-- fragment: reconcile_bai2_ach_codes
-- The BAI2 detail type codes of ACH credits and debits that may settle a
-- whole batch or file of ours in one amount: 165 preauthorized ACH credit,
-- 166 ACH settlement, 169 miscellaneous ACH credit, 455 preauthorized ACH
-- debit, 466 ACH settlement, 469 miscellaneous ACH debit.
'165', '166', '169', '455', '466', '469'

-- fragment: reconcile_bai2_ach_return_codes
-- The BAI2 detail type codes of ACH returns settled in one amount: 168
-- ACH return item or adjustment settlement (credit), 468 (debit).  Not
-- 167 and 467, settlement adjustments: a correction of a settlement's
-- amount, no set of records of ours.
'168', '468'

-- name: reconcile_create
-- The run's answer, one row per output item; kept past COMMIT (the output
-- is written once the run has committed), dropped by reconcile_drop.
-- "why" says what made an entry's status (reconcile.c words it).
CREATE TEMPORARY TABLE IF NOT EXISTS cl_recon (
	seq bigserial, statement_key text, status text, why text, entry_kind text,
	entry_key text COLLATE "C", entry_item text, entry_position bigint, entry_load_id bigint,
	account text, amount_minor bigint, currency text, direction text, booking_date date,
	value_date date, payment_status text, rule text, reference text, record_kind text,
	record_key text COLLATE "C", record_load_id bigint, record_position bigint,
	record_amount bigint, record_currency text, record_direction text,
	record_accounts text[], records bigint, batch_total bigint, batch_count bigint,
	batch_load_id bigint, batch_company text, batch_number text, batch_ref text,
	original_kind text, original_key text, candidates bigint, rejected text,
	record_date date, recorded boolean, stmt_group text COLLATE "C", bal_opening bigint,
	bal_closing bigint, bal_computed bigint, bal_pages text, bal_last_page bigint,
	bal_missing text, sub bigint, instructed_minor bigint, instructed_ccy text,
	charges_minor bigint, difference_minor bigint, record_ids text[])

-- fragment: reconcile_entry_columns
-- The columns of a statement's items the work reads (not the keys' rules,
-- fingerprints, balances and statement headers: a narrower copy of a
-- million items, and narrower scans of it).
i.kind, i.item, i.natural_key, i.entry_index, i.account, i.acct_svcr_ref, i.amount_minor,
i.currency, i.direction, i.status, i.booking_date, i.value_date, i.bank_tx_code,
i.batch_count, i.batch_pmt_inf_id, i.msg_id, i.pmt_inf_id, i.instr_id, i.end_to_end_id,
i.tx_id, i.uetr, i.ach_trace, i.load_id, i.position, i.tx_index, i.instructed_minor,
i.instructed_ccy, i.charges_minor, i.reversal

-- name: reconcile_create_entry
-- One statement's work tables (emptied for each statement): its entries,
CREATE TEMPORARY TABLE IF NOT EXISTS cl_recon_entry AS
SELECT {reconcile_entry_columns}, false AS is_return, NULL::date AS on_date,
       NULL::text COLLATE "C" AS parent_key
FROM clearing_statement_item i WITH NO DATA

-- name: reconcile_create_best
-- the record each entry's references found (cls: of the entry's class),
CREATE TEMPORARY TABLE IF NOT EXISTS cl_recon_best (
	entry_key text COLLATE "C", entry_index bigint, rule text, val text, kind text,
	natural_key text COLLATE "C", load_id bigint, position bigint, amount_minor bigint,
	currency text, direction text, value_date date, accounts text[], equal boolean,
	ncand bigint, nth bigint, original_trace text, orgnl_uetr text,
	orgnl_end_to_end_id text, uetr text, end_to_end_id text, tx_id text, taken boolean,
	rejected text, late boolean, cls boolean, recorded boolean, booked text, sub bigint,
	near text, outside boolean)

-- name: reconcile_create_sugg
-- the suggestion for an entry no reference matched,
CREATE TEMPORARY TABLE IF NOT EXISTS cl_recon_sugg (
	entry_key text COLLATE "C", kind text, natural_key text COLLATE "C", load_id bigint,
	ordinal bigint, position bigint, amount_minor bigint, currency text, direction text,
	value_date date, accounts text[])

-- name: reconcile_create_batch
-- and the best batch of each batch entry (on_date: of a BAI2 ACH line's
-- suggested batch or file, the day of its records; record_ids: their ids,
-- what break accept takes).
CREATE TEMPORARY TABLE IF NOT EXISTS cl_recon_batch (
	entry_key text COLLATE "C", rule text, ref text, load_id bigint, company text,
	batch_number text, kind text, n bigint, total bigint, exact boolean, on_date date,
	record_ids text[], sets bigint)

-- name: reconcile_create_open
-- The answer's items that are not matched, by an index of theirs only (a
-- probe for each of the few, not the million matched): what the breaks'
-- statements read (reconcile_break_ids to reconcile_count_decided).
CREATE INDEX IF NOT EXISTS cl_recon_open ON pg_temp.cl_recon (seq)
  WHERE status <> 'matched'

-- name: reconcile_analyze_answer
-- Statistics of the answer so far, for unmatched ours' anti-join (a hash
-- of the records it names; an index would cost every item its insert).
ANALYZE pg_temp.cl_recon

-- name: reconcile_truncate
-- A run starts with an empty answer (a connection that ran one before).
TRUNCATE pg_temp.cl_recon

-- name: reconcile_truncate_work
-- A statement starts with empty work tables.
TRUNCATE pg_temp.cl_recon_entry, pg_temp.cl_recon_best, pg_temp.cl_recon_sugg,
         pg_temp.cl_recon_batch

-- name: reconcile_drop
-- The answer, once written, and the work tables.
DROP TABLE IF EXISTS pg_temp.cl_recon, pg_temp.cl_recon_entry, pg_temp.cl_recon_best,
  pg_temp.cl_recon_sugg, pg_temp.cl_recon_batch

-- name: reconcile_settings
-- For the run's transaction: its sorts and hashes of a statement's
-- entries in memory, no JIT (the estimates of the per-entry probes are
-- large, the work small: compiling took longer than running), the work
-- tables' statistics from a small sample (their row counts are what the
-- plans need), and no sequential scans where an index serves: with the
-- history never analyzed (right after a bulk load) the planner read the
-- whole of it for a statement's day, or for a batch's file.  The work
-- tables have no index: they are still read whole.
SELECT pg_catalog.set_config('work_mem', '256MB', true), pg_catalog.set_config('jit', 'off', true),
       pg_catalog.set_config('default_statistics_target', '10', true),
       pg_catalog.set_config('enable_seqscan', 'off', true)

-- name: reconcile_session
-- Before the session's first temporary table: buffers for a statement's
-- work tables (8 MB by default: a million entries went to disk).
SET temp_buffers = '256MB'

-- name: reconcile_lock
-- One run at a time per tenant $1 (transaction-level): a second waits,
-- then finds the first's matches recorded (reconcile_best's recorded) and
-- records none of them again.
SELECT pg_catalog.pg_advisory_xact_lock(
  pg_catalog.hashtextextended('clearing-load reconcile ' || $1, 0))

-- name: reconcile_run_id
-- The run's id, taken when it begins; its row is written at the end.
SELECT pg_catalog.nextval('clearing_reconcile_run_seq')

-- name: reconcile_pending
-- The statements of tenant $1 that no run has reconciled yet, oldest first.
SELECT i.statement_key
FROM clearing_statement_item i
WHERE i.tenant = $1 AND i.item = 'statement'
  AND NOT EXISTS (
    SELECT 1 FROM clearing_reconcile_statement r
    WHERE r.tenant = i.tenant AND r.statement_key = i.statement_key)
ORDER BY i.load_id, i.ordinal

-- name: reconcile_header
-- Statement $2 of tenant $1: its kind, account, period (from, to) and
-- the account's currency (no row: not loaded); read by name.
SELECT kind, account, period_from, period_to, account_ccy
FROM clearing_statement_item
WHERE tenant = $1 AND statement_key = $2 AND item = 'statement'
LIMIT 1

-- name: reconcile_rule
-- The matching rule of statements of account $2 of tenant $1 (read by
-- name): of the tenant's latest rule set (match-rules load), the rule of
-- that account, else of the longest prefix of it ("DE8937040044*": a
-- bank), else of every account ("*"); no row: the defaults (no tolerance,
-- no window, the run's references, no charges expected).
SELECT r.tolerance_minor, r.tolerance_bp, r.window_days, r.refs, r.charges_max_minor, r.pattern,
       r.version
FROM (SELECT max(v.version) AS version FROM clearing_match_rule_set v WHERE v.tenant = $1) v
JOIN clearing_match_rule r ON r.tenant = $1 AND r.version = v.version
WHERE r.pattern = $2
   OR (r.pattern LIKE '%*' AND pg_catalog.left($2, pg_catalog.length(r.pattern) - 1)
                               = pg_catalog.left(r.pattern, -1))
ORDER BY r.pattern = $2 DESC, pg_catalog.length(r.pattern) DESC
LIMIT 1

-- name: reconcile_entries
-- The entries (and pacs.002 statuses) of statement $2 of tenant $1 into
-- the work table, each with whether it is a return (a return reason, a
-- reversal, a bank transaction code RRTN or RPCR), its date (value, else
-- booking date) and, of a transaction (item tx, 028), its entry's key.
INSERT INTO pg_temp.cl_recon_entry
SELECT {reconcile_entry_columns},
       (i.return_reason IS NOT NULL OR i.reversal
        OR coalesce(i.bank_tx_code LIKE '%/RRTN' OR i.bank_tx_code LIKE '%/RPCR', false)),
       coalesce(i.value_date, i.booking_date),
       CASE WHEN i.item = 'tx' THEN i.statement_key || '|#' || i.entry_index END
FROM clearing_statement_item i
WHERE i.tenant = $1 AND i.statement_key = $2 AND i.item <> 'statement'

-- name: reconcile_entries_details
-- An entry of several transactions whose rows (item tx, 028) each give an
-- amount is matched by them, one by one, and not by its count and sum;
-- one whose details lack an amount (references only: a batch's traces)
-- by its count and sum as before 028, its transactions not on their own
-- (nothing would hold them to the money).  An entry loaded before 028 has
-- no transaction rows: by count and sum.
DELETE FROM pg_temp.cl_recon_entry e
USING (SELECT parent_key, bool_and(amount_minor IS NOT NULL) AS whole
       FROM pg_temp.cl_recon_entry WHERE item = 'tx' GROUP BY parent_key) g
WHERE (e.item = 'tx' AND e.parent_key = g.parent_key AND NOT g.whole)
   OR (e.item = 'entry' AND e.natural_key = g.parent_key AND g.whole)

-- name: reconcile_analyze
-- Statistics of the entries, for the plans of the joins over them.
ANALYZE pg_temp.cl_recon_entry

-- fragment: reconcile_return_original
-- The original entry of an ACH return ret (ret.tenant, ret.kind,
-- ret.original_trace, ret.amount_minor, ret.value_date) booked on
-- e.on_date: the latest entry of that trace and amount dated on or before
-- the return's own date, at most 70 days before it (the longest return
-- time frame, 60 days, and a margin).  Trace numbers restart every day:
-- the trace alone finds an entry of every day of history, and the oldest
-- of a year's made every return late.  A range of the trace index
-- (migration 020).
SELECT o.kind, o.natural_key, o.value_date
FROM clearing_record o
WHERE ret.kind = 'ach.return' AND o.tenant = ret.tenant
  AND o.trace_number = ret.original_trace
  AND o.kind = 'ach.entry' AND o.amount_minor = ret.amount_minor
  AND o.value_date - DATE '2000-01-01'
      BETWEEN coalesce(ret.value_date, e.on_date) - DATE '2000-01-01' - 70
          AND coalesce(ret.value_date, e.on_date) - DATE '2000-01-01'
ORDER BY o.value_date - DATE '2000-01-01' DESC
LIMIT 1

-- fragment: reconcile_matched_by_hand
-- The entries (entry_key) a person matched record h to, in force (break
-- match, an accepted suggestion), of statements of kind h.entry_kind; h
-- has tenant, kind, natural_key and entry_kind.  A probe of the record's
-- latest decision (027's key), then of that decision's items.
SELECT d.item_key AS entry_key
FROM clearing_break_live(h.tenant, 'record', h.kind, h.natural_key) l
JOIN clearing_break_decision d ON d.decision_id = l.decision_id
WHERE l.action IN ('accepted', 'matched_by_hand') AND d.tenant = h.tenant AND d.side = 'entry'
  AND d.item_kind = h.entry_kind

-- fragment: reconcile_rejection
-- The status items of record x's tenant that reject it (RJCT), of a
-- pacs.002 or pain.002: of the transaction, by its UETR, EndToEndId or
-- TxId (ord 1; by the last two within the message it answers, its
-- OrgnlMsgId, where it says one), or of its whole message or its payment
-- block (ord 2).  x has tenant, uetr, end_to_end_id, tx_id, msg_id and
-- pmt_inf_id.  What
-- makes a payment rejected, for reconcile_best (a rejected payment the
-- bank booked) and reconcile_not_expected (one it did not).  Index probes
-- only (017, 018).
SELECT s.kind, s.natural_key, s.status, s.status_reason, 1 AS ord
FROM clearing_statement_item s
WHERE s.tenant = x.tenant AND s.item = 'status' AND s.status = 'RJCT' AND s.uetr = x.uetr
UNION ALL
SELECT s.kind, s.natural_key, s.status, s.status_reason, 1 FROM clearing_statement_item s
WHERE s.tenant = x.tenant AND s.item = 'status' AND s.status = 'RJCT'
  AND s.end_to_end_id = x.end_to_end_id AND (s.msg_id IS NULL OR s.msg_id = x.msg_id)
UNION ALL
SELECT s.kind, s.natural_key, s.status, s.status_reason, 1 FROM clearing_statement_item s
WHERE s.tenant = x.tenant AND s.item = 'status' AND s.status = 'RJCT' AND s.tx_id = x.tx_id
  AND (s.msg_id IS NULL OR s.msg_id = x.msg_id)
UNION ALL
SELECT s.kind, s.natural_key, s.status, s.status_reason, 2 FROM clearing_statement_item s
WHERE s.tenant = x.tenant AND s.msg_id = x.msg_id AND s.status = 'RJCT'
  AND clearing_group_status(s.item, s.instr_id, s.end_to_end_id, s.tx_id, s.uetr)
  -- a pain.002 payment information status: its block's only
  AND (s.pmt_inf_id IS NULL OR s.pmt_inf_id = x.pmt_inf_id)

-- name: reconcile_best
-- Each entry's record (tenant $1), by its references, the text array $2
-- in order of trust: an index probe of clearing_record per reference the
-- entry has (its own references and, for returns, the original's; an ACH
-- trace only within clearing_trace_window of the entry's date: trace
-- numbers restart daily), never a record that moves no money.  (One
-- BitmapOr of every reference index per entry was slower: most entries
-- carry one or two references.)  Of the records
-- found, those of the entry's class first
-- (returns for a return entry, else payments: cls), then of the first
-- reference, then the one with the same amount, currency and booked
-- direction (within the date window $5 of the statement's rule, NULL: any),
-- nearest in date; with how many the reference found, whether
-- an entry of another statement of its kind matched it, a pacs.002 that
-- rejected it (its transaction, else its whole original message: a group
-- status), for a pacs.002 rejection the kind of statement whose booked
-- entry matched the record already (booked), and for an ACH return whether
-- it came late: booked more
-- than 2 banking days after its entry's effective date, or 60 days for
-- the unauthorized codes (R05, R07, R10, R11, R29, R51).  near: of a
-- record whose amount is not the entry's, within the rule's tolerance ($3
-- minor units, else $4 basis points of ours: within_tolerance) or its
-- charges expected (up to $6: charges_expected), in the same currency and
-- direction; outside: beyond the date window.  With the default rule ($3,
-- $4, $6 zero, $5 NULL) near is never set, outside never true.
INSERT INTO pg_temp.cl_recon_best
SELECT e.natural_key, e.entry_index, r.rule,
       CASE r.rule WHEN 'uetr' THEN e.uetr WHEN 'e2e' THEN e.end_to_end_id
         WHEN 'tx_id' THEN e.tx_id WHEN 'instr_id' THEN e.instr_id
         WHEN 'trace' THEN e.ach_trace ELSE e.acct_svcr_ref END,
       c.kind, c.natural_key, c.load_id, c.position, c.amount_minor, c.currency, c.direction,
       c.value_date, ARRAY[c.debtor_account, c.creditor_account, c.receiving_account], c.equal, c.ncand, NULL, c.original_trace, c.orgnl_uetr,
       c.orgnl_end_to_end_id, c.uetr, c.end_to_end_id, c.tx_id, t.taken,
       (SELECT j.status || coalesce(' ' || j.status_reason, '')
        FROM (SELECT $1::text AS tenant, c.uetr, c.end_to_end_id, c.tx_id, c.msg_id,
                     c.pmt_inf_id) x
        CROSS JOIN LATERAL ({reconcile_rejection}) j
        -- (a record without any of the references a status names, an ACH
        -- entry, is probed not at all)
        WHERE coalesce(c.uetr, c.end_to_end_id, c.tx_id, c.msg_id) IS NOT NULL
        ORDER BY j.ord, 1
        LIMIT 1),
       (SELECT CASE WHEN c.reason_code IN ('R05', 'R07', 'R10', 'R11', 'R29', 'R51')
                    THEN e.on_date - o.value_date > 60
                    ELSE clearing_banking_days(o.value_date, e.on_date) > 2 END
        FROM (SELECT $1::text AS tenant, c.kind, c.original_trace, c.amount_minor,
                     c.value_date) ret
        CROSS JOIN LATERAL ({reconcile_return_original}) o),
       c.cls, t.recorded,
       (SELECT min(m.entry_kind)
        FROM clearing_reconcile_match m
        JOIN clearing_statement_item s
          ON s.tenant = m.tenant AND s.kind = m.entry_kind AND s.natural_key = m.entry_key
        WHERE e.item = 'status' AND e.status = 'RJCT'
          AND m.tenant = $1 AND m.record_kind = c.kind AND m.record_key = c.natural_key
          AND s.item IN ('entry', 'tx') AND coalesce(s.status, 'BOOK') = 'BOOK'),
       coalesce(e.tx_index, 0), c.near, NOT c.inwin
FROM pg_temp.cl_recon_entry e
CROSS JOIN LATERAL (
  -- (the window sorted as the ORDER BY is: one sort of the candidates)
  SELECT f.*, count(*) OVER (PARTITION BY NOT f.cls, f.ord ORDER BY f.equal DESC, f.near IS NULL,
                                f.days_off, f.load_id, f.ordinal
                                ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS ncand
  FROM (
  SELECT f.*, f.exact AND f.inwin AS equal,
         CASE WHEN f.exact OR NOT f.inwin OR e.amount_minor IS NULL
                   OR f.currency IS DISTINCT FROM e.currency OR NOT f.same_way THEN NULL
              WHEN abs(f.amount_minor - e.amount_minor)
                   <= greatest($3::bigint, abs(f.amount_minor) * $4::bigint / 10000)
                THEN 'within_tolerance'
              WHEN abs(f.amount_minor - e.amount_minor) <= $6::bigint
                THEN 'charges_expected' END AS near
  FROM (
    SELECT x.kind, x.natural_key, x.load_id, x.ordinal, x.position, x.amount_minor,
           x.currency, x.direction, x.value_date,
           x.debtor_account, x.creditor_account, x.receiving_account,
           x.original_trace, x.orgnl_uetr, x.orgnl_end_to_end_id, x.uetr, x.end_to_end_id,
           x.tx_id, x.reason_code, x.msg_id, x.pmt_inf_id,
           (x.kind IN ('ach.return', 'pacs.004')) = e.is_return AS cls,
           -- the place of the most trusted reference that finds it
           {reconcile_ref_ord} AS ord,
           ((e.amount_minor IS NULL OR x.amount_minor = e.amount_minor)
             AND (e.currency IS NULL OR x.currency = e.currency)
             -- or the amount instructed is ours, and what was booked is
             -- it less (or plus) the charges itemised, or in another
             -- currency (FX)
             OR coalesce(x.amount_minor = e.instructed_minor AND x.currency = e.instructed_ccy
                 AND (e.instructed_ccy IS DISTINCT FROM e.currency
                      OR e.amount_minor IS NULL OR e.amount_minor = e.instructed_minor
                      OR abs(e.amount_minor - e.instructed_minor) = e.charges_minor), false))
             AND (e.direction IS NULL OR e.direction = coalesce(
                    clearing_booked_direction(x.kind, x.direction), e.direction)) AS exact,
           (e.direction IS NULL OR e.direction = coalesce(
              clearing_booked_direction(x.kind, x.direction), e.direction)) AS same_way,
           ($5::integer IS NULL OR abs(coalesce(x.value_date - e.on_date, 0)) <= $5::integer)
             AS inwin,
           abs(coalesce(x.value_date - e.on_date, 0)) AS days_off
    FROM (
      -- one index probe per reference the entry has (and the run matches
      -- by): an arm whose reference is absent is skipped whole (the arms:
      -- loader/recon_ref.def)
      {reconcile_ref_arms}) AS x
    WHERE x.kind NOT IN ({reconcile_no_money})
      -- a record two arms found counts once: in the first of them
      AND x.arm = {reconcile_ref_first_arm}
      -- a status names its payment within the message it answers (its
      -- OrgnlMsgId): the EndToEndId or TxId of another message's payment
      -- is not it (a UETR is unique)
      AND (e.item <> 'status' OR e.msg_id IS NULL OR x.msg_id IS NULL
           OR x.msg_id = e.msg_id OR x.uetr = e.uetr)) AS f) AS f
  WHERE f.ord IS NOT NULL
  ORDER BY NOT f.cls, f.ord, f.equal DESC, f.near IS NULL, f.days_off, f.load_id, f.ordinal
  LIMIT 1) AS c
CROSS JOIN LATERAL (SELECT ($2::text[])[c.ord] AS rule) AS r
CROSS JOIN LATERAL (
  -- one probe of the matches of the record: by another entry of a
  -- statement of this kind (taken: not by a transaction's own entry, the
  -- batch it was matched with before its transactions' rows, 028), by
  -- this entry (recorded already); and one of a person's match of it to
  -- another entry (taken too: a second booking of a payment matched by
  -- hand is no match)
  SELECT coalesce(bool_or(m.entry_key <> e.natural_key
                          AND m.entry_key IS DISTINCT FROM e.parent_key), false)
         OR EXISTS (
           SELECT 1 FROM (SELECT $1::text AS tenant, c.kind, c.natural_key,
                                 e.kind AS entry_kind) h
           CROSS JOIN LATERAL ({reconcile_matched_by_hand}) b
           WHERE b.entry_key <> e.natural_key
             AND b.entry_key IS DISTINCT FROM e.parent_key) AS taken,
         coalesce(bool_or(m.entry_key = e.natural_key), false) AS recorded
  FROM clearing_reconcile_match m
  WHERE m.tenant = $1 AND m.record_kind = c.kind AND m.record_key = c.natural_key
    AND m.entry_kind = e.kind) AS t
WHERE e.batch_count IS NULL

-- name: reconcile_analyze_best
-- Statistics of the records found, for the joins over them (how many
-- there are, so that a join hashes them rather than sorting both sides).
ANALYZE pg_temp.cl_recon_best

-- name: reconcile_booked_twice
-- An entry whose record an earlier entry of the statement has too, the
-- same in every way: the bank booked it twice (nth 2: not the first).
-- The records found more than once are grouped first (one pass, no sort
-- of the million found once).
UPDATE pg_temp.cl_recon_best b SET nth = 2
FROM (SELECT kind, natural_key, min(ARRAY[entry_index, sub]) AS first
      FROM pg_temp.cl_recon_best WHERE cls AND equal
      GROUP BY kind, natural_key HAVING count(*) > 1) AS d
WHERE b.cls AND b.equal AND b.kind = d.kind AND b.natural_key = d.natural_key
  AND ARRAY[b.entry_index, b.sub] > d.first

-- name: reconcile_split
-- A payment booked in several entries (split bookings, one record for many
-- entries): the entries of the statement whose references found the same
-- record of their class (tenant $1), none of them of its amount (nor
-- within a rule's tolerance or window), each in its currency and
-- direction, 2 to 100 of them (the cap), whose amounts add up exactly to
-- the record's: each is matched, reason split, and not taken by the
-- others' matches (a second run finds them recorded).  Only exact sums.
WITH d AS (
  SELECT kind, natural_key FROM pg_temp.cl_recon_best
  WHERE cls AND NOT equal AND near IS NULL AND NOT outside
  GROUP BY kind, natural_key HAVING count(*) BETWEEN 2 AND 100),
s AS (
  SELECT b.kind, b.natural_key, pg_catalog.array_agg(b.entry_key) AS keys, min(e.kind) AS ekind
  FROM d
  JOIN pg_temp.cl_recon_best b ON b.kind = d.kind AND b.natural_key = d.natural_key
  JOIN pg_temp.cl_recon_entry e ON e.natural_key = b.entry_key
  WHERE b.cls AND NOT b.equal AND b.near IS NULL AND NOT b.outside
  GROUP BY b.kind, b.natural_key
  HAVING sum(e.amount_minor) = min(b.amount_minor)
     AND bool_and(e.currency = b.currency AND (e.direction IS NULL OR e.direction = coalesce(
                    clearing_booked_direction(b.kind, b.direction), e.direction))))
UPDATE pg_temp.cl_recon_best b
SET near = 'split',
    taken = EXISTS (
      SELECT 1 FROM clearing_reconcile_match m
      WHERE m.tenant = $1 AND m.record_kind = b.kind AND m.record_key = b.natural_key
        AND m.entry_kind = s.ekind AND m.entry_key <> ALL (s.keys))
FROM s
WHERE b.kind = s.kind AND b.natural_key = s.natural_key AND b.cls AND NOT b.equal
  AND b.near IS NULL

-- name: reconcile_batches
-- Each batch entry's candidate batches of tenant $1: the pain.001 PmtInf
-- of its PmtInfId (per file); the ACH batch (company and batch number, in
-- the file that has it) and the whole ACH file (the load) of its first
-- transaction's trace (the trace within clearing_trace_window of the
-- entry's date), one read of that file's entries grouped both ways; with
-- their count and net sum as booked (credits to our account positive) and
-- whether both are the entry's exactly.  The best one: exact, else of the
-- entry's count, then the first loaded, a batch before its file.  A
-- pacs.002 group status has for its batch the records of its original
-- message (per file; no count or sum to compare: it attaches to them).
INSERT INTO pg_temp.cl_recon_batch
SELECT DISTINCT ON (e.natural_key) e.natural_key, g.rule, g.ref, g.load_id, g.company,
       g.batch_number, g.kind, g.n, g.total,
       g.n = e.batch_count AND g.ccy = e.currency
         AND g.total = CASE e.direction WHEN 'debit' THEN -e.amount_minor ELSE e.amount_minor END
FROM pg_temp.cl_recon_entry e
CROSS JOIN LATERAL (
  SELECT 'pmt_inf_id'::text AS rule, x.pmt_inf_id AS ref, x.load_id, NULL::text AS company,
         NULL::text AS batch_number, min(x.kind) AS kind, count(*) AS n,
         -sum(x.amount_minor) AS total, min(x.currency) AS ccy
  FROM clearing_record x
  WHERE x.tenant = $1 AND x.pmt_inf_id = coalesce(e.batch_pmt_inf_id, e.pmt_inf_id)
    AND x.kind = 'pain.001' AND e.item <> 'status'
  GROUP BY x.pmt_inf_id, x.load_id
  UNION ALL
  SELECT CASE GROUPING(b.company_id, b.batch_number) WHEN 0 THEN 'trace_batch'
           ELSE 'trace_file' END,
         t.trace_number, t.load_id, b.company_id, b.batch_number, min(b.kind), count(*),
         sum(CASE clearing_booked_direction(b.kind, b.direction)
             WHEN 'debit' THEN -b.amount_minor ELSE b.amount_minor END),
         CASE WHEN min(b.currency) = max(b.currency) THEN min(b.currency) END
  FROM (SELECT DISTINCT x.trace_number, x.load_id, x.company_id, x.batch_number
        FROM (
          -- the trace's records in the window (OFFSET 0: the kind is no
          -- index condition, the trace index is the only way in)
          SELECT x.* FROM clearing_record x
          WHERE x.tenant = $1 AND x.trace_number = e.ach_trace
            AND clearing_trace_window(x.value_date, e.on_date)
          OFFSET 0) AS x
        WHERE x.kind = 'ach.entry') t
  CROSS JOIN LATERAL (
    -- the file's records, by their load (the feed's index of (load_id,
    -- ordinal), migration 013; OFFSET 0: the load id is the only index
    -- condition; a load is of one tenant, and the primary key's prefix
    -- (tenant, kind) is every ACH entry of the tenant)
    SELECT b.* FROM clearing_record b
    WHERE b.load_id = t.load_id
    OFFSET 0) AS b
  WHERE b.tenant = $1 AND b.kind = 'ach.entry'
  GROUP BY t.trace_number, t.load_id, t.company_id, t.batch_number,
           GROUPING SETS ((b.company_id, b.batch_number), ())
  HAVING GROUPING(b.company_id, b.batch_number) <> 0
      OR (b.company_id = t.company_id AND b.batch_number = t.batch_number)
  UNION ALL
  SELECT 'msg_id', x.msg_id, x.load_id, NULL, NULL, min(x.kind), count(*), NULL, NULL
  FROM clearing_record x
  WHERE clearing_group_status(e.item, e.instr_id, e.end_to_end_id, e.tx_id, e.uetr)
    AND x.tenant = $1 AND x.msg_id = e.msg_id
    AND (e.pmt_inf_id IS NULL OR x.pmt_inf_id = e.pmt_inf_id)
  GROUP BY x.msg_id, x.load_id) AS g
WHERE e.batch_count IS NOT NULL
   OR clearing_group_status(e.item, e.instr_id, e.end_to_end_id, e.tx_id, e.uetr)
ORDER BY e.natural_key, 10 DESC, g.n = e.batch_count DESC NULLS LAST, g.load_id, g.rule

-- name: reconcile_suggest
-- For each entry (not a batch, not a return) of the work table that no
-- reference matched to a record of its class, a record of tenant $1 of
-- the same amount, currency, booked direction and date that no entry of
-- its kind matched: a suggestion (the first loaded).  Those entries are
-- found first (MATERIALIZED): only they probe the day's records.
WITH need AS MATERIALIZED (
  SELECT e.natural_key, e.kind, e.on_date, e.amount_minor, e.currency, e.direction
  FROM pg_temp.cl_recon_entry e
  WHERE e.item IN ('entry', 'tx') AND e.batch_count IS NULL AND NOT e.is_return
    AND e.amount_minor IS NOT NULL
    AND NOT EXISTS (
      SELECT 1 FROM pg_temp.cl_recon_best b WHERE b.entry_key = e.natural_key AND b.cls))
INSERT INTO pg_temp.cl_recon_sugg
SELECT e.natural_key, o.*
FROM need e
CROSS JOIN LATERAL (
  SELECT * FROM (
  SELECT x.kind, x.natural_key, x.load_id, x.ordinal, x.position, x.amount_minor,
         x.currency, x.direction, x.value_date,
         ARRAY[x.debtor_account, x.creditor_account, x.receiving_account] AS accounts
  FROM clearing_record x
  WHERE x.tenant = $1 AND x.value_date = e.on_date AND x.amount_minor = e.amount_minor
    AND x.currency = e.currency
    AND coalesce(clearing_booked_direction(x.kind, x.direction), e.direction)
        = e.direction
    AND NOT EXISTS (
      SELECT 1 FROM clearing_reconcile_match m
      WHERE m.tenant = $1 AND m.record_kind = x.kind AND m.record_key = x.natural_key
        AND m.entry_kind = e.kind)
  OFFSET 0) AS x
  ORDER BY x.load_id, x.ordinal
  LIMIT 1) AS o

-- name: reconcile_suggest_batch
-- For each BAI2 ACH line ({reconcile_bai2_ach_codes}; of returns:
-- {reconcile_bai2_ach_return_codes}) of the work table that no reference
-- matched and no single record was suggested for: an ACH batch of tenant
-- $1 (load, company and batch number), else a whole file (load), of the
-- originators $2 (a text array; every originator when it is empty), whose
-- entries (of a returns line: whose returns) dated the line's day net
-- exactly to its amount as booked (credits to our account positive), none
-- of them matched by a BAI2 line: a suggestion (the first loaded), never a
-- match (a BAI2 detail has no item count).  Bounded by the days of those
-- lines.
WITH need AS MATERIALIZED (
  SELECT e.natural_key, e.on_date, e.currency,
         CASE WHEN e.bank_tx_code IN ({reconcile_bai2_ach_return_codes}) THEN 'ach.return'
              ELSE 'ach.entry' END AS kind,
         CASE e.direction WHEN 'debit' THEN -e.amount_minor ELSE e.amount_minor END AS net
  FROM pg_temp.cl_recon_entry e
  WHERE e.kind = 'bai2' AND e.item = 'entry' AND e.batch_count IS NULL AND NOT e.is_return
    AND e.bank_tx_code IN ({reconcile_bai2_ach_codes}, {reconcile_bai2_ach_return_codes})
    AND e.on_date IS NOT NULL
    AND NOT EXISTS (
      SELECT 1 FROM pg_temp.cl_recon_best b WHERE b.entry_key = e.natural_key AND b.cls)
    AND NOT EXISTS (SELECT 1 FROM pg_temp.cl_recon_sugg o WHERE o.entry_key = e.natural_key)),
day AS MATERIALIZED (
  SELECT x.kind, x.load_id, x.ordinal, x.company_id, x.batch_number, x.value_date, x.currency,
         CASE clearing_booked_direction(x.kind, x.direction)
           WHEN 'debit' THEN -x.amount_minor ELSE x.amount_minor END AS net
  FROM (SELECT DISTINCT on_date FROM need) d
  CROSS JOIN LATERAL (
    SELECT x.* FROM (
      -- the day's records (OFFSET 0: the kind is no index condition, the
      -- primary key's prefix (tenant, kind) is every ACH entry)
      SELECT x.* FROM clearing_record x
      WHERE x.tenant = $1 AND x.value_date = d.on_date
      OFFSET 0) AS x
    WHERE x.kind IN ('ach.entry', 'ach.return')
      AND (pg_catalog.cardinality($2::text[]) = 0 OR x.company_id = ANY ($2::text[]))
      AND NOT EXISTS (
        SELECT 1 FROM clearing_reconcile_match m
        WHERE m.tenant = $1 AND m.record_kind = x.kind AND m.record_key = x.natural_key
          AND m.entry_kind = 'bai2')
    OFFSET 0) AS x),
sums AS (
  SELECT kind, 'batch_sum'::text AS rule,
         load_id || '/' || company_id || '/' || batch_number AS ref, load_id, company_id,
         batch_number, value_date, min(currency) AS ccy, count(*) AS n, sum(net) AS total
  FROM day
  GROUP BY kind, load_id, company_id, batch_number, value_date
  HAVING count(DISTINCT currency) = 1
  UNION ALL
  SELECT kind, 'file_sum', load_id::text, load_id, NULL, NULL, value_date, min(currency),
         count(*), sum(net)
  FROM day
  GROUP BY kind, load_id, value_date
  HAVING count(DISTINCT currency) = 1)
INSERT INTO pg_temp.cl_recon_batch
SELECT DISTINCT ON (n.natural_key) n.natural_key,
       CASE s.kind WHEN 'ach.return' THEN 'ach_return_' ELSE 'ach_' END || s.rule, s.ref,
       s.load_id, s.company_id, s.batch_number, s.kind, s.n, s.total, false, s.value_date,
       -- the suggestion's records (a scan of the day's, per suggestion)
       ARRAY(SELECT 'r' || d.load_id || '.' || d.ordinal FROM day d
             WHERE d.kind = s.kind AND d.load_id = s.load_id AND d.value_date = s.value_date
               AND (s.rule = 'file_sum'
                    OR (d.company_id = s.company_id AND d.batch_number = s.batch_number))
             ORDER BY d.ordinal)
FROM need n
JOIN sums s
  ON s.kind = n.kind AND s.value_date = n.on_date AND s.total = n.net AND s.ccy = n.currency
ORDER BY n.natural_key, s.rule, s.load_id, s.company_id, s.batch_number

-- name: reconcile_group
-- One entry for many records (many-to-one): for each entry of the work
-- table (not BAI2: its ACH lines have reconcile_suggest_batch, decision
-- 0011; not a batch, a return or pending) that no reference matched, no
-- single record was suggested for and no batch: the sets of records of
-- tenant $1 on the statement's account $2 (or of the originators $3, a
-- text array) dated the entry's day that share a reference (a pain.001
-- PmtInf, a message, an ACH batch), 2 to 10,000 records each (the cap),
-- in its currency and booked direction, whose amounts add up exactly to
-- the entry's, none of whose records another entry of its kind matched or
-- this statement's references found.  One such set: matched (group_*, its
-- records recorded); two or more different sets: a suggestion naming
-- none (ambiguous: match by hand).  Bounded by the entries' days: one read
-- of each day's records, grouped; no search of subsets.
WITH need AS MATERIALIZED (
  SELECT e.natural_key, e.kind, e.on_date, e.amount_minor, e.currency, e.direction
  FROM pg_temp.cl_recon_entry e
  WHERE e.item IN ('entry', 'tx') AND e.kind <> 'bai2' AND e.batch_count IS NULL
    AND NOT e.is_return AND e.amount_minor IS NOT NULL AND e.on_date IS NOT NULL
    AND coalesce(e.status, 'BOOK') = 'BOOK'
    AND NOT EXISTS (
      SELECT 1 FROM pg_temp.cl_recon_best b WHERE b.entry_key = e.natural_key AND b.cls)
    AND NOT EXISTS (SELECT 1 FROM pg_temp.cl_recon_sugg o WHERE o.entry_key = e.natural_key)
    AND NOT EXISTS (SELECT 1 FROM pg_temp.cl_recon_batch s WHERE s.entry_key = e.natural_key)),
day AS MATERIALIZED (
  SELECT x.kind, x.natural_key, x.load_id, x.ordinal, x.value_date, x.currency,
         clearing_booked_direction(x.kind, x.direction) AS direction, x.amount_minor,
         x.pmt_inf_id, x.msg_id, x.company_id, x.batch_number
  FROM (SELECT DISTINCT on_date FROM need) d
  CROSS JOIN LATERAL (
    -- the day's records (OFFSET 0: by the date index, then the filters)
    SELECT x.* FROM clearing_record x
    WHERE x.tenant = $1 AND x.value_date = d.on_date
    OFFSET 0) AS x
  WHERE x.kind NOT IN ({reconcile_no_money})
    AND (x.debtor_account = $2 OR x.creditor_account = $2
         OR (x.kind IN ('ach.entry', 'ach.return') AND x.company_id = ANY ($3::text[])))),
sets AS (
  SELECT 'group_pmt_inf_id'::text AS rule, min(pmt_inf_id) AS ref, load_id,
         NULL::text AS company, NULL::text AS batch_number, kind, value_date, currency,
         direction, count(*) AS n, sum(amount_minor) AS total,
         pg_catalog.array_agg('r' || load_id || '.' || ordinal ORDER BY ordinal) AS ids,
         pg_catalog.array_agg(natural_key) AS keys
  FROM day WHERE pmt_inf_id IS NOT NULL
  GROUP BY kind, pmt_inf_id, load_id, value_date, currency, direction
  HAVING count(*) BETWEEN 2 AND 10000
  UNION ALL
  SELECT 'group_msg_id', min(msg_id), load_id, NULL, NULL, kind, value_date, currency,
         direction, count(*), sum(amount_minor),
         pg_catalog.array_agg('r' || load_id || '.' || ordinal ORDER BY ordinal),
         pg_catalog.array_agg(natural_key)
  FROM day WHERE msg_id IS NOT NULL
  GROUP BY kind, msg_id, load_id, value_date, currency, direction
  HAVING count(*) BETWEEN 2 AND 10000
  UNION ALL
  SELECT 'group_ach_batch', load_id || '/' || min(company_id) || '/' || min(batch_number),
         load_id, min(company_id), min(batch_number), kind, value_date, currency, direction,
         count(*), sum(amount_minor),
         pg_catalog.array_agg('r' || load_id || '.' || ordinal ORDER BY ordinal),
         pg_catalog.array_agg(natural_key)
  FROM day WHERE kind = 'ach.entry' AND company_id IS NOT NULL
  GROUP BY kind, load_id, company_id, batch_number, value_date, currency, direction
  HAVING count(*) BETWEEN 2 AND 10000),
fit AS (
  -- the exact sums, each different set once (a PmtInf that is its whole
  -- message is one set), none of its records matched or found
  SELECT DISTINCT ON (n.natural_key, s.ids) n.natural_key AS entry_key, s.*
  FROM need n
  JOIN sets s
    ON s.value_date = n.on_date AND s.currency = n.currency AND s.direction = n.direction
   AND s.total = n.amount_minor
  WHERE NOT EXISTS (
      SELECT 1 FROM pg_catalog.unnest(s.keys) AS k(key)
      WHERE k.key IN (SELECT b.natural_key FROM pg_temp.cl_recon_best b)
         OR EXISTS (SELECT 1 FROM clearing_reconcile_match m
                    WHERE m.tenant = $1 AND m.record_kind = s.kind AND m.record_key = k.key
                      AND m.entry_kind = n.kind AND m.entry_key <> n.natural_key))
  ORDER BY n.natural_key, s.ids, s.rule DESC)
INSERT INTO pg_temp.cl_recon_batch (entry_key, rule, ref, load_id, company, batch_number, kind,
  n, total, exact, record_ids, sets)
SELECT DISTINCT ON (f.entry_key) f.entry_key, f.rule, f.ref, f.load_id, f.company,
       f.batch_number, f.kind, f.n, f.total,
       count(*) OVER (PARTITION BY f.entry_key) = 1,
       CASE WHEN count(*) OVER (PARTITION BY f.entry_key) = 1 THEN f.ids END,
       count(*) OVER (PARTITION BY f.entry_key)
FROM fit f
ORDER BY f.entry_key, f.load_id, f.rule DESC

-- fragment: reconcile_seq_step
-- The answer's order (seq) for each statement of a run: the items of its
-- statement number n (from 0) from (n + 1) times this, its entries by
-- their index, then its unmatched ours from half a step on.  The items
-- go in unsorted (a sort of a million wide rows went to disk); the output
-- sorts them, or only those it prints.
1000000000000

-- name: reconcile_judge
-- Each entry of statement $2 (tenant $1, the run's statement number $3)
-- with its status and why: a batch
-- by its batch, a group status attached to its message's records, else by
-- its record; a return without a return of ours
-- names the payment it returns; an entry without a reference found gets
-- a suggestion (same amount, currency, direction and date, not matched
-- by an entry of its kind; for a BAI2 ACH line, else an ACH batch or file
-- of that net sum) or none.  A pacs.002 status is never taken (a payment
-- has several statuses, one report after another); a rejection of a
-- record a statement's booked entry matched before is rejected_booked, as
-- a booking of a record a pacs.002 rejected before is.
INSERT INTO pg_temp.cl_recon (seq, statement_key, status, why, entry_kind, entry_key, entry_item,
  entry_position, entry_load_id, account, amount_minor, currency, direction, booking_date,
  value_date, payment_status, rule, reference, record_kind, record_key, record_load_id,
  record_position, record_amount, record_currency, record_direction, record_accounts, records,
  batch_total, batch_count, batch_load_id, batch_company, batch_number, batch_ref,
  original_kind, original_key, candidates, rejected, recorded, sub, instructed_minor,
  instructed_ccy, charges_minor, difference_minor, record_ids)
SELECT ($3::bigint + 1) * {reconcile_seq_step} + coalesce(e.entry_index, 0),
       $2, v.status, v.why, e.kind, e.natural_key, e.item, e.position, e.load_id, e.account,
       e.amount_minor, e.currency, e.direction, e.booking_date, e.value_date,
       CASE WHEN e.item = 'status' THEN e.status END,
       coalesce(bb.rule, b.rule), coalesce(bb.ref, b.val), coalesce(b.kind, o.kind),
       coalesce(b.natural_key, o.natural_key), coalesce(b.load_id, o.load_id),
       coalesce(b.position, o.position), coalesce(b.amount_minor, o.amount_minor),
       coalesce(b.currency, o.currency), coalesce(b.direction, o.direction),
       coalesce(b.accounts, o.accounts), bb.n, bb.total, e.batch_count, bb.load_id,
       bb.company, bb.batch_number, bb.ref, orig.kind, orig.natural_key,
       coalesce(b.ncand, bb.sets), b.rejected,
       b.recorded, e.tx_index, e.instructed_minor, e.instructed_ccy,
       -- the charges expected by the rule are the difference
       coalesce(e.charges_minor, CASE WHEN b.near = 'charges_expected'
                                      THEN abs(e.amount_minor - b.amount_minor) END),
       -- an amount that differs: by how much, booked less ours, when the
       -- currency is one
       CASE WHEN b.kind IS NOT NULL AND NOT b.equal AND b.currency = e.currency
                 AND b.amount_minor <> e.amount_minor AND b.near IS DISTINCT FROM 'split'
            THEN e.amount_minor - b.amount_minor END,
       bb.record_ids
FROM pg_temp.cl_recon_entry e
LEFT JOIN pg_temp.cl_recon_best b ON b.entry_key = e.natural_key AND b.cls
LEFT JOIN pg_temp.cl_recon_batch bb ON bb.entry_key = e.natural_key
LEFT JOIN LATERAL (
  SELECT x.kind, x.natural_key
  FROM (SELECT $1::text AS tenant, b.kind, b.original_trace, b.amount_minor,
               b.value_date) ret
  CROSS JOIN LATERAL ({reconcile_return_original}) x
  UNION ALL
  SELECT x.kind, x.natural_key FROM clearing_record x
  WHERE b.kind = 'pacs.004' AND x.tenant = $1 AND x.uetr = b.orgnl_uetr
  UNION ALL
  SELECT x.kind, x.natural_key FROM clearing_record x
  WHERE b.kind = 'pacs.004' AND b.orgnl_uetr IS NULL AND x.tenant = $1
    AND x.end_to_end_id = b.orgnl_end_to_end_id
  UNION ALL
  SELECT c.kind, c.natural_key FROM pg_temp.cl_recon_best c
  WHERE b.kind IS NULL AND e.is_return AND c.entry_key = e.natural_key
  LIMIT 1) AS orig ON true
LEFT JOIN pg_temp.cl_recon_sugg o ON o.entry_key = e.natural_key
CROSS JOIN LATERAL (
  SELECT CASE WHEN w IN ('matched', 'several', 'reversed', 'within_tolerance',
                         'charges_expected', 'split', 'grouped') THEN 'matched'
              WHEN w IN ('suggested', 'suggested_batch', 'pending', 'suggested_group')
                THEN 'suggested'
              WHEN w ~ '^no_|_not_ours$' THEN 'unmatched_theirs'
              ELSE 'exception' END AS status, w AS why
  FROM (SELECT CASE
    WHEN bb.rule = 'msg_id' THEN 'matched'
    WHEN e.batch_count IS NOT NULL AND bb.rule IS NULL THEN 'no_batch'
    WHEN e.batch_count IS NOT NULL AND bb.exact THEN 'matched'
    WHEN e.batch_count IS NOT NULL THEN 'batch_differs'
    WHEN b.kind IS NULL AND o.kind IS NOT NULL THEN 'suggested'
    WHEN b.kind IS NULL AND bb.on_date IS NOT NULL THEN 'suggested_batch'
    WHEN b.kind IS NULL AND bb.rule LIKE 'group\_%' AND bb.exact THEN 'grouped'
    WHEN b.kind IS NULL AND bb.rule LIKE 'group\_%' THEN 'suggested_group'
    WHEN b.kind IS NULL AND orig.kind IS NOT NULL AND e.reversal THEN 'reversed'
    WHEN b.kind IS NULL AND orig.kind IS NOT NULL THEN 'return_not_ours'
    WHEN b.kind IS NULL AND e.item = 'status' THEN 'status_not_ours'
    WHEN b.kind IS NULL THEN 'no_record'
    WHEN b.outside THEN 'outside_window'
    WHEN NOT b.equal AND b.near IS NULL THEN 'differs'
    WHEN b.nth > 1 THEN 'booked_twice'
    WHEN b.taken AND e.item <> 'status' THEN 'taken'
    WHEN coalesce(e.status, 'BOOK') = 'BOOK' AND b.rejected IS NOT NULL THEN 'rejected_booked'
    WHEN e.item = 'status' AND b.booked IS NOT NULL THEN 'rejected_booked'
    WHEN b.late THEN 'late_return'
    WHEN e.item <> 'status' AND coalesce(e.status, 'BOOK') <> 'BOOK' THEN 'pending'
    WHEN b.near IS NOT NULL THEN b.near
    WHEN b.ncand > 1 THEN 'several'
    ELSE 'matched' END AS w) AS k) AS v

-- name: reconcile_reversal_pairs
-- A reversal (RvslInd) paired with the entry it reverses, both on
-- statement $1 and neither ours (each unmatched theirs, no_record): of the
-- statement's entries that are no reversal, the first (by its place) of
-- its amount and currency booked the other way that shares a reference
-- with it (the bank's, the end-to-end id, the UETR, the TxId, the
-- InstrId).  Both are matched, reasons reverses_entry and
-- reversed_by_entry, each the other's original; nothing is recorded (no
-- record of ours).  A reversal whose reference finds our payment is
-- linked to it as before (reversed).
WITH p AS (
  SELECT DISTINCT ON (rv.natural_key) rv.natural_key AS rkey, rv.kind AS rkind,
         o.natural_key AS okey, o.kind AS okind
  FROM pg_temp.cl_recon_entry rv
  JOIN pg_temp.cl_recon_entry o
    ON o.amount_minor = rv.amount_minor AND o.currency = rv.currency
   AND o.direction <> rv.direction AND NOT o.reversal AND o.item IN ('entry', 'tx')
   AND (o.acct_svcr_ref = rv.acct_svcr_ref OR o.end_to_end_id = rv.end_to_end_id
        OR o.uetr = rv.uetr OR o.tx_id = rv.tx_id OR o.instr_id = rv.instr_id)
  WHERE rv.reversal AND rv.item IN ('entry', 'tx')
  ORDER BY rv.natural_key, o.entry_index, o.tx_index),
q AS (
  SELECT rkey AS key, 'reverses_entry' AS why, okind AS kind, okey AS other FROM p
  UNION ALL
  SELECT okey, 'reversed_by_entry', rkind, rkey FROM p)
UPDATE pg_temp.cl_recon r
SET status = 'matched', why = q.why, original_kind = q.kind, original_key = q.other
FROM q
WHERE r.statement_key = $1 AND r.entry_key = q.key AND r.why = 'no_record'
  AND EXISTS (SELECT 1 FROM pg_temp.cl_recon o
              WHERE o.statement_key = $1 AND o.entry_key = q.other AND o.why = 'no_record')

-- name: reconcile_record_matches
-- The matches of statement $2 of tenant $1 that no run recorded yet, with
-- run $3: each matched entry with its record (not recorded already:
-- reconcile_best probed, under reconcile_lock, so a plain insert; ON
-- CONFLICT cost each of a million rows a second probe and a second WAL
-- record), a batch entry (or a group status) with each record of its
-- batch or file (ON CONFLICT: those were not probed).  Returns how many were new.
WITH ref AS (
  INSERT INTO clearing_reconcile_match
    (tenant, entry_kind, entry_key, record_kind, record_key, rule, run_id, difference_minor)
  SELECT $1, r.entry_kind, r.entry_key, r.record_kind, r.record_key, r.rule, $3::bigint,
         r.difference_minor
  FROM pg_temp.cl_recon r
  WHERE r.statement_key = $2 AND r.status = 'matched' AND r.batch_count IS NULL
    AND r.record_key IS NOT NULL AND r.recorded IS NOT TRUE
    AND r.why NOT IN ('reversed', 'cancelled', 'rejected', 'returned')
  RETURNING 1),
ins AS (
  INSERT INTO clearing_reconcile_match
    (tenant, entry_kind, entry_key, record_kind, record_key, rule, run_id)
  SELECT $1, r.entry_kind, r.entry_key, x.kind, x.natural_key, r.rule, $3::bigint
  FROM pg_temp.cl_recon r
  CROSS JOIN LATERAL (
    -- the batch's records, by its file (OFFSET 0: a probe per batch)
    SELECT x.kind, x.natural_key FROM clearing_record x
    WHERE x.tenant = $1 AND x.load_id = r.batch_load_id AND x.pmt_inf_id = r.batch_ref
      AND x.kind = 'pain.001' OFFSET 0) AS x
  WHERE r.statement_key = $2 AND r.status = 'matched' AND r.rule = 'pmt_inf_id'
  UNION ALL
  SELECT $1, r.entry_kind, r.entry_key, x.kind, x.natural_key, r.rule, $3::bigint
  FROM pg_temp.cl_recon r
  CROSS JOIN LATERAL (
    -- the file's records, by their load (as reconcile_batches)
    SELECT x.tenant, x.kind, x.natural_key, x.company_id, x.batch_number
    FROM clearing_record x
    WHERE x.load_id = r.batch_load_id OFFSET 0) AS x
  WHERE r.statement_key = $2 AND r.status = 'matched'
    AND r.rule IN ('trace_batch', 'trace_file') AND x.tenant = $1 AND x.kind = 'ach.entry'
    AND (r.rule = 'trace_file'
         OR (x.company_id = r.batch_company AND x.batch_number = r.batch_number))
  UNION ALL
  SELECT $1, r.entry_kind, r.entry_key, x.kind, x.natural_key, r.rule, $3::bigint
  FROM pg_temp.cl_recon r
  -- (a pain.002 payment information status: its block's records only)
  CROSS JOIN LATERAL (
    SELECT s.pmt_inf_id FROM clearing_statement_item s
    WHERE s.tenant = $1 AND s.kind = r.entry_kind AND s.natural_key = r.entry_key) AS s
  CROSS JOIN LATERAL (
    SELECT x.kind, x.natural_key FROM clearing_record x
    WHERE x.tenant = $1 AND x.load_id = r.batch_load_id AND x.msg_id = r.batch_ref
      AND (s.pmt_inf_id IS NULL OR x.pmt_inf_id = s.pmt_inf_id)
    OFFSET 0) AS x
  WHERE r.statement_key = $2 AND r.status = 'matched' AND r.rule = 'msg_id'
  UNION ALL
  -- a group's records, by their ids (a probe of (load_id, ordinal) each;
  -- OFFSET 0: never a hash join over the tenant's records, which a
  -- planner without statistics chose for a smaller heap, migration 034)
  SELECT $1, r.entry_kind, r.entry_key, x.kind, x.natural_key, r.rule, $3::bigint
  FROM pg_temp.cl_recon r
  CROSS JOIN pg_catalog.unnest(r.record_ids) AS u(id)
  CROSS JOIN LATERAL (
    SELECT x.kind, x.natural_key FROM clearing_record x
    WHERE x.load_id = clearing_break_item_load(u.id)
      AND x.ordinal = clearing_break_item_ordinal(u.id) AND x.tenant = $1
    OFFSET 0) AS x
  WHERE r.statement_key = $2 AND r.status = 'matched' AND r.why = 'grouped'
  ON CONFLICT DO NOTHING
  RETURNING 1)
SELECT (SELECT count(*) FROM ref) + (SELECT count(*) FROM ins)

-- fragment: reconcile_cancelled
-- The answer that cancelled record x, if any: a camt.029 of its tenant
-- saying CNCL (cancelled as requested) or ACCR (cancellation accepted)
-- that names x by its UETR, else (an answer without OrgnlUETR) by its
-- EndToEndId and, when the answer has one, its TxId; the latest.  Index
-- probes of orgnl_uetr and orgnl_end_to_end_id (011).
SELECT c.kind, c.natural_key FROM (
  SELECT c.kind, c.natural_key, c.load_id FROM clearing_record c
  WHERE c.tenant = x.tenant AND c.orgnl_uetr = x.uetr
    AND c.kind = 'camt.029' AND c.cancellation_status IN ('CNCL', 'ACCR')
  UNION ALL
  SELECT c.kind, c.natural_key, c.load_id FROM clearing_record c
  WHERE c.tenant = x.tenant AND c.orgnl_end_to_end_id = x.end_to_end_id
    AND c.orgnl_uetr IS NULL AND coalesce(c.orgnl_tx_id = x.tx_id, true)
    AND c.kind = 'camt.029' AND c.cancellation_status IN ('CNCL', 'ACCR')) c
ORDER BY c.load_id DESC
LIMIT 1

-- fragment: reconcile_not_expected
-- Why record x was not to be booked, if it was not: cancelled (a camt.029
-- said so: reconcile_cancelled), rejected (a status report said RJCT of
-- that payment: reconcile_rejection), or returned (a pacs.004
-- of its tenant returning it by its UETR or EndToEndId); the first of
-- those, with the item or record that says so.  Index probes only (017,
-- 018, 011).
SELECT n.kind, n.natural_key, n.why FROM (
  SELECT c.kind, c.natural_key, 'cancelled' AS why, 1 AS ord FROM ({reconcile_cancelled}) c
  UNION ALL
  SELECT j.kind, j.natural_key, 'rejected', 2 FROM ({reconcile_rejection}) j
  UNION ALL
  SELECT r.kind, r.natural_key, 'returned', 3 FROM clearing_record r
  WHERE r.tenant = x.tenant AND r.orgnl_uetr = x.uetr AND r.kind = 'pacs.004'
  UNION ALL
  SELECT r.kind, r.natural_key, 'returned', 3 FROM clearing_record r
  WHERE r.tenant = x.tenant AND r.orgnl_end_to_end_id = x.end_to_end_id
    AND r.kind = 'pacs.004') n
ORDER BY n.ord, n.kind, n.natural_key
LIMIT 1

-- name: reconcile_unmatched_ours
-- The records of tenant $1 the bank should have booked on statement $2 (the
-- run's statement number $3) of kind $9 and did not (what moves money): in its currency $8, dated within its period ($4 to
-- $5), on its account $6 (debtor or creditor account), or ACH records of
-- the originators $7 (a text array), that no entry of a statement of its
-- kind matched (by reconcile, or by a person's decision in force), that
-- this statement's answer does not already name, and
-- that are not of an ACH batch or file suggested for one of its BAI2
-- lines (reconcile_suggest_batch: the suggestion names them).  A record
-- that was not to be booked (reconcile_not_expected: cancelled, rejected
-- or returned) is matched by what says so (why cancelled, rejected or
-- returned, that item or record as its original), never a break.
INSERT INTO pg_temp.cl_recon (seq, statement_key, status, why, account, record_kind,
  record_key, record_load_id, record_position, record_amount, record_currency,
  record_direction, record_accounts, record_date, original_kind, original_key)
SELECT ($3::bigint + 1) * {reconcile_seq_step} + {reconcile_seq_step} / 2
         + pg_catalog.row_number() OVER (ORDER BY x.load_id, x.ordinal),
       $2, CASE WHEN c.kind IS NULL THEN 'unmatched_ours' ELSE 'matched' END,
       coalesce(c.why, 'not_booked'),
       $6, x.kind, x.natural_key, x.load_id, x.position,
       x.amount_minor, x.currency, x.direction,
       ARRAY[x.debtor_account, x.creditor_account, x.receiving_account], x.value_date,
       c.kind, c.natural_key
FROM (
-- the period's records this statement's answer does not name (a hash of
-- the answer: it names most), then a probe of the matches for each left
SELECT x.* FROM (
SELECT x.* FROM (
-- (OFFSET 0: the period's records by the date index, then the filters that
-- follow; with them inside, the planner read the whole table in load order)
SELECT x.* FROM clearing_record x
WHERE x.tenant = $1 AND x.value_date BETWEEN $4::date AND $5::date AND x.currency = $8
  AND x.kind NOT IN ({reconcile_no_money})
  AND (x.debtor_account = $6 OR x.creditor_account = $6
       OR (x.kind IN ('ach.entry', 'ach.return') AND x.company_id = ANY ($7::text[])))
OFFSET 0) AS x
  -- (NOT IN: a hashed subplan of the answer's records, whatever the
  -- planner guesses of an anti-join: a nested loop over the answer per
  -- record took minutes for 5,000 records not booked)
WHERE (x.kind, x.natural_key) NOT IN (
    SELECT r.record_kind, r.record_key FROM pg_temp.cl_recon r
    WHERE r.statement_key = $2 AND r.record_kind IS NOT NULL AND r.record_key IS NOT NULL)
  AND NOT EXISTS (
    SELECT 1 FROM pg_temp.cl_recon_batch s
    WHERE s.load_id = x.load_id AND s.on_date = x.value_date AND s.kind = x.kind
      AND coalesce(s.company, x.company_id) = x.company_id
      AND coalesce(s.batch_number, x.batch_number) = x.batch_number)
OFFSET 0) AS x
WHERE NOT EXISTS (
  -- (OFFSET 0: a probe per record, never a join with every match of
  -- statements of this kind, which grow with the years)
  SELECT 1 FROM clearing_reconcile_match m
  WHERE m.tenant = $1 AND m.record_kind = x.kind AND m.record_key = x.natural_key
    AND m.entry_kind = $9
  OFFSET 0)
  -- nor a person's match of it (break match, an accepted suggestion) to
  -- an entry of a statement of this kind, in force: booked, as a match is
  -- (0042; the decision stays a decision, reopening it lists it again)
  AND NOT EXISTS (
  SELECT 1 FROM (SELECT $1::text AS tenant, x.kind, x.natural_key, $9::text AS entry_kind) h
  CROSS JOIN LATERAL ({reconcile_matched_by_hand}) b)
OFFSET 0) AS x
LEFT JOIN LATERAL ({reconcile_not_expected}) AS c ON true

-- name: reconcile_balance
-- The balance of statement $2 of tenant $1 (the run's statement number
-- $3), a camt.053, camt.052 or MT940 with an opening and a closing booked
-- balance; its opening plus its booked credits minus its booked debits
-- against its closing, an exception balance_break carrying the difference
-- (closing minus computed) when they differ.  A statement of several
-- pages (keys "...|p:N") is added up whole, page 1's opening to the last
-- page's closing over the entries of every page, once its last page and
-- every page before it are loaded (by any load); until then an exception
-- page_missing names the pages not loaded.  Once per statement in a run
-- (its pages may all be in it).  Not added up: a balance report (no
-- entries, a TxsSummry that counts some), entries in another currency
-- than the account's, pages loaded before 026 (their LastPgInd unknown).
-- docs/design/0028-statement-balance-breaks.md.
WITH grp AS (
  SELECT pg_catalog.regexp_replace($2, '\|p:[0-9]+$', '') AS base),
pages AS (
  SELECT i.* FROM clearing_statement_item i, grp
  WHERE i.tenant = $1 AND i.item = 'statement' AND i.kind IN ('camt.053', 'camt.052', 'mt940', 'csv')
    AND (i.statement_key = grp.base
         OR (i.statement_key >= grp.base || '|p:' AND i.statement_key < grp.base || '|p;'))),
st AS (
  SELECT count(*) AS n, count(*) FILTER (WHERE page IS NOT NULL) AS paged,
         bool_or(last_page IS NULL) AS unknown,
         max(page) FILTER (WHERE last_page) AS last,
         pg_catalog.string_agg(page::text, ',' ORDER BY page) AS loaded,
         bool_or(summary_entries > 0) AS summarised
  FROM pages),
ent AS (
  SELECT count(*) AS n,
         coalesce(sum(CASE WHEN e.direction = 'credit' THEN e.amount_minor
                           ELSE -e.amount_minor END) FILTER (WHERE e.status = 'BOOK'), 0) AS net,
         count(DISTINCT e.currency) FILTER (WHERE e.status = 'BOOK') AS ccys,
         min(e.currency) FILTER (WHERE e.status = 'BOOK') AS ccy
  FROM clearing_statement_item e
  WHERE e.tenant = $1 AND e.item = 'entry'
    AND e.statement_key IN (SELECT statement_key FROM pages)),
missing AS (
  SELECT pg_catalog.string_agg(g::text, ',' ORDER BY g) AS pages
  FROM st, pg_catalog.generate_series(1, coalesce(st.last, 0)) g
  WHERE NOT EXISTS (SELECT 1 FROM pages p WHERE p.page = g)),
-- the page whose closing ends the statement (the last), else $2's own row
hdr AS (
  SELECT p.* FROM pages p, st
  ORDER BY (st.paged > 0 AND p.page = st.last) DESC, (p.statement_key = $2) DESC, p.page
  LIMIT 1),
opening AS (
  SELECT p.opening_minor FROM pages p, st
  WHERE st.paged = 0 OR p.page = 1),
v AS (
  SELECT CASE
    WHEN st.n = 0 OR st.unknown THEN NULL
    WHEN st.paged > 0 AND (st.last IS NULL OR missing.pages IS NOT NULL) THEN 'page_missing'
    WHEN ent.n = 0 AND st.summarised THEN NULL
    WHEN ent.ccys > 1 OR (ent.ccys = 1 AND hdr.account_ccy IS NOT NULL
                          AND ent.ccy <> hdr.account_ccy) THEN NULL
    WHEN (SELECT opening_minor FROM opening) IS NULL OR hdr.closing_minor IS NULL THEN NULL
    WHEN (SELECT opening_minor FROM opening) + ent.net <> hdr.closing_minor THEN 'balance_break'
    END AS why,
    (SELECT opening_minor FROM opening) AS opening, hdr.closing_minor AS closing,
    (SELECT opening_minor FROM opening) + ent.net AS computed, st.loaded, st.last,
    missing.pages AS missing, hdr.natural_key, hdr.kind, hdr.load_id, hdr.position,
    hdr.account, coalesce(hdr.account_ccy, ent.ccy) AS ccy, grp.base
  FROM st, ent, missing, hdr, grp)
INSERT INTO pg_temp.cl_recon (seq, statement_key, status, why, entry_kind, entry_key,
  entry_item, entry_position, entry_load_id, account, amount_minor, currency, stmt_group,
  bal_opening, bal_closing, bal_computed, bal_pages, bal_last_page, bal_missing)
SELECT ($3::bigint + 1) * {reconcile_seq_step}, $2, 'exception', v.why, v.kind, v.natural_key,
       'statement', v.position, v.load_id, v.account,
       CASE WHEN v.why = 'balance_break' THEN v.closing - v.computed END, v.ccy, v.base,
       v.opening, v.closing, v.computed, v.loaded, v.last, v.missing
FROM v
WHERE v.why IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM pg_temp.cl_recon r
                  WHERE r.stmt_group = v.base AND r.entry_item = 'statement')

-- name: reconcile_mark_statement
-- Statement $2 of tenant $1 reconciled by run $3.
INSERT INTO clearing_reconcile_statement (tenant, statement_key, run_id)
VALUES ($1, $2, $3::bigint)
ON CONFLICT DO NOTHING

-- name: reconcile_counts
-- The run's answer counted by status (read by name).
SELECT count(*) FILTER (WHERE status = 'matched') AS matched,
       count(*) FILTER (WHERE status = 'unmatched_ours') AS unmatched_ours,
       count(*) FILTER (WHERE status = 'unmatched_theirs') AS unmatched_theirs,
       count(*) FILTER (WHERE status = 'exception') AS exceptions,
       count(*) FILTER (WHERE status = 'suggested') AS suggested
FROM pg_temp.cl_recon

-- name: reconcile_record_run
-- Run $1 of tenant $2 over $3 statements by references $4: $5 matched,
-- $6 unmatched ours, $7 unmatched theirs, $8 exceptions, $9 suggested,
-- $10 matches new, begun at $11.
INSERT INTO clearing_reconcile_run (run_id, tenant, statements, refs, matched,
  unmatched_ours, unmatched_theirs, exceptions, suggested, new_matches, started_at)
VALUES ($1::bigint, $2, $3::bigint, $4, $5::bigint, $6::bigint, $7::bigint, $8::bigint,
        $9::bigint, $10::bigint, $11::timestamptz)

-- fragment: reconcile_answer
-- The answer's columns, in the order loader/reconcile.c reads them
-- (loader/recon_item.def: reader and list are written from one table;
-- COPY takes no parameters: the two statements below differ in their
-- filter).
SELECT {recon_answer_columns}
FROM pg_temp.cl_recon

-- name: reconcile_output
-- The answer in order: each statement's entries, then its unmatched ours.
COPY (
  {reconcile_answer}
  ORDER BY seq, sub NULLS FIRST) TO STDOUT

-- name: reconcile_output_differences
-- The same without the matched items (reconcile --quiet).
COPY (
  {reconcile_answer}
  WHERE status <> 'matched'
  ORDER BY seq, sub NULLS FIRST) TO STDOUT

-- name: reconcile_now
-- When the run began.
SELECT pg_catalog.clock_timestamp()

-- Decisions on breaks (sql/027_break_decisions.sql, clearing-load break;
-- docs/design/0033-breaks-workflow.md): after the run's statements are
-- matched, each break is given its item id, a decision in force replaces
-- its status, the breaks left open are recorded with the run and aged.

-- name: reconcile_break_columns
-- The answer's columns of the breaks workflow (recon_item.def's last).
ALTER TABLE pg_temp.cl_recon ADD COLUMN IF NOT EXISTS item_id text,
  ADD COLUMN IF NOT EXISTS decision text, ADD COLUMN IF NOT EXISTS decided_by text,
  ADD COLUMN IF NOT EXISTS decided_at text, ADD COLUMN IF NOT EXISTS decision_reason text,
  ADD COLUMN IF NOT EXISTS decided_with text, ADD COLUMN IF NOT EXISTS age_days integer,
  ADD COLUMN IF NOT EXISTS first_reported date

-- name: reconcile_break_ids
-- The id of each item of the run's answer (tenant $1) that is not matched:
-- e<load>.<ordinal> of its statement item (an entry, a status, a
-- statement's balance), else r<load>.<ordinal> of our record (unmatched
-- ours); a probe of a unique index per break, none per match.
UPDATE pg_temp.cl_recon r
SET item_id = CASE WHEN r.entry_key IS NOT NULL THEN
    (SELECT 'e' || i.load_id || '.' || i.ordinal FROM clearing_statement_item i
     WHERE i.tenant = $1 AND i.kind = r.entry_kind AND i.natural_key = r.entry_key)
  ELSE
    (SELECT 'r' || x.load_id || '.' || x.ordinal FROM clearing_record x
     WHERE x.tenant = $1 AND x.kind = r.record_kind AND x.natural_key = r.record_key
     LIMIT 1) END
WHERE r.status <> 'matched' AND (r.entry_key IS NOT NULL OR r.record_key IS NOT NULL)

-- name: reconcile_decided
-- A break of tenant $1 under a decision in force: its status is the
-- decision's (accepted, matched_by_hand, written_off), with who, when (UTC),
-- why and the other items of the decision (a match's records, a record's
-- entry).
UPDATE pg_temp.cl_recon r
SET (status, decision, decided_by, decided_at, decision_reason, decided_with) = (
  SELECT l.action, l.action, l.decided_by,
         pg_catalog.to_char(l.decided_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
         l.reason,
         (SELECT pg_catalog.string_agg(d.item_id, ' ' ORDER BY d.item_id)
          FROM clearing_break_decision d
          WHERE d.decision_id = l.decision_id AND d.item_id <> r.item_id)
  FROM clearing_break_live($1, CASE WHEN r.entry_key IS NOT NULL THEN 'entry' ELSE 'record' END,
                           coalesce(r.entry_kind, r.record_kind),
                           coalesce(r.entry_key, r.record_key)) l)
WHERE r.item_id IS NOT NULL AND r.status IN ({recon_open_statuses})
  AND EXISTS (
    SELECT 1 FROM clearing_break_live($1,
                    CASE WHEN r.entry_key IS NOT NULL THEN 'entry' ELSE 'record' END,
                    coalesce(r.entry_kind, r.record_kind), coalesce(r.entry_key, r.record_key)))

-- name: reconcile_record_breaks
-- The breaks run $2 of tenant $1 leaves open, once per item.
INSERT INTO clearing_reconcile_break (tenant, run_id, statement_key, item_id, side, item_kind,
  item_key, status, reason, account, amount_minor, currency, item_date, record_kind,
  record_key, record_ids)
SELECT $1, $2::bigint, r.statement_key, r.item_id,
       CASE WHEN r.entry_key IS NOT NULL THEN 'entry' ELSE 'record' END,
       coalesce(r.entry_kind, r.record_kind), coalesce(r.entry_key, r.record_key), r.status,
       r.why, r.account, CASE WHEN r.entry_key IS NOT NULL THEN r.amount_minor
                              ELSE r.record_amount END,
       CASE WHEN r.entry_key IS NOT NULL THEN r.currency ELSE r.record_currency END,
       coalesce(r.booking_date, r.value_date, r.record_date),
       CASE WHEN r.entry_key IS NOT NULL THEN r.record_kind END,
       CASE WHEN r.entry_key IS NOT NULL THEN r.record_key END, r.record_ids
FROM pg_temp.cl_recon r
WHERE r.item_id IS NOT NULL AND r.status IN ({recon_open_statuses})
ON CONFLICT DO NOTHING

-- name: reconcile_break_age
-- The age of each open break of tenant $1 in days: since a run first
-- reported it (the break is as old as the operator's knowledge of it; an
-- entry booked a month ago on a statement delivered today is new today).
-- One probe of clearing_reconcile_break_item per open break: a join of the
-- answer (matched items too, unanalyzed) with the breaks went quadratic
-- (8.8 s of a 13 s reconcile of 100,000 entries).
UPDATE pg_temp.cl_recon r
SET (first_reported, age_days) = (
  SELECT coalesce(f.first, r.first_reported), coalesce(CURRENT_DATE - f.first, r.age_days)
  FROM (SELECT min(b.reported_at)::date AS first
        FROM clearing_reconcile_break b
        WHERE b.tenant = $1 AND b.item_id = r.item_id) f)
WHERE r.item_id IS NOT NULL AND r.status IN ({recon_open_statuses})

-- name: reconcile_count_decided
-- How many items of the run's answer a decision closed.
SELECT count(*) FROM pg_temp.cl_recon WHERE decision IS NOT NULL AND status <> 'matched'

-- name: reconcile_output_breaks_first
-- The answer for a person: the open breaks, then the items a decision
-- closed, then the matches, each in statement order.
COPY (
  {reconcile_answer}
  ORDER BY CASE WHEN status IN ({recon_open_statuses}) THEN 0
                WHEN status = 'matched' THEN 2 ELSE 1 END, seq, sub NULLS FIRST) TO STDOUT
