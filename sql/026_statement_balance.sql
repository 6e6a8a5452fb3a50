-- 026: what a statement's balances need to be added up once all its pages
-- are in (docs/design/0028-statement-balance-breaks.md; clearing-load(1)
-- RECONCILIATION, clearing-load-keys(7) "Balance breaks").
--
-- A statement whose opening balance plus its booked entries is not its
-- closing balance is loaded all the same: it is the bank's evidence of
-- what it booked.  Reconcile adds up each statement from its stored rows
-- (the header's balances, the entries' booked amounts) and reports a break
-- as an exception carrying the difference; a statement of several pages
-- (camt StmtPgntn), each page a statement row of its own (its key ends in
-- "|p:N"), is added up once its last page and every page before it are
-- loaded, whatever load brought each, and a page missing is reported.
-- For that the statement row keeps its page number, whether it is the
-- last, and how many entries its TxsSummry counts (a balance report lists
-- none: nothing to add up).  NULL on entries, on statement rows loaded
-- before 026 and where the file did not say.  None is part of an item's
-- fingerprint: a statement re-delivered after 026 is a duplicate of its
-- rows loaded before.  Runs again harmlessly.
ALTER TABLE clearing_statement_item
	ADD COLUMN IF NOT EXISTS page integer,          -- StmtPgntn/PgNb
	ADD COLUMN IF NOT EXISTS last_page boolean,     -- StmtPgntn/LastPgInd (true when absent)
	ADD COLUMN IF NOT EXISTS summary_entries bigint; -- TxsSummry TtlNtries/NbOfNtries, else
	                                                 -- TtlCdtNtries + TtlDbtNtries
