-- Finding of test/fuzz.sh (summary fuzzer, "user-defined aggregates over ldp's transition
-- functions refuse foreign states or agree with rollup", and "no internal error (XX000)
-- raised by ldp"). Any role with the TEMP privilege (PUBLIC has it by default) can build
-- an aggregate over ldp's transition functions with an initial state of its choosing:
--
--   * the mean transition functions (src/pg/mean/mean_aggregates.cpp, mean_state) take any
--     non-NULL state as their own full-size memory image: no check of the mechanism, of
--     the parameters (when the call's parameters are constants) or of the stored packed
--     form (kMeanPackedTag) that the input function returns for laplace and piecewise.
--     A packed state is 50-100 bytes; the functions read report_lo/report_hi and the
--     exact sums (about 1.2 KB) past its end and write into it in place. ASan does not
--     see this (the state is a palloc chunk inside a larger block); the results show it;
--   * the frequency transition functions check the mechanism in the core and raise
--     XX000 "a sue report added to a freq_summary of mechanism 1" (an internal error for
--     a user's mistake), let sue_trans take an oue state and vice versa, and skip the
--     parameter check when the call's parameters are constants.
--
-- Replay: psql -X -f test/fuzz/findings/transition_state.sql (any role, a database with ldp).
\set ON_ERROR_STOP 0

-- 1. rr_trans on a piecewise state (stored packed form): the bits are added into the
--    bytes of the binary form; the result is a piecewise summary with another sum.
CREATE AGGREGATE pg_temp.rr_on_piecewise(boolean, float8) (sfunc = ldp.rr_trans, stype = ldp.mean_summary,
  initcond = 'v1:piecewise{epsilon=2,max_value=10,n=4649368480934526977,sum=0x57ee0d5166a0317000p-64,sumsq_unit=0xaa4aa744ebd724610p-64}');
SELECT pg_temp.rr_on_piecewise(r, 2)::text FROM (VALUES (true), (false), (true)) v(r);
--    gives v1:piecewise{...,sum=0x20057ee0d5166a0347000p-64,...}; ldp.rollup refuses to merge piecewise and rr

-- 2. laplace_mean_trans on a laplace state of its own mechanism and parameters: the
--    packed form is read as a memory image, whose report range lies partly past the end
--    of the datum, so the outcome depends on the memory there. In the fuzz run it gave
--    v1:laplace{...,n=4649368480934526976,sum=0x8456fb47e393d36000p-64,...} (the reports
--    written into the bytes of the sum, the count unchanged) where the rollup below gives
--    n + 3; a replay refused "report 0 ... its reports lie in [-1.00539097903027e+120,
--    -1.83255013297412e-06]", a range made of whatever follows the datum.
CREATE AGGREGATE pg_temp.lap_from(float8, float8, float8) (sfunc = ldp.laplace_mean_trans, stype = ldp.mean_summary,
  initcond = 'v1:laplace{epsilon=1,max_value=10,n=4649368480934526976,sum=0x8456fb47e393d06000p-64,sumsq_unit=0x2e0febd8d8346f1140p-64}');
SELECT pg_temp.lap_from(y, 1, 10)::text FROM (VALUES (0::float8), (2.5), (-10)) v(y);
SELECT ldp.rollup(x)::text FROM (VALUES ('v1:laplace{epsilon=1,max_value=10,n=4649368480934526976,sum=0x8456fb47e393d06000p-64,sumsq_unit=0x2e0febd8d8346f1140p-64}'::ldp.mean_summary),
  ((SELECT ldp.laplace_mean_agg(y, 1, 10) FROM (VALUES (0::float8), (2.5), (-10)) v(y)))) w(x);
--    a small laplace state: its report range is read from past the end of the datum
CREATE AGGREGATE pg_temp.lap_small(float8, float8, float8) (sfunc = ldp.laplace_mean_trans, stype = ldp.mean_summary,
  initcond = 'v1:laplace{epsilon=1,max_value=10,n=2,sum=0x3p0,sumsq_unit=0x5p-6}');
SELECT pg_temp.lap_small(y, 1, 10)::text FROM (VALUES (1.5::float8), (2.5)) v(y);
--    "report 1.5 cannot come from the laplace mechanism with epsilon 3.00477919619106e-315 and
--    max_value 0: its reports lie in [-1.83255064721201e-06, ...]" in one run, "sums are
--    impossible for 2 laplace reports" in another

-- 3. other mechanisms and parameters taken silently
CREATE AGGREGATE pg_temp.onebit_on_rr(boolean, float8, float8) (sfunc = ldp.onebit_mean_trans, stype = ldp.mean_summary,
  initcond = 'v1:rr{epsilon=1,n=50,ones=21}');
SELECT pg_temp.onebit_on_rr(r, 1, 10)::text FROM (VALUES (true), (false), (true)) v(r);   -- v1:rr{epsilon=1,n=53,ones=23}
CREATE AGGREGATE pg_temp.grr_eps(int, float8, int) (sfunc = ldp.grr_trans, stype = ldp.freq_summary,
  initcond = 'v1:grr{epsilon=1,k=4,n=30,counts=[7,5,9,9]}');
SELECT pg_temp.grr_eps(i, 0.75, 4)::text FROM (VALUES (0), (3), (1)) v(i);   -- epsilon 0.75 reports in an epsilon 1 summary
CREATE AGGREGATE pg_temp.sue_on_oue(varbit, float8) (sfunc = ldp.sue_trans, stype = ldp.freq_summary,
  initcond = 'v1:oue{epsilon=2,k=5,n=4194304,counts=[4,3,4,5,3]}');
SELECT pg_temp.sue_on_oue(b, 2)::text FROM (VALUES (B'10000'::varbit), (B'00001'), (B'01000')) v(b);   -- SUE reports in an OUE summary

-- 4. an internal error (XX000) for a state of another frequency mechanism
CREATE AGGREGATE pg_temp.sue_on_grr(varbit, float8) (sfunc = ldp.sue_trans, stype = ldp.freq_summary,
  initcond = 'v1:grr{epsilon=1,k=4,n=12,counts=[6,2,1,3]}');
\set VERBOSITY verbose
SELECT pg_temp.sue_on_grr(b, 1)::text FROM (VALUES (B'0100'), (B'0010')) v(b);
