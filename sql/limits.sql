-- Limits of a decode (issue 27): a decode plans the work and memory of each step it can
-- size before starting it and is refused with 54000 (program_limit_exceeded) when they
-- would pass ldp.max_decode_work or ldp.max_decode_memory; only a superuser may change
-- those. (How fast a cancel lands is timed by test/cancel.sh, not here.)
SET search_path = public, ldp;
SET client_min_messages = warning;
DROP ROLE IF EXISTS regress_ldp_limits;
RESET client_min_messages;
CREATE ROLE regress_ldp_limits;
-- The module defines them when it loads, at the session's first call of ldp's code
-- (nothing has called it yet in this session). What an ordinary role set before (a
-- placeholder) is discarded, with a warning, when it loads.
SET ROLE regress_ldp_limits;
SET ldp.max_decode_work = -1;
SET ldp.max_decode_memory = '100GB';
\set VERBOSITY terse
SELECT report_count(NULL::heavy_summary) IS NULL AS loaded;
\set VERBOSITY default
SHOW ldp.max_decode_work;
SHOW ldp.max_decode_memory;
RESET ROLE;
SELECT name, setting, unit, context, vartype, boot_val, min_val
FROM pg_settings WHERE name LIKE 'ldp.%' ORDER BY name;

-- Nor can it raise or lower them once the module is loaded (42501): SET, SET LOCAL,
-- set_config, ALTER ROLE; the prefix ldp. is reserved for the module's own settings.
SET ROLE regress_ldp_limits;
SELECT try_sql($$SET ldp.max_decode_work = -1$$);
SELECT try_sql($$SET LOCAL ldp.max_decode_work = 1e12$$);
SELECT try_sql($$SET ldp.max_decode_memory = '100GB'$$);
SELECT try_sql($$SELECT set_config('ldp.max_decode_memory', '-1', false)$$);
SELECT try_sql($$ALTER ROLE regress_ldp_limits SET ldp.max_decode_work = -1$$);
SELECT try_sql($$SET ldp.max_decode_limit = 1$$);
SHOW ldp.max_decode_work;
RESET ROLE;
DROP ROLE regress_ldp_limits;

-- The reported reproductions, refused at once under the defaults. SFP under
-- sfp_protocol(2, 1000, 'abcdefghijklmno', 96, 3, 2048, 64) (0.9.0: 81-101 s whatever
-- statement_timeout said): 32 positions of 256 × 3,616 fragments on 2,048 rows each.
CREATE TEMP TABLE lim_sfp AS
SELECT sfp_agg(r.fragment_start, r.hash_index, r.coefficient, r.fragment_report, r.word_hash_index,
               r.word_coefficient, r.word_report, sfp_protocol(2, 1000, 'abcdefghijklmno', 96, 3, 2048, 64)) AS s
FROM generate_series(1, 1000) i, sfp_encode('abc', sfp_protocol(2, 1000, 'abcdefghijklmno', 96, 3, 2048, 64), i) r;
SELECT try_sql($$SELECT * FROM heavy_hitters((SELECT s FROM lim_sfp))$$);
-- TreeHist under treehist_int8_protocol(2, 1000, 65536, 8) (0.9.0: 42 s before its
-- error): at threshold 0 every prefix survives, and level 2's 65,536 prefixes read
-- 65,536 rows each.
CREATE TEMP TABLE lim_treehist AS
SELECT treehist_agg(r.level, r.hash_index, r.coefficient, r.prefix_report, r.item_report,
                    treehist_int8_protocol(2, 1000, 65536, 8)) AS s
FROM generate_series(1, 1000) i, treehist_encode(7::bigint, treehist_int8_protocol(2, 1000, 65536, 8), i) r;
SELECT try_sql($$SELECT * FROM heavy_hitters((SELECT s FROM lim_treehist), 0)$$);
-- its default threshold keeps the walk small: it runs
SELECT count(*) FROM heavy_hitters((SELECT s FROM lim_treehist));

-- RAPPOR: the dense fits of F candidates (about F³ operations, which cannot be
-- cancelled while they run) are bounded: 1,300 candidates without LASSO screening
-- (16 cohorts × 128 bits = 2,048 rows) are past the default (1,300³ = 2.2·10⁹)
CREATE TEMP TABLE lim_rappor AS
SELECT rappor_agg(i % 16, rappor_encode('w' || (i % 4), i % 16, int4send(i), 128, 2, 0.5, 0.25, 0.75, i),
                  2, 16, 0.5, 0.25, 0.75) AS s
FROM generate_series(1, 4000) i;
SELECT try_sql($$SELECT count(*) FROM rappor_decode((SELECT s FROM lim_rappor),
                                                   (SELECT array_agg('w' || i) FROM generate_series(0, 1299) i))$$);
-- memory: the design matrix and the fits' matrices, known before anything is allocated
SET ldp.max_decode_memory = '1MB';
SELECT try_sql($$SELECT count(*) FROM rappor_decode((SELECT s FROM lim_rappor),
                                                   (SELECT array_agg('w' || i) FROM generate_series(0, 299) i))$$);
RESET ldp.max_decode_memory;
SELECT string_agg(item, ',' ORDER BY item) FILTER (WHERE detected) AS detected
FROM rappor_decode((SELECT s FROM lim_rappor), (SELECT array_agg('w' || i) FROM generate_series(0, 9) i));

-- Every heavy-hitters mechanism plans its steps: under a small limit each is refused
-- naming its step, and the setting; -1 removes the limit.
CREATE TEMP TABLE lim_words AS
SELECT i AS device, (ARRAY['the', 'you', 'and', 'it'])[1 + i % 4] AS word FROM generate_series(1, 4000) i;
CREATE TEMP TABLE lim_heavy AS
SELECT 'treehist' AS m, (SELECT treehist_agg(r.level, r.hash_index, r.coefficient, r.prefix_report, r.item_report,
                                             treehist_protocol(2, 4000))
                         FROM lim_words, treehist_encode(word, treehist_protocol(2, 4000), device) r) AS s
UNION ALL
SELECT 'pem', (SELECT pem_agg(r.group_index, r.hash_index, r.coefficient, r.report, pem_protocol(2, 4000))
               FROM lim_words, pem_encode(word, pem_protocol(2, 4000), device) r)
UNION ALL
SELECT 'sfp', (SELECT sfp_agg(r.fragment_start, r.hash_index, r.coefficient, r.fragment_report, r.word_hash_index,
                              r.word_coefficient, r.word_report, sfp_protocol(2, 4000))
               FROM lim_words, sfp_encode(word, sfp_protocol(2, 4000), device) r)
UNION ALL
SELECT 'bitstogram', (SELECT bitstogram_agg(r.coordinate, r.hadamard_row, r.symbol_report, r.hash_index,
                                            r.coefficient, r.item_report, bitstogram_protocol(2, 4000))
                      FROM lim_words, bitstogram_encode(word, bitstogram_protocol(2, 4000), device) r);
SET ldp.max_decode_work = 10000;
SELECT m, try_sql(format('SELECT * FROM heavy_hitters(%L::heavy_summary)', s)) FROM lim_heavy ORDER BY m;
SET ldp.max_decode_memory = '64kB';
SELECT m, try_sql(format('SELECT * FROM heavy_hitters(%L::heavy_summary)', s)) FROM lim_heavy WHERE m IN ('pem', 'sfp') ORDER BY m;
SET ldp.max_decode_work = -1;
SET ldp.max_decode_memory = -1;
SELECT m, (SELECT string_agg(item, ',' ORDER BY item) FROM heavy_hitters(s)) AS items FROM lim_heavy ORDER BY m;
RESET ldp.max_decode_work;
RESET ldp.max_decode_memory;
SELECT m, (SELECT string_agg(item, ',' ORDER BY item) FROM heavy_hitters(s)) AS items FROM lim_heavy ORDER BY m;
