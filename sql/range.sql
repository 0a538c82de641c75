-- Numeric distributions: ldp.range_protocol (builder, text I/O), range_encode, range_agg,
-- range_frequency, cdf, quantile, quantiles, histogram on 200,000 seeded lognormal
-- latencies (true shares and quantiles against the intervals), rollup (halves = whole),
-- forced parallel = serial, ldp.summary, a collection of daily epochs, the same answers
-- from hierarchical histograms (hh) on a quarter of them, Square Wave (sw_encode,
-- range_agg(report, protocol), density) on a tenth, and every error.
SET search_path = public, ldp;

-- Protocols: the floor mapping by default; linear and log with their bounds.
SELECT range_protocol(1, 12) AS floor_ms, range_protocol(0.5, 10, mapping => 'linear', lo => -1, hi => 1) AS linear,
       range_protocol(2, 16, 'haar', NULL, 'log', 0.1, 60000) AS log;
-- hh: branching 4 by default, or 2
SELECT range_protocol(1, 12, 'hh') AS hh, range_protocol(1, 11, 'hh', 2, 'linear', 0, 1) AS hh_b2,
       'v1:hh{epsilon=1,domain_bits=5,branching=4,mapping=floor}'::range_protocol AS parsed;
SELECT range_protocol(1, 12)::text::range_protocol::text = range_protocol(1, 12)::text AS text_round_trip,
       'v1:haar{epsilon=0.7,domain_bits=20,mapping=linear,lo=-5,hi=5}'::range_protocol AS parsed;

-- Encoder: reproducible with a seed; levels in [0, k), rows in [0, 2^level).
SELECT range_encode(250, range_protocol(1, 12), 7) = range_encode(250, range_protocol(1, 12), 7) AS reproducible,
       range_encode(250, range_protocol(1, 12)) IS NOT NULL AS unseeded,
       range_encode(NULL, range_protocol(1, 12), 1) IS NULL AS null_value;
SELECT min(level), max(level), bool_and(hadamard_row >= 0 AND hadamard_row < (1::bigint << level)) AS rows_in_level
FROM generate_series(1, 3000) s, range_encode(s, range_protocol(1, 12), s);

-- 200,000 page loads over 7 days, latency lognormal (median 120 ms, sigma 0.6) from
-- seeded hashes (Box-Muller); each device reports its latency at epsilon = 1 over
-- [0, 4096) ms.
CREATE TABLE lat AS
SELECT i, exp(ln(120) + 0.6 * sqrt(-2 * ln(u1)) * cos(2 * pi() * u2)) AS ms,
       timestamptz '2026-03-02 00:00+00' + (i % 7) * interval '1 day' + interval '1 hour' AS at
FROM (SELECT i, ((hashint8(i) & 2147483647) + 0.5) / 2147483648.0 AS u1,
             ((hashint8(-i) & 2147483647) + 0.5) / 2147483648.0 AS u2
      FROM generate_series(1, 200000) i) x;
CREATE TABLE lr AS SELECT i, at, r.* FROM lat, LATERAL range_encode(ms, range_protocol(1, 12), i) r;
ANALYZE lr;
CREATE TABLE ls AS SELECT range_agg(level, hadamard_row, report, range_protocol(1, 12)) AS s FROM lr;
SELECT mechanism(s), report_count(s), epsilon(s), protocol(s)::text AS protocol,
       pg_column_size(s) < 12000 AS compact FROM ls;

-- Shares of ranges, inclusive, in ms: the truth inside the 95% interval
-- (true shares of whole-ms values, clamped to the domain as devices clamp them)
CREATE TABLE truth AS SELECT least(floor(ms), 4095)::int AS b, count(*) AS n FROM lat GROUP BY 1;
CREATE TABLE cum AS SELECT b, sum(n) OVER (ORDER BY b) AS c FROM truth;
SELECT r.lo, r.hi, round(t.share, 4) AS true_share, round(f.frequency::numeric, 3) AS frequency,
       round(f.std_error::numeric, 4) AS std_error,
       f.ci_lower <= t.share AND t.share <= f.ci_upper AS covered,
       abs(f.count - f.frequency * 200000) < 1e-6 AS count_is_n_times
FROM ls, (VALUES (0, 99), (100, 199), (200, 499), (500, 4095), (120, 120)) r(lo, hi),
     LATERAL range_frequency(s, r.lo, r.hi) f,
     LATERAL (SELECT coalesce(sum(n), 0) / 200000.0 AS share FROM truth WHERE b BETWEEN r.lo AND r.hi) t
ORDER BY r.lo, r.hi;
-- 400 ranges with seeded ends: how many intervals cover the true share (95% expected),
-- and the largest standard error against the bound k^2 c^2 / (2n) of the variance
CREATE TABLE ranges AS
SELECT j, least(a, b) AS lo, greatest(a, b) AS hi
FROM (SELECT j, abs(hashint4(j)) % 1024 AS a, abs(hashint4(-j)) % 1024 AS b FROM generate_series(1, 400) j) x;
SELECT count(*) FILTER (WHERE f.ci_lower <= t.share AND t.share <= f.ci_upper) AS covered, count(*) AS ranges,
       max(f.std_error) < sqrt(144 * ((exp(1) + 1) / (exp(1) - 1)) ^ 2 / (2 * 200000)) AS se_within_bound
FROM ls, ranges r, LATERAL range_frequency(s, r.lo, r.hi) f,
     LATERAL (SELECT (coalesce((SELECT max(c) FROM cum WHERE b <= r.hi), 0)
                      - coalesce((SELECT max(c) FROM cum WHERE b < r.lo), 0)) / 200000.0 AS share) t;
-- the CDF at a few points, and its monotone truth inside
SELECT x, round(f.frequency::numeric, 3) AS cdf, f.ci_lower <= t.share AND t.share <= f.ci_upper AS covered
FROM ls, unnest(ARRAY[50, 120, 250, 1000]) x, LATERAL cdf(s, x) f,
     LATERAL (SELECT coalesce((SELECT max(c) FROM cum WHERE b <= x), 0) / 200000.0 AS share) t ORDER BY x;
-- cdf(s, x) is range_frequency(s, 0, x); a value maps as the device maps it (floor, clamped)
SELECT (cdf(s, 250)).frequency = (range_frequency(s, 0, 250.7)).frequency AS cdf_is_a_range,
       (cdf(s, -3)).frequency = (cdf(s, 0)).frequency AS below_clamps,
       (cdf(s, 1e9)).frequency = 1 AS above_is_everything FROM ls;

-- Quantiles: p50, p90, p99 with a simultaneous band (Bonferroni, family-wise >= 95%), the
-- true quantile (of the whole-ms values) inside [ci_lower, ci_upper)
CREATE TABLE true_q AS
SELECT phi, percentile_disc(phi) WITHIN GROUP (ORDER BY least(floor(ms), 4095)) AS q
FROM lat, unnest(ARRAY[0.5, 0.9, 0.99]) phi GROUP BY phi;
SELECT q.phi, t.q AS truth, q.value, q.ci_lower, q.ci_upper, q.ci_lower <= t.q AND t.q < q.ci_upper AS covered
FROM ls, quantiles(s, ARRAY[0.5, 0.9, 0.99, NULL]) WITH ORDINALITY q LEFT JOIN true_q t ON t.phi = q.phi
ORDER BY q.ordinality;
-- the pointwise interval is inside the band; the point is the same
SELECT p.value = b.value AS same_point, b.ci_lower <= p.ci_lower AND p.ci_upper <= b.ci_upper AS band_is_wider
FROM ls, quantile(s, 0.9) p, quantiles(s, ARRAY[0.5, 0.9, 0.99]) b WHERE b.phi = 0.9;
SELECT (quantile(s, 0)).value <= (quantile(s, 0.5)).value AS q0_below, (quantile(s, 1)).ci_upper <= 4096 AS q1_in_domain FROM ls;

-- A histogram of 8 groups of 512 ms: the truth of each group against its interval (each
-- covers with 95%: one miss in 8 is no surprise; z is the error in standard errors)
SELECT h.lo, h.hi, round(h.frequency::numeric, 3) AS frequency, round(h.std_error::numeric, 4) AS std_error,
       round(((h.frequency - t.share) / h.std_error)::numeric, 1) AS z,  -- of the point shown
       h.ci_lower <= t.share AND t.share <= h.ci_upper AS covered
FROM ls, histogram(s, 8) h,
     LATERAL (SELECT coalesce(sum(n), 0) / 200000.0 AS share FROM truth WHERE b >= h.lo AND b < h.hi) t
ORDER BY h.lo;
SELECT count(*) AS bins, min(hi - lo) AS narrowest, max(hi - lo) AS widest FROM ls, histogram(s, 3);

-- Rollup of two halves equals the whole; forced parallel equals serial.
SELECT (SELECT rollup(x)::text FROM (
          SELECT range_agg(level, hadamard_row, report, range_protocol(1, 12)) x FROM lr WHERE i % 2 = 0
          UNION ALL SELECT range_agg(level, hadamard_row, report, range_protocol(1, 12)) FROM lr WHERE i % 2 = 1) h)
       = (SELECT s::text FROM ls) AS halves_equal_whole;
SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2; CALL regress_force_parallel(true); SET parallel_leader_participation = off;
SELECT md5(range_agg(level, hadamard_row, report, range_protocol(1, 12))::text) = (SELECT md5(s::text) FROM ls)
       AS parallel_equals_serial FROM lr;
RESET parallel_setup_cost; RESET parallel_tuple_cost; RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather; CALL regress_force_parallel(false); RESET parallel_leader_participation;

-- Forms: text round trip, through ldp.summary, a small summary's text
SELECT s::text::range_summary::text = s::text AS text_round_trip, summary_kind(s::summary) AS kind,
       (s::summary)::range_summary::text = s::text AS cast_round_trip FROM ls;
SELECT range_agg(level, hadamard_row, report, range_protocol(2, 2)) AS small
FROM generate_series(1, 20) i, range_encode(i % 4, range_protocol(2, 2), i);
-- an empty summary: NULL answers, no rows
SELECT (range_frequency(e, 0, 1)).*, (quantile(e, 0.5)).* FROM (SELECT 'v1:haar{epsilon=1,domain_bits=1,mapping=floor,n=0,levels=[0],sums=[0]}'::range_summary e) x;
SELECT count(*) AS empty_rows FROM quantiles('v1:haar{epsilon=1,domain_bits=1,mapping=floor,n=0,levels=[0],sums=[0]}', ARRAY[0.5]);
-- a level without reports: its answers have no standard error; the quantile spans the domain
SELECT (range_frequency(s, 0, 0)).std_error IS NULL AS no_se, (range_frequency(s, 0, 3)).* ,
       (quantile(s, 0.5)).ci_lower AS lo, (quantile(s, 0.5)).ci_upper AS hi
FROM (SELECT 'v1:haar{epsilon=1,domain_bits=2,mapping=floor,n=2,levels=[0,2],sums=[0,2,0]}'::range_summary s) x;

-- A collection of range summaries: daily epochs closed by close_due_epochs, the protocol
-- a typed literal; each day's p50 and p99, and the week's from the rollup.
SELECT create_collection('lat', 'lr', 'at', '1 day',
  format('ldp.range_agg(level, hadamard_row, report, %L::ldp.range_protocol)', range_protocol(1, 12)::text),
  '2026-03-01 00:00+00');
SELECT kind FROM collections WHERE name = 'lat';
CALL close_due_epochs('lat');
SELECT count(*) FILTER (WHERE summary IS NOT NULL) AS days_with_reports FROM collection_epochs WHERE collection = 'lat';
SELECT epoch, epoch_start, phi, ci_lower <= (SELECT q FROM true_q t WHERE t.phi = c.phi) AND
       (SELECT q FROM true_q t WHERE t.phi = c.phi) < ci_upper AS covers_the_week
FROM collection_quantiles('lat', ARRAY[0.5, 0.99]) c ORDER BY epoch, phi LIMIT 4;
SELECT (SELECT rollup(summary::range_summary)::text FROM collection_epochs WHERE collection = 'lat') = (SELECT s::text FROM ls) AS week_equals_whole;
SELECT try_sql($$SELECT * FROM collection_heavy_hitters('lat')$$);
SELECT try_sql($$SELECT * FROM collection_quantiles('nope', ARRAY[0.5])$$);
SELECT drop_collection('lat');

-- Hierarchical histograms (hh, B = 4) on a quarter of the latencies: the same reports'
-- columns and aggregate; every answer with its interval around the truth of that quarter.
CREATE TABLE lh AS SELECT i, at, r.* FROM lat, LATERAL range_encode(ms, range_protocol(1, 12, 'hh'), i) r WHERE i % 4 = 0;
CREATE TABLE hs AS SELECT range_agg(level, hadamard_row, report, range_protocol(1, 12, 'hh')) AS s FROM lh;
SELECT mechanism(s), report_count(s), protocol(s)::text AS protocol,
       (SELECT min(level) FROM lh) AS min_level, (SELECT max(level) FROM lh) AS max_level FROM hs;
-- (z: the error of the estimate in standard errors; one range in 20 misses at 95%)
SELECT r.lo, r.hi, round(((f.frequency - t.share) / f.std_error)::numeric, 1) AS z,
       f.ci_lower <= t.share AND t.share <= f.ci_upper AS covered
FROM hs, (VALUES (0, 99), (100, 199), (500, 4095), (120, 120)) r(lo, hi), LATERAL range_frequency(s, r.lo, r.hi) f,
     LATERAL (SELECT count(*) / 50000.0 AS share FROM lat WHERE i % 4 = 0 AND least(floor(ms), 4095) BETWEEN r.lo AND r.hi) t
ORDER BY r.lo;
SELECT (cdf(s, 250)).frequency = (range_frequency(s, 0, 250)).frequency AS cdf_is_a_range,
       (cdf(s, 4095)).frequency = 1 AS whole,
       (SELECT count(*) FILTER (WHERE h.std_error > 0) FROM histogram(s, 4) h) AS bins_with_se FROM hs;
SELECT q.phi, q.ci_lower <= t.q AND t.q < q.ci_upper AS covered, p.value = q.value AS pointwise_same_point
FROM hs, quantiles(s, ARRAY[0.5, 0.9, 0.99]) q, LATERAL quantile(s, q.phi) p,
     LATERAL (SELECT percentile_disc(q.phi) WITHIN GROUP (ORDER BY least(floor(ms), 4095)) AS q FROM lat WHERE i % 4 = 0) t
ORDER BY q.phi;
SELECT (SELECT rollup(x)::text FROM (
          SELECT range_agg(level, hadamard_row, report, range_protocol(1, 12, 'hh')) x FROM lh WHERE i % 8 = 0
          UNION ALL SELECT range_agg(level, hadamard_row, report, range_protocol(1, 12, 'hh')) FROM lh WHERE i % 8 = 4) h)
       = (SELECT s::text FROM hs) AS halves_equal_whole;
SELECT range_agg(level, hadamard_row, report, range_protocol(2, 3, 'hh')) AS small_hh
FROM generate_series(1, 20) i, range_encode(i % 8, range_protocol(2, 3, 'hh'), i);
SELECT create_collection('lat_hh', 'lh', 'at', '1 day',
  format('ldp.range_agg(level, hadamard_row, report, %L::ldp.range_protocol)', range_protocol(1, 12, 'hh')::text),
  '2026-03-01 00:00+00');
CALL close_due_epochs('lat_hh');
SELECT count(*) AS rows, count(DISTINCT epoch) AS epochs, bool_and(ci_lower <= value AND value < ci_upper) AS ordered
FROM collection_quantiles('lat_hh', ARRAY[0.5, 0.99]);
SELECT drop_collection('lat_hh');
-- hh's errors: branching for haar, a branching hh does not take, its levels, merges across
-- mechanisms and branchings
SELECT try_sql($$SELECT range_protocol(1, 12, branching => 4)$$);
SELECT try_sql($$SELECT range_protocol(1, 12, 'hh', 3)$$);
SELECT try_sql($$SELECT range_protocol(1, 12, 'hh', 0)$$);
SELECT try_sql($$SELECT 'v1:hh{epsilon=1,domain_bits=12,mapping=floor}'::range_protocol$$);
SELECT try_sql($$SELECT range_agg(0, 0, true, range_protocol(1, 12, 'hh'))$$);
SELECT try_sql($$SELECT range_agg(6, 4096, true, range_protocol(1, 12, 'hh'))$$);
SELECT try_sql($$SELECT rollup(s) FROM (SELECT s FROM hs UNION ALL SELECT s FROM ls) x$$);
SELECT try_sql($$SELECT rollup(s) FROM (SELECT range_agg(1, 0, true, range_protocol(1, 4, 'hh', 2)) s UNION ALL SELECT range_agg(1, 0, true, range_protocol(1, 4, 'hh', 4))) x$$);
SELECT try_sql($$SELECT range_agg(1, 0, true, CASE WHEN g = 1 THEN range_protocol(1, 4, 'hh') ELSE range_protocol(1, 4) END) FROM generate_series(1, 2) g$$);
DROP TABLE lh, hs;

-- Square Wave (mechanism => 'sw'): one float8 report per device in [-w, 1 + w] (w = 0.129
-- at epsilon = 2), counted per output bucket of the wave (1024 of them at 10 bits); density
-- by EM with bootstrap standard errors, model-based, reproducible for a seed. 20,000 of the
-- latencies, over [0, 1000) ms in 1024 linear buckets.
CREATE TABLE swr AS
SELECT i, ms, sw_encode(ms, range_protocol(2, 10, 'sw', mapping => 'linear', lo => 0, hi => 1000), i) AS y
FROM lat WHERE i <= 20000;
SELECT count(*), min(y) >= -0.13 AND max(y) <= 1.13 AS in_range,
       sw_encode(250, range_protocol(2, 12, 'sw'), 7) = sw_encode(250, range_protocol(2, 12, 'sw'), 7) AS reproducible,
       sw_encode(NULL, range_protocol(2, 12, 'sw'), 1) IS NULL AS null_value FROM swr;
CREATE TABLE sws AS
SELECT range_agg(y, range_protocol(2, 10, 'sw', mapping => 'linear', lo => 0, hi => 1000)) AS s FROM swr;
SELECT mechanism(s), report_count(s), protocol(s)::text AS protocol, pg_column_size(s) < 2500 AS compact FROM sws;
-- 4 groups of 250 ms: the truth (values clamped as devices clamp them) against the
-- estimate and its model-based interval
SELECT d.lo, d.hi, round(t.share, 3) AS true_share, round(d.frequency::numeric, 3) AS frequency,
       round(d.std_error::numeric, 3) AS std_error, d.ci_lower <= t.share AND t.share <= d.ci_upper AS covered
FROM sws, density(s, 4, replicates => 10, seed => 1) d,
     LATERAL (SELECT count(*) / 20000.0 AS share FROM swr WHERE least(ms, 999.9) >= d.lo AND least(ms, 999.9) < d.hi) t
ORDER BY d.lo;
-- a seed repeats its answer, another seed gives other standard errors; no replicates, none;
-- EMS is another estimate
SELECT (SELECT array_agg(std_error ORDER BY lo) FROM sws, density(s, 4, 3, 1)) =
       (SELECT array_agg(std_error ORDER BY lo) FROM sws, density(s, 4, 3, 1)) AS same_seed_same_answer,
       (SELECT array_agg(std_error ORDER BY lo) FROM sws, density(s, 4, 3, 1)) <>
       (SELECT array_agg(std_error ORDER BY lo) FROM sws, density(s, 4, 3, 3)) AS other_seed_other_se,
       (SELECT bool_and(std_error IS NULL AND ci_lower IS NULL) FROM sws, density(s, 4, 0)) AS no_replicates_no_se,
       (SELECT array_agg(frequency ORDER BY lo) FROM sws, density(s, 4, 0)) <>
       (SELECT array_agg(frequency ORDER BY lo) FROM sws, density(s, 4, 0, smoothing => true)) AS ems_differs;
-- halves roll up to the whole, parallel equals serial, forms round trip; 24 bits fit (1024
-- counters whatever the domain); a small summary's text
SELECT (SELECT rollup(x)::text FROM (
          SELECT range_agg(y, range_protocol(2, 10, 'sw', mapping => 'linear', lo => 0, hi => 1000)) x FROM swr WHERE i % 2 = 0
          UNION ALL SELECT range_agg(y, range_protocol(2, 10, 'sw', mapping => 'linear', lo => 0, hi => 1000)) FROM swr WHERE i % 2 = 1) h)
       = (SELECT s::text FROM sws) AS halves_equal_whole,
       (SELECT s::text::range_summary::text = s::text AND (s::summary)::range_summary::text = s::text FROM sws) AS forms;
SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2; CALL regress_force_parallel(true); SET parallel_leader_participation = off;
SELECT md5(range_agg(y, range_protocol(2, 10, 'sw', mapping => 'linear', lo => 0, hi => 1000))::text)
       = (SELECT md5(s::text) FROM sws) AS parallel_equals_serial FROM swr;
RESET parallel_setup_cost; RESET parallel_tuple_cost; RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather; CALL regress_force_parallel(false); RESET parallel_leader_participation;
SELECT report_count(range_agg(sw_encode(i, range_protocol(1, 24, 'sw'), i), range_protocol(1, 24, 'sw'))) AS wide
FROM generate_series(1, 100) i;
SELECT range_agg(y, range_protocol(1, 2, 'sw')) AS small FROM (VALUES (-0.25), (0.1), (0.6), (1.25)) v(y);
-- the linear accessors refuse a Square Wave summary, density refuses a haar one, with hints
SELECT * FROM sws, histogram(s, 4);
SELECT * FROM ls, density(s, 4);

-- Errors: parameters (22023), reports (22000), sizes (54000), forms (22P02), kinds (42804).
SELECT try_sql($$SELECT range_protocol(0, 12)$$);
SELECT try_sql($$SELECT range_protocol(NULL, 12)$$);
SELECT try_sql($$SELECT range_protocol(1, NULL)$$);
SELECT try_sql($$SELECT range_protocol(1, 0)$$);
SELECT try_sql($$SELECT range_protocol(1, 25)$$);
SELECT try_sql($$SELECT range_protocol(1, 12, 'wave')$$);
SELECT try_sql($$SELECT range_protocol(1, 12, mapping => 'cubic')$$);
SELECT try_sql($$SELECT range_protocol(1, 12, mapping => 'linear')$$);
SELECT try_sql($$SELECT range_protocol(1, 12, mapping => 'linear', lo => 5, hi => 5)$$);
SELECT try_sql($$SELECT range_protocol(1, 12, mapping => 'log', lo => 0, hi => 5)$$);
SELECT try_sql($$SELECT range_protocol(1, 12, mapping => 'log', lo => 5e-324, hi => 1e6)$$);
SELECT try_sql($$SELECT range_protocol(1, 12, mapping => 'linear', lo => 'NaN', hi => 5)$$);
SELECT try_sql($$SELECT range_protocol(1, 12, lo => 1)$$);
SELECT try_sql($$SELECT 'v1:haar{epsilon=1,domain_bits=12}'::range_protocol$$);
SELECT try_sql($$SELECT 'v1:nope{epsilon=1,domain_bits=12,mapping=floor}'::range_protocol$$);
SELECT try_sql($$SELECT range_encode('NaN', range_protocol(1, 12), 1)$$);
SELECT try_sql($$SELECT range_encode(1, NULL, 1)$$) AS null_protocol_gives_null;
SELECT try_sql($$SELECT range_agg(12, 0, true, range_protocol(1, 12))$$);
SELECT try_sql($$SELECT range_agg(3, 8, true, range_protocol(1, 12))$$);
SELECT try_sql($$SELECT range_agg(3, -1, true, range_protocol(1, 12))$$);
SELECT try_sql($$SELECT range_agg(3, NULL, true, range_protocol(1, 12))$$);
SELECT try_sql($$SELECT range_agg(3, 0, true, NULL)$$);
SELECT range_agg(NULL, NULL, NULL, range_protocol(1, 12)) IS NULL AS all_null_row_skipped;
SELECT try_sql($$SELECT range_agg(0, 0, true, range_protocol(1, 11 + g % 2)) FROM generate_series(1, 2) g$$);
SELECT try_sql($$SELECT range_agg(0, 0, true, range_protocol(1, 23))$$);
SELECT try_sql($$SELECT range_agg(0, 0, true, range_protocol(1, 24))$$);
SELECT try_sql($$SELECT rollup(s) FROM (SELECT range_agg(0, 0, true, range_protocol(1, 4)) s UNION ALL SELECT range_agg(0, 0, true, range_protocol(2, 4))) x$$);
SELECT try_sql($$SELECT range_trans(NULL, 0, 0, true, range_protocol(1, 4))$$);
SELECT try_sql($$SELECT range_frequency(s, 10, 5) FROM ls$$);
SELECT try_sql($$SELECT range_frequency(s, 'NaN', 5) FROM ls$$);
SELECT try_sql($$SELECT cdf(s, 'NaN') FROM ls$$);
SELECT try_sql($$SELECT quantile(s, 1.5) FROM ls$$);
SELECT try_sql($$SELECT quantile(s, 'NaN') FROM ls$$);
SELECT try_sql($$SELECT * FROM ls, quantiles(s, ARRAY[0.5, -0.1])$$);
SELECT try_sql($$SELECT * FROM ls, quantiles(s, ARRAY[[0.5], [0.9]])$$);
SELECT try_sql($$SELECT * FROM ls, histogram(s, 0)$$);
SELECT try_sql($$SELECT * FROM ls, histogram(s, 4097)$$);
SELECT try_sql($$SELECT 'v1:haar{epsilon=1,domain_bits=2,mapping=floor,n=4,levels=[1,3],sums=[1,2,-2]}'::range_summary$$);
SELECT try_sql($$SELECT 'v1:haar{epsilon=1,domain_bits=2,mapping=floor,n=4,levels=[1,2],sums=[1,1,-2]}'::range_summary$$);
SELECT try_sql($$SELECT 'v1:haar{epsilon=1,domain_bits=2,mapping=floor,n=4,levels=[1,3],sums=[0,1,-2]}'::range_summary$$);
SELECT try_sql($$SELECT 'v1:haar{epsilon=1,domain_bits=20,mapping=floor,n=0,levels=[0],sums=[0]}'::range_summary$$);
SELECT try_sql($$SELECT 'v1:haar{epsilon=1,domain_bits=23,mapping=floor,n=0,levels=[0],sums=[0]}'::range_summary$$);
SELECT try_sql($$SELECT 'v1:haar{epsilon=1,domain_bits=2,mapping=floor,n=4,levels=[1,3],sums=[1,1,-2]}'::summary::mean_summary$$);
SELECT try_sql($$SELECT s::summary::heavy_summary FROM ls$$);
SELECT try_sql($$SELECT sw_encode(1, range_protocol(1, 12), 1)$$);
SELECT try_sql($$SELECT range_encode(1, range_protocol(1, 12, 'sw'), 1)$$);
SELECT try_sql($$SELECT sw_encode('NaN', range_protocol(1, 12, 'sw'), 1)$$);
SELECT try_sql($$SELECT range_agg(0.5::float8, range_protocol(1, 12))$$);
SELECT try_sql($$SELECT range_agg(0, 0, true, range_protocol(1, 12, 'sw'))$$);
SELECT try_sql($$SELECT range_agg(2::float8, range_protocol(1, 12, 'sw'))$$);
SELECT try_sql($$SELECT range_agg('NaN'::float8, range_protocol(1, 12, 'sw'))$$);
SELECT try_sql($$SELECT range_agg(0.5::float8, range_protocol(1, 12, 'sw', mapping => 'linear', lo => 0, hi => 1 + g % 2))
                  FROM generate_series(1, 2) g$$);
SELECT try_sql($$SELECT (cdf(s, 5)).* FROM sws$$);
SELECT try_sql($$SELECT * FROM sws, quantiles(s, ARRAY[0.5])$$);
SELECT try_sql($$SELECT * FROM sws, density(s, 0)$$);
SELECT try_sql($$SELECT * FROM sws, density(s, 1025)$$);
SELECT try_sql($$SELECT * FROM sws, density(s, 4, 1001)$$);
SELECT try_sql($$SELECT * FROM sws, density(s, 4, -1)$$);
SET ldp.max_decode_work = 1e7;
SELECT try_sql($$SELECT * FROM sws, density(s, 4)$$);
RESET ldp.max_decode_work;
SELECT try_sql($$SELECT 'v1:sw{epsilon=1,domain_bits=1,mapping=floor,n=3,buckets=[1,1]}'::range_summary$$);
SELECT try_sql($$SELECT 'v1:sw{epsilon=1,domain_bits=1,mapping=floor,n=2,buckets=[1,1],sums=[0]}'::range_summary$$);


DROP TABLE lat, lr, ls, truth, ranges, cum, true_q, swr, sws;
