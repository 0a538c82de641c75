-- The database test/fuzz.sh fuzzes: the extension and a few thousand rows of everything
-- it reads (reports of every mechanism of every family, stored summaries and rollups,
-- collections of each family with closed epochs, THRESH streams with votes). Run as a superuser in a fresh database;
-- psql variables: fuzz_role (the non-superuser sqlsmith connects as), ldp_weight (how
-- many times each ldp routine appears in sqlsmith's catalog view, see below).
\set ON_ERROR_STOP 1
SET client_min_messages = warning;
CREATE EXTENSION ldp;
SET search_path = public, ldp;

-- ---- reports, one table per family; three days up to today's UTC midnight ----
CREATE TABLE mean_reports (
  id int PRIMARY KEY, at timestamptz NOT NULL, value float8,
  rr boolean, onebit boolean, onebit_g boolean, laplace float8, piecewise float8);
INSERT INTO mean_reports
SELECT i, date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - interval '3 days'
          + (i * 97 % 259200) * interval '1 second',
       v, rr_encode(i % 3 = 0, 1.0, i), onebit_mean_encode(v, 1.0, 100, i),
       onebit_mean_encode(v, 1.0, 100, 0.2, i), laplace_mean_encode(v, 1.0, 100, i),
       piecewise_mean_encode(v, 2.0, 100, i)
FROM generate_series(1, 3000) i, LATERAL (SELECT (i * 37 % 101)::float8 AS v) x;
CREATE INDEX ON mean_reports (at);

CREATE TABLE freq_reports (
  id int PRIMARY KEY, at timestamptz NOT NULL, item int, grr int, sue varbit, oue varbit,
  db_buckets int[], db_bits boolean[], olh_seed bigint, olh_report int,
  had_row int, had_report boolean);
INSERT INTO freq_reports
SELECT i, date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - interval '3 days'
          + (i * 89 % 259200) * interval '1 second',
       item, grr_encode(item, 2.0, 8, i), sue_encode(item, 2.0, 8, i), oue_encode(item, 2.0, 8, i),
       d.buckets, d.bits, o.seed, o.report, h."row", h.report
FROM generate_series(1, 2000) i
CROSS JOIN LATERAL (SELECT (i * 7919 % 8) AS item) x
CROSS JOIN LATERAL dbitflip_encode(item, 2.0, 8, 2, i) d
CROSS JOIN LATERAL olh_encode(item, 2.0, 8, i) o
CROSS JOIN LATERAL hadamard_encode(item, 2.0, 8, i) h;

-- sketches over strings: 4 hashes x 16 columns; `items` (candidate strings, a text[]
-- column) gives sqlsmith something to pass to frequencies(s, items)
CREATE TABLE sketch_reports (
  id int PRIMARY KEY, at timestamptz NOT NULL, item text, items text[],
  cms_j int, cms_v varbit, hcms_j int, hcms_l int, hcms_y boolean, ht_j int, ht_l int, ht_y boolean);
INSERT INTO sketch_reports
SELECT i, date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - interval '3 days'
          + (i * 83 % 259200) * interval '1 second',
       item, ARRAY[item, 'w' || (i % 7), NULL, ''], c.hash_index, c.report, h.hash_index, h.coefficient, h.report,
       t.hash_index, t.coefficient, t.report
FROM generate_series(1, 2000) i
CROSS JOIN LATERAL (SELECT 'w' || (i * 7919 % 12) AS item) x
CROSS JOIN LATERAL cms_encode(item, 2.0, 4, 16, i) c
CROSS JOIN LATERAL hcms_encode(item, 2.0, 4, 16, i) h
CROSS JOIN LATERAL hashtogram_encode(item, 2.0, 4, 16, i) t;

-- heavy hitters (TreeHist; Bitstogram's protocol and summaries below) over words and over 64-bit ids, small protocols (2 x 16; the
-- words' 4 letters of 'abcw' in 2 levels, the ids' 8 levels); the protocols are a table
-- of their own too, and in each report row (a heavy_protocol column for sqlsmith)
CREATE TABLE heavy_protocols (name text PRIMARY KEY, p heavy_protocol);
INSERT INTO heavy_protocols VALUES ('words', treehist_protocol(2, 2000, 'abcw', 4, 2, 2, 16)),
  ('bytes', treehist_protocol(2, 2000, NULL, 3, NULL, 2, 16)), ('ids', treehist_int8_protocol(2, 2000, 2, 16)),
  ('bitstogram', bitstogram_protocol(2, 2000, 'abcw', 4, 1, 2, 16)), ('null', NULL);
CREATE TABLE heavy_reports (
  id int PRIMARY KEY, at timestamptz NOT NULL, item text, id8 bigint, items text[], p heavy_protocol,
  w_level int, w_j int, w_r int, w_prefix boolean, w_item boolean,
  i_level int, i_j int, i_r int, i_prefix boolean, i_item boolean);
INSERT INTO heavy_reports
SELECT i, date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - interval '3 days'
          + (i * 79 % 259200) * interval '1 second',
       item, id8, ARRAY[item, 'ab', NULL, ''], w.p, (w.r).*, (x.r).*
FROM generate_series(1, 2000) i
CROSS JOIN LATERAL (SELECT (ARRAY['ab', 'abca', 'wa', 'c', 'bcw'])[1 + i * 7919 % 5] AS item,
                           (i * 7919 % 7 - 3)::bigint * 1000003 AS id8) x0
CROSS JOIN LATERAL (SELECT p, treehist_encode(item, p, i) r FROM heavy_protocols WHERE name = 'words') w
CROSS JOIN LATERAL (SELECT treehist_encode(id8, p, i) r FROM heavy_protocols WHERE name = 'ids') x;

-- numeric distributions (HaarHRR, hh) over small domains (2^6 buckets: milliseconds, a
-- linear and a log mapping, hh's B = 4 and 2); the protocols are a table of their own too,
-- and in each report row
CREATE TABLE range_protocols (name text PRIMARY KEY, p range_protocol);
INSERT INTO range_protocols VALUES ('ms', range_protocol(1, 6)),
  ('linear', range_protocol(2, 5, mapping => 'linear', lo => -1, hi => 1)),
  ('log', range_protocol(0.5, 6, mapping => 'log', lo => 1, hi => 1000)), ('hh', range_protocol(1, 5, 'hh')),
  ('hh2', range_protocol(1, 6, 'hh', 2)), ('sw', range_protocol(2, 6, 'sw')), ('null', NULL);
CREATE TABLE range_reports (
  id int PRIMARY KEY, at timestamptz NOT NULL, value float8, p range_protocol,
  level int, hadamard_row bigint, report boolean);
INSERT INTO range_reports
SELECT i, date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - interval '3 days'
          + (i * 83 % 259200) * interval '1 second',
       v, q.p, r.level, r.hadamard_row, r.report
FROM generate_series(1, 2000) i
CROSS JOIN LATERAL (SELECT (i * 7919 % 80)::float8 + 0.5 AS v) x0
CROSS JOIN LATERAL (SELECT p FROM range_protocols WHERE name = 'ms') q
CROSS JOIN LATERAL range_encode(v, q.p, i) r;

-- ---- stored summaries: per day and mechanism, and rollups of them ----
CREATE TABLE mean_summaries (id serial PRIMARY KEY, day date, mechanism text, s mean_summary);
INSERT INTO mean_summaries (day, mechanism, s)
SELECT at::date, 'rr', rr_agg(rr, 1.0) FROM mean_reports WHERE id < 100000 GROUP BY 1
UNION ALL SELECT at::date, 'onebit', onebit_mean_agg(onebit, 1.0, 100) FROM mean_reports WHERE id < 100000 GROUP BY 1
UNION ALL SELECT at::date, 'onebit_g', onebit_mean_agg(onebit_g, 1.0, 100, 0.2) FROM mean_reports WHERE id < 100000 GROUP BY 1
UNION ALL SELECT at::date, 'laplace', laplace_mean_agg(laplace, 1.0, 100) FROM mean_reports WHERE id < 100000 GROUP BY 1
UNION ALL SELECT at::date, 'piecewise', piecewise_mean_agg(piecewise, 2.0, 100) FROM mean_reports WHERE id < 100000 GROUP BY 1;
INSERT INTO mean_summaries (day, mechanism, s)
SELECT NULL, mechanism, rollup(s) FROM mean_summaries GROUP BY mechanism;
INSERT INTO mean_summaries (day, mechanism, s) VALUES
  (NULL, 'text', 'v1:rr{epsilon=1,n=3,ones=2}'),
  (NULL, 'text', 'v1:onebit{epsilon=1,max_value=86400,gamma=0.2,n=1000,ones=512}'),
  (NULL, 'text', 'v1:laplace{epsilon=1,max_value=10,n=2,sum=0x3p0,sumsq_unit=0x5p-6}'),
  (NULL, 'null', NULL);

CREATE TABLE freq_summaries (id serial PRIMARY KEY, day date, mechanism text, s freq_summary);
INSERT INTO freq_summaries (day, mechanism, s)
SELECT at::date, 'grr', grr_agg(grr, 2.0, 8) FROM freq_reports WHERE id < 100000 GROUP BY 1
UNION ALL SELECT at::date, 'sue', sue_agg(sue, 2.0) FROM freq_reports WHERE id < 100000 GROUP BY 1
UNION ALL SELECT at::date, 'oue', oue_agg(oue, 2.0) FROM freq_reports WHERE id < 100000 GROUP BY 1
UNION ALL SELECT at::date, 'dbitflip', dbitflip_agg(db_buckets, db_bits, 2.0, 8) FROM freq_reports WHERE id < 100000 GROUP BY 1
UNION ALL SELECT at::date, 'olh', olh_agg(olh_seed, olh_report, 2.0, 8) FROM freq_reports WHERE id < 100000 GROUP BY 1
UNION ALL SELECT at::date, 'hadamard', hadamard_agg(had_row, had_report, 2.0, 8) FROM freq_reports WHERE id < 100000 GROUP BY 1;
INSERT INTO freq_summaries (day, mechanism, s)
SELECT NULL, mechanism, rollup(s) FROM freq_summaries GROUP BY mechanism;
INSERT INTO freq_summaries (day, mechanism, s) VALUES
  (NULL, 'text', 'v1:grr{epsilon=1,k=4,n=12,counts=[6,2,1,3]}'), (NULL, 'null', NULL);

CREATE TABLE sketch_summaries (id serial PRIMARY KEY, day date, mechanism text, s sketch_summary);
INSERT INTO sketch_summaries (day, mechanism, s)
SELECT at::date, 'cms', cms_agg(cms_j, cms_v, 2.0, 4) FROM sketch_reports WHERE id < 100000 GROUP BY 1
UNION ALL SELECT at::date, 'hcms', hcms_agg(hcms_j, hcms_l, hcms_y, 2.0, 4, 16) FROM sketch_reports WHERE id < 100000 GROUP BY 1
UNION ALL SELECT at::date, 'hashtogram', hashtogram_agg(ht_j, ht_l, ht_y, 2.0, 4, 16) FROM sketch_reports WHERE id < 100000 GROUP BY 1;
INSERT INTO sketch_summaries (day, mechanism, s)
SELECT NULL, mechanism, rollup(s) FROM sketch_summaries GROUP BY mechanism;
INSERT INTO sketch_summaries (day, mechanism, s) VALUES
  (NULL, 'text', 'v1:hcms{epsilon=1,hashes=1,width=2,n=1,sums=[0,-1]}'),
  (NULL, 'text', 'v1:cms{epsilon=0.5,hashes=2,width=3,n=1,counts=[0,0,0,1,0,1]}'),
  (NULL, 'text', 'v1:hashtogram{epsilon=1,hashes=2,width=2,n=0,sums=[0,0,0,0]}'), (NULL, 'null', NULL);

CREATE TABLE heavy_summaries (id serial PRIMARY KEY, day date, mechanism text, s heavy_summary);
INSERT INTO heavy_summaries (day, mechanism, s)
SELECT at::date, 'words', treehist_agg(w_level, w_j, w_r, w_prefix, w_item, treehist_protocol(2, 2000, 'abcw', 4, 2, 2, 16))
FROM heavy_reports WHERE id < 100000 GROUP BY 1
UNION ALL SELECT at::date, 'ids', treehist_agg(i_level, i_j, i_r, i_prefix, i_item, treehist_int8_protocol(2, 2000, 2, 16))
FROM heavy_reports WHERE id < 100000 GROUP BY 1
UNION ALL SELECT h.at::date, 'bitstogram', bitstogram_agg(r.coordinate, r.hadamard_row, r.symbol_report, r.hash_index,
  r.coefficient, r.item_report, bitstogram_protocol(2, 2000, 'abcw', 4, 1, 2, 16))
FROM heavy_reports h, bitstogram_encode(h.item, bitstogram_protocol(2, 2000, 'abcw', 4, 1, 2, 16), h.id) r GROUP BY 1;
INSERT INTO heavy_summaries (day, mechanism, s)
SELECT NULL, mechanism, rollup(s) FROM heavy_summaries GROUP BY mechanism;
INSERT INTO heavy_summaries (day, mechanism, s) VALUES
  (NULL, 'text', 'v1:treehist{epsilon=2,domain=alphabet,alphabet="ab",max_length=2,chars_per_level=1,levels=2,hashes=1,width=2,expected_users=10,n=1,prune=[1,0,0,0],final=[0,-1]}'),
  (NULL, 'text', 'v1:treehist{epsilon=1,domain=bytes,max_length=2,chars_per_level=1,levels=2,hashes=1,width=2,expected_users=10,n=0,prune=[0,0,0,0],final=[0,0]}'),
  (NULL, 'text', 'v1:bitstogram{epsilon=2,domain=alphabet,alphabet="ab",max_length=2,chars_per_level=1,levels=2,hashes=2,width=4,buckets=2,expected_users=10,n=1,coordinates=[0,0,0,0,0,0,0,0,0,0,0,0,0,1,0,0],final=[0,0,0,0,0,0,0,-1]}'),
  (NULL, 'null', NULL);

CREATE TABLE range_summaries (id serial PRIMARY KEY, day date, mechanism text, s range_summary);
INSERT INTO range_summaries (day, mechanism, s)
SELECT at::date, 'ms', range_agg(level, hadamard_row, report, range_protocol(1, 6)) FROM range_reports GROUP BY 1
UNION ALL SELECT h.at::date, 'log', range_agg(r.level, r.hadamard_row, r.report,
  range_protocol(0.5, 6, mapping => 'log', lo => 1, hi => 1000))
FROM range_reports h, range_encode(h.value, range_protocol(0.5, 6, mapping => 'log', lo => 1, hi => 1000), h.id) r GROUP BY 1
UNION ALL SELECT h.at::date, 'hh', range_agg(r.level, r.hadamard_row, r.report, range_protocol(1, 5, 'hh'))
FROM range_reports h, range_encode(h.value, range_protocol(1, 5, 'hh'), h.id) r GROUP BY 1;
INSERT INTO range_summaries (day, mechanism, s)
SELECT at::date, 'sw', range_agg(sw_encode(value, range_protocol(2, 6, 'sw'), id), range_protocol(2, 6, 'sw'))
FROM range_reports GROUP BY 1;
INSERT INTO range_summaries (day, mechanism, s)
SELECT NULL, mechanism, rollup(s) FROM range_summaries GROUP BY mechanism;
INSERT INTO range_summaries (day, mechanism, s) VALUES
  (NULL, 'text', 'v1:haar{epsilon=1,domain_bits=2,mapping=floor,n=1,levels=[0,1],sums=[0,1,0]}'),
  (NULL, 'text', 'v1:haar{epsilon=1,domain_bits=3,mapping=floor,n=0,levels=[0,0,0],sums=[0,0,0,0,0,0,0]}'),
  (NULL, 'text', 'v1:hh{epsilon=1,domain_bits=3,branching=2,mapping=floor,n=2,levels=[1,1,0],sums=[1,0,0,0,-1,0,0,0,0,0,0,0,0,0]}'),
  (NULL, 'null', NULL);

-- ---- a mean, a frequency and a sketch collection, their ended epochs closed ----
SELECT create_collection('usage', 'mean_reports', 'at', '1 day', 'ldp.onebit_mean_agg(onebit, 1.0, 100)');
CALL close_due_epochs('usage');
SELECT create_collection('usage_6h', 'mean_reports', 'at', '6 hours', 'ldp.laplace_mean_agg(laplace, 1.0, 100)');
CALL close_due_epochs('usage_6h');
SELECT create_collection('words', 'freq_reports', 'at', '12 hours', 'ldp.grr_agg(grr, 2.0, 8)');
CALL close_due_epochs('words');
SELECT create_collection('sketch_words', 'sketch_reports', 'at', '1 day',
                         'ldp.hashtogram_agg(ht_j, ht_l, ht_y, 2.0, 4, 16)');
CALL close_due_epochs('sketch_words');
SELECT create_collection('heavy_words', 'heavy_reports', 'at', '1 day',
  format('ldp.treehist_agg(w_level, w_j, w_r, w_prefix, w_item, %L::ldp.heavy_protocol)',
         treehist_protocol(2, 2000, 'abcw', 4, 2, 2, 16)::text));
CALL close_due_epochs('heavy_words');
SELECT create_collection('latencies', 'range_reports', 'at', '1 day',
  format('ldp.range_agg(level, hadamard_row, report, %L::ldp.range_protocol)', range_protocol(1, 6)::text));
CALL close_due_epochs('latencies');
-- a few odd rows (after the closes, which they would fail): NULL reports and values that
-- the encoders never produce
INSERT INTO mean_reports VALUES (100001, now() - interval '1 day', NULL, NULL, NULL, NULL, NULL, NULL),
  (100002, now() - interval '1 day', 1e300, true, false, true, -1e6, 'NaN');
INSERT INTO freq_reports VALUES (100001, now() - interval '1 day', NULL, NULL, NULL, NULL, NULL, NULL,
                                 NULL, NULL, NULL, NULL),
  (100002, now() - interval '1 day', 99, -1, B'1', B'', '{}', '{}', -1, 2147483647, -5, true);
INSERT INTO sketch_reports VALUES (100001, now() - interval '1 day', NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                                   NULL, NULL, NULL),
  (100002, now() - interval '1 day', '', '{}', -1, B'1', 4, 16, NULL, 2147483647, -5, true);

INSERT INTO heavy_reports VALUES (100001, now() - interval '1 day', NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                                  NULL, NULL, NULL, NULL, NULL, NULL, NULL),
  (100002, now() - interval '1 day', 'ABC', 0, '{}', NULL, 0, 2, 16, true, NULL, 9, -1, 2147483647, false, true);

INSERT INTO range_reports VALUES (100001, now() - interval '1 day', NULL, NULL, NULL, NULL, NULL),
  (100002, now() - interval '1 day', 'NaN', NULL, 6, 64, true);

-- a late report, shown by late_reports until a refresh
INSERT INTO mean_reports VALUES (100003, now() - interval '2 days', 5, true, true, true, 5, 5);

-- ---- THRESH: one stream past a global update, one in its voting phase ----
SELECT thresh_create('updated', 10, 4, 100, 1, 1, 8, 0.1, vote_noise => 1, estimate_noise => 1);
SELECT thresh_submit_votes('updated', 1, '{1,2,3,4,5,6,7,8,9,10}', '{t,t,t,t,t,t,t,t,t,f}');
CALL thresh_close_votes('updated');
SELECT thresh_submit_estimates('updated', 1, '{1,2,3,4,5,6,7,8,9,10}', '{t,f,t,f,t,t,f,f,t,t}');
CALL thresh_close_epoch('updated');
SELECT thresh_create('voting', 100000, 32, 20000, 40000, 2, 8, 0.1);
SELECT thresh_submit_votes('voting', 1, array_agg(u), array_agg(rr_encode(u % 3 = 0, p.vote_noise, u)))
FROM generate_series(1, 500) u, thresh_params('voting') p;

ANALYZE;

-- ---- the role sqlsmith connects as: no superuser, may read and write all of it ----
-- (every statement of sqlsmith runs in a transaction that it rolls back)
SELECT format('CREATE ROLE %I LOGIN', :'fuzz_role')
WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = :'fuzz_role') \gexec
GRANT USAGE ON SCHEMA ldp TO :"fuzz_role";
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public, ldp TO :"fuzz_role";
GRANT USAGE ON ALL SEQUENCES IN SCHEMA public, ldp TO :"fuzz_role";

-- ---- steering sqlsmith towards ldp ----
-- sqlsmith reads its routines and aggregates from an unqualified `pg_proc` (oid, proname,
-- pronamespace, prorettype, proretset, prokind, proargtypes), so with a search_path of
-- `fuzzcat, pg_catalog, ...` it reads this materialized view instead (materialized views
-- are not in information_schema.tables, so it never queries it as a table). Each ldp
-- routine appears ldp_weight times under distinct made-up oids (sqlsmith picks routines
-- uniformly from its list; the oid only serves to look the argument types up again), and
-- built-in functions that only sleep, block or signal are left out.
-- sqlsmith writes a value of a pseudo-type as a NULL cast to it (`cast(null as
-- anymultirange)`), which always fails: a third of its statements did, mostly in
-- operators (which it reads from pg_catalog.pg_operator, qualified). So `fuzzcat.pg_type`
-- (read by an unqualified name too) gives the range, multirange and enum pseudo-types the
-- name of a concrete type, and `cast(null as int4multirange) && ...` is a query that runs
-- (not int4, bool, internal or anyarray: sqlsmith looks those up by name).
CREATE SCHEMA fuzzcat;
CREATE MATERIALIZED VIEW fuzzcat.pg_proc AS
SELECT (p.oid::int8 + k::int8 * 10000000)::oid AS oid, p.proname, p.pronamespace, p.prorettype,
       p.proretset, p.prokind, p.proargtypes
FROM pg_catalog.pg_proc p
CROSS JOIN LATERAL generate_series(0, CASE WHEN p.pronamespace = 'ldp'::regnamespace
                                           THEN :ldp_weight - 1 ELSE 0 END) k
WHERE p.pronamespace IN ('pg_catalog'::regnamespace, 'ldp'::regnamespace)
  AND p.proname !~ '^(pg_sleep|pg_terminate_backend|pg_cancel_backend|pg_advisory|pg_try_advisory|set_config|pg_promote|pg_reload_conf|pg_rotate_logfile|pg_switch_wal|pg_create_.*slot|pg_replication_origin|pg_log_backend_memory_contexts|pg_stat_reset)';
CREATE UNIQUE INDEX ON fuzzcat.pg_proc (oid);
CREATE MATERIALIZED VIEW fuzzcat.pg_type AS
SELECT t.oid, t.typnamespace, t.typdelim, t.typrelid, t.typelem, t.typarray, t.typtype,
       CASE t.typname WHEN 'anyrange' THEN 'int4range' WHEN 'anycompatiblerange' THEN 'int4range'
                      WHEN 'anymultirange' THEN 'int4multirange'
                      WHEN 'anycompatiblemultirange' THEN 'int4multirange'
                      WHEN 'anyenum' THEN 'text' ELSE t.typname END::name AS typname
FROM pg_catalog.pg_type t;
GRANT USAGE ON SCHEMA fuzzcat TO :"fuzz_role";
GRANT SELECT ON fuzzcat.pg_proc, fuzzcat.pg_type TO :"fuzz_role";
SELECT format('ALTER ROLE %I IN DATABASE %I SET search_path = fuzzcat, pg_catalog, public',
              :'fuzz_role', current_database()) \gexec

-- no statement may hang the run (sqlsmith sets 1s in its own sessions)
SELECT format('ALTER DATABASE %I SET statement_timeout = %L', current_database(), '2s') \gexec
