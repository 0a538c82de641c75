-- The install and update scripts refuse a schema ldp that another role controls
-- (extension/sql/00_guard.sql): its owner, or a role that may create in it, could put
-- there a function that ldp's own functions resolve first, and so become superuser.
SET client_min_messages = warning;
DROP EXTENSION ldp CASCADE;
DROP SCHEMA ldp;  -- made by CREATE EXTENSION, it is not the extension's and stays
DROP ROLE IF EXISTS regress_ldp_squatter;
RESET client_min_messages;
CREATE ROLE regress_ldp_squatter;

-- 1. a schema ldp owned by another role (0.9.0 installed into it: the flaw)
CREATE SCHEMA ldp AUTHORIZATION regress_ldp_squatter;
SELECT try_sql('CREATE EXTENSION ldp');
SELECT count(*) AS installed FROM pg_extension WHERE extname = 'ldp';
SELECT try_sql($$CREATE EXTENSION ldp VERSION '0.9.0'$$) AS released_0_9_0;
SELECT try_sql('ALTER EXTENSION ldp UPDATE');
SELECT extversion FROM pg_extension WHERE extname = 'ldp';
DROP EXTENSION ldp;
DROP SCHEMA ldp;

-- 2. owned by the installing role, but another role may create in it (directly or
--    through PUBLIC)
CREATE SCHEMA ldp;
GRANT CREATE ON SCHEMA ldp TO regress_ldp_squatter;
SELECT try_sql('CREATE EXTENSION ldp');
REVOKE CREATE ON SCHEMA ldp FROM regress_ldp_squatter;
GRANT CREATE ON SCHEMA ldp TO PUBLIC;
SELECT try_sql('CREATE EXTENSION ldp') LIKE '42501: %regress_ldp_squatter%' AS public_create_refused;
REVOKE CREATE ON SCHEMA ldp FROM PUBLIC;

-- 3. not empty: an overload planted before the install
CREATE FUNCTION ldp.collection_grant(regrole, text, text, text, boolean) RETURNS void
  LANGUAGE sql AS 'SELECT';
SELECT try_sql('CREATE EXTENSION ldp');
DROP FUNCTION ldp.collection_grant(regrole, text, text, text, boolean);

-- 4. default privileges that would grant the new objects
ALTER DEFAULT PRIVILEGES IN SCHEMA ldp GRANT EXECUTE ON FUNCTIONS TO regress_ldp_squatter;
SELECT replace(try_sql('CREATE EXTENSION ldp'), current_user, 'INSTALLER') AS refused;
ALTER DEFAULT PRIVILEGES IN SCHEMA ldp REVOKE EXECUTE ON FUNCTIONS FROM regress_ldp_squatter;

-- 5. the schemas of the backing views: taken is a clear 42P06
CREATE SCHEMA ldp_collections;
SELECT try_sql('CREATE EXTENSION ldp');
DROP SCHEMA ldp_collections;

-- 6. an empty schema of the installing role's, with no other grants: installs
CREATE EXTENSION ldp;
SELECT extversion, extnamespace::regnamespace FROM pg_extension WHERE extname = 'ldp';
DROP EXTENSION ldp;

-- 7. the update checks the same: 0.9.0 installed safely, then a careless grant, or a
--    foreign object, stops the update until it is undone
DROP SCHEMA ldp;
CREATE EXTENSION ldp VERSION '0.9.0';
GRANT CREATE ON SCHEMA ldp TO regress_ldp_squatter;
SELECT try_sql('ALTER EXTENSION ldp UPDATE');
REVOKE CREATE ON SCHEMA ldp FROM regress_ldp_squatter;
GRANT CREATE ON SCHEMA ldp_thresh_streams TO regress_ldp_squatter;
SELECT try_sql('ALTER EXTENSION ldp UPDATE');
REVOKE CREATE ON SCHEMA ldp_thresh_streams FROM regress_ldp_squatter;
CREATE FUNCTION ldp.planted() RETURNS int LANGUAGE sql AS 'SELECT 1';
SELECT try_sql('ALTER EXTENSION ldp UPDATE');
DROP FUNCTION ldp.planted();
ALTER EXTENSION ldp UPDATE;
SELECT extversion FROM pg_extension WHERE extname = 'ldp';

-- the later tests run on a fresh installation
DROP EXTENSION ldp;
DROP SCHEMA ldp;
CREATE EXTENSION ldp;
DROP ROLE regress_ldp_squatter;
