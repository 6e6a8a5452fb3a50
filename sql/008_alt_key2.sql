-- 008: a pacs record's second identity (clearing-load-keys(7), "Alternate
-- key").  alt_key (006) is the EndToEndId tier when the
-- EndToEndId is usable, else the TxId tier; a payment sent once with its
-- EndToEndId and once with "NOTPROVIDED" had two alternate keys.  A record
-- that has both ids keeps the TxId tier in alt_key2 ("txid|<InstgAgt>|<TxId>";
-- pacs.004 with OrgnlUETR and RtrId: "rtrid|<InstgAgt>|<RtrId>"), and the
-- loader matches any identity of one record with any of the other.
ALTER TABLE clearing_record ADD COLUMN alt_key2 text COLLATE "C";
ALTER TABLE clearing_quarantine ADD COLUMN alt_key2 text COLLATE "C";

-- Records applied before: computed as the parser does (006's rules).
CREATE OR REPLACE FUNCTION pg_temp.cl_agent(a text) RETURNS text LANGUAGE sql IMMUTABLE
RETURN CASE WHEN length(a) = 11 AND substr(a, 9) = 'XXX' THEN substr(a, 1, 8) ELSE a END;
CREATE OR REPLACE FUNCTION pg_temp.cl_usable(s text) RETURNS boolean LANGUAGE sql IMMUTABLE
RETURN coalesce(upper(btrim(s, E' \t\r\n')) NOT IN ('', 'NOTPROVIDED'), false);
UPDATE clearing_record SET alt_key2 = CASE
	WHEN kind = 'pacs.004' AND orgnl_uetr IS NOT NULL AND pg_temp.cl_usable(rtr_id)
		THEN 'rtrid|' || pg_temp.cl_agent(instructing_agent) || '|' || rtr_id
	WHEN kind <> 'pacs.004' AND pg_temp.cl_usable(end_to_end_id) AND pg_temp.cl_usable(tx_id)
		THEN 'txid|' || pg_temp.cl_agent(instructing_agent) || '|' || tx_id
	END
WHERE kind IN ('pacs.008', 'pacs.009', 'pacs.004') AND instructing_agent IS NOT NULL
	AND alt_key IS NOT NULL;

CREATE INDEX clearing_record_alt_key2 ON clearing_record
	(tenant, kind, alt_key2) WHERE alt_key2 IS NOT NULL;
