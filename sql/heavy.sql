-- Heavy hitters without a candidate list: ldp.heavy_protocol (builders, text I/O),
-- treehist_encode (text and int8), treehist_agg, PEM and SFP (pem_/sfp_ protocol, encode, agg), heavy_hitters, heavy_threshold,
-- frequency / frequencies, the accessors, rollup (halves = whole), forced parallel =
-- serial, ldp.summary, a collection of daily epochs with the week's heavy hitters from
-- the rollup, and every error.
SET search_path = public, ldp;

-- Protocols: every parameter not given from the defaults for the expected users.
SELECT treehist_protocol(2, 1000000) AS string_default;
SELECT treehist_protocol(2, 10000000) AS string_default_1e7;
SELECT treehist_protocol(2, 1000000, alphabet => NULL, max_length => 32) AS urls;
SELECT treehist_int8_protocol(2, 1000000) AS ids;
SELECT treehist_protocol(1, 50000, 'abc', 5, 1, 4, 64) AS given;
SELECT treehist_protocol(2, 1000000)::text::heavy_protocol::text = treehist_protocol(2, 1000000)::text AS text_round_trip;
SELECT 'v1:treehist{epsilon=2,domain=alphabet,alphabet="ab\"c",max_length=4,chars_per_level=2,levels=2,hashes=2,width=8,expected_users=10}'::heavy_protocol AS escaped_alphabet;

-- Encoders: reproducible with a seed, levels 1..D, ranges of the protocol.
SELECT treehist_encode('hello', treehist_protocol(2, 1000000), 7) = treehist_encode('hello', treehist_protocol(2, 1000000), 7) AS reproducible,
       treehist_encode('the', treehist_protocol(2, 1000000), NULL) IS NOT NULL AS unseeded;
SELECT min(level), max(level), min(hash_index) >= 0 AS j_from_0, max(hash_index) < 128 AS j_below_t,
       max(coefficient) < 1024 AS r_below_m
FROM generate_series(1, 3000) s, treehist_encode('abc', treehist_protocol(2, 1000000), s);
SELECT count(DISTINCT level) AS int_levels FROM generate_series(1, 500) s, treehist_encode(42::bigint, treehist_int8_protocol(2, 1000000), s);
SELECT treehist_encode(NULL::text, treehist_protocol(2, 1000000), 1) IS NULL AS null_item, treehist_encode('a', NULL, 1) IS NULL AS null_protocol;

-- A population of 40000 users over 7 days: five heavy words and 22600 light ones.
CREATE TABLE hw AS
SELECT i, CASE WHEN i <= 6000 THEN 'the' WHEN i <= 10000 THEN 'of' WHEN i <= 13000 THEN 'and'
               WHEN i <= 15400 THEN 'to' WHEN i <= 17400 THEN 'a'
               ELSE chr(97 + (i * 7) % 26) || chr(97 + (i * 11) % 26) || chr(97 + (i * 13) % 26) || chr(97 + (i / 26) % 26) END AS word,
       timestamptz '2026-03-02 00:00+00' + (i % 7) * interval '1 day' + interval '1 hour' AS at
FROM generate_series(1, 40000) i;
CREATE TABLE hr AS
SELECT i, at, r.* FROM hw, LATERAL treehist_encode(word, treehist_protocol(2, 40000), i) r;
ANALYZE hr;
CREATE TABLE hs AS
SELECT treehist_agg(level, hash_index, coefficient, prefix_report, item_report, treehist_protocol(2, 40000)) AS s FROM hr;
SELECT mechanism(s), report_count(s), epsilon(s), round(heavy_threshold(s)) AS tau,
       protocol(s)::text = treehist_protocol(2, 40000)::text AS protocol_kept, pg_column_size(s) < 80000 AS compact
FROM hs;
-- the default threshold (15 sqrt(n) = 3000) and a lower one; true counts beside
SELECT h.item, t.n AS truth, abs(h.count - t.n) < 4 * h.std_error * 40000 AS within_4_se,
       h.ci_lower < h.frequency AND h.frequency < h.ci_upper AS interval_around,
       abs(h.count - h.frequency * 40000) < 1e-6 AS count_is_n_times
FROM hs, heavy_hitters(s) h LEFT JOIN (SELECT word, count(*) AS n FROM hw GROUP BY word) t ON t.word = h.item
ORDER BY h.count DESC;
-- a threshold far below the default (1500 = 2.8 final standard errors) finds all five
-- heavy words, and noise: the default keeps clear of the many candidates' noise
SELECT array_agg(item ORDER BY count DESC) FILTER (WHERE item IN ('the', 'of', 'and', 'to', 'a')) AS heavy_at_1500,
       count(*) > 5 AS noise_too FROM hs, heavy_hitters(s, 1500);
SELECT count(*) AS at_huge FROM hs, heavy_hitters(s, 1e9);
SELECT count(*) AS null_summary FROM heavy_hitters(NULL);
-- frequencies of items chosen in advance, in array order, NULL element kept
SELECT f.item, abs(f.count - coalesce(t.n, 0)) < 4 * f.std_error * 40000 AS within_4_se
FROM hs, frequencies(s, ARRAY['the', 'a', 'zzzz', NULL]) WITH ORDINALITY f
LEFT JOIN (SELECT word, count(*) AS n FROM hw GROUP BY word) t ON t.word = f.item ORDER BY f.ordinality;
SELECT abs(frequency(s, 'the') - 0.15) < 0.05 AS frequency_near, frequency(s, 'the') = (SELECT frequency FROM frequencies(s, ARRAY['the'])) AS same_oracle FROM hs;

-- Rollup of two halves equals the whole; forced parallel equals serial.
SELECT (SELECT rollup(x)::text FROM (
          SELECT treehist_agg(level, hash_index, coefficient, prefix_report, item_report, treehist_protocol(2, 40000)) x FROM hr WHERE i % 2 = 0
          UNION ALL SELECT treehist_agg(level, hash_index, coefficient, prefix_report, item_report, treehist_protocol(2, 40000)) FROM hr WHERE i % 2 = 1) h)
       = (SELECT s::text FROM hs) AS halves_equal_whole;
SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2; CALL regress_force_parallel(true); SET parallel_leader_participation = off;
EXPLAIN (COSTS OFF) SELECT treehist_agg(level, hash_index, coefficient, prefix_report, item_report, treehist_protocol(2, 40000)) FROM hr;
SELECT md5(treehist_agg(level, hash_index, coefficient, prefix_report, item_report, treehist_protocol(2, 40000))::text) = (SELECT md5(s::text) FROM hs) AS parallel_equals_serial FROM hr;
RESET parallel_setup_cost; RESET parallel_tuple_cost; RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather; CALL regress_force_parallel(false); RESET parallel_leader_participation;

-- Text, binary and ldp.summary round trips.
SELECT s::text::heavy_summary::text = s::text AS text_round_trip FROM hs;
SELECT summary_kind(s::summary), mechanism(s::summary), report_count(s::summary),
       (s::summary)::heavy_summary::text = s::text AS cast_round_trip FROM hs;
SELECT try_sql($$SELECT ('v1:rr{epsilon=1,n=3,ones=2}'::mean_summary)::summary::heavy_summary$$);
SELECT substr(heavy_summary_send(s)::text, 1, 14) AS stored_form_header FROM hs;
SELECT octet_length(heavy_summary_send(s)) AS binary_bytes FROM hs;
-- a small summary by hand: one report of each sign
SELECT 'v1:treehist{epsilon=2,domain=alphabet,alphabet="ab",max_length=2,chars_per_level=1,levels=2,hashes=1,width=2,expected_users=10,n=1,prune=[1,0,0,0],final=[0,-1]}'::heavy_summary AS by_hand;

-- Integer ids: an int64 protocol; items come back as decimal text.
CREATE TABLE hi AS
SELECT i, r.* FROM generate_series(1, 20000) i,
  LATERAL treehist_encode(CASE WHEN i <= 9000 THEN -5 WHEN i <= 14000 THEN 1234567890123 ELSE i::bigint * 1000003 END, treehist_int8_protocol(2, 20000), i) r;
SELECT item, round(count / 1000) AS thousands FROM
  (SELECT treehist_agg(level, hash_index, coefficient, prefix_report, item_report, treehist_int8_protocol(2, 20000)) s FROM hi) x,
  heavy_hitters(s) ORDER BY count DESC;
SELECT abs(frequency(s, -5::bigint) - 0.45) < 0.1 AS int_frequency, f.item, abs(f.frequency - 0.25) < 0.1 AS text_id_frequency
FROM (SELECT treehist_agg(level, hash_index, coefficient, prefix_report, item_report, treehist_int8_protocol(2, 20000)) s FROM hi) x,
  frequencies(s, ARRAY['1234567890123']) f;

-- A collection of TreeHist summaries: daily epochs closed by close_due_epochs, the
-- protocol a typed literal; each day's heavy hitters, and the week's from the rollup.
SELECT create_collection('hh', 'hr', 'at', '1 day',
  format('ldp.treehist_agg(level, hash_index, coefficient, prefix_report, item_report, %L::ldp.heavy_protocol)',
         treehist_protocol(2, 40000)::text), '2026-03-01 00:00+00');
SELECT kind FROM collections WHERE name = 'hh';
CALL close_due_epochs('hh');
SELECT count(*) FILTER (WHERE summary IS NOT NULL) AS days_with_reports FROM collection_epochs WHERE collection = 'hh';
-- a day has about 5700 users: 'the' (857 a day) is below each day's default threshold
-- (1134); one day's 'of' (572) comes out at 1290, 3.5 final standard errors high (a
-- median of 8 rows), and is returned: above tau - 3 se, as the guarantee allows
SELECT count(*) AS daily_at_default FROM collection_heavy_hitters('hh');
SELECT DISTINCT epoch, epoch_start FROM collection_heavy_hitters('hh', 500) WHERE item = 'the' ORDER BY epoch LIMIT 3;
SELECT h.item FROM heavy_hitters((SELECT rollup(summary::heavy_summary) FROM collection_epochs
                                  WHERE collection = 'hh' AND epoch_start >= '2026-03-02' AND epoch_start < '2026-03-09')) h
ORDER BY h.count DESC;
SELECT (SELECT rollup(summary::heavy_summary)::text FROM collection_epochs WHERE collection = 'hh') = (SELECT s::text FROM hs) AS week_equals_whole;
SELECT try_sql($$SELECT * FROM collection_frequencies('hh', ARRAY['the'])$$);
SELECT drop_collection('hh');

-- Errors: parameters (22023), reports (22000), items (22003), forms (22P02).
SELECT try_sql($$SELECT treehist_protocol(0, 1000)$$);
SELECT try_sql($$SELECT treehist_protocol(2, 0)$$);
SELECT try_sql($$SELECT treehist_protocol(NULL, 1000)$$);
SELECT try_sql($$SELECT treehist_protocol(2, NULL)$$);
SELECT try_sql($$SELECT treehist_protocol(2, 1000, 'ab*')$$);
SELECT try_sql($$SELECT treehist_protocol(2, 1000, 'aba')$$);
SELECT try_sql($$SELECT treehist_protocol(2, 1000, '')$$);
SELECT try_sql($$SELECT treehist_protocol(2, 1000, width => 1000)$$);
SELECT try_sql($$SELECT treehist_protocol(2, 1000, width => 0)$$);
SELECT try_sql($$SELECT treehist_protocol(2, 1000, hashes => 65536, width => 4194304)$$);
SELECT try_sql($$SELECT treehist_protocol(2, 1000, NULL, chars_per_level => 2)$$);
SELECT try_sql($$SELECT treehist_protocol(2, 1000, max_length => 1000)$$);
SELECT try_sql($$SELECT 'v1:treehist{epsilon=2}'::heavy_protocol$$);
SELECT try_sql($$SELECT 'v1:nope{epsilon=2}'::heavy_protocol$$);
SELECT try_sql($$SELECT 'v1:treehist{epsilon=2,domain=alphabet,alphabet="ab",max_length=2,chars_per_level=1,levels=2,hashes=1,width=2,expected_users=10,n=1,prune=[2,0,0,0],final=[0,-1]}'::heavy_summary$$);
SELECT try_sql($$SELECT 'v1:treehist{epsilon=2,domain=alphabet,alphabet="ab",max_length=2,chars_per_level=1,levels=2,hashes=1,width=2,expected_users=10,n=1,prune=[1,0,0],final=[0,-1]}'::heavy_summary$$);
SELECT try_sql($$SELECT treehist_encode('abcdefg', treehist_protocol(2, 1000), 1)$$);
SELECT try_sql($$SELECT treehist_encode('abC', treehist_protocol(2, 1000), 1)$$);
SELECT try_sql($$SELECT treehist_encode('abc', treehist_int8_protocol(2, 1000), 1)$$);
SELECT try_sql($$SELECT treehist_encode(7::bigint, treehist_protocol(2, 1000), 1)$$);
SELECT try_sql($$SELECT treehist_encode(repeat('é', 4), treehist_protocol(2, 1000, NULL), 1)$$);
SELECT try_sql($$SELECT treehist_agg(0, 0, 0, true, true, treehist_protocol(2, 1000))$$);
SELECT try_sql($$SELECT treehist_agg(1, 8, 0, true, true, treehist_protocol(2, 1000, hashes => 8))$$);
SELECT try_sql($$SELECT treehist_agg(1, 0, 1024, true, true, treehist_protocol(2, 1000))$$);
SELECT try_sql($$SELECT treehist_agg(1, 0, NULL, true, true, treehist_protocol(2, 1000))$$);
SELECT try_sql($$SELECT treehist_agg(1, 0, 0, true, true, NULL)$$);
SELECT try_sql($$SELECT treehist_agg(1, 0, 0, true, true, treehist_protocol(2, 1000 + g)) FROM generate_series(1, 2) g$$);
SELECT treehist_agg(NULL, NULL, NULL, NULL, NULL, treehist_protocol(2, 1000)) IS NULL AS all_null_row_skipped;
SELECT try_sql($$SELECT rollup(s) FROM (SELECT treehist_agg(1, 0, 0, true, true, treehist_protocol(2, 1000)) s UNION ALL SELECT treehist_agg(1, 0, 0, true, true, treehist_protocol(2, 2000))) x$$);
SELECT try_sql($$SELECT * FROM heavy_hitters((SELECT s FROM hs), -1)$$);
SELECT try_sql($$SELECT * FROM heavy_hitters((SELECT s FROM hs), 'Infinity')$$);
SELECT try_sql($$SELECT * FROM heavy_hitters((SELECT s FROM hs), 'NaN')$$);
SELECT try_sql($$SELECT * FROM heavy_hitters((SELECT s FROM hs), 0)$$);
SELECT try_sql($$SELECT frequency(s, 'ABC') FROM hs$$);
SELECT try_sql($$SELECT frequency(s, 5::bigint) FROM hs$$);
SELECT try_sql($$SELECT * FROM frequencies((SELECT treehist_agg(level, hash_index, coefficient, prefix_report, item_report, treehist_int8_protocol(2, 20000)) FROM hi), ARRAY['12x'])$$);
SELECT try_sql($$SELECT treehist_trans(NULL, 1, 0, 0, true, true, treehist_protocol(2, 1000))$$);
-- PEM and SFP: the same population, HCMS oracles, the same accessors.
SELECT pem_protocol(2, 1000000) AS pem_default, sfp_protocol(2, 1000000) AS sfp_default;
SELECT pem_protocol(2, 1000000, 'abc', 7, 1, 2) AS pem_given, pem_int8_protocol(2, 1000000) AS pem_ids,
       sfp_protocol(2, 1000000, NULL, 8) AS sfp_bytes, sfp_int8_protocol(2, 1000000) AS sfp_ids;
SELECT pem_encode('hello', pem_protocol(2, 1000), 7) = pem_encode('hello', pem_protocol(2, 1000), 7) AS pem_reproducible,
       sfp_encode('hello', sfp_protocol(2, 1000), 7) = sfp_encode('hello', sfp_protocol(2, 1000), 7) AS sfp_reproducible;
SELECT array_agg(DISTINCT group_index) AS pem_groups FROM generate_series(1, 200) s, pem_encode('abcdef', pem_protocol(2, 40000), s);
SELECT array_agg(DISTINCT fragment_start) AS sfp_starts FROM generate_series(1, 200) s, sfp_encode('abcdef', sfp_protocol(2, 40000), s);
CREATE TABLE hp AS SELECT i, r.* FROM hw, LATERAL pem_encode(word, pem_protocol(2, 40000), i) r;
CREATE TABLE hf AS SELECT i, r.* FROM hw, LATERAL sfp_encode(word, sfp_protocol(2, 40000), i) r;
CREATE TABLE hps AS
SELECT 'pem' AS m, pem_agg(group_index, hash_index, coefficient, report, pem_protocol(2, 40000)) AS s FROM hp
UNION ALL
SELECT 'sfp', sfp_agg(fragment_start, hash_index, coefficient, fragment_report, word_hash_index, word_coefficient,
                      word_report, sfp_protocol(2, 40000)) FROM hf;
SELECT m, mechanism(s), report_count(s), round(heavy_threshold(s)) AS tau, summary_kind(s::summary) FROM hps ORDER BY m;
SELECT m, h.item, t.n AS truth, abs(h.count - t.n) < 4 * h.std_error * 40000 AS within_4_se
FROM hps, heavy_hitters(s) h LEFT JOIN (SELECT word, count(*) AS n FROM hw GROUP BY word) t ON t.word = h.item
ORDER BY m, h.count DESC;
SELECT m, f.item, abs(f.count - coalesce(t.n, 0)) < 4 * f.std_error * 40000 AS within_4_se
FROM hps, frequencies(s, ARRAY['the', 'zzzz']) WITH ORDINALITY f
LEFT JOIN (SELECT word, count(*) AS n FROM hw GROUP BY word) t ON t.word = f.item ORDER BY m, f.ordinality;
SELECT m, s::text::heavy_summary::text = s::text AS text_round_trip,
       (s::summary)::heavy_summary::text = s::text AS cast_round_trip FROM hps ORDER BY m;
SELECT (SELECT rollup(x)::text FROM (
          SELECT pem_agg(group_index, hash_index, coefficient, report, pem_protocol(2, 40000)) x FROM hp WHERE i % 2 = 0
          UNION ALL SELECT pem_agg(group_index, hash_index, coefficient, report, pem_protocol(2, 40000)) FROM hp WHERE i % 2 = 1) h)
       = (SELECT s::text FROM hps WHERE m = 'pem') AS pem_halves_equal_whole;
SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2; CALL regress_force_parallel(true); SET parallel_leader_participation = off;
SELECT md5(pem_agg(group_index, hash_index, coefficient, report, pem_protocol(2, 40000))::text)
       = (SELECT md5(s::text) FROM hps WHERE m = 'pem') AS pem_parallel_equals_serial FROM hp;
SELECT md5(sfp_agg(fragment_start, hash_index, coefficient, fragment_report, word_hash_index, word_coefficient,
                   word_report, sfp_protocol(2, 40000))::text)
       = (SELECT md5(s::text) FROM hps WHERE m = 'sfp') AS sfp_parallel_equals_serial FROM hf;
RESET parallel_setup_cost; RESET parallel_tuple_cost; RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather; CALL regress_force_parallel(false); RESET parallel_leader_participation;
SELECT try_sql($$SELECT pem_agg(2, 0, 0, true, pem_protocol(2, 1000))$$);
SELECT try_sql($$SELECT pem_agg(0, 64, 0, true, pem_protocol(2, 1000))$$);
SELECT try_sql($$SELECT sfp_agg(1, 0, 0, true, 0, 0, true, sfp_protocol(2, 1000))$$);
SELECT try_sql($$SELECT sfp_agg(0, 0, 0, true, 0, 4096, true, sfp_protocol(2, 1000))$$);
SELECT try_sql($$SELECT sfp_agg(0, 0, NULL, true, 0, 0, true, sfp_protocol(2, 1000))$$);
SELECT try_sql($$SELECT pem_agg(0, 0, 0, true, treehist_protocol(2, 1000))$$);
SELECT try_sql($$SELECT treehist_agg(1, 0, 0, true, true, sfp_protocol(2, 1000))$$);
SELECT try_sql($$SELECT * FROM pem_encode('a', sfp_protocol(2, 1000), 1)$$);
SELECT try_sql($$SELECT * FROM sfp_encode('abcdefg', sfp_protocol(2, 1000), 1)$$);
SELECT try_sql($$SELECT pem_protocol(2, 1000, start_length => -1)$$);
SELECT try_sql($$SELECT pem_protocol(2, 1000, max_length => 6, start_length => 6)$$);
SELECT try_sql($$SELECT rollup(s) FROM hps$$);
DROP TABLE hw, hr, hs, hi, hp, hf, hps;
