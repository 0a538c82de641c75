#!/usr/bin/env bash
# Cost of closing epochs, against plain sum(int4) over a table of as many rows, in the
# same run. Prints a Markdown table. Usage:
#   bench/thresh.sh [ROWS] [REPEATS]        (defaults: 1000000 rows, 5 repeats)
#
# THRESH: every repeat is one epoch of a stream of ROWS users: ROWS votes are submitted
# (in batches of 100,000 through ldp.thresh_submit_votes), the votes are closed, ROWS
# estimates are submitted and the epoch is closed. The closes read running tallies kept
# by the submissions, so their cost does not grow with ROWS; the per-report work is in
# the submissions, reported next to a plain INSERT of as many rows into a table with the
# same primary key.
# Collections: close_epoch (with refresh, so it recomputes) of one epoch of ROWS 1-bit
# reports, against the aggregate it runs and sum(int4).
# Uses the private cluster .pg/bench (or the server named by PG* variables).
set -euo pipefail
rows="${1:-1000000}"
repeats="${2:-5}"
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
bench_setup
bench_cluster

psql() { command psql -qX -v ON_ERROR_STOP=1 "$@"; }
bench_extension
psql <<SQL
SET client_min_messages = warning;
SELECT FROM ldp.drop_collection(name) FROM ldp.collections WHERE name = 'bench';  -- its view depends on bench_epoch
SELECT FROM ldp.thresh_drop(name) FROM ldp.thresh_streams WHERE name = 'bench';
DROP TABLE IF EXISTS bench_int, bench_plain_votes, bench_epoch;
CREATE TABLE bench_int AS SELECT i::int4 AS v FROM generate_series(1, $rows) i;
CREATE TABLE bench_plain_votes (stream int, epoch int, user_id bigint, vote boolean,
                                PRIMARY KEY (stream, epoch, user_id));
CREATE TABLE bench_epoch AS
SELECT '2026-01-01 00:00+00'::timestamptz + (i % 86400) * interval '1 second' AS at,
       ldp.rr_encode(i % 3 = 0, 1.0, i) AS bit
FROM generate_series(1, $rows) i;
VACUUM (FREEZE, ANALYZE) bench_int, bench_epoch;
SELECT FROM ldp.create_collection('bench', 'bench_epoch', 'at', '1 day', 'ldp.rr_agg(bit, 1.0)');
SELECT FROM ldp.thresh_create('bench', $rows, $repeats, 20000, $rows, 1, 8, 0.1);
SQL

ms() {  # runs psql with \timing on the given commands; prints the last Time in ms
  psql -c '\timing on' "$@" | grep -oE '^Time: [0-9.]+' | awk '{print $2}' | tail -n 1
}
batch=100000
submit_sql() {  # kind epoch → statements submitting $rows reports in batches
  local fn=$1 e=$2 b
  for ((b = 1; b <= rows; b += batch)); do
    echo "SELECT ldp.$fn('bench', $e, array_agg(u), array_agg(u % 3 <> 0)) FROM generate_series($b, $((b + batch - 1 < rows ? b + batch - 1 : rows))) u;"
  done
}
total_ms() {  # runs SQL from stdin with \timing; prints the sum of the Times in ms
  (echo '\timing on'; cat) | psql -f - | grep -oE '^Time: [0-9.]+' | awk '{s += $2} END {print s}'
}

sum_t=() close_votes_t=() close_epoch_t=() submit_votes_t=() submit_est_t=() plain_t=()
agg_t=() coll_t=()
for ((e = 1; e <= repeats; e++)); do
  sum_t+=("$(ms -c 'SELECT sum(v) FROM bench_int')")
  submit_votes_t+=("$(submit_sql thresh_submit_votes "$e" | total_ms)")
  close_votes_t+=("$(ms -c "CALL ldp.thresh_close_votes('bench', $e)")")
  [[ $(psql -At -c "SELECT phase FROM ldp.thresh_status('bench')") == estimating ]] ||
    { echo "bench: epoch $e did not update; the close_epoch timing needs estimates" >&2; exit 1; }
  submit_est_t+=("$(submit_sql thresh_submit_estimates "$e" | total_ms)")
  close_epoch_t+=("$(ms -c "CALL ldp.thresh_close_epoch('bench', $e)")")
  plain_t+=("$(ms -c "INSERT INTO bench_plain_votes SELECT 1, $e, u, u % 3 = 0 FROM generate_series(1, $rows) u")")
  agg_t+=("$(ms -c 'SELECT ldp.rr_agg(bit, 1.0) FROM bench_epoch')")
  coll_t+=("$(ms -c "CALL ldp.close_epoch('bench', 20454, true)")")
done
s=$(printf '%s\n' "${sum_t[@]}" | median)
row() {  # label values...
  local label=$1; shift
  local m
  m=$(printf '%s\n' "$@" | median)
  awk -v l="$label" -v m="$m" -v s="$s" 'BEGIN {printf "| %s | %.1f | %.3f |\n", l, m, m/s}'
}
echo
echo "Rows: $rows; median of $repeats runs (THRESH: one epoch each); $(date -u +%Y-%m-%d); $(nproc) cores"
echo
echo "| operation | ms | / sum(int4) |"
echo "|---|---:|---:|"
row '`SELECT sum(v)` over the rows (reference)' "${sum_t[@]}"
row "\`CALL ldp.thresh_close_votes\` of an epoch of $rows votes" "${close_votes_t[@]}"
row "\`CALL ldp.thresh_close_epoch\` of an epoch of $rows estimates" "${close_epoch_t[@]}"
row "submitting the $rows votes (batches of $batch)" "${submit_votes_t[@]}"
row "submitting the $rows estimates (batches of $batch)" "${submit_est_t[@]}"
row "plain \`INSERT\` of $rows rows with the same primary key" "${plain_t[@]}"
row "\`SELECT ldp.rr_agg(bit, 1.0)\` over an epoch of $rows reports" "${agg_t[@]}"
row "\`CALL ldp.close_epoch(..., refresh => true)\` of that epoch" "${coll_t[@]}"
