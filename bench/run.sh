#!/usr/bin/env bash
# Benchmarks every mean aggregate against plain sum(int4) and count(*) over the
# same rows in the same run, serial and parallel, and prints a Markdown table of
# ratios (the figure that matters on a shared machine). Usage:
#   bench/run.sh [ROWS] [REPEATS]        (defaults: 10000000 rows, 5 repeats)
# Uses the private cluster .pg/bench (or the server named by PG* variables).
set -euo pipefail
rows="${1:-10000000}"
repeats="${2:-5}"
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
bench_setup
bench_cluster

bench_extension
# The tables are made by the SQL encoders with fixed seeds: tables of the right size
# left by an earlier run hold the same reports and are kept.
tables_ok=$(psql -qXAt -c "SELECT count(*) = 4 AND bool_and(c.reltuples = $rows)
  FROM pg_class c WHERE c.relname IN ('bench_reports', 'bench_bit', 'bench_lap', 'bench_pw')
  AND c.relkind = 'r' AND c.relnamespace = 'public'::regnamespace")
if [[ $tables_ok != t ]]; then
psql -qX -v ON_ERROR_STOP=1 <<SQL
DROP TABLE IF EXISTS bench_reports;
CREATE TABLE bench_reports AS
SELECT i::int4 AS v,
       ldp.rr_encode(i % 3 = 0, 1.0, i) AS bit,
       ldp.laplace_mean_encode((i % 1000) / 10.0, 1.0, 100, i) AS lap,
       ldp.piecewise_mean_encode((i % 1000) / 10.0, 1.0, 100, i) AS pw
FROM generate_series(1, $rows) i;
VACUUM (FREEZE, ANALYZE) bench_reports;
-- one table per report column, (v int4, report): sum(v) and the aggregate then read
-- the same two-column rows, as in a table that holds one mechanism's reports
DROP TABLE IF EXISTS bench_bit, bench_lap, bench_pw;
CREATE TABLE bench_bit AS SELECT v, bit FROM bench_reports;
CREATE TABLE bench_lap AS SELECT v, lap FROM bench_reports;
CREATE TABLE bench_pw AS SELECT v, pw FROM bench_reports;
VACUUM (FREEZE, ANALYZE) bench_bit, bench_lap, bench_pw;
SQL
fi

serial="SET max_parallel_workers_per_gather = 0;"
workers="${LDP_BENCH_WORKERS:-1}"  # leader + 1 worker = 2 processes on a 2-core machine
parallel="SET max_parallel_workers_per_gather = $workers; SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0;"
declare -A label=(
  [sum]="sum(v)" [count]="count(*)" [sum_lap]="sum(lap)" [sum_pw]="sum(pw)"
  [rr]="ldp.rr_agg(bit, 1.0)" [onebit]="ldp.onebit_mean_agg(bit, 1.0, 100)"
  [onebit_gamma]="ldp.onebit_mean_agg(bit, 1.0, 100, 0.2)"
  [laplace]="ldp.laplace_mean_agg(lap, 1.0, 100)" [piecewise]="ldp.piecewise_mean_agg(pw, 1.0, 100)"
)
order=(sum count sum_lap sum_pw rr onebit onebit_gamma laplace piecewise)
declare -A ts tp
# Every query of one setting runs interleaved (bench/common.sh: time_queries).
queries=()
for k in "${order[@]}"; do queries+=("SELECT ${label[$k]} FROM bench_reports"); done
mapfile -t s_ms < <(time_queries "$serial" "${queries[@]}")
mapfile -t p_ms < <(time_queries "$parallel" "${queries[@]}")
for i in "${!order[@]}"; do
  ts[${order[$i]}]=${s_ms[$i]}
  tp[${order[$i]}]=${p_ms[$i]}
done

echo
echo "Rows: $rows; median of $repeats interleaved runs; parallel = leader + $workers worker(s); $(date -u +%Y-%m-%d); $(nproc) cores"
echo
echo "| aggregate | serial ms | serial / sum(int4) | parallel ms | parallel / sum(int4) | parallel speedup |"
echo "|---|---:|---:|---:|---:|---:|"
for k in "${order[@]}"; do
  awk -v n="${label[$k]}" -v s="${ts[$k]}" -v p="${tp[$k]}" -v s0="${ts[sum]}" -v p0="${tp[sum]}" \
    'BEGIN {printf "| `%s` | %.0f | %.2f | %.0f | %.2f | %.2f |\n", n, s, s/s0, p, p/p0, s/p}'
done

# The same aggregates, each on its own two-column table (v int4, report) against
# sum(v) and sum(report) of that table, interleaved.
declare -A own=([rr]=bench_bit [onebit]=bench_bit [onebit_gamma]=bench_bit [laplace]=bench_lap
                [piecewise]=bench_pw)
declare -A col=([bench_bit]=bit [bench_lap]=lap [bench_pw]=pw)
echo
echo "Per-mechanism tables (v int4, report), serial, same run: the aggregate against sum(v) of its"
echo "table (and, for float8 reports, against sum(report): what reading the column costs)"
echo
echo "| aggregate | table | sum(v) ms | sum(report) ms | aggregate ms | aggregate / sum(int4) | aggregate / sum(report) |"
echo "|---|---|---:|---:|---:|---:|---:|"
for k in rr onebit onebit_gamma laplace piecewise; do
  t=${own[$k]}
  if [[ $t == bench_bit ]]; then
    mapfile -t m < <(time_queries "$serial" "SELECT sum(v) FROM $t" "SELECT ${label[$k]} FROM $t")
    m=("${m[0]}" "" "${m[1]}")
  else
    mapfile -t m < <(time_queries "$serial" "SELECT sum(v) FROM $t" "SELECT sum(${col[$t]}) FROM $t" \
                       "SELECT ${label[$k]} FROM $t")
  fi
  awk -v n="${label[$k]}" -v t="$t" -v s0="${m[0]}" -v sr="${m[1]}" -v s1="${m[2]}" \
    'BEGIN {
       if (sr == "") printf "| `%s` | %s | %.0f | | %.0f | %.2f | |\n", n, t, s0, s1, s1/s0;
       else printf "| `%s` | %s | %.0f | %.0f | %.0f | %.2f | %.2f |\n", n, t, s0, sr, s1, s1/s0, s1/sr
     }'
done
