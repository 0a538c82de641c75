-- ldp 0.1.0 → 0.2.0: collections and epochs (closed by hand or by pg_cron) and THRESH
-- streams. New objects only; CREATE EXTENSION ldp installs 0.1.0 and then this.
\echo Use "ALTER EXTENSION ldp UPDATE" (or CREATE EXTENSION ldp) to load this file. \quit

------------------------------------------------------------------------------
-- SUE and OUE count reports in a byte-wide pending area of their state; a final
-- function returns the summary without it.
------------------------------------------------------------------------------
CREATE FUNCTION @extschema@.freq_final(@extschema@.freq_summary) RETURNS @extschema@.freq_summary
  AS 'MODULE_PATHNAME', 'ldp_freq_final' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.freq_final(@extschema@.freq_summary) IS 'Final function of ldp.sue_agg and ldp.oue_agg: the summary with its pending counts added.';
CREATE OR REPLACE AGGREGATE @extschema@.sue_agg(report varbit, epsilon float8) (
  SFUNC = @extschema@.sue_trans, STYPE = @extschema@.freq_summary,
  FINALFUNC = @extschema@.freq_final, COMBINEFUNC = @extschema@.freq_combine, PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE @extschema@.oue_agg(report varbit, epsilon float8) (
  SFUNC = @extschema@.oue_trans, STYPE = @extschema@.freq_summary,
  FINALFUNC = @extschema@.freq_final, COMBINEFUNC = @extschema@.freq_combine, PARALLEL = SAFE);

------------------------------------------------------------------------------
-- Collections and epochs: a source table of reports cut into epochs of equal
-- length, each closed once into a stored summary (by hand or by pg_cron).
-- Epoch e covers [starts_at + e·epoch_length, starts_at + (e+1)·epoch_length);
-- a day is 24 hours, so daily epochs from the default start align to UTC midnight
-- whatever the session's time zone.
------------------------------------------------------------------------------

CREATE TABLE @extschema@.collections (
  name text PRIMARY KEY CHECK (name <> ''),
  source regclass NOT NULL,
  time_column name NOT NULL,
  epoch_length interval NOT NULL,
  summary text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('mean', 'frequency')),
  starts_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE @extschema@.collection_epochs (
  collection text NOT NULL REFERENCES @extschema@.collections ON UPDATE CASCADE ON DELETE CASCADE,
  epoch bigint NOT NULL,
  epoch_start timestamptz NOT NULL,
  reports bigint NOT NULL CHECK (reports >= 0),
  mean @extschema@.mean_summary,
  freq @extschema@.freq_summary,
  closed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (collection, epoch)
);
-- pg_dump keeps their rows (they are the collector's data, not the extension's)
SELECT pg_catalog.pg_extension_config_dump('@extschema@.collections', '');
SELECT pg_catalog.pg_extension_config_dump('@extschema@.collection_epochs', '');
COMMENT ON TABLE @extschema@.collections IS 'One row per collection (ldp.create_collection): the source table, its time column, the epoch length and the validated summary call.';
COMMENT ON TABLE @extschema@.collection_epochs IS 'One row per closed epoch of a collection: the rows counted when it was closed and its summary (mean or freq, by the collection''s kind; NULL for an epoch without reports).';

CREATE FUNCTION @extschema@.collection_summary_call(summary text) RETURNS text[]
  AS 'MODULE_PATHNAME', 'ldp_collection_summary_call' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.collection_summary_call(text) IS 'Internal: checks on the parse tree that a collection''s summary is one schema-qualified call with plain column and constant arguments; returns {schema, function}.';

-- The collection's row (optionally locked: one closer at a time), or 42704.
CREATE FUNCTION @extschema@.collection_row(collection text, lock boolean DEFAULT false)
  RETURNS @extschema@.collections LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  c @extschema@.collections;
BEGIN
  IF lock THEN
    SELECT * INTO c FROM @extschema@.collections WHERE name = collection FOR UPDATE;
  ELSE
    SELECT * INTO c FROM @extschema@.collections WHERE name = collection;
  END IF;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'collection "%" does not exist', collection
      USING ERRCODE = 'undefined_object', HINT = 'Create it with ldp.create_collection.';
  END IF;
  RETURN c;
END $$;
-- A collection's row that must summarize `kind` ('mean' or 'frequency'), or 42809.
CREATE FUNCTION @extschema@.collection_of_kind(collection text, kind text)
  RETURNS @extschema@.collections LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  c @extschema@.collections := @extschema@.collection_row(collection);
BEGIN
  IF c.kind <> kind THEN
    RAISE EXCEPTION 'collection "%" summarizes %', collection,
      CASE c.kind WHEN 'mean' THEN 'a mean' ELSE 'frequencies' END
      USING ERRCODE = 'wrong_object_type',
            HINT = CASE c.kind WHEN 'mean' THEN 'Use ldp.collection_estimates.'
                               ELSE 'Use ldp.collection_frequencies.' END;
  END IF;
  RETURN c;
END $$;
COMMENT ON FUNCTION @extschema@.collection_of_kind(text, text) IS 'Internal: a collection''s row, or error 42809 unless it summarizes the given kind.';
COMMENT ON FUNCTION @extschema@.collection_row(text, boolean) IS 'Internal: a collection''s row (locked FOR UPDATE when asked), or error 42704.';

-- Epoch arithmetic in whole microseconds of UTC time.
CREATE FUNCTION @extschema@.collection_epoch_of(c @extschema@.collections, t timestamptz) RETURNS bigint
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
  SELECT floor((extract(epoch FROM t) - extract(epoch FROM c.starts_at))
               / extract(epoch FROM c.epoch_length))::bigint $$;
CREATE FUNCTION @extschema@.collection_epoch_start(c @extschema@.collections, epoch bigint) RETURNS timestamptz
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
  SELECT c.starts_at + (epoch * (extract(epoch FROM c.epoch_length) * 1000000)::bigint)
                       * interval '1 microsecond' $$;
COMMENT ON FUNCTION @extschema@.collection_epoch_of(@extschema@.collections, timestamptz) IS 'Internal: the epoch of a collection row that holds time t.';
COMMENT ON FUNCTION @extschema@.collection_epoch_start(@extschema@.collections, bigint) IS 'Internal: the first instant of an epoch of a collection row.';

CREATE FUNCTION @extschema@.epoch_of(collection text, t timestamptz) RETURNS bigint
  LANGUAGE sql STABLE STRICT SET search_path = pg_catalog, pg_temp AS $$
  SELECT @extschema@.collection_epoch_of(@extschema@.collection_row(collection), t) $$;
CREATE FUNCTION @extschema@.epoch_start(collection text, epoch bigint) RETURNS timestamptz
  LANGUAGE sql STABLE STRICT SET search_path = pg_catalog, pg_temp AS $$
  SELECT @extschema@.collection_epoch_start(@extschema@.collection_row(collection), epoch) $$;
COMMENT ON FUNCTION @extschema@.epoch_of(text, timestamptz) IS 'The epoch of the collection that holds time t: floor((t - starts_at) / epoch_length).';
COMMENT ON FUNCTION @extschema@.epoch_start(text, bigint) IS 'The first instant of an epoch of the collection: starts_at + epoch·epoch_length (days of 24 hours).';

-- The source table, schema-qualified and quoted (never through search_path).
CREATE FUNCTION @extschema@.collection_source(c @extschema@.collections) RETURNS text
  LANGUAGE plpgsql STABLE STRICT SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  qualified text;
BEGIN
  SELECT format('%I.%I', n.nspname, r.relname) INTO qualified
  FROM pg_catalog.pg_class r JOIN pg_catalog.pg_namespace n ON n.oid = r.relnamespace
  WHERE r.oid = c.source;
  IF qualified IS NULL THEN
    RAISE EXCEPTION 'the source table of collection "%" no longer exists', c.name
      USING ERRCODE = 'undefined_table', HINT = 'Drop the collection with ldp.drop_collection.';
  END IF;
  RETURN qualified;
END $$;
COMMENT ON FUNCTION @extschema@.collection_source(@extschema@.collections) IS 'Internal: the schema-qualified, quoted name of a collection''s source table.';

-- A query over the source rows with time in [$1, $2), grouped by epoch start:
-- (bin timestamptz, n bigint[, s summary]). Ungrouped (one epoch: [$1, $2) is it),
-- bin is $1 and no row is binned.
CREATE FUNCTION @extschema@.collection_scan(c @extschema@.collections, with_summary boolean,
                                            grouped boolean DEFAULT true) RETURNS text
  LANGUAGE sql STABLE STRICT SET search_path = pg_catalog, pg_temp AS $$
  SELECT format('SELECT %s AS bin, count(*) AS n%s FROM %s WHERE %I >= $1 AND %I < $2%s',
                CASE WHEN grouped THEN format('pg_catalog.date_bin(%L::interval, %I, %L::timestamptz)',
                                              c.epoch_length, c.time_column, c.starts_at)
                     ELSE '$1::timestamptz' END,
                CASE WHEN with_summary THEN format(', (%s' || chr(10) || ') AS s', c.summary) ELSE '' END,
                @extschema@.collection_source(c), c.time_column, c.time_column,
                CASE WHEN grouped THEN ' GROUP BY 1' ELSE '' END) $$;
COMMENT ON FUNCTION @extschema@.collection_scan(@extschema@.collections, boolean, boolean) IS 'Internal: the query that counts (and summarizes) a collection''s source rows per epoch between two instants.';

CREATE FUNCTION @extschema@.create_collection(name text, source regclass, time_column text,
    epoch_length interval, summary text, starts_at timestamptz DEFAULT NULL)
  RETURNS void LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  c @extschema@.collections;
  call text[];
  col_type regtype;
  result_type regtype;
BEGIN
  IF name IS NULL OR source IS NULL OR time_column IS NULL OR epoch_length IS NULL OR summary IS NULL THEN
    RAISE EXCEPTION 'only starts_at may be NULL' USING ERRCODE = 'null_value_not_allowed';
  END IF;
  IF name = '' THEN
    RAISE EXCEPTION 'a collection needs a non-empty name' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF EXISTS (SELECT 1 FROM @extschema@.collections x WHERE x.name = create_collection.name) THEN
    RAISE EXCEPTION 'collection "%" already exists', name USING ERRCODE = 'duplicate_object';
  END IF;
  IF extract(year FROM epoch_length) <> 0 OR extract(month FROM epoch_length) <> 0 THEN
    RAISE EXCEPTION 'epoch_length must not have months or years (they have no fixed length): %', epoch_length
      USING ERRCODE = 'invalid_parameter_value', HINT = 'Use days, e.g. ''28 days''.';
  END IF;
  IF extract(epoch FROM epoch_length) <= 0 THEN
    RAISE EXCEPTION 'epoch_length must be positive, got %', epoch_length USING ERRCODE = 'invalid_parameter_value';
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

  call := @extschema@.collection_summary_call(summary);
  IF call[1] <> '@extschema@' OR NOT EXISTS (
      SELECT 1 FROM pg_catalog.pg_aggregate a JOIN pg_catalog.pg_proc p ON p.oid = a.aggfnoid
      WHERE p.pronamespace = '@extschema@'::regnamespace AND p.proname = call[2]) THEN
    RAISE EXCEPTION 'a collection''s summary must be one call of an ldp aggregate: %.% is not one', call[1], call[2]
      USING ERRCODE = 'invalid_parameter_value';
  END IF;

  c := ROW(name, source, time_column, epoch_length, summary, 'mean',
           coalesce(starts_at, '1970-01-01 00:00+00'), now());
  -- it must run on the source (on one row, so that parameters are checked)
  EXECUTE format('SELECT pg_catalog.pg_typeof((%s' || chr(10) || ')) FROM (SELECT * FROM %s LIMIT 1) AS src',
                 summary, @extschema@.collection_source(c)) INTO result_type;
  IF result_type = '@extschema@.mean_summary'::regtype THEN
    c.kind := 'mean';
  ELSIF result_type = '@extschema@.freq_summary'::regtype THEN
    c.kind := 'frequency';
  ELSE
    RAISE EXCEPTION 'a collection''s summary must return ldp.mean_summary or ldp.freq_summary, not %', result_type
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  INSERT INTO @extschema@.collections SELECT c.*;
END $$;
COMMENT ON FUNCTION @extschema@.create_collection(text, regclass, text, interval, text, timestamptz) IS 'Declares a collection: reports in source, timed by time_column (timestamptz), cut into epochs of epoch_length from starts_at (default 1970-01-01 UTC), summarized by one ldp aggregate call such as ''ldp.onebit_mean_agg(bit, 1.0, 86400)'' (checked now).';

CREATE FUNCTION @extschema@.drop_collection(name text) RETURNS void LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  PERFORM @extschema@.collection_row(name, true);
  DELETE FROM @extschema@.collections c WHERE c.name = drop_collection.name;
END $$;
COMMENT ON FUNCTION @extschema@.drop_collection(text) IS 'Forgets a collection and its closed epochs (the source table is left alone).';

-- Closes epochs lo..hi of c that are not closed yet (all of them when refresh),
-- with one scan of the source.
CREATE FUNCTION @extschema@.collection_close_range(c @extschema@.collections, lo bigint, hi bigint, refresh boolean)
  RETURNS bigint LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  closed bigint;
  col text := CASE c.kind WHEN 'mean' THEN 'mean' ELSE 'freq' END;
BEGIN
  -- MATERIALIZED: the join condition must not be pushed into the scan (it would
  -- compute the epoch of every row twice)
  EXECUTE format(
    'WITH r AS MATERIALIZED (%s)'
    ' INSERT INTO @extschema@.collection_epochs AS ce (collection, epoch, epoch_start, reports, %I)'
    ' SELECT $3, g.e, @extschema@.collection_epoch_start($4, g.e), coalesce(r.n, 0), r.s'
    ' FROM pg_catalog.generate_series($5, $6) AS g(e) LEFT JOIN r'
    '   ON r.bin = @extschema@.collection_epoch_start($4, g.e)'
    ' ON CONFLICT (collection, epoch) DO %s',
    @extschema@.collection_scan(c, true, lo < hi), col,
    CASE WHEN refresh THEN format('UPDATE SET reports = excluded.reports, %I = excluded.%I, closed_at = excluded.closed_at', col, col)
         ELSE 'NOTHING' END)
  USING @extschema@.collection_epoch_start(c, lo), @extschema@.collection_epoch_start(c, hi + 1),
        c.name, c, lo, hi;
  GET DIAGNOSTICS closed = ROW_COUNT;
  RETURN closed;
END $$;
COMMENT ON FUNCTION @extschema@.collection_close_range(@extschema@.collections, bigint, bigint, boolean) IS 'Internal: stores the summaries of epochs lo..hi of a collection in one scan of its source.';

CREATE PROCEDURE @extschema@.close_epoch(name text, epoch bigint, refresh boolean DEFAULT false)
  LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  c @extschema@.collections;
  ends timestamptz;
BEGIN
  IF name IS NULL OR epoch IS NULL OR refresh IS NULL THEN
    RAISE EXCEPTION 'close_epoch needs a name, an epoch and refresh' USING ERRCODE = 'null_value_not_allowed';
  END IF;
  c := @extschema@.collection_row(name, true);  -- concurrent closers wait here
  ends := @extschema@.collection_epoch_start(c, epoch + 1);
  IF ends > now() THEN
    RAISE EXCEPTION 'epoch % of collection "%" has not ended yet (it ends at %)', epoch, name, ends
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  PERFORM @extschema@.collection_close_range(c, epoch, epoch, refresh);
END $$;
COMMENT ON PROCEDURE @extschema@.close_epoch(text, bigint, boolean) IS 'Stores an ended epoch''s summary and row count; a closed epoch is left as it is unless refresh, which recomputes it (taking in late reports).';

CREATE PROCEDURE @extschema@.close_due_epochs(name text) LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  c @extschema@.collections;
  first_t timestamptz;
  lo bigint;
  hi bigint;
BEGIN
  IF name IS NULL THEN
    RAISE EXCEPTION 'close_due_epochs needs a collection name' USING ERRCODE = 'null_value_not_allowed';
  END IF;
  c := @extschema@.collection_row(name, true);
  EXECUTE format('SELECT min(%I) FROM %s', c.time_column, @extschema@.collection_source(c)) INTO first_t;
  IF first_t IS NULL THEN
    RETURN;  -- no reports yet
  END IF;
  -- the open epochs between the first report's and the last that has ended
  SELECT min(g.e), max(g.e) INTO lo, hi
  FROM pg_catalog.generate_series(@extschema@.collection_epoch_of(c, first_t),
                                  @extschema@.collection_epoch_of(c, now()) - 1) AS g(e)
  WHERE NOT EXISTS (SELECT 1 FROM @extschema@.collection_epochs ce
                    WHERE ce.collection = c.name AND ce.epoch = g.e);
  IF lo IS NOT NULL THEN
    PERFORM @extschema@.collection_close_range(c, lo, hi, false);
  END IF;
END $$;
COMMENT ON PROCEDURE @extschema@.close_due_epochs(text) IS 'Closes every ended epoch not closed yet, from the epoch of the source''s earliest report on (an epoch without reports is closed with zero). What pg_cron runs.';

CREATE FUNCTION @extschema@.late_reports(name text)
  RETURNS TABLE(epoch bigint, counted bigint, present bigint, late bigint) LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  c @extschema@.collections := @extschema@.collection_row(name);
  lo bigint;
  hi bigint;
BEGIN
  SELECT min(ce.epoch), max(ce.epoch) INTO lo, hi FROM @extschema@.collection_epochs ce WHERE ce.collection = c.name;
  IF lo IS NULL THEN
    RETURN;
  END IF;
  RETURN QUERY EXECUTE format(
    'SELECT ce.epoch, ce.reports, coalesce(p.n, 0)::bigint, (coalesce(p.n, 0) - ce.reports)::bigint'
    ' FROM @extschema@.collection_epochs ce LEFT JOIN (%s) AS p ON p.bin = ce.epoch_start'
    ' WHERE ce.collection = $3 ORDER BY ce.epoch', @extschema@.collection_scan(c, false))
  USING @extschema@.collection_epoch_start(c, lo), @extschema@.collection_epoch_start(c, hi + 1), c.name;
END $$;
COMMENT ON FUNCTION @extschema@.late_reports(text) IS 'Per closed epoch: the rows its stored summary counted, the rows the source holds now, and the difference (late reports; CALL ldp.close_epoch(name, epoch, true) takes them in).';

CREATE FUNCTION @extschema@.collection_estimates(name text, confidence float8 DEFAULT 0.95)
  RETURNS TABLE(epoch bigint, epoch_start timestamptz, reports bigint, estimate float8,
                std_error float8, ci_lower float8, ci_upper float8) LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  c @extschema@.collections := @extschema@.collection_of_kind(name, 'mean');
BEGIN
  RETURN QUERY
    SELECT ce.epoch, ce.epoch_start, ce.reports, @extschema@.estimate(ce.mean), @extschema@.std_error(ce.mean),
           @extschema@.ci_lower(ce.mean, confidence), @extschema@.ci_upper(ce.mean, confidence)
    FROM @extschema@.collection_epochs ce WHERE ce.collection = c.name ORDER BY ce.epoch;
END $$;
COMMENT ON FUNCTION @extschema@.collection_estimates(text, float8) IS 'One row per closed epoch of a mean collection: epoch, its start, rows, estimate, standard error and confidence interval (NULL for an epoch without reports).';

CREATE FUNCTION @extschema@.collection_frequencies(name text, consistency text DEFAULT 'none')
  RETURNS TABLE(epoch bigint, epoch_start timestamptz, item int, frequency float8,
                std_error float8, ci_lower float8, ci_upper float8) LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  c @extschema@.collections := @extschema@.collection_of_kind(name, 'frequency');
BEGIN
  RETURN QUERY
    SELECT ce.epoch, ce.epoch_start, f.item, f.frequency, f.std_error, f.ci_lower, f.ci_upper
    FROM @extschema@.collection_epochs ce
    CROSS JOIN LATERAL @extschema@.frequencies(ce.freq, consistency) AS f
    WHERE ce.collection = c.name ORDER BY ce.epoch, f.item;
END $$;
COMMENT ON FUNCTION @extschema@.collection_frequencies(text, text) IS 'One row per item and closed epoch of a frequency collection: frequency, standard error and 95% interval (consistency as in ldp.frequencies; epochs without reports have no rows).';

------------------------------------------------------------------------------
-- THRESH (seed 000; docs/algorithms/thresh.md): a Bernoulli population mean published
-- every epoch but re-estimated only when the users' private votes say it
-- changed. The server keeps per stream: the configuration and the parameters
-- every device needs, the current epoch and phase with running tallies of the
-- reports, one row per user per epoch (so a second report is refused) and one
-- history row per epoch. The formulas live in the core (src/core/thresh.hpp).
--
-- Phases of the current epoch: 'voting' (votes accepted) → thresh_close_votes →
-- 'estimating' (global update: estimates accepted) or 'closed' (no update) →
-- thresh_close_epoch → next epoch 'voting', or 'finished' after the last one.
------------------------------------------------------------------------------

CREATE TABLE @extschema@.thresh_streams (
  id serial UNIQUE,
  name text PRIMARY KEY CHECK (name <> ''),
  users bigint NOT NULL,
  epochs int NOT NULL,
  epoch_rounds bigint NOT NULL,
  min_group_size bigint NOT NULL,
  groups int NOT NULL,
  epsilon float8 NOT NULL,
  delta float8 NOT NULL,
  vote_noise float8 NOT NULL,
  estimate_noise float8 NOT NULL,
  threshold_unit float8,
  vote_threshold float8 NOT NULL,
  thresholds float8[] NOT NULL,
  epoch int NOT NULL DEFAULT 1,
  phase text NOT NULL DEFAULT 'voting' CHECK (phase IN ('voting', 'estimating', 'closed', 'finished')),
  votes bigint NOT NULL DEFAULT 0,
  yes_votes bigint NOT NULL DEFAULT 0,
  estimate_reports bigint NOT NULL DEFAULT 0,
  estimate_ones bigint NOT NULL DEFAULT 0,
  last_update_epoch int NOT NULL DEFAULT 0,
  estimate float8,
  std_error float8,
  created_at timestamptz NOT NULL DEFAULT now()
);
-- no foreign keys on the report tables: a check per row would cost more than the row
CREATE TABLE @extschema@.thresh_votes (
  stream int NOT NULL,
  epoch int NOT NULL,
  user_id bigint NOT NULL,
  vote boolean NOT NULL,
  PRIMARY KEY (stream, epoch, user_id)
);
CREATE TABLE @extschema@.thresh_estimates (
  stream int NOT NULL,
  epoch int NOT NULL,
  user_id bigint NOT NULL,
  report boolean NOT NULL,
  PRIMARY KEY (stream, epoch, user_id)
);
CREATE TABLE @extschema@.thresh_epochs (
  stream int NOT NULL REFERENCES @extschema@.thresh_streams (id) ON DELETE CASCADE,
  epoch int NOT NULL,
  votes bigint NOT NULL,
  yes_votes bigint NOT NULL,
  vote_threshold float8,
  global_update boolean NOT NULL,
  estimate_reports bigint,
  estimate_ones bigint,
  estimate float8,
  std_error float8,
  last_update_epoch int,
  votes_closed_at timestamptz NOT NULL DEFAULT now(),
  closed_at timestamptz,
  PRIMARY KEY (stream, epoch)
);
SELECT pg_catalog.pg_extension_config_dump('@extschema@.thresh_streams', '');
SELECT pg_catalog.pg_extension_config_dump('@extschema@.thresh_votes', '');
SELECT pg_catalog.pg_extension_config_dump('@extschema@.thresh_estimates', '');
SELECT pg_catalog.pg_extension_config_dump('@extschema@.thresh_epochs', '');
SELECT pg_catalog.pg_extension_config_dump('@extschema@.thresh_streams_id_seq', '');
COMMENT ON TABLE @extschema@.thresh_streams IS 'One row per THRESH stream: configuration, derived parameters, current epoch and phase, and the running tallies of its reports.';
COMMENT ON TABLE @extschema@.thresh_votes IS 'Every accepted THRESH vote (one per user per epoch).';
COMMENT ON TABLE @extschema@.thresh_estimates IS 'Every accepted THRESH estimate report (at most one per user per epoch).';
COMMENT ON TABLE @extschema@.thresh_epochs IS 'One row per THRESH epoch whose votes are closed: the decision and, once the epoch is closed, the published estimate.';

CREATE FUNCTION @extschema@.thresh_derive(users bigint, epochs int, epoch_rounds bigint, min_group_size bigint,
    groups int, epsilon float8, delta float8, vote_noise float8, estimate_noise float8, threshold_unit float8,
    OUT a float8, OUT b float8, OUT vote_threshold float8, OUT sampling_error float8, OUT thresholds float8[],
    OUT max_truthful_votes bigint, OUT max_truthful_estimates bigint, OUT worst_case_loss float8,
    OUT accuracy_bound float8)
  AS 'MODULE_PATHNAME', 'ldp_thresh_derive' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.thresh_decide(stream @extschema@.thresh_streams, votes bigint, yes_votes bigint,
    OUT vote_threshold float8, OUT global_update boolean)
  AS 'MODULE_PATHNAME', 'ldp_thresh_decide' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.thresh_decode(stream @extschema@.thresh_streams, reports bigint, ones bigint,
    OUT estimate float8, OUT std_error float8)
  AS 'MODULE_PATHNAME', 'ldp_thresh_decode' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.thresh_derive(bigint, int, bigint, bigint, int, float8, float8, float8, float8, float8) IS 'THRESH parameters from a configuration (NULL noises and threshold unit are derived): vote noise a, estimate noise b, vote threshold, per-user sampling error y, thresholds tau_-1..tau_ceil(log2 T), the truthful reports a user can afford, its worst-case privacy loss and the Theorem 4.3 accuracy bound.';
COMMENT ON FUNCTION @extschema@.thresh_decide(@extschema@.thresh_streams, bigint, bigint) IS 'Internal: THRESH''s update rule on an epoch''s votes (the threshold uses the number of votes received).';
COMMENT ON FUNCTION @extschema@.thresh_decode(@extschema@.thresh_streams, bigint, bigint) IS 'Internal: the global estimate and its standard error from an epoch''s estimate reports.';

CREATE FUNCTION @extschema@.thresh_stream(name text, lock boolean DEFAULT false)
  RETURNS @extschema@.thresh_streams LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  s @extschema@.thresh_streams;
BEGIN
  IF lock THEN
    SELECT * INTO s FROM @extschema@.thresh_streams t WHERE t.name = thresh_stream.name FOR UPDATE;
  ELSE
    SELECT * INTO s FROM @extschema@.thresh_streams t WHERE t.name = thresh_stream.name;
  END IF;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'THRESH stream "%" does not exist', name
      USING ERRCODE = 'undefined_object', HINT = 'Create it with ldp.thresh_create.';
  END IF;
  RETURN s;
END $$;
COMMENT ON FUNCTION @extschema@.thresh_stream(text, boolean) IS 'Internal: a THRESH stream''s row (locked FOR UPDATE when asked), or error 42704.';

CREATE FUNCTION @extschema@.thresh_create(name text, users bigint, epochs int, epoch_rounds int,
    min_group_size bigint, groups int, epsilon float8, delta float8,
    vote_noise float8 DEFAULT NULL, estimate_noise float8 DEFAULT NULL, threshold_unit float8 DEFAULT NULL)
  RETURNS void LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  p record;
BEGIN
  IF name IS NULL OR name = '' THEN
    RAISE EXCEPTION 'a THRESH stream needs a non-empty name' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF EXISTS (SELECT 1 FROM @extschema@.thresh_streams t WHERE t.name = thresh_create.name) THEN
    RAISE EXCEPTION 'THRESH stream "%" already exists', name USING ERRCODE = 'duplicate_object';
  END IF;
  p := @extschema@.thresh_derive(users, epochs, epoch_rounds, min_group_size, groups, epsilon, delta,
                                 vote_noise, estimate_noise, threshold_unit);
  IF p.worst_case_loss > epsilon THEN
    RAISE WARNING 'THRESH stream "%": a user''s privacy loss can reach % > epsilon = %', name,
      round(p.worst_case_loss::numeric, 4), epsilon
      USING DETAIL = format('Truthful votes fall in data-dependent epochs: up to 2·a·ceil(eps/(4a)) + b·ceil(eps/(4b)) with a = %s, b = %s.',
                            round(p.a::numeric, 4), round(p.b::numeric, 4)),
            HINT = 'Smaller vote and estimate noises (larger groups, shorter epochs) or a larger epsilon restore eps-LDP.';
  END IF;
  INSERT INTO @extschema@.thresh_streams (name, users, epochs, epoch_rounds, min_group_size, groups, epsilon,
      delta, vote_noise, estimate_noise, threshold_unit, vote_threshold, thresholds)
  VALUES (name, users, epochs, epoch_rounds, min_group_size, groups, epsilon, delta, p.a, p.b,
          threshold_unit, p.vote_threshold, p.thresholds);
END $$;
COMMENT ON FUNCTION @extschema@.thresh_create(text, bigint, int, int, bigint, int, float8, float8, float8, float8, float8) IS 'Creates a THRESH stream for n users, T epochs of epoch_rounds rounds, groups subgroups of at least min_group_size users, privacy epsilon and failure probability delta; derives the vote noise a, estimate noise b and thresholds (or takes the given ones) and refuses configurations that break Assumption 4.2 or leave b undefined, saying what to change.';

CREATE FUNCTION @extschema@.thresh_drop(name text) RETURNS void LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  s @extschema@.thresh_streams := @extschema@.thresh_stream(name, true);
BEGIN
  DELETE FROM @extschema@.thresh_votes WHERE stream = s.id;
  DELETE FROM @extschema@.thresh_estimates WHERE stream = s.id;
  DELETE FROM @extschema@.thresh_streams WHERE id = s.id;
END $$;
COMMENT ON FUNCTION @extschema@.thresh_drop(text) IS 'Deletes a THRESH stream with its reports and history.';

CREATE FUNCTION @extschema@.thresh_params(name text)
  RETURNS TABLE(users bigint, epochs int, epoch_rounds bigint, min_group_size bigint, groups int,
                epsilon float8, delta float8, vote_noise float8, estimate_noise float8,
                vote_threshold float8, thresholds float8[])
  LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp AS $$
  SELECT s.users, s.epochs, s.epoch_rounds, s.min_group_size, s.groups, s.epsilon, s.delta,
         s.vote_noise, s.estimate_noise, s.vote_threshold, s.thresholds
  FROM @extschema@.thresh_stream(name) s $$;
COMMENT ON FUNCTION @extschema@.thresh_params(text) IS 'What every device of a THRESH stream needs: its configuration, a, b, the vote threshold (for n votes) and thresholds[1] = tau_-1 .. thresholds[ceil(log2 T)+2] = tau_ceil(log2 T).';

-- Shared by both submit functions: checks the batch, stores one row per user and
-- adds the batch to the stream's tallies, or refuses the whole batch.
CREATE FUNCTION @extschema@.thresh_submit(name text, epoch int, user_ids bigint[], bits boolean[], kind text)
  RETURNS bigint LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  s @extschema@.thresh_streams := @extschema@.thresh_stream(name);
  want text := CASE kind WHEN 'votes' THEN 'voting' ELSE 'estimating' END;
  n bigint;
  ones bigint;
  dup bigint;
BEGIN
  IF epoch IS NULL OR user_ids IS NULL OR bits IS NULL THEN
    RAISE EXCEPTION 'epoch, user_ids and % must not be NULL', CASE kind WHEN 'votes' THEN 'votes' ELSE 'reports' END
      USING ERRCODE = 'null_value_not_allowed';
  END IF;
  IF coalesce(array_ndims(user_ids), 1) <> 1 OR coalesce(array_ndims(bits), 1) <> 1 THEN
    RAISE EXCEPTION 'user_ids and % must be one-dimensional arrays', CASE kind WHEN 'votes' THEN 'votes' ELSE 'reports' END
      USING ERRCODE = 'array_subscript_error';
  END IF;
  IF cardinality(user_ids) <> cardinality(bits) THEN
    RAISE EXCEPTION 'user_ids and % must be arrays of the same length (got % and %)',
      CASE kind WHEN 'votes' THEN 'votes' ELSE 'reports' END, cardinality(user_ids), cardinality(bits)
      USING ERRCODE = 'array_subscript_error';
  END IF;
  IF array_position(user_ids, NULL) IS NOT NULL OR array_position(bits, NULL) IS NOT NULL THEN
    RAISE EXCEPTION 'the batch holds a NULL user id or report' USING ERRCODE = 'null_value_not_allowed';
  END IF;
  IF s.epoch <> epoch OR s.phase <> want THEN
    RAISE EXCEPTION 'THRESH stream "%" takes no % for epoch %: it is in epoch %, phase %', name, kind, epoch, s.epoch, s.phase
      USING ERRCODE = 'object_not_in_prerequisite_state', HINT = 'The whole batch was refused.';
  END IF;
  n := cardinality(user_ids);
  IF n = 0 THEN
    RETURN 0;
  END IF;
  SELECT count(*) FILTER (WHERE b) INTO ones FROM unnest(bits) AS b;
  BEGIN
    IF kind = 'votes' THEN
      INSERT INTO @extschema@.thresh_votes (stream, epoch, user_id, vote)
      SELECT s.id, epoch, u, b FROM unnest(user_ids, bits) AS x(u, b);
    ELSE
      INSERT INTO @extschema@.thresh_estimates (stream, epoch, user_id, report)
      SELECT s.id, epoch, u, b FROM unnest(user_ids, bits) AS x(u, b);
    END IF;
  EXCEPTION WHEN unique_violation THEN
    SELECT u INTO dup FROM unnest(user_ids) AS u GROUP BY u HAVING count(*) > 1 LIMIT 1;
    IF dup IS NULL THEN
      IF kind = 'votes' THEN
        SELECT v.user_id INTO dup FROM @extschema@.thresh_votes v
        WHERE v.stream = s.id AND v.epoch = thresh_submit.epoch AND v.user_id = ANY (user_ids) LIMIT 1;
      ELSE
        SELECT v.user_id INTO dup FROM @extschema@.thresh_estimates v
        WHERE v.stream = s.id AND v.epoch = thresh_submit.epoch AND v.user_id = ANY (user_ids) LIMIT 1;
      END IF;
    END IF;
    RAISE EXCEPTION 'user % already sent % for epoch % of THRESH stream "%"', dup,
      CASE kind WHEN 'votes' THEN 'a vote' ELSE 'an estimate' END, epoch, name
      USING ERRCODE = 'unique_violation', HINT = 'The whole batch was refused.';
  END;
  -- The tallies, re-checking the phase under the row lock: a close that got there
  -- first has moved the phase on and the batch is refused; a close that comes
  -- later waits for this transaction and counts it.
  IF kind = 'votes' THEN
    UPDATE @extschema@.thresh_streams t SET votes = t.votes + n, yes_votes = t.yes_votes + ones
    WHERE t.id = s.id AND t.epoch = thresh_submit.epoch AND t.phase = want AND t.votes + n <= t.users;
  ELSE
    UPDATE @extschema@.thresh_streams t SET estimate_reports = t.estimate_reports + n,
                                           estimate_ones = t.estimate_ones + ones
    WHERE t.id = s.id AND t.epoch = thresh_submit.epoch AND t.phase = want AND t.estimate_reports + n <= t.users;
  END IF;
  IF NOT FOUND THEN
    s := @extschema@.thresh_stream(name);
    IF s.epoch <> epoch OR s.phase <> want THEN
      RAISE EXCEPTION 'THRESH stream "%" takes no % for epoch %: it is in epoch %, phase %', name, kind, epoch, s.epoch, s.phase
        USING ERRCODE = 'object_not_in_prerequisite_state', HINT = 'The whole batch was refused.';
    END IF;
    RAISE EXCEPTION 'THRESH stream "%" would get more % in epoch % than its % users', name, kind, epoch, s.users
      USING ERRCODE = 'invalid_parameter_value', HINT = 'The whole batch was refused.';
  END IF;
  RETURN n;
END $$;
COMMENT ON FUNCTION @extschema@.thresh_submit(text, int, bigint[], boolean[], text) IS 'Internal: stores a batch of THRESH votes or estimates whole, or refuses it whole.';

CREATE FUNCTION @extschema@.thresh_submit_votes(name text, epoch int, user_ids bigint[], votes boolean[])
  RETURNS bigint LANGUAGE sql SET search_path = pg_catalog, pg_temp AS $$ SELECT @extschema@.thresh_submit(name, epoch, user_ids, votes, 'votes') $$;
CREATE FUNCTION @extschema@.thresh_submit_estimates(name text, epoch int, user_ids bigint[], reports boolean[])
  RETURNS bigint LANGUAGE sql SET search_path = pg_catalog, pg_temp AS $$ SELECT @extschema@.thresh_submit(name, epoch, user_ids, reports, 'estimates') $$;
COMMENT ON FUNCTION @extschema@.thresh_submit_votes(text, int, bigint[], boolean[]) IS 'Stores a batch of VOTE reports for the current epoch of a THRESH stream in its voting phase; returns how many. One vote per user per epoch: a batch with a duplicate, for another epoch or phase, or with arrays of different lengths is refused whole.';
COMMENT ON FUNCTION @extschema@.thresh_submit_estimates(text, int, bigint[], boolean[]) IS 'Stores a batch of EST reports for the current epoch of a THRESH stream whose votes decided a global update; returns how many. At most one per user per epoch; a bad batch is refused whole.';

CREATE PROCEDURE @extschema@.thresh_close_votes(name text, epoch int DEFAULT NULL) LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  s @extschema@.thresh_streams := @extschema@.thresh_stream(name, true);  -- waits for submitters
  d record;
BEGIN
  IF epoch IS NOT NULL AND (epoch < s.epoch OR (epoch = s.epoch AND s.phase <> 'voting')) THEN
    RAISE NOTICE 'the votes of epoch % of THRESH stream "%" are already closed', epoch, name;
    RETURN;
  END IF;
  IF s.phase <> 'voting' OR (epoch IS NOT NULL AND epoch <> s.epoch) THEN
    RAISE EXCEPTION 'THRESH stream "%" is in epoch %, phase %: no votes to close%', name, s.epoch, s.phase,
      CASE WHEN epoch IS NOT NULL THEN format(' for epoch %s', epoch) ELSE '' END
      USING ERRCODE = 'object_not_in_prerequisite_state';
  END IF;
  d := @extschema@.thresh_decide(s, s.votes, s.yes_votes);
  UPDATE @extschema@.thresh_streams t SET phase = CASE WHEN d.global_update THEN 'estimating' ELSE 'closed' END
  WHERE t.id = s.id;
  INSERT INTO @extschema@.thresh_epochs (stream, epoch, votes, yes_votes, vote_threshold, global_update)
  VALUES (s.id, s.epoch, s.votes, s.yes_votes, d.vote_threshold, d.global_update);
END $$;
COMMENT ON PROCEDURE @extschema@.thresh_close_votes(text, int) IS 'Applies THRESH''s update rule to the current epoch''s votes and publishes the decision (phase estimating on a global update, else closed). With epoch given, closing an already closed phase is a no-op.';

CREATE PROCEDURE @extschema@.thresh_close_epoch(name text, epoch int DEFAULT NULL) LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  s @extschema@.thresh_streams := @extschema@.thresh_stream(name, true);
  e record;
  est float8;
  se float8;
  last_update int;
BEGIN
  IF epoch IS NOT NULL AND (epoch < s.epoch OR s.phase = 'finished') THEN
    RAISE NOTICE 'epoch % of THRESH stream "%" is already closed', epoch, name;
    RETURN;
  END IF;
  IF s.phase = 'finished' THEN
    RAISE EXCEPTION 'THRESH stream "%" has run all its % epochs', name, s.epochs
      USING ERRCODE = 'object_not_in_prerequisite_state';
  END IF;
  IF s.phase = 'voting' OR (epoch IS NOT NULL AND epoch <> s.epoch) THEN
    RAISE EXCEPTION 'THRESH stream "%" is in epoch %, phase %: close its votes first', name, s.epoch, s.phase
      USING ERRCODE = 'object_not_in_prerequisite_state', HINT = 'CALL ldp.thresh_close_votes(name).';
  END IF;
  est := s.estimate;
  se := s.std_error;
  last_update := s.last_update_epoch;
  IF s.phase = 'estimating' THEN
    last_update := s.epoch;
    IF s.estimate_reports > 0 THEN
      e := @extschema@.thresh_decode(s, s.estimate_reports, s.estimate_ones);
      est := e.estimate;
      se := e.std_error;
    ELSE
      RAISE WARNING 'epoch % of THRESH stream "%" updated but received no estimates: the previous estimate stays published', s.epoch, name;
    END IF;
  END IF;
  UPDATE @extschema@.thresh_streams t
  SET epoch = CASE WHEN s.epoch < s.epochs THEN s.epoch + 1 ELSE s.epoch END,
      phase = CASE WHEN s.epoch < s.epochs THEN 'voting' ELSE 'finished' END,
      votes = 0, yes_votes = 0, estimate_reports = 0, estimate_ones = 0,
      last_update_epoch = last_update, estimate = est, std_error = se
  WHERE t.id = s.id;
  UPDATE @extschema@.thresh_epochs h
  SET estimate_reports = s.estimate_reports, estimate_ones = s.estimate_ones, estimate = est, std_error = se,
      last_update_epoch = last_update, closed_at = now()
  WHERE h.stream = s.id AND h.epoch = s.epoch;
END $$;
COMMENT ON PROCEDURE @extschema@.thresh_close_epoch(text, int) IS 'Publishes the epoch''s estimate (the aggregated estimates after a global update, else the previous one) and opens the next epoch (or finishes the stream after the last). With epoch given, closing an already closed epoch is a no-op.';

CREATE FUNCTION @extschema@.thresh_status(name text)
  RETURNS TABLE(epoch int, phase text, last_update_epoch int, estimate float8, std_error float8,
                votes bigint, estimate_reports bigint)
  LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp AS $$
  SELECT s.epoch, s.phase, s.last_update_epoch, s.estimate, s.std_error, s.votes, s.estimate_reports
  FROM @extschema@.thresh_stream(name) s $$;
COMMENT ON FUNCTION @extschema@.thresh_status(text) IS 'A THRESH stream now: current epoch and phase (voting, estimating, closed, finished), the epoch of the last global update, the published estimate p~ and its standard error, and the reports received so far in this epoch.';

CREATE FUNCTION @extschema@.thresh_history(name text)
  RETURNS TABLE(epoch int, votes bigint, vote_share float8, vote_threshold float8, global_update boolean,
                estimate_reports bigint, estimate float8, std_error float8, last_update_epoch int)
  LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp AS $$
  SELECT h.epoch, h.votes, CASE WHEN h.votes > 0 THEN h.yes_votes::float8 / h.votes END, h.vote_threshold,
         h.global_update, h.estimate_reports, h.estimate, h.std_error, h.last_update_epoch
  FROM @extschema@.thresh_stream(name) s JOIN @extschema@.thresh_epochs h ON h.stream = s.id
  ORDER BY h.epoch $$;
COMMENT ON FUNCTION @extschema@.thresh_history(text) IS 'One row per THRESH epoch whose votes are closed: votes, share of 1s, the threshold it was compared with, the decision, and once closed the estimate reports, published estimate, standard error and last update epoch.';
