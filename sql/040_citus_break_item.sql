-- 040: break decides on a Citus coordinator
-- (docs/design/0052-citus-reconcile.md).
--
-- clearing_break_item (027), the item of an id that every decision reads
-- first (clearing_break_decide, 032), was a SQL function (BEGIN ATOMIC)
-- reading clearing_record.  Citus refuses a SQL function's statement on a
-- distributed table whose values are the function's parameters ("parameterized
-- queries for SQL functions referencing distributed tables are not
-- supported"): every break accept, match and write-off failed closed on
-- Citus.  The same function in PL/pgSQL, the same two probes (a statement
-- item by its (load_id, ordinal), else a record by its), the same rows; on
-- Citus the record's probe is a distributed query with its values bound.
--
-- Runs again harmlessly (CREATE OR REPLACE keeps the grants and the
-- functions that call it).
CREATE OR REPLACE FUNCTION clearing_break_item(t_ text, id_ text)
RETURNS TABLE (side text, kind text, natural_key text, amount_minor bigint, currency text,
	       item text)
LANGUAGE plpgsql STABLE SET search_path FROM CURRENT AS $$
BEGIN
	IF id_ LIKE 'e%' THEN
		RETURN QUERY
		SELECT 'entry'::text, i.kind, i.natural_key, i.amount_minor,
		       coalesce(i.currency, i.account_ccy), i.item
		FROM clearing_statement_item i
		WHERE i.load_id = clearing_break_item_load(id_)
		  AND i.ordinal = clearing_break_item_ordinal(id_) AND i.tenant = t_
		LIMIT 1;
	ELSIF id_ LIKE 'r%' THEN
		RETURN QUERY
		SELECT 'record'::text, x.kind, x.natural_key, x.amount_minor, x.currency,
		       'record'::text
		FROM clearing_record x
		WHERE x.load_id = clearing_break_item_load(id_)
		  AND x.ordinal = clearing_break_item_ordinal(id_) AND x.tenant = t_
		LIMIT 1;
	END IF;
END;
$$;
