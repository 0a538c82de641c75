-- 0.4.0 -> 0.5.0: one summary framework (issue 12).
--  * ldp.summary: any summary of any kind, in the stored form (format 2), with casts to
--    and from each kind's own type and the accessors every kind has;
--  * ldp.summary_kinds: the registry of summary kinds collections can keep;
--  * a collection's epochs keep one ldp.summary column instead of a column per kind,
--    and the collection functions dispatch on ldp.summary_kinds, not on CASE branches.
-- Stored epochs are rewritten into the new column with their estimates unchanged.
\echo Use "ALTER EXTENSION ldp UPDATE TO '0.5.0'" to load this file. \quit

CREATE TYPE @extschema@.summary;
CREATE FUNCTION @extschema@.summary_in(cstring) RETURNS @extschema@.summary
  AS 'MODULE_PATHNAME', 'ldp_summary_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.summary_out(@extschema@.summary) RETURNS cstring
  AS 'MODULE_PATHNAME', 'ldp_summary_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.summary_recv(internal) RETURNS @extschema@.summary
  AS 'MODULE_PATHNAME', 'ldp_summary_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.summary_send(@extschema@.summary) RETURNS bytea
  AS 'MODULE_PATHNAME', 'ldp_summary_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE TYPE @extschema@.summary (
  INPUT = @extschema@.summary_in,
  OUTPUT = @extschema@.summary_out,
  RECEIVE = @extschema@.summary_recv,
  SEND = @extschema@.summary_send,
  INTERNALLENGTH = VARIABLE,
  ALIGNMENT = double,
  STORAGE = extended
);
COMMENT ON TYPE @extschema@.summary IS 'Any ldp summary (a mean, a frequency oracle, ...): the text and binary forms of its kind; cast it to its kind''s type (ldp.mean_summary, ldp.freq_summary) for that kind''s accessors.';
COMMENT ON FUNCTION @extschema@.summary_in(cstring) IS 'Input of ldp.summary: the text form of any summary kind (the mechanism''s name tells the kind).';
COMMENT ON FUNCTION @extschema@.summary_out(@extschema@.summary) IS 'Output of ldp.summary: the text form of its kind.';
COMMENT ON FUNCTION @extschema@.summary_recv(internal) IS 'Binary input of ldp.summary: the stored form (format 2, which names the kind).';
COMMENT ON FUNCTION @extschema@.summary_send(@extschema@.summary) IS 'Binary output of ldp.summary: the stored form (format 2).';

CREATE FUNCTION @extschema@.summary(@extschema@.mean_summary) RETURNS @extschema@.summary
  AS 'MODULE_PATHNAME', 'ldp_summary_from_mean' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.summary(@extschema@.freq_summary) RETURNS @extschema@.summary
  AS 'MODULE_PATHNAME', 'ldp_summary_from_freq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.mean_summary(@extschema@.summary) RETURNS @extschema@.mean_summary
  AS 'MODULE_PATHNAME', 'ldp_summary_to_mean' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.freq_summary(@extschema@.summary) RETURNS @extschema@.freq_summary
  AS 'MODULE_PATHNAME', 'ldp_summary_to_freq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (@extschema@.mean_summary AS @extschema@.summary)
  WITH FUNCTION @extschema@.summary(@extschema@.mean_summary) AS ASSIGNMENT;
CREATE CAST (@extschema@.freq_summary AS @extschema@.summary)
  WITH FUNCTION @extschema@.summary(@extschema@.freq_summary) AS ASSIGNMENT;
CREATE CAST (@extschema@.summary AS @extschema@.mean_summary)
  WITH FUNCTION @extschema@.mean_summary(@extschema@.summary);
CREATE CAST (@extschema@.summary AS @extschema@.freq_summary)
  WITH FUNCTION @extschema@.freq_summary(@extschema@.summary);
COMMENT ON FUNCTION @extschema@.summary(@extschema@.mean_summary) IS 'A mean summary as an ldp.summary (the cast mean_summary -> summary).';
COMMENT ON FUNCTION @extschema@.summary(@extschema@.freq_summary) IS 'A frequency summary as an ldp.summary (the cast freq_summary -> summary).';
COMMENT ON FUNCTION @extschema@.mean_summary(@extschema@.summary) IS 'An ldp.summary of kind mean as ldp.mean_summary (42804 for another kind).';
COMMENT ON FUNCTION @extschema@.freq_summary(@extschema@.summary) IS 'An ldp.summary of kind frequency as ldp.freq_summary (42804 for another kind).';

CREATE FUNCTION @extschema@.summary_kind(@extschema@.summary) RETURNS text
  AS 'MODULE_PATHNAME', 'ldp_summary_kind' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.report_count(@extschema@.summary) RETURNS bigint
  AS 'MODULE_PATHNAME', 'ldp_summary_report_count' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.epsilon(@extschema@.summary) RETURNS float8
  AS 'MODULE_PATHNAME', 'ldp_summary_epsilon' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.mechanism(@extschema@.summary) RETURNS text
  AS 'MODULE_PATHNAME', 'ldp_summary_mechanism' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.summary_kind(@extschema@.summary) IS 'The kind of a summary: its row in ldp.summary_kinds (mean, frequency).';
COMMENT ON FUNCTION @extschema@.report_count(@extschema@.summary) IS 'Number of reports summarized.';
COMMENT ON FUNCTION @extschema@.epsilon(@extschema@.summary) IS 'The privacy parameter the reports were made with.';
COMMENT ON FUNCTION @extschema@.mechanism(@extschema@.summary) IS 'The mechanism''s name, as in the text form.';

-- The registry of summary kinds: a kind is one row (and its type, casts and functions).
CREATE TABLE @extschema@.summary_kinds (
  kind text PRIMARY KEY,
  summary_type regtype NOT NULL UNIQUE,
  collection_function text NOT NULL,
  description text NOT NULL
);
INSERT INTO @extschema@.summary_kinds VALUES
  ('mean', '@extschema@.mean_summary', '@extschema@.collection_estimates',
   'Means and proportions: randomized response, 1BitMean, Laplace, piecewise.'),
  ('frequency', '@extschema@.freq_summary', '@extschema@.collection_frequencies',
   'Frequency oracles over items [0, k): GRR, SUE, OUE, dBitFlip, OLH, Hadamard response.');
REVOKE ALL ON @extschema@.summary_kinds FROM PUBLIC;
GRANT SELECT ON @extschema@.summary_kinds TO PUBLIC;
COMMENT ON TABLE @extschema@.summary_kinds IS 'The summary kinds a collection can keep: the type its summary call returns, and the function that reads a collection of that kind. Defined by the extension.';

-- Collections: the kind is a row of the registry, the epochs keep an ldp.summary.
ALTER TABLE @extschema@.collections DROP CONSTRAINT collections_kind_check,
  ADD CONSTRAINT collections_kind_fkey FOREIGN KEY (kind) REFERENCES @extschema@.summary_kinds (kind);
ALTER TABLE @extschema@.collection_epochs ADD COLUMN summary @extschema@.summary;
UPDATE @extschema@.collection_epochs
SET summary = coalesce(mean::@extschema@.summary, freq::@extschema@.summary);
ALTER TABLE @extschema@.collection_epochs DROP COLUMN mean, DROP COLUMN freq;
COMMENT ON TABLE @extschema@.collection_epochs IS 'One row per closed epoch of a collection: the rows counted when it was closed and its summary (of the collection''s kind; NULL for an epoch without reports).';
COMMENT ON COLUMN @extschema@.collection_epochs.summary IS 'The epoch''s summary (cast it to its kind''s type, e.g. summary::ldp.mean_summary); NULL for an epoch without reports.';

CREATE OR REPLACE FUNCTION @extschema@.collection_of_kind(collection text, kind text)
  RETURNS @extschema@.collections LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  c @extschema@.collections := @extschema@.collection_row(collection);
  reader text;
BEGIN
  IF c.kind <> kind THEN
    SELECT k.collection_function INTO reader FROM @extschema@.summary_kinds k WHERE k.kind = c.kind;
    RAISE EXCEPTION 'collection "%" keeps % summaries, not %', collection, c.kind, kind
      USING ERRCODE = 'wrong_object_type', HINT = pg_catalog.format('Use %s.', reader);
  END IF;
  RETURN c;
END $$;

-- The summary type of a collection's kind (from the registry, never user data).
CREATE OR REPLACE FUNCTION @extschema@.collection_summary_type(c @extschema@.collections) RETURNS text
  LANGUAGE sql STABLE STRICT SET search_path = pg_catalog, pg_temp AS $$
  SELECT k.summary_type::text FROM @extschema@.summary_kinds k WHERE k.kind = c.kind $$;

CREATE OR REPLACE FUNCTION @extschema@.collection_close_range(c @extschema@.collections, lo bigint, hi bigint, refresh boolean)
  RETURNS bigint LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  closed bigint;
BEGIN
  -- the source query runs as the collection's owner; its rows are joined here
  EXECUTE pg_catalog.format(
    'INSERT INTO @extschema@.collection_epochs AS ce (collection, epoch, epoch_start, reports, summary)'
    ' SELECT $3, g.e, @extschema@.collection_epoch_start($4, g.e), coalesce(r.n, 0), r.s::@extschema@.summary'
    ' FROM pg_catalog.generate_series($5, $6) AS g(e)'
    ' LEFT JOIN @extschema@._as_role($7, $8, $1, $2) AS r(bin timestamptz, n bigint, s %s)'
    '   ON r.bin = @extschema@.collection_epoch_start($4, g.e)'
    ' ON CONFLICT (collection, epoch) DO %s',
    @extschema@.collection_summary_type(c),
    CASE WHEN refresh THEN 'UPDATE SET reports = excluded.reports, summary = excluded.summary, closed_at = excluded.closed_at'
         ELSE 'NOTHING' END)
  USING @extschema@.collection_checked_start(c, lo), @extschema@.collection_checked_start(c, hi + 1),
        c.name, c, lo, hi, c.owner, @extschema@.collection_scan(c, true, lo < hi);
  GET DIAGNOSTICS closed = ROW_COUNT;
  RETURN closed;
END $$;

CREATE OR REPLACE FUNCTION @extschema@._create_collection(caller regrole, name text, source regclass, time_column text,
    epoch_length interval, summary text, starts_at timestamptz)
  RETURNS void LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  c @extschema@.collections;
  col_type regtype;
  result_type regtype;
BEGIN
  IF name IS NULL OR source IS NULL OR time_column IS NULL OR epoch_length IS NULL OR summary IS NULL THEN
    RAISE EXCEPTION 'only starts_at may be NULL' USING ERRCODE = 'null_value_not_allowed';
  END IF;
  IF name = '' THEN
    RAISE EXCEPTION 'a collection needs a non-empty name' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF EXISTS (SELECT 1 FROM @extschema@.collections x WHERE x.name = _create_collection.name) THEN
    RAISE EXCEPTION 'collection "%" already exists', name USING ERRCODE = 'duplicate_object';
  END IF;
  IF EXTRACT(year FROM epoch_length) <> 0 OR EXTRACT(month FROM epoch_length) <> 0 THEN
    RAISE EXCEPTION 'epoch_length must not have months or years (they have no fixed length): %', epoch_length
      USING ERRCODE = 'invalid_parameter_value', HINT = 'Use days, e.g. ''28 days''.';
  END IF;
  IF EXTRACT(epoch FROM epoch_length) <= 0 THEN
    RAISE EXCEPTION 'epoch_length must be positive, got %', epoch_length USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF epoch_length < interval '1 second' OR epoch_length > interval '100000 days' THEN
    RAISE EXCEPTION 'epoch_length must be between 1 second and 100000 days, got %', epoch_length
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF starts_at IS NOT NULL AND NOT pg_catalog.isfinite(starts_at) THEN
    RAISE EXCEPTION 'starts_at must be a finite time, got %', starts_at USING ERRCODE = 'invalid_parameter_value';
  END IF;
  SELECT a.atttypid INTO col_type FROM pg_catalog.pg_attribute a
  WHERE a.attrelid = source AND a.attname = time_column AND a.attnum > 0 AND NOT a.attisdropped;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'column "%" of % does not exist', time_column, source USING ERRCODE = 'undefined_column';
  END IF;
  IF col_type <> 'timestamptz'::regtype THEN
    RAISE EXCEPTION 'time column "%" must be timestamptz, not %', time_column, col_type
      USING ERRCODE = 'datatype_mismatch';
  END IF;
  c := ROW(name, source, time_column, epoch_length, summary, 'mean',
           coalesce(starts_at, '1970-01-01 00:00+00'), pg_catalog.now(), caller, '{}');
  -- source, time column and summary call (collection_source checks them all), then
  -- the call must run on the source (one row, so that parameters are checked), as
  -- the caller: the collection's owner
  PERFORM @extschema@.collection_source(c);
  SELECT r.t INTO result_type
  FROM @extschema@._as_role(caller,
         pg_catalog.format('SELECT pg_catalog.pg_typeof((%s' || pg_catalog.chr(10) || ')) FROM (SELECT * FROM %s LIMIT 1) AS src',
                           summary, @extschema@.collection_source(c)), NULL, NULL) AS r(t regtype);
  SELECT k.kind INTO c.kind FROM @extschema@.summary_kinds k WHERE k.summary_type = result_type;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'a collection''s summary must return one of the types of ldp.summary_kinds (%), not %',
      (SELECT pg_catalog.string_agg(k.summary_type::text, ', ' ORDER BY k.kind) FROM @extschema@.summary_kinds k),
      result_type
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  INSERT INTO @extschema@.collections SELECT c.*;
END $$;

CREATE OR REPLACE FUNCTION @extschema@.collection_estimates(name text, confidence float8 DEFAULT 0.95)
  RETURNS TABLE(epoch bigint, epoch_start timestamptz, reports bigint, estimate float8,
                std_error float8, ci_lower float8, ci_upper float8)
  LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  c @extschema@.collections := @extschema@.collection_of_kind(name, 'mean');
BEGIN
  RETURN QUERY
    SELECT ce.epoch, ce.epoch_start, ce.reports, @extschema@.estimate((ce.summary::@extschema@.mean_summary)), @extschema@.std_error((ce.summary::@extschema@.mean_summary)),
           @extschema@.ci_lower((ce.summary::@extschema@.mean_summary), confidence), @extschema@.ci_upper((ce.summary::@extschema@.mean_summary), confidence)
    FROM @extschema@.collection_epochs ce WHERE ce.collection = c.name ORDER BY ce.epoch;
END $$;

CREATE OR REPLACE FUNCTION @extschema@.collection_frequencies(name text, consistency text DEFAULT 'none')
  RETURNS TABLE(epoch bigint, epoch_start timestamptz, item int, frequency float8,
                std_error float8, ci_lower float8, ci_upper float8)
  LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  c @extschema@.collections := @extschema@.collection_of_kind(name, 'frequency');
BEGIN
  RETURN QUERY
    SELECT ce.epoch, ce.epoch_start, f.item, f.frequency, f.std_error, f.ci_lower, f.ci_upper
    FROM @extschema@.collection_epochs ce
    CROSS JOIN LATERAL @extschema@.frequencies(ce.summary::@extschema@.freq_summary, consistency) AS f
    WHERE ce.collection = c.name ORDER BY ce.epoch, f.item;
END $$;

-- Comments of the functions re-created above (COMMENT ON is kept by CREATE OR REPLACE,
-- restated so that a reader of this file finds them)
COMMENT ON FUNCTION @extschema@.collection_of_kind(text, text) IS 'Internal: a collection''s row, or error 42809 (naming the function that reads it) unless it keeps summaries of the given kind.';
COMMENT ON FUNCTION @extschema@.collection_summary_type(@extschema@.collections) IS 'Internal: the summary type of a collection''s kind (ldp.summary_kinds).';
COMMENT ON FUNCTION @extschema@.collection_close_range(@extschema@.collections, bigint, bigint, boolean) IS 'Internal: stores the summaries of epochs lo..hi of a collection in one scan of its source.';
COMMENT ON FUNCTION @extschema@._create_collection(regrole, text, regclass, text, interval, text, timestamptz) IS 'Internal: ldp.create_collection run as the catalog''s owner for the calling role.';
COMMENT ON FUNCTION @extschema@.collection_estimates(text, float8) IS 'One row per closed epoch of a mean collection: epoch, its start, rows, estimate, standard error and confidence interval (NULL for an epoch without reports).';
COMMENT ON FUNCTION @extschema@.collection_frequencies(text, text) IS 'One row per item and closed epoch of a frequency collection: frequency, standard error and 95% interval (consistency as in ldp.frequencies; epochs without reports have no rows).';
