#!/usr/bin/env bash
# Benchmarks the heavy-hitters protocols in SQL (issue 20): TreeHist, Bitstogram, PEM and SFP at their
# defaults, ratios measured in one run:
#
#   1. <mechanism>_agg over ROWS reports against sum(int4) over the same rows (the int4
#      column last, so that the baseline deforms the whole row as the aggregate does),
#      serial and parallel (interleaved rounds);
#   2. heavy_hitters(s) of each stored summary (the whole decode), its recall and
#      precision against the devices' true words above the default threshold, issue 20's
#      guarantees, and the summary's stored bytes: one table, a row per protocol.
#
#   [MECHANISMS="treehist bitstogram pem sfp"] [WORDS=file] bench/heavy.sh [ROWS] [REPEATS]
#
#   ROWS     devices, one report each (default 10000000); each protocol is
#            ldp.<mechanism>_protocol(2, ROWS): its string default (6 letters a-z)
#   REPEATS  timed rounds after one warm-up; medians shown (default 5)
#   WORDS    a SUBTLEX-US word file (the format of test/data/subtlex_top1000.tsv); default
#            LDP_BENCH_WORDS, then ../shared/data/subtlex_us_words.tsv next to the
#            checkout, then the bundled top 1000. Words of 1-6 letters a-z only (after
#            lower-casing), as issue 20's workload.
#
# Devices get words in proportion to the file's counts through 2^20 slots (device i holds
# the word of slot hashint4(i) mod 2^20: deterministic), so words below 1/2^20 of the
# total are left out; reports are made in SQL by the encoder (seed = device). Tables are
# kept between runs and remade only when their parameters change (LDP_BENCH_RELOAD=1
# forces it). Uses the private cluster .pg/bench (or the server named by PG* variables);
# parallel = leader + LDP_BENCH_WORKERS (1) worker.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
rows="${1:-10000000}"
repeats="${2:-5}"
workers="${LDP_BENCH_WORKERS:-1}"
for v in "$rows" "$repeats" "$workers"; do
  [[ $v =~ ^[0-9]+$ ]] || { echo "heavy.sh: expected whole numbers, got '$v'" >&2; exit 2; }
done
((rows >= 1 && repeats >= 1)) || { echo "heavy.sh: ROWS and REPEATS must be >= 1" >&2; exit 2; }
IFS=$'\t' read -r words words_said <<<"$(ldp_word_file "${WORDS:-${LDP_BENCH_WORDS:-}}")"
echo "heavy.sh: words from $words_said" >&2
command_line="MECHANISMS=\"${MECHANISMS:-treehist bitstogram pem sfp}\" LDP_BENCH_WORKERS=$workers bench/heavy.sh $rows $repeats (words: $(basename "$words"))"
mechanisms="${MECHANISMS:-treehist bitstogram pem sfp}"
declare -A cols=(
  [treehist]="level int NOT NULL, hash_index int NOT NULL, coefficient int NOT NULL, prefix_report boolean NOT NULL, item_report boolean NOT NULL"
  [pem]="group_index int NOT NULL, hash_index int NOT NULL, coefficient int NOT NULL, report boolean NOT NULL"
  [bitstogram]="coordinate int NOT NULL, hadamard_row int NOT NULL, symbol_report boolean NOT NULL, hash_index int NOT NULL, coefficient int NOT NULL, item_report boolean NOT NULL"
  [sfp]="fragment_start int NOT NULL, hash_index int NOT NULL, coefficient int NOT NULL, fragment_report boolean NOT NULL, word_hash_index int NOT NULL, word_coefficient int NOT NULL, word_report boolean NOT NULL"
)
declare -A args=(
  [treehist]="level, hash_index, coefficient, prefix_report, item_report"
  [pem]="group_index, hash_index, coefficient, report"
  [bitstogram]="coordinate, hadamard_row, symbol_report, hash_index, coefficient, item_report"
  [sfp]="fragment_start, hash_index, coefficient, fragment_report, word_hash_index, word_coefficient, word_report"
)
for m in $mechanisms; do
  [[ -n ${cols[$m]:-} ]] || { echo "heavy.sh: MECHANISMS: unknown '$m' (treehist, bitstogram, pem, sfp)" >&2; exit 2; }
done
slots=1048576
bench_setup
bench_cluster
bench_extension

words_marker="ldp heavy bench: rows=$rows words=$(basename "$words") $(wc -c <"$words")"
have="$(psql -qAtX -c "SELECT obj_description(to_regclass('heavy_bench_truth'), 'pg_class')")"
if [[ $have != "$words_marker" || ${LDP_BENCH_RELOAD:-0} == 1 ]]; then
  echo "heavy.sh: dealing words to $rows devices" >&2
  # the file's words of 1-6 letters a-z, summed after lower-casing
  awk -F'\t' 'NR > 1 { w = tolower($1); if (w ~ /^[a-z]+$/ && length(w) <= 6) c[w] += $2 } END { for (w in c) print w "\t" c[w] }' "$words" |
    psql -qX -v ON_ERROR_STOP=1 -c "
      DROP TABLE IF EXISTS heavy_bench_words, heavy_bench_slots, heavy_bench_truth;
      CREATE TABLE heavy_bench_words (word text NOT NULL, count bigint NOT NULL);
      COPY heavy_bench_words FROM STDIN;
      CREATE TABLE heavy_bench_slots AS
      WITH c AS (SELECT word, sum(count) OVER (ORDER BY count DESC, word) AS cum, count FROM heavy_bench_words),
           t AS (SELECT sum(count) AS total FROM heavy_bench_words),
           r AS (SELECT c.word, ceil((c.cum - c.count) * $slots::numeric / t.total - 0.5)::int AS lo,
                        ceil(c.cum * $slots::numeric / t.total - 0.5)::int AS hi FROM c, t)
      SELECT s AS slot, r.word FROM r, generate_series(r.lo, r.hi - 1) s;
      ALTER TABLE heavy_bench_slots ADD PRIMARY KEY (slot);
      CREATE TABLE heavy_bench_truth AS SELECT w.word, count(*) AS n FROM generate_series(1, $rows) i
        JOIN heavy_bench_slots w ON w.slot = hashint4(i) & ($slots - 1) GROUP BY w.word;
      COMMENT ON TABLE heavy_bench_truth IS '$words_marker';"
fi
for m in $mechanisms; do
  t="heavy_bench_$m"
  marker="$words_marker mechanism=$m"
  have="$(psql -qAtX -c "SELECT obj_description(to_regclass('$t'), 'pg_class')")"
  if [[ $have != "$marker" || ${LDP_BENCH_RELOAD:-0} == 1 ]]; then
    echo "heavy.sh: making $t ($rows reports)" >&2
    psql -qX -v ON_ERROR_STOP=1 <<SQL
DROP TABLE IF EXISTS $t;
CREATE TABLE $t (${cols[$m]}, v int4 NOT NULL);
INSERT INTO $t
SELECT (ldp.${m}_encode(d.word, ldp.${m}_protocol(2, $rows), d.i)).*, d.i
FROM (SELECT i, w.word FROM generate_series(1, $rows) i JOIN heavy_bench_slots w ON w.slot = hashint4(i) & ($slots - 1)) d;
VACUUM (FREEZE, ANALYZE) $t;
COMMENT ON TABLE $t IS '$marker';
SQL
  else
    echo "heavy.sh: $t kept from an earlier run" >&2
  fi
  [[ "$(psql -qAtX -c "SELECT count(*) FROM $t")" == "$rows" ]] ||
    { echo "heavy.sh: $t does not hold $rows reports (LDP_BENCH_RELOAD=1 remakes it)" >&2; exit 1; }
done

serial="SET max_parallel_workers_per_gather = 0;"
parallel="SET max_parallel_workers_per_gather = $workers; SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0;"
agg() { echo "ldp.${1}_agg(${args[$1]}, ldp.${1}_protocol(2, $rows))"; }
queries=()
for m in $mechanisms; do
  queries+=("SELECT sum(v) FROM heavy_bench_$m" "SELECT ldp.report_count($(agg "$m")) FROM heavy_bench_$m")
done
mapfile -t ts < <(time_queries "$serial" "${queries[@]}")
mapfile -t tp < <(time_queries "$parallel" "${queries[@]}")

psql -qX -v ON_ERROR_STOP=1 -c "DROP TABLE IF EXISTS heavy_bench_summaries;
  CREATE TABLE heavy_bench_summaries (m text PRIMARY KEY, s ldp.heavy_summary);"
dq=()
for m in $mechanisms; do
  psql -qX -v ON_ERROR_STOP=1 -c "INSERT INTO heavy_bench_summaries SELECT '$m', $(agg "$m") FROM heavy_bench_$m"
  dq+=("SELECT count(*) FROM heavy_bench_summaries x, ldp.heavy_hitters(x.s) WHERE x.m = '$m'")
done
mapfile -t td < <(time_queries "$serial" "${dq[@]}")

# Issue 20's checks per mechanism: every word with true count >= τ + 3σ_P returned, σ_P
# the largest standard error the mechanism prunes or decides with (treehist: c(ε/2)·
# sqrt(π·n·D/2); pem: c(ε)·sqrt(g·n); sfp: c(ε/2)·sqrt(P·n); bitstogram: σ_B = c(ε/2)·
# sqrt(D·n), the same formula as sfp's, in the ELSE branch); no returned word with true
# count <= τ - 3·(its std_error); the returned intervals that miss the truth.
check() {
  psql -qAtX -F' ' -c "
  WITH p AS (SELECT s, ldp.heavy_threshold(s) AS tau, ldp.report_count(s)::float8 AS n,
                    substring(ldp.protocol(s)::text FROM 'levels=([0-9]+)')::float8 AS d, ldp.epsilon(s) AS eps
             FROM heavy_bench_summaries WHERE m = '$1'),
       q AS (SELECT p.*, CASE '$1' WHEN 'treehist' THEN 1 / tanh(eps / 4) * sqrt(pi() * n * d / 2)
                                   WHEN 'pem' THEN 1 / tanh(eps / 2) * sqrt(d * n)
                                   ELSE 1 / tanh(eps / 4) * sqrt(d * n) END AS sigma_p FROM p),
       h AS (SELECT h.*, coalesce(t.n, 0) AS truth FROM q, ldp.heavy_hitters(q.s) h
             LEFT JOIN heavy_bench_truth t ON t.word = h.item),
       t AS (SELECT word, t.n FROM heavy_bench_truth t, q WHERE t.n >= q.tau)
  SELECT (SELECT pg_column_size(s) FROM q), (SELECT round(tau) FROM q), (SELECT round((tau / sigma_p)::numeric, 2) FROM q),
         (SELECT count(*) FROM t), (SELECT count(*) FROM h), (SELECT count(*) FROM h JOIN t ON t.word = h.item),
         (SELECT count(*) FROM heavy_bench_truth t, q WHERE t.n >= q.tau + 3 * q.sigma_p
            AND t.word NOT IN (SELECT item FROM h)),
         (SELECT count(*) FROM h, q WHERE h.truth <= q.tau - 3 * h.std_error * q.n),
         (SELECT count(*) FROM h, q WHERE h.truth / q.n < h.ci_lower OR h.truth / q.n > h.ci_upper)"
}

echo
echo "Command: \`$command_line\`"
echo
echo "Protocols: ldp.<mechanism>_protocol(2, $rows) =";
for m in $mechanisms; do echo "- $(psql -qAtX -c "SELECT ldp.${m}_protocol(2, $rows)")"; done
echo
echo "Median of $repeats interleaved rounds; parallel = leader + $workers worker(s); $(date -u +%Y-%m-%d);"
echo "$(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); PostgreSQL $(psql -qAtX -c 'SHOW server_version')."
echo "Decode: heavy_hitters(s) of the stored summary, serial. Recall and precision against the devices' words"
echo "with true count >= τ (the default); σ_P: the largest standard error the mechanism prunes or decides with."
echo
echo "| protocol | τ / σ_P | true above τ | returned | recall | precision | decode ms | summary bytes | agg / sum(v) serial | agg / sum(v) parallel | missed ≥ τ+3σ_P | returned ≤ τ−3se | intervals missing |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
i=0
fail=0
for m in $mechanisms; do
  read -r stored tau z truth found hits missed_sure false_sure misses <<<"$(check "$m")"
  awk -v m="$m" -v z="$z" -v t="$truth" -v f="$found" -v h="$hits" -v d="${td[$i]}" -v b="$stored" \
      -v s0="${ts[$((2 * i))]}" -v s1="${ts[$((2 * i + 1))]}" -v p0="${tp[$((2 * i))]}" -v p1="${tp[$((2 * i + 1))]}" \
      -v ms="$missed_sure" -v fs="$false_sure" -v mi="$misses" \
    'BEGIN {printf "| %s | %.2f | %d | %d | %.2f | %.2f | %.0f | %d | %.2f | %.2f | %d | %d | %d of %d |\n",
            m, z, t, f, (t > 0 ? h / t : 0), (f > 0 ? h / f : 0), d, b, s1 / s0, p1 / p0, ms, fs, mi, f}'
  [[ $missed_sure == 0 && $false_sure == 0 ]] || fail=1
  i=$((i + 1))
done
echo
i=0
for m in $mechanisms; do
  echo "sum(v) of heavy_bench_$m: ${ts[$((2 * i))]} ms serial, ${tp[$((2 * i))]} ms parallel; $m's aggregate: ${ts[$((2 * i + 1))]} / ${tp[$((2 * i + 1))]} ms."
  i=$((i + 1))
done
((fail == 0)) || { echo "heavy.sh: issue 20's guarantees fail" >&2; exit 1; }
