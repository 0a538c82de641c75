-- 0.9.0 -> 0.10.0: (the statements of extension/sql/*.sql that 0.10.0 adds or changes,
-- appended as each change lands; see CONTRIBUTING.md "Releasing a version")
\echo Use "ALTER EXTENSION ldp UPDATE TO '0.10.0'" to load this file. \quit

-- extension/sql/00_guard.sql (new in 0.10.0; every later update script starts with it too)

------------------------------------------------------------------------------
-- The guard: before the install script (or an update script, which starts with this
-- same block; test/upgrade_catalog.sh checks that it does) creates anything, the
-- schemas it creates into must be ldp's alone. The control file fixes schema = ldp, and
-- CREATE EXTENSION installs into an existing schema of that name: a role that owns it,
-- or may CREATE in it, could put there functions or operators that the extension's
-- own functions would resolve first, and so run code as the installing superuser.
-- Refused (42501, naming the schema, the reason and the fix) unless:
--   * ldp is owned by the role running the script or by a superuser;
--   * no other role (but superusers) may CREATE in it;
--   * every object in it belongs to the extension (a new installation: it is empty);
--   * no default privileges apply to it or to the running role's new objects (they
--     would grant the extension's internal functions to other roles);
--   * ldp_collections and ldp_thresh_streams, where they exist, belong to the extension
--     (else 42P06: CREATE SCHEMA would fail on them) and no other role may CREATE in them.
------------------------------------------------------------------------------
DO $ldp_guard$
DECLARE
  nsp oid := (SELECT n.oid FROM pg_catalog.pg_namespace n WHERE n.nspname = '@extschema@');
  ext oid := (SELECT e.oid FROM pg_catalog.pg_extension e WHERE e.extname = 'ldp');
  me oid := (SELECT r.oid FROM pg_catalog.pg_roles r WHERE r.rolname = current_user);
  fix constant text := 'Install ldp into a schema ldp that only its installer controls: if this schema is not the extension''s, rename or drop it; else ALTER SCHEMA ldp OWNER TO a superuser, REVOKE CREATE ON SCHEMA ldp FROM the other roles, and move the objects that are not the extension''s out of it.';
  owner_name text;
  listed text;
  views_schema text;
  verb text;
BEGIN
  -- an update when the extension already has members
  verb := CASE WHEN EXISTS (SELECT 1 FROM pg_catalog.pg_depend m
                            WHERE m.refclassid = 'pg_catalog.pg_extension'::pg_catalog.regclass
                              AND m.refobjid = ext AND m.deptype = 'e')
               THEN 'update' ELSE 'install' END;
  SELECT n.nspowner::regrole::text INTO owner_name FROM pg_catalog.pg_namespace n
  WHERE n.oid = nsp AND n.nspowner <> me
    AND NOT (SELECT r.rolsuper FROM pg_catalog.pg_roles r WHERE r.oid = n.nspowner);
  IF owner_name IS NOT NULL THEN
    RAISE EXCEPTION 'cannot % ldp in schema "@extschema@": it is owned by role %, which is neither the current role nor a superuser', verb, owner_name
      USING ERRCODE = 'insufficient_privilege',
            DETAIL = 'Its owner could create functions there that the extension''s functions would call as the installing role.',
            HINT = fix;
  END IF;
  SELECT pg_catalog.string_agg(r.rolname::text, ', ' ORDER BY r.rolname) INTO listed
  FROM pg_catalog.pg_roles r, pg_catalog.pg_namespace n
  WHERE n.oid = nsp AND r.oid <> n.nspowner AND NOT r.rolsuper
    AND pg_catalog.has_schema_privilege(r.oid, nsp, 'CREATE');
  IF listed IS NOT NULL THEN
    RAISE EXCEPTION 'cannot % ldp in schema "@extschema@": roles other than its owner may create objects in it (%)', verb, listed
      USING ERRCODE = 'insufficient_privilege',
            DETAIL = 'They could create functions there that the extension''s functions would call as the installing role.',
            HINT = fix;
  END IF;
  SELECT pg_catalog.string_agg(pg_catalog.pg_describe_object(d.classid, d.objid, d.objsubid), ', '
                               ORDER BY pg_catalog.pg_describe_object(d.classid, d.objid, d.objsubid)) INTO listed
  FROM pg_catalog.pg_depend d
  WHERE d.refclassid = 'pg_catalog.pg_namespace'::pg_catalog.regclass AND d.refobjid = nsp
    AND d.classid NOT IN ('pg_catalog.pg_extension'::pg_catalog.regclass, 'pg_catalog.pg_default_acl'::pg_catalog.regclass)
    AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_depend m
                    WHERE m.classid = d.classid AND m.objid = d.objid AND m.deptype = 'e'
                      AND m.refclassid = 'pg_catalog.pg_extension'::pg_catalog.regclass AND m.refobjid = ext);
  IF listed IS NOT NULL THEN
    RAISE EXCEPTION 'cannot % ldp in schema "@extschema@": it holds objects that are not the extension''s: %', verb, listed
      USING ERRCODE = 'insufficient_privilege',
            DETAIL = 'The extension''s functions could resolve to them.',
            HINT = fix;
  END IF;
  SELECT pg_catalog.string_agg(pg_catalog.format('for role %s%s', a.defaclrole::regrole,
                                                 CASE WHEN a.defaclnamespace = 0 THEN '' ELSE ' in schema @extschema@' END), ', ')
    INTO listed
  FROM pg_catalog.pg_default_acl a
  WHERE a.defaclnamespace = nsp OR (a.defaclnamespace = 0 AND a.defaclrole = me);
  IF listed IS NOT NULL THEN
    RAISE EXCEPTION 'cannot % ldp in schema "@extschema@": default privileges would apply to its objects (%)', verb, listed
      USING ERRCODE = 'insufficient_privilege',
            DETAIL = 'They could grant the extension''s internal functions and tables to other roles.',
            HINT = 'Remove them with ALTER DEFAULT PRIVILEGES ... REVOKE (\ddp lists them) before installing or updating ldp.';
  END IF;
  FOREACH views_schema IN ARRAY ARRAY['ldp_collections', 'ldp_thresh_streams'] LOOP
    IF EXISTS (SELECT 1 FROM pg_catalog.pg_namespace n WHERE n.nspname = views_schema
               AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_depend m
                               WHERE m.classid = 'pg_catalog.pg_namespace'::pg_catalog.regclass AND m.objid = n.oid
                                 AND m.deptype = 'e' AND m.refobjid = ext)) THEN
      RAISE EXCEPTION 'cannot install ldp: schema "%" already exists and is not the extension''s', views_schema
        USING ERRCODE = 'duplicate_schema',
              DETAIL = 'ldp keeps the views that back its collections and THRESH streams in schemas ldp_collections and ldp_thresh_streams, which it creates.',
              HINT = pg_catalog.format('Rename or drop schema %I, then install ldp.', views_schema);
    END IF;
    SELECT pg_catalog.string_agg(r.rolname::text, ', ' ORDER BY r.rolname) INTO listed
    FROM pg_catalog.pg_roles r, pg_catalog.pg_namespace n
    WHERE n.nspname = views_schema AND r.oid <> n.nspowner AND NOT r.rolsuper
      AND pg_catalog.has_schema_privilege(r.oid, n.oid, 'CREATE');
    IF listed IS NOT NULL THEN
      RAISE EXCEPTION 'cannot % ldp: roles other than its owner may create objects in schema "%" (%)', verb, views_schema, listed
        USING ERRCODE = 'insufficient_privilege',
              HINT = pg_catalog.format('REVOKE CREATE ON SCHEMA %I FROM those roles.', views_schema);
    END IF;
  END LOOP;
END $ldp_guard$;

-- extension/sql/50_thresh.sql: a promised epsilon kept (issue 27.4). A device stops
-- its truthful votes and estimates when the next one would pass its cap (ε/3 each), so
-- its worst-case loss 2a·⌊ε/(3a)⌋ + b·⌊ε/(3b)⌋ is at most ε, and a configuration
-- that cannot afford one truthful vote and one truthful estimate is refused. Each stream
-- records the rule its devices run: the streams made before keep 0.9.0's
-- (spent_below_cap, caps ε/4, up to 2a·⌈ε/(4a)⌉ + b·⌈ε/(4b)⌉), with their parameters and history;
-- the warning at the end names those whose worst case exceeds their ε (a WARNING: an
-- extension script's NOTICEs do not reach the client, PostgreSQL raises its
-- client_min_messages to warning while it runs). The column's
-- default gives them that rule and is then dropped (a fresh install has none: every
-- stream is created with its rule).
ALTER TABLE @extschema@.thresh_catalog
  ADD COLUMN cap_rule text NOT NULL DEFAULT 'spent_below_cap' CHECK (cap_rule IN ('spent_below_cap', 'next_within_cap'));
ALTER TABLE @extschema@.thresh_catalog ALTER COLUMN cap_rule DROP DEFAULT;
COMMENT ON COLUMN @extschema@.thresh_catalog.cap_rule IS 'The rule by which the stream''s devices stop truthful votes and estimates at their caps: next_within_cap (streams created from 0.10.0 on; caps epsilon/3 each) sends one only if the counter after it stays within the cap, so a device loses at most 2a*floor(eps/(3a)) + b*floor(eps/(3b)) <= eps; spent_below_cap (streams created by 0.9.0 and before, which keep it; caps epsilon/4 each) sends one while the counter is below the cap, up to 2a*ceil(eps/(4a)) + b*ceil(eps/(4b)), which can exceed eps.';

CREATE OR REPLACE VIEW @extschema@.thresh_streams WITH (security_barrier) AS
  SELECT s.id, s.name, s.users, s.epochs, s.epoch_rounds, s.min_group_size, s.groups, s.epsilon, s.delta,
         s.vote_noise, s.estimate_noise, s.threshold_unit, s.vote_threshold, s.thresholds, s.epoch, s.phase,
         s.votes, s.yes_votes, s.estimate_reports, s.estimate_ones, s.last_update_epoch, s.estimate,
         s.std_error, s.created_at, v.relowner::regrole AS owner, v.relacl AS acl, v.oid::regclass AS backing_view,
         s.kind, s.hashes, s.width, s.projection_error, s.cap_rule
  FROM @extschema@.thresh_catalog s
  JOIN pg_catalog.pg_class v ON v.relnamespace = 'ldp_thresh_streams'::regnamespace
                            AND v.relname = @extschema@.backing_name(s.name)
  WHERE @extschema@.has_privilege(v.oid, 'SELECT');
COMMENT ON COLUMN @extschema@.thresh_streams.cap_rule IS 'The rule the stream''s devices run at their caps: next_within_cap (from 0.10.0; worst case <= epsilon) or spent_below_cap (streams made by 0.9.0 and before); see ldp.thresh_params'' worst_case_loss.';

-- thresh_derive keeps its signature and columns, now under the new rule: another entry
-- point of the library (0.9.0's, ldp_thresh_derive, keeps 0.9.0's rule for 0.9.0's SQL
-- running with this library before the update).
CREATE OR REPLACE FUNCTION @extschema@.thresh_derive(users bigint, epochs int, epoch_rounds bigint, min_group_size bigint,
    groups int, epsilon float8, delta float8, vote_noise float8, estimate_noise float8, threshold_unit float8,
    OUT a float8, OUT b float8, OUT vote_threshold float8, OUT sampling_error float8, OUT thresholds float8[],
    OUT max_truthful_votes bigint, OUT max_truthful_estimates bigint, OUT worst_case_loss float8,
    OUT accuracy_bound float8)
  AS 'MODULE_PATHNAME', 'ldp_thresh_derive_within_cap' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.thresh_derive(bigint, int, bigint, bigint, int, float8, float8, float8, float8, float8) IS 'THRESH parameters from a configuration (NULL noises and threshold unit are derived): vote noise a, estimate noise b, vote threshold, per-user sampling error y, thresholds tau_-1..tau_ceil(log2 T), the truthful reports a device of a new stream can afford (floor(eps/(3a)) votes, floor(eps/(3b)) estimates, one estimate fewer where the loss would round above eps), its worst-case privacy loss 2a*floor(eps/(3a)) + b*floor(eps/(3b)) <= eps and the Theorem 4.3 accuracy bound. Refuses (22023) a configuration in which a device cannot afford one truthful vote and one truthful estimate (a or b above eps/3), saying what to change.';
-- heavythresh_derive takes hashes and width where heavythresh_create does (issue 27.5):
-- a new signature; 0.9.0's order stays one version as a deprecated SQL wrapper (the same
-- arguments and result type: CREATE OR REPLACE, from language C to sql).
CREATE FUNCTION @extschema@.heavythresh_derive(users bigint, epochs int, epoch_rounds bigint, min_group_size bigint,
    groups int, epsilon float8, delta float8, hashes int, width int,
    vote_noise float8 DEFAULT NULL, estimate_noise float8 DEFAULT NULL, threshold_unit float8 DEFAULT NULL,
    OUT a float8, OUT b float8, OUT vote_threshold float8, OUT projection_error float8, OUT thresholds float8[],
    OUT max_truthful_votes bigint, OUT max_truthful_estimates bigint, OUT worst_case_loss float8)
  AS 'MODULE_PATHNAME', 'ldp_heavythresh_derive_within_cap' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.heavythresh_derive(bigint, int, bigint, bigint, int, float8, float8, int, int, float8, float8, float8) IS 'HEAVYTHRESH parameters (README "Histogram streams"), with the arguments of ldp.heavythresh_create in its order: a, b and the vote threshold as for a Bernoulli stream, the projection error y_Phi = sqrt(2 ln(16wnT/delta)/(t l)) with w = hashes * width, thresholds tau_b = 2(b+1) y_Phi (or the threshold unit), the truthful reports a device can afford and its worst-case privacy loss (<= eps, as ldp.thresh_derive; the same refusals).';
-- 0.9.0's order (hashes and width last), for one version
CREATE OR REPLACE FUNCTION @extschema@.heavythresh_derive(users bigint, epochs int, epoch_rounds bigint, min_group_size bigint,
    groups int, epsilon float8, delta float8, vote_noise float8, estimate_noise float8, threshold_unit float8,
    hashes int, width int,
    OUT a float8, OUT b float8, OUT vote_threshold float8, OUT projection_error float8, OUT thresholds float8[],
    OUT max_truthful_votes bigint, OUT max_truthful_estimates bigint, OUT worst_case_loss float8)
  LANGUAGE sql IMMUTABLE PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
  SELECT * FROM @extschema@.heavythresh_derive($1, $2, $3, $4, $5, $6, $7, $11, $12, $8, $9, $10) $$;
COMMENT ON FUNCTION @extschema@.heavythresh_derive(bigint, int, bigint, bigint, int, float8, float8, float8, float8, float8, int, int) IS 'DEPRECATED (0.10.0; to be dropped in the next version): 0.9.0''s argument order of ldp.heavythresh_derive, with hashes and width last; calls ldp.heavythresh_derive(users, epochs, epoch_rounds, min_group_size, groups, epsilon, delta, hashes, width, vote_noise, estimate_noise, threshold_unit), the order of ldp.heavythresh_create. A positional call whose integer positions in both orders hold integer literals, such as (..., 1, 1, NULL, 8, 64), fits both and is refused as ambiguous (42725): name the arguments or write the noises as 1.0; a valid call is never bound to the other order.';
CREATE FUNCTION @extschema@.thresh_budget(epsilon float8, vote_noise float8, estimate_noise float8, cap_rule text,
    OUT max_truthful_votes bigint, OUT max_truthful_estimates bigint, OUT worst_case_loss float8)
  AS 'MODULE_PATHNAME', 'ldp_thresh_budget' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.thresh_budget(float8, float8, float8, text) IS 'What a THRESH device can send and lose under a cap rule (ldp.thresh_streams.cap_rule): next_within_cap gives floor(eps/(3a)) truthful votes, floor(eps/(3b)) truthful estimates (one fewer where the loss would round above eps) and a worst-case loss 2a*floor(eps/(3a)) + b*floor(eps/(3b)) <= eps; spent_below_cap (streams made by 0.9.0 and before) ceil(eps/(4a)) and ceil(eps/(4b)), which can exceed eps.';

CREATE OR REPLACE FUNCTION @extschema@.thresh_create_stream(caller regrole, name text, kind text, users bigint, epochs int,
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
                                        hashes, width, vote_noise, estimate_noise, threshold_unit);
  ELSE
    SELECT d.a, d.b, d.vote_threshold, d.thresholds, NULL::float8 AS projection_error INTO p
    FROM @extschema@.thresh_derive(users, epochs, epoch_rounds, min_group_size, groups, epsilon, delta,
                                   vote_noise, estimate_noise, threshold_unit) d;
  END IF;
  INSERT INTO @extschema@.thresh_catalog (name, users, epochs, epoch_rounds, min_group_size, groups, epsilon,
      delta, vote_noise, estimate_noise, threshold_unit, vote_threshold, thresholds, kind, hashes, width, projection_error,
      cap_rule)
  VALUES (name, users, epochs, epoch_rounds, min_group_size, groups, epsilon, delta, p.a, p.b,
          threshold_unit, p.vote_threshold, p.thresholds, kind, hashes, width, p.projection_error, 'next_within_cap');
  PERFORM @extschema@.backing_create('ldp_thresh_streams', name, caller, @extschema@.thresh_view_query(name), 'THRESH stream');
END $$;
REVOKE ALL ON FUNCTION @extschema@.thresh_create_stream(regrole, text, text, bigint, int, bigint, bigint, int, float8, float8, float8, float8, float8, int, int) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.thresh_create_stream(regrole, text, text, bigint, int, bigint, bigint, int, float8, float8, float8, float8, float8, int, int) IS 'Internal: creates a THRESH stream of a kind (bernoulli or histogram) for the calling role: checks the name, derives its parameters (refusing a configuration whose devices cannot afford one truthful vote and one truthful estimate), stores its row with cap rule next_within_cap and creates its view.';

COMMENT ON FUNCTION @extschema@.thresh_create(text, bigint, int, int, bigint, int, float8, float8, float8, float8, float8) IS 'Creates a THRESH stream owned by the calling role for n users, T epochs of epoch_rounds rounds, groups subgroups of at least min_group_size users, privacy epsilon and failure probability delta; derives the vote noise a, estimate noise b and thresholds (or takes the given ones) and refuses configurations that break Assumption 4.2, leave b undefined or leave a device unable to afford one truthful vote and one truthful estimate (a or b above epsilon/3), saying what to change. Its devices run cap rule next_within_cap: a device loses at most 2a*floor(eps/(3a)) + b*floor(eps/(3b)) <= eps. Not executable by PUBLIC: GRANT EXECUTE to the roles that may create streams.';

-- thresh_params gains cap_rule and worst_case_loss: a new result type, so DROP + CREATE.
DROP FUNCTION @extschema@.thresh_params(text);
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

-- The streams made before whose worst case exceeds their epsilon (they keep their rule).
DO $ldp_cap$
DECLARE
  listed text;
BEGIN
  SELECT pg_catalog.string_agg(pg_catalog.format('%I (%s, worst case %s > epsilon %s)', c.name, c.kind,
                                                 pg_catalog.round(b.worst_case_loss::numeric, 4), c.epsilon),
                               ', ' ORDER BY c.name)
    INTO listed
  FROM @extschema@.thresh_catalog c,
       @extschema@.thresh_budget(c.epsilon, c.vote_noise, c.estimate_noise, c.cap_rule) b
  WHERE b.worst_case_loss > c.epsilon;
  IF listed IS NOT NULL THEN
    RAISE WARNING 'THRESH streams whose devices can lose more than their epsilon: %', listed
      USING DETAIL = 'They were created before 0.10.0 and keep the cap rule their devices run (spent_below_cap: a truthful report while the counter is below epsilon/4, so the last one may pass it), their parameters and their history.',
            HINT = 'To collect under epsilon-LDP, create a new stream (ldp.thresh_create or ldp.heavythresh_create refuse what a device cannot afford) and move the devices to it.';
  END IF;
END $ldp_cap$;
