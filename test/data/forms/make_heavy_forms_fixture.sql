-- Records the text form, the bytes a table holds and the binary (send) form of one
-- heavy-hitters summary per domain (alphabet, bytes, int64) in format 3 (compact
-- counters), as extension 0.8.0 (the first with ldp.heavy_summary) stores them, at
-- counter widths of 1, 2 and 4 bytes. Pasted into sql/forms.sql (section 5).
-- Run in a database with CREATE EXTENSION ldp (0.8.0):
--   psql -qAt -F '|' -f make_heavy_forms_fixture.sql
--   alphabet_w1  'abc', 4 characters, 2 per level, 2 x 16: 300 reports, counters < 128
--   alphabet_w4  'ab', 1 character, 1 x 2: 80000 reports of one letter, ε = 8: the final
--                oracle's coefficient-0 cell holds about 38000 (beyond 32767: 4 bytes);
--                'b' shares the one row's cells with 'a', and its estimate
--   bytes_w2     any text, 2 bytes, 4 x 16: 12000 reports of two words, ε = 4: counters
--                beyond 127 (2 bytes)
--   int64_w1     64-bit ids, 4 x 16: 2000 reports of two ids, counters < 128
-- (A counter beyond 32767 needs n > 32767·hashes·width: a narrow sketch, which only a
-- shallow tree decodes without querying every prefix.)
SET client_min_messages = warning;
SET search_path = public, ldp;
CREATE TEMP TABLE made(label text, s heavy_summary);
INSERT INTO made
SELECT 'alphabet_w1', treehist_agg(r.level, r.hash_index, r.coefficient, r.prefix_report, r.item_report,
                                   treehist_protocol(2, 300, 'abc', 4, 2, 2, 16))
FROM generate_series(1, 300) i,
     treehist_encode((ARRAY['ab', 'abca', 'c', 'ba'])[1 + i % 4], treehist_protocol(2, 300, 'abc', 4, 2, 2, 16), i) r
UNION ALL
SELECT 'bytes_w2', treehist_agg(r.level, r.hash_index, r.coefficient, r.prefix_report, r.item_report,
                                treehist_protocol(4, 12000, NULL, 2, NULL, 4, 16))
FROM generate_series(1, 12000) i,
     treehist_encode(CASE WHEN i % 3 = 0 THEN 'é' ELSE 'ok' END, treehist_protocol(4, 12000, NULL, 2, NULL, 4, 16), i) r
UNION ALL
SELECT 'alphabet_w4', treehist_agg(r.level, r.hash_index, r.coefficient, r.prefix_report, r.item_report,
                                   treehist_protocol(8, 80000, 'ab', 1, 1, 1, 2))
FROM generate_series(1, 80000) i, treehist_encode('a', treehist_protocol(8, 80000, 'ab', 1, 1, 1, 2), i) r
UNION ALL
SELECT 'int64_w1', treehist_agg(r.level, r.hash_index, r.coefficient, r.prefix_report, r.item_report,
                                treehist_int8_protocol(2, 2000, 4, 16))
FROM generate_series(1, 2000) i,
     treehist_encode(CASE WHEN i % 4 = 0 THEN 1234567890123 ELSE -5 END, treehist_int8_protocol(2, 2000, 4, 16), i) r;
CREATE TYPE rawsum;
CREATE FUNCTION rawsum_in(cstring) RETURNS rawsum AS 'byteain' LANGUAGE internal IMMUTABLE STRICT;
CREATE FUNCTION rawsum_out(rawsum) RETURNS cstring AS 'byteaout' LANGUAGE internal IMMUTABLE STRICT;
CREATE TYPE rawsum (INPUT = rawsum_in, OUTPUT = rawsum_out, INTERNALLENGTH = VARIABLE, ALIGNMENT = double);
CREATE CAST (heavy_summary AS rawsum) WITHOUT FUNCTION;
SELECT label, s::text, s::rawsum, encode(heavy_summary_send(s), 'hex') FROM made ORDER BY label;
DROP TYPE rawsum CASCADE;
