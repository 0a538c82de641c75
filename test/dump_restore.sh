#!/usr/bin/env bash
# Dump and restore keep every collection and THRESH stream with its owner and grants,
# by role name (README "Security and privileges"):
#
#   1. in a database, roles and ldp objects: collections of two owners over tables and a
#      view, closed epochs, grants of read and close to a role and to public, a THRESH
#      stream with a closed epoch and a submit grant; made on a fresh install of the
#      current version, and again on an install of 0.6.0 (0.1.0 updated) whose objects
#      were made before ALTER EXTENSION ldp UPDATE;
#   2. prints what a DBA and the readers see (owners, grants, \dp's privileges, closed
#      epochs with their summaries, estimates, THRESH status and history);
#   3. pg_dump -Fc, drops the database and the roles, creates the roles again in
#      another order after an unrelated one (new OIDs), pg_restore --exit-on-error into
#      a new database;
#   4. checks that the restore gave no error, that everything of step 2 is the same,
#      that the next close works and runs as the restored owner, and that DROP ROLE of a
#      restored owner fails with 2BP01.
#
# Runs against the server of PGHOST/PGPORT/PGUSER (a superuser; test/run.sh runs it
# against its temporary cluster after `make install`); makes and drops databases
# ldp_dump_src and ldp_dump_dst and roles ldp_dump_*. Prints "dump: CHECK ... ok|FAILED"
# lines (test/run.sh counts them) and exits non-zero if a check failed. Files in
# build/dump/.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd -P)
root=$(cd "$here/.." && pwd -P)
out=$root/build/dump
pg_bin=${LDP_PG_BIN:-/usr/lib/postgresql/15/bin}
src=ldp_dump_src
dst=ldp_dump_dst
roles=(ldp_dump_alice ldp_dump_bob ldp_dump_reader ldp_dump_ingest)

failures=0
check() {  # name ok|FAILED [detail]
  if [[ $2 == ok ]]; then
    echo "dump: $1 ... ok"
  else
    echo "dump: $1 ... FAILED${3:+ ($3)}"
    failures=$((failures + 1))
  fi
}
q() { psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }
cleanup() {
  q -d postgres -c "DROP DATABASE IF EXISTS $src" -c "DROP DATABASE IF EXISTS $dst" >/dev/null 2>&1 || true
  local r
  for r in "${roles[@]}" ldp_dump_shift; do q -d postgres -c "DROP ROLE IF EXISTS $r" >/dev/null 2>&1 || true; done
}
trap cleanup EXIT
rm -rf "$out"
mkdir -p "$out"

# What is compared before and after: everything by name, nothing by OID.
snapshot() {  # database file
  q -d "$1" >"$2" <<'SQL'
SELECT 'collection', name, owner, acl, source, kind, epoch_length FROM ldp.collections ORDER BY name;
SELECT 'stream', name, owner, acl, epoch, phase, votes, yes_votes, last_update_epoch, estimate FROM ldp.thresh_streams ORDER BY name;
SELECT 'epoch', collection, epoch, epoch_start, reports, md5(summary::text) FROM ldp.collection_epochs ORDER BY 2, 3;
SELECT 'view', n.nspname, c.relname, pg_get_userbyid(c.relowner), c.relacl FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname IN ('ldp_collections', 'ldp_thresh_streams') ORDER BY 2, 3;
SELECT 'estimate', epoch, reports, round(estimate::numeric, 9) FROM ldp.collection_estimates('alice_clicks');
SELECT 'history', epoch, votes, global_update, estimate FROM ldp.thresh_history('alice_stream');
SELECT 'reader', has_table_privilege('ldp_dump_reader', 'ldp_collections.alice_clicks', 'SELECT'),
       has_table_privilege('ldp_dump_reader', 'ldp_collections.alice_clicks', 'UPDATE'),
       has_table_privilege('ldp_dump_ingest', 'ldp_thresh_streams.alice_stream', 'INSERT');
SET ROLE ldp_dump_reader;
SELECT 'seen by reader', name FROM ldp.collections ORDER BY name;
SELECT 'reader estimate', epoch, reports FROM ldp.collection_estimates('alice_clicks');
RESET ROLE;
SQL
}

# The objects, made as their owners. $1: the version to make them with (current, or an
# older one: 0.1.0 updated to it).
populate() {
  local create="CREATE EXTENSION ldp;"
  [[ $1 == current ]] || create="CREATE EXTENSION ldp VERSION '0.1.0'; ALTER EXTENSION ldp UPDATE TO '$1';"
  q -d "$src" -v ON_ERROR_STOP=1 >/dev/null <<SQL
SET client_min_messages = warning;
$create
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

run_case() {  # label version-to-install
  local label=$1 from=$2 r
  cleanup
  for r in "${roles[@]}"; do q -d postgres -c "CREATE ROLE $r"; done
  q -d postgres -c "CREATE DATABASE $src"
  populate "$from"
  local version
  version=$(q -d "$src" -c "SELECT extversion FROM pg_extension WHERE extname = 'ldp'")
  if [[ $label == updated ]]; then
    q -d "$src" -c "SET client_min_messages = warning" -c "ALTER EXTENSION ldp UPDATE" >/dev/null
    version="$version -> $(q -d "$src" -c "SELECT extversion FROM pg_extension WHERE extname = 'ldp'")"
  fi
  snapshot "$src" "$out/$label-before.txt"
  "$pg_bin/pg_dump" -Fc -d "$src" -f "$out/$label.dump"
  q -d postgres -c "DROP DATABASE $src"
  for r in "${roles[@]}"; do q -d postgres -c "DROP ROLE $r"; done
  # the same names, other OIDs (and another order)
  q -d postgres -c "CREATE ROLE ldp_dump_shift"
  for ((r = ${#roles[@]} - 1; r >= 0; r--)); do q -d postgres -c "CREATE ROLE ${roles[r]}"; done
  q -d postgres -c "CREATE DATABASE $dst"
  if "$pg_bin/pg_restore" --exit-on-error -d "$dst" "$out/$label.dump" >"$out/$label-restore.log" 2>&1; then
    check "$label ($version): pg_restore into a new database with new role OIDs, no error" ok
  else
    check "$label ($version): pg_restore into a new database with new role OIDs, no error" FAILED \
      "$(head -c 300 "$out/$label-restore.log")"
  fi
  snapshot "$dst" "$out/$label-after.txt"
  if diff -u "$out/$label-before.txt" "$out/$label-after.txt" >"$out/$label.diff"; then
    check "$label: owners, grants, closed epochs and answers are the same after restore ($(wc -l <"$out/$label-after.txt") lines)" ok
  else
    check "$label: owners, grants, closed epochs and answers are the same after restore" FAILED "build/dump/$label.diff"
    head -n 30 "$out/$label.diff" >&2
  fi
  # the next close (by a grantee of close, and by a superuser as pg_cron would) runs as the owner
  local closed
  closed=$(q -d "$dst" -c "SET ROLE ldp_dump_bob" -c "CALL ldp.close_epoch('alice_clicks', 2)" -c "RESET ROLE" \
             -c "CALL ldp.close_due_epochs('bob_words')" \
             -c "SELECT string_agg(collection || ':' || epoch || '=' || reports, ' ' ORDER BY collection, epoch)
                 FROM ldp.collection_epochs WHERE epoch IN (1, 2)")
  if [[ $closed == "alice_clicks:1=1000 alice_clicks:2=1000 bob_words:1=1000"* ]]; then
    check "$label: the next closes work and run as the restored owners" ok
  else
    check "$label: the next closes work and run as the restored owners" FAILED "$closed"
  fi
  local drop
  drop=$(q -d "$dst" -c "DO \$\$ BEGIN DROP ROLE ldp_dump_alice; EXCEPTION WHEN dependent_objects_still_exist THEN
           RAISE NOTICE '%', SQLSTATE; END \$\$" 2>&1 || true)
  if [[ $drop == *2BP01* ]]; then
    check "$label: DROP ROLE of a restored owner fails with 2BP01" ok
  else
    check "$label: DROP ROLE of a restored owner fails with 2BP01" FAILED "$drop"
  fi
  q -d postgres -c "DROP DATABASE $dst"
}

run_case fresh current
run_case updated 0.6.0
cleanup
trap - EXIT
((failures == 0))
