------------------------------------------------------------------------------
-- Numeric distributions → ldp.range_summary: range counts, CDFs and quantiles of one real
-- value per device (HaarHRR and hierarchical histograms, hh, Cormode, Kulkarni and
-- Srivastava, VLDB 2019), or its shape (Square Wave with EM, sw, Li, Wang,
-- Lopuhaä-Zwakenberg, Li and Škorić, SIGMOD 2020; docs/algorithms/ranges.md). The protocol
-- type (what devices download) and its builder, the summary type, its casts to ldp.summary
-- and its row of ldp.summary_kinds, the aggregates and their rollup, the accessors, the
-- encoders and the collection reader.
------------------------------------------------------------------------------

-- The protocol: a public value, fixed before anyone reports.

CREATE TYPE @extschema@.range_protocol;

CREATE FUNCTION @extschema@.range_protocol_in(cstring) RETURNS @extschema@.range_protocol
  AS 'MODULE_PATHNAME', 'ldp_range_protocol_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.range_protocol_in(cstring) IS 'Text input of ldp.range_protocol, v1:haar{epsilon=...,domain_bits=...,mapping=...[,lo=...,hi=...]} or v1:hh{epsilon=...,domain_bits=...,branching=...,mapping=...[,lo=...,hi=...]} or v1:sw{epsilon=...,domain_bits=...,mapping=...[,lo=...,hi=...]} (validated: malformed input raises 22P02).';
CREATE FUNCTION @extschema@.range_protocol_out(@extschema@.range_protocol) RETURNS cstring
  AS 'MODULE_PATHNAME', 'ldp_range_protocol_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.range_protocol_out(@extschema@.range_protocol) IS 'Text output of ldp.range_protocol: v1:<mechanism>{epsilon=...,domain_bits=...[,branching=...],mapping=...}.';
CREATE FUNCTION @extschema@.range_protocol_recv(internal) RETURNS @extschema@.range_protocol
  AS 'MODULE_PATHNAME', 'ldp_range_protocol_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.range_protocol_recv(internal) IS 'Binary input of ldp.range_protocol (version byte 1, then the fields big-endian; malformed input raises 22P03).';
CREATE FUNCTION @extschema@.range_protocol_send(@extschema@.range_protocol) RETURNS bytea
  AS 'MODULE_PATHNAME', 'ldp_range_protocol_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.range_protocol_send(@extschema@.range_protocol) IS 'Binary output of ldp.range_protocol.';

CREATE TYPE @extschema@.range_protocol (
  INPUT = @extschema@.range_protocol_in,
  OUTPUT = @extschema@.range_protocol_out,
  RECEIVE = @extschema@.range_protocol_recv,
  SEND = @extschema@.range_protocol_send,
  INTERNALLENGTH = VARIABLE,
  ALIGNMENT = int4,
  STORAGE = main
);
COMMENT ON TYPE @extschema@.range_protocol IS
  'A numeric-distribution protocol: mechanism (haar, hh with its branching, or sw), epsilon, the domain of 2^domain_bits buckets and the mapping of a value to its bucket (floor, linear or log over [lo, hi)), fixed before anyone reports; what devices download and what ldp.range_agg checks. Build it with ldp.range_protocol.';

CREATE FUNCTION @extschema@.range_protocol(epsilon float8, domain_bits int, mechanism text DEFAULT 'haar',
                                          branching int DEFAULT NULL, mapping text DEFAULT 'floor',
                                          lo float8 DEFAULT NULL, hi float8 DEFAULT NULL)
  RETURNS @extschema@.range_protocol
  AS 'MODULE_PATHNAME', 'ldp_range_protocol' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.range_protocol(float8, int, text, int, text, float8, float8) IS 'A numeric-distribution protocol (docs/algorithms/ranges.md): epsilon, a domain of 2^domain_bits buckets (domain_bits 1 to 24; summaries of at most 22), the mechanism (haar: HaarHRR, the default, the more accurate on random ranges; hh: hierarchical histograms, with branching 2 or 4, default 4, given for hh only; sw: Square Wave, whose summaries answer ldp.density, a model-based shape estimate, and keep min(2^domain_bits, 1024) counters whatever the domain) and the mapping of a value v to its bucket: floor (default; bucket floor(v), clamped to the domain: a latency in milliseconds is its own bucket), linear or log over [lo, hi) (2^domain_bits buckets of equal width in v or in ln v, clamped). lo and hi are given for linear and log only.';

-- The summary

CREATE TYPE @extschema@.range_summary;

CREATE FUNCTION @extschema@.range_summary_in(cstring) RETURNS @extschema@.range_summary
  AS 'MODULE_PATHNAME', 'ldp_range_summary_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.range_summary_in(cstring) IS 'Text input of ldp.range_summary (validated: malformed input raises 22P02).';
CREATE FUNCTION @extschema@.range_summary_out(@extschema@.range_summary) RETURNS cstring
  AS 'MODULE_PATHNAME', 'ldp_range_summary_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.range_summary_out(@extschema@.range_summary) IS 'Text output of ldp.range_summary (lossless, versioned): v1:<mechanism>{<protocol>,n=..,levels=[..],sums=[..]}, or for sw v1:sw{<protocol>,n=..,buckets=[..]}.';
CREATE FUNCTION @extschema@.range_summary_recv(internal) RETURNS @extschema@.range_summary
  AS 'MODULE_PATHNAME', 'ldp_range_summary_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.range_summary_recv(internal) IS 'Binary input of ldp.range_summary: the stored form (format 3, compact counters; malformed input raises 22P03).';
CREATE FUNCTION @extschema@.range_summary_send(@extschema@.range_summary) RETURNS bytea
  AS 'MODULE_PATHNAME', 'ldp_range_summary_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.range_summary_send(@extschema@.range_summary) IS 'Binary output of ldp.range_summary: the stored form (format 3).';

CREATE TYPE @extschema@.range_summary (
  INPUT = @extschema@.range_summary_in,
  OUTPUT = @extschema@.range_summary_out,
  RECEIVE = @extschema@.range_summary_recv,
  SEND = @extschema@.range_summary_send,
  INTERNALLENGTH = VARIABLE,
  ALIGNMENT = double,
  STORAGE = extended
);
COMMENT ON TYPE @extschema@.range_summary IS
  'Decoder state of a numeric-distribution protocol (haar, hh or sw): the protocol, the report count, and its counters, stored at the narrowest width that holds them: for haar and hh, per level of the mechanism''s tree its report count and its Hadamard rows'' sums (haar: 2^domain_bits - 1 in all; hh: one per node); for sw, the reports per output bucket of the square wave (min(2^domain_bits, 1024) buckets). Text form v1:haar{...}, v1:hh{...} or v1:sw{...}; merge with ldp.rollup.';

-- ldp.summary casts and the summary kind

CREATE FUNCTION @extschema@.summary(@extschema@.range_summary) RETURNS @extschema@.summary
  AS 'MODULE_PATHNAME', 'ldp_summary_from_range' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.range_summary(@extschema@.summary) RETURNS @extschema@.range_summary
  AS 'MODULE_PATHNAME', 'ldp_summary_to_range' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (@extschema@.range_summary AS @extschema@.summary)
  WITH FUNCTION @extschema@.summary(@extschema@.range_summary) AS ASSIGNMENT;
CREATE CAST (@extschema@.summary AS @extschema@.range_summary)
  WITH FUNCTION @extschema@.range_summary(@extschema@.summary);
COMMENT ON FUNCTION @extschema@.summary(@extschema@.range_summary) IS 'A range summary as an ldp.summary (the cast range_summary -> summary).';
COMMENT ON FUNCTION @extschema@.range_summary(@extschema@.summary) IS 'An ldp.summary of kind range as ldp.range_summary (42804 for another kind).';

INSERT INTO @extschema@.summary_kinds VALUES
  ('range', '@extschema@.range_summary', '@extschema@.collection_quantiles(text, float8[])',
   'Numeric distributions: range counts, CDFs and quantiles (HaarHRR, hierarchical histograms); shapes (Square Wave).');

-- Transition and combine functions (state = the summary itself, updated in place)

CREATE FUNCTION @extschema@.range_trans(@extschema@.range_summary, int, bigint, boolean, @extschema@.range_protocol)
  RETURNS @extschema@.range_summary
  AS 'MODULE_PATHNAME', 'ldp_range_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.range_trans(@extschema@.range_summary, int, bigint, boolean, @extschema@.range_protocol) IS 'Transition function of ldp.range_agg(level, hadamard_row, report, protocol) (aggregate context only).';
CREATE FUNCTION @extschema@.range_sw_trans(@extschema@.range_summary, float8, @extschema@.range_protocol)
  RETURNS @extschema@.range_summary
  AS 'MODULE_PATHNAME', 'ldp_range_sw_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.range_sw_trans(@extschema@.range_summary, float8, @extschema@.range_protocol) IS 'Transition function of ldp.range_agg(report, protocol), Square Wave''s (aggregate context only).';
CREATE FUNCTION @extschema@.range_combine(@extschema@.range_summary, @extschema@.range_summary)
  RETURNS @extschema@.range_summary
  AS 'MODULE_PATHNAME', 'ldp_range_combine' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.range_combine(@extschema@.range_summary, @extschema@.range_summary) IS 'Merges two range summaries of the same protocol (combine function of ldp.range_agg and of ldp.rollup).';

-- Aggregates

CREATE AGGREGATE @extschema@.range_agg(level int, hadamard_row bigint, report boolean, protocol @extschema@.range_protocol) (
  SFUNC = @extschema@.range_trans, STYPE = @extschema@.range_summary,
  COMBINEFUNC = @extschema@.range_combine, PARALLEL = SAFE);
COMMENT ON AGGREGATE @extschema@.range_agg(int, bigint, boolean, @extschema@.range_protocol) IS 'HaarHRR and hh: (level, hadamard_row, report) reports of ldp.range_encode under one protocol; range summary. A report outside the protocol''s tree raises 22000; a protocol past 22 domain bits 54000; a Square Wave protocol 22023 (its reports go to ldp.range_agg(report, protocol)).';
CREATE AGGREGATE @extschema@.range_agg(report float8, protocol @extschema@.range_protocol) (
  SFUNC = @extschema@.range_sw_trans, STYPE = @extschema@.range_summary,
  COMBINEFUNC = @extschema@.range_combine, PARALLEL = SAFE);
COMMENT ON AGGREGATE @extschema@.range_agg(float8, @extschema@.range_protocol) IS 'Square Wave: the reports of ldp.sw_encode under one sw protocol, counted per output bucket of the wave; range summary (read with ldp.density). A report outside [-w, 1 + w] (w the wave''s half-width) or NaN raises 22000; another mechanism''s protocol 22023.';
CREATE AGGREGATE @extschema@.rollup(@extschema@.range_summary) (
  SFUNC = @extschema@.range_combine, STYPE = @extschema@.range_summary,
  COMBINEFUNC = @extschema@.range_combine, PARALLEL = SAFE);
COMMENT ON AGGREGATE @extschema@.rollup(@extschema@.range_summary) IS 'Merges range summaries of the same protocol (counters add up).';

-- Accessors (each decodes the summary once per query)

CREATE FUNCTION @extschema@.range_frequency(summary @extschema@.range_summary, lo float8, hi float8,
                                           OUT frequency float8, OUT count float8, OUT std_error float8,
                                           OUT ci_lower float8, OUT ci_upper float8)
  AS 'MODULE_PATHNAME', 'ldp_range_frequency' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.range_frequency(@extschema@.range_summary, float8, float8) IS 'The share of reports whose value lies in [lo, hi] (both mapped to their buckets as devices map values): frequency (the estimate clipped to [0, 1]), count (frequency times the reports), the exact standard error and the 95% interval estimate +- 1.96 std_error intersected with [0, 1]. std_error and the interval are NULL when a level the range needs has no report; every column is NULL for an empty summary. A Square Wave summary raises 22023 (ldp.density answers it).';
CREATE FUNCTION @extschema@.cdf(summary @extschema@.range_summary, x float8,
                               OUT frequency float8, OUT count float8, OUT std_error float8,
                               OUT ci_lower float8, OUT ci_upper float8)
  AS 'MODULE_PATHNAME', 'ldp_range_cdf' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cdf(@extschema@.range_summary, float8) IS 'The share of reports whose value is at most x (its bucket and the buckets below), with the columns of ldp.range_frequency. A Square Wave summary raises 22023 (ldp.density answers it).';
CREATE FUNCTION @extschema@.quantile(summary @extschema@.range_summary, phi float8,
                                    OUT phi float8, OUT value float8, OUT ci_lower float8, OUT ci_upper float8)
  AS 'MODULE_PATHNAME', 'ldp_range_quantile' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.quantile(@extschema@.range_summary, float8) IS 'The phi-quantile (phi in [0, 1]): value, the lower edge of the first bucket whose estimated CDF reaches phi, and its pointwise 95% interval [ci_lower, ci_upper) by inverting the CDF''s test (bucket edges in the protocol''s units; docs/algorithms/ranges.md#quantiles). NULL value and interval for an empty summary. A Square Wave summary raises 22023 (ldp.density answers it).';
CREATE FUNCTION @extschema@.quantiles(summary @extschema@.range_summary, phis float8[])
  RETURNS TABLE(phi float8, value float8, ci_lower float8, ci_upper float8)
  AS 'MODULE_PATHNAME', 'ldp_range_quantiles' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 10;
COMMENT ON FUNCTION @extschema@.quantiles(@extschema@.range_summary, float8[]) IS 'One row per element of phis, in array order (a NULL element: a row of NULLs), with the columns of ldp.quantile but a simultaneous band: Bonferroni over the m non-NULL elements (each interval at the two-sided level 1 - 0.05/m), so that all of them cover their quantiles together with probability at least 95% (family-wise). No rows for an empty summary. A Square Wave summary raises 22023 (ldp.density answers it).';
CREATE FUNCTION @extschema@.histogram(summary @extschema@.range_summary, bins int)
  RETURNS TABLE(lo float8, hi float8, frequency float8, std_error float8, ci_lower float8, ci_upper float8)
  AS 'MODULE_PATHNAME', 'ldp_range_histogram' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 100;
COMMENT ON FUNCTION @extschema@.histogram(@extschema@.range_summary, int) IS 'The domain''s buckets cut into bins groups of consecutive buckets (1 <= bins <= 2^domain_bits; as equal as whole buckets allow), one row each: the value interval [lo, hi), its share (clipped to [0, 1]), exact standard error and 95% interval intersected with [0, 1] (NULL where a level has no report). No rows for an empty summary. A Square Wave summary raises 22023 (ldp.density answers it).';
CREATE FUNCTION @extschema@.density(summary @extschema@.range_summary, bins int, replicates int DEFAULT 50,
                                   seed bigint DEFAULT 0, smoothing boolean DEFAULT false)
  RETURNS TABLE(lo float8, hi float8, frequency float8, std_error float8, ci_lower float8, ci_upper float8)
  AS 'MODULE_PATHNAME', 'ldp_range_density' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 100;
COMMENT ON FUNCTION @extschema@.density(@extschema@.range_summary, int, int, bigint, boolean) IS 'Square Wave: the distribution of a sw summary''s values over bins groups of consecutive buckets (histogram''s columns and cut), estimated by EM on its histogram (EMS, a smoothing step, with smoothing; docs/algorithms/ranges.md#square-wave). MODEL-BASED: std_error is the standard deviation of the estimate over replicates bootstrap resamples of the histogram (0 to 1000; fewer than 2: NULL), reproducible for a seed, and the 95% interval frequency +- 1.96 std_error (intersected with [0, 1]) describes the estimator''s spread, not its bias: EM''s early stop and smoothing bias it, so the interval''s coverage is not guaranteed. The work, replicates + 1 EM runs, is planned against ldp.max_decode_work (54000 past it) and can be cancelled. No rows for an empty summary; another mechanism''s summary raises 22023 (ldp.histogram answers it).';
CREATE FUNCTION @extschema@.report_count(@extschema@.range_summary) RETURNS bigint
  AS 'MODULE_PATHNAME', 'ldp_range_report_count' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.report_count(@extschema@.range_summary) IS 'Number of (non-NULL) reports the summary counts.';
CREATE FUNCTION @extschema@.epsilon(@extschema@.range_summary) RETURNS float8
  AS 'MODULE_PATHNAME', 'ldp_range_epsilon' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.epsilon(@extschema@.range_summary) IS 'The epsilon of one report.';
CREATE FUNCTION @extschema@.mechanism(@extschema@.range_summary) RETURNS text
  AS 'MODULE_PATHNAME', 'ldp_range_mechanism' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.mechanism(@extschema@.range_summary) IS 'The mechanism: haar, hh or sw.';
CREATE FUNCTION @extschema@.protocol(@extschema@.range_summary) RETURNS @extschema@.range_protocol
  AS 'MODULE_PATHNAME', 'ldp_range_protocol_of' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.protocol(@extschema@.range_summary) IS 'The protocol the summary''s reports were made under.';

-- The encoder for simulation and tests (devices encode with the core SDK)

CREATE FUNCTION @extschema@.range_encode(value float8, protocol @extschema@.range_protocol, seed bigint DEFAULT NULL,
                                        OUT level int, OUT hadamard_row bigint, OUT report boolean)
  AS 'MODULE_PATHNAME', 'ldp_range_encode' LANGUAGE C VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.range_encode(float8, @extschema@.range_protocol, bigint) IS 'Simulation: a report of the value (its bucket under the protocol''s mapping): a level of the mechanism''s tree (haar: [0, domain_bits); hh: [1, h]), hadamard_row among the level''s rows and report, the randomized sign (true: +1). NaN raises 22023; a Square Wave protocol 22023 (ldp.sw_encode). Seed as in ldp.rr_encode.';
CREATE FUNCTION @extschema@.sw_encode(value float8, protocol @extschema@.range_protocol, seed bigint DEFAULT NULL)
  RETURNS float8
  AS 'MODULE_PATHNAME', 'ldp_sw_encode' LANGUAGE C VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.sw_encode(float8, @extschema@.range_protocol, bigint) IS 'Simulation: a Square Wave report of the value under a sw protocol: its bucket b under the protocol''s mapping, v = (b + 0.5)/2^domain_bits, and a real in [-w, 1 + w] within w of v with probability 2w e^epsilon/(2w e^epsilon + 1), uniform elsewhere. NaN raises 22023, another mechanism''s protocol 22023. Seed as in ldp.rr_encode.';

-- Collections of range summaries: the quantiles of each closed epoch.

CREATE FUNCTION @extschema@.collection_quantiles(name text, phis float8[])
  RETURNS TABLE(epoch bigint, epoch_start timestamptz, phi float8, value float8, ci_lower float8, ci_upper float8)
  LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  c @extschema@.collections := @extschema@.collection_of_kind(name, 'range');
BEGIN
  RETURN QUERY
    SELECT ce.epoch, ce.epoch_start, q.phi, q.value, q.ci_lower, q.ci_upper
    FROM @extschema@.collection_epochs ce
    CROSS JOIN LATERAL @extschema@.quantiles(ce.summary::@extschema@.range_summary, phis) WITH ORDINALITY AS q
    WHERE ce.collection = c.name ORDER BY ce.epoch, q.ordinality;
END $$;
COMMENT ON FUNCTION @extschema@.collection_quantiles(text, float8[]) IS 'The quantiles of each closed epoch of a range collection, by epoch then in array order: the columns of ldp.quantiles (a band per epoch, family-wise at least 95% within the epoch). Roll epochs up for a longer range: ldp.quantiles((SELECT ldp.rollup(summary::ldp.range_summary) FROM ldp.collection_epochs WHERE ...), phis). Needs the read privilege.';
