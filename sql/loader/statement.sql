-- statement.sql - a bank statement or status report loaded as its items
-- (loader/statement_load.c; the table: 017_statements.sql).  The same
-- pipeline as a clearing file: stage, in-file duplicates, duplicates and
-- conflicts into the journal, the new items inserted with the unique index
-- as the arbiter.

-- name: statement_stage_create
-- The stage of one attempt: the file's items with the columns of
-- clearing_statement_item (rules/statement_fields.def: dates and bools as
-- text, cast when applied) and the key as the journal keeps it (accounts
-- masked).  Dropped with the transaction.
CREATE TEMPORARY TABLE cl_stmt_stage ({stmt_stage_columns},
	journaled boolean NOT NULL DEFAULT false)
ON COMMIT DROP

-- name: statement_stage_copy
-- Every item streamed into the stage, in binary (loader/db.h): every
-- column but journaled, in the order of rules/statement_fields.def.
COPY pg_temp.cl_stmt_stage ({stmt_copy_columns})
FROM STDIN (FORMAT binary)

-- name: statement_in_file_duplicates
-- Two items of the file under one key (first and last line, how many, the
-- key as the journal keeps it): the first ten, in file order; read by
-- name.
SELECT min(position) AS first_line, max(position) AS last_line, count(*) AS items,
       min(journal_key) AS journal_key
FROM pg_temp.cl_stmt_stage
GROUP BY kind, natural_key
HAVING count(*) > 1
ORDER BY 1
LIMIT 10

-- name: statement_classify
-- The staged items of load $1 whose key tenant $2 has stored: a duplicate
-- (same fingerprint) or a conflict (other content: the columns that
-- differ named), each a journal row, and marked journaled in the stage
-- (apply then needs no read of the journal); returns how many of each
-- (read by name).
WITH ev AS (
  INSERT INTO clearing_dedupe_event
    (load_id, ordinal, position, tenant, kind, natural_key, reason,
     matched_load_id, matched_ordinal, matched_position, fields, shard)
  SELECT $1::bigint, s.ordinal, s.position, $2, s.kind, s.journal_key,
         CASE WHEN s.fingerprint = i.fingerprint THEN 'duplicate' ELSE 'conflict' END,
         i.load_id, i.ordinal, i.position,
         CASE WHEN s.fingerprint <> i.fingerprint THEN array_remove(ARRAY[
           {stmt_compared_diffs}],
           NULL) END,
         clearing_shard(s.kind, s.journal_key)
  FROM pg_temp.cl_stmt_stage s
  JOIN clearing_statement_item i
    ON i.tenant = $2 AND i.kind = s.kind AND i.natural_key = s.natural_key
  RETURNING ordinal, reason),
marked AS (
  UPDATE pg_temp.cl_stmt_stage s SET journaled = true FROM ev WHERE s.ordinal = ev.ordinal)
SELECT count(*) FILTER (WHERE reason = 'duplicate') AS duplicates,
       count(*) FILTER (WHERE reason = 'conflict') AS conflicts
FROM ev

-- name: statement_apply
-- The staged items without a journal row (not journaled), in key order
-- (loaders that insert in one order cannot deadlock); an item stored
-- meanwhile by a concurrent load is skipped (the caller retries the file:
-- it is then a duplicate).  Returns how many were inserted.
WITH ins AS (
  INSERT INTO clearing_statement_item ({stmt_columns})
  SELECT {stmt_stage_values}
  FROM pg_temp.cl_stmt_stage s
  WHERE NOT s.journaled
  ORDER BY kind, natural_key
  ON CONFLICT (tenant, kind, natural_key) DO NOTHING
  RETURNING 1)
SELECT count(*) FROM ins
