-- Collections under faults (issue 34): nothing closed is lost to a refresh, a clock that
-- ran ahead, a device clock at 1970 or a long catch-up; errors name what failed. Each
-- block is one numbered case of the issue. The clock is moved with ldp.clock_offset
-- (superuser only), never the machine's.
SET timezone = 'UTC';
SET extra_float_digits = 0;

------------------------------------------------------------------------------
-- 1. A refresh never replaces a summary by one of fewer reports unless asked
------------------------------------------------------------------------------
CREATE TABLE s1 (at timestamptz NOT NULL, bit boolean);
INSERT INTO s1 SELECT '2026-03-01'::timestamptz + i * interval '1 minute', ldp.rr_encode(i % 4 = 0, 1.0, i)
FROM generate_series(0, 199) i;
SELECT ldp.create_collection('c1', 's1', 'at', '1 day', 'ldp.rr_agg(bit, 1.0)');
CALL ldp.close_epoch('c1', 20513);
CREATE TABLE c1_before AS SELECT summary::text AS s FROM ldp.collection_epochs WHERE collection = 'c1';
TRUNCATE s1;
-- the rows are gone: "deleted", not "late"
SELECT * FROM ldp.late_reports('c1');
-- docs/collections.md's workflow, refresh where late_reports shows late reports, does nothing here
DO $$ DECLARE e bigint; BEGIN
  FOR e IN SELECT epoch FROM ldp.late_reports('c1') WHERE late > 0 LOOP
    EXECUTE format('CALL ldp.close_epoch(%L, %s, true)', 'c1', e);
  END LOOP; END $$;
-- a refresh anyway is refused (55000), naming both counts and the way to force it
SELECT try_sql($$CALL ldp.close_epoch('c1', 20513, true)$$);
SELECT reports, summary::text = (SELECT s FROM c1_before) AS kept FROM ldp.collection_epochs WHERE collection = 'c1';
-- some rows back, others late into an epoch closed without reports: net counts per epoch
INSERT INTO s1 SELECT '2026-03-01'::timestamptz + i * interval '1 minute', ldp.rr_encode(i % 4 = 0, 1.0, i)
FROM generate_series(0, 149) i;
CALL ldp.close_epoch('c1', 20514);  -- closed without reports: no row
INSERT INTO s1 VALUES ('2026-03-02 10:00+00', true), ('2026-03-02 11:00+00', false);
SELECT * FROM ldp.late_reports('c1');
SELECT try_sql($$CALL ldp.close_epoch('c1', 20513, true)$$);
CALL ldp.close_epoch('c1', 20514, true);   -- late reports: taken in
INSERT INTO s1 SELECT '2026-03-01 20:00+00'::timestamptz + i * interval '1 minute', true FROM generate_series(0, 59) i;
CALL ldp.close_epoch('c1', 20513, true);   -- 210 now: more than counted, taken in
SELECT epoch, counted, present, status FROM ldp.late_reports('c1');
-- asked explicitly: fewer reports, or none (the epoch stays closed, without a row)
DELETE FROM s1 WHERE at < '2026-03-01 12:00';
CALL ldp.close_epoch('c1', 20513, true, accept_fewer => true);
TRUNCATE s1;
CALL ldp.close_epoch('c1', 20514, refresh => true, accept_fewer => true);
SELECT epoch, reports, ldp.report_count(summary) FROM ldp.collection_epochs WHERE collection = 'c1' ORDER BY epoch;
SELECT closed, stored_epochs FROM ldp.collection_status('c1');
-- close_due_epochs never lowers one either: it closes again only what a clock closed early (2.)
SELECT try_sql($$CALL ldp.close_epoch('c1', 20513, true, NULL)$$);
SELECT ldp.drop_collection('c1');
DROP TABLE s1, c1_before;

------------------------------------------------------------------------------
-- 2. A clock that ran ahead: what it closed before the end is closed again
------------------------------------------------------------------------------
-- One transaction: one now() for every statement. Epochs of 10 minutes; reports for
-- the past 3 hours; the clock runs 2 hours ahead for one close, then is stepped back.
BEGIN;
CREATE TABLE s2 (at timestamptz NOT NULL, bit boolean);
INSERT INTO s2 SELECT now() - i * interval '10 seconds', i % 2 = 0 FROM generate_series(0, 1079) i;
SELECT ldp.create_collection('c2', 's2', 'at', '10 minutes', 'ldp.rr_agg(bit, 1.0)');
SET LOCAL ldp.clock_offset = '2h';
CALL ldp.close_due_epochs('c2');
SELECT upper(closed) = ldp.epoch_of('c2', now() + interval '2 hours') AS closed_up_to_the_fast_clock, closed_early
FROM ldp.collection_status('c2');
SET LOCAL ldp.clock_offset = 0;
-- seen from the right time: 12 epochs closed that have not ended, and every epoch
-- closed with a closed_at later than now (the status and late_reports flag them)
SELECT closed_early = 12 + (SELECT count(*) FROM ldp.collection_epochs WHERE collection = 'c2'
                            AND epoch < ldp.epoch_of('c2', now())) AS flagged, due
FROM ldp.collection_status('c2');
SELECT bool_and(status = 'closed early') AS all_flagged FROM ldp.late_reports('c2');
-- reports go on arriving: in the current epoch and the next two hours
INSERT INTO s2 SELECT now() + i * interval '10 seconds', true FROM generate_series(1, 720) i;
-- the next close opens again the epochs that have not ended and closes again the ended
-- ones it stored too early
CALL ldp.close_due_epochs('c2');
SELECT upper(closed) = ldp.epoch_of('c2', now()) AS closed_up_to_now, closed_early = 1 AS only_the_current_one
FROM ldp.collection_status('c2');
SELECT status, epoch = ldp.epoch_of('c2', now()) AS the_current_epoch FROM ldp.late_reports('c2') WHERE status <> 'unchanged';
SELECT bool_and(counted = present) AS the_others_complete FROM ldp.late_reports('c2') WHERE status = 'unchanged';
-- two hours later every epoch is closed with all its reports
SET LOCAL ldp.clock_offset = '130min';
CALL ldp.close_due_epochs('c2');
SELECT bool_and(ce.reports = (SELECT count(*) FROM s2 WHERE at >= ce.epoch_start AND at < ce.epoch_start + interval '10 minutes')) AS all_complete,
       count(*) = (SELECT count(DISTINCT ldp.epoch_of('c2', at)) FROM s2) AS every_epoch_with_reports,
       (SELECT closed_early FROM ldp.collection_status('c2')) AS closed_early
FROM ldp.collection_epochs ce WHERE collection = 'c2';
SELECT DISTINCT status FROM ldp.late_reports('c2');
ROLLBACK;
-- the setting is a superuser's
CREATE ROLE regress_clock;
SET ROLE regress_clock;
SELECT try_sql($$SET ldp.clock_offset = '1h'$$);
RESET ROLE;
DROP ROLE regress_clock;

------------------------------------------------------------------------------
-- 3. A device clock at 1970: the newest epochs first, a run of empty epochs in one step
------------------------------------------------------------------------------
BEGIN;
CREATE TABLE s3 (at timestamptz NOT NULL, bit boolean);
CREATE INDEX ON s3 (at);
INSERT INTO s3 SELECT date_trunc('minute', now()) - i * interval '1 minute' + interval '30 s', i % 2 = 0
FROM generate_series(1, 100) i;
INSERT INTO s3 VALUES ('1970-01-01 00:00:05+00', true), ('1969-12-31 00:00:05+00', true), ('-infinity', true),
                      ('4713-01-01 00:00+00 BC', false);
SELECT ldp.create_collection('c3', 's3', 'at', '1 minute', 'ldp.rr_agg(bit, 1.0)');
-- one chunk at a time (close_due_epochs's steps): the newest due epoch first
SELECT stored, more, first_epoch = ldp.epoch_of('c3', now()) - 1 AS newest, last_epoch = first_epoch AS alone
FROM ldp._close_due_chunk(current_user::regrole, 'c3', 8);
SELECT stored, more, last_epoch = ldp.epoch_of('c3', now()) - 2 AS next_older FROM ldp._close_due_chunk(current_user::regrole, 'c3', 8);
SELECT closed = int8multirange(int8range(ldp.epoch_of('c3', now()) - 9, ldp.epoch_of('c3', now()))) AS newest_nine,
       due, reports_before_start FROM ldp.collection_status('c3');
-- then the rest, and the 29.9 million empty epochs back to 1970 as one range
CALL ldp.close_due_epochs('c3');
SELECT closed = int8multirange(int8range(0, ldp.epoch_of('c3', now()))) AS all_closed, stored_epochs, due, reports_before_start
FROM ldp.collection_status('c3');
SELECT min(epoch), count(*), sum(reports) FROM ldp.collection_epochs WHERE collection = 'c3';
COMMIT;
-- a collection that starts later: the report of 1970 is an anomaly, not epoch -29.6 million
SELECT ldp.create_collection('c3b', 's3', 'at', '1 day', 'ldp.rr_agg(bit, 1.0)', '2026-01-01 00:00+00');
CALL ldp.close_due_epochs('c3b');
SELECT NOT closed && int8multirange(int8range(NULL, 0)) AS nothing_before_the_start, reports_before_start FROM ldp.collection_status('c3b');
SELECT count(*) AS negative_epochs FROM ldp.collection_epochs WHERE collection = 'c3b' AND epoch < 0;
SELECT ldp.drop_collection('c3'), ldp.drop_collection('c3b');
DROP TABLE s3;

------------------------------------------------------------------------------
-- 4. A catch-up in chunks, each committed: a failure keeps the newer chunks
------------------------------------------------------------------------------
CREATE TABLE s4 (at timestamptz NOT NULL, hash_index int, coefficient int, report boolean);
INSERT INTO s4 SELECT date_trunc('hour', now()) - (1 + i % 60) * interval '1 hour', e.*
FROM generate_series(1, 6000) i, ldp.hcms_encode('w' || (i % 7), 4.0, 16, 1024, i) e;
INSERT INTO s4 VALUES (date_trunc('hour', now()) - interval '55 hours', 1, NULL, true);  -- partly NULL: 22004
SELECT ldp.create_collection('c4', 's4', 'at', '1 hour', 'ldp.hcms_agg(hash_index, coefficient, report, 4.0, 16, 1024)');
SELECT left(try_sql($$CALL ldp.close_due_epochs('c4')$$), 72) AS fails_at_the_bad_epoch;
-- (try_sql runs the CALL inside a function, in one transaction: nothing kept)
SELECT closed FROM ldp.collection_status('c4');
\set VERBOSITY terse
CALL ldp.close_due_epochs('c4');
\set VERBOSITY default
-- a top-level CALL commits its chunks: the newest epochs are closed, the bad one is not
SELECT upper(closed) = ldp.epoch_of('c4', now()) AS newest_kept,
       NOT closed @> ldp.epoch_of('c4', now() - interval '55 hours') AS bad_one_open,
       stored_epochs > 0 AS some_stored, due
FROM ldp.collection_status('c4');
DELETE FROM s4 WHERE coefficient IS NULL;
CALL ldp.close_due_epochs('c4');
SELECT count(*) AS stored, sum(reports) AS reports,
       bool_and(summary::text = (SELECT ldp.hcms_agg(hash_index, coefficient, report, 4.0, 16, 1024)::text FROM s4
                                 WHERE at >= ce.epoch_start AND at < ce.epoch_start + interval '1 hour')) AS each_equals_its_aggregate
FROM ldp.collection_epochs ce WHERE collection = 'c4';
SELECT closed = int8multirange(int8range(ldp.epoch_of('c4', now() - interval '60 hours'), ldp.epoch_of('c4', now()))) AS all_closed, due
FROM ldp.collection_status('c4');
SELECT ldp.drop_collection('c4');
DROP TABLE s4;

------------------------------------------------------------------------------
-- 5. A replaced source: the collection is pointed at the new table, its epochs kept
------------------------------------------------------------------------------
CREATE ROLE regress_src_owner;
CREATE ROLE regress_src_reader;
CREATE ROLE regress_src_closer;
CREATE ROLE regress_src_other;
GRANT EXECUTE ON FUNCTION ldp.create_collection(text, regclass, text, interval, text, timestamptz) TO regress_src_owner;
GRANT CREATE ON SCHEMA public TO regress_src_owner;
CREATE TABLE s5 (at timestamptz NOT NULL, bit boolean);
ALTER TABLE s5 OWNER TO regress_src_owner;
INSERT INTO s5 SELECT '2026-03-01'::timestamptz + i * interval '1 hour', i % 3 = 0 FROM generate_series(0, 47) i;
SET ROLE regress_src_owner;
SELECT ldp.create_collection('c5', 's5', 'at', '1 day', 'ldp.rr_agg(bit, 1.0)');
SELECT ldp.grant_collection('c5', 'read', 'regress_src_reader'), ldp.grant_collection('c5', 'close', 'regress_src_closer');
CALL ldp.close_epoch('c5', 20513);
CALL ldp.close_epoch('c5', 20514);
CREATE TABLE c5_before AS SELECT epoch, reports, summary::text AS s FROM ldp.collection_epochs WHERE collection = 'c5';
-- the issue: the table is replaced (its rows copied), and new reports land in the new one
ALTER TABLE s5 RENAME TO s5_old;
CREATE TABLE s5 (LIKE s5_old INCLUDING ALL);
INSERT INTO s5 SELECT * FROM s5_old;
INSERT INTO s5 SELECT '2026-03-02 23:00+00', true FROM generate_series(1, 6);                     -- late, epoch 20514
INSERT INTO s5 SELECT '2026-03-03'::timestamptz + i * interval '1 hour', true FROM generate_series(0, 23) i;  -- epoch 20515
-- the collection still reads the old table by OID: nothing late, epoch 20515 has no reports,
-- and the old table cannot be dropped under it (2BP01)
SELECT source FROM ldp.collections WHERE name = 'c5';
SELECT epoch, counted, present, status FROM ldp.late_reports('c5');
SELECT try_sql($$DROP TABLE s5_old$$);
RESET ROLE;
-- only its owner may re-point it: a reader or closer gets 42501, a role that may do neither 42704
SET ROLE regress_src_reader;
SELECT try_sql($$SELECT ldp.alter_collection_source('c5', 's5')$$);
SET ROLE regress_src_closer;
SELECT try_sql($$SELECT ldp.alter_collection_source('c5', 's5')$$);
SELECT try_sql($$SELECT * FROM ldp.late_reports('c5')$$);   -- a closer sees it, may not read it
SET ROLE regress_src_other;
SELECT try_sql($$SELECT ldp.alter_collection_source('c5', 's5')$$);
RESET ROLE;
-- a new source is checked as at creation (the errors name the collection): the time column
-- exists and is timestamptz, the summary runs on it as the owner, of the collection's kind
CREATE TABLE s5_notime (ts timestamptz, bit boolean);
CREATE TABLE s5_text (at text, bit boolean);
CREATE TABLE s5_int (at timestamptz, bit int);
CREATE TABLE s5_private (at timestamptz, bit boolean);
ALTER TABLE s5_notime OWNER TO regress_src_owner;
ALTER TABLE s5_text OWNER TO regress_src_owner;
ALTER TABLE s5_int OWNER TO regress_src_owner;
SET ROLE regress_src_owner;
SELECT try_sql($$SELECT ldp.alter_collection_source('c5', 's5_notime')$$);
SELECT try_sql($$SELECT ldp.alter_collection_source('c5', 's5_text')$$);
SELECT try_sql($$SELECT ldp.alter_collection_source('c5', 's5_int')$$);
SELECT try_sql($$SELECT ldp.alter_collection_source('c5', 's5_private')$$);   -- not readable by its owner
SELECT try_sql($$SELECT ldp.alter_collection_source('c5', NULL)$$);
-- create_collection gives the same errors
SELECT try_sql($$SELECT ldp.create_collection('c5x', 's5_notime', 'at', '1 day', 'ldp.rr_agg(bit, 1.0)')$$);
SELECT try_sql($$SELECT ldp.create_collection('c5x', 's5_text', 'at', '1 day', 'ldp.rr_agg(bit, 1.0)')$$);
SELECT try_sql($$SELECT ldp.create_collection('c5x', 's5_int', 'at', '1 day', 'ldp.rr_agg(bit, 1.0)')$$);
SELECT try_sql($$SELECT ldp.create_collection('c5x', 's5_private', 'at', '1 day', 'ldp.rr_agg(bit, 1.0)')$$);
-- a summary that returns another kind on the new source is refused (42804)
CREATE TABLE s5r (at timestamptz NOT NULL, s ldp.mean_summary);
CREATE TABLE s5r_freq (at timestamptz NOT NULL, s ldp.freq_summary);
SELECT ldp.create_collection('c5r', 's5r', 'at', '1 day', 'ldp.rollup(s)');
SELECT try_sql($$SELECT ldp.alter_collection_source('c5r', 's5r_freq')$$);
SELECT ldp.drop_collection('c5r');
DROP TABLE s5r, s5r_freq;
-- none of these changed anything
SELECT source FROM ldp.collections WHERE name = 'c5';
-- re-pointed: the closed epochs are kept and compared with the new table (6 late reports)
SELECT ldp.alter_collection_source('c5', 's5');
SELECT source, kind FROM ldp.collections WHERE name = 'c5';
SELECT bool_and(ce.reports = b.reports AND ce.summary::text = b.s) AS epochs_kept, count(*)
FROM ldp.collection_epochs ce JOIN c5_before b USING (epoch) WHERE ce.collection = 'c5';
SELECT epoch, counted, present, late, status FROM ldp.late_reports('c5');
SELECT closed, stored_epochs FROM ldp.collection_status('c5');
-- closes read the new table: the late reports taken in, the new epoch closed with its 24
CALL ldp.close_epoch('c5', 20514, true);
CALL ldp.close_due_epochs('c5');
SELECT epoch, reports, reports = (SELECT count(*) FROM s5 WHERE ldp.epoch_of('c5', at) = ce.epoch) AS as_in_s5
FROM ldp.collection_epochs ce WHERE collection = 'c5' AND epoch <= 20515 ORDER BY epoch;
-- the view depends on the new table now: the old one drops, the new one cannot (2BP01)
DROP TABLE s5_old;
SELECT try_sql($$DROP TABLE s5$$);
RESET ROLE;
-- the view kept its owner, grants, comment and read-only triggers
SELECT owner, acl FROM ldp.collections WHERE name = 'c5';
SELECT obj_description('ldp_collections.c5'::regclass, 'pg_class') LIKE 'Backs the ldp collection c5:%' AS comment_kept,
       (SELECT array_agg(tgname ORDER BY tgname) FROM pg_trigger WHERE tgrelid = 'ldp_collections.c5'::regclass) AS triggers,
       (SELECT reloptions FROM pg_class WHERE oid = 'ldp_collections.c5'::regclass) AS options;
SELECT try_sql($$UPDATE ldp_collections.c5 SET reports = 0$$);
SET ROLE regress_src_reader;
SELECT count(*) AS reader_sees FROM ldp_collections.c5;
SET ROLE regress_src_closer;
SELECT try_sql($$CALL ldp.close_epoch('c5', 20514, true)$$);
RESET ROLE;
SELECT ldp.drop_collection('c5');
DROP TABLE s5, s5_notime, s5_text, s5_int, s5_private, c5_before;
DROP OWNED BY regress_src_owner;
DROP ROLE regress_src_owner, regress_src_reader, regress_src_closer, regress_src_other;

------------------------------------------------------------------------------
-- 6. Errors that say what failed
------------------------------------------------------------------------------
CREATE TABLE s6 (at timestamptz NOT NULL, bit boolean);
INSERT INTO s6 SELECT '2026-03-01'::timestamptz + i * interval '1 hour', i % 2 = 0 FROM generate_series(0, 47) i;
SELECT ldp.create_collection('c6', 's6', 'at', '1 day', 'ldp.rr_agg(bit, 1.0)');
ALTER TABLE s6 RENAME COLUMN bit TO bit2;
SELECT try_sql($$CALL ldp.close_epoch('c6', 20513)$$);
ALTER TABLE s6 RENAME COLUMN bit2 TO bit;
ALTER TABLE s6 ALTER COLUMN bit TYPE int USING bit::int;
SELECT try_sql($$CALL ldp.close_due_epochs('c6')$$);
ALTER TABLE s6 ALTER COLUMN bit TYPE boolean USING bit = 1;
CALL ldp.close_epoch('c6', 20513);
-- a rollup collection whose column changed type: 42804 naming it, not an internal error
CREATE TABLE s6r (at timestamptz NOT NULL, s ldp.mean_summary);
INSERT INTO s6r SELECT '2026-03-01', ldp.rr_agg(true, 1.0);
SELECT ldp.create_collection('c6r', 's6r', 'at', '1 day', 'ldp.rollup(s)');
ALTER TABLE s6r ALTER COLUMN s TYPE ldp.freq_summary USING NULL;
SELECT try_sql($$CALL ldp.close_epoch('c6r', 20513)$$);
-- epochs at the end of time: the one asked is named; the last bigint is 22023, not 22003
SELECT try_sql($$CALL ldp.close_epoch('c6', 106751991)$$);
SELECT try_sql($$CALL ldp.close_epoch('c6', 9223372036854775807)$$);
SELECT try_sql($$CALL ldp.close_epoch('c6', -9223372036854775808)$$);
SELECT ldp.drop_collection('c6'), ldp.drop_collection('c6r');
DROP TABLE s6, s6r;

------------------------------------------------------------------------------
-- 7. Smaller: epochs that end while the source is empty; a column dropped and added back
------------------------------------------------------------------------------
BEGIN;
CREATE TABLE s7 (at timestamptz NOT NULL, bit boolean);
INSERT INTO s7 SELECT date_trunc('hour', now()) - i * interval '1 hour' + interval '1 minute', true FROM generate_series(1, 5) i;
SELECT ldp.create_collection('c7', 's7', 'at', '1 hour', 'ldp.rr_agg(bit, 1.0)');
CALL ldp.close_due_epochs('c7');
TRUNCATE s7;
SET LOCAL ldp.clock_offset = '148h';   -- 148 epochs end while the source is empty
CALL ldp.close_due_epochs('c7');
INSERT INTO s7 SELECT now() + interval '150 hours', true;
SET LOCAL ldp.clock_offset = '152h';
CALL ldp.close_due_epochs('c7');
SELECT closed = int8multirange(int8range(ldp.epoch_of('c7', now()) - 5, ldp.epoch_of('c7', now() + interval '152 hours'))) AS no_gap,
       stored_epochs FROM ldp.collection_status('c7');
ROLLBACK;
-- a column dropped and added back: its rows are NULL, no reports (the aggregate skips
-- them); nothing is stored for them, and the closed epoch keeps its summary
CREATE TABLE s7b (at timestamptz NOT NULL, bit boolean);
INSERT INTO s7b VALUES ('2026-03-01 01:00+00', true), ('2026-03-01 02:00+00', false), ('2026-03-01 03:00+00', true);
SELECT ldp.create_collection('c7b', 's7b', 'at', '1 day', 'ldp.rr_agg(bit, 1.0)');
CALL ldp.close_epoch('c7b', 20513);
ALTER TABLE s7b DROP COLUMN bit;
ALTER TABLE s7b ADD COLUMN bit boolean;
INSERT INTO s7b (at) VALUES ('2026-03-02 01:00+00');
CALL ldp.close_epoch('c7b', 20514);
SELECT try_sql($$CALL ldp.close_epoch('c7b', 20513, true)$$);
SELECT epoch, reports, ldp.report_count(summary) FROM ldp.collection_epochs WHERE collection = 'c7b' ORDER BY epoch;
SELECT * FROM ldp.late_reports('c7b');
SELECT ldp.drop_collection('c7b');
DROP TABLE s7b;

-- collection_status and late_reports need the read privilege, as the other readers
CREATE TABLE s8 (at timestamptz NOT NULL, bit boolean);
INSERT INTO s8 VALUES ('2026-03-01 01:00+00', true);
SELECT ldp.create_collection('c8', 's8', 'at', '1 day', 'ldp.rr_agg(bit, 1.0)');
CALL ldp.close_epoch('c8', 20513);
CREATE ROLE regress_reader;
GRANT USAGE ON SCHEMA ldp TO regress_reader;
SET ROLE regress_reader;
SELECT try_sql($$SELECT * FROM ldp.collection_status('c8')$$);
SELECT try_sql($$SELECT * FROM ldp.late_reports('c8')$$);
RESET ROLE;
SELECT ldp.grant_collection('c8', 'read', 'regress_reader');
SET ROLE regress_reader;
SELECT closed, stored_epochs, due, closed_early, reports_before_start FROM ldp.collection_status('c8');
SELECT * FROM ldp.late_reports('c8');
SELECT try_sql($$CALL ldp.close_due_epochs('c8')$$);
RESET ROLE;
SELECT ldp.drop_collection('c8');
DROP TABLE s8;
DROP OWNED BY regress_reader;
DROP ROLE regress_reader;
