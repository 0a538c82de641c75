-- Every documented error of the frequency oracles, with its SQLSTATE.
SET search_path = public, ldp;

-- parameters
SELECT try_sql('SELECT grr_agg(0, 1, 1)');
SELECT try_sql('SELECT grr_agg(0, 0, 4)');
SELECT try_sql('SELECT grr_agg(0, 1, NULL)');
SELECT try_sql('SELECT grr_agg(0, 1, k) FROM generate_series(2, 4) k');
SELECT try_sql('SELECT grr_agg(0, e, 4 ORDER BY e) FROM generate_series(1, 3) e');
SELECT try_sql($$SELECT dbitflip_agg(b, v, e, 4) FROM (VALUES ('{0,1}'::int[], '{t,f}'::boolean[], 1), ('{2,3}', '{f,t}', 2)) x(b, v, e)$$);
SELECT try_sql($$SELECT hadamard_agg(r, b, 1, k) FROM (VALUES (0, true, 4), (1, false, 8)) x(r, b, k)$$);
SELECT try_sql('SELECT olh_agg(1, 0, 30, 4)');
SELECT try_sql($$SELECT sue_agg(B'1', 1)$$);
-- reports the mechanism cannot produce
SELECT try_sql('SELECT grr_agg(4, 1, 4)');
SELECT try_sql('SELECT grr_agg(-1, 1, 4)');
SELECT try_sql($$SELECT sue_agg(r, 1) FROM (VALUES (B'100'), (B'1000')) v(r)$$);
SELECT try_sql($$SELECT dbitflip_agg('{0,1}', '{t}', 1, 4)$$);
SELECT try_sql($$SELECT dbitflip_agg('{1,1}', '{t,f}', 1, 4)$$);
SELECT try_sql($$SELECT dbitflip_agg('{0,4}', '{t,f}', 1, 4)$$);
SELECT try_sql($$SELECT dbitflip_agg(b, v, 1, 4) FROM (VALUES ('{0,1}'::int[], '{t,f}'::boolean[]), ('{0,1,2}', '{t,f,f}')) x(b, v)$$);
SELECT try_sql($$SELECT dbitflip_agg('{0,NULL}', '{t,f}', 1, 4)$$);
-- the same reports read from a table, where small arrays are stored packed (1-byte
-- header, unaligned elements) and read in place
CREATE TABLE dbf_stored (id int, b int[], v boolean[]);
INSERT INTO dbf_stored VALUES (1, '{0,1}', '{t,f}'), (2, '{2,3}', '{f,t}'), (3, '{3,0}', '{t,t}');
SELECT dbitflip_agg(b, v, 1, 4)::text FROM dbf_stored;
SELECT dbitflip_agg(b, v, 1, 4)::text = dbitflip_agg(b::text::int[], v::text::boolean[], 1, 4)::text AS same_as_unpacked FROM dbf_stored;
INSERT INTO dbf_stored VALUES (4, '{0,1}', '{t}');
SELECT try_sql($$SELECT dbitflip_agg(b, v, 1, 4) FROM dbf_stored$$);
UPDATE dbf_stored SET b = '{1,1}', v = '{t,f}' WHERE id = 4;
SELECT try_sql($$SELECT dbitflip_agg(b, v, 1, 4) FROM dbf_stored$$);
UPDATE dbf_stored SET b = '{0,NULL}', v = '{t,f}' WHERE id = 4;
SELECT try_sql($$SELECT dbitflip_agg(b, v, 1, 4) FROM dbf_stored$$);
UPDATE dbf_stored SET b = '{{0,1}}', v = '{{t,f}}' WHERE id = 4;
SELECT try_sql($$SELECT dbitflip_agg(b, v, 1, 4) FROM dbf_stored$$);
UPDATE dbf_stored SET b = '{0,9}', v = '{t,f}' WHERE id = 4;
SELECT try_sql($$SELECT dbitflip_agg(b, v, 1, 4) FROM dbf_stored$$);
UPDATE dbf_stored SET b = '{}', v = '{}' WHERE id = 4;
SELECT try_sql($$SELECT dbitflip_agg(b, v, 1, 4) FROM dbf_stored$$);
-- a large d goes through the general path
SELECT dbitflip_agg(b, v, 1, 40)::text = dbitflip_agg(b::text::int[], v::text::boolean[], 1, 40)::text AS large_d_same
FROM (SELECT array_agg(i) AS b, array_agg(i % 3 = 0) AS v FROM generate_series(0, 19) i) x;
DROP TABLE dbf_stored;
SELECT try_sql('SELECT olh_agg(5, 100, 1, 4)');
SELECT try_sql('SELECT olh_agg(NULL, 1, 1, 4)');
SELECT try_sql('SELECT hadamard_agg(4, true, 1, 3)');
SELECT try_sql('SELECT hadamard_agg(-1, true, 1, 3)');
SELECT try_sql('SELECT hadamard_agg(1, NULL, 1, 3)');
-- accessors
SELECT try_sql($$SELECT * FROM (SELECT grr_agg(0, 1, 4) s) q, ldp.frequencies(q.s, 'bogus')$$);
SELECT try_sql($$SELECT ldp.frequency(grr_agg(0, 1, 4), 4)$$);
-- merging different summaries
SELECT try_sql($$SELECT rollup(s) FROM (SELECT grr_agg(0, 1, 4) s UNION ALL SELECT grr_agg(0, 2, 4)) q$$);
SELECT try_sql($$SELECT rollup(s) FROM (SELECT grr_agg(0, 1, 4) s UNION ALL SELECT grr_agg(0, 1, 5)) q$$);
SELECT try_sql($$SELECT rollup(s) FROM (SELECT grr_agg(0, 1, 4) s UNION ALL SELECT hadamard_agg(0, true, 1, 4)) q$$);
-- encoders
SELECT try_sql('SELECT grr_encode(9, 1, 4, 1)');
SELECT try_sql('SELECT sue_encode(0, 1, 1, 1)');
SELECT try_sql('SELECT dbitflip_encode(0, 1, 4, 5, 1)');
SELECT try_sql('SELECT hadamard_encode(0, -1, 4, 1)');
-- malformed summaries
SELECT try_sql($$SELECT 'v1:grr{epsilon=1,k=4,n=3,counts=[1,1,1]}'::freq_summary$$);
SELECT try_sql($$SELECT 'v1:grr{epsilon=1,k=4,n=3,counts=[1,1,1,1]}'::freq_summary$$);
SELECT try_sql($$SELECT 'v1:grr{epsilon=1,k=4,n=3,counts=[1,1,-1,2]}'::freq_summary$$);
SELECT try_sql($$SELECT 'v2:grr{epsilon=1,k=4,n=3,counts=[1,1,1,0]}'::freq_summary$$);
SELECT try_sql($$SELECT 'v1:sue{epsilon=1,k=2,n=3,counts=[4,0]}'::freq_summary$$);
SELECT 'v1:grr{epsilon=1,k=4,n=3,counts=[1,1,1,0]}'::freq_summary;
