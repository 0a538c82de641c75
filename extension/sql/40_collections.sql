------------------------------------------------------------------------------
-- Collections and epochs: a source table of reports cut into epochs of equal
-- length, each closed once into a stored summary (by hand or by pg_cron).
-- Epoch e covers [starts_at + e·epoch_length, starts_at + (e+1)·epoch_length);
-- a day is 24 hours, so daily epochs from the default start align to UTC midnight
-- whatever the session's time zone. A collection has an owner and grants: those of
-- its view ldp_collections.<name> (30_security.sql); its query runs as its owner,
-- whoever closes it.
------------------------------------------------------------------------------

-- The registry of summary kinds: a kind is one row (and its type, casts and functions).
CREATE TABLE @extschema@.summary_kinds (
  kind text PRIMARY KEY,
  summary_type regtype NOT NULL UNIQUE,
  collection_function text NOT NULL,
  description text NOT NULL
);
INSERT INTO @extschema@.summary_kinds VALUES
  ('mean', '@extschema@.mean_summary', '@extschema@.collection_estimates',
   'Means and proportions: randomized response, 1BitMean, Laplace, piecewise.'),
  ('frequency', '@extschema@.freq_summary', '@extschema@.collection_frequencies',
   'Frequency oracles over items [0, k): GRR, SUE, OUE, dBitFlip, OLH, Hadamard response.');
REVOKE ALL ON @extschema@.summary_kinds FROM PUBLIC;
GRANT SELECT ON @extschema@.summary_kinds TO PUBLIC;
COMMENT ON TABLE @extschema@.summary_kinds IS 'The summary kinds a collection can keep: the type its summary call returns, and the function that reads a collection of that kind. Defined by the extension.';

-- The definitions (read by the extension's functions only: ldp.collections is what
-- users query). Constraint names are those of 0.6.0's table, which 0.7.0 renamed.
CREATE TABLE @extschema@.collection_catalog (
  name text CONSTRAINT collection_catalog_pkey PRIMARY KEY CONSTRAINT collection_catalog_name_check CHECK (name <> ''),
  source regclass NOT NULL,
  time_column name NOT NULL,
  epoch_length interval NOT NULL,
  summary text NOT NULL,
  kind text NOT NULL CONSTRAINT collections_kind_fkey REFERENCES @extschema@.summary_kinds (kind),
  starts_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
-- Bounds. NOT VALID, as on an install updated from 0.3.0 or earlier, whose
-- collections may have a shorter epoch (close_due_epochs bounds its work per call):
-- so that every install has the same catalog. New and changed rows are checked
-- either way.
ALTER TABLE @extschema@.collection_catalog
  ADD CONSTRAINT collections_epoch_length_bounds
    CHECK (epoch_length >= interval '1 second' AND epoch_length <= interval '100000 days') NOT VALID,
  ADD CONSTRAINT collections_starts_at_finite CHECK (pg_catalog.isfinite(starts_at)) NOT VALID;
COMMENT ON TABLE @extschema@.collection_catalog IS 'Internal: one row per collection (ldp.create_collection): the source table, its time column, the epoch length and the validated summary call. Query ldp.collections.';
REVOKE ALL ON @extschema@.collection_catalog FROM PUBLIC;

-- What users query: the definitions with the owner and grants of each collection's
-- view, the rows the current role may read (the security barrier keeps a caller's
-- own conditions from seeing the others).
CREATE VIEW @extschema@.collections WITH (security_barrier) AS
  SELECT d.name, d.source, d.time_column, d.epoch_length, d.summary, d.kind, d.starts_at, d.created_at,
         v.relowner::regrole AS owner, v.relacl AS acl, v.oid::regclass AS backing_view
  FROM @extschema@.collection_catalog d
  JOIN pg_catalog.pg_class v ON v.relnamespace = 'ldp_collections'::regnamespace
                            AND v.relname = @extschema@.backing_name(d.name)
  WHERE @extschema@.has_privilege(v.oid, 'SELECT');
COMMENT ON VIEW @extschema@.collections IS 'One row per collection the current role may read: the source table, its time column, the epoch length, the validated summary call, its owner and grants (those of its view, backing_view).';
COMMENT ON COLUMN @extschema@.collections.owner IS 'The collection''s owner (the owner of its view): its query runs with this role''s rights. REASSIGN OWNED, ldp.alter_collection_owner and ALTER VIEW ... OWNER TO change it.';
COMMENT ON COLUMN @extschema@.collections.acl IS 'The grants on the collection''s view (as \dp shows them): SELECT (r) = read, UPDATE (w) = close; NULL = the owner''s alone.';
COMMENT ON COLUMN @extschema@.collections.backing_view IS 'The view ldp_collections.<name> that carries the collection''s owner and grants and shows its closed epochs.';
REVOKE ALL ON @extschema@.collections FROM PUBLIC;
GRANT SELECT ON @extschema@.collections TO PUBLIC;

CREATE TABLE @extschema@.collection_epochs (
  collection text NOT NULL CONSTRAINT collection_epochs_collection_fkey
    REFERENCES @extschema@.collection_catalog ON UPDATE CASCADE ON DELETE CASCADE,
  epoch bigint NOT NULL,
  epoch_start timestamptz NOT NULL,
  reports bigint NOT NULL CHECK (reports >= 0),
  closed_at timestamptz NOT NULL DEFAULT now(),
  summary @extschema@.summary,
  PRIMARY KEY (collection, epoch)
);
COMMENT ON TABLE @extschema@.collection_epochs IS 'One row per closed epoch of a collection that had reports: the rows counted when it was closed and its summary (of the collection''s kind). Epochs closed without reports have no row (which epochs are closed: ldp.collection_status); an installation older than 0.10.0 may keep rows with a NULL summary for such epochs.';
COMMENT ON COLUMN @extschema@.collection_epochs.summary IS 'The epoch''s summary (cast it to its kind''s type, e.g. summary::ldp.mean_summary); NULL only in a row kept from before 0.10.0, for an epoch without reports.';

-- pg_dump keeps their rows (they are the collector's data, not the extension's)
SELECT pg_catalog.pg_extension_config_dump('@extschema@.collection_catalog', '');
SELECT pg_catalog.pg_extension_config_dump('@extschema@.collection_epochs', '');

-- Readable through row-level security (a role sees the epochs of the collections it
-- may read); written only by the extension's functions (as the table's owner, which
-- row-level security does not restrict).
REVOKE ALL ON @extschema@.collection_epochs FROM PUBLIC;
GRANT SELECT ON @extschema@.collection_epochs TO PUBLIC;
ALTER TABLE @extschema@.collection_epochs ENABLE ROW LEVEL SECURITY;
CREATE POLICY collection_epochs_readable ON @extschema@.collection_epochs FOR SELECT
  USING (EXISTS (SELECT 1 FROM @extschema@.collections c WHERE c.name = collection));

------------------------------------------------------------------------------
-- A collection's row, its epochs and its source (internal: not executable by PUBLIC,
-- but for the row and epoch helpers that the readers call with the caller's rights)
------------------------------------------------------------------------------

CREATE FUNCTION @extschema@.collection_summary_call(summary text) RETURNS text[]
  AS 'MODULE_PATHNAME', 'ldp_collection_summary_call' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
REVOKE ALL ON FUNCTION @extschema@.collection_summary_call(text) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.collection_summary_call(text) IS 'Internal: checks on the parse tree that a collection''s summary is one schema-qualified call with plain column and constant arguments; returns {schema, function}.';
CREATE FUNCTION @extschema@.collection_summary_columns(summary text) RETURNS text[]
  AS 'MODULE_PATHNAME', 'ldp_collection_summary_columns' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
REVOKE ALL ON FUNCTION @extschema@.collection_summary_columns(text) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.collection_summary_columns(text) IS 'Internal: the column names among the arguments of a collection''s summary call (checked as by collection_summary_call), each once: a row whose columns are all NULL is no report (the aggregates skip it).';

-- The summary call as PostgreSQL resolves it over the source, under the caller's
-- search_path (pinned by the SQL callers, as at a close): one ldp aggregate over
-- columns and constants, converted only between types of pg_catalog and ldp (no
-- user-defined cast, domain check or type I/O of another schema runs at a close).
CREATE FUNCTION @extschema@.collection_call_check(summary text, source regclass) RETURNS void
  AS 'MODULE_PATHNAME', 'ldp_collection_call_check' LANGUAGE C STABLE STRICT;
REVOKE ALL ON FUNCTION @extschema@.collection_call_check(text, regclass) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.collection_call_check(text, regclass) IS 'Internal: checks a collection''s summary call as PostgreSQL resolves it over its source (nothing is run): one ldp aggregate whose arguments are columns, constants and conversions between types of pg_catalog and ldp; else error 22023.';

-- The collection's row (optionally locked: one closer at a time), or 42704.
CREATE FUNCTION @extschema@.collection_row(collection text, lock boolean DEFAULT false)
  RETURNS @extschema@.collections LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  c @extschema@.collections;
BEGIN
  IF lock THEN
    PERFORM FROM @extschema@.collection_catalog x WHERE x.name = collection FOR UPDATE;
  END IF;
  SELECT * INTO c FROM @extschema@.collections x WHERE x.name = collection;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'collection "%" does not exist', collection
      USING ERRCODE = 'undefined_object', HINT = 'Create it with ldp.create_collection.';
  END IF;
  RETURN c;
END $$;
COMMENT ON FUNCTION @extschema@.collection_row(text, boolean) IS 'A collection''s row as ldp.collections shows it to the calling role, or error 42704 (unknown, or not readable by that role); lock => true (FOR UPDATE) needs the catalog owner''s rights. Executable by PUBLIC: the readers (ldp.epoch_of, ldp.collection_estimates, ...) call it with the caller''s rights; it shows nothing that ldp.collections does not.';

-- The privileged twins' view of a collection: its row, locked (one closer at a
-- time), if `caller` may use `privilege` on it; a collection on which the caller
-- holds no privilege (read, close or the one asked) does not exist for it.
CREATE FUNCTION @extschema@.collection_for(caller oid, collection text, privilege text)
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

-- A collection's row that must keep summaries of `kind` (a row of summary_kinds), or 42809.
CREATE FUNCTION @extschema@.collection_of_kind(collection text, kind text)
  RETURNS @extschema@.collections LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  c @extschema@.collections := @extschema@.collection_row(collection);
  reader text;
BEGIN
  IF c.kind <> kind THEN
    SELECT k.collection_function INTO reader FROM @extschema@.summary_kinds k WHERE k.kind = c.kind;
    RAISE EXCEPTION 'collection "%" keeps % summaries, not %', collection, c.kind, kind
      USING ERRCODE = 'wrong_object_type', HINT = pg_catalog.format('Use %s.', reader);
  END IF;
  RETURN c;
END $$;
COMMENT ON FUNCTION @extschema@.collection_of_kind(text, text) IS 'A collection''s row as ldp.collection_row gives it, or error 42809 (naming the function that reads it) unless it keeps summaries of the given kind. Executable by PUBLIC: the readers of each kind call it with the caller''s rights; it shows nothing that ldp.collections does not.';

-- Epoch arithmetic in whole microseconds of UTC time.
CREATE FUNCTION @extschema@.collection_epoch_of(c @extschema@.collections, t timestamptz) RETURNS bigint
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
  SELECT pg_catalog.floor((EXTRACT(epoch FROM t) - EXTRACT(epoch FROM c.starts_at))
                          / EXTRACT(epoch FROM c.epoch_length))::bigint $$;
COMMENT ON FUNCTION @extschema@.collection_epoch_of(@extschema@.collections, timestamptz) IS 'The epoch of a collection row that holds time t: a function of its arguments (executable by PUBLIC; ldp.epoch_of calls it).';
CREATE FUNCTION @extschema@.collection_epoch_start(c @extschema@.collections, epoch bigint) RETURNS timestamptz
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
  SELECT c.starts_at + (epoch * (EXTRACT(epoch FROM c.epoch_length) * 1000000)::bigint)
                       * interval '1 microsecond' $$;
COMMENT ON FUNCTION @extschema@.collection_epoch_start(@extschema@.collections, bigint) IS 'The first instant of an epoch of a collection row: a function of its arguments (executable by PUBLIC; ldp.epoch_start calls it).';

CREATE FUNCTION @extschema@.epoch_of(collection text, t timestamptz) RETURNS bigint
  LANGUAGE sql STABLE STRICT SET search_path = pg_catalog, pg_temp AS $$
  SELECT @extschema@.collection_epoch_of(@extschema@.collection_row(collection), t) $$;
COMMENT ON FUNCTION @extschema@.epoch_of(text, timestamptz) IS 'The epoch of the collection that holds time t: floor((t - starts_at) / epoch_length).';
CREATE FUNCTION @extschema@.epoch_start(collection text, epoch bigint) RETURNS timestamptz
  LANGUAGE sql STABLE STRICT SET search_path = pg_catalog, pg_temp AS $$
  SELECT @extschema@.collection_epoch_start(@extschema@.collection_row(collection), epoch) $$;
COMMENT ON FUNCTION @extschema@.epoch_start(text, bigint) IS 'The first instant of an epoch of the collection: starts_at + epoch·epoch_length (days of 24 hours).';

-- The first instant of an epoch, or error 22023 when it is outside the time range.
CREATE FUNCTION @extschema@.collection_checked_start(c @extschema@.collections, epoch bigint) RETURNS timestamptz
  LANGUAGE plpgsql STABLE STRICT SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  RETURN @extschema@.collection_epoch_start(c, epoch);
EXCEPTION WHEN datetime_field_overflow OR numeric_value_out_of_range THEN
  RAISE EXCEPTION 'epoch % of collection "%" is outside the range of timestamps', epoch, c.name
    USING ERRCODE = 'invalid_parameter_value';
END $$;
REVOKE ALL ON FUNCTION @extschema@.collection_checked_start(@extschema@.collections, bigint) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.collection_checked_start(@extschema@.collections, bigint) IS 'Internal: the first instant of an epoch of a collection row, or error 22023 when it is not a representable time.';

-- The source table, schema-qualified and quoted, after checking that the
-- collection's definition still holds: the source exists, its time column is
-- timestamptz, and the summary is still one call of an ldp aggregate with plain
-- arguments (the stored text is data: it is checked again at every use).
CREATE FUNCTION @extschema@.collection_source(c @extschema@.collections) RETURNS text
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
REVOKE ALL ON FUNCTION @extschema@.collection_source(@extschema@.collections) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.collection_source(@extschema@.collections) IS 'Internal: the schema-qualified, quoted name of a collection''s source table, after checking the source, its timestamptz time column and the summary call again (as written and as resolved over the source).';

-- A query over the source rows with time in [$1, $2), grouped by epoch start:
-- (bin timestamptz, n bigint[, s summary]). Ungrouped (one epoch: [$1, $2) is it),
-- bin is $1 and no row is binned. n counts the reports: the rows whose summary
-- columns are not all NULL (the aggregates skip the others).
CREATE FUNCTION @extschema@.collection_scan(c @extschema@.collections, with_summary boolean,
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
REVOKE ALL ON FUNCTION @extschema@.collection_scan(@extschema@.collections, boolean, boolean) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.collection_scan(@extschema@.collections, boolean, boolean) IS 'Internal: the query that counts (and summarizes) a collection''s source rows per epoch between two instants.';

-- The summary type of a collection's kind (from the registry, never user data).
CREATE FUNCTION @extschema@.collection_summary_type(c @extschema@.collections) RETURNS text
  LANGUAGE sql STABLE STRICT SET search_path = pg_catalog, pg_temp AS $$
  SELECT k.summary_type::text FROM @extschema@.summary_kinds k WHERE k.kind = c.kind $$;
REVOKE ALL ON FUNCTION @extschema@.collection_summary_type(@extschema@.collections) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.collection_summary_type(@extschema@.collections) IS 'Internal: the summary type of a collection''s kind (ldp.summary_kinds).';

-- The type of the collection's summary call run as `role` on one row of its source
-- (checking source, time column and call first): a role that cannot read the source
-- gets 42501 here rather than at the first close.
CREATE FUNCTION @extschema@.collection_probe(c @extschema@.collections, role regrole) RETURNS regtype
  LANGUAGE sql SET search_path = pg_catalog, pg_temp AS $$
  SELECT r.t
  FROM @extschema@._as_role(role,
         pg_catalog.format('SELECT pg_catalog.pg_typeof((%s' || pg_catalog.chr(10) || ')) FROM (SELECT * FROM %s LIMIT 1) AS src',
                           c.summary, @extschema@.collection_source(c)), NULL, NULL) AS r(t regtype) $$;
REVOKE ALL ON FUNCTION @extschema@.collection_probe(@extschema@.collections, regrole) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.collection_probe(@extschema@.collections, regrole) IS 'Internal: the type of a collection''s summary call run by a role on one row of its source (after checking the definition).';

-- The query of a collection's view: its closed epochs. It names the source as a
-- regclass constant (by OID: no lookup, no privilege needed), which PostgreSQL records
-- as a dependency of the view: DROP TABLE of the source is refused while the
-- collection exists (CASCADE drops the collection), and pg_dump writes the source by
-- name and restores it before the view. CREATE OR REPLACE VIEW with another source
-- moves the dependency (owner, grants and triggers stay).
CREATE FUNCTION @extschema@.collection_view_query(name text, source regclass) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT SET search_path = pg_catalog, pg_temp AS $$
  SELECT pg_catalog.format('SELECT e.epoch, e.epoch_start, e.reports, e.closed_at, e.summary'
                           ' FROM @extschema@.collection_epochs e WHERE e.collection = %L'
                           ' AND %L::pg_catalog.regclass IS NOT NULL', name, source::oid) $$;
REVOKE ALL ON FUNCTION @extschema@.collection_view_query(text, regclass) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.collection_view_query(text, regclass) IS 'Internal: the query of the view backing a collection (its closed epochs), which names its source so that PostgreSQL tracks the dependency.';

-- A collection owned by a superuser runs its source query as a superuser at every
-- close, whoever closes it (as REFRESH MATERIALIZED VIEW runs the query of a view a
-- superuser owns): a WARNING when a collection gets such an owner.
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
            HINT = 'Epochs are instants: a view over the table can convert the column (docs/collections.md#a-view-as-the-source).';
  END IF;
END $$;
REVOKE ALL ON FUNCTION @extschema@.collection_time_check(text, regclass, text) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.collection_time_check(text, regclass, text) IS 'Internal: checks that a source has a collection''s time column, of type timestamptz; else error 42703 or 42804 naming the collection.';

------------------------------------------------------------------------------
-- The SQL API. Each function that changes the catalog or runs a collection's
-- query is a C entry point (ldp_privileged) that calls its internal twin
-- ldp._<name> as the catalog's owner with the calling role (30_security.sql).
------------------------------------------------------------------------------

CREATE FUNCTION @extschema@._create_collection(caller regrole, name text, source regclass, time_column text,
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

CREATE FUNCTION @extschema@.create_collection(name text, source regclass, time_column text,
    epoch_length interval, summary text, starts_at timestamptz DEFAULT NULL)
  RETURNS void AS 'MODULE_PATHNAME', 'ldp_privileged' LANGUAGE C VOLATILE;
REVOKE ALL ON FUNCTION @extschema@.create_collection(text, regclass, text, interval, text, timestamptz) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.create_collection(text, regclass, text, interval, text, timestamptz) IS 'Declares a collection owned by the calling role: reports in source, timed by time_column (timestamptz), cut into epochs of epoch_length (1 second to 100000 days) from starts_at (finite; default 1970-01-01 UTC), summarized by one ldp aggregate call such as ''ldp.onebit_mean_agg(bit, 1.0, 86400)'' (checked now, on the source, with the caller''s rights, and again at every close). Not executable by PUBLIC: GRANT EXECUTE to the roles that may create collections.';

CREATE FUNCTION @extschema@._drop_collection(caller regrole, name text) RETURNS void
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
CREATE FUNCTION @extschema@.drop_collection(name text) RETURNS void
  AS 'MODULE_PATHNAME', 'ldp_privileged' LANGUAGE C VOLATILE;
COMMENT ON FUNCTION @extschema@.drop_collection(text) IS 'Forgets a collection and its closed epochs, and drops its view with what any role built on it (CASCADE, with a NOTICE); the source table is left alone. Its owner only.';

CREATE FUNCTION @extschema@._alter_collection_owner(caller regrole, name text, new_owner regrole) RETURNS void
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
CREATE FUNCTION @extschema@.alter_collection_owner(name text, new_owner regrole) RETURNS void
  AS 'MODULE_PATHNAME', 'ldp_privileged' LANGUAGE C VOLATILE;
COMMENT ON FUNCTION @extschema@.alter_collection_owner(text, regrole) IS 'Gives a collection to another role, which then owns its view and whose rights its query runs with: by its owner, if a member of the new owner, or by a superuser (as ALTER ... OWNER TO). The new owner must be able to run the summary on the source. REASSIGN OWNED moves collections too.';

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

CREATE FUNCTION @extschema@.collection_estimates(name text, confidence float8 DEFAULT 0.95)
  RETURNS TABLE(epoch bigint, epoch_start timestamptz, reports bigint, estimate float8,
                std_error float8, ci_lower float8, ci_upper float8)
  LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  c @extschema@.collections := @extschema@.collection_of_kind(name, 'mean');
BEGIN
  RETURN QUERY
    SELECT ce.epoch, ce.epoch_start, ce.reports, @extschema@.estimate((ce.summary::@extschema@.mean_summary)), @extschema@.std_error((ce.summary::@extschema@.mean_summary)),
           @extschema@.ci_lower((ce.summary::@extschema@.mean_summary), confidence), @extschema@.ci_upper((ce.summary::@extschema@.mean_summary), confidence)
    FROM @extschema@.collection_epochs ce WHERE ce.collection = c.name ORDER BY ce.epoch;
END $$;
COMMENT ON FUNCTION @extschema@.collection_estimates(text, float8) IS 'One row per closed epoch of a mean collection that has reports: epoch, its start, rows, estimate, standard error and confidence interval (epochs without reports have no rows; NULL estimates only for a row kept from before 0.10.0).';

CREATE FUNCTION @extschema@.collection_frequencies(name text, consistency text DEFAULT 'none')
  RETURNS TABLE(epoch bigint, epoch_start timestamptz, item int, frequency float8,
                std_error float8, ci_lower float8, ci_upper float8)
  LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  c @extschema@.collections := @extschema@.collection_of_kind(name, 'frequency');
BEGIN
  RETURN QUERY
    SELECT ce.epoch, ce.epoch_start, f.item, f.frequency, f.std_error, f.ci_lower, f.ci_upper
    FROM @extschema@.collection_epochs ce
    CROSS JOIN LATERAL @extschema@.frequencies(ce.summary::@extschema@.freq_summary, consistency) AS f
    WHERE ce.collection = c.name ORDER BY ce.epoch, f.item;
END $$;
COMMENT ON FUNCTION @extschema@.collection_frequencies(text, text) IS 'One row per item and closed epoch of a frequency collection: frequency, standard error and 95% interval (consistency as in ldp.frequencies; epochs without reports have no rows).';

-- Grants and revokes of a collection's privileges (its owner only).
CREATE FUNCTION @extschema@.collection_grant(caller oid, collection text, privilege text, grantee text, grant_it boolean)
  RETURNS void LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  c @extschema@.collections := @extschema@.collection_for(caller, collection, 'OWNER');
BEGIN
  PERFORM @extschema@.backing_grant(c.backing_view, @extschema@.privilege_type(privilege, ARRAY['read', 'close']),
                                    grantee, grant_it);
END $$;
REVOKE ALL ON FUNCTION @extschema@.collection_grant(oid, text, text, text, boolean) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.collection_grant(oid, text, text, text, boolean) IS 'Internal: grants or revokes a privilege on a collection for its owner.';
CREATE FUNCTION @extschema@._grant_collection(caller regrole, collection text, privilege text, grantee text)
  RETURNS void LANGUAGE sql SET search_path = pg_catalog, pg_temp
  AS $$ SELECT @extschema@.collection_grant(caller, collection, privilege, grantee, true) $$;
REVOKE ALL ON FUNCTION @extschema@._grant_collection(regrole, text, text, text) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@._grant_collection(regrole, text, text, text) IS 'Internal: ldp.grant_collection run as the catalog''s owner for the calling role.';
CREATE FUNCTION @extschema@._revoke_collection(caller regrole, collection text, privilege text, grantee text)
  RETURNS void LANGUAGE sql SET search_path = pg_catalog, pg_temp
  AS $$ SELECT @extschema@.collection_grant(caller, collection, privilege, grantee, false) $$;
REVOKE ALL ON FUNCTION @extschema@._revoke_collection(regrole, text, text, text) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@._revoke_collection(regrole, text, text, text) IS 'Internal: ldp.revoke_collection run as the catalog''s owner for the calling role.';
CREATE FUNCTION @extschema@.grant_collection(collection text, privilege text, grantee text) RETURNS void
  AS 'MODULE_PATHNAME', 'ldp_privileged' LANGUAGE C VOLATILE;
COMMENT ON FUNCTION @extschema@.grant_collection(text, text, text) IS 'Lets a role (or public) read a collection (privilege read: its row, epochs, estimates, late reports) or close its epochs (close). The collection''s owner only.';
CREATE FUNCTION @extschema@.revoke_collection(collection text, privilege text, grantee text) RETURNS void
  AS 'MODULE_PATHNAME', 'ldp_privileged' LANGUAGE C VOLATILE;
COMMENT ON FUNCTION @extschema@.revoke_collection(text, text, text) IS 'Takes back a privilege granted with ldp.grant_collection. The collection''s owner only.';
