-- RAPPOR: rappor_bloom and rappor_encode against google/rappor's Python client,
-- rappor_agg, the accessors, rappor_decode (array order, NULL elements, absent
-- candidates), rappor_privacy (decode.R's figures), text and binary round trips,
-- rollup (halves = whole), forced parallel = serial, ldp.summary, a collection of daily
-- epochs decoded per epoch and over a range, and every error.
SET search_path = public, ldp;

-- Bloom filters of google/rappor's Python client (get_bloom_bits; the test
-- vectors of docs/algorithms/rappor.md#client-bloom-filter-prr-and-irr, test/unit/rappor_client_test.cpp): the set bits, Bloom bit bits - 1 leftmost.
CREATE FUNCTION pg_temp.set_bits(b varbit) RETURNS int[] LANGUAGE sql IMMUTABLE
  RETURN (SELECT array_agg(length(b) - j ORDER BY length(b) - j) FROM generate_series(1, length(b)) j
          WHERE substring(b FROM j FOR 1) = B'1');
SELECT item, cohort, bits, hashes, rappor_bloom(item, cohort, bits, hashes) AS bloom,
       pg_temp.set_bits(rappor_bloom(item, cohort, bits, hashes)) AS set_bits
FROM (VALUES ('v1', 0, 16, 2), ('v1', 1, 16, 2), ('abc', 5, 16, 2), ('v1', 0, 128, 2), ('', 0, 32, 2),
             ('hello world', 63, 32, 4), ('x', 3, 8, 2), ('abc', 5, 32, 2)) v(item, cohort, bits, hashes);
SELECT pg_temp.set_bits(rappor_bloom(convert_from('\xc3a974c3a9', 'UTF8'), 7, 256, 16)) AS ete_utf8;

-- The PRR of the Python client (get_prr_masks): with p = 0 and q = 1 the IRR keeps it.
SELECT item, rappor_encode(item, cohort, secret, bits, 2, f, 0, 1, 1) AS prr, expected,
       rappor_encode(item, cohort, secret, bits, 2, f, 0, 1, 1) = expected::varbit AS equal
FROM (VALUES ('v1', 0, 'secret'::bytea, 0.5, 16, '1000000100101100'),
             ('abc', 5, 's3', 0.45, 32, '10110000100000100000101000001010'),
             ('x', 3, '', 0.25, 8, '00110000')) v(item, cohort, secret, f, bits, expected);
-- reproducible with a seed (the IRR's), fresh without; NULL in, NULL out
SELECT rappor_encode('v1', 0, 'k', 64, 2, 0.5, 0.25, 0.75, 7) = rappor_encode('v1', 0, 'k', 64, 2, 0.5, 0.25, 0.75, 7) AS reproducible,
       length(rappor_encode('v1', 0, 'k', 64, 2, 0.5, 0.25, 0.75)) AS unseeded_bits,
       rappor_encode(NULL, 0, 'k', 64, 2, 0.5, 0.25, 0.75, 7) IS NULL AS null_item,
       rappor_encode('v1', 0, NULL, 64, 2, 0.5, 0.25, 0.75, 7) IS NULL AS null_secret,
       rappor_bloom(NULL, 0, 16, 2) IS NULL AS null_bloom;

-- A population: 20000 devices (own secret, cohort of 8 from a hash), 32 bits, 2 hashes,
-- f = 0.5, p = 0.25, q = 0.75; 'date' 50%, 'cherry' 30%, 'banana' and 'apple' 10% each;
-- reports over 10 days.
CREATE TABLE rr AS
SELECT i AS device, '2026-03-01 00:00+00'::timestamptz + (i % 10) * interval '1 day' + interval '1 hour' AS at,
       abs(hashint4(i)) % 8 AS cohort,
       rappor_encode((ARRAY['apple', 'banana', 'cherry', 'date'])[1 + (i % 10 < 5)::int + (i % 10 < 8)::int + (i % 10 < 9)::int],
                     abs(hashint4(i)) % 8, int4send(i), 32, 2, 0.5, 0.25, 0.75, i) AS report
FROM generate_series(1, 20000) i;
CREATE TABLE rs AS SELECT rappor_agg(cohort, report, 2, 8, 0.5, 0.25, 0.75) AS s FROM rr;
SELECT report_count(s), round(epsilon(s)::numeric, 6) AS epsilon, mechanism(s), (rappor_parameters(s)).* FROM rs;
-- one row per candidate in array order; a NULL element: a row of NULLs
SELECT d.item, round(d.count) AS count, round(d.std_error) AS std_error, round(d.proportion::numeric, 4) AS proportion,
       round(d.ci_lower::numeric, 4) AS ci_lower, round(d.ci_upper::numeric, 4) AS ci_upper, d.detected
FROM rs, rappor_decode(s, ARRAY['date', 'fig', NULL, 'cherry', 'apple', 'banana', '']) d;
-- the truth within 3 standard errors, proportion = count / n, the interval in [0, 1]
SELECT bool_and(abs(d.count - t.truth) < 3 * d.std_error) AS within_3_se,
       bool_and(abs(d.proportion - d.count / 20000) < 1e-12) AS proportion_is_count_over_n,
       bool_and(d.ci_lower >= 0 AND d.ci_upper <= 1 AND d.ci_lower <= d.proportion AND d.proportion <= d.ci_upper) AS interval_in_0_1
FROM rs, rappor_decode(s, ARRAY['apple', 'banana', 'cherry', 'date', 'fig']) d
JOIN (VALUES ('apple', 2000), ('banana', 2000), ('cherry', 6000), ('date', 10000), ('fig', 0)) t(item, truth) USING (item);
-- many candidates (more than 0.8 cohorts x bits = 204.8): the LASSO screening runs
SELECT count(*) AS rows, count(*) FILTER (WHERE detected) >= 3 AS most_true_detected,
       count(*) FILTER (WHERE detected AND item LIKE 'w%') <= 15 AS few_absent_detected,
       array_agg(item ORDER BY ordinality) FILTER (WHERE item NOT LIKE 'w%') AS true_in_order
FROM rs, rappor_decode(s, ARRAY['apple', 'banana'] || ARRAY(SELECT 'w' || i FROM generate_series(1, 298) i) || ARRAY['cherry', 'date'])
  WITH ORDINALITY d;
-- an empty summary: zeros, nothing detected
SELECT d.* FROM rappor_decode('v1:rappor{bits=8,hashes=2,cohorts=4,f=0.5,p=0.25,q=0.75,n=0,rows=0,cohort=[],reports=[],ones=[]}', ARRAY['a']) d;

-- Privacy: decode.R's ComputePrivacyGuarantees (h = 2, f = 0.5, p = 0.25, q = 0.75:
-- eps_one = 2 ln(q*(1-p*)/(p*(1-q*))) with p* = 0.375, q* = 0.625; eps_inf = 2h ln 3)
SELECT round(epsilon_one::numeric, 6) AS epsilon_one, round(epsilon_inf::numeric, 6) AS epsilon_inf,
       round(detection_frequency::numeric, 6) AS detection_frequency,
       round((2 * ln(0.625 * 0.625 / (0.375 * 0.375)))::numeric, 6) AS by_hand_one, round((4 * ln(3))::numeric, 6) AS by_hand_inf
FROM rappor_privacy(2, 0.5, 0.25, 0.75, 1000000);
SELECT round(epsilon_one::numeric, 6) AS epsilon_one, round(epsilon_inf::numeric, 6) AS epsilon_inf, detection_frequency
FROM rappor_privacy(2, 0.5, 0.75, 0.25, 1000000);                                                  -- p > q: reciprocal, no detection
SELECT round(epsilon_one::numeric, 6) AS epsilon_one, epsilon_inf, detection_frequency FROM rappor_privacy(2, 0, 0.25, 0.75);  -- f = 0
SELECT round(detection_frequency::numeric, 6) AS alpha_01 FROM rappor_privacy(2, 0.5, 0.25, 0.75, 1000000, 0.01);
SELECT round(epsilon_one::numeric, 6) AS epsilon_one, round(epsilon_inf::numeric, 6) AS epsilon_inf, detection_frequency
FROM rappor_privacy(16, 0.9, 0.5, 0.5, 0);
SELECT * FROM rappor_privacy(NULL, 0.5, 0.25, 0.75) AS null_hashes;
-- issue 27: f = 1 (a report shows nothing of its value) gave epsilon_one = NaN with p = q = 1;
-- it is 0, and nothing is detectable (Infinity, not R's z·Inf = NaN at alpha = 0.5)
SELECT epsilon_one, epsilon_inf, detection_frequency FROM rappor_privacy(16, 1, 1, 1, 1000);
SELECT epsilon_one, epsilon_inf, detection_frequency FROM rappor_privacy(16, 1, 0, 0, 1000);
SELECT epsilon_one, detection_frequency FROM rappor_privacy(2, 1, 0.25, 0.75, 1000, 0.5);
-- issue 27: a tiny alpha keeps its precision (1 - 2·alpha rounded to 1 and was refused
-- as a confidence of 1): qnorm(1e-300, lower.tail = FALSE) = 37.0470963
SELECT round((detection_frequency / (sqrt(0.375 * 0.625 * 1e6) / (0.25 * 1e6)))::numeric, 6) AS z_of_1e_300
FROM rappor_privacy(2, 0.5, 0.25, 0.75, 1000000, alpha => 1e-300);

-- Text and binary round trips; ldp.summary casts
SELECT s::text::rappor_summary::text = s::text AS text_round_trip,
       substr(rappor_summary_send(s), 1, 6) AS stored_header,
       summary_send(s::summary) = rappor_summary_send(s) AS same_stored_form,
       summary_kind(s::summary), report_count(s::summary), mechanism(s::summary), epsilon(s::summary) = epsilon(s) AS same_epsilon,
       (s::summary)::rappor_summary::text = s::text AS cast_round_trip, s::summary::text = s::text AS summary_text
FROM rs;
SELECT 'v1:rappor{bits=4,hashes=1,cohorts=3,f=0.25,p=0.5,q=0.75,n=3,rows=2,cohort=[0,2],reports=[1,2],ones=[1,0,0,1,2,1,0,0]}'::summary AS via_summary_in;
SELECT regress_file('ldp_regress_rappor.bin') AS bin_file \gset
COPY rs TO :'bin_file' WITH (FORMAT binary);
CREATE TABLE rs_copy (LIKE rs);
COPY rs_copy FROM :'bin_file' WITH (FORMAT binary);
SELECT (SELECT s::text FROM rs_copy) = (SELECT s::text FROM rs) AS binary_round_trip;

-- Rollup of two halves equals the whole; forced parallel equals serial.
SELECT rollup(h)::text = (SELECT s::text FROM rs) AS halves_equal_whole
FROM (SELECT rappor_agg(cohort, report, 2, 8, 0.5, 0.25, 0.75) h FROM rr GROUP BY device % 2) x;
SELECT rollup(h)::text = (SELECT s::text FROM rs) AS cohort_parts_equal_whole
FROM (SELECT rappor_agg(cohort, report, 2, 8, 0.5, 0.25, 0.75) h FROM rr GROUP BY cohort) x;
SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2; CALL regress_force_parallel(true); SET parallel_leader_participation = off;
EXPLAIN (COSTS OFF) SELECT rappor_agg(cohort, report, 2, 8, 0.5, 0.25, 0.75) FROM rr;
SELECT rappor_agg(cohort, report, 2, 8, 0.5, 0.25, 0.75)::text = (SELECT s::text FROM rs) AS parallel_equals_serial FROM rr;
RESET parallel_setup_cost; RESET parallel_tuple_cost; RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather; CALL regress_force_parallel(false); RESET parallel_leader_participation;
-- parameters per row (not constants of the query) and many cohorts (the state grows)
SELECT report_count(rappor_agg(c, rappor_bloom('a', c, 8, 2), h, 200000, 0.5, 0.25, 0.75)) AS grown,
       (rappor_parameters(rappor_agg(c, rappor_bloom('a', c, 8, 2), h, 200000, 0.5, 0.25, 0.75))).reporting_cohorts
FROM (SELECT i * 37 AS c, 2 AS h FROM generate_series(1, 3000) i) x;
-- NULL reports are skipped
SELECT report_count(rappor_agg(c, r, 2, 8, 0.5, 0.25, 0.75))
FROM (VALUES (1, B'00000001'), (NULL, NULL), (2, B'10000000')) v(c, r);

-- A collection of RAPPOR reports: daily epochs closed by close_due_epochs; decoded
-- per epoch, over a range, and the whole range equals the whole population.
SELECT create_collection('rc', 'rr', 'at', '1 day', 'ldp.rappor_agg(cohort, report, 2, 8, 0.5, 0.25, 0.75)',
                         '2026-03-01 00:00+00');
SELECT kind FROM collections WHERE name = 'rc';
CALL close_due_epochs('rc');
SELECT count(*) FILTER (WHERE summary IS NOT NULL) AS days_with_reports FROM collection_epochs WHERE collection = 'rc';
SELECT from_epoch, to_epoch, epoch_start, item, round(count) AS count, detected
FROM collection_rappor_decode('rc', ARRAY['date', 'fig']) WHERE from_epoch < 3;
SELECT from_epoch, to_epoch, epoch_start, item, round(count) AS count, detected
FROM collection_rappor_decode('rc', ARRAY['date', 'fig'], 1, 2);
SELECT from_epoch, to_epoch, item, round(count) AS count, detected
FROM collection_rappor_decode('rc', ARRAY['date', 'cherry', 'fig'], 0, 4, per_epoch => false);
SELECT array_agg(w.count ORDER BY w.item) = array_agg(d.count ORDER BY d.item) AS whole_range_equals_whole
FROM collection_rappor_decode('rc', ARRAY['apple', 'banana', 'cherry', 'date'], per_epoch => false) w
JOIN (SELECT x.* FROM rs, rappor_decode(s, ARRAY['apple', 'banana', 'cherry', 'date']) x) d USING (item);
SELECT count(*) AS empty_range FROM collection_rappor_decode('rc', ARRAY['date'], 100, 200, false);
SELECT try_sql($$SELECT * FROM collection_rappor_decode('rc', ARRAY['date'], per_epoch => NULL)$$);
SELECT try_sql($$SELECT * FROM collection_heavy_hitters('rc')$$);
SELECT drop_collection('rc');

-- Errors: parameters 22023, reports 22000, text 22P02, bytes 22P03, another kind 42804.
SELECT try_sql($$SELECT rappor_bloom('a', 0, 0, 2)$$);
SELECT try_sql($$SELECT rappor_bloom('a', 0, 257, 2)$$);
SELECT try_sql($$SELECT rappor_bloom('a', 0, 16, 0)$$);
SELECT try_sql($$SELECT rappor_bloom('a', 0, 16, 17)$$);
SELECT try_sql($$SELECT rappor_bloom('a', -1, 16, 2)$$);
SELECT try_sql($$SELECT rappor_encode('a', 0, 'k', 16, 2, 1, 0.25, 0.75, 1)$$);
SELECT try_sql($$SELECT rappor_encode('a', 0, 'k', 16, 2, -0.1, 0.25, 0.75, 1)$$);
SELECT try_sql($$SELECT rappor_encode('a', 0, 'k', 16, 2, 0.5, 0.75, 0.75, 1)$$);
SELECT try_sql($$SELECT rappor_encode('a', 0, 'k', 16, 2, 0.5, 0.25, 1.5, 1)$$);
SELECT try_sql($$SELECT rappor_encode('a', 0, 'k', 16, 2, 0.5, 'NaN', 0.75, 1)$$);
SELECT try_sql($$SELECT rappor_encode('a', 0, 'k', 300, 2, 0.5, 0.25, 0.75, 1)$$);
SELECT try_sql($$SELECT rappor_agg(c, r, 2, 8, 0.5, 0.25, 0.75) FROM (VALUES (8, B'0001')) v(c, r)$$);
SELECT try_sql($$SELECT rappor_agg(c, r, 2, 8, 0.5, 0.25, 0.75) FROM (VALUES (-1, B'0001')) v(c, r)$$);
SELECT try_sql($$SELECT rappor_agg(c, r, 2, 8, 0.5, 0.25, 0.75) FROM (VALUES (1, B'0001'), (2, B'00001')) v(c, r)$$);
SELECT try_sql($$SELECT rappor_agg(c, r, 2, 8, 0.5, 0.25, 0.75) FROM (VALUES (1, NULL), (2, B'00001')) v(c, r)$$);
SELECT try_sql($$SELECT rappor_agg(c, r, 2, 8, 0.5, 0.25, 0.75) FROM (VALUES (1, ''::varbit)) v(c, r)$$);
SELECT try_sql($$SELECT rappor_agg(1, r, 2, 8, 0.5, 0.25, 0.75) FROM (VALUES (repeat('1', 257)::varbit)) v(r)$$);
SELECT try_sql($$SELECT rappor_agg(1, B'0001', 2, 0, 0.5, 0.25, 0.75)$$);
SELECT try_sql($$SELECT rappor_agg(1, B'0001', 2, 8, 0.5, 0.75, 0.25)$$);
SELECT try_sql($$SELECT rappor_agg(1, B'0001', 2, 8, 1, 0.25, 0.75)$$);
SELECT try_sql($$SELECT rappor_agg(1, B'0001', NULL, 8, 0.5, 0.25, 0.75)$$);
SELECT try_sql($$SELECT rappor_agg(1, B'0001', 2, 8, 0.5, 0.25, NULL)$$);
SELECT try_sql($$SELECT rappor_agg(1, B'0001', h, 8, 0.5, 0.25, 0.75) FROM (VALUES (2), (3)) v(h)$$);
SELECT try_sql($$SELECT rollup(s) FROM (VALUES ((SELECT rappor_agg(1, B'0001', 2, 8, 0.5, 0.25, 0.75))),
                                              ((SELECT rappor_agg(1, B'0001', 2, 9, 0.5, 0.25, 0.75)))) v(s)$$);
SELECT try_sql($$SELECT rollup(s) FROM (VALUES ((SELECT rappor_agg(1, B'0001', 2, 8, 0.5, 0.25, 0.75))),
                                              ((SELECT rappor_agg(1, B'00001', 2, 8, 0.5, 0.25, 0.75)))) v(s)$$);
SELECT try_sql($$SELECT * FROM rs, rappor_decode(s, ARRAY[]::text[])$$);
SELECT try_sql($$SELECT * FROM rs, rappor_decode(s, ARRAY['a', 'b', 'a'])$$);
SELECT try_sql($$SELECT * FROM rs, rappor_decode(s, ARRAY[NULL]::text[])$$);
SELECT try_sql($$SELECT * FROM rs, rappor_decode(s, ARRAY[['a'], ['b']])$$);
SELECT try_sql($$SELECT * FROM rappor_decode((SELECT rappor_agg(1, B'1', 2, 8, 0.5, 0.25, 0.75)), ARRAY['a'])$$);
SELECT try_sql($$SELECT * FROM rappor_privacy(0, 0.5, 0.25, 0.75)$$);
SELECT try_sql($$SELECT * FROM rappor_privacy(2, 1.5, 0.25, 0.75)$$);
SELECT try_sql($$SELECT * FROM rappor_privacy(2, 0.5, 0.25, 0.75, -1)$$);
SELECT try_sql($$SELECT * FROM rappor_privacy(2, 0.5, 0.25, 0.75, 100, 1)$$);
SELECT try_sql($$SELECT * FROM rappor_privacy(2, 0.5, 0.25, 0.75, 100, 0)$$);
SELECT try_sql($$SELECT 'v1:rappor{bits=4,hashes=1,cohorts=3,f=0.25,p=0.5,q=0.75,n=3,rows=2,cohort=[0,3],reports=[1,2],ones=[1,0,0,1,2,1,0,0]}'::rappor_summary$$);
SELECT try_sql($$SELECT 'v1:rappor{bits=4,hashes=1,cohorts=3,f=0.25,p=0.5,q=0.75,n=3,rows=2,cohort=[0,2],reports=[1,2],ones=[2,0,0,1,2,1,0,0]}'::rappor_summary$$);
SELECT try_sql($$SELECT 'v1:rappor{bits=4,hashes=1,cohorts=3,f=0.25,p=0.5,q=0.75,n=4,rows=2,cohort=[0,2],reports=[1,2],ones=[1,0,0,1,2,1,0,0]}'::rappor_summary$$);
SELECT try_sql($$SELECT 'v1:rappor{bits=4,hashes=1}'::rappor_summary$$);
SELECT try_sql($$SELECT 'v1:sue{epsilon=1}'::rappor_summary$$);
SELECT try_sql($$SELECT s::sketch_summary FROM rs$$);
SELECT try_sql($$SELECT (rr_agg(true, 1))::summary::rappor_summary$$);
-- bytes that are no RAPPOR summary (binary input): 22P03
CREATE TABLE rappor_raw (b bytea);
CREATE TABLE rappor_in (s rappor_summary);
INSERT INTO rappor_raw SELECT substr(rappor_summary_send(s), 1, 40) FROM rs;
SELECT regress_file('ldp_regress_rappor_raw.bin') AS raw_file \gset
COPY rappor_raw TO :'raw_file' WITH (FORMAT binary);
SELECT try_sql(format('COPY rappor_in FROM %L WITH (FORMAT binary)', :'raw_file'));
DROP TABLE rappor_raw, rappor_in, rs_copy;
-- epsilon of reports that show their Bloom filter (f = 0, p = 0, q = 1): NULL, also
-- through ldp.summary; rappor_privacy says Infinity
SELECT epsilon(s) IS NULL AS no_finite_epsilon, epsilon(s::summary) IS NULL AS via_summary,
       (SELECT epsilon_one FROM rappor_privacy(2, 0, 0, 1)) AS privacy_epsilon_one
FROM (SELECT rappor_agg(1, rappor_bloom('a', 1, 8, 2), 2, 4, 0, 0, 1) s) x;
SELECT 'v1:rappor{bits=4,hashes=1,cohorts=3,f=-0,p=-0,q=0.75,n=0,rows=0,cohort=[],reports=[],ones=[]}'::rappor_summary AS negative_zero_is_zero;
