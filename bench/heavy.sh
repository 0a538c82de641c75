#!/usr/bin/env bash
# Benchmarks TreeHist in SQL (issue 20), ratios measured in one run:
#
#   1. treehist_agg over ROWS reports against sum(int4) over the same rows (the int4
#      column last, so that the baseline deforms the whole row as the aggregate does),
#      serial and parallel (interleaved rounds);
#   2. heavy_hitters(s) of the stored summary (decode: every row's transform, the walk of
#      the prefix tree, the final oracle), and its recall and precision against the
#      devices' true words above the default threshold; the summary's stored bytes.
#
#   [WORDS=file] bench/heavy.sh [ROWS] [REPEATS]
#
#   ROWS     devices, one report each (default 10000000); the protocol is
#            ldp.treehist_protocol(2, ROWS): the string default (6 letters a-z, 2 per
#            level), hashes for ROWS expected users
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
command_line="LDP_BENCH_WORKERS=$workers bench/heavy.sh $rows $repeats (words: $(basename "$words"))"
protocol="ldp.treehist_protocol(2, $rows)"
slots=1048576
bench_setup
bench_cluster
bench_extension

marker="ldp heavy bench: rows=$rows words=$(basename "$words") $(wc -c <"$words")"
have="$(psql -qAtX -c "SELECT obj_description(to_regclass('heavy_bench_reports'), 'pg_class')")"
if [[ $have != "$marker" || ${LDP_BENCH_RELOAD:-0} == 1 ]]; then
  echo "heavy.sh: making heavy_bench_reports ($rows reports)" >&2
  # the file's words of 1-6 letters a-z, summed after lower-casing
  awk -F'\t' 'NR > 1 { w = tolower($1); if (w ~ /^[a-z]+$/ && length(w) <= 6) c[w] += $2 } END { for (w in c) print w "\t" c[w] }' "$words" |
    psql -qX -v ON_ERROR_STOP=1 -c "
      DROP TABLE IF EXISTS heavy_bench_words, heavy_bench_slots, heavy_bench_reports, heavy_bench_truth;
      CREATE TABLE heavy_bench_words (word text NOT NULL, count bigint NOT NULL);
      COPY heavy_bench_words FROM STDIN;
      CREATE TABLE heavy_bench_slots AS
      WITH c AS (SELECT word, sum(count) OVER (ORDER BY count DESC, word) AS cum, count FROM heavy_bench_words),
           t AS (SELECT sum(count) AS total FROM heavy_bench_words),
           r AS (SELECT c.word, ceil((c.cum - c.count) * $slots::numeric / t.total - 0.5)::int AS lo,
                        ceil(c.cum * $slots::numeric / t.total - 0.5)::int AS hi FROM c, t)
      SELECT s AS slot, r.word FROM r, generate_series(r.lo, r.hi - 1) s;
      ALTER TABLE heavy_bench_slots ADD PRIMARY KEY (slot);"
  psql -qX -v ON_ERROR_STOP=1 <<SQL
CREATE TABLE heavy_bench_reports (word text NOT NULL, level int NOT NULL, hash_index int NOT NULL,
  coefficient int NOT NULL, prefix_report boolean NOT NULL, item_report boolean NOT NULL, v int4 NOT NULL);
INSERT INTO heavy_bench_reports
SELECT d.word, (ldp.treehist_encode(d.word, $protocol, d.i)).*, d.i
FROM (SELECT i, w.word FROM generate_series(1, $rows) i JOIN heavy_bench_slots w ON w.slot = hashint4(i) & ($slots - 1)) d;
ALTER TABLE heavy_bench_reports DROP COLUMN word;
CREATE TABLE heavy_bench_truth AS SELECT w.word, count(*) AS n FROM generate_series(1, $rows) i
  JOIN heavy_bench_slots w ON w.slot = hashint4(i) & ($slots - 1) GROUP BY w.word;
VACUUM (FREEZE, ANALYZE) heavy_bench_reports;
COMMENT ON TABLE heavy_bench_reports IS '$marker';
SQL
else
  echo "heavy.sh: heavy_bench_reports kept from an earlier run" >&2
fi
[[ "$(psql -qAtX -c "SELECT count(*) FROM heavy_bench_reports")" == "$rows" ]] ||
  { echo "heavy.sh: heavy_bench_reports does not hold $rows reports (LDP_BENCH_RELOAD=1 remakes it)" >&2; exit 1; }

serial="SET max_parallel_workers_per_gather = 0;"
parallel="SET max_parallel_workers_per_gather = $workers; SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0;"
agg="ldp.treehist_agg(level, hash_index, coefficient, prefix_report, item_report, $protocol)"
queries=("SELECT sum(v) FROM heavy_bench_reports" "SELECT ldp.report_count($agg) FROM heavy_bench_reports")
mapfile -t ts < <(time_queries "$serial" "${queries[@]}")
mapfile -t tp < <(time_queries "$parallel" "${queries[@]}")

psql -qX -v ON_ERROR_STOP=1 -c "DROP TABLE IF EXISTS heavy_bench_summary;
  CREATE TABLE heavy_bench_summary AS SELECT $agg AS s FROM heavy_bench_reports;"
mapfile -t td < <(time_queries "$serial" "SELECT count(*) FROM heavy_bench_summary, ldp.heavy_hitters(s)")
# Issue 20's checks: every word with true count >= τ + 3σ_P returned (σ_P = c(ε/2)·
# sqrt(π·n·D/2)); no returned word with true count <= τ - 3·(its std_error); intervals that
# miss the truth.
read -r stored tau truth found hits missed_sure false_sure misses <<<"$(psql -qAtX -F' ' -c "
  WITH p AS (SELECT s, ldp.heavy_threshold(s) AS tau, ldp.report_count(s)::float8 AS n,
                    1 / tanh(ldp.epsilon(s) / 4) * sqrt(pi() * ldp.report_count(s) * 3 / 2) AS sigma_p
             FROM heavy_bench_summary),
       h AS (SELECT h.*, coalesce(t.n, 0) AS truth FROM p, ldp.heavy_hitters(p.s) h
             LEFT JOIN heavy_bench_truth t ON t.word = h.item),
       t AS (SELECT word, t.n FROM heavy_bench_truth t, p WHERE t.n >= p.tau)
  SELECT (SELECT pg_column_size(s) FROM p), (SELECT round(tau) FROM p),
         (SELECT count(*) FROM t), (SELECT count(*) FROM h), (SELECT count(*) FROM h JOIN t ON t.word = h.item),
         (SELECT count(*) FROM heavy_bench_truth t, p WHERE t.n >= p.tau + 3 * p.sigma_p
            AND t.word NOT IN (SELECT item FROM h)),
         (SELECT count(*) FROM h, p WHERE h.truth <= p.tau - 3 * h.std_error * p.n),
         (SELECT count(*) FROM h, p WHERE h.truth / p.n < h.ci_lower OR h.truth / p.n > h.ci_upper)")"

echo
echo "Command: \`$command_line\`"
echo
echo "Protocol \`$protocol\` = $(psql -qAtX -c "SELECT $protocol")."
echo "Median of $repeats interleaved rounds; parallel = leader + $workers worker(s); $(date -u +%Y-%m-%d);"
echo "$(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); PostgreSQL $(psql -qAtX -c 'SHOW server_version')."
echo
echo "| query | rows | serial ms | serial / sum(v) | parallel ms | parallel / sum(v) | parallel speedup |"
echo "|---|---:|---:|---:|---:|---:|---:|"
line() {  # label index
  awk -v l="$1" -v n="$rows" -v s="${ts[$2]}" -v p="${tp[$2]}" -v s0="${ts[0]}" -v p0="${tp[0]}" \
    'BEGIN {printf "| %s | %d | %.0f | %.2f | %.0f | %.2f | %.2f |\n", l, n, s, s/s0, p, p/p0, s/p}'
}
line "sum(v)" 0
line "\`treehist_agg(...)\`" 1
echo
awk -v d="${td[0]}" -v b="$stored" -v tau="$tau" -v t="$truth" -v f="$found" -v h="$hits" \
  'BEGIN {printf "heavy_hitters(s): %.0f ms (median, serial); stored summary %d bytes; default threshold %d;\n", d, b, tau;
          printf "%d true words above it, %d returned, %d of them true: recall %.2f, precision %.2f.\n",
                 t, f, h, (t > 0 ? h / t : 0), (f > 0 ? h / f : 0)}'
echo "Words with true count >= τ + 3σ_P not returned: $missed_sure; returned words with true count <= τ - 3·std_error: $false_sure;"
echo "returned intervals that miss the truth: $misses of $found."
[[ $missed_sure == 0 && $false_sure == 0 ]] || { echo "heavy.sh: issue 20's guarantees fail" >&2; exit 1; }
