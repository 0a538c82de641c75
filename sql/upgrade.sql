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
-- 0.10.0 → 0.11.0: the views backing existing collections get the comment that
-- backing_create now writes (docs/security.md); a comment their owner wrote is kept
DROP EXTENSION ldp;
CREATE EXTENSION ldp VERSION '0.10.0';
CREATE TABLE upd_reports (at timestamptz NOT NULL, bit boolean);
SET client_min_messages = error;  -- (the superuser-owner WARNING)
SELECT ldp.create_collection('upd', 'upd_reports', 'at', '1 day', 'ldp.rr_agg(bit, 1.0)');
SELECT ldp.create_collection('upd_own', 'upd_reports', 'at', '1 day', 'ldp.rr_agg(bit, 1.0)');
COMMENT ON VIEW ldp_collections.upd_own IS 'Our own words (README "Security and privileges").';
SELECT relname, obj_description(oid, 'pg_class') FROM pg_class
WHERE relnamespace = 'ldp_collections'::regnamespace ORDER BY 1;
ALTER EXTENSION ldp UPDATE;
SELECT relname, obj_description(oid, 'pg_class') FROM pg_class
WHERE relnamespace = 'ldp_collections'::regnamespace ORDER BY 1;
SELECT ldp.create_collection('upd_new', 'upd_reports', 'at', '1 day', 'ldp.rr_agg(bit, 1.0)');
SELECT replace(obj_description('ldp_collections.upd_new'::regclass, 'pg_class'), 'upd_new', 'upd') =
       obj_description('ldp_collections.upd'::regclass, 'pg_class') AS same_as_a_new_one;
RESET client_min_messages;
SELECT ldp.drop_collection(c) FROM unnest(ARRAY['upd', 'upd_own', 'upd_new']) c;
DROP TABLE upd_reports;
DROP EXTENSION ldp;
CREATE EXTENSION ldp;
