-- 0.1.0 → 0.2.0 → 0.3.0: an installation of 0.1.0 updates in place, keeping its objects.
DROP EXTENSION ldp;
CREATE EXTENSION ldp VERSION '0.1.0';
SELECT extversion FROM pg_extension WHERE extname = 'ldp';
SELECT count(*) > 0 AS has_mean_aggregates, to_regproc('ldp.thresh_create') IS NULL AS no_thresh_yet
FROM pg_proc WHERE pronamespace = 'ldp'::regnamespace AND proname = 'rr_agg';
CREATE TABLE kept AS SELECT ldp.rr_agg(ldp.rr_encode(i % 2 = 0, 1.0, i), 1.0) AS s FROM generate_series(1, 100) i;
CREATE TABLE kept_lap AS SELECT ldp.laplace_mean_agg(ldp.laplace_mean_encode(i % 10, 1.0, 10, i), 1.0, 10) AS s FROM generate_series(1, 100) i;
ALTER EXTENSION ldp UPDATE;
SELECT extversion FROM pg_extension WHERE extname = 'ldp';
SELECT ldp.report_count(s) FROM kept;
-- a real-valued summary made under the 0.1.0 SQL (no final function): the library
-- stores the compact stored form whatever SQL declared the aggregate (the memory
-- images that builds up to 0.4.0 stored are read by sql/forms.sql, from their bytes)
SELECT ldp.report_count(s), pg_column_size(s) < 200 AS stored_form,
       (SELECT pg_column_size(ldp.rollup(s)) < 200 FROM kept_lap) AS rollup_compact,
       (SELECT ldp.rollup(s)::text FROM kept_lap) = s::text AS same_summary
FROM kept_lap;
SELECT ldp.report_count(ldp.rollup(s)) FROM (
  SELECT s FROM kept_lap
  UNION ALL
  SELECT ldp.laplace_mean_agg(ldp.laplace_mean_encode(i % 10, 1.0, 10, i), 1.0, 10) FROM generate_series(1, 50) i) u;
SELECT to_regproc('ldp.thresh_create') IS NOT NULL AS thresh, to_regclass('ldp.collections') IS NOT NULL AS collections;
SELECT obj_description('ldp.ci_lower(ldp.mean_summary, float8)'::regprocedure, 'pg_proc') LIKE '%Clopper-Pearson%' AS ci_comment_updated;
DROP TABLE kept, kept_lap;
DROP EXTENSION ldp;
CREATE EXTENSION ldp;
SELECT extversion FROM pg_extension WHERE extname = 'ldp';
