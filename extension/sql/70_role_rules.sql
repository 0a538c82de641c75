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
      DELETE FROM @extschema@.thresh_histograms v WHERE v.stream = ANY (ids);
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
