-- Finding of test/fuzz.sh (summary fuzzer, "summary accessors give NULL, a data exception
-- or finite numbers, and agree where they must"), 2026-11-26: rappor_decode's detected
-- candidates take the unconstrained least-squares estimate (0.9.0), which can leave [0, 1]:
-- '' below came out at 730 reports of 400 (proportion 1.83) with ci_lower 1.28 > ci_upper 1.
-- Fixed: proportion, count and interval clamped to [0, 1] (count to [0, n]); unit test
-- RapporDecode.EstimatesStayInTheUnitInterval.
-- Replay: psql -X -f test/fuzz/findings/rappor_decode_outside_unit.sql (a database with ldp).
SELECT * FROM ldp.rappor_decode('v1:rappor{bits=16,hashes=2,cohorts=1,f=0.75,p=0.25,q=0.5,n=400,rows=1,cohort=[0],reports=[400],ones=[145,152,157,215,152,146,163,152,143,169,148,160,216,148,173,152]}'::ldp.rappor_summary, ARRAY['a', NULL, 'x', '']);
SELECT * FROM ldp.rappor_decode('v1:rappor{bits=8,hashes=2,cohorts=4,f=0.7,p=0.25,q=0.75,n=60,rows=4,cohort=[0,1,2,3],reports=[16,21,9,14],ones=[5,5,11,10,5,10,6,6,7,11,7,8,12,10,8,11,6,3,3,3,5,4,2,5,7,7,5,5,3,4,4,11]}'::ldp.rappor_summary, ARRAY['a', NULL, 'x', '']);
