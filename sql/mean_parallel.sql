-- Forced parallel plans: Partial Aggregate in the plan, and the same bits as
-- the serial plan for every aggregate (exact sums make real reports
-- order-independent).
SET search_path = public, ldp;
CREATE TABLE par AS
SELECT i, rr_encode(i % 4 = 0, 1, i) AS b,
       laplace_mean_encode((i % 1000) / 10.0, 0.5, 100, i) AS lap,
       piecewise_mean_encode((i % 1000) / 10.0, 0.5, 100, i) AS pw
FROM generate_series(1, 200000) i;
ANALYZE par;

SET max_parallel_workers_per_gather = 0;
CREATE TEMP TABLE serial AS
SELECT rr_agg(b, 1)::text AS rr, onebit_mean_agg(b, 1, 100, 0.1)::text AS ob,
       laplace_mean_agg(lap, 0.5, 100)::text AS lp, piecewise_mean_agg(pw, 0.5, 100)::text AS pw
FROM par;

SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
CALL regress_force_parallel(true);
EXPLAIN (COSTS OFF)
SELECT rr_agg(b, 1), onebit_mean_agg(b, 1, 100, 0.1), laplace_mean_agg(lap, 0.5, 100),
       piecewise_mean_agg(pw, 0.5, 100)
FROM par;
SELECT s.rr = p.rr AS rr_equal, s.ob = p.ob AS onebit_equal,
       s.lp = p.lp AS laplace_equal, s.pw = p.pw AS piecewise_equal
FROM serial s,
     (SELECT rr_agg(b, 1)::text AS rr, onebit_mean_agg(b, 1, 100, 0.1)::text AS ob,
             laplace_mean_agg(lap, 0.5, 100)::text AS lp, piecewise_mean_agg(pw, 0.5, 100)::text AS pw
      FROM par) p;
-- grouped rollup in parallel equals the serial total
EXPLAIN (COSTS OFF) SELECT rollup(s) FROM (SELECT i % 5 AS g, laplace_mean_agg(lap, 0.5, 100) s FROM par GROUP BY g) q;
SELECT (SELECT rollup(s) FROM (SELECT i % 5 AS g, laplace_mean_agg(lap, 0.5, 100) s FROM par GROUP BY g) q)::text
       = (SELECT lp FROM serial) AS grouped_rollup_equal;
