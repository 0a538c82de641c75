-- ldp 0.3.0 -> 0.4.0: safe to share a database (README "Security and privileges").
--
-- * Collections and THRESH streams have an owner (the role that created them) and
--   grants (read, close, submit) kept as aclitem[]; the catalog tables are readable
--   through row-level security (a role sees what it owns or was granted; superusers
--   see everything) and written by nobody but the extension's own functions.
-- * Every function that changes the catalog is a C entry point (ldp_privileged) that
--   calls its internal twin ldp._<name> as the catalog's owner with the true calling
--   role; the twin checks that role's privileges. A collection's query runs as the
--   collection's owner in a security-restricted operation (ldp._as_role), whoever
--   closes it, and its definition is re-checked every time.
-- * Every SQL and PL/pgSQL function pins search_path = pg_catalog, pg_temp and names
--   the extension's objects with their schema.
-- * Bounds: epoch_length in [1 second, 100000 days], finite starts_at, a close of due
--   epochs does at most 10000 epochs per call; the time column's type is checked at
--   every close.
\echo Use "ALTER EXTENSION ldp UPDATE TO '0.4.0'" to load this file. \quit

------------------------------------------------------------------------------
-- Privilege helpers
------------------------------------------------------------------------------

-- May role `who` use `privilege` ('SELECT' = read, 'UPDATE' = close, 'INSERT' =
-- submit, 'OWNER') on an object with this owner and acl? Whoever has the owner's
-- privileges (its members with INHERIT, superusers) may do everything. Roles that
-- no longer exist grant nothing.
CREATE FUNCTION @extschema@.has_privilege(who oid, owner regrole, acl aclitem[], privilege text)
  RETURNS boolean LANGUAGE sql STABLE PARALLEL SAFE
  SET search_path = pg_catalog, pg_temp AS $$
  SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_roles r
                 WHERE r.oid = owner AND pg_catalog.pg_has_role(who, r.oid, 'USAGE'))
      OR (privilege <> 'OWNER' AND EXISTS (
            SELECT 1 FROM pg_catalog.aclexplode(CASE WHEN pg_catalog.cardinality(acl) > 0 THEN acl END) a
            WHERE a.privilege_type = privilege
              AND (a.grantee = 0 OR EXISTS (SELECT 1 FROM pg_catalog.pg_roles g
                                            WHERE g.oid = a.grantee
                                              AND pg_catalog.pg_has_role(who, g.oid, 'USAGE'))))) $$;
COMMENT ON FUNCTION @extschema@.has_privilege(oid, regrole, aclitem[], text) IS 'Internal: whether a role may use a privilege (SELECT = read, UPDATE = close, INSERT = submit, OWNER) on a collection or THRESH stream with the given owner and grants.';

-- The same for the current role (row-level security policies).
CREATE FUNCTION @extschema@.has_privilege(owner regrole, acl aclitem[], privilege text)
  RETURNS boolean LANGUAGE sql STABLE PARALLEL SAFE
  SET search_path = pg_catalog, pg_temp AS $$
  SELECT @extschema@.has_privilege((SELECT r.oid FROM pg_catalog.pg_roles r WHERE r.rolname = current_user),
                                   owner, acl, privilege) $$;
COMMENT ON FUNCTION @extschema@.has_privilege(regrole, aclitem[], text) IS 'Internal: whether the current role may use a privilege on a collection or THRESH stream with the given owner and grants (row-level security).';

-- privilege names of the SQL API -> aclitem privilege types
CREATE FUNCTION @extschema@.privilege_type(privilege text, allowed text[]) RETURNS text
  LANGUAGE plpgsql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF privilege IS NULL OR NOT (pg_catalog.lower(privilege) = ANY (allowed)) THEN
    RAISE EXCEPTION 'privilege must be one of %, got %', pg_catalog.array_to_string(allowed, ', '),
      coalesce(pg_catalog.quote_literal(privilege), 'NULL')
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN CASE pg_catalog.lower(privilege) WHEN 'read' THEN 'SELECT' WHEN 'close' THEN 'UPDATE'
                                          WHEN 'submit' THEN 'INSERT' END;
END $$;
COMMENT ON FUNCTION @extschema@.privilege_type(text, text[]) IS 'Internal: the aclitem privilege type of a privilege name (read = SELECT, close = UPDATE, submit = INSERT), or error 22023.';

-- acl with `privilege` granted to / revoked from `grantee` ('public' or a role name).
CREATE FUNCTION @extschema@.acl_change(acl aclitem[], grantor oid, grantee text, privilege text, grant_it boolean)
  RETURNS aclitem[] LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  g oid;
  item aclitem;
BEGIN
  IF grantee IS NULL THEN
    RAISE EXCEPTION 'grantee must not be NULL' USING ERRCODE = 'null_value_not_allowed';
  END IF;
  IF pg_catalog.lower(grantee) = 'public' THEN
    g := 0;
  ELSE
    g := pg_catalog.to_regrole(grantee);
    IF g IS NULL THEN
      RAISE EXCEPTION 'role % does not exist', grantee USING ERRCODE = 'undefined_object';
    END IF;
  END IF;
  item := pg_catalog.makeaclitem(g, grantor, privilege, false);
  -- one item per (grantee, privilege), whoever granted it
  SELECT coalesce(pg_catalog.array_agg(x ORDER BY o), '{}') INTO acl
  FROM pg_catalog.unnest(acl) WITH ORDINALITY AS u(x, o)
  WHERE NOT EXISTS (SELECT 1 FROM pg_catalog.aclexplode(ARRAY[x]) a
                    WHERE a.grantee = g AND a.privilege_type = privilege);
  IF grant_it THEN
    acl := acl || item;
  END IF;
  RETURN acl;
END $$;
COMMENT ON FUNCTION @extschema@.acl_change(aclitem[], oid, text, text, boolean) IS 'Internal: a grant list with a privilege granted to or revoked from a role (or public).';

-- The extension's C entry points: ldp_privileged calls ldp._<name>(caller, ...) as the
-- catalog's owner; ldp._as_role runs a collection's query as its owner.
CREATE FUNCTION @extschema@._as_role(role regrole, query text, lo timestamptz, hi timestamptz)
  RETURNS SETOF record AS 'MODULE_PATHNAME', 'ldp_as_role' LANGUAGE C VOLATILE;
REVOKE ALL ON FUNCTION @extschema@._as_role(regrole, text, timestamptz, timestamptz) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@._as_role(regrole, text, timestamptz, timestamptz) IS 'Internal (no EXECUTE for PUBLIC): runs a query the extension built from a collection''s checked definition as the collection''s owner, in a security-restricted operation with search_path pg_catalog, pg_temp ($1, $2 = the time bounds).';

-- Every role may use the schema: the aggregates, accessors and encoders are safe
-- for anyone, and each collection or stream says who may do what with it.
GRANT USAGE ON SCHEMA @extschema@ TO PUBLIC;

------------------------------------------------------------------------------
-- Catalog tables: owners, grants, bounds, row-level security
------------------------------------------------------------------------------

ALTER TABLE @extschema@.collections ADD COLUMN owner regrole, ADD COLUMN acl aclitem[] NOT NULL DEFAULT '{}';
-- collections of earlier versions belong to their source table's owner (their query
-- runs with that role's rights from now on), or to the extension's owner
UPDATE @extschema@.collections c
SET owner = coalesce((SELECT r.relowner FROM pg_catalog.pg_class r WHERE r.oid = c.source),
                     (SELECT e.extowner FROM pg_catalog.pg_extension e WHERE e.extname = 'ldp'));
ALTER TABLE @extschema@.collections ALTER COLUMN owner SET NOT NULL;
-- NOT VALID: collections of earlier versions with a shorter epoch keep working
-- (close_due_epochs bounds its work per call); new and changed rows are checked
ALTER TABLE @extschema@.collections
  ADD CONSTRAINT collections_epoch_length_bounds
    CHECK (epoch_length >= interval '1 second' AND epoch_length <= interval '100000 days') NOT VALID,
  ADD CONSTRAINT collections_starts_at_finite CHECK (pg_catalog.isfinite(starts_at)) NOT VALID;
COMMENT ON COLUMN @extschema@.collections.owner IS 'The role that created the collection: its query runs with this role''s rights.';
COMMENT ON COLUMN @extschema@.collections.acl IS 'Grants of ldp.grant_collection: SELECT = read, UPDATE = close.';

ALTER TABLE @extschema@.thresh_streams ADD COLUMN owner regrole, ADD COLUMN acl aclitem[] NOT NULL DEFAULT '{}';
UPDATE @extschema@.thresh_streams
SET owner = (SELECT e.extowner FROM pg_catalog.pg_extension e WHERE e.extname = 'ldp');
ALTER TABLE @extschema@.thresh_streams ALTER COLUMN owner SET NOT NULL;
COMMENT ON COLUMN @extschema@.thresh_streams.owner IS 'The role that created the stream.';
COMMENT ON COLUMN @extschema@.thresh_streams.acl IS 'Grants of ldp.grant_thresh: SELECT = read, INSERT = submit, UPDATE = close.';

-- Readable through row-level security; written only by the extension's functions
-- (as the tables' owner, which row-level security does not restrict).
REVOKE ALL ON @extschema@.collections, @extschema@.collection_epochs, @extschema@.thresh_streams,
              @extschema@.thresh_epochs, @extschema@.thresh_votes, @extschema@.thresh_estimates FROM PUBLIC;
GRANT SELECT ON @extschema@.collections, @extschema@.collection_epochs, @extschema@.thresh_streams,
                @extschema@.thresh_epochs, @extschema@.thresh_votes, @extschema@.thresh_estimates TO PUBLIC;
ALTER TABLE @extschema@.collections ENABLE ROW LEVEL SECURITY;
ALTER TABLE @extschema@.collection_epochs ENABLE ROW LEVEL SECURITY;
ALTER TABLE @extschema@.thresh_streams ENABLE ROW LEVEL SECURITY;
ALTER TABLE @extschema@.thresh_epochs ENABLE ROW LEVEL SECURITY;
ALTER TABLE @extschema@.thresh_votes ENABLE ROW LEVEL SECURITY;
ALTER TABLE @extschema@.thresh_estimates ENABLE ROW LEVEL SECURITY;
CREATE POLICY collections_readable ON @extschema@.collections FOR SELECT
  USING (@extschema@.has_privilege(owner, acl, 'SELECT'));
CREATE POLICY collection_epochs_readable ON @extschema@.collection_epochs FOR SELECT
  USING (EXISTS (SELECT 1 FROM @extschema@.collections c WHERE c.name = collection));
CREATE POLICY thresh_streams_readable ON @extschema@.thresh_streams FOR SELECT
  USING (@extschema@.has_privilege(owner, acl, 'SELECT'));
CREATE POLICY thresh_epochs_readable ON @extschema@.thresh_epochs FOR SELECT
  USING (EXISTS (SELECT 1 FROM @extschema@.thresh_streams s WHERE s.id = stream));
-- individual reports: the stream's owner only
CREATE POLICY thresh_votes_owner ON @extschema@.thresh_votes FOR SELECT
  USING (EXISTS (SELECT 1 FROM @extschema@.thresh_streams s
                 WHERE s.id = stream AND @extschema@.has_privilege(s.owner, s.acl, 'OWNER')));
CREATE POLICY thresh_estimates_owner ON @extschema@.thresh_estimates FOR SELECT
  USING (EXISTS (SELECT 1 FROM @extschema@.thresh_streams s
                 WHERE s.id = stream AND @extschema@.has_privilege(s.owner, s.acl, 'OWNER')));

------------------------------------------------------------------------------
-- Collections
------------------------------------------------------------------------------

CREATE OR REPLACE FUNCTION @extschema@.collection_row(collection text, lock boolean DEFAULT false)
  RETURNS @extschema@.collections LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  c @extschema@.collections;
BEGIN
  IF lock THEN
    SELECT * INTO c FROM @extschema@.collections x WHERE x.name = collection FOR UPDATE;
  ELSE
    SELECT * INTO c FROM @extschema@.collections x WHERE x.name = collection;
  END IF;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'collection "%" does not exist', collection
      USING ERRCODE = 'undefined_object', HINT = 'Create it with ldp.create_collection.';
  END IF;
  RETURN c;
END $$;

-- The privileged twins' view of a collection: its row, locked (one closer at a
-- time), if `caller` may use `privilege` on it; a collection the caller may not
-- even read does not exist for it.
CREATE FUNCTION @extschema@.collection_for(caller oid, collection text, privilege text)
  RETURNS @extschema@.collections LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  c @extschema@.collections;
BEGIN
  SELECT * INTO c FROM @extschema@.collections x WHERE x.name = collection;
  IF NOT FOUND OR NOT @extschema@.has_privilege(caller, c.owner, c.acl, 'SELECT') THEN
    RAISE EXCEPTION 'collection "%" does not exist', collection
      USING ERRCODE = 'undefined_object', HINT = 'Create it with ldp.create_collection.';
  END IF;
  IF NOT @extschema@.has_privilege(caller, c.owner, c.acl, privilege) THEN
    RAISE EXCEPTION 'permission denied for collection "%"', collection
      USING ERRCODE = 'insufficient_privilege',
            DETAIL = CASE privilege WHEN 'UPDATE' THEN 'Closing its epochs needs the close privilege.'
                                    ELSE 'Only its owner (' || c.owner::text || ') may do this.' END,
            HINT = 'Its owner grants privileges with ldp.grant_collection.';
  END IF;
  SELECT * INTO c FROM @extschema@.collections x WHERE x.name = collection FOR UPDATE;
  RETURN c;
END $$;
COMMENT ON FUNCTION @extschema@.collection_for(oid, text, text) IS 'Internal: a collection''s row locked FOR UPDATE if the role may use the privilege on it; else error 42704 (not readable) or 42501.';

CREATE OR REPLACE FUNCTION @extschema@.collection_of_kind(collection text, kind text)
  RETURNS @extschema@.collections LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  c @extschema@.collections := @extschema@.collection_row(collection);
BEGIN
  IF c.kind <> kind THEN
    RAISE EXCEPTION 'collection "%" summarizes %', collection,
      CASE c.kind WHEN 'mean' THEN 'a mean' ELSE 'frequencies' END
      USING ERRCODE = 'wrong_object_type',
            HINT = CASE c.kind WHEN 'mean' THEN 'Use ldp.collection_estimates.'
                               ELSE 'Use ldp.collection_frequencies.' END;
  END IF;
  RETURN c;
END $$;

CREATE OR REPLACE FUNCTION @extschema@.collection_epoch_of(c @extschema@.collections, t timestamptz) RETURNS bigint
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
  SELECT pg_catalog.floor((EXTRACT(epoch FROM t) - EXTRACT(epoch FROM c.starts_at))
                          / EXTRACT(epoch FROM c.epoch_length))::bigint $$;
CREATE OR REPLACE FUNCTION @extschema@.collection_epoch_start(c @extschema@.collections, epoch bigint) RETURNS timestamptz
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
  SELECT c.starts_at + (epoch * (EXTRACT(epoch FROM c.epoch_length) * 1000000)::bigint)
                       * interval '1 microsecond' $$;
CREATE OR REPLACE FUNCTION @extschema@.epoch_of(collection text, t timestamptz) RETURNS bigint
  LANGUAGE sql STABLE STRICT SET search_path = pg_catalog, pg_temp AS $$
  SELECT @extschema@.collection_epoch_of(@extschema@.collection_row(collection), t) $$;
CREATE OR REPLACE FUNCTION @extschema@.epoch_start(collection text, epoch bigint) RETURNS timestamptz
  LANGUAGE sql STABLE STRICT SET search_path = pg_catalog, pg_temp AS $$
  SELECT @extschema@.collection_epoch_start(@extschema@.collection_row(collection), epoch) $$;

-- The first instant of an epoch, or error 22023 when it is outside the time range.
CREATE FUNCTION @extschema@.collection_checked_start(c @extschema@.collections, epoch bigint) RETURNS timestamptz
  LANGUAGE plpgsql STABLE STRICT SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  RETURN @extschema@.collection_epoch_start(c, epoch);
EXCEPTION WHEN datetime_field_overflow OR numeric_value_out_of_range THEN
  RAISE EXCEPTION 'epoch % of collection "%" is outside the range of timestamps', epoch, c.name
    USING ERRCODE = 'invalid_parameter_value';
END $$;
COMMENT ON FUNCTION @extschema@.collection_checked_start(@extschema@.collections, bigint) IS 'Internal: the first instant of an epoch of a collection row, or error 22023 when it is not a representable time.';

-- The source table, schema-qualified and quoted, after checking that the
-- collection's definition still holds: the source exists, its time column is
-- timestamptz, and the summary is still one call of an ldp aggregate with plain
-- arguments (the stored text is data: it is checked again at every use).
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
  RETURN qualified;
END $$;
COMMENT ON FUNCTION @extschema@.collection_source(@extschema@.collections) IS 'Internal: the schema-qualified, quoted name of a collection''s source table, after checking the source, its timestamptz time column and the summary call again.';

CREATE OR REPLACE FUNCTION @extschema@.collection_scan(c @extschema@.collections, with_summary boolean,
                                                       grouped boolean DEFAULT true) RETURNS text
  LANGUAGE sql STABLE STRICT SET search_path = pg_catalog, pg_temp AS $$
  SELECT pg_catalog.format('SELECT %s AS bin, pg_catalog.count(*) AS n%s FROM %s WHERE %I >= $1 AND %I < $2%s',
                CASE WHEN grouped THEN pg_catalog.format('pg_catalog.date_bin(%L::interval, %I, %L::timestamptz)',
                                                         c.epoch_length, c.time_column, c.starts_at)
                     ELSE '$1::timestamptz' END,
                CASE WHEN with_summary THEN pg_catalog.format(', (%s' || pg_catalog.chr(10) || ') AS s', c.summary) ELSE '' END,
                @extschema@.collection_source(c), c.time_column, c.time_column,
                CASE WHEN grouped THEN ' GROUP BY 1' ELSE '' END) $$;

-- The summary type of a collection's kind (a fixed name, never user data).
CREATE FUNCTION @extschema@.collection_summary_type(c @extschema@.collections) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT SET search_path = pg_catalog, pg_temp AS $$
  SELECT CASE c.kind WHEN 'mean' THEN '@extschema@.mean_summary' ELSE '@extschema@.freq_summary' END $$;
COMMENT ON FUNCTION @extschema@.collection_summary_type(@extschema@.collections) IS 'Internal: the summary type of a collection (ldp.mean_summary or ldp.freq_summary).';

CREATE OR REPLACE FUNCTION @extschema@.collection_close_range(c @extschema@.collections, lo bigint, hi bigint, refresh boolean)
  RETURNS bigint LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  closed bigint;
  col text := CASE c.kind WHEN 'mean' THEN 'mean' ELSE 'freq' END;
BEGIN
  -- the source query runs as the collection's owner; its rows are joined here
  EXECUTE pg_catalog.format(
    'INSERT INTO @extschema@.collection_epochs AS ce (collection, epoch, epoch_start, reports, %I)'
    ' SELECT $3, g.e, @extschema@.collection_epoch_start($4, g.e), coalesce(r.n, 0), r.s'
    ' FROM pg_catalog.generate_series($5, $6) AS g(e)'
    ' LEFT JOIN @extschema@._as_role($7, $8, $1, $2) AS r(bin timestamptz, n bigint, s %s)'
    '   ON r.bin = @extschema@.collection_epoch_start($4, g.e)'
    ' ON CONFLICT (collection, epoch) DO %s',
    col, @extschema@.collection_summary_type(c),
    CASE WHEN refresh THEN pg_catalog.format('UPDATE SET reports = excluded.reports, %I = excluded.%I, closed_at = excluded.closed_at', col, col)
         ELSE 'NOTHING' END)
  USING @extschema@.collection_checked_start(c, lo), @extschema@.collection_checked_start(c, hi + 1),
        c.name, c, lo, hi, c.owner, @extschema@.collection_scan(c, true, lo < hi);
  GET DIAGNOSTICS closed = ROW_COUNT;
  RETURN closed;
END $$;

CREATE FUNCTION @extschema@._create_collection(caller regrole, name text, source regclass, time_column text,
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
  IF name = '' THEN
    RAISE EXCEPTION 'a collection needs a non-empty name' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF EXISTS (SELECT 1 FROM @extschema@.collections x WHERE x.name = _create_collection.name) THEN
    RAISE EXCEPTION 'collection "%" already exists', name USING ERRCODE = 'duplicate_object';
  END IF;
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
           coalesce(starts_at, '1970-01-01 00:00+00'), pg_catalog.now(), caller, '{}');
  -- source, time column and summary call (collection_source checks them all), then
  -- the call must run on the source (one row, so that parameters are checked), as
  -- the caller: the collection's owner
  PERFORM @extschema@.collection_source(c);
  SELECT r.t INTO result_type
  FROM @extschema@._as_role(caller,
         pg_catalog.format('SELECT pg_catalog.pg_typeof((%s' || pg_catalog.chr(10) || ')) FROM (SELECT * FROM %s LIMIT 1) AS src',
                           summary, @extschema@.collection_source(c)), NULL, NULL) AS r(t regtype);
  IF result_type = '@extschema@.mean_summary'::regtype THEN
    c.kind := 'mean';
  ELSIF result_type = '@extschema@.freq_summary'::regtype THEN
    c.kind := 'frequency';
  ELSE
    RAISE EXCEPTION 'a collection''s summary must return ldp.mean_summary or ldp.freq_summary, not %', result_type
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  INSERT INTO @extschema@.collections SELECT c.*;
END $$;

CREATE OR REPLACE FUNCTION @extschema@.create_collection(name text, source regclass, time_column text,
    epoch_length interval, summary text, starts_at timestamptz DEFAULT NULL)
  RETURNS void AS 'MODULE_PATHNAME', 'ldp_privileged' LANGUAGE C VOLATILE;
REVOKE ALL ON FUNCTION @extschema@.create_collection(text, regclass, text, interval, text, timestamptz) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.create_collection(text, regclass, text, interval, text, timestamptz) IS 'Declares a collection owned by the calling role: reports in source, timed by time_column (timestamptz), cut into epochs of epoch_length (1 second to 100000 days) from starts_at (finite; default 1970-01-01 UTC), summarized by one ldp aggregate call such as ''ldp.onebit_mean_agg(bit, 1.0, 86400)'' (checked now, on the source, with the caller''s rights, and again at every close). Not executable by PUBLIC: GRANT EXECUTE to the roles that may create collections.';

CREATE FUNCTION @extschema@._drop_collection(caller regrole, name text) RETURNS void
  LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  PERFORM @extschema@.collection_for(caller, name, 'OWNER');
  DELETE FROM @extschema@.collections c WHERE c.name = _drop_collection.name;
END $$;
CREATE OR REPLACE FUNCTION @extschema@.drop_collection(name text) RETURNS void
  AS 'MODULE_PATHNAME', 'ldp_privileged' LANGUAGE C VOLATILE;
COMMENT ON FUNCTION @extschema@.drop_collection(text) IS 'Forgets a collection and its closed epochs (the source table is left alone). Its owner only.';

CREATE FUNCTION @extschema@._close_epoch(caller regrole, name text, epoch bigint, refresh boolean)
  RETURNS void LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  c @extschema@.collections;
  ends timestamptz;
BEGIN
  IF name IS NULL OR epoch IS NULL OR refresh IS NULL THEN
    RAISE EXCEPTION 'close_epoch needs a name, an epoch and refresh' USING ERRCODE = 'null_value_not_allowed';
  END IF;
  c := @extschema@.collection_for(caller, name, 'UPDATE');  -- concurrent closers wait here
  ends := @extschema@.collection_checked_start(c, epoch + 1);
  IF ends > pg_catalog.now() THEN
    RAISE EXCEPTION 'epoch % of collection "%" has not ended yet (it ends at %)', epoch, name, ends
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  PERFORM @extschema@.collection_close_range(c, epoch, epoch, refresh);
END $$;
CREATE OR REPLACE PROCEDURE @extschema@.close_epoch(name text, epoch bigint, refresh boolean DEFAULT false)
  AS 'MODULE_PATHNAME', 'ldp_privileged' LANGUAGE C;
COMMENT ON PROCEDURE @extschema@.close_epoch(text, bigint, boolean) IS 'Stores an ended epoch''s summary and row count; a closed epoch is left as it is unless refresh, which recomputes it (taking in late reports). Needs the close privilege; the query runs as the collection''s owner.';

CREATE FUNCTION @extschema@._close_due_epochs(caller regrole, name text) RETURNS void
  LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  max_epochs constant bigint := 10000;  -- per call (README)
  c @extschema@.collections;
  first_t timestamptz;
  lo bigint;
  hi bigint;
  last_due bigint;
BEGIN
  IF name IS NULL THEN
    RAISE EXCEPTION 'close_due_epochs needs a collection name' USING ERRCODE = 'null_value_not_allowed';
  END IF;
  c := @extschema@.collection_for(caller, name, 'UPDATE');
  SELECT r.t INTO first_t
  FROM @extschema@._as_role(c.owner, pg_catalog.format('SELECT pg_catalog.min(%I) FROM %s WHERE %I > ''-infinity''',
                                                       c.time_column, @extschema@.collection_source(c), c.time_column),
                            NULL, NULL) AS r(t timestamptz);
  IF first_t IS NULL THEN
    RETURN;  -- no reports yet
  END IF;
  last_due := @extschema@.collection_epoch_of(c, pg_catalog.now()) - 1;
  -- the first open epoch from the first report's on: lo itself, or the first gap
  -- after the closed epochs that follow it
  IF NOT pg_catalog.isfinite(first_t) THEN
    RETURN;  -- only reports at +infinity, which no epoch holds
  END IF;
  lo := @extschema@.collection_epoch_of(c, first_t);
  IF EXISTS (SELECT 1 FROM @extschema@.collection_epochs ce WHERE ce.collection = c.name AND ce.epoch = lo) THEN
    SELECT pg_catalog.min(ce.epoch) + 1 INTO lo FROM @extschema@.collection_epochs ce
    WHERE ce.collection = c.name AND ce.epoch >= lo
      AND NOT EXISTS (SELECT 1 FROM @extschema@.collection_epochs nx
                      WHERE nx.collection = c.name AND nx.epoch = ce.epoch + 1);
  END IF;
  IF lo > last_due THEN
    RETURN;
  END IF;
  hi := least(last_due, lo + max_epochs - 1);
  PERFORM @extschema@.collection_close_range(c, lo, hi, false);
  IF hi < last_due THEN
    RAISE NOTICE 'collection "%": closed epochs % to %; more are due: call again', name, lo, hi
      USING DETAIL = pg_catalog.format('One call closes at most %s epochs; the last due now is epoch %s.', max_epochs, last_due);
  END IF;
END $$;
CREATE OR REPLACE PROCEDURE @extschema@.close_due_epochs(name text)
  AS 'MODULE_PATHNAME', 'ldp_privileged' LANGUAGE C;
COMMENT ON PROCEDURE @extschema@.close_due_epochs(text) IS 'Closes ended epochs not closed yet, from the epoch of the source''s earliest report on (an epoch without reports is closed with zero), at most 10000 per call (a NOTICE says when more are due). What pg_cron runs. Needs the close privilege; the query runs as the collection''s owner.';

CREATE FUNCTION @extschema@._late_reports(caller regrole, name text)
  RETURNS TABLE(epoch bigint, counted bigint, present bigint, late bigint)
  LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  c @extschema@.collections := @extschema@.collection_for(caller, name, 'SELECT');
  lo bigint;
  hi bigint;
BEGIN
  SELECT pg_catalog.min(ce.epoch), pg_catalog.max(ce.epoch) INTO lo, hi
  FROM @extschema@.collection_epochs ce WHERE ce.collection = c.name;
  IF lo IS NULL THEN
    RETURN;
  END IF;
  RETURN QUERY
    SELECT ce.epoch, ce.reports, coalesce(p.n, 0)::bigint, (coalesce(p.n, 0) - ce.reports)::bigint
    FROM @extschema@.collection_epochs ce
    LEFT JOIN @extschema@._as_role(c.owner, @extschema@.collection_scan(c, false),
                                   @extschema@.collection_checked_start(c, lo),
                                   @extschema@.collection_checked_start(c, hi + 1)) AS p(bin timestamptz, n bigint)
      ON p.bin = ce.epoch_start
    WHERE ce.collection = c.name ORDER BY ce.epoch;
END $$;
CREATE OR REPLACE FUNCTION @extschema@.late_reports(name text)
  RETURNS TABLE(epoch bigint, counted bigint, present bigint, late bigint)
  AS 'MODULE_PATHNAME', 'ldp_privileged' LANGUAGE C VOLATILE;
COMMENT ON FUNCTION @extschema@.late_reports(text) IS 'Per closed epoch: the rows its stored summary counted, the rows the source holds now (counted as the collection''s owner), and the difference (late reports; CALL ldp.close_epoch(name, epoch, true) takes them in). Needs the read privilege.';

CREATE OR REPLACE FUNCTION @extschema@.collection_estimates(name text, confidence float8 DEFAULT 0.95)
  RETURNS TABLE(epoch bigint, epoch_start timestamptz, reports bigint, estimate float8,
                std_error float8, ci_lower float8, ci_upper float8)
  LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  c @extschema@.collections := @extschema@.collection_of_kind(name, 'mean');
BEGIN
  RETURN QUERY
    SELECT ce.epoch, ce.epoch_start, ce.reports, @extschema@.estimate(ce.mean), @extschema@.std_error(ce.mean),
           @extschema@.ci_lower(ce.mean, confidence), @extschema@.ci_upper(ce.mean, confidence)
    FROM @extschema@.collection_epochs ce WHERE ce.collection = c.name ORDER BY ce.epoch;
END $$;

CREATE OR REPLACE FUNCTION @extschema@.collection_frequencies(name text, consistency text DEFAULT 'none')
  RETURNS TABLE(epoch bigint, epoch_start timestamptz, item int, frequency float8,
                std_error float8, ci_lower float8, ci_upper float8)
  LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  c @extschema@.collections := @extschema@.collection_of_kind(name, 'frequency');
BEGIN
  RETURN QUERY
    SELECT ce.epoch, ce.epoch_start, f.item, f.frequency, f.std_error, f.ci_lower, f.ci_upper
    FROM @extschema@.collection_epochs ce
    CROSS JOIN LATERAL @extschema@.frequencies(ce.freq, consistency) AS f
    WHERE ce.collection = c.name ORDER BY ce.epoch, f.item;
END $$;

-- Grants and revokes of a collection's privileges (its owner only).
CREATE FUNCTION @extschema@.collection_grant(caller oid, collection text, privilege text, grantee text, grant_it boolean)
  RETURNS void LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  c @extschema@.collections := @extschema@.collection_for(caller, collection, 'OWNER');
BEGIN
  UPDATE @extschema@.collections x
  SET acl = @extschema@.acl_change(x.acl, caller, grantee,
                                   @extschema@.privilege_type(privilege, ARRAY['read', 'close']), grant_it)
  WHERE x.name = c.name;
END $$;
COMMENT ON FUNCTION @extschema@.collection_grant(oid, text, text, text, boolean) IS 'Internal: grants or revokes a privilege on a collection for its owner.';
CREATE FUNCTION @extschema@._grant_collection(caller regrole, collection text, privilege text, grantee text)
  RETURNS void LANGUAGE sql SET search_path = pg_catalog, pg_temp
  AS $$ SELECT @extschema@.collection_grant(caller, collection, privilege, grantee, true) $$;
CREATE FUNCTION @extschema@._revoke_collection(caller regrole, collection text, privilege text, grantee text)
  RETURNS void LANGUAGE sql SET search_path = pg_catalog, pg_temp
  AS $$ SELECT @extschema@.collection_grant(caller, collection, privilege, grantee, false) $$;
CREATE FUNCTION @extschema@.grant_collection(collection text, privilege text, grantee text) RETURNS void
  AS 'MODULE_PATHNAME', 'ldp_privileged' LANGUAGE C VOLATILE;
CREATE FUNCTION @extschema@.revoke_collection(collection text, privilege text, grantee text) RETURNS void
  AS 'MODULE_PATHNAME', 'ldp_privileged' LANGUAGE C VOLATILE;
COMMENT ON FUNCTION @extschema@.grant_collection(text, text, text) IS 'Lets a role (or public) read a collection (privilege read: its row, epochs, estimates, late reports) or close its epochs (close). The collection''s owner only.';
COMMENT ON FUNCTION @extschema@.revoke_collection(text, text, text) IS 'Takes back a privilege granted with ldp.grant_collection. The collection''s owner only.';

------------------------------------------------------------------------------
-- THRESH
------------------------------------------------------------------------------

CREATE OR REPLACE FUNCTION @extschema@.thresh_stream(name text, lock boolean DEFAULT false)
  RETURNS @extschema@.thresh_streams LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  s @extschema@.thresh_streams;
BEGIN
  IF lock THEN
    SELECT * INTO s FROM @extschema@.thresh_streams t WHERE t.name = thresh_stream.name FOR UPDATE;
  ELSE
    SELECT * INTO s FROM @extschema@.thresh_streams t WHERE t.name = thresh_stream.name;
  END IF;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'THRESH stream "%" does not exist', name
      USING ERRCODE = 'undefined_object', HINT = 'Create it with ldp.thresh_create.';
  END IF;
  RETURN s;
END $$;

-- The privileged twins' view of a stream (as collection_for): its row, locked when
-- asked, if the caller may use the privilege on it.
CREATE FUNCTION @extschema@.thresh_stream_for(caller oid, name text, privilege text, lock boolean)
  RETURNS @extschema@.thresh_streams LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  s @extschema@.thresh_streams;
BEGIN
  SELECT * INTO s FROM @extschema@.thresh_streams t WHERE t.name = thresh_stream_for.name;
  IF NOT FOUND OR NOT @extschema@.has_privilege(caller, s.owner, s.acl, 'SELECT') THEN
    RAISE EXCEPTION 'THRESH stream "%" does not exist', name
      USING ERRCODE = 'undefined_object', HINT = 'Create it with ldp.thresh_create.';
  END IF;
  IF NOT @extschema@.has_privilege(caller, s.owner, s.acl, privilege) THEN
    RAISE EXCEPTION 'permission denied for THRESH stream "%"', name
      USING ERRCODE = 'insufficient_privilege',
            DETAIL = CASE privilege WHEN 'INSERT' THEN 'Sending reports needs the submit privilege.'
                                    WHEN 'UPDATE' THEN 'Closing needs the close privilege.'
                                    ELSE 'Only its owner (' || s.owner::text || ') may do this.' END,
            HINT = 'Its owner grants privileges with ldp.grant_thresh.';
  END IF;
  IF lock THEN
    SELECT * INTO s FROM @extschema@.thresh_streams t WHERE t.name = thresh_stream_for.name FOR UPDATE;
  END IF;
  RETURN s;
END $$;
COMMENT ON FUNCTION @extschema@.thresh_stream_for(oid, text, text, boolean) IS 'Internal: a THRESH stream''s row (locked FOR UPDATE when asked) if the role may use the privilege on it; else error 42704 (not readable) or 42501.';

CREATE FUNCTION @extschema@._thresh_create(caller regrole, name text, users bigint, epochs int, epoch_rounds int,
    min_group_size bigint, groups int, epsilon float8, delta float8,
    vote_noise float8, estimate_noise float8, threshold_unit float8)
  RETURNS void LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  p record;
BEGIN
  IF name IS NULL OR name = '' THEN
    RAISE EXCEPTION 'a THRESH stream needs a non-empty name' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF EXISTS (SELECT 1 FROM @extschema@.thresh_streams t WHERE t.name = _thresh_create.name) THEN
    RAISE EXCEPTION 'THRESH stream "%" already exists', name USING ERRCODE = 'duplicate_object';
  END IF;
  p := @extschema@.thresh_derive(users, epochs, epoch_rounds, min_group_size, groups, epsilon, delta,
                                 vote_noise, estimate_noise, threshold_unit);
  IF p.worst_case_loss > epsilon THEN
    RAISE WARNING 'THRESH stream "%": a user''s privacy loss can reach % > epsilon = %', name,
      pg_catalog.round(p.worst_case_loss::numeric, 4), epsilon
      USING DETAIL = pg_catalog.format('Truthful votes fall in data-dependent epochs: up to 2·a·ceil(eps/(4a)) + b·ceil(eps/(4b)) with a = %s, b = %s.',
                                       pg_catalog.round(p.a::numeric, 4), pg_catalog.round(p.b::numeric, 4)),
            HINT = 'Smaller vote and estimate noises (larger groups, shorter epochs) or a larger epsilon restore eps-LDP.';
  END IF;
  INSERT INTO @extschema@.thresh_streams (name, users, epochs, epoch_rounds, min_group_size, groups, epsilon,
      delta, vote_noise, estimate_noise, threshold_unit, vote_threshold, thresholds, owner)
  VALUES (name, users, epochs, epoch_rounds, min_group_size, groups, epsilon, delta, p.a, p.b,
          threshold_unit, p.vote_threshold, p.thresholds, caller);
END $$;
CREATE OR REPLACE FUNCTION @extschema@.thresh_create(name text, users bigint, epochs int, epoch_rounds int,
    min_group_size bigint, groups int, epsilon float8, delta float8,
    vote_noise float8 DEFAULT NULL, estimate_noise float8 DEFAULT NULL, threshold_unit float8 DEFAULT NULL)
  RETURNS void AS 'MODULE_PATHNAME', 'ldp_privileged' LANGUAGE C VOLATILE;
REVOKE ALL ON FUNCTION @extschema@.thresh_create(text, bigint, int, int, bigint, int, float8, float8, float8, float8, float8) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.thresh_create(text, bigint, int, int, bigint, int, float8, float8, float8, float8, float8) IS 'Creates a THRESH stream owned by the calling role for n users, T epochs of epoch_rounds rounds, groups subgroups of at least min_group_size users, privacy epsilon and failure probability delta; derives the vote noise a, estimate noise b and thresholds (or takes the given ones) and refuses configurations that break Assumption 4.2 or leave b undefined, saying what to change. Not executable by PUBLIC: GRANT EXECUTE to the roles that may create streams.';

CREATE FUNCTION @extschema@._thresh_drop(caller regrole, name text) RETURNS void
  LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  s @extschema@.thresh_streams := @extschema@.thresh_stream_for(caller, name, 'OWNER', true);
BEGIN
  DELETE FROM @extschema@.thresh_votes WHERE stream = s.id;
  DELETE FROM @extschema@.thresh_estimates WHERE stream = s.id;
  DELETE FROM @extschema@.thresh_streams WHERE id = s.id;
END $$;
CREATE OR REPLACE FUNCTION @extschema@.thresh_drop(name text) RETURNS void
  AS 'MODULE_PATHNAME', 'ldp_privileged' LANGUAGE C VOLATILE;
COMMENT ON FUNCTION @extschema@.thresh_drop(text) IS 'Deletes a THRESH stream with its reports and history. Its owner only.';

CREATE OR REPLACE FUNCTION @extschema@.thresh_params(name text)
  RETURNS TABLE(users bigint, epochs int, epoch_rounds bigint, min_group_size bigint, groups int,
                epsilon float8, delta float8, vote_noise float8, estimate_noise float8,
                vote_threshold float8, thresholds float8[])
  LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp AS $$
  SELECT s.users, s.epochs, s.epoch_rounds, s.min_group_size, s.groups, s.epsilon, s.delta,
         s.vote_noise, s.estimate_noise, s.vote_threshold, s.thresholds
  FROM @extschema@.thresh_stream(name) s $$;

-- The old internal entry point took no caller: gone, the twins below replace it.
DROP FUNCTION @extschema@.thresh_submit(text, int, bigint[], boolean[], text);
CREATE FUNCTION @extschema@.thresh_submit(caller oid, name text, epoch int, user_ids bigint[], bits boolean[], kind text)
  RETURNS bigint LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  s @extschema@.thresh_streams := @extschema@.thresh_stream_for(caller, name, 'INSERT', false);
  want text := CASE kind WHEN 'votes' THEN 'voting' ELSE 'estimating' END;
  n bigint;
  ones bigint;
  dup bigint;
BEGIN
  IF epoch IS NULL OR user_ids IS NULL OR bits IS NULL THEN
    RAISE EXCEPTION 'epoch, user_ids and % must not be NULL', CASE kind WHEN 'votes' THEN 'votes' ELSE 'reports' END
      USING ERRCODE = 'null_value_not_allowed';
  END IF;
  IF coalesce(pg_catalog.array_ndims(user_ids), 1) <> 1 OR coalesce(pg_catalog.array_ndims(bits), 1) <> 1 THEN
    RAISE EXCEPTION 'user_ids and % must be one-dimensional arrays', CASE kind WHEN 'votes' THEN 'votes' ELSE 'reports' END
      USING ERRCODE = 'array_subscript_error';
  END IF;
  IF pg_catalog.cardinality(user_ids) <> pg_catalog.cardinality(bits) THEN
    RAISE EXCEPTION 'user_ids and % must be arrays of the same length (got % and %)',
      CASE kind WHEN 'votes' THEN 'votes' ELSE 'reports' END, pg_catalog.cardinality(user_ids), pg_catalog.cardinality(bits)
      USING ERRCODE = 'array_subscript_error';
  END IF;
  IF pg_catalog.array_position(user_ids, NULL) IS NOT NULL OR pg_catalog.array_position(bits, NULL) IS NOT NULL THEN
    RAISE EXCEPTION 'the batch holds a NULL user id or report' USING ERRCODE = 'null_value_not_allowed';
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
    ELSE
      INSERT INTO @extschema@.thresh_estimates (stream, epoch, user_id, report)
      SELECT s.id, epoch, u, b FROM unnest(user_ids, bits) AS x(u, b) ORDER BY u;
    END IF;
  EXCEPTION WHEN unique_violation THEN
    SELECT u INTO dup FROM pg_catalog.unnest(user_ids) AS u GROUP BY u HAVING pg_catalog.count(*) > 1 LIMIT 1;
    IF dup IS NULL THEN
      IF kind = 'votes' THEN
        SELECT v.user_id INTO dup FROM @extschema@.thresh_votes v
        WHERE v.stream = s.id AND v.epoch = thresh_submit.epoch AND v.user_id = ANY (user_ids) LIMIT 1;
      ELSE
        SELECT v.user_id INTO dup FROM @extschema@.thresh_estimates v
        WHERE v.stream = s.id AND v.epoch = thresh_submit.epoch AND v.user_id = ANY (user_ids) LIMIT 1;
      END IF;
    END IF;
    RAISE EXCEPTION 'user % already sent % for epoch % of THRESH stream "%"', dup,
      CASE kind WHEN 'votes' THEN 'a vote' ELSE 'an estimate' END, epoch, name
      USING ERRCODE = 'unique_violation', HINT = 'The whole batch was refused.';
  END;
  -- The tallies, re-checking the phase under the row lock: a close that got there
  -- first has moved the phase on and the batch is refused; a close that comes
  -- later waits for this transaction and counts it.
  IF kind = 'votes' THEN
    UPDATE @extschema@.thresh_streams t SET votes = t.votes + n, yes_votes = t.yes_votes + ones
    WHERE t.id = s.id AND t.epoch = thresh_submit.epoch AND t.phase = want AND t.votes + n <= t.users;
  ELSE
    UPDATE @extschema@.thresh_streams t SET estimate_reports = t.estimate_reports + n,
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
COMMENT ON FUNCTION @extschema@.thresh_submit(oid, text, int, bigint[], boolean[], text) IS 'Internal: stores a batch of THRESH votes or estimates whole for a role with the submit privilege, or refuses it whole.';

CREATE FUNCTION @extschema@._thresh_submit_votes(caller regrole, name text, epoch int, user_ids bigint[], votes boolean[])
  RETURNS bigint LANGUAGE sql SET search_path = pg_catalog, pg_temp AS $$
  SELECT @extschema@.thresh_submit(caller, name, epoch, user_ids, votes, 'votes') $$;
CREATE FUNCTION @extschema@._thresh_submit_estimates(caller regrole, name text, epoch int, user_ids bigint[], reports boolean[])
  RETURNS bigint LANGUAGE sql SET search_path = pg_catalog, pg_temp AS $$
  SELECT @extschema@.thresh_submit(caller, name, epoch, user_ids, reports, 'estimates') $$;
CREATE OR REPLACE FUNCTION @extschema@.thresh_submit_votes(name text, epoch int, user_ids bigint[], votes boolean[])
  RETURNS bigint AS 'MODULE_PATHNAME', 'ldp_privileged' LANGUAGE C VOLATILE;
CREATE OR REPLACE FUNCTION @extschema@.thresh_submit_estimates(name text, epoch int, user_ids bigint[], reports boolean[])
  RETURNS bigint AS 'MODULE_PATHNAME', 'ldp_privileged' LANGUAGE C VOLATILE;
COMMENT ON FUNCTION @extschema@.thresh_submit_votes(text, int, bigint[], boolean[]) IS 'Stores a batch of VOTE reports for the current epoch of a THRESH stream in its voting phase; returns how many. One vote per user per epoch: a batch with a duplicate, for another epoch or phase, or with arrays of different lengths is refused whole. Needs the submit privilege.';
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
  UPDATE @extschema@.thresh_streams t SET phase = CASE WHEN d.global_update THEN 'estimating' ELSE 'closed' END
  WHERE t.id = s.id;
  INSERT INTO @extschema@.thresh_epochs (stream, epoch, votes, yes_votes, vote_threshold, global_update)
  VALUES (s.id, s.epoch, s.votes, s.yes_votes, d.vote_threshold, d.global_update);
END $$;
CREATE OR REPLACE PROCEDURE @extschema@.thresh_close_votes(name text, epoch int DEFAULT NULL)
  AS 'MODULE_PATHNAME', 'ldp_privileged' LANGUAGE C;
COMMENT ON PROCEDURE @extschema@.thresh_close_votes(text, int) IS 'Applies THRESH''s update rule to the current epoch''s votes and publishes the decision (phase estimating on a global update, else closed). With epoch given, closing an already closed phase is a no-op. Needs the close privilege.';

CREATE FUNCTION @extschema@._thresh_close_epoch(caller regrole, name text, epoch int) RETURNS void
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
  IF s.phase = 'estimating' THEN
    last_update := s.epoch;
    IF s.estimate_reports > 0 THEN
      e := @extschema@.thresh_decode(s, s.estimate_reports, s.estimate_ones);
      est := e.estimate;
      se := e.std_error;
    ELSE
      RAISE WARNING 'epoch % of THRESH stream "%" updated but received no estimates: the previous estimate stays published', s.epoch, name;
    END IF;
  END IF;
  UPDATE @extschema@.thresh_streams t
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
CREATE OR REPLACE PROCEDURE @extschema@.thresh_close_epoch(name text, epoch int DEFAULT NULL)
  AS 'MODULE_PATHNAME', 'ldp_privileged' LANGUAGE C;
COMMENT ON PROCEDURE @extschema@.thresh_close_epoch(text, int) IS 'Publishes the epoch''s estimate (the aggregated estimates after a global update, else the previous one) and opens the next epoch (or finishes the stream after the last). With epoch given, closing an already closed epoch is a no-op. Needs the close privilege.';

CREATE OR REPLACE FUNCTION @extschema@.thresh_status(name text)
  RETURNS TABLE(epoch int, phase text, last_update_epoch int, estimate float8, std_error float8,
                votes bigint, estimate_reports bigint)
  LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp AS $$
  SELECT s.epoch, s.phase, s.last_update_epoch, s.estimate, s.std_error, s.votes, s.estimate_reports
  FROM @extschema@.thresh_stream(name) s $$;

CREATE OR REPLACE FUNCTION @extschema@.thresh_history(name text)
  RETURNS TABLE(epoch int, votes bigint, vote_share float8, vote_threshold float8, global_update boolean,
                estimate_reports bigint, estimate float8, std_error float8, last_update_epoch int)
  LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp AS $$
  SELECT h.epoch, h.votes, CASE WHEN h.votes > 0 THEN h.yes_votes::float8 / h.votes END, h.vote_threshold,
         h.global_update, h.estimate_reports, h.estimate, h.std_error, h.last_update_epoch
  FROM @extschema@.thresh_stream(name) s JOIN @extschema@.thresh_epochs h ON h.stream = s.id
  ORDER BY h.epoch $$;

-- Grants and revokes of a stream's privileges (its owner only).
CREATE FUNCTION @extschema@.thresh_grant(caller oid, stream text, privilege text, grantee text, grant_it boolean)
  RETURNS void LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  s @extschema@.thresh_streams := @extschema@.thresh_stream_for(caller, stream, 'OWNER', true);
BEGIN
  UPDATE @extschema@.thresh_streams t
  SET acl = @extschema@.acl_change(t.acl, caller, grantee,
                                   @extschema@.privilege_type(privilege, ARRAY['read', 'submit', 'close']), grant_it)
  WHERE t.id = s.id;
END $$;
COMMENT ON FUNCTION @extschema@.thresh_grant(oid, text, text, text, boolean) IS 'Internal: grants or revokes a privilege on a THRESH stream for its owner.';
CREATE FUNCTION @extschema@._grant_thresh(caller regrole, stream text, privilege text, grantee text)
  RETURNS void LANGUAGE sql SET search_path = pg_catalog, pg_temp
  AS $$ SELECT @extschema@.thresh_grant(caller, stream, privilege, grantee, true) $$;
CREATE FUNCTION @extschema@._revoke_thresh(caller regrole, stream text, privilege text, grantee text)
  RETURNS void LANGUAGE sql SET search_path = pg_catalog, pg_temp
  AS $$ SELECT @extschema@.thresh_grant(caller, stream, privilege, grantee, false) $$;
CREATE FUNCTION @extschema@.grant_thresh(stream text, privilege text, grantee text) RETURNS void
  AS 'MODULE_PATHNAME', 'ldp_privileged' LANGUAGE C VOLATILE;
CREATE FUNCTION @extschema@.revoke_thresh(stream text, privilege text, grantee text) RETURNS void
  AS 'MODULE_PATHNAME', 'ldp_privileged' LANGUAGE C VOLATILE;
COMMENT ON FUNCTION @extschema@.grant_thresh(text, text, text) IS 'Lets a role (or public) read a THRESH stream (privilege read: parameters, status, history), send its reports (submit) or close its phases (close). The stream''s owner only.';
COMMENT ON FUNCTION @extschema@.revoke_thresh(text, text, text) IS 'Takes back a privilege granted with ldp.grant_thresh. The stream''s owner only.';

------------------------------------------------------------------------------
-- Internal functions run only by the privileged twins (as the catalog's owner):
-- nobody else may call them.
------------------------------------------------------------------------------
DO $$
DECLARE
  f regprocedure;
BEGIN
  FOR f IN
    SELECT p.oid::regprocedure FROM pg_catalog.pg_proc p
    WHERE p.pronamespace = '@extschema@'::regnamespace
      AND (p.proname LIKE '\_%' OR p.proname IN ('thresh_submit', 'collection_close_range', 'collection_for',
                                                  'thresh_stream_for', 'acl_change', 'collection_grant',
                                                  'thresh_grant'))
  LOOP
    EXECUTE pg_catalog.format('REVOKE ALL ON FUNCTION %s FROM PUBLIC', f);
  END LOOP;
END $$;
COMMENT ON FUNCTION @extschema@._create_collection(regrole, text, regclass, text, interval, text, timestamptz) IS 'Internal: ldp.create_collection run as the catalog''s owner for the calling role.';
COMMENT ON FUNCTION @extschema@._drop_collection(regrole, text) IS 'Internal: ldp.drop_collection run as the catalog''s owner for the calling role.';
COMMENT ON FUNCTION @extschema@._close_epoch(regrole, text, bigint, boolean) IS 'Internal: ldp.close_epoch run as the catalog''s owner for the calling role.';
COMMENT ON FUNCTION @extschema@._close_due_epochs(regrole, text) IS 'Internal: ldp.close_due_epochs run as the catalog''s owner for the calling role.';
COMMENT ON FUNCTION @extschema@._late_reports(regrole, text) IS 'Internal: ldp.late_reports run as the catalog''s owner for the calling role.';
COMMENT ON FUNCTION @extschema@._grant_collection(regrole, text, text, text) IS 'Internal: ldp.grant_collection run as the catalog''s owner for the calling role.';
COMMENT ON FUNCTION @extschema@._revoke_collection(regrole, text, text, text) IS 'Internal: ldp.revoke_collection run as the catalog''s owner for the calling role.';
COMMENT ON FUNCTION @extschema@._thresh_create(regrole, text, bigint, int, int, bigint, int, float8, float8, float8, float8, float8) IS 'Internal: ldp.thresh_create run as the catalog''s owner for the calling role.';
COMMENT ON FUNCTION @extschema@._thresh_drop(regrole, text) IS 'Internal: ldp.thresh_drop run as the catalog''s owner for the calling role.';
COMMENT ON FUNCTION @extschema@._thresh_submit_votes(regrole, text, int, bigint[], boolean[]) IS 'Internal: ldp.thresh_submit_votes run as the catalog''s owner for the calling role.';
COMMENT ON FUNCTION @extschema@._thresh_submit_estimates(regrole, text, int, bigint[], boolean[]) IS 'Internal: ldp.thresh_submit_estimates run as the catalog''s owner for the calling role.';
COMMENT ON FUNCTION @extschema@._thresh_close_votes(regrole, text, int) IS 'Internal: ldp.thresh_close_votes run as the catalog''s owner for the calling role.';
COMMENT ON FUNCTION @extschema@._thresh_close_epoch(regrole, text, int) IS 'Internal: ldp.thresh_close_epoch run as the catalog''s owner for the calling role.';
COMMENT ON FUNCTION @extschema@._grant_thresh(regrole, text, text, text) IS 'Internal: ldp.grant_thresh run as the catalog''s owner for the calling role.';
COMMENT ON FUNCTION @extschema@._revoke_thresh(regrole, text, text, text) IS 'Internal: ldp.revoke_thresh run as the catalog''s owner for the calling role.';

-- Functions and aggregates re-created here or by earlier update scripts, documented again
-- with what they do now (their comments carry over; they are restated so that every
-- CREATE in these scripts has its COMMENT ON).
COMMENT ON FUNCTION @extschema@.collection_close_range(c @extschema@.collections, lo bigint, hi bigint, refresh boolean) IS 'Internal: stores the summaries of epochs lo..hi of a collection in one scan of its source.';
COMMENT ON FUNCTION @extschema@.collection_epoch_of(c @extschema@.collections, t timestamp with time zone) IS 'Internal: the epoch of a collection row that holds time t.';
COMMENT ON FUNCTION @extschema@.collection_epoch_start(c @extschema@.collections, epoch bigint) IS 'Internal: the first instant of an epoch of a collection row.';
COMMENT ON FUNCTION @extschema@.collection_estimates(name text, confidence double precision) IS 'One row per closed epoch of a mean collection: epoch, its start, rows, estimate, standard error and confidence interval (NULL for an epoch without reports).';
COMMENT ON FUNCTION @extschema@.collection_frequencies(name text, consistency text) IS 'One row per item and closed epoch of a frequency collection: frequency, standard error and 95% interval (consistency as in ldp.frequencies; epochs without reports have no rows).';
COMMENT ON FUNCTION @extschema@.collection_of_kind(collection text, kind text) IS 'Internal: a collection''s row, or error 42809 unless it summarizes the given kind.';
COMMENT ON FUNCTION @extschema@.collection_row(collection text, lock boolean) IS 'Internal: a collection''s row (locked FOR UPDATE when asked), or error 42704.';
COMMENT ON FUNCTION @extschema@.collection_scan(c @extschema@.collections, with_summary boolean, grouped boolean) IS 'Internal: the query that counts (and summarizes) a collection''s source rows per epoch between two instants.';
COMMENT ON FUNCTION @extschema@.epoch_of(collection text, t timestamp with time zone) IS 'The epoch of the collection that holds time t: floor((t - starts_at) / epoch_length).';
COMMENT ON FUNCTION @extschema@.epoch_start(collection text, epoch bigint) IS 'The first instant of an epoch of the collection: starts_at + epoch·epoch_length (days of 24 hours).';
COMMENT ON AGGREGATE @extschema@.laplace_mean_agg(report double precision, epsilon double precision, max_value double precision) IS 'Laplace mechanism (baseline): summary estimating the mean of values in [0, max_value] from value + Lap(max_value/epsilon) reports.';
COMMENT ON AGGREGATE @extschema@.oue_agg(report bit varying, epsilon double precision) IS 'Optimized unary encoding: k-bit reports; frequency summary.';
COMMENT ON AGGREGATE @extschema@.piecewise_mean_agg(report double precision, epsilon double precision, max_value double precision) IS 'Piecewise mechanism (Wang et al. 2019) on [0, max_value]: summary estimating the mean; reports outside the mechanism''s range are rejected.';
COMMENT ON AGGREGATE @extschema@.rollup(@extschema@.freq_summary) IS 'Merges frequency summaries of the same mechanism and parameters.';
COMMENT ON AGGREGATE @extschema@.rollup(@extschema@.mean_summary) IS 'Merges mean summaries of the same mechanism and parameters (e.g. daily summaries into a weekly one).';
COMMENT ON AGGREGATE @extschema@.sue_agg(report bit varying, epsilon double precision) IS 'Symmetric unary encoding (basic one-time RAPPOR, BinFlip): k-bit reports, bit v = item v from the left; frequency summary.';
COMMENT ON FUNCTION @extschema@.thresh_history(name text) IS 'One row per THRESH epoch whose votes are closed: votes, share of 1s, the threshold it was compared with, the decision, and once closed the estimate reports, published estimate, standard error and last update epoch.';
COMMENT ON FUNCTION @extschema@.thresh_params(name text) IS 'What every device of a THRESH stream needs: its configuration, a, b, the vote threshold (for n votes) and thresholds[1] = tau_-1 .. thresholds[ceil(log2 T)+2] = tau_ceil(log2 T).';
COMMENT ON FUNCTION @extschema@.thresh_status(name text) IS 'A THRESH stream now: current epoch and phase (voting, estimating, closed, finished), the epoch of the last global update, the published estimate p~ and its standard error, and the reports received so far in this epoch.';
COMMENT ON FUNCTION @extschema@.thresh_stream(name text, lock boolean) IS 'Internal: a THRESH stream''s row (locked FOR UPDATE when asked), or error 42704.';
