-- 032: matching rules an operator sets per account or per bank, the
-- records of a suggested set kept with its break (break accept takes
-- them), a tolerated difference kept with its match (clearing-load(1)
-- RECONCILIATION "Matching rules"; docs/design/0042-matching-rules.md).
-- Runs again harmlessly.  None of these tables is distributed on a Citus
-- coordinator (025 distributes the records only); the ALTERs are one DO
-- block all the same (029).
DO $$
BEGIN
	-- the records of a suggestion of several (a BAI2 line's suggested
	-- batch or file, a grouped suggestion), as item ids r<load>.<ordinal>
	ALTER TABLE clearing_reconcile_break ADD COLUMN IF NOT EXISTS record_ids text[];
	-- booked less ours, when a rule's tolerance (or its charges expected)
	-- made the match; NULL: exact, or explained by the statement
	ALTER TABLE clearing_reconcile_match ADD COLUMN IF NOT EXISTS difference_minor bigint;
END
$$;

-- clearing_match_rule_set: each `clearing-load match-rules load FILE` of a
-- tenant, a version; the rules in force are those of the tenant's latest
-- (an empty set: every account by the defaults).  Who and when from the
-- trigger, whatever an INSERT says.  Append only: the history of the rules
-- a run was matched by is kept (the run's time against loaded_at).
CREATE TABLE IF NOT EXISTS clearing_match_rule_set (
	tenant          text NOT NULL,
	version         integer NOT NULL CHECK (version > 0),
	file            text NOT NULL,       -- the file's name as given
	sha256          text NOT NULL,       -- of the file's bytes
	rules           integer NOT NULL,
	loaded_by       text NOT NULL,
	loaded_at       timestamptz NOT NULL,
	CONSTRAINT clearing_match_rule_set_key PRIMARY KEY (tenant, version)
);
-- clearing_match_rule: a rule of a set.  pattern: an account as the
-- statement names it, or a prefix of accounts ending in "*" (a bank: an
-- IBAN's bank code is at its start), or "*" alone (every account); the
-- longest that fits a statement's account is its rule.  NULL: the default
-- (today's behaviour): no tolerance, no window, the run's references, no
-- charges expected.
CREATE TABLE IF NOT EXISTS clearing_match_rule (
	tenant          text NOT NULL,
	version         integer NOT NULL,
	pattern         text COLLATE "C" NOT NULL,
	line            integer NOT NULL,    -- in the file
	tolerance_minor bigint NOT NULL DEFAULT 0 CHECK (tolerance_minor >= 0),
	tolerance_bp    integer NOT NULL DEFAULT 0 CHECK (tolerance_bp BETWEEN 0 AND 10000),
	window_days     integer CHECK (window_days BETWEEN 0 AND 3660),
	refs            text,                -- as --match: a comma list in order of trust
	charges_max_minor bigint NOT NULL DEFAULT 0 CHECK (charges_max_minor >= 0),
	CONSTRAINT clearing_match_rule_key PRIMARY KEY (tenant, version, pattern)
);

CREATE OR REPLACE FUNCTION clearing_match_rule_set_stamp() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
	NEW.loaded_by := session_user;
	NEW.loaded_at := pg_catalog.now();
	RETURN NEW;
END
$$;
DROP TRIGGER IF EXISTS clearing_match_rule_set_stamp ON clearing_match_rule_set;
CREATE TRIGGER clearing_match_rule_set_stamp BEFORE INSERT ON clearing_match_rule_set
	FOR EACH ROW EXECUTE FUNCTION clearing_match_rule_set_stamp();

SELECT clearing_make_append_only(t) FROM unnest(ARRAY[
	'clearing_match_rule_set', 'clearing_match_rule']::regclass[]) AS t;
INSERT INTO clearing_privilege (relation, role_kind, privileges) VALUES
	('clearing_match_rule_set', 'loader', 'SELECT, INSERT'),
	('clearing_match_rule', 'loader', 'SELECT, INSERT'),
	('clearing_match_rule_set', 'reader', 'SELECT'),
	('clearing_match_rule', 'reader', 'SELECT')
ON CONFLICT DO NOTHING;

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
			-- a suggestion of one record, or of a batch (its records, as
			-- the run that suggested it listed them)
			SELECT b.status, b.record_kind, b.record_key, b.record_ids INTO brk
			FROM clearing_reconcile_break b
			WHERE b.tenant = t_ AND b.item_id = id ORDER BY b.run_id DESC LIMIT 1;
			IF brk.status IS DISTINCT FROM 'suggested'
			   OR (brk.record_key IS NULL
			       AND coalesce(pg_catalog.cardinality(brk.record_ids), 0) = 0) THEN
				outcome := 'refused';
				detail := id || ' is no suggestion of one record or one set of records '
					  || 'in its latest run'
					  || coalesce(' (' || brk.status || ')', '')
					  || ': match it by hand, naming the records';
				RETURN NEXT;
				CONTINUE;
			END IF;
			IF brk.record_key IS NULL THEN
				rids := brk.record_ids;
			ELSE
				SELECT ARRAY['r' || x.load_id || '.' || x.ordinal] INTO rids
				FROM clearing_record x
				WHERE x.tenant = t_ AND x.kind = brk.record_kind
				  AND x.natural_key = brk.record_key
				LIMIT 1;
			END IF;
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
