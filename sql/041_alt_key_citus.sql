-- 041: on a Citus coordinator, the alternate keys of the applied pacs
-- records (006, 008) in a table of their own distributed on the alternate
-- key's shard, so that the alternate-key probe of a load is a join of one
-- shard with the same shard, as every other probe is
-- (docs/design/0054-alternate-keys-on-citus.md).  On any other PostgreSQL
-- it does nothing: one server probes clearing_record's indexes of 006 and
-- 008, which every partition has.
--
-- A pacs payment's record is in the shard of its natural key (022), and
-- its two or three forms have other natural keys: a record found by its
-- alternate key may be in any shard.  clearing_alt_key holds one row per
-- alternate key of an applied record (alt_key, and alt_key2 when it has
-- one), in the shard of that key (clearing_shard(kind, alt_key)): what the
-- probe compares (natural key, fingerprint, alt_fp) and what its journal
-- row names (the record's load, ordinal and position).  Written by the
-- statement that applies the records (sql/loader/alt_key.sql), in the same
-- transaction, append-only like clearing_record; rows of the records
-- applied before are written here.
--
-- clearing_alt_stage holds the pending records of the loads being
-- classified under each of their alternate keys, in that key's shard: the
-- probe's other side.  Like clearing_stage (035, 039): written and deleted
-- in the load's transaction, never a committed row, unlogged.
--
-- Runs again harmlessly.
DO $alt$
DECLARE
	rls boolean;
BEGIN
	IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_extension WHERE extname = 'citus') THEN
		RETURN;
	END IF;
	IF pg_catalog.to_regclass('clearing_alt_key') IS NULL THEN
		CREATE TABLE clearing_alt_key (
			shard       bigint NOT NULL,
			tenant      text NOT NULL,
			kind        text NOT NULL,
			alt_key     text COLLATE "C" NOT NULL,
			natural_key text COLLATE "C" NOT NULL,
			fingerprint bytea NOT NULL,
			alt_fp      bytea,
			load_id     bigint NOT NULL,
			ordinal     bigint NOT NULL,
			position    bigint NOT NULL);
		CREATE INDEX clearing_alt_key_probe ON clearing_alt_key (tenant, kind, alt_key);
		COMMENT ON TABLE clearing_alt_key IS
			'clearing-load: the alternate keys of the applied records, by their own shard (Citus); see clearing-load-keys(7)';
		PERFORM create_distributed_table('clearing_alt_key', 'shard',
						 colocate_with => 'clearing_record');
		INSERT INTO clearing_alt_key (shard, tenant, kind, alt_key, natural_key, fingerprint,
					      alt_fp, load_id, ordinal, position)
		SELECT clearing_shard(r.kind, a.alt_key), r.tenant, r.kind, a.alt_key, r.natural_key,
		       r.fingerprint, r.alt_fp, r.load_id, r.ordinal, r.position
		FROM clearing_record r
		CROSS JOIN LATERAL (VALUES (r.alt_key), (r.alt_key2)) a (alt_key)
		WHERE r.alt_key IS NOT NULL AND a.alt_key IS NOT NULL;
		PERFORM pg_catalog.set_config('citus.enable_unsafe_triggers', 'on', true);
		PERFORM clearing_make_append_only('clearing_alt_key'::regclass);
	END IF;
	IF pg_catalog.to_regclass('clearing_alt_stage') IS NULL THEN
		CREATE UNLOGGED TABLE clearing_alt_stage (
			shard        bigint NOT NULL,
			load_id      bigint NOT NULL,
			ordinal      bigint NOT NULL,
			position     bigint NOT NULL,
			tenant       text NOT NULL,
			kind         text NOT NULL,
			alt_key      text COLLATE "C" NOT NULL,
			natural_key  text COLLATE "C" NOT NULL,
			journal_key  text COLLATE "C" NOT NULL,
			fingerprint  bytea NOT NULL,
			alt_fp       bytea,
			record_shard bigint NOT NULL);
		CREATE INDEX clearing_alt_stage_load ON clearing_alt_stage (load_id, ordinal);
		PERFORM create_distributed_table('clearing_alt_stage', 'shard',
						 colocate_with => 'clearing_record');
	END IF;
	INSERT INTO clearing_privilege (relation, role_kind, privileges) VALUES
		('clearing_alt_key', 'loader', 'SELECT, INSERT'),
		('clearing_alt_key', 'reader', 'SELECT'),
		('clearing_alt_stage', 'loader', 'SELECT, INSERT, DELETE')
	ON CONFLICT DO NOTHING;
	rls := (SELECT c.relrowsecurity FROM pg_catalog.pg_class c
		WHERE c.oid = 'clearing_record'::regclass);
	IF rls THEN
		PERFORM clearing_set_row_security(true);
	END IF;
END
$alt$;
