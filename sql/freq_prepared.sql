-- frequency(s, item) decodes a summary once per query and answers every item from
-- that (src/pg/freq/freq_type.cpp): the cache must never answer for another summary.
SET search_path = public, ldp;

-- two different summaries, large enough to be stored out of line (TOAST), and a small one
CREATE TABLE prepared (id int, s freq_summary);
ALTER TABLE prepared ALTER COLUMN s SET STORAGE external;
INSERT INTO prepared
SELECT 1, hadamard_agg(r."row", r.report, 1.0, 5000) FROM generate_series(1, 20000) i, hadamard_encode(i % 7, 1.0, 5000, i) r
UNION ALL
SELECT 2, hadamard_agg(r."row", r.report, 1.0, 5000) FROM generate_series(1, 20000) i, hadamard_encode(i % 11, 1.0, 5000, i + 100000) r
UNION ALL
SELECT 3, grr_agg(grr_encode(i % 5, 1.0, 5000, i), 1.0, 5000) FROM generate_series(1, 2000) i;
SELECT id, pg_column_size(s) > 2000 AS out_of_line FROM prepared ORDER BY id;

-- row by row, alternating summaries, each answer equals the one frequencies() gives
CREATE TABLE answers AS
SELECT p.id, i AS item, frequency(p.s, i) AS f
FROM generate_series(0, 40) i, prepared p;
SELECT count(*) AS answers,
       count(*) FILTER (WHERE a.f IS DISTINCT FROM f.frequency) AS wrong
FROM answers a JOIN prepared p USING (id)
CROSS JOIN LATERAL frequencies(p.s) f WHERE f.item = a.item;
-- the same summary given again after another one, and as an inline value
SELECT count(*) FILTER (WHERE x.f IS DISTINCT FROM y.f) AS wrong
FROM (SELECT v.k, frequency(v.s, 3) AS f
      FROM (SELECT 1 AS k, s FROM prepared WHERE id = 1 UNION ALL SELECT 2, s FROM prepared WHERE id = 2
            UNION ALL SELECT 3, s FROM prepared WHERE id = 1 UNION ALL SELECT 4, s::text::freq_summary FROM prepared WHERE id = 2) v) x
JOIN (SELECT 1 AS k, (SELECT f.frequency FROM prepared p, frequencies(p.s) f WHERE p.id = 1 AND f.item = 3) AS f
      UNION ALL SELECT 2, (SELECT f.frequency FROM prepared p, frequencies(p.s) f WHERE p.id = 2 AND f.item = 3)
      UNION ALL SELECT 3, (SELECT f.frequency FROM prepared p, frequencies(p.s) f WHERE p.id = 1 AND f.item = 3)
      UNION ALL SELECT 4, (SELECT f.frequency FROM prepared p, frequencies(p.s) f WHERE p.id = 2 AND f.item = 3)) y USING (k);
-- an aggregate's result in the same expression (a live summary: decoded, not cached)
SELECT frequency(grr_agg(grr_encode(i % 5, 1.0, 6, i), 1.0, 6), 2)
     = (SELECT f.frequency FROM frequencies((SELECT grr_agg(grr_encode(i % 5, 1.0, 6, i), 1.0, 6) FROM generate_series(1, 500) i)) f
        WHERE f.item = 2) AS live_ok
FROM generate_series(1, 500) i;
-- an empty summary, then a full one: NULL, then its estimate
SELECT v.k, frequency(v.s, 1) IS NULL AS is_null
FROM (SELECT 1 AS k, 'v1:grr{epsilon=1,k=3,n=0,counts=[0,0,0]}'::freq_summary AS s
      UNION ALL SELECT 2, 'v1:grr{epsilon=1,k=3,n=3,counts=[1,1,1]}') v ORDER BY k;
-- an item outside the domain is still an error after a cached answer
SELECT try_sql($$SELECT frequency(s, i) FROM prepared, (VALUES (1), (4999), (5000)) v(i) WHERE id = 1$$);
DROP TABLE prepared, answers;
