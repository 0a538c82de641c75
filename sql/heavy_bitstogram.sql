-- Bitstogram (docs/algorithms/heavy-hitters.md#bitstogram), the fourth heavy-hitters mechanism:
-- bitstogram_protocol / bitstogram_int8_protocol, bitstogram_encode (text and int8),
-- bitstogram_agg, then the family's accessors with no branch (heavy_hitters,
-- heavy_threshold, frequency / frequencies, report_count, epsilon, mechanism, protocol),
-- rollup (halves = whole), forced parallel = serial, ldp.summary, a collection, and every
-- error.
SET search_path = public, ldp;

-- Protocols: every parameter not given from the defaults for the expected users.
SELECT bitstogram_protocol(2, 1000000) AS string_default;
SELECT bitstogram_protocol(2, 10000000) AS string_default_1e7;
SELECT bitstogram_protocol(2, 1000000, alphabet => NULL) AS bytes_default;
SELECT bitstogram_int8_protocol(2, 1000000) AS ids;
SELECT bitstogram_protocol(1, 50000, 'abc', 5, 2, buckets => 100) AS given_buckets,
       bitstogram_protocol(1, 50000, 'abc', 5, 2, 16, 1024) AS given_cells;
SELECT bitstogram_protocol(2, 1000000)::text::heavy_protocol::text = bitstogram_protocol(2, 1000000)::text AS text_round_trip;

-- Encoders: reproducible with a seed, coordinates 1..D, ranges of the protocol.
SELECT bitstogram_encode('hello', bitstogram_protocol(2, 1000000), 7) = bitstogram_encode('hello', bitstogram_protocol(2, 1000000), 7) AS reproducible,
       bitstogram_encode('the', bitstogram_protocol(2, 1000000), NULL) IS NOT NULL AS unseeded;
SELECT min(coordinate), max(coordinate), min(hadamard_row) >= 0 AS row_from_0, max(hadamard_row) < 131072 AS row_below_k,
       max(hash_index) < 128 AS j_below_t, max(coefficient) < 1024 AS r_below_m
FROM generate_series(1, 3000) s, bitstogram_encode('abc', bitstogram_protocol(2, 1000000), s);
SELECT count(DISTINCT coordinate) AS int_coordinates FROM generate_series(1, 500) s, bitstogram_encode(42::bigint, bitstogram_int8_protocol(2, 1000000), s);
SELECT bitstogram_encode(NULL::text, bitstogram_protocol(2, 1000), 1) IS NULL AS null_item,
       bitstogram_encode('a', NULL, 1) IS NULL AS null_protocol;

-- 40000 users over 7 days at epsilon = 4: five heavy words (each at least 5.4 sigma_B,
-- where every coordinate's argmax is right with probability 0.99) and 13500 light ones.
CREATE TABLE bw AS
SELECT i, coalesce(h.word, chr(97 + (i * 7) % 26) || chr(97 + (i * 11) % 26) || chr(97 + (i * 13) % 26) || chr(97 + (i / 26) % 26)) AS word,
       timestamptz '2026-03-02 00:00+00' + (i % 7) * interval '1 day' + interval '1 hour' AS at
FROM generate_series(1, 40000) i
LEFT JOIN (VALUES ('the', 1, 8000), ('of', 8001, 14000), ('and', 14001, 19000), ('to', 19001, 23000),
                  ('a', 23001, 26500)) h(word, lo, hi) ON i BETWEEN h.lo AND h.hi;
CREATE TABLE br AS
SELECT i, at, r.* FROM bw, LATERAL bitstogram_encode(word, bitstogram_protocol(4, 40000), i) r;
ANALYZE br;
CREATE TABLE bs AS
SELECT bitstogram_agg(coordinate, hadamard_row, symbol_report, hash_index, coefficient, item_report,
                      bitstogram_protocol(4, 40000)) AS s FROM br;
SELECT mechanism(s), report_count(s), epsilon(s), round(heavy_threshold(s)) AS tau,
       protocol(s)::text = bitstogram_protocol(4, 40000)::text AS protocol_kept FROM bs;
-- the default threshold (15 sqrt(n) = 3000); true counts beside
SELECT h.item, t.n AS truth, abs(h.count - t.n) < 4 * h.std_error * 40000 AS within_4_se,
       h.ci_lower < h.frequency AND h.frequency < h.ci_upper AS interval_around,
       abs(h.count - h.frequency * 40000) < 1e-6 AS count_is_n_times
FROM bs, heavy_hitters(s) h LEFT JOIN (SELECT word, count(*) AS n FROM bw GROUP BY word) t ON t.word = h.item
ORDER BY h.count DESC;
SELECT count(*) AS at_huge FROM bs, heavy_hitters(s, 1e9);
-- frequencies of items chosen in advance, in array order, NULL element kept
SELECT f.item, abs(f.count - coalesce(t.n, 0)) < 4 * f.std_error * 40000 AS within_4_se
FROM bs, frequencies(s, ARRAY['the', 'a', 'zzzz', NULL]) WITH ORDINALITY f
LEFT JOIN (SELECT word, count(*) AS n FROM bw GROUP BY word) t ON t.word = f.item ORDER BY f.ordinality;
SELECT abs(frequency(s, 'the') - 0.2) < 0.05 AS frequency_near,
       frequency(s, 'the') = (SELECT frequency FROM frequencies(s, ARRAY['the'])) AS same_oracle FROM bs;

-- Rollup of two halves equals the whole; forced parallel equals serial.
SELECT (SELECT rollup(x)::text FROM (
          SELECT bitstogram_agg(coordinate, hadamard_row, symbol_report, hash_index, coefficient, item_report, bitstogram_protocol(4, 40000)) x FROM br WHERE i % 2 = 0
          UNION ALL SELECT bitstogram_agg(coordinate, hadamard_row, symbol_report, hash_index, coefficient, item_report, bitstogram_protocol(4, 40000)) FROM br WHERE i % 2 = 1) h)
       = (SELECT s::text FROM bs) AS halves_equal_whole;
SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2; CALL regress_force_parallel(true); SET parallel_leader_participation = off;
EXPLAIN (COSTS OFF) SELECT bitstogram_agg(coordinate, hadamard_row, symbol_report, hash_index, coefficient, item_report, bitstogram_protocol(4, 40000)) FROM br;
SELECT md5(bitstogram_agg(coordinate, hadamard_row, symbol_report, hash_index, coefficient, item_report, bitstogram_protocol(4, 40000))::text)
       = (SELECT md5(s::text) FROM bs) AS parallel_equals_serial FROM br;
RESET parallel_setup_cost; RESET parallel_tuple_cost; RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather; CALL regress_force_parallel(false); RESET parallel_leader_participation;

-- Text, binary and ldp.summary round trips.
SELECT s::text::heavy_summary::text = s::text AS text_round_trip FROM bs;
SELECT summary_kind(s::summary), mechanism(s::summary), report_count(s::summary),
       (s::summary)::heavy_summary::text = s::text AS cast_round_trip FROM bs;
SELECT substr(heavy_summary_send(s)::text, 1, 14) AS stored_form_header FROM bs;
-- a small summary by hand: D = 2, alphabet "ab" (3 symbols), 2 buckets, K = 8 = 2 x 4
SELECT 'v1:bitstogram{epsilon=2,domain=alphabet,alphabet="ab",max_length=2,chars_per_level=1,levels=2,hashes=2,width=4,buckets=2,expected_users=10,n=1,coordinates=[0,0,0,0,0,0,0,0,0,0,0,0,0,1,0,0],final=[0,0,0,0,0,0,0,-1]}'::heavy_summary AS by_hand;

-- Integer ids: an int64 protocol; items come back as decimal text.
CREATE TABLE bi AS
SELECT i, r.* FROM generate_series(1, 20000) i,
  LATERAL bitstogram_encode(CASE WHEN i <= 9000 THEN -5 WHEN i <= 15000 THEN 1234567890123 ELSE i::bigint * 1000003 END, bitstogram_int8_protocol(4, 20000), i) r;
SELECT item, round(count / 1000) AS thousands FROM
  (SELECT bitstogram_agg(coordinate, hadamard_row, symbol_report, hash_index, coefficient, item_report, bitstogram_int8_protocol(4, 20000)) s FROM bi) x,
  heavy_hitters(s) ORDER BY count DESC;

-- A collection of Bitstogram summaries: daily epochs, the protocol a typed literal.
SELECT create_collection('bh', 'br', 'at', '1 day',
  format('ldp.bitstogram_agg(coordinate, hadamard_row, symbol_report, hash_index, coefficient, item_report, %L::ldp.heavy_protocol)',
         bitstogram_protocol(4, 40000)::text), '2026-03-01 00:00+00');
CALL close_due_epochs('bh');
SELECT (SELECT rollup(summary::heavy_summary)::text FROM collection_epochs WHERE collection = 'bh') = (SELECT s::text FROM bs) AS week_equals_whole;
SELECT count(*) >= 0 AS collection_reads FROM collection_heavy_hitters('bh');
SELECT drop_collection('bh');

-- Errors: parameters (22023), reports (22000), items (22003), forms (22P02).
SELECT try_sql($$SELECT bitstogram_protocol(0, 1000)$$);
SELECT try_sql($$SELECT bitstogram_protocol(2, 1000, buckets => 0)$$);
SELECT try_sql($$SELECT bitstogram_protocol(2, 1000, buckets => 200000)$$);
SELECT try_sql($$SELECT bitstogram_protocol(2, 1000, hashes => 16, width => 512, buckets => 1000)$$);
SELECT try_sql($$SELECT bitstogram_protocol(2, 1000, NULL, chars_per_level => 2)$$);
SELECT try_sql($$SELECT bitstogram_int8_protocol(2, 1000, buckets => -1)$$);
SELECT try_sql($$SELECT 'v1:bitstogram{epsilon=2,domain=alphabet,alphabet="ab",max_length=2,chars_per_level=1,levels=2,hashes=2,width=4,expected_users=10}'::heavy_protocol$$);
SELECT try_sql($$SELECT 'v1:bitstogram{epsilon=2,domain=alphabet,alphabet="ab",max_length=2,chars_per_level=1,levels=2,hashes=2,width=4,buckets=3,expected_users=10}'::heavy_protocol$$);
SELECT try_sql($$SELECT 'v1:bitstogram{epsilon=2,domain=alphabet,alphabet="ab",max_length=2,chars_per_level=1,levels=2,hashes=2,width=4,buckets=2,expected_users=10,n=1,coordinates=[0,0,0,0,0,0,0,0,0,0,0,0,0,2,0,0],final=[0,0,0,0,0,0,0,-1]}'::heavy_summary$$);
SELECT try_sql($$SELECT bitstogram_encode('abcdefg', bitstogram_protocol(2, 1000), 1)$$);
SELECT try_sql($$SELECT bitstogram_encode('abC', bitstogram_protocol(2, 1000), 1)$$);
SELECT try_sql($$SELECT bitstogram_encode(7::bigint, bitstogram_protocol(2, 1000), 1)$$);
SELECT try_sql($$SELECT bitstogram_encode('a', treehist_protocol(2, 1000), 1)$$);
SELECT try_sql($$SELECT bitstogram_agg(0, 0, true, 0, 0, true, bitstogram_protocol(2, 1000))$$);
SELECT try_sql($$SELECT bitstogram_agg(1, 4096, true, 0, 0, true, bitstogram_protocol(2, 1000))$$);
SELECT try_sql($$SELECT bitstogram_agg(1, 0, true, 8, 0, true, bitstogram_protocol(2, 1000))$$);
SELECT try_sql($$SELECT bitstogram_agg(1, 0, true, 0, 512, true, bitstogram_protocol(2, 1000))$$);
SELECT try_sql($$SELECT bitstogram_agg(1, NULL, true, 0, 0, true, bitstogram_protocol(2, 1000))$$);
SELECT try_sql($$SELECT bitstogram_agg(1, 0, true, 0, 0, true, treehist_protocol(2, 1000))$$);
SELECT try_sql($$SELECT treehist_agg(1, 0, 0, true, true, bitstogram_protocol(2, 1000))$$);
SELECT try_sql($$SELECT bitstogram_agg(1, 0, true, 0, 0, true, bitstogram_protocol(2, 1000 + g)) FROM generate_series(1, 2) g$$);
SELECT try_sql($$SELECT rollup(s) FROM (SELECT bitstogram_agg(1, 0, true, 0, 0, true, bitstogram_protocol(2, 1000)) s UNION ALL SELECT bitstogram_agg(1, 0, true, 0, 0, true, bitstogram_protocol(2, 2000))) x$$);
SELECT try_sql($$SELECT frequency(s, 'ABC') FROM bs$$);
DROP TABLE bw, br, bs, bi;
