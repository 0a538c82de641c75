-- Findings of the summary fuzzer (test/fuzz.sh) on ldp.range_protocol, before it was
-- released. (1) "summary accessors give ... finite numbers": a log protocol whose lo is
-- subnormal (5e-324, the seed range_protocol(0.5, 5, mapping => 'log', lo => 0.1, hi => 1e6)
-- with bytes changed) was accepted; hi/lo overflows, so every bucket edge was NaN and
-- quantile(s, 0.5) gave NaN. (2) "summary forms accepted read back the same": a floor
-- protocol whose binary form holds hi = -0 was accepted, and its text form (a floor
-- protocol writes no bounds) read back with hi = +0, other bytes. Fixed in
-- src/core/range/range_protocol.cpp: a log mapping needs a finite hi/lo, a floor one
-- bounds of +0 (22P02 / 22P03 here).
-- Replay: psql -X -f test/fuzz/findings/range_protocol_bounds.sql (any role, a database
-- with ldp; writes range_protocol_bounds.bin in the current directory).
SELECT 'v1:haar{epsilon=0.5,domain_bits=5,mapping=log,lo=5e-324,hi=1e+06}'::ldp.range_protocol;  -- before: accepted
CREATE TEMP TABLE bounds_raw (b bytea);
INSERT INTO bounds_raw VALUES
  ('\x0101013ff0000000000000000000000000000400000000000000008000000000000000');
\copy bounds_raw TO 'range_protocol_bounds.bin' WITH (FORMAT binary)
CREATE TEMP TABLE bounds_protocol (p ldp.range_protocol);
\copy bounds_protocol FROM 'range_protocol_bounds.bin' WITH (FORMAT binary)
SELECT p::text, ldp.range_protocol_send(p) FROM bounds_protocol;  -- before: hi = -0 kept in the binary form only
