-- statement.sql - a bank statement or status report loaded as its items
-- (loader/statement_load.c; the table: 017_statements.sql).  The same
-- pipeline as a clearing file: stage, in-file duplicates, duplicates and
-- conflicts into the journal, the new items inserted with the unique index
-- as the arbiter.

-- name: statement_stage_create
-- The stage of one attempt: the file's items with the columns of
-- clearing_statement_item (dates as text, cast when applied) and the key
-- as the journal keeps it (accounts masked).  Dropped with the transaction.
CREATE TEMPORARY TABLE cl_stmt_stage (
	tenant text, kind text, item text, natural_key text COLLATE "C",
	statement_key text COLLATE "C", key_rule text, fingerprint bytea, message_type text,
	account text, account_ccy text, statement_id text, seq_nb text, period_from text,
	period_to text, opening_minor bigint, closing_minor bigint, entry_index bigint,
	entry_ref text, acct_svcr_ref text, amount_minor bigint, currency text, direction text,
	reversal text, status text, status_reason text, booking_date text, value_date text,
	bank_tx_code text, txs bigint, batch_count bigint, batch_msg_id text,
	batch_pmt_inf_id text, msg_id text, pmt_inf_id text, instr_id text, end_to_end_id text,
	tx_id text, uetr text, ach_trace text, return_reason text, load_id bigint,
	ordinal bigint, position bigint, journal_key text, journaled boolean NOT NULL DEFAULT false,
	page bigint, last_page text, summary_entries bigint)
ON COMMIT DROP

-- name: statement_stage_copy
-- Every item streamed into the stage, in binary (loader/db.h): every
-- column but journaled.
COPY pg_temp.cl_stmt_stage (tenant, kind, item, natural_key, statement_key, key_rule,
  fingerprint, message_type, account, account_ccy, statement_id, seq_nb, period_from,
  period_to, opening_minor, closing_minor, entry_index, entry_ref, acct_svcr_ref, amount_minor,
  currency, direction, reversal, status, status_reason, booking_date, value_date, bank_tx_code,
  txs, batch_count, batch_msg_id, batch_pmt_inf_id, msg_id, pmt_inf_id, instr_id, end_to_end_id,
  tx_id, uetr, ach_trace, return_reason, load_id, ordinal, position, page, last_page,
  summary_entries, journal_key)
FROM STDIN (FORMAT binary)

-- name: statement_in_file_duplicates
-- Two items of the file under one key (first and last line, how many, the
-- key as the journal keeps it): the first ten, in file order.
SELECT min(position), max(position), count(*), min(journal_key)
FROM pg_temp.cl_stmt_stage
GROUP BY kind, natural_key
HAVING count(*) > 1
ORDER BY 1
LIMIT 10

-- name: statement_classify
-- The staged items of load $1 whose key tenant $2 has stored: a duplicate
-- (same fingerprint) or a conflict (other content: the columns that
-- differ named), each a journal row, and marked journaled in the stage
-- (apply then needs no read of the journal); returns how many of each.
WITH ev AS (
  INSERT INTO clearing_dedupe_event
    (load_id, ordinal, position, tenant, kind, natural_key, reason,
     matched_load_id, matched_ordinal, matched_position, fields)
  SELECT $1::bigint, s.ordinal, s.position, $2, s.kind, s.journal_key,
         CASE WHEN s.fingerprint = i.fingerprint THEN 'duplicate' ELSE 'conflict' END,
         i.load_id, i.ordinal, i.position,
         CASE WHEN s.fingerprint <> i.fingerprint THEN array_remove(ARRAY[
           CASE WHEN s.amount_minor IS DISTINCT FROM i.amount_minor THEN 'amount_minor' END,
           CASE WHEN s.currency IS DISTINCT FROM i.currency THEN 'currency' END,
           CASE WHEN s.direction IS DISTINCT FROM i.direction THEN 'direction' END,
           CASE WHEN s.status IS DISTINCT FROM i.status THEN 'status' END,
           CASE WHEN s.booking_date::date IS DISTINCT FROM i.booking_date THEN 'booking_date' END,
           CASE WHEN s.value_date::date IS DISTINCT FROM i.value_date THEN 'value_date' END,
           CASE WHEN s.opening_minor IS DISTINCT FROM i.opening_minor THEN 'opening_minor' END,
           CASE WHEN s.closing_minor IS DISTINCT FROM i.closing_minor THEN 'closing_minor' END,
           CASE WHEN s.end_to_end_id IS DISTINCT FROM i.end_to_end_id THEN 'end_to_end_id' END,
           CASE WHEN s.uetr IS DISTINCT FROM i.uetr THEN 'uetr' END,
           CASE WHEN s.tx_id IS DISTINCT FROM i.tx_id THEN 'tx_id' END,
           CASE WHEN s.ach_trace IS DISTINCT FROM i.ach_trace THEN 'ach_trace' END],
           NULL) END
  FROM pg_temp.cl_stmt_stage s
  JOIN clearing_statement_item i
    ON i.tenant = $2 AND i.kind = s.kind AND i.natural_key = s.natural_key
  RETURNING ordinal, reason),
marked AS (
  UPDATE pg_temp.cl_stmt_stage s SET journaled = true FROM ev WHERE s.ordinal = ev.ordinal)
SELECT count(*) FILTER (WHERE reason = 'duplicate'),
       count(*) FILTER (WHERE reason = 'conflict')
FROM ev

-- name: statement_apply
-- The staged items without a journal row (not journaled), in key order
-- (loaders that insert in one order cannot deadlock); an item stored
-- meanwhile by a concurrent load is skipped (the caller retries the file:
-- it is then a duplicate).  Returns how many were inserted.
WITH ins AS (
  INSERT INTO clearing_statement_item
    (tenant, kind, item, natural_key, statement_key, key_rule, fingerprint, message_type,
     account, account_ccy, statement_id, seq_nb, period_from, period_to, opening_minor,
     closing_minor, entry_index, entry_ref, acct_svcr_ref, amount_minor, currency, direction,
     reversal, status, status_reason, booking_date, value_date, bank_tx_code, txs,
     batch_count, batch_msg_id, batch_pmt_inf_id, msg_id, pmt_inf_id, instr_id,
     end_to_end_id, tx_id, uetr, ach_trace, return_reason, load_id, ordinal, position, page,
     last_page, summary_entries)
  SELECT tenant, kind, item, natural_key, statement_key, key_rule, fingerprint, message_type,
         account, account_ccy, statement_id, seq_nb, period_from::date, period_to::date,
         opening_minor, closing_minor, entry_index, entry_ref, acct_svcr_ref, amount_minor,
         currency, direction, reversal::boolean, status, status_reason, booking_date::date,
         value_date::date, bank_tx_code, txs, batch_count, batch_msg_id, batch_pmt_inf_id,
         msg_id, pmt_inf_id, instr_id, end_to_end_id, tx_id, uetr, ach_trace, return_reason,
         load_id, ordinal, position, page, last_page::boolean, summary_entries
  FROM pg_temp.cl_stmt_stage s
  WHERE NOT s.journaled
  ORDER BY kind, natural_key
  ON CONFLICT (tenant, kind, natural_key) DO NOTHING
  RETURNING 1)
SELECT count(*) FROM ins
