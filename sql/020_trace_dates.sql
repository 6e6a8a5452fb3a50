-- 020: reconcile finds a record by its ACH trace number only near the
-- statement entry's date (clearing-load(1) RECONCILIATION,
-- clearing-load-keys(7) "DATES AND BANKING DAYS").  Trace numbers restart
-- every day, so a trace alone finds a record of each day of history with
-- that sequence: about 250 a year, each a candidate to read and sort.
--
-- The window, defined once: the record's effective date at most 2 banking
-- days from the entry's date, either way (an ACH entry settles on its
-- effective date, or the next banking day when that is none; a bank may
-- post it a day or two later, or debit a pre-funded credit origination a
-- day or two before).  2 banking days span at most 4 calendar days: the
-- cheap range first, which the indexes below make an index range.
CREATE OR REPLACE FUNCTION clearing_trace_dates(record_date date, entry_date date)
RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN record_date BETWEEN entry_date - 4 AND entry_date + 4
	AND clearing_banking_days(record_date, entry_date) <= 2;

-- The trace indexes carry the date: a statement entry's probe is a range
-- of (tenant, trace, date), however long the history.  They replace 011's
-- (tenant, trace_number) and (tenant, original_trace): show --trace and
-- the loader's probe of the other ACH key rule (classify_probe_rule_batch)
-- use their prefix.  Runs again harmlessly.
CREATE INDEX IF NOT EXISTS clearing_record_trace_date ON clearing_record
	(tenant, trace_number, value_date) WHERE trace_number IS NOT NULL;
CREATE INDEX IF NOT EXISTS clearing_record_original_trace_date ON clearing_record
	(tenant, original_trace, value_date) WHERE original_trace IS NOT NULL;
DROP INDEX IF EXISTS clearing_record_trace;
DROP INDEX IF EXISTS clearing_record_original_trace;
