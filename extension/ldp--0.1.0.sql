-- ldp 0.1.0: decode local-differential-privacy reports into private statistics.
-- Everything lives in schema ldp (the control file creates it).
\echo Use "CREATE EXTENSION ldp" to load this file. \quit

------------------------------------------------------------------------------
-- ldp.mean_summary: the decoder state of the mean and proportion mechanisms
------------------------------------------------------------------------------

CREATE TYPE @extschema@.mean_summary;

CREATE FUNCTION @extschema@.mean_summary_in(cstring) RETURNS @extschema@.mean_summary
  AS 'MODULE_PATHNAME', 'ldp_mean_summary_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.mean_summary_out(@extschema@.mean_summary) RETURNS cstring
  AS 'MODULE_PATHNAME', 'ldp_mean_summary_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.mean_summary_recv(internal) RETURNS @extschema@.mean_summary
  AS 'MODULE_PATHNAME', 'ldp_mean_summary_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.mean_summary_send(@extschema@.mean_summary) RETURNS bytea
  AS 'MODULE_PATHNAME', 'ldp_mean_summary_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE @extschema@.mean_summary (
  INPUT = @extschema@.mean_summary_in,
  OUTPUT = @extschema@.mean_summary_out,
  RECEIVE = @extschema@.mean_summary_recv,
  SEND = @extschema@.mean_summary_send,
  INTERNALLENGTH = VARIABLE,
  ALIGNMENT = double,
  STORAGE = extended
);

COMMENT ON TYPE @extschema@.mean_summary IS
  'Decoder state of a mean or proportion mechanism (rr, onebit, laplace, piecewise): parameters, report count and exact sums. Text form v1:<mechanism>{...}; merge with ldp.rollup.';
COMMENT ON FUNCTION @extschema@.mean_summary_in(cstring) IS 'Text input of ldp.mean_summary (validated: malformed input raises 22P02).';
COMMENT ON FUNCTION @extschema@.mean_summary_out(@extschema@.mean_summary) IS 'Text output of ldp.mean_summary (lossless, versioned).';
COMMENT ON FUNCTION @extschema@.mean_summary_recv(internal) IS 'Binary input of ldp.mean_summary (validated: malformed input raises 22P03).';
COMMENT ON FUNCTION @extschema@.mean_summary_send(@extschema@.mean_summary) IS 'Binary output of ldp.mean_summary (lossless, versioned).';

-- Transition and combine functions (state = the summary itself, updated in place)

CREATE FUNCTION @extschema@.rr_trans(@extschema@.mean_summary, boolean, float8)
  RETURNS @extschema@.mean_summary
  AS 'MODULE_PATHNAME', 'ldp_rr_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.onebit_mean_trans(@extschema@.mean_summary, boolean, float8, float8)
  RETURNS @extschema@.mean_summary
  AS 'MODULE_PATHNAME', 'ldp_onebit_mean_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.onebit_mean_trans(@extschema@.mean_summary, boolean, float8, float8, float8)
  RETURNS @extschema@.mean_summary
  AS 'MODULE_PATHNAME', 'ldp_onebit_mean_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.laplace_mean_trans(@extschema@.mean_summary, float8, float8, float8)
  RETURNS @extschema@.mean_summary
  AS 'MODULE_PATHNAME', 'ldp_laplace_mean_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.piecewise_mean_trans(@extschema@.mean_summary, float8, float8, float8)
  RETURNS @extschema@.mean_summary
  AS 'MODULE_PATHNAME', 'ldp_piecewise_mean_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.mean_combine(@extschema@.mean_summary, @extschema@.mean_summary)
  RETURNS @extschema@.mean_summary
  AS 'MODULE_PATHNAME', 'ldp_mean_combine' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.rr_trans(@extschema@.mean_summary, boolean, float8) IS 'Transition function of ldp.rr_agg (aggregate context only).';
COMMENT ON FUNCTION @extschema@.onebit_mean_trans(@extschema@.mean_summary, boolean, float8, float8) IS 'Transition function of ldp.onebit_mean_agg (aggregate context only).';
COMMENT ON FUNCTION @extschema@.onebit_mean_trans(@extschema@.mean_summary, boolean, float8, float8, float8) IS 'Transition function of ldp.onebit_mean_agg with output perturbation gamma (aggregate context only).';
COMMENT ON FUNCTION @extschema@.laplace_mean_trans(@extschema@.mean_summary, float8, float8, float8) IS 'Transition function of ldp.laplace_mean_agg (aggregate context only).';
COMMENT ON FUNCTION @extschema@.piecewise_mean_trans(@extschema@.mean_summary, float8, float8, float8) IS 'Transition function of ldp.piecewise_mean_agg (aggregate context only).';
COMMENT ON FUNCTION @extschema@.mean_combine(@extschema@.mean_summary, @extschema@.mean_summary) IS 'Merges two mean summaries of the same mechanism and parameters (combine function of the mean aggregates and of ldp.rollup).';

-- Aggregates

CREATE AGGREGATE @extschema@.rr_agg(report boolean, epsilon float8) (
  SFUNC = @extschema@.rr_trans, STYPE = @extschema@.mean_summary,
  COMBINEFUNC = @extschema@.mean_combine, PARALLEL = SAFE);
CREATE AGGREGATE @extschema@.onebit_mean_agg(report boolean, epsilon float8, max_value float8) (
  SFUNC = @extschema@.onebit_mean_trans, STYPE = @extschema@.mean_summary,
  COMBINEFUNC = @extschema@.mean_combine, PARALLEL = SAFE);
CREATE AGGREGATE @extschema@.onebit_mean_agg(report boolean, epsilon float8, max_value float8, gamma float8) (
  SFUNC = @extschema@.onebit_mean_trans, STYPE = @extschema@.mean_summary,
  COMBINEFUNC = @extschema@.mean_combine, PARALLEL = SAFE);
CREATE AGGREGATE @extschema@.laplace_mean_agg(report float8, epsilon float8, max_value float8) (
  SFUNC = @extschema@.laplace_mean_trans, STYPE = @extschema@.mean_summary,
  COMBINEFUNC = @extschema@.mean_combine, PARALLEL = SAFE);
CREATE AGGREGATE @extschema@.piecewise_mean_agg(report float8, epsilon float8, max_value float8) (
  SFUNC = @extschema@.piecewise_mean_trans, STYPE = @extschema@.mean_summary,
  COMBINEFUNC = @extschema@.mean_combine, PARALLEL = SAFE);
CREATE AGGREGATE @extschema@.rollup(@extschema@.mean_summary) (
  SFUNC = @extschema@.mean_combine, STYPE = @extschema@.mean_summary,
  COMBINEFUNC = @extschema@.mean_combine, PARALLEL = SAFE);

COMMENT ON AGGREGATE @extschema@.rr_agg(boolean, float8) IS
  'Randomized response (Warner): summary estimating the proportion of true values from reports kept with probability e^eps/(e^eps+1).';
COMMENT ON AGGREGATE @extschema@.onebit_mean_agg(boolean, float8, float8) IS
  'Microsoft 1BitMean: summary estimating the mean of counters in [0, max_value] from 1-bit reports (also alpha-point rounded, memoized reports).';
COMMENT ON AGGREGATE @extschema@.onebit_mean_agg(boolean, float8, float8, float8) IS
  '1BitMean with output perturbation: each memoized bit flipped with probability gamma in [0, 0.5).';
COMMENT ON AGGREGATE @extschema@.laplace_mean_agg(float8, float8, float8) IS
  'Laplace mechanism (baseline): summary estimating the mean of values in [0, max_value] from value + Lap(max_value/epsilon) reports.';
COMMENT ON AGGREGATE @extschema@.piecewise_mean_agg(float8, float8, float8) IS
  'Piecewise mechanism (Wang et al. 2019) on [0, max_value]: summary estimating the mean; reports outside the mechanism''s range are rejected.';
COMMENT ON AGGREGATE @extschema@.rollup(@extschema@.mean_summary) IS
  'Merges mean summaries of the same mechanism and parameters (e.g. daily summaries into a weekly one).';

-- Accessors

CREATE FUNCTION @extschema@.estimate(@extschema@.mean_summary) RETURNS float8
  AS 'MODULE_PATHNAME', 'ldp_mean_estimate' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.std_error(@extschema@.mean_summary) RETURNS float8
  AS 'MODULE_PATHNAME', 'ldp_mean_std_error' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.ci_lower(@extschema@.mean_summary, confidence float8 DEFAULT 0.95) RETURNS float8
  AS 'MODULE_PATHNAME', 'ldp_mean_ci_lower' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.ci_upper(@extschema@.mean_summary, confidence float8 DEFAULT 0.95) RETURNS float8
  AS 'MODULE_PATHNAME', 'ldp_mean_ci_upper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.report_count(@extschema@.mean_summary) RETURNS bigint
  AS 'MODULE_PATHNAME', 'ldp_mean_report_count' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.epsilon(@extschema@.mean_summary) RETURNS float8
  AS 'MODULE_PATHNAME', 'ldp_mean_epsilon' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.mechanism(@extschema@.mean_summary) RETURNS text
  AS 'MODULE_PATHNAME', 'ldp_mean_mechanism' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.error_bound(@extschema@.mean_summary, delta float8) RETURNS float8
  AS 'MODULE_PATHNAME', 'ldp_mean_error_bound' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.output_perturbation_epsilon(epsilon float8, gamma float8) RETURNS float8
  AS 'MODULE_PATHNAME', 'ldp_output_perturbation_epsilon' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.estimate(@extschema@.mean_summary) IS 'Unbiased estimate of the mean (or proportion for rr); NULL for a summary of no reports.';
COMMENT ON FUNCTION @extschema@.std_error(@extschema@.mean_summary) IS 'Standard error of the estimate (bit mechanisms: closed form; laplace/piecewise: from the sample variance, NULL below 2 reports).';
COMMENT ON FUNCTION @extschema@.ci_lower(@extschema@.mean_summary, float8) IS 'Lower end of the two-sided normal confidence interval (default 95%).';
COMMENT ON FUNCTION @extschema@.ci_upper(@extschema@.mean_summary, float8) IS 'Upper end of the two-sided normal confidence interval (default 95%).';
COMMENT ON FUNCTION @extschema@.report_count(@extschema@.mean_summary) IS 'Number of (non-NULL) reports the summary counts.';
COMMENT ON FUNCTION @extschema@.epsilon(@extschema@.mean_summary) IS 'The mechanism''s epsilon (for onebit with gamma, the epsilon before output perturbation; see ldp.output_perturbation_epsilon).';
COMMENT ON FUNCTION @extschema@.mechanism(@extschema@.mean_summary) IS 'The mechanism that produced the reports: rr, onebit, laplace or piecewise.';
COMMENT ON FUNCTION @extschema@.error_bound(@extschema@.mean_summary, float8) IS 'Worst-case bound on |estimate - truth| holding with probability >= 1 - delta (1BitMean Theorem 1; Hoeffding for rr and piecewise; NULL for laplace).';
COMMENT ON FUNCTION @extschema@.output_perturbation_epsilon(float8, float8) IS 'Effective one-round epsilon of 1BitMean at epsilon followed by output perturbation gamma (seed 004 section 4).';

-- Encoders for simulation and tests (devices encode with the core SDK)

CREATE FUNCTION @extschema@.rr_encode(value boolean, epsilon float8, seed bigint DEFAULT NULL) RETURNS boolean
  AS 'MODULE_PATHNAME', 'ldp_rr_encode' LANGUAGE C VOLATILE PARALLEL SAFE;
CREATE FUNCTION @extschema@.onebit_mean_encode(value float8, epsilon float8, max_value float8, seed bigint DEFAULT NULL) RETURNS boolean
  AS 'MODULE_PATHNAME', 'ldp_onebit_mean_encode' LANGUAGE C VOLATILE PARALLEL SAFE;
CREATE FUNCTION @extschema@.onebit_mean_encode(value float8, epsilon float8, max_value float8, gamma float8, seed bigint) RETURNS boolean
  AS 'MODULE_PATHNAME', 'ldp_onebit_mean_encode' LANGUAGE C VOLATILE PARALLEL SAFE;
CREATE FUNCTION @extschema@.laplace_mean_encode(value float8, epsilon float8, max_value float8, seed bigint DEFAULT NULL) RETURNS float8
  AS 'MODULE_PATHNAME', 'ldp_laplace_mean_encode' LANGUAGE C VOLATILE PARALLEL SAFE;
CREATE FUNCTION @extschema@.piecewise_mean_encode(value float8, epsilon float8, max_value float8, seed bigint DEFAULT NULL) RETURNS float8
  AS 'MODULE_PATHNAME', 'ldp_piecewise_mean_encode' LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.rr_encode(boolean, float8, bigint) IS 'Simulation: a randomized-response report of value. A seed makes it reproducible (use a different seed per row); NULL seed: cryptographic randomness.';
COMMENT ON FUNCTION @extschema@.onebit_mean_encode(float8, float8, float8, bigint) IS 'Simulation: a 1BitMean report of value in [0, max_value]. Seed as in ldp.rr_encode.';
COMMENT ON FUNCTION @extschema@.onebit_mean_encode(float8, float8, float8, float8, bigint) IS 'Simulation: a 1BitMean report with output perturbation gamma. Seed as in ldp.rr_encode (required here; may be NULL).';
COMMENT ON FUNCTION @extschema@.laplace_mean_encode(float8, float8, float8, bigint) IS 'Simulation: value + Lap(max_value/epsilon) for value in [0, max_value]. Seed as in ldp.rr_encode.';
COMMENT ON FUNCTION @extschema@.piecewise_mean_encode(float8, float8, float8, bigint) IS 'Simulation: a piecewise-mechanism report (data units) of value in [0, max_value]. Seed as in ldp.rr_encode.';

------------------------------------------------------------------------------
-- ldp.freq_summary: the decoder state of the frequency oracles over [0, k)
------------------------------------------------------------------------------

CREATE TYPE @extschema@.freq_summary;

CREATE FUNCTION @extschema@.freq_summary_in(cstring) RETURNS @extschema@.freq_summary
  AS 'MODULE_PATHNAME', 'ldp_freq_summary_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.freq_summary_out(@extschema@.freq_summary) RETURNS cstring
  AS 'MODULE_PATHNAME', 'ldp_freq_summary_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.freq_summary_recv(internal) RETURNS @extschema@.freq_summary
  AS 'MODULE_PATHNAME', 'ldp_freq_summary_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.freq_summary_send(@extschema@.freq_summary) RETURNS bytea
  AS 'MODULE_PATHNAME', 'ldp_freq_summary_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE @extschema@.freq_summary (
  INPUT = @extschema@.freq_summary_in,
  OUTPUT = @extschema@.freq_summary_out,
  RECEIVE = @extschema@.freq_summary_recv,
  SEND = @extschema@.freq_summary_send,
  INTERNALLENGTH = VARIABLE,
  ALIGNMENT = double,
  STORAGE = extended
);

COMMENT ON TYPE @extschema@.freq_summary IS
  'Decoder state of a frequency oracle over items [0, k) (grr, sue, oue, dbitflip, olh, hadamard): parameters, report count and integer counters. Text form v1:<mechanism>{...}; merge with ldp.rollup.';
COMMENT ON FUNCTION @extschema@.freq_summary_in(cstring) IS 'Text input of ldp.freq_summary (validated: malformed input raises 22P02).';
COMMENT ON FUNCTION @extschema@.freq_summary_out(@extschema@.freq_summary) IS 'Text output of ldp.freq_summary (lossless, versioned).';
COMMENT ON FUNCTION @extschema@.freq_summary_recv(internal) IS 'Binary input of ldp.freq_summary (validated: malformed input raises 22P03).';
COMMENT ON FUNCTION @extschema@.freq_summary_send(@extschema@.freq_summary) IS 'Binary output of ldp.freq_summary (lossless, versioned).';

CREATE FUNCTION @extschema@.grr_trans(@extschema@.freq_summary, int, float8, int)
  RETURNS @extschema@.freq_summary
  AS 'MODULE_PATHNAME', 'ldp_grr_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.sue_trans(@extschema@.freq_summary, varbit, float8)
  RETURNS @extschema@.freq_summary
  AS 'MODULE_PATHNAME', 'ldp_sue_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.oue_trans(@extschema@.freq_summary, varbit, float8)
  RETURNS @extschema@.freq_summary
  AS 'MODULE_PATHNAME', 'ldp_oue_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.dbitflip_trans(@extschema@.freq_summary, int[], boolean[], float8, int)
  RETURNS @extschema@.freq_summary
  AS 'MODULE_PATHNAME', 'ldp_dbitflip_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.olh_trans(@extschema@.freq_summary, bigint, int, float8, int)
  RETURNS @extschema@.freq_summary
  AS 'MODULE_PATHNAME', 'ldp_olh_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.hadamard_trans(@extschema@.freq_summary, int, boolean, float8, int)
  RETURNS @extschema@.freq_summary
  AS 'MODULE_PATHNAME', 'ldp_hadamard_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.freq_combine(@extschema@.freq_summary, @extschema@.freq_summary)
  RETURNS @extschema@.freq_summary
  AS 'MODULE_PATHNAME', 'ldp_freq_combine' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.grr_trans(@extschema@.freq_summary, int, float8, int) IS 'Transition function of ldp.grr_agg (aggregate context only).';
COMMENT ON FUNCTION @extschema@.sue_trans(@extschema@.freq_summary, varbit, float8) IS 'Transition function of ldp.sue_agg (aggregate context only).';
COMMENT ON FUNCTION @extschema@.oue_trans(@extschema@.freq_summary, varbit, float8) IS 'Transition function of ldp.oue_agg (aggregate context only).';
COMMENT ON FUNCTION @extschema@.dbitflip_trans(@extschema@.freq_summary, int[], boolean[], float8, int) IS 'Transition function of ldp.dbitflip_agg (aggregate context only).';
COMMENT ON FUNCTION @extschema@.olh_trans(@extschema@.freq_summary, bigint, int, float8, int) IS 'Transition function of ldp.olh_agg (aggregate context only).';
COMMENT ON FUNCTION @extschema@.hadamard_trans(@extschema@.freq_summary, int, boolean, float8, int) IS 'Transition function of ldp.hadamard_agg (aggregate context only).';
COMMENT ON FUNCTION @extschema@.freq_combine(@extschema@.freq_summary, @extschema@.freq_summary) IS 'Merges two frequency summaries of the same mechanism and parameters (combine function of the frequency aggregates and of ldp.rollup).';

CREATE AGGREGATE @extschema@.grr_agg(report int, epsilon float8, k int) (
  SFUNC = @extschema@.grr_trans, STYPE = @extschema@.freq_summary,
  COMBINEFUNC = @extschema@.freq_combine, PARALLEL = SAFE);
CREATE AGGREGATE @extschema@.sue_agg(report varbit, epsilon float8) (
  SFUNC = @extschema@.sue_trans, STYPE = @extschema@.freq_summary,
  COMBINEFUNC = @extschema@.freq_combine, PARALLEL = SAFE);
CREATE AGGREGATE @extschema@.oue_agg(report varbit, epsilon float8) (
  SFUNC = @extschema@.oue_trans, STYPE = @extschema@.freq_summary,
  COMBINEFUNC = @extschema@.freq_combine, PARALLEL = SAFE);
CREATE AGGREGATE @extschema@.dbitflip_agg(buckets int[], bits boolean[], epsilon float8, k int) (
  SFUNC = @extschema@.dbitflip_trans, STYPE = @extschema@.freq_summary,
  COMBINEFUNC = @extschema@.freq_combine, PARALLEL = SAFE);
CREATE AGGREGATE @extschema@.olh_agg(seed bigint, report int, epsilon float8, k int) (
  SFUNC = @extschema@.olh_trans, STYPE = @extschema@.freq_summary,
  COMBINEFUNC = @extschema@.freq_combine, PARALLEL = SAFE);
CREATE AGGREGATE @extschema@.hadamard_agg("row" int, report boolean, epsilon float8, k int) (
  SFUNC = @extschema@.hadamard_trans, STYPE = @extschema@.freq_summary,
  COMBINEFUNC = @extschema@.freq_combine, PARALLEL = SAFE);
CREATE AGGREGATE @extschema@.rollup(@extschema@.freq_summary) (
  SFUNC = @extschema@.freq_combine, STYPE = @extschema@.freq_summary,
  COMBINEFUNC = @extschema@.freq_combine, PARALLEL = SAFE);

COMMENT ON AGGREGATE @extschema@.grr_agg(int, float8, int) IS 'Generalized randomized response (k-RR, KFlip) over items [0, k): frequency summary.';
COMMENT ON AGGREGATE @extschema@.sue_agg(varbit, float8) IS 'Symmetric unary encoding (basic one-time RAPPOR, BinFlip): k-bit reports, bit v = item v from the left; frequency summary.';
COMMENT ON AGGREGATE @extschema@.oue_agg(varbit, float8) IS 'Optimized unary encoding: k-bit reports; frequency summary.';
COMMENT ON AGGREGATE @extschema@.dbitflip_agg(int[], boolean[], float8, int) IS 'Microsoft dBitFlip (and dBitFlipPM): one row per report of d distinct buckets and their bits; frequency summary.';
COMMENT ON AGGREGATE @extschema@.olh_agg(bigint, int, float8, int) IS 'Optimized local hashing: (seed, report) pairs hashed with XXH32 as the public Python LDP libraries do; frequency summary.';
COMMENT ON AGGREGATE @extschema@.hadamard_agg(int, boolean, float8, int) IS 'Hadamard response: (row, +1/-1 report) pairs decoded with one fast Walsh-Hadamard transform; frequency summary.';
COMMENT ON AGGREGATE @extschema@.rollup(@extschema@.freq_summary) IS 'Merges frequency summaries of the same mechanism and parameters.';

CREATE FUNCTION @extschema@.frequencies(@extschema@.freq_summary, consistency text DEFAULT 'none')
  RETURNS TABLE(item int, frequency float8, count float8, std_error float8, ci_lower float8, ci_upper float8)
  AS 'MODULE_PATHNAME', 'ldp_freq_frequencies' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 1000;
CREATE FUNCTION @extschema@.frequency(@extschema@.freq_summary, item int) RETURNS float8
  AS 'MODULE_PATHNAME', 'ldp_freq_frequency' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.report_count(@extschema@.freq_summary) RETURNS bigint
  AS 'MODULE_PATHNAME', 'ldp_freq_report_count' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.epsilon(@extschema@.freq_summary) RETURNS float8
  AS 'MODULE_PATHNAME', 'ldp_freq_epsilon' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.mechanism(@extschema@.freq_summary) RETURNS text
  AS 'MODULE_PATHNAME', 'ldp_freq_mechanism' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.domain_size(@extschema@.freq_summary) RETURNS int
  AS 'MODULE_PATHNAME', 'ldp_freq_domain_size' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.frequencies(@extschema@.freq_summary, text) IS 'One row per item: frequency (fraction of reports), count, standard error and 95% interval. consistency: none (unbiased, default), clip (negatives to 0) or norm-sub (projection onto the probability simplex; intervals clipped to [0, 1]).';
COMMENT ON FUNCTION @extschema@.frequency(@extschema@.freq_summary, int) IS 'The unbiased frequency estimate of one item.';
COMMENT ON FUNCTION @extschema@.report_count(@extschema@.freq_summary) IS 'Number of (non-NULL) reports the summary counts.';
COMMENT ON FUNCTION @extschema@.epsilon(@extschema@.freq_summary) IS 'The mechanism''s epsilon.';
COMMENT ON FUNCTION @extschema@.mechanism(@extschema@.freq_summary) IS 'The frequency oracle: grr, sue, oue, dbitflip, olh or hadamard.';
COMMENT ON FUNCTION @extschema@.domain_size(@extschema@.freq_summary) IS 'The domain size k (items are 0 .. k-1).';

CREATE FUNCTION @extschema@.grr_encode(value int, epsilon float8, k int, seed bigint DEFAULT NULL) RETURNS int
  AS 'MODULE_PATHNAME', 'ldp_grr_encode' LANGUAGE C VOLATILE PARALLEL SAFE;
CREATE FUNCTION @extschema@.sue_encode(value int, epsilon float8, k int, seed bigint DEFAULT NULL) RETURNS varbit
  AS 'MODULE_PATHNAME', 'ldp_sue_encode' LANGUAGE C VOLATILE PARALLEL SAFE;
CREATE FUNCTION @extschema@.oue_encode(value int, epsilon float8, k int, seed bigint DEFAULT NULL) RETURNS varbit
  AS 'MODULE_PATHNAME', 'ldp_oue_encode' LANGUAGE C VOLATILE PARALLEL SAFE;
CREATE FUNCTION @extschema@.dbitflip_encode(value int, epsilon float8, k int, d int, seed bigint DEFAULT NULL,
                                           OUT buckets int[], OUT bits boolean[])
  AS 'MODULE_PATHNAME', 'ldp_dbitflip_encode' LANGUAGE C VOLATILE PARALLEL SAFE;
CREATE FUNCTION @extschema@.olh_encode(value int, epsilon float8, k int, rng_seed bigint DEFAULT NULL,
                                      OUT seed bigint, OUT report int)
  AS 'MODULE_PATHNAME', 'ldp_olh_encode' LANGUAGE C VOLATILE PARALLEL SAFE;
CREATE FUNCTION @extschema@.hadamard_encode(value int, epsilon float8, k int, seed bigint DEFAULT NULL,
                                           OUT "row" int, OUT report boolean)
  AS 'MODULE_PATHNAME', 'ldp_hadamard_encode' LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.grr_encode(int, float8, int, bigint) IS 'Simulation: a GRR report of item value in [0, k). Seed as in ldp.rr_encode.';
COMMENT ON FUNCTION @extschema@.sue_encode(int, float8, int, bigint) IS 'Simulation: a k-bit SUE report of item value. Seed as in ldp.rr_encode.';
COMMENT ON FUNCTION @extschema@.oue_encode(int, float8, int, bigint) IS 'Simulation: a k-bit OUE report of item value. Seed as in ldp.rr_encode.';
COMMENT ON FUNCTION @extschema@.dbitflip_encode(int, float8, int, int, bigint) IS 'Simulation: a dBitFlip report (d distinct buckets and their bits) of item value. Seed as in ldp.rr_encode.';
COMMENT ON FUNCTION @extschema@.olh_encode(int, float8, int, bigint) IS 'Simulation: an OLH report (hash seed and hashed, randomized value) of item value; rng_seed makes it reproducible.';
COMMENT ON FUNCTION @extschema@.hadamard_encode(int, float8, int, bigint) IS 'Simulation: a Hadamard-response report (row, +1/-1 as boolean) of item value. Seed as in ldp.rr_encode.';
