------------------------------------------------------------------------------
-- THRESH (Joseph et al. 2018; docs/algorithms/thresh.md): a Bernoulli population mean published
-- every epoch but re-estimated only when the users' private votes say it
-- changed. The server keeps per stream: the configuration and the parameters
-- every device needs, the current epoch and phase with running tallies of the
-- reports, one row per user per epoch (so a second report is refused) and one
-- history row per epoch. The formulas live in the core (src/core/thresh/thresh.hpp).
--
-- Phases of the current epoch: 'voting' (votes accepted) → thresh_close_votes →
-- 'estimating' (global update: estimates accepted) or 'closed' (no update) →
-- thresh_close_epoch → next epoch 'voting', or 'finished' after the last one.
--
-- A stream has an owner and grants: those of its view ldp_thresh_streams.<name>
-- (30_security.sql): read, submit, close.
------------------------------------------------------------------------------

-- The kinds of stream and of report, a registry: a kind adds its rows beside its
-- functions (Bernoulli streams here; histogram streams, HEAVYTHRESH, in
-- 61_heavythresh.sql). The functions of this file read the rows and name no kind.
CREATE TABLE @extschema@.thresh_report_kinds (
  kind text PRIMARY KEY,
  phase text NOT NULL CHECK (phase IN ('voting', 'estimating')),
  report_table text NOT NULL,
  bit_column text NOT NULL,
  int_columns text[] NOT NULL DEFAULT '{}' CHECK (pg_catalog.cardinality(int_columns) <= 2),
  what text NOT NULL,
  one text NOT NULL,
  send_hint text,
  check_batch text
);
COMMENT ON TABLE @extschema@.thresh_report_kinds IS 'Internal: the kinds of report a THRESH stream takes, as ldp.thresh_submit reads them: the phase that takes them, the table that keeps them (stream, epoch, user_id, int_columns (given as the batch''s first and second integer arrays), bit_column), how errors name the arrays (what) and one report (one), the hint for a stream of another kind (send_hint) and the function that checks a batch''s integer columns against the stream (check_batch(stream, int[], int[]), NULL for none).';
REVOKE ALL ON @extschema@.thresh_report_kinds FROM PUBLIC;
CREATE TABLE @extschema@.thresh_kinds (
  kind text PRIMARY KEY,
  derive text NOT NULL,
  publish text NOT NULL,
  reports text NOT NULL REFERENCES @extschema@.thresh_report_kinds (kind)
);
COMMENT ON TABLE @extschema@.thresh_kinds IS 'Internal: the kinds of THRESH stream: the function that derives a new stream''s parameters (derive: the arguments of ldp.thresh_create_stream after kind, giving a, b, vote_threshold, thresholds, projection_error), the one that publishes an epoch closed after a global update (publish(stream): estimate, std_error, last_update_epoch) and the kind of report it takes after a global update (reports).';
REVOKE ALL ON @extschema@.thresh_kinds FROM PUBLIC;

-- The streams (read by the extension's functions only: ldp.thresh_streams is what
-- users query).
CREATE TABLE @extschema@.thresh_catalog (
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
  created_at timestamptz NOT NULL DEFAULT now(),
  kind text NOT NULL DEFAULT 'bernoulli' REFERENCES @extschema@.thresh_kinds (kind),
  hashes int,
  width int,
  projection_error float8,
  cap_rule text NOT NULL CHECK (cap_rule IN ('spent_below_cap', 'next_within_cap'))
);
COMMENT ON TABLE @extschema@.thresh_catalog IS 'Internal: one row per THRESH stream: configuration, derived parameters, current epoch and phase, and the running tallies of its reports. Query ldp.thresh_streams.';
COMMENT ON COLUMN @extschema@.thresh_catalog.kind IS 'bernoulli (ldp.thresh_create: a mean, estimates) or histogram (ldp.heavythresh_create: HEAVYTHRESH, a frequency oracle from count-sketch reports); hashes, width and projection_error are NULL for bernoulli.';
COMMENT ON COLUMN @extschema@.thresh_catalog.cap_rule IS 'The rule by which the stream''s devices stop truthful votes and estimates at their caps: next_within_cap (streams created from 0.10.0 on; caps epsilon/3 each) sends one only if the counter after it stays within the cap, so a device loses at most 2a*floor(eps/(3a)) + b*floor(eps/(3b)) <= eps; spent_below_cap (streams created by 0.9.0 and before, which keep it; caps epsilon/4 each) sends one while the counter is below the cap, up to 2a*ceil(eps/(4a)) + b*ceil(eps/(4b)), which can exceed eps.';
REVOKE ALL ON @extschema@.thresh_catalog FROM PUBLIC;

-- What users query: the streams the current role may read, with the owner and grants
-- of each stream's view.
CREATE VIEW @extschema@.thresh_streams WITH (security_barrier) AS
  SELECT s.id, s.name, s.users, s.epochs, s.epoch_rounds, s.min_group_size, s.groups, s.epsilon, s.delta,
         s.vote_noise, s.estimate_noise, s.threshold_unit, s.vote_threshold, s.thresholds, s.epoch, s.phase,
         s.votes, s.yes_votes, s.estimate_reports, s.estimate_ones, s.last_update_epoch, s.estimate,
         s.std_error, s.created_at, v.relowner::regrole AS owner, v.relacl AS acl, v.oid::regclass AS backing_view,
         s.kind, s.hashes, s.width, s.projection_error, s.cap_rule
  FROM @extschema@.thresh_catalog s
  JOIN pg_catalog.pg_class v ON v.relnamespace = 'ldp_thresh_streams'::regnamespace
                            AND v.relname = @extschema@.backing_name(s.name)
  WHERE @extschema@.has_privilege(v.oid, 'SELECT');
COMMENT ON VIEW @extschema@.thresh_streams IS 'One row per THRESH stream the current role may read: configuration, derived parameters, current epoch and phase, the running tallies of its reports, its owner and grants (those of its view, backing_view).';
COMMENT ON COLUMN @extschema@.thresh_streams.owner IS 'The stream''s owner (the owner of its view). REASSIGN OWNED, ldp.alter_thresh_owner and ALTER VIEW ... OWNER TO change it.';
COMMENT ON COLUMN @extschema@.thresh_streams.acl IS 'The grants on the stream''s view (as \dp shows them): SELECT (r) = read, INSERT (a) = submit, UPDATE (w) = close; NULL = the owner''s alone.';
COMMENT ON COLUMN @extschema@.thresh_streams.cap_rule IS 'The rule the stream''s devices run at their caps: next_within_cap (from 0.10.0; worst case <= epsilon) or spent_below_cap (streams made by 0.9.0 and before); see ldp.thresh_params'' worst_case_loss.';
COMMENT ON COLUMN @extschema@.thresh_streams.backing_view IS 'The view ldp_thresh_streams.<name> that carries the stream''s owner and grants and shows its history.';
REVOKE ALL ON @extschema@.thresh_streams FROM PUBLIC;
GRANT SELECT ON @extschema@.thresh_streams TO PUBLIC;

-- no foreign keys on the report tables: a check per row would cost more than the row
CREATE TABLE @extschema@.thresh_votes (
  stream int NOT NULL,
  epoch int NOT NULL,
  user_id bigint NOT NULL,
  vote boolean NOT NULL,
  PRIMARY KEY (stream, epoch, user_id)
);
COMMENT ON TABLE @extschema@.thresh_votes IS 'Every accepted THRESH vote (one per user per epoch).';
CREATE TABLE @extschema@.thresh_estimates (
  stream int NOT NULL,
  epoch int NOT NULL,
  user_id bigint NOT NULL,
  report boolean NOT NULL,
  PRIMARY KEY (stream, epoch, user_id)
);
COMMENT ON TABLE @extschema@.thresh_estimates IS 'Every accepted THRESH estimate report (at most one per user per epoch).';
CREATE TABLE @extschema@.thresh_epochs (
  stream int NOT NULL CONSTRAINT thresh_epochs_stream_fkey REFERENCES @extschema@.thresh_catalog (id) ON DELETE CASCADE,
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
COMMENT ON TABLE @extschema@.thresh_epochs IS 'One row per THRESH epoch whose votes are closed: the decision and, once the epoch is closed, the published estimate.';

-- pg_dump keeps their rows (they are the collector's data, not the extension's)
SELECT pg_catalog.pg_extension_config_dump('@extschema@.thresh_catalog', '');
SELECT pg_catalog.pg_extension_config_dump('@extschema@.thresh_votes', '');
SELECT pg_catalog.pg_extension_config_dump('@extschema@.thresh_estimates', '');
SELECT pg_catalog.pg_extension_config_dump('@extschema@.thresh_epochs', '');
SELECT pg_catalog.pg_extension_config_dump('@extschema@.thresh_catalog_id_seq', '');

-- Readable through row-level security (a role sees the streams it may read and
-- their history; the individual reports only for the stream's owner); written
-- only by the extension's functions (as the tables' owner, which row-level
-- security does not restrict).
REVOKE ALL ON @extschema@.thresh_epochs, @extschema@.thresh_votes, @extschema@.thresh_estimates FROM PUBLIC;
GRANT SELECT ON @extschema@.thresh_epochs, @extschema@.thresh_votes, @extschema@.thresh_estimates TO PUBLIC;
ALTER TABLE @extschema@.thresh_epochs ENABLE ROW LEVEL SECURITY;
ALTER TABLE @extschema@.thresh_votes ENABLE ROW LEVEL SECURITY;
ALTER TABLE @extschema@.thresh_estimates ENABLE ROW LEVEL SECURITY;
CREATE POLICY thresh_epochs_readable ON @extschema@.thresh_epochs FOR SELECT
  USING (EXISTS (SELECT 1 FROM @extschema@.thresh_streams s WHERE s.id = stream));
-- individual reports: the stream's owner only
CREATE POLICY thresh_votes_owner ON @extschema@.thresh_votes FOR SELECT
  USING (EXISTS (SELECT 1 FROM @extschema@.thresh_streams s
                 WHERE s.id = stream AND @extschema@.has_privilege(s.backing_view, 'OWNER')));
CREATE POLICY thresh_estimates_owner ON @extschema@.thresh_estimates FOR SELECT
  USING (EXISTS (SELECT 1 FROM @extschema@.thresh_streams s
                 WHERE s.id = stream AND @extschema@.has_privilege(s.backing_view, 'OWNER')));

------------------------------------------------------------------------------
-- The formulas (C, src/pg/thresh/thresh.cpp) and a stream's row (the update rule and
-- decode are internal: the close twins call them)
------------------------------------------------------------------------------

CREATE FUNCTION @extschema@.thresh_derive(users bigint, epochs int, epoch_rounds bigint, min_group_size bigint,
    groups int, epsilon float8, delta float8, vote_noise float8, estimate_noise float8, threshold_unit float8,
    OUT a float8, OUT b float8, OUT vote_threshold float8, OUT sampling_error float8, OUT thresholds float8[],
    OUT max_truthful_votes bigint, OUT max_truthful_estimates bigint, OUT worst_case_loss float8,
    OUT accuracy_bound float8)
  AS 'MODULE_PATHNAME', 'ldp_thresh_derive_within_cap' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.thresh_derive(bigint, int, bigint, bigint, int, float8, float8, float8, float8, float8) IS 'THRESH parameters from a configuration (NULL noises and threshold unit are derived): vote noise a, estimate noise b, vote threshold, per-user sampling error y, thresholds tau_-1..tau_ceil(log2 T), the truthful reports a device of a new stream can afford (floor(eps/(3a)) votes, floor(eps/(3b)) estimates, one estimate fewer where the loss would round above eps), its worst-case privacy loss 2a*floor(eps/(3a)) + b*floor(eps/(3b)) <= eps and the Theorem 4.3 accuracy bound. Refuses (22023) a configuration in which a device cannot afford one truthful vote and one truthful estimate (a or b above eps/3), saying what to change.';
CREATE FUNCTION @extschema@.thresh_budget(epsilon float8, vote_noise float8, estimate_noise float8, cap_rule text,
    OUT max_truthful_votes bigint, OUT max_truthful_estimates bigint, OUT worst_case_loss float8)
  AS 'MODULE_PATHNAME', 'ldp_thresh_budget' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.thresh_budget(float8, float8, float8, text) IS 'What a THRESH device can send and lose under a cap rule (ldp.thresh_streams.cap_rule): next_within_cap gives floor(eps/(3a)) truthful votes, floor(eps/(3b)) truthful estimates (one fewer where the loss would round above eps) and a worst-case loss 2a*floor(eps/(3a)) + b*floor(eps/(3b)) <= eps; spent_below_cap (streams made by 0.9.0 and before) ceil(eps/(4a)) and ceil(eps/(4b)), which can exceed eps.';
CREATE FUNCTION @extschema@.thresh_decide(stream @extschema@.thresh_streams, votes bigint, yes_votes bigint,
    OUT vote_threshold float8, OUT global_update boolean)
  AS 'MODULE_PATHNAME', 'ldp_thresh_decide' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
REVOKE ALL ON FUNCTION @extschema@.thresh_decide(@extschema@.thresh_streams, bigint, bigint) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.thresh_decide(@extschema@.thresh_streams, bigint, bigint) IS 'Internal: THRESH''s update rule on an epoch''s votes (the threshold uses the number of votes received).';
CREATE FUNCTION @extschema@.thresh_decode(stream @extschema@.thresh_streams, reports bigint, ones bigint,
    OUT estimate float8, OUT std_error float8)
  AS 'MODULE_PATHNAME', 'ldp_thresh_decode' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
REVOKE ALL ON FUNCTION @extschema@.thresh_decode(@extschema@.thresh_streams, bigint, bigint) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.thresh_decode(@extschema@.thresh_streams, bigint, bigint) IS 'Internal: the global estimate and its standard error from an epoch''s estimate reports.';

-- The Bernoulli kind (ldp.thresh_create): its parameters, what it publishes, its rows.
CREATE FUNCTION @extschema@.thresh_derive_bernoulli(users bigint, epochs int, epoch_rounds bigint, min_group_size bigint,
    groups int, epsilon float8, delta float8, vote_noise float8, estimate_noise float8, threshold_unit float8,
    hashes int, width int, OUT a float8, OUT b float8, OUT vote_threshold float8, OUT thresholds float8[],
    OUT projection_error float8)
  LANGUAGE sql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $$
  SELECT d.a, d.b, d.vote_threshold, d.thresholds, NULL::float8
  FROM @extschema@.thresh_derive(users, epochs, epoch_rounds, min_group_size, groups, epsilon, delta,
                                 vote_noise, estimate_noise, threshold_unit) d $$;
REVOKE ALL ON FUNCTION @extschema@.thresh_derive_bernoulli(bigint, int, bigint, bigint, int, float8, float8, float8, float8, float8, int, int) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.thresh_derive_bernoulli(bigint, int, bigint, bigint, int, float8, float8, float8, float8, float8, int, int) IS 'Internal: a new Bernoulli stream''s parameters (ldp.thresh_derive; hashes and width unused, no projection error), the derive function of ldp.thresh_kinds.';
CREATE FUNCTION @extschema@.thresh_publish_bernoulli(stream @extschema@.thresh_streams,
    OUT estimate float8, OUT std_error float8, OUT last_update_epoch int)
  LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  e record;
BEGIN
  estimate := stream.estimate;
  std_error := stream.std_error;
  last_update_epoch := stream.epoch;
  IF stream.estimate_reports > 0 THEN
    e := @extschema@.thresh_decode(stream, stream.estimate_reports, stream.estimate_ones);
    estimate := e.estimate;
    std_error := e.std_error;
  ELSE
    RAISE WARNING 'epoch % of THRESH stream "%" updated but received no estimates: the previous estimate stays published',
      stream.epoch, stream.name;
  END IF;
END $$;
REVOKE ALL ON FUNCTION @extschema@.thresh_publish_bernoulli(@extschema@.thresh_streams) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.thresh_publish_bernoulli(@extschema@.thresh_streams) IS 'Internal: what a Bernoulli stream publishes when an epoch of a global update closes: the estimate of its reports (ldp.thresh_decode), or with none the previous one, with a warning; the publish function of ldp.thresh_kinds.';
INSERT INTO @extschema@.thresh_report_kinds (kind, phase, report_table, bit_column, int_columns, what, one, send_hint, check_batch)
VALUES ('votes', 'voting', 'thresh_votes', 'vote', '{}', 'votes', 'a vote', NULL, NULL),
       ('estimates', 'estimating', 'thresh_estimates', 'report', '{}', 'reports', 'an estimate',
        'Send its estimates with ldp.thresh_submit_estimates.', NULL);
INSERT INTO @extschema@.thresh_kinds (kind, derive, publish, reports)
VALUES ('bernoulli', 'thresh_derive_bernoulli', 'thresh_publish_bernoulli', 'estimates');

CREATE FUNCTION @extschema@.thresh_stream(name text, lock boolean DEFAULT false)
  RETURNS @extschema@.thresh_streams LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  s @extschema@.thresh_streams;
BEGIN
  IF lock THEN
    PERFORM FROM @extschema@.thresh_catalog t WHERE t.name = thresh_stream.name FOR UPDATE;
  END IF;
  SELECT * INTO s FROM @extschema@.thresh_streams t WHERE t.name = thresh_stream.name;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'THRESH stream "%" does not exist', name
      USING ERRCODE = 'undefined_object', HINT = 'Create it with ldp.thresh_create.';
  END IF;
  RETURN s;
END $$;
COMMENT ON FUNCTION @extschema@.thresh_stream(text, boolean) IS 'A THRESH stream''s row as ldp.thresh_streams shows it to the calling role, or error 42704 (unknown, or not readable by that role); lock => true (FOR UPDATE) needs the catalog owner''s rights. Executable by PUBLIC: the readers (ldp.thresh_status, ldp.thresh_params, ...) call it with the caller''s rights; it shows nothing that ldp.thresh_streams does not.';

-- The privileged twins' view of a stream (as collection_for): its row, locked when
-- asked, if the caller may use the privilege on it; a stream on which the caller
-- holds no privilege (read, submit, close) does not exist for it.
CREATE FUNCTION @extschema@.thresh_stream_for(caller oid, name text, privilege text, lock boolean)
  RETURNS @extschema@.thresh_streams LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  s @extschema@.thresh_streams;
BEGIN
  SELECT * INTO s FROM @extschema@.thresh_streams t WHERE t.name = thresh_stream_for.name;
  -- it exists for a role that holds a privilege on it (read, submit, close) or may do
  -- what it asks
  IF NOT FOUND OR NOT (@extschema@.has_privilege(caller, s.backing_view, 'SELECT')
                       OR @extschema@.has_privilege(caller, s.backing_view, 'INSERT')
                       OR @extschema@.has_privilege(caller, s.backing_view, 'UPDATE')
                       OR @extschema@.has_privilege(caller, s.backing_view, privilege)) THEN
    RAISE EXCEPTION 'THRESH stream "%" does not exist', name
      USING ERRCODE = 'undefined_object', HINT = 'Create it with ldp.thresh_create.';
  END IF;
  IF NOT @extschema@.has_privilege(caller, s.backing_view, privilege) THEN
    RAISE EXCEPTION 'permission denied for THRESH stream "%"', name
      USING ERRCODE = 'insufficient_privilege',
            DETAIL = CASE privilege WHEN 'INSERT' THEN 'Sending reports needs the submit privilege.'
                                    WHEN 'UPDATE' THEN 'Closing needs the close privilege.'
                                    ELSE 'Only its owner (' || s.owner::text || ') may do this.' END,
            HINT = 'Its owner grants privileges with ldp.grant_thresh.';
  END IF;
  IF lock THEN
    PERFORM FROM @extschema@.thresh_catalog t WHERE t.id = s.id FOR UPDATE;
    SELECT * INTO s FROM @extschema@.thresh_streams t WHERE t.id = s.id;  -- as it is now
    IF NOT FOUND THEN  -- dropped while we waited
      RAISE EXCEPTION 'THRESH stream "%" does not exist', name USING ERRCODE = 'undefined_object';
    END IF;
  END IF;
  RETURN s;
END $$;
REVOKE ALL ON FUNCTION @extschema@.thresh_stream_for(oid, text, text, boolean) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.thresh_stream_for(oid, text, text, boolean) IS 'Internal: a THRESH stream''s row (locked FOR UPDATE when asked) if the role may use the privilege on it; else error 42704 (no privilege on it) or 42501.';

-- The query of a stream's view: its history.
CREATE FUNCTION @extschema@.thresh_view_query(name text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT SET search_path = pg_catalog, pg_temp AS $$
  SELECT pg_catalog.format('SELECT h.epoch, h.votes, h.yes_votes, h.vote_threshold, h.global_update, h.estimate_reports,'
                           ' h.estimate_ones, h.estimate, h.std_error, h.last_update_epoch, h.votes_closed_at, h.closed_at'
                           ' FROM @extschema@.thresh_epochs h'
                           ' WHERE h.stream = (SELECT s.id FROM @extschema@.thresh_streams s WHERE s.name = %L)', name) $$;
REVOKE ALL ON FUNCTION @extschema@.thresh_view_query(text) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.thresh_view_query(text) IS 'Internal: the query of the view backing a THRESH stream (its history).';

------------------------------------------------------------------------------
-- The SQL API. Each function that changes the catalog is a C entry point
-- (ldp_privileged) that calls its internal twin ldp._<name> as the catalog's
-- owner with the calling role (30_security.sql).
------------------------------------------------------------------------------

-- Shared by the create twins: checks the name, derives the parameters (the kind's
-- derive function: the core; a configuration whose devices could not afford one truthful vote and one
-- truthful estimate is refused there), stores the row with the cap rule its devices
-- run and creates the view.
CREATE FUNCTION @extschema@.thresh_create_stream(caller regrole, name text, kind text, users bigint, epochs int,
    epoch_rounds bigint, min_group_size bigint, groups int, epsilon float8, delta float8,
    vote_noise float8, estimate_noise float8, threshold_unit float8, hashes int, width int)
  RETURNS void LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  p record;
  fn text;
BEGIN
  PERFORM @extschema@.backing_name_free('ldp_thresh_streams', name, 'THRESH stream',
    EXISTS (SELECT 1 FROM @extschema@.thresh_catalog t WHERE t.name = thresh_create_stream.name));
  SELECT k.derive INTO fn FROM @extschema@.thresh_kinds k WHERE k.kind = thresh_create_stream.kind;
  EXECUTE pg_catalog.format('SELECT * FROM @extschema@.%I($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)', fn) INTO p
    USING users, epochs, epoch_rounds, min_group_size, groups, epsilon, delta, vote_noise, estimate_noise,
          threshold_unit, hashes, width;
  INSERT INTO @extschema@.thresh_catalog (name, users, epochs, epoch_rounds, min_group_size, groups, epsilon,
      delta, vote_noise, estimate_noise, threshold_unit, vote_threshold, thresholds, kind, hashes, width, projection_error,
      cap_rule)
  VALUES (name, users, epochs, epoch_rounds, min_group_size, groups, epsilon, delta, p.a, p.b,
          threshold_unit, p.vote_threshold, p.thresholds, kind, hashes, width, p.projection_error, 'next_within_cap');
  PERFORM @extschema@.backing_create('ldp_thresh_streams', name, caller, @extschema@.thresh_view_query(name), 'THRESH stream');
END $$;
REVOKE ALL ON FUNCTION @extschema@.thresh_create_stream(regrole, text, text, bigint, int, bigint, bigint, int, float8, float8, float8, float8, float8, int, int) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.thresh_create_stream(regrole, text, text, bigint, int, bigint, bigint, int, float8, float8, float8, float8, float8, int, int) IS 'Internal: creates a THRESH stream of a kind (bernoulli or histogram) for the calling role: checks the name, derives its parameters (refusing a configuration whose devices cannot afford one truthful vote and one truthful estimate), stores its row with cap rule next_within_cap and creates its view.';

CREATE FUNCTION @extschema@._thresh_create(caller regrole, name text, users bigint, epochs int, epoch_rounds int,
    min_group_size bigint, groups int, epsilon float8, delta float8,
    vote_noise float8, estimate_noise float8, threshold_unit float8)
  RETURNS void LANGUAGE sql SET search_path = pg_catalog, pg_temp AS $$
  SELECT @extschema@.thresh_create_stream(caller, name, 'bernoulli', users, epochs, epoch_rounds, min_group_size, groups,
                                          epsilon, delta, vote_noise, estimate_noise, threshold_unit, NULL, NULL) $$;
REVOKE ALL ON FUNCTION @extschema@._thresh_create(regrole, text, bigint, int, int, bigint, int, float8, float8, float8, float8, float8) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@._thresh_create(regrole, text, bigint, int, int, bigint, int, float8, float8, float8, float8, float8) IS 'Internal: ldp.thresh_create run as the catalog''s owner for the calling role.';
CREATE FUNCTION @extschema@.thresh_create(name text, users bigint, epochs int, epoch_rounds int,
    min_group_size bigint, groups int, epsilon float8, delta float8,
    vote_noise float8 DEFAULT NULL, estimate_noise float8 DEFAULT NULL, threshold_unit float8 DEFAULT NULL)
  RETURNS void AS 'MODULE_PATHNAME', 'ldp_privileged' LANGUAGE C VOLATILE;
REVOKE ALL ON FUNCTION @extschema@.thresh_create(text, bigint, int, int, bigint, int, float8, float8, float8, float8, float8) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.thresh_create(text, bigint, int, int, bigint, int, float8, float8, float8, float8, float8) IS 'Creates a THRESH stream owned by the calling role for n users, T epochs of epoch_rounds rounds, groups subgroups of at least min_group_size users, privacy epsilon and failure probability delta; derives the vote noise a, estimate noise b and thresholds (or takes the given ones) and refuses configurations that break Assumption 4.2, leave b undefined or leave a device unable to afford one truthful vote and one truthful estimate (a or b above epsilon/3), saying what to change. Its devices run cap rule next_within_cap: a device loses at most 2a*floor(eps/(3a)) + b*floor(eps/(3b)) <= eps. Not executable by PUBLIC: GRANT EXECUTE to the roles that may create streams.';

CREATE FUNCTION @extschema@._thresh_drop(caller regrole, name text) RETURNS void
  LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  s @extschema@.thresh_streams := @extschema@.thresh_stream_for(caller, name, 'OWNER', true);
  t text;
BEGIN
  FOR t IN SELECT DISTINCT r.report_table FROM @extschema@.thresh_report_kinds r ORDER BY 1 LOOP
    EXECUTE pg_catalog.format('DELETE FROM @extschema@.%I WHERE stream = $1', t) USING s.id;
  END LOOP;
  DELETE FROM @extschema@.thresh_catalog WHERE id = s.id;
  PERFORM @extschema@.backing_drop(s.backing_view);
END $$;
REVOKE ALL ON FUNCTION @extschema@._thresh_drop(regrole, text) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@._thresh_drop(regrole, text) IS 'Internal: ldp.thresh_drop run as the catalog''s owner for the calling role.';
CREATE FUNCTION @extschema@.thresh_drop(name text) RETURNS void
  AS 'MODULE_PATHNAME', 'ldp_privileged' LANGUAGE C VOLATILE;
COMMENT ON FUNCTION @extschema@.thresh_drop(text) IS 'Deletes a THRESH stream with its reports and history, and drops its view with what any role built on it (CASCADE, with a NOTICE). Its owner only.';

CREATE FUNCTION @extschema@._alter_thresh_owner(caller regrole, name text, new_owner regrole) RETURNS void
  LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  s @extschema@.thresh_streams := @extschema@.thresh_stream_for(caller, name, 'OWNER', true);
BEGIN
  PERFORM @extschema@.backing_set_owner(caller, s.backing_view, new_owner, 'THRESH stream');
END $$;
REVOKE ALL ON FUNCTION @extschema@._alter_thresh_owner(regrole, text, regrole) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@._alter_thresh_owner(regrole, text, regrole) IS 'Internal: ldp.alter_thresh_owner run as the catalog''s owner for the calling role.';
CREATE FUNCTION @extschema@.alter_thresh_owner(name text, new_owner regrole) RETURNS void
  AS 'MODULE_PATHNAME', 'ldp_privileged' LANGUAGE C VOLATILE;
COMMENT ON FUNCTION @extschema@.alter_thresh_owner(text, regrole) IS 'Gives a THRESH stream to another role, which then owns its view: by its owner, if a member of the new owner, or by a superuser (as ALTER ... OWNER TO). REASSIGN OWNED moves streams too.';

CREATE FUNCTION @extschema@.thresh_params(name text)
  RETURNS TABLE(users bigint, epochs int, epoch_rounds bigint, min_group_size bigint, groups int,
                epsilon float8, delta float8, vote_noise float8, estimate_noise float8,
                vote_threshold float8, thresholds float8[], kind text, hashes int, width int,
                projection_error float8, cap_rule text, worst_case_loss float8)
  LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp AS $$
  SELECT s.users, s.epochs, s.epoch_rounds, s.min_group_size, s.groups, s.epsilon, s.delta,
         s.vote_noise, s.estimate_noise, s.vote_threshold, s.thresholds, s.kind, s.hashes, s.width,
         s.projection_error, s.cap_rule, b.worst_case_loss
  FROM @extschema@.thresh_stream(name) s,
       @extschema@.thresh_budget(s.epsilon, s.vote_noise, s.estimate_noise, s.cap_rule) b $$;
COMMENT ON FUNCTION @extschema@.thresh_params(text) IS 'What every device of a THRESH stream needs: its configuration, a, b, the vote threshold (for n votes) and thresholds[1] = tau_-1 .. thresholds[ceil(log2 T)+2] = tau_ceil(log2 T); its kind (bernoulli or histogram) and, for a histogram stream, the hashes and width of Phi and the projection error y_Phi of its thresholds (NULL for a Bernoulli stream); the cap rule its devices run (next_within_cap, or spent_below_cap for a stream made by 0.9.0 or before) and the worst-case privacy loss of a device under it (<= epsilon for next_within_cap).';

-- Shared by the submit twins: checks the batch, stores one row per user and adds
-- the batch to the stream's tallies, or refuses the whole batch. kind: a row of
-- ldp.thresh_report_kinds (votes, any stream; a stream kind's reports after a global
-- update), which says what the batch holds: the bits, and the integer columns in
-- ints1 and ints2 (a histogram stream's hash indexes and coefficients).
CREATE FUNCTION @extschema@.thresh_submit(caller oid, name text, epoch bigint, user_ids bigint[], bits boolean[], kind text,
    ints1 int[] DEFAULT NULL, ints2 int[] DEFAULT NULL)
  RETURNS bigint LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  s @extschema@.thresh_streams := @extschema@.thresh_stream_for(caller, name, 'INSERT', false);
  r @extschema@.thresh_report_kinds;
  takes text;
  ints int := 0;
  lens bigint[];
  cols text := '';
  vals text := '';
  n bigint;
  ones bigint;
  dups bigint[];
BEGIN
  SELECT * INTO STRICT r FROM @extschema@.thresh_report_kinds k WHERE k.kind = thresh_submit.kind;
  ints := pg_catalog.cardinality(r.int_columns);
  IF epoch IS NULL OR user_ids IS NULL OR bits IS NULL OR (ints >= 1 AND ints1 IS NULL) OR (ints >= 2 AND ints2 IS NULL) THEN
    RAISE EXCEPTION 'epoch, user_ids and % must not be NULL', r.what
      USING ERRCODE = 'null_value_not_allowed';
  END IF;
  IF coalesce(pg_catalog.array_ndims(user_ids), 1) <> 1 OR coalesce(pg_catalog.array_ndims(bits), 1) <> 1
     OR coalesce(pg_catalog.array_ndims(ints1), 1) <> 1 OR coalesce(pg_catalog.array_ndims(ints2), 1) <> 1 THEN
    RAISE EXCEPTION 'user_ids and % must be one-dimensional arrays', r.what
      USING ERRCODE = 'array_subscript_error';
  END IF;
  lens := ARRAY[pg_catalog.cardinality(user_ids), pg_catalog.cardinality(ints1), pg_catalog.cardinality(ints2)];
  lens := lens[1:ints + 1] || pg_catalog.cardinality(bits)::bigint;
  IF EXISTS (SELECT 1 FROM pg_catalog.unnest(lens) AS l WHERE l <> pg_catalog.cardinality(bits)) THEN
    RAISE EXCEPTION 'user_ids and % must be arrays of the same length (got % and %)', r.what,
      pg_catalog.array_to_string(lens[1:ints + 1], ', '), lens[ints + 2]
      USING ERRCODE = 'array_subscript_error';
  END IF;
  IF pg_catalog.array_position(user_ids, NULL) IS NOT NULL OR pg_catalog.array_position(bits, NULL) IS NOT NULL
     OR pg_catalog.array_position(ints1, NULL) IS NOT NULL OR pg_catalog.array_position(ints2, NULL) IS NOT NULL THEN
    RAISE EXCEPTION 'the batch holds a NULL user id or report' USING ERRCODE = 'null_value_not_allowed';
  END IF;
  IF r.phase = 'estimating' THEN
    SELECT k.reports INTO takes FROM @extschema@.thresh_kinds k WHERE k.kind = s.kind;
    IF takes <> r.kind THEN
      RAISE EXCEPTION 'THRESH stream "%" is a % stream: it takes no %', name, s.kind, kind
        USING ERRCODE = 'wrong_object_type',
              HINT = (SELECT k.send_hint FROM @extschema@.thresh_report_kinds k WHERE k.kind = takes);
    END IF;
  END IF;
  IF r.check_batch IS NOT NULL THEN
    EXECUTE pg_catalog.format('SELECT @extschema@.%I($1, $2, $3)', r.check_batch) USING s, ints1, ints2;
  END IF;
  IF s.epoch <> epoch OR s.phase <> r.phase THEN
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
  FOR i IN 1 .. ints LOOP
    cols := cols || ', ' || pg_catalog.quote_ident(r.int_columns[i]);
    vals := vals || pg_catalog.format(', $%s', i + 4);
  END LOOP;
  -- Rows go in in user order: two batches that share users then wait on the same
  -- user first, and the later one is refused with 23505 instead of the two
  -- deadlocking (40P01) in opposite orders.
  BEGIN
    EXECUTE pg_catalog.format('INSERT INTO @extschema@.%I (stream, epoch, user_id%s, %I)'
                              ' SELECT $1, $2, x.* FROM unnest($3%s, $4) AS x ORDER BY 3',
                              r.report_table, cols, r.bit_column, vals)
      USING s.id, epoch, user_ids, bits, ints1, ints2;
  EXCEPTION WHEN unique_violation THEN
    -- What a submitter learns (docs/security.md#what-a-submitter-or-a-closer-learns): which of the user ids
    -- it sent already have a report of this kind for this epoch (the positions in its
    -- batch, so that it can send the rest again), never anything of the reports or of
    -- other users. Repeats within the batch count from their second occurrence.
    EXECUTE pg_catalog.format('SELECT pg_catalog.array_agg(u.o ORDER BY u.o)'
                              ' FROM (SELECT x.id, x.o, pg_catalog.row_number() OVER (PARTITION BY x.id ORDER BY x.o) AS k'
                              '       FROM pg_catalog.unnest($1) WITH ORDINALITY AS x(id, o)) u'
                              ' WHERE u.k > 1 OR EXISTS (SELECT 1 FROM @extschema@.%I v'
                              '                          WHERE v.stream = $2 AND v.epoch = $3 AND v.user_id = u.id)',
                              r.report_table)
      INTO dups USING user_ids, s.id, epoch;
    RAISE EXCEPTION '% of the batch''s % user ids already sent % for epoch % of THRESH stream "%", or appear in it twice',
      coalesce(pg_catalog.cardinality(dups), 0), n, r.one, epoch, name
      USING ERRCODE = 'unique_violation',
            DETAIL = pg_catalog.format('Their positions in the batch (from 1; a user id twice in the batch from its second time): %s.',
                                       pg_catalog.array_to_string(dups[1:100], ', ')
                                       || CASE WHEN pg_catalog.cardinality(dups) > 100 THEN ', ...' ELSE '' END),
            HINT = 'The whole batch was refused; send it again without them.';
  END;
  -- The tallies, re-checking the phase under the row lock: a close that got there
  -- first has moved the phase on and the batch is refused; a close that comes
  -- later waits for this transaction and counts it. Reports after a global update
  -- count as estimate reports (estimate_ones: those with bit 1).
  IF r.phase = 'voting' THEN
    UPDATE @extschema@.thresh_catalog t SET votes = t.votes + n, yes_votes = t.yes_votes + ones
    WHERE t.id = s.id AND t.epoch = thresh_submit.epoch AND t.phase = r.phase AND t.votes + n <= t.users;
  ELSE
    UPDATE @extschema@.thresh_catalog t SET estimate_reports = t.estimate_reports + n,
                                           estimate_ones = t.estimate_ones + ones
    WHERE t.id = s.id AND t.epoch = thresh_submit.epoch AND t.phase = r.phase AND t.estimate_reports + n <= t.users;
  END IF;
  IF NOT FOUND THEN
    s := @extschema@.thresh_stream(name);
    IF s.epoch <> epoch OR s.phase <> r.phase THEN
      RAISE EXCEPTION 'THRESH stream "%" takes no % for epoch %: it is in epoch %, phase %', name, kind, epoch, s.epoch, s.phase
        USING ERRCODE = 'object_not_in_prerequisite_state', HINT = 'The whole batch was refused.';
    END IF;
    RAISE EXCEPTION 'THRESH stream "%" would get more % in epoch % than its % users', name, kind, epoch, s.users
      USING ERRCODE = 'invalid_parameter_value', HINT = 'The whole batch was refused.';
  END IF;
  RETURN n;
END $$;
REVOKE ALL ON FUNCTION @extschema@.thresh_submit(oid, text, bigint, bigint[], boolean[], text, int[], int[]) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.thresh_submit(oid, text, bigint, bigint[], boolean[], text, int[], int[]) IS 'Internal: stores a batch of THRESH reports of a kind of ldp.thresh_report_kinds (votes, estimates, histograms) whole for a role with the submit privilege, or refuses it whole.';

CREATE FUNCTION @extschema@._thresh_submit_votes(caller regrole, name text, epoch int, user_ids bigint[], votes boolean[])
  RETURNS bigint LANGUAGE sql SET search_path = pg_catalog, pg_temp AS $$
  SELECT @extschema@.thresh_submit(caller, name, epoch, user_ids, votes, 'votes') $$;
REVOKE ALL ON FUNCTION @extschema@._thresh_submit_votes(regrole, text, int, bigint[], boolean[]) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@._thresh_submit_votes(regrole, text, int, bigint[], boolean[]) IS 'Internal: ldp.thresh_submit_votes run as the catalog''s owner for the calling role.';
CREATE FUNCTION @extschema@._thresh_submit_estimates(caller regrole, name text, epoch int, user_ids bigint[], reports boolean[])
  RETURNS bigint LANGUAGE sql SET search_path = pg_catalog, pg_temp AS $$
  SELECT @extschema@.thresh_submit(caller, name, epoch, user_ids, reports, 'estimates') $$;
REVOKE ALL ON FUNCTION @extschema@._thresh_submit_estimates(regrole, text, int, bigint[], boolean[]) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@._thresh_submit_estimates(regrole, text, int, bigint[], boolean[]) IS 'Internal: ldp.thresh_submit_estimates run as the catalog''s owner for the calling role.';
CREATE FUNCTION @extschema@.thresh_submit_votes(name text, epoch int, user_ids bigint[], votes boolean[])
  RETURNS bigint AS 'MODULE_PATHNAME', 'ldp_privileged' LANGUAGE C VOLATILE;
COMMENT ON FUNCTION @extschema@.thresh_submit_votes(text, int, bigint[], boolean[]) IS 'Stores a batch of VOTE reports for the current epoch of a THRESH stream in its voting phase; returns how many. One vote per user per epoch: a batch with a duplicate, for another epoch or phase, or with arrays of different lengths is refused whole. Needs the submit privilege.';
CREATE FUNCTION @extschema@.thresh_submit_estimates(name text, epoch int, user_ids bigint[], reports boolean[])
  RETURNS bigint AS 'MODULE_PATHNAME', 'ldp_privileged' LANGUAGE C VOLATILE;
COMMENT ON FUNCTION @extschema@.thresh_submit_estimates(text, int, bigint[], boolean[]) IS 'Stores a batch of EST reports for the current epoch of a THRESH stream whose votes decided a global update; returns how many. At most one per user per epoch; a bad batch is refused whole. Needs the submit privilege.';
CREATE FUNCTION @extschema@._thresh_close_votes(caller regrole, name text, epoch int) RETURNS void
  LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  s @extschema@.thresh_streams := @extschema@.thresh_stream_for(caller, name, 'UPDATE', true);  -- waits for submitters
  d record;
BEGIN
  IF epoch IS NOT NULL AND (epoch < s.epoch OR (epoch = s.epoch AND s.phase <> 'voting')) THEN
    RAISE NOTICE 'the votes of epoch % of THRESH stream "%" are already closed', epoch, name;
    RETURN;
  END IF;
  IF s.phase <> 'voting' OR (epoch IS NOT NULL AND epoch <> s.epoch) THEN
    RAISE EXCEPTION 'THRESH stream "%" is in epoch %, phase %: no votes to close%', name, s.epoch, s.phase,
      CASE WHEN epoch IS NOT NULL THEN pg_catalog.format(' for epoch %s', epoch) ELSE '' END
      USING ERRCODE = 'object_not_in_prerequisite_state';
  END IF;
  d := @extschema@.thresh_decide(s, s.votes, s.yes_votes);
  UPDATE @extschema@.thresh_catalog t SET phase = CASE WHEN d.global_update THEN 'estimating' ELSE 'closed' END
  WHERE t.id = s.id;
  INSERT INTO @extschema@.thresh_epochs (stream, epoch, votes, yes_votes, vote_threshold, global_update)
  VALUES (s.id, s.epoch, s.votes, s.yes_votes, d.vote_threshold, d.global_update);
END $$;
REVOKE ALL ON FUNCTION @extschema@._thresh_close_votes(regrole, text, int) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@._thresh_close_votes(regrole, text, int) IS 'Internal: ldp.thresh_close_votes run as the catalog''s owner for the calling role.';
CREATE PROCEDURE @extschema@.thresh_close_votes(name text, epoch int DEFAULT NULL)
  AS 'MODULE_PATHNAME', 'ldp_privileged' LANGUAGE C;
COMMENT ON PROCEDURE @extschema@.thresh_close_votes(text, int) IS 'Applies THRESH''s update rule to the current epoch''s votes and publishes the decision (phase estimating on a global update, else closed). With epoch given, closing an already closed phase is a no-op. Needs the close privilege.';

CREATE FUNCTION @extschema@._thresh_close_epoch(caller regrole, name text, epoch int) RETURNS void
  LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  s @extschema@.thresh_streams := @extschema@.thresh_stream_for(caller, name, 'UPDATE', true);
  fn text;
  p record;
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
    -- a global update: the stream kind's publish function (it warns when the epoch got
    -- no reports and keeps what was published)
    SELECT k.publish INTO fn FROM @extschema@.thresh_kinds k WHERE k.kind = s.kind;
    EXECUTE pg_catalog.format('SELECT * FROM @extschema@.%I($1)', fn) INTO p USING s;
    est := p.estimate;
    se := p.std_error;
    last_update := p.last_update_epoch;
  END IF;
  UPDATE @extschema@.thresh_catalog t
  SET epoch = CASE WHEN s.epoch < s.epochs THEN s.epoch + 1 ELSE s.epoch END,
      phase = CASE WHEN s.epoch < s.epochs THEN 'voting' ELSE 'finished' END,
      votes = 0, yes_votes = 0, estimate_reports = 0, estimate_ones = 0,
      last_update_epoch = last_update, estimate = est, std_error = se
  WHERE t.id = s.id;
  UPDATE @extschema@.thresh_epochs h
  SET estimate_reports = s.estimate_reports, estimate_ones = s.estimate_ones, estimate = est, std_error = se,
      last_update_epoch = last_update, closed_at = pg_catalog.now()
  WHERE h.stream = s.id AND h.epoch = s.epoch;
END $$;
REVOKE ALL ON FUNCTION @extschema@._thresh_close_epoch(regrole, text, int) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@._thresh_close_epoch(regrole, text, int) IS 'Internal: ldp.thresh_close_epoch run as the catalog''s owner for the calling role.';
CREATE PROCEDURE @extschema@.thresh_close_epoch(name text, epoch int DEFAULT NULL)
  AS 'MODULE_PATHNAME', 'ldp_privileged' LANGUAGE C;
COMMENT ON PROCEDURE @extschema@.thresh_close_epoch(text, int) IS 'Publishes the epoch''s estimate (the aggregated estimates after a global update, else the previous one; for a histogram stream the hashtogram oracle of its reports, ldp.thresh_summary) and opens the next epoch (or finishes the stream after the last). With epoch given, closing an already closed epoch is a no-op. Needs the close privilege.';

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

-- Grants and revokes of a stream's privileges (its owner only).
CREATE FUNCTION @extschema@.thresh_grant(caller oid, stream text, privilege text, grantee text, grant_it boolean)
  RETURNS void LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  s @extschema@.thresh_streams := @extschema@.thresh_stream_for(caller, stream, 'OWNER', true);
BEGIN
  PERFORM @extschema@.backing_grant(s.backing_view, @extschema@.privilege_type(privilege, ARRAY['read', 'submit', 'close']),
                                    grantee, grant_it);
END $$;
REVOKE ALL ON FUNCTION @extschema@.thresh_grant(oid, text, text, text, boolean) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.thresh_grant(oid, text, text, text, boolean) IS 'Internal: grants or revokes a privilege on a THRESH stream for its owner.';
CREATE FUNCTION @extschema@._grant_thresh(caller regrole, stream text, privilege text, grantee text)
  RETURNS void LANGUAGE sql SET search_path = pg_catalog, pg_temp
  AS $$ SELECT @extschema@.thresh_grant(caller, stream, privilege, grantee, true) $$;
REVOKE ALL ON FUNCTION @extschema@._grant_thresh(regrole, text, text, text) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@._grant_thresh(regrole, text, text, text) IS 'Internal: ldp.grant_thresh run as the catalog''s owner for the calling role.';
CREATE FUNCTION @extschema@._revoke_thresh(caller regrole, stream text, privilege text, grantee text)
  RETURNS void LANGUAGE sql SET search_path = pg_catalog, pg_temp
  AS $$ SELECT @extschema@.thresh_grant(caller, stream, privilege, grantee, false) $$;
REVOKE ALL ON FUNCTION @extschema@._revoke_thresh(regrole, text, text, text) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@._revoke_thresh(regrole, text, text, text) IS 'Internal: ldp.revoke_thresh run as the catalog''s owner for the calling role.';
CREATE FUNCTION @extschema@.grant_thresh(stream text, privilege text, grantee text) RETURNS void
  AS 'MODULE_PATHNAME', 'ldp_privileged' LANGUAGE C VOLATILE;
COMMENT ON FUNCTION @extschema@.grant_thresh(text, text, text) IS 'Lets a role (or public) read a THRESH stream (privilege read: parameters, status, history), send its reports (submit) or close its phases (close). The stream''s owner only.';
CREATE FUNCTION @extschema@.revoke_thresh(stream text, privilege text, grantee text) RETURNS void
  AS 'MODULE_PATHNAME', 'ldp_privileged' LANGUAGE C VOLATILE;
COMMENT ON FUNCTION @extschema@.revoke_thresh(text, text, text) IS 'Takes back a privilege granted with ldp.grant_thresh. The stream''s owner only.';

