-- 006: one payment, several key tiers (clearing-load-keys(7), "Alternate
-- key").
--
-- A pacs.008/.009 is keyed by its UETR when it has one, else by instructing
-- agent + TxId, else + EndToEndId; a pacs.004 by UETR, else RtrId, else
-- OrgnlUETR and hop.  The UETR is optional before pacs.008.001.08 and
-- gateways drop it, TxId is optional in .08, returns often lack RtrId: one
-- payment sent in two forms got two natural keys and was applied twice.
-- alt_key holds the payment's identity under the lowest tier all its forms
-- have ("e2e|<InstgAgt>|<EndToEndId>", else "txid|<InstgAgt>|<TxId>";
-- pacs.004 "ouetr|<OrgnlUETR>|<InstgAgt>", else
-- "rtrid|<InstgAgt>|<RtrId>"; agents as BIC8 when the branch is XXX; NULL
-- for ACH, pain.001 and records without such an id).  The loader treats a
-- record whose alt_key and fingerprint are applied under another natural
-- key as a near duplicate (a conflict: held).  Loaders of files with
-- alternate keys take a per-tenant advisory lock before classifying, so two
-- of them applying two forms at once run one after the other and the second
-- sees the first (a unique index cannot do it: on a table hash-partitioned
-- by natural_key every unique index must contain natural_key).
ALTER TABLE clearing_record ADD COLUMN alt_key text COLLATE "C";
ALTER TABLE clearing_quarantine ADD COLUMN alt_key text COLLATE "C";

-- The records applied before this migration get theirs, computed as the
-- parser does (parsers/iso20022_keys.c alt_key(); "NOTPROVIDED" and blank
-- ids are unusable).
CREATE OR REPLACE FUNCTION pg_temp.cl_agent(a text) RETURNS text LANGUAGE sql IMMUTABLE
RETURN CASE WHEN length(a) = 11 AND substr(a, 9) = 'XXX' THEN substr(a, 1, 8) ELSE a END;
CREATE OR REPLACE FUNCTION pg_temp.cl_usable(s text) RETURNS boolean LANGUAGE sql IMMUTABLE
RETURN coalesce(upper(btrim(s, E' \t\r\n')) NOT IN ('', 'NOTPROVIDED'), false);
UPDATE clearing_record SET alt_key = CASE
	WHEN kind = 'pacs.004' AND orgnl_uetr IS NOT NULL
		THEN 'ouetr|' || orgnl_uetr || '|' || pg_temp.cl_agent(instructing_agent)
	WHEN kind = 'pacs.004' AND pg_temp.cl_usable(rtr_id)
		THEN 'rtrid|' || pg_temp.cl_agent(instructing_agent) || '|' || rtr_id
	WHEN kind <> 'pacs.004' AND pg_temp.cl_usable(end_to_end_id)
		THEN 'e2e|' || pg_temp.cl_agent(instructing_agent) || '|' || end_to_end_id
	WHEN kind <> 'pacs.004' AND pg_temp.cl_usable(tx_id)
		THEN 'txid|' || pg_temp.cl_agent(instructing_agent) || '|' || tx_id
	END
WHERE kind IN ('pacs.008', 'pacs.009', 'pacs.004') AND instructing_agent IS NOT NULL;

CREATE INDEX clearing_record_alt_key ON clearing_record
	(tenant, kind, alt_key) WHERE alt_key IS NOT NULL;
