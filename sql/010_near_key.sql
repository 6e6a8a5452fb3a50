-- 010: the ACH near-duplicate identity, stored and indexed
-- (clearing-load-keys(7), "Near duplicates"; rules/near.h).
--
-- A near duplicate is one payment under two natural keys (an entry
-- re-dated or re-batched, a return re-dated or re-generated): the unique
-- index cannot see it.  The loader used to find one by joining the staged
-- records with every applied ACH record of the tenant dated within the
-- file's dates, on six fields.  Now each ACH record carries its near
-- identity, computed by the loader in C (rules/near.c cl_near_key) when it
-- writes the row, and an index on it makes the check one probe per staged
-- record, whatever the history.
--
--   ach.entry   E|company_id|trace_number|account|receiving_dfi|amount
--   ach.return  R|original_trace|class|original_rdfi|amount
--   ach.noc     N|original_trace|change_code|original_rdfi|amount
--
-- Each field is escaped ('\' and '|' get a '\' before them); the account
-- loses its leading blanks and zeros and its trailing blanks; a return's
-- class is "plain" for every plain return code, else its dishonored or
-- contested code (R61-R77); empty (NULL) fields are empty text.  NULL for
-- every other kind.  Written to run again harmlessly (OR REPLACE, IF NOT
-- EXISTS; the backfill computes what is there).

-- One field of the identity: empty when NULL, '\' and '|' escaped.
CREATE OR REPLACE FUNCTION clearing_near_field(v text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN replace(replace(coalesce(v, ''), '\', '\\'), '|', '\|');

-- The identity from a row's columns, the same text as cl_near_key: records
-- applied before this migration get theirs from it, and the shared test
-- vectors (tests/db/test_near_vectors.sh) hold the two to one answer.
CREATE OR REPLACE FUNCTION clearing_near_key(kind text, company_id text, trace_number text,
	receiving_account text, receiving_dfi text, amount_minor bigint, original_trace text,
	reason_code text, original_rdfi text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE kind
	WHEN 'ach.entry' THEN 'E'
		|| '|' || clearing_near_field(company_id)
		|| '|' || clearing_near_field(trace_number)
		|| '|' || clearing_near_field(ltrim(rtrim(receiving_account, ' '), ' 0'))
		|| '|' || clearing_near_field(receiving_dfi)
		|| '|' || amount_minor::text
	WHEN 'ach.return' THEN 'R'
		|| '|' || clearing_near_field(original_trace)
		|| '|' || CASE WHEN coalesce(reason_code, '') ~ '^R(6[1-9]|7[0-7])$'
			THEN reason_code ELSE 'plain' END
		|| '|' || clearing_near_field(original_rdfi)
		|| '|' || amount_minor::text
	WHEN 'ach.noc' THEN 'N'
		|| '|' || clearing_near_field(original_trace)
		|| '|' || clearing_near_field(reason_code)
		|| '|' || clearing_near_field(original_rdfi)
		|| '|' || amount_minor::text
	END;

-- Are two effective dates near: within 5 banking days, or either absent
-- (rules/near.c cl_near_dates; 5 banking days span at most 9 calendar
-- days, the cheap test first).
CREATE OR REPLACE FUNCTION clearing_near_dates(a date, b date) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN a IS NULL OR b IS NULL
	OR (a BETWEEN b - 9 AND b + 9 AND clearing_banking_days(a, b) <= 5);

ALTER TABLE clearing_record ADD COLUMN IF NOT EXISTS near_key text COLLATE "C";
ALTER TABLE clearing_quarantine ADD COLUMN IF NOT EXISTS near_key text COLLATE "C";

UPDATE clearing_record SET near_key = clearing_near_key(kind, company_id,
	trace_number, receiving_account, receiving_dfi, amount_minor, original_trace,
	reason_code, original_rdfi)
WHERE kind IN ('ach.entry', 'ach.return', 'ach.noc');
UPDATE clearing_quarantine SET near_key = clearing_near_key(kind, company_id,
	trace_number, receiving_account, receiving_dfi, amount_minor, original_trace,
	reason_code, original_rdfi)
WHERE kind IN ('ach.entry', 'ach.return', 'ach.noc');

-- One probe per staged record: the identity's first letter names the kind,
-- so the kind need not be in the index; the date lets the probe skip the
-- copies of a recurring payment that are far from the staged one.
CREATE INDEX IF NOT EXISTS clearing_record_near_key ON clearing_record
	(tenant, near_key, value_date) WHERE near_key IS NOT NULL;
