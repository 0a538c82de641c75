-- 0.6.0 -> 0.7.0: collections and THRESH streams follow PostgreSQL's role rules (issue 19).
-- Each collection and stream gets a view that its owner owns and on which its grants are
-- made (ldp_collections.<name>, ldp_thresh_streams.<name>): DROP ROLE, REASSIGN OWNED,
-- DROP OWNED, \dp and pg_dump then act on them. The catalog tables become
-- ldp.collection_catalog and ldp.thresh_catalog without their owner and acl columns;
-- ldp.collections and ldp.thresh_streams are views that add the views' owners and grants.
-- An object whose owner role no longer exists goes to the extension's owner (WARNING);
-- a grant to a role that no longer exists is dropped (WARNING). Closed epochs, THRESH
-- state and reports are kept. New: ldp.alter_collection_owner, ldp.alter_thresh_owner,
-- event triggers ldp_backing_dropped and ldp_backing_guard. Also: THRESH parameters that
-- are not finite are refused (22003), and a duplicate report's error names batch
-- positions, not user ids.
-- (Generated once from extension/sql/*.sql of 0.7.0 for its function definitions; the
-- released script is never edited.)
\echo Use "ALTER EXTENSION ldp UPDATE TO '0.7.0'" to load this file. \quit


-- 1. The schemas of the backing views and the helpers of 30_security.sql

CREATE SCHEMA ldp_collections;

COMMENT ON SCHEMA ldp_collections IS 'One view per ldp collection, named as the collection: its owner and grants are the collection''s (read = SELECT, close = UPDATE); it shows the closed epochs. Made and dropped by ldp.create_collection and ldp.drop_collection.';

GRANT USAGE ON SCHEMA ldp_collections TO PUBLIC;

CREATE SCHEMA ldp_thresh_streams;

COMMENT ON SCHEMA ldp_thresh_streams IS 'One view per ldp THRESH stream, named as the stream: its owner and grants are the stream''s (read = SELECT, submit = INSERT, close = UPDATE); it shows the stream''s history. Made and dropped by ldp.thresh_create and ldp.thresh_drop.';

GRANT USAGE ON SCHEMA ldp_thresh_streams TO PUBLIC;

CREATE FUNCTION @extschema@.backing_name(name text) RETURNS name
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
  SELECT CASE WHEN pg_catalog.octet_length(name) <= 63 THEN name::pg_catalog.name
              ELSE ('ldp_' || pg_catalog.md5(name))::pg_catalog.name END $$;

COMMENT ON FUNCTION @extschema@.backing_name(text) IS 'The relation name of the view backing a collection or THRESH stream of this name (in ldp_collections or ldp_thresh_streams): the name itself, or ldp_<md5> for a name of more than 63 bytes made before 0.7.0.';

CREATE FUNCTION @extschema@.has_privilege(who oid, object oid, privilege text)
  RETURNS boolean LANGUAGE sql STABLE PARALLEL SAFE
  SET search_path = pg_catalog, pg_temp AS $$
  SELECT CASE WHEN privilege = 'OWNER' THEN pg_catalog.pg_has_role(who, c.relowner, 'USAGE')
              ELSE pg_catalog.has_table_privilege(who, c.oid, privilege) END
  FROM pg_catalog.pg_class c WHERE c.oid = object $$;

COMMENT ON FUNCTION @extschema@.has_privilege(oid, oid, text) IS 'Internal: whether a role may use a privilege (SELECT = read, UPDATE = close, INSERT = submit, OWNER) on the collection or THRESH stream backed by a view (PostgreSQL''s own privileges on that view).';

CREATE FUNCTION @extschema@.has_privilege(object oid, privilege text)
  RETURNS boolean LANGUAGE sql STABLE PARALLEL SAFE
  SET search_path = pg_catalog, pg_temp AS $$
  SELECT @extschema@.has_privilege((SELECT r.oid FROM pg_catalog.pg_roles r WHERE r.rolname = current_user),
                                   object, privilege) $$;

COMMENT ON FUNCTION @extschema@.has_privilege(oid, text) IS 'Internal: whether the current role may use a privilege on the collection or THRESH stream backed by a view (ldp.collections, ldp.thresh_streams, row-level security).';

CREATE OR REPLACE FUNCTION @extschema@.privilege_type(privilege text, allowed text[]) RETURNS text
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

COMMENT ON FUNCTION @extschema@.privilege_type(text, text[]) IS 'Internal: the privilege type of a privilege name (read = SELECT, close = UPDATE, submit = INSERT), or error 22023.';

CREATE FUNCTION @extschema@.backing_name_free(schema name, name text, what text, taken boolean)
  RETURNS void LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF name IS NULL OR name = '' THEN
    RAISE EXCEPTION 'a % needs a non-empty name', what USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF pg_catalog.octet_length(name) > 63 THEN
    RAISE EXCEPTION 'the name of a % must be at most 63 bytes (the name of its view), got %', what,
      pg_catalog.octet_length(name) USING ERRCODE = 'name_too_long';
  END IF;
  IF taken OR pg_catalog.to_regclass(pg_catalog.format('%I.%I', schema, name)) IS NOT NULL THEN
    RAISE EXCEPTION '% "%" already exists', what, name USING ERRCODE = 'duplicate_object';
  END IF;
END $$;

REVOKE ALL ON FUNCTION @extschema@.backing_name_free(name, text, text, boolean) FROM PUBLIC;

COMMENT ON FUNCTION @extschema@.backing_name_free(name, text, text, boolean) IS 'Internal: refuses the name of a new collection or THRESH stream that is empty (22023), longer than 63 bytes (42622) or taken (42710).';

CREATE FUNCTION @extschema@.backing_create(schema name, name text, owner oid, definition text, what text)
  RETURNS void LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  rel name := @extschema@.backing_name(name);
BEGIN
  EXECUTE pg_catalog.format('CREATE VIEW %I.%I WITH (security_barrier) AS %s', schema, rel, definition);
  EXECUTE pg_catalog.format('ALTER VIEW %I.%I OWNER TO %s', schema, rel, owner::regrole);
  EXECUTE pg_catalog.format('COMMENT ON VIEW %I.%I IS %L', schema, rel,
    pg_catalog.format('Backs the ldp %s %s: its owner and grants are the %s''s (README "Security and privileges"). Made by ldp; drop the %s with ldp''s function, or with DROP VIEW, DROP OWNED.',
                      what, pg_catalog.quote_ident(name), what, what));
END $$;

REVOKE ALL ON FUNCTION @extschema@.backing_create(name, text, oid, text, text) FROM PUBLIC;

COMMENT ON FUNCTION @extschema@.backing_create(name, text, oid, text, text) IS 'Internal: creates the view backing a collection or THRESH stream, owned by its owner.';

CREATE FUNCTION @extschema@.backing_grant(object oid, privilege text, grantee text, grant_it boolean)
  RETURNS void LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  who text;
BEGIN
  IF grantee IS NULL THEN
    RAISE EXCEPTION 'grantee must not be NULL' USING ERRCODE = 'null_value_not_allowed';
  END IF;
  IF pg_catalog.lower(grantee) = 'public' THEN
    who := 'PUBLIC';
  ELSE
    who := pg_catalog.to_regrole(grantee)::text;
    IF who IS NULL THEN
      RAISE EXCEPTION 'role % does not exist', grantee USING ERRCODE = 'undefined_object';
    END IF;
  END IF;
  EXECUTE pg_catalog.format(CASE WHEN grant_it THEN 'GRANT %s ON %s TO %s' ELSE 'REVOKE %s ON %s FROM %s' END,
                            privilege, object::regclass, who);
END $$;

REVOKE ALL ON FUNCTION @extschema@.backing_grant(oid, text, text, boolean) FROM PUBLIC;

COMMENT ON FUNCTION @extschema@.backing_grant(oid, text, text, boolean) IS 'Internal: grants or revokes a privilege on the view backing a collection or THRESH stream.';

CREATE FUNCTION @extschema@.backing_set_owner(caller oid, object oid, new_owner regrole, what text)
  RETURNS void LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF new_owner IS NULL THEN
    RAISE EXCEPTION 'the new owner must not be NULL' USING ERRCODE = 'null_value_not_allowed';
  END IF;
  IF NOT pg_catalog.pg_has_role(caller, new_owner, 'MEMBER') THEN
    RAISE EXCEPTION 'permission denied to give the % to role %', what, new_owner
      USING ERRCODE = 'insufficient_privilege',
            DETAIL = pg_catalog.format('Only a member of role %s (or a superuser) may make it the owner.', new_owner);
  END IF;
  EXECUTE pg_catalog.format('ALTER VIEW %s OWNER TO %s', object::regclass, new_owner);
END $$;

REVOKE ALL ON FUNCTION @extschema@.backing_set_owner(oid, oid, regrole, text) FROM PUBLIC;

COMMENT ON FUNCTION @extschema@.backing_set_owner(oid, oid, regrole, text) IS 'Internal: changes the owner of the view backing a collection or THRESH stream, if the calling role is a member of the new owner (or a superuser).';

-- 2. The catalog tables keep their data under new names; nobody but the extension's
-- functions reads them now (the views of step 4 are what users query).
DROP POLICY collections_readable ON @extschema@.collections;
ALTER TABLE @extschema@.collections DISABLE ROW LEVEL SECURITY;
ALTER TABLE @extschema@.collections RENAME TO collection_catalog;
ALTER INDEX @extschema@.collections_pkey RENAME TO collection_catalog_pkey;
ALTER TABLE @extschema@.collection_catalog RENAME CONSTRAINT collections_name_check TO collection_catalog_name_check;
REVOKE ALL ON @extschema@.collection_catalog FROM PUBLIC;
COMMENT ON TABLE @extschema@.collection_catalog IS 'Internal: one row per collection (ldp.create_collection): the source table, its time column, the epoch length and the validated summary call. Query ldp.collections.';

DROP POLICY thresh_streams_readable ON @extschema@.thresh_streams;
ALTER TABLE @extschema@.thresh_streams DISABLE ROW LEVEL SECURITY;
ALTER TABLE @extschema@.thresh_streams RENAME TO thresh_catalog;
ALTER SEQUENCE @extschema@.thresh_streams_id_seq RENAME TO thresh_catalog_id_seq;
ALTER INDEX @extschema@.thresh_streams_pkey RENAME TO thresh_catalog_pkey;
ALTER INDEX @extschema@.thresh_streams_id_key RENAME TO thresh_catalog_id_key;
ALTER TABLE @extschema@.thresh_catalog RENAME CONSTRAINT thresh_streams_name_check TO thresh_catalog_name_check;
ALTER TABLE @extschema@.thresh_catalog RENAME CONSTRAINT thresh_streams_phase_check TO thresh_catalog_phase_check;
REVOKE ALL ON @extschema@.thresh_catalog FROM PUBLIC;
COMMENT ON TABLE @extschema@.thresh_catalog IS 'Internal: one row per THRESH stream: configuration, derived parameters, current epoch and phase, and the running tallies of its reports. Query ldp.thresh_streams.';

-- Policies that read the old tables or the old privilege functions (made again in step 6).
DROP POLICY collection_epochs_readable ON @extschema@.collection_epochs;
DROP POLICY thresh_epochs_readable ON @extschema@.thresh_epochs;
DROP POLICY thresh_votes_owner ON @extschema@.thresh_votes;
DROP POLICY thresh_estimates_owner ON @extschema@.thresh_estimates;


-- 3. Functions whose signature names the old tables' row types (renamed with them)

DROP FUNCTION IF EXISTS @extschema@.collection_row(text, boolean);

DROP FUNCTION IF EXISTS @extschema@.collection_for(oid, text, text);

DROP FUNCTION IF EXISTS @extschema@.collection_of_kind(text, text);

DROP FUNCTION IF EXISTS @extschema@.collection_epoch_of(@extschema@.collection_catalog, timestamptz);

DROP FUNCTION IF EXISTS @extschema@.collection_epoch_start(@extschema@.collection_catalog, bigint);

DROP FUNCTION IF EXISTS @extschema@.collection_checked_start(@extschema@.collection_catalog, bigint);

DROP FUNCTION IF EXISTS @extschema@.collection_source(@extschema@.collection_catalog);

DROP FUNCTION IF EXISTS @extschema@.collection_scan(@extschema@.collection_catalog, boolean, boolean);

DROP FUNCTION IF EXISTS @extschema@.collection_summary_type(@extschema@.collection_catalog);

DROP FUNCTION IF EXISTS @extschema@.collection_probe(@extschema@.collection_catalog, regrole);

DROP FUNCTION IF EXISTS @extschema@.collection_close_range(@extschema@.collection_catalog, bigint, bigint, boolean);

DROP FUNCTION IF EXISTS @extschema@.thresh_decide(@extschema@.thresh_catalog, bigint, bigint);

DROP FUNCTION IF EXISTS @extschema@.thresh_decode(@extschema@.thresh_catalog, bigint, bigint);

DROP FUNCTION IF EXISTS @extschema@.thresh_stream(text, boolean);

DROP FUNCTION IF EXISTS @extschema@.thresh_stream_for(oid, text, text, boolean);

-- The privilege functions over owner and aclitem[] columns.
DROP FUNCTION @extschema@.has_privilege(oid, regrole, aclitem[], text);
DROP FUNCTION @extschema@.has_privilege(regrole, aclitem[], text);
DROP FUNCTION @extschema@.acl_change(aclitem[], oid, text, text, boolean);


-- 4. What users query: views over the catalog with the owner and grants of each backing view

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

CREATE VIEW @extschema@.thresh_streams WITH (security_barrier) AS
  SELECT s.id, s.name, s.users, s.epochs, s.epoch_rounds, s.min_group_size, s.groups, s.epsilon, s.delta,
         s.vote_noise, s.estimate_noise, s.threshold_unit, s.vote_threshold, s.thresholds, s.epoch, s.phase,
         s.votes, s.yes_votes, s.estimate_reports, s.estimate_ones, s.last_update_epoch, s.estimate,
         s.std_error, s.created_at, v.relowner::regrole AS owner, v.relacl AS acl, v.oid::regclass AS backing_view
  FROM @extschema@.thresh_catalog s
  JOIN pg_catalog.pg_class v ON v.relnamespace = 'ldp_thresh_streams'::regnamespace
                            AND v.relname = @extschema@.backing_name(s.name)
  WHERE @extschema@.has_privilege(v.oid, 'SELECT');

COMMENT ON VIEW @extschema@.thresh_streams IS 'One row per THRESH stream the current role may read: configuration, derived parameters, current epoch and phase, the running tallies of its reports, its owner and grants (those of its view, backing_view).';

COMMENT ON COLUMN @extschema@.thresh_streams.owner IS 'The stream''s owner (the owner of its view). REASSIGN OWNED, ldp.alter_thresh_owner and ALTER VIEW ... OWNER TO change it.';

COMMENT ON COLUMN @extschema@.thresh_streams.acl IS 'The grants on the stream''s view (as \dp shows them): SELECT (r) = read, INSERT (a) = submit, UPDATE (w) = close; NULL = the owner''s alone.';

COMMENT ON COLUMN @extschema@.thresh_streams.backing_view IS 'The view ldp_thresh_streams.<name> that carries the stream''s owner and grants and shows its history.';

REVOKE ALL ON @extschema@.thresh_streams FROM PUBLIC;

GRANT SELECT ON @extschema@.thresh_streams TO PUBLIC;

-- 5. The functions of 40_collections.sql and 50_thresh.sql

CREATE OR REPLACE FUNCTION @extschema@.collection_row(collection text, lock boolean DEFAULT false)
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

COMMENT ON FUNCTION @extschema@.collection_row(text, boolean) IS 'Internal: a collection''s row (locked FOR UPDATE when asked), or error 42704.';

CREATE OR REPLACE FUNCTION @extschema@.collection_for(caller oid, collection text, privilege text)
  RETURNS @extschema@.collections LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  c @extschema@.collections;
BEGIN
  SELECT * INTO c FROM @extschema@.collections x WHERE x.name = collection;
  -- it exists for a role that may read it or may do what it asks (close, submit)
  IF NOT FOUND OR NOT (@extschema@.has_privilege(caller, c.backing_view, 'SELECT')
                       OR @extschema@.has_privilege(caller, c.backing_view, privilege)) THEN
    RAISE EXCEPTION 'collection "%" does not exist', collection
      USING ERRCODE = 'undefined_object', HINT = 'Create it with ldp.create_collection.';
  END IF;
  IF NOT @extschema@.has_privilege(caller, c.backing_view, privilege) THEN
    RAISE EXCEPTION 'permission denied for collection "%"', collection
      USING ERRCODE = 'insufficient_privilege',
            DETAIL = CASE privilege WHEN 'UPDATE' THEN 'Closing its epochs needs the close privilege.'
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

COMMENT ON FUNCTION @extschema@.collection_for(oid, text, text) IS 'Internal: a collection''s row locked FOR UPDATE if the role may use the privilege on it; else error 42704 (not readable) or 42501.';

CREATE OR REPLACE FUNCTION @extschema@.collection_of_kind(collection text, kind text)
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

COMMENT ON FUNCTION @extschema@.collection_of_kind(text, text) IS 'Internal: a collection''s row, or error 42809 (naming the function that reads it) unless it keeps summaries of the given kind.';

CREATE OR REPLACE FUNCTION @extschema@.collection_epoch_of(c @extschema@.collections, t timestamptz) RETURNS bigint
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
  SELECT pg_catalog.floor((EXTRACT(epoch FROM t) - EXTRACT(epoch FROM c.starts_at))
                          / EXTRACT(epoch FROM c.epoch_length))::bigint $$;

COMMENT ON FUNCTION @extschema@.collection_epoch_of(@extschema@.collections, timestamptz) IS 'Internal: the epoch of a collection row that holds time t.';

CREATE OR REPLACE FUNCTION @extschema@.collection_epoch_start(c @extschema@.collections, epoch bigint) RETURNS timestamptz
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
  SELECT c.starts_at + (epoch * (EXTRACT(epoch FROM c.epoch_length) * 1000000)::bigint)
                       * interval '1 microsecond' $$;

COMMENT ON FUNCTION @extschema@.collection_epoch_start(@extschema@.collections, bigint) IS 'Internal: the first instant of an epoch of a collection row.';

CREATE OR REPLACE FUNCTION @extschema@.collection_checked_start(c @extschema@.collections, epoch bigint) RETURNS timestamptz
  LANGUAGE plpgsql STABLE STRICT SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  RETURN @extschema@.collection_epoch_start(c, epoch);
EXCEPTION WHEN datetime_field_overflow OR numeric_value_out_of_range THEN
  RAISE EXCEPTION 'epoch % of collection "%" is outside the range of timestamps', epoch, c.name
    USING ERRCODE = 'invalid_parameter_value';
END $$;

COMMENT ON FUNCTION @extschema@.collection_checked_start(@extschema@.collections, bigint) IS 'Internal: the first instant of an epoch of a collection row, or error 22023 when it is not a representable time.';

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

COMMENT ON FUNCTION @extschema@.collection_scan(@extschema@.collections, boolean, boolean) IS 'Internal: the query that counts (and summarizes) a collection''s source rows per epoch between two instants.';

CREATE OR REPLACE FUNCTION @extschema@.collection_summary_type(c @extschema@.collections) RETURNS text
  LANGUAGE sql STABLE STRICT SET search_path = pg_catalog, pg_temp AS $$
  SELECT k.summary_type::text FROM @extschema@.summary_kinds k WHERE k.kind = c.kind $$;

COMMENT ON FUNCTION @extschema@.collection_summary_type(@extschema@.collections) IS 'Internal: the summary type of a collection''s kind (ldp.summary_kinds).';

CREATE OR REPLACE FUNCTION @extschema@.collection_probe(c @extschema@.collections, role regrole) RETURNS regtype
  LANGUAGE sql SET search_path = pg_catalog, pg_temp AS $$
  SELECT r.t
  FROM @extschema@._as_role(role,
         pg_catalog.format('SELECT pg_catalog.pg_typeof((%s' || pg_catalog.chr(10) || ')) FROM (SELECT * FROM %s LIMIT 1) AS src',
                           c.summary, @extschema@.collection_source(c)), NULL, NULL) AS r(t regtype) $$;

REVOKE ALL ON FUNCTION @extschema@.collection_probe(@extschema@.collections, regrole) FROM PUBLIC;

COMMENT ON FUNCTION @extschema@.collection_probe(@extschema@.collections, regrole) IS 'Internal: the type of a collection''s summary call run by a role on one row of its source (after checking the definition).';

CREATE OR REPLACE FUNCTION @extschema@.collection_view_query(name text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT SET search_path = pg_catalog, pg_temp AS $$
  SELECT pg_catalog.format('SELECT e.epoch, e.epoch_start, e.reports, e.closed_at, e.summary'
                           ' FROM @extschema@.collection_epochs e WHERE e.collection = %L', name) $$;

REVOKE ALL ON FUNCTION @extschema@.collection_view_query(text) FROM PUBLIC;

COMMENT ON FUNCTION @extschema@.collection_view_query(text) IS 'Internal: the query of the view backing a collection (its closed epochs).';

CREATE OR REPLACE FUNCTION @extschema@.collection_close_range(c @extschema@.collections, lo bigint, hi bigint, refresh boolean)
  RETURNS bigint LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  closed bigint;
BEGIN
  -- the source query runs as the collection's owner; its rows are joined here
  EXECUTE pg_catalog.format(
    'INSERT INTO @extschema@.collection_epochs AS ce (collection, epoch, epoch_start, reports, summary)'
    ' SELECT $3, g.e, @extschema@.collection_epoch_start($4, g.e), coalesce(r.n, 0), r.s::@extschema@.summary'
    ' FROM pg_catalog.generate_series($5, $6) AS g(e)'
    ' LEFT JOIN @extschema@._as_role($7, $8, $1, $2) AS r(bin timestamptz, n bigint, s %s)'
    '   ON r.bin = @extschema@.collection_epoch_start($4, g.e)'
    ' ON CONFLICT (collection, epoch) DO %s',
    @extschema@.collection_summary_type(c),
    CASE WHEN refresh THEN 'UPDATE SET reports = excluded.reports, summary = excluded.summary, closed_at = excluded.closed_at'
         ELSE 'NOTHING' END)
  USING @extschema@.collection_checked_start(c, lo), @extschema@.collection_checked_start(c, hi + 1),
        c.name, c, lo, hi, c.owner, @extschema@.collection_scan(c, true, lo < hi);
  GET DIAGNOSTICS closed = ROW_COUNT;
  RETURN closed;
END $$;

REVOKE ALL ON FUNCTION @extschema@.collection_close_range(@extschema@.collections, bigint, bigint, boolean) FROM PUBLIC;

COMMENT ON FUNCTION @extschema@.collection_close_range(@extschema@.collections, bigint, bigint, boolean) IS 'Internal: stores the summaries of epochs lo..hi of a collection in one scan of its source.';

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
  PERFORM @extschema@.backing_create('ldp_collections', name, caller, @extschema@.collection_view_query(name), 'collection');
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
  EXECUTE pg_catalog.format('DROP VIEW %s', c.backing_view);
END $$;

REVOKE ALL ON FUNCTION @extschema@._drop_collection(regrole, text) FROM PUBLIC;

COMMENT ON FUNCTION @extschema@._drop_collection(regrole, text) IS 'Internal: ldp.drop_collection run as the catalog''s owner for the calling role.';

CREATE OR REPLACE FUNCTION @extschema@.drop_collection(name text) RETURNS void
  AS 'MODULE_PATHNAME', 'ldp_privileged' LANGUAGE C VOLATILE;

COMMENT ON FUNCTION @extschema@.drop_collection(text) IS 'Forgets a collection and its closed epochs, and drops its view (the source table is left alone). Its owner only.';

CREATE OR REPLACE FUNCTION @extschema@._alter_collection_owner(caller regrole, name text, new_owner regrole) RETURNS void
  LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  c @extschema@.collections := @extschema@.collection_for(caller, name, 'OWNER');
BEGIN
  PERFORM @extschema@.backing_set_owner(caller, c.backing_view, new_owner, 'collection');
  -- the new owner must be able to run the collection's query (as at its creation)
  PERFORM @extschema@.collection_probe(c, new_owner);
END $$;

REVOKE ALL ON FUNCTION @extschema@._alter_collection_owner(regrole, text, regrole) FROM PUBLIC;

COMMENT ON FUNCTION @extschema@._alter_collection_owner(regrole, text, regrole) IS 'Internal: ldp.alter_collection_owner run as the catalog''s owner for the calling role.';

CREATE OR REPLACE FUNCTION @extschema@.alter_collection_owner(name text, new_owner regrole) RETURNS void
  AS 'MODULE_PATHNAME', 'ldp_privileged' LANGUAGE C VOLATILE;

COMMENT ON FUNCTION @extschema@.alter_collection_owner(text, regrole) IS 'Gives a collection to another role, which then owns its view and whose rights its query runs with: by its owner, if a member of the new owner, or by a superuser (as ALTER ... OWNER TO). The new owner must be able to run the summary on the source. REASSIGN OWNED moves collections too.';

CREATE OR REPLACE FUNCTION @extschema@.collection_grant(caller oid, collection text, privilege text, grantee text, grant_it boolean)
  RETURNS void LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  c @extschema@.collections := @extschema@.collection_for(caller, collection, 'OWNER');
BEGIN
  PERFORM @extschema@.backing_grant(c.backing_view, @extschema@.privilege_type(privilege, ARRAY['read', 'close']),
                                    grantee, grant_it);
END $$;

REVOKE ALL ON FUNCTION @extschema@.collection_grant(oid, text, text, text, boolean) FROM PUBLIC;

COMMENT ON FUNCTION @extschema@.collection_grant(oid, text, text, text, boolean) IS 'Internal: grants or revokes a privilege on a collection for its owner.';

CREATE OR REPLACE FUNCTION @extschema@.thresh_decide(stream @extschema@.thresh_streams, votes bigint, yes_votes bigint,
    OUT vote_threshold float8, OUT global_update boolean)
  AS 'MODULE_PATHNAME', 'ldp_thresh_decide' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.thresh_decide(@extschema@.thresh_streams, bigint, bigint) IS 'Internal: THRESH''s update rule on an epoch''s votes (the threshold uses the number of votes received).';

CREATE OR REPLACE FUNCTION @extschema@.thresh_decode(stream @extschema@.thresh_streams, reports bigint, ones bigint,
    OUT estimate float8, OUT std_error float8)
  AS 'MODULE_PATHNAME', 'ldp_thresh_decode' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.thresh_decode(@extschema@.thresh_streams, bigint, bigint) IS 'Internal: the global estimate and its standard error from an epoch''s estimate reports.';

CREATE OR REPLACE FUNCTION @extschema@.thresh_stream(name text, lock boolean DEFAULT false)
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

COMMENT ON FUNCTION @extschema@.thresh_stream(text, boolean) IS 'Internal: a THRESH stream''s row (locked FOR UPDATE when asked), or error 42704.';

CREATE OR REPLACE FUNCTION @extschema@.thresh_stream_for(caller oid, name text, privilege text, lock boolean)
  RETURNS @extschema@.thresh_streams LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  s @extschema@.thresh_streams;
BEGIN
  SELECT * INTO s FROM @extschema@.thresh_streams t WHERE t.name = thresh_stream_for.name;
  -- it exists for a role that may read it or may do what it asks (close, submit)
  IF NOT FOUND OR NOT (@extschema@.has_privilege(caller, s.backing_view, 'SELECT')
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

COMMENT ON FUNCTION @extschema@.thresh_stream_for(oid, text, text, boolean) IS 'Internal: a THRESH stream''s row (locked FOR UPDATE when asked) if the role may use the privilege on it; else error 42704 (not readable) or 42501.';

CREATE OR REPLACE FUNCTION @extschema@.thresh_view_query(name text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT SET search_path = pg_catalog, pg_temp AS $$
  SELECT pg_catalog.format('SELECT h.epoch, h.votes, h.yes_votes, h.vote_threshold, h.global_update, h.estimate_reports,'
                           ' h.estimate_ones, h.estimate, h.std_error, h.last_update_epoch, h.votes_closed_at, h.closed_at'
                           ' FROM @extschema@.thresh_epochs h'
                           ' WHERE h.stream = (SELECT s.id FROM @extschema@.thresh_streams s WHERE s.name = %L)', name) $$;

REVOKE ALL ON FUNCTION @extschema@.thresh_view_query(text) FROM PUBLIC;

COMMENT ON FUNCTION @extschema@.thresh_view_query(text) IS 'Internal: the query of the view backing a THRESH stream (its history).';

CREATE OR REPLACE FUNCTION @extschema@._thresh_create(caller regrole, name text, users bigint, epochs int, epoch_rounds int,
    min_group_size bigint, groups int, epsilon float8, delta float8,
    vote_noise float8, estimate_noise float8, threshold_unit float8)
  RETURNS void LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  p record;
BEGIN
  PERFORM @extschema@.backing_name_free('ldp_thresh_streams', name, 'THRESH stream',
    EXISTS (SELECT 1 FROM @extschema@.thresh_catalog t WHERE t.name = _thresh_create.name));
  p := @extschema@.thresh_derive(users, epochs, epoch_rounds, min_group_size, groups, epsilon, delta,
                                 vote_noise, estimate_noise, threshold_unit);
  IF p.worst_case_loss > epsilon THEN
    RAISE WARNING 'THRESH stream "%": a user''s privacy loss can reach % > epsilon = %', name,
      pg_catalog.round(p.worst_case_loss::numeric, 4), epsilon
      USING DETAIL = pg_catalog.format('Truthful votes fall in data-dependent epochs: up to 2·a·ceil(eps/(4a)) + b·ceil(eps/(4b)) with a = %s, b = %s.',
                                       pg_catalog.round(p.a::numeric, 4), pg_catalog.round(p.b::numeric, 4)),
            HINT = 'Smaller vote and estimate noises (larger groups, shorter epochs) or a larger epsilon restore eps-LDP.';
  END IF;
  INSERT INTO @extschema@.thresh_catalog (name, users, epochs, epoch_rounds, min_group_size, groups, epsilon,
      delta, vote_noise, estimate_noise, threshold_unit, vote_threshold, thresholds)
  VALUES (name, users, epochs, epoch_rounds, min_group_size, groups, epsilon, delta, p.a, p.b,
          threshold_unit, p.vote_threshold, p.thresholds);
  PERFORM @extschema@.backing_create('ldp_thresh_streams', name, caller, @extschema@.thresh_view_query(name), 'THRESH stream');
END $$;

REVOKE ALL ON FUNCTION @extschema@._thresh_create(regrole, text, bigint, int, int, bigint, int, float8, float8, float8, float8, float8) FROM PUBLIC;

COMMENT ON FUNCTION @extschema@._thresh_create(regrole, text, bigint, int, int, bigint, int, float8, float8, float8, float8, float8) IS 'Internal: ldp.thresh_create run as the catalog''s owner for the calling role.';

CREATE OR REPLACE FUNCTION @extschema@._thresh_drop(caller regrole, name text) RETURNS void
  LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  s @extschema@.thresh_streams := @extschema@.thresh_stream_for(caller, name, 'OWNER', true);
BEGIN
  DELETE FROM @extschema@.thresh_votes WHERE stream = s.id;
  DELETE FROM @extschema@.thresh_estimates WHERE stream = s.id;
  DELETE FROM @extschema@.thresh_catalog WHERE id = s.id;
  EXECUTE pg_catalog.format('DROP VIEW %s', s.backing_view);
END $$;

REVOKE ALL ON FUNCTION @extschema@._thresh_drop(regrole, text) FROM PUBLIC;

COMMENT ON FUNCTION @extschema@._thresh_drop(regrole, text) IS 'Internal: ldp.thresh_drop run as the catalog''s owner for the calling role.';

CREATE OR REPLACE FUNCTION @extschema@.thresh_drop(name text) RETURNS void
  AS 'MODULE_PATHNAME', 'ldp_privileged' LANGUAGE C VOLATILE;

COMMENT ON FUNCTION @extschema@.thresh_drop(text) IS 'Deletes a THRESH stream with its reports and history, and drops its view. Its owner only.';

CREATE OR REPLACE FUNCTION @extschema@._alter_thresh_owner(caller regrole, name text, new_owner regrole) RETURNS void
  LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  s @extschema@.thresh_streams := @extschema@.thresh_stream_for(caller, name, 'OWNER', true);
BEGIN
  PERFORM @extschema@.backing_set_owner(caller, s.backing_view, new_owner, 'THRESH stream');
END $$;

REVOKE ALL ON FUNCTION @extschema@._alter_thresh_owner(regrole, text, regrole) FROM PUBLIC;

COMMENT ON FUNCTION @extschema@._alter_thresh_owner(regrole, text, regrole) IS 'Internal: ldp.alter_thresh_owner run as the catalog''s owner for the calling role.';

CREATE OR REPLACE FUNCTION @extschema@.alter_thresh_owner(name text, new_owner regrole) RETURNS void
  AS 'MODULE_PATHNAME', 'ldp_privileged' LANGUAGE C VOLATILE;

COMMENT ON FUNCTION @extschema@.alter_thresh_owner(text, regrole) IS 'Gives a THRESH stream to another role, which then owns its view: by its owner, if a member of the new owner, or by a superuser (as ALTER ... OWNER TO). REASSIGN OWNED moves streams too.';

CREATE OR REPLACE FUNCTION @extschema@.thresh_submit(caller oid, name text, epoch int, user_ids bigint[], bits boolean[], kind text)
  RETURNS bigint LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  s @extschema@.thresh_streams := @extschema@.thresh_stream_for(caller, name, 'INSERT', false);
  want text := CASE kind WHEN 'votes' THEN 'voting' ELSE 'estimating' END;
  n bigint;
  ones bigint;
  dups bigint[];
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
       OR (kind <> 'votes' AND EXISTS (SELECT 1 FROM @extschema@.thresh_estimates v
                                       WHERE v.stream = s.id AND v.epoch = thresh_submit.epoch AND v.user_id = u.id));
    RAISE EXCEPTION '% of the batch''s % user ids already sent % for epoch % of THRESH stream "%", or appear in it twice',
      coalesce(pg_catalog.cardinality(dups), 0), n, CASE kind WHEN 'votes' THEN 'a vote' ELSE 'an estimate' END, epoch, name
      USING ERRCODE = 'unique_violation',
            DETAIL = pg_catalog.format('Their positions in the batch (from 1; a user id twice in the batch from its second time): %s.',
                                       pg_catalog.array_to_string(dups[1:100], ', ')
                                       || CASE WHEN pg_catalog.cardinality(dups) > 100 THEN ', ...' ELSE '' END),
            HINT = 'The whole batch was refused; send it again without them.';
  END;
  -- The tallies, re-checking the phase under the row lock: a close that got there
  -- first has moved the phase on and the batch is refused; a close that comes
  -- later waits for this transaction and counts it.
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

REVOKE ALL ON FUNCTION @extschema@.thresh_submit(oid, text, int, bigint[], boolean[], text) FROM PUBLIC;

COMMENT ON FUNCTION @extschema@.thresh_submit(oid, text, int, bigint[], boolean[], text) IS 'Internal: stores a batch of THRESH votes or estimates whole for a role with the submit privilege, or refuses it whole.';

CREATE OR REPLACE FUNCTION @extschema@._thresh_close_votes(caller regrole, name text, epoch int) RETURNS void
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

CREATE OR REPLACE FUNCTION @extschema@.thresh_grant(caller oid, stream text, privilege text, grantee text, grant_it boolean)
  RETURNS void LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  s @extschema@.thresh_streams := @extschema@.thresh_stream_for(caller, stream, 'OWNER', true);
BEGIN
  PERFORM @extschema@.backing_grant(s.backing_view, @extschema@.privilege_type(privilege, ARRAY['read', 'submit', 'close']),
                                    grantee, grant_it);
END $$;

REVOKE ALL ON FUNCTION @extschema@.thresh_grant(oid, text, text, text, boolean) FROM PUBLIC;

COMMENT ON FUNCTION @extschema@.thresh_grant(oid, text, text, text, boolean) IS 'Internal: grants or revokes a privilege on a THRESH stream for its owner.';

-- 6. Row-level security of the epoch and report tables

CREATE POLICY collection_epochs_readable ON @extschema@.collection_epochs FOR SELECT
  USING (EXISTS (SELECT 1 FROM @extschema@.collections c WHERE c.name = collection));

CREATE POLICY thresh_epochs_readable ON @extschema@.thresh_epochs FOR SELECT
  USING (EXISTS (SELECT 1 FROM @extschema@.thresh_streams s WHERE s.id = stream));

CREATE POLICY thresh_votes_owner ON @extschema@.thresh_votes FOR SELECT
  USING (EXISTS (SELECT 1 FROM @extschema@.thresh_streams s
                 WHERE s.id = stream AND @extschema@.has_privilege(s.backing_view, 'OWNER')));

CREATE POLICY thresh_estimates_owner ON @extschema@.thresh_estimates FOR SELECT
  USING (EXISTS (SELECT 1 FROM @extschema@.thresh_streams s
                 WHERE s.id = stream AND @extschema@.has_privilege(s.backing_view, 'OWNER')));

-- 7. Every collection and stream gets its view, owned by its owner (by the extension's
-- owner when that role no longer exists), with its grants; the views are not members
-- of the extension (pg_dump dumps them with their owners and grants, as when
-- ldp.create_collection and ldp.thresh_create make them).
DO $$
DECLARE
  ext_owner regrole := (SELECT e.extowner FROM pg_catalog.pg_extension e WHERE e.extname = 'ldp')::regrole;
  o record;
  g record;
  owner regrole;
  view regclass;
BEGIN
  FOR o IN SELECT 'collection' AS what, 'ldp_collections' AS schema, c.name, c.owner, c.acl,
                  @extschema@.collection_view_query(c.name) AS query
           FROM @extschema@.collection_catalog c
           UNION ALL
           SELECT 'THRESH stream', 'ldp_thresh_streams', t.name, t.owner, t.acl, @extschema@.thresh_view_query(t.name)
           FROM @extschema@.thresh_catalog t
           ORDER BY 1, 3 LOOP
    owner := o.owner;
    IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles r WHERE r.oid = o.owner) THEN
      RAISE WARNING 'ldp % "%": its owner no longer exists; it now belongs to %', o.what, o.name, ext_owner
        USING DETAIL = pg_catalog.format('Its owner was the role of OID %s, dropped under an earlier version.', o.owner::oid);
      owner := ext_owner;
    END IF;
    PERFORM @extschema@.backing_create(o.schema, o.name, owner, o.query, o.what);
    view := pg_catalog.format('%I.%I', o.schema, @extschema@.backing_name(o.name))::regclass;
    EXECUTE pg_catalog.format('ALTER EXTENSION ldp DROP VIEW %s', view);
    FOR g IN SELECT a.grantee, a.privilege_type
             FROM pg_catalog.aclexplode(CASE WHEN pg_catalog.cardinality(o.acl) > 0 THEN o.acl END) a LOOP
      IF g.grantee = 0 THEN
        PERFORM @extschema@.backing_grant(view, g.privilege_type, 'public', true);
      ELSIF EXISTS (SELECT 1 FROM pg_catalog.pg_roles r WHERE r.oid = g.grantee) THEN
        PERFORM @extschema@.backing_grant(view, g.privilege_type, g.grantee::regrole::text, true);
      ELSE
        RAISE WARNING 'ldp % "%": a grant of % to a role that no longer exists is dropped',
          o.what, o.name, g.privilege_type
          USING DETAIL = pg_catalog.format('The grantee was the role of OID %s.', g.grantee);
      END IF;
    END LOOP;
    -- Grants made in an extension script are recorded as the object's initial
    -- privileges, which pg_dump leaves out; a view made by ldp.create_collection has
    -- none, and neither may these.
    DELETE FROM pg_catalog.pg_init_privs i WHERE i.classoid = 'pg_catalog.pg_class'::regclass AND i.objoid = view;
  END LOOP;
END $$;
ALTER TABLE @extschema@.collection_catalog DROP COLUMN owner, DROP COLUMN acl;
ALTER TABLE @extschema@.thresh_catalog DROP COLUMN owner, DROP COLUMN acl;


-- 8. Event triggers (70_role_rules.sql)

------------------------------------------------------------------------------
-- PostgreSQL's role rules for collections and THRESH streams (30_security.sql): the
-- views that back them are ordinary relations, so DROP ROLE, REASSIGN OWNED, DROP
-- OWNED, GRANT, REVOKE, ALTER ... OWNER TO and pg_dump act on them unchanged. Two
-- event triggers keep the catalog in step:
-- * a view dropped by DROP VIEW, DROP OWNED or DROP SCHEMA ... CASCADE drops its
--   collection (with its closed epochs) or stream (with its reports and history);
-- * an ALTER that would rename a view, move it to another schema or rename ldp's
--   schemas (the catalog finds a view by its name) is refused.
-- Their functions are C entry points (ldp_privileged) whose twins run as the
-- catalog's owner: whoever drops a view may not write the catalog itself.
------------------------------------------------------------------------------

CREATE FUNCTION @extschema@._backing_dropped(caller regrole) RETURNS void
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
      DELETE FROM @extschema@.thresh_catalog t WHERE t.id = ANY (ids);  -- its history cascades
    END IF;
  END LOOP;
END $$;
REVOKE ALL ON FUNCTION @extschema@._backing_dropped(regrole) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@._backing_dropped(regrole) IS 'Internal: drops the collections and THRESH streams whose views the current command dropped (event trigger ldp_backing_dropped, as the catalog''s owner).';
CREATE FUNCTION @extschema@.backing_dropped() RETURNS event_trigger
  AS 'MODULE_PATHNAME', 'ldp_privileged' LANGUAGE C;
REVOKE ALL ON FUNCTION @extschema@.backing_dropped() FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.backing_dropped() IS 'Internal: event trigger function of ldp_backing_dropped.';
CREATE EVENT TRIGGER ldp_backing_dropped ON sql_drop
  EXECUTE FUNCTION @extschema@.backing_dropped();
COMMENT ON EVENT TRIGGER ldp_backing_dropped IS 'ldp: a dropped view of ldp_collections or ldp_thresh_streams (DROP VIEW, DROP OWNED, DROP SCHEMA ... CASCADE) drops its collection or THRESH stream.';

CREATE FUNCTION @extschema@._backing_guard(caller regrole) RETURNS void
  LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  lost text;
BEGIN
  -- Only commands that touched one of ldp's schemas or a view over the catalog's epoch
  -- tables are checked (an unrelated ALTER never pays for, or trips over, this).
  IF NOT EXISTS (
      SELECT 1 FROM pg_catalog.pg_event_trigger_ddl_commands() c
      WHERE (c.classid = 'pg_catalog.pg_namespace'::regclass AND EXISTS (
               SELECT 1 FROM pg_catalog.pg_depend e
               WHERE e.classid = 'pg_catalog.pg_namespace'::regclass AND e.objid = c.objid AND e.deptype = 'e'
                 AND e.refobjid = (SELECT x.oid FROM pg_catalog.pg_extension x WHERE x.extname = 'ldp')))
         OR (c.classid = 'pg_catalog.pg_class'::regclass AND EXISTS (
               SELECT 1 FROM pg_catalog.pg_rewrite r JOIN pg_catalog.pg_depend e
                 ON e.classid = 'pg_catalog.pg_rewrite'::regclass AND e.objid = r.oid
               WHERE r.ev_class = c.objid
                 AND e.refobjid IN ('@extschema@.collection_epochs'::regclass, '@extschema@.thresh_epochs'::regclass)))) THEN
    RETURN;
  END IF;
  SELECT pg_catalog.format('collection "%s" would lose its view ldp_collections.%I', x.name, @extschema@.backing_name(x.name))
  INTO lost FROM @extschema@.collection_catalog x
  WHERE pg_catalog.to_regclass(pg_catalog.format('ldp_collections.%I', @extschema@.backing_name(x.name))) IS NULL
  LIMIT 1;
  IF lost IS NULL THEN
    SELECT pg_catalog.format('THRESH stream "%s" would lose its view ldp_thresh_streams.%I', t.name, @extschema@.backing_name(t.name))
    INTO lost FROM @extschema@.thresh_catalog t
    WHERE pg_catalog.to_regclass(pg_catalog.format('ldp_thresh_streams.%I', @extschema@.backing_name(t.name))) IS NULL
    LIMIT 1;
  END IF;
  IF lost IS NOT NULL THEN
    RAISE EXCEPTION 'cannot rename or move the views of ldp''s collections and THRESH streams, or their schemas: %', lost
      USING ERRCODE = 'feature_not_supported',
            HINT = 'Owners and grants change as on any view (ALTER VIEW ... OWNER TO, REASSIGN OWNED, GRANT); names do not.';
  END IF;
END $$;
REVOKE ALL ON FUNCTION @extschema@._backing_guard(regrole) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@._backing_guard(regrole) IS 'Internal: refuses an ALTER that leaves a collection or THRESH stream without its view (event trigger ldp_backing_guard, as the catalog''s owner).';
CREATE FUNCTION @extschema@.backing_guard() RETURNS event_trigger
  AS 'MODULE_PATHNAME', 'ldp_privileged' LANGUAGE C;
REVOKE ALL ON FUNCTION @extschema@.backing_guard() FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.backing_guard() IS 'Internal: event trigger function of ldp_backing_guard.';
CREATE EVENT TRIGGER ldp_backing_guard ON ddl_command_end
  WHEN TAG IN ('ALTER VIEW', 'ALTER TABLE', 'ALTER SCHEMA')
  EXECUTE FUNCTION @extschema@.backing_guard();
COMMENT ON EVENT TRIGGER ldp_backing_guard IS 'ldp: refuses to rename or move a view of ldp_collections or ldp_thresh_streams, or to rename those schemas.';
