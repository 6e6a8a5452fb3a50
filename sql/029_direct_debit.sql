-- 029: direct debits (pain.008, pacs.003; docs/design/0036-direct-debit-keys.md,
-- clearing-load-keys(7) "Direct debits").  A collection is the creditor's
-- claim on a debtor under a mandate: the creditor identifier, the mandate
-- and its date of signature, and the sequence type (FRST, RCUR, OOFF, FNAL)
-- are kept with the record; the mandate and the sequence type are in its
-- fingerprint, so a collection re-sent under another mandate or sequence
-- is held as a conflict.  NULL on every record of another kind and on
-- records applied before 029 (none was a direct debit: clearing-load
-- refused them).  Runs again harmlessly.
-- One DO block: on a Citus coordinator (025) the two tables are distributed,
-- and Citus refuses DDL it must send on to the shards from a query string
-- of several commands; each statement of a block is one.
DO $$
BEGIN
	ALTER TABLE clearing_record
		ADD COLUMN IF NOT EXISTS creditor_scheme_id text,
		ADD COLUMN IF NOT EXISTS mandate_id text,
		ADD COLUMN IF NOT EXISTS mandate_date date,
		ADD COLUMN IF NOT EXISTS sequence_type text;
	ALTER TABLE clearing_quarantine
		ADD COLUMN IF NOT EXISTS creditor_scheme_id text,
		ADD COLUMN IF NOT EXISTS mandate_id text,
		ADD COLUMN IF NOT EXISTS mandate_date date,
		ADD COLUMN IF NOT EXISTS sequence_type text;
END
$$;
