-- Summaries are updated in place inside the aggregate context; as window
-- aggregates (moving frames restart the aggregation) they still give each row
-- its own frame's summary.
SET search_path = public, ldp;
SELECT i, report_count(rr_agg(i % 2 = 0, 1.0) OVER (ORDER BY i ROWS BETWEEN 2 PRECEDING AND CURRENT ROW)) AS last3,
       report_count(rr_agg(i % 2 = 0, 1.0) OVER (ORDER BY i)) AS running,
       rr_agg(i % 2 = 0, 1.0) OVER (ORDER BY i ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS last2
FROM generate_series(1, 5) i;
SELECT i, report_count(laplace_mean_agg(i::float8, 1.0, 10) OVER w) AS n,
       estimate(laplace_mean_agg(i::float8, 1.0, 10) OVER w) AS moving_mean
FROM generate_series(1, 6) i WINDOW w AS (ORDER BY i ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING);
SELECT g, mechanism(s), report_count(s), f.item, round(f.count::numeric, 9) AS count
FROM (SELECT i % 2 AS g, grr_agg(i % 3, 1.0, 3) OVER (PARTITION BY i % 2) AS s FROM generate_series(1, 6) i) q,
     frequencies(s) f WHERE f.item = 0 ORDER BY g LIMIT 2;
