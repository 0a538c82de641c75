-- 0.8.0 -> 0.9.0: (the statements of extension/sql/*.sql that 0.9.0 adds or changes,
-- appended as each change lands; see CONTRIBUTING.md "Releasing a version")
\echo Use "ALTER EXTENSION ldp UPDATE TO '0.9.0'" to load this file. \quit

-- Bitstogram (seed 003 §4, ALGORITHMS.md §6.2), 0.9.0: protocol builders, transition
-- function, aggregate and encoders.

CREATE FUNCTION @extschema@.bitstogram_protocol(epsilon float8, users bigint,
                                               alphabet text DEFAULT 'abcdefghijklmnopqrstuvwxyz',
                                               max_length int DEFAULT NULL, chars_per_level int DEFAULT NULL,
                                               hashes int DEFAULT NULL, width int DEFAULT NULL,
                                               buckets int DEFAULT NULL)
  RETURNS @extschema@.heavy_protocol
  AS 'MODULE_PATHNAME', 'ldp_bitstogram_protocol' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bitstogram_protocol(float8, bigint, text, int, int, int, int, int) IS 'A Bitstogram protocol (seed 003 §4, ALGORITHMS.md §6.2) for about `users` devices: each device reports one coordinate of chars_per_level characters of its item, with the item''s hash bucket, by Hadamard response at epsilon/2, and the item to a count sketch at epsilon/2. Defaults: 6 characters, one per coordinate (pad ''*''); buckets at least 4 sqrt(users), as many as a Hadamard-response vector of the power of two at or above 4 sqrt(users) * symbols + 1 cells holds; hashes * width = that vector''s size (width 1024 for 10^6 users). alphabet => NULL: any UTF-8 text as bytes, one byte per coordinate.';
CREATE FUNCTION @extschema@.bitstogram_int8_protocol(epsilon float8, users bigint, hashes int DEFAULT NULL,
                                                    width int DEFAULT NULL, buckets int DEFAULT NULL)
  RETURNS @extschema@.heavy_protocol
  AS 'MODULE_PATHNAME', 'ldp_bitstogram_int8_protocol' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bitstogram_int8_protocol(float8, bigint, int, int, int) IS 'A Bitstogram protocol for 64-bit integer ids (8 big-endian bytes, one per coordinate); hashes, width and buckets as ldp.bitstogram_protocol.';

CREATE FUNCTION @extschema@.bitstogram_trans(@extschema@.heavy_summary, int, int, boolean, int, int, boolean,
                                            @extschema@.heavy_protocol)
  RETURNS @extschema@.heavy_summary
  AS 'MODULE_PATHNAME', 'ldp_bitstogram_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bitstogram_trans(@extschema@.heavy_summary, int, int, boolean, int, int, boolean, @extschema@.heavy_protocol) IS 'Transition function of ldp.bitstogram_agg (aggregate context only).';
CREATE AGGREGATE @extschema@.bitstogram_agg(coordinate int, hadamard_row int, symbol_report boolean, hash_index int,
                                            coefficient int, item_report boolean, protocol @extschema@.heavy_protocol) (
  SFUNC = @extschema@.bitstogram_trans, STYPE = @extschema@.heavy_summary,
  COMBINEFUNC = @extschema@.heavy_combine, PARALLEL = SAFE);
COMMENT ON AGGREGATE @extschema@.bitstogram_agg(int, int, boolean, int, int, boolean, @extschema@.heavy_protocol) IS 'Bitstogram: (coordinate, hadamard_row, symbol_report, hash_index, coefficient, item_report) reports of ldp.bitstogram_encode under one protocol; heavy-hitters summary.';

CREATE FUNCTION @extschema@.bitstogram_encode(item text, protocol @extschema@.heavy_protocol, seed bigint DEFAULT NULL,
                                             OUT coordinate int, OUT hadamard_row int, OUT symbol_report boolean,
                                             OUT hash_index int, OUT coefficient int, OUT item_report boolean)
  AS 'MODULE_PATHNAME', 'ldp_bitstogram_encode' LANGUAGE C VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bitstogram_encode(text, @extschema@.heavy_protocol, bigint) IS 'Simulation: a Bitstogram report of the string item (coordinate in 1..levels; the Hadamard-response row and report of (bucket, symbol); the final count sketch''s hash_index, coefficient and report). An item the protocol cannot encode raises 22003. Seed as in ldp.rr_encode.';
CREATE FUNCTION @extschema@.bitstogram_encode(item bigint, protocol @extschema@.heavy_protocol, seed bigint DEFAULT NULL,
                                             OUT coordinate int, OUT hadamard_row int, OUT symbol_report boolean,
                                             OUT hash_index int, OUT coefficient int, OUT item_report boolean)
  AS 'MODULE_PATHNAME', 'ldp_bitstogram_encode_int8' LANGUAGE C VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bitstogram_encode(bigint, @extschema@.heavy_protocol, bigint) IS 'Simulation: a Bitstogram report of a 64-bit integer id under an int64 protocol (ldp.bitstogram_int8_protocol). Seed as in ldp.rr_encode.';
COMMENT ON FUNCTION @extschema@.mechanism(@extschema@.heavy_summary) IS 'The heavy-hitters protocol: treehist, bitstogram, pem or sfp.';
