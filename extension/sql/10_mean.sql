------------------------------------------------------------------------------
-- Means and proportions → ldp.mean_summary (00_types.sql): rr, onebit (1BitMean,
-- with or without output perturbation), laplace and piecewise. Transition and
-- combine functions, the aggregates, the accessors and the encoders.
------------------------------------------------------------------------------

-- Transition and combine functions (state = the summary itself, updated in place)

CREATE FUNCTION @extschema@.rr_trans(@extschema@.mean_summary, boolean, float8)
  RETURNS @extschema@.mean_summary
  AS 'MODULE_PATHNAME', 'ldp_rr_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.rr_trans(@extschema@.mean_summary, boolean, float8) IS 'Transition function of ldp.rr_agg (aggregate context only).';
CREATE FUNCTION @extschema@.onebit_mean_trans(@extschema@.mean_summary, boolean, float8, float8)
  RETURNS @extschema@.mean_summary
  AS 'MODULE_PATHNAME', 'ldp_onebit_mean_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.onebit_mean_trans(@extschema@.mean_summary, boolean, float8, float8) IS 'Transition function of ldp.onebit_mean_agg (aggregate context only).';
CREATE FUNCTION @extschema@.onebit_mean_trans(@extschema@.mean_summary, boolean, float8, float8, float8)
  RETURNS @extschema@.mean_summary
  AS 'MODULE_PATHNAME', 'ldp_onebit_mean_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.onebit_mean_trans(@extschema@.mean_summary, boolean, float8, float8, float8) IS 'Transition function of ldp.onebit_mean_agg with output perturbation gamma (aggregate context only).';
CREATE FUNCTION @extschema@.laplace_mean_trans(@extschema@.mean_summary, float8, float8, float8)
  RETURNS @extschema@.mean_summary
  AS 'MODULE_PATHNAME', 'ldp_laplace_mean_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.laplace_mean_trans(@extschema@.mean_summary, float8, float8, float8) IS 'Transition function of ldp.laplace_mean_agg (aggregate context only).';
CREATE FUNCTION @extschema@.piecewise_mean_trans(@extschema@.mean_summary, float8, float8, float8)
  RETURNS @extschema@.mean_summary
  AS 'MODULE_PATHNAME', 'ldp_piecewise_mean_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.piecewise_mean_trans(@extschema@.mean_summary, float8, float8, float8) IS 'Transition function of ldp.piecewise_mean_agg (aggregate context only).';
CREATE FUNCTION @extschema@.mean_combine(@extschema@.mean_summary, @extschema@.mean_summary)
  RETURNS @extschema@.mean_summary
  AS 'MODULE_PATHNAME', 'ldp_mean_combine' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.mean_combine(@extschema@.mean_summary, @extschema@.mean_summary) IS 'Merges two mean summaries of the same mechanism and parameters (combine function of the mean aggregates and of ldp.rollup).';

-- Real-valued summaries are stored in their compact binary form (about 100 bytes
-- instead of 1.2 KB): a final function packs what the aggregates and rollup
-- return. Summaries stored by earlier versions stay readable as they are.
CREATE FUNCTION @extschema@.mean_final(@extschema@.mean_summary) RETURNS @extschema@.mean_summary
  AS 'MODULE_PATHNAME', 'ldp_mean_final' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.mean_final(@extschema@.mean_summary) IS 'Final function of ldp.laplace_mean_agg, ldp.piecewise_mean_agg and ldp.rollup(mean_summary): the summary in its stored form (real-valued mechanisms: the compact binary form).';

-- Aggregates

CREATE AGGREGATE @extschema@.rr_agg(report boolean, epsilon float8) (
  SFUNC = @extschema@.rr_trans, STYPE = @extschema@.mean_summary,
  COMBINEFUNC = @extschema@.mean_combine, PARALLEL = SAFE);
COMMENT ON AGGREGATE @extschema@.rr_agg(boolean, float8) IS
  'Randomized response (Warner): summary estimating the proportion of true values from reports kept with probability e^eps/(e^eps+1).';
CREATE AGGREGATE @extschema@.onebit_mean_agg(report boolean, epsilon float8, max_value float8) (
  SFUNC = @extschema@.onebit_mean_trans, STYPE = @extschema@.mean_summary,
  COMBINEFUNC = @extschema@.mean_combine, PARALLEL = SAFE);
COMMENT ON AGGREGATE @extschema@.onebit_mean_agg(boolean, float8, float8) IS
  'Microsoft 1BitMean: summary estimating the mean of counters in [0, max_value] from 1-bit reports (also alpha-point rounded, memoized reports).';
CREATE AGGREGATE @extschema@.onebit_mean_agg(report boolean, epsilon float8, max_value float8, gamma float8) (
  SFUNC = @extschema@.onebit_mean_trans, STYPE = @extschema@.mean_summary,
  COMBINEFUNC = @extschema@.mean_combine, PARALLEL = SAFE);
COMMENT ON AGGREGATE @extschema@.onebit_mean_agg(boolean, float8, float8, float8) IS
  '1BitMean with output perturbation: each memoized bit flipped with probability gamma in [0, 0.5).';
CREATE AGGREGATE @extschema@.laplace_mean_agg(report float8, epsilon float8, max_value float8) (
  SFUNC = @extschema@.laplace_mean_trans, STYPE = @extschema@.mean_summary,
  FINALFUNC = @extschema@.mean_final, COMBINEFUNC = @extschema@.mean_combine, PARALLEL = SAFE);
COMMENT ON AGGREGATE @extschema@.laplace_mean_agg(float8, float8, float8) IS
  'Laplace mechanism (baseline): summary estimating the mean of values in [0, max_value] from value + Lap(max_value/epsilon) reports.';
CREATE AGGREGATE @extschema@.piecewise_mean_agg(report float8, epsilon float8, max_value float8) (
  SFUNC = @extschema@.piecewise_mean_trans, STYPE = @extschema@.mean_summary,
  FINALFUNC = @extschema@.mean_final, COMBINEFUNC = @extschema@.mean_combine, PARALLEL = SAFE);
COMMENT ON AGGREGATE @extschema@.piecewise_mean_agg(float8, float8, float8) IS
  'Piecewise mechanism (Wang et al. 2019) on [0, max_value]: summary estimating the mean; reports outside the mechanism''s range are rejected.';
CREATE AGGREGATE @extschema@.rollup(@extschema@.mean_summary) (
  SFUNC = @extschema@.mean_combine, STYPE = @extschema@.mean_summary,
  FINALFUNC = @extschema@.mean_final, COMBINEFUNC = @extschema@.mean_combine, PARALLEL = SAFE);
COMMENT ON AGGREGATE @extschema@.rollup(@extschema@.mean_summary) IS
  'Merges mean summaries of the same mechanism and parameters (e.g. daily summaries into a weekly one).';

-- Accessors

CREATE FUNCTION @extschema@.estimate(@extschema@.mean_summary) RETURNS float8
  AS 'MODULE_PATHNAME', 'ldp_mean_estimate' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.estimate(@extschema@.mean_summary) IS 'Unbiased estimate of the mean (or proportion for rr); NULL for a summary of no reports.';
CREATE FUNCTION @extschema@.std_error(@extschema@.mean_summary) RETURNS float8
  AS 'MODULE_PATHNAME', 'ldp_mean_std_error' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.std_error(@extschema@.mean_summary) IS 'Standard error of the estimate (bit mechanisms: closed form; laplace/piecewise: from the sample variance, NULL below 2 reports).';
CREATE FUNCTION @extschema@.ci_lower(@extschema@.mean_summary, confidence float8 DEFAULT 0.95) RETURNS float8
  AS 'MODULE_PATHNAME', 'ldp_mean_ci_lower' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ci_lower(@extschema@.mean_summary, float8) IS 'Lower end of the two-sided confidence interval (default 95%): bit mechanisms (rr, onebit) map the Clopper-Pearson interval of the share of 1 reports through the decoding (coverage at least the confidence for every n); laplace and piecewise use estimate - t * std_error, Student''s t on n - 1 degrees of freedom. NULL without reports (real-valued: fewer than 2).';
CREATE FUNCTION @extschema@.ci_upper(@extschema@.mean_summary, confidence float8 DEFAULT 0.95) RETURNS float8
  AS 'MODULE_PATHNAME', 'ldp_mean_ci_upper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.ci_upper(@extschema@.mean_summary, float8) IS 'Upper end of the two-sided confidence interval (default 95%): bit mechanisms (rr, onebit) map the Clopper-Pearson interval of the share of 1 reports through the decoding (coverage at least the confidence for every n); laplace and piecewise use estimate + t * std_error, Student''s t on n - 1 degrees of freedom. NULL without reports (real-valued: fewer than 2).';
CREATE FUNCTION @extschema@.report_count(@extschema@.mean_summary) RETURNS bigint
  AS 'MODULE_PATHNAME', 'ldp_mean_report_count' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.report_count(@extschema@.mean_summary) IS 'Number of (non-NULL) reports the summary counts.';
CREATE FUNCTION @extschema@.epsilon(@extschema@.mean_summary) RETURNS float8
  AS 'MODULE_PATHNAME', 'ldp_mean_epsilon' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.epsilon(@extschema@.mean_summary) IS 'The mechanism''s epsilon (for onebit with gamma, the epsilon before output perturbation; see ldp.output_perturbation_epsilon).';
CREATE FUNCTION @extschema@.mechanism(@extschema@.mean_summary) RETURNS text
  AS 'MODULE_PATHNAME', 'ldp_mean_mechanism' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.mechanism(@extschema@.mean_summary) IS 'The mechanism that produced the reports: rr, onebit, laplace or piecewise.';
CREATE FUNCTION @extschema@.error_bound(@extschema@.mean_summary, delta float8) RETURNS float8
  AS 'MODULE_PATHNAME', 'ldp_mean_error_bound' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.error_bound(@extschema@.mean_summary, float8) IS 'Worst-case bound on |estimate - truth| holding with probability >= 1 - delta (1BitMean Theorem 1; Hoeffding for rr and piecewise; NULL for laplace).';
CREATE FUNCTION @extschema@.output_perturbation_epsilon(epsilon float8, gamma float8) RETURNS float8
  AS 'MODULE_PATHNAME', 'ldp_output_perturbation_epsilon' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.output_perturbation_epsilon(float8, float8) IS 'Effective one-round epsilon of 1BitMean at epsilon followed by output perturbation gamma (Ding et al. 2017, section 4; docs/algorithms/means.md#output-perturbation).';

-- Encoders for simulation and tests (devices encode with the core SDK)

CREATE FUNCTION @extschema@.rr_encode(value boolean, epsilon float8, seed bigint DEFAULT NULL) RETURNS boolean
  AS 'MODULE_PATHNAME', 'ldp_rr_encode' LANGUAGE C VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.rr_encode(boolean, float8, bigint) IS 'Simulation: a randomized-response report of value. A seed makes it reproducible (use a different seed per row); NULL seed: cryptographic randomness.';
CREATE FUNCTION @extschema@.onebit_mean_encode(value float8, epsilon float8, max_value float8, seed bigint DEFAULT NULL) RETURNS boolean
  AS 'MODULE_PATHNAME', 'ldp_onebit_mean_encode' LANGUAGE C VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.onebit_mean_encode(float8, float8, float8, bigint) IS 'Simulation: a 1BitMean report of value in [0, max_value]. Seed as in ldp.rr_encode.';
CREATE FUNCTION @extschema@.onebit_mean_encode(value float8, epsilon float8, max_value float8, gamma float8, seed bigint) RETURNS boolean
  AS 'MODULE_PATHNAME', 'ldp_onebit_mean_encode' LANGUAGE C VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.onebit_mean_encode(float8, float8, float8, float8, bigint) IS 'Simulation: a 1BitMean report with output perturbation gamma. Seed as in ldp.rr_encode (required here; may be NULL).';
CREATE FUNCTION @extschema@.laplace_mean_encode(value float8, epsilon float8, max_value float8, seed bigint DEFAULT NULL) RETURNS float8
  AS 'MODULE_PATHNAME', 'ldp_laplace_mean_encode' LANGUAGE C VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.laplace_mean_encode(float8, float8, float8, bigint) IS 'Simulation: value + Lap(max_value/epsilon) for value in [0, max_value]. Seed as in ldp.rr_encode.';
CREATE FUNCTION @extschema@.piecewise_mean_encode(value float8, epsilon float8, max_value float8, seed bigint DEFAULT NULL) RETURNS float8
  AS 'MODULE_PATHNAME', 'ldp_piecewise_mean_encode' LANGUAGE C VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.piecewise_mean_encode(float8, float8, float8, bigint) IS 'Simulation: a piecewise-mechanism report (data units) of value in [0, max_value]. Seed as in ldp.rr_encode.';
