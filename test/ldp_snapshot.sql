-- Every ldp object of a database as text, by name (never by OID), to compare a database
-- before and after pg_upgrade or pg_dump/pg_restore (test/pg_upgrade.sh). One line each:
--   - the extension's version;
--   - every table (the extension's too, not the system's): its row count and the md5 of
--     its rows' text, sorted;
--   - every distinct value of an ldp type in a table (stored summaries, collection
--     epochs, protocols) and how many rows hold it: the md5 of its text form, of its binary form (the type's send function,
--     run by this server) and of its estimate rows (mean: estimate, standard error,
--     interval, reports; frequency: frequencies; sketch: frequencies of the items below;
--     heavy hitters: heavy_hitters and the frequencies of candidates; RAPPOR:
--     rappor_decode of the items);
--   - every collection (its row of ldp.collections: definition, owner, grants) and the
--     md5 of its estimate rows (its kind's collection function, ldp.summary_kinds), every
--     closed epoch;
--   - every THRESH stream (its row of ldp.thresh_streams) and the md5 of its status,
--     history and parameters, and of a histogram stream's frequencies of the items;
--   - the privileges of every role on every collection and stream (has_table_privilege,
--     ldp's OWNER rule), what each role that is not a superuser sees in ldp.collections
--     and ldp.thresh_streams, the owners and grants of every relation and of ldp's
--     functions, and \dp of the collections' and streams' views.
-- Run as a superuser, with psql. It changes nothing.
\set ON_ERROR_STOP 1
\pset format unaligned
\pset tuples_only on
\pset footer off
SET search_path = pg_catalog, pg_temp;
SET extra_float_digits = 1;
SET DateStyle = 'ISO, YMD';
SET IntervalStyle = 'postgres';
SET TimeZone = 'UTC';
SET statement_timeout = 0;
-- the candidate items of sketches, RAPPOR and histogram streams
\set items '{w0,w1,w2,w3,w4,w5,w6,w7,w8,w9,w10,w11,ab,c,abca,apple,pear,zebra,""}'
-- the candidates of heavy-hitters summaries: words and 64-bit ids
\set heavy_items '{ab,abca,wa,c,bcw,a,ba,ok,é,-5,1234567890123,-3000009,-1000003,0,2000006}'

SELECT 'extension', extname, extversion, extnamespace::regnamespace, extowner::regrole
FROM pg_extension ORDER BY extname;

-- A heavy-hitters summary's estimates: its heavy hitters at 5% of its reports (at the
-- default threshold when the walk would be too wide: noise over 64-bit ids), and the
-- frequency of each candidate of its domain.
CREATE FUNCTION pg_temp.heavy_estimates(v ldp.heavy_summary, items text[]) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  found text;
  i text;
BEGIN
  BEGIN
    found := (SELECT string_agg(f::text, ' ') FROM ldp.heavy_hitters(v, greatest(1, ldp.report_count(v) / 20.0)) f);
  EXCEPTION WHEN data_exception THEN  -- 22023: the walk would query too many prefixes
    found := 'default threshold: ' || (SELECT string_agg(f::text, ' ') FROM ldp.heavy_hitters(v) f);
  END;
  FOREACH i IN ARRAY items LOOP
    BEGIN
      found := concat_ws(' ', found, i || '=' || ldp.frequency(v, i));
    EXCEPTION WHEN data_exception THEN
      NULL;  -- not an item of its domain
    END;
  END LOOP;
  RETURN found;
END $$;

-- the relations ldp and the users made: not the system's, not materialized views (whose
-- rows may read the system catalogs)
CREATE TEMP VIEW user_tables AS
SELECT c.oid, c.oid::regclass AS rel FROM pg_class c
WHERE c.relkind IN ('r', 'p') AND c.relpersistence = 'p'
  AND c.relnamespace NOT IN ('pg_catalog'::regnamespace, 'information_schema'::regnamespace, 'pg_toast'::regnamespace);

SELECT format($q$SELECT 'table %s', count(*), md5(string_agg(t::text, E'\n' ORDER BY t::text)) FROM %s t$q$, rel, rel)
FROM user_tables ORDER BY rel::text \gexec

SELECT format($q$SELECT 'stored %1$s.%2$s', md5(v::text), md5(%3$s(v)), md5((%4$s)::text), count(*)
                 FROM (SELECT %2$I AS v FROM %1$s) s GROUP BY 2, 3, 4 ORDER BY 2, 3, 4$q$,
              u.rel, a.attname, t.typsend::regproc,
              CASE t.typname
                WHEN 'mean_summary' THEN 'ROW(ldp.estimate(v), ldp.std_error(v), ldp.ci_lower(v), ldp.ci_upper(v), ldp.report_count(v))'
                WHEN 'freq_summary' THEN '(SELECT string_agg(f::text, '' '') FROM ldp.frequencies(v) f)'
                WHEN 'sketch_summary' THEN format('(SELECT string_agg(f::text, '' '') FROM ldp.frequencies(v, %L::text[]) f)', :'items')
                WHEN 'heavy_summary' THEN format('pg_temp.heavy_estimates(v, %L::text[])', :'heavy_items')
                WHEN 'rappor_summary' THEN format('(SELECT string_agg(f::text, '' '') FROM ldp.rappor_decode(v, %L::text[]) f)', :'items')
                WHEN 'range_summary' THEN 'CASE ldp.mechanism(v) WHEN ''sw'' THEN (SELECT string_agg(d::text, '' '') FROM ldp.density(v, 4, 2) d) ELSE (SELECT string_agg(q::text, '' '') FROM ldp.quantiles(v, ARRAY[0.1, 0.5, 0.9]) q) END'
                WHEN 'summary' THEN 'ldp.report_count(v)'
                ELSE 'NULL' END)
FROM user_tables u
JOIN pg_attribute a ON a.attrelid = u.oid AND a.attnum > 0 AND NOT a.attisdropped
JOIN pg_type t ON t.oid = a.atttypid
WHERE t.typnamespace = 'ldp'::regnamespace AND t.typtype = 'b' AND t.typcategory <> 'A'
ORDER BY u.rel::text, a.attnum \gexec

SELECT 'collection', c.* FROM ldp.collections c ORDER BY name;
SELECT format($q$SELECT 'collection estimates %s', count(*), md5(string_agg(e::text, E'\n' ORDER BY e::text)) FROM %s e$q$,
              name, CASE kind WHEN 'mean' THEN format('ldp.collection_estimates(%L)', name)
                              WHEN 'frequency' THEN format('ldp.collection_frequencies(%L)', name)
                              WHEN 'sketch' THEN format('ldp.collection_frequencies(%L, %L::text[])', name, :'items')
                              WHEN 'heavy' THEN format('ldp.collection_heavy_hitters(%L, 50)', name)
                              WHEN 'rappor' THEN format('ldp.collection_rappor_decode(%L, %L::text[])', name, :'items')
                              WHEN 'range' THEN format('ldp.collection_quantiles(%L, ARRAY[0.1, 0.5, 0.9])', name)
                              ELSE format('(SELECT %L AS unknown_kind) x', kind) END)
FROM ldp.collections ORDER BY name \gexec
SELECT 'epoch', collection, epoch, epoch_start, reports, closed_at, md5(summary::text), md5(ldp.summary_send(summary))
FROM ldp.collection_epochs ORDER BY 2, 3;

SELECT 'stream', s.* FROM ldp.thresh_streams s ORDER BY name;
SELECT format($q$SELECT 'stream %1$s', (SELECT md5(string_agg(x::text, E'\n')) FROM ldp.thresh_status(%1$L) x),
                        (SELECT md5(string_agg(x::text, E'\n' ORDER BY x.epoch)) FROM ldp.thresh_history(%1$L) x),
                        (SELECT md5(string_agg(x::text, E'\n')) FROM ldp.thresh_params(%1$L) x), %2$s$q$,
              name, CASE WHEN kind = 'histogram' THEN format(
                '(SELECT md5(string_agg(f::text, E''\n'' ORDER BY f::text)) FROM ldp.thresh_frequencies(%L, %L::text[]) f)', name, :'items')
                ELSE 'NULL' END)
FROM ldp.thresh_streams ORDER BY name \gexec

-- privileges
SELECT 'privilege', r.rolname, c.oid::regclass, p.priv,
       CASE WHEN p.priv = 'OWNER' THEN pg_has_role(r.oid, c.relowner, 'USAGE') ELSE has_table_privilege(r.oid, c.oid, p.priv) END
FROM pg_roles r, pg_class c, (VALUES ('SELECT'), ('INSERT'), ('UPDATE'), ('DELETE'), ('OWNER')) p(priv)
WHERE r.rolname !~ '^pg_' AND c.relnamespace IN ('ldp_collections'::regnamespace, 'ldp_thresh_streams'::regnamespace)
ORDER BY r.rolname, c.oid::regclass::text, p.priv;
SELECT format('SET ROLE %I', rolname),
       format($q$SELECT 'seen by %s', (SELECT string_agg(name, ' ' ORDER BY name) FROM ldp.collections),
                                      (SELECT string_agg(name, ' ' ORDER BY name) FROM ldp.thresh_streams)$q$, rolname),
       'RESET ROLE'
FROM pg_roles WHERE rolname !~ '^pg_' AND NOT rolsuper ORDER BY rolname \gexec
SELECT 'relation', c.oid::regclass, c.relkind, pg_get_userbyid(c.relowner), c.relacl FROM pg_class c
WHERE c.relpersistence <> 't' AND c.relnamespace NOT IN ('pg_catalog'::regnamespace, 'information_schema'::regnamespace, 'pg_toast'::regnamespace)
ORDER BY c.oid::regclass::text;
SELECT 'schema', nspname, pg_get_userbyid(nspowner), nspacl FROM pg_namespace WHERE nspname !~ '^pg_' ORDER BY 2;
SELECT 'function', oid::regprocedure, pg_get_userbyid(proowner), proacl FROM pg_proc
WHERE pronamespace = 'ldp'::regnamespace AND proacl IS NOT NULL ORDER BY oid::regprocedure::text;
\pset tuples_only off
\dp ldp_collections.*
\dp ldp_thresh_streams.*
