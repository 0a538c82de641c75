#!/usr/bin/env bash
# Benchmarks the range family (issue 31), ratios measured in one run:
#
#   1. range_agg over ROWS HaarHRR reports at each of DOMAIN_BITS against sum(level) (an
#      int4 column the aggregate reads) and count(*) over the same rows, serial and
#      parallel (interleaved rounds);
#   2. quantiles of 99 points from a stored summary of each domain, the first call in a
#      session (the decode and the CDF's blocks) and the next one (the session's decode),
#      and quantile and cdf after them.
#
#   [DOMAIN_BITS="12 16 20"] bench/range.sh [ROWS] [REPEATS]
#
#   ROWS         reports per domain (default 10000000), loaded with ldp_load (lognormal
#                latencies, median e^9 ≈ 8100 buckets at 20 bits, scaled to each domain)
#   REPEATS      timed rounds after one warm-up; medians shown (default 5)
#   DOMAIN_BITS  the protocols' domain_bits (default "12 16 20")
#
# Tables are kept between runs and remade only when their rows or domain change
# (LDP_BENCH_RELOAD=1 forces it). Uses the private cluster .pg/bench (or the server named
# by PG* variables); parallel = leader + LDP_BENCH_WORKERS (1) worker.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
rows="${1:-10000000}"
repeats="${2:-5}"
read -ra bits_list <<<"${DOMAIN_BITS:-12 16 20}"
workers="${LDP_BENCH_WORKERS:-1}"
for v in "$rows" "$repeats" "$workers" "${bits_list[@]}"; do
  [[ $v =~ ^[0-9]+$ ]] || { echo "range.sh: expected whole numbers, got '$v'" >&2; exit 2; }
done
bench_setup
bench_cluster
bench_extension
cmake -S "$root" -B "$root/build/cmake" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$root/build/cmake" --target ldp_load -j "$(nproc)" >/dev/null

serial="SET max_parallel_workers_per_gather = 0;"
parallel="SET max_parallel_workers_per_gather = $workers; SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0;"
echo "# bench/range.sh $rows $repeats (DOMAIN_BITS=\"${bits_list[*]}\", LDP_BENCH_WORKERS=$workers), $(date -u +%F)"
echo
echo "| domain_bits | rows | sum(level) serial ms | range_agg serial ms | ratio | sum(level) parallel ms | range_agg parallel ms | ratio | count(*) serial ms |"
echo "|---|---|---|---|---|---|---|---|---|"
quantile_lines=()
for k in "${bits_list[@]}"; do
  t="range_bench_$k"
  marker="ldp range bench: rows=$rows bits=$k"
  have=$(psql -qAtX -c "SELECT obj_description(to_regclass('$t'), 'pg_class')")
  if [[ $have != "$marker" || ${LDP_BENCH_RELOAD:-0} == 1 ]]; then
    mu=$(awk -v k="$k" 'BEGIN { printf "%.4f", 9 - (20 - k) * log(2) }')
    "$root/build/cmake/ldp_load" --mechanism haar --epsilon 1 --domain-bits "$k" --distribution "lognormal:$mu:1.5" \
      --users "$rows" --seed 31 --table "$t" --truncate --no-analyze >/dev/null 2>&1
    psql -qX -v ON_ERROR_STOP=1 -c "VACUUM (FREEZE, ANALYZE) $t" -c "COMMENT ON TABLE $t IS '$marker'"
  fi
  agg="ldp.range_agg(level, hadamard_row, report, ldp.range_protocol(1, $k))"
  # report_count: the summary is made whole (its final function) but not printed
  queries=("SELECT sum(level) FROM $t" "SELECT ldp.report_count($agg) FROM $t" "SELECT count(*) FROM $t")
  mapfile -t s_ms < <(time_queries "$serial" "${queries[@]}")
  mapfile -t p_ms < <(time_queries "$parallel" "${queries[@]:0:2}")
  awk -v k="$k" -v n="$rows" -v s0="${s_ms[0]}" -v s1="${s_ms[1]}" -v c="${s_ms[2]}" -v p0="${p_ms[0]}" -v p1="${p_ms[1]}" \
    'BEGIN { printf "| %d | %d | %.0f | %.0f | **%.2f×** | %.0f | %.0f | **%.2f×** | %.0f |\n", k, n, s0, s1, s1 / s0, p0, p1, p1 / p0, c }'
  # quantiles: a stored summary; each session's first call decodes, the next one does not
  psql -qX -v ON_ERROR_STOP=1 -c "SET client_min_messages = warning" -c "DROP TABLE IF EXISTS range_bench_summary_$k" \
    -c "CREATE TABLE range_bench_summary_$k AS SELECT $agg AS s FROM $t"
  phis="(SELECT array_agg(i / 100.0) FROM generate_series(1, 99) i)"
  firsts=() seconds=() others=()
  for ((r = 0; r < repeats; r++)); do
    mapfile -t ms < <(psql -qX -v ON_ERROR_STOP=1 -c '\timing on' \
      -c "SELECT count(*) FROM range_bench_summary_$k, ldp.quantiles(s, $phis) q" \
      -c "SELECT count(*) FROM range_bench_summary_$k, ldp.quantiles(s, $phis) q" \
      -c "SELECT (ldp.quantile(s, 0.5)).value FROM range_bench_summary_$k" \
      -c "SELECT (ldp.cdf(s, 100)).frequency FROM range_bench_summary_$k" | grep -oE '^Time: [0-9.]+' | awk '{print $2}')
    firsts+=("${ms[0]}") seconds+=("${ms[1]}") others+=("$(awk -v a="${ms[2]}" -v b="${ms[3]}" 'BEGIN { print (a > b ? a : b) }')")
  done
  size=$(psql -qAtX -c "SELECT pg_column_size(s) FROM range_bench_summary_$k")
  quantile_lines+=("$(printf '| %d | %d | %d | %s | %s | %s |' "$k" "$rows" "$size" \
    "$(printf '%s\n' "${firsts[@]}" | median)" "$(printf '%s\n' "${seconds[@]}" | median)" \
    "$(printf '%s\n' "${others[@]}" | median)")")
done
echo
echo "quantiles(s, 99 points) of a stored summary, medians over $repeats sessions (ms):"
echo
echo "| domain_bits | reports | stored bytes | first call in a session | second call | quantile, cdf after (max) |"
echo "|---|---|---|---|---|---|"
printf '%s\n' "${quantile_lines[@]}"
