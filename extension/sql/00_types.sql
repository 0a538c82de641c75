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
