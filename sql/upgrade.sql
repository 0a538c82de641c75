-- 0.1.0 → 0.2.0 → 0.3.0: an installation of 0.1.0 updates in place, keeping its objects.
DROP EXTENSION ldp;
CREATE EXTENSION ldp VERSION '0.1.0';
SELECT extversion FROM pg_extension WHERE extname = 'ldp';
SELECT count(*) > 0 AS has_mean_aggregates, to_regproc('ldp.thresh_create') IS NULL AS no_thresh_yet
FROM pg_proc WHERE pronamespace = 'ldp'::regnamespace AND proname = 'rr_agg';
CREATE TABLE kept AS SELECT ldp.rr_agg(ldp.rr_encode(i % 2 = 0, 1.0, i), 1.0) AS s FROM generate_series(1, 100) i;
ALTER EXTENSION ldp UPDATE;
SELECT extversion FROM pg_extension WHERE extname = 'ldp';
SELECT ldp.report_count(s) FROM kept;
SELECT to_regproc('ldp.thresh_create') IS NOT NULL AS thresh, to_regclass('ldp.collections') IS NOT NULL AS collections;
SELECT obj_description('ldp.ci_lower(ldp.mean_summary, float8)'::regprocedure, 'pg_proc') LIKE '%Clopper-Pearson%' AS ci_comment_updated;
DROP TABLE kept;
DROP EXTENSION ldp;
CREATE EXTENSION ldp;
SELECT extversion FROM pg_extension WHERE extname = 'ldp';
