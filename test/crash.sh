#!/usr/bin/env bash
# Crash safety of the closes: kills every process of a PostgreSQL cluster (SIGKILL, no
# shutdown, no checkpoint) while a close is half done, restarts it (crash recovery) and
# checks that each close happened entirely or not at all, and that running it again
# completes it.
#
#   test/crash.sh CLUSTER_DIR
#
# CLUSTER_DIR is a private cluster started by src/tools/pgenv.sh (test/run.sh passes
# its own); PGHOST/PGPORT/PGUSER/PGDATABASE must point at it. Never run this against a
# server you care about. Prints one "crash: NAME ... ok|FAILED" line per check and
# exits non-zero if one failed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd -P)
# shellcheck source=../src/tools/pgenv.sh
source "$here/../src/tools/pgenv.sh"
dir=$(ldp_cluster_dir "${1:?usage: test/crash.sh CLUSTER_DIR}")
[[ -f $dir/postmaster.pid ]] || { echo "crash.sh: no cluster running in $dir" >&2; exit 2; }

# The test cluster runs with synchronous_commit = off (a throwaway cluster), which lets a
# crash lose the last commits by design; these sessions commit durably, as production
# servers do (fsync = off is harmless here: we kill processes, not the machine).
export PGOPTIONS="${PGOPTIONS:-} -c synchronous_commit=on"
psql() { command psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }
failures=0
check() {  # name expected actual
  if [[ $2 == "$3" ]]; then
    echo "crash: $1 ... ok"
  else
    echo "crash: $1 ... FAILED (expected '$2', got '$3')"
    failures=$((failures + 1))
  fi
}

# SIGKILL the postmaster and every child at once, then start again (crash recovery).
crash_and_restart() {
  local pm recoveries
  pm=$(head -n 1 "$dir/postmaster.pid")
  recoveries=$(grep -c 'was not properly shut down' "$dir/log" || true)
  kill -9 "$pm" $(pgrep -P "$pm") 2>/dev/null || true
  while kill -0 "$pm" 2>/dev/null; do sleep 0.05; done
  sleep 0.2  # children notice the postmaster is gone
  ldp_as_owner "$LDP_PG_BIN/pg_ctl" -D "$dir" -w -t 120 -l "$dir/log" start >/dev/null 2>&1
  local _
  for _ in $(seq 1 100); do
    psql -c 'select 1' >/dev/null 2>&1 && break
    sleep 0.1
  done
  (($(grep -c 'was not properly shut down' "$dir/log" || true) > recoveries)) ||
    { echo "crash.sh: the server did not go through crash recovery" >&2; failures=$((failures + 1)); }
}

# Runs SQL in the background in a session that we can wait on; prints its pid.
background() {
  psql -c "$1" >/dev/null 2>&1 &
  echo $!
}

# kill_while_blocked HOLDER VICTIM PATTERN: a session runs HOLDER (takes a lock and
# sleeps), another runs VICTIM, which does part of its work and then waits for that
# lock; once a statement matching PATTERN waits, the whole cluster is killed and
# restarted.
kill_while_blocked() {
  local holder victim
  holder=$(background "BEGIN; $1; SELECT pg_sleep(60); COMMIT;")
  sleep 0.3
  victim=$(background "$2")
  wait_for_lock_wait "$3"
  crash_and_restart
  wait "$holder" "$victim" 2>/dev/null || true
}

# Waits until a backend running a statement matching $1 waits for a lock.
wait_for_lock_wait() {
  local _
  for _ in $(seq 1 200); do
    [[ $(psql -c "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '$1'") -ge 1 ]] &&
      return 0
    sleep 0.05
  done
  echo "crash.sh: nothing matching $1 ever waited for a lock" >&2
  return 1
}

psql -c 'SET client_min_messages = warning' -c 'CREATE EXTENSION IF NOT EXISTS ldp'
psql -c "SELECT ldp.thresh_drop(name) FROM ldp.thresh_streams WHERE name = 'crash'" >/dev/null
psql -c "SELECT ldp.thresh_create('crash', 20000, 4, 1000, 1, 1, 8, 0.1, 0.5, 0.5)" >/dev/null
psql -c "SELECT ldp.thresh_submit_votes('crash', 1, array_agg(u), array_agg(u % 3 <> 0))
         FROM generate_series(1, 20000) u" >/dev/null

# 1. thresh_close_votes killed after it moved the phase on, before it wrote the history:
#    a session holds the history table, the close updates the stream row and waits.
kill_while_blocked "LOCK TABLE ldp.thresh_epochs IN EXCLUSIVE MODE" \
  "CALL ldp.thresh_close_votes('crash', 1)" "CALL ldp.thresh_close_votes%"
check "close_votes killed midway: still voting" "1|voting|20000" \
  "$(psql -c "SELECT epoch, phase, votes FROM ldp.thresh_status('crash')")"
check "close_votes killed midway: no decision stored" "0" \
  "$(psql -c "SELECT count(*) FROM ldp.thresh_history('crash')")"
psql -c "CALL ldp.thresh_close_votes('crash', 1)"
check "close_votes after recovery" "1|estimating|20000|t" \
  "$(psql -c "SELECT s.epoch, s.phase, h.votes, h.global_update FROM ldp.thresh_status('crash') s, ldp.thresh_history('crash') h")"

# 2. a batch of estimates killed after its rows were written, before its tally: a
#    session holds the stream's row, so the batch stores its rows and then waits.
kill_while_blocked "SELECT 1 FROM ldp.thresh_streams WHERE name = 'crash' FOR UPDATE" \
  "SELECT ldp.thresh_submit_estimates('crash', 1, array_agg(u), array_agg(u % 2 = 0))
   FROM generate_series(1, 20000) u" "SELECT ldp.thresh_submit_estimates%"
check "estimate batch killed midway: nothing stored" "0|0" \
  "$(psql -c "SELECT s.estimate_reports, (SELECT count(*) FROM ldp.thresh_estimates e WHERE e.stream = s.id)
              FROM ldp.thresh_streams s WHERE s.name = 'crash'")"

# 3. thresh_close_epoch killed after it opened the next epoch, before it wrote the estimate.
psql -c "SELECT ldp.thresh_submit_estimates('crash', 1, array_agg(u), array_agg(u % 2 = 0))
         FROM generate_series(1, 20000) u" >/dev/null
kill_while_blocked "LOCK TABLE ldp.thresh_epochs IN EXCLUSIVE MODE" \
  "CALL ldp.thresh_close_epoch('crash', 1)" "CALL ldp.thresh_close_epoch%"
check "close_epoch killed midway: still estimating epoch 1" "1|estimating|20000|" \
  "$(psql -c "SELECT epoch, phase, estimate_reports, estimate FROM ldp.thresh_status('crash')")"
psql -c "CALL ldp.thresh_close_epoch('crash', 1)"
check "close_epoch after recovery" "2|voting|1|t" \
  "$(psql -c "SELECT s.epoch, s.phase, s.last_update_epoch, h.estimate = s.estimate
              FROM ldp.thresh_status('crash') s, ldp.thresh_history('crash') h")"
psql -c "SELECT ldp.thresh_drop('crash')" >/dev/null

# 3b. the same for a histogram (HEAVYTHRESH) stream, whose close also builds the oracle.
psql -c "SELECT ldp.thresh_drop(name) FROM ldp.thresh_streams WHERE name = 'crash_h'" >/dev/null
psql -c "SELECT ldp.heavythresh_create('crash_h', 20000, 4, 1000, 1, 1, 8, 0.1, 4, 64, 0.5, 0.5)" >/dev/null
psql -c "SELECT ldp.thresh_submit_votes('crash_h', 1, array_agg(u), array_agg(true))
         FROM generate_series(1, 20000) u" -c "CALL ldp.thresh_close_votes('crash_h', 1)" >/dev/null
psql -c "SELECT ldp.thresh_submit_histograms('crash_h', 1, array_agg(u), array_agg(r.hash_index),
                                             array_agg(r.coefficient), array_agg(r.report))
         FROM generate_series(1, 20000) u, ldp.hashtogram_encode((u % 5)::text, 0.5, 4, 64, u) r" >/dev/null
kill_while_blocked "LOCK TABLE ldp.thresh_epochs IN EXCLUSIVE MODE" \
  "CALL ldp.thresh_close_epoch('crash_h', 1)" "CALL ldp.thresh_close_epoch%"
check "histogram close_epoch killed midway: still estimating epoch 1, no oracle" "1|estimating|20000|t" \
  "$(psql -c "SELECT epoch, phase, estimate_reports, ldp.thresh_summary('crash_h', 1) IS NULL
              FROM ldp.thresh_status('crash_h')")"
psql -c "CALL ldp.thresh_close_epoch('crash_h', 1)"
check "histogram close_epoch after recovery" "2|voting|1|20000" \
  "$(psql -c "SELECT s.epoch, s.phase, s.last_update_epoch, ldp.report_count(ldp.thresh_summary('crash_h', 1))
              FROM ldp.thresh_status('crash_h') s")"
psql -c "SELECT ldp.thresh_drop('crash_h')" >/dev/null

# 4. close_due_epochs killed in the middle of its scan of a large source.
psql >/dev/null <<'SQL'
SET client_min_messages = warning;
SELECT ldp.drop_collection(name) FROM ldp.collections WHERE name = 'crash';
DROP TABLE IF EXISTS crash_source;
CREATE TABLE crash_source AS
SELECT date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - (1 + i % 30) * interval '1 day' AS at,
       i % 7 = 0 AS bit
FROM generate_series(1, 3000000) i;
SELECT ldp.create_collection('crash', 'crash_source', 'at', '1 day', 'ldp.rr_agg(bit, 1.0)');
SQL
closer=$(background "CALL ldp.close_due_epochs('crash')")
sleep 0.5
crash_and_restart
wait "$closer" 2>/dev/null || true
# It commits chunk by chunk (the newest epochs first): each chunk is there whole or not
# at all, so every stored epoch is complete and the closed set is exactly the epochs stored.
check "close_due_epochs killed midway: each chunk whole or not at all" "t|t" \
  "$(psql -c "SELECT coalesce(bool_and(reports = 100000), true),
                     (SELECT closed FROM ldp.collection_status('crash'))
                       = coalesce(range_agg(int8range(epoch, epoch, '[]')), '{}')
              FROM ldp.collection_epochs WHERE collection = 'crash'")"
psql -c "CALL ldp.close_due_epochs('crash')"
check "close_due_epochs after recovery" "30|3000000|0" \
  "$(psql -c "SELECT count(*), sum(reports), (SELECT count(*) FROM ldp.late_reports('crash') WHERE status <> 'unchanged')
              FROM ldp.collection_epochs WHERE collection = 'crash'")"
psql -c "SELECT ldp.drop_collection('crash')" -c "DROP TABLE crash_source" >/dev/null

if ((failures > 0)); then
  echo "crash: $failures check(s) failed"
  exit 1
fi
