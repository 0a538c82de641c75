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

-- extension/sql/30_security.sql: the view's comment cites docs/security.md (issue 29)
CREATE OR REPLACE FUNCTION @extschema@.backing_create(schema name, name text, owner oid, definition text, what text)
  RETURNS void LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  rel name := @extschema@.backing_name(name);
BEGIN
  EXECUTE pg_catalog.format('CREATE VIEW %I.%I WITH (security_barrier) AS %s', schema, rel, definition);
  PERFORM @extschema@.backing_protect(pg_catalog.format('%I.%I', schema, rel)::regclass);
  EXECUTE pg_catalog.format('ALTER VIEW %I.%I OWNER TO %s', schema, rel, owner::regrole);
  EXECUTE pg_catalog.format('COMMENT ON VIEW %I.%I IS %L', schema, rel,
    pg_catalog.format('Backs the ldp %s %s: its owner and grants are the %s''s (docs/security.md). Made by ldp; drop the %s with ldp''s function, or with DROP VIEW, DROP OWNED.',
                      what, pg_catalog.quote_ident(name), what, what));
END $$;

-- extension/sql/40_collections.sql: the HINT cites docs/collections.md (issue 29)
CREATE OR REPLACE FUNCTION @extschema@.collection_time_check(name text, source regclass, time_column text) RETURNS void
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
            HINT = 'Epochs are instants: a view over the table can convert the column (docs/collections.md#a-view-as-the-source).';
  END IF;
END $$;

-- extension/sql/30_security.sql: the views that back existing collections and streams get
-- the comment backing_create now writes (docs/security.md in place of the old README's
-- section); a comment their owners changed is left alone
DO $update$
DECLARE
  v record;
BEGIN
  FOR v IN SELECT c.oid::regclass AS view, d.description
           FROM pg_catalog.pg_class c
           JOIN pg_catalog.pg_description d ON d.objoid = c.oid AND d.classoid = 'pg_catalog.pg_class'::pg_catalog.regclass AND d.objsubid = 0
           WHERE c.relnamespace IN ('ldp_collections'::pg_catalog.regnamespace, 'ldp_thresh_streams'::pg_catalog.regnamespace)
             AND c.relkind = 'v'
             AND d.description LIKE 'Backs the ldp %(README "Security and privileges"). Made by ldp;%'
  LOOP
    EXECUTE pg_catalog.format('COMMENT ON VIEW %s IS %L', v.view,
      pg_catalog.replace(v.description, '(README "Security and privileges")', '(docs/security.md)'));
  END LOOP;
END $update$;

-- extension/sql/40_collections.sql: since 0.10.0 an epoch without reports has no row; the comments said NULL (issue 29)
COMMENT ON TABLE @extschema@.collection_epochs IS 'One row per closed epoch of a collection that had reports: the rows counted when it was closed and its summary (of the collection''s kind). Epochs closed without reports have no row (which epochs are closed: ldp.collection_status); an installation older than 0.10.0 may keep rows with a NULL summary for such epochs.';
COMMENT ON COLUMN @extschema@.collection_epochs.summary IS 'The epoch''s summary (cast it to its kind''s type, e.g. summary::ldp.mean_summary); NULL only in a row kept from before 0.10.0, for an epoch without reports.';
COMMENT ON FUNCTION @extschema@.collection_estimates(text, float8) IS 'One row per closed epoch of a mean collection that has reports: epoch, its start, rows, estimate, standard error and confidence interval (epochs without reports have no rows; NULL estimates only for a row kept from before 0.10.0).';

-- the stored forms' formats, the kinds' types, the protocol builders and clip's intervals, as the code has them (issue 29)
-- extension/sql/00_types.sql
COMMENT ON TYPE @extschema@.summary IS 'Any ldp summary (a mean, a frequency oracle, ...): the text and binary forms of its kind; cast it to its kind''s type (ldp.mean_summary, ldp.freq_summary, ldp.sketch_summary, ldp.heavy_summary, ldp.rappor_summary) for that kind''s accessors.';
-- extension/sql/00_types.sql
COMMENT ON FUNCTION @extschema@.summary_recv(internal) IS 'Binary input of ldp.summary: the stored form of any kind (format 2, or 3 with compact counters; its header names the kind).';
-- extension/sql/00_types.sql
COMMENT ON FUNCTION @extschema@.summary_send(@extschema@.summary) IS 'Binary output of ldp.summary: the stored form of its kind (format 2 for means and frequency oracles, 3 with compact counters for sketches, heavy hitters and RAPPOR).';
-- extension/sql/60_sketch.sql
COMMENT ON FUNCTION @extschema@.sketch_summary_recv(internal) IS 'Binary input of ldp.sketch_summary: the stored form (format 3 with compact counters, or 2 as written before 0.7.0; malformed input raises 22P03).';
-- extension/sql/60_sketch.sql
COMMENT ON FUNCTION @extschema@.sketch_summary_send(@extschema@.sketch_summary) IS 'Binary output of ldp.sketch_summary: the stored form (format 3, compact counters).';
-- extension/sql/65_heavy.sql
COMMENT ON TYPE @extschema@.heavy_protocol IS
  'A heavy-hitters protocol: mechanism, epsilon, item domain (alphabet, bytes or int64), the tree (max_length, chars_per_level, levels) and the oracles (hashes x width), fixed before anyone reports; what devices download and what the aggregates check. Build it with ldp.treehist_protocol, ldp.bitstogram_protocol, ldp.pem_protocol or ldp.sfp_protocol (or their _int8_ forms for 64-bit integers).';
-- extension/sql/20_freq.sql
COMMENT ON FUNCTION @extschema@.frequencies(@extschema@.freq_summary, text) IS 'One row per item: frequency (fraction of reports), count, standard error and 95% interval. consistency: none (unbiased, default), clip (negatives to 0) or norm-sub (projection onto the probability simplex); under clip and norm-sub the intervals are clipped to [0, 1].';

-- extension/sql/30_security.sql, 40_collections.sql, 41_collection_close.sql, 50_thresh.sql:
-- the internal helpers that only the twins (as the catalog's owner) call are no longer
-- executable by PUBLIC (issue 29: defects found by the documentation)
REVOKE ALL ON FUNCTION @extschema@.privilege_type(text, text[]) FROM PUBLIC;
REVOKE ALL ON FUNCTION @extschema@.collection_summary_call(text) FROM PUBLIC;
REVOKE ALL ON FUNCTION @extschema@.collection_summary_columns(text) FROM PUBLIC;
REVOKE ALL ON FUNCTION @extschema@.collection_checked_start(@extschema@.collections, bigint) FROM PUBLIC;
REVOKE ALL ON FUNCTION @extschema@.collection_source(@extschema@.collections) FROM PUBLIC;
REVOKE ALL ON FUNCTION @extschema@.collection_scan(@extschema@.collections, boolean, boolean) FROM PUBLIC;
REVOKE ALL ON FUNCTION @extschema@.collection_summary_type(@extschema@.collections) FROM PUBLIC;
REVOKE ALL ON FUNCTION @extschema@.collection_checked_end(@extschema@.collections, bigint) FROM PUBLIC;
REVOKE ALL ON FUNCTION @extschema@.thresh_decide(@extschema@.thresh_streams, bigint, bigint) FROM PUBLIC;
REVOKE ALL ON FUNCTION @extschema@.thresh_decode(@extschema@.thresh_streams, bigint, bigint) FROM PUBLIC;
-- extension/sql/30_security.sql, 40_collections.sql, 50_thresh.sql, 61_thresh_oracle.sql:
-- the helpers the readers call with the caller's rights stay executable by PUBLIC and
-- say why in their comments (no longer 'Internal')
COMMENT ON FUNCTION @extschema@.has_privilege(oid, oid, text) IS 'Whether a role may use a privilege (SELECT = read, UPDATE = close, INSERT = submit, OWNER) on the collection or THRESH stream backed by a view: PostgreSQL''s own answer (pg_has_role, has_table_privilege), which every role may ask. Executable by PUBLIC: ldp.has_privilege(object, privilege), which the views and row-level security policies call with the caller''s rights, calls it.';
COMMENT ON FUNCTION @extschema@.has_privilege(oid, text) IS 'Whether the current role may use a privilege on the collection or THRESH stream backed by a view: PostgreSQL''s own answer for that role. Executable by PUBLIC: ldp.collections, ldp.thresh_streams and the row-level security policies call it with the caller''s rights.';
COMMENT ON FUNCTION @extschema@.collection_row(text, boolean) IS 'A collection''s row as ldp.collections shows it to the calling role, or error 42704 (unknown, or not readable by that role); lock => true (FOR UPDATE) needs the catalog owner''s rights. Executable by PUBLIC: the readers (ldp.epoch_of, ldp.collection_estimates, ...) call it with the caller''s rights; it shows nothing that ldp.collections does not.';
COMMENT ON FUNCTION @extschema@.collection_of_kind(text, text) IS 'A collection''s row as ldp.collection_row gives it, or error 42809 (naming the function that reads it) unless it keeps summaries of the given kind. Executable by PUBLIC: the readers of each kind call it with the caller''s rights; it shows nothing that ldp.collections does not.';
COMMENT ON FUNCTION @extschema@.collection_epoch_of(@extschema@.collections, timestamptz) IS 'The epoch of a collection row that holds time t: a function of its arguments (executable by PUBLIC; ldp.epoch_of calls it).';
COMMENT ON FUNCTION @extschema@.collection_epoch_start(@extschema@.collections, bigint) IS 'The first instant of an epoch of a collection row: a function of its arguments (executable by PUBLIC; ldp.epoch_start calls it).';
COMMENT ON FUNCTION @extschema@.thresh_stream(text, boolean) IS 'A THRESH stream''s row as ldp.thresh_streams shows it to the calling role, or error 42704 (unknown, or not readable by that role); lock => true (FOR UPDATE) needs the catalog owner''s rights. Executable by PUBLIC: the readers (ldp.thresh_status, ldp.thresh_params, ...) call it with the caller''s rights; it shows nothing that ldp.thresh_streams does not.';
COMMENT ON FUNCTION @extschema@.thresh_histogram_stream(text) IS 'A histogram stream''s row as ldp.thresh_stream gives it, or error 42704 (unknown or not readable) or 42809 (a Bernoulli stream). Executable by PUBLIC: ldp.thresh_summary and ldp.thresh_frequencies call it with the caller''s rights.';
COMMENT ON FUNCTION @extschema@.thresh_published(int, bigint) IS 'Each closed epoch of a histogram stream (or the one given), the epoch of its last global update with reports and that update''s oracle, from the rows of ldp.thresh_epochs the calling role may read (row-level security: none of a stream it may not read). Executable by PUBLIC: ldp.thresh_summary and ldp.thresh_frequencies call it with the caller''s rights.';
-- extension/sql/50_thresh.sql: a role that holds any privilege on a stream (read,
-- submit, close) and asks for what it may not do gets 42501, as for collections; a
-- role with none still gets 42704 (issue 29)
CREATE OR REPLACE FUNCTION @extschema@.thresh_stream_for(caller oid, name text, privilege text, lock boolean)
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
-- extension/sql/50_thresh.sql: 0.9.0's argument order of heavythresh_derive, deprecated
-- in 0.10.0, is dropped (issue 29)
DROP FUNCTION @extschema@.heavythresh_derive(bigint, int, bigint, bigint, int, float8, float8, float8, float8, float8, int, int);

-- extension/sql/50_thresh.sql: the kinds of THRESH stream and report are a registry
-- (issue 30); the stream's kind is a row of it, not a CHECK
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

-- extension/sql/50_thresh.sql: the Bernoulli kind's functions and rows
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

-- extension/sql/61_heavythresh.sql: the histogram kind's functions and rows
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

-- extension/sql/50_thresh.sql
ALTER TABLE @extschema@.thresh_catalog DROP CONSTRAINT thresh_catalog_kind_check,
  ADD CONSTRAINT thresh_catalog_kind_fkey FOREIGN KEY (kind) REFERENCES @extschema@.thresh_kinds (kind);

-- extension/sql/50_thresh.sql: creating, dropping, submitting and closing read the registry
CREATE OR REPLACE FUNCTION @extschema@.thresh_create_stream(caller regrole, name text, kind text, users bigint, epochs int,
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

CREATE OR REPLACE FUNCTION @extschema@._thresh_drop(caller regrole, name text) RETURNS void
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

CREATE OR REPLACE FUNCTION @extschema@._thresh_close_epoch(caller regrole, name text, epoch int) RETURNS void
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

-- its arguments ints1, ints2 were hash_indexes, coefficients (CREATE OR REPLACE cannot rename them)
DROP FUNCTION @extschema@.thresh_submit(oid, text, bigint, bigint[], boolean[], text, int[], int[]);
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


-- extension/sql/00_types.sql: summary_kind's comment names the range kind (issue 31)
COMMENT ON FUNCTION @extschema@.summary_kind(@extschema@.summary) IS 'The kind of a summary: its row in ldp.summary_kinds (mean, frequency, sketch, heavy, rappor, range).';

-- extension/sql/69_range.sql: numeric distributions, the range family (issue 31)

------------------------------------------------------------------------------
-- Numeric distributions → ldp.range_summary: range counts, CDFs and quantiles of one real
-- value per device (HaarHRR and hierarchical histograms, hh, Cormode, Kulkarni and
-- Srivastava, VLDB 2019), or its shape (Square Wave with EM, sw, Li, Wang,
-- Lopuhaä-Zwakenberg, Li and Škorić, SIGMOD 2020; docs/algorithms/ranges.md). The protocol
-- type (what devices download) and its builder, the summary type, its casts to ldp.summary
-- and its row of ldp.summary_kinds, the aggregates and their rollup, the accessors, the
-- encoders and the collection reader.
------------------------------------------------------------------------------

-- The protocol: a public value, fixed before anyone reports.

CREATE TYPE @extschema@.range_protocol;

CREATE FUNCTION @extschema@.range_protocol_in(cstring) RETURNS @extschema@.range_protocol
  AS 'MODULE_PATHNAME', 'ldp_range_protocol_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.range_protocol_in(cstring) IS 'Text input of ldp.range_protocol, v1:haar{epsilon=...,domain_bits=...,mapping=...[,lo=...,hi=...]} or v1:hh{epsilon=...,domain_bits=...,branching=...,mapping=...[,lo=...,hi=...]} or v1:sw{epsilon=...,domain_bits=...,mapping=...[,lo=...,hi=...]} (validated: malformed input raises 22P02).';
CREATE FUNCTION @extschema@.range_protocol_out(@extschema@.range_protocol) RETURNS cstring
  AS 'MODULE_PATHNAME', 'ldp_range_protocol_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.range_protocol_out(@extschema@.range_protocol) IS 'Text output of ldp.range_protocol: v1:<mechanism>{epsilon=...,domain_bits=...[,branching=...],mapping=...}.';
CREATE FUNCTION @extschema@.range_protocol_recv(internal) RETURNS @extschema@.range_protocol
  AS 'MODULE_PATHNAME', 'ldp_range_protocol_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.range_protocol_recv(internal) IS 'Binary input of ldp.range_protocol (version byte 1, then the fields big-endian; malformed input raises 22P03).';
CREATE FUNCTION @extschema@.range_protocol_send(@extschema@.range_protocol) RETURNS bytea
  AS 'MODULE_PATHNAME', 'ldp_range_protocol_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.range_protocol_send(@extschema@.range_protocol) IS 'Binary output of ldp.range_protocol.';

CREATE TYPE @extschema@.range_protocol (
  INPUT = @extschema@.range_protocol_in,
  OUTPUT = @extschema@.range_protocol_out,
  RECEIVE = @extschema@.range_protocol_recv,
  SEND = @extschema@.range_protocol_send,
  INTERNALLENGTH = VARIABLE,
  ALIGNMENT = int4,
  STORAGE = main
);
COMMENT ON TYPE @extschema@.range_protocol IS
  'A numeric-distribution protocol: mechanism (haar, hh with its branching, or sw), epsilon, the domain of 2^domain_bits buckets and the mapping of a value to its bucket (floor, linear or log over [lo, hi)), fixed before anyone reports; what devices download and what ldp.range_agg checks. Build it with ldp.range_protocol.';

CREATE FUNCTION @extschema@.range_protocol(epsilon float8, domain_bits int, mechanism text DEFAULT 'haar',
                                          branching int DEFAULT NULL, mapping text DEFAULT 'floor',
                                          lo float8 DEFAULT NULL, hi float8 DEFAULT NULL)
  RETURNS @extschema@.range_protocol
  AS 'MODULE_PATHNAME', 'ldp_range_protocol' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.range_protocol(float8, int, text, int, text, float8, float8) IS 'A numeric-distribution protocol (docs/algorithms/ranges.md): epsilon, a domain of 2^domain_bits buckets (domain_bits 1 to 24; summaries of at most 22), the mechanism (haar: HaarHRR, the default, the more accurate on random ranges; hh: hierarchical histograms, with branching 2 or 4, default 4, given for hh only; sw: Square Wave, whose summaries answer ldp.density, a model-based shape estimate, and keep min(2^domain_bits, 1024) counters whatever the domain) and the mapping of a value v to its bucket: floor (default; bucket floor(v), clamped to the domain: a latency in milliseconds is its own bucket), linear or log over [lo, hi) (2^domain_bits buckets of equal width in v or in ln v, clamped). lo and hi are given for linear and log only.';

-- The summary

CREATE TYPE @extschema@.range_summary;

CREATE FUNCTION @extschema@.range_summary_in(cstring) RETURNS @extschema@.range_summary
  AS 'MODULE_PATHNAME', 'ldp_range_summary_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.range_summary_in(cstring) IS 'Text input of ldp.range_summary (validated: malformed input raises 22P02).';
CREATE FUNCTION @extschema@.range_summary_out(@extschema@.range_summary) RETURNS cstring
  AS 'MODULE_PATHNAME', 'ldp_range_summary_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.range_summary_out(@extschema@.range_summary) IS 'Text output of ldp.range_summary (lossless, versioned): v1:<mechanism>{<protocol>,n=..,levels=[..],sums=[..]}, or for sw v1:sw{<protocol>,n=..,buckets=[..]}.';
CREATE FUNCTION @extschema@.range_summary_recv(internal) RETURNS @extschema@.range_summary
  AS 'MODULE_PATHNAME', 'ldp_range_summary_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.range_summary_recv(internal) IS 'Binary input of ldp.range_summary: the stored form (format 3, compact counters; malformed input raises 22P03).';
CREATE FUNCTION @extschema@.range_summary_send(@extschema@.range_summary) RETURNS bytea
  AS 'MODULE_PATHNAME', 'ldp_range_summary_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.range_summary_send(@extschema@.range_summary) IS 'Binary output of ldp.range_summary: the stored form (format 3).';

CREATE TYPE @extschema@.range_summary (
  INPUT = @extschema@.range_summary_in,
  OUTPUT = @extschema@.range_summary_out,
  RECEIVE = @extschema@.range_summary_recv,
  SEND = @extschema@.range_summary_send,
  INTERNALLENGTH = VARIABLE,
  ALIGNMENT = double,
  STORAGE = extended
);
COMMENT ON TYPE @extschema@.range_summary IS
  'Decoder state of a numeric-distribution protocol (haar, hh or sw): the protocol, the report count, and its counters, stored at the narrowest width that holds them: for haar and hh, per level of the mechanism''s tree its report count and its Hadamard rows'' sums (haar: 2^domain_bits - 1 in all; hh: one per node); for sw, the reports per output bucket of the square wave (min(2^domain_bits, 1024) buckets). Text form v1:haar{...}, v1:hh{...} or v1:sw{...}; merge with ldp.rollup.';

-- ldp.summary casts and the summary kind

CREATE FUNCTION @extschema@.summary(@extschema@.range_summary) RETURNS @extschema@.summary
  AS 'MODULE_PATHNAME', 'ldp_summary_from_range' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.range_summary(@extschema@.summary) RETURNS @extschema@.range_summary
  AS 'MODULE_PATHNAME', 'ldp_summary_to_range' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (@extschema@.range_summary AS @extschema@.summary)
  WITH FUNCTION @extschema@.summary(@extschema@.range_summary) AS ASSIGNMENT;
CREATE CAST (@extschema@.summary AS @extschema@.range_summary)
  WITH FUNCTION @extschema@.range_summary(@extschema@.summary);
COMMENT ON FUNCTION @extschema@.summary(@extschema@.range_summary) IS 'A range summary as an ldp.summary (the cast range_summary -> summary).';
COMMENT ON FUNCTION @extschema@.range_summary(@extschema@.summary) IS 'An ldp.summary of kind range as ldp.range_summary (42804 for another kind).';

INSERT INTO @extschema@.summary_kinds VALUES
  ('range', '@extschema@.range_summary', '@extschema@.collection_quantiles(text, float8[])',
   'Numeric distributions: range counts, CDFs and quantiles (HaarHRR, hierarchical histograms); shapes (Square Wave).');

-- Transition and combine functions (state = the summary itself, updated in place)

CREATE FUNCTION @extschema@.range_trans(@extschema@.range_summary, int, bigint, boolean, @extschema@.range_protocol)
  RETURNS @extschema@.range_summary
  AS 'MODULE_PATHNAME', 'ldp_range_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.range_trans(@extschema@.range_summary, int, bigint, boolean, @extschema@.range_protocol) IS 'Transition function of ldp.range_agg(level, hadamard_row, report, protocol) (aggregate context only).';
CREATE FUNCTION @extschema@.range_sw_trans(@extschema@.range_summary, float8, @extschema@.range_protocol)
  RETURNS @extschema@.range_summary
  AS 'MODULE_PATHNAME', 'ldp_range_sw_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.range_sw_trans(@extschema@.range_summary, float8, @extschema@.range_protocol) IS 'Transition function of ldp.range_agg(report, protocol), Square Wave''s (aggregate context only).';
CREATE FUNCTION @extschema@.range_combine(@extschema@.range_summary, @extschema@.range_summary)
  RETURNS @extschema@.range_summary
  AS 'MODULE_PATHNAME', 'ldp_range_combine' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.range_combine(@extschema@.range_summary, @extschema@.range_summary) IS 'Merges two range summaries of the same protocol (combine function of ldp.range_agg and of ldp.rollup).';

-- Aggregates

CREATE AGGREGATE @extschema@.range_agg(level int, hadamard_row bigint, report boolean, protocol @extschema@.range_protocol) (
  SFUNC = @extschema@.range_trans, STYPE = @extschema@.range_summary,
  COMBINEFUNC = @extschema@.range_combine, PARALLEL = SAFE);
COMMENT ON AGGREGATE @extschema@.range_agg(int, bigint, boolean, @extschema@.range_protocol) IS 'HaarHRR and hh: (level, hadamard_row, report) reports of ldp.range_encode under one protocol; range summary. A report outside the protocol''s tree raises 22000; a protocol past 22 domain bits 54000; a Square Wave protocol 22023 (its reports go to ldp.range_agg(report, protocol)).';
CREATE AGGREGATE @extschema@.range_agg(report float8, protocol @extschema@.range_protocol) (
  SFUNC = @extschema@.range_sw_trans, STYPE = @extschema@.range_summary,
  COMBINEFUNC = @extschema@.range_combine, PARALLEL = SAFE);
COMMENT ON AGGREGATE @extschema@.range_agg(float8, @extschema@.range_protocol) IS 'Square Wave: the reports of ldp.sw_encode under one sw protocol, counted per output bucket of the wave; range summary (read with ldp.density). A report outside [-w, 1 + w] (w the wave''s half-width) or NaN raises 22000; another mechanism''s protocol 22023.';
CREATE AGGREGATE @extschema@.rollup(@extschema@.range_summary) (
  SFUNC = @extschema@.range_combine, STYPE = @extschema@.range_summary,
  COMBINEFUNC = @extschema@.range_combine, PARALLEL = SAFE);
COMMENT ON AGGREGATE @extschema@.rollup(@extschema@.range_summary) IS 'Merges range summaries of the same protocol (counters add up).';

-- Accessors (each decodes the summary once per query)

CREATE FUNCTION @extschema@.range_frequency(summary @extschema@.range_summary, lo float8, hi float8,
                                           OUT frequency float8, OUT count float8, OUT std_error float8,
                                           OUT ci_lower float8, OUT ci_upper float8)
  AS 'MODULE_PATHNAME', 'ldp_range_frequency' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.range_frequency(@extschema@.range_summary, float8, float8) IS 'The share of reports whose value lies in [lo, hi] (both mapped to their buckets as devices map values): frequency (the estimate clipped to [0, 1]), count (frequency times the reports), the exact standard error and the 95% interval estimate +- 1.96 std_error intersected with [0, 1]. std_error and the interval are NULL when a level the range needs has no report; every column is NULL for an empty summary. A Square Wave summary raises 22023 (ldp.density answers it).';
CREATE FUNCTION @extschema@.cdf(summary @extschema@.range_summary, x float8,
                               OUT frequency float8, OUT count float8, OUT std_error float8,
                               OUT ci_lower float8, OUT ci_upper float8)
  AS 'MODULE_PATHNAME', 'ldp_range_cdf' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cdf(@extschema@.range_summary, float8) IS 'The share of reports whose value is at most x (its bucket and the buckets below), with the columns of ldp.range_frequency. A Square Wave summary raises 22023 (ldp.density answers it).';
CREATE FUNCTION @extschema@.quantile(summary @extschema@.range_summary, phi float8,
                                    OUT phi float8, OUT value float8, OUT ci_lower float8, OUT ci_upper float8)
  AS 'MODULE_PATHNAME', 'ldp_range_quantile' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.quantile(@extschema@.range_summary, float8) IS 'The phi-quantile (phi in [0, 1]): value, the lower edge of the first bucket whose estimated CDF reaches phi, and its pointwise 95% interval [ci_lower, ci_upper) by inverting the CDF''s test (bucket edges in the protocol''s units; docs/algorithms/ranges.md#quantiles). NULL value and interval for an empty summary. A Square Wave summary raises 22023 (ldp.density answers it).';
CREATE FUNCTION @extschema@.quantiles(summary @extschema@.range_summary, phis float8[])
  RETURNS TABLE(phi float8, value float8, ci_lower float8, ci_upper float8)
  AS 'MODULE_PATHNAME', 'ldp_range_quantiles' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 10;
COMMENT ON FUNCTION @extschema@.quantiles(@extschema@.range_summary, float8[]) IS 'One row per element of phis, in array order (a NULL element: a row of NULLs), with the columns of ldp.quantile but a simultaneous band: Bonferroni over the m non-NULL elements (each interval at the two-sided level 1 - 0.05/m), so that all of them cover their quantiles together with probability at least 95% (family-wise). No rows for an empty summary. A Square Wave summary raises 22023 (ldp.density answers it).';
CREATE FUNCTION @extschema@.histogram(summary @extschema@.range_summary, bins int)
  RETURNS TABLE(lo float8, hi float8, frequency float8, std_error float8, ci_lower float8, ci_upper float8)
  AS 'MODULE_PATHNAME', 'ldp_range_histogram' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 100;
COMMENT ON FUNCTION @extschema@.histogram(@extschema@.range_summary, int) IS 'The domain''s buckets cut into bins groups of consecutive buckets (1 <= bins <= 2^domain_bits; as equal as whole buckets allow), one row each: the value interval [lo, hi), its share (clipped to [0, 1]), exact standard error and 95% interval intersected with [0, 1] (NULL where a level has no report). No rows for an empty summary. A Square Wave summary raises 22023 (ldp.density answers it).';
CREATE FUNCTION @extschema@.density(summary @extschema@.range_summary, bins int, replicates int DEFAULT 50,
                                   seed bigint DEFAULT 0, smoothing boolean DEFAULT false)
  RETURNS TABLE(lo float8, hi float8, frequency float8, std_error float8, ci_lower float8, ci_upper float8)
  AS 'MODULE_PATHNAME', 'ldp_range_density' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 100;
COMMENT ON FUNCTION @extschema@.density(@extschema@.range_summary, int, int, bigint, boolean) IS 'Square Wave: the distribution of a sw summary''s values over bins groups of consecutive buckets (histogram''s columns and cut), estimated by EM on its histogram (EMS, a smoothing step, with smoothing; docs/algorithms/ranges.md#square-wave). MODEL-BASED: std_error is the standard deviation of the estimate over replicates bootstrap resamples of the histogram (0 to 1000; fewer than 2: NULL), reproducible for a seed, and the 95% interval frequency +- 1.96 std_error (intersected with [0, 1]) describes the estimator''s spread, not its bias: EM''s early stop and smoothing bias it, so the interval''s coverage is not guaranteed. The work, replicates + 1 EM runs, is planned against ldp.max_decode_work (54000 past it) and can be cancelled. No rows for an empty summary; another mechanism''s summary raises 22023 (ldp.histogram answers it).';
CREATE FUNCTION @extschema@.report_count(@extschema@.range_summary) RETURNS bigint
  AS 'MODULE_PATHNAME', 'ldp_range_report_count' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.report_count(@extschema@.range_summary) IS 'Number of (non-NULL) reports the summary counts.';
CREATE FUNCTION @extschema@.epsilon(@extschema@.range_summary) RETURNS float8
  AS 'MODULE_PATHNAME', 'ldp_range_epsilon' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.epsilon(@extschema@.range_summary) IS 'The epsilon of one report.';
CREATE FUNCTION @extschema@.mechanism(@extschema@.range_summary) RETURNS text
  AS 'MODULE_PATHNAME', 'ldp_range_mechanism' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.mechanism(@extschema@.range_summary) IS 'The mechanism: haar, hh or sw.';
CREATE FUNCTION @extschema@.protocol(@extschema@.range_summary) RETURNS @extschema@.range_protocol
  AS 'MODULE_PATHNAME', 'ldp_range_protocol_of' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.protocol(@extschema@.range_summary) IS 'The protocol the summary''s reports were made under.';

-- The encoder for simulation and tests (devices encode with the core SDK)

CREATE FUNCTION @extschema@.range_encode(value float8, protocol @extschema@.range_protocol, seed bigint DEFAULT NULL,
                                        OUT level int, OUT hadamard_row bigint, OUT report boolean)
  AS 'MODULE_PATHNAME', 'ldp_range_encode' LANGUAGE C VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.range_encode(float8, @extschema@.range_protocol, bigint) IS 'Simulation: a report of the value (its bucket under the protocol''s mapping): a level of the mechanism''s tree (haar: [0, domain_bits); hh: [1, h]), hadamard_row among the level''s rows and report, the randomized sign (true: +1). NaN raises 22023; a Square Wave protocol 22023 (ldp.sw_encode). Seed as in ldp.rr_encode.';
CREATE FUNCTION @extschema@.sw_encode(value float8, protocol @extschema@.range_protocol, seed bigint DEFAULT NULL)
  RETURNS float8
  AS 'MODULE_PATHNAME', 'ldp_sw_encode' LANGUAGE C VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.sw_encode(float8, @extschema@.range_protocol, bigint) IS 'Simulation: a Square Wave report of the value under a sw protocol: its bucket b under the protocol''s mapping, v = (b + 0.5)/2^domain_bits, and a real in [-w, 1 + w] within w of v with probability 2w e^epsilon/(2w e^epsilon + 1), uniform elsewhere. NaN raises 22023, another mechanism''s protocol 22023. Seed as in ldp.rr_encode.';

-- Collections of range summaries: the quantiles of each closed epoch.

CREATE FUNCTION @extschema@.collection_quantiles(name text, phis float8[])
  RETURNS TABLE(epoch bigint, epoch_start timestamptz, phi float8, value float8, ci_lower float8, ci_upper float8)
  LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  c @extschema@.collections := @extschema@.collection_of_kind(name, 'range');
BEGIN
  RETURN QUERY
    SELECT ce.epoch, ce.epoch_start, q.phi, q.value, q.ci_lower, q.ci_upper
    FROM @extschema@.collection_epochs ce
    CROSS JOIN LATERAL @extschema@.quantiles(ce.summary::@extschema@.range_summary, phis) WITH ORDINALITY AS q
    WHERE ce.collection = c.name ORDER BY ce.epoch, q.ordinality;
END $$;
COMMENT ON FUNCTION @extschema@.collection_quantiles(text, float8[]) IS 'The quantiles of each closed epoch of a range collection, by epoch then in array order: the columns of ldp.quantiles (a band per epoch, family-wise at least 95% within the epoch). Roll epochs up for a longer range: ldp.quantiles((SELECT ldp.rollup(summary::ldp.range_summary) FROM ldp.collection_epochs WHERE ...), phis). Needs the read privilege.';
