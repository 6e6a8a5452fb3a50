-- 028: a statement entry's transactions matched one by one, and what an
-- entry says of the amount instructed and the charges taken
-- (docs/design/0034-matching-beyond-one-reference.md; clearing-load(1)
-- RECONCILIATION, clearing-load-keys(7) "Statement keys").
--
-- An entry that books several of our payments in one amount (a batch) and
-- gives each in a TxDtls of its own keeps its row as before (key rule s1,
-- its fingerprint unchanged) and gains a row per transaction, item 'tx',
-- keyed ENTRY|tx#N, with the transaction's references and amount:
-- reconcile matches those, each to its record, instead of the batch's sum.
-- An entry of one transaction has no such row (its row carries the
-- transaction's references, as since 017).  A statement loaded before 028
-- and delivered again is a duplicate of its entries and gains its
-- transactions' rows.
--
-- instructed_minor and instructed_ccy: AmtDtls/InstdAmt (the payer's
-- amount, in its currency: another than the booked one for FX);
-- charges_minor: Chrgs in the currency of the booked amount.  Of an entry
-- of one transaction its transaction's, else its own.  NULL where the file
-- did not say and on rows loaded before 028; not in an entry's
-- fingerprint.  Runs again harmlessly.
ALTER TABLE clearing_statement_item
	DROP CONSTRAINT IF EXISTS clearing_statement_item_item_check;
ALTER TABLE clearing_statement_item
	ADD CONSTRAINT clearing_statement_item_item_check
	CHECK (item IN ('statement', 'entry', 'status', 'tx'));
ALTER TABLE clearing_statement_item
	ADD COLUMN IF NOT EXISTS tx_index bigint,          -- the TxDtls' place in its entry
	ADD COLUMN IF NOT EXISTS instructed_minor bigint,  -- AmtDtls/InstdAmt/Amt
	ADD COLUMN IF NOT EXISTS instructed_ccy text,      -- its Ccy
	ADD COLUMN IF NOT EXISTS charges_minor bigint;     -- Chrgs
