------------------------------------------------------------------------------
-- Security: the privilege model shared by collections (40_collections.sql) and
-- THRESH streams (50_thresh.sql); docs/security.md.
--
-- * Each collection and THRESH stream is backed by a view that its owner owns and on
--   which its grants are made: ldp_collections.<name> (the collection's closed epochs)
--   and ldp_thresh_streams.<name> (the stream's history). PostgreSQL itself then keeps
--   ownership and grants: pg_shdepend tracks them (DROP ROLE of an owner or grantee
--   fails with 2BP01), REASSIGN OWNED and DROP OWNED act on them, \dp and
--   has_table_privilege show them, pg_dump dumps them by role name. The privileges:
--   read = SELECT, close = UPDATE, submit = INSERT (streams). The views are made at
--   run time (never by an extension script: pg_dump would skip extension members).
--   They are read-only for everyone (two triggers each): the privileges act only
--   through ldp's functions, never as writes through a view. Dropping a collection or
--   stream drops what other roles built on its view (CASCADE, with a NOTICE).
-- * The catalog tables (ldp.collection_catalog, ldp.thresh_catalog) hold the
--   definitions and state and are read by nobody but the extension's own functions;
--   ldp.collections and ldp.thresh_streams are views over them that add the owner and
--   grants of the backing view and show a role the rows it may read.
-- * Every function that changes the catalog is a C entry point (ldp_privileged) that
--   calls its internal twin ldp._<name> as the catalog's owner with the true calling
--   role; the twin checks that role's privileges. A collection's query runs as the
--   collection's owner in a security-restricted operation (ldp._as_role), whoever
--   closes it, and may not change the closing session's state (advisory locks, the
--   random seed, prepared statements, ...); its definition is re-checked every time.
-- * Internal functions (the twins ldp._<name> and the helpers only they call; their
--   comments start with 'Internal') are not executable by PUBLIC: each is revoked next
--   to its definition (sql/security.sql checks that no function whose comment starts
--   with 'Internal' is executable by PUBLIC). The few helpers that the readers (which
--   run with the caller's rights: collection_estimates, thresh_status, ...) and the
--   views' row filters call are executable by PUBLIC; each is a function of its
--   arguments or shows only what ldp.collections and ldp.thresh_streams show the
--   caller, and says so in its comment (docs/security.md#helpers-every-role-may-call).
-- * Every SQL and PL/pgSQL function pins search_path = pg_catalog, pg_temp and names
--   the extension's objects with their schema.
------------------------------------------------------------------------------

-- The schemas of the backing views. Nobody may create in them but the extension's
-- functions (as the catalog's owner); everyone may look (names are visible, as every
-- relation's name is in pg_class; contents follow the grants).
CREATE SCHEMA ldp_collections;
COMMENT ON SCHEMA ldp_collections IS 'One view per ldp collection, named as the collection: its owner and grants are the collection''s (read = SELECT, close = UPDATE); it shows the closed epochs. Made and dropped by ldp.create_collection and ldp.drop_collection.';
GRANT USAGE ON SCHEMA ldp_collections TO PUBLIC;
CREATE SCHEMA ldp_thresh_streams;
COMMENT ON SCHEMA ldp_thresh_streams IS 'One view per ldp THRESH stream, named as the stream: its owner and grants are the stream''s (read = SELECT, submit = INSERT, close = UPDATE); it shows the stream''s history. Made and dropped by ldp.thresh_create and ldp.thresh_drop.';
GRANT USAGE ON SCHEMA ldp_thresh_streams TO PUBLIC;

-- The relation name of a collection's or stream's view: the name itself (names of new
-- objects are at most 63 bytes); a longer name of an object made before 0.7.0 gets
-- 'ldp_' || md5(name).
CREATE FUNCTION @extschema@.backing_name(name text) RETURNS name
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
  SELECT CASE WHEN pg_catalog.octet_length(name) <= 63 THEN name::pg_catalog.name
              ELSE ('ldp_' || pg_catalog.md5(name))::pg_catalog.name END $$;
COMMENT ON FUNCTION @extschema@.backing_name(text) IS 'The relation name of the view backing a collection or THRESH stream of this name (in ldp_collections or ldp_thresh_streams): the name itself, or ldp_<md5> for a name of more than 63 bytes made before 0.7.0.';

-- May role `who` use `privilege` ('SELECT' = read, 'UPDATE' = close, 'INSERT' =
-- submit, 'OWNER') on the object backed by view `object`? PostgreSQL's own answer:
-- the owner, its members with INHERIT and superusers may do everything; grants to a
-- role count for its members. NULL when the view does not exist.
CREATE FUNCTION @extschema@.has_privilege(who oid, object oid, privilege text)
  RETURNS boolean LANGUAGE sql STABLE PARALLEL SAFE
  SET search_path = pg_catalog, pg_temp AS $$
  SELECT CASE WHEN privilege = 'OWNER' THEN pg_catalog.pg_has_role(who, c.relowner, 'USAGE')
              ELSE pg_catalog.has_table_privilege(who, c.oid, privilege) END
  FROM pg_catalog.pg_class c WHERE c.oid = object $$;
COMMENT ON FUNCTION @extschema@.has_privilege(oid, oid, text) IS 'Whether a role may use a privilege (SELECT = read, UPDATE = close, INSERT = submit, OWNER) on the collection or THRESH stream backed by a view: PostgreSQL''s own answer (pg_has_role, has_table_privilege), which every role may ask. Executable by PUBLIC: ldp.has_privilege(object, privilege), which the views and row-level security policies call with the caller''s rights, calls it.';

-- The same for the current role (the views ldp.collections and ldp.thresh_streams, and
-- row-level security policies).
CREATE FUNCTION @extschema@.has_privilege(object oid, privilege text)
  RETURNS boolean LANGUAGE sql STABLE PARALLEL SAFE
  SET search_path = pg_catalog, pg_temp AS $$
  SELECT @extschema@.has_privilege((SELECT r.oid FROM pg_catalog.pg_roles r WHERE r.rolname = current_user),
                                   object, privilege) $$;
COMMENT ON FUNCTION @extschema@.has_privilege(oid, text) IS 'Whether the current role may use a privilege on the collection or THRESH stream backed by a view: PostgreSQL''s own answer for that role. Executable by PUBLIC: ldp.collections, ldp.thresh_streams and the row-level security policies call it with the caller''s rights.';

-- privilege names of the SQL API -> privilege types
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
REVOKE ALL ON FUNCTION @extschema@.privilege_type(text, text[]) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.privilege_type(text, text[]) IS 'Internal: the privilege type of a privilege name (read = SELECT, close = UPDATE, submit = INSERT), or error 22023.';

-- Refuses the name of a new collection or stream (`what`) unless it can name its view:
-- not empty (22023), at most 63 bytes (42622), not taken (42710: `taken` says whether
-- the catalog has it; a relation of that name in `schema` takes it too). Names are
-- visible to every role, as relation names are (docs/security.md): a taken name is taken,
-- whoever may read the object that has it.
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

-- The backing views are read-only for everyone, their owners and superusers too: a
-- collection's epochs and a stream's history change only through ldp's functions,
-- which check the privileges (close = UPDATE, submit = INSERT) the view carries. An
-- auto-updatable view would write ldp.collection_epochs / ldp.thresh_epochs with its
-- owner's rights (a superuser's bypass row-level security). Each view has two
-- triggers on this function: INSTEAD OF ... FOR EACH ROW (which makes the view not
-- auto-updatable) and BEFORE ... FOR EACH STATEMENT (so that a write of no row fails
-- too; PostgreSQL fires it once the view has an INSTEAD OF trigger). UPDATE, INSERT,
-- DELETE, COPY FROM and MERGE all fire them.
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

-- Gives a backing view its two triggers (ldp.backing_refuse_write).
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

-- Makes the view backing a new collection or stream, owned by `owner` (run by the
-- twins as the catalog's owner; `what` names the object in the view's comment).
CREATE FUNCTION @extschema@.backing_create(schema name, name text, owner oid, definition text, what text)
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
REVOKE ALL ON FUNCTION @extschema@.backing_create(name, text, oid, text, text) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.backing_create(name, text, oid, text, text) IS 'Internal: creates the view backing a collection or THRESH stream, read-only, owned by its owner.';

-- Drops the view backing a collection or stream (its twin has deleted the catalog's
-- rows) with what other roles built on it: a reader's view over it, a column of its
-- row type, ... (PostgreSQL's NOTICE names them), as DROP VIEW ... CASCADE by its
-- owner would. So what a reader made cannot keep the owner from dropping.
CREATE FUNCTION @extschema@.backing_drop(object regclass) RETURNS void
  LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  EXECUTE pg_catalog.format('DROP VIEW %s CASCADE', object);
END $$;
REVOKE ALL ON FUNCTION @extschema@.backing_drop(regclass) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.backing_drop(regclass) IS 'Internal: drops the view backing a collection or THRESH stream and, with a NOTICE, the objects of any role that depend on it (DROP VIEW ... CASCADE).';

-- Grants a privilege type on a backing view to a role (or public), or revokes it, as
-- its owner would (run by the twins as the catalog's owner).
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

-- Gives the view backing a collection or stream to another role, for a caller that
-- may: its owner (or a member of it) that is a member of the new owner, or a superuser.
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

-- The extension's C entry points: ldp_privileged calls ldp._<name>(caller, ...) as the
-- catalog's owner; ldp._as_role runs a collection's query as its owner.
CREATE FUNCTION @extschema@._as_role(role regrole, query text, lo timestamptz, hi timestamptz)
  RETURNS SETOF record AS 'MODULE_PATHNAME', 'ldp_as_role' LANGUAGE C VOLATILE;
REVOKE ALL ON FUNCTION @extschema@._as_role(regrole, text, timestamptz, timestamptz) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@._as_role(regrole, text, timestamptz, timestamptz) IS 'Internal (no EXECUTE for PUBLIC): runs a query the extension built from a collection''s checked definition as the collection''s owner, in a security-restricted operation with search_path pg_catalog, pg_temp ($1, $2 = the time bounds).';

-- Every role may use the schema: the aggregates, accessors and encoders are safe
-- for anyone, and each collection or stream says who may do what with it.
GRANT USAGE ON SCHEMA @extschema@ TO PUBLIC;
