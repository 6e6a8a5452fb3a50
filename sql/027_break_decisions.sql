-- 027: a person's decisions on reconcile's breaks (clearing-load(1)
-- RECONCILIATION "Decisions on breaks", clearing-load break;
-- docs/design/0033-breaks-workflow.md).  Runs again harmlessly.
--
-- clearing_reconcile_break: every break a run reported (each item whose
-- status is unmatched_ours, unmatched_theirs, exception or suggested),
-- with the run, written once at the run's end.  It is what `break accept`
-- takes a suggestion's record from, what `break list` and the metrics
-- count as open (the breaks of each statement's latest run, less those
-- decided since), and when an item was first reported.  Append only.
CREATE TABLE IF NOT EXISTS clearing_reconcile_break (
	tenant          text NOT NULL,
	run_id          bigint NOT NULL,
	statement_key   text COLLATE "C" NOT NULL,
	item_id         text NOT NULL,       -- e<load>.<ordinal> of an entry (or a
	                                     -- statement's balance), r<load>.<ordinal> of a record
	side            text NOT NULL CHECK (side IN ('entry', 'record')),
	item_kind       text NOT NULL,
	item_key        text COLLATE "C" NOT NULL,
	status          text NOT NULL,
	reason          text,
	account         text,
	amount_minor    bigint,
	currency        text,
	item_date       date,                -- the entry's booking (else value) date, the
	                                     -- record's value date
	record_kind     text,                -- the record a suggestion (or an exception) names
	record_key      text COLLATE "C",
	reported_at     timestamptz NOT NULL DEFAULT pg_catalog.now(),
	CONSTRAINT clearing_reconcile_break_key PRIMARY KEY (tenant, run_id, item_id)
);
-- An item's breaks, oldest first (when first reported; accept's suggestion).
CREATE INDEX IF NOT EXISTS clearing_reconcile_break_item
	ON clearing_reconcile_break (tenant, item_id, run_id);
-- The breaks of a statement's latest run (break list, the metrics).
CREATE INDEX IF NOT EXISTS clearing_reconcile_break_statement
	ON clearing_reconcile_break (tenant, statement_key, run_id);

-- clearing_break_decision: one row per item a decision is about, the
-- item's nth decision (version): accepted (a suggestion, with the record it
-- named), matched_by_hand (an entry with the records a person names: one
-- decision, a row for the entry and one for each record), written_off,
-- reopened (the item is a break again; every item of the decision it
-- reopens).  Who is the session's login role, when the transaction's time:
-- set by the trigger below, whatever an INSERT says.  The primary key makes
-- an item's nth decision one: two operators deciding at once (each under
-- the tenant's reconcile lock, clearing_break_decide) decide once.
CREATE SEQUENCE IF NOT EXISTS clearing_break_decision_seq;
CREATE TABLE IF NOT EXISTS clearing_break_decision (
	tenant          text NOT NULL,
	side            text NOT NULL CHECK (side IN ('entry', 'record')),
	item_kind       text NOT NULL,
	item_key        text COLLATE "C" NOT NULL,
	version         integer NOT NULL CHECK (version > 0),
	decision_id     bigint NOT NULL,     -- from clearing_break_decision_seq
	item_id         text NOT NULL,
	action          text NOT NULL
		CHECK (action IN ('accepted', 'matched_by_hand', 'written_off', 'reopened')),
	subject         boolean NOT NULL,    -- the item named (false: a record it was matched to)
	amount_minor    bigint,
	currency        text,
	reason          text NOT NULL CHECK (pg_catalog.btrim(reason) <> ''),
	decided_by      text NOT NULL,
	decided_at      timestamptz NOT NULL,
	CONSTRAINT clearing_break_decision_key
		PRIMARY KEY (tenant, side, item_kind, item_key, version)
);
CREATE INDEX IF NOT EXISTS clearing_break_decision_id
	ON clearing_break_decision (decision_id);
CREATE INDEX IF NOT EXISTS clearing_break_decision_item_id
	ON clearing_break_decision (tenant, item_id, version);

CREATE OR REPLACE FUNCTION clearing_break_decision_stamp() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
	NEW.decided_by := session_user;
	NEW.decided_at := pg_catalog.now();
	RETURN NEW;
END
$$;
DROP TRIGGER IF EXISTS clearing_break_decision_stamp ON clearing_break_decision;
CREATE TRIGGER clearing_break_decision_stamp BEFORE INSERT ON clearing_break_decision
	FOR EACH ROW EXECUTE FUNCTION clearing_break_decision_stamp();

-- An item id ("e12.3", "r7.1") as its load and ordinal, NULL when it is none.
CREATE OR REPLACE FUNCTION clearing_break_item_load(id text) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE WHEN id ~ '^[er][0-9]{1,18}\.[0-9]{1,18}$'
	THEN pg_catalog.split_part(pg_catalog.substr(id, 2), '.', 1)::bigint END;
CREATE OR REPLACE FUNCTION clearing_break_item_ordinal(id text) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE WHEN id ~ '^[er][0-9]{1,18}\.[0-9]{1,18}$'
	THEN pg_catalog.split_part(id, '.', 2)::bigint END;

-- (An item id's probe: clearing_statement_item_load (017) and
-- clearing_record's (load_id, ordinal) index (013).)

SELECT clearing_make_append_only(t) FROM unnest(ARRAY[
	'clearing_reconcile_break', 'clearing_break_decision']::regclass[]) AS t;
INSERT INTO clearing_privilege (relation, role_kind, privileges) VALUES
	('clearing_reconcile_break', 'loader', 'SELECT, INSERT'),
	('clearing_break_decision', 'loader', 'SELECT, INSERT'),
	('clearing_break_decision_seq', 'loader', 'USAGE'),
	('clearing_reconcile_break', 'reader', 'SELECT'),
	('clearing_break_decision', 'reader', 'SELECT')
ON CONFLICT DO NOTHING;


-- An item of tenant t_ by its id: side, kind, natural key, amount,
-- currency, what it is ('entry', 'statement', 'status', 'record'); no row:
-- no such item.
CREATE OR REPLACE FUNCTION clearing_break_item(t_ text, id_ text)
RETURNS TABLE (side text, kind text, natural_key text, amount_minor bigint, currency text,
	       item text)
LANGUAGE sql STABLE
BEGIN ATOMIC
	SELECT 'entry', i.kind, i.natural_key, i.amount_minor, coalesce(i.currency, i.account_ccy),
	       i.item
	FROM clearing_statement_item i
	WHERE id_ LIKE 'e%' AND i.load_id = clearing_break_item_load(id_)
	  AND i.ordinal = clearing_break_item_ordinal(id_) AND i.tenant = t_
	UNION ALL
	SELECT 'record', x.kind, x.natural_key, x.amount_minor, x.currency, 'record'
	FROM clearing_record x
	WHERE id_ LIKE 'r%' AND x.load_id = clearing_break_item_load(id_)
	  AND x.ordinal = clearing_break_item_ordinal(id_) AND x.tenant = t_
	LIMIT 1;
END;

-- The decision in force on an item (its latest, unless that reopened it):
-- no row when it is open.
CREATE OR REPLACE FUNCTION clearing_break_live(t_ text, side_ text, kind_ text, key_ text)
RETURNS TABLE (version integer, decision_id bigint, action text, reason text,
	       decided_by text, decided_at timestamptz)
LANGUAGE sql STABLE
BEGIN ATOMIC
	SELECT d.version, d.decision_id, d.action, d.reason, d.decided_by, d.decided_at
	FROM (SELECT d.* FROM clearing_break_decision d
	      WHERE d.tenant = t_ AND d.side = side_ AND d.item_kind = kind_
		AND d.item_key = key_
	      ORDER BY d.version DESC LIMIT 1) d
	WHERE d.action <> 'reopened';
END;

-- Decide: action_ (accept, match, write_off, reopen) on the items ids_ of
-- tenant t_ with reason_; for match, ids_ is the one entry and records_
-- the records it is matched to.  Under the tenant's reconcile lock (the
-- lock of reconcile.sql's reconcile_lock: a decision waits for a run and
-- the other way round, two operators one after the other, the second
-- finding the first's decision).  One row per item named: decided,
-- already (decided so before: nothing recorded), refused (another
-- decision in force, or not a break: detail says why) or not_found.  The
-- caller commits only when no row is refused or not_found (all or
-- nothing).
CREATE OR REPLACE FUNCTION clearing_break_decide(t_ text, action_ text, ids_ text[],
						  records_ text[], reason_ text)
RETURNS TABLE (item_id text, outcome text, detail text)
LANGUAGE plpgsql AS $$
DECLARE
	id text;
	it record;
	live record;
	brk record;
	did bigint;
	act text := CASE action_ WHEN 'accept' THEN 'accepted' WHEN 'match' THEN 'matched_by_hand'
			WHEN 'write_off' THEN 'written_off' WHEN 'reopen' THEN 'reopened' END;
	rids text[];
	rid text;
	rit record;
	bad text;
BEGIN
	IF act IS NULL THEN
		RAISE EXCEPTION 'unknown decision %', action_ USING ERRCODE = '22023';
	END IF;
	IF reason_ IS NULL OR pg_catalog.btrim(reason_) = '' THEN
		RAISE EXCEPTION 'a decision needs a reason' USING ERRCODE = '22023';
	END IF;
	PERFORM pg_catalog.pg_advisory_xact_lock(
		pg_catalog.hashtextextended('clearing-load reconcile ' || t_, 0));
	FOREACH id IN ARRAY ids_ LOOP
		item_id := id;
		SELECT * INTO it FROM clearing_break_item(t_, id);
		IF NOT FOUND THEN
			outcome := 'not_found';
			detail := 'no statement item (e<load>.<ordinal>) or record (r<load>.<ordinal>) '
				  || id || ' of tenant ' || t_;
			RETURN NEXT;
			CONTINUE;
		END IF;
		SELECT * INTO live FROM clearing_break_live(t_, it.side, it.kind, it.natural_key);
		IF act = 'reopened' THEN
			IF live.action IS NULL THEN
				outcome := 'already';
				detail := 'open: no decision in force';
				RETURN NEXT;
				CONTINUE;
			END IF;
			did := pg_catalog.nextval('clearing_break_decision_seq');
			-- every item of the decision reopened, each still under it
			INSERT INTO clearing_break_decision (tenant, side, item_kind, item_key,
				version, decision_id, item_id, action, subject, amount_minor, currency,
				reason, decided_by, decided_at)
			SELECT t_, d.side, d.item_kind, d.item_key, d.version + 1, did, d.item_id,
			       'reopened', d.item_id = id, d.amount_minor, d.currency, reason_, '', 'now'
			FROM clearing_break_decision d
			WHERE d.decision_id = live.decision_id AND d.tenant = t_
			  AND d.version = (SELECT max(l.version) FROM clearing_break_decision l
					   WHERE l.tenant = t_ AND l.side = d.side
					     AND l.item_kind = d.item_kind AND l.item_key = d.item_key);
			outcome := 'decided';
			detail := 'reopened (was ' || live.action || ' by ' || live.decided_by || ')';
			RETURN NEXT;
			CONTINUE;
		END IF;
		-- what the item is matched to: accept takes the record of its
		-- latest suggestion, match the records named
		rids := NULL;
		IF act = 'accepted' OR act = 'matched_by_hand' THEN
			IF it.item <> 'entry' THEN
				outcome := 'refused';
				detail := id || ' is no statement entry: only an entry is accepted or '
					  || 'matched by hand';
				RETURN NEXT;
				CONTINUE;
			END IF;
			IF EXISTS (SELECT 1 FROM clearing_reconcile_match m
				   WHERE m.tenant = t_ AND m.entry_kind = it.kind
				     AND m.entry_key = it.natural_key) THEN
				outcome := 'refused';
				detail := id || ' is matched by reconcile already';
				RETURN NEXT;
				CONTINUE;
			END IF;
		END IF;
		IF act = 'accepted' THEN
			SELECT b.status, b.record_kind, b.record_key INTO brk
			FROM clearing_reconcile_break b
			WHERE b.tenant = t_ AND b.item_id = id ORDER BY b.run_id DESC LIMIT 1;
			IF brk.status IS DISTINCT FROM 'suggested' OR brk.record_key IS NULL THEN
				outcome := 'refused';
				detail := id || ' is no suggestion of one record in its latest run'
					  || coalesce(' (' || brk.status || ')', '')
					  || ': match it by hand, naming the records';
				RETURN NEXT;
				CONTINUE;
			END IF;
			SELECT ARRAY['r' || x.load_id || '.' || x.ordinal] INTO rids
			FROM clearing_record x
			WHERE x.tenant = t_ AND x.kind = brk.record_kind
			  AND x.natural_key = brk.record_key
			LIMIT 1;
		ELSIF act = 'matched_by_hand' THEN
			rids := ARRAY(SELECT DISTINCT r FROM unnest(records_) r ORDER BY r);
			IF coalesce(pg_catalog.cardinality(rids), 0) = 0 THEN
				RAISE EXCEPTION 'a match by hand names its records' USING ERRCODE = '22023';
			END IF;
		ELSIF NOT EXISTS (SELECT 1 FROM clearing_reconcile_break b
				  WHERE b.tenant = t_ AND b.item_id = id) THEN
			outcome := 'refused';
			detail := id || ' was never reported a break by reconcile';
			RETURN NEXT;
			CONTINUE;
		END IF;
		IF live.action IS NOT NULL THEN
			-- the same decision again (for a match, the same records)
			IF live.action = act AND (rids IS NULL OR rids = ARRAY(
				SELECT d.item_id FROM clearing_break_decision d
				WHERE d.decision_id = live.decision_id AND d.side = 'record'
				  AND NOT d.subject ORDER BY d.item_id)) THEN
				outcome := 'already';
			ELSE
				outcome := 'refused';
			END IF;
			detail := id || ' was ' || pg_catalog.replace(live.action, '_', ' ') || ' by '
				  || live.decided_by || ' at '
				  || pg_catalog.to_char(live.decided_at AT TIME ZONE 'UTC',
							'YYYY-MM-DD"T"HH24:MI:SS"Z"')
				  || ' (' || live.reason || ')'
				  || CASE WHEN outcome = 'refused' THEN ': reopen it first' ELSE '' END;
			RETURN NEXT;
			CONTINUE;
		END IF;
		-- the records: each there, not matched by reconcile to an entry of
		-- this kind, under no decision in force
		bad := NULL;
		FOREACH rid IN ARRAY coalesce(rids, ARRAY[]::text[]) LOOP
			SELECT * INTO rit FROM clearing_break_item(t_, rid);
			IF NOT FOUND OR rit.side <> 'record' THEN
				outcome := 'not_found';
				bad := 'no record ' || rid || ' (r<load>.<ordinal>) of tenant ' || t_;
			ELSIF EXISTS (SELECT 1 FROM clearing_reconcile_match m
				      WHERE m.tenant = t_ AND m.record_kind = rit.kind
					AND m.record_key = rit.natural_key AND m.entry_kind = it.kind) THEN
				outcome := 'refused';
				bad := 'record ' || rid || ' is matched by reconcile already (to an '
				       || 'entry of another ' || it.kind || ')';
			ELSE
				SELECT * INTO live FROM clearing_break_live(t_, 'record', rit.kind,
									      rit.natural_key);
				IF live.action IS NOT NULL THEN
					outcome := 'refused';
					bad := 'record ' || rid || ' was '
					       || pg_catalog.replace(live.action, '_', ' ') || ' by '
					       || live.decided_by || ' (' || live.reason || ')';
				END IF;
			END IF;
			EXIT WHEN bad IS NOT NULL;
		END LOOP;
		IF bad IS NOT NULL THEN
			detail := bad;
			RETURN NEXT;
			CONTINUE;
		END IF;
		did := pg_catalog.nextval('clearing_break_decision_seq');
		INSERT INTO clearing_break_decision (tenant, side, item_kind, item_key, version,
			decision_id, item_id, action, subject, amount_minor, currency, reason,
			decided_by, decided_at)
		SELECT t_, it.side, it.kind, it.natural_key,
		       coalesce((SELECT max(d.version) FROM clearing_break_decision d
				 WHERE d.tenant = t_ AND d.side = it.side AND d.item_kind = it.kind
				   AND d.item_key = it.natural_key), 0) + 1,
		       did, id, act, true, it.amount_minor, it.currency, reason_, '', 'now';
		INSERT INTO clearing_break_decision (tenant, side, item_kind, item_key, version,
			decision_id, item_id, action, subject, amount_minor, currency, reason,
			decided_by, decided_at)
		SELECT t_, 'record', r.kind, r.natural_key,
		       coalesce((SELECT max(d.version) FROM clearing_break_decision d
				 WHERE d.tenant = t_ AND d.side = 'record' AND d.item_kind = r.kind
				   AND d.item_key = r.natural_key), 0) + 1,
		       did, u.rid, act, false, r.amount_minor, r.currency, reason_, '', 'now'
		FROM unnest(coalesce(rids, ARRAY[]::text[])) AS u(rid)
		CROSS JOIN LATERAL clearing_break_item(t_, u.rid) r;
		outcome := 'decided';
		detail := NULL;
		RETURN NEXT;
	END LOOP;
END
$$;
