-- Text and binary round trips of ldp.freq_summary for every protocol, and a
-- forced parallel plan equal to the serial one.
SET search_path = public, ldp;
CREATE TABLE fpop AS SELECT i, (i * 7919) % 16 AS v FROM generate_series(1, 40000) i;
CREATE TABLE freports AS
SELECT i, grr_encode(v, 1.5, 16, i) AS grr, sue_encode(v, 1.5, 16, i) AS sue, oue_encode(v, 1.5, 16, i) AS oue,
       (dbitflip_encode(v, 1.5, 16, 2, i)).buckets AS dbf_b, (dbitflip_encode(v, 1.5, 16, 2, i)).bits AS dbf_v,
       (olh_encode(v, 1.5, 16, i)).seed AS olh_s, (olh_encode(v, 1.5, 16, i)).report AS olh_y,
       (hadamard_encode(v, 1.5, 16, i))."row" AS had_r, (hadamard_encode(v, 1.5, 16, i)).report AS had_y
FROM fpop;
ANALYZE freports;
CREATE TABLE fsums AS
SELECT 'grr' AS m, grr_agg(grr, 1.5, 16) AS s FROM freports
UNION ALL SELECT 'sue', sue_agg(sue, 1.5) FROM freports
UNION ALL SELECT 'oue', oue_agg(oue, 1.5) FROM freports
UNION ALL SELECT 'dbitflip', dbitflip_agg(dbf_b, dbf_v, 1.5, 16) FROM freports
UNION ALL SELECT 'olh', olh_agg(olh_s, olh_y, 1.5, 16) FROM freports
UNION ALL SELECT 'hadamard', hadamard_agg(had_r, had_y, 1.5, 16) FROM freports;
SELECT m, s::text::freq_summary::text = s::text AS text_round_trip, report_count(s) FROM fsums ORDER BY m;
SELECT regress_file('ldp_regress_freq_io.bin') AS bin_file \gset
COPY fsums TO :'bin_file' WITH (FORMAT binary);
CREATE TABLE fsums_copy (LIKE fsums);
COPY fsums_copy FROM :'bin_file' WITH (FORMAT binary);
SELECT a.m, a.s::text = b.s::text AS binary_round_trip FROM fsums a JOIN fsums_copy b USING (m) ORDER BY m;

SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
CALL regress_force_parallel(true);
EXPLAIN (COSTS OFF) SELECT grr_agg(grr, 1.5, 16), hadamard_agg(had_r, had_y, 1.5, 16) FROM freports;
SELECT p.m, p.s::text = f.s::text AS parallel_equals_serial
FROM (SELECT 'grr' AS m, grr_agg(grr, 1.5, 16) AS s FROM freports
      UNION ALL SELECT 'sue', sue_agg(sue, 1.5) FROM freports
      UNION ALL SELECT 'oue', oue_agg(oue, 1.5) FROM freports
      UNION ALL SELECT 'dbitflip', dbitflip_agg(dbf_b, dbf_v, 1.5, 16) FROM freports
      UNION ALL SELECT 'olh', olh_agg(olh_s, olh_y, 1.5, 16) FROM freports
      UNION ALL SELECT 'hadamard', hadamard_agg(had_r, had_y, 1.5, 16) FROM freports) p
JOIN fsums f USING (m) ORDER BY m;
