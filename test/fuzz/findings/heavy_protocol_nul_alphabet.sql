-- Finding of test/fuzz.sh (summary fuzzer, "summary forms accepted read back the same
-- from text and binary"), on ldp.heavy_protocol: a binary form whose alphabet holds
-- U+0000 ("a\0c", the seed treehist_protocol(2, 100, 'abc', 4, 2, 2, 8) with one byte
-- changed) was accepted, and its text form, a C string cut at the NUL
-- (v1:treehist{epsilon=2,domain=alphabet,alphabet="a), did not read back (22P02). The
-- same held for a heavy_summary whose protocol has such an alphabet. Fixed in
-- src/core/heavy/heavy_protocol.cpp: an alphabet may not contain U+0000 (22P03 here).
-- Replay: psql -X -f test/fuzz/findings/heavy_protocol_nul_alphabet.sql (any role, a
-- database with ldp; writes heavy_protocol_nul_alphabet.bin in the current directory).
CREATE TEMP TABLE nul_raw (b bytea);
INSERT INTO nul_raw VALUES
  ('\x01010140000000000000000000000000000004000000000000000200000000000000020000000000000002000000000000000800000000000000640003610063');
\copy nul_raw TO 'heavy_protocol_nul_alphabet.bin' WITH (FORMAT binary)
CREATE TEMP TABLE nul_protocol (p ldp.heavy_protocol);
\copy nul_protocol FROM 'heavy_protocol_nul_alphabet.bin' WITH (FORMAT binary)
SELECT p::text, p::text::ldp.heavy_protocol FROM nul_protocol;  -- before: alphabet="a, then 22P02
