-- 018: pacs.002 group statuses (GrpSts) attached to the records of the
-- original message they report on (clearing-load(1) RECONCILIATION,
-- clearing-load-keys(7) "Statement keys").
--
-- A group status is stored as a status row (item 'status') with the
-- original message's id (msg_id) and no transaction reference; a
-- transaction status always has one.  clearing_group_status says which
-- a status row is, once: the partial index below and reconcile.sql's
-- statements use it.  Written to run again harmlessly.
CREATE OR REPLACE FUNCTION clearing_group_status(item text, instr_id text, end_to_end_id text,
						 tx_id text, uetr text)
RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN item = 'status' AND instr_id IS NULL AND end_to_end_id IS NULL AND tx_id IS NULL
	AND uetr IS NULL;

-- The group statuses of an original message (a rejected group booked).
CREATE INDEX IF NOT EXISTS clearing_statement_item_status_group
	ON clearing_statement_item (tenant, msg_id)
	WHERE clearing_group_status(item, instr_id, end_to_end_id, tx_id, uetr)
	  AND msg_id IS NOT NULL;

-- The records of an original message (a group status's records): paid
-- only by records of ISO 20022 messages, the only ones with a msg_id.
CREATE INDEX IF NOT EXISTS clearing_record_msg_id ON clearing_record
	(tenant, msg_id) WHERE msg_id IS NOT NULL;
