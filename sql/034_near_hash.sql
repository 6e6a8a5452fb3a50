-- 034: the near-duplicate identity stored as its shard and hash
-- (docs/design/0045-near-identity-hashed.md; clearing-load-keys(7), "Near
-- duplicates"; rules/near.h cl_near_hash).
--
-- Every ACH record carried its near identity as text (migration 010),
-- 50 to 60 bytes, twice: in the heap and in clearing_record_near_key.  The
-- near-duplicate probe only asks whether two identities are equal, so
-- near_key now holds 16 bytes (bytea), computed by the loader in C: the
-- record's shard (022: an ACH record's trace, which a near duplicate
-- shares) big-endian, then the first 8 bytes of the SHA-256 of the text.
-- The shard first keeps a file's inserts into the index together, as the
-- text's originator and trace did; a hash alone sent each insert to a
-- random page of the index (a 1M-entry load 1.2x slower).  The index keeps
-- its columns (tenant, near_key, value_date) and its probe.  A near
-- duplicate also needs the same kind and a near date: two payments of one
-- trace within 5 banking days share the hash's 8 bytes with a chance of
-- 2^-64 a pair.
--
-- The records and parked versions of before get theirs from the text they
-- hold and their shard (the table is rewritten, its indexes rebuilt).
-- Runs again harmlessly: a near_key that is already bytea is left as it is.

-- The stored identity of a record of `shard` whose identity's text
-- (clearing_near_key) is t: the same bytes as rules/near.c cl_near_hash
-- (tests/db/test_near_vectors.sh).
CREATE OR REPLACE FUNCTION clearing_near_hash(shard bigint, t text) RETURNS bytea
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN int8send(shard) || substr(sha256(convert_to(t, 'UTF8')), 1, 8);

-- One DO block: on a Citus coordinator (025) the two tables are
-- distributed, and Citus sends each statement of a block to the shards
-- (the hash written out: the shards' nodes need no function of ours).
-- The feed view (013, 022) names every column of clearing_record: it is
-- made again around the change from its own definition, with its options
-- (security_invoker, 015);
-- init grants it again to the roles (clearing_apply_grants).
DO $near$
DECLARE
	opts text[];
	def text;
BEGIN
	IF (SELECT a.atttypid FROM pg_catalog.pg_attribute a
	    WHERE a.attrelid = 'clearing_record'::regclass AND a.attname = 'near_key'
	      AND NOT a.attisdropped) = 'bytea'::regtype THEN
		RETURN;
	END IF;
	SELECT c.reloptions, pg_catalog.pg_get_viewdef(c.oid) INTO opts, def
	FROM pg_catalog.pg_class c WHERE c.oid = 'clearing_feed'::regclass;
	DROP VIEW clearing_feed;
	ALTER TABLE clearing_record ALTER COLUMN near_key TYPE bytea
		USING int8send(shard) || substr(sha256(convert_to(near_key, 'UTF8')), 1, 8);
	ALTER TABLE clearing_quarantine ALTER COLUMN near_key TYPE bytea
		USING int8send(shard) || substr(sha256(convert_to(near_key, 'UTF8')), 1, 8);
	-- the view as it was: its columns as they were written out when it
	-- was made (022), not more
	EXECUTE 'CREATE VIEW clearing_feed AS ' || def;
	IF opts IS NOT NULL THEN
		EXECUTE pg_catalog.format('ALTER VIEW clearing_feed SET (%s)',
					  pg_catalog.array_to_string(opts, ', '));
	END IF;
END
$near$;
