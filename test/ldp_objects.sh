# shellcheck shell=bash
# The ldp objects test/dump_restore.sh and test/pg_upgrade.sh make and expect back, by
# role name: collections of two owners over tables and a view (a TreeHist one whose
# summary names its protocol as a typed literal, a RAPPOR one), closed epochs, grants of
# read and close to a role and to public, a THRESH stream with a closed epoch and a submit
# grant, tables of stored heavy-hitters and RAPPOR summaries; what a DBA and the readers
# see of them; and the checks that they still work. Source it; the caller defines
#   q ARGS...                 psql -X -q -At -v ON_ERROR_STOP=1 ARGS (the server of PGHOST/PGPORT)
#   check NAME ok|FAILED [DETAIL]
# and creates the roles of ldp_objects_roles first.
# shellcheck disable=SC2034  # read by the scripts that source this file
ldp_objects_roles=(ldp_dump_alice ldp_dump_bob ldp_dump_reader ldp_dump_ingest)

# What is compared before and after: everything by name, nothing by OID.
objects_snapshot() {  # database file
  q -d "$1" >"$2" <<'SQL'
SELECT 'collection', name, owner, acl, source, kind, epoch_length FROM ldp.collections ORDER BY name;
SELECT 'stream', name, owner, acl, epoch, phase, votes, yes_votes, last_update_epoch, estimate FROM ldp.thresh_streams ORDER BY name;
SELECT 'epoch', collection, epoch, epoch_start, reports, md5(summary::text) FROM ldp.collection_epochs ORDER BY 2, 3;
SELECT 'view', n.nspname, c.relname, pg_get_userbyid(c.relowner), c.relacl FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname IN ('ldp_collections', 'ldp_thresh_streams') ORDER BY 2, 3;
SELECT 'read-only trigger', t.tgrelid::regclass::text, t.tgname, t.tgenabled, t.tgtype, t.tgfoid::regprocedure
FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
WHERE c.relnamespace IN ('ldp_collections'::regnamespace, 'ldp_thresh_streams'::regnamespace) ORDER BY 2, 3;
SELECT 'source dependency', c.oid::regclass::text, d.refobjid::regclass::text
FROM pg_class c JOIN pg_rewrite r ON r.ev_class = c.oid
JOIN pg_depend d ON d.classid = 'pg_rewrite'::regclass AND d.objid = r.oid AND d.refclassid = 'pg_class'::regclass
WHERE c.relnamespace = 'ldp_collections'::regnamespace AND d.refobjid NOT IN (c.oid, 'ldp.collection_epochs'::regclass)
ORDER BY 2;
SELECT 'estimate', epoch, reports, round(estimate::numeric, 9) FROM ldp.collection_estimates('alice_clicks');
SELECT 'history', epoch, votes, global_update, estimate FROM ldp.thresh_history('alice_stream');
SELECT 'reader', has_table_privilege('ldp_dump_reader', 'ldp_collections.alice_clicks', 'SELECT'),
       has_table_privilege('ldp_dump_reader', 'ldp_collections.alice_clicks', 'UPDATE'),
       has_table_privilege('ldp_dump_ingest', 'ldp_thresh_streams.alice_stream', 'INSERT');
SET ROLE ldp_dump_reader;
SELECT 'seen by reader', name FROM ldp.collections ORDER BY name;
SELECT 'reader estimate', epoch, reports FROM ldp.collection_estimates('alice_clicks');
RESET ROLE;
SELECT 'heavy stored', id, md5(s::text), md5(ldp.heavy_summary_send(s)), p, ldp.report_count(s),
       ldp.protocol(s)::text = p::text FROM dump_bob.heavy_stored ORDER BY id;
SELECT 'heavy hitters', epoch, item, round(count::numeric, 6) FROM ldp.collection_heavy_hitters('bob_heavy', 50);
SELECT 'heavy frequency', id, ldp.frequency(s, CASE WHEN p::text LIKE '%int64%' THEN '-5' ELSE 'ab' END)
FROM dump_bob.heavy_stored WHERE p::text NOT LIKE '%alphabet="ab",max_length=1%' ORDER BY id;
SELECT 'rappor stored', id, md5(s::text), md5(ldp.rappor_summary_send(s)), ldp.report_count(s) FROM dump_bob.rappor_stored ORDER BY id;
SELECT 'rappor decode', from_epoch, item, round(count::numeric, 6), detected FROM ldp.collection_rappor_decode('bob_rappor', ARRAY['ab', 'c']);
SQL
}

# The objects of every version from 0.6.0 on, made as their owners; the roles exist. $2:
# the statements that create the extension first ('' when the database has it).
objects_make() {  # database create-extension-sql
  q -d "$1" -v ON_ERROR_STOP=1 >/dev/null <<SQL
SET client_min_messages = warning;
$2
GRANT EXECUTE ON FUNCTION ldp.create_collection(text, regclass, text, interval, text, timestamptz),
                          ldp.thresh_create(text, bigint, int, int, bigint, int, float8, float8, float8, float8, float8)
  TO ldp_dump_alice, ldp_dump_bob;
CREATE SCHEMA dump_alice AUTHORIZATION ldp_dump_alice;
CREATE SCHEMA dump_bob AUTHORIZATION ldp_dump_bob;
GRANT USAGE ON SCHEMA dump_alice TO ldp_dump_bob;
SET ROLE ldp_dump_alice;
CREATE TABLE dump_alice.clicks (at timestamptz NOT NULL, bit boolean NOT NULL);
INSERT INTO dump_alice.clicks
SELECT '2026-03-01 00:00+00'::timestamptz + (i % 4) * interval '1 day', i % 3 = 0 FROM generate_series(1, 4000) i;
-- the source as a view that only its owner's query reads: a close run as anybody else counts nothing
CREATE VIEW dump_alice.clicks_owned AS SELECT at, bit FROM dump_alice.clicks WHERE current_user = 'ldp_dump_alice';
SELECT ldp.create_collection('alice_clicks', 'dump_alice.clicks_owned', 'at', '1 day',
                             'ldp.onebit_mean_agg(bit, 1.0, 86400)', '2026-03-01 00:00+00');
CALL ldp.close_epoch('alice_clicks', 0);
CALL ldp.close_epoch('alice_clicks', 1);
SELECT ldp.grant_collection('alice_clicks', 'read', 'ldp_dump_reader');
SELECT ldp.grant_collection('alice_clicks', 'close', 'ldp_dump_bob');
SELECT ldp.thresh_create('alice_stream', 100000, 32, 20000, 40000, 2, 8, 0.1);
SELECT ldp.grant_thresh('alice_stream', 'submit', 'ldp_dump_ingest');
SELECT ldp.grant_thresh('alice_stream', 'read', 'public');
SELECT ldp.thresh_submit_votes('alice_stream', 1, ARRAY[1, 2, 3, 4]::bigint[], ARRAY[true, false, true, true]);
CALL ldp.thresh_close_votes('alice_stream');
CALL ldp.thresh_close_epoch('alice_stream');
RESET ROLE;
SET ROLE ldp_dump_bob;
CREATE TABLE dump_bob.words (at timestamptz NOT NULL, item int NOT NULL);
INSERT INTO dump_bob.words SELECT '2026-03-01 00:00+00'::timestamptz + (i % 2) * interval '1 day', i % 8 FROM generate_series(1, 2000) i;
SELECT ldp.create_collection('bob_words', 'dump_bob.words', 'at', '1 day', 'ldp.grr_agg(item, 1.0, 8)', '2026-03-01 00:00+00');
CALL ldp.close_epoch('bob_words', 0);
SELECT ldp.grant_collection('bob_words', 'read', 'public');
RESET ROLE;
SQL
}

# The objects of 0.8.0 and 0.9.0 on (made after the update in test/dump_restore.sh's
# updated case): the heavy-hitters and the RAPPOR objects.
objects_make_new() {  # database
  _objects_heavy "$1"
  _objects_rappor "$1"
}

# The heavy-hitters objects (0.8.0 on; made after the update in the updated case), as
# ldp_dump_bob: a collection of TreeHist summaries over a table of reports, whose
# summary has the protocol as a typed literal, and a table of stored summaries and
# protocols.
_objects_heavy() {  # database
  q -d "$1" -v ON_ERROR_STOP=1 >/dev/null <<'SQL'
SET client_min_messages = warning;
SET ROLE ldp_dump_bob;
CREATE TABLE dump_bob.heavy_words AS
SELECT '2026-03-01 00:00+00'::timestamptz + (i % 3) * interval '1 day' AS at, r.*
FROM generate_series(1, 3000) i,
     ldp.treehist_encode((ARRAY['ab', 'abca', 'c', 'ab', 'ba'])[1 + i % 5], ldp.treehist_protocol(2, 1000, 'abc', 4, 2, 2, 16), i) r;
SELECT ldp.create_collection('bob_heavy', 'dump_bob.heavy_words', 'at', '1 day',
  format('ldp.treehist_agg(level, hash_index, coefficient, prefix_report, item_report, %L::ldp.heavy_protocol)',
         ldp.treehist_protocol(2, 1000, 'abc', 4, 2, 2, 16)::text), '2026-03-01 00:00+00');
CALL ldp.close_epoch('bob_heavy', 0);
SELECT ldp.grant_collection('bob_heavy', 'read', 'ldp_dump_reader');
CREATE TABLE dump_bob.heavy_stored (id int PRIMARY KEY, s ldp.heavy_summary, p ldp.heavy_protocol);
INSERT INTO dump_bob.heavy_stored
SELECT 1, ldp.treehist_agg(level, hash_index, coefficient, prefix_report, item_report,
                           ldp.treehist_protocol(2, 1000, 'abc', 4, 2, 2, 16)), ldp.treehist_protocol(2, 1000, 'abc', 4, 2, 2, 16)
FROM dump_bob.heavy_words
UNION ALL
SELECT 2, (SELECT ldp.treehist_agg(r.level, r.hash_index, r.coefficient, r.prefix_report, r.item_report,
                                   ldp.treehist_protocol(4, 12000, NULL, 2, NULL, 4, 16))
           FROM generate_series(1, 12000) i, ldp.treehist_encode(CASE WHEN i % 3 = 0 THEN 'é' ELSE 'ok' END,
                                                                  ldp.treehist_protocol(4, 12000, NULL, 2, NULL, 4, 16), i) r),
       ldp.treehist_protocol(4, 12000, NULL, 2, NULL, 4, 16)
UNION ALL
SELECT 3, (SELECT ldp.treehist_agg(r.level, r.hash_index, r.coefficient, r.prefix_report, r.item_report,
                                   ldp.treehist_int8_protocol(2, 2000, 4, 16))
           FROM generate_series(1, 2000) i, ldp.treehist_encode(CASE WHEN i % 4 = 0 THEN 1234567890123 ELSE -5 END,
                                                                 ldp.treehist_int8_protocol(2, 2000, 4, 16), i) r),
       ldp.treehist_int8_protocol(2, 2000, 4, 16)
UNION ALL
SELECT 4, (SELECT ldp.treehist_agg(r.level, r.hash_index, r.coefficient, r.prefix_report, r.item_report,
                                   ldp.treehist_protocol(8, 80000, 'ab', 1, 1, 1, 2))
           FROM generate_series(1, 80000) i, ldp.treehist_encode('a', ldp.treehist_protocol(8, 80000, 'ab', 1, 1, 1, 2), i) r),
       ldp.treehist_protocol(8, 80000, 'ab', 1, 1, 1, 2)
UNION ALL
SELECT 5, NULL, ldp.treehist_protocol(1, 10, 'x"é\', 2, 1, 1, 4)
UNION ALL
SELECT 6, 'v1:treehist{epsilon=2,domain=alphabet,alphabet="ab",max_length=2,chars_per_level=1,levels=2,hashes=1,width=2,expected_users=10,n=1,prune=[1,0,0,0],final=[0,-1]}',
       NULL;
RESET ROLE;
SQL
}

# The RAPPOR objects (0.9.0 on; made after the update in the updated case), as
# ldp_dump_bob: a collection of RAPPOR summaries and a table of stored summaries.
_objects_rappor() {  # database
  q -d "$1" -v ON_ERROR_STOP=1 >/dev/null <<'SQL'
SET client_min_messages = warning;
SET ROLE ldp_dump_bob;
CREATE TABLE dump_bob.rappor_reports AS
SELECT '2026-03-01 00:00+00'::timestamptz + (i % 2) * interval '1 day' AS at, abs(hashint4(i)) % 4 AS cohort,
       ldp.rappor_encode((ARRAY['ab', 'ab', 'c'])[1 + i % 3], abs(hashint4(i)) % 4, int4send(i), 16, 2, 0.25, 0.25, 0.75, i) AS report
FROM generate_series(1, 4000) i;
SELECT ldp.create_collection('bob_rappor', 'dump_bob.rappor_reports', 'at', '1 day',
                             'ldp.rappor_agg(cohort, report, 2, 4, 0.25, 0.25, 0.75)', '2026-03-01 00:00+00');
CALL ldp.close_epoch('bob_rappor', 0);
CREATE TABLE dump_bob.rappor_stored (id int PRIMARY KEY, s ldp.rappor_summary);
INSERT INTO dump_bob.rappor_stored
SELECT 1, ldp.rappor_agg(cohort, report, 2, 4, 0.25, 0.25, 0.75) FROM dump_bob.rappor_reports
UNION ALL SELECT 2, 'v1:rappor{bits=4,hashes=1,cohorts=3,f=0.25,p=0.5,q=0.75,n=3,rows=2,cohort=[0,2],reports=[1,2],ones=[1,0,0,1,2,1,0,0]}'
UNION ALL SELECT 3, NULL;
RESET ROLE;
SQL
}

# The checks of the objects in a database they came back into (restored, upgraded), which
# they change: the next closes, writes through the views, dropping a source and an owner.
objects_check_after() {  # database label
  # the next close (by a grantee of close, and by a superuser as pg_cron would) runs as the
  # owner: alice_clicks reads a view that shows its rows to ldp_dump_alice only
  local closed
  closed=$(q -d "$1" -c "SET ROLE ldp_dump_bob" -c "CALL ldp.close_epoch('alice_clicks', 2)" -c "RESET ROLE" \
             -c "CALL ldp.close_due_epochs('bob_words')" \
             -c "SELECT string_agg(collection || ':' || epoch || '=' || reports, ' ' ORDER BY collection, epoch)
                 FROM ldp.collection_epochs WHERE collection IN ('alice_clicks', 'bob_words') AND epoch IN (1, 2)")
  if [[ $closed == "alice_clicks:1=1000 alice_clicks:2=1000 bob_words:1=1000"* ]]; then
    check "$2: the next closes work and run as the owners" ok
  else
    check "$2: the next closes work and run as the owners" FAILED "$closed"
  fi
  # the TreeHist collection's next close reads its typed literal again, as the owner
  local heavy
  heavy=$(q -d "$1" -c "CALL ldp.close_epoch('bob_heavy', 1)" \
            -c "SELECT string_agg(epoch || '=' || reports, ' ' ORDER BY epoch) FROM ldp.collection_epochs
                WHERE collection = 'bob_heavy'" \
            -c "SET ROLE ldp_dump_reader" \
            -c "SELECT count(*) FILTER (WHERE item = 'ab') FROM ldp.collection_heavy_hitters('bob_heavy', 150)" 2>&1 || true)
  if [[ $heavy == $'0=1000 1=1000\n2' ]]; then
    check "$2: the TreeHist collection (a typed heavy_protocol literal) closes its next epoch; a reader finds its heavy hitter" ok
  else
    check "$2: the TreeHist collection (a typed heavy_protocol literal) closes its next epoch; a reader finds its heavy hitter" \
      FAILED "$(tr '\n' ' ' <<<"$heavy")"
  fi
  # the views are read-only (their triggers came back), and their sources are dependencies
  # again
  local guarded
  guarded=$(q -d "$1" -c "DO \$\$ BEGIN UPDATE ldp_collections.bob_words SET reports = 0; EXCEPTION WHEN insufficient_privilege THEN
              RAISE NOTICE 'update %', SQLSTATE; END \$\$" \
              -c "DO \$\$ BEGIN INSERT INTO ldp_thresh_streams.alice_stream (epoch) VALUES (9); EXCEPTION WHEN insufficient_privilege THEN
              RAISE NOTICE 'insert %', SQLSTATE; END \$\$" \
              -c "DO \$\$ BEGIN DROP TABLE dump_bob.words; EXCEPTION WHEN dependent_objects_still_exist THEN
              RAISE NOTICE 'drop %', SQLSTATE; END \$\$" 2>&1 || true)
  if [[ $guarded == *"update 42501"*"insert 42501"*"drop 2BP01"* ]]; then
    check "$2: writes through the views fail with 42501; a source cannot be dropped (2BP01)" ok
  else
    check "$2: writes through the views fail with 42501; a source cannot be dropped (2BP01)" \
      FAILED "$(tr '\n' ' ' <<<"$guarded")"
  fi
  local drop
  drop=$(q -d "$1" -c "DO \$\$ BEGIN DROP ROLE ldp_dump_alice; EXCEPTION WHEN dependent_objects_still_exist THEN
           RAISE NOTICE '%', SQLSTATE; END \$\$" 2>&1 || true)
  if [[ $drop == *2BP01* ]]; then
    check "$2: DROP ROLE of an owner fails with 2BP01" ok
  else
    check "$2: DROP ROLE of an owner fails with 2BP01" FAILED "$drop"
  fi
}
