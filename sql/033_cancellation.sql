-- 033: cancellation requests and their answers (camt.056, camt.029;
-- docs/design/0043-cancellation-requests.md, clearing-load-keys(7)
-- "Cancellations").  A request points to the payment it would cancel by
-- OrgnlUETR, OrgnlEndToEndId, OrgnlTxId or OrgnlInstrId, names its
-- investigation case and carries its own id (CxlId; the answer's
-- CxlStsId); the answer says what became of it (CNCL or ACCR cancelled,
-- RJCR rejected, PDCR pending).  NULL on every record of another kind and
-- on records applied before 033 (none was a cancellation: clearing-load
-- refused them).  Runs again harmlessly.
-- One DO block: on a Citus coordinator (025) the two tables are distributed,
-- and Citus refuses DDL it must send on to the shards from a query string
-- of several commands; each statement of a block is one.
DO $$
BEGIN
	ALTER TABLE clearing_record
		ADD COLUMN IF NOT EXISTS orgnl_instr_id text,
		ADD COLUMN IF NOT EXISTS case_id text,
		ADD COLUMN IF NOT EXISTS cancellation_id text,
		ADD COLUMN IF NOT EXISTS cancellation_status text;
	ALTER TABLE clearing_quarantine
		ADD COLUMN IF NOT EXISTS orgnl_instr_id text,
		ADD COLUMN IF NOT EXISTS case_id text,
		ADD COLUMN IF NOT EXISTS cancellation_id text,
		ADD COLUMN IF NOT EXISTS cancellation_status text;
END
$$;
