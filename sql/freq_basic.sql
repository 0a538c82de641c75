-- Frequency oracles: every aggregate and accessor on reports written by hand,
-- checked against the formulas of docs/algorithms/frequency.md.
SET search_path = public, ldp;
SET extra_float_digits = 0;

-- GRR, k = 4, eps = ln 3: p = 3/(3+3) = 1/2, q = 1/6. Counts [6,2,1,3] of n = 12:
-- f = (C/n - 1/6) * 3 = [1, 0, -0.25, 0.25]
CREATE TABLE grr_reports(report int);
INSERT INTO grr_reports SELECT unnest(ARRAY[0,0,0,0,0,0,1,1,2,3,3,3]);
INSERT INTO grr_reports VALUES (NULL);
SELECT grr_agg(report, ln(3), 4) FROM grr_reports;
SELECT f.* FROM (SELECT grr_agg(report, ln(3), 4) s FROM grr_reports) q, frequencies(s) f;
-- closed-form standard error of item 0: q(1-q)/(n(p-q)^2) + f(1-p-q)/(n(p-q)), f = 1
SELECT sqrt((1.0/6) * (5.0/6) / (12 * (1.0/3)^2) + 1 * (1 - 0.5 - 1.0/6) / (12 * (1.0/3))) AS expected_se0;
SELECT item, round(frequency::numeric, 12) AS frequency FROM (SELECT grr_agg(report, ln(3), 4) s FROM grr_reports) q, frequencies(s, 'clip') ORDER BY item;
SELECT item, round(frequency::numeric, 12) AS frequency, ci_lower >= 0 AND ci_upper <= 1 AS clipped_interval
FROM (SELECT grr_agg(report, ln(3), 4) s FROM grr_reports) q, frequencies(s, 'norm-sub') ORDER BY item;
SELECT frequency(s, 0), frequency(s, 2), report_count(s), epsilon(s), mechanism(s), domain_size(s)
FROM (SELECT grr_agg(report, ln(3), 4) s FROM grr_reports) q;

-- SUE, k = 3, eps = 2 ln 3 (e^{eps/2} = 3): p = 3/4, q = 1/4; OUE, eps = ln 3: p = 1/2, q = 1/4.
-- Reports 100, 110, 001, 100: counts [3, 1, 1] of n = 4.
CREATE TABLE unary_reports(report varbit);
INSERT INTO unary_reports VALUES (B'100'), (B'110'), (B'001'), (B'100'), (NULL);
SELECT item, frequency, count FROM (SELECT sue_agg(report, 2 * ln(3)) s FROM unary_reports) q, frequencies(s);
SELECT item, frequency, count FROM (SELECT oue_agg(report, ln(3)) s FROM unary_reports) q, frequencies(s);

-- dBitFlip, k = 4, d = 2, eps = 2 ln 3 (w = 3): h(v) = (k/(n d)) (ones (w+1) - holders)/(w-1)
-- holders [2,2,2,2], ones [2,0,0,1] -> [1.5, -0.5, -0.5, 0.5]
CREATE TABLE dbf_reports(buckets int[], bits boolean[]);
INSERT INTO dbf_reports VALUES ('{0,1}', '{t,f}'), ('{0,2}', '{t,f}'), ('{1,3}', '{f,t}'), ('{2,3}', '{f,f}'), (NULL, NULL);
SELECT dbitflip_agg(buckets, bits, 2 * ln(3), 4) FROM dbf_reports;
SELECT item, frequency FROM (SELECT dbitflip_agg(buckets, bits, 2 * ln(3), 4) s FROM dbf_reports) q, frequencies(s);

-- Hadamard, k = 3 (K = 4), eps = ln 3: c = (3+1)/(3-1) = 2; rows (0,+1), (1,-1), (2,+1), (3,+1):
-- S = [1,-1,1,1]; f(v) = c/n * sum_j (-1)^popcount(j & (v+1)) S[j] = [1, -1, 1]
CREATE TABLE had_reports("row" int, report boolean);
INSERT INTO had_reports VALUES (0, true), (1, false), (2, true), (3, true);
SELECT hadamard_agg("row", report, ln(3), 3) FROM had_reports;
SELECT item, frequency FROM (SELECT hadamard_agg("row", report, ln(3), 3) s FROM had_reports) q, frequencies(s);

-- OLH: hashes are checked against the public Python library in the unit tests;
-- here, reports from our encoder decode near the truth.
CREATE TABLE olh_reports AS
SELECT (olh_encode(CASE WHEN i % 10 < 5 THEN 0 WHEN i % 10 < 8 THEN 1 ELSE 2 + i % 6 END, 2.0, 8, i)).*
FROM generate_series(1, 20000) i;
SELECT item, abs(frequency - CASE item WHEN 0 THEN 0.5 WHEN 1 THEN 0.3 ELSE 0.2 / 6 END) < 4 * std_error AS near_truth
FROM (SELECT olh_agg(seed, report, 2.0, 8) s FROM olh_reports) q, frequencies(s) ORDER BY item;

-- every encoder: a simulated population (item 0: 1/2; items 1, 3, 5, 7: 1/8 each) decodes near the truth
CREATE TABLE pop AS SELECT i, CASE WHEN i % 2 = 0 THEN 0 ELSE i % 8 END AS v FROM generate_series(1, 20000) i;
WITH s AS (
  SELECT 'grr' m, grr_agg(grr_encode(v, 2.0, 8, i), 2.0, 8) s FROM pop
  UNION ALL SELECT 'sue', sue_agg(sue_encode(v, 2.0, 8, i), 2.0) FROM pop
  UNION ALL SELECT 'oue', oue_agg(oue_encode(v, 2.0, 8, i), 2.0) FROM pop
  UNION ALL SELECT 'dbitflip', dbitflip_agg(e.buckets, e.bits, 2.0, 8) FROM pop, dbitflip_encode(v, 2.0, 8, 3, i) e
  UNION ALL SELECT 'hadamard', hadamard_agg(e."row", e.report, 2.0, 8) FROM pop, hadamard_encode(v, 2.0, 8, i) e)
SELECT m, bool_and(abs(f.frequency - CASE WHEN f.item = 0 THEN 0.5 WHEN f.item % 2 = 1 THEN 0.125 ELSE 0 END) < 4.5 * f.std_error) AS all_near_truth,
       round(sum(f.frequency)::numeric, 9) AS total
FROM s, frequencies(s.s) f GROUP BY m ORDER BY m;

-- encoders are reproducible with a seed
SELECT grr_encode(3, 1, 8, 5) = grr_encode(3, 1, 8, 5) AS grr, sue_encode(3, 1, 8, 5) = sue_encode(3, 1, 8, 5) AS sue,
       oue_encode(3, 1, 8, 5) = oue_encode(3, 1, 8, 5) AS oue,
       dbitflip_encode(3, 1, 8, 2, 5) = dbitflip_encode(3, 1, 8, 2, 5) AS dbitflip,
       olh_encode(3, 1, 8, 5) = olh_encode(3, 1, 8, 5) AS olh, hadamard_encode(3, 1, 8, 5) = hadamard_encode(3, 1, 8, 5) AS hadamard;
SELECT length(sue_encode(3, 1, 8, 5)) AS bits, cardinality((dbitflip_encode(3, 1, 8, 2, 5)).buckets) AS d;

-- empty input, NULL reports, rollup of grouped summaries equals the total
SELECT grr_agg(report, 1, 4) IS NULL AS empty FROM grr_reports WHERE false;
SELECT (SELECT rollup(s) FROM (SELECT i % 5 g, grr_agg(grr_encode(v, 1, 8, i), 1, 8) s FROM pop GROUP BY g) q)::text
     = (SELECT grr_agg(grr_encode(v, 1, 8, i), 1, 8) FROM pop)::text AS grr_rollup_equal,
       (SELECT rollup(s) FROM (SELECT i % 5 g, hadamard_agg(e."row", e.report, 1, 8) s FROM pop, hadamard_encode(v, 1, 8, i) e GROUP BY g) q)::text
     = (SELECT hadamard_agg(e."row", e.report, 1, 8) FROM pop, hadamard_encode(v, 1, 8, i) e)::text AS hadamard_rollup_equal;
