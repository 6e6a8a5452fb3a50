-- 009: pacs keys by sender, and the fingerprint an alternate key is matched
-- with (clearing-load-keys(7)).
--
-- The UETR tier of a pacs key became uetr|<UETR>|<InstgAgt> and pacs.004's
-- third tier ouetr|<OrgnlUETR>|<InstgAgt>: the instructed agent may come
-- only in the AppHdr or not at all, and a copy without it fell to the TxId
-- tier and was applied again.  Records applied under the earlier form
-- (uetr|U|InstgAgt|InstdAgt, ouetr|U|InstgAgt|InstdAgt) are rewritten
-- here, with every reference to their keys (journal, quarantine), so a
-- re-upload meets them; pacs.004 alternate keys of the ouetr form likewise.
-- Two records of one sender and UETR that differed only in the instructed
-- agent would become one key: the migration then fails on the unique index,
-- nothing changes, and such a database needs a look before it upgrades.
UPDATE clearing_record
	SET natural_key = regexp_replace(natural_key, '^((?:o?uetr)\|[^|]*\|[^|]*)\|[^|]*$', '\1')
	WHERE kind IN ('pacs.008', 'pacs.009', 'pacs.004')
	  AND natural_key ~ '^o?uetr\|[^|]*\|[^|]*\|[^|]*$';
UPDATE clearing_record
	SET alt_key = regexp_replace(alt_key, '^(ouetr\|[^|]*\|[^|]*)\|[^|]*$', '\1')
	WHERE kind = 'pacs.004' AND alt_key ~ '^ouetr\|[^|]*\|[^|]*\|[^|]*$';
UPDATE clearing_quarantine
	SET natural_key = regexp_replace(natural_key, '^((?:o?uetr)\|[^|]*\|[^|]*)\|[^|]*$', '\1')
	WHERE kind IN ('pacs.008', 'pacs.009', 'pacs.004')
	  AND natural_key ~ '^o?uetr\|[^|]*\|[^|]*\|[^|]*$';
UPDATE clearing_dedupe_event
	SET natural_key = regexp_replace(natural_key, '^((?:o?uetr)\|[^|]*\|[^|]*)\|[^|]*$', '\1')
	WHERE kind IN ('pacs.008', 'pacs.009', 'pacs.004')
	  AND natural_key ~ '^o?uetr\|[^|]*\|[^|]*\|[^|]*$';
UPDATE clearing_dedupe_event
	SET matched_key = regexp_replace(matched_key, '^((?:o?uetr)\|[^|]*\|[^|]*)\|[^|]*$', '\1')
	WHERE kind IN ('pacs.008', 'pacs.009', 'pacs.004')
	  AND matched_key ~ '^o?uetr\|[^|]*\|[^|]*\|[^|]*$';

-- The fingerprint without the instructed agent (records with an alternate
-- key; NULL for earlier records, which are then matched by their full
-- fingerprint).
ALTER TABLE clearing_record ADD COLUMN IF NOT EXISTS alt_fp bytea;
ALTER TABLE clearing_quarantine ADD COLUMN IF NOT EXISTS alt_fp bytea;
