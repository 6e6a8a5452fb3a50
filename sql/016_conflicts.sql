-- 016: conflicts a person can resolve (clearing-load conflicts, resolve;
-- clearing-load-keys(7), "Corrections").
--
-- A conflict is a version parked in clearing_quarantine (by a quarantined
-- load, and since this migration by a held one too) with its journal row:
-- the record it matched.  `resolve --accept` applies the version as a
-- correction: a new record under its own key (the matched record's key +
-- "#corr" + n) that names the record it corrects, never an UPDATE of it;
-- `resolve --dismiss` applies nothing.  Either is one resolution, with a
-- clearing_load row of its own (the correction's load: its feed commit,
-- its show), a journal row ('correction' or 'dismissal') and a row in
-- clearing_resolution, which is also the correction's link to the record
-- it corrects (clearing_record keeps its columns: a record is never
-- rewritten, and a link needs no column on every other record).
-- Written to run again harmlessly (IF NOT EXISTS, OR REPLACE).

-- The journal's reasons: also a correction applied and a conflict
-- dismissed.  NOT VALID: every existing row has one of the old reasons.
ALTER TABLE clearing_dedupe_event
	DROP CONSTRAINT IF EXISTS clearing_dedupe_event_reason_check;
ALTER TABLE clearing_dedupe_event
	ADD CONSTRAINT clearing_dedupe_event_reason_check
	CHECK (reason IN ('duplicate', 'conflict', 'near_duplicate', 'correction', 'dismissal'))
	NOT VALID;

-- One row per resolved conflict: its primary key makes a conflict
-- resolved once (resolve takes the tenant's lock, then looks here).
CREATE TABLE IF NOT EXISTS clearing_resolution (
	load_id            bigint NOT NULL,  -- the conflict: its parked version's load
	ordinal            bigint NOT NULL,  -- and ordinal (clearing_quarantine)
	tenant             text NOT NULL,
	verdict            text NOT NULL CHECK (verdict IN ('accepted', 'dismissed')),
	matched_load_id    bigint NOT NULL,  -- the record the conflict matched (accepted:
	matched_ordinal    bigint NOT NULL,  -- the record the correction corrects)
	resolution_load_id bigint NOT NULL,  -- the resolution's clearing_load row (accepted:
	                                     -- the correction is its ordinal 1)
	correction_key     text COLLATE "C", -- accepted: the correction's natural key
	note               text,
	resolved_by        text NOT NULL DEFAULT current_user,
	resolved_at        timestamptz NOT NULL DEFAULT pg_catalog.now(),
	PRIMARY KEY (load_id, ordinal)
);
-- The link of a record to the one it corrects (show, feed: by the
-- record's load), and a record's corrections (their number gives the next
-- one's n).
CREATE UNIQUE INDEX IF NOT EXISTS clearing_resolution_load
	ON clearing_resolution (resolution_load_id);
CREATE INDEX IF NOT EXISTS clearing_resolution_matched
	ON clearing_resolution (matched_load_id, matched_ordinal);

-- show --trace, --e2e and --uetr of a payment seen only in a held or
-- quarantined file.
CREATE INDEX IF NOT EXISTS clearing_quarantine_trace ON clearing_quarantine
	(tenant, trace_number) WHERE trace_number IS NOT NULL;
CREATE INDEX IF NOT EXISTS clearing_quarantine_e2e ON clearing_quarantine
	(tenant, end_to_end_id) WHERE end_to_end_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS clearing_quarantine_uetr ON clearing_quarantine
	(tenant, uetr) WHERE uetr IS NOT NULL;
-- conflicts --tenant
CREATE INDEX IF NOT EXISTS clearing_quarantine_tenant ON clearing_quarantine
	(tenant, load_id, ordinal);

-- Append-only like the journal, and the roles' privileges (015).
SELECT clearing_make_append_only('clearing_resolution');
INSERT INTO clearing_privilege (relation, role_kind, privileges) VALUES
	('clearing_resolution', 'loader', 'SELECT, INSERT'),
	('clearing_resolution', 'reader', 'SELECT'),
	('clearing_resolution', 'consumer', 'SELECT')
ON CONFLICT DO NOTHING;
