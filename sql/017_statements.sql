-- 017: what the bank says (camt.052/053/054, BAI2, pacs.002), loaded
-- idempotently, and the reconciliation runs over it (clearing-load(1)
-- RECONCILIATION, clearing-load-keys(7) "Statement keys").
--
-- clearing_statement_item: one row per statement (its header: account,
-- period, balances), per entry of a statement (camt Ntry, BAI2 16) and per
-- status of a pacs.002, unique on (tenant, kind, natural_key) for ever, as
-- clearing_record is; the key is rules/statement_identity.c's.  A
-- re-delivered statement is all duplicate, a changed one conflicts: the
-- same journal (clearing_dedupe_event) and outcomes as records.  Append
-- only.  Never partitioned by time (see 002_record.sql).
CREATE TABLE IF NOT EXISTS clearing_statement_item (
	tenant          text NOT NULL,
	kind            text NOT NULL,       -- camt.052 camt.053 camt.054 bai2 pacs.002
	item            text NOT NULL CHECK (item IN ('statement', 'entry', 'status')),
	natural_key     text COLLATE "C" NOT NULL,
	statement_key   text COLLATE "C" NOT NULL, -- the statement (or report) it belongs to
	key_rule        text NOT NULL,
	fingerprint     bytea NOT NULL,
	message_type    text,
	account         text,                -- IBAN, else Othr/Id; BAI2 03 account
	account_ccy     text,
	statement_id    text,                -- Stmt/Id; BAI2 01 file id; pacs.002 MsgId
	seq_nb          text,                -- ElctrncSeqNb
	period_from     date,
	period_to       date,
	opening_minor   bigint,              -- statement rows: OPBD/PRCD, BAI2 010
	closing_minor   bigint,              -- CLBD, BAI2 015
	entry_index     bigint,
	entry_ref       text,                -- NtryRef; BAI2 customer reference
	acct_svcr_ref   text,                -- AcctSvcrRef; BAI2 bank reference
	amount_minor    bigint,
	currency        text,
	direction       text CHECK (direction IN ('credit', 'debit')),
	reversal        boolean NOT NULL DEFAULT false,
	status          text,                -- entry BOOK/PDNG/...; pacs.002 TxSts
	status_reason   text,
	booking_date    date,
	value_date      date,
	bank_tx_code    text,
	txs             bigint,              -- TxDtls of the entry
	batch_count     bigint,              -- Btch/NbOfTxs (or TxDtls when > 1)
	batch_msg_id    text,
	batch_pmt_inf_id text,
	msg_id          text,                -- the (only or first) TxDtls references;
	pmt_inf_id      text,                -- pacs.002: the Orgnl* references
	instr_id        text,
	end_to_end_id   text,
	tx_id           text,
	uetr            text,
	ach_trace       text,
	return_reason   text,
	load_id         bigint NOT NULL,
	ordinal         bigint NOT NULL,
	position        bigint NOT NULL,
	CONSTRAINT clearing_statement_item_key PRIMARY KEY (tenant, kind, natural_key)
);

-- A statement's items (reconcile reads one statement at a time).
CREATE INDEX IF NOT EXISTS clearing_statement_item_statement
	ON clearing_statement_item (tenant, statement_key);
-- The pacs.002 statuses of a payment (a rejected payment that was booked).
CREATE INDEX IF NOT EXISTS clearing_statement_item_status_e2e
	ON clearing_statement_item (tenant, end_to_end_id)
	WHERE item = 'status' AND end_to_end_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS clearing_statement_item_status_uetr
	ON clearing_statement_item (tenant, uetr)
	WHERE item = 'status' AND uetr IS NOT NULL;
CREATE INDEX IF NOT EXISTS clearing_statement_item_status_tx_id
	ON clearing_statement_item (tenant, tx_id)
	WHERE item = 'status' AND tx_id IS NOT NULL;
-- A load's items (show of a load, the journal's matched rows).
CREATE INDEX IF NOT EXISTS clearing_statement_item_load
	ON clearing_statement_item (load_id, ordinal);
-- The statements of a tenant (reconcile without files: those not yet
-- reconciled).
CREATE INDEX IF NOT EXISTS clearing_statement_item_headers
	ON clearing_statement_item (tenant, load_id) WHERE item = 'statement';

-- The direction in which the bank books a record of ours on our account:
-- an ACH entry we originate the other way round (a credit to the receiver
-- is a debit of ours), an ACH return or NOC as the record says (a returned
-- credit comes back), a pain.001 a debit; NULL where it depends on which
-- side of the hop we are (pacs.008, pacs.009, pacs.004): either is right.
CREATE OR REPLACE FUNCTION clearing_booked_direction(kind text, direction text)
RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE
	WHEN kind = 'ach.entry' AND direction = 'credit' THEN 'debit'
	WHEN kind = 'ach.entry' AND direction = 'debit' THEN 'credit'
	WHEN kind IN ('ach.return', 'ach.noc') THEN direction
	WHEN kind = 'pain.001' THEN 'debit'
	END;

-- The references reconcile probes clearing_record by that 011 left out
-- (TxId, InstrId, PmtInfId), and the period a statement covers (unmatched
-- ours, suggestions): each a partial index, paid only by records that have
-- the value.
CREATE INDEX IF NOT EXISTS clearing_record_tx_id ON clearing_record
	(tenant, tx_id) WHERE tx_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS clearing_record_instr_id ON clearing_record
	(tenant, instr_id) WHERE instr_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS clearing_record_pmt_inf_id ON clearing_record
	(tenant, pmt_inf_id) WHERE pmt_inf_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS clearing_record_value_date ON clearing_record
	(tenant, value_date) WHERE value_date IS NOT NULL;

-- One row per reconcile run, written once at its end (append only).
CREATE SEQUENCE IF NOT EXISTS clearing_reconcile_run_seq;
CREATE TABLE IF NOT EXISTS clearing_reconcile_run (
	run_id          bigint PRIMARY KEY,  -- from clearing_reconcile_run_seq
	tenant          text NOT NULL,
	statements      bigint NOT NULL,
	refs            text NOT NULL,       -- the references matched by, in order
	matched         bigint NOT NULL,
	unmatched_ours  bigint NOT NULL,
	unmatched_theirs bigint NOT NULL,
	exceptions      bigint NOT NULL,
	suggested       bigint NOT NULL,
	new_matches     bigint NOT NULL,     -- matches this run recorded first
	started_at      timestamptz NOT NULL,
	finished_at     timestamptz NOT NULL DEFAULT pg_catalog.clock_timestamp()
);

-- Each match of a statement entry with a record, recorded once, by the
-- run that found it first (a second run over the same statement adds
-- nothing).  A batch entry has one row per record of its batch.
CREATE TABLE IF NOT EXISTS clearing_reconcile_match (
	tenant          text NOT NULL,
	entry_kind      text NOT NULL,
	entry_key       text COLLATE "C" NOT NULL,
	record_kind     text NOT NULL,
	record_key      text COLLATE "C" NOT NULL,
	rule            text NOT NULL,       -- e2e, uetr, tx_id, instr_id, trace, batch, ...
	run_id          bigint NOT NULL,
	matched_at      timestamptz NOT NULL DEFAULT pg_catalog.now(),
	CONSTRAINT clearing_reconcile_match_key
		PRIMARY KEY (tenant, entry_kind, entry_key, record_kind, record_key)
);
-- show of a record: the entries that matched it.
CREATE INDEX IF NOT EXISTS clearing_reconcile_match_record
	ON clearing_reconcile_match (tenant, record_kind, record_key);

-- The statements a run reconciled (reconcile without files takes those
-- not yet here).
CREATE TABLE IF NOT EXISTS clearing_reconcile_statement (
	tenant          text NOT NULL,
	statement_key   text COLLATE "C" NOT NULL,
	run_id          bigint NOT NULL,
	CONSTRAINT clearing_reconcile_statement_key PRIMARY KEY (tenant, statement_key, run_id)
);

COMMENT ON TABLE clearing_statement_item IS
	'clearing-load: statement items (camt.052/053/054, BAI2, pacs.002), unique on (tenant, kind, natural_key); see clearing-load-keys(7)';

-- Append-only like the journal, and the roles' privileges (015): loading a
-- statement and reconciling are a loader's; reading them a reader's.
SELECT clearing_make_append_only(t) FROM unnest(ARRAY[
	'clearing_statement_item', 'clearing_reconcile_run',
	'clearing_reconcile_match', 'clearing_reconcile_statement']::regclass[]) AS t;
INSERT INTO clearing_privilege (relation, role_kind, privileges) VALUES
	('clearing_statement_item', 'loader', 'SELECT, INSERT'),
	('clearing_reconcile_run', 'loader', 'SELECT, INSERT'),
	('clearing_reconcile_match', 'loader', 'SELECT, INSERT'),
	('clearing_reconcile_statement', 'loader', 'SELECT, INSERT'),
	('clearing_reconcile_run_seq', 'loader', 'USAGE'),
	('clearing_statement_item', 'reader', 'SELECT'),
	('clearing_reconcile_run', 'reader', 'SELECT'),
	('clearing_reconcile_match', 'reader', 'SELECT'),
	('clearing_reconcile_statement', 'reader', 'SELECT')
ON CONFLICT DO NOTHING;
