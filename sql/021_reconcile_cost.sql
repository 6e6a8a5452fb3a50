-- 021: what a reconcile run costs per statement entry (clearing-load(1)
-- RECONCILIATION; the bench reconciles a 1M-entry statement against 11M
-- records).  Runs again harmlessly.

-- Banking days in arithmetic: the same rule as 003's (the Mondays to
-- Fridays d with min(a, b) < d <= max(a, b); base/banking_days.c), as
-- the difference of a count of weekdays since a Monday.  003's counted the
-- days of a generated series: a function the planner cannot inline, run
-- for each candidate of every trace probe and near-duplicate check (about
-- 10 microseconds a call, several calls per statement entry), and out of
-- range past the timestamp's years.  0001-01-01 is a Monday; 2,100,000
-- days (300,000 weeks) keep every date of PostgreSQL's range positive for
-- the integer division.  Every operator here is strict, so the strict
-- function inlines into the statements that call it.
CREATE OR REPLACE FUNCTION clearing_weekday_number(d date) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN ((d - DATE '0001-01-01')::bigint + 2100000) / 7 * 5
	+ ((d - DATE '0001-01-01')::bigint + 2100000) % 7 + 1
	- (((d - DATE '0001-01-01')::bigint + 2100000) % 7 + 1) / 6
	  * (((d - DATE '0001-01-01')::bigint + 2100000) % 7 - 4);

CREATE OR REPLACE FUNCTION clearing_banking_days(a date, b date) RETURNS integer
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN abs(clearing_weekday_number(b) - clearing_weekday_number(a))::integer;

-- A statement's matches keyed by the record first: one index instead of
-- two.  Every lookup is by the record (show of a record, whether an entry
-- of another statement took it, the records no entry matched); 017's key
-- began with the entry and a second index served those lookups, and each
-- of a statement's million matches was written into both.
DO $$
BEGIN
	IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_constraint
	               WHERE conrelid = 'clearing_reconcile_match'::regclass
	                 AND conname = 'clearing_reconcile_match_record_key') THEN
		ALTER TABLE clearing_reconcile_match
			DROP CONSTRAINT clearing_reconcile_match_key,
			ADD CONSTRAINT clearing_reconcile_match_record_key
				PRIMARY KEY (tenant, record_kind, record_key, entry_kind, entry_key);
	END IF;
END
$$;
DROP INDEX IF EXISTS clearing_reconcile_match_record;

-- The records of a day by amount: a suggestion for a statement entry no
-- reference found (same amount, currency, direction and date) is a probe
-- of (tenant, day, amount), not a read of the whole day's records for each
-- such entry.  It serves 017's lookups by date too (its prefix).
CREATE INDEX IF NOT EXISTS clearing_record_value_amount ON clearing_record
	(tenant, value_date, amount_minor) WHERE value_date IS NOT NULL;
DROP INDEX IF EXISTS clearing_record_value_date;
