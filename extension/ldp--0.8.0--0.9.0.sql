-- 0.8.0 -> 0.9.0: (the statements of extension/sql/*.sql that 0.9.0 adds or changes,
-- appended as each change lands; see CONTRIBUTING.md "Releasing a version")
\echo Use "ALTER EXTENSION ldp UPDATE TO '0.9.0'" to load this file. \quit

-- extension/sql/68_rappor.sql (new in 0.9.0: the RAPPOR family)

------------------------------------------------------------------------------
-- RAPPOR (Google's Bloom-filter reports, docs/algorithms/rappor.md) → ldp.rappor_summary: the
-- type, its casts to ldp.summary and its row of ldp.summary_kinds, the aggregate and
-- its rollup, the accessors, the decoder against candidate strings, the privacy
-- figures, the encoders and the collection reader.
------------------------------------------------------------------------------

CREATE TYPE @extschema@.rappor_summary;

CREATE FUNCTION @extschema@.rappor_summary_in(cstring) RETURNS @extschema@.rappor_summary
  AS 'MODULE_PATHNAME', 'ldp_rappor_summary_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.rappor_summary_in(cstring) IS 'Text input of ldp.rappor_summary, v1:rappor{...} (validated: malformed input raises 22P02).';
CREATE FUNCTION @extschema@.rappor_summary_out(@extschema@.rappor_summary) RETURNS cstring
  AS 'MODULE_PATHNAME', 'ldp_rappor_summary_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.rappor_summary_out(@extschema@.rappor_summary) IS 'Text output of ldp.rappor_summary (lossless, versioned): v1:rappor{bits=..,hashes=..,cohorts=..,f=..,p=..,q=..,n=..,rows=..,cohort=[..],reports=[..],ones=[..]}.';
CREATE FUNCTION @extschema@.rappor_summary_recv(internal) RETURNS @extschema@.rappor_summary
  AS 'MODULE_PATHNAME', 'ldp_rappor_summary_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.rappor_summary_recv(internal) IS 'Binary input of ldp.rappor_summary: the stored form (format 3; malformed input raises 22P03).';
CREATE FUNCTION @extschema@.rappor_summary_send(@extschema@.rappor_summary) RETURNS bytea
  AS 'MODULE_PATHNAME', 'ldp_rappor_summary_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.rappor_summary_send(@extschema@.rappor_summary) IS 'Binary output of ldp.rappor_summary: the stored form (format 3, compact counters).';

CREATE TYPE @extschema@.rappor_summary (
  INPUT = @extschema@.rappor_summary_in,
  OUTPUT = @extschema@.rappor_summary_out,
  RECEIVE = @extschema@.rappor_summary_recv,
  SEND = @extschema@.rappor_summary_send,
  INTERNALLENGTH = VARIABLE,
  ALIGNMENT = double,
  STORAGE = extended
);
COMMENT ON TYPE @extschema@.rappor_summary IS
  'Decoder state of RAPPOR reports (google/rappor''s sum_bits counts file): the parameters (bits, hashes, cohorts, f, p, q), the report count, and per cohort with reports its report count and its per-bit counts; integer-only. Merge with ldp.rollup, decode with ldp.rappor_decode.';

-- ldp.summary casts and the summary kind

CREATE FUNCTION @extschema@.summary(@extschema@.rappor_summary) RETURNS @extschema@.summary
  AS 'MODULE_PATHNAME', 'ldp_summary_from_rappor' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.rappor_summary(@extschema@.summary) RETURNS @extschema@.rappor_summary
  AS 'MODULE_PATHNAME', 'ldp_summary_to_rappor' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (@extschema@.rappor_summary AS @extschema@.summary)
  WITH FUNCTION @extschema@.summary(@extschema@.rappor_summary) AS ASSIGNMENT;
CREATE CAST (@extschema@.summary AS @extschema@.rappor_summary)
  WITH FUNCTION @extschema@.rappor_summary(@extschema@.summary);
COMMENT ON FUNCTION @extschema@.summary(@extschema@.rappor_summary) IS 'A RAPPOR summary as an ldp.summary (the cast rappor_summary -> summary).';
COMMENT ON FUNCTION @extschema@.rappor_summary(@extschema@.summary) IS 'An ldp.summary of kind rappor as ldp.rappor_summary (42804 for another kind).';

INSERT INTO @extschema@.summary_kinds VALUES
  ('rappor', '@extschema@.rappor_summary', '@extschema@.collection_rappor_decode(text, text[], bigint, bigint, boolean)',
   'RAPPOR (Google''s Bloom-filter reports), decoded against candidate strings.');

-- Transition and combine functions (state = the summary itself, updated in place)

CREATE FUNCTION @extschema@.rappor_trans(@extschema@.rappor_summary, int, varbit, int, int, float8, float8, float8)
  RETURNS @extschema@.rappor_summary
  AS 'MODULE_PATHNAME', 'ldp_rappor_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.rappor_trans(@extschema@.rappor_summary, int, varbit, int, int, float8, float8, float8) IS 'Transition function of ldp.rappor_agg (aggregate context only).';
CREATE FUNCTION @extschema@.rappor_combine(@extschema@.rappor_summary, @extschema@.rappor_summary)
  RETURNS @extschema@.rappor_summary
  AS 'MODULE_PATHNAME', 'ldp_rappor_combine' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.rappor_combine(@extschema@.rappor_summary, @extschema@.rappor_summary) IS 'Merges two RAPPOR summaries of the same parameters (combine function of ldp.rappor_agg and of ldp.rollup).';

-- Aggregates

CREATE AGGREGATE @extschema@.rappor_agg(cohort int, report varbit, hashes int, cohorts int, f float8, p float8, q float8) (
  SFUNC = @extschema@.rappor_trans, STYPE = @extschema@.rappor_summary,
  COMBINEFUNC = @extschema@.rappor_combine, PARALLEL = SAFE);
COMMENT ON AGGREGATE @extschema@.rappor_agg(int, varbit, int, int, float8, float8, float8) IS 'RAPPOR: (cohort, report) pairs, the report a varbit in the order google/rappor''s clients print it (its length is the Bloom filter''s bits, 1 to 256), of hashes in [1, 16], cohorts in [1, 2^31 - 1], f in [0, 1), p < q in [0, 1]; RAPPOR summary.';
CREATE AGGREGATE @extschema@.rollup(@extschema@.rappor_summary) (
  SFUNC = @extschema@.rappor_combine, STYPE = @extschema@.rappor_summary,
  COMBINEFUNC = @extschema@.rappor_combine, PARALLEL = SAFE);
COMMENT ON AGGREGATE @extschema@.rollup(@extschema@.rappor_summary) IS 'Merges RAPPOR summaries of the same parameters (counters add up).';

-- Accessors

CREATE FUNCTION @extschema@.rappor_decode(@extschema@.rappor_summary, candidates text[])
  RETURNS TABLE(item text, count float8, std_error float8, proportion float8, ci_lower float8, ci_upper float8,
                detected boolean)
  AS 'MODULE_PATHNAME', 'ldp_rappor_decode' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 1000;
COMMENT ON FUNCTION @extschema@.rappor_decode(@extschema@.rappor_summary, text[]) IS 'decode.R''s pipeline against candidate strings, deterministic: one row per element of candidates in array order (a NULL element: a row of NULLs; duplicates or no candidate: 22023); count and std_error in reports, proportion = count / reports, the 95% interval in proportion units clamped to [0, 1], detected by decode.R''s rule (count > 2 std_error).';
CREATE FUNCTION @extschema@.rappor_privacy(hashes int, f float8, p float8, q float8, reports bigint DEFAULT NULL,
                                          alpha float8 DEFAULT 0.05,
                                          OUT epsilon_one float8, OUT epsilon_inf float8, OUT detection_frequency float8)
  AS 'MODULE_PATHNAME', 'ldp_rappor_privacy' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.rappor_privacy(int, float8, float8, float8, bigint, float8) IS 'decode.R''s ComputePrivacyGuarantees for any f, p, q in [0, 1]: epsilon of one report, epsilon of infinitely many (the PRR), Infinity where R gives it; the smallest proportion detectable at level alpha among `reports` reports (NULL without reports or when p >= q).';
CREATE FUNCTION @extschema@.report_count(@extschema@.rappor_summary) RETURNS bigint
  AS 'MODULE_PATHNAME', 'ldp_rappor_report_count' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.report_count(@extschema@.rappor_summary) IS 'Number of (non-NULL) reports the summary counts.';
CREATE FUNCTION @extschema@.epsilon(@extschema@.rappor_summary) RETURNS float8
  AS 'MODULE_PATHNAME', 'ldp_rappor_epsilon' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.epsilon(@extschema@.rappor_summary) IS 'The epsilon of one report (decode.R''s eps_one; ldp.rappor_privacy gives the PRR''s too); NULL when it is not finite (f = 0 with p = 0 or q = 1).';
CREATE FUNCTION @extschema@.mechanism(@extschema@.rappor_summary) RETURNS text
  AS 'MODULE_PATHNAME', 'ldp_rappor_mechanism' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.mechanism(@extschema@.rappor_summary) IS 'The mechanism: rappor.';
CREATE FUNCTION @extschema@.rappor_parameters(@extschema@.rappor_summary, OUT bits int, OUT hashes int, OUT cohorts int,
                                             OUT f float8, OUT p float8, OUT q float8, OUT reporting_cohorts bigint)
  AS 'MODULE_PATHNAME', 'ldp_rappor_parameters' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.rappor_parameters(@extschema@.rappor_summary) IS 'The parameters the reports were made with, and how many cohorts have reports.';

-- Encoders for simulation and tests (devices encode with the core SDK)

CREATE FUNCTION @extschema@.rappor_bloom(item text, cohort int, bits int, hashes int) RETURNS varbit
  AS 'MODULE_PATHNAME', 'ldp_rappor_bloom' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.rappor_bloom(text, int, int, int) IS 'The Bloom filter of google/rappor''s Python client (MD5 of the big-endian cohort and the item''s UTF-8 bytes; bits in [1, 256], hashes in [1, 16]), leftmost bit = Bloom bit bits - 1.';
CREATE FUNCTION @extschema@.rappor_encode(item text, cohort int, secret bytea, bits int, hashes int, f float8, p float8,
                                         q float8, seed bigint DEFAULT NULL) RETURNS varbit
  AS 'MODULE_PATHNAME', 'ldp_rappor_encode' LANGUAGE C VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.rappor_encode(text, int, bytea, int, int, float8, float8, float8, bigint) IS 'Simulation: a RAPPOR report of google/rappor''s Python client: the PRR memoized by the device''s secret (HMAC-SHA256), then a fresh IRR. The seed drives the IRR only (NULL: the kernel''s random source).';

-- Collections of RAPPOR reports: decoded per closed epoch, or over a range of them.

CREATE FUNCTION @extschema@.collection_rappor_decode(name text, candidates text[], first_epoch bigint DEFAULT NULL,
                                                    last_epoch bigint DEFAULT NULL, per_epoch boolean DEFAULT true)
  RETURNS TABLE(from_epoch bigint, to_epoch bigint, epoch_start timestamptz, item text, count float8,
                std_error float8, proportion float8, ci_lower float8, ci_upper float8, detected boolean)
  LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  c @extschema@.collections := @extschema@.collection_of_kind(name, 'rappor');
  lo bigint := first_epoch;
  hi bigint := last_epoch;
BEGIN
  IF per_epoch IS NULL THEN
    RAISE EXCEPTION 'per_epoch must not be NULL' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF per_epoch THEN
    RETURN QUERY
      SELECT ce.epoch, ce.epoch, ce.epoch_start, d.item, d.count, d.std_error, d.proportion, d.ci_lower, d.ci_upper,
             d.detected
      FROM @extschema@.collection_epochs ce
      CROSS JOIN LATERAL @extschema@.rappor_decode(ce.summary::@extschema@.rappor_summary, candidates) WITH ORDINALITY AS d
      WHERE ce.collection = c.name AND ce.epoch >= coalesce(lo, ce.epoch) AND ce.epoch <= coalesce(hi, ce.epoch)
      ORDER BY ce.epoch, d.ordinality;
  ELSE
    RETURN QUERY
      SELECT r.lo_epoch, r.hi_epoch, r.start, d.item, d.count, d.std_error, d.proportion, d.ci_lower, d.ci_upper,
             d.detected
      FROM (SELECT pg_catalog.min(ce.epoch) AS lo_epoch, pg_catalog.max(ce.epoch) AS hi_epoch,
                   pg_catalog.min(ce.epoch_start) AS start,
                   @extschema@.rollup(ce.summary::@extschema@.rappor_summary) AS s
            FROM @extschema@.collection_epochs ce
            WHERE ce.collection = c.name AND ce.summary IS NOT NULL
              AND ce.epoch >= coalesce(lo, ce.epoch) AND ce.epoch <= coalesce(hi, ce.epoch)) r
      CROSS JOIN LATERAL @extschema@.rappor_decode(r.s, candidates) WITH ORDINALITY AS d
      ORDER BY d.ordinality;
  END IF;
END $$;
COMMENT ON FUNCTION @extschema@.collection_rappor_decode(text, text[], bigint, bigint, boolean) IS 'A RAPPOR collection decoded against candidates (columns of ldp.rappor_decode), over its closed epochs from first_epoch to last_epoch (NULL: unbounded): per epoch (from_epoch = to_epoch = the epoch; epochs without reports have no rows), or with per_epoch => false once, for the rollup of the range (from_epoch and to_epoch: the range''s first and last epochs with reports; no rows when none has). Needs the read privilege.';

-- HEAVYTHRESH (issue 22): histogram streams. Bernoulli streams keep working: their
-- rows get kind 'bernoulli' (the column's default) and NULL device columns.
ALTER TABLE @extschema@.thresh_catalog
  ADD COLUMN kind text NOT NULL DEFAULT 'bernoulli' CHECK (kind IN ('bernoulli', 'histogram')),
  ADD COLUMN hashes int,
  ADD COLUMN width int,
  ADD COLUMN projection_error float8;

COMMENT ON COLUMN @extschema@.thresh_catalog.kind IS 'bernoulli (ldp.thresh_create: a mean, estimates) or histogram (ldp.heavythresh_create: HEAVYTHRESH, a frequency oracle from §5.1 reports); hashes, width and projection_error are NULL for bernoulli.';

CREATE OR REPLACE VIEW @extschema@.thresh_streams WITH (security_barrier) AS
  SELECT s.id, s.name, s.users, s.epochs, s.epoch_rounds, s.min_group_size, s.groups, s.epsilon, s.delta,
         s.vote_noise, s.estimate_noise, s.threshold_unit, s.vote_threshold, s.thresholds, s.epoch, s.phase,
         s.votes, s.yes_votes, s.estimate_reports, s.estimate_ones, s.last_update_epoch, s.estimate,
         s.std_error, s.created_at, v.relowner::regrole AS owner, v.relacl AS acl, v.oid::regclass AS backing_view,
         s.kind, s.hashes, s.width, s.projection_error
  FROM @extschema@.thresh_catalog s
  JOIN pg_catalog.pg_class v ON v.relnamespace = 'ldp_thresh_streams'::regnamespace
                            AND v.relname = @extschema@.backing_name(s.name)
  WHERE @extschema@.has_privilege(v.oid, 'SELECT');

CREATE TABLE @extschema@.thresh_histograms (
  stream int NOT NULL,
  epoch int NOT NULL,
  user_id bigint NOT NULL,
  hash_index int NOT NULL,
  coefficient int NOT NULL,
  report boolean NOT NULL,
  PRIMARY KEY (stream, epoch, user_id)
);
COMMENT ON TABLE @extschema@.thresh_histograms IS 'Every accepted report of a histogram (HEAVYTHRESH) stream after a global update: §5.1''s (hash_index, coefficient, +1/-1) on the user''s projected histogram (at most one per user per epoch).';

SELECT pg_catalog.pg_extension_config_dump('@extschema@.thresh_histograms', '');

REVOKE ALL ON @extschema@.thresh_epochs, @extschema@.thresh_votes,
              @extschema@.thresh_estimates, @extschema@.thresh_histograms FROM PUBLIC;
GRANT SELECT ON @extschema@.thresh_epochs, @extschema@.thresh_votes,
                @extschema@.thresh_estimates, @extschema@.thresh_histograms TO PUBLIC;

ALTER TABLE @extschema@.thresh_histograms ENABLE ROW LEVEL SECURITY;

CREATE POLICY thresh_histograms_owner ON @extschema@.thresh_histograms FOR SELECT
  USING (EXISTS (SELECT 1 FROM @extschema@.thresh_streams s
                 WHERE s.id = stream AND @extschema@.has_privilege(s.backing_view, 'OWNER')));

CREATE FUNCTION @extschema@.heavythresh_derive(users bigint, epochs int, epoch_rounds bigint, min_group_size bigint,
    groups int, epsilon float8, delta float8, vote_noise float8, estimate_noise float8, threshold_unit float8,
    hashes int, width int,
    OUT a float8, OUT b float8, OUT vote_threshold float8, OUT projection_error float8, OUT thresholds float8[],
    OUT max_truthful_votes bigint, OUT max_truthful_estimates bigint, OUT worst_case_loss float8)
  AS 'MODULE_PATHNAME', 'ldp_heavythresh_derive' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.heavythresh_derive(bigint, int, bigint, bigint, int, float8, float8, float8, float8, float8, int, int) IS 'HEAVYTHRESH parameters (README "Histogram streams"): a, b and the vote threshold as for a Bernoulli stream, the projection error y_Phi = sqrt(2 ln(16wnT/delta)/(t l)) with w = hashes * width, thresholds tau_b = 2(b+1) y_Phi (or the threshold unit), the truthful reports a user can afford and its worst-case privacy loss.';

-- Shared by both create twins: checks the name, derives the parameters (the core,
-- by kind), warns when the worst-case privacy loss exceeds epsilon, stores the row
-- and creates the view.
CREATE FUNCTION @extschema@.thresh_create_stream(caller regrole, name text, kind text, users bigint, epochs int,
    epoch_rounds bigint, min_group_size bigint, groups int, epsilon float8, delta float8,
    vote_noise float8, estimate_noise float8, threshold_unit float8, hashes int, width int)
  RETURNS void LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  p record;
BEGIN
  PERFORM @extschema@.backing_name_free('ldp_thresh_streams', name, 'THRESH stream',
    EXISTS (SELECT 1 FROM @extschema@.thresh_catalog t WHERE t.name = thresh_create_stream.name));
  IF kind = 'histogram' THEN
    p := @extschema@.heavythresh_derive(users, epochs, epoch_rounds, min_group_size, groups, epsilon, delta,
                                        vote_noise, estimate_noise, threshold_unit, hashes, width);
  ELSE
    SELECT d.a, d.b, d.vote_threshold, d.thresholds, d.worst_case_loss, NULL::float8 AS projection_error INTO p
    FROM @extschema@.thresh_derive(users, epochs, epoch_rounds, min_group_size, groups, epsilon, delta,
                                   vote_noise, estimate_noise, threshold_unit) d;
  END IF;
  IF p.worst_case_loss > epsilon THEN
    RAISE WARNING 'THRESH stream "%": a user''s privacy loss can reach % > epsilon = %', name,
      pg_catalog.round(p.worst_case_loss::numeric, 4), epsilon
      USING DETAIL = pg_catalog.format('Truthful votes fall in data-dependent epochs: up to 2·a·ceil(eps/(4a)) + b·ceil(eps/(4b)) with a = %s, b = %s.',
                                       pg_catalog.round(p.a::numeric, 4), pg_catalog.round(p.b::numeric, 4)),
            HINT = 'Smaller vote and estimate noises (larger groups, shorter epochs) or a larger epsilon restore eps-LDP.';
  END IF;
  INSERT INTO @extschema@.thresh_catalog (name, users, epochs, epoch_rounds, min_group_size, groups, epsilon,
      delta, vote_noise, estimate_noise, threshold_unit, vote_threshold, thresholds, kind, hashes, width, projection_error)
  VALUES (name, users, epochs, epoch_rounds, min_group_size, groups, epsilon, delta, p.a, p.b,
          threshold_unit, p.vote_threshold, p.thresholds, kind, hashes, width, p.projection_error);
  PERFORM @extschema@.backing_create('ldp_thresh_streams', name, caller, @extschema@.thresh_view_query(name), 'THRESH stream');
END $$;
REVOKE ALL ON FUNCTION @extschema@.thresh_create_stream(regrole, text, text, bigint, int, bigint, bigint, int, float8, float8, float8, float8, float8, int, int) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.thresh_create_stream(regrole, text, text, bigint, int, bigint, bigint, int, float8, float8, float8, float8, float8, int, int) IS 'Internal: creates a THRESH stream of a kind (bernoulli or histogram) for the calling role: checks the name, derives its parameters, warns when its worst-case privacy loss exceeds epsilon, stores its row and creates its view.';

CREATE OR REPLACE FUNCTION @extschema@._thresh_create(caller regrole, name text, users bigint, epochs int, epoch_rounds int,
    min_group_size bigint, groups int, epsilon float8, delta float8,
    vote_noise float8, estimate_noise float8, threshold_unit float8)
  RETURNS void LANGUAGE sql SET search_path = pg_catalog, pg_temp AS $$
  SELECT @extschema@.thresh_create_stream(caller, name, 'bernoulli', users, epochs, epoch_rounds, min_group_size, groups,
                                          epsilon, delta, vote_noise, estimate_noise, threshold_unit, NULL, NULL) $$;

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
COMMENT ON FUNCTION @extschema@.heavythresh_create(text, bigint, int, int, bigint, int, float8, float8, int, int, float8, float8, float8) IS 'Creates a histogram (HEAVYTHRESH) stream owned by the calling role: THRESH''s votes on users'' projected histograms of epoch_rounds samples (Phi = the hashtogram''s hashes, hashes * width <= 2^22, width a power of two) and a hashtogram frequency oracle published every epoch, re-estimated on global updates (README "Histogram streams"). The other arguments as for ldp.thresh_create. Not executable by PUBLIC: GRANT EXECUTE to the roles that may create streams.';

CREATE OR REPLACE FUNCTION @extschema@._thresh_drop(caller regrole, name text) RETURNS void
  LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  s @extschema@.thresh_streams := @extschema@.thresh_stream_for(caller, name, 'OWNER', true);
BEGIN
  DELETE FROM @extschema@.thresh_votes WHERE stream = s.id;
  DELETE FROM @extschema@.thresh_estimates WHERE stream = s.id;
  DELETE FROM @extschema@.thresh_histograms WHERE stream = s.id;
  DELETE FROM @extschema@.thresh_catalog WHERE id = s.id;
  EXECUTE pg_catalog.format('DROP VIEW %s', s.backing_view);
END $$;

DROP FUNCTION @extschema@.thresh_params(text);
CREATE FUNCTION @extschema@.thresh_params(name text)
  RETURNS TABLE(users bigint, epochs int, epoch_rounds bigint, min_group_size bigint, groups int,
                epsilon float8, delta float8, vote_noise float8, estimate_noise float8,
                vote_threshold float8, thresholds float8[], kind text, hashes int, width int,
                projection_error float8)
  LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp AS $$
  SELECT s.users, s.epochs, s.epoch_rounds, s.min_group_size, s.groups, s.epsilon, s.delta,
         s.vote_noise, s.estimate_noise, s.vote_threshold, s.thresholds, s.kind, s.hashes, s.width,
         s.projection_error
  FROM @extschema@.thresh_stream(name) s $$;
COMMENT ON FUNCTION @extschema@.thresh_params(text) IS 'What every device of a THRESH stream needs: its configuration, a, b, the vote threshold (for n votes) and thresholds[1] = tau_-1 .. thresholds[ceil(log2 T)+2] = tau_ceil(log2 T); its kind (bernoulli or histogram) and, for a histogram stream, the hashes and width of Phi and the projection error y_Phi of its thresholds (NULL for a Bernoulli stream).';

DROP FUNCTION @extschema@.thresh_submit(oid, text, int, bigint[], boolean[], text);
-- Shared by the submit twins: checks the batch, stores one row per user and adds
-- the batch to the stream's tallies, or refuses the whole batch. kind: votes (any
-- stream), estimates (Bernoulli streams) or histograms (histogram streams, with
-- hash_indexes and coefficients).
CREATE FUNCTION @extschema@.thresh_submit(caller oid, name text, epoch bigint, user_ids bigint[], bits boolean[], kind text,
    hash_indexes int[] DEFAULT NULL, coefficients int[] DEFAULT NULL)
  RETURNS bigint LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  s @extschema@.thresh_streams := @extschema@.thresh_stream_for(caller, name, 'INSERT', false);
  want text := CASE kind WHEN 'votes' THEN 'voting' ELSE 'estimating' END;
  what text := CASE kind WHEN 'votes' THEN 'votes' WHEN 'estimates' THEN 'reports'
                         ELSE 'hash_indexes, coefficients, reports' END;
  histograms boolean := kind = 'histograms';
  n bigint;
  ones bigint;
  dups bigint[];
BEGIN
  IF epoch IS NULL OR user_ids IS NULL OR bits IS NULL OR (histograms AND (hash_indexes IS NULL OR coefficients IS NULL)) THEN
    RAISE EXCEPTION 'epoch, user_ids and % must not be NULL', what
      USING ERRCODE = 'null_value_not_allowed';
  END IF;
  IF coalesce(pg_catalog.array_ndims(user_ids), 1) <> 1 OR coalesce(pg_catalog.array_ndims(bits), 1) <> 1
     OR coalesce(pg_catalog.array_ndims(hash_indexes), 1) <> 1 OR coalesce(pg_catalog.array_ndims(coefficients), 1) <> 1 THEN
    RAISE EXCEPTION 'user_ids and % must be one-dimensional arrays', what
      USING ERRCODE = 'array_subscript_error';
  END IF;
  IF pg_catalog.cardinality(user_ids) <> pg_catalog.cardinality(bits)
     OR (histograms AND (pg_catalog.cardinality(hash_indexes) <> pg_catalog.cardinality(bits)
                         OR pg_catalog.cardinality(coefficients) <> pg_catalog.cardinality(bits))) THEN
    RAISE EXCEPTION 'user_ids and % must be arrays of the same length (got %)', what,
      CASE WHEN histograms THEN pg_catalog.format('%s, %s, %s and %s', pg_catalog.cardinality(user_ids),
                                                  pg_catalog.cardinality(hash_indexes), pg_catalog.cardinality(coefficients),
                                                  pg_catalog.cardinality(bits))
           ELSE pg_catalog.format('%s and %s', pg_catalog.cardinality(user_ids), pg_catalog.cardinality(bits)) END
      USING ERRCODE = 'array_subscript_error';
  END IF;
  IF pg_catalog.array_position(user_ids, NULL) IS NOT NULL OR pg_catalog.array_position(bits, NULL) IS NOT NULL
     OR pg_catalog.array_position(hash_indexes, NULL) IS NOT NULL OR pg_catalog.array_position(coefficients, NULL) IS NOT NULL THEN
    RAISE EXCEPTION 'the batch holds a NULL user id or report' USING ERRCODE = 'null_value_not_allowed';
  END IF;
  IF kind <> 'votes' AND histograms <> (s.kind = 'histogram') THEN
    RAISE EXCEPTION 'THRESH stream "%" is a % stream: it takes no %', name, s.kind, kind
      USING ERRCODE = 'wrong_object_type',
            HINT = CASE WHEN histograms THEN 'Send its estimates with ldp.thresh_submit_estimates.'
                        ELSE 'Send its reports with ldp.thresh_submit_histograms.' END;
  END IF;
  IF histograms AND EXISTS (SELECT 1 FROM unnest(hash_indexes, coefficients) AS x(j, r)
                            WHERE x.j < 0 OR x.j >= s.hashes OR x.r < 0 OR x.r >= s.width) THEN
    RAISE EXCEPTION 'THRESH stream "%" takes hash indexes in [0, %) and coefficients in [0, %)', name, s.hashes, s.width
      USING ERRCODE = 'invalid_parameter_value', HINT = 'The whole batch was refused.';
  END IF;
  IF s.epoch <> epoch OR s.phase <> want THEN
    RAISE EXCEPTION 'THRESH stream "%" takes no % for epoch %: it is in epoch %, phase %', name, kind, epoch, s.epoch, s.phase
      USING ERRCODE = 'object_not_in_prerequisite_state', HINT = 'The whole batch was refused.';
  END IF;
  n := pg_catalog.cardinality(user_ids);
  IF n = 0 THEN
    RETURN 0;
  END IF;
  IF n > s.users THEN
    RAISE EXCEPTION 'THRESH stream "%" would get more % in epoch % than its % users', name, kind, epoch, s.users
      USING ERRCODE = 'invalid_parameter_value', HINT = 'The whole batch was refused.';
  END IF;
  SELECT pg_catalog.count(*) FILTER (WHERE b) INTO ones FROM pg_catalog.unnest(bits) AS b;
  -- Rows go in in user order (unnest(a, b) cannot be schema-qualified): two batches
  -- that share users then wait on the same user first, and the later one is refused
  -- with 23505 instead of the two deadlocking (40P01) in opposite orders.
  BEGIN
    IF kind = 'votes' THEN
      INSERT INTO @extschema@.thresh_votes (stream, epoch, user_id, vote)
      SELECT s.id, epoch, u, b FROM unnest(user_ids, bits) AS x(u, b) ORDER BY u;
    ELSIF histograms THEN
      INSERT INTO @extschema@.thresh_histograms (stream, epoch, user_id, hash_index, coefficient, report)
      SELECT s.id, epoch, u, j, r, b FROM unnest(user_ids, hash_indexes, coefficients, bits) AS x(u, j, r, b) ORDER BY u;
    ELSE
      INSERT INTO @extschema@.thresh_estimates (stream, epoch, user_id, report)
      SELECT s.id, epoch, u, b FROM unnest(user_ids, bits) AS x(u, b) ORDER BY u;
    END IF;
  EXCEPTION WHEN unique_violation THEN
    -- What a submitter learns (README "Security and privileges"): which of the user ids
    -- it sent already have a report of this kind for this epoch (the positions in its
    -- batch, so that it can send the rest again), never anything of the reports or of
    -- other users. Repeats within the batch count from their second occurrence.
    SELECT pg_catalog.array_agg(u.o ORDER BY u.o) INTO dups
    FROM (SELECT x.id, x.o, pg_catalog.row_number() OVER (PARTITION BY x.id ORDER BY x.o) AS k
          FROM pg_catalog.unnest(user_ids) WITH ORDINALITY AS x(id, o)) u
    WHERE u.k > 1
       OR (kind = 'votes' AND EXISTS (SELECT 1 FROM @extschema@.thresh_votes v
                                      WHERE v.stream = s.id AND v.epoch = thresh_submit.epoch AND v.user_id = u.id))
       OR (kind = 'estimates' AND EXISTS (SELECT 1 FROM @extschema@.thresh_estimates v
                                          WHERE v.stream = s.id AND v.epoch = thresh_submit.epoch AND v.user_id = u.id))
       OR (histograms AND EXISTS (SELECT 1 FROM @extschema@.thresh_histograms v
                                  WHERE v.stream = s.id AND v.epoch = thresh_submit.epoch AND v.user_id = u.id));
    RAISE EXCEPTION '% of the batch''s % user ids already sent % for epoch % of THRESH stream "%", or appear in it twice',
      coalesce(pg_catalog.cardinality(dups), 0), n, CASE kind WHEN 'votes' THEN 'a vote' WHEN 'estimates' THEN 'an estimate'
                                                              ELSE 'a histogram report' END, epoch, name
      USING ERRCODE = 'unique_violation',
            DETAIL = pg_catalog.format('Their positions in the batch (from 1; a user id twice in the batch from its second time): %s.',
                                       pg_catalog.array_to_string(dups[1:100], ', ')
                                       || CASE WHEN pg_catalog.cardinality(dups) > 100 THEN ', ...' ELSE '' END),
            HINT = 'The whole batch was refused; send it again without them.';
  END;
  -- The tallies, re-checking the phase under the row lock: a close that got there
  -- first has moved the phase on and the batch is refused; a close that comes
  -- later waits for this transaction and counts it. Histogram reports count as
  -- estimate reports (estimate_ones: those of +1).
  IF kind = 'votes' THEN
    UPDATE @extschema@.thresh_catalog t SET votes = t.votes + n, yes_votes = t.yes_votes + ones
    WHERE t.id = s.id AND t.epoch = thresh_submit.epoch AND t.phase = want AND t.votes + n <= t.users;
  ELSE
    UPDATE @extschema@.thresh_catalog t SET estimate_reports = t.estimate_reports + n,
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
REVOKE ALL ON FUNCTION @extschema@.thresh_submit(oid, text, bigint, bigint[], boolean[], text, int[], int[]) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.thresh_submit(oid, text, bigint, bigint[], boolean[], text, int[], int[]) IS 'Internal: stores a batch of THRESH votes, estimates or histogram reports whole for a role with the submit privilege, or refuses it whole.';

CREATE FUNCTION @extschema@._thresh_submit_histograms(caller regrole, name text, epoch bigint, user_ids bigint[],
    hash_indexes int[], coefficients int[], reports boolean[])
  RETURNS bigint LANGUAGE sql SET search_path = pg_catalog, pg_temp AS $$
  SELECT @extschema@.thresh_submit(caller, name, epoch, user_ids, reports, 'histograms', hash_indexes, coefficients) $$;
REVOKE ALL ON FUNCTION @extschema@._thresh_submit_histograms(regrole, text, bigint, bigint[], int[], int[], boolean[]) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@._thresh_submit_histograms(regrole, text, bigint, bigint[], int[], int[], boolean[]) IS 'Internal: ldp.thresh_submit_histograms run as the catalog''s owner for the calling role.';
CREATE FUNCTION @extschema@.thresh_submit_histograms(name text, epoch bigint, user_ids bigint[], hash_indexes int[],
    coefficients int[], reports boolean[])
  RETURNS bigint AS 'MODULE_PATHNAME', 'ldp_privileged' LANGUAGE C VOLATILE;
COMMENT ON FUNCTION @extschema@.thresh_submit_histograms(text, bigint, bigint[], int[], int[], boolean[]) IS 'Stores a batch of reports for the current epoch of a histogram (HEAVYTHRESH) stream whose votes decided a global update: per user, §5.1''s (hash_index, coefficient, report = +1) on its projected histogram; returns how many. At most one per user per epoch; a batch with a duplicate (23505), for another epoch or phase (55000), or out of range is refused whole. Needs the submit privilege.';

CREATE OR REPLACE FUNCTION @extschema@._thresh_close_epoch(caller regrole, name text, epoch int) RETURNS void
  LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  s @extschema@.thresh_streams := @extschema@.thresh_stream_for(caller, name, 'UPDATE', true);
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
  IF s.phase = 'estimating' AND s.kind = 'histogram' THEN
    -- the oracle (the epoch's reports' hashtogram) goes into the history below
    IF s.estimate_reports > 0 THEN
      last_update := s.epoch;
    ELSE
      RAISE WARNING 'epoch % of THRESH stream "%" updated but received no reports: the previous oracle stays published', s.epoch, name;
    END IF;
  ELSIF s.phase = 'estimating' THEN
    last_update := s.epoch;
    IF s.estimate_reports > 0 THEN
      e := @extschema@.thresh_decode(s, s.estimate_reports, s.estimate_ones);
      est := e.estimate;
      se := e.std_error;
    ELSE
      RAISE WARNING 'epoch % of THRESH stream "%" updated but received no estimates: the previous estimate stays published', s.epoch, name;
    END IF;
  END IF;
  UPDATE @extschema@.thresh_catalog t
  SET epoch = CASE WHEN s.epoch < s.epochs THEN s.epoch + 1 ELSE s.epoch END,
      phase = CASE WHEN s.epoch < s.epochs THEN 'voting' ELSE 'finished' END,
      votes = 0, yes_votes = 0, estimate_reports = 0, estimate_ones = 0,
      last_update_epoch = last_update, estimate = est, std_error = se
  WHERE t.id = s.id;
  UPDATE @extschema@.thresh_epochs h
  SET estimate_reports = s.estimate_reports, estimate_ones = s.estimate_ones, estimate = est, std_error = se,
      last_update_epoch = last_update, closed_at = pg_catalog.now(),
      oracle = CASE WHEN s.kind = 'histogram' AND last_update = s.epoch THEN
                 (SELECT @extschema@.hashtogram_agg(r.hash_index, r.coefficient, r.report, s.estimate_noise, s.hashes, s.width)
                  FROM @extschema@.thresh_histograms r WHERE r.stream = s.id AND r.epoch = s.epoch) END
  WHERE h.stream = s.id AND h.epoch = s.epoch;
END $$;
COMMENT ON PROCEDURE @extschema@.thresh_close_epoch(text, int) IS 'Publishes the epoch''s estimate (the aggregated estimates after a global update, else the previous one; for a histogram stream the hashtogram oracle of its reports, ldp.thresh_summary) and opens the next epoch (or finishes the stream after the last). With epoch given, closing an already closed epoch is a no-op. Needs the close privilege.';

CREATE OR REPLACE FUNCTION @extschema@._backing_dropped(caller regrole) RETURNS void
  LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  d record;
  ids int[];
BEGIN
  FOR d IN SELECT o.schema_name, o.object_name FROM pg_catalog.pg_event_trigger_dropped_objects() o
           WHERE o.object_type = 'view' AND o.schema_name IN ('ldp_collections', 'ldp_thresh_streams') LOOP
    IF d.schema_name = 'ldp_collections' THEN
      DELETE FROM @extschema@.collection_catalog x WHERE @extschema@.backing_name(x.name) = d.object_name;
    ELSE
      SELECT pg_catalog.array_agg(t.id) INTO ids FROM @extschema@.thresh_catalog t
      WHERE @extschema@.backing_name(t.name) = d.object_name;
      DELETE FROM @extschema@.thresh_votes v WHERE v.stream = ANY (ids);
      DELETE FROM @extschema@.thresh_estimates v WHERE v.stream = ANY (ids);
      DELETE FROM @extschema@.thresh_histograms v WHERE v.stream = ANY (ids);
      DELETE FROM @extschema@.thresh_catalog t WHERE t.id = ANY (ids);  -- its history cascades
    END IF;
  END LOOP;
END $$;


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
COMMENT ON FUNCTION @extschema@.thresh_histogram_stream(text) IS 'Internal: a histogram stream''s row, or error 42704 (unknown) or 42809 (a Bernoulli stream).';

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
COMMENT ON FUNCTION @extschema@.thresh_published(int, bigint) IS 'Internal: each closed epoch of a histogram stream (or the one given), the epoch of its last global update with reports and that update''s oracle.';

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

-- Bitstogram (seed 003 §4, docs/algorithms/heavy-hitters.md), 0.9.0: protocol builders, transition
-- function, aggregate and encoders.

CREATE FUNCTION @extschema@.bitstogram_protocol(epsilon float8, users bigint,
                                               alphabet text DEFAULT 'abcdefghijklmnopqrstuvwxyz',
                                               max_length int DEFAULT NULL, chars_per_level int DEFAULT NULL,
                                               hashes int DEFAULT NULL, width int DEFAULT NULL,
                                               buckets int DEFAULT NULL)
  RETURNS @extschema@.heavy_protocol
  AS 'MODULE_PATHNAME', 'ldp_bitstogram_protocol' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bitstogram_protocol(float8, bigint, text, int, int, int, int, int) IS 'A Bitstogram protocol (seed 003 §4, docs/algorithms/heavy-hitters.md) for about `users` devices: each device reports one coordinate of chars_per_level characters of its item, with the item''s hash bucket, by Hadamard response at epsilon/2, and the item to a count sketch at epsilon/2. Defaults: 6 characters, one per coordinate (pad ''*''); buckets at least 4 sqrt(users), as many as a Hadamard-response vector of the power of two at or above 4 sqrt(users) * symbols + 1 cells holds; hashes * width = that vector''s size (width 1024 for 10^6 users). alphabet => NULL: any UTF-8 text as bytes, one byte per coordinate.';
CREATE FUNCTION @extschema@.bitstogram_int8_protocol(epsilon float8, users bigint, hashes int DEFAULT NULL,
                                                    width int DEFAULT NULL, buckets int DEFAULT NULL)
  RETURNS @extschema@.heavy_protocol
  AS 'MODULE_PATHNAME', 'ldp_bitstogram_int8_protocol' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bitstogram_int8_protocol(float8, bigint, int, int, int) IS 'A Bitstogram protocol for 64-bit integer ids (8 big-endian bytes, one per coordinate); hashes, width and buckets as ldp.bitstogram_protocol.';

CREATE FUNCTION @extschema@.bitstogram_trans(@extschema@.heavy_summary, int, int, boolean, int, int, boolean,
                                            @extschema@.heavy_protocol)
  RETURNS @extschema@.heavy_summary
  AS 'MODULE_PATHNAME', 'ldp_bitstogram_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bitstogram_trans(@extschema@.heavy_summary, int, int, boolean, int, int, boolean, @extschema@.heavy_protocol) IS 'Transition function of ldp.bitstogram_agg (aggregate context only).';
CREATE AGGREGATE @extschema@.bitstogram_agg(coordinate int, hadamard_row int, symbol_report boolean, hash_index int,
                                            coefficient int, item_report boolean, protocol @extschema@.heavy_protocol) (
  SFUNC = @extschema@.bitstogram_trans, STYPE = @extschema@.heavy_summary,
  COMBINEFUNC = @extschema@.heavy_combine, PARALLEL = SAFE);
COMMENT ON AGGREGATE @extschema@.bitstogram_agg(int, int, boolean, int, int, boolean, @extschema@.heavy_protocol) IS 'Bitstogram: (coordinate, hadamard_row, symbol_report, hash_index, coefficient, item_report) reports of ldp.bitstogram_encode under one protocol; heavy-hitters summary.';

CREATE FUNCTION @extschema@.bitstogram_encode(item text, protocol @extschema@.heavy_protocol, seed bigint DEFAULT NULL,
                                             OUT coordinate int, OUT hadamard_row int, OUT symbol_report boolean,
                                             OUT hash_index int, OUT coefficient int, OUT item_report boolean)
  AS 'MODULE_PATHNAME', 'ldp_bitstogram_encode' LANGUAGE C VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bitstogram_encode(text, @extschema@.heavy_protocol, bigint) IS 'Simulation: a Bitstogram report of the string item (coordinate in 1..levels; the Hadamard-response row and report of (bucket, symbol); the final count sketch''s hash_index, coefficient and report). An item the protocol cannot encode raises 22003. Seed as in ldp.rr_encode.';
CREATE FUNCTION @extschema@.bitstogram_encode(item bigint, protocol @extschema@.heavy_protocol, seed bigint DEFAULT NULL,
                                             OUT coordinate int, OUT hadamard_row int, OUT symbol_report boolean,
                                             OUT hash_index int, OUT coefficient int, OUT item_report boolean)
  AS 'MODULE_PATHNAME', 'ldp_bitstogram_encode_int8' LANGUAGE C VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bitstogram_encode(bigint, @extschema@.heavy_protocol, bigint) IS 'Simulation: a Bitstogram report of a 64-bit integer id under an int64 protocol (ldp.bitstogram_int8_protocol). Seed as in ldp.rr_encode.';
COMMENT ON FUNCTION @extschema@.mechanism(@extschema@.heavy_summary) IS 'The heavy-hitters protocol: treehist, bitstogram, pem or sfp.';
