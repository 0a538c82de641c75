-- Sketch frequency oracles over strings: cms_agg, hcms_agg, hashtogram_agg, their
-- encoders and accessors, rollup, text and binary round trips, forced parallel =
-- serial, prepared frequency(s, word) = frequencies(s, items), the stored size,
-- ldp.summary, a collection of sketches, and every error.
SET search_path = public, ldp;

-- Encoders: reproducible with a seed; the report's shape.
SELECT (cms_encode('apple', 2, 16, 64, 1)).hash_index IS NOT NULL AS has_row,
       length((cms_encode('apple', 2, 16, 64, 1)).report) AS cms_bits,
       cms_encode('apple', 2, 16, 64, 7) = cms_encode('apple', 2, 16, 64, 7) AS cms_reproducible,
       hcms_encode('apple', 2, 16, 64, 7) = hcms_encode('apple', 2, 16, 64, 7) AS hcms_reproducible,
       hashtogram_encode('apple', 2, 16, 64, 7) = hashtogram_encode('apple', 2, 16, 64, 7) AS ht_reproducible;
-- with no noise to speak of (epsilon 60) a cms report is one-hot at h_j(x), and
-- xxh64('apple', seed 0..2) mod 1024 = 671, 694, 919 (docs/algorithms/README.md#hashes-and-bit-orders)
SELECT e.hash_index, position('1' IN e.report::text) - 1 AS one_at
FROM (SELECT (cms_encode('apple', 60, 3, 1024, s)).* FROM generate_series(1, 40) s) e
GROUP BY 1, 2 ORDER BY 1;
SELECT cms_encode(NULL, 2, 16, 64, 1) IS NULL AS null_item_gives_null;

-- A population of 20000 users over 40 words, skewed: w1 is about 29%, w2 8%, ...
CREATE TABLE words AS
SELECT i, 'w' || (1 + floor(40 * power(((i * 7919) % 10007) / 10007.0, 3)))::int AS word FROM generate_series(1, 20000) i;
SELECT word, count(*) FROM words GROUP BY word ORDER BY count(*) DESC, word LIMIT 5;
CREATE TABLE sreports AS
SELECT i, word, (cms_encode(word, 3, 16, 128, i)).hash_index AS cms_j, (cms_encode(word, 3, 16, 128, i)).report AS cms_v,
       (hcms_encode(word, 3, 16, 128, i)).*,
       (hashtogram_encode(word, 3, 16, 128, i)).hash_index AS ht_j,
       (hashtogram_encode(word, 3, 16, 128, i)).coefficient AS ht_l,
       (hashtogram_encode(word, 3, 16, 128, i)).report AS ht_y
FROM words;
ANALYZE sreports;
CREATE TABLE ssums AS
SELECT 'cms' AS m, cms_agg(cms_j, cms_v, 3, 16) AS s FROM sreports
UNION ALL SELECT 'hcms', hcms_agg(hash_index, coefficient, report, 3, 16, 128) FROM sreports
UNION ALL SELECT 'hashtogram', hashtogram_agg(ht_j, ht_l, ht_y, 3, 16, 128) FROM sreports;
SELECT m, mechanism(s), report_count(s), epsilon(s), hash_count(s), width(s),
       pg_column_size(s) AS stored_bytes, octet_length(sketch_summary_send(s)) AS binary_bytes
FROM ssums ORDER BY m;

-- Estimates of the top words against the truth: within 4 standard errors.
WITH truth AS (SELECT word, count(*)::float8 / 20000 AS f FROM words GROUP BY word)
SELECT m, f.item, round(t.f::numeric, 4) AS truth,
       abs(f.frequency - coalesce(t.f, 0)) < 4 * f.std_error AS within_4_se,
       abs(f.count - f.frequency * 20000) < 1e-9 * abs(f.count) AS count_is_n_times,
       f.ci_lower < f.frequency AND f.frequency < f.ci_upper AS interval_around
FROM ssums, frequencies(s, ARRAY['w1', 'w2', 'w3', 'absent', NULL]) WITH ORDINALITY f
LEFT JOIN truth t ON t.word = f.item ORDER BY m, f.ordinality;
-- one row per element, in array order, NULL element included
SELECT m, array_agg(coalesce(item, '<null>') ORDER BY o) FROM ssums,
  frequencies(s, ARRAY['b', 'a', NULL, 'a']) WITH ORDINALITY AS f(item, frequency, count, std_error, ci_lower, ci_upper, o)
GROUP BY m ORDER BY m;
SELECT m, count(*) FROM ssums, frequencies(s, '{}'::text[]) GROUP BY m ORDER BY m;

-- frequency(s, word) row by row (decoded once per query) = the array form.
CREATE TABLE dictionary AS SELECT 'w' || i AS word FROM generate_series(1, 300) i;
SELECT m, bool_and(frequency(s, d.word) = f.frequency) AS per_row_equals_array, count(*)
FROM ssums, dictionary d JOIN LATERAL (SELECT * FROM frequencies(s, ARRAY[d.word])) f ON true
GROUP BY m ORDER BY m;
-- alternating summaries in one query: each row answers from its own summary
SELECT bool_and(frequency(s, 'w1') = (SELECT frequency FROM frequencies(s, ARRAY['w1']))) AS alternating_ok
FROM (SELECT s FROM ssums, generate_series(1, 3) ORDER BY random()) x;
-- an aggregate's result (a live summary) in the same expression
SELECT round(frequency(hcms_agg(hash_index, coefficient, report, 3, 16, 128), 'w1')::numeric, 6) =
       round((SELECT frequency(s, 'w1') FROM ssums WHERE m = 'hcms')::numeric, 6) AS live_equals_stored
FROM sreports;
SELECT frequency(s, 'x') IS NULL AS empty_gives_null
FROM (SELECT hcms_agg(hash_index, coefficient, report, 3, 16, 128) AS s FROM sreports WHERE false) e;

-- Rollup of parts = the whole, bit for bit; text and binary round trips.
SELECT m, r.s::text = a.s::text AS rollup_equals_whole
FROM (SELECT 'cms' AS m, rollup(s) AS s FROM (SELECT cms_agg(cms_j, cms_v, 3, 16) AS s FROM sreports GROUP BY i % 7) p
      UNION ALL SELECT 'hcms', rollup(s) FROM (SELECT hcms_agg(hash_index, coefficient, report, 3, 16, 128) AS s FROM sreports GROUP BY i % 7) p
      UNION ALL SELECT 'hashtogram', rollup(s) FROM (SELECT hashtogram_agg(ht_j, ht_l, ht_y, 3, 16, 128) AS s FROM sreports GROUP BY i % 7) p) r
JOIN ssums a USING (m) ORDER BY m;
-- aggregation states keep pending counts: hcms and hashtogram buffer 1024 reports, then
-- count them in int16 counters added to the summary after 32767 reports of a row; cms
-- counts in byte counters added after 255 reports of a row. 70,000 reports into 2 x 4
-- counters cross those flushes, and equal the rollup of parts that never flush a row
SELECT (SELECT hcms_agg(i % 2, i % 4, i % 3 <> 0, 1, 2, 4) FROM generate_series(1, 70000) i)::text =
       (SELECT rollup(s)::text FROM (SELECT hcms_agg(i % 2, i % 4, i % 3 <> 0, 1, 2, 4) AS s
                                     FROM generate_series(1, 70000) i GROUP BY i % 10) p) AS signed_flushes_agree,
       (SELECT cms_agg(i % 2, (i % 16)::bit(4)::varbit, 1, 2) FROM generate_series(1, 3000) i)::text =
       (SELECT rollup(s)::text FROM (SELECT cms_agg(i % 2, (i % 16)::bit(4)::varbit, 1, 2) AS s
                                     FROM generate_series(1, 3000) i GROUP BY i % 30) p) AS cms_flushes_agree;
-- cms reports as a table stores them: short headers (read in place), compressed inline
-- and out of line (detoasted) give the summary of the same reports in memory
CREATE TABLE short_reports AS SELECT i % 2 AS j, (i % 16)::bit(4)::varbit AS report FROM generate_series(1, 3000) i;
CREATE TABLE long_reports AS
SELECT i % 2 AS j,
       CASE WHEN i % 3 = 0 THEN repeat(CASE WHEN i % 2 = 0 THEN '10' ELSE '01' END, 10000)::varbit
            ELSE (SELECT string_agg(CASE WHEN hashint4(i * 20000 + b) & 1 = 0 THEN '0' ELSE '1' END, '')
                  FROM generate_series(1, 20000) b)::varbit END AS report
FROM generate_series(1, 30) i;
SELECT (SELECT count(*) FILTER (WHERE pg_column_size(report) < 1000) FROM long_reports) AS compressed,
       (SELECT count(*) FILTER (WHERE pg_column_size(report) > 2000) FROM long_reports) AS out_of_line,
       (SELECT count(*) FILTER (WHERE pg_column_size(report) < 8) FROM short_reports) AS short_headers;
SELECT (SELECT cms_agg(j, report, 1, 2) FROM short_reports)::text =
       (SELECT cms_agg(i % 2, (i % 16)::bit(4)::varbit, 1, 2) FROM generate_series(1, 3000) i)::text AS short_agree,
       (SELECT cms_agg(j, report, 1, 2) FROM long_reports)::text =
       (SELECT cms_agg(j, report::text::varbit, 1, 2) FROM long_reports)::text AS toasted_agree;
DROP TABLE short_reports, long_reports;
SELECT m, s::text::sketch_summary::text = s::text AS text_round_trip, left(s::text, 45) FROM ssums ORDER BY m;
SELECT regress_file('ldp_regress_sketch.bin') AS bin_file \gset
COPY ssums TO :'bin_file' WITH (FORMAT binary);
CREATE TABLE ssums_copy (LIKE ssums);
COPY ssums_copy FROM :'bin_file' WITH (FORMAT binary);
SELECT a.m, a.s::text = b.s::text AS binary_round_trip FROM ssums a JOIN ssums_copy b USING (m) ORDER BY m;
SELECT 'v1:hcms{epsilon=1,hashes=1,width=2,n=1,sums=[0,-1]}'::sketch_summary;
SELECT encode(sketch_summary_send('v1:hcms{epsilon=1,hashes=1,width=2,n=1,sums=[0,-1]}'), 'hex');

-- ldp.summary: cast, kind, accessors.
SELECT m, summary_kind(s::summary), report_count(s::summary), mechanism(s::summary),
       (s::summary)::sketch_summary::text = s::text AS cast_round_trip
FROM ssums ORDER BY m;
SELECT try_sql($$SELECT (SELECT s FROM ssums WHERE m = 'cms')::summary::freq_summary$$);
SELECT try_sql($$SELECT rr_agg(true, 1)::summary::sketch_summary$$);

-- Forced parallel plans give the serial summaries bit for bit.
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
CALL regress_force_parallel(true);
EXPLAIN (COSTS OFF) SELECT hcms_agg(hash_index, coefficient, report, 3, 16, 128) FROM sreports;
SELECT p.m, p.s::text = f.s::text AS parallel_equals_serial
FROM (SELECT 'cms' AS m, cms_agg(cms_j, cms_v, 3, 16) AS s FROM sreports
      UNION ALL SELECT 'hcms', hcms_agg(hash_index, coefficient, report, 3, 16, 128) FROM sreports
      UNION ALL SELECT 'hashtogram', hashtogram_agg(ht_j, ht_l, ht_y, 3, 16, 128) FROM sreports) p
JOIN ssums f USING (m) ORDER BY m;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;
CALL regress_force_parallel(false);

-- NULL reports are skipped; partly NULL reports are errors.
SELECT report_count(hcms_agg(j, l, y, 1, 4, 8)) FROM (VALUES (0, 1, true), (NULL, NULL, NULL)) v(j, l, y);
SELECT try_sql($$SELECT hcms_agg(j, l, y, 1, 4, 8) FROM (VALUES (0, NULL::int, true)) v(j, l, y)$$);
SELECT try_sql($$SELECT cms_agg(j, r, 1, 4) FROM (VALUES (NULL::int, B'0101')) v(j, r)$$);

-- Bad input.
SELECT try_sql($$SELECT hcms_agg(4, 0, true, 1, 4, 8)$$);
SELECT try_sql($$SELECT hcms_agg(-1, 0, true, 1, 4, 8)$$);
SELECT try_sql($$SELECT hashtogram_agg(0, 8, true, 1, 4, 8)$$);
SELECT try_sql($$SELECT hcms_agg(0, 0, true, 1, 4, 12)$$);
SELECT try_sql($$SELECT hashtogram_agg(0, 0, true, 1, 4, 0)$$);
SELECT try_sql($$SELECT hcms_agg(0, 0, true, 1, 4096, 4096)$$);
SELECT try_sql($$SELECT hcms_agg(0, 0, true, 1, 0, 8)$$);
SELECT try_sql($$SELECT hcms_agg(0, 0, true, 0, 4, 8)$$);
SELECT try_sql($$SELECT hcms_agg(0, 0, true, NULL, 4, 8)$$);
SELECT try_sql($$SELECT cms_agg(0, r, 1, 4) FROM (VALUES (B'0101'), (B'01')) v(r)$$);
SELECT try_sql($$SELECT cms_agg(4, B'0101', 1, 4)$$);
SELECT try_sql($$SELECT cms_agg(0, B'1', 1, 4)$$);
SELECT try_sql($$SELECT cms_agg(0, repeat('0', 2097152)::varbit, 1, 4)$$);
SELECT try_sql($$SELECT hcms_agg(0, 0, true, e, 4, 8) FROM (VALUES (1.0), (2.0)) v(e)$$);
SELECT try_sql($$SELECT cms_encode('x', 1, 4, 3000000)$$);
SELECT try_sql($$SELECT hcms_encode('x', 1, 4, 100)$$);
SELECT try_sql($$SELECT hashtogram_encode('x', -1, 4, 64)$$);
SELECT try_sql($$SELECT rollup(s) FROM (SELECT hcms_agg(0, 0, true, 1, 4, 8) AS s UNION ALL SELECT hcms_agg(0, 0, true, 1, 4, 16)) x$$);
SELECT try_sql($$SELECT rollup(s) FROM (SELECT hcms_agg(0, 0, true, 1, 4, 8) AS s UNION ALL SELECT hashtogram_agg(0, 0, true, 1, 4, 8)) x$$);
SELECT try_sql($$SELECT frequencies('v1:hcms{epsilon=1,hashes=1,width=2,n=1,sums=[0,-1]}'::sketch_summary, ARRAY[ARRAY['a']])$$);
-- malformed forms: 22P02 (text) and 22P03 (binary)
SELECT try_sql($$SELECT 'v1:hcms{epsilon=1,hashes=1,width=2,n=1,sums=[1,1]}'::sketch_summary$$);
SELECT try_sql($$SELECT 'v1:cms{epsilon=1,hashes=2,width=2,n=1,counts=[1,0,0,1]}'::sketch_summary$$);
SELECT try_sql($$SELECT 'v1:hcms{epsilon=1,hashes=1,width=3,n=0,sums=[0,0,0]}'::sketch_summary$$);
SELECT try_sql($$SELECT 'v1:hcms{epsilon=1,hashes=100000,width=1024,n=0,sums=[]}'::sketch_summary$$);
SELECT try_sql($$SELECT 'v2:hcms{}'::sketch_summary$$);
SELECT try_sql($$SELECT 'v1:grr{epsilon=1,k=2,n=0,counts=[0,0]}'::sketch_summary$$);

-- Forms 0.6.0 wrote (recorded by its build: later builds must give the same estimates;
-- a new stored format adds a reader, it never changes these). 0.6.0 sent format 2 (i64
-- counters); 0.7.0 sends format 3 (compact counters, here 1 byte each); sql/forms.sql
-- reads 0.6.0's bytes, from a table and from COPY BINARY.
SET extra_float_digits = 3;
CREATE TABLE forms_060 (m text, txt text, bin text);
INSERT INTO forms_060 VALUES
  ('cms', 'v1:cms{epsilon=1.5,hashes=3,width=5,n=200,counts=[21,15,24,20,20,33,30,21,33,27,33,37,36,24,30]}',
   '4c4450530203013ff80000000000000000000000000003000000000000000500000000000000c80000000000000015000000000000000f0000000000000018000000000000001400000000000000140000000000000021000000000000001e00000000000000150000000000000021000000000000001b0000000000000021000000000000002500000000000000240000000000000018000000000000001e'),
  ('hashtogram', 'v1:hashtogram{epsilon=1.5,hashes=3,width=4,n=200,sums=[5,-8,4,2,0,5,-4,-6,-14,-5,-2,-11]}',
   '4c4450530203033ff80000000000000000000000000003000000000000000400000000000000c80000000000000005fffffffffffffff80000000000000004000000000000000200000000000000000000000000000005fffffffffffffffcfffffffffffffffafffffffffffffff2fffffffffffffffbfffffffffffffffefffffffffffffff5'),
  ('hcms', 'v1:hcms{epsilon=1.5,hashes=3,width=4,n=200,sums=[9,-6,6,-12,10,5,0,0,16,-3,0,11]}',
   '4c4450530203023ff80000000000000000000000000003000000000000000400000000000000c80000000000000009fffffffffffffffa0000000000000006fffffffffffffff4000000000000000a0000000000000005000000000000000000000000000000000000000000000010fffffffffffffffd0000000000000000000000000000000b');
SELECT m, left(bin, 12) AS recorded_header, length(bin) / 2 AS recorded_bytes,
       encode(substr(sketch_summary_send(txt::sketch_summary), 1, 6), 'hex') AS written_header,
       length(sketch_summary_send(txt::sketch_summary)) AS written_bytes
FROM forms_060 ORDER BY m;
SELECT m, f.* FROM forms_060, frequencies(txt::sketch_summary, ARRAY['w0', 'w1', 'w2', 'w3', 'absent']) f ORDER BY m, f.item;
-- the same seeded reports still give the recorded summaries
SELECT m, x.s::text = f.txt AS same_summary FROM forms_060 f JOIN (
  SELECT 'cms' m, cms_agg(e.hash_index, e.report, 1.5, 3) s FROM generate_series(1, 200) i, cms_encode('w' || (i % 4), 1.5, 3, 5, i) e
  UNION ALL SELECT 'hcms', hcms_agg(e.hash_index, e.coefficient, e.report, 1.5, 3, 4) FROM generate_series(1, 200) i, hcms_encode('w' || (i % 4), 1.5, 3, 4, i) e
  UNION ALL SELECT 'hashtogram', hashtogram_agg(e.hash_index, e.coefficient, e.report, 1.5, 3, 4) FROM generate_series(1, 200) i, hashtogram_encode('w' || (i % 4), 1.5, 3, 4, i) e) x USING (m)
ORDER BY m;
RESET extra_float_digits;
DROP TABLE forms_060;

-- A collection of sketches: estimates of candidate strings per epoch.
CREATE TABLE word_reports AS
SELECT timestamptz '2026-03-01 00:00+00' + (i % 3) * interval '1 day' AS at, r.*
FROM words, LATERAL hcms_encode(word, 3, 16, 128, i) r;
SELECT create_collection('words', 'word_reports', 'at', '1 day',
                         'ldp.hcms_agg(hash_index, coefficient, report, 3, 16, 128)', '2026-03-01 00:00+00');
SELECT kind FROM collections WHERE name = 'words';
CALL close_epoch('words', 0);
CALL close_epoch('words', 1);
SELECT c.epoch, c.item, abs(c.frequency - t.f) < 4 * c.std_error AS near_truth
FROM collection_frequencies('words', ARRAY['w1', 'w2']) c
JOIN (SELECT i % 3 AS epoch, word, count(*)::float8 / sum(count(*)) OVER (PARTITION BY i % 3) AS f
      FROM words GROUP BY 1, 2) t ON t.epoch = c.epoch AND t.word = c.item ORDER BY 1, 2;
SELECT epoch, array_agg(item) FROM collection_frequencies('words', ARRAY['b', 'a']) GROUP BY epoch ORDER BY epoch;
SELECT try_sql($$SELECT * FROM collection_frequencies('words', 'none')$$);
SELECT try_sql($$SELECT * FROM collection_estimates('words')$$);
SELECT drop_collection('words');
-- the other two aggregates summarize collections the same way
CREATE VIEW word_reports_all AS
SELECT timestamptz '2026-03-01 00:00+00' + (i % 3) * interval '1 day' AS at, cms_j, cms_v, ht_j, ht_l, ht_y
FROM sreports;
SELECT create_collection('words_cms', 'word_reports_all', 'at', '1 day', 'ldp.cms_agg(cms_j, cms_v, 3, 16)', '2026-03-01 00:00+00'),
       create_collection('words_ht', 'word_reports_all', 'at', '1 day', 'ldp.hashtogram_agg(ht_j, ht_l, ht_y, 3, 16, 128)', '2026-03-01 00:00+00');
CALL close_epoch('words_cms', 2);
CALL close_epoch('words_ht', 2);
SELECT n.name, c.epoch, c.item, abs(c.frequency - t.f) < 4 * c.std_error AS near_truth
FROM (VALUES ('words_cms'), ('words_ht')) n(name), collection_frequencies(n.name, ARRAY['w1', 'w3']) c
JOIN (SELECT i % 3 AS epoch, word, count(*)::float8 / sum(count(*)) OVER (PARTITION BY i % 3) AS f
      FROM words GROUP BY 1, 2) t ON t.epoch = c.epoch AND t.word = c.item ORDER BY 1, 2, 3;
SELECT drop_collection('words_cms'), drop_collection('words_ht');
DROP VIEW word_reports_all;
DROP TABLE words, sreports, ssums, ssums_copy, dictionary, word_reports;
