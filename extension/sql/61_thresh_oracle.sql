------------------------------------------------------------------------------
-- Histogram (HEAVYTHRESH) streams' published oracles (50_thresh.sql has the
-- streams; this file comes after 60_sketch.sql, which defines ldp.sketch_summary).
-- An epoch that closes a global update with reports stores the hashtogram summary
-- of its reports in its history row; every closed epoch publishes the oracle of its
-- last such epoch.
------------------------------------------------------------------------------

ALTER TABLE @extschema@.thresh_epochs ADD COLUMN oracle @extschema@.sketch_summary;
COMMENT ON COLUMN @extschema@.thresh_epochs.oracle IS 'Histogram streams: the hashtogram summary of the epoch''s reports, in an epoch that closed a global update with reports (NULL otherwise: the last one stays published).';

-- A histogram stream's row, or 42704 (unknown or not readable) or 42809 (a Bernoulli stream).
CREATE FUNCTION @extschema@.thresh_histogram_stream(name text)
  RETURNS @extschema@.thresh_streams LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  s @extschema@.thresh_streams := @extschema@.thresh_stream(name);
BEGIN
  IF s.kind <> 'histogram' THEN
    RAISE EXCEPTION 'THRESH stream "%" is a % stream: it publishes no frequency oracle', name, s.kind
      USING ERRCODE = 'wrong_object_type', HINT = 'Read its estimates with ldp.thresh_status or ldp.thresh_history.';
  END IF;
  RETURN s;
END $$;
COMMENT ON FUNCTION @extschema@.thresh_histogram_stream(text) IS 'A histogram stream''s row as ldp.thresh_stream gives it, or error 42704 (unknown or not readable) or 42809 (a Bernoulli stream). Executable by PUBLIC: ldp.thresh_summary and ldp.thresh_frequencies call it with the caller''s rights.';

-- Each closed epoch of a stream with the epoch (and oracle) it publishes.
CREATE FUNCTION @extschema@.thresh_published(stream_id int, at_epoch bigint,
    OUT epoch bigint, OUT last_update_epoch bigint, OUT oracle @extschema@.sketch_summary)
  RETURNS SETOF record LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp AS $$
  SELECT h.epoch::bigint, u.epoch::bigint, u.oracle
  FROM @extschema@.thresh_epochs h
  CROSS JOIN LATERAL (SELECT o.epoch, o.oracle FROM @extschema@.thresh_epochs o
                      WHERE o.stream = $1 AND o.epoch <= h.epoch AND o.oracle IS NOT NULL
                      ORDER BY o.epoch DESC LIMIT 1) u
  WHERE h.stream = $1 AND h.closed_at IS NOT NULL AND ($2 IS NULL OR h.epoch = $2)
  ORDER BY h.epoch $$;
COMMENT ON FUNCTION @extschema@.thresh_published(int, bigint) IS 'Each closed epoch of a histogram stream (or the one given), the epoch of its last global update with reports and that update''s oracle, from the rows of ldp.thresh_epochs the calling role may read (row-level security: none of a stream it may not read). Executable by PUBLIC: ldp.thresh_summary and ldp.thresh_frequencies call it with the caller''s rights.';

CREATE FUNCTION @extschema@.thresh_summary(name text, epoch bigint) RETURNS @extschema@.sketch_summary
  LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp AS $$
  SELECT p.oracle FROM @extschema@.thresh_histogram_stream($1) s,
                       @extschema@.thresh_published(s.id, $2) p $$;
COMMENT ON FUNCTION @extschema@.thresh_summary(text, bigint) IS 'The frequency oracle a histogram (HEAVYTHRESH) stream published for a closed epoch: the hashtogram summary of its last global update''s reports (read it with ldp.frequencies); NULL for an epoch not closed yet or before the first update. Error 42809 for a Bernoulli stream.';

CREATE FUNCTION @extschema@.thresh_frequencies(name text, items text[], epoch bigint DEFAULT NULL)
  RETURNS TABLE(epoch bigint, item text, frequency float8, count float8, std_error float8, ci_lower float8,
                ci_upper float8, last_update_epoch bigint)
  LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp AS $$
  SELECT p.epoch, f.item, f.frequency, f.count, f.std_error, f.ci_lower, f.ci_upper, p.last_update_epoch
  FROM @extschema@.thresh_histogram_stream($1) s
  CROSS JOIN LATERAL @extschema@.thresh_published(s.id, $3) p
  CROSS JOIN LATERAL @extschema@.frequencies(p.oracle, $2) WITH ORDINALITY AS f(item, frequency, count, std_error,
                                                                             ci_lower, ci_upper, k)
  ORDER BY p.epoch, f.k $$;
COMMENT ON FUNCTION @extschema@.thresh_frequencies(text, text[], bigint) IS 'The published frequencies of items in a histogram (HEAVYTHRESH) stream: per closed epoch (or the one given) and item in array order, ldp.frequencies of the oracle it published (frequency = estimate / reports, standard error and 95% interval in frequency units, hash collisions aside) and the epoch of that oracle''s update. Error 42809 for a Bernoulli stream.';
