-- 019: the versions parked under a key, found by an index probe.  show
-- looks them up by tenant and natural key (show KEY of a key never applied)
-- and by tenant, natural key and kind (the conflicts parked under a record's
-- own key, for every record it shows); clearing_quarantine had no index on
-- the key, so each lookup read the tenant's whole quarantine.  Runs again
-- harmlessly.
CREATE INDEX IF NOT EXISTS clearing_quarantine_key ON clearing_quarantine
	(tenant, natural_key, kind);
