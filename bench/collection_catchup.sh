#!/usr/bin/env bash
# A long catch-up of a collection with large summaries (issue 34): EMPTY empty and
# NONEMPTY non-empty hourly epochs of a 64 x 65,536 HCMS collection
# (ldp.hcms_agg(..., 4.0, 64, 65536): a 4 MiB summary, 32 MiB of live counters, per
# epoch), closed by CALL ldp.close_due_epochs under statement_timeout = '20s':
#   1. by hand: one CALL per session until no NOTICE says more are due; per call its
#      wall time, the epochs stored so far and the backend's peak memory (VmHWM of
#      /proc/self/status, read by the backend itself before the session ends);
#   2. (CRON=1) again by pg_cron, once a minute, as a role whose statement_timeout is
#      20s: the runs, their durations and statuses from cron.job_run_details;
#   3. every stored epoch equals its direct aggregate (the binary forms compared), the
#      closed epochs are one range up to the last ended, and nothing else was stored.
# The reports: ROWS per non-empty epoch; half of the non-empty epochs are the newest,
# the other half spread at random over the older ones (a sparse backfill).
# Usage: bench/collection_catchup.sh [NONEMPTY] [EMPTY] [ROWS]   (defaults 500 10000 200)
# Its own private cluster (.pg/catchup; shared_buffers = 128MB, so that the shared memory
# a backend touches adds little to VmHWM), from the private copy bench/common.sh builds.
set -euo pipefail
nonempty="${1:-500}"
empty="${2:-10000}"
rows="${3:-200}"
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
bench_setup
cluster="$root/.pg/catchup"
ldp_cluster_stop "$cluster" --force >/dev/null 2>&1 || true
ldp_cluster_start "$cluster" "shared_buffers = 128MB" "jit = off" "log_min_messages = warning"
trap bench_cleanup EXIT

psql() { command psql -qX -v ON_ERROR_STOP=1 "$@"; }
bench_extension
total=$((nonempty + empty))
setup_collection() {
  psql <<SQL
SET client_min_messages = warning;
SELECT ldp.drop_collection('catchup') FROM ldp.collections WHERE name = 'catchup';
SELECT ldp.create_collection('catchup', 'catchup_reports', 'at', '1 hour',
                             'ldp.hcms_agg(hash_index, coefficient, report, 4.0, 64, 65536)');
SQL
}
psql <<SQL
SET client_min_messages = warning;
DROP TABLE IF EXISTS catchup_reports, catchup_epochs;
-- the hours back from the last ended one (1 = the last ended) that get reports
CREATE TABLE catchup_epochs AS
SELECT h FROM generate_series(1, $nonempty / 2) h
UNION ALL
(SELECT h FROM generate_series($nonempty / 2 + 1, $total) h ORDER BY hashint4(h) LIMIT $nonempty - $nonempty / 2);
CREATE TABLE catchup_reports AS
SELECT date_trunc('hour', now()) - e.h * interval '1 hour' + (i * 17 % 3600) * interval '1 second' AS at, r.*
FROM catchup_epochs e, generate_series(1, $rows) i,
     ldp.hcms_encode('w' || ((e.h * $rows + i) % 1000), 4.0, 64, 65536, e.h * $rows + i) r;
CREATE INDEX ON catchup_reports (at);
ANALYZE catchup_reports;
SQL
setup_collection
echo "catch-up: $nonempty non-empty and $empty empty hourly epochs, $rows reports each, 64 x 65536 HCMS"
echo
echo "| call | wall s | epochs stored | backend VmHWM MiB |"
echo "|---:|---:|---:|---:|"
calls=0 max_hwm=0 max_wall=0
while :; do
  calls=$((calls + 1))
  t0=$(date +%s.%N)
  out=$(psql -At -c "SET statement_timeout = '20s'" -c "CALL ldp.close_due_epochs('catchup')" \
          -c "SELECT substring(pg_read_file('/proc/self/status') from 'VmHWM:\s*(\d+)')::bigint / 1024,
                     (SELECT count(*) FROM ldp.collection_epochs WHERE collection = 'catchup')" 2>&1)
  t1=$(date +%s.%N)
  wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
  line=$(grep -E '^[0-9]+\|[0-9]+$' <<<"$out" | tail -1)
  [[ -n $line ]] || { echo "call $calls failed: $out"; exit 1; }
  hwm=${line%|*} stored=${line#*|}
  echo "| $calls | $wall | $stored | $hwm |"
  ((hwm > max_hwm)) && max_hwm=$hwm
  awk -v w="$wall" -v m="$max_wall" 'BEGIN { exit !(w > m) }' && max_wall=$wall
  grep -q 'more are due' <<<"$out" || break
  ((calls < 200)) || { echo "no end after 200 calls"; exit 1; }
done
echo
echo "by hand: $calls calls, the longest ${max_wall} s, peak backend memory ${max_hwm} MiB"

check() {
  psql -At <<SQL
SELECT (SELECT count(*) FROM ldp.collection_epochs WHERE collection = 'catchup') AS stored,
       (SELECT closed = int8multirange(int8range(ldp.epoch_of('catchup', (SELECT min(at) FROM catchup_reports)),
                                                 ldp.epoch_of('catchup', now()))) AND NOT due
        FROM ldp.collection_status('catchup')) AS one_range_to_the_last_ended,
       (SELECT bool_and(ce.reports = $rows AND ldp.summary_send(ce.summary) = ldp.summary_send(
                 (SELECT ldp.hcms_agg(hash_index, coefficient, report, 4.0, 64, 65536) FROM catchup_reports
                  WHERE at >= ce.epoch_start AND at < ce.epoch_start + interval '1 hour')::ldp.summary))
        FROM ldp.collection_epochs ce WHERE collection = 'catchup') AS each_equals_its_aggregate;
SQL
}
echo "check (stored | one range up to the last ended | each epoch = its direct aggregate): $(check)"

if [[ ${CRON:-0} == 1 ]]; then
  setup_collection
  psql <<'SQL'
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pg_cron;
DROP ROLE IF EXISTS catchup_closer;
CREATE ROLE catchup_closer LOGIN;
ALTER ROLE catchup_closer SET statement_timeout = '20s';
GRANT USAGE ON SCHEMA ldp TO catchup_closer;
SELECT ldp.grant_collection('catchup', 'close', 'catchup_closer');
SELECT cron.unschedule(jobid) FROM cron.job WHERE jobname = 'ldp-catchup';
SELECT cron.schedule_in_database('ldp-catchup', '* * * * *', $$CALL ldp.close_due_epochs('catchup')$$,
                                 current_database(), 'catchup_closer');
SQL
  echo
  echo "pg_cron, once a minute, as a role with statement_timeout = '20s':"
  while :; do
    sleep 20
    due=$(psql -At -c "SELECT due FROM ldp.collection_status('catchup')")
    running=$(psql -At -c "SELECT count(*) FROM cron.job_run_details d JOIN cron.job j USING (jobid)
                             WHERE j.jobname = 'ldp-catchup' AND d.status IN ('starting', 'running')")
    [[ $due == f && $running == 0 ]] && break
  done
  psql -c "SELECT cron.unschedule(jobid) FROM cron.job WHERE jobname = 'ldp-catchup'" >/dev/null
  psql -At -F ' ' <<'SQL'
SELECT 'runs: ' || count(*) || ', ' || count(*) FILTER (WHERE d.status = 'succeeded') || ' succeeded, the longest '
       || round(max(extract(epoch FROM d.end_time - d.start_time))::numeric, 1) || ' s'
FROM cron.job_run_details d WHERE d.command LIKE 'CALL ldp.close_due_epochs(''catchup'')%';
SQL
  echo "check (stored | one range up to the last ended | each epoch = its direct aggregate): $(check)"
  psql -c "DROP OWNED BY catchup_closer" -c "DROP ROLE catchup_closer" >/dev/null
fi
