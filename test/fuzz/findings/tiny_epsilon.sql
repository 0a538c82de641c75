-- Finding of test/fuzz.sh (summary fuzzer, "summary accessors give NULL, a data exception
-- or finite numbers"): an epsilon > 0 so small that e^epsilon rounds to 1 is accepted by
-- the input and receive functions and by the aggregates, and the accessors then return
-- infinities (division by e^epsilon - 1 = 0). Seen for epsilon from 5e-324 up to
-- 1.6e-255 (every mechanism); the README promises epsilon in (0, 700].
-- Replay: psql -X -f test/fuzz/findings/tiny_epsilon.sql (any role, a database with ldp).
SELECT ldp.estimate(s), ldp.std_error(s), ldp.ci_upper(s)
FROM (SELECT 'v1:rr{epsilon=2.121995791e-314,n=1,ones=1}'::ldp.mean_summary AS s) q;    -- Infinity
SELECT ldp.error_bound('v1:piecewise{epsilon=1.5e-323,max_value=10,n=20,sum=0x57ee0d5166a0317000p-64,sumsq_unit=0xaa4aa744ebd724610p-64}'::ldp.mean_summary, 0.05);  -- Infinity
SELECT * FROM ldp.frequencies('v1:oue{epsilon=2.072262e-317,k=5,n=16,counts=[4,3,4,5,3]}'::ldp.freq_summary);  -- -Infinity / Infinity
-- the same through the aggregates (the parameter check accepts the epsilon)
SELECT item, frequency, std_error, ci_lower, ci_upper
FROM ldp.frequencies((SELECT ldp.grr_agg(i % 4, 1e-300, 4) FROM generate_series(1, 10) i)) LIMIT 2;  -- std_error Infinity
SELECT ldp.estimate(ldp.rr_agg(r, 5e-324)) FROM (VALUES (true), (false), (true)) v(r);   -- Infinity
