#!/usr/bin/env bash
# Benchmarks the frequency-oracle aggregates: for every mechanism, the aggregate and
# its decoding (SELECT count(*) FROM ldp.frequencies((SELECT <agg> FROM t))) against
# plain sum(int4) over a column of the same table, and against a decoding a user
# would write in plain SQL, serial and parallel; prints Markdown tables of ratios
# (the figures that matter on a shared machine). Usage:
#
#   [ROWS_UNARY=N] [ROWS_OLH=N] bench/freq.sh [ROWS] [REPEATS] [WORDS]
#
#   ROWS        reports for grr, dbitflip and hadamard (default 10000000)
#   ROWS_UNARY  reports for sue and oue (default 2000000; at most ROWS): a k = 1024
#               report is 128 bytes of bits, ~175 MB per million rows on disk, and the
#               core's unary encoders draw one random number per bit (~130k reports/s)
#   ROWS_OLH    reports for olh (default 100000; at most ROWS): decoding costs k hashes
#               per report (O(n k))
#   REPEATS     timed runs of each query, after one warm-up; the median is shown (5)
#   WORDS       the word-count file (word<TAB>count) the populations are drawn from: this
#               argument, else LDP_BENCH_WORDS, else ../shared/data/subtlex_us_words.tsv
#               beside the checkout when it exists (the full SUBTLEX-US list), else the
#               bundled test/data/subtlex_top1000.tsv; the output says which. The loader
#               reads it on the client side.
#
# k = 1024 items, epsilon = 1, dBitFlip d = 4 (see "d" below). The populations are
# words drawn by count from WORDS (ldp_load --distribution words:FILE), seed 1.
# Tables are kept between runs and reloaded only when their parameters change
# (LDP_BENCH_RELOAD=1 forces it). Parallel runs use LDP_BENCH_WORKERS workers (1).
# Uses the private cluster .pg/bench (or the server named by PG* variables).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
rows="${1:-10000000}"
repeats="${2:-5}"
rows_unary="${ROWS_UNARY:-2000000}"
rows_olh="${ROWS_OLH:-100000}"
workers="${LDP_BENCH_WORKERS:-1}"  # leader + 1 worker = 2 processes on a 2-core machine
for v in "$rows" "$repeats" "$rows_unary" "$rows_olh" "$workers"; do
  [[ $v =~ ^[0-9]+$ ]] || { echo "freq.sh: expected whole numbers, got '$v'" >&2; exit 2; }
done
((rows >= 1 && repeats >= 1 && rows_unary >= 1 && rows_olh >= 1)) ||
  { echo "freq.sh: ROWS, REPEATS, ROWS_UNARY and ROWS_OLH must be >= 1" >&2; exit 2; }
((rows <= 2147483647)) || { echo "freq.sh: ROWS must fit in int4 (the sum(int4) column)" >&2; exit 2; }
((rows_unary > rows)) && rows_unary=$rows
((rows_olh > rows)) && rows_olh=$rows
IFS=$'\t' read -r words words_which < <(ldp_word_file "${3:-${LDP_BENCH_WORDS:-}}")
echo "freq.sh: word counts from $words_which" >&2
command_line="ROWS_UNARY=$rows_unary ROWS_OLH=$rows_olh LDP_BENCH_WORKERS=$workers bench/freq.sh $rows $repeats${3:+ $3}"
k=1024
eps=1.0
# dBitFlip's d: Ding et al. (NeurIPS 2017) evaluates dBitFlipPM with d = 1, 2
# and 4 and publishes no deployed value (its deployment section covers 1BitMean only).
# d = 4 is the most accurate of the three (variance ~ k/d) and the most work per row for
# the aggregate (4-element arrays), so it is the conservative choice for a benchmark.
d=4
bench_setup
cmake -S "$root" -B "$root/build/cmake" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$root/build/cmake" -j "$(nproc)" --target ldp_load >/dev/null
ldp_load="$root/build/cmake/ldp_load"
bench_cluster

bench_extension
log="$(mktemp "${TMPDIR:-/tmp}/ldp-freq-bench.XXXXXX")"
trap 'rm -f "$log"; bench_cleanup' EXIT

# ---------------------------------------------------------------------------
# Tables: the loader's layout plus v int4 = user_id, the sum(int4) baseline's column
# (last, so that the baseline deforms the whole row as the aggregates do).

declare -A columns=(
  [grr]="report int NOT NULL"
  [sue]="report varbit NOT NULL"
  [oue]="report varbit NOT NULL"
  [dbitflip]="buckets int[] NOT NULL, bits boolean[] NOT NULL"
  [olh]="seed bigint NOT NULL, report int NOT NULL"
  [hadamard]="\"row\" int NOT NULL, report boolean NOT NULL"
)
declare -A nrows=([grr]=$rows [sue]=$rows_unary [oue]=$rows_unary [dbitflip]=$rows [olh]=$rows_olh
                  [hadamard]=$rows)
declare -A loads
mechs=(grr sue oue dbitflip olh hadamard)

for m in "${mechs[@]}"; do
  t="freq_bench_$m"
  extra=()
  [[ $m == dbitflip ]] && extra=(--d "$d")
  marker="ldp freq bench: rows=${nrows[$m]} k=$k epsilon=$eps ${extra[*]} seed=1 words=$words"
  have="$(psql -qAtX -c "SELECT obj_description(to_regclass('$t'), 'pg_class')")"
  if [[ $have == "$marker" && ${LDP_BENCH_RELOAD:-0} != 1 ]]; then
    loads[$m]="(kept from an earlier run)"
    continue
  fi
  psql -qX -v ON_ERROR_STOP=1 <<SQL
DROP TABLE IF EXISTS $t;
CREATE TABLE $t (user_id bigint NOT NULL, round int NOT NULL, ${columns[$m]},
                 v int4 GENERATED ALWAYS AS (user_id::int4) STORED);
SQL
  # --no-decode: the benchmark times SQL, not the loader's local decoding
  "$ldp_load" --mechanism "$m" --epsilon "$eps" --k "$k" "${extra[@]}" --users "${nrows[$m]}" \
    --distribution "words:$words" --seed 1 --table "$t" --no-decode --no-analyze \
    >"$log" 2>"$log.err" || { cat "$log.err" >&2; rm -f "$log.err"; exit 1; }
  loads[$m]="$(grep -E '^ldp_load: [0-9]+ ' "$log.err" | sed -E 's/^ldp_load: //')"
  rm -f "$log.err"
  psql -qX -v ON_ERROR_STOP=1 -c "VACUUM (FREEZE, ANALYZE) $t" -c "COMMENT ON TABLE $t IS '$marker'"
done

# ---------------------------------------------------------------------------
# Queries


serial="SET max_parallel_workers_per_gather = 0;"
# min_parallel_table_scan_size = 0: the OLH table (and small runs) is under the 8 MB default
parallel="SET max_parallel_workers_per_gather = $workers; SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0;"

declare -A agg=(
  [grr]="ldp.grr_agg(report, $eps, $k)"
  [sue]="ldp.sue_agg(report, $eps)"
  [oue]="ldp.oue_agg(report, $eps)"
  [dbitflip]="ldp.dbitflip_agg(buckets, bits, $eps, $k)"
  [olh]="ldp.olh_agg(seed, report, $eps, $k)"
  [hadamard]="ldp.hadamard_agg(\"row\", report, $eps, $k)"
)
# The decoding a user would write in plain SQL (same estimators as docs/algorithms/frequency.md;
# the script checks that they agree with ldp.frequencies). SUE/OUE: a per-bit decode in
# SQL is O(n k) (get_bit over generate_series); their row is sum(length(report)), which
# reads every bit string but decodes nothing. OLH needs XXH32, which SQL does not have:
# no SQL row.
# Each yields (item, f); the timed query is SELECT count(*), sum(f) FROM (...) s.
declare -A sql=(
  [grr]="SELECT report AS item, (c / sum(c) OVER () - q) / (p - q) AS f
FROM (SELECT report, count(*)::float8 AS c FROM freq_bench_grr GROUP BY report) g,
     (SELECT exp($eps::float8) / (exp($eps::float8) + $k - 1) AS p,
             1 / (exp($eps::float8) + $k - 1) AS q) pq"
  [dbitflip]="SELECT bucket AS item,
       $k / (sum(holders) OVER () / $d) / $d * (ones * (w + 1) - holders) / (w - 1) AS f
FROM (SELECT b.bucket, count(*)::float8 AS holders,
             count(*) FILTER (WHERE b.bit)::float8 AS ones
      FROM freq_bench_dbitflip, unnest(buckets, bits) AS b(bucket, bit)
      GROUP BY b.bucket) g,
     (SELECT exp($eps::float8 / 2) AS w) e"
  [hadamard]="WITH s AS (SELECT \"row\" AS j, sum(CASE WHEN report THEN 1 ELSE -1 END) AS s,
                  count(*) AS c
           FROM freq_bench_hadamard GROUP BY \"row\")
SELECT v.item,
       (exp($eps::float8) + 1) / (exp($eps::float8) - 1) / (SELECT sum(c) FROM s)::float8
       * sum(CASE WHEN bit_count((s.j & (v.item + 1))::bit(32)) % 2 = 0
                  THEN s.s ELSE -s.s END)::float8 AS f
FROM s, generate_series(0, $k - 1) AS v(item)
GROUP BY v.item"
)
declare -A baseline=(
  [sue]="SELECT sum(length(report)) FROM freq_bench_sue"
  [oue]="SELECT sum(length(report)) FROM freq_bench_oue"
)
declare -A sql_label=(
  [grr]="SQL: GROUP BY report, (C/n - q)/(p - q)"
  [sue]="\`sum(length(report))\` (no decoding)"
  [oue]="\`sum(length(report))\` (no decoding)"
  [dbitflip]="SQL: unnest + GROUP BY bucket"
  [hadamard]="SQL: GROUP BY row, then Σ_j ±S_j over K×k with bit_count"
)

declare -A ts tp agree
for m in "${mechs[@]}"; do
  t="freq_bench_$m"
  q_sum="SELECT sum(v) FROM $t"
  q_ldp="SELECT count(*) FROM ldp.frequencies((SELECT ${agg[$m]} FROM $t))"
  q_sql=""
  if [[ -n ${sql[$m]:-} ]]; then
    q_sql="SELECT count(*), sum(f) FROM (${sql[$m]}) s"
    # the hand-written decoding must give ldp's estimates (to rounding)
    agree[$m]="$(psql -qAtX -v ON_ERROR_STOP=1 -F ' ' -c "SELECT count(*), max(abs(s.f - l.frequency))
      FROM (${sql[$m]}) s JOIN ldp.frequencies((SELECT ${agg[$m]} FROM $t)) l USING (item)")"
  elif [[ -n ${baseline[$m]:-} ]]; then
    q_sql="${baseline[$m]}"
  fi
  ts[$m.sum]="$(time_query "$serial" "$q_sum")";  tp[$m.sum]="$(time_query "$parallel" "$q_sum")"
  ts[$m.ldp]="$(time_query "$serial" "$q_ldp")";  tp[$m.ldp]="$(time_query "$parallel" "$q_ldp")"
  if [[ -n $q_sql ]]; then
    ts[$m.sql]="$(time_query "$serial" "$q_sql")"; tp[$m.sql]="$(time_query "$parallel" "$q_sql")"
  fi
done

# ---------------------------------------------------------------------------
# Report

echo
echo "Command: \`$command_line\`"
echo
echo "Frequency oracles over k = $k items, epsilon = $eps, dBitFlip d = $d; median of $repeats runs;"
echo "parallel = leader + $workers worker(s); $(date -u +%Y-%m-%d); $(nproc) cores; PostgreSQL $(psql -qAtX -c 'SHOW server_version')."
echo "Users hold words drawn by count from \`$(basename "$words")\` (item = rank among the top $k): $words_which."
echo "Rows: grr, dbitflip, hadamard $rows; sue, oue $rows_unary; olh $rows_olh."
if ((rows_unary < rows)); then
  echo "SUE/OUE use ROWS_UNARY = $rows_unary rows, not $rows: a report is a $((k / 8))-byte bit string"
  echo "(~175 MB per million rows on disk) and the core's unary encoders draw one random number"
  echo "per bit (~130k reports/s to load); pass ROWS_UNARY=$rows to use $rows rows."
fi
if ((rows_olh < rows)); then
  echo "OLH uses ROWS_OLH = $rows_olh rows: its decoding is O(n·k) hash evaluations."
fi
echo
echo "Loads (ldp_load, seed 1, no local decoding):"
echo
for m in "${mechs[@]}"; do echo "- $m: ${loads[$m]}"; done
echo
echo "ldp: \`SELECT count(*) FROM ldp.frequencies((SELECT <aggregate> FROM t))\` (the summary and"
echo "all $k estimates); sum(int4): \`SELECT sum(v) FROM t\`, v = user_id::int4, the last column."
echo
echo "| mechanism | rows | query | serial ms | serial / sum(int4) | parallel ms | parallel / sum(int4) | parallel speedup |"
echo "|---|---:|---|---:|---:|---:|---:|---:|"
row() {  # mechanism key label
  awk -v m="$1" -v n="${nrows[$1]}" -v l="$3" -v s="${ts[$1.$2]}" -v p="${tp[$1.$2]}" \
      -v s0="${ts[$1.sum]}" -v p0="${tp[$1.sum]}" \
    'BEGIN {printf "| %s | %d | %s | %.0f | %.2f | %.0f | %.2f | %.2f |\n", m, n, l, s, s/s0, p, p/p0, s/p}'
}
for m in "${mechs[@]}"; do
  row "$m" sum 'sum(int4)'
  row "$m" ldp "\`${agg[$m]}\` + frequencies"
  if [[ -n ${ts[$m.sql]:-} ]]; then row "$m" sql "${sql_label[$m]}"; fi
done
echo
echo "Hand-written SQL decoding time / ldp time (how many times faster the aggregate is), and"
echo "the largest difference between the two decodings' frequencies over the items both return:"
echo
echo "| mechanism | SQL | serial | parallel | items | max abs difference |"
echo "|---|---|---:|---:|---:|---:|"
for m in grr dbitflip hadamard; do
  read -r n_items diff <<<"${agree[$m]}"
  awk -v m="$m" -v l="${sql_label[$m]}" -v s="${ts[$m.sql]}" -v p="${tp[$m.sql]}" \
      -v s1="${ts[$m.ldp]}" -v p1="${tp[$m.ldp]}" -v n="$n_items" -v e="$diff" \
    'BEGIN {printf "| %s | %s | %.2f | %.2f | %d | %.1e |\n", m, l, s/s1, p/p1, n, e}'
done
echo
echo "The SQL decodings, each timed as \`SELECT count(*), sum(f) FROM (<query>) s\`:"
for m in grr dbitflip hadamard; do
  echo
  echo '```sql'
  echo "${sql[$m]};"
  echo '```'
done
