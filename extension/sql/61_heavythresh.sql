------------------------------------------------------------------------------
-- Histogram (HEAVYTHRESH) streams: THRESH's votes on users' projected histograms
-- and a hashtogram frequency oracle published every epoch, re-estimated on global
-- updates (docs/algorithms/thresh.md#heavythresh). The kind's table, functions and
-- registry rows (50_thresh.sql has the streams and the registry; this file comes
-- after 60_sketch.sql, which defines ldp.sketch_summary and ldp.hashtogram_agg).
-- An epoch that closes a global update with reports stores the hashtogram summary
-- of its reports in its history row; every closed epoch publishes the oracle of its
-- last such epoch.
------------------------------------------------------------------------------

CREATE TABLE @extschema@.thresh_histograms (
  stream int NOT NULL,
  epoch int NOT NULL,
  user_id bigint NOT NULL,
  hash_index int NOT NULL,
  coefficient int NOT NULL,
  report boolean NOT NULL,
  PRIMARY KEY (stream, epoch, user_id)
);
COMMENT ON TABLE @extschema@.thresh_histograms IS 'Every accepted report of a histogram (HEAVYTHRESH) stream after a global update: the count sketch''s (hash_index, coefficient, +1/-1) on the user''s projected histogram (at most one per user per epoch).';
-- pg_dump keeps its rows; readable by the stream's owner only (as thresh_votes)
SELECT pg_catalog.pg_extension_config_dump('@extschema@.thresh_histograms', '');
REVOKE ALL ON @extschema@.thresh_histograms FROM PUBLIC;
GRANT SELECT ON @extschema@.thresh_histograms TO PUBLIC;
ALTER TABLE @extschema@.thresh_histograms ENABLE ROW LEVEL SECURITY;
CREATE POLICY thresh_histograms_owner ON @extschema@.thresh_histograms FOR SELECT
  USING (EXISTS (SELECT 1 FROM @extschema@.thresh_streams s
                 WHERE s.id = stream AND @extschema@.has_privilege(s.backing_view, 'OWNER')));

ALTER TABLE @extschema@.thresh_epochs ADD COLUMN oracle @extschema@.sketch_summary;
COMMENT ON COLUMN @extschema@.thresh_epochs.oracle IS 'Histogram streams: the hashtogram summary of the epoch''s reports, in an epoch that closed a global update with reports (NULL otherwise: the last one stays published).';

CREATE FUNCTION @extschema@.heavythresh_derive(users bigint, epochs int, epoch_rounds bigint, min_group_size bigint,
    groups int, epsilon float8, delta float8, hashes int, width int,
    vote_noise float8 DEFAULT NULL, estimate_noise float8 DEFAULT NULL, threshold_unit float8 DEFAULT NULL,
    OUT a float8, OUT b float8, OUT vote_threshold float8, OUT projection_error float8, OUT thresholds float8[],
    OUT max_truthful_votes bigint, OUT max_truthful_estimates bigint, OUT worst_case_loss float8)
  AS 'MODULE_PATHNAME', 'ldp_heavythresh_derive_within_cap' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.heavythresh_derive(bigint, int, bigint, bigint, int, float8, float8, int, int, float8, float8, float8) IS 'HEAVYTHRESH parameters (docs/algorithms/thresh.md#heavythresh), with the arguments of ldp.heavythresh_create in its order: a, b and the vote threshold as for a Bernoulli stream, the projection error y_Phi = sqrt(2 ln(16wnT/delta)/(t l)) with w = hashes * width, thresholds tau_b = 2(b+1) y_Phi (or the threshold unit), the truthful reports a device can afford and its worst-case privacy loss (<= eps, as ldp.thresh_derive; the same refusals).';
CREATE FUNCTION @extschema@.thresh_derive_histogram(users bigint, epochs int, epoch_rounds bigint, min_group_size bigint,
    groups int, epsilon float8, delta float8, vote_noise float8, estimate_noise float8, threshold_unit float8,
    hashes int, width int, OUT a float8, OUT b float8, OUT vote_threshold float8, OUT thresholds float8[],
    OUT projection_error float8)
  LANGUAGE sql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $$
  SELECT d.a, d.b, d.vote_threshold, d.thresholds, d.projection_error
  FROM @extschema@.heavythresh_derive(users, epochs, epoch_rounds, min_group_size, groups, epsilon, delta,
                                      hashes, width, vote_noise, estimate_noise, threshold_unit) d $$;
REVOKE ALL ON FUNCTION @extschema@.thresh_derive_histogram(bigint, int, bigint, bigint, int, float8, float8, float8, float8, float8, int, int) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.thresh_derive_histogram(bigint, int, bigint, bigint, int, float8, float8, float8, float8, float8, int, int) IS 'Internal: a new histogram stream''s parameters (ldp.heavythresh_derive), the derive function of ldp.thresh_kinds.';

-- A batch's hash indexes and coefficients against the stream's sketch.
CREATE FUNCTION @extschema@.thresh_check_histograms(stream @extschema@.thresh_streams, hash_indexes int[], coefficients int[])
  RETURNS void LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM unnest(hash_indexes, coefficients) AS x(j, r)
             WHERE x.j < 0 OR x.j >= stream.hashes OR x.r < 0 OR x.r >= stream.width) THEN
    RAISE EXCEPTION 'THRESH stream "%" takes hash indexes in [0, %) and coefficients in [0, %)', stream.name,
      stream.hashes, stream.width
      USING ERRCODE = 'invalid_parameter_value', HINT = 'The whole batch was refused.';
  END IF;
END $$;
REVOKE ALL ON FUNCTION @extschema@.thresh_check_histograms(@extschema@.thresh_streams, int[], int[]) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.thresh_check_histograms(@extschema@.thresh_streams, int[], int[]) IS 'Internal: refuses (22023) a batch of histogram reports with a hash index outside [0, hashes) or a coefficient outside [0, width) of the stream; the check_batch function of ldp.thresh_report_kinds.';

-- What a histogram stream publishes when an epoch of a global update closes: the
-- hashtogram of its reports goes into the epoch's history row.
CREATE FUNCTION @extschema@.thresh_publish_histogram(stream @extschema@.thresh_streams,
    OUT estimate float8, OUT std_error float8, OUT last_update_epoch int)
  LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  estimate := stream.estimate;
  std_error := stream.std_error;
  last_update_epoch := stream.last_update_epoch;
  IF stream.estimate_reports > 0 THEN
    last_update_epoch := stream.epoch;
    UPDATE @extschema@.thresh_epochs h
    SET oracle = (SELECT @extschema@.hashtogram_agg(r.hash_index, r.coefficient, r.report, stream.estimate_noise,
                                                     stream.hashes, stream.width)
                  FROM @extschema@.thresh_histograms r WHERE r.stream = stream.id AND r.epoch = stream.epoch)
    WHERE h.stream = stream.id AND h.epoch = stream.epoch;
  ELSE
    RAISE WARNING 'epoch % of THRESH stream "%" updated but received no reports: the previous oracle stays published',
      stream.epoch, stream.name;
  END IF;
END $$;
REVOKE ALL ON FUNCTION @extschema@.thresh_publish_histogram(@extschema@.thresh_streams) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.thresh_publish_histogram(@extschema@.thresh_streams) IS 'Internal: what a histogram stream publishes when an epoch of a global update closes: the hashtogram summary of its reports in the epoch''s history row (ldp.thresh_epochs.oracle), or with none the previous oracle, with a warning; the publish function of ldp.thresh_kinds.';

INSERT INTO @extschema@.thresh_report_kinds (kind, phase, report_table, bit_column, int_columns, what, one, send_hint, check_batch)
VALUES ('histograms', 'estimating', 'thresh_histograms', 'report', '{hash_index,coefficient}',
        'hash_indexes, coefficients, reports', 'a histogram report',
        'Send its reports with ldp.thresh_submit_histograms.', 'thresh_check_histograms');
INSERT INTO @extschema@.thresh_kinds (kind, derive, publish, reports)
VALUES ('histogram', 'thresh_derive_histogram', 'thresh_publish_histogram', 'histograms');

CREATE FUNCTION @extschema@._heavythresh_create(caller regrole, name text, users bigint, epochs int, epoch_rounds int,
    min_group_size bigint, groups int, epsilon float8, delta float8, hashes int, width int,
    vote_noise float8, estimate_noise float8, threshold_unit float8)
  RETURNS void LANGUAGE sql SET search_path = pg_catalog, pg_temp AS $$
  SELECT @extschema@.thresh_create_stream(caller, name, 'histogram', users, epochs, epoch_rounds, min_group_size, groups,
                                          epsilon, delta, vote_noise, estimate_noise, threshold_unit, hashes, width) $$;
REVOKE ALL ON FUNCTION @extschema@._heavythresh_create(regrole, text, bigint, int, int, bigint, int, float8, float8, int, int, float8, float8, float8) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@._heavythresh_create(regrole, text, bigint, int, int, bigint, int, float8, float8, int, int, float8, float8, float8) IS 'Internal: ldp.heavythresh_create run as the catalog''s owner for the calling role.';
CREATE FUNCTION @extschema@.heavythresh_create(name text, users bigint, epochs int, epoch_rounds int,
    min_group_size bigint, groups int, epsilon float8, delta float8, hashes int, width int,
    vote_noise float8 DEFAULT NULL, estimate_noise float8 DEFAULT NULL, threshold_unit float8 DEFAULT NULL)
  RETURNS void AS 'MODULE_PATHNAME', 'ldp_privileged' LANGUAGE C VOLATILE;
REVOKE ALL ON FUNCTION @extschema@.heavythresh_create(text, bigint, int, int, bigint, int, float8, float8, int, int, float8, float8, float8) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.heavythresh_create(text, bigint, int, int, bigint, int, float8, float8, int, int, float8, float8, float8) IS 'Creates a histogram (HEAVYTHRESH) stream owned by the calling role: THRESH''s votes on users'' projected histograms of epoch_rounds samples (Phi = the hashtogram''s hashes, hashes * width <= 2^22, width a power of two) and a hashtogram frequency oracle published every epoch, re-estimated on global updates (docs/algorithms/thresh.md#heavythresh). The other arguments as for ldp.thresh_create. Not executable by PUBLIC: GRANT EXECUTE to the roles that may create streams.';

CREATE FUNCTION @extschema@._thresh_submit_histograms(caller regrole, name text, epoch bigint, user_ids bigint[],
    hash_indexes int[], coefficients int[], reports boolean[])
  RETURNS bigint LANGUAGE sql SET search_path = pg_catalog, pg_temp AS $$
  SELECT @extschema@.thresh_submit(caller, name, epoch, user_ids, reports, 'histograms', hash_indexes, coefficients) $$;
REVOKE ALL ON FUNCTION @extschema@._thresh_submit_histograms(regrole, text, bigint, bigint[], int[], int[], boolean[]) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@._thresh_submit_histograms(regrole, text, bigint, bigint[], int[], int[], boolean[]) IS 'Internal: ldp.thresh_submit_histograms run as the catalog''s owner for the calling role.';
CREATE FUNCTION @extschema@.thresh_submit_histograms(name text, epoch bigint, user_ids bigint[], hash_indexes int[],
    coefficients int[], reports boolean[])
  RETURNS bigint AS 'MODULE_PATHNAME', 'ldp_privileged' LANGUAGE C VOLATILE;
COMMENT ON FUNCTION @extschema@.thresh_submit_histograms(text, bigint, bigint[], int[], int[], boolean[]) IS 'Stores a batch of reports for the current epoch of a histogram (HEAVYTHRESH) stream whose votes decided a global update: per user, the count sketch''s (hash_index, coefficient, report = +1) on its projected histogram; returns how many. At most one per user per epoch; a batch with a duplicate (23505), for another epoch or phase (55000), or out of range is refused whole. Needs the submit privilege.';

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
