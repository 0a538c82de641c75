------------------------------------------------------------------------------
-- Sketch frequency oracles over strings nobody can enumerate → ldp.sketch_summary:
-- cms (Apple's Count Mean Sketch), hcms (Hadamard CMS) and hashtogram (Bassily et
-- al.'s count sketch with Hadamard compression; docs/algorithms/sketches.md). The type, its casts to ldp.summary and
-- its row of ldp.summary_kinds, the aggregates, the accessors, the encoders and
-- the collection reader.
------------------------------------------------------------------------------

CREATE TYPE @extschema@.sketch_summary;

CREATE FUNCTION @extschema@.sketch_summary_in(cstring) RETURNS @extschema@.sketch_summary
  AS 'MODULE_PATHNAME', 'ldp_sketch_summary_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.sketch_summary_in(cstring) IS 'Text input of ldp.sketch_summary (validated: malformed input raises 22P02).';
CREATE FUNCTION @extschema@.sketch_summary_out(@extschema@.sketch_summary) RETURNS cstring
  AS 'MODULE_PATHNAME', 'ldp_sketch_summary_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.sketch_summary_out(@extschema@.sketch_summary) IS 'Text output of ldp.sketch_summary (lossless, versioned).';
CREATE FUNCTION @extschema@.sketch_summary_recv(internal) RETURNS @extschema@.sketch_summary
  AS 'MODULE_PATHNAME', 'ldp_sketch_summary_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.sketch_summary_recv(internal) IS 'Binary input of ldp.sketch_summary: the stored form (format 3 with compact counters, or 2 as written before 0.7.0; malformed input raises 22P03).';
CREATE FUNCTION @extschema@.sketch_summary_send(@extschema@.sketch_summary) RETURNS bytea
  AS 'MODULE_PATHNAME', 'ldp_sketch_summary_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.sketch_summary_send(@extschema@.sketch_summary) IS 'Binary output of ldp.sketch_summary: the stored form (format 3, compact counters).';

CREATE TYPE @extschema@.sketch_summary (
  INPUT = @extschema@.sketch_summary_in,
  OUTPUT = @extschema@.sketch_summary_out,
  RECEIVE = @extschema@.sketch_summary_recv,
  SEND = @extschema@.sketch_summary_send,
  INTERNALLENGTH = VARIABLE,
  ALIGNMENT = double,
  STORAGE = extended
);
COMMENT ON TYPE @extschema@.sketch_summary IS
  'Decoder state of a sketch frequency oracle over strings (cms, hcms, hashtogram): parameters, report count and hashes x width integer counters. Text form v1:<mechanism>{...}; merge with ldp.rollup.';

-- ldp.summary casts and the summary kind

CREATE FUNCTION @extschema@.summary(@extschema@.sketch_summary) RETURNS @extschema@.summary
  AS 'MODULE_PATHNAME', 'ldp_summary_from_sketch' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.sketch_summary(@extschema@.summary) RETURNS @extschema@.sketch_summary
  AS 'MODULE_PATHNAME', 'ldp_summary_to_sketch' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (@extschema@.sketch_summary AS @extschema@.summary)
  WITH FUNCTION @extschema@.summary(@extschema@.sketch_summary) AS ASSIGNMENT;
CREATE CAST (@extschema@.summary AS @extschema@.sketch_summary)
  WITH FUNCTION @extschema@.sketch_summary(@extschema@.summary);
COMMENT ON FUNCTION @extschema@.summary(@extschema@.sketch_summary) IS 'A sketch summary as an ldp.summary (the cast sketch_summary -> summary).';
COMMENT ON FUNCTION @extschema@.sketch_summary(@extschema@.summary) IS 'An ldp.summary of kind sketch as ldp.sketch_summary (42804 for another kind).';

INSERT INTO @extschema@.summary_kinds VALUES
  ('sketch', '@extschema@.sketch_summary', '@extschema@.collection_frequencies(text, text[])',
   'Sketch frequency oracles over strings: Count Mean Sketch, Hadamard CMS, Hashtogram.');

-- Transition and combine functions (state = the summary itself, updated in place)

CREATE FUNCTION @extschema@.cms_trans(@extschema@.sketch_summary, int, varbit, float8, int)
  RETURNS @extschema@.sketch_summary
  AS 'MODULE_PATHNAME', 'ldp_cms_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cms_trans(@extschema@.sketch_summary, int, varbit, float8, int) IS 'Transition function of ldp.cms_agg (aggregate context only).';
CREATE FUNCTION @extschema@.hcms_trans(@extschema@.sketch_summary, int, int, boolean, float8, int, int)
  RETURNS @extschema@.sketch_summary
  AS 'MODULE_PATHNAME', 'ldp_hcms_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.hcms_trans(@extschema@.sketch_summary, int, int, boolean, float8, int, int) IS 'Transition function of ldp.hcms_agg (aggregate context only).';
CREATE FUNCTION @extschema@.hashtogram_trans(@extschema@.sketch_summary, int, int, boolean, float8, int, int)
  RETURNS @extschema@.sketch_summary
  AS 'MODULE_PATHNAME', 'ldp_hashtogram_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.hashtogram_trans(@extschema@.sketch_summary, int, int, boolean, float8, int, int) IS 'Transition function of ldp.hashtogram_agg (aggregate context only).';
CREATE FUNCTION @extschema@.sketch_combine(@extschema@.sketch_summary, @extschema@.sketch_summary)
  RETURNS @extschema@.sketch_summary
  AS 'MODULE_PATHNAME', 'ldp_sketch_combine' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.sketch_combine(@extschema@.sketch_summary, @extschema@.sketch_summary) IS 'Merges two sketch summaries of the same mechanism and parameters (combine function of the sketch aggregates and of ldp.rollup).';

-- Aggregates

CREATE AGGREGATE @extschema@.cms_agg(hash_index int, report varbit, epsilon float8, hashes int) (
  SFUNC = @extschema@.cms_trans, STYPE = @extschema@.sketch_summary,
  COMBINEFUNC = @extschema@.sketch_combine, PARALLEL = SAFE);
COMMENT ON AGGREGATE @extschema@.cms_agg(int, varbit, float8, int) IS 'Apple''s Count Mean Sketch: (hash_index, width-bit report) pairs, bit i = 1 for +1, the width being the reports'' bit length; sketch summary.';
CREATE AGGREGATE @extschema@.hcms_agg(hash_index int, coefficient int, report boolean, epsilon float8, hashes int, width int) (
  SFUNC = @extschema@.hcms_trans, STYPE = @extschema@.sketch_summary,
  COMBINEFUNC = @extschema@.sketch_combine, PARALLEL = SAFE);
COMMENT ON AGGREGATE @extschema@.hcms_agg(int, int, boolean, float8, int, int) IS 'Apple''s Hadamard Count Mean Sketch: (hash_index, coefficient, +1/-1 as boolean) reports, width a power of two; sketch summary.';
CREATE AGGREGATE @extschema@.hashtogram_agg(hash_index int, coefficient int, report boolean, epsilon float8, hashes int, width int) (
  SFUNC = @extschema@.hashtogram_trans, STYPE = @extschema@.sketch_summary,
  COMBINEFUNC = @extschema@.sketch_combine, PARALLEL = SAFE);
COMMENT ON AGGREGATE @extschema@.hashtogram_agg(int, int, boolean, float8, int, int) IS 'Bassily et al.''s count-sketch oracle with Hadamard compression (Hashtogram; docs/algorithms/sketches.md#count-sketch-with-hadamard-compression-hashtogram): independent bucket and sign hashes, the median over rows; sketch summary.';
CREATE AGGREGATE @extschema@.rollup(@extschema@.sketch_summary) (
  SFUNC = @extschema@.sketch_combine, STYPE = @extschema@.sketch_summary,
  COMBINEFUNC = @extschema@.sketch_combine, PARALLEL = SAFE);
COMMENT ON AGGREGATE @extschema@.rollup(@extschema@.sketch_summary) IS 'Merges sketch summaries of the same mechanism and parameters.';

-- Accessors

CREATE FUNCTION @extschema@.frequencies(@extschema@.sketch_summary, items text[])
  RETURNS TABLE(item text, frequency float8, count float8, std_error float8, ci_lower float8, ci_upper float8)
  AS 'MODULE_PATHNAME', 'ldp_sketch_frequencies' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 1000;
COMMENT ON FUNCTION @extschema@.frequencies(@extschema@.sketch_summary, text[]) IS 'One row per element of items, in array order: the unbiased frequency (fraction of reports), count, standard error and 95% interval (frequency units). The interval omits the bias of hash collisions (docs/algorithms/sketches.md#hash-collisions).';
CREATE FUNCTION @extschema@.frequency(@extschema@.sketch_summary, item text) RETURNS float8
  AS 'MODULE_PATHNAME', 'ldp_sketch_frequency' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.frequency(@extschema@.sketch_summary, text) IS 'The unbiased frequency estimate of one string (the summary is decoded once per query, then each call costs its hashes).';
CREATE FUNCTION @extschema@.report_count(@extschema@.sketch_summary) RETURNS bigint
  AS 'MODULE_PATHNAME', 'ldp_sketch_report_count' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.report_count(@extschema@.sketch_summary) IS 'Number of (non-NULL) reports the summary counts.';
CREATE FUNCTION @extschema@.epsilon(@extschema@.sketch_summary) RETURNS float8
  AS 'MODULE_PATHNAME', 'ldp_sketch_epsilon' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.epsilon(@extschema@.sketch_summary) IS 'The epsilon of one report.';
CREATE FUNCTION @extschema@.mechanism(@extschema@.sketch_summary) RETURNS text
  AS 'MODULE_PATHNAME', 'ldp_sketch_mechanism' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.mechanism(@extschema@.sketch_summary) IS 'The sketch oracle: cms, hcms or hashtogram.';
CREATE FUNCTION @extschema@.hash_count(@extschema@.sketch_summary) RETURNS int
  AS 'MODULE_PATHNAME', 'ldp_sketch_hash_count' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.hash_count(@extschema@.sketch_summary) IS 'The number of hash functions (rows of the sketch).';
CREATE FUNCTION @extschema@.width(@extschema@.sketch_summary) RETURNS int
  AS 'MODULE_PATHNAME', 'ldp_sketch_width' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.width(@extschema@.sketch_summary) IS 'The width of the sketch (columns of each row).';

-- Encoders for simulation and tests (devices encode with the core SDK)

CREATE FUNCTION @extschema@.cms_encode(item text, epsilon float8, hashes int, width int, seed bigint DEFAULT NULL,
                                      OUT hash_index int, OUT report varbit)
  AS 'MODULE_PATHNAME', 'ldp_cms_encode' LANGUAGE C VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cms_encode(text, float8, int, int, bigint) IS 'Simulation: a Count Mean Sketch report (hash_index, width bits) of the string item. Seed as in ldp.rr_encode.';
CREATE FUNCTION @extschema@.hcms_encode(item text, epsilon float8, hashes int, width int, seed bigint DEFAULT NULL,
                                       OUT hash_index int, OUT coefficient int, OUT report boolean)
  AS 'MODULE_PATHNAME', 'ldp_hcms_encode' LANGUAGE C VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.hcms_encode(text, float8, int, int, bigint) IS 'Simulation: a Hadamard Count Mean Sketch report (hash_index, coefficient, +1/-1 as boolean) of the string item. Seed as in ldp.rr_encode.';
CREATE FUNCTION @extschema@.hashtogram_encode(item text, epsilon float8, hashes int, width int, seed bigint DEFAULT NULL,
                                             OUT hash_index int, OUT coefficient int, OUT report boolean)
  AS 'MODULE_PATHNAME', 'ldp_hashtogram_encode' LANGUAGE C VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.hashtogram_encode(text, float8, int, int, bigint) IS 'Simulation: a Hashtogram report (hash_index, coefficient, +1/-1 as boolean) of the string item. Seed as in ldp.rr_encode.';

-- Collections of sketches: estimates of candidate strings per closed epoch.

CREATE FUNCTION @extschema@.collection_frequencies(name text, items text[])
  RETURNS TABLE(epoch bigint, epoch_start timestamptz, item text, frequency float8,
                std_error float8, ci_lower float8, ci_upper float8)
  LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  c @extschema@.collections := @extschema@.collection_of_kind(name, 'sketch');
BEGIN
  RETURN QUERY
    SELECT ce.epoch, ce.epoch_start, f.item, f.frequency, f.std_error, f.ci_lower, f.ci_upper
    FROM @extschema@.collection_epochs ce
    CROSS JOIN LATERAL @extschema@.frequencies(ce.summary::@extschema@.sketch_summary, items) WITH ORDINALITY AS f
    WHERE ce.collection = c.name ORDER BY ce.epoch, f.ordinality;
END $$;
COMMENT ON FUNCTION @extschema@.collection_frequencies(text, text[]) IS 'One row per candidate string and closed epoch of a sketch collection, in the order of items: frequency, standard error and 95% interval (epochs without reports have no rows). Needs the read privilege.';
