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

-- extension/sql/30_security.sql: the backing views are read-only for everyone (two
-- triggers on ldp.backing_refuse_write), and dropping a collection or stream drops what
-- other roles built on its view (issue 27.3, 27.5)
CREATE FUNCTION @extschema@.backing_refuse_write() RETURNS trigger
  LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  RAISE EXCEPTION 'cannot % through view %.%: it is read-only', TG_OP, pg_catalog.quote_ident(TG_TABLE_SCHEMA),
    pg_catalog.quote_ident(TG_TABLE_NAME)
    USING ERRCODE = 'insufficient_privilege',
          DETAIL = CASE WHEN TG_TABLE_SCHEMA = 'ldp_collections'
                        THEN 'A collection''s closed epochs change only through ldp''s functions; its privileges (close = UPDATE) are what they check.'
                        ELSE 'A THRESH stream''s reports and history change only through ldp''s functions; its privileges (submit = INSERT, close = UPDATE) are what they check.' END,
          HINT = CASE WHEN TG_TABLE_SCHEMA = 'ldp_collections'
                      THEN 'Close epochs with CALL ldp.close_epoch(name, epoch[, refresh]) or CALL ldp.close_due_epochs(name); drop the collection with ldp.drop_collection(name).'
                      ELSE 'Submit with ldp.thresh_submit_votes, ldp.thresh_submit_estimates or ldp.thresh_submit_histograms; close with CALL ldp.thresh_close_votes(name) and CALL ldp.thresh_close_epoch(name).' END;
END $$;
REVOKE ALL ON FUNCTION @extschema@.backing_refuse_write() FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.backing_refuse_write() IS 'Internal: trigger function of the views backing collections and THRESH streams (triggers ldp_read_only, ldp_read_only_row): refuses every write through them (42501), naming the ldp function to use.';
CREATE FUNCTION @extschema@.backing_protect(object regclass) RETURNS void
  LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  EXECUTE pg_catalog.format('CREATE OR REPLACE TRIGGER ldp_read_only_row INSTEAD OF INSERT OR UPDATE OR DELETE ON %s'
                            ' FOR EACH ROW EXECUTE FUNCTION @extschema@.backing_refuse_write()', object);
  EXECUTE pg_catalog.format('CREATE OR REPLACE TRIGGER ldp_read_only BEFORE INSERT OR UPDATE OR DELETE ON %s'
                            ' FOR EACH STATEMENT EXECUTE FUNCTION @extschema@.backing_refuse_write()', object);
END $$;
REVOKE ALL ON FUNCTION @extschema@.backing_protect(regclass) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.backing_protect(regclass) IS 'Internal: creates the triggers that make a view backing a collection or THRESH stream read-only (ldp.backing_refuse_write).';
CREATE OR REPLACE FUNCTION @extschema@.backing_create(schema name, name text, owner oid, definition text, what text)
  RETURNS void LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  rel name := @extschema@.backing_name(name);
BEGIN
  EXECUTE pg_catalog.format('CREATE VIEW %I.%I WITH (security_barrier) AS %s', schema, rel, definition);
  PERFORM @extschema@.backing_protect(pg_catalog.format('%I.%I', schema, rel)::regclass);
  EXECUTE pg_catalog.format('ALTER VIEW %I.%I OWNER TO %s', schema, rel, owner::regrole);
  EXECUTE pg_catalog.format('COMMENT ON VIEW %I.%I IS %L', schema, rel,
    pg_catalog.format('Backs the ldp %s %s: its owner and grants are the %s''s (README "Security and privileges"). Made by ldp; drop the %s with ldp''s function, or with DROP VIEW, DROP OWNED.',
                      what, pg_catalog.quote_ident(name), what, what));
END $$;
REVOKE ALL ON FUNCTION @extschema@.backing_create(name, text, oid, text, text) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.backing_create(name, text, oid, text, text) IS 'Internal: creates the view backing a collection or THRESH stream, read-only, owned by its owner.';
CREATE FUNCTION @extschema@.backing_drop(object regclass) RETURNS void
  LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  EXECUTE pg_catalog.format('DROP VIEW %s CASCADE', object);
END $$;
REVOKE ALL ON FUNCTION @extschema@.backing_drop(regclass) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.backing_drop(regclass) IS 'Internal: drops the view backing a collection or THRESH stream and, with a NOTICE, the objects of any role that depend on it (DROP VIEW ... CASCADE).';

-- extension/sql/40_collections.sql: the summary call checked as resolved over the source
-- (only casts between pg_catalog's and ldp's types), the view names its source (a
-- dependency PostgreSQL tracks), a WARNING for a superuser owner, drop with CASCADE
-- (issue 27.5)
CREATE FUNCTION @extschema@.collection_call_check(summary text, source regclass) RETURNS void
  AS 'MODULE_PATHNAME', 'ldp_collection_call_check' LANGUAGE C STABLE STRICT;
REVOKE ALL ON FUNCTION @extschema@.collection_call_check(text, regclass) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.collection_call_check(text, regclass) IS 'Internal: checks a collection''s summary call as PostgreSQL resolves it over its source (nothing is run): one ldp aggregate whose arguments are columns, constants and conversions between types of pg_catalog and ldp; else error 22023.';
CREATE OR REPLACE FUNCTION @extschema@.collection_source(c @extschema@.collections) RETURNS text
  LANGUAGE plpgsql STABLE STRICT SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  qualified text;
  col_type regtype;
  call text[];
  state text;
  msg text;
BEGIN
  SELECT pg_catalog.format('%I.%I', n.nspname, r.relname) INTO qualified
  FROM pg_catalog.pg_class r JOIN pg_catalog.pg_namespace n ON n.oid = r.relnamespace
  WHERE r.oid = c.source;
  IF qualified IS NULL THEN
    RAISE EXCEPTION 'the source table of collection "%" no longer exists', c.name
      USING ERRCODE = 'undefined_table',
            HINT = 'Point it at the table that replaced it with ldp.alter_collection_source (its closed epochs are kept), or drop it with ldp.drop_collection.';
  END IF;
  SELECT a.atttypid INTO col_type FROM pg_catalog.pg_attribute a
  WHERE a.attrelid = c.source AND a.attname = c.time_column AND a.attnum > 0 AND NOT a.attisdropped;
  IF col_type IS NULL THEN
    RAISE EXCEPTION 'the time column "%" of collection "%" no longer exists in %', c.time_column, c.name, qualified
      USING ERRCODE = 'undefined_column',
            HINT = 'Restore the column, or point the collection at a source that has it with ldp.alter_collection_source.';
  END IF;
  IF col_type <> 'timestamptz'::regtype THEN
    RAISE EXCEPTION 'the time column "%" of collection "%" is now %, not timestamptz', c.time_column, c.name, col_type
      USING ERRCODE = 'datatype_mismatch',
            HINT = 'Epochs are instants: change the column back, or make a view that converts it and point the collection at the view with ldp.alter_collection_source.';
  END IF;
  call := @extschema@.collection_summary_call(c.summary);
  IF call[1] <> '@extschema@' OR NOT EXISTS (
      SELECT 1 FROM pg_catalog.pg_aggregate a JOIN pg_catalog.pg_proc p ON p.oid = a.aggfnoid
      WHERE p.pronamespace = '@extschema@'::regnamespace AND p.proname = call[2]) THEN
    RAISE EXCEPTION 'a collection''s summary must be one call of an ldp aggregate: %.% is not one', call[1], call[2]
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  BEGIN
    PERFORM @extschema@.collection_call_check(c.summary, c.source);
  EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, msg = MESSAGE_TEXT;
    IF state = '22023' THEN  -- the check's own refusals name what they refuse
      RAISE;
    END IF;
    RAISE EXCEPTION 'the summary of collection "%" does not run on %: %', c.name, qualified, msg
      USING ERRCODE = state, DETAIL = pg_catalog.format('Its summary is %s.', c.summary),
            HINT = 'Restore what changed in the source (a column renamed, dropped or of another type), or point the collection at a source it runs on with ldp.alter_collection_source.';
  END;
  RETURN qualified;
END $$;
COMMENT ON FUNCTION @extschema@.collection_source(@extschema@.collections) IS 'Internal: the schema-qualified, quoted name of a collection''s source table, after checking the source, its timestamptz time column and the summary call again (as written and as resolved over the source).';
DROP FUNCTION @extschema@.collection_view_query(text);
CREATE FUNCTION @extschema@.collection_view_query(name text, source regclass) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT SET search_path = pg_catalog, pg_temp AS $$
  SELECT pg_catalog.format('SELECT e.epoch, e.epoch_start, e.reports, e.closed_at, e.summary'
                           ' FROM @extschema@.collection_epochs e WHERE e.collection = %L'
                           ' AND %L::pg_catalog.regclass IS NOT NULL', name, source::oid) $$;
REVOKE ALL ON FUNCTION @extschema@.collection_view_query(text, regclass) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.collection_view_query(text, regclass) IS 'Internal: the query of the view backing a collection (its closed epochs), which names its source so that PostgreSQL tracks the dependency.';
CREATE FUNCTION @extschema@.collection_owner_warning(name text, owner regrole) RETURNS void
  LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF (SELECT r.rolsuper FROM pg_catalog.pg_roles r WHERE r.oid = owner) THEN
    RAISE WARNING 'collection "%" is owned by a superuser: its source query will run as a superuser at every close', name
      USING DETAIL = 'Whatever the source calls (a view''s functions, its tables'' policies) then runs with a superuser''s rights, whoever closes it.',
            HINT = pg_catalog.format('Give it to a role that may read its source and little else: SELECT ldp.alter_collection_owner(%L, ''<role>'').', name);
  END IF;
END $$;
REVOKE ALL ON FUNCTION @extschema@.collection_owner_warning(text, regrole) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.collection_owner_warning(text, regrole) IS 'Internal: warns when a collection''s owner is a superuser (its source query runs as one at every close).';
CREATE OR REPLACE FUNCTION @extschema@._create_collection(caller regrole, name text, source regclass, time_column text,
    epoch_length interval, summary text, starts_at timestamptz)
  RETURNS void LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  c @extschema@.collections;
  result_type regtype;
BEGIN
  IF name IS NULL OR source IS NULL OR time_column IS NULL OR epoch_length IS NULL OR summary IS NULL THEN
    RAISE EXCEPTION 'only starts_at may be NULL' USING ERRCODE = 'null_value_not_allowed';
  END IF;
  PERFORM @extschema@.backing_name_free('ldp_collections', name, 'collection',
    EXISTS (SELECT 1 FROM @extschema@.collection_catalog x WHERE x.name = _create_collection.name));
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
  PERFORM @extschema@.collection_time_check(name, source, time_column);
  c := ROW(name, source, time_column, epoch_length, summary, 'mean',
           coalesce(starts_at, '1970-01-01 00:00+00'), pg_catalog.now(), caller, NULL, NULL);
  -- source, time column and summary call (collection_source checks them all), then
  -- the call must run on the source (one row, so that parameters are checked), as
  -- the caller: the collection's owner
  result_type := @extschema@.collection_probe(c, caller);
  SELECT k.kind INTO c.kind FROM @extschema@.summary_kinds k WHERE k.summary_type = result_type;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'a collection''s summary must return one of the types of ldp.summary_kinds (%), not %',
      (SELECT pg_catalog.string_agg(k.summary_type::text, ', ' ORDER BY k.kind) FROM @extschema@.summary_kinds k),
      result_type
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  INSERT INTO @extschema@.collection_catalog (name, source, time_column, epoch_length, summary, kind, starts_at, created_at)
  VALUES (c.name, c.source, c.time_column, c.epoch_length, c.summary, c.kind, c.starts_at, c.created_at);
  PERFORM @extschema@.backing_create('ldp_collections', name, caller, @extschema@.collection_view_query(name, source), 'collection');
  PERFORM @extschema@.collection_owner_warning(name, caller);
END $$;
REVOKE ALL ON FUNCTION @extschema@._create_collection(regrole, text, regclass, text, interval, text, timestamptz) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@._create_collection(regrole, text, regclass, text, interval, text, timestamptz) IS 'Internal: ldp.create_collection run as the catalog''s owner for the calling role.';
CREATE OR REPLACE FUNCTION @extschema@._drop_collection(caller regrole, name text) RETURNS void
  LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  c @extschema@.collections;
BEGIN
  c := @extschema@.collection_for(caller, name, 'OWNER');
  DELETE FROM @extschema@.collection_catalog x WHERE x.name = c.name;
  PERFORM @extschema@.backing_drop(c.backing_view);
END $$;
REVOKE ALL ON FUNCTION @extschema@._drop_collection(regrole, text) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@._drop_collection(regrole, text) IS 'Internal: ldp.drop_collection run as the catalog''s owner for the calling role.';
COMMENT ON FUNCTION @extschema@.drop_collection(text) IS 'Forgets a collection and its closed epochs, and drops its view with what any role built on it (CASCADE, with a NOTICE); the source table is left alone. Its owner only.';
CREATE OR REPLACE FUNCTION @extschema@._alter_collection_owner(caller regrole, name text, new_owner regrole) RETURNS void
  LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  c @extschema@.collections := @extschema@.collection_for(caller, name, 'OWNER');
BEGIN
  PERFORM @extschema@.backing_set_owner(caller, c.backing_view, new_owner, 'collection');
  -- the new owner must be able to run the collection's query (as at its creation)
  PERFORM @extschema@.collection_probe(c, new_owner);
  PERFORM @extschema@.collection_owner_warning(name, new_owner);
END $$;
REVOKE ALL ON FUNCTION @extschema@._alter_collection_owner(regrole, text, regrole) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@._alter_collection_owner(regrole, text, regrole) IS 'Internal: ldp.alter_collection_owner run as the catalog''s owner for the calling role.';

-- extension/sql/50_thresh.sql: thresh_drop drops with CASCADE (issue 27.5)
CREATE OR REPLACE FUNCTION @extschema@._thresh_drop(caller regrole, name text) RETURNS void
  LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  s @extschema@.thresh_streams := @extschema@.thresh_stream_for(caller, name, 'OWNER', true);
BEGIN
  DELETE FROM @extschema@.thresh_votes WHERE stream = s.id;
  DELETE FROM @extschema@.thresh_estimates WHERE stream = s.id;
  DELETE FROM @extschema@.thresh_histograms WHERE stream = s.id;
  DELETE FROM @extschema@.thresh_catalog WHERE id = s.id;
  PERFORM @extschema@.backing_drop(s.backing_view);
END $$;
REVOKE ALL ON FUNCTION @extschema@._thresh_drop(regrole, text) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@._thresh_drop(regrole, text) IS 'Internal: ldp.thresh_drop run as the catalog''s owner for the calling role.';
COMMENT ON FUNCTION @extschema@.thresh_drop(text) IS 'Deletes a THRESH stream with its reports and history, and drops its view with what any role built on it (CASCADE, with a NOTICE). Its owner only.';

-- The existing collections and streams (issue 27): every backing view becomes read-only;
-- every collection's view is re-made naming its source (CREATE OR REPLACE VIEW keeps its
-- owner, grants, triggers and what other roles built on it); a WARNING for each
-- collection whose source no longer exists, and for each collection and stream owned
-- by a superuser.
DO $ldp_views$
DECLARE
  r record;
BEGIN
  FOR r IN SELECT v.oid::regclass AS view FROM pg_catalog.pg_class v
           WHERE v.relnamespace IN ('ldp_collections'::regnamespace, 'ldp_thresh_streams'::regnamespace)
             AND v.relkind = 'v' ORDER BY v.oid LOOP
    PERFORM @extschema@.backing_protect(r.view);
  END LOOP;
  FOR r IN SELECT x.name, x.source, v.oid::regclass AS view, a.rolsuper,
                  EXISTS (SELECT 1 FROM pg_catalog.pg_class s WHERE s.oid = x.source) AS source_exists
           FROM @extschema@.collection_catalog x
           JOIN pg_catalog.pg_class v ON v.relnamespace = 'ldp_collections'::regnamespace
                                     AND v.relname = @extschema@.backing_name(x.name)
           JOIN pg_catalog.pg_roles a ON a.oid = v.relowner
           ORDER BY x.name LOOP
    -- An extension script may replace only the extension's own objects (PostgreSQL's
    -- rule since CVE-2022-2625): the view is a member for the statement and is
    -- released after it, as 0.7.0 released the views it made (no initial privileges
    -- are left: pg_dump dumps its grants as those of a view made by create_collection).
    EXECUTE pg_catalog.format('ALTER EXTENSION ldp ADD VIEW %s', r.view);
    EXECUTE pg_catalog.format('CREATE OR REPLACE VIEW %s WITH (security_barrier) AS %s', r.view,
                              @extschema@.collection_view_query(r.name, r.source));
    EXECUTE pg_catalog.format('ALTER EXTENSION ldp DROP VIEW %s', r.view);
    DELETE FROM pg_catalog.pg_init_privs i WHERE i.classoid = 'pg_catalog.pg_class'::regclass AND i.objoid = r.view;
    IF NOT r.source_exists THEN
      RAISE WARNING 'collection "%": its source no longer exists', r.name
        USING DETAIL = pg_catalog.format('Its source was the relation of OID %s: its closes fail, and a relation created later with that OID would become its source.', r.source::oid),
              HINT = pg_catalog.format('Point it at the table that replaced it, SELECT ldp.alter_collection_source(%L, ''<table>''), or drop it: SELECT ldp.drop_collection(%L).', r.name, r.name);
    END IF;
    IF r.rolsuper THEN
      RAISE WARNING 'collection "%" is owned by a superuser: its source query runs as a superuser at every close', r.name
        USING DETAIL = 'Whatever the source calls runs with a superuser''s rights, whoever closes it. Before 0.10.0 a role granted close on it could also write its closed epochs through its view; the views are read-only now.',
              HINT = pg_catalog.format('Give it to a role that may read its source and little else: SELECT ldp.alter_collection_owner(%L, ''<role>''); CALL ldp.close_epoch(%L, <epoch>, true) recomputes an epoch.', r.name, r.name);
    END IF;
  END LOOP;
  FOR r IN SELECT t.name FROM @extschema@.thresh_catalog t
           JOIN pg_catalog.pg_class v ON v.relnamespace = 'ldp_thresh_streams'::regnamespace
                                     AND v.relname = @extschema@.backing_name(t.name)
           JOIN pg_catalog.pg_roles a ON a.oid = v.relowner
           WHERE a.rolsuper ORDER BY t.name LOOP
    RAISE WARNING 'THRESH stream "%" is owned by a superuser', r.name
      USING DETAIL = 'Before 0.10.0 a role granted submit or close on it could write its history through its view, bypassing row-level security; the views are read-only now.',
            HINT = pg_catalog.format('Check its history (ldp.thresh_history(%L)) and give it to an ordinary role: SELECT ldp.alter_thresh_owner(%L, ''<role>'').', r.name, r.name);
  END LOOP;
END $ldp_views$;

-- extension/sql/40_collections.sql: a close counts the reports its summary takes in (rows
-- whose summary columns are all NULL are skipped, as the aggregates skip them) (issue 34)
CREATE FUNCTION @extschema@.collection_summary_columns(summary text) RETURNS text[]
  AS 'MODULE_PATHNAME', 'ldp_collection_summary_columns' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.collection_summary_columns(text) IS 'Internal: the column names among the arguments of a collection''s summary call (checked as by collection_summary_call), each once: a row whose columns are all NULL is no report (the aggregates skip it).';

-- A query over the source rows with time in [$1, $2), grouped by epoch start:
-- (bin timestamptz, n bigint[, s summary]). Ungrouped (one epoch: [$1, $2) is it),
-- bin is $1 and no row is binned. n counts the reports: the rows whose summary
-- columns are not all NULL (the aggregates skip the others).
CREATE OR REPLACE FUNCTION @extschema@.collection_scan(c @extschema@.collections, with_summary boolean,
                                            grouped boolean DEFAULT true) RETURNS text
  LANGUAGE sql STABLE STRICT SET search_path = pg_catalog, pg_temp AS $$
  SELECT pg_catalog.format('SELECT %s AS bin, pg_catalog.count(*)%s AS n%s FROM %s WHERE %I >= $1 AND %I < $2%s',
                CASE WHEN grouped THEN pg_catalog.format('pg_catalog.date_bin(%L::interval, %I, %L::timestamptz)',
                                                         c.epoch_length, c.time_column, c.starts_at)
                     ELSE '$1::timestamptz' END,
                (SELECT ' FILTER (WHERE pg_catalog.num_nonnulls(' || pg_catalog.string_agg(pg_catalog.quote_ident(col), ', ') || ') > 0)'
                 FROM pg_catalog.unnest(@extschema@.collection_summary_columns(c.summary)) AS col),
                CASE WHEN with_summary THEN pg_catalog.format(', (%s' || pg_catalog.chr(10) || ') AS s', c.summary) ELSE '' END,
                @extschema@.collection_source(c), c.time_column, c.time_column,
                CASE WHEN grouped THEN ' GROUP BY 1' ELSE '' END) $$;
COMMENT ON FUNCTION @extschema@.collection_scan(@extschema@.collections, boolean, boolean) IS 'Internal: the query that counts (and summarizes) a collection''s source rows per epoch between two instants.';

-- extension/sql/40_collections.sql -> 41_collection_close.sql: closing moves to its own
-- file; close_epoch gains accept_fewer, late_reports its late/deleted/status columns,
-- close_due_epochs becomes a C procedure that commits its chunks (issue 34)
DROP PROCEDURE @extschema@.close_epoch(text, bigint, boolean);
DROP FUNCTION @extschema@._close_epoch(regrole, text, bigint, boolean);
DROP FUNCTION @extschema@._close_due_epochs(regrole, text);
DROP FUNCTION @extschema@.late_reports(text);
DROP FUNCTION @extschema@._late_reports(regrole, text);
DROP FUNCTION @extschema@.collection_close_range(@extschema@.collections, bigint, bigint, boolean);

-- extension/sql/41_collection_close.sql (new in 0.10.0)

------------------------------------------------------------------------------
-- Closing a collection's epochs (README "Collections and epochs"): what is closed is
-- a set of epochs kept in the catalog (collection_catalog.closed); an epoch with
-- reports also gets a row of ldp.collection_epochs, an epoch without none. Nothing
-- closed is ever replaced by a summary of fewer reports unless asked (accept_fewer);
-- close_due_epochs closes the due epochs nearest now first, skips a run of empty
-- epochs in one probe of the source, and works in chunks of a bounded number of
-- epochs that it commits one by one (src/pg/collections/close_due.cpp). The time is
-- ldp.collection_clock(): now(), moved by the superuser-only setting
-- ldp.clock_offset (a testing aid). A clock that ran ahead shows itself as a close
-- later than now: what it closed that has not ended is open again, and what it
-- stored is closed again once it has ended.
------------------------------------------------------------------------------

ALTER TABLE @extschema@.collection_catalog
  ADD COLUMN closed pg_catalog.int8multirange NOT NULL DEFAULT '{}',
  ADD COLUMN last_close_at timestamptz;
COMMENT ON COLUMN @extschema@.collection_catalog.closed IS 'The closed epochs (with or without reports); those with reports have a row of ldp.collection_epochs.';
COMMENT ON COLUMN @extschema@.collection_catalog.last_close_at IS 'The latest time a close of this collection ran at (by ldp.collection_clock): a later one than now means the clock ran ahead.';

CREATE FUNCTION @extschema@.collection_clock() RETURNS timestamptz
  AS 'MODULE_PATHNAME', 'ldp_collection_clock' LANGUAGE C STABLE PARALLEL SAFE;
REVOKE ALL ON FUNCTION @extschema@.collection_clock() FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.collection_clock() IS 'Internal: the time the collections'' closes go by: now() plus the superuser-only setting ldp.clock_offset (seconds; 0 but in tests).';

-- The end of an epoch (the start of the next), or 22023 naming the epoch itself.
CREATE FUNCTION @extschema@.collection_checked_end(c @extschema@.collections, epoch bigint) RETURNS timestamptz
  LANGUAGE plpgsql STABLE STRICT SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  RETURN @extschema@.collection_epoch_start(c, epoch + 1);
EXCEPTION WHEN datetime_field_overflow OR numeric_value_out_of_range THEN
  RAISE EXCEPTION 'epoch % of collection "%" is outside the range of timestamps', epoch, c.name
    USING ERRCODE = 'invalid_parameter_value';
END $$;
COMMENT ON FUNCTION @extschema@.collection_checked_end(@extschema@.collections, bigint) IS 'Internal: the instant an epoch of a collection row ends, or error 22023 naming the epoch when that is not a representable time.';

-- The collection's summary call still runs on its source, as its owner, and returns
-- its kind's type: checked by planning it over no row (nothing of the source is
-- read). A column renamed, dropped or retyped fails here with the collection named.
CREATE FUNCTION @extschema@.collection_check_call(c @extschema@.collections) RETURNS void
  LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  source text := @extschema@.collection_source(c);
  got regtype;
  state text;
  msg text;
BEGIN
  BEGIN
    SELECT r.t INTO got
    FROM @extschema@._as_role(c.owner, pg_catalog.format('SELECT pg_catalog.pg_typeof((%s' || pg_catalog.chr(10) || ')) FROM %s WHERE false',
                                                         c.summary, source), NULL, NULL) AS r(t regtype);
  EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, msg = MESSAGE_TEXT;
    RAISE EXCEPTION 'the summary of collection "%" does not run on %: %', c.name, source, msg
      USING ERRCODE = state, DETAIL = pg_catalog.format('Its summary is %s.', c.summary),
            HINT = 'Restore what changed in the source (a column renamed, dropped or of another type), or point the collection at a source it runs on with ldp.alter_collection_source.';
  END;
  IF got IS DISTINCT FROM @extschema@.collection_summary_type(c)::regtype THEN
    RAISE EXCEPTION 'the summary of collection "%" now returns %, not % (a column it reads changed type)', c.name, got,
                    @extschema@.collection_summary_type(c)
      USING ERRCODE = 'datatype_mismatch', DETAIL = pg_catalog.format('Its summary is %s.', c.summary),
            HINT = 'Change the column of the source back, or point the collection at a source where it returns its kind with ldp.alter_collection_source.';
  END IF;
END $$;
REVOKE ALL ON FUNCTION @extschema@.collection_check_call(@extschema@.collections) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.collection_check_call(@extschema@.collections) IS 'Internal: checks that a collection''s summary call still plans on its source as its owner and returns its kind''s type; else an error naming the collection.';

-- Stores the summaries of epochs lo..hi of c with one scan of the source (run as the
-- collection's owner): an epoch with reports gets a row, or its row is replaced if
-- the source holds at least as many reports for it as the row counted. Fewer ('the
-- source lost rows since the close'): mode 'refuse' raises 55000, 'accept' replaces
-- (or deletes the row when none are left), 'keep' keeps the row with a WARNING.
-- Returns the number of rows written.
CREATE FUNCTION @extschema@.collection_close_range(c @extschema@.collections, lo bigint, hi bigint, mode text)
  RETURNS bigint LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  at timestamptz := @extschema@.collection_clock();
  written bigint;
  fewer bigint[];
  f bigint[];
BEGIN
  PERFORM @extschema@.collection_check_call(c);
  EXECUTE pg_catalog.format(
    'WITH r AS MATERIALIZED ('
    '  SELECT @extschema@.collection_epoch_of($4, r.bin) AS e, r.n, r.s::@extschema@.summary AS s'
    '  FROM @extschema@._as_role($5, $6, $1, $2) AS r(bin timestamptz, n bigint, s %s) WHERE r.n > 0),'
    ' old AS (SELECT ce.epoch, ce.reports FROM @extschema@.collection_epochs ce'
    '         WHERE ce.collection = $3 AND ce.epoch BETWEEN $7 AND $8),'
    ' up AS (INSERT INTO @extschema@.collection_epochs AS ce (collection, epoch, epoch_start, reports, closed_at, summary)'
    '        SELECT $3, r.e, @extschema@.collection_epoch_start($4, r.e), r.n, $9, r.s FROM r'
    '        ON CONFLICT (collection, epoch) DO UPDATE'
    '          SET reports = excluded.reports, summary = excluded.summary, closed_at = excluded.closed_at'
    '          WHERE ce.reports <= excluded.reports OR $10'
    '        RETURNING ce.epoch)'
    ' SELECT (SELECT pg_catalog.count(*) FROM up),'
    '        (SELECT pg_catalog.array_agg(ARRAY[o.epoch, o.reports, coalesce(r.n, 0)] ORDER BY o.epoch)'
    '         FROM old o LEFT JOIN r ON r.e = o.epoch'
    '         WHERE coalesce(r.n, 0) < o.reports AND o.epoch NOT IN (SELECT u.epoch FROM up u))',
    @extschema@.collection_summary_type(c))
  INTO written, fewer
  USING @extschema@.collection_checked_start(c, lo), @extschema@.collection_checked_end(c, hi),
        c.name, c, c.owner, @extschema@.collection_scan(c, true, lo < hi), lo, hi, at, mode = 'accept';
  IF fewer IS NULL THEN
    RETURN written;
  END IF;
  FOREACH f SLICE 1 IN ARRAY fewer LOOP
    IF mode = 'refuse' THEN
      RAISE EXCEPTION 'epoch % of collection "%" keeps its summary of % reports: the source now holds % for it', f[1], c.name, f[2], f[3]
        USING ERRCODE = 'object_not_in_prerequisite_state',
              DETAIL = 'Rows were deleted from the source since the epoch was closed; a refresh never replaces a summary by one of fewer reports unless asked.',
              HINT = pg_catalog.format('Keep it (do nothing), or CALL ldp.close_epoch(%L, %s, refresh => true, accept_fewer => true) to replace it by the source''s %s reports.',
                                       c.name, f[1], f[3]);
    ELSIF mode = 'accept' THEN  -- no report left for it: the epoch is closed empty
      DELETE FROM @extschema@.collection_epochs ce WHERE ce.collection = c.name AND ce.epoch = f[1];
      written := written + 1;
    ELSE
      UPDATE @extschema@.collection_epochs ce SET closed_at = at WHERE ce.collection = c.name AND ce.epoch = f[1];
      RAISE WARNING 'collection "%": epoch % keeps its summary of % reports; the source now holds % for it', c.name, f[1], f[2], f[3]
        USING DETAIL = 'Rows were deleted from the source since the epoch was closed.',
              HINT = pg_catalog.format('CALL ldp.close_epoch(%L, %s, refresh => true, accept_fewer => true) replaces it by the source''s %s reports.',
                                       c.name, f[1], f[3]);
    END IF;
  END LOOP;
  RETURN written;
END $$;
REVOKE ALL ON FUNCTION @extschema@.collection_close_range(@extschema@.collections, bigint, bigint, text) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.collection_close_range(@extschema@.collections, bigint, bigint, text) IS 'Internal: stores the summaries of the epochs lo..hi of a collection that have reports in one scan of its source, never replacing a stored summary by one of fewer reports but in mode accept (refuse: error 55000; keep: a WARNING).';

-- Marks epochs closed and records the close's time.
CREATE FUNCTION @extschema@.collection_mark_closed(c @extschema@.collections, epochs pg_catalog.int8multirange)
  RETURNS void LANGUAGE sql SET search_path = pg_catalog, pg_temp AS $$
  UPDATE @extschema@.collection_catalog d
  SET closed = d.closed + epochs,
      last_close_at = greatest(d.last_close_at, @extschema@.collection_clock())
  WHERE d.name = c.name $$;
REVOKE ALL ON FUNCTION @extschema@.collection_mark_closed(@extschema@.collections, pg_catalog.int8multirange) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.collection_mark_closed(@extschema@.collections, pg_catalog.int8multirange) IS 'Internal: adds epochs to a collection''s closed set and records the time of the close.';

-- The closed set as the next close will see it: a clock that ran ahead (a close later
-- than now) may have closed epochs that have not ended, and stored epochs before they
-- ended; both are open again (the stored rows stay, and are closed again once ended).
CREATE FUNCTION @extschema@.collection_closed_now(c @extschema@.collections) RETURNS pg_catalog.int8multirange
  LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp AS $$
  SELECT CASE WHEN d.last_close_at IS NULL OR d.last_close_at <= @extschema@.collection_clock() THEN d.closed
              ELSE d.closed
                   - pg_catalog.int8multirange(pg_catalog.int8range(@extschema@.collection_epoch_of(c, @extschema@.collection_clock()), NULL))
                   - coalesce((SELECT pg_catalog.range_agg(pg_catalog.int8range(ce.epoch, ce.epoch, '[]'))
                               FROM @extschema@.collection_epochs ce
                               WHERE ce.collection = c.name AND ce.closed_at > @extschema@.collection_clock()), '{}')
         END
  FROM @extschema@.collection_catalog d WHERE d.name = c.name $$;
REVOKE ALL ON FUNCTION @extschema@.collection_closed_now(@extschema@.collections) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.collection_closed_now(@extschema@.collections) IS 'Internal: a collection''s closed epochs less those a clock that ran ahead closed before they ended (not ended now, or stored with a closed_at later than now).';

-- The newest due work: the highest run [a, b] of ended epochs that are not closed,
-- from epoch 0 (starts_at) or the lowest closed epoch on, and the newest epoch in it
-- that has reports or a stored row (newest; NULL for none). A run below every closed
-- epoch (or with nothing closed) is work only when it holds reports.
CREATE FUNCTION @extschema@.collection_due_work(c @extschema@.collections, closed pg_catalog.int8multirange,
                                                OUT a bigint, OUT b bigint, OUT newest bigint, OUT bottom boolean)
  LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  last_due bigint := @extschema@.collection_epoch_of(c, @extschema@.collection_clock()) - 1;
  open_runs pg_catalog.int8multirange;
  run pg_catalog.int8range;
  t timestamptz;
BEGIN
  IF last_due < least(0, pg_catalog.lower(closed)) THEN
    RETURN;
  END IF;
  open_runs := pg_catalog.int8multirange(pg_catalog.int8range(least(0, pg_catalog.lower(closed)), last_due, '[]')) - closed;
  IF pg_catalog.isempty(open_runs) THEN
    RETURN;
  END IF;
  SELECT r INTO run FROM pg_catalog.unnest(open_runs) AS r ORDER BY pg_catalog.lower(r) DESC LIMIT 1;
  a := pg_catalog.lower(run);
  b := pg_catalog.upper(run) - 1;
  bottom := pg_catalog.isempty(closed) OR pg_catalog.lower(closed) > b;
  SELECT r.t INTO t
  FROM @extschema@._as_role(c.owner, pg_catalog.format('SELECT pg_catalog.max(%I) FROM %s WHERE %I >= $1 AND %I < $2',
                                                       c.time_column, @extschema@.collection_source(c), c.time_column, c.time_column),
                            @extschema@.collection_checked_start(c, a), @extschema@.collection_checked_end(c, b)) AS r(t timestamptz);
  newest := greatest(@extschema@.collection_epoch_of(c, t),
                     (SELECT pg_catalog.max(ce.epoch) FROM @extschema@.collection_epochs ce
                      WHERE ce.collection = c.name AND ce.epoch BETWEEN a AND b));
END $$;
REVOKE ALL ON FUNCTION @extschema@.collection_due_work(@extschema@.collections, pg_catalog.int8multirange) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.collection_due_work(@extschema@.collections, pg_catalog.int8multirange) IS 'Internal: the newest run of ended epochs that are not closed, and its newest epoch with reports or a stored row (one probe of the source).';

------------------------------------------------------------------------------
-- The API: privileged twins (ldp_privileged) but close_due_epochs's chunks, which
-- close_due.cpp runs as the catalog's owner.
------------------------------------------------------------------------------

CREATE FUNCTION @extschema@._close_epoch(caller regrole, name text, epoch bigint, refresh boolean, accept_fewer boolean)
  RETURNS void LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  c @extschema@.collections;
  ends timestamptz;
BEGIN
  IF name IS NULL OR epoch IS NULL OR refresh IS NULL OR accept_fewer IS NULL THEN
    RAISE EXCEPTION 'close_epoch needs a name, an epoch, refresh and accept_fewer' USING ERRCODE = 'null_value_not_allowed';
  END IF;
  c := @extschema@.collection_for(caller, name, 'UPDATE');  -- concurrent closers wait here
  PERFORM @extschema@.collection_checked_start(c, epoch);
  ends := @extschema@.collection_checked_end(c, epoch);
  IF ends > @extschema@.collection_clock() THEN
    RAISE EXCEPTION 'epoch % of collection "%" has not ended yet (it ends at %)', epoch, name, ends
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF @extschema@.collection_closed_now(c) @> epoch AND NOT refresh THEN
    RETURN;  -- closed: left as it is
  END IF;
  PERFORM @extschema@.collection_close_range(c, epoch, epoch, CASE WHEN accept_fewer THEN 'accept' ELSE 'refuse' END);
  PERFORM @extschema@.collection_mark_closed(c, pg_catalog.int8multirange(pg_catalog.int8range(epoch, epoch, '[]')));
END $$;
REVOKE ALL ON FUNCTION @extschema@._close_epoch(regrole, text, bigint, boolean, boolean) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@._close_epoch(regrole, text, bigint, boolean, boolean) IS 'Internal: ldp.close_epoch run as the catalog''s owner for the calling role.';
CREATE PROCEDURE @extschema@.close_epoch(name text, epoch bigint, refresh boolean DEFAULT false, accept_fewer boolean DEFAULT false)
  AS 'MODULE_PATHNAME', 'ldp_privileged' LANGUAGE C;
COMMENT ON PROCEDURE @extschema@.close_epoch(text, bigint, boolean, boolean) IS 'Closes an ended epoch: stores its summary and report count (an epoch without reports is closed without a row). A closed epoch is left as it is unless refresh, which recomputes it to take in late reports, but never replaces its summary by one of fewer reports (rows deleted since the close: error 55000) unless accept_fewer. Needs the close privilege; the query runs as the collection''s owner.';

-- One chunk of close_due_epochs: the newest due work, at most `epochs` epochs with
-- reports (fewer when the stored summaries are large: about 32 MiB of them).
CREATE FUNCTION @extschema@._close_due_chunk(caller regrole, name text, epochs integer,
                                             OUT stored bigint, OUT more boolean, OUT first_epoch bigint, OUT last_epoch bigint)
  LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  c @extschema@.collections;
  now_closed pg_catalog.int8multirange;
  w record;
  size bigint;
  k bigint;
BEGIN
  IF name IS NULL THEN
    RAISE EXCEPTION 'close_due_epochs needs a collection name' USING ERRCODE = 'null_value_not_allowed';
  END IF;
  IF epochs IS NULL OR epochs < 1 THEN
    RAISE EXCEPTION 'a chunk of close_due_epochs closes at least one epoch, not %', epochs USING ERRCODE = 'invalid_parameter_value';
  END IF;
  c := @extschema@.collection_for(caller, name, 'UPDATE');  -- concurrent closers wait here
  PERFORM @extschema@.collection_source(c);  -- the definition still holds, even with nothing due
  stored := 0;
  more := false;
  -- a clock that ran ahead: what it closed too early is open from now on
  now_closed := @extschema@.collection_closed_now(c);
  UPDATE @extschema@.collection_catalog d SET closed = now_closed, last_close_at = @extschema@.collection_clock()
  WHERE d.name = c.name AND d.last_close_at > @extschema@.collection_clock();
  w := @extschema@.collection_due_work(c, now_closed);
  IF w.a IS NULL OR (w.newest IS NULL AND w.bottom) THEN
    RETURN;  -- nothing due
  END IF;
  first_epoch := w.a;
  IF w.newest IS NOT NULL THEN
    SELECT pg_catalog.octet_length(@extschema@.summary_send(x.summary)) INTO size  -- one detoasted
    FROM (SELECT ce.summary FROM @extschema@.collection_epochs ce WHERE ce.collection = c.name AND ce.summary IS NOT NULL
          ORDER BY ce.epoch DESC LIMIT 1) x;
    k := CASE WHEN size IS NULL THEN 1 ELSE least(epochs, greatest(1, 33554432 / size)) END;
    first_epoch := greatest(w.a, w.newest - k + 1);
    stored := @extschema@.collection_close_range(c, first_epoch, w.b, 'keep');
    IF w.bottom THEN  -- below every closed epoch, closed from the oldest with reports on
      first_epoch := coalesce((SELECT pg_catalog.min(ce.epoch) FROM @extschema@.collection_epochs ce
                               WHERE ce.collection = c.name AND ce.epoch BETWEEN first_epoch AND w.b), w.newest);
    END IF;
  END IF;
  last_epoch := w.b;
  PERFORM @extschema@.collection_mark_closed(c, pg_catalog.int8multirange(pg_catalog.int8range(first_epoch, last_epoch, '[]')));
  more := true;
END $$;
REVOKE ALL ON FUNCTION @extschema@._close_due_chunk(regrole, text, integer) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@._close_due_chunk(regrole, text, integer) IS 'Internal: one chunk of ldp.close_due_epochs, run as the catalog''s owner for the calling role: the newest run of due epochs that are not closed, closed down to its epochs epochs with reports (an empty run at once). more: call again.';
CREATE OR REPLACE PROCEDURE @extschema@.close_due_epochs(name text)
  AS 'MODULE_PATHNAME', 'ldp_close_due_epochs' LANGUAGE C;
COMMENT ON PROCEDURE @extschema@.close_due_epochs(text) IS 'Closes the ended epochs not closed yet, newest first: from the first report''s epoch (not before starts_at) or the first closed one on. Epochs without reports are closed without a row, a run of them at once. Works in chunks, each committed when the CALL is not inside a transaction block, for about half of statement_timeout (60 s without one); a NOTICE says when more are due. What pg_cron runs. Needs the close privilege; the query runs as the collection''s owner.';

CREATE FUNCTION @extschema@._late_reports(caller regrole, name text)
  RETURNS TABLE(epoch bigint, counted bigint, present bigint, late bigint, deleted bigint, status text)
  LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  c @extschema@.collections := @extschema@.collection_for(caller, name, 'SELECT');
  closed pg_catalog.int8multirange := @extschema@.collection_closed_now(c);
  at timestamptz := @extschema@.collection_clock();
  lo bigint;
  hi bigint;
BEGIN
  SELECT least(pg_catalog.min(ce.epoch), pg_catalog.lower(closed)), greatest(pg_catalog.max(ce.epoch), pg_catalog.upper(closed) - 1)
    INTO lo, hi
  FROM @extschema@.collection_epochs ce WHERE ce.collection = c.name;
  IF lo IS NULL THEN
    RETURN;
  END IF;
  RETURN QUERY
    SELECT coalesce(s.epoch, p.e), coalesce(s.reports, 0), coalesce(p.n, 0),
           greatest(coalesce(p.n, 0) - coalesce(s.reports, 0), 0), greatest(coalesce(s.reports, 0) - coalesce(p.n, 0), 0),
           CASE WHEN s.epoch IS NOT NULL AND (s.closed_at > at OR NOT closed @> s.epoch) THEN 'closed early'
                WHEN coalesce(p.n, 0) > coalesce(s.reports, 0) THEN 'late'
                WHEN coalesce(p.n, 0) < coalesce(s.reports, 0) THEN 'deleted'
                ELSE 'unchanged' END
    FROM (SELECT ce.epoch, ce.reports, ce.closed_at FROM @extschema@.collection_epochs ce WHERE ce.collection = c.name) s
    FULL JOIN (SELECT @extschema@.collection_epoch_of(c, r.bin) AS e, r.n
               FROM @extschema@._as_role(c.owner, @extschema@.collection_scan(c, false),
                                         @extschema@.collection_checked_start(c, lo),
                                         @extschema@.collection_checked_end(c, hi)) AS r(bin timestamptz, n bigint)
               WHERE r.n > 0) p ON p.e = s.epoch
    WHERE s.epoch IS NOT NULL OR closed @> p.e
    ORDER BY 1;
END $$;
REVOKE ALL ON FUNCTION @extschema@._late_reports(regrole, text) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@._late_reports(regrole, text) IS 'Internal: ldp.late_reports run as the catalog''s owner for the calling role.';
CREATE FUNCTION @extschema@.late_reports(name text)
  RETURNS TABLE(epoch bigint, counted bigint, present bigint, late bigint, deleted bigint, status text)
  AS 'MODULE_PATHNAME', 'ldp_privileged' LANGUAGE C VOLATILE;
COMMENT ON FUNCTION @extschema@.late_reports(text) IS 'Per closed epoch with a stored summary, and per closed epoch without one that now has reports: the reports its summary counted, the reports the source holds now (counted as the collection''s owner), late = present - counted when more, deleted = counted - present when fewer (net counts: rows deleted and rows added in one epoch offset each other), and status: unchanged, late (CALL ldp.close_epoch(name, epoch, true) takes them in), deleted (a refresh is refused unless accept_fewer) or closed early (by a clock that ran ahead; close_due_epochs closes it again once it has ended). Needs the read privilege.';

CREATE FUNCTION @extschema@._collection_status(caller regrole, name text)
  RETURNS TABLE(closed pg_catalog.int8multirange, stored_epochs bigint, last_due bigint, due boolean,
                closed_early bigint, reports_before_start bigint, last_close_at timestamptz)
  LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  c @extschema@.collections := @extschema@.collection_for(caller, name, 'SELECT');
  at timestamptz := @extschema@.collection_clock();
  now_closed pg_catalog.int8multirange := @extschema@.collection_closed_now(c);
  w record := @extschema@.collection_due_work(c, now_closed);
BEGIN
  RETURN QUERY
    SELECT d.closed,
           (SELECT pg_catalog.count(*) FROM @extschema@.collection_epochs ce WHERE ce.collection = c.name),
           @extschema@.collection_epoch_of(c, at) - 1,
           w.a IS NOT NULL AND NOT (w.newest IS NULL AND w.bottom),
           -- epochs stored with a later closed_at, and closed epochs that have not ended, once each
           (SELECT pg_catalog.count(*) FILTER (WHERE NOT (ce.epoch >= @extschema@.collection_epoch_of(c, at) AND d.closed @> ce.epoch))
            FROM @extschema@.collection_epochs ce WHERE ce.collection = c.name AND ce.closed_at > at)
             + (SELECT coalesce(pg_catalog.sum(pg_catalog.upper(r) - pg_catalog.lower(r)), 0)::bigint
                FROM pg_catalog.unnest(d.closed * pg_catalog.int8multirange(pg_catalog.int8range(@extschema@.collection_epoch_of(c, at), NULL))) AS r),
           (SELECT r.n FROM @extschema@._as_role(c.owner, pg_catalog.format('SELECT pg_catalog.count(*) FROM %s WHERE %I < $1',
                                                                           @extschema@.collection_source(c), c.time_column),
                                                 c.starts_at, NULL) AS r(n bigint)),
           d.last_close_at
    FROM @extschema@.collection_catalog d WHERE d.name = c.name;
END $$;
REVOKE ALL ON FUNCTION @extschema@._collection_status(regrole, text) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@._collection_status(regrole, text) IS 'Internal: ldp.collection_status run as the catalog''s owner for the calling role.';
CREATE FUNCTION @extschema@.collection_status(name text)
  RETURNS TABLE(closed pg_catalog.int8multirange, stored_epochs bigint, last_due bigint, due boolean,
                closed_early bigint, reports_before_start bigint, last_close_at timestamptz)
  AS 'MODULE_PATHNAME', 'ldp_privileged' LANGUAGE C VOLATILE;
COMMENT ON FUNCTION @extschema@.collection_status(text) IS 'A collection''s closing state: its closed epochs (one range when none is missing), how many have a stored summary, the last ended epoch, whether close_due_epochs has work (due), the epochs a clock that ran ahead closed before they ended (closed_early: close_due_epochs opens them again and closes them once ended), the source''s reports before starts_at (in no epoch close_due_epochs closes: a device clock that was reset, say), and the time of the last close. Needs the read privilege.';

-- (update only) an installation's closed epochs: those with a row, as before 0.10.0
UPDATE @extschema@.collection_catalog d
SET closed = coalesce((SELECT pg_catalog.range_agg(pg_catalog.int8range(e.epoch, e.epoch, '[]'))
                       FROM @extschema@.collection_epochs e WHERE e.collection = d.name), '{}'),
    last_close_at = (SELECT pg_catalog.max(e.closed_at) FROM @extschema@.collection_epochs e WHERE e.collection = d.name);

-- extension/sql/40_collections.sql: a collection exists for a role that may close it (its
-- owner's functions then answer 42501, not 42704), as for one that may read it (issue 34.5)
-- The privileged twins' view of a collection: its row, locked (one closer at a
-- time), if `caller` may use `privilege` on it; a collection on which the caller
-- holds no privilege (read, close or the one asked) does not exist for it.
CREATE OR REPLACE FUNCTION @extschema@.collection_for(caller oid, collection text, privilege text)
  RETURNS @extschema@.collections LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  c @extschema@.collections;
BEGIN
  SELECT * INTO c FROM @extschema@.collections x WHERE x.name = collection;
  -- it exists for a role that may read it, close it or do what it asks
  IF NOT FOUND OR NOT (@extschema@.has_privilege(caller, c.backing_view, 'SELECT')
                       OR @extschema@.has_privilege(caller, c.backing_view, 'UPDATE')
                       OR @extschema@.has_privilege(caller, c.backing_view, privilege)) THEN
    RAISE EXCEPTION 'collection "%" does not exist', collection
      USING ERRCODE = 'undefined_object', HINT = 'Create it with ldp.create_collection.';
  END IF;
  IF NOT @extschema@.has_privilege(caller, c.backing_view, privilege) THEN
    RAISE EXCEPTION 'permission denied for collection "%"', collection
      USING ERRCODE = 'insufficient_privilege',
            DETAIL = CASE privilege WHEN 'UPDATE' THEN 'Closing its epochs needs the close privilege.'
                                    WHEN 'SELECT' THEN 'Reading it needs the read privilege.'
                                    ELSE 'Only its owner (' || c.owner::text || ') may do this.' END,
            HINT = 'Its owner grants privileges with ldp.grant_collection.';
  END IF;
  PERFORM FROM @extschema@.collection_catalog x WHERE x.name = collection FOR UPDATE;
  SELECT * INTO c FROM @extschema@.collections x WHERE x.name = collection;  -- as it is now
  IF NOT FOUND THEN  -- dropped while we waited
    RAISE EXCEPTION 'collection "%" does not exist', collection USING ERRCODE = 'undefined_object';
  END IF;
  RETURN c;
END $$;
REVOKE ALL ON FUNCTION @extschema@.collection_for(oid, text, text) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.collection_for(oid, text, text) IS 'Internal: a collection''s row locked FOR UPDATE if the role may use the privilege on it; else error 42704 (no privilege on it) or 42501.';

-- extension/sql/40_collections.sql: a collection's time column checked by one helper (its
-- errors name the collection), and a replaced source re-pointed (issue 34.5)
-- The time column of a collection's source, at its creation and when its source
-- changes: it exists (42703) and is timestamptz (42804), the error naming the collection.
CREATE FUNCTION @extschema@.collection_time_check(name text, source regclass, time_column text) RETURNS void
  LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  col_type regtype;
BEGIN
  SELECT a.atttypid INTO col_type FROM pg_catalog.pg_attribute a
  WHERE a.attrelid = source AND a.attname = time_column AND a.attnum > 0 AND NOT a.attisdropped;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'the time column "%" of collection "%" does not exist in %', time_column, name, source
      USING ERRCODE = 'undefined_column';
  END IF;
  IF col_type <> 'timestamptz'::regtype THEN
    RAISE EXCEPTION 'the time column "%" of collection "%" must be timestamptz, not % (in %)', time_column, name, col_type, source
      USING ERRCODE = 'datatype_mismatch',
            HINT = 'Epochs are instants: a view over the table can convert the column (README "Collections and epochs").';
  END IF;
END $$;
REVOKE ALL ON FUNCTION @extschema@.collection_time_check(text, regclass, text) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.collection_time_check(text, regclass, text) IS 'Internal: checks that a source has a collection''s time column, of type timestamptz; else error 42703 or 42804 naming the collection.';

-- A new source for a collection (a table replaced, renamed or moved): checked as at
-- the collection's creation, by its owner, the summary of the same kind; the view is
-- replaced with the new source (CREATE OR REPLACE VIEW keeps its owner, grants,
-- comment and triggers, and moves the dependency). The closed epochs stay as they are.
CREATE FUNCTION @extschema@._alter_collection_source(caller regrole, name text, source regclass) RETURNS void
  LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  c @extschema@.collections := @extschema@.collection_for(caller, name, 'OWNER');
  result_type regtype;
BEGIN
  IF source IS NULL THEN
    RAISE EXCEPTION 'the new source of collection "%" must not be NULL', name USING ERRCODE = 'null_value_not_allowed';
  END IF;
  PERFORM @extschema@.collection_time_check(c.name, source, c.time_column);
  c.source := source;
  -- the call must run on the new source as the collection's owner (as at its creation)
  result_type := @extschema@.collection_probe(c, c.owner);
  IF result_type IS DISTINCT FROM @extschema@.collection_summary_type(c)::regtype THEN
    RAISE EXCEPTION 'the summary of collection "%" returns % on %, not % (the collection''s kind, %)',
      c.name, result_type, source, @extschema@.collection_summary_type(c), c.kind
      USING ERRCODE = 'datatype_mismatch', DETAIL = pg_catalog.format('Its summary is %s.', c.summary),
            HINT = 'A collection keeps one kind of summary: make a new collection over this source.';
  END IF;
  EXECUTE pg_catalog.format('CREATE OR REPLACE VIEW %s WITH (security_barrier) AS %s', c.backing_view,
                            @extschema@.collection_view_query(c.name, source));
  UPDATE @extschema@.collection_catalog x SET source = _alter_collection_source.source WHERE x.name = c.name;
END $$;
REVOKE ALL ON FUNCTION @extschema@._alter_collection_source(regrole, text, regclass) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@._alter_collection_source(regrole, text, regclass) IS 'Internal: ldp.alter_collection_source run as the catalog''s owner for the calling role.';
CREATE FUNCTION @extschema@.alter_collection_source(name text, source regclass) RETURNS void
  AS 'MODULE_PATHNAME', 'ldp_privileged' LANGUAGE C VOLATILE;
COMMENT ON FUNCTION @extschema@.alter_collection_source(text, regclass) IS 'Points a collection at another source (the table that replaced its own, say): the new source must have its time column (timestamptz) and run its summary, as its owner, returning the same kind of summary (checked as at creation). The closed epochs are kept; late_reports and refreshes then compare them with the new source. Its owner only.';
