-- 003_journal.sql: the dedupe journal and the quarantine.
--
-- clearing_dedupe_event: one row per record of a load that was not applied
-- because of a record already in clearing_record: a duplicate (same key,
-- same fingerprint), a conflict (same key, other fingerprint) or an ACH
-- near duplicate (same originator, trace, receiving account, RDFI and
-- amount, another effective date within 5 banking days).  It holds keys,
-- positions and the names of the fields that differ, never account numbers
-- or names.
CREATE TABLE clearing_dedupe_event (
	load_id          bigint NOT NULL,   -- the load that met the record
	ordinal          bigint NOT NULL,   -- 1-based record index in that file
	position         bigint NOT NULL,   -- line of the record in that file
	tenant           text NOT NULL,
	kind             text NOT NULL,
	natural_key      text COLLATE "C" NOT NULL,
	reason           text NOT NULL
		CHECK (reason IN ('duplicate', 'conflict', 'near_duplicate')),
	matched_key      text COLLATE "C",  -- near_duplicate: the key it matched (NULL: same key)
	matched_load_id  bigint NOT NULL,   -- the load that applied the matched record
	matched_ordinal  bigint NOT NULL,
	matched_position bigint NOT NULL,
	fields           text[],            -- conflicts: names of the fields that differ
	created_at       timestamptz NOT NULL DEFAULT now()
);
-- (load_id, ordinal) is unique by construction (one classification row per
-- staged record), so no unique index is paid for on every duplicate: an
-- exact re-upload of a million records writes a million journal rows.
-- Rows are appended in load order: a BRIN index finds a load's events.
CREATE INDEX clearing_dedupe_event_load_idx
	ON clearing_dedupe_event USING brin (load_id);

-- "every dedupe event that hit record X": X is (load_id, ordinal).
CREATE INDEX clearing_dedupe_event_matched_idx
	ON clearing_dedupe_event (matched_load_id, matched_ordinal);

-- Conflicting records parked by --on-conflict=quarantine, with their full
-- new content (the columns of clearing_record).
CREATE TABLE clearing_quarantine (
	LIKE clearing_record INCLUDING DEFAULTS,
	quarantined_at timestamptz NOT NULL DEFAULT now(),
	CONSTRAINT clearing_quarantine_pkey PRIMARY KEY (load_id, ordinal)
);

-- Banking days from a to b: the Mondays to Fridays d with
-- least(a, b) < d <= greatest(a, b).  Holidays are not known to
-- clearing-load and count as banking days (a near duplicate across a
-- holiday is still found when it is within 5 weekdays).
CREATE FUNCTION clearing_banking_days(a date, b date) RETURNS integer
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (SELECT count(*)::integer
	FROM generate_series(least(a, b) + 1, greatest(a, b), interval '1 day') AS d
	WHERE extract(isodow FROM d) < 6);
