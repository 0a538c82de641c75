------------------------------------------------------------------------------
-- RAPPOR (Google's Bloom-filter reports, docs/algorithms/rappor.md) → ldp.rappor_summary: the
-- type, its casts to ldp.summary and its row of ldp.summary_kinds, the aggregate and
-- its rollup, the accessors, the decoder against candidate strings, the privacy
-- figures, the encoders and the collection reader.
------------------------------------------------------------------------------

CREATE TYPE @extschema@.rappor_summary;

CREATE FUNCTION @extschema@.rappor_summary_in(cstring) RETURNS @extschema@.rappor_summary
  AS 'MODULE_PATHNAME', 'ldp_rappor_summary_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.rappor_summary_in(cstring) IS 'Text input of ldp.rappor_summary, v1:rappor{...} (validated: malformed input raises 22P02).';
CREATE FUNCTION @extschema@.rappor_summary_out(@extschema@.rappor_summary) RETURNS cstring
  AS 'MODULE_PATHNAME', 'ldp_rappor_summary_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.rappor_summary_out(@extschema@.rappor_summary) IS 'Text output of ldp.rappor_summary (lossless, versioned): v1:rappor{bits=..,hashes=..,cohorts=..,f=..,p=..,q=..,n=..,rows=..,cohort=[..],reports=[..],ones=[..]}.';
CREATE FUNCTION @extschema@.rappor_summary_recv(internal) RETURNS @extschema@.rappor_summary
  AS 'MODULE_PATHNAME', 'ldp_rappor_summary_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.rappor_summary_recv(internal) IS 'Binary input of ldp.rappor_summary: the stored form (format 3; malformed input raises 22P03).';
CREATE FUNCTION @extschema@.rappor_summary_send(@extschema@.rappor_summary) RETURNS bytea
  AS 'MODULE_PATHNAME', 'ldp_rappor_summary_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.rappor_summary_send(@extschema@.rappor_summary) IS 'Binary output of ldp.rappor_summary: the stored form (format 3, compact counters).';

CREATE TYPE @extschema@.rappor_summary (
  INPUT = @extschema@.rappor_summary_in,
  OUTPUT = @extschema@.rappor_summary_out,
  RECEIVE = @extschema@.rappor_summary_recv,
  SEND = @extschema@.rappor_summary_send,
  INTERNALLENGTH = VARIABLE,
  ALIGNMENT = double,
  STORAGE = extended
);
COMMENT ON TYPE @extschema@.rappor_summary IS
  'Decoder state of RAPPOR reports (google/rappor''s sum_bits counts file): the parameters (bits, hashes, cohorts, f, p, q), the report count, and per cohort with reports its report count and its per-bit counts; integer-only. Merge with ldp.rollup, decode with ldp.rappor_decode.';

-- ldp.summary casts and the summary kind

CREATE FUNCTION @extschema@.summary(@extschema@.rappor_summary) RETURNS @extschema@.summary
  AS 'MODULE_PATHNAME', 'ldp_summary_from_rappor' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.rappor_summary(@extschema@.summary) RETURNS @extschema@.rappor_summary
  AS 'MODULE_PATHNAME', 'ldp_summary_to_rappor' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (@extschema@.rappor_summary AS @extschema@.summary)
  WITH FUNCTION @extschema@.summary(@extschema@.rappor_summary) AS ASSIGNMENT;
CREATE CAST (@extschema@.summary AS @extschema@.rappor_summary)
  WITH FUNCTION @extschema@.rappor_summary(@extschema@.summary);
COMMENT ON FUNCTION @extschema@.summary(@extschema@.rappor_summary) IS 'A RAPPOR summary as an ldp.summary (the cast rappor_summary -> summary).';
COMMENT ON FUNCTION @extschema@.rappor_summary(@extschema@.summary) IS 'An ldp.summary of kind rappor as ldp.rappor_summary (42804 for another kind).';

INSERT INTO @extschema@.summary_kinds VALUES
  ('rappor', '@extschema@.rappor_summary', '@extschema@.collection_rappor_decode(text, text[], bigint, bigint, boolean)',
   'RAPPOR (Google''s Bloom-filter reports), decoded against candidate strings.');

-- Transition and combine functions (state = the summary itself, updated in place)

CREATE FUNCTION @extschema@.rappor_trans(@extschema@.rappor_summary, int, varbit, int, int, float8, float8, float8)
  RETURNS @extschema@.rappor_summary
  AS 'MODULE_PATHNAME', 'ldp_rappor_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.rappor_trans(@extschema@.rappor_summary, int, varbit, int, int, float8, float8, float8) IS 'Transition function of ldp.rappor_agg (aggregate context only).';
CREATE FUNCTION @extschema@.rappor_combine(@extschema@.rappor_summary, @extschema@.rappor_summary)
  RETURNS @extschema@.rappor_summary
  AS 'MODULE_PATHNAME', 'ldp_rappor_combine' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.rappor_combine(@extschema@.rappor_summary, @extschema@.rappor_summary) IS 'Merges two RAPPOR summaries of the same parameters (combine function of ldp.rappor_agg and of ldp.rollup).';

-- Aggregates

CREATE AGGREGATE @extschema@.rappor_agg(cohort int, report varbit, hashes int, cohorts int, f float8, p float8, q float8) (
  SFUNC = @extschema@.rappor_trans, STYPE = @extschema@.rappor_summary,
  COMBINEFUNC = @extschema@.rappor_combine, PARALLEL = SAFE);
COMMENT ON AGGREGATE @extschema@.rappor_agg(int, varbit, int, int, float8, float8, float8) IS 'RAPPOR: (cohort, report) pairs, the report a varbit in the order google/rappor''s clients print it (its length is the Bloom filter''s bits, 1 to 256), of hashes in [1, 16], cohorts in [1, 2^31 - 1], f in [0, 1), p < q in [0, 1]; RAPPOR summary.';
CREATE AGGREGATE @extschema@.rollup(@extschema@.rappor_summary) (
  SFUNC = @extschema@.rappor_combine, STYPE = @extschema@.rappor_summary,
  COMBINEFUNC = @extschema@.rappor_combine, PARALLEL = SAFE);
COMMENT ON AGGREGATE @extschema@.rollup(@extschema@.rappor_summary) IS 'Merges RAPPOR summaries of the same parameters (counters add up).';

-- Accessors

CREATE FUNCTION @extschema@.rappor_decode(@extschema@.rappor_summary, candidates text[])
  RETURNS TABLE(item text, count float8, std_error float8, proportion float8, ci_lower float8, ci_upper float8,
                detected boolean)
  AS 'MODULE_PATHNAME', 'ldp_rappor_decode' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 1000;
COMMENT ON FUNCTION @extschema@.rappor_decode(@extschema@.rappor_summary, text[]) IS 'decode.R''s pipeline against candidate strings, deterministic: one row per element of candidates in array order (a NULL element: a row of NULLs; duplicates or no candidate: 22023); count and std_error in reports, proportion = count / reports, the 95% interval in proportion units clamped to [0, 1], detected by decode.R''s rule (count > 2 std_error).';
CREATE FUNCTION @extschema@.rappor_privacy(hashes int, f float8, p float8, q float8, reports bigint DEFAULT NULL,
                                          alpha float8 DEFAULT 0.05,
                                          OUT epsilon_one float8, OUT epsilon_inf float8, OUT detection_frequency float8)
  AS 'MODULE_PATHNAME', 'ldp_rappor_privacy' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.rappor_privacy(int, float8, float8, float8, bigint, float8) IS 'decode.R''s ComputePrivacyGuarantees for any f, p, q in [0, 1]: epsilon of one report, epsilon of infinitely many (the PRR), Infinity where R gives it; the smallest proportion detectable at level alpha among `reports` reports (NULL without reports or when p >= q).';
CREATE FUNCTION @extschema@.report_count(@extschema@.rappor_summary) RETURNS bigint
  AS 'MODULE_PATHNAME', 'ldp_rappor_report_count' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.report_count(@extschema@.rappor_summary) IS 'Number of (non-NULL) reports the summary counts.';
CREATE FUNCTION @extschema@.epsilon(@extschema@.rappor_summary) RETURNS float8
  AS 'MODULE_PATHNAME', 'ldp_rappor_epsilon' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.epsilon(@extschema@.rappor_summary) IS 'The epsilon of one report (decode.R''s eps_one; ldp.rappor_privacy gives the PRR''s too); NULL when it is not finite (f = 0 with p = 0 or q = 1).';
CREATE FUNCTION @extschema@.mechanism(@extschema@.rappor_summary) RETURNS text
  AS 'MODULE_PATHNAME', 'ldp_rappor_mechanism' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.mechanism(@extschema@.rappor_summary) IS 'The mechanism: rappor.';
CREATE FUNCTION @extschema@.rappor_parameters(@extschema@.rappor_summary, OUT bits int, OUT hashes int, OUT cohorts int,
                                             OUT f float8, OUT p float8, OUT q float8, OUT reporting_cohorts bigint)
  AS 'MODULE_PATHNAME', 'ldp_rappor_parameters' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.rappor_parameters(@extschema@.rappor_summary) IS 'The parameters the reports were made with, and how many cohorts have reports.';

-- Encoders for simulation and tests (devices encode with the core SDK)

CREATE FUNCTION @extschema@.rappor_bloom(item text, cohort int, bits int, hashes int) RETURNS varbit
  AS 'MODULE_PATHNAME', 'ldp_rappor_bloom' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.rappor_bloom(text, int, int, int) IS 'The Bloom filter of google/rappor''s Python client (MD5 of the big-endian cohort and the item''s UTF-8 bytes; bits in [1, 256], hashes in [1, 16]), leftmost bit = Bloom bit bits - 1.';
CREATE FUNCTION @extschema@.rappor_encode(item text, cohort int, secret bytea, bits int, hashes int, f float8, p float8,
                                         q float8, seed bigint DEFAULT NULL) RETURNS varbit
  AS 'MODULE_PATHNAME', 'ldp_rappor_encode' LANGUAGE C VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.rappor_encode(text, int, bytea, int, int, float8, float8, float8, bigint) IS 'Simulation: a RAPPOR report of google/rappor''s Python client: the PRR memoized by the device''s secret (HMAC-SHA256), then a fresh IRR. The seed drives the IRR only (NULL: the kernel''s random source).';

-- Collections of RAPPOR reports: decoded per closed epoch, or over a range of them.

CREATE FUNCTION @extschema@.collection_rappor_decode(name text, candidates text[], first_epoch bigint DEFAULT NULL,
                                                    last_epoch bigint DEFAULT NULL, per_epoch boolean DEFAULT true)
  RETURNS TABLE(from_epoch bigint, to_epoch bigint, epoch_start timestamptz, item text, count float8,
                std_error float8, proportion float8, ci_lower float8, ci_upper float8, detected boolean)
  LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  c @extschema@.collections := @extschema@.collection_of_kind(name, 'rappor');
  lo bigint := first_epoch;
  hi bigint := last_epoch;
BEGIN
  IF per_epoch IS NULL THEN
    RAISE EXCEPTION 'per_epoch must not be NULL' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF per_epoch THEN
    RETURN QUERY
      SELECT ce.epoch, ce.epoch, ce.epoch_start, d.item, d.count, d.std_error, d.proportion, d.ci_lower, d.ci_upper,
             d.detected
      FROM @extschema@.collection_epochs ce
      CROSS JOIN LATERAL @extschema@.rappor_decode(ce.summary::@extschema@.rappor_summary, candidates) WITH ORDINALITY AS d
      WHERE ce.collection = c.name AND ce.epoch >= coalesce(lo, ce.epoch) AND ce.epoch <= coalesce(hi, ce.epoch)
      ORDER BY ce.epoch, d.ordinality;
  ELSE
    RETURN QUERY
      SELECT r.lo_epoch, r.hi_epoch, r.start, d.item, d.count, d.std_error, d.proportion, d.ci_lower, d.ci_upper,
             d.detected
      FROM (SELECT pg_catalog.min(ce.epoch) AS lo_epoch, pg_catalog.max(ce.epoch) AS hi_epoch,
                   pg_catalog.min(ce.epoch_start) AS start,
                   @extschema@.rollup(ce.summary::@extschema@.rappor_summary) AS s
            FROM @extschema@.collection_epochs ce
            WHERE ce.collection = c.name AND ce.summary IS NOT NULL
              AND ce.epoch >= coalesce(lo, ce.epoch) AND ce.epoch <= coalesce(hi, ce.epoch)) r
      CROSS JOIN LATERAL @extschema@.rappor_decode(r.s, candidates) WITH ORDINALITY AS d
      ORDER BY d.ordinality;
  END IF;
END $$;
COMMENT ON FUNCTION @extschema@.collection_rappor_decode(text, text[], bigint, bigint, boolean) IS 'A RAPPOR collection decoded against candidates (columns of ldp.rappor_decode), over its closed epochs from first_epoch to last_epoch (NULL: unbounded): per epoch (from_epoch = to_epoch = the epoch; epochs without reports have no rows), or with per_epoch => false once, for the rollup of the range (from_epoch and to_epoch: the range''s first and last epochs with reports; no rows when none has). Needs the read privilege.';
