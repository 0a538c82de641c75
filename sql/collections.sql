-- Collections and epochs: create, epoch arithmetic, close, late reports, estimates.
SET timezone = 'UTC';
SET extra_float_digits = 0;
CREATE TABLE app_usage (at timestamptz NOT NULL, bit boolean, device int);
-- 3 days of 1BitMean reports (epsilon 1, max 86400): bits fixed by hand, not by our encoder
INSERT INTO app_usage
SELECT '2026-03-01 00:00+00'::timestamptz + d * interval '1 day' + (i % 86400) * interval '1 second',
       (i % (3 + d)) = 0, i
FROM generate_series(0, 2) d, generate_series(1, 600) i;
SELECT ldp.create_collection('usage', 'app_usage', 'at', '1 day', 'ldp.onebit_mean_agg(bit, 1.0, 86400)');
SELECT name, source, time_column, epoch_length, kind, starts_at FROM ldp.collections;

-- epoch arithmetic: UTC days from 1970-01-01, whatever the session's time zone
SELECT ldp.epoch_of('usage', '2026-03-01 00:00+00'), ldp.epoch_of('usage', '2026-02-28 23:59:59.999999+00'),
       ldp.epoch_start('usage', 20513), ldp.epoch_of('usage', '1969-12-31 23:00+00'), ldp.epoch_start('usage', -1);
SET timezone = 'America/New_York';
SELECT ldp.epoch_of('usage', '2026-03-08 12:00-04'), ldp.epoch_start('usage', 20520);
SET timezone = 'UTC';
-- epoch_of and epoch_start agree at every boundary (including sub-second lengths)
CREATE TABLE t_fine (t timestamptz, r boolean);
INSERT INTO t_fine VALUES ('2026-01-01', true);
SELECT ldp.create_collection('fine', 't_fine', 't', '1.5 seconds', 'ldp.rr_agg(r, 1)', '2026-01-01 00:00:00.25+00');
SELECT bool_and(ldp.epoch_of('fine', ldp.epoch_start('fine', e)) = e
                AND ldp.epoch_of('fine', ldp.epoch_start('fine', e) - interval '1 microsecond') = e - 1) AS consistent
FROM generate_series(-1000, 1000, 7) e;

-- close one epoch: the stored summary equals the aggregate over the epoch's rows
CALL ldp.close_epoch('usage', 20513);
SELECT epoch, epoch_start, reports, ldp.report_count(summary) FROM ldp.collection_epochs WHERE collection = 'usage';
SELECT ce.summary::text = (SELECT ldp.onebit_mean_agg(bit, 1.0, 86400)::text FROM app_usage
                        WHERE at >= '2026-03-01' AND at < '2026-03-02') AS same_summary
FROM ldp.collection_epochs ce WHERE collection = 'usage' AND epoch = 20513;
-- closing a closed epoch again is a no-op
UPDATE app_usage SET bit = NOT bit WHERE device = 1 AND at < '2026-03-02';
CALL ldp.close_epoch('usage', 20513);
SELECT ldp.estimate(summary::ldp.mean_summary) = (SELECT ldp.estimate(ldp.onebit_mean_agg(bit, 1.0, 86400)) FROM app_usage
                             WHERE at >= '2026-03-01' AND at < '2026-03-02') AS recomputed
FROM ldp.collection_epochs WHERE collection = 'usage';
-- close_due_epochs closes every ended epoch from the first report's on; those without
-- reports are closed without a row (collection_status shows what is closed)
CALL ldp.close_due_epochs('usage');
SELECT epoch, reports, ldp.report_count(summary) FROM ldp.collection_epochs
WHERE collection = 'usage' AND epoch < 20520 ORDER BY epoch;
SELECT closed = int8multirange(int8range(20513, ldp.epoch_of('usage', now()))) AS all_ended_epochs_closed,
       last_due = ldp.epoch_of('usage', now()) - 1 AS up_to_the_last_ended, stored_epochs, due,
       (SELECT count(*) FROM ldp.collection_epochs WHERE collection = 'usage' AND (summary IS NULL OR reports = 0)) AS empty_rows
FROM ldp.collection_status('usage');
-- running it again closes nothing more
CALL ldp.close_due_epochs('usage');
SELECT closed = int8multirange(int8range(20513, ldp.epoch_of('usage', now()))) AS still_the_same, stored_epochs
FROM ldp.collection_status('usage');

-- late reports are never lost: counted vs present, and a refresh takes them in
INSERT INTO app_usage VALUES ('2026-03-02 10:00+00', true, 9001), ('2026-03-02 11:00+00', false, 9002),
                             ('2026-03-03 23:59:59+00', true, 9003);
SELECT * FROM ldp.late_reports('usage') WHERE epoch < 20520 ORDER BY epoch;
SELECT count(*) AS epochs_with_late FROM ldp.late_reports('usage') WHERE late <> 0;
CALL ldp.close_epoch('usage', 20514, true);
SELECT * FROM ldp.late_reports('usage') WHERE late <> 0;
SELECT reports, ldp.report_count(summary) FROM ldp.collection_epochs WHERE collection = 'usage' AND epoch = 20514;

-- plain columns for BI tools; equal to the accessors on the stored summaries
SELECT epoch, epoch_start, reports, round(estimate::numeric, 3) AS estimate, round(std_error::numeric, 3) AS std_error,
       round(ci_lower::numeric, 3) AS ci_lower, round(ci_upper::numeric, 3) AS ci_upper
FROM ldp.collection_estimates('usage') WHERE epoch < 20518;
SELECT bool_and(e.estimate IS NOT DISTINCT FROM ldp.estimate(ce.summary::ldp.mean_summary)
                AND e.ci_upper IS NOT DISTINCT FROM ldp.ci_upper(ce.summary::ldp.mean_summary, 0.9)) AS matches
FROM ldp.collection_estimates('usage', 0.9) e JOIN ldp.collection_epochs ce ON ce.collection = 'usage' AND ce.epoch = e.epoch;

-- a frequency collection over epochs of 12 hours from a custom start
CREATE TABLE words (t timestamptz, w int);
INSERT INTO words SELECT '2026-03-01 06:00+00'::timestamptz + (i % 2) * interval '12 hours', (i % 3 + i % 2)
FROM generate_series(1, 3000) i;
SELECT ldp.create_collection('words', 'words', 't', '12 hours', 'ldp.grr_agg(w, 2.0, 4)', '2026-03-01 06:00+00');
SELECT kind FROM ldp.collections WHERE name = 'words';
CALL ldp.close_epoch('words', 0);
CALL ldp.close_epoch('words', 1);
SELECT epoch, epoch_start, item, round(frequency::numeric, 4) AS frequency, round(std_error::numeric, 4) AS std_error
FROM ldp.collection_frequencies('words');
SELECT count(*) AS rows, sum(frequency)::numeric(10, 6) AS total FROM ldp.collection_frequencies('words', 'norm-sub') GROUP BY epoch;

-- errors
SELECT try_sql($$SELECT ldp.create_collection('usage', 'app_usage', 'at', '1 day', 'ldp.rr_agg(bit, 1)')$$);
SELECT try_sql($$SELECT ldp.create_collection('', 'app_usage', 'at', '1 day', 'ldp.rr_agg(bit, 1)')$$);
SELECT try_sql($$SELECT ldp.create_collection('x', 'app_usage', 'at', NULL, 'ldp.rr_agg(bit, 1)')$$);
SELECT try_sql($$SELECT ldp.create_collection('x', 'no_such_table', 'at', '1 day', 'ldp.rr_agg(bit, 1)')$$);
SELECT try_sql($$SELECT ldp.create_collection('x', 'app_usage', 'when', '1 day', 'ldp.rr_agg(bit, 1)')$$);
SELECT try_sql($$SELECT ldp.create_collection('x', 'app_usage', 'device', '1 day', 'ldp.rr_agg(bit, 1)')$$);
SELECT try_sql($$SELECT ldp.create_collection('x', 'app_usage', 'at', '1 month', 'ldp.rr_agg(bit, 1)')$$);
SELECT try_sql($$SELECT ldp.create_collection('x', 'app_usage', 'at', '-1 day', 'ldp.rr_agg(bit, 1)')$$);
SELECT try_sql($$SELECT ldp.create_collection('x', 'app_usage', 'at', '0', 'ldp.rr_agg(bit, 1)')$$);
-- the summary: one schema-qualified ldp aggregate call with plain arguments, nothing injected
SELECT try_sql($$SELECT ldp.create_collection('x', 'app_usage', 'at', '1 day', 'ldp.rr_agg(bit, 1) FROM app_usage; DROP TABLE app_usage; --')$$);
SELECT try_sql($$SELECT ldp.create_collection('x', 'app_usage', 'at', '1 day', 'ldp.rr_agg(bit, 1)) FROM app_usage; DROP TABLE app_usage; SELECT (1')$$);
SELECT try_sql($$SELECT ldp.create_collection('x', 'app_usage', 'at', '1 day', 'ldp.rr_agg(bit, 1) FROM app_usage WHERE false')$$);
SELECT try_sql($$SELECT ldp.create_collection('x', 'app_usage', 'at', '1 day', 'ldp.rr_agg(bit, 1), ldp.rr_agg(bit, 2)')$$);
SELECT try_sql($$SELECT ldp.create_collection('x', 'app_usage', 'at', '1 day', 'ldp.rr_agg(bit, 1) AS s')$$);
SELECT try_sql($$SELECT ldp.create_collection('x', 'app_usage', 'at', '1 day', 'rr_agg(bit, 1)')$$);
SELECT try_sql($$SELECT ldp.create_collection('x', 'app_usage', 'at', '1 day', 'ldp.rr_agg((SELECT true), 1)')$$);
SELECT try_sql($$SELECT ldp.create_collection('x', 'app_usage', 'at', '1 day', 'ldp.rr_agg(bit OR pg_sleep(1) IS NULL, 1)')$$);
SELECT try_sql($$SELECT ldp.create_collection('x', 'app_usage', 'at', '1 day', 'ldp.rr_agg(bit, 1) FILTER (WHERE device > 0)')$$);
SELECT try_sql($$SELECT ldp.create_collection('x', 'app_usage', 'at', '1 day', 'ldp.rr_agg(app_usage.bit, 1)')$$);
SELECT try_sql($$SELECT ldp.create_collection('x', 'app_usage', 'at', '1 day', 'ldp.estimate(bit)')$$);
SELECT try_sql($$SELECT ldp.create_collection('x', 'app_usage', 'at', '1 day', 'pg_catalog.count(bit)')$$);
SELECT try_sql($$SELECT ldp.create_collection('x', 'app_usage', 'at', '1 day', 'ldp.rr_agg(bit')$$);
SELECT try_sql($$SELECT ldp.create_collection('x', 'app_usage', 'at', '1 day', 'ldp.rr_agg(bit, -1)')$$);
SELECT try_sql($$SELECT ldp.create_collection('x', 'app_usage', 'at', '1 day', 'ldp.rr_agg(device, 1)')$$);
SELECT try_sql($$SELECT ldp.create_collection('x', 'app_usage', 'at', '1 day', 'ldp.rr_agg(nope, 1)')$$);
SELECT try_sql($$SELECT ldp.create_collection('x', 'app_usage', 'at', '1 day', 'ldp.rr_agg(bit, 1);')$$);
SELECT try_sql($$SELECT ldp.create_collection('x', 'app_usage', 'at', '1 day', 'ldp.rollup(bit)')$$);
SELECT count(*) AS no_collection_x FROM ldp.collections WHERE name = 'x';
SELECT try_sql($$SELECT ldp.epoch_of('nope', now())$$);
SELECT try_sql($$CALL ldp.close_epoch('nope', 1)$$);
SELECT try_sql($$CALL ldp.close_epoch('usage', NULL)$$);
SELECT left(r, 6) || (r LIKE '%has not ended yet (it ends at %)') AS not_ended
FROM try_sql(format('CALL ldp.close_epoch(%L, %s)', 'usage', ldp.epoch_of('usage', now()))) AS r;
SELECT try_sql($$CALL ldp.close_due_epochs('nope')$$);
SELECT try_sql($$SELECT * FROM ldp.late_reports('nope')$$);
SELECT try_sql($$SELECT * FROM ldp.collection_estimates('words')$$);
SELECT try_sql($$SELECT * FROM ldp.collection_frequencies('usage')$$);
SELECT try_sql($$SELECT * FROM ldp.collection_frequencies('words', 'bogus')$$);
SELECT try_sql($$SELECT ldp.drop_collection('nope')$$);

-- a collection with no reports closes nothing; drop forgets a collection and its epochs
CREATE TABLE empty_source (t timestamptz, r boolean);
SELECT ldp.create_collection('empty', 'empty_source', 't', '1 hour', 'ldp.rr_agg(r, 0.5)');
CALL ldp.close_due_epochs('empty');
SELECT count(*) FROM ldp.collection_epochs WHERE collection = 'empty';
-- a source cannot be dropped under its collection (its view depends on it: 2BP01);
-- DROP TABLE ... CASCADE drops the collection too
CREATE TABLE gone (t timestamptz, r boolean);
SELECT ldp.create_collection('gone', 'gone', 't', '1 day', 'ldp.rr_agg(r, 1)');
SELECT try_sql($$DROP TABLE gone$$);
SELECT try_sql($$CALL ldp.close_due_epochs('gone')$$);
DROP TABLE gone CASCADE;
SELECT count(*) AS gone FROM ldp.collections WHERE name = 'gone';
-- a view as the source: reports timed by a UTC timestamp, converted to timestamptz
CREATE TABLE raw_utc (ts timestamp NOT NULL, bit boolean);
INSERT INTO raw_utc SELECT '2026-03-01'::timestamp + i * interval '37 minutes', ldp.rr_encode(i % 4 = 0, 1.0, i)
FROM generate_series(0, 199) i;
CREATE VIEW raw_utc_view AS SELECT ts AT TIME ZONE 'UTC' AS at, bit FROM raw_utc;
SELECT ldp.create_collection('utc_view', 'raw_utc_view', 'at', interval '1 day', 'ldp.rr_agg(bit, 1.0)');
CALL ldp.close_due_epochs('utc_view');
SELECT epoch, epoch_start, reports FROM ldp.collection_estimates('utc_view') WHERE epoch < 20520 ORDER BY epoch;
SELECT sum(late) AS late FROM ldp.late_reports('utc_view');
SELECT ldp.drop_collection('utc_view');
DROP VIEW raw_utc_view;
DROP TABLE raw_utc;
SELECT ldp.drop_collection('usage');
SELECT count(*) FROM ldp.collection_epochs WHERE collection = 'usage';
SELECT name FROM ldp.collections ORDER BY 1;
