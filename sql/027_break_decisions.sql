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

-- clearing_break_decide(): sql/032_match_rules.sql (accept takes a
-- suggested batch's records there).
