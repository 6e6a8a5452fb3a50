-- 014: journal retention (clearing-load prune).  Each prune is recorded
-- here with what it removed; clearing_record is never touched (its keys
-- are what makes a re-upload a duplicate, for ever).
CREATE TABLE IF NOT EXISTS clearing_prune_audit (
	prune_id        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	run_at          timestamptz NOT NULL DEFAULT pg_catalog.now(),
	run_by          text NOT NULL DEFAULT current_user,
	journal_before  timestamptz NOT NULL,  -- loads started before this
	duplicates_only boolean NOT NULL,      -- only the 'duplicate' events
	loads           bigint NOT NULL,       -- loads whose events were removed
	events          bigint NOT NULL        -- journal rows removed
);
