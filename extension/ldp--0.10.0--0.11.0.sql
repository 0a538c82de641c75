-- 0.10.0 -> 0.11.0: (the statements of extension/sql/*.sql that 0.11.0 adds or changes,
-- appended as each change lands; see CONTRIBUTING.md "Releasing a version")
\echo Use "ALTER EXTENSION ldp UPDATE TO '0.11.0'" to load this file. \quit

-- extension/sql/00_guard.sql (every update script starts with it)

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

-- extension/sql/00_types.sql: summary_kind's comment names every kind (issue 29)
COMMENT ON FUNCTION @extschema@.summary_kind(@extschema@.summary) IS 'The kind of a summary: its row in ldp.summary_kinds (mean, frequency, sketch, heavy, rappor).';

-- extension/sql/10_mean.sql: the comment cites the paper and docs/algorithms/means.md (issue 29)
COMMENT ON FUNCTION @extschema@.output_perturbation_epsilon(float8, float8) IS 'Effective one-round epsilon of 1BitMean at epsilon followed by output perturbation gamma (Ding et al. 2017, section 4; docs/algorithms/means.md#output-perturbation).';

-- extension/sql/50_thresh.sql: comments cite docs/algorithms/thresh.md and name the count sketch's reports (issue 29)
COMMENT ON COLUMN @extschema@.thresh_catalog.kind IS 'bernoulli (ldp.thresh_create: a mean, estimates) or histogram (ldp.heavythresh_create: HEAVYTHRESH, a frequency oracle from count-sketch reports); hashes, width and projection_error are NULL for bernoulli.';
COMMENT ON TABLE @extschema@.thresh_histograms IS 'Every accepted report of a histogram (HEAVYTHRESH) stream after a global update: the count sketch''s (hash_index, coefficient, +1/-1) on the user''s projected histogram (at most one per user per epoch).';
COMMENT ON FUNCTION @extschema@.heavythresh_derive(bigint, int, bigint, bigint, int, float8, float8, int, int, float8, float8, float8) IS 'HEAVYTHRESH parameters (docs/algorithms/thresh.md#heavythresh), with the arguments of ldp.heavythresh_create in its order: a, b and the vote threshold as for a Bernoulli stream, the projection error y_Phi = sqrt(2 ln(16wnT/delta)/(t l)) with w = hashes * width, thresholds tau_b = 2(b+1) y_Phi (or the threshold unit), the truthful reports a device can afford and its worst-case privacy loss (<= eps, as ldp.thresh_derive; the same refusals).';
COMMENT ON FUNCTION @extschema@.heavythresh_create(text, bigint, int, int, bigint, int, float8, float8, int, int, float8, float8, float8) IS 'Creates a histogram (HEAVYTHRESH) stream owned by the calling role: THRESH''s votes on users'' projected histograms of epoch_rounds samples (Phi = the hashtogram''s hashes, hashes * width <= 2^22, width a power of two) and a hashtogram frequency oracle published every epoch, re-estimated on global updates (docs/algorithms/thresh.md#heavythresh). The other arguments as for ldp.thresh_create. Not executable by PUBLIC: GRANT EXECUTE to the roles that may create streams.';
COMMENT ON FUNCTION @extschema@.thresh_submit_histograms(text, bigint, bigint[], int[], int[], boolean[]) IS 'Stores a batch of reports for the current epoch of a histogram (HEAVYTHRESH) stream whose votes decided a global update: per user, the count sketch''s (hash_index, coefficient, report = +1) on its projected histogram; returns how many. At most one per user per epoch; a batch with a duplicate (23505), for another epoch or phase (55000), or out of range is refused whole. Needs the submit privilege.';

-- extension/sql/60_sketch.sql: comments cite docs/algorithms/sketches.md (issue 29)
COMMENT ON AGGREGATE @extschema@.hashtogram_agg(int, int, boolean, float8, int, int) IS 'Bassily et al.''s count-sketch oracle with Hadamard compression (Hashtogram; docs/algorithms/sketches.md#count-sketch-with-hadamard-compression-hashtogram): independent bucket and sign hashes, the median over rows; sketch summary.';
COMMENT ON FUNCTION @extschema@.frequencies(@extschema@.sketch_summary, text[]) IS 'One row per element of items, in array order: the unbiased frequency (fraction of reports), count, standard error and 95% interval (frequency units). The interval omits the bias of hash collisions (docs/algorithms/sketches.md#hash-collisions).';

-- extension/sql/65_heavy.sql: the protocols' comments cite docs/algorithms/heavy-hitters.md, not the
-- workspace's notes; the type's comment and the summary_kinds row name Bitstogram (issue 29)
COMMENT ON TYPE @extschema@.heavy_summary IS
  'Decoder state of a heavy-hitters protocol (treehist, bitstogram, pem, sfp): the protocol, the report count and its sketches'' integer counters (hashes x width each), stored at the narrowest width that holds them. Text form v1:<mechanism>{...}; merge with ldp.rollup.';
UPDATE @extschema@.summary_kinds SET description = 'Heavy hitters without a candidate list: TreeHist, Bitstogram, PEM, SFP.'
  WHERE kind = 'heavy';
COMMENT ON FUNCTION @extschema@.treehist_protocol(float8, bigint, text, int, int, int, int) IS 'A TreeHist protocol for about `users` devices, every parameter not given (NULL) from the defaults of docs/algorithms/heavy-hitters.md#treehist-defaults: with an alphabet, strings of up to 6 characters in levels of 2 (pad ''*''); alphabet => NULL: any UTF-8 text as bytes, one byte per level, max_length bytes (default 6); width 1024; hashes the power of two nearest users/(2000 levels), between 8 and 256.';
COMMENT ON FUNCTION @extschema@.pem_protocol(float8, bigint, text, int, int, int, int, int) IS 'A PEM protocol (prefix extending, docs/algorithms/heavy-hitters.md#pem-prefix-extending, HCMS oracles) for about `users` devices: groups of devices report prefixes of start_length + (group + 1) chars_per_level characters; defaults: 6 characters, start_length 0, 3 per group (2 groups), 64 x 4096 sketches. alphabet => NULL: any UTF-8 text as bytes, one byte per group.';
COMMENT ON FUNCTION @extschema@.sfp_protocol(float8, bigint, text, int, int, int, int) IS 'An Apple SFP protocol (sequence fragment puzzle, docs/algorithms/heavy-hitters.md#sfp-sequence-fragment-puzzle, HCMS oracles) for about `users` devices: a fragment of chars_per_level characters at a random position, keyed by an 8-bit hash of the word, and the word itself; defaults: 6 characters, fragments of 2, 64 x 4096 sketches. alphabet => NULL: any UTF-8 text as bytes, one-byte fragments.';
COMMENT ON FUNCTION @extschema@.bitstogram_protocol(float8, bigint, text, int, int, int, int, int) IS 'A Bitstogram protocol (Bassily et al. 2017 section 4, docs/algorithms/heavy-hitters.md#bitstogram) for about `users` devices: each device reports one coordinate of chars_per_level characters of its item, with the item''s hash bucket, by Hadamard response at epsilon/2, and the item to a count sketch at epsilon/2. Defaults: 6 characters, one per coordinate (pad ''*''); buckets at least 4 sqrt(users), as many as a Hadamard-response vector of the power of two at or above 4 sqrt(users) * symbols + 1 cells holds; hashes * width = that vector''s size (width 1024 for 10^6 users). alphabet => NULL: any UTF-8 text as bytes, one byte per coordinate.';
