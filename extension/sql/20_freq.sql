------------------------------------------------------------------------------
-- Frequency oracles over items [0, k) → ldp.freq_summary (00_types.sql): grr,
-- sue, oue, dbitflip, olh and hadamard. Transition, combine and final functions,
-- the aggregates, the accessors and the encoders.
------------------------------------------------------------------------------

-- Transition and combine functions (state = the summary itself, updated in place)

CREATE FUNCTION @extschema@.grr_trans(@extschema@.freq_summary, int, float8, int)
  RETURNS @extschema@.freq_summary
  AS 'MODULE_PATHNAME', 'ldp_grr_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.grr_trans(@extschema@.freq_summary, int, float8, int) IS 'Transition function of ldp.grr_agg (aggregate context only).';
CREATE FUNCTION @extschema@.sue_trans(@extschema@.freq_summary, varbit, float8)
  RETURNS @extschema@.freq_summary
  AS 'MODULE_PATHNAME', 'ldp_sue_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.sue_trans(@extschema@.freq_summary, varbit, float8) IS 'Transition function of ldp.sue_agg (aggregate context only).';
CREATE FUNCTION @extschema@.oue_trans(@extschema@.freq_summary, varbit, float8)
  RETURNS @extschema@.freq_summary
  AS 'MODULE_PATHNAME', 'ldp_oue_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.oue_trans(@extschema@.freq_summary, varbit, float8) IS 'Transition function of ldp.oue_agg (aggregate context only).';
CREATE FUNCTION @extschema@.dbitflip_trans(@extschema@.freq_summary, int[], boolean[], float8, int)
  RETURNS @extschema@.freq_summary
  AS 'MODULE_PATHNAME', 'ldp_dbitflip_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.dbitflip_trans(@extschema@.freq_summary, int[], boolean[], float8, int) IS 'Transition function of ldp.dbitflip_agg (aggregate context only).';
CREATE FUNCTION @extschema@.olh_trans(@extschema@.freq_summary, bigint, int, float8, int)
  RETURNS @extschema@.freq_summary
  AS 'MODULE_PATHNAME', 'ldp_olh_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.olh_trans(@extschema@.freq_summary, bigint, int, float8, int) IS 'Transition function of ldp.olh_agg (aggregate context only).';
CREATE FUNCTION @extschema@.hadamard_trans(@extschema@.freq_summary, int, boolean, float8, int)
  RETURNS @extschema@.freq_summary
  AS 'MODULE_PATHNAME', 'ldp_hadamard_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.hadamard_trans(@extschema@.freq_summary, int, boolean, float8, int) IS 'Transition function of ldp.hadamard_agg (aggregate context only).';
CREATE FUNCTION @extschema@.freq_combine(@extschema@.freq_summary, @extschema@.freq_summary)
  RETURNS @extschema@.freq_summary
  AS 'MODULE_PATHNAME', 'ldp_freq_combine' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.freq_combine(@extschema@.freq_summary, @extschema@.freq_summary) IS 'Merges two frequency summaries of the same mechanism and parameters (combine function of the frequency aggregates and of ldp.rollup).';

-- SUE and OUE count reports in a byte-wide pending area of their state; a final
-- function returns the summary without it.
CREATE FUNCTION @extschema@.freq_final(@extschema@.freq_summary) RETURNS @extschema@.freq_summary
  AS 'MODULE_PATHNAME', 'ldp_freq_final' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.freq_final(@extschema@.freq_summary) IS 'Final function of ldp.sue_agg and ldp.oue_agg: the summary with its pending counts added.';

-- Aggregates

CREATE AGGREGATE @extschema@.grr_agg(report int, epsilon float8, k int) (
  SFUNC = @extschema@.grr_trans, STYPE = @extschema@.freq_summary,
  COMBINEFUNC = @extschema@.freq_combine, PARALLEL = SAFE);
COMMENT ON AGGREGATE @extschema@.grr_agg(int, float8, int) IS 'Generalized randomized response (k-RR, KFlip) over items [0, k): frequency summary.';
CREATE AGGREGATE @extschema@.sue_agg(report varbit, epsilon float8) (
  SFUNC = @extschema@.sue_trans, STYPE = @extschema@.freq_summary,
  FINALFUNC = @extschema@.freq_final, COMBINEFUNC = @extschema@.freq_combine, PARALLEL = SAFE);
COMMENT ON AGGREGATE @extschema@.sue_agg(varbit, float8) IS 'Symmetric unary encoding (basic one-time RAPPOR, BinFlip): k-bit reports, bit v = item v from the left; frequency summary.';
CREATE AGGREGATE @extschema@.oue_agg(report varbit, epsilon float8) (
  SFUNC = @extschema@.oue_trans, STYPE = @extschema@.freq_summary,
  FINALFUNC = @extschema@.freq_final, COMBINEFUNC = @extschema@.freq_combine, PARALLEL = SAFE);
COMMENT ON AGGREGATE @extschema@.oue_agg(varbit, float8) IS 'Optimized unary encoding: k-bit reports; frequency summary.';
CREATE AGGREGATE @extschema@.dbitflip_agg(buckets int[], bits boolean[], epsilon float8, k int) (
  SFUNC = @extschema@.dbitflip_trans, STYPE = @extschema@.freq_summary,
  COMBINEFUNC = @extschema@.freq_combine, PARALLEL = SAFE);
COMMENT ON AGGREGATE @extschema@.dbitflip_agg(int[], boolean[], float8, int) IS 'Microsoft dBitFlip (and dBitFlipPM): one row per report of d distinct buckets and their bits; frequency summary.';
CREATE AGGREGATE @extschema@.olh_agg(seed bigint, report int, epsilon float8, k int) (
  SFUNC = @extschema@.olh_trans, STYPE = @extschema@.freq_summary,
  COMBINEFUNC = @extschema@.freq_combine, PARALLEL = SAFE);
COMMENT ON AGGREGATE @extschema@.olh_agg(bigint, int, float8, int) IS 'Optimized local hashing: (seed, report) pairs hashed with XXH32 as the public Python LDP libraries do; frequency summary.';
CREATE AGGREGATE @extschema@.hadamard_agg("row" int, report boolean, epsilon float8, k int) (
  SFUNC = @extschema@.hadamard_trans, STYPE = @extschema@.freq_summary,
  COMBINEFUNC = @extschema@.freq_combine, PARALLEL = SAFE);
COMMENT ON AGGREGATE @extschema@.hadamard_agg(int, boolean, float8, int) IS 'Hadamard response: (row, +1/-1 report) pairs decoded with one fast Walsh-Hadamard transform; frequency summary.';
CREATE AGGREGATE @extschema@.rollup(@extschema@.freq_summary) (
  SFUNC = @extschema@.freq_combine, STYPE = @extschema@.freq_summary,
  COMBINEFUNC = @extschema@.freq_combine, PARALLEL = SAFE);
COMMENT ON AGGREGATE @extschema@.rollup(@extschema@.freq_summary) IS 'Merges frequency summaries of the same mechanism and parameters.';

-- Accessors

CREATE FUNCTION @extschema@.frequencies(@extschema@.freq_summary, consistency text DEFAULT 'none')
  RETURNS TABLE(item int, frequency float8, count float8, std_error float8, ci_lower float8, ci_upper float8)
  AS 'MODULE_PATHNAME', 'ldp_freq_frequencies' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 1000;
COMMENT ON FUNCTION @extschema@.frequencies(@extschema@.freq_summary, text) IS 'One row per item: frequency (fraction of reports), count, standard error and 95% interval. consistency: none (unbiased, default), clip (negatives to 0) or norm-sub (projection onto the probability simplex); under clip and norm-sub the intervals are clipped to [0, 1].';
CREATE FUNCTION @extschema@.frequency(@extschema@.freq_summary, item int) RETURNS float8
  AS 'MODULE_PATHNAME', 'ldp_freq_frequency' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.frequency(@extschema@.freq_summary, int) IS 'The unbiased frequency estimate of one item.';
CREATE FUNCTION @extschema@.report_count(@extschema@.freq_summary) RETURNS bigint
  AS 'MODULE_PATHNAME', 'ldp_freq_report_count' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.report_count(@extschema@.freq_summary) IS 'Number of (non-NULL) reports the summary counts.';
CREATE FUNCTION @extschema@.epsilon(@extschema@.freq_summary) RETURNS float8
  AS 'MODULE_PATHNAME', 'ldp_freq_epsilon' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.epsilon(@extschema@.freq_summary) IS 'The mechanism''s epsilon.';
CREATE FUNCTION @extschema@.mechanism(@extschema@.freq_summary) RETURNS text
  AS 'MODULE_PATHNAME', 'ldp_freq_mechanism' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.mechanism(@extschema@.freq_summary) IS 'The frequency oracle: grr, sue, oue, dbitflip, olh or hadamard.';
CREATE FUNCTION @extschema@.domain_size(@extschema@.freq_summary) RETURNS int
  AS 'MODULE_PATHNAME', 'ldp_freq_domain_size' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.domain_size(@extschema@.freq_summary) IS 'The domain size k (items are 0 .. k-1).';

-- Encoders for simulation and tests (devices encode with the core SDK)

CREATE FUNCTION @extschema@.grr_encode(value int, epsilon float8, k int, seed bigint DEFAULT NULL) RETURNS int
  AS 'MODULE_PATHNAME', 'ldp_grr_encode' LANGUAGE C VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.grr_encode(int, float8, int, bigint) IS 'Simulation: a GRR report of item value in [0, k). Seed as in ldp.rr_encode.';
CREATE FUNCTION @extschema@.sue_encode(value int, epsilon float8, k int, seed bigint DEFAULT NULL) RETURNS varbit
  AS 'MODULE_PATHNAME', 'ldp_sue_encode' LANGUAGE C VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.sue_encode(int, float8, int, bigint) IS 'Simulation: a k-bit SUE report of item value. Seed as in ldp.rr_encode.';
CREATE FUNCTION @extschema@.oue_encode(value int, epsilon float8, k int, seed bigint DEFAULT NULL) RETURNS varbit
  AS 'MODULE_PATHNAME', 'ldp_oue_encode' LANGUAGE C VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.oue_encode(int, float8, int, bigint) IS 'Simulation: a k-bit OUE report of item value. Seed as in ldp.rr_encode.';
CREATE FUNCTION @extschema@.dbitflip_encode(value int, epsilon float8, k int, d int, seed bigint DEFAULT NULL,
                                           OUT buckets int[], OUT bits boolean[])
  AS 'MODULE_PATHNAME', 'ldp_dbitflip_encode' LANGUAGE C VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.dbitflip_encode(int, float8, int, int, bigint) IS 'Simulation: a dBitFlip report (d distinct buckets and their bits) of item value. Seed as in ldp.rr_encode.';
CREATE FUNCTION @extschema@.olh_encode(value int, epsilon float8, k int, rng_seed bigint DEFAULT NULL,
                                      OUT seed bigint, OUT report int)
  AS 'MODULE_PATHNAME', 'ldp_olh_encode' LANGUAGE C VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.olh_encode(int, float8, int, bigint) IS 'Simulation: an OLH report (hash seed and hashed, randomized value) of item value; rng_seed makes it reproducible.';
CREATE FUNCTION @extschema@.hadamard_encode(value int, epsilon float8, k int, seed bigint DEFAULT NULL,
                                           OUT "row" int, OUT report boolean)
  AS 'MODULE_PATHNAME', 'ldp_hadamard_encode' LANGUAGE C VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.hadamard_encode(int, float8, int, bigint) IS 'Simulation: a Hadamard-response report (row, +1/-1 as boolean) of item value. Seed as in ldp.rr_encode.';
