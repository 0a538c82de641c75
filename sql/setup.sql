-- The extension installs into schema ldp, and everything it creates is documented.
CREATE EXTENSION ldp;
SELECT extname, extversion, n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE extname = 'ldp';
-- functions, aggregates and types without a COMMENT ON (must be none)
SELECT p.oid::regprocedure AS undocumented
FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
WHERE n.nspname = 'ldp' AND obj_description(p.oid, 'pg_proc') IS NULL ORDER BY 1;
SELECT t.typname AS undocumented_type FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
WHERE n.nspname = 'ldp' AND t.typtype = 'b' AND t.typcategory <> 'A' AND obj_description(t.oid, 'pg_type') IS NULL;
-- every aggregate is parallel safe with a combine function
SELECT a.aggfnoid::regprocedure AS not_parallel
FROM pg_aggregate a JOIN pg_proc p ON p.oid = a.aggfnoid JOIN pg_namespace n ON n.oid = p.pronamespace
WHERE n.nspname = 'ldp' AND (p.proparallel <> 's' OR a.aggcombinefn = 0);
-- The error tests run statements through this and show SQLSTATE: message.
CREATE FUNCTION public.try_sql(query text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE query;
  RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE || ': ' || SQLERRM;
END $$;
-- Files of the binary COPY tests: in the server's data directory, so that clusters
-- running side by side do not share them (COPY TO takes absolute paths only).
CREATE FUNCTION public.regress_file(name text) RETURNS text LANGUAGE sql STABLE
  RETURN current_setting('data_directory') || '/' || name;

-- Forces parallel plans (on) or lets the planner choose (off), on every version: the
-- setting is force_parallel_mode up to PostgreSQL 15, debug_parallel_query from 16.
CREATE PROCEDURE public.regress_force_parallel(force boolean) LANGUAGE plpgsql AS $$
BEGIN
  PERFORM set_config(CASE WHEN current_setting('server_version_num')::int >= 160000
                          THEN 'debug_parallel_query' ELSE 'force_parallel_mode' END,
                     CASE WHEN force THEN 'on' ELSE 'off' END, false);
END $$;
