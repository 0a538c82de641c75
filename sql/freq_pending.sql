-- SUE/OUE aggregation states count reports in a byte-wide pending area, flushed
-- every 255 reports; every reader must see what plain counting gives: results at
-- and around the flushes, window frames, parallel plans, rollup, stored sizes,
-- text and binary forms. Expected summaries are built here from the bits with SQL.
SET search_path = public, ldp;
CREATE TABLE pend_reports AS
SELECT i, sue_encode(i % 10, 1.0, 11, i) AS s, oue_encode(i % 10, 1.0, 11, i) AS o
FROM generate_series(1, 1200) i;
-- the text form plain counting gives for the first n reports of a column
CREATE FUNCTION pg_temp.counted(mech text, n int) RETURNS text LANGUAGE sql AS $$
  SELECT format('v1:%s{epsilon=1,k=11,n=%s,counts=[%s]}', mech, n,
                string_agg(c::text, ',' ORDER BY pos))
  FROM (SELECT pos, count(*) FILTER (WHERE substring(CASE mech WHEN 'sue' THEN s ELSE o END::text, pos, 1) = '1') AS c
        FROM pend_reports, generate_series(1, 11) pos WHERE i <= n GROUP BY pos) x $$;
SELECT n, (SELECT sue_agg(s, 1.0)::text FROM pend_reports WHERE i <= n) = pg_temp.counted('sue', n) AS sue,
          (SELECT oue_agg(o, 1.0)::text FROM pend_reports WHERE i <= n) = pg_temp.counted('oue', n) AS oue
FROM unnest('{1,254,255,256,509,510,511,1200}'::int[]) n;
-- window frames: the final function reads the running state, pending counts included
SELECT bool_and(w.t = pg_temp.counted('sue', w.i)) AS running_sue
FROM (SELECT i, sue_agg(s, 1.0) OVER (ORDER BY i)::text AS t FROM pend_reports) w
WHERE w.i IN (1, 254, 255, 256, 600);
-- the result carries no pending area: stored and parsed sizes agree, binary forms too
SELECT pg_column_size(sue_agg(s, 1.0)) = pg_column_size(sue_agg(s, 1.0)::text::freq_summary) AS canonical_size,
       freq_summary_send(oue_agg(o, 1.0)) = freq_summary_send(oue_agg(o, 1.0)::text::freq_summary) AS same_binary
FROM pend_reports;
-- rollup of groups (each with pending counts at its end) = the whole
SELECT rollup(g)::text = (SELECT sue_agg(s, 1.0)::text FROM pend_reports) AS rollup_equals_whole
FROM (SELECT sue_agg(s, 1.0) AS g FROM pend_reports GROUP BY i % 7) x;
-- parallel partial states with pending counts meet in the combine function
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
CALL regress_force_parallel(true);
EXPLAIN (COSTS OFF) SELECT sue_agg(s, 1.0) FROM pend_reports;
SELECT sue_agg(s, 1.0)::text = pg_temp.counted('sue', 1200) AS parallel_sue,
       oue_agg(o, 1.0)::text = pg_temp.counted('oue', 1200) AS parallel_oue
FROM pend_reports;
CALL regress_force_parallel(false);
RESET max_parallel_workers_per_gather;
-- reports as a table stores them: short headers (above, read in place), 4-byte headers
-- (read in place), compressed inline and out of line (detoasted) give the summary of
-- the same reports in memory
CREATE TABLE long_unary AS
SELECT i, CASE WHEN i % 3 = 0 THEN repeat(CASE WHEN i % 2 = 0 THEN '10' ELSE '01' END, 10000)::varbit
               ELSE (SELECT string_agg(CASE WHEN hashint4(i * 20000 + b) & 1 = 0 THEN '0' ELSE '1' END, '')
                     FROM generate_series(1, 20000) b)::varbit END AS r
FROM generate_series(1, 30) i
UNION ALL SELECT i, oue_encode(i % 40, 1.0, 1200, i) FROM generate_series(31, 330) i;
SELECT count(*) FILTER (WHERE length(r) = 20000 AND pg_column_size(r) < 1000) AS compressed,
       count(*) FILTER (WHERE pg_column_size(r) > 2000) AS out_of_line,
       count(*) FILTER (WHERE length(r) = 1200 AND pg_column_size(r) = 158) AS four_byte_headers
FROM long_unary;
SELECT (SELECT oue_agg(r, 1.0) FROM long_unary WHERE i <= 30)::text =
       (SELECT oue_agg(r::text::varbit, 1.0) FROM long_unary WHERE i <= 30)::text AS toasted_agree,
       (SELECT sue_agg(r, 1.0) FROM long_unary WHERE i > 30)::text =
       (SELECT sue_agg(r::text::varbit, 1.0) FROM long_unary WHERE i > 30)::text AS in_place_agree;
DROP TABLE pend_reports, long_unary;
