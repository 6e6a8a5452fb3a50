-- 004: find ACH entries applied under the other ACH key rule cheaply.
-- A file loaded once with --ach-key=batch (key rule v1-batch) and once without
-- (v1) gives every entry two keys that never meet in the unique index: the
-- loader therefore looks, for each new ACH entry, for an applied entry of the
-- same originator, trace number and effective date under the other rule
-- (clearing-load-keys(7)).  Entries of the weaker rule are rare; this partial
-- index holds only them, so the usual (v1) load pays one empty index probe.
CREATE INDEX clearing_record_weak_ach ON clearing_record
	(tenant, company_id, trace_number, value_date)
	WHERE key_rule = 'v1-batch';
