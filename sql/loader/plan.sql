-- plan.sql - what `diff` reports of each record (loader/plan.c).

-- name: plan_detail
-- Every journal row of this load (pg_temp.cl_event, classify.sql) with
-- the record it matched: where and when that record was applied, and what
-- was stored of its compared fields, for the conflicts (columns 9 on, in
-- the field table's order; one probe of the unique index per conflict).
-- Streamed in file order.
COPY (SELECT e.ordinal, e.reason, e.matched_load_id, l.file_name,
             e.matched_position,
             pg_catalog.to_char(l.finished_at, {iso_ts}),
             e.matched_key, e.fields, {compared_r}
      FROM pg_temp.cl_event e
      JOIN public.clearing_load l ON l.load_id = e.matched_load_id
      JOIN pg_temp.cl_stage s ON s.ordinal = e.ordinal
      LEFT JOIN LATERAL (
        SELECT * FROM public.clearing_record r
        WHERE e.reason <> 'duplicate'
          AND r.tenant = e.tenant AND r.kind = s.kind
          AND r.natural_key = coalesce(e.matched_key, s.natural_key)
        LIMIT 1) r ON true
      ORDER BY e.ordinal) TO STDOUT
