-- Issue 27's findings on the backing views and on what a close runs, each a test that
-- fails on 0.9.0: writes through the views, readers' objects that pinned a collection,
-- a source that could be dropped under its collection, user-defined casts in a summary,
-- session state a close left behind, superuser owners. Run as ordinary roles with
-- SET ROLE (their names start with regress_ as PostgreSQL's own tests' do).
SET client_min_messages = warning;
DROP ROLE IF EXISTS regress_ldp_carol, regress_ldp_dave, regress_ldp_eve;
DROP EXTENSION ldp CASCADE;
RESET client_min_messages;
CREATE ROLE regress_ldp_carol;  -- an analyst who owns collections and streams
CREATE ROLE regress_ldp_dave;   -- a reader of carol's
CREATE ROLE regress_ldp_eve;    -- granted close, read and submit on a DBA's objects; attacks
CREATE SCHEMA regress_carol AUTHORIZATION regress_ldp_carol;
CREATE SCHEMA regress_dave AUTHORIZATION regress_ldp_dave;
CREATE SCHEMA regress_eve AUTHORIZATION regress_ldp_eve;
GRANT USAGE ON SCHEMA regress_carol, regress_dave, regress_eve TO PUBLIC;

------------------------------------------------------------------------------
-- The objects of an installation of 0.9.0, and what 0.9.0 allowed.
------------------------------------------------------------------------------
SET client_min_messages = warning;
CREATE EXTENSION ldp VERSION '0.1.0';
ALTER EXTENSION ldp UPDATE TO '0.9.0';
RESET client_min_messages;
GRANT EXECUTE ON FUNCTION ldp.create_collection(text, regclass, text, interval, text, timestamptz),
                          ldp.thresh_create(text, bigint, int, int, bigint, int, float8, float8, float8, float8, float8)
  TO regress_ldp_carol;
-- a DBA's (a superuser's) collection and stream; eve may close and read them, and submit
CREATE TABLE public.dba_reports (at timestamptz NOT NULL, bit boolean NOT NULL);
INSERT INTO public.dba_reports
SELECT '2026-01-01 00:00+00'::timestamptz + (i % 3) * interval '1 day', i % 4 = 0 FROM generate_series(1, 300) i;
SELECT ldp.create_collection('sc', 'public.dba_reports', 'at', '1 day', 'ldp.rr_agg(bit, 1.0)', '2026-01-01 00:00+00');
CALL ldp.close_epoch('sc', 0);
CALL ldp.close_epoch('sc', 1);
SELECT ldp.grant_collection('sc', 'close', 'regress_ldp_eve');
SELECT ldp.grant_collection('sc', 'read', 'regress_ldp_eve');
SELECT ldp.thresh_create('sdaily', 100000, 32, 20000, 40000, 2, 8, 0.1);
SELECT ldp.grant_thresh('sdaily', 'submit', 'regress_ldp_eve');
SELECT ldp.grant_thresh('sdaily', 'close', 'regress_ldp_eve');
SELECT ldp.grant_thresh('sdaily', 'read', 'regress_ldp_eve');
SELECT ldp.thresh_submit_votes('sdaily', 1, ARRAY[1, 2, 3]::bigint[], ARRAY[true, false, true]);
CALL ldp.thresh_close_votes('sdaily');
CALL ldp.thresh_close_epoch('sdaily');
-- a collection whose source was dropped under it (0.9.0 kept its bare OID)
CREATE TABLE public.dba_gone (at timestamptz NOT NULL, bit boolean NOT NULL);
SELECT ldp.create_collection('orphan', 'public.dba_gone', 'at', '1 day', 'ldp.rr_agg(bit, 1.0)');
DROP TABLE public.dba_gone;
-- carol's collection, and a view that her reader dave built on it
SET ROLE regress_ldp_carol;
CREATE TABLE regress_carol.clicks (at timestamptz NOT NULL, bit boolean NOT NULL);
INSERT INTO regress_carol.clicks
SELECT '2026-01-01 00:00+00'::timestamptz + (i % 2) * interval '1 day', i % 3 = 0 FROM generate_series(1, 200) i;
SELECT ldp.create_collection('c2', 'regress_carol.clicks', 'at', '1 day', 'ldp.rr_agg(bit, 1.0)', '2026-01-01 00:00+00');
CALL ldp.close_epoch('c2', 0);
SELECT ldp.grant_collection('c2', 'read', 'regress_ldp_dave');
RESET ROLE;
SET ROLE regress_ldp_dave;
CREATE VIEW regress_dave.pin AS SELECT * FROM ldp_collections.c2;
RESET ROLE;
-- 0.9.0: eve, granted close, rewrites the DBA's closed epochs through the view (auto-
-- updatable, owned by a superuser: row-level security is bypassed), and forges history
SET ROLE regress_ldp_eve;
UPDATE ldp_collections.sc SET reports = 424242, summary = NULL;
UPDATE ldp_thresh_streams.sdaily SET estimate = 0.987, global_update = true;
RESET ROLE;
SELECT epoch, reports, estimate FROM ldp.collection_estimates('sc') ORDER BY epoch;
SELECT epoch, global_update, estimate FROM ldp.thresh_history('sdaily');

------------------------------------------------------------------------------
-- The update keeps every collection, stream, grant and closed epoch, makes every
-- view read-only and name its source, and warns about each superuser-owned object
-- and each collection whose source is gone (terse: the orphan's DETAIL has an OID).
------------------------------------------------------------------------------
\set VERBOSITY terse
ALTER EXTENSION ldp UPDATE;
\set VERBOSITY default
SELECT extversion FROM pg_extension WHERE extname = 'ldp';
SELECT name, owner = 'regress_ldp_carol'::regrole AS carols, acl IS NOT NULL AS has_grants FROM ldp.collections ORDER BY name;
SELECT name, acl IS NOT NULL AS has_grants, epoch, phase FROM ldp.thresh_streams ORDER BY name;
SELECT collection, epoch, reports FROM ldp.collection_epochs ORDER BY 1, 2;
SELECT has_table_privilege('regress_ldp_eve', 'ldp_collections.sc', 'UPDATE') AS eve_closes,
       has_table_privilege('regress_ldp_eve', 'ldp_thresh_streams.sdaily', 'INSERT') AS eve_submits,
       has_table_privilege('regress_ldp_dave', 'ldp_collections.c2', 'SELECT') AS dave_reads;
-- each view has the two triggers, and names its source (the orphan's is a dangling OID:
-- no dependency)
SELECT t.tgrelid::regclass AS view, t.tgname, t.tgenabled, t.tgfoid::regprocedure AS function
FROM pg_trigger t JOIN pg_class v ON v.oid = t.tgrelid
WHERE v.relnamespace IN ('ldp_collections'::regnamespace, 'ldp_thresh_streams'::regnamespace)
ORDER BY t.tgrelid::regclass::text, t.tgname;
CREATE FUNCTION pg_temp.view_sources() RETURNS TABLE(view regclass, source regclass) LANGUAGE sql AS $$
  SELECT v.oid::regclass, d.refobjid::regclass
  FROM pg_class v JOIN pg_rewrite r ON r.ev_class = v.oid
  JOIN pg_depend d ON d.classid = 'pg_rewrite'::regclass AND d.objid = r.oid AND d.refclassid = 'pg_class'::regclass
  WHERE v.relnamespace = 'ldp_collections'::regnamespace
    AND d.refobjid NOT IN (v.oid, 'ldp.collection_epochs'::regclass)
  ORDER BY v.oid::regclass::text $$;
SELECT * FROM pg_temp.view_sources();
-- the views are not members of the extension, and have no initial privileges
SELECT count(*) AS members FROM pg_depend d
WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e' AND d.classid = 'pg_class'::regclass
  AND d.objid IN (SELECT oid FROM pg_class WHERE relnamespace IN ('ldp_collections'::regnamespace, 'ldp_thresh_streams'::regnamespace));
SELECT count(*) AS init_privs FROM pg_init_privs i
WHERE i.objoid IN (SELECT oid FROM pg_class WHERE relnamespace IN ('ldp_collections'::regnamespace, 'ldp_thresh_streams'::regnamespace));
-- the new internal functions are not executable by PUBLIC
SELECT p.oid::regprocedure AS public_internal FROM pg_proc p
WHERE p.pronamespace = 'ldp'::regnamespace
  AND p.proname IN ('backing_refuse_write', 'backing_protect', 'backing_drop', 'collection_call_check',
                    'collection_owner_warning', 'collection_view_query')
  AND has_function_privilege('public', p.oid, 'EXECUTE');
-- dave's view is still there; the forged epochs are recomputed with refresh
SELECT epoch, reports FROM regress_dave.pin;
CALL ldp.close_epoch('sc', 0, true, accept_fewer => true);  -- the forged count is higher than the source's
CALL ldp.close_epoch('sc', 1, true, accept_fewer => true);
SELECT epoch, reports, round(estimate::numeric, 6) AS estimate FROM ldp.collection_estimates('sc') ORDER BY epoch;
-- the orphan's closes fail (42P01, the hint names ldp.alter_collection_source); pointed at
-- a new table, its view names that table (a dependency) and its closes read it
CREATE TABLE public.dba_new (at timestamptz NOT NULL, bit boolean NOT NULL);
INSERT INTO public.dba_new VALUES ('1970-01-01 12:00+00', true), ('1970-01-01 13:00+00', false);
\set SHOW_CONTEXT never
CALL ldp.close_epoch('orphan', 0);
\set SHOW_CONTEXT errors
SELECT ldp.alter_collection_source('orphan', 'public.dba_new');
SELECT * FROM pg_temp.view_sources() WHERE view = 'ldp_collections.orphan'::regclass;
CALL ldp.close_epoch('orphan', 0);
SELECT epoch, reports FROM ldp.collection_epochs WHERE collection = 'orphan';
SELECT ldp.drop_collection('orphan');
DROP TABLE public.dba_new;

------------------------------------------------------------------------------
-- 27.3: the views are read-only for everyone. Writes through them (UPDATE, INSERT,
-- DELETE, COPY FROM; zero rows too) fail with 42501 naming the view and the function
-- to use, for views the update protected and views made since.
------------------------------------------------------------------------------
SELECT ldp.create_collection('sc_new', 'public.dba_reports', 'at', '1 day', 'ldp.rr_agg(bit, 1.0)', '2026-01-01 00:00+00');
CALL ldp.close_epoch('sc_new', 0);
SELECT ldp.grant_collection('sc_new', 'close', 'regress_ldp_eve');
SELECT ldp.thresh_create('snew', 100000, 32, 20000, 40000, 2, 8, 0.1);
SELECT ldp.grant_thresh('snew', 'submit', 'regress_ldp_eve');
SELECT ldp.grant_thresh('snew', 'close', 'regress_ldp_eve');
SET ROLE regress_ldp_eve;
UPDATE ldp_collections.sc SET reports = 424242, summary = NULL;
SELECT try_sql($$UPDATE ldp_collections.sc SET reports = 1 WHERE false$$) AS zero_rows;
SELECT try_sql($$UPDATE ldp_collections.sc_new SET reports = 424242$$) AS sc_new;
SELECT try_sql($$INSERT INTO ldp_collections.sc_new (epoch, reports) VALUES (99, 1)$$) AS no_insert_grant;
UPDATE ldp_thresh_streams.sdaily SET estimate = 0.987, global_update = true;
SELECT try_sql($$INSERT INTO ldp_thresh_streams.sdaily (epoch, votes) VALUES (2, 1)$$) AS submit_is_insert;
SELECT try_sql($$INSERT INTO ldp_thresh_streams.snew (epoch) SELECT 1 WHERE false$$) AS zero_rows;
SELECT try_sql($$UPDATE ldp_thresh_streams.snew SET estimate = 0.5$$) AS snew;
COPY ldp_thresh_streams.snew (epoch, votes) FROM stdin;
2	1
\.
RESET ROLE;
-- the owner (a superuser) is refused as well; carol on her own view too
SELECT try_sql($$DELETE FROM ldp_collections.sc$$) AS superuser_delete;
SELECT try_sql($$UPDATE ldp_thresh_streams.sdaily SET votes = 0$$) AS superuser_update;
SET ROLE regress_ldp_carol;
SELECT try_sql($$UPDATE ldp_collections.c2 SET reports = 0$$) AS owner_update;
RESET ROLE;
-- nothing changed (sdaily keeps what 0.9.0 let eve write, which the update's WARNING
-- asks to check); closes and submits through ldp's functions work
SELECT epoch, reports FROM ldp.collection_epochs WHERE collection IN ('sc', 'sc_new') ORDER BY collection, epoch;
SELECT epoch, global_update, estimate FROM ldp.thresh_history('sdaily');
SELECT count(*) AS snew_history FROM ldp.thresh_history('snew');
SET ROLE regress_ldp_eve;
CALL ldp.close_epoch('sc_new', 1);
SELECT ldp.thresh_submit_votes('snew', 1, ARRAY[1, 2]::bigint[], ARRAY[true, true]);
CALL ldp.thresh_close_votes('snew');
RESET ROLE;
SELECT epoch, reports FROM ldp.collection_epochs WHERE collection = 'sc_new' ORDER BY epoch;
SELECT epoch, votes FROM ldp.thresh_history('snew');

------------------------------------------------------------------------------
-- 27.5: what a reader built on a collection's or stream's view does not keep its
-- owner from dropping it: drop_collection and thresh_drop drop those objects too
-- (CASCADE: PostgreSQL's NOTICE names them), even after the reader's grant is revoked.
------------------------------------------------------------------------------
SET ROLE regress_ldp_carol;
SELECT ldp.thresh_create('carol_stream', 100000, 32, 20000, 40000, 2, 8, 0.1);
SELECT ldp.grant_thresh('carol_stream', 'read', 'regress_ldp_dave');
RESET ROLE;
SET ROLE regress_ldp_dave;
CREATE TABLE regress_dave.keep (id int, epoch ldp_collections.c2);
CREATE VIEW regress_dave.stream_pin AS SELECT epoch, votes FROM ldp_thresh_streams.carol_stream;
RESET ROLE;
SET ROLE regress_ldp_carol;
SELECT ldp.revoke_collection('c2', 'read', 'regress_ldp_dave');
SELECT ldp.revoke_thresh('carol_stream', 'read', 'regress_ldp_dave');
SELECT ldp.drop_collection('c2');
SELECT ldp.thresh_drop('carol_stream');
RESET ROLE;
SELECT to_regclass('regress_dave.pin') AS pin, to_regclass('regress_dave.stream_pin') AS stream_pin,
       (SELECT array_agg(attname ORDER BY attnum) FROM pg_attribute
        WHERE attrelid = 'regress_dave.keep'::regclass AND attnum > 0 AND NOT attisdropped) AS keep_columns;
SELECT count(*) AS c2_left FROM ldp.collection_epochs WHERE collection = 'c2';

------------------------------------------------------------------------------
-- 27.5: a collection's view names its source, so PostgreSQL keeps the source while
-- the collection exists: DROP TABLE is refused (2BP01), CASCADE drops the collection
-- too; a renamed or moved source follows.
------------------------------------------------------------------------------
SET ROLE regress_ldp_carol;
CREATE TABLE regress_carol.src (at timestamptz NOT NULL, bit boolean NOT NULL);
INSERT INTO regress_carol.src SELECT '2026-01-01 00:00+00'::timestamptz, true FROM generate_series(1, 10);
SELECT ldp.create_collection('tracked', 'regress_carol.src', 'at', '1 day', 'ldp.rr_agg(bit, 1.0)', '2026-01-01 00:00+00');
CALL ldp.close_epoch('tracked', 0);
DROP TABLE regress_carol.src;
ALTER TABLE regress_carol.src RENAME TO renamed;
SELECT name, source FROM ldp.collections WHERE name = 'tracked';
SELECT * FROM pg_temp.view_sources();
CALL ldp.close_epoch('tracked', 1);
DROP TABLE regress_carol.renamed CASCADE;
SELECT count(*) AS tracked_left FROM ldp.collections WHERE name = 'tracked';
SELECT count(*) AS tracked_epochs FROM ldp.collection_epochs WHERE collection = 'tracked';
RESET ROLE;

------------------------------------------------------------------------------
-- 27.5: a summary may convert only between types of pg_catalog and ldp: a cast, an
-- implicit conversion or a domain of another schema would run its owner's function at
-- every close (and, after a reassignment, as the new owner). Checked at creation and at
-- every use, before anything runs.
------------------------------------------------------------------------------
GRANT EXECUTE ON FUNCTION ldp.create_collection(text, regclass, text, interval, text, timestamptz) TO regress_ldp_eve;
SET ROLE regress_ldp_eve;
CREATE TABLE regress_eve.log (who name, what text);
CREATE TABLE regress_eve.reports (at timestamptz NOT NULL, bit boolean NOT NULL, n int NOT NULL);
INSERT INTO regress_eve.reports SELECT '2026-01-01 00:00+00'::timestamptz, i % 2 = 0, i % 3 FROM generate_series(1, 6) i;
CREATE TYPE regress_eve.t AS (x int);
CREATE FUNCTION regress_eve.to_t(boolean) RETURNS regress_eve.t LANGUAGE plpgsql AS $f$
BEGIN INSERT INTO regress_eve.log VALUES (current_user, 'to_t'); RETURN ROW(1)::regress_eve.t; END $f$;
CREATE FUNCTION regress_eve.from_t(regress_eve.t) RETURNS boolean LANGUAGE plpgsql AS $f$
BEGIN INSERT INTO regress_eve.log VALUES (current_user, 'from_t'); RETURN true; END $f$;
CREATE CAST (boolean AS regress_eve.t) WITH FUNCTION regress_eve.to_t(boolean);
CREATE CAST (regress_eve.t AS boolean) WITH FUNCTION regress_eve.from_t(regress_eve.t) AS IMPLICIT;
CREATE DOMAIN regress_eve.checked AS boolean CHECK (regress_eve.from_t(ROW(1)::regress_eve.t));
CREATE TABLE regress_eve.typed (at timestamptz NOT NULL, bit regress_eve.t NOT NULL);
INSERT INTO regress_eve.typed VALUES ('2026-01-01 00:00+00', ROW(1));
DELETE FROM regress_eve.log;
SELECT try_sql($$SELECT ldp.create_collection('cast1', 'regress_eve.reports', 'at', '1 day', 'ldp.rr_agg(bit::regress_eve.t::boolean, 1.0)')$$);
SELECT try_sql($$SELECT ldp.create_collection('cast2', 'regress_eve.reports', 'at', '1 day', 'ldp.rr_agg(bit::regress_eve.checked, 1.0)')$$);
SELECT try_sql($$SELECT ldp.create_collection('cast3', 'regress_eve.typed', 'at', '1 day', 'ldp.rr_agg(bit, 1.0)')$$);
SELECT try_sql($$SELECT ldp.create_collection('cast4', 'regress_eve.typed', 'at', '1 day', 'ldp.rr_agg(bit::boolean, 1.0)')$$);
-- casts between pg_catalog's types, and ldp's, are fine
SELECT ldp.create_collection('cast_ok', 'regress_eve.reports', 'at', '1 day',
                             'ldp.rr_agg(n::boolean::text::boolean, 1::numeric::float8)', '2026-01-01 00:00+00');
CALL ldp.close_epoch('cast_ok', 0);
SELECT epoch, reports FROM ldp.collection_epochs WHERE collection = 'cast_ok';
RESET ROLE;
-- a summary changed behind the functions' back is refused at the next close, before the
-- cast runs
UPDATE ldp.collection_catalog SET summary = 'ldp.rr_agg(bit::regress_eve.t::boolean, 1.0)' WHERE name = 'cast_ok';
SELECT try_sql($$CALL ldp.close_epoch('cast_ok', 0, true)$$);
SELECT try_sql($$SELECT * FROM ldp.late_reports('cast_ok')$$);
SELECT count(*) AS cast_functions_run FROM regress_eve.log;
UPDATE ldp.collection_catalog SET summary = 'ldp.rr_agg(n::boolean::text::boolean, 1::numeric::float8)' WHERE name = 'cast_ok';

------------------------------------------------------------------------------
-- 27.5: a close leaves the closing session as it found it. The owner's code (here a
-- source view's function) may not take advisory locks, release the closer's, set the
-- random seed, advance a sequence or prepare statements in it (42501).
------------------------------------------------------------------------------
SET ROLE regress_ldp_eve;
CREATE SEQUENCE regress_eve.seq;
CREATE FUNCTION regress_eve.tamper(what text) RETURNS boolean LANGUAGE plpgsql AS $f$
BEGIN
  CASE what
    WHEN 'lock' THEN PERFORM pg_advisory_lock(27);
    WHEN 'xact lock' THEN PERFORM pg_advisory_xact_lock(27);
    WHEN 'unlock all' THEN PERFORM pg_advisory_unlock_all();
    WHEN 'seed' THEN PERFORM setseed(0.5);
    WHEN 'sequence' THEN PERFORM nextval('regress_eve.seq');
    WHEN 'prepare' THEN EXECUTE 'PREPARE eve_stmt AS SELECT 1';
    ELSE
      -- 'call f(...)': one of the session's random functions (below)
      IF what LIKE 'call %' THEN EXECUTE 'SELECT ' || substr(what, 6); END IF;
  END CASE;
  RETURN true;
END $f$;
CREATE TABLE regress_eve.what (what text);
INSERT INTO regress_eve.what VALUES ('nothing');
CREATE VIEW regress_eve.tampering AS
  SELECT r.at, r.bit FROM regress_eve.reports r, regress_eve.what w WHERE regress_eve.tamper(w.what);
SELECT ldp.create_collection('tamper', 'regress_eve.tampering', 'at', '1 day', 'ldp.rr_agg(bit, 1.0)', '2026-01-01 00:00+00');
RESET ROLE;
-- the closer (a superuser, as pg_cron's job owner) holds an advisory lock and a seed
SELECT pg_advisory_lock(7);
SELECT setseed(0.25);
CREATE TEMP TABLE closer_random AS SELECT random() AS first;
SELECT setseed(0.25);
UPDATE regress_eve.what SET what = 'lock';
SELECT try_sql($$CALL ldp.close_epoch('tamper', 0)$$);
UPDATE regress_eve.what SET what = 'xact lock';
SELECT try_sql($$CALL ldp.close_epoch('tamper', 0)$$);
UPDATE regress_eve.what SET what = 'unlock all';
SELECT try_sql($$CALL ldp.close_epoch('tamper', 0)$$);
UPDATE regress_eve.what SET what = 'seed';
SELECT try_sql($$CALL ldp.close_epoch('tamper', 0)$$);
UPDATE regress_eve.what SET what = 'sequence';
SELECT try_sql($$CALL ldp.close_epoch('tamper', 0)$$);
UPDATE regress_eve.what SET what = 'prepare';
SELECT try_sql($$CALL ldp.close_epoch('tamper', 0)$$);
-- every function that draws from the session's random sequence, as many as this major
-- has (random() on 15; random_normal() from 16; random(min, max) for int, bigint and
-- numeric from 17): each refused, the same output on every version
CREATE TEMP TABLE random_refusals (f text, refused boolean);
DO $$
DECLARE
  f record;
BEGIN
  FOR f IN SELECT p.oid::regprocedure AS sig, p.proname || '(' ||
                  coalesce((SELECT string_agg(k || '::' || format_type(t, NULL), ', ' ORDER BY k)
                            FROM unnest(p.proargtypes::oid[]) WITH ORDINALITY a(t, k)), '') || ')' AS call
           FROM pg_proc p
           WHERE p.pronamespace = 'pg_catalog'::regnamespace AND p.proname IN ('random', 'random_normal')
  LOOP
    UPDATE regress_eve.what SET what = 'call ' || f.call;
    BEGIN
      CALL ldp.close_epoch('tamper', 0);
      INSERT INTO random_refusals VALUES (f.sig::text, false);
    EXCEPTION WHEN insufficient_privilege THEN
      INSERT INTO random_refusals VALUES (f.sig::text, true);
    END;
  END LOOP;
END $$;
SELECT count(*) >= 1 AS some_random_function, bool_and(refused) AS every_one_refused,
       count(*) FILTER (WHERE f = 'random()') AS has_random FROM random_refusals;
-- as it was: the closer's lock only, its random sequence, no sequence value, no statement
SELECT objid FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid();
SELECT random() = first AS same_random FROM closer_random;
SELECT try_sql($$SELECT currval('regress_eve.seq')$$) AS currval;
SELECT count(*) AS prepared FROM pg_prepared_statements;
SELECT pg_advisory_unlock(7);
-- a source that changes nothing closes as before
UPDATE regress_eve.what SET what = 'nothing';
CALL ldp.close_epoch('tamper', 0);
SELECT epoch, reports FROM ldp.collection_epochs WHERE collection = 'tamper';

------------------------------------------------------------------------------
-- 27.5: a collection owned by a superuser runs its source as a superuser at every
-- close: a WARNING when one is created (above, for sc_new) or given to a superuser.
------------------------------------------------------------------------------
SELECT ldp.alter_collection_owner('tamper', current_user::regrole);
SELECT ldp.alter_collection_owner('tamper', 'regress_ldp_eve');

-- REASSIGN OWNED moves the views with their triggers: still read-only for the new owner
REASSIGN OWNED BY regress_ldp_eve TO regress_ldp_carol;
SELECT name, owner FROM ldp.collections WHERE name IN ('cast_ok', 'tamper') ORDER BY name;
SET ROLE regress_ldp_carol;
SELECT try_sql($$UPDATE ldp_collections.tamper SET reports = 0$$) AS after_reassign;
RESET ROLE;

-- clean up: DROP OWNED follows PostgreSQL's rule for what other roles built on an
-- owner's view (2BP01 unless CASCADE)
SET ROLE regress_ldp_carol;
SELECT ldp.create_collection('last', 'regress_carol.clicks', 'at', '1 day', 'ldp.rr_agg(bit, 1.0)', '2026-01-01 00:00+00');
SELECT ldp.grant_collection('last', 'read', 'regress_ldp_dave');
RESET ROLE;
SET ROLE regress_ldp_dave;
CREATE VIEW regress_dave.last_pin AS SELECT epoch FROM ldp_collections.last;
RESET ROLE;
SELECT try_sql($$DROP OWNED BY regress_ldp_carol$$);
DROP OWNED BY regress_ldp_carol CASCADE;
SELECT name FROM ldp.collections UNION ALL SELECT name FROM ldp.thresh_streams ORDER BY 1;
DROP OWNED BY regress_ldp_dave, regress_ldp_eve CASCADE;
DROP TABLE public.dba_reports CASCADE;
SELECT ldp.thresh_drop('sdaily');
SELECT ldp.thresh_drop('snew');
DROP ROLE regress_ldp_carol, regress_ldp_dave, regress_ldp_eve;
SELECT count(*) AS left_views FROM pg_class WHERE relnamespace IN ('ldp_collections'::regnamespace, 'ldp_thresh_streams'::regnamespace);
-- the extension as the other tests expect it: a fresh install
DROP EXTENSION ldp;
CREATE EXTENSION ldp;
