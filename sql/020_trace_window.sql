-- 020: reconcile finds a record by its ACH trace number only near the
-- statement entry's date (clearing-load(1) RECONCILIATION,
-- clearing-load-keys(7) "DATES AND BANKING DAYS").  Trace numbers restart
-- every day, so a trace alone finds a record of each day of history with
-- that sequence: about 250 a year, each a candidate to read and sort.
--
-- The window, defined once: a record's effective date at most 2 banking
-- days from a statement entry's date, either way (an ACH entry settles on
-- its effective date, or the next banking day when that is none; a bank
-- may post it a day or two later, or debit a pre-funded credit origination
-- a day or two before).  2 banking days span at most 4 calendar days: that
-- range first, on the date as a day number (days since 2000-01-01), which
-- only the trace indexes below hold: as a plain date range the planner
-- could take the tenant's date index for it (it did, with the history
-- never analyzed) and read every record of those days for each entry.
CREATE OR REPLACE FUNCTION clearing_trace_window(record_date date, entry_date date)
RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN record_date - DATE '2000-01-01'
		BETWEEN entry_date - DATE '2000-01-01' - 4 AND entry_date - DATE '2000-01-01' + 4
	AND clearing_banking_days(record_date, entry_date) <= 2;

-- The trace indexes carry the date (its day number): a statement entry's
-- probe is a range of (tenant, trace, day), however long the history.  They replace 011's
-- (tenant, trace_number) and (tenant, original_trace): show --trace and
-- the loader's probe of the other ACH key rule (classify_probe_rule_batch)
-- use their prefix.  Runs again harmlessly.
CREATE INDEX IF NOT EXISTS clearing_record_trace_date ON clearing_record
	(tenant, trace_number, (value_date - DATE '2000-01-01')) WHERE trace_number IS NOT NULL;
CREATE INDEX IF NOT EXISTS clearing_record_original_trace_date ON clearing_record
	(tenant, original_trace, (value_date - DATE '2000-01-01'))
	WHERE original_trace IS NOT NULL;
DROP INDEX IF EXISTS clearing_record_trace;
DROP INDEX IF EXISTS clearing_record_original_trace;
