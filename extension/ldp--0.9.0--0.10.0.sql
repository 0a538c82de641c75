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
BEGIN
  SELECT pg_catalog.format('%I.%I', n.nspname, r.relname) INTO qualified
  FROM pg_catalog.pg_class r JOIN pg_catalog.pg_namespace n ON n.oid = r.relnamespace
  WHERE r.oid = c.source;
  IF qualified IS NULL THEN
    RAISE EXCEPTION 'the source table of collection "%" no longer exists', c.name
      USING ERRCODE = 'undefined_table', HINT = 'Drop the collection with ldp.drop_collection.';
  END IF;
  SELECT a.atttypid INTO col_type FROM pg_catalog.pg_attribute a
  WHERE a.attrelid = c.source AND a.attname = c.time_column AND a.attnum > 0 AND NOT a.attisdropped;
  IF col_type IS NULL THEN
    RAISE EXCEPTION 'the time column "%" of collection "%" no longer exists in %', c.time_column, c.name, qualified
      USING ERRCODE = 'undefined_column';
  END IF;
  IF col_type <> 'timestamptz'::regtype THEN
    RAISE EXCEPTION 'the time column "%" of collection "%" is now %, not timestamptz', c.time_column, c.name, col_type
      USING ERRCODE = 'datatype_mismatch',
            HINT = 'Epochs are instants: change the column back, or make a view that converts it and a new collection over the view.';
  END IF;
  call := @extschema@.collection_summary_call(c.summary);
  IF call[1] <> '@extschema@' OR NOT EXISTS (
      SELECT 1 FROM pg_catalog.pg_aggregate a JOIN pg_catalog.pg_proc p ON p.oid = a.aggfnoid
      WHERE p.pronamespace = '@extschema@'::regnamespace AND p.proname = call[2]) THEN
    RAISE EXCEPTION 'a collection''s summary must be one call of an ldp aggregate: %.% is not one', call[1], call[2]
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  PERFORM @extschema@.collection_call_check(c.summary, c.source);
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
  col_type regtype;
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
              HINT = pg_catalog.format('Drop it: SELECT ldp.drop_collection(%L).', r.name);
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
