-- reconcile.sql - statement entries against applied records, both ways
-- (loader/reconcile.c; clearing-load(1) RECONCILIATION).  Every query is
-- bounded by one statement: its items by the statement index, each
-- reference an index probe of clearing_record, a batch by the file it came
-- in, unmatched ours and suggestions by the statement's period.

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
	record_date date)

-- name: reconcile_create_entry
-- One statement's work tables (emptied for each statement): its entries,
CREATE TEMPORARY TABLE IF NOT EXISTS cl_recon_entry AS
SELECT i.*, false AS is_return, NULL::date AS on_date
FROM public.clearing_statement_item i WITH NO DATA

-- name: reconcile_create_cand
-- the records their references find,
CREATE TEMPORARY TABLE IF NOT EXISTS cl_recon_cand (
	entry_key text COLLATE "C", rule text, ord bigint, val text, kind text,
	natural_key text COLLATE "C")

-- name: reconcile_create_best
-- the best of those per entry,
CREATE TEMPORARY TABLE IF NOT EXISTS cl_recon_best (
	entry_key text COLLATE "C", rule text, val text, kind text, natural_key text COLLATE "C",
	load_id bigint, position bigint, amount_minor bigint, currency text, direction text,
	value_date date, accounts text[], equal boolean, ncand bigint, nth bigint,
	original_trace text, orgnl_uetr text, orgnl_end_to_end_id text, uetr text,
	end_to_end_id text, tx_id text, taken boolean, rejected text, late boolean)

-- name: reconcile_create_batch
-- and the best batch of each batch entry.
CREATE TEMPORARY TABLE IF NOT EXISTS cl_recon_batch (
	entry_key text COLLATE "C", rule text, ref text, load_id bigint, company text,
	batch_number text, kind text, n bigint, total bigint, exact boolean)

-- name: reconcile_create_index
-- The answer by record (unmatched ours leaves out the records it names).
CREATE INDEX IF NOT EXISTS cl_recon_record ON pg_temp.cl_recon (record_kind, record_key)

-- name: reconcile_analyze_answer
-- Statistics of the answer so far, for unmatched ours' anti-join.
ANALYZE pg_temp.cl_recon

-- name: reconcile_truncate
-- A run starts with an empty answer (a connection that ran one before).
TRUNCATE pg_temp.cl_recon

-- name: reconcile_truncate_work
-- A statement starts with empty work tables.
TRUNCATE pg_temp.cl_recon_entry, pg_temp.cl_recon_cand, pg_temp.cl_recon_best,
         pg_temp.cl_recon_batch

-- name: reconcile_drop
-- The answer, once written, and the work tables.
DROP TABLE IF EXISTS pg_temp.cl_recon, pg_temp.cl_recon_entry, pg_temp.cl_recon_cand,
  pg_temp.cl_recon_best, pg_temp.cl_recon_batch

-- name: reconcile_run_id
-- The run's id, taken when it begins; its row is written at the end.
SELECT pg_catalog.nextval('public.clearing_reconcile_run_seq')

-- name: reconcile_pending
-- The statements of tenant $1 that no run has reconciled yet, oldest first.
SELECT i.statement_key
FROM public.clearing_statement_item i
WHERE i.tenant = $1 AND i.item = 'statement'
  AND NOT EXISTS (
    SELECT 1 FROM public.clearing_reconcile_statement r
    WHERE r.tenant = i.tenant AND r.statement_key = i.statement_key)
ORDER BY i.load_id, i.ordinal

-- name: reconcile_header
-- Statement $2 of tenant $1: its kind, account, period (from, to) and
-- the account's currency (no row: not loaded).
SELECT kind, account, period_from, period_to, account_ccy
FROM public.clearing_statement_item
WHERE tenant = $1 AND statement_key = $2 AND item = 'statement'
LIMIT 1

-- name: reconcile_entries
-- The entries (and pacs.002 statuses) of statement $2 of tenant $1 into
-- the work table, each with whether it is a return (a return reason, a
-- reversal, a bank transaction code RRTN or RPCR) and its date (value,
-- else booking date).
INSERT INTO pg_temp.cl_recon_entry
SELECT i.*,
       (i.return_reason IS NOT NULL OR i.reversal
        OR coalesce(i.bank_tx_code LIKE '%/RRTN' OR i.bank_tx_code LIKE '%/RPCR', false)),
       coalesce(i.value_date, i.booking_date)
FROM public.clearing_statement_item i
WHERE i.tenant = $1 AND i.statement_key = $2 AND i.item <> 'statement'

-- name: reconcile_analyze
-- Statistics of the work tables, for the plans of the joins over them.
ANALYZE pg_temp.cl_recon_entry, pg_temp.cl_recon_cand

-- name: reconcile_candidates
-- The records of tenant $1 each reference of an entry finds, one index
-- probe per reference and column (the references of $2, a text array, in
-- order of trust; a batch entry's are the batch's, not probed here): its
-- own reference and, for returns, the original's.
INSERT INTO pg_temp.cl_recon_cand
SELECT r.entry_key, r.rule, r.ord, r.val, c.kind, c.natural_key
FROM (
  SELECT e.natural_key AS entry_key, o.rule, o.ord, v.val
  FROM pg_temp.cl_recon_entry e
  CROSS JOIN LATERAL (VALUES ('uetr', e.uetr), ('e2e', e.end_to_end_id), ('tx_id', e.tx_id),
                             ('instr_id', e.instr_id), ('trace', e.ach_trace),
                             ('acct_svcr_ref', e.acct_svcr_ref)) AS v(rule, val)
  JOIN unnest($2::text[]) WITH ORDINALITY AS o(rule, ord) ON o.rule = v.rule
  WHERE v.val IS NOT NULL AND e.batch_count IS NULL) AS r
CROSS JOIN LATERAL (
    SELECT x.kind, x.natural_key FROM public.clearing_record x
    WHERE r.rule = 'uetr' AND x.tenant = $1 AND x.uetr = r.val
    UNION ALL
    SELECT x.kind, x.natural_key FROM public.clearing_record x
    WHERE r.rule = 'uetr' AND x.tenant = $1 AND x.orgnl_uetr = r.val
    UNION ALL
    SELECT x.kind, x.natural_key FROM public.clearing_record x
    WHERE r.rule IN ('e2e', 'acct_svcr_ref') AND x.tenant = $1 AND x.end_to_end_id = r.val
    UNION ALL
    SELECT x.kind, x.natural_key FROM public.clearing_record x
    WHERE r.rule = 'e2e' AND x.tenant = $1 AND x.orgnl_end_to_end_id = r.val
    UNION ALL
    SELECT x.kind, x.natural_key FROM public.clearing_record x
    WHERE r.rule IN ('tx_id', 'acct_svcr_ref') AND x.tenant = $1 AND x.tx_id = r.val
    UNION ALL
    SELECT x.kind, x.natural_key FROM public.clearing_record x
    WHERE r.rule = 'instr_id' AND x.tenant = $1 AND x.instr_id = r.val
    UNION ALL
    SELECT x.kind, x.natural_key FROM public.clearing_record x
    WHERE r.rule = 'trace' AND x.tenant = $1 AND x.trace_number = r.val
    UNION ALL
    SELECT x.kind, x.natural_key FROM public.clearing_record x
    WHERE r.rule = 'trace' AND x.tenant = $1 AND x.original_trace = r.val) AS c

-- name: reconcile_best
-- Of each entry's candidates (tenant $1), those of the first reference
-- that found records of the entry's class (returns for a return entry,
-- else payments); of them the one with the same amount, currency and
-- booked direction, nearest in date: the entry's record, with how many
-- there were, whether an earlier entry of the statement has it too
-- (booked twice), whether an entry of another statement of its kind
-- matched it, a pacs.002 that rejected it, and for an ACH return whether
-- it came late: booked more than 2 banking days after its entry's
-- effective date, or 60 days for the unauthorized codes (R05, R07, R10,
-- R11, R29, R51).
INSERT INTO pg_temp.cl_recon_best
SELECT b.entry_key, b.rule, b.val, b.kind, b.natural_key, b.load_id, b.position,
       b.amount_minor, b.currency, b.direction, b.value_date, b.accounts, b.equal, b.ncand,
       CASE WHEN b.equal THEN row_number() OVER (PARTITION BY b.kind, b.natural_key, b.equal
                                                 ORDER BY b.entry_index) END,
       b.original_trace, b.orgnl_uetr, b.orgnl_end_to_end_id, b.uetr, b.end_to_end_id, b.tx_id,
       EXISTS (
         SELECT 1 FROM public.clearing_reconcile_match m
         WHERE m.tenant = $1 AND m.record_kind = b.kind AND m.record_key = b.natural_key
           AND m.entry_kind = b.entry_kind AND m.entry_key <> b.entry_key),
       (SELECT min(s.status || coalesce(' ' || s.status_reason, ''))
        FROM public.clearing_statement_item s
        WHERE s.tenant = $1 AND s.item = 'status' AND s.status = 'RJCT'
          AND (s.uetr = b.uetr OR s.end_to_end_id = b.end_to_end_id OR s.tx_id = b.tx_id)),
       (SELECT CASE WHEN b.reason_code IN ('R05', 'R07', 'R10', 'R11', 'R29', 'R51')
                    THEN b.on_date - min(o.value_date) > 60
                    ELSE public.clearing_banking_days(min(o.value_date), b.on_date) > 2 END
        FROM public.clearing_record o
        WHERE b.kind = 'ach.return' AND o.tenant = $1 AND o.trace_number = b.original_trace
          AND o.kind = 'ach.entry' AND o.value_date <= b.on_date)
FROM (
  SELECT DISTINCT ON (s.entry_key) s.*, count(*) OVER (PARTITION BY s.entry_key) AS ncand
  FROM (
    SELECT c.entry_key, c.rule, c.ord, c.val, x.kind, x.natural_key, x.load_id, x.ordinal,
           x.position, x.amount_minor, x.currency, x.direction, x.value_date,
           ARRAY[x.debtor_account, x.creditor_account, x.receiving_account] AS accounts,
           x.original_trace, x.orgnl_uetr, x.orgnl_end_to_end_id, x.uetr, x.end_to_end_id,
           x.tx_id, x.reason_code, e.entry_index, e.kind AS entry_kind, e.on_date,
           (e.amount_minor IS NULL OR x.amount_minor = e.amount_minor)
             AND (e.currency IS NULL OR x.currency = e.currency)
             AND (e.direction IS NULL
                  OR coalesce(public.clearing_booked_direction(x.kind, x.direction),
                              e.direction) = e.direction) AS equal,
           abs(coalesce(x.value_date - e.on_date, 0)) AS days_off,
           min(c.ord) OVER (PARTITION BY c.entry_key) AS first_ord
    FROM pg_temp.cl_recon_cand c
    JOIN pg_temp.cl_recon_entry e ON e.natural_key = c.entry_key
    JOIN public.clearing_record x
      ON x.tenant = $1 AND x.kind = c.kind AND x.natural_key = c.natural_key
    WHERE (x.kind IN ('ach.return', 'ach.noc', 'pacs.004')) = e.is_return) AS s
  WHERE s.ord = s.first_ord
  ORDER BY s.entry_key, s.equal DESC, s.days_off, s.load_id, s.ordinal) AS b

-- name: reconcile_batches
-- Each batch entry's candidate batches of tenant $1: the pain.001 PmtInf
-- of its PmtInfId (per file), the ACH batch of its first transaction's
-- trace (company and batch number, in the file that has it), with their
-- count and net sum as booked (credits to our account positive) and
-- whether both are the entry's exactly; the best one.
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
  FROM public.clearing_record x
  WHERE x.tenant = $1 AND x.pmt_inf_id = coalesce(e.batch_pmt_inf_id, e.pmt_inf_id)
    AND x.kind = 'pain.001'
  GROUP BY x.pmt_inf_id, x.load_id
  UNION ALL
  SELECT 'trace_batch', t.trace_number, b.load_id, b.company_id, b.batch_number, min(b.kind),
         count(*), sum(CASE public.clearing_booked_direction(b.kind, b.direction)
                       WHEN 'debit' THEN -b.amount_minor ELSE b.amount_minor END),
         min(b.currency)
  FROM (SELECT DISTINCT x.trace_number, x.load_id, x.company_id, x.batch_number
        FROM public.clearing_record x
        WHERE x.tenant = $1 AND x.trace_number = e.ach_trace AND x.kind = 'ach.entry') t
  JOIN public.clearing_record b
    ON b.load_id = t.load_id AND b.tenant = $1 AND b.kind = 'ach.entry'
   AND b.company_id = t.company_id AND b.batch_number = t.batch_number
  GROUP BY t.trace_number, b.load_id, b.company_id, b.batch_number) AS g
WHERE e.batch_count IS NOT NULL
ORDER BY e.natural_key, 10 DESC, g.load_id

-- name: reconcile_judge
-- Each entry of statement $2 (tenant $1) with its status and why: a batch
-- by its batch, else by its record; a return without a return of ours
-- names the payment it returns; an entry without a reference found gets
-- a suggestion (same amount, currency, direction and date, not matched
-- by an entry of its kind) or none.
INSERT INTO pg_temp.cl_recon (statement_key, status, why, entry_kind, entry_key, entry_item,
  entry_position, entry_load_id, account, amount_minor, currency, direction, booking_date,
  value_date, payment_status, rule, reference, record_kind, record_key, record_load_id,
  record_position, record_amount, record_currency, record_direction, record_accounts, records,
  batch_total, batch_count, batch_load_id, batch_company, batch_number, batch_ref,
  original_kind, original_key, candidates, rejected)
SELECT $2, v.status, v.why, e.kind, e.natural_key, e.item, e.position, e.load_id, e.account,
       e.amount_minor, e.currency, e.direction, e.booking_date, e.value_date,
       CASE WHEN e.item = 'status' THEN e.status END,
       coalesce(bb.rule, b.rule), coalesce(bb.ref, b.val), coalesce(b.kind, o.kind),
       coalesce(b.natural_key, o.natural_key), coalesce(b.load_id, o.load_id),
       coalesce(b.position, o.position), coalesce(b.amount_minor, o.amount_minor),
       coalesce(b.currency, o.currency), coalesce(b.direction, o.direction),
       coalesce(b.accounts, o.accounts), bb.n, bb.total, e.batch_count, bb.load_id,
       bb.company, bb.batch_number, bb.ref, orig.kind, orig.natural_key, b.ncand, b.rejected
FROM pg_temp.cl_recon_entry e
LEFT JOIN pg_temp.cl_recon_best b ON b.entry_key = e.natural_key
LEFT JOIN pg_temp.cl_recon_batch bb ON bb.entry_key = e.natural_key
LEFT JOIN LATERAL (
  SELECT x.kind, x.natural_key FROM public.clearing_record x
  WHERE b.kind IN ('ach.return', 'ach.noc') AND x.tenant = $1
    AND x.trace_number = b.original_trace AND x.kind = 'ach.entry'
  UNION ALL
  SELECT x.kind, x.natural_key FROM public.clearing_record x
  WHERE b.kind = 'pacs.004' AND x.tenant = $1 AND x.uetr = b.orgnl_uetr
  UNION ALL
  SELECT x.kind, x.natural_key FROM public.clearing_record x
  WHERE b.kind = 'pacs.004' AND b.orgnl_uetr IS NULL AND x.tenant = $1
    AND x.end_to_end_id = b.orgnl_end_to_end_id
  UNION ALL
  SELECT c.kind, c.natural_key FROM pg_temp.cl_recon_cand c
  WHERE b.kind IS NULL AND e.is_return AND c.entry_key = e.natural_key
  LIMIT 1) AS orig ON true
LEFT JOIN LATERAL (
  SELECT * FROM (
  SELECT x.kind, x.natural_key, x.load_id, x.ordinal, x.position, x.amount_minor,
         x.currency, x.direction, x.value_date,
         ARRAY[x.debtor_account, x.creditor_account, x.receiving_account] AS accounts
  FROM public.clearing_record x
  WHERE e.item = 'entry' AND e.batch_count IS NULL AND b.kind IS NULL AND NOT e.is_return
    AND x.tenant = $1 AND x.value_date = e.on_date AND x.amount_minor = e.amount_minor
    AND x.currency = e.currency
    AND coalesce(public.clearing_booked_direction(x.kind, x.direction), e.direction)
        = e.direction
    AND NOT EXISTS (
      SELECT 1 FROM public.clearing_reconcile_match m
      WHERE m.tenant = $1 AND m.record_kind = x.kind AND m.record_key = x.natural_key
        AND m.entry_kind = e.kind)
  OFFSET 0) AS x
  ORDER BY x.load_id, x.ordinal
  LIMIT 1) AS o ON true
CROSS JOIN LATERAL (
  SELECT CASE WHEN w IN ('matched', 'several') THEN 'matched'
              WHEN w = 'suggested' THEN 'suggested'
              WHEN w ~ '^no_|_not_ours$' THEN 'unmatched_theirs'
              ELSE 'exception' END AS status, w AS why
  FROM (SELECT CASE
    WHEN e.batch_count IS NOT NULL AND bb.rule IS NULL THEN 'no_batch'
    WHEN e.batch_count IS NOT NULL AND bb.exact THEN 'matched'
    WHEN e.batch_count IS NOT NULL THEN 'batch_differs'
    WHEN b.kind IS NULL AND o.kind IS NOT NULL THEN 'suggested'
    WHEN b.kind IS NULL AND orig.kind IS NOT NULL THEN 'return_not_ours'
    WHEN b.kind IS NULL AND e.item = 'status' THEN 'status_not_ours'
    WHEN b.kind IS NULL THEN 'no_record'
    WHEN NOT b.equal THEN 'differs'
    WHEN b.nth > 1 THEN 'booked_twice'
    WHEN b.taken THEN 'taken'
    WHEN coalesce(e.status, 'BOOK') = 'BOOK' AND b.rejected IS NOT NULL THEN 'rejected_booked'
    WHEN b.late THEN 'late_return'
    WHEN b.ncand > 1 THEN 'several'
    ELSE 'matched' END AS w) AS k) AS v
ORDER BY e.entry_index

-- name: reconcile_record_matches
-- The matches of statement $2 of tenant $1 that no run recorded yet, with
-- run $3: each matched entry with its record, a batch entry with each
-- record of its batch.  Returns how many were new.
WITH ins AS (
  INSERT INTO public.clearing_reconcile_match
    (tenant, entry_kind, entry_key, record_kind, record_key, rule, run_id)
  SELECT $1, r.entry_kind, r.entry_key, r.record_kind, r.record_key, r.rule, $3::bigint
  FROM pg_temp.cl_recon r
  WHERE r.statement_key = $2 AND r.status = 'matched' AND r.batch_count IS NULL
  UNION ALL
  SELECT $1, r.entry_kind, r.entry_key, x.kind, x.natural_key, r.rule, $3::bigint
  FROM pg_temp.cl_recon r
  JOIN public.clearing_record x
    ON x.tenant = $1 AND x.load_id = r.batch_load_id AND x.pmt_inf_id = r.batch_ref
   AND x.kind = 'pain.001'
  WHERE r.statement_key = $2 AND r.status = 'matched' AND r.rule = 'pmt_inf_id'
  UNION ALL
  SELECT $1, r.entry_kind, r.entry_key, x.kind, x.natural_key, r.rule, $3::bigint
  FROM pg_temp.cl_recon r
  JOIN public.clearing_record x
    ON x.tenant = $1 AND x.load_id = r.batch_load_id AND x.company_id = r.batch_company
   AND x.batch_number = r.batch_number AND x.kind = 'ach.entry'
  WHERE r.statement_key = $2 AND r.status = 'matched' AND r.rule = 'trace_batch'
  ON CONFLICT DO NOTHING
  RETURNING 1)
SELECT count(*) FROM ins

-- name: reconcile_unmatched_ours
-- The records of tenant $1 the bank should have booked on statement $2 of
-- kind $3 and did not: in its currency $8, dated within its period ($4 to
-- $5), on its account $6 (debtor or creditor account), or ACH records of
-- the originators $7 (a text array), that no entry of a statement of its
-- kind matched and that this statement's answer does not already name.
INSERT INTO pg_temp.cl_recon (statement_key, status, why, account, record_kind, record_key,
  record_load_id, record_position, record_amount, record_currency, record_direction,
  record_accounts, record_date)
SELECT $2, 'unmatched_ours', 'not_booked', $6, x.kind, x.natural_key, x.load_id, x.position,
       x.amount_minor, x.currency, x.direction,
       ARRAY[x.debtor_account, x.creditor_account, x.receiving_account], x.value_date
FROM (
SELECT x.* FROM public.clearing_record x
WHERE x.tenant = $1 AND x.value_date BETWEEN $4::date AND $5::date AND x.currency = $8
  AND (x.debtor_account = $6 OR x.creditor_account = $6
       OR (x.kind IN ('ach.entry', 'ach.return') AND x.company_id = ANY ($7::text[])))
  AND NOT EXISTS (
    SELECT 1 FROM public.clearing_reconcile_match m
    WHERE m.tenant = $1 AND m.record_kind = x.kind AND m.record_key = x.natural_key
      AND m.entry_kind = $3)
  AND NOT EXISTS (
    SELECT 1 FROM pg_temp.cl_recon r
    WHERE r.statement_key = $2 AND r.record_kind = x.kind AND r.record_key = x.natural_key)
OFFSET 0) AS x
ORDER BY x.load_id, x.ordinal

-- name: reconcile_mark_statement
-- Statement $2 of tenant $1 reconciled by run $3.
INSERT INTO public.clearing_reconcile_statement (tenant, statement_key, run_id)
VALUES ($1, $2, $3::bigint)
ON CONFLICT DO NOTHING

-- name: reconcile_counts
-- The run's answer counted by status: matched, unmatched_ours,
-- unmatched_theirs, exception, suggested.
SELECT count(*) FILTER (WHERE status = 'matched'),
       count(*) FILTER (WHERE status = 'unmatched_ours'),
       count(*) FILTER (WHERE status = 'unmatched_theirs'),
       count(*) FILTER (WHERE status = 'exception'),
       count(*) FILTER (WHERE status = 'suggested')
FROM pg_temp.cl_recon

-- name: reconcile_record_run
-- Run $1 of tenant $2 over $3 statements by references $4: $5 matched,
-- $6 unmatched ours, $7 unmatched theirs, $8 exceptions, $9 suggested,
-- $10 matches new, begun at $11.
INSERT INTO public.clearing_reconcile_run (run_id, tenant, statements, refs, matched,
  unmatched_ours, unmatched_theirs, exceptions, suggested, new_matches, started_at)
VALUES ($1::bigint, $2, $3::bigint, $4, $5::bigint, $6::bigint, $7::bigint, $8::bigint,
        $9::bigint, $10::bigint, $11::timestamptz)

-- name: reconcile_output
-- The answer in order: each statement's entries, then its unmatched ours.
COPY (
  SELECT status, why, statement_key, entry_kind, entry_key, entry_item, entry_position,
         entry_load_id, account, amount_minor, currency, direction, booking_date, value_date,
         payment_status, rule, reference, record_kind, record_key, record_load_id,
         record_position, record_amount, record_currency, record_direction,
         array_to_string(record_accounts, ' '), records, batch_total, batch_count,
         original_kind, original_key, candidates, rejected, record_date
  FROM pg_temp.cl_recon
  ORDER BY seq) TO STDOUT

-- name: reconcile_now
-- When the run began.
SELECT pg_catalog.clock_timestamp()

-- name: reconcile_show
-- For show, the statement entries (and pacs.002 statuses) that matched the
-- record of tenant $1, kind $2, natural key $3, as their statement's file
-- and line (no key: it holds the account), by the run that found each.
SELECT m.entry_kind, s.statement_id, s.seq_nb, s.entry_index, s.load_id AS entry_load_id,
       l.file_name AS entry_file, s.position AS entry_position, s.booking_date, m.rule,
       m.run_id, pg_catalog.to_char(m.matched_at, {iso_ts}) AS matched_at
FROM public.clearing_reconcile_match m
JOIN public.clearing_statement_item s
  ON s.tenant = m.tenant AND s.kind = m.entry_kind AND s.natural_key = m.entry_key
JOIN public.clearing_load l ON l.load_id = s.load_id
WHERE m.tenant = $1 AND m.record_kind = $2 AND m.record_key = $3
ORDER BY m.matched_at, m.entry_kind, m.entry_key
