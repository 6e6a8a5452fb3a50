-- 024: what PRIVILEGES promises, enforced: a loader writes its own load
-- and nothing else (clearing-load(1) PRIVILEGES).
--
-- Until 023 a loader role held INSERT on clearing_feed_commit,
-- clearing_load and clearing_load_archive and USAGE on clearing_feed_seq:
-- it could write a commit number far ahead (a consumer that acknowledged
-- it never received a later genuine load) or one the sequence would hand
-- out later (genuine loads then failed), and a load row for a load it
-- never ran.  Now those three tables are written only through the
-- functions below, which run with the schema owner's rights (SECURITY
-- DEFINER, search_path pinned with pg_temp last) and check what the
-- caller may write:
--   - a feed commit: the function takes the commit number itself, under
--     the feed lock, for a load id this session took from the load-id
--     sequence (currval: session-local, so no other session's id) whose
--     records of that tenant are applied, once;
--   - a load row: only for the load id this session took (currval), or a
--     resolution's, whose id the function takes itself;
--   - an archive path: only for a load that exists and whose tenant the
--     login may see under row security.
-- Row security does not reach a SECURITY DEFINER function's statements
-- (the owner is not subject to it), so each function asks
-- clearing_tenant_writable for the login role, as the policy would.
-- EXECUTE is granted through clearing_privilege like every table
-- privilege (relation = the function's signature, privileges EXECUTE).
-- Runs again harmlessly.

-- Whether the login role may write rows of `t_` under row security: yes
-- when row security is off for clearing_load, for the table's owner, a
-- superuser or a BYPASSRLS role, else when the tenant is one of
-- clearing_visible_tenants() (015).
CREATE OR REPLACE FUNCTION clearing_tenant_writable(t_ text) RETURNS boolean
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path FROM CURRENT AS $$
BEGIN
	-- plpgsql: the body names no table until it runs (a distributed
	-- PostgreSQL copies functions to nodes that do not have the table)
	RETURN (SELECT NOT c.relrowsecurity
		    OR EXISTS (SELECT 1 FROM pg_catalog.pg_roles r
			       WHERE r.rolname = session_user
				 AND (r.rolsuper OR r.rolbypassrls OR r.oid = c.relowner))
		    OR t_ = ANY (clearing_visible_tenants())
		FROM pg_catalog.pg_class c
		WHERE c.oid = pg_catalog.to_regclass('clearing_load'));
END
$$;

-- The load id this session last took from clearing_load's sequence, or
-- NULL when it took none (currval raises 55000 then).
CREATE OR REPLACE FUNCTION clearing_session_load_id() RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
BEGIN
	RETURN pg_catalog.currval(pg_catalog.pg_get_serial_sequence('clearing_load', 'load_id'));
EXCEPTION WHEN object_not_in_prerequisite_state THEN
	RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION clearing_refuse(what text, why text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION '% refused: %', what, why
		USING ERRCODE = '42501',
		      HINT = 'the load history, archive paths and feed commits are written by '
			     'clearing-load itself, each for its own load (clearing-load(1) PRIVILEGES)';
END
$$;

-- The feed commit of load l_ of tenant t_, which applied n_ records: the
-- commit number taken here, under the lock every commit takes (013), and
-- NOTIFY on clearing_load_feed.  Returns the commit number.
CREATE OR REPLACE FUNCTION clearing_take_feed_commit(l_ bigint, t_ text, n_ bigint)
RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
DECLARE
	seq bigint;
BEGIN
	IF l_ IS DISTINCT FROM clearing_session_load_id() THEN
		PERFORM clearing_refuse('feed commit of load ' || coalesce(l_::text, 'NULL'),
					'this session did not take that load id');
	END IF;
	IF NOT clearing_tenant_writable(t_) THEN
		PERFORM clearing_refuse('feed commit of tenant ' || t_,
					'row security hides that tenant from this login');
	END IF;
	IF n_ IS NULL OR n_ < 1 OR NOT EXISTS (SELECT 1 FROM clearing_record r
					       WHERE r.load_id = l_ AND r.tenant = t_) THEN
		PERFORM clearing_refuse('feed commit of load ' || l_,
					'the load applied no record of tenant ' || t_);
	END IF;
	PERFORM pg_catalog.pg_advisory_xact_lock(7306385526012115201);
	seq := pg_catalog.nextval('clearing_feed_seq');
	INSERT INTO clearing_feed_commit (commit_seq, load_id, tenant, records)
	VALUES (seq, l_, t_, n_);
	PERFORM pg_catalog.pg_notify('clearing_load_feed', seq::text || ' ' || t_);
	RETURN seq;
END
$$;

-- A load's clearing_load row (load_insert_row gives the columns), for the
-- load id this session took.
CREATE OR REPLACE FUNCTION clearing_write_load(
	l_ bigint, uuid_ uuid, tenant_ text, file_name_ text, file_size_ bigint, sha256_ text,
	format_ text, message_type_ text, sender_ text, receiver_ text, file_created_ text,
	file_id_ text, record_count_ bigint, new_count_ bigint, duplicate_count_ bigint,
	conflict_count_ bigint, invalid_count_ bigint, outcome_ text, reason_ text,
	retries_ integer)
RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
BEGIN
	IF l_ IS DISTINCT FROM clearing_session_load_id() THEN
		PERFORM clearing_refuse('load row ' || coalesce(l_::text, 'NULL'),
					'this session did not take that load id');
	END IF;
	IF NOT clearing_tenant_writable(tenant_) THEN
		PERFORM clearing_refuse('load row of tenant ' || tenant_,
					'row security hides that tenant from this login');
	END IF;
	INSERT INTO clearing_load (load_id, load_uuid, tenant, file_name, file_size, sha256,
	    format, message_type, sender, receiver, file_created, file_id, record_count, new_count,
	    duplicate_count, conflict_count, invalid_count, outcome, reason, retries, started_at,
	    finished_at)
	OVERRIDING SYSTEM VALUE
	VALUES (l_, uuid_, tenant_, file_name_, file_size_, sha256_, format_, message_type_,
	    sender_, receiver_, file_created_, file_id_, record_count_, new_count_,
	    duplicate_count_, conflict_count_, invalid_count_, outcome_, reason_, retries_,
	    pg_catalog.now(), pg_catalog.clock_timestamp());
END
$$;

-- A resolution's load row (conflicts_insert_load): UUID uuid_, of conflict
-- load c_'s tenant and file, n_ records applied, reason r_; its load id
-- taken here.  Returns it (NULL: no such load).
CREATE OR REPLACE FUNCTION clearing_write_resolution_load(uuid_ uuid, c_ bigint, n_ bigint,
							  r_ text)
RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
DECLARE
	l record; -- (not %ROWTYPE: a node without the table compiles this too)
	id bigint;
BEGIN
	SELECT * INTO l FROM clearing_load WHERE load_id = c_;
	IF NOT FOUND THEN
		RETURN NULL;
	END IF;
	IF NOT clearing_tenant_writable(l.tenant) THEN
		PERFORM clearing_refuse('resolution of load ' || c_,
					'row security hides its tenant from this login');
	END IF;
	INSERT INTO clearing_load (load_uuid, tenant, file_name, format, message_type, sender,
				   receiver, file_created, file_id, record_count, new_count,
				   outcome, reason, started_at, finished_at)
	VALUES (uuid_, l.tenant, l.file_name, l.format, l.message_type, l.sender, l.receiver,
		l.file_created, l.file_id, 1, n_, 'committed', r_, pg_catalog.now(),
		pg_catalog.clock_timestamp())
	RETURNING load_id INTO id;
	RETURN id;
END
$$;

-- Where ingest moved load l_'s file: p_ (the same move twice adds nothing).
CREATE OR REPLACE FUNCTION clearing_write_archive(l_ bigint, p_ text) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
DECLARE
	t text;
BEGIN
	SELECT tenant INTO t FROM clearing_load WHERE load_id = l_;
	IF NOT FOUND THEN
		PERFORM clearing_refuse('archive path of load ' || coalesce(l_::text, 'NULL'),
					'no such load');
	END IF;
	IF NOT clearing_tenant_writable(t) THEN
		PERFORM clearing_refuse('archive path of load ' || l_,
					'row security hides its tenant from this login');
	END IF;
	IF p_ IS NULL OR p_ = '' THEN
		PERFORM clearing_refuse('archive path of load ' || l_, 'the path is empty');
	END IF;
	INSERT INTO clearing_load_archive (load_id, path) VALUES (l_, p_)
	ON CONFLICT DO NOTHING;
END
$$;

-- Nobody but the roles granted below may call them (functions are
-- executable by PUBLIC when made).
REVOKE ALL ON FUNCTION clearing_take_feed_commit(bigint, text, bigint),
	clearing_write_load(bigint, uuid, text, text, bigint, text, text, text, text, text, text,
			    text, bigint, bigint, bigint, bigint, bigint, text, text, integer),
	clearing_write_resolution_load(uuid, bigint, bigint, text),
	clearing_write_archive(bigint, text),
	clearing_session_load_id(), clearing_refuse(text, text)
FROM PUBLIC;

-- The loader writes those tables through the functions only.
UPDATE clearing_privilege SET privileges = 'SELECT'
WHERE role_kind = 'loader'
  AND relation IN ('clearing_feed_commit', 'clearing_load', 'clearing_load_archive');
DELETE FROM clearing_privilege WHERE relation = 'clearing_feed_seq';
INSERT INTO clearing_privilege (relation, role_kind, privileges) VALUES
	('clearing_take_feed_commit(bigint,text,bigint)', 'loader', 'EXECUTE'),
	('clearing_write_load(bigint,uuid,text,text,bigint,text,text,text,text,text,text,text,bigint,bigint,bigint,bigint,bigint,text,text,integer)', 'loader', 'EXECUTE'),
	('clearing_write_resolution_load(uuid,bigint,bigint,text)', 'loader', 'EXECUTE'),
	('clearing_write_archive(bigint,text)', 'loader', 'EXECUTE')
ON CONFLICT DO NOTHING;

-- clearing_apply_grants (015) again, with functions: a clearing_privilege
-- row whose relation is a signature "name(types)" grants EXECUTE on that
-- function of this schema; everything else as before.
CREATE OR REPLACE FUNCTION clearing_apply_grants() RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
	r record;
	p record;
	n integer := 0;
	ns oid := (SELECT relnamespace FROM pg_catalog.pg_class
		   WHERE oid = 'clearing_privilege'::regclass);
BEGIN
	FOR r IN SELECT role_name, role_kind FROM clearing_role ORDER BY role_name LOOP
		IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = r.role_name) THEN
			RAISE EXCEPTION 'role "%" does not exist', r.role_name
				USING ERRCODE = '42704',
				      HINT = 'create it first (CREATE ROLE ... LOGIN), then run init again';
		END IF;
		EXECUTE pg_catalog.format('GRANT USAGE ON SCHEMA %I TO %I', ns::regnamespace, r.role_name);
		FOR p IN
			SELECT c.oid::regclass AS rel, c.relkind,
			       (SELECT v.privileges FROM clearing_privilege v
				WHERE v.relation = c.relname AND v.role_kind = r.role_kind) AS privileges
			FROM pg_catalog.pg_class c
			WHERE c.relnamespace = ns
			  AND c.relname IN (SELECT relation FROM clearing_privilege)
		LOOP
			EXECUTE pg_catalog.format('REVOKE ALL ON %s %s FROM %I',
						  CASE WHEN p.relkind = 'S' THEN 'SEQUENCE' ELSE 'TABLE' END,
						  p.rel, r.role_name);
			IF p.privileges IS NOT NULL THEN
				EXECUTE pg_catalog.format('GRANT %s ON %s %s TO %I', p.privileges,
							  CASE WHEN p.relkind = 'S' THEN 'SEQUENCE' ELSE 'TABLE' END,
							  p.rel, r.role_name);
			END IF;
		END LOOP;
		FOR p IN
			SELECT f.oid::regprocedure AS fn,
			       (SELECT v.privileges FROM clearing_privilege v
				WHERE v.role_kind = r.role_kind
				  AND v.relation = f.proname || '(' ||
				      pg_catalog.array_to_string(ARRAY(
					SELECT pg_catalog.format_type(t, NULL)
					FROM pg_catalog.unnest(f.proargtypes::oid[]) WITH ORDINALITY AS a(t, i)
					ORDER BY i), ',') || ')') AS privileges
			FROM pg_catalog.pg_proc f
			WHERE f.pronamespace = ns
			  AND f.proname IN (SELECT pg_catalog.split_part(relation, '(', 1)
					    FROM clearing_privilege WHERE relation LIKE '%(%')
		LOOP
			EXECUTE pg_catalog.format('REVOKE ALL ON FUNCTION %s FROM %I', p.fn, r.role_name);
			IF p.privileges IS NOT NULL THEN
				EXECUTE pg_catalog.format('GRANT %s ON FUNCTION %s TO %I', p.privileges,
							  p.fn, r.role_name);
			END IF;
		END LOOP;
		n := n + 1;
	END LOOP;
	RETURN n;
END
$$;
-- (init applies the grants after its migrations: the roles set up before
-- this version lose the direct writes then.)
