-- Collections and THRESH streams follow PostgreSQL's role rules (issue 19): each is
-- backed by a view its owner owns and on which its grants are made, so DROP ROLE,
-- REASSIGN OWNED, DROP OWNED and \dp treat them as any owned object. (test/dump_restore.sh
-- covers pg_dump and pg_restore.)
SET client_min_messages = warning;
DROP ROLE IF EXISTS regress_ldp_owner, regress_ldp_heir, regress_ldp_reader, regress_ldp_other;
RESET client_min_messages;
CREATE ROLE regress_ldp_owner;   -- creates a collection and a stream
CREATE ROLE regress_ldp_heir;    -- gets them by REASSIGN OWNED (no create grant)
CREATE ROLE regress_ldp_reader;  -- a grantee
CREATE ROLE regress_ldp_other;   -- gets them by an explicit owner change
GRANT EXECUTE ON FUNCTION ldp.create_collection(text, regclass, text, interval, text, timestamptz),
                          ldp.thresh_create(text, bigint, int, int, bigint, int, float8, float8, float8, float8, float8)
  TO regress_ldp_owner;
CREATE SCHEMA regress_roles AUTHORIZATION regress_ldp_owner;
GRANT USAGE ON SCHEMA regress_roles TO PUBLIC;

-- DROP ROLE of an owner or a grantee fails with PostgreSQL's own 2BP01 naming the views.
CREATE FUNCTION pg_temp.try_drop_role(r text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  detail text;
BEGIN
  EXECUTE format('DROP ROLE %I', r);
  RETURN 'dropped';
EXCEPTION WHEN OTHERS THEN
  GET STACKED DIAGNOSTICS detail = PG_EXCEPTION_DETAIL;
  RETURN SQLSTATE || ': ' || SQLERRM || E'\n' ||
         (SELECT string_agg(l, E'\n' ORDER BY l) FROM regexp_split_to_table(detail, E'\n') l WHERE l ~ 'ldp_');
END $$;

SET ROLE regress_ldp_owner;
CREATE TABLE regress_roles.clicks (at timestamptz NOT NULL, bit boolean NOT NULL);
INSERT INTO regress_roles.clicks
SELECT '2026-03-01 00:00+00'::timestamptz + (i % 2) * interval '1 day', i % 3 = 0 FROM generate_series(1, 400) i;
-- the source as a view that counts rows only for regress_ldp_heir or regress_ldp_other:
-- which role a close runs as shows in its count
CREATE VIEW regress_roles.for_heirs AS
  SELECT at, bit FROM regress_roles.clicks WHERE current_user IN ('regress_ldp_heir', 'regress_ldp_other');
SELECT ldp.create_collection('role_clicks', 'regress_roles.for_heirs', 'at', '1 day', 'ldp.rr_agg(bit, 1.0)',
                             '2026-03-01 00:00+00');
CALL ldp.close_epoch('role_clicks', 0);
SELECT ldp.grant_collection('role_clicks', 'read', 'regress_ldp_reader');
SELECT ldp.thresh_create('role_stream', 100000, 32, 20000, 40000, 2, 8, 0.1);
SELECT ldp.grant_thresh('role_stream', 'submit', 'regress_ldp_reader');
SELECT ldp.grant_thresh('role_stream', 'read', 'regress_ldp_reader');
SELECT ldp.thresh_submit_votes('role_stream', 1, ARRAY[1, 2]::bigint[], ARRAY[true, false]);
SELECT name, owner, acl, backing_view FROM ldp.collections;
SELECT name, owner, acl, backing_view FROM ldp.thresh_streams;
-- the view shows the closed epochs (the owner's query counted nothing: it ran as the owner)
SELECT epoch, reports FROM ldp_collections.role_clicks;
RESET ROLE;

-- where a DBA looks: \dp, has_table_privilege, pg_shdepend
\dp ldp_collections.*
\dp ldp_thresh_streams.*
SELECT has_table_privilege('regress_ldp_reader', 'ldp_collections.role_clicks', 'SELECT') AS reader_reads,
       has_table_privilege('regress_ldp_reader', 'ldp_collections.role_clicks', 'UPDATE') AS reader_closes,
       has_table_privilege('regress_ldp_reader', 'ldp_thresh_streams.role_stream', 'INSERT') AS reader_submits;
SELECT d.objid::regclass AS object, d.refobjid::regrole AS role, d.deptype
FROM pg_shdepend d
WHERE d.classid = 'pg_class'::regclass AND d.dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
  AND d.objid IN ('ldp_collections.role_clicks'::regclass, 'ldp_thresh_streams.role_stream'::regclass)
ORDER BY 1::text, 2::text;

SELECT pg_temp.try_drop_role('regress_ldp_owner');
SELECT pg_temp.try_drop_role('regress_ldp_reader');

-- REASSIGN OWNED moves the collection and the stream (and the source) to a role that
-- holds no create grant; a superuser's close (as pg_cron's) then runs as the new owner.
REASSIGN OWNED BY regress_ldp_owner TO regress_ldp_heir;
SELECT name, owner, acl FROM ldp.collections;
SELECT name, owner, acl FROM ldp.thresh_streams;
CALL ldp.close_epoch('role_clicks', 0, true);
CALL ldp.close_epoch('role_clicks', 1);
SELECT epoch, reports FROM ldp.collection_epochs WHERE collection = 'role_clicks' AND epoch < 2 ORDER BY epoch;
-- the old owner has nothing left but its create grant
SET ROLE regress_ldp_owner;
SELECT try_sql($$CALL ldp.close_epoch('role_clicks', 0, true)$$);
SELECT try_sql($$SELECT ldp.drop_collection('role_clicks')$$);
RESET ROLE;
REVOKE EXECUTE ON FUNCTION ldp.create_collection(text, regclass, text, interval, text, timestamptz),
                           ldp.thresh_create(text, bigint, int, int, bigint, int, float8, float8, float8, float8, float8)
  FROM regress_ldp_owner;
SELECT pg_temp.try_drop_role('regress_ldp_owner');
-- the new owner manages them
SET ROLE regress_ldp_heir;
SELECT ldp.grant_collection('role_clicks', 'close', 'regress_ldp_reader');
CALL ldp.thresh_close_votes('role_stream');
SELECT epoch, votes FROM ldp.thresh_history('role_stream');
RESET ROLE;

-- An explicit owner change: by the owner, to a role it is a member of, or by a superuser;
-- the new owner must be able to run the collection's query.
SET ROLE regress_ldp_reader;
SELECT try_sql($$SELECT ldp.alter_collection_owner('role_clicks', 'regress_ldp_reader')$$);
SELECT try_sql($$SELECT ldp.alter_thresh_owner('role_stream', 'regress_ldp_reader')$$);
RESET ROLE;
SET ROLE regress_ldp_other;
SELECT try_sql($$SELECT ldp.alter_collection_owner('role_clicks', 'regress_ldp_other')$$);
RESET ROLE;
SET ROLE regress_ldp_heir;
SELECT try_sql($$SELECT ldp.alter_collection_owner('role_clicks', 'regress_ldp_other')$$);
SELECT try_sql($$SELECT ldp.alter_thresh_owner('role_stream', 'regress_ldp_other')$$);
SELECT try_sql($$SELECT ldp.alter_collection_owner('role_clicks', NULL)$$);
RESET ROLE;
GRANT regress_ldp_other TO regress_ldp_heir;
SET ROLE regress_ldp_heir;
-- a member now, but regress_ldp_other cannot read the source yet
SELECT try_sql($$SELECT ldp.alter_collection_owner('role_clicks', 'regress_ldp_other')$$);
GRANT SELECT ON regress_roles.for_heirs TO regress_ldp_other;
SELECT ldp.alter_collection_owner('role_clicks', 'regress_ldp_other');
SELECT ldp.alter_thresh_owner('role_stream', 'regress_ldp_other');
RESET ROLE;
REVOKE regress_ldp_other FROM regress_ldp_heir;
SELECT name, owner, acl FROM ldp.collections;
SELECT name, owner, acl FROM ldp.thresh_streams;
CALL ldp.close_epoch('role_clicks', 1, true);
SELECT epoch, reports FROM ldp.collection_estimates('role_clicks') WHERE epoch < 2;
-- the native ALTER VIEW ... OWNER TO works for a superuser; renaming or moving a view is refused
ALTER VIEW ldp_collections.role_clicks OWNER TO regress_ldp_heir;
SELECT name, owner FROM ldp.collections;
SELECT ldp.alter_collection_owner('role_clicks', 'regress_ldp_other');
SELECT try_sql($$ALTER VIEW ldp_collections.role_clicks RENAME TO other_name$$);
SELECT try_sql($$ALTER TABLE ldp_thresh_streams.role_stream RENAME TO other_name$$);
SELECT try_sql($$ALTER VIEW ldp_collections.role_clicks SET SCHEMA regress_roles$$);
SELECT try_sql($$ALTER SCHEMA ldp_collections RENAME TO ldp_other$$);
-- an unrelated ALTER is not affected
CREATE VIEW regress_roles.unrelated AS SELECT 1 AS x;
ALTER VIEW regress_roles.unrelated RENAME TO unrelated2;
DROP VIEW regress_roles.unrelated2;

-- DROP OWNED BY a grantee removes its grants; DROP OWNED BY an owner drops its
-- collections (with their closed epochs) and streams (with reports and history).
DROP OWNED BY regress_ldp_reader;
SELECT name, owner, acl FROM ldp.collections;
SELECT name, owner, acl FROM ldp.thresh_streams;
SELECT pg_temp.try_drop_role('regress_ldp_reader');
SELECT count(*) AS epochs FROM ldp.collection_epochs WHERE collection = 'role_clicks';
DROP OWNED BY regress_ldp_other;
SELECT count(*) AS collections FROM ldp.collection_catalog WHERE name = 'role_clicks';
SELECT count(*) AS epochs FROM ldp.collection_epochs WHERE collection = 'role_clicks';
SELECT count(*) AS streams FROM ldp.thresh_catalog WHERE name = 'role_stream';
SELECT count(*) AS votes FROM ldp.thresh_votes;
SELECT count(*) AS views FROM pg_class WHERE relnamespace IN ('ldp_collections'::regnamespace, 'ldp_thresh_streams'::regnamespace);
SELECT pg_temp.try_drop_role('regress_ldp_other');

-- DROP VIEW by its owner drops the collection, as drop_collection does.
GRANT EXECUTE ON FUNCTION ldp.create_collection(text, regclass, text, interval, text, timestamptz) TO regress_ldp_heir;
SET ROLE regress_ldp_heir;
SELECT ldp.create_collection('heir_clicks', 'regress_roles.clicks', 'at', '1 day', 'ldp.rr_agg(bit, 1.0)',
                             '2026-03-01 00:00+00');
CALL ldp.close_epoch('heir_clicks', 0);
DROP VIEW ldp_collections.heir_clicks;
SELECT count(*) AS collections FROM ldp.collections;
-- names: at most 63 bytes (the view's name)
SELECT try_sql(format($$SELECT ldp.create_collection(%L, 'regress_roles.clicks', 'at', '1 day', 'ldp.rr_agg(bit, 1.0)')$$,
                      repeat('x', 64)));
RESET ROLE;
SELECT count(*) AS epochs_left FROM ldp.collection_epochs;
REVOKE EXECUTE ON FUNCTION ldp.create_collection(text, regclass, text, interval, text, timestamptz) FROM regress_ldp_heir;
DROP SCHEMA regress_roles CASCADE;
SELECT pg_temp.try_drop_role('regress_ldp_heir');

-- 0.6.0 -> 0.7.0: collections and streams of several owners, one a role dropped under
-- 0.6.0 (which let it go), get their views, owners and grants; their data is kept.
SET client_min_messages = warning;
DROP EXTENSION ldp CASCADE;
DROP ROLE IF EXISTS regress_ldp_a, regress_ldp_b, regress_ldp_gone;
RESET client_min_messages;
CREATE ROLE regress_ldp_a; CREATE ROLE regress_ldp_b; CREATE ROLE regress_ldp_gone;
CREATE EXTENSION ldp VERSION '0.1.0';
ALTER EXTENSION ldp UPDATE TO '0.6.0';
GRANT EXECUTE ON FUNCTION ldp.create_collection(text, regclass, text, interval, text, timestamptz),
                          ldp.thresh_create(text, bigint, int, int, bigint, int, float8, float8, float8, float8, float8)
  TO regress_ldp_a, regress_ldp_b, regress_ldp_gone;
CREATE TABLE public.old_reports (at timestamptz NOT NULL, bit boolean NOT NULL);
INSERT INTO public.old_reports
SELECT '2026-03-01 00:00+00'::timestamptz + (i % 3) * interval '1 day', i % 3 = 0 FROM generate_series(1, 900) i;
GRANT SELECT ON public.old_reports TO PUBLIC;
SET ROLE regress_ldp_a;
SELECT ldp.create_collection('a_coll', 'public.old_reports', 'at', '1 day', 'ldp.rr_agg(bit, 1.0)', '2026-03-01 00:00+00');
CALL ldp.close_epoch('a_coll', 0);
SELECT ldp.grant_collection('a_coll', 'read', 'regress_ldp_b');
SELECT ldp.grant_collection('a_coll', 'close', 'public');
SELECT ldp.create_collection(repeat('a_long_name_', 7), 'public.old_reports', 'at', '1 day', 'ldp.rr_agg(bit, 1.0)', '2026-03-01 00:00+00');
SELECT ldp.thresh_create('a_coll', 100000, 32, 20000, 40000, 2, 8, 0.1);
SELECT ldp.grant_thresh('a_coll', 'submit', 'regress_ldp_b');
SELECT ldp.thresh_submit_votes('a_coll', 1, ARRAY[1, 2, 3]::bigint[], ARRAY[true, false, true]);
RESET ROLE;
SET ROLE regress_ldp_gone;
SELECT ldp.create_collection('gone_coll', 'public.old_reports', 'at', '1 day', 'ldp.rr_agg(bit, 1.0)', '2026-03-01 00:00+00');
CALL ldp.close_epoch('gone_coll', 0);
SELECT ldp.thresh_create('gone_stream', 100000, 32, 20000, 40000, 2, 8, 0.1);
SELECT ldp.grant_thresh('gone_stream', 'read', 'regress_ldp_b');
RESET ROLE;
SET ROLE regress_ldp_b;
SELECT ldp.create_collection('b_coll', 'public.old_reports', 'at', '1 day', 'ldp.rr_agg(bit, 1.0)', '2026-03-01 00:00+00');
SELECT ldp.grant_collection('b_coll', 'read', 'regress_ldp_gone');
RESET ROLE;
REVOKE EXECUTE ON FUNCTION ldp.create_collection(text, regclass, text, interval, text, timestamptz),
                           ldp.thresh_create(text, bigint, int, int, bigint, int, float8, float8, float8, float8, float8)
  FROM regress_ldp_gone;
DROP ROLE regress_ldp_gone;  -- 0.6.0 let this happen
\set VERBOSITY terse
ALTER EXTENSION ldp UPDATE TO '0.7.0';
\set VERBOSITY default
SELECT name, owner = (SELECT extowner FROM pg_extension WHERE extname = 'ldp')::regrole AS extension_owner,
       CASE WHEN owner::text LIKE 'regress%' THEN owner::text END AS owner,
       regexp_replace(acl::text, '[a-z_]+=arwdDxt/[a-z_]+,?', '') AS grants, backing_view
FROM ldp.collections ORDER BY name;
SELECT name, owner = (SELECT extowner FROM pg_extension WHERE extname = 'ldp')::regrole AS extension_owner,
       CASE WHEN owner::text LIKE 'regress%' THEN owner::text END AS owner,
       regexp_replace(acl::text, '[a-z_]+=arwdDxt/[a-z_]+,?', '') AS grants, votes
FROM ldp.thresh_streams ORDER BY name;
SELECT collection, epoch, reports FROM ldp.collection_epochs ORDER BY 1, 2;
-- none of the views is a member of the extension (pg_dump dumps them)
SELECT count(*) AS members FROM pg_depend
WHERE refobjid = (SELECT oid FROM pg_extension WHERE extname = 'ldp') AND classid = 'pg_class'::regclass
  AND objid IN (SELECT oid FROM pg_class WHERE relnamespace IN ('ldp_collections'::regnamespace, 'ldp_thresh_streams'::regnamespace));
SELECT pg_temp.try_drop_role('regress_ldp_a');
SET ROLE regress_ldp_b;
SELECT epoch, reports FROM ldp.collection_estimates('a_coll');
CALL ldp.close_epoch('a_coll', 1);
RESET ROLE;
SET client_min_messages = warning;
DROP OWNED BY regress_ldp_a, regress_ldp_b;
RESET client_min_messages;
SELECT count(*) AS collections_left FROM ldp.collection_catalog;
SELECT count(*) AS streams_left FROM ldp.thresh_catalog;
SELECT ldp.drop_collection('gone_coll');
SELECT ldp.thresh_drop('gone_stream');
DROP TABLE public.old_reports;
DROP ROLE regress_ldp_a, regress_ldp_b;
