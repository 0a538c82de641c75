-- The range accessors keep a stored summary's decode for the session
-- (docs/ranges.md#speed): a later query asking of the same stored value decodes nothing,
-- and a changed value (an UPDATE, a rolled-back UPDATE, another row) is never answered
-- from the decode of the old one. Each answer is checked against the same summary built in
-- the query itself (a live value, which is never cached).
SET search_path = public, ldp;

CREATE TABLE rsess_reports AS
SELECT g, r.* FROM generate_series(1, 40000) g, range_encode(((g * 7919) % 12000)::float8, range_protocol(1, 14), g) r;
-- out of line and uncompressed (the TOAST pointer is the key), and a small in-line one
CREATE TABLE rsess (id int, s range_summary);
ALTER TABLE rsess ALTER COLUMN s SET STORAGE EXTERNAL;
INSERT INTO rsess SELECT 1, range_agg(level, hadamard_row, report, range_protocol(1, 14)) FROM rsess_reports WHERE g <= 20000;
INSERT INTO rsess SELECT 2, range_agg(level, hadamard_row, report, range_protocol(1, 14)) FROM rsess_reports WHERE g > 20000;
CREATE TABLE rsess_small AS
SELECT g, r.* FROM generate_series(1, 4000) g, range_encode((g % 8)::float8, range_protocol(1, 3), g) r;
INSERT INTO rsess SELECT 3, range_agg(level, hadamard_row, report, range_protocol(1, 3)) FROM rsess_small WHERE g <= 2000;
SELECT id, pg_column_size(s) > 16000 AS out_of_line FROM rsess ORDER BY id;

-- The live answers of the halves, to compare with.
CREATE TABLE rsess_live AS
SELECT 'first' AS half, (cdf(s, 5000)).frequency AS c, (quantile(s, 0.5)).ci_upper AS q
FROM (SELECT range_agg(level, hadamard_row, report, range_protocol(1, 14)) AS s FROM rsess_reports WHERE g <= 20000) x
UNION ALL
SELECT 'second', (cdf(s, 5000)).frequency, (quantile(s, 0.5)).ci_upper
FROM (SELECT range_agg(level, hadamard_row, report, range_protocol(1, 14)) AS s FROM rsess_reports WHERE g > 20000) x;
SELECT (SELECT c FROM rsess_live WHERE half = 'first') <> (SELECT c FROM rsess_live WHERE half = 'second') AS halves_differ;

-- Asked twice (the second from the session's decode), then the other row, then the first again.
SELECT (cdf(s, 5000)).frequency = (SELECT c FROM rsess_live WHERE half = 'first') AS first, (quantile(s, 0.5)).ci_upper = (SELECT q FROM rsess_live WHERE half = 'first') AS q
FROM rsess WHERE id = 1;
SELECT (cdf(s, 5000)).frequency = (SELECT c FROM rsess_live WHERE half = 'first') AS first_again FROM rsess WHERE id = 1;
SELECT (cdf(s, 5000)).frequency = (SELECT c FROM rsess_live WHERE half = 'second') AS second FROM rsess WHERE id = 2;
SELECT (cdf(s, 5000)).frequency = (SELECT c FROM rsess_live WHERE half = 'first') AS first_after_second FROM rsess WHERE id = 1;
-- both rows in one query, alternating
SELECT id, (cdf(s, 5000)).frequency = (SELECT c FROM rsess_live WHERE half = CASE id WHEN 1 THEN 'first' ELSE 'second' END) AS right_half
FROM rsess WHERE id IN (1, 2) ORDER BY id;

-- An UPDATE writes a new value: the next query answers for it.
UPDATE rsess SET s = (SELECT s FROM rsess WHERE id = 2) WHERE id = 1;
SELECT (cdf(s, 5000)).frequency = (SELECT c FROM rsess_live WHERE half = 'second') AS updated,
       (quantile(s, 0.5)).ci_upper = (SELECT q FROM rsess_live WHERE half = 'second') AS q
FROM rsess WHERE id = 1;
-- An UPDATE rolled back: inside, the new value; after, the old one again.
BEGIN;
UPDATE rsess SET s = (SELECT range_agg(level, hadamard_row, report, range_protocol(1, 14)) FROM rsess_reports WHERE g <= 20000)
WHERE id = 1;
SELECT (cdf(s, 5000)).frequency = (SELECT c FROM rsess_live WHERE half = 'first') AS inside FROM rsess WHERE id = 1;
ROLLBACK;
SELECT (cdf(s, 5000)).frequency = (SELECT c FROM rsess_live WHERE half = 'second') AS rolled_back FROM rsess WHERE id = 1;

-- The in-line summary: keyed by its bytes.
SELECT (cdf(s, 3)).frequency = (SELECT (cdf(range_agg(level, hadamard_row, report, range_protocol(1, 3)), 3)).frequency
                                 FROM rsess_small WHERE g <= 2000) AS inline_first FROM rsess WHERE id = 3;
UPDATE rsess SET s = (SELECT range_agg(level, hadamard_row, report, range_protocol(1, 3)) FROM rsess_small WHERE g > 2000)
WHERE id = 3;
SELECT (cdf(s, 3)).frequency = (SELECT (cdf(range_agg(level, hadamard_row, report, range_protocol(1, 3)), 3)).frequency
                                 FROM rsess_small WHERE g > 2000) AS inline_updated FROM rsess WHERE id = 3;

DROP TABLE rsess, rsess_live, rsess_reports, rsess_small;
