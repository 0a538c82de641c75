------------------------------------------------------------------------------
-- Security: the privilege model shared by collections (40_collections.sql) and
-- THRESH streams (50_thresh.sql); README "Security and privileges".
--
-- * Collections and THRESH streams have an owner (the role that created them) and
--   grants (read, close, submit) kept as aclitem[]; the catalog tables are readable
--   through row-level security (a role sees what it owns or was granted; superusers
--   see everything) and written by nobody but the extension's own functions. Each
--   table's grants and policies are next to the table.
-- * Every function that changes the catalog is a C entry point (ldp_privileged) that
--   calls its internal twin ldp._<name> as the catalog's owner with the true calling
--   role; the twin checks that role's privileges. A collection's query runs as the
--   collection's owner in a security-restricted operation (ldp._as_role), whoever
--   closes it, and its definition is re-checked every time.
-- * Internal functions (the twins ldp._<name> and the helpers only they call) are not
--   executable by PUBLIC: each is revoked next to its definition (sql/security.sql
--   checks that none is left executable).
-- * Every SQL and PL/pgSQL function pins search_path = pg_catalog, pg_temp and names
--   the extension's objects with their schema.
--
-- The helpers below come first: the row-level security policies of 40 and 50 call
-- ldp.has_privilege.
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
REVOKE ALL ON FUNCTION @extschema@.acl_change(aclitem[], oid, text, text, boolean) FROM PUBLIC;
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
