-- Safe to share a database: the attacker's findings of issue #11, each a test, and
-- the privilege model's positive cases, run as ordinary roles with SET ROLE.
-- (Roles are cluster-wide: their names start with regress_ as PostgreSQL's own tests' do.)
SET client_min_messages = warning;
DROP ROLE IF EXISTS regress_ldp_alice, regress_ldp_bob, regress_ldp_mallory, regress_ldp_ingest;
RESET client_min_messages;
CREATE ROLE regress_ldp_alice;    -- an analyst allowed to create collections and streams
CREATE ROLE regress_ldp_bob;      -- a reader of alice's dashboards
CREATE ROLE regress_ldp_mallory;  -- an ordinary role that attacks
CREATE ROLE regress_ldp_ingest;   -- the service that forwards THRESH reports
CREATE SCHEMA regress_alice AUTHORIZATION regress_ldp_alice;
CREATE SCHEMA regress_mallory AUTHORIZATION regress_ldp_mallory;
GRANT USAGE ON SCHEMA regress_alice, regress_mallory TO PUBLIC;

-- an extension installed at 0.3.0 keeps its collections and streams through the
-- update: a collection belongs to its source table's owner, a stream to the
-- extension's owner (the summary columns of the earlier tests' tables go with it)
SET client_min_messages = warning;
DROP EXTENSION ldp CASCADE;
RESET client_min_messages;
CREATE EXTENSION ldp VERSION '0.3.0';
CREATE TABLE regress_alice.old_reports (at timestamptz NOT NULL, r boolean NOT NULL);
ALTER TABLE regress_alice.old_reports OWNER TO regress_ldp_alice;
INSERT INTO regress_alice.old_reports
SELECT '2026-01-01 00:00+00'::timestamptz + (i % 3) * interval '1 day', i % 4 = 0 FROM generate_series(1, 300) i;
SELECT ldp.create_collection('old', 'regress_alice.old_reports', 'at', '1 day', 'ldp.rr_agg(r, 1.0)', '2026-01-01 00:00+00');
CALL ldp.close_epoch('old', 0);
SELECT ldp.thresh_create('old_stream', 100000, 32, 20000, 40000, 2, 8, 0.1);
ALTER EXTENSION ldp UPDATE;
SELECT extversion FROM pg_extension WHERE extname = 'ldp';
SELECT name, owner, acl FROM ldp.collections;
SELECT name, owner = (SELECT extowner FROM pg_extension WHERE extname = 'ldp')::regrole AS extension_owner FROM ldp.thresh_streams;
SELECT epoch, reports FROM ldp.collection_epochs ORDER BY epoch;
CALL ldp.close_epoch('old', 1);
SELECT epoch, reports FROM ldp.collection_epochs ORDER BY epoch;
SELECT ldp.drop_collection('old');
SELECT ldp.thresh_drop('old_stream');
DROP TABLE regress_alice.old_reports;

-- Who may create: EXECUTE on the two creating functions is not PUBLIC; a DBA grants it.
GRANT EXECUTE ON FUNCTION ldp.create_collection(text, regclass, text, interval, text, timestamptz),
                          ldp.thresh_create(text, bigint, int, int, bigint, int, float8, float8, float8, float8, float8)
  TO regress_ldp_alice;

SET ROLE regress_ldp_alice;
CREATE TABLE regress_alice.usage (at timestamptz NOT NULL, bit boolean NOT NULL);
INSERT INTO regress_alice.usage
SELECT '2026-03-01 00:00+00'::timestamptz + (i % 5) * interval '1 day', i % 3 = 0 FROM generate_series(1, 5000) i;
SELECT ldp.create_collection('alice_usage', 'regress_alice.usage', 'at', '1 day',
                             'ldp.onebit_mean_agg(bit, 1.0, 86400)', '2026-03-01 00:00+00');
CALL ldp.close_due_epochs('alice_usage');
SELECT epoch, reports FROM ldp.collection_estimates('alice_usage') WHERE epoch < 6;
SELECT ldp.thresh_create('alice_stream', 100000, 32, 20000, 40000, 2, 8, 0.1);
SELECT name, owner FROM ldp.collections;
SELECT name, owner FROM ldp.thresh_streams;
RESET ROLE;

------------------------------------------------------------------------------
-- Finding 3: no ownership. A role sees and changes only what it owns or was granted.
------------------------------------------------------------------------------
SET ROLE regress_ldp_mallory;
-- it cannot create without the grant
SELECT try_sql($$SELECT ldp.create_collection('m', 'regress_alice.usage', 'at', '1 day', 'ldp.rr_agg(bit, 1.0)')$$);
SELECT try_sql($$SELECT ldp.thresh_create('m', 100000, 32, 20000, 40000, 2, 8, 0.1)$$);
-- alice's objects do not exist for it
SELECT count(*) AS collections_seen FROM ldp.collections;
SELECT count(*) AS epochs_seen FROM ldp.collection_epochs;
SELECT count(*) AS streams_seen FROM ldp.thresh_streams;
SELECT try_sql($$SELECT * FROM ldp.collection_estimates('alice_usage')$$);
SELECT try_sql($$SELECT * FROM ldp.late_reports('alice_usage')$$);
SELECT try_sql($$CALL ldp.close_due_epochs('alice_usage')$$);
SELECT try_sql($$CALL ldp.close_epoch('alice_usage', 0, true)$$);
SELECT try_sql($$SELECT ldp.drop_collection('alice_usage')$$);
SELECT try_sql($$SELECT ldp.grant_collection('alice_usage', 'read', 'regress_ldp_mallory')$$);
SELECT try_sql($$SELECT * FROM ldp.thresh_status('alice_stream')$$);
SELECT try_sql($$SELECT ldp.thresh_submit_votes('alice_stream', 1, ARRAY[1]::bigint[], ARRAY[true])$$);
SELECT try_sql($$CALL ldp.thresh_close_votes('alice_stream')$$);
SELECT try_sql($$SELECT ldp.thresh_drop('alice_stream')$$);
SELECT try_sql($$SELECT ldp.grant_thresh('alice_stream', 'submit', 'regress_ldp_mallory')$$);
-- and the catalog tables cannot be written directly
SELECT try_sql($$UPDATE ldp.collections SET summary = 'ldp.rr_agg(bit, 1.0)'$$);
SELECT try_sql($$INSERT INTO ldp.collection_epochs (collection, epoch, epoch_start, reports) VALUES ('alice_usage', 99, now(), 1)$$);
SELECT try_sql($$DELETE FROM ldp.thresh_votes$$);
SELECT try_sql($$UPDATE ldp.thresh_streams SET estimate = 1$$);
SELECT try_sql($$UPDATE ldp.collection_catalog SET summary = 'ldp.rr_agg(bit, 1.0)'$$);
SELECT try_sql($$SELECT count(*) FROM ldp.thresh_catalog$$);
SELECT try_sql($$DROP VIEW ldp_collections.alice_usage$$);
SELECT try_sql($$GRANT SELECT ON ldp_collections.alice_usage TO regress_ldp_mallory$$);
-- nor the internal functions called
SELECT try_sql($$SELECT ldp._drop_collection('regress_ldp_alice', 'alice_usage')$$);
SELECT try_sql($$SELECT * FROM ldp._as_role('regress_ldp_alice', 'SELECT 1', NULL, NULL) AS t(x int)$$);
SELECT try_sql($$SELECT ldp.thresh_submit('regress_ldp_alice'::regrole, 'alice_stream', 1, ARRAY[1]::bigint[], ARRAY[true], 'votes')$$);
-- nor the helpers only the twins call (they ran for PUBLIC before 0.11.0)
SELECT try_sql($$SELECT ldp.collection_summary_call('ldp.rr_agg(bit, 1.0)')$$);
SELECT try_sql($$SELECT ldp.collection_source(c) FROM ldp.collections c$$);
SELECT try_sql($$SELECT ldp.thresh_decide(s, 10, 5) FROM ldp.thresh_streams s$$);
RESET ROLE;

-- The owner grants: bob may read the collection, ingest may submit to the stream.
SET ROLE regress_ldp_alice;
SELECT ldp.grant_collection('alice_usage', 'read', 'regress_ldp_bob');
SELECT ldp.grant_thresh('alice_stream', 'submit', 'regress_ldp_ingest');
SELECT ldp.grant_thresh('alice_stream', 'read', 'regress_ldp_ingest');
SELECT ldp.grant_thresh('alice_stream', 'read', 'regress_ldp_bob');
SELECT try_sql($$SELECT ldp.grant_thresh('alice_stream', 'drop', 'regress_ldp_bob')$$);
SELECT try_sql($$SELECT ldp.grant_thresh('alice_stream', 'read', 'regress_ldp_nobody')$$);
SELECT name, acl FROM ldp.collections;
SELECT name, acl FROM ldp.thresh_streams;
RESET ROLE;

-- A granted reader reads, and changes nothing.
SET ROLE regress_ldp_bob;
SELECT name FROM ldp.collections;
SELECT epoch, reports, round(estimate) > 0 AS has_estimate FROM ldp.collection_estimates('alice_usage') WHERE epoch < 6;
SELECT epoch, counted, present, late FROM ldp.late_reports('alice_usage') WHERE epoch < 6;
SELECT ldp.epoch_of('alice_usage', '2026-03-02 12:00+00');
SELECT try_sql($$CALL ldp.close_epoch('alice_usage', 0, true)$$);
SELECT try_sql($$CALL ldp.close_due_epochs('alice_usage')$$);
SELECT try_sql($$SELECT ldp.drop_collection('alice_usage')$$);
SELECT try_sql($$SELECT ldp.grant_collection('alice_usage', 'close', 'regress_ldp_bob')$$);
SELECT try_sql($$SELECT ldp.thresh_submit_votes('alice_stream', 1, ARRAY[1]::bigint[], ARRAY[true])$$);
SELECT epoch, phase FROM ldp.thresh_status('alice_stream');
-- individual reports are the owner's only
SELECT count(*) AS votes_seen FROM ldp.thresh_votes;
RESET ROLE;

-- A submitter submits, and cannot close or drop.
SET ROLE regress_ldp_ingest;
SELECT ldp.thresh_submit_votes('alice_stream', 1, ARRAY[1, 2, 3]::bigint[], ARRAY[true, false, true]);
SELECT epoch, phase, votes FROM ldp.thresh_status('alice_stream');
SELECT try_sql($$CALL ldp.thresh_close_votes('alice_stream')$$);
SELECT try_sql($$SELECT ldp.thresh_drop('alice_stream')$$);
SELECT count(*) AS votes_seen FROM ldp.thresh_votes;
RESET ROLE;

-- The owner closes, sees the reports, grants close, revokes.
SET ROLE regress_ldp_alice;
SELECT count(*) AS votes_seen FROM ldp.thresh_votes;
CALL ldp.thresh_close_votes('alice_stream');
SELECT epoch, votes, global_update FROM ldp.thresh_history('alice_stream');
SELECT ldp.grant_collection('alice_usage', 'close', 'regress_ldp_bob');
SELECT ldp.revoke_thresh('alice_stream', 'submit', 'regress_ldp_ingest');
RESET ROLE;
SET ROLE regress_ldp_bob;
CALL ldp.close_epoch('alice_usage', 0, true);  -- now allowed
RESET ROLE;
SET ROLE regress_ldp_ingest;
SELECT try_sql($$SELECT ldp.thresh_submit_votes('alice_stream', 2, ARRAY[4]::bigint[], ARRAY[true])$$);
RESET ROLE;
SET ROLE regress_ldp_alice;
SELECT ldp.revoke_collection('alice_usage', 'read', 'regress_ldp_bob');
SELECT ldp.revoke_collection('alice_usage', 'close', 'regress_ldp_bob');
RESET ROLE;
SET ROLE regress_ldp_bob;
SELECT try_sql($$SELECT * FROM ldp.collection_estimates('alice_usage')$$);
RESET ROLE;
-- a superuser sees everything
SELECT name, owner FROM ldp.collections UNION ALL SELECT name, owner FROM ldp.thresh_streams ORDER BY 1;

------------------------------------------------------------------------------
-- Finding 1: privilege escalation through a stored expression. Nothing a role
-- stored runs with another role's privileges.
------------------------------------------------------------------------------
GRANT EXECUTE ON FUNCTION ldp.create_collection(text, regclass, text, interval, text, timestamptz) TO regress_ldp_mallory;
SET ROLE regress_ldp_mallory;
CREATE TABLE regress_mallory.log (current_role_name name, session_role name, tried text);
CREATE TABLE regress_mallory.reports (at timestamptz NOT NULL, r boolean NOT NULL);
INSERT INTO regress_mallory.reports SELECT '2026-03-01 00:00+00'::timestamptz, true FROM generate_series(1, 3);
-- evil() records who runs it and tries to become superuser, directly and by
-- switching back to the session's role
CREATE FUNCTION regress_mallory.evil() RETURNS boolean LANGUAGE plpgsql AS $f$
BEGIN
  BEGIN
    EXECUTE 'ALTER ROLE regress_ldp_mallory SUPERUSER';
    INSERT INTO regress_mallory.log VALUES (current_user, session_user, 'ALTER ROLE: succeeded');
  EXCEPTION WHEN OTHERS THEN
    INSERT INTO regress_mallory.log VALUES (current_user, session_user, 'ALTER ROLE: ' || SQLSTATE);
  END;
  BEGIN
    EXECUTE 'RESET ROLE';
    EXECUTE 'ALTER ROLE regress_ldp_mallory SUPERUSER';
    INSERT INTO regress_mallory.log VALUES (current_user, session_user, 'RESET ROLE: succeeded');
  EXCEPTION WHEN OTHERS THEN
    INSERT INTO regress_mallory.log VALUES (current_user, session_user, 'RESET ROLE: ' || SQLSTATE);
  END;
  RETURN true;
END $f$;
-- the stored summary cannot carry the code (checked now and at every close)
SELECT try_sql($$SELECT ldp.create_collection('evil', 'regress_mallory.reports', 'at', '1 day',
                 'ldp.rr_agg(r, 1.0) FILTER (WHERE regress_mallory.evil())', '2026-03-01 00:00+00')$$);
-- a collection over a table mallory may not read is refused (its query runs with
-- mallory's rights), so no summary of alice's reports can leak through one
SELECT try_sql($$SELECT ldp.create_collection('peek', 'regress_alice.usage', 'at', '1 day', 'ldp.rr_agg(bit, 1.0)')$$);
-- a view as the source can: its query runs as mallory, whoever closes
CREATE VIEW regress_mallory.evil_reports AS SELECT at, r FROM regress_mallory.reports WHERE regress_mallory.evil();
SELECT ldp.create_collection('evil', 'regress_mallory.evil_reports', 'at', '1 day', 'ldp.rr_agg(r, 1.0)', '2026-03-01 00:00+00');
DELETE FROM regress_mallory.log;
RESET ROLE;
-- a superuser (or pg_cron's job owner) closes every collection: evil() runs as
-- mallory, in a security-restricted operation, and fails to escalate
CALL ldp.close_due_epochs('evil');
SELECT DISTINCT current_role_name, session_role, tried FROM regress_mallory.log ORDER BY tried;
SELECT rolsuper FROM pg_roles WHERE rolname = 'regress_ldp_mallory';
SELECT epoch, reports FROM ldp.collection_epochs WHERE collection = 'evil' ORDER BY epoch LIMIT 2;
-- a summary changed behind the functions' back (as by a role that could write the
-- catalog in 0.3.0) is refused at the next close, not run
UPDATE ldp.collection_catalog SET summary = 'ldp.rr_agg(r, 1.0) FILTER (WHERE regress_mallory.evil())' WHERE name = 'evil';
SELECT try_sql($$CALL ldp.close_epoch('evil', 0, true)$$);
UPDATE ldp.collection_catalog SET summary = 'public.count(*)' WHERE name = 'evil';
SELECT try_sql($$CALL ldp.close_epoch('evil', 0, true)$$);
UPDATE ldp.collection_catalog SET summary = 'ldp.rr_agg(r, 1.0)' WHERE name = 'evil';

------------------------------------------------------------------------------
-- Finding 2: every SQL and PL/pgSQL function pins search_path (a catalog test that
-- fails when one is added without it), and a caller's objects cannot shadow the
-- names they use.
------------------------------------------------------------------------------
SELECT p.oid::regprocedure AS unpinned
FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
WHERE p.pronamespace = 'ldp'::regnamespace AND l.lanname IN ('sql', 'plpgsql')
  AND NOT coalesce('search_path=pg_catalog, pg_temp' = ANY (p.proconfig), false)
ORDER BY 1;
-- administrative and internal functions are not executable by PUBLIC
SELECT p.oid::regprocedure AS public_internal
FROM pg_proc p
WHERE p.pronamespace = 'ldp'::regnamespace
  AND (p.proname LIKE '\_%' OR p.proname IN ('create_collection', 'thresh_create', 'thresh_submit',
                                             'collection_close_range', 'collection_for', 'thresh_stream_for',
                                             'acl_change', 'collection_grant', 'thresh_grant'))
  AND has_function_privilege('public', p.oid, 'EXECUTE')
ORDER BY 1;
-- the class: no function whose comment says it is internal (or that has no comment) is
-- executable by PUBLIC; a helper that PUBLIC must execute (the readers call it with the
-- caller's rights) says why in its comment instead
SELECT p.oid::regprocedure AS public_internal_by_comment
FROM pg_proc p
WHERE p.pronamespace = 'ldp'::regnamespace
  AND coalesce(obj_description(p.oid, 'pg_proc') LIKE 'Internal%', true)
  AND has_function_privilege('public', p.oid, 'EXECUTE')
ORDER BY 1;
SELECT count(*) >= 50 AS internal_functions_checked
FROM pg_proc p
WHERE p.pronamespace = 'ldp'::regnamespace AND obj_description(p.oid, 'pg_proc') LIKE 'Internal%';
-- no SECURITY DEFINER function at all: the privileged twins run through ldp_privileged
SELECT count(*) AS security_definer FROM pg_proc WHERE pronamespace = 'ldp'::regnamespace AND prosecdef;
-- every routine of the summary families (types' I/O and casts, aggregates and their
-- transition functions, accessors, encoders, protocol builders, collection readers;
-- the heavy hitters' too) is executable by PUBLIC: nothing of them needs a grant (the
-- collections' internal helpers collection_summary_call, _columns and _type match the
-- names but are not of a family: the check above keeps them from PUBLIC)
SELECT p.oid::regprocedure AS family_routine_not_public
FROM pg_proc p
WHERE p.pronamespace = 'ldp'::regnamespace
  AND (p.oid::regprocedure::text ~ '(summary|heavy_protocol)' OR p.proname ~ '_(agg|trans|combine|encode|protocol)$'
       OR p.proname IN ('heavy_hitters', 'collection_heavy_hitters', 'collection_frequencies', 'collection_estimates')
       OR p.proname ~ 'rappor')
  AND NOT coalesce(obj_description(p.oid, 'pg_proc') LIKE 'Internal%', false)
  AND NOT has_function_privilege('public', p.oid, 'EXECUTE')
ORDER BY 1;
SELECT count(*) FILTER (WHERE p.oid::regprocedure::text ~ 'heavy' OR p.proname ~ '^treehist_') >= 20 AS heavy_routines_checked,
       count(*) FILTER (WHERE p.oid::regprocedure::text ~ 'rappor') >= 16 AS rappor_routines_checked
FROM pg_proc p WHERE p.pronamespace = 'ldp'::regnamespace;
-- the heavy-hitters family as an ordinary role, none of it granted: protocol, encoder,
-- aggregate, accessors, rollup, the ldp.summary casts
SET ROLE regress_ldp_mallory;
SELECT ldp.report_count(s), ldp.mechanism(s), ldp.protocol(s)::text = ldp.treehist_protocol(2, 300, 'abc', 4, 2, 2, 16)::text AS protocol,
       (SELECT array_agg(item ORDER BY count DESC) FROM ldp.heavy_hitters(s, 100)) AS heavy_at_100,
       ldp.frequency(s, 'ab') > 0.3 AS ab_frequent, (SELECT count(*) FROM ldp.frequencies(s, ARRAY['ab', 'c', NULL])) AS rows,
       round(ldp.heavy_threshold(s)::numeric, 3) AS tau, ldp.report_count(ldp.heavy_summary(ldp.summary(s))) AS via_summary,
       (SELECT ldp.report_count(ldp.rollup(x)) FROM (VALUES (s), (s)) v(x)) AS rolled_up
FROM (SELECT ldp.treehist_agg(e.level, e.hash_index, e.coefficient, e.prefix_report, e.item_report,
                              ldp.treehist_protocol(2, 300, 'abc', 4, 2, 2, 16)) s
      FROM generate_series(1, 300) i, ldp.treehist_encode((ARRAY['ab', 'c'])[1 + i % 2], ldp.treehist_protocol(2, 300, 'abc', 4, 2, 2, 16), i) e) x;
RESET ROLE;
-- the RAPPOR family as an ordinary role, none of it granted: encoders, aggregate,
-- accessors, decoder, privacy, rollup, the ldp.summary casts
SET ROLE regress_ldp_mallory;
SELECT ldp.report_count(s), ldp.mechanism(s), round(ldp.epsilon(s)::numeric, 4) AS epsilon, (ldp.rappor_parameters(s)).bits,
       (SELECT array_agg(d.item ORDER BY d.count DESC) FROM ldp.rappor_decode(s, ARRAY['a', 'b', 'z']) d WHERE d.detected) AS detected,
       ldp.report_count(ldp.rappor_summary(ldp.summary(s))) AS via_summary,
       (SELECT ldp.report_count(ldp.rollup(x)) FROM (VALUES (s), (s)) v(x)) AS rolled_up,
       (SELECT round(epsilon_inf::numeric, 4) FROM ldp.rappor_privacy(2, 0.5, 0.25, 0.75)) AS epsilon_inf,
       ldp.rappor_bloom('a', 0, 16, 2) AS bloom
FROM (SELECT ldp.rappor_agg(i % 4, ldp.rappor_encode((ARRAY['a', 'b'])[1 + i % 2], i % 4, int4send(i), 16, 2, 0.25, 0.25, 0.75, i),
                            2, 4, 0.25, 0.25, 0.75) s
      FROM generate_series(1, 4000) i) x;
RESET ROLE;
SET ROLE regress_ldp_mallory;
CREATE FUNCTION regress_mallory.cardinality(anyarray) RETURNS int LANGUAGE sql AS $f$ SELECT 1 $f$;
CREATE FUNCTION regress_mallory.array_position(anyarray, anyelement) RETURNS int LANGUAGE sql AS $f$ SELECT NULL::int $f$;
CREATE FUNCTION regress_mallory.now() RETURNS timestamptz LANGUAGE sql AS $f$ SELECT '1999-01-01'::timestamptz $f$;
SET search_path = regress_mallory, pg_catalog, ldp;
SELECT epoch, reports FROM ldp.collection_estimates('evil') ORDER BY epoch LIMIT 1;
RESET ROLE;
SET ROLE regress_ldp_alice;
SET search_path = regress_mallory, pg_catalog;
-- the shadowing cardinality() would let arrays of different lengths through
SELECT public.try_sql($$SELECT ldp.thresh_submit_votes('alice_stream', 1, ARRAY[7, 8]::bigint[], ARRAY[true])$$);
SELECT public.try_sql($$SELECT ldp.thresh_submit_votes('alice_stream', 1, ARRAY[7, NULL]::bigint[], ARRAY[true, true])$$);
RESET ROLE;
RESET search_path;

------------------------------------------------------------------------------
-- Finding 4: unbounded work from one call.
------------------------------------------------------------------------------
SET ROLE regress_ldp_alice;
SELECT try_sql($$SELECT ldp.create_collection('tiny', 'regress_alice.usage', 'at', '1 microsecond', 'ldp.rr_agg(bit, 1.0)')$$);
SELECT try_sql($$SELECT ldp.create_collection('tiny', 'regress_alice.usage', 'at', '0.5 seconds', 'ldp.rr_agg(bit, 1.0)')$$);
SELECT try_sql($$SELECT ldp.create_collection('tiny', 'regress_alice.usage', 'at', '100001 days', 'ldp.rr_agg(bit, 1.0)')$$);
SELECT try_sql($$SELECT ldp.create_collection('inf', 'regress_alice.usage', 'at', '1 day', 'ldp.rr_agg(bit, 1.0)', 'infinity')$$);
SELECT try_sql($$SELECT ldp.create_collection('inf', 'regress_alice.usage', 'at', '1 day', 'ldp.rr_agg(bit, 1.0)', '-infinity')$$);
-- a report 4 hours back on a collection of 1-second epochs: the 14,400 due epochs close
-- in one call, the newest first; the run of empty ones takes one probe and no row
CREATE TABLE regress_alice.seconds (at timestamptz NOT NULL, bit boolean NOT NULL);
INSERT INTO regress_alice.seconds SELECT now() - interval '4 hours', true;
SELECT ldp.create_collection('seconds', 'regress_alice.seconds', 'at', '1 second', 'ldp.rr_agg(bit, 1.0)',
                             date_trunc('second', now()) - interval '5 hours');
BEGIN;  -- one now() for the close and the checks (in a transaction block: no commits)
CALL ldp.close_due_epochs('seconds');
SELECT count(*) AS stored, sum(reports) AS reports FROM ldp.collection_epochs WHERE collection = 'seconds';
SELECT closed = int8multirange(int8range(ldp.epoch_of('seconds', now() - interval '4 hours'), ldp.epoch_of('seconds', now()))) AS all_closed,
       due FROM ldp.collection_status('seconds');
COMMIT;
-- an epoch outside the time range
SELECT try_sql($$CALL ldp.close_epoch('seconds', -9000000000000000)$$);
SELECT try_sql($$CALL ldp.close_epoch('seconds', 9223372036854775806)$$);
SELECT ldp.drop_collection('seconds');
RESET ROLE;
-- the bounds hold for rows written behind the functions' back too
SELECT try_sql($$UPDATE ldp.collection_catalog SET epoch_length = '1 microsecond' WHERE name = 'alice_usage'$$);
SELECT try_sql($$UPDATE ldp.collection_catalog SET starts_at = 'infinity' WHERE name = 'alice_usage'$$);

------------------------------------------------------------------------------
-- Finding 5: non-finite results from accepted inputs.
------------------------------------------------------------------------------
SELECT try_sql($$SELECT ldp.rr_agg(true, 1e-320)$$);
SELECT try_sql($$SELECT ldp.grr_agg(1, 1e-320, 4)$$);
SELECT try_sql($$SELECT ldp.rr_encode(true, 1e-320, 1)$$);
SELECT try_sql($$SELECT 'v1:rr{epsilon=1e-320,n=3,ones=2}'::ldp.mean_summary$$);
SELECT try_sql($$SELECT 'v1:grr{epsilon=1e-320,k=4,n=4,counts=[1,1,1,1]}'::ldp.freq_summary$$);
SELECT try_sql($$SELECT ldp.thresh_derive(100000, 32, 20000, 40000, 2, 1e-320, 0.1, NULL, NULL, NULL)$$);
SELECT try_sql($$SELECT ldp.thresh_derive(100000, 32, 20000, 40000, 2, 8, 1e-320, NULL, NULL, NULL)$$);
SELECT try_sql($$SELECT ldp.error_bound(ldp.rr_agg(true, 1.0), 1e-320)$$);
SELECT ldp.error_bound(ldp.rr_agg(true, 1.0), 1e-300) BETWEEN 1 AND 100 AS tiny_delta_is_finite;
-- the smallest epsilon still gives finite answers for the largest summaries
SELECT ldp.estimate(s) IS NOT NULL AND ldp.std_error(s) < 1e20 AND ldp.ci_upper(s, 0.999999) < 1e20 AS finite
FROM (VALUES ('v1:rr{epsilon=0.0001,n=9223372036854775807,ones=1}'::ldp.mean_summary)) v(s);
-- a number that would overflow is an error, never Inf
SELECT try_sql($$SELECT ldp.error_bound('v1:onebit{epsilon=0.0001,max_value=1e300,gamma=0.49999999999999,n=1,ones=1}'::ldp.mean_summary, 1e-300)$$);
-- every clip and norm-sub interval contains its estimate. Before, the interval was
-- the unbiased one clipped to [0, 1]: an item whose unbiased estimate exceeds 1
-- (all 50 users on item 0) kept that estimate under clip, outside its interval.
CREATE TEMP TABLE concentrated AS
SELECT ldp.grr_agg(ldp.grr_encode(0, 1.0, 4, i), 1.0, 4) AS s FROM generate_series(1, 50) i;
SELECT c.consistency,
       count(*) FILTER (WHERE p.frequency < greatest(u.frequency - 1.959963984540054 * u.std_error, 0)
                           OR p.frequency > least(u.frequency + 1.959963984540054 * u.std_error, 1)) AS outside_before,
       count(*) FILTER (WHERE p.frequency < p.ci_lower OR p.frequency > p.ci_upper) AS outside_now,
       count(*) FILTER (WHERE p.ci_lower > greatest(u.frequency - 1.959963984540054 * u.std_error, 0) + 1e-12
                           OR p.ci_upper < least(u.frequency + 1.959963984540054 * u.std_error, 1) - 1e-12) AS narrower
FROM concentrated, (VALUES ('clip'), ('norm-sub')) c(consistency),
     ldp.frequencies(s) u JOIN LATERAL ldp.frequencies(s, c.consistency) p USING (item)
GROUP BY 1 ORDER BY 1;

------------------------------------------------------------------------------
-- Finding 6: silent wrong answers. The time column's type is checked at every close.
------------------------------------------------------------------------------
SET ROLE regress_ldp_alice;
ALTER TABLE regress_alice.usage ALTER COLUMN at TYPE timestamp USING at AT TIME ZONE 'UTC';
SELECT try_sql($$CALL ldp.close_epoch('alice_usage', 1, true)$$);
SELECT try_sql($$CALL ldp.close_due_epochs('alice_usage')$$);
SELECT try_sql($$SELECT * FROM ldp.late_reports('alice_usage')$$);
ALTER TABLE regress_alice.usage ALTER COLUMN at TYPE timestamptz USING at AT TIME ZONE 'UTC';
CALL ldp.close_epoch('alice_usage', 1, true);
ALTER TABLE regress_alice.usage RENAME COLUMN at TO happened_at;
SELECT try_sql($$CALL ldp.close_epoch('alice_usage', 1, true)$$);
ALTER TABLE regress_alice.usage RENAME COLUMN happened_at TO at;
SELECT epoch, reports FROM ldp.collection_estimates('alice_usage') WHERE epoch < 6;
-- the owner drops its own
SELECT ldp.drop_collection('alice_usage');
SELECT ldp.thresh_drop('alice_stream');
RESET ROLE;

------------------------------------------------------------------------------
-- Found by test/fuzz.sh: any role may build an aggregate over ldp's transition
-- functions with an initial state of its choosing. The state is validated, checked
-- against the aggregate's mechanism and parameters and copied (never read or written
-- as this mechanism's memory image), so the result equals ldp.rollup of the initial
-- state and the plain aggregate, or the call is refused with 22023.
------------------------------------------------------------------------------
SET ROLE regress_ldp_bob;
CREATE AGGREGATE pg_temp.rr_on_piecewise(boolean, float8) (sfunc = ldp.rr_trans, stype = ldp.mean_summary,
  initcond = 'v1:piecewise{epsilon=2,max_value=10,n=3,sum=0xe80000000p-32,sumsq_unit=0xfe147ae147ae1a80p-64}');
SELECT try_sql($$SELECT pg_temp.rr_on_piecewise(r, 2) FROM (VALUES (true), (false), (true)) v(r)$$);
CREATE AGGREGATE pg_temp.lap_from(float8, float8, float8) (sfunc = ldp.laplace_mean_trans, stype = ldp.mean_summary,
  initcond = 'v1:laplace{epsilon=1,max_value=10,n=2,sum=0x3p0,sumsq_unit=0x5p-6}');
SELECT pg_temp.lap_from(y, 1, 10)::text AS from_initcond,
       (SELECT ldp.rollup(x)::text FROM (VALUES ('v1:laplace{epsilon=1,max_value=10,n=2,sum=0x3p0,sumsq_unit=0x5p-6}'::ldp.mean_summary),
                                                ((SELECT ldp.laplace_mean_agg(y, 1, 10) FROM (VALUES (0::float8), (2.5), (-10)) v(y)))) w(x)) AS rollup
FROM (VALUES (0::float8), (2.5), (-10)) v(y);
SELECT try_sql($$SELECT pg_temp.lap_from(y, 2, 10) FROM (VALUES (1.5::float8)) v(y)$$);
CREATE AGGREGATE pg_temp.onebit_on_rr(boolean, float8, float8) (sfunc = ldp.onebit_mean_trans, stype = ldp.mean_summary,
  initcond = 'v1:rr{epsilon=1,n=50,ones=21}');
SELECT try_sql($$SELECT pg_temp.onebit_on_rr(r, 1, 10) FROM (VALUES (true), (false)) v(r)$$);
CREATE AGGREGATE pg_temp.rr_from(boolean, float8) (sfunc = ldp.rr_trans, stype = ldp.mean_summary,
  initcond = 'v1:rr{epsilon=1,n=50,ones=21}');
SELECT g, pg_temp.rr_from(r, 1)::text FROM (VALUES (1, true), (1, false), (2, true)) v(g, r) GROUP BY g ORDER BY g;
CREATE AGGREGATE pg_temp.grr_eps(int, float8, int) (sfunc = ldp.grr_trans, stype = ldp.freq_summary,
  initcond = 'v1:grr{epsilon=1,k=4,n=30,counts=[7,5,9,9]}');
SELECT try_sql($$SELECT pg_temp.grr_eps(i, 0.75, 4) FROM (VALUES (0), (3), (1)) v(i)$$);
SELECT pg_temp.grr_eps(i, 1, 4)::text FROM (VALUES (0), (3), (1)) v(i);
CREATE AGGREGATE pg_temp.sue_on_oue(varbit, float8) (sfunc = ldp.sue_trans, stype = ldp.freq_summary,
  initcond = 'v1:oue{epsilon=2,k=5,n=5,counts=[4,3,4,5,3]}');
SELECT try_sql($$SELECT pg_temp.sue_on_oue(b, 2) FROM (VALUES (B'10000'::varbit), (B'00001')) v(b)$$);
CREATE AGGREGATE pg_temp.sue_on_grr(varbit, float8) (sfunc = ldp.sue_trans, stype = ldp.freq_summary,
  initcond = 'v1:grr{epsilon=1,k=4,n=12,counts=[6,2,1,3]}');
SELECT try_sql($$SELECT pg_temp.sue_on_grr(b, 1) FROM (VALUES (B'0100'::varbit), (B'0010')) v(b)$$);
CREATE AGGREGATE pg_temp.sue_from(varbit, float8) (sfunc = ldp.sue_trans, stype = ldp.freq_summary,
  initcond = 'v1:sue{epsilon=1,k=4,n=2,counts=[1,1,0,2]}');
SELECT pg_temp.sue_from(b, 1)::text FROM (VALUES (B'0100'::varbit), (B'0110')) v(b);
-- a state of 2^63 - 1 reports would overflow its count (rollup refuses it too)
CREATE AGGREGATE pg_temp.rr_full(boolean, float8) (sfunc = ldp.rr_trans, stype = ldp.mean_summary,
  initcond = 'v1:rr{epsilon=1,n=9223372036854775807,ones=21}');
SELECT try_sql($$SELECT pg_temp.rr_full(r, 1) FROM (VALUES (true), (false)) v(r)$$);
CREATE AGGREGATE pg_temp.olh_full(bigint, int, float8, int) (sfunc = ldp.olh_trans, stype = ldp.freq_summary,
  initcond = 'v1:olh{epsilon=1,k=3,n=9223372036854775807,counts=[2,4,1]}');
SELECT try_sql($$SELECT pg_temp.olh_full(s, y, 1, 3) FROM (VALUES (7::bigint, 0), (8, 1)) v(s, y)$$);
-- treehist_trans: a state of another protocol is refused (22023), one of the same
-- protocol gives the rollup
CREATE AGGREGATE pg_temp.treehist_from(int, int, int, boolean, boolean, ldp.heavy_protocol) (
  sfunc = ldp.treehist_trans, stype = ldp.heavy_summary,
  initcond = 'v1:treehist{epsilon=2,domain=alphabet,alphabet="ab",max_length=2,chars_per_level=1,levels=2,hashes=1,width=2,expected_users=10,n=1,prune=[1,0,0,0],final=[0,-1]}');
SELECT try_sql($$SELECT pg_temp.treehist_from(1, 0, 0, true, true, ldp.treehist_protocol(2, 10, 'abc', 2, 1, 1, 2))$$);
SELECT pg_temp.treehist_from(l, 0, r, y, true, ldp.treehist_protocol(2, 10, 'ab', 2, 1, 1, 2))::text AS from_initcond,
       (SELECT ldp.rollup(x)::text FROM (VALUES (ldp.heavy_summary 'v1:treehist{epsilon=2,domain=alphabet,alphabet="ab",max_length=2,chars_per_level=1,levels=2,hashes=1,width=2,expected_users=10,n=1,prune=[1,0,0,0],final=[0,-1]}'),
          ((SELECT ldp.treehist_agg(l, 0, r, y, true, ldp.treehist_protocol(2, 10, 'ab', 2, 1, 1, 2))
            FROM (VALUES (1, 0, true), (2, 1, false)) v(l, r, y)))) w(x)) AS rollup
FROM (VALUES (1, 0, true), (2, 1, false)) v(l, r, y);
DROP AGGREGATE pg_temp.rr_on_piecewise(boolean, float8), pg_temp.lap_from(float8, float8, float8),
  pg_temp.onebit_on_rr(boolean, float8, float8), pg_temp.rr_from(boolean, float8), pg_temp.grr_eps(int, float8, int),
  pg_temp.sue_on_oue(varbit, float8), pg_temp.sue_on_grr(varbit, float8), pg_temp.sue_from(varbit, float8),
  pg_temp.rr_full(boolean, float8), pg_temp.olh_full(bigint, int, float8, int),
  pg_temp.treehist_from(int, int, int, boolean, boolean, ldp.heavy_protocol);
RESET ROLE;


------------------------------------------------------------------------------
-- Issue 19's findings.
------------------------------------------------------------------------------
-- Names: a role without a grant sees the name of a collection or stream (its view's,
-- as it sees every relation's in pg_class), so a taken name is taken (42710); it sees
-- nothing else, and ldp's functions answer 42704 to it.
GRANT EXECUTE ON FUNCTION ldp.create_collection(text, regclass, text, interval, text, timestamptz),
                          ldp.thresh_create(text, bigint, int, int, bigint, int, float8, float8, float8, float8, float8)
  TO regress_ldp_mallory;
SET ROLE regress_ldp_alice;
SELECT ldp.create_collection('alice_secret', 'regress_alice.usage', 'at', '1 day', 'ldp.rr_agg(bit, 1.0)');
SELECT ldp.thresh_create('alice_secret', 100000, 32, 20000, 40000, 2, 8, 0.1);
RESET ROLE;
SET ROLE regress_ldp_mallory;
CREATE TABLE regress_mallory.t (at timestamptz NOT NULL, bit boolean NOT NULL);
SELECT try_sql($$SELECT ldp.create_collection('alice_secret', 'regress_mallory.t', 'at', '1 day', 'ldp.rr_agg(bit, 1.0)')$$);
SELECT try_sql($$SELECT ldp.thresh_create('alice_secret', 100000, 32, 20000, 40000, 2, 8, 0.1)$$);
SELECT relname FROM pg_class WHERE relnamespace = 'ldp_collections'::regnamespace AND relname = 'alice_secret';
SELECT try_sql($$SELECT * FROM ldp_collections.alice_secret$$);
SELECT try_sql($$SELECT * FROM ldp_thresh_streams.alice_secret$$);
SELECT try_sql($$SELECT * FROM ldp.collection_estimates('alice_secret')$$);
SELECT try_sql($$SELECT * FROM ldp.thresh_status('alice_secret')$$);
SELECT count(*) AS collections_seen FROM ldp.collections WHERE name = 'alice_secret';
SELECT ldp.create_collection('mallory_free', 'regress_mallory.t', 'at', '1 day', 'ldp.rr_agg(bit, 1.0)');
SELECT ldp.drop_collection('mallory_free');
DROP TABLE regress_mallory.t;
RESET ROLE;
REVOKE EXECUTE ON FUNCTION ldp.create_collection(text, regclass, text, interval, text, timestamptz),
                           ldp.thresh_create(text, bigint, int, int, bigint, int, float8, float8, float8, float8, float8)
  FROM regress_ldp_mallory;

-- THRESH parameters that would not be finite are refused (22003), by thresh_derive and
-- thresh_create: devices are never handed Infinity.
SELECT try_sql($$SELECT ldp.thresh_derive(100000, 32, 20000, 40000, 2, 8, 0.1, NULL, NULL, 1e308)$$);
SET ROLE regress_ldp_alice;
SELECT try_sql($$SELECT ldp.thresh_create('inf_stream', 100000, 32, 20000, 40000, 2, 8, 0.1, NULL, NULL, 1e308)$$);
SELECT count(*) AS inf_stream FROM ldp.thresh_streams WHERE name = 'inf_stream';
RESET ROLE;

-- What a submitter learns from a duplicate: how many of the user ids it sent already
-- have a report for the epoch and their positions in its batch (to send the rest
-- again), not the user ids, nor anything of the reports.
CREATE FUNCTION pg_temp.try_detail(query text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  detail text;
BEGIN
  EXECUTE query;
  RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
  GET STACKED DIAGNOSTICS detail = PG_EXCEPTION_DETAIL;
  RETURN SQLSTATE || ': ' || SQLERRM || E'\n' || coalesce(detail, '');
END $$;
SET ROLE regress_ldp_alice;
SELECT ldp.grant_thresh('alice_secret', 'submit', 'regress_ldp_ingest');
RESET ROLE;
SET ROLE regress_ldp_ingest;
SELECT ldp.thresh_submit_votes('alice_secret', 1, ARRAY[101, 102, 103]::bigint[], ARRAY[true, false, true]);
SELECT pg_temp.try_detail($$SELECT ldp.thresh_submit_votes('alice_secret', 1, ARRAY[104, 102, 105, 105, 103]::bigint[],
                                                          ARRAY[true, true, false, false, true])$$);
SELECT ldp.thresh_submit_votes('alice_secret', 1, ARRAY[104, 105]::bigint[], ARRAY[true, false]);
-- a role that holds only submit knows the stream: what it may not do answers 42501
-- naming the privilege it lacks, as for a collection (not 42704); the readers, which
-- run with its rights, answer 42704 without read, as a collection's do
SELECT pg_temp.try_detail($$CALL ldp.thresh_close_votes('alice_secret')$$);
SELECT pg_temp.try_detail($$CALL ldp.thresh_close_epoch('alice_secret')$$);
SELECT pg_temp.try_detail($$SELECT ldp.thresh_drop('alice_secret')$$);
SELECT pg_temp.try_detail($$SELECT ldp.grant_thresh('alice_secret', 'read', 'regress_ldp_ingest')$$);
SELECT pg_temp.try_detail($$SELECT ldp.alter_thresh_owner('alice_secret', 'regress_ldp_ingest')$$);
SELECT try_sql($$SELECT * FROM ldp.thresh_status('alice_secret')$$);
RESET ROLE;
-- a role that holds only close: submitting answers 42501 (the submit privilege); a role
-- with none still gets 42704 everywhere (it does not learn that the stream exists)
SET ROLE regress_ldp_alice;
SELECT ldp.grant_thresh('alice_secret', 'close', 'regress_ldp_bob');
RESET ROLE;
SET ROLE regress_ldp_bob;
SELECT pg_temp.try_detail($$SELECT ldp.thresh_submit_votes('alice_secret', 1, ARRAY[106]::bigint[], ARRAY[true])$$);
SELECT pg_temp.try_detail($$SELECT ldp.thresh_drop('alice_secret')$$);
RESET ROLE;
SET ROLE regress_ldp_mallory;
SELECT try_sql($$CALL ldp.thresh_close_votes('alice_secret')$$);
SELECT try_sql($$SELECT ldp.thresh_drop('alice_secret')$$);
SELECT try_sql($$SELECT ldp.thresh_submit_votes('alice_secret', 1, ARRAY[107]::bigint[], ARRAY[true])$$);
RESET ROLE;
SET ROLE regress_ldp_alice;
SELECT ldp.drop_collection('alice_secret');
SELECT ldp.thresh_drop('alice_secret');
RESET ROLE;

-- clean up (the extension is left installed, as the other tests expect)
SELECT ldp.drop_collection('evil');
DROP SCHEMA regress_alice, regress_mallory CASCADE;
REVOKE ALL ON FUNCTION ldp.create_collection(text, regclass, text, interval, text, timestamptz),
                       ldp.thresh_create(text, bigint, int, int, bigint, int, float8, float8, float8, float8, float8)
  FROM regress_ldp_alice, regress_ldp_mallory;
DROP ROLE regress_ldp_alice, regress_ldp_bob, regress_ldp_mallory, regress_ldp_ingest;
