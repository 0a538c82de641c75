-- ldp.summary: any summary kind in one type (what a collection keeps per epoch),
-- and the registry of kinds, ldp.summary_kinds.
SET search_path = public, ldp;

SELECT kind, summary_type, collection_function FROM summary_kinds ORDER BY kind;

CREATE TABLE typed AS
SELECT 'rr' AS label, rr_agg(rr_encode(i % 3 = 0, 1.5, i), 1.5)::summary AS s FROM generate_series(1, 300) i
UNION ALL SELECT 'laplace', laplace_mean_agg(laplace_mean_encode(i % 50, 0.7, 50, i), 0.7, 50)::summary FROM generate_series(1, 300) i
UNION ALL SELECT 'grr', grr_agg(grr_encode(i % 5, 1.2, 6, i), 1.2, 6)::summary FROM generate_series(1, 300) i
UNION ALL SELECT 'sue', sue_agg(sue_encode(i % 5, 1.2, 6, i), 1.2)::summary FROM generate_series(1, 300) i
UNION ALL SELECT 'range', range_agg(r.level, r.hadamard_row, r.report, range_protocol(1.5, 3))::summary
          FROM generate_series(1, 300) i, range_encode(i % 8, range_protocol(1.5, 3), i) r;
-- the accessors every kind has, and the text form of its kind
SELECT label, summary_kind(s), mechanism(s), report_count(s), epsilon(s), s FROM typed ORDER BY label;
-- casts back give the kind's own summary, with the same estimates
SELECT estimate(s::mean_summary) = (SELECT estimate(rr_agg(rr_encode(i % 3 = 0, 1.5, i), 1.5))
                                    FROM generate_series(1, 300) i) AS same
FROM typed WHERE label = 'rr';
SELECT (SELECT array_agg(f.frequency ORDER BY f.item) FROM frequencies(s::freq_summary) f)
     = (SELECT array_agg(f.frequency ORDER BY f.item)
        FROM frequencies((SELECT grr_agg(grr_encode(i % 5, 1.2, 6, i), 1.2, 6) FROM generate_series(1, 300) i)) f) AS same
FROM typed WHERE label = 'grr';
-- text and binary round trips (the binary form is the stored form, format 2)
SELECT label, s::text::summary::text = s::text AS text_round_trip,
       substr(summary_send(s), 1, 6) = substr(CASE summary_kind(s) WHEN 'mean' THEN mean_summary_send(s::mean_summary)
                                                WHEN 'range' THEN range_summary_send(s::range_summary)
                                                ELSE freq_summary_send(s::freq_summary) END, 1, 6) AS same_header
FROM typed ORDER BY label;
SELECT regress_file('ldp_regress_summary.bin') AS bin_file \gset
COPY typed TO :'bin_file' WITH (FORMAT binary);
CREATE TABLE typed_copy (LIKE typed);
COPY typed_copy FROM :'bin_file' WITH (FORMAT binary);
SELECT a.label, a.s::text = b.s::text AS binary_round_trip FROM typed a JOIN typed_copy b USING (label) ORDER BY label;

-- the wrong kind: 42804; text of no kind: 22P02; bytes that are no stored form: 22P03
SELECT try_sql($$SELECT s::freq_summary FROM typed WHERE label = 'rr'$$);
SELECT try_sql($$SELECT s::mean_summary FROM typed WHERE label = 'grr'$$);
SELECT try_sql($$SELECT s::range_summary FROM typed WHERE label = 'rr'$$);
SELECT try_sql($$SELECT 'v1:nope{epsilon=1,n=3,ones=1}'::summary$$);
SELECT try_sql($$SELECT 'garbage'::summary$$);
SELECT try_sql($$SELECT 'v1:rr{epsilon=1,n=3,ones=4}'::summary$$);
CREATE TABLE raw (label text, b bytea);
INSERT INTO raw VALUES
  ('format 1 (no kind)', '\x0101'::bytea || float8send(1) || int8send(3) || int8send(1)),
  ('unknown family',     '\x4c4450530209'::bytea || '\x01'::bytea || float8send(1) || int8send(3) || int8send(1)),
  ('format 3',           '\x4c4450530301'::bytea || '\x01'::bytea || float8send(1) || int8send(3) || int8send(1)),
  ('ones > n',           '\x4c4450530201'::bytea || '\x01'::bytea || float8send(1) || int8send(3) || int8send(9)),
  ('valid',              '\x4c4450530201'::bytea || '\x01'::bytea || float8send(1) || int8send(3) || int8send(1));
CREATE TABLE raw_one (b bytea);
CREATE TABLE summaries_in (s summary);
CREATE FUNCTION pg_temp.recv_each() RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE r record;
BEGIN
  FOR r IN SELECT label, b FROM raw LOOP
    DELETE FROM raw_one;
    INSERT INTO raw_one VALUES (r.b);
    EXECUTE format('COPY raw_one TO %L WITH (FORMAT binary)', regress_file('ldp_regress_summary_raw.bin'));
    RETURN NEXT r.label || ' -> ' ||
      try_sql(format('COPY summaries_in FROM %L WITH (FORMAT binary)', regress_file('ldp_regress_summary_raw.bin')));
  END LOOP;
END $$;
SELECT * FROM pg_temp.recv_each();
SELECT s FROM summaries_in;

DROP TABLE typed, typed_copy, raw, raw_one, summaries_in;
