-- 022: a load's records, found by its load id (clearing-load(1)
-- RECONCILIATION: a statement's batch entry against the ACH batch or file
-- of its first trace; each record of a matched batch recorded).  Runs
-- again harmlessly.
--
-- Records are appended in load order, so a block range summary finds a
-- load's few ranges: a BRIN index costs a load one summary per 128 pages,
-- where a btree would cost each record an index insert (the load's cost is
-- the product's).  multi-minmax: space that a deleted row left and a later
-- load reused widens a plain min-max range to every load between the two;
-- several intervals per range keep the outlier apart.  Ranges summarized
-- as soon as the next is written (autosummarize), not at the next VACUUM;
-- an unsummarized range is always read (lossy, never wrong).  Without it
-- a batch's records were found through the primary key's (tenant, kind)
-- prefix: every ACH entry of the tenant, for each batch entry.
CREATE INDEX IF NOT EXISTS clearing_record_load ON clearing_record
	USING brin (load_id int8_minmax_multi_ops) WITH (autosummarize = on);
