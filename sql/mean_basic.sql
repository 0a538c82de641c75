-- Means and proportions: every aggregate and accessor on reports written by
-- hand (not by our encoders), checked against the formulas of docs/algorithms/means.md.
SET search_path = public, ldp;
SET extra_float_digits = 0;

-- 8 randomized-response reports, 6 true, epsilon = ln 3 (p = 3/4, q = 1/4):
-- estimate = (6/8 - 1/4) / (1/2) = 1, std_error = sqrt(0.75 * 0.25 / 8) / 0.5
CREATE TABLE rr_reports(report boolean);
INSERT INTO rr_reports VALUES (true),(true),(true),(false),(true),(true),(false),(true),(NULL);
SELECT rr_agg(report, ln(3)) FROM rr_reports;
SELECT estimate(s), std_error(s), sqrt(0.75 * 0.25 / 8) / 0.5 AS expected_std_error,
       report_count(s), epsilon(s), mechanism(s)
FROM (SELECT rr_agg(report, ln(3)) s FROM rr_reports) q;
SELECT ci_lower(s, 0.95), ci_upper(s, 0.95), ci_lower(s), ci_upper(s)
FROM (SELECT rr_agg(report, ln(3)) s FROM rr_reports) q;
-- The interval of a bit mechanism is Clopper-Pearson's for P(report = 1), mapped
-- through the decoding (here estimate = 2 P - 1/2): at its ends the binomial tails
-- of the 6 ones in 8 are exactly 2.5%, P(X >= 6 | P_lo) = P(X <= 6 | P_hi) = 0.025.
WITH ends AS (
  SELECT (ci_lower(s) + 0.5) / 2 AS p_lo, (ci_upper(s) + 0.5) / 2 AS p_hi
  FROM (SELECT rr_agg(report, ln(3)) s FROM rr_reports) q)
SELECT round(sum(CASE WHEN k >= 6 THEN choose * p_lo ^ k * (1 - p_lo) ^ (8 - k) END)::numeric, 12)
         AS upper_tail_at_lower_end,
       round(sum(CASE WHEN k <= 6 THEN choose * p_hi ^ k * (1 - p_hi) ^ (8 - k) END)::numeric, 12)
         AS lower_tail_at_upper_end
FROM ends, generate_series(0, 8) k,
     LATERAL (SELECT (factorial(8) / (factorial(k) * factorial(8 - k)))::float8 AS choose) c;
-- All 8 reports true: the Wald interval would be the point 1.5 (std_error 0); this
-- one keeps a width, its upper end at P = 1 and P(X = 8 | P_lo) = 0.025.
SELECT estimate(s), std_error(s), ci_upper(s),
       round((((ci_lower(s) + 0.5) / 2) ^ 8)::numeric, 12) AS tail_at_lower_end
FROM (SELECT rr_agg(true, ln(3)) s FROM generate_series(1, 8)) q;
-- Real-valued mechanisms: estimate -+ t * std_error, Student's t on n - 1 = 2
-- degrees of freedom (t = 4.302652729911275 at 95%)
SELECT round(((ci_upper(s) - estimate(s)) / std_error(s))::numeric, 8) AS t_upper,
       round(((estimate(s) - ci_lower(s)) / std_error(s))::numeric, 8) AS t_lower
FROM (SELECT laplace_mean_agg(y, 1, 100) s FROM (VALUES (10.0), (30.0), (80.0)) v(y)) q;
-- Any stored count gets a finite interval around its estimate (past 2^32 reports it
-- is Wilson's; n = 2^61 once made the Clopper-Pearson computation give up)
SELECT ci_lower(s) < estimate(s) AS below, ci_upper(s) > estimate(s) AS above,
       round(((ci_upper(s) - ci_lower(s)) / (2 * 1.959963984540054 * std_error(s)))::numeric, 3) AS width_in_normal_widths
FROM (SELECT 'v1:rr{epsilon=1,n=2305843009213693952,ones=70368744177667}'::mean_summary s) q;
-- Hoeffding: (e^eps+1)/(e^eps-1) sqrt(ln(2/delta)/(2n)) = 2 sqrt(ln(40)/16)
SELECT error_bound(s, 0.05), 2 * sqrt(ln(40) / 16) AS expected
FROM (SELECT rr_agg(report, ln(3)) s FROM rr_reports) q;

-- 1BitMean, m = 10, epsilon = ln 3: 10 reports, 7 ones.
-- estimate = (m/n) sum (b (e^eps+1) - 1)/(e^eps-1) = (10/10) (7*4 - 10)/2 = 9
CREATE TABLE onebit_reports(report boolean);
INSERT INTO onebit_reports SELECT i <= 7 FROM generate_series(1, 10) i;
SELECT estimate(s), std_error(s),
       10 * 2 * sqrt(0.7 * 0.3 / 10) AS expected_std_error,
       error_bound(s, 0.1), 10 / sqrt(20) * 2 * sqrt(ln(20)) AS expected_bound
FROM (SELECT onebit_mean_agg(report, ln(3), 10) s FROM onebit_reports) q;
-- with output perturbation gamma = 0.2: P(b=1) = (0.7 - 0.2)/0.6 = 5/6,
-- estimate = 10 (5/6 * 4 - 1)/2 = 11.666..., std_error scaled by 1/(1 - 2 gamma)
SELECT estimate(s), 10 * ((5.0/6) * 4 - 1) / 2 AS expected,
       std_error(s), 10 * 2 * sqrt(0.7 * 0.3 / 10) / 0.6 AS expected_std_error
FROM (SELECT onebit_mean_agg(report, ln(3), 10, 0.2) s FROM onebit_reports) q;
SELECT round(output_perturbation_epsilon(1, 0.2)::numeric, 4) AS eps_prime,
       output_perturbation_epsilon(1, 0) AS no_perturbation;

-- Laplace and piecewise: the estimate is the mean of the reports, the standard
-- error the sample standard deviation over sqrt(n).
CREATE TABLE real_reports(report float8);
INSERT INTO real_reports VALUES (-3.5), (12.25), (7), (0.5), (NULL), (4.75), (-1);
SELECT estimate(s), (SELECT avg(report) FROM real_reports) AS expected, std_error(s),
       (SELECT stddev_samp(report) / sqrt(count(report)) FROM real_reports) AS expected_std_error,
       report_count(s), error_bound(s, 0.05) AS laplace_has_no_bound
FROM (SELECT laplace_mean_agg(report, 1, 10) s FROM real_reports) q;
SELECT estimate(s), std_error(s), error_bound(s, 0.05),
       -- Hoeffding over the report range of width C*m, C = coth(eps/4)
       (1 / tanh(2.0 / 4)) * 10 * sqrt(ln(40) / 12) AS expected_bound
FROM (SELECT piecewise_mean_agg(report, 2, 10) s FROM real_reports) q;
-- one report: a mean but no standard error
SELECT estimate(s), std_error(s), ci_lower(s, 0.95)
FROM (SELECT laplace_mean_agg(report, 1, 10) s FROM real_reports WHERE report = 7) q;

-- empty input and all-NULL input give a NULL summary, like sum()
SELECT rr_agg(report, 1) IS NULL AS empty_is_null FROM rr_reports WHERE false;
SELECT rr_agg(NULL::boolean, 1) IS NULL AS nulls_are_null FROM generate_series(1, 3);
SELECT laplace_mean_agg(NULL::float8, 1, 1) IS NULL AS nulls_are_null FROM generate_series(1, 3);
-- accessors are strict
SELECT estimate(NULL::mean_summary), report_count(NULL::mean_summary);

-- rollup: grouped summaries merged equal the summary of all rows, bit for bit
CREATE TABLE usage_reports AS
SELECT i AS user_id, i % 7 AS day,
       onebit_mean_encode((i % 100)::float8, 1.0, 100, 0.1, 1000 + i) AS bit,
       laplace_mean_encode((i % 100)::float8, 1.0, 100, 2000 + i) AS lap,
       piecewise_mean_encode((i % 100)::float8, 1.0, 100, 3000 + i) AS pw
FROM generate_series(1, 20000) i;
CREATE TABLE daily AS
SELECT day, onebit_mean_agg(bit, 1.0, 100, 0.1) AS ob,
       laplace_mean_agg(lap, 1.0, 100) AS lp, piecewise_mean_agg(pw, 1.0, 100) AS pw
FROM usage_reports GROUP BY day;
SELECT (SELECT rollup(ob) FROM daily)::text = (SELECT onebit_mean_agg(bit, 1.0, 100, 0.1) FROM usage_reports)::text AS onebit_rollup_equal,
       (SELECT rollup(lp) FROM daily)::text = (SELECT laplace_mean_agg(lap, 1.0, 100) FROM usage_reports)::text AS laplace_rollup_equal,
       (SELECT rollup(pw) FROM daily)::text = (SELECT piecewise_mean_agg(pw, 1.0, 100) FROM usage_reports)::text AS piecewise_rollup_equal;
SELECT report_count(rollup(ob)), rollup(NULL::mean_summary) IS NULL AS null_rollup FROM daily;
-- the estimates are near the truth (mean of i % 100 = 49.5) within their intervals
SELECT mechanism(s), ci_lower(s, 0.999) < 49.5 AND 49.5 < ci_upper(s, 0.999) AS covers
FROM (SELECT rollup(ob) s FROM daily UNION ALL SELECT rollup(lp) FROM daily
      UNION ALL SELECT rollup(pw) FROM daily) q ORDER BY 1;

-- encoders: a seed makes a report reproducible; a NULL seed is random
SELECT rr_encode(true, 1, 42) = rr_encode(true, 1, 42) AS same,
       laplace_mean_encode(5, 1, 10, 7) = laplace_mean_encode(5, 1, 10, 7) AS same_laplace,
       piecewise_mean_encode(5, 1, 10, 7) = piecewise_mean_encode(5, 1, 10, 7) AS same_piecewise,
       onebit_mean_encode(5, 1, 10, 7) = onebit_mean_encode(5, 1, 10, 7) AS same_onebit;
SELECT count(DISTINCT laplace_mean_encode(5, 1, 10)) AS distinct_unseeded FROM generate_series(1, 10);
SELECT rr_encode(NULL, 1, 1) IS NULL AS null_value, laplace_mean_encode(1, NULL, 10, 1) IS NULL AS null_param;
-- a large simulated population through the SQL encoders recovers the truth
SELECT abs(estimate(s) - 0.3) < 4 * std_error(s) AS rr_within_4se
FROM (SELECT rr_agg(rr_encode(i % 10 < 3, 0.5, i), 0.5) s FROM generate_series(1, 100000) i) q;
