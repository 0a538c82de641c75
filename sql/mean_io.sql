-- Text and binary forms of ldp.mean_summary: lossless round trips and
-- validation of everything that comes from outside.
SET search_path = public, ldp;

CREATE TABLE summaries AS
SELECT 'rr' AS kind, rr_agg(rr_encode(i % 3 = 0, 1.5, i), 1.5) AS s FROM generate_series(1, 5000) i
UNION ALL
SELECT 'onebit', onebit_mean_agg(onebit_mean_encode(i % 50, 0.7, 50, 0.2, i), 0.7, 50, 0.2) FROM generate_series(1, 5000) i
UNION ALL
SELECT 'laplace', laplace_mean_agg(laplace_mean_encode(i % 50, 0.7, 50, i), 0.7, 50) FROM generate_series(1, 5000) i
UNION ALL
SELECT 'piecewise', piecewise_mean_agg(piecewise_mean_encode(i % 50, 0.7, 50, i), 0.7, 50) FROM generate_series(1, 5000) i;
SELECT kind, s FROM summaries ORDER BY kind;

-- text round trip
SELECT kind, s::text::mean_summary::text = s::text AS text_round_trip,
       estimate(s::text::mean_summary) = estimate(s) AS same_estimate
FROM summaries ORDER BY kind;

-- binary round trip through COPY BINARY
SELECT regress_file('ldp_regress_mean_io.bin') AS bin_file \gset
COPY summaries TO :'bin_file' WITH (FORMAT binary);
CREATE TABLE summaries_copy (LIKE summaries);
COPY summaries_copy FROM :'bin_file' WITH (FORMAT binary);
SELECT a.kind, a.s::text = b.s::text AS binary_round_trip
FROM summaries a JOIN summaries_copy b USING (kind) ORDER BY kind;
-- the binary form itself
SELECT kind, encode(mean_summary_send(s), 'hex') FROM summaries WHERE kind IN ('rr', 'onebit') ORDER BY kind;

-- malformed text: 22P02
SELECT try_sql($$SELECT 'garbage'::mean_summary$$);
SELECT try_sql($$SELECT 'v2:rr{epsilon=1,n=3,ones=1}'::mean_summary$$);
SELECT try_sql($$SELECT 'v1:nope{epsilon=1,n=3,ones=1}'::mean_summary$$);
SELECT try_sql($$SELECT 'v1:rr{epsilon=1,n=3}'::mean_summary$$);
SELECT try_sql($$SELECT 'v1:rr{epsilon=1,n=3,ones=1}x'::mean_summary$$);
SELECT try_sql($$SELECT 'v1:rr{epsilon=NaN,n=3,ones=1}'::mean_summary$$);
SELECT try_sql($$SELECT 'v1:rr{epsilon=0,n=3,ones=1}'::mean_summary$$);
SELECT try_sql($$SELECT 'v1:rr{epsilon=1,n=-3,ones=1}'::mean_summary$$);
SELECT try_sql($$SELECT 'v1:rr{epsilon=1,n=3,ones=4}'::mean_summary$$);
SELECT try_sql($$SELECT 'v1:rr{epsilon=1,n=99999999999999999999,ones=4}'::mean_summary$$);
SELECT try_sql($$SELECT 'v1:onebit{epsilon=1,max_value=10,gamma=0.5,n=3,ones=1}'::mean_summary$$);
SELECT try_sql($$SELECT 'v1:laplace{epsilon=1,max_value=10,n=0,sum=0x1p0,sumsq_unit=0}'::mean_summary$$);
SELECT try_sql($$SELECT 'v1:piecewise{epsilon=1,max_value=10,n=1,sum=0x1p20,sumsq_unit=0x1p0}'::mean_summary$$);
SELECT try_sql($$SELECT 'v1:laplace{epsilon=1,max_value=10,n=2,sum=0x1p2,sumsq_unit=zz}'::mean_summary$$);
SELECT try_sql($$SELECT 'v1:laplace{epsilon=1,max_value=10,n=2,sum=0x1p99999,sumsq_unit=0}'::mean_summary$$);
-- well-formed text is accepted as written
SELECT 'v1:laplace{epsilon=1,max_value=10,n=2,sum=0x3p0,sumsq_unit=0x5p-6}'::mean_summary;
SELECT estimate('v1:laplace{epsilon=1,max_value=10,n=2,sum=0x3p0,sumsq_unit=0x5p-6}');

-- malformed binary: 22P03 (bytes written with COPY BINARY of a bytea column,
-- read back as mean_summary: bytea's binary form is its raw bytes)
-- A valid rr summary is 01 01 <epsilon f64> <n i64> <ones i64>, big-endian.
CREATE TABLE raw (label text, b bytea);
INSERT INTO raw VALUES
  ('valid',             '\x0101'::bytea || float8send(1) || int8send(3) || int8send(1)),
  ('wrong version',     '\x0201'::bytea || float8send(1) || int8send(3) || int8send(1)),
  ('truncated',         '\x0101'),
  ('unknown mechanism', '\x0109'::bytea || float8send(1) || int8send(3) || int8send(1)),
  ('truncated in ones', '\x0101'::bytea || float8send(1) || int8send(3) || '\x000000'::bytea),
  ('trailing bytes',    '\x0101'::bytea || float8send(1) || int8send(3) || int8send(1) || '\x00'::bytea),
  ('NaN epsilon',       '\x0101'::bytea || float8send('NaN') || int8send(3) || int8send(1)),
  ('negative n',        '\x0101'::bytea || float8send(1) || int8send(-3) || int8send(1)),
  ('ones > n',          '\x0101'::bytea || float8send(1) || int8send(3) || int8send(10)),
  ('laplace bad sum',   '\x0103'::bytea || float8send(1) || float8send(10) || int8send(1) || '\x00ffff0001ffffffff'::bytea),
  ('empty',             '\x');
CREATE FUNCTION pg_temp.recv_each() RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE r record;
BEGIN
  FOR r IN SELECT label, b FROM raw LOOP
    DELETE FROM raw_one;
    INSERT INTO raw_one VALUES (r.b);
    EXECUTE format('COPY raw_one TO %L WITH (FORMAT binary)', regress_file('ldp_regress_raw.bin'));
    RETURN NEXT r.label || ' -> ' ||
      try_sql(format('COPY summaries_in FROM %L WITH (FORMAT binary)', regress_file('ldp_regress_raw.bin')));
  END LOOP;
END $$;
CREATE TABLE raw_one (b bytea);
CREATE TABLE summaries_in (s mean_summary);
SELECT * FROM pg_temp.recv_each();
SELECT s AS only_the_valid_one_loaded FROM summaries_in;

-- The stored form: real-valued summaries are kept as their binary form (about 100
-- bytes, not the 1.2 KB memory image of two exact sums), bit summaries as they are.
-- Everything that makes or reads one agrees: the aggregates, text and binary input,
-- rollup, window aggregates, and the accessors.
SELECT kind, pg_column_size(s) AS stored_bytes, pg_column_size(s::text::mean_summary) AS from_text,
       pg_column_size(rollup(s) OVER (PARTITION BY kind)) AS rollup_bytes
FROM summaries ORDER BY kind;
SELECT kind, pg_column_size(s) AS copied_bytes FROM summaries_copy ORDER BY kind;
SELECT a.kind, rollup(a.s)::text = rollup(b.s)::text AS rollup_of_stored_equals_text_input
FROM summaries a JOIN (SELECT kind, s::text::mean_summary AS s FROM summaries) b USING (kind)
GROUP BY a.kind ORDER BY a.kind;
-- a window aggregate returns the stored form at every row
SELECT i, report_count(s), pg_column_size(s) < 200 AS compact
FROM (SELECT i, laplace_mean_agg(laplace_mean_encode(i % 50, 0.7, 50, i), 0.7, 50)
               OVER (ORDER BY i ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS s
      FROM generate_series(1, 4) i) w ORDER BY i;
