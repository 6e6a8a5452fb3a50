-- 006: one payment, two key tiers (clearing-load-keys(7), "Alternate keys").
--
-- A pacs.008/.009 is keyed by its UETR when it has one, else by instructing
-- agent + TxId; a pacs.004 by UETR, else by RtrId.  The UETR is optional
-- before pacs.008.001.08 and gateways drop it, so one payment sent once with
-- and once without it got two natural keys and was applied twice.  alt_key
-- holds the payment's lower-tier identity whatever tier keyed it
-- ("txid|<InstgAgt>|<TxId>", "rtrid|<InstgAgt>|<RtrId>"; NULL for ACH,
-- pain.001 and records without that id).  The loader treats a record whose
-- alt_key is applied under another natural key as a near duplicate (a
-- conflict: held).  Loaders of files with alternate keys take a per-tenant
-- advisory lock before classifying, so two of them applying the two forms
-- at once run one after the other and the second sees the first (a unique
-- index cannot do it: on a table hash-partitioned by natural_key every
-- unique index must contain natural_key).  Records applied before this
-- migration have no alt_key.
ALTER TABLE public.clearing_record ADD COLUMN alt_key text COLLATE "C";
ALTER TABLE public.clearing_quarantine ADD COLUMN alt_key text COLLATE "C";
CREATE INDEX clearing_record_alt_key ON public.clearing_record
	(tenant, kind, alt_key) WHERE alt_key IS NOT NULL;
