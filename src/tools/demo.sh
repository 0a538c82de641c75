#!/usr/bin/env bash
# The ldp demo: installs what the build needs, builds the extension and installs it
# into a private copy of PostgreSQL 15, builds the report loader, starts a private
# cluster from that copy in .pg/demo (or uses the server named by PGHOST/PGPORT/PGDATABASE,
# then installing into the system's PostgreSQL), loads 1,000,000 simulated devices'
# reports for each of four mechanisms and decodes them with the ldp aggregates, next to
# the true values; then 1,000,000 devices report one word each (SUBTLEX-US: the file
# LDP_DEMO_WORDS names, else ../shared/data/subtlex_us_words.tsv beside the checkout,
# else the bundled top 1000) with a sketch, and the top 20 of a dictionary is estimated
# next to the truth; then 1,000,000 devices report one word each with TreeHist and the
# heavy hitters are found without any dictionary, next to the truth; then 1,000,000
# devices report a latency with HaarHRR and its p50, p90 and p99 are estimated with their
# intervals, next to the truth. The cluster keeps running afterwards.
#
#   src/tools/demo.sh          run the demo
#   src/tools/demo.sh stop     stop the demo cluster; remove what it put under /tmp
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
# shellcheck source-path=SCRIPTDIR source=pgenv.sh
source "$HERE/pgenv.sh"
ROOT=$(ldp_root)
DEMO_DIR=$ROOT/.pg/demo
BUILD=$ROOT/build
LOGS=$BUILD/demo-logs
PG_CONFIG=$LDP_PG_BIN/pg_config
USERS=${LDP_DEMO_USERS:-1000000}

usage() {
  sed -n '2,17p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

case ${1:-} in
  "") ;;
  stop)
    if [[ -f $(ldp_cluster_dir "$DEMO_DIR")/postmaster.pid ]]; then
      ldp_cluster_stop "$DEMO_DIR" --force
    else
      echo "demo: no demo cluster is running in $DEMO_DIR"
    fi
    # what the demo put under ${TMPDIR:-/tmp}: the copy of PostgreSQL it ran from, and
    # its data directory when the postgres user cannot reach .pg/demo
    rm -rf "$(ldp_scratch_dir demo)"
    [[ $(ldp_cluster_dir "$DEMO_DIR") == "$DEMO_DIR" ]] || rm -rf "$(ldp_cluster_dir "$DEMO_DIR")"
    exit 0
    ;;
  -h | --help) usage; exit 0 ;;
  *) echo "demo: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
esac

step() { printf '\n==> %s\n' "$*"; }
# progress_line LABEL DONE TOTAL: a one-line bar, redrawn in place on a terminal
progress_line() {
  [[ -t 1 ]] || return 0
  local width=30 filled=$(( $2 * 30 / $3 ))
  printf '\r%s [%-*s] %ss' "$1" "$width" "$(printf '%*s' "$filled" '' | tr ' ' '#')" "$2"
}

# Runs a command quietly with its output in $LOGS/<name>.log; shows the end of the log
# if it fails.
quietly() {
  local name=$1; shift
  mkdir -p "$LOGS"
  if ! "$@" >"$LOGS/$name.log" 2>&1; then
    tail -n 40 "$LOGS/$name.log" >&2
    echo "demo: '$*' failed (full log: $LOGS/$name.log)" >&2
    return 1
  fi
}

# On failure, stop a cluster this run started and remove the copy of PostgreSQL it ran
# from (the user's own server is left alone).
on_exit() {
  local rc=$?
  if ((rc != 0)); then
    echo "demo: failed (exit status $rc)" >&2
    ldp_cluster_stop "$DEMO_DIR" || true
    ldp_scratch_cleanup
  fi
}
trap on_exit EXIT

JOBS=$(nproc 2>/dev/null || echo 2)

step "checking the Debian packages"
ldp_install_deps

step "building and installing the extension"
quietly make-build make -C "$ROOT" PG_CONFIG="$PG_CONFIG" -j"$JOBS"
# PG* naming the running demo cluster itself (as the closing note suggests) is no server
# of the user's: it is restarted from the new build like any demo cluster
demo_port=$(ldp_cluster_port "$DEMO_DIR" 2>/dev/null || true)
if [[ -n $demo_port && ${PGPORT:-} == "$demo_port" && ${PGHOST:-127.0.0.1} == 127.0.0.1 ]]; then
  unset PGHOST PGPORT PGUSER PGDATABASE
fi
if ldp_user_server; then
  # the user's server loads the extension from the system's installation
  if [[ -w $("$PG_CONFIG" --pkglibdir) && -w $("$PG_CONFIG" --sharedir)/extension ]]; then
    quietly make-install make -C "$ROOT" PG_CONFIG="$PG_CONFIG" install
  else
    quietly make-install sudo make -C "$ROOT" PG_CONFIG="$PG_CONFIG" install
  fi
  echo "installed ldp into $("$PG_CONFIG" --pkglibdir)"
else
  # The demo cluster runs from a private copy of PostgreSQL 15 with this build installed
  # into it (src/tools/pgenv.sh: ldp_private_pg), in a scratch directory under
  # ${TMPDIR:-/tmp} that the postgres user can reach wherever the checkout is; the
  # system's installation is not written. A demo cluster still running from an earlier
  # run is stopped first, and started again below from the new copy.
  ldp_cluster_stop "$DEMO_DIR" --force >/dev/null 2>&1 || true
  ldp_scratch_make demo
  LDP_PG_BIN=$(ldp_private_pg "$(ldp_scratch_dir demo)/prefix" "$ROOT" 2>"$LOGS/make-install.log") ||
    { tail -n 40 "$LOGS/make-install.log" >&2; exit 1; }
  echo "installed ldp into a private copy of PostgreSQL 15 in $(ldp_scratch_dir demo)/prefix"
fi

step "building the report loader (cmake, $BUILD)"
quietly cmake-configure cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release
quietly cmake-build cmake --build "$BUILD" --target ldp_load -j "$JOBS"
LOADER=$BUILD/ldp_load

step "starting PostgreSQL"
ldp_cluster_start "$DEMO_DIR"
psql() { command psql -X -q -v ON_ERROR_STOP=1 "$@"; }
psql -c 'SET client_min_messages = warning' -c 'CREATE EXTENSION IF NOT EXISTS ldp' -c 'ALTER EXTENSION ldp UPDATE'
echo "ldp $(psql -At -c "SELECT extversion FROM pg_extension WHERE extname = 'ldp'") is ready in database ${PGDATABASE:-} on ${PGHOST:-local}:${PGPORT:-5432}"

# ---------------------------------------------------------------------------
# Load: one table of reports per mechanism. Each row is (user_id, round, report).

step "simulating $USERS devices per mechanism and loading their reports"
declare -A TRUTH PARAMS AGG
load() {  # name table truth-key agg-sql params-text loader-args...
  local name=$1 table=$2 key=$3 agg=$4 params=$5; shift 5
  local out
  out=$("$LOADER" --table "$table" --truncate --users "$USERS" "$@")
  TRUTH[$name]=$(awk -F= -v k="$key" '$1 == k { print $2 }' <<<"$out")
  [[ -n ${TRUTH[$name]} ]] || { echo "demo: ldp_load printed no $key" >&2; return 1; }
  AGG[$name]="SELECT ldp.estimate(s), ldp.std_error(s), ldp.ci_lower(s, 0.95), ldp.ci_upper(s, 0.95), ldp.report_count(s) FROM (SELECT $agg AS s FROM $table) q"
  PARAMS[$name]=$params
}
MECHS=(rr onebit laplace piecewise)
# randomized response: does the device have the feature? 30% do.
load rr demo_rr true_proportion "ldp.rr_agg(report, 1.0)" "eps=1" \
  --mechanism rr --epsilon 1 --distribution bernoulli:0.3 --seed 1
# 1BitMean: seconds of use per day, uniform over [0, 86400], output perturbation 0.2
load onebit demo_onebit true_mean "ldp.onebit_mean_agg(report, 1.0, 86400, 0.2)" \
  "eps=1 m=86400 gamma=0.2" \
  --mechanism onebit --epsilon 1 --max-value 86400 --gamma 0.2 \
  --distribution uniform:0:86400 --seed 2
# Laplace and piecewise on the same population (same seed): values in [0, 100]
load laplace demo_laplace true_mean "ldp.laplace_mean_agg(report, 2.0, 100)" "eps=2 m=100" \
  --mechanism laplace --epsilon 2 --max-value 100 --distribution uniform:20:60 --seed 3
load piecewise demo_piecewise true_mean "ldp.piecewise_mean_agg(report, 2.0, 100)" \
  "eps=2 m=100" \
  --mechanism piecewise --epsilon 2 --max-value 100 --distribution uniform:20:60 --seed 3

# ---------------------------------------------------------------------------
# Decode

step "decoding the reports with the ldp aggregates"
fmt() {  # value decimals
  LC_ALL=C printf "%.${2}f" "$1"
}
line() { printf '%-10s  %-22s  %12s  %12s  %-27s  %9s  %s\n' "$@"; }
line mechanism parameters "true value" estimate "95% confidence interval" n "covers truth"
line ---------- ---------------------- ------------ ------------ --------------------------- --------- ------------
for m in "${MECHS[@]}"; do
  IFS='|' read -r est se lo hi n < <(psql -At -F '|' -c "${AGG[$m]}")
  : "$se"
  case $m in
    rr) d=4 ;;
    onebit) d=1 ;;
    *) d=3 ;;
  esac
  covers=$(awk -v t="${TRUTH[$m]}" -v lo="$lo" -v hi="$hi" 'BEGIN { print (t >= lo && t <= hi) ? "yes" : "no" }')
  line "$m" "${PARAMS[$m]}" "$(fmt "${TRUTH[$m]}" $d)" "$(fmt "$est" $d)" \
    "[$(fmt "$lo" $d), $(fmt "$hi" $d)]" "$n" "$covers"
done
cat <<EOF

rr estimates a proportion; the others estimate a mean (onebit: seconds per day out of
86400). Each report is one row of demo_<mechanism>; the query behind a row is, e.g.
  ${AGG[rr]};
A 95% interval misses the truth about one time in twenty.
EOF

# ---------------------------------------------------------------------------
# Words: a sketch over strings nobody lists in advance. Every device holds one word,
# drawn from the SUBTLEX-US word counts, and reports it with the Hadamard Count Mean
# Sketch (HCMS). The server keeps only the sketch's counters and estimates any
# candidate word afterwards: here a dictionary of the file's 1000 most frequent words
# plus 8 words that are not in SUBTLEX-US at all.
#
# Parameters: epsilon 4, 256 rows of 1024 columns. With n = 1M reports the standard
# error of a frequency is c(4)/sqrt(n) = 0.104 percentage points whatever the rows and
# columns (each report is one +-1 bit); rows and columns only set the bias that
# colliding words add, RMS about sqrt(sum f(y)^2 / (hashes * (width - 1))) =
# sqrt(0.009 / 261888) = 0.019 points for SUBTLEX-US (0.037 with 64 rows), well below
# the standard error. The summary is 2 MiB (256 x 1024 int64 counters) and each
# candidate costs 256 hashes.

# The word counts: LDP_DEMO_WORDS, else ../shared/data/subtlex_us_words.tsv beside the
# checkout, else the bundled top 1000 (src/tools/pgenv.sh: ldp_word_file). Only the
# loader and psql's \copy ... FROM STDIN read it, on the client side.
IFS=$'\t' read -r WORDS words_which < <(ldp_word_file "${LDP_DEMO_WORDS:-}")
[[ -n $WORDS ]] || exit 1
words_note="$words_which, $(awk -F'\t' '$2 ~ /^[0-9]+$/' "$WORDS" | wc -l) words (LDP_DEMO_WORDS=FILE names another word<TAB>count file)"
ABSENT=(emoji selfie hashtag bitcoin blockchain smartphone postgres covfefe)
W_EPS=4 W_HASHES=256 W_WIDTH=1024
W_AGG="ldp.hcms_agg(hash_index, coefficient, report, $W_EPS, $W_HASHES, $W_WIDTH)"
step "words: $USERS devices each report one word with HCMS (eps=$W_EPS, $W_HASHES rows x $W_WIDTH columns)"
echo "word counts: $words_note"
awk -v n="$USERS" 'BEGIN { c = (exp(4) + 1) / (exp(4) - 1)
  printf "standard error of a frequency: c(4)/sqrt(n) = %.3f points at n = %d (any sketch size);\n", 100 * c / sqrt(n), n
  print "256 x 1024 counters keep the bias of colliding words near 0.02 points (RMS)" }'
mkdir -p "$LOGS"
"$LOADER" --mechanism hcms --epsilon "$W_EPS" --hashes "$W_HASHES" --width "$W_WIDTH" \
  --words "$WORDS" --users "$USERS" --seed 6 --table demo_words --truncate --top 3000 \
  >"$LOGS/words-load.txt"
# the truth: the loader prints the 3000 words that most devices hold, with their counts
psql -c 'SET client_min_messages = warning' \
  -c 'DROP TABLE IF EXISTS demo_words_truth, demo_words_dictionary' \
  -c 'CREATE TABLE demo_words_truth (word text PRIMARY KEY, true_count bigint NOT NULL)' \
  -c 'CREATE TABLE demo_words_dictionary (word text PRIMARY KEY, absent boolean NOT NULL)'
awk -F= '/^item\.[0-9]+\.word=/ { split($1, a, "."); w[a[2]] = substr($0, length($1) + 2) }
         /^item\.[0-9]+\.true_count=/ { split($1, a, "."); x = w[a[2]]; gsub(/\\/, "\\\\", x)
                                        print x "\t" $2 }' \
  "$LOGS/words-load.txt" | psql -c '\copy demo_words_truth FROM STDIN'
# the dictionary: the file's 1000 most frequent words, then those of ABSENT it lacks
{
  awk -F'\t' '$2 ~ /^[0-9]+$/' "$WORDS" | sort -t$'\t' -k2,2nr -s |
    awk -F'\t' 'NR <= 1000 { print $1 "\tf" }'
  printf '%s\n' "${ABSENT[@]}" |
    awk -F'\t' 'NR == FNR { listed[$1]; next } !($1 in listed) { print $1 "\tt" }' "$WORDS" -
} | awk -F'\t' '!seen[$1]++ { gsub(/\\/, "\\\\"); print }' |
  psql -c '\copy demo_words_dictionary FROM STDIN'

W_QUERY="SELECT f.* FROM (SELECT $W_AGG AS s FROM demo_words) q,
       ldp.frequencies(q.s, (SELECT array_agg(word) FROM demo_words_dictionary)) f"
# one query: the estimates of the dictionary, ranked, joined with the truth
psql -c 'SET client_min_messages = warning' -c 'DROP TABLE IF EXISTS demo_words_estimates' \
  -c "CREATE TABLE demo_words_estimates AS
      SELECT row_number() OVER (ORDER BY e.frequency DESC) AS rank, e.*, d.absent,
             CASE WHEN d.absent THEN 0 ELSE t.true_count::float8 / $USERS END AS true_frequency,
             t.true_rank
      FROM ($W_QUERY) e
      JOIN demo_words_dictionary d ON d.word = e.item
      LEFT JOIN (SELECT word, true_count, rank() OVER (ORDER BY true_count DESC) AS true_rank
                 FROM demo_words_truth) t ON t.word = e.item"
wline() { printf '%4s  %-8s  %8s  %-16s  %9s  %6s  %s\n' "$@"; }
# word_table QUERY: a table of words, QUERY's rows being (rank, word, estimate, interval's
# lower and upper bounds, true rank, true %, whether the interval covers the truth)
word_table() {
  local rank word est lo hi trank tpct covers
  wline rank word estimate "95% interval" "true rank" "true %" "covers truth"
  wline ---- -------- -------- ---------------- --------- ------ ------------
  while IFS=$'\t' read -r rank word est lo hi trank tpct covers; do
    wline "$rank" "$word" "$est" "[$lo, $hi]" "$trank" "$tpct" "$covers"
  done < <(psql -At -F $'\t' -c "$1")
}
echo
echo "the 20 dictionary words with the highest estimates, next to the truth (percent of devices):"
word_table "
  SELECT rank, item, to_char(100 * frequency, 'FM990.000'), to_char(100 * ci_lower, 'FM990.000'),
         to_char(100 * ci_upper, 'FM990.000'), coalesce(true_rank::text, '>3000'),
         coalesce(to_char(100 * true_frequency, 'FM990.000'), '?'),
         CASE WHEN true_frequency BETWEEN ci_lower AND ci_upper THEN 'yes'
              WHEN true_frequency IS NULL THEN '?' ELSE 'no' END
  FROM demo_words_estimates ORDER BY rank LIMIT 20"
IFS=$'\t' read -r top20 n_absent absent_words max_absent absent_cover n_dict covered < <(
  psql -At -F $'\t' -c "
  SELECT count(*) FILTER (WHERE rank <= 20 AND true_rank <= 20), count(*) FILTER (WHERE absent),
         coalesce(string_agg(item, ' ' ORDER BY item) FILTER (WHERE absent), '-'),
         coalesce(to_char(100 * max(frequency) FILTER (WHERE absent), 'FM990.000'), '-'),
         count(*) FILTER (WHERE absent AND ci_lower <= 0 AND 0 <= ci_upper),
         count(true_frequency),
         count(*) FILTER (WHERE true_frequency BETWEEN ci_lower AND ci_upper)
  FROM demo_words_estimates")
cat <<EOF

$top20 of the true top 20 are in this top 20. Neighbouring words swap ranks where their
frequencies differ by less than about two standard errors (0.2 points): 1M one-bit
reports cannot tell them apart. Nobody holds the $n_absent dictionary words that are not in
the word file, $absent_words:
the highest of their estimates is $max_absent %, and $absent_cover of their $n_absent intervals contain 0.
Over the whole dictionary, $covered of $n_dict intervals contain the true frequency (about
95% expected; the intervals leave out the small bias of hash collisions). The reports
are the rows of demo_words (hash_index, coefficient, report); the estimates, in
demo_words_estimates, come from
  $W_QUERY;
EOF

# ---------------------------------------------------------------------------
# Heavy hitters: the same kind of word population, but nobody gives a dictionary. Every
# device reports its word once with TreeHist (docs/algorithms/heavy-hitters.md#treehist) under
# a protocol fixed in advance, ldp.treehist_protocol(2, 1M): words of 1 to 6 letters a-z, cut
# into 3 levels of 2 letters, each level's oracle a count sketch of 128 rows x 1024 columns.
# The server walks the prefix tree and returns the words whose estimated count is above tau =
# 15 sqrt(n) (1.5% of the devices at n = 1M) with their 95% intervals. The loader lower-cases
# the words ("I" -> "i"), skips those the protocol cannot encode (longer than 6 letters,
# apostrophes, ...; it says how many) and writes the true counts to a file, so that the output
# can be set beside the truth.

H_EPS=2
H_PROTOCOL="ldp.treehist_protocol($H_EPS, $USERS)"
H_AGG="ldp.treehist_agg(level, hash_index, coefficient, prefix_report, item_report, $H_PROTOCOL)"
step "heavy hitters: $USERS devices each report one word with TreeHist (eps=$H_EPS), no candidate list"
echo "word counts: $words_note"
"$LOADER" --mechanism treehist --epsilon "$H_EPS" --words "$WORDS" --lowercase --users "$USERS" \
  --seed 8 --table demo_heavy --truncate --truth "$LOGS/heavy-truth.tsv" \
  >"$LOGS/heavy-load.txt" 2>"$LOGS/heavy-load.err" ||
  { cat "$LOGS/heavy-load.err" >&2; exit 1; }
hkey() { awk -F= -v k="$1" '$1 == k { print substr($0, length(k) + 2) }' "$LOGS/heavy-load.txt"; }
awk -v s="$(hkey skipped_share)" -v k="$(hkey words_skipped)" -v u="$(hkey words_used)" 'BEGIN {
  printf "the protocol encodes %d of the (lower-cased) words; %d that it cannot encode (more than 6\n", u, k
  printf "letters, or a character outside a-z) are skipped: they hold %.1f%% of the file'"'"'s counts\n", 100 * s }'
psql -c 'SET client_min_messages = warning' -c 'DROP TABLE IF EXISTS demo_heavy_truth, demo_heavy_hitters' \
  -c 'CREATE TABLE demo_heavy_truth (item text PRIMARY KEY, true_count bigint NOT NULL)'
tail -n +2 "$LOGS/heavy-truth.tsv" | awk '{ gsub(/\\/, "\\\\"); print }' |
  psql -c '\copy demo_heavy_truth FROM STDIN'
H_QUERY="SELECT h.* FROM ldp.heavy_hitters((SELECT $H_AGG FROM demo_heavy)) h"
h_start=$(date +%s.%N)
psql -c 'SET client_min_messages = warning' \
  -c "CREATE TABLE demo_heavy_hitters AS
      SELECT row_number() OVER (ORDER BY h.count DESC, h.item) AS rank, h.*,
             coalesce(t.true_count, 0)::float8 / $USERS AS true_frequency, t.true_rank
      FROM ($H_QUERY) h
      LEFT JOIN (SELECT item, true_count, rank() OVER (ORDER BY true_count DESC) AS true_rank
                 FROM demo_heavy_truth) t USING (item)"
h_seconds=$(awk -v a="$h_start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
tau=$(psql -At -c "SELECT round(ldp.heavy_threshold((SELECT $H_AGG FROM demo_heavy)))")
echo
echo "the words TreeHist returns (percent of devices), beside the truth:"
word_table "
  SELECT rank, item, to_char(100 * frequency, 'FM990.000'), to_char(100 * ci_lower, 'FM990.000'),
         to_char(100 * ci_upper, 'FM990.000'), coalesce(true_rank::text, '-'),
         to_char(100 * true_frequency, 'FM990.000'),
         CASE WHEN true_frequency BETWEEN ci_lower AND ci_upper THEN 'yes' ELSE 'no' END
  FROM demo_heavy_hitters ORDER BY rank"
IFS=$'\t' read -r returned true_heavy found missed < <(psql -At -F $'\t' -c "
  SELECT (SELECT count(*) FROM demo_heavy_hitters),
         count(*), count(h.item),
         coalesce(string_agg(t.item || ' (' || to_char(100.0 * t.true_count / $USERS, 'FM990.00') || '%)', ', '
                             ORDER BY t.true_count DESC) FILTER (WHERE h.item IS NULL), 'none')
  FROM demo_heavy_truth t LEFT JOIN demo_heavy_hitters h USING (item)
  WHERE t.true_count >= $tau")
IFS=$'\t' read -r false_pos h_se covered < <(psql -At -F $'\t' -c "
  SELECT count(*) FILTER (WHERE true_frequency * $USERS < $tau), to_char(100 * max(std_error), 'FM990.00'),
         count(*) FILTER (WHERE true_frequency BETWEEN ci_lower AND ci_upper)
  FROM demo_heavy_hitters")
cat <<EOF

TreeHist found these $returned words from the reports alone, in $h_seconds s (aggregate and decode).
$true_heavy words are truly held by at least tau = 15 sqrt(n) = $tau devices; $found of them are in
the list (missed: $missed), and $false_pos of the $returned returned are below tau: a word near tau
is found or missed by chance, as each estimate has a standard error of $h_se points (each
report spends eps/2 = 1 on the word and eps/2 on one prefix of it; the sketch above had
eps = 4 for the word alone). $covered of the $returned intervals contain the true frequency: a word
near tau is returned because its estimate came out high, so its interval tends to sit
high, and the intervals leave out the bias of hash collisions. The truth is demo_heavy_truth (the loader's --truth
file); the heavy hitters, in demo_heavy_hitters, come from
  $H_QUERY;
EOF

# ---------------------------------------------------------------------------
# Latencies: every device holds one page-load time in ms (lognormal, median 200 ms) and
# reports it once with HaarHRR (docs/algorithms/ranges.md#haarhrr) over the buckets
# [0, 2^16) ms: a level of the value's Haar tree and one Hadamard-randomized bit of it. The
# server answers any range, CDF or quantile with its standard error; a quantile's interval
# is every x whose CDF the reports do not tell apart from phi.

L_PROTOCOL="ldp.range_protocol(1, 16)"
step "latencies: $USERS devices each report a page-load time in ms with HaarHRR (eps=1, 2^16 buckets)"
"$LOADER" --mechanism haar --epsilon 1 --domain-bits 16 --distribution lognormal:5.3:0.8 \
  --users "$USERS" --seed 12 --table demo_latency --truncate --truth "$LOGS/latency-truth.tsv" \
  >"$LOGS/latency-load.txt" 2>"$LOGS/latency-load.err" ||
  { cat "$LOGS/latency-load.err" >&2; exit 1; }
lkey() { awk -F= -v k="$1" '$1 == k { print substr($0, length(k) + 2) }' "$LOGS/latency-load.txt"; }
psql -c 'SET client_min_messages = warning' -c 'DROP TABLE IF EXISTS demo_latency_summary, demo_latency_truth' \
  -c 'CREATE TABLE demo_latency_truth (lower float8, upper float8, users bigint)' \
  -c "\\copy demo_latency_truth FROM '$LOGS/latency-truth.tsv' (FORMAT csv, DELIMITER E'\\t', HEADER)" \
  -c "CREATE TABLE demo_latency_summary AS
      SELECT ldp.range_agg(level, hadamard_row, report, $L_PROTOCOL) AS s FROM demo_latency"
l_start=$(date +%s.%N)
psql -c "SELECT q.phi, t.true_ms, q.value AS estimate_ms, q.ci_lower, q.ci_upper,
                CASE WHEN t.true_ms BETWEEN q.ci_lower AND q.ci_upper THEN 'yes' ELSE 'no' END AS covered
         FROM demo_latency_summary, ldp.quantiles(s, ARRAY[0.5, 0.9, 0.99]) q
         JOIN (VALUES (0.5, $(lkey true_p50)), (0.9, $(lkey true_p90)), (0.99, $(lkey true_p99))) t (phi, true_ms)
           ON t.phi = q.phi"
l_seconds=$(awk -v a="$l_start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
psql -c "SELECT to_char(100 * frequency, 'FM990.00') AS \"% over 1 s\", to_char(100 * ci_lower, 'FM990.00') AS lo,
                to_char(100 * ci_upper, 'FM990.00') AS hi, (SELECT to_char(100.0 * sum(users) FILTER (WHERE lower >= 1000) / sum(users), 'FM990.00')
                                     FROM demo_latency_truth) AS truth
         FROM demo_latency_summary, ldp.range_frequency(s, 1000, 65535)"
cat <<EOF
The quantiles of $USERS reports took $l_seconds s from the stored summary (demo_latency_summary).
Their intervals hold every bucket x whose estimated CDF, within 2.4 standard errors (a band
for the three at once), could be phi. The CDF is estimated within about +-0.01 everywhere:
a few ms at the median, hundreds of ms in the tail, where few devices are; at p99 the
reports cannot tell a CDF of 0.99 from one of 1, so the interval runs to the domain's end
(a p99 that tight needs more devices or a larger eps).
EOF

# ---------------------------------------------------------------------------
# Epochs: the 1BitMean reports spread over the last 7 days, a daily collection, and
# pg_cron closing its epochs (when the server preloads pg_cron, as the demo cluster does).

step "a daily collection of the 1BitMean reports, closed by pg_cron"
psql <<'SQL'
SET client_min_messages = warning;
\o /dev/null
SELECT ldp.drop_collection(name) FROM ldp.collections WHERE name = 'demo_daily';  -- its view depends on the table
\o
DROP TABLE IF EXISTS demo_daily;
CREATE TABLE demo_daily AS
SELECT date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
       - (1 + user_id % 7) * interval '1 day' + (user_id % 86400) * interval '1 second' AS at, report
FROM demo_onebit;
CREATE INDEX ON demo_daily (at);
\o /dev/null
SELECT ldp.create_collection('demo_daily', 'demo_daily', 'at', '1 day',
                             'ldp.onebit_mean_agg(report, 1.0, 86400, 0.2)');
\o
SQL
cron_ready=$(psql -At -c "SELECT current_setting('shared_preload_libraries') LIKE '%pg_cron%'
                                 AND current_setting('cron.database_name', true) = current_database()")
if [[ $cron_ready == t ]]; then
  psql -c 'SET client_min_messages = warning' -c 'CREATE EXTENSION IF NOT EXISTS pg_cron'
  last_run=$(psql -At -c "SELECT coalesce(max(runid), 0) FROM cron.job_run_details")
  job=$(psql -At -c "SELECT cron.schedule('ldp-demo_daily', '* * * * *', \$\$CALL ldp.close_due_epochs('demo_daily')\$\$)")
  printf 'scheduled with pg_cron (job %s, every minute): CALL ldp.close_due_epochs(%s)\n' "$job" "'demo_daily'"
  for i in $(seq 1 75); do
    n=$(psql -At -c "SELECT count(*) FROM cron.job_run_details WHERE jobid = $job AND runid > $last_run AND status = 'succeeded'")
    ((n > 0)) && break
    progress_line "waiting for pg_cron's first run" "$i" 75
    sleep 1
  done
  printf '\n'
  psql -At -c "SELECT 'pg_cron ran it at ' || start_time || ': ' || status FROM cron.job_run_details WHERE jobid = $job AND runid > $last_run ORDER BY runid LIMIT 1"
  # from now on once a day, five minutes after UTC midnight
  psql -At -c "SELECT cron.schedule('ldp-demo_daily', '5 0 * * *', \$\$CALL ldp.close_due_epochs('demo_daily')\$\$)" >/dev/null
  echo "rescheduled daily at 00:05 UTC (cron.job 'ldp-demo_daily')"
else
  echo "pg_cron is not preloaded on this server: closing the epochs by hand"
  psql -c "CALL ldp.close_due_epochs('demo_daily')"
fi
psql -c "SELECT epoch, epoch_start::date AS day, reports, round(estimate) AS seconds, round(ci_lower) AS lo,
                round(ci_upper) AS hi FROM ldp.collection_estimates('demo_daily')"

# ---------------------------------------------------------------------------
step "done"
if [[ ${_LDP_OWN_ENV:-} == 1 ]]; then
  cat <<EOF
The demo cluster keeps running in $(ldp_cluster_dir "$DEMO_DIR") on 127.0.0.1:$PGPORT.
Connect with:
  psql -h 127.0.0.1 -p $PGPORT -U postgres postgres
  (or: export PGHOST=127.0.0.1 PGPORT=$PGPORT PGUSER=postgres PGDATABASE=postgres)
and try:
  SET search_path = public, ldp;
  SELECT round(estimate(s)) AS seconds, round(ci_lower(s, 0.95)) AS lo, round(ci_upper(s, 0.95)) AS hi
  FROM (SELECT onebit_mean_agg(report, 1.0, 86400, 0.2) AS s FROM demo_onebit) q;
  SELECT * FROM collection_estimates('demo_daily');   -- closed daily by pg_cron at 00:05 UTC
  SELECT * FROM frequencies((SELECT hcms_agg(hash_index, coefficient, report, 4, 256, 1024)
                             FROM demo_words), ARRAY['love', 'hate', 'postgres']);
  SELECT * FROM heavy_hitters((SELECT treehist_agg(level, hash_index, coefficient, prefix_report,
                                                   item_report, treehist_protocol(2, $USERS))
                               FROM demo_heavy));
  SELECT * FROM quantiles((SELECT s FROM demo_latency_summary), ARRAY[0.5, 0.9, 0.99]);
Stop it with:
  $ROOT/src/tools/demo.sh stop
EOF
else
  echo "The demo tables demo_rr, demo_onebit, demo_laplace, demo_piecewise, demo_daily, demo_words*, demo_heavy* and demo_latency* are in your database (PGHOST=${PGHOST:-} PGPORT=${PGPORT:-} PGDATABASE=${PGDATABASE:-})."
fi
