------------------------------------------------------------------------------
-- The two summary types: the decoder states the aggregates return and the
-- accessors read. Everything lives in schema ldp (the control file creates it).
------------------------------------------------------------------------------

-- ldp.mean_summary: the decoder state of the mean and proportion mechanisms
-- (10_mean.sql)

CREATE TYPE @extschema@.mean_summary;

CREATE FUNCTION @extschema@.mean_summary_in(cstring) RETURNS @extschema@.mean_summary
  AS 'MODULE_PATHNAME', 'ldp_mean_summary_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.mean_summary_in(cstring) IS 'Text input of ldp.mean_summary (validated: malformed input raises 22P02).';
CREATE FUNCTION @extschema@.mean_summary_out(@extschema@.mean_summary) RETURNS cstring
  AS 'MODULE_PATHNAME', 'ldp_mean_summary_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.mean_summary_out(@extschema@.mean_summary) IS 'Text output of ldp.mean_summary (lossless, versioned).';
CREATE FUNCTION @extschema@.mean_summary_recv(internal) RETURNS @extschema@.mean_summary
  AS 'MODULE_PATHNAME', 'ldp_mean_summary_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.mean_summary_recv(internal) IS 'Binary input of ldp.mean_summary (validated: malformed input raises 22P03).';
CREATE FUNCTION @extschema@.mean_summary_send(@extschema@.mean_summary) RETURNS bytea
  AS 'MODULE_PATHNAME', 'ldp_mean_summary_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.mean_summary_send(@extschema@.mean_summary) IS 'Binary output of ldp.mean_summary (lossless, versioned).';

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

-- ldp.freq_summary: the decoder state of the frequency oracles over [0, k)
-- (20_freq.sql)

CREATE TYPE @extschema@.freq_summary;

CREATE FUNCTION @extschema@.freq_summary_in(cstring) RETURNS @extschema@.freq_summary
  AS 'MODULE_PATHNAME', 'ldp_freq_summary_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.freq_summary_in(cstring) IS 'Text input of ldp.freq_summary (validated: malformed input raises 22P02).';
CREATE FUNCTION @extschema@.freq_summary_out(@extschema@.freq_summary) RETURNS cstring
  AS 'MODULE_PATHNAME', 'ldp_freq_summary_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.freq_summary_out(@extschema@.freq_summary) IS 'Text output of ldp.freq_summary (lossless, versioned).';
CREATE FUNCTION @extschema@.freq_summary_recv(internal) RETURNS @extschema@.freq_summary
  AS 'MODULE_PATHNAME', 'ldp_freq_summary_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.freq_summary_recv(internal) IS 'Binary input of ldp.freq_summary (validated: malformed input raises 22P03).';
CREATE FUNCTION @extschema@.freq_summary_send(@extschema@.freq_summary) RETURNS bytea
  AS 'MODULE_PATHNAME', 'ldp_freq_summary_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.freq_summary_send(@extschema@.freq_summary) IS 'Binary output of ldp.freq_summary (lossless, versioned).';

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

------------------------------------------------------------------------------
-- ldp.summary: any summary of any kind in the stored form (format 2, or 3 with compact
-- counters; its header names the kind), with casts to and from each kind's own type and the accessors
-- every kind has. What a collection keeps per epoch (40_collections.sql).
------------------------------------------------------------------------------
CREATE TYPE @extschema@.summary;
CREATE FUNCTION @extschema@.summary_in(cstring) RETURNS @extschema@.summary
  AS 'MODULE_PATHNAME', 'ldp_summary_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.summary_out(@extschema@.summary) RETURNS cstring
  AS 'MODULE_PATHNAME', 'ldp_summary_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.summary_recv(internal) RETURNS @extschema@.summary
  AS 'MODULE_PATHNAME', 'ldp_summary_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.summary_send(@extschema@.summary) RETURNS bytea
  AS 'MODULE_PATHNAME', 'ldp_summary_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE TYPE @extschema@.summary (
  INPUT = @extschema@.summary_in,
  OUTPUT = @extschema@.summary_out,
  RECEIVE = @extschema@.summary_recv,
  SEND = @extschema@.summary_send,
  INTERNALLENGTH = VARIABLE,
  ALIGNMENT = double,
  STORAGE = extended
);
COMMENT ON TYPE @extschema@.summary IS 'Any ldp summary (a mean, a frequency oracle, ...): the text and binary forms of its kind; cast it to its kind''s type (ldp.mean_summary, ldp.freq_summary, ldp.sketch_summary, ldp.heavy_summary, ldp.rappor_summary) for that kind''s accessors.';
COMMENT ON FUNCTION @extschema@.summary_in(cstring) IS 'Input of ldp.summary: the text form of any summary kind (the mechanism''s name tells the kind).';
COMMENT ON FUNCTION @extschema@.summary_out(@extschema@.summary) IS 'Output of ldp.summary: the text form of its kind.';
COMMENT ON FUNCTION @extschema@.summary_recv(internal) IS 'Binary input of ldp.summary: the stored form of any kind (format 2, or 3 with compact counters; its header names the kind).';
COMMENT ON FUNCTION @extschema@.summary_send(@extschema@.summary) IS 'Binary output of ldp.summary: the stored form of its kind (format 2 for means and frequency oracles, 3 with compact counters for sketches, heavy hitters and RAPPOR).';

CREATE FUNCTION @extschema@.summary(@extschema@.mean_summary) RETURNS @extschema@.summary
  AS 'MODULE_PATHNAME', 'ldp_summary_from_mean' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.summary(@extschema@.freq_summary) RETURNS @extschema@.summary
  AS 'MODULE_PATHNAME', 'ldp_summary_from_freq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.mean_summary(@extschema@.summary) RETURNS @extschema@.mean_summary
  AS 'MODULE_PATHNAME', 'ldp_summary_to_mean' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.freq_summary(@extschema@.summary) RETURNS @extschema@.freq_summary
  AS 'MODULE_PATHNAME', 'ldp_summary_to_freq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (@extschema@.mean_summary AS @extschema@.summary)
  WITH FUNCTION @extschema@.summary(@extschema@.mean_summary) AS ASSIGNMENT;
CREATE CAST (@extschema@.freq_summary AS @extschema@.summary)
  WITH FUNCTION @extschema@.summary(@extschema@.freq_summary) AS ASSIGNMENT;
CREATE CAST (@extschema@.summary AS @extschema@.mean_summary)
  WITH FUNCTION @extschema@.mean_summary(@extschema@.summary);
CREATE CAST (@extschema@.summary AS @extschema@.freq_summary)
  WITH FUNCTION @extschema@.freq_summary(@extschema@.summary);
COMMENT ON FUNCTION @extschema@.summary(@extschema@.mean_summary) IS 'A mean summary as an ldp.summary (the cast mean_summary -> summary).';
COMMENT ON FUNCTION @extschema@.summary(@extschema@.freq_summary) IS 'A frequency summary as an ldp.summary (the cast freq_summary -> summary).';
COMMENT ON FUNCTION @extschema@.mean_summary(@extschema@.summary) IS 'An ldp.summary of kind mean as ldp.mean_summary (42804 for another kind).';
COMMENT ON FUNCTION @extschema@.freq_summary(@extschema@.summary) IS 'An ldp.summary of kind frequency as ldp.freq_summary (42804 for another kind).';

CREATE FUNCTION @extschema@.summary_kind(@extschema@.summary) RETURNS text
  AS 'MODULE_PATHNAME', 'ldp_summary_kind' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.report_count(@extschema@.summary) RETURNS bigint
  AS 'MODULE_PATHNAME', 'ldp_summary_report_count' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.epsilon(@extschema@.summary) RETURNS float8
  AS 'MODULE_PATHNAME', 'ldp_summary_epsilon' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.mechanism(@extschema@.summary) RETURNS text
  AS 'MODULE_PATHNAME', 'ldp_summary_mechanism' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.summary_kind(@extschema@.summary) IS 'The kind of a summary: its row in ldp.summary_kinds (mean, frequency, sketch, heavy, rappor, range).';
COMMENT ON FUNCTION @extschema@.report_count(@extschema@.summary) IS 'Number of reports summarized.';
COMMENT ON FUNCTION @extschema@.epsilon(@extschema@.summary) IS 'The privacy parameter the reports were made with.';
COMMENT ON FUNCTION @extschema@.mechanism(@extschema@.summary) IS 'The mechanism''s name, as in the text form.';
