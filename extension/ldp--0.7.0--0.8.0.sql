-- 0.7.0 -> 0.8.0: heavy hitters without a candidate list (issue 20): the types
-- ldp.heavy_protocol and ldp.heavy_summary (stored-form family 4, compact counters),
-- the protocol builders, aggregates and encoders of TreeHist, PEM and SFP, the accessors, the summary kind
-- 'heavy' and ldp.collection_heavy_hitters. Nothing that exists changes.
-- (The statements of extension/sql/65_heavy.sql as 0.8.0 has them.)
\echo Use "ALTER EXTENSION ldp UPDATE TO '0.8.0'" to load this file. \quit


-- The protocol: a public value, fixed before anyone reports.

CREATE TYPE @extschema@.heavy_protocol;

CREATE FUNCTION @extschema@.heavy_protocol_in(cstring) RETURNS @extschema@.heavy_protocol
  AS 'MODULE_PATHNAME', 'ldp_heavy_protocol_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.heavy_protocol_in(cstring) IS 'Text input of ldp.heavy_protocol, v1:<mechanism>{...} (validated: malformed input raises 22P02).';
CREATE FUNCTION @extschema@.heavy_protocol_out(@extschema@.heavy_protocol) RETURNS cstring
  AS 'MODULE_PATHNAME', 'ldp_heavy_protocol_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.heavy_protocol_out(@extschema@.heavy_protocol) IS 'Text output of ldp.heavy_protocol: v1:<mechanism>{epsilon=...,domain=...,...}.';
CREATE FUNCTION @extschema@.heavy_protocol_recv(internal) RETURNS @extschema@.heavy_protocol
  AS 'MODULE_PATHNAME', 'ldp_heavy_protocol_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.heavy_protocol_recv(internal) IS 'Binary input of ldp.heavy_protocol (version byte 1, then the fields big-endian; malformed input raises 22P03).';
CREATE FUNCTION @extschema@.heavy_protocol_send(@extschema@.heavy_protocol) RETURNS bytea
  AS 'MODULE_PATHNAME', 'ldp_heavy_protocol_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.heavy_protocol_send(@extschema@.heavy_protocol) IS 'Binary output of ldp.heavy_protocol.';

CREATE TYPE @extschema@.heavy_protocol (
  INPUT = @extschema@.heavy_protocol_in,
  OUTPUT = @extschema@.heavy_protocol_out,
  RECEIVE = @extschema@.heavy_protocol_recv,
  SEND = @extschema@.heavy_protocol_send,
  INTERNALLENGTH = VARIABLE,
  ALIGNMENT = int4,
  STORAGE = main
);
COMMENT ON TYPE @extschema@.heavy_protocol IS
  'A heavy-hitters protocol: mechanism, epsilon, item domain (alphabet, bytes or int64), the tree (max_length, chars_per_level, levels) and the oracles (hashes x width), fixed before anyone reports; what devices download and what the aggregates check. Build it with ldp.treehist_protocol.';

CREATE FUNCTION @extschema@.treehist_protocol(epsilon float8, users bigint,
                                             alphabet text DEFAULT 'abcdefghijklmnopqrstuvwxyz',
                                             max_length int DEFAULT NULL, chars_per_level int DEFAULT NULL,
                                             hashes int DEFAULT NULL, width int DEFAULT NULL)
  RETURNS @extschema@.heavy_protocol
  AS 'MODULE_PATHNAME', 'ldp_treehist_protocol' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.treehist_protocol(float8, bigint, text, int, int, int, int) IS 'A TreeHist protocol for about `users` devices, every parameter not given (NULL) from the defaults of docs/algorithms/heavy-hitters.md: with an alphabet, strings of up to 6 characters in levels of 2 (pad ''*''); alphabet => NULL: any UTF-8 text as bytes, one byte per level, max_length bytes (default 6); width 1024; hashes the power of two nearest users/(2000 levels), at most 256.';
CREATE FUNCTION @extschema@.treehist_int8_protocol(epsilon float8, users bigint, hashes int DEFAULT NULL,
                                                  width int DEFAULT NULL)
  RETURNS @extschema@.heavy_protocol
  AS 'MODULE_PATHNAME', 'ldp_treehist_int8_protocol' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.treehist_int8_protocol(float8, bigint, int, int) IS 'A TreeHist protocol for 64-bit integer ids (8 big-endian bytes, one per level) for about `users` devices; hashes and width as ldp.treehist_protocol.';

CREATE FUNCTION @extschema@.pem_protocol(epsilon float8, users bigint,
                                        alphabet text DEFAULT 'abcdefghijklmnopqrstuvwxyz',
                                        max_length int DEFAULT NULL, start_length int DEFAULT NULL,
                                        chars_per_level int DEFAULT NULL, hashes int DEFAULT NULL, width int DEFAULT NULL)
  RETURNS @extschema@.heavy_protocol
  AS 'MODULE_PATHNAME', 'ldp_pem_protocol' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.pem_protocol(float8, bigint, text, int, int, int, int, int) IS 'A PEM protocol (prefix extending, docs/algorithms/heavy-hitters.md, HCMS oracles) for about `users` devices: groups of devices report prefixes of start_length + (group + 1) chars_per_level characters; defaults: 6 characters, start_length 0, 3 per group (2 groups), 64 x 4096 sketches. alphabet => NULL: any UTF-8 text as bytes, one byte per group.';
CREATE FUNCTION @extschema@.sfp_protocol(epsilon float8, users bigint,
                                        alphabet text DEFAULT 'abcdefghijklmnopqrstuvwxyz',
                                        max_length int DEFAULT NULL, chars_per_level int DEFAULT NULL,
                                        hashes int DEFAULT NULL, width int DEFAULT NULL)
  RETURNS @extschema@.heavy_protocol
  AS 'MODULE_PATHNAME', 'ldp_sfp_protocol' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.sfp_protocol(float8, bigint, text, int, int, int, int) IS 'An Apple SFP protocol (sequence fragment puzzle, docs/algorithms/heavy-hitters.md, HCMS oracles) for about `users` devices: a fragment of chars_per_level characters at a random position, keyed by an 8-bit hash of the word, and the word itself; defaults: 6 characters, fragments of 2, 64 x 4096 sketches. alphabet => NULL: any UTF-8 text as bytes, one-byte fragments.';
CREATE FUNCTION @extschema@.pem_int8_protocol(epsilon float8, users bigint, hashes int DEFAULT NULL,
                                             width int DEFAULT NULL)
  RETURNS @extschema@.heavy_protocol
  AS 'MODULE_PATHNAME', 'ldp_pem_int8_protocol' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.pem_int8_protocol(float8, bigint, int, int) IS 'A PEM protocol for 64-bit integer ids (8 big-endian bytes, one per group).';
CREATE FUNCTION @extschema@.sfp_int8_protocol(epsilon float8, users bigint, hashes int DEFAULT NULL,
                                             width int DEFAULT NULL)
  RETURNS @extschema@.heavy_protocol
  AS 'MODULE_PATHNAME', 'ldp_sfp_int8_protocol' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.sfp_int8_protocol(float8, bigint, int, int) IS 'An SFP protocol for 64-bit integer ids (8 big-endian bytes, one-byte fragments).';

-- The summary

CREATE TYPE @extschema@.heavy_summary;

CREATE FUNCTION @extschema@.heavy_summary_in(cstring) RETURNS @extschema@.heavy_summary
  AS 'MODULE_PATHNAME', 'ldp_heavy_summary_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.heavy_summary_in(cstring) IS 'Text input of ldp.heavy_summary (validated: malformed input raises 22P02).';
CREATE FUNCTION @extschema@.heavy_summary_out(@extschema@.heavy_summary) RETURNS cstring
  AS 'MODULE_PATHNAME', 'ldp_heavy_summary_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.heavy_summary_out(@extschema@.heavy_summary) IS 'Text output of ldp.heavy_summary (lossless, versioned).';
CREATE FUNCTION @extschema@.heavy_summary_recv(internal) RETURNS @extschema@.heavy_summary
  AS 'MODULE_PATHNAME', 'ldp_heavy_summary_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.heavy_summary_recv(internal) IS 'Binary input of ldp.heavy_summary: the stored form (format 3, compact counters; malformed input raises 22P03).';
CREATE FUNCTION @extschema@.heavy_summary_send(@extschema@.heavy_summary) RETURNS bytea
  AS 'MODULE_PATHNAME', 'ldp_heavy_summary_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.heavy_summary_send(@extschema@.heavy_summary) IS 'Binary output of ldp.heavy_summary: the stored form (format 3).';

CREATE TYPE @extschema@.heavy_summary (
  INPUT = @extschema@.heavy_summary_in,
  OUTPUT = @extschema@.heavy_summary_out,
  RECEIVE = @extschema@.heavy_summary_recv,
  SEND = @extschema@.heavy_summary_send,
  INTERNALLENGTH = VARIABLE,
  ALIGNMENT = double,
  STORAGE = extended
);
COMMENT ON TYPE @extschema@.heavy_summary IS
  'Decoder state of a heavy-hitters protocol (treehist, pem, sfp): the protocol, the report count and its sketches'' integer counters (hashes x width each), stored at the narrowest width that holds them. Text form v1:<mechanism>{...}; merge with ldp.rollup.';

-- ldp.summary casts and the summary kind

CREATE FUNCTION @extschema@.summary(@extschema@.heavy_summary) RETURNS @extschema@.summary
  AS 'MODULE_PATHNAME', 'ldp_summary_from_heavy' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.heavy_summary(@extschema@.summary) RETURNS @extschema@.heavy_summary
  AS 'MODULE_PATHNAME', 'ldp_summary_to_heavy' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (@extschema@.heavy_summary AS @extschema@.summary)
  WITH FUNCTION @extschema@.summary(@extschema@.heavy_summary) AS ASSIGNMENT;
CREATE CAST (@extschema@.summary AS @extschema@.heavy_summary)
  WITH FUNCTION @extschema@.heavy_summary(@extschema@.summary);
COMMENT ON FUNCTION @extschema@.summary(@extschema@.heavy_summary) IS 'A heavy-hitters summary as an ldp.summary (the cast heavy_summary -> summary).';
COMMENT ON FUNCTION @extschema@.heavy_summary(@extschema@.summary) IS 'An ldp.summary of kind heavy as ldp.heavy_summary (42804 for another kind).';

INSERT INTO @extschema@.summary_kinds VALUES
  ('heavy', '@extschema@.heavy_summary', '@extschema@.collection_heavy_hitters(text, float8)',
   'Heavy hitters without a candidate list: TreeHist, PEM, SFP.');

-- Transition and combine functions (state = the summary itself, updated in place)

CREATE FUNCTION @extschema@.treehist_trans(@extschema@.heavy_summary, int, int, int, boolean, boolean,
                                          @extschema@.heavy_protocol)
  RETURNS @extschema@.heavy_summary
  AS 'MODULE_PATHNAME', 'ldp_treehist_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.treehist_trans(@extschema@.heavy_summary, int, int, int, boolean, boolean, @extschema@.heavy_protocol) IS 'Transition function of ldp.treehist_agg (aggregate context only).';
CREATE FUNCTION @extschema@.pem_trans(@extschema@.heavy_summary, int, int, int, boolean, @extschema@.heavy_protocol)
  RETURNS @extschema@.heavy_summary
  AS 'MODULE_PATHNAME', 'ldp_pem_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.pem_trans(@extschema@.heavy_summary, int, int, int, boolean, @extschema@.heavy_protocol) IS 'Transition function of ldp.pem_agg (aggregate context only).';
CREATE FUNCTION @extschema@.sfp_trans(@extschema@.heavy_summary, int, int, int, boolean, int, int, boolean,
                                     @extschema@.heavy_protocol)
  RETURNS @extschema@.heavy_summary
  AS 'MODULE_PATHNAME', 'ldp_sfp_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.sfp_trans(@extschema@.heavy_summary, int, int, int, boolean, int, int, boolean, @extschema@.heavy_protocol) IS 'Transition function of ldp.sfp_agg (aggregate context only).';
CREATE FUNCTION @extschema@.heavy_combine(@extschema@.heavy_summary, @extschema@.heavy_summary)
  RETURNS @extschema@.heavy_summary
  AS 'MODULE_PATHNAME', 'ldp_heavy_combine' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.heavy_combine(@extschema@.heavy_summary, @extschema@.heavy_summary) IS 'Merges two heavy-hitters summaries of the same protocol (combine function of the heavy-hitters aggregates and of ldp.rollup).';

-- Aggregates

CREATE AGGREGATE @extschema@.treehist_agg(level int, hash_index int, coefficient int, prefix_report boolean,
                                          item_report boolean, protocol @extschema@.heavy_protocol) (
  SFUNC = @extschema@.treehist_trans, STYPE = @extschema@.heavy_summary,
  COMBINEFUNC = @extschema@.heavy_combine, PARALLEL = SAFE);
COMMENT ON AGGREGATE @extschema@.treehist_agg(int, int, int, boolean, boolean, @extschema@.heavy_protocol) IS 'TreeHist: (level, hash_index, coefficient, prefix_report, item_report) reports of ldp.treehist_encode under one protocol; heavy-hitters summary.';
CREATE AGGREGATE @extschema@.pem_agg(group_index int, hash_index int, coefficient int, report boolean,
                                     protocol @extschema@.heavy_protocol) (
  SFUNC = @extschema@.pem_trans, STYPE = @extschema@.heavy_summary,
  COMBINEFUNC = @extschema@.heavy_combine, PARALLEL = SAFE);
COMMENT ON AGGREGATE @extschema@.pem_agg(int, int, int, boolean, @extschema@.heavy_protocol) IS 'PEM: (group_index, hash_index, coefficient, report) reports of ldp.pem_encode under one protocol; heavy-hitters summary.';
CREATE AGGREGATE @extschema@.sfp_agg(fragment_start int, hash_index int, coefficient int, fragment_report boolean,
                                     word_hash_index int, word_coefficient int, word_report boolean,
                                     protocol @extschema@.heavy_protocol) (
  SFUNC = @extschema@.sfp_trans, STYPE = @extschema@.heavy_summary,
  COMBINEFUNC = @extschema@.heavy_combine, PARALLEL = SAFE);
COMMENT ON AGGREGATE @extschema@.sfp_agg(int, int, int, boolean, int, int, boolean, @extschema@.heavy_protocol) IS 'Apple SFP: (fragment_start, hash_index, coefficient, fragment_report, word_hash_index, word_coefficient, word_report) reports of ldp.sfp_encode under one protocol; heavy-hitters summary.';
CREATE AGGREGATE @extschema@.rollup(@extschema@.heavy_summary) (
  SFUNC = @extschema@.heavy_combine, STYPE = @extschema@.heavy_summary,
  COMBINEFUNC = @extschema@.heavy_combine, PARALLEL = SAFE);
COMMENT ON AGGREGATE @extschema@.rollup(@extschema@.heavy_summary) IS 'Merges heavy-hitters summaries of the same protocol.';

-- Accessors

CREATE FUNCTION @extschema@.heavy_hitters(summary @extschema@.heavy_summary, threshold float8 DEFAULT NULL)
  RETURNS TABLE(item text, frequency float8, count float8, std_error float8, ci_lower float8, ci_upper float8)
  AS 'MODULE_PATHNAME', 'ldp_heavy_hitters' LANGUAGE C IMMUTABLE PARALLEL SAFE ROWS 100;
COMMENT ON FUNCTION @extschema@.heavy_hitters(@extschema@.heavy_summary, float8) IS 'The items whose estimated count is at least threshold (in reports; NULL: ldp.heavy_threshold(summary)), found without a candidate list, by count descending, each once: frequency (fraction of reports), count, standard error and 95% interval in frequency units. Integer ids come back as decimal text. A NULL summary has no rows.';
CREATE FUNCTION @extschema@.heavy_threshold(@extschema@.heavy_summary) RETURNS float8
  AS 'MODULE_PATHNAME', 'ldp_heavy_threshold' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.heavy_threshold(@extschema@.heavy_summary) IS 'The default threshold of ldp.heavy_hitters, in reports, for the summary''s own n: 15 sqrt(n) with an alphabet, 30 sqrt(n) for bytes and 64-bit integers (every mechanism), in the bytes domain at least 4 standard errors of the pruned estimates.';
CREATE FUNCTION @extschema@.frequencies(@extschema@.heavy_summary, items text[])
  RETURNS TABLE(item text, frequency float8, count float8, std_error float8, ci_lower float8, ci_upper float8)
  AS 'MODULE_PATHNAME', 'ldp_heavy_frequencies' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 1000;
COMMENT ON FUNCTION @extschema@.frequencies(@extschema@.heavy_summary, text[]) IS 'One row per element of items, in array order (integer ids as decimal text): the final oracle''s unbiased frequency, count, standard error and 95% interval (frequency units; the interval omits the bias of hash collisions). An item the protocol cannot encode raises 22003.';
CREATE FUNCTION @extschema@.frequency(@extschema@.heavy_summary, item text) RETURNS float8
  AS 'MODULE_PATHNAME', 'ldp_heavy_frequency' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.frequency(@extschema@.heavy_summary, text) IS 'The final oracle''s unbiased frequency estimate of one item (the summary is decoded once per query).';
CREATE FUNCTION @extschema@.frequency(@extschema@.heavy_summary, item bigint) RETURNS float8
  AS 'MODULE_PATHNAME', 'ldp_heavy_frequency_int8' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.frequency(@extschema@.heavy_summary, bigint) IS 'The final oracle''s unbiased frequency estimate of one integer id (an int64 protocol).';
CREATE FUNCTION @extschema@.report_count(@extschema@.heavy_summary) RETURNS bigint
  AS 'MODULE_PATHNAME', 'ldp_heavy_report_count' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.report_count(@extschema@.heavy_summary) IS 'Number of (non-NULL) reports the summary counts.';
CREATE FUNCTION @extschema@.epsilon(@extschema@.heavy_summary) RETURNS float8
  AS 'MODULE_PATHNAME', 'ldp_heavy_epsilon' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.epsilon(@extschema@.heavy_summary) IS 'The epsilon of one device (both of its reports together).';
CREATE FUNCTION @extschema@.mechanism(@extschema@.heavy_summary) RETURNS text
  AS 'MODULE_PATHNAME', 'ldp_heavy_mechanism' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.mechanism(@extschema@.heavy_summary) IS 'The heavy-hitters protocol: treehist, pem or sfp.';
CREATE FUNCTION @extschema@.protocol(@extschema@.heavy_summary) RETURNS @extschema@.heavy_protocol
  AS 'MODULE_PATHNAME', 'ldp_heavy_protocol_of' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.protocol(@extschema@.heavy_summary) IS 'The protocol the summary''s reports were made under.';

-- Encoders for simulation and tests (devices encode with the core SDK)

CREATE FUNCTION @extschema@.treehist_encode(item text, protocol @extschema@.heavy_protocol, seed bigint DEFAULT NULL,
                                           OUT level int, OUT hash_index int, OUT coefficient int,
                                           OUT prefix_report boolean, OUT item_report boolean)
  AS 'MODULE_PATHNAME', 'ldp_treehist_encode' LANGUAGE C VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.treehist_encode(text, @extschema@.heavy_protocol, bigint) IS 'Simulation: a TreeHist report of the string item (level, hash_index, coefficient, prefix_report, item_report; levels 1..levels). An item the protocol cannot encode raises 22003. Seed as in ldp.rr_encode.';
CREATE FUNCTION @extschema@.treehist_encode(item bigint, protocol @extschema@.heavy_protocol, seed bigint DEFAULT NULL,
                                           OUT level int, OUT hash_index int, OUT coefficient int,
                                           OUT prefix_report boolean, OUT item_report boolean)
  AS 'MODULE_PATHNAME', 'ldp_treehist_encode_int8' LANGUAGE C VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.treehist_encode(bigint, @extschema@.heavy_protocol, bigint) IS 'Simulation: a TreeHist report of a 64-bit integer id under an int64 protocol (ldp.treehist_int8_protocol). Seed as in ldp.rr_encode.';

CREATE FUNCTION @extschema@.pem_encode(item text, protocol @extschema@.heavy_protocol, seed bigint DEFAULT NULL,
                                      OUT group_index int, OUT hash_index int, OUT coefficient int, OUT report boolean)
  AS 'MODULE_PATHNAME', 'ldp_pem_encode' LANGUAGE C VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.pem_encode(text, @extschema@.heavy_protocol, bigint) IS 'Simulation: a PEM report of the string item (group_index in [0, groups), hash_index, coefficient, report). An item the protocol cannot encode raises 22003. Seed as in ldp.rr_encode.';
CREATE FUNCTION @extschema@.pem_encode(item bigint, protocol @extschema@.heavy_protocol, seed bigint DEFAULT NULL,
                                      OUT group_index int, OUT hash_index int, OUT coefficient int, OUT report boolean)
  AS 'MODULE_PATHNAME', 'ldp_pem_encode_int8' LANGUAGE C VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.pem_encode(bigint, @extschema@.heavy_protocol, bigint) IS 'Simulation: a PEM report of a 64-bit integer id under an int64 protocol (ldp.pem_int8_protocol). Seed as in ldp.rr_encode.';
CREATE FUNCTION @extschema@.sfp_encode(item text, protocol @extschema@.heavy_protocol, seed bigint DEFAULT NULL,
                                      OUT fragment_start int, OUT hash_index int, OUT coefficient int, OUT fragment_report boolean,
                                      OUT word_hash_index int, OUT word_coefficient int, OUT word_report boolean)
  AS 'MODULE_PATHNAME', 'ldp_sfp_encode' LANGUAGE C VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.sfp_encode(text, @extschema@.heavy_protocol, bigint) IS 'Simulation: an SFP report of the string item (fragment_start: the first character of the fragment, a multiple of chars_per_level; the fragment oracle''s hash_index, coefficient and report, the word oracle''s). An item the protocol cannot encode raises 22003. Seed as in ldp.rr_encode.';
CREATE FUNCTION @extschema@.sfp_encode(item bigint, protocol @extschema@.heavy_protocol, seed bigint DEFAULT NULL,
                                      OUT fragment_start int, OUT hash_index int, OUT coefficient int, OUT fragment_report boolean,
                                      OUT word_hash_index int, OUT word_coefficient int, OUT word_report boolean)
  AS 'MODULE_PATHNAME', 'ldp_sfp_encode_int8' LANGUAGE C VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.sfp_encode(bigint, @extschema@.heavy_protocol, bigint) IS 'Simulation: an SFP report of a 64-bit integer id under an int64 protocol (ldp.sfp_int8_protocol). Seed as in ldp.rr_encode.';

-- Collections of heavy-hitters summaries: the heavy hitters of each closed epoch.

CREATE FUNCTION @extschema@.collection_heavy_hitters(name text, threshold float8 DEFAULT NULL)
  RETURNS TABLE(epoch bigint, epoch_start timestamptz, item text, frequency float8, count float8,
                std_error float8, ci_lower float8, ci_upper float8)
  LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  c @extschema@.collections := @extschema@.collection_of_kind(name, 'heavy');
BEGIN
  RETURN QUERY
    SELECT ce.epoch, ce.epoch_start, h.item, h.frequency, h.count, h.std_error, h.ci_lower, h.ci_upper
    FROM @extschema@.collection_epochs ce
    CROSS JOIN LATERAL @extschema@.heavy_hitters(ce.summary::@extschema@.heavy_summary, threshold) WITH ORDINALITY AS h
    WHERE ce.collection = c.name ORDER BY ce.epoch, h.ordinality;
END $$;
COMMENT ON FUNCTION @extschema@.collection_heavy_hitters(text, float8) IS 'The heavy hitters of each closed epoch of a heavy-hitters collection, by epoch then count descending: the columns of ldp.heavy_hitters (threshold in reports; NULL: each epoch''s default). Roll epochs up for a longer range: ldp.heavy_hitters((SELECT ldp.rollup(summary::ldp.heavy_summary) FROM ldp.collection_epochs WHERE ...)). Needs the read privilege.';
