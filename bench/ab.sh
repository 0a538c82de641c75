#!/usr/bin/env bash
# A/B of two builds of the extension, each in its own private cluster, timed round by
# round on the same rows (issue 12, "one summary framework": what the format-2 stored
# form, the expanded-object aggregation states and the prepared frequency(s, item) cost
# or gained). Usage:
#
#   bench/ab.sh [ROUNDS [OLD [NEW]]]        defaults: 5 6392ac3 HEAD
#
#   ROUNDS    timed rounds (after one warm-up round); medians over them are shown
#   OLD, NEW  git revisions of this repository. Each is exported (git archive) into
#             build/ab/<sha>/src and built there with PGXS against the system PostgreSQL
#             15 (a build already made there is reused), then installed with `make install
#             DESTDIR=...` into a private copy of PostgreSQL 15 (src/tools/pgenv.sh:
#             ldp_private_pg, as test/run.sh and test/fuzz.sh do: PostgreSQL finds its
#             share and lib directories next to its binaries, so a cluster started from
#             the copy loads that build's ldp.so and SQL and nothing of the system's; the
#             script checks the path a backend maps). The copies are made in the scratch
#             directory ${TMPDIR:-/tmp}/ldp-ab-<hash of the checkout's path>, which the
#             postgres user can reach from any checkout, again on every run, and removed
#             at the end. The system's PostgreSQL installation is never written.
#
# Environment: ROWS (10000000: means, GRR, Hadamard), ROWS_OUE (1000000), ROWS_OLH
# (100000), SUMMARIES (100000 stored summaries per table), LDP_AB_WORKERS (1: parallel =
# leader + 1 worker), LDP_AB_KEEP=1 (keep the two clusters and their tables for the next
# run; by default their data directories, build/ab/pg-old and pg-new, are deleted at
# the end), LDP_AB_BUILD_ONLY=1 (build, install into the copies and check them, then stop).
#
# Two clusters run side by side with the same settings (shared_buffers = 2GB, jit = off,
# ports from 57000 and 57500; sessions: work_mem = 256MB); only one is ever queried at a
# time. The report tables are made once, in OLD's cluster, by SQL encoders both versions
# have (fixed seeds), and copied row for row into NEW's (COPY ... binary): both read the
# same rows (checked). The tables of stored summaries are made in each cluster by its
# own aggregates, so each version reads the stored form it writes (OLD: the memory
# image; NEW: format 2).
#
# Timed, each query once per session:
#   mean and frequency aggregates over their report tables, serial and parallel,
#     against sum(v) over the same table;
#   over SUMMARIES stored summaries (laplace means; GRR k = 1024, 100 reports each):
#     rollup, sum(report_count(s)), sum(estimate(s)), sum(frequency(s, 0)), against
#     sum(g) over the same table;
#   hashed GROUP BY v % 1000 and v % 10000 over 1M rows (laplace, GRR), against
#     sum(v) with the same GROUP BY;
#   one stored k = 1024 summary (Hadamard of ROWS reports, OLH of ROWS_OLH; stored out
#     of line): frequency(s, i) for i in 0..1023 (one call per item) and
#     ldp.frequencies(s) (one set), serial only, against sum(v) over ab_mean.
#
# A round: OLD then NEW (NEW then OLD in even rounds), each a serial session and a
# parallel session running every query once. A query's ratio is its time over its
# baseline's in the same session, taken per round, median over the rounds.
# old ÷ new = old's ratio over new's: > 1 means NEW is faster relative to plain
# PostgreSQL. Samples: build/ab/samples.tsv. Prints the tables in Markdown.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd -P)
# shellcheck source=../src/tools/pgenv.sh
source "$here/../src/tools/pgenv.sh"
root=$(ldp_root)
rounds=${1:-5}
old_rev=${2:-6392ac3}
new_rev=${3:-HEAD}
rows=${ROWS:-10000000} rows_oue=${ROWS_OUE:-1000000} rows_olh=${ROWS_OLH:-100000}
nsum=${SUMMARIES:-100000} workers=${LDP_AB_WORKERS:-1}
for x in "$rounds" "$rows" "$rows_oue" "$rows_olh" "$nsum" "$workers"; do
  [[ $x =~ ^[0-9]+$ ]] || { echo "ab.sh: expected whole numbers, got '$x'" >&2; exit 2; }
done
((rounds >= 1 && rows >= 1 && rows_oue >= 1 && rows_olh >= 1 && nsum >= 1)) ||
  { echo "ab.sh: ROUNDS, ROWS, ROWS_OUE, ROWS_OLH and SUMMARIES must be >= 1" >&2; exit 2; }
((rows <= 2147483647)) || { echo "ab.sh: ROWS must fit in int4" >&2; exit 2; }
sys_pg_config=/usr/lib/postgresql/15/bin/pg_config
out=$root/build/ab
mkdir -p "$out"
t0=$SECONDS
say() { printf 'ab.sh: [%ds] %s\n' $((SECONDS - t0)) "$*" >&2; }
command_line="bench/ab.sh $rounds $old_rev $new_rev"
[[ -n ${ROWS:-}${ROWS_OUE:-}${ROWS_OLH:-}${SUMMARIES:-}${LDP_AB_WORKERS:-} ]] &&
  command_line="ROWS=$rows ROWS_OUE=$rows_oue ROWS_OLH=$rows_olh SUMMARIES=$nsum LDP_AB_WORKERS=$workers $command_line"

# ---------------------------------------------------------------------------
# The two installations
ldp_install_deps
declare -A sha prefix bin port cluster
export LDP_PRIVATE_CLUSTER=1
unset PGHOST PGPORT PGUSER PGDATABASE _LDP_OWN_ENV
cluster[old]=$out/pg-old
cluster[new]=$out/pg-new
# shellcheck disable=SC2317  # called by the EXIT trap
cleanup() {
  local v d
  for v in old new; do
    d=$(ldp_cluster_dir "${cluster[$v]}")
    ldp_cluster_stop "${cluster[$v]}" --force >/dev/null 2>&1 || true
    if [[ ${LDP_AB_KEEP:-0} != 1 ]]; then rm -rf "$d" "${cluster[$v]}"; fi
  done
  ldp_scratch_cleanup
}
# Clusters a killed run left running from the scratch directory: stopped (the system's
# pg_ctl can) before that directory is made again.
for v in old new; do
  ldp_cluster_stop "${cluster[$v]}" --force >/dev/null 2>&1 || true
done
trap cleanup EXIT
ldp_scratch_make ab
install_rev() {  # old|new revision
  local v=$1 s dir log
  s=$(git -C "$root" rev-parse --verify "$2^{commit}") || { echo "ab.sh: no revision $2" >&2; exit 2; }
  sha[$v]=$s
  dir=$out/${s:0:12}
  prefix[$v]=$(ldp_scratch_dir ab)/${s:0:12}
  log=$dir/build.log
  if [[ -f $dir/src/.built ]]; then
    say "$v = ${s:0:12}: reusing the build in $dir/src"
  else
    say "$v = ${s:0:12}: building in $dir/src"
    rm -rf "$dir"
    mkdir -p "$dir/src"
    git -C "$root" archive "$s" | tar -x -C "$dir/src"
    make -C "$dir/src" -j "$(nproc)" PG_CONFIG="$sys_pg_config" >"$log" 2>&1 ||
      { tail -n 30 "$log" >&2; echo "ab.sh: the build of $v failed ($log)" >&2; exit 1; }
    touch "$dir/src/.built"
  fi
  [[ -d ${prefix[$v]} ]] && { bin[$v]=${bin[old]}; return; }   # OLD and NEW the same commit
  bin[$v]=$(ldp_private_pg "${prefix[$v]}" "$dir/src" 2>>"$log") ||
    { tail -n 30 "$log" >&2; echo "ab.sh: installing $v into ${prefix[$v]} failed ($log)" >&2; exit 1; }
}
install_rev old "$old_rev"
install_rev new "$new_rev"
[[ ${sha[old]} != "${sha[new]}" ]] || say "warning: OLD and NEW are the same commit"
[[ ${LDP_AB_BUILD_ONLY:-0} == 1 ]] && exit 0

# ---------------------------------------------------------------------------
# The two clusters
declare -A base=([old]=57000 [new]=57500)
for v in old new; do
  [[ ${LDP_AB_KEEP:-0} == 1 ]] || rm -rf "$(ldp_cluster_dir "${cluster[$v]}")"
  LDP_PG_BIN=${bin[$v]} LDP_PORT_BASE=${base[$v]} ldp_cluster_start "${cluster[$v]}" \
    "shared_buffers = 2GB" "max_parallel_workers_per_gather = 2" "max_parallel_workers = 8" \
    "jit = off" "log_min_messages = warning"
  port[$v]=$PGPORT
  pid=$(head -n 1 "$(ldp_cluster_dir "${cluster[$v]}")/postmaster.pid")
  [[ $(readlink "/proc/$pid/exe") == "${bin[$v]}/postgres" ]] ||
    { echo "ab.sh: the $v cluster does not run ${bin[$v]}/postgres" >&2; exit 1; }
done
unset PGHOST PGPORT PGUSER PGDATABASE
q() {  # old|new psql-args...: one session in that cluster
  local v=$1; shift
  PGOPTIONS='-c client_min_messages=warning' psql -X -q -At -v ON_ERROR_STOP=1 -h 127.0.0.1 -U postgres -d postgres -p "${port[$v]}" "$@"
}
for v in old new; do
  q $v -c "CREATE EXTENSION IF NOT EXISTS ldp"
  # the backend maps this build's ldp.so, not the system's
  maps=$(q $v -c "SELECT ldp.rr_encode(true, 1.0, 1)" -c "SELECT pg_read_file('/proc/self/maps')")
  grep -qF "${prefix[$v]}/usr/lib/postgresql/15/lib/ldp.so" <<<"$maps" ||
    { echo "ab.sh: a backend of the $v cluster does not map ${prefix[$v]}/.../ldp.so" >&2; exit 1; }
  say "$v cluster on port ${port[$v]}: ldp $(q $v -c "SELECT extversion FROM pg_extension WHERE extname = 'ldp'") from ${prefix[$v]}"
done

# ---------------------------------------------------------------------------
# Tables. Items: a skewed, fixed sequence over k = 1024 (a multiplicative hash of i,
# cubed). v int4 (= i) is the last column, so that sum(v) deforms the whole row as the
# aggregates do.
item="floor(1024 * power(((i::bigint * 2654435761) % 4294967296)::float8 / 4294967296, 3))::int"
ddl="
CREATE TABLE ab_mean (bit boolean NOT NULL, lap float8 NOT NULL, v int4 NOT NULL);
CREATE TABLE ab_grr (report int NOT NULL, v int4 NOT NULL);
CREATE TABLE ab_oue (report varbit NOT NULL, v int4 NOT NULL);
CREATE TABLE ab_olh (seed bigint NOT NULL, report int NOT NULL, v int4 NOT NULL);
CREATE TABLE ab_hadamard (\"row\" int NOT NULL, report boolean NOT NULL, v int4 NOT NULL);"
# one INSERT per table, run side by side (the encoders' time is not measured)
fills=(
"INSERT INTO ab_mean SELECT ldp.rr_encode(i % 3 = 0, 1.0, i), ldp.laplace_mean_encode((i % 1000) / 10.0, 1.0, 100, i), i
  FROM generate_series(1, $rows) i"
"INSERT INTO ab_grr SELECT ldp.grr_encode($item, 1.0, 1024, i), i FROM generate_series(1, $rows) i"
"INSERT INTO ab_oue SELECT ldp.oue_encode($item, 1.0, 1024, i), i FROM generate_series(1, $rows_oue) i"
"INSERT INTO ab_olh SELECT e.seed, e.report, i FROM generate_series(1, $rows_olh) i,
  LATERAL ldp.olh_encode($item, 1.0, 1024, i) e"
"INSERT INTO ab_hadamard SELECT e.\"row\", e.report, i FROM generate_series(1, $rows) i,
  LATERAL ldp.hadamard_encode($item, 1.0, 1024, i) e"
)
# The rows of the hashed GROUP BY queries (group_*): the first GRP_ROWS of ab_mean and ab_grr.
grp_rows=$((rows < 1000000 ? rows : 1000000))
# One stored summary per g = v % SUMMARIES, made by a sorted GroupAggregate: NEW's
# hashed GROUP BY over that many groups is quadratic (see the group_* queries below), and
# these tables are only the input of the timed queries. One summary of a whole table
# (k = 1024: large enough to be stored out of line).
summaries="
SET work_mem = '1GB';
SET enable_hashagg = off;
CREATE TABLE ab_s_mean AS SELECT (v % $nsum)::int4 AS g, ldp.laplace_mean_agg(lap, 1.0, 100) AS s
  FROM ab_mean GROUP BY 1;
CREATE TABLE ab_s_freq AS SELECT (v % $nsum)::int4 AS g, ldp.grr_agg(report, 1.0, 1024) AS s
  FROM ab_grr GROUP BY 1;
CREATE TABLE ab_one_hadamard AS SELECT ldp.hadamard_agg(\"row\", report, 1.0, 1024) AS s FROM ab_hadamard;
CREATE TABLE ab_one_olh AS SELECT ldp.olh_agg(seed, report, 1.0, 1024) AS s FROM ab_olh;
CREATE TABLE ab_grp AS SELECT m.lap, g.report, m.v FROM ab_mean m JOIN ab_grr g USING (v)
  WHERE m.v <= $grp_rows AND g.v <= $grp_rows;"
tables=(ab_mean ab_grr ab_oue ab_olh ab_hadamard)
table_list=$(IFS=,; echo "${tables[*]}")
summary_list="ab_s_mean, ab_s_freq, ab_one_hadamard, ab_one_olh, ab_grp"
reports_marker="ldp ab reports: rows=$rows oue=$rows_oue olh=$rows_olh"
summaries_marker() { echo "ldp ab summaries: $reports_marker summaries=$nsum build=${sha[$1]}"; }
comment_of() { q "$1" -c "SELECT obj_description(to_regclass('$2'), 'pg_class')"; }
if [[ $(comment_of old ab_hadamard) != "$reports_marker" || $(comment_of new ab_hadamard) != "$reports_marker" ]]; then
  say "report tables: $rows rows (means, GRR, Hadamard), $rows_oue (OUE), $rows_olh (OLH), encoded in the old cluster"
  for v in old new; do
    q $v -c "DROP TABLE IF EXISTS $table_list, $summary_list" -c "$ddl"
  done
  pids=()
  for f in "${fills[@]}"; do q old -c "$f" & pids+=($!); done
  for p in "${pids[@]}"; do wait "$p"; done
  for t in "${tables[@]}"; do
    say "copying $t to the new cluster"
    q old -c "COPY $t TO STDOUT (FORMAT binary)" | q new -c "COPY $t FROM STDIN (FORMAT binary)"
  done
  pids=()
  for v in old new; do
    q $v -c "VACUUM (FREEZE, ANALYZE) $table_list" -c "COMMENT ON TABLE ab_hadamard IS '$reports_marker'" &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p"; done
else
  say "report tables kept from an earlier run (LDP_AB_KEEP=1)"
fi
if [[ $(comment_of old ab_one_olh) != "$(summaries_marker old)" || $(comment_of new ab_one_olh) != "$(summaries_marker new)" ]]; then
  say "stored summaries, each cluster with its own build: $nsum of laplace, $nsum of grr k = 1024, one hadamard, one olh"
  pids=()
  for v in old new; do
    q $v -c "DROP TABLE IF EXISTS $summary_list" -c "$summaries" -c "VACUUM (FREEZE, ANALYZE) $summary_list" \
      -c "COMMENT ON TABLE ab_one_olh IS '$(summaries_marker "$v")'" &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p"; done
else
  say "stored summaries kept from an earlier run (LDP_AB_KEEP=1)"
fi
# both clusters must hold the same rows
check="SELECT string_agg(format('%s %s %s', t, n, h), '; ' ORDER BY t) FROM (
  SELECT 'mean' t, count(*) n, sum(hashtext(bit::text || lap::text || v)) h FROM ab_mean UNION ALL
  SELECT 'grr', count(*), sum(hashint4(report)::bigint + v) FROM ab_grr UNION ALL
  SELECT 'oue', count(*), sum(hashtext(report::text)) FROM ab_oue UNION ALL
  SELECT 'olh', count(*), sum(hashint8(seed)::bigint + report) FROM ab_olh UNION ALL
  SELECT 'hadamard', count(*), sum(hashint4(\"row\")::bigint + report::int) FROM ab_hadamard) x"
check_old=$(q old -c "$check")
check_new=$(q new -c "$check")
[[ -n $check_old && $check_old == "$check_new" ]] ||
  { echo "ab.sh: the two clusters do not hold the same report rows" >&2; exit 1; }
sizes="SELECT string_agg(format('%s: %s rows, %s', c.relname, c.reltuples::bigint,
  pg_size_pretty(pg_total_relation_size(c.oid))), '; ' ORDER BY c.relname)
  FROM pg_class c WHERE c.relname ~ '^ab_' AND c.relkind = 'r'"
stored="SELECT format('ab_s_mean avg %s B, ab_s_freq avg %s B, ab_one_hadamard %s B (toast %s), ab_one_olh %s B (toast %s)',
  (SELECT avg(pg_column_size(s))::int FROM ab_s_mean), (SELECT avg(pg_column_size(s))::int FROM ab_s_freq),
  (SELECT pg_column_size(s) FROM ab_one_hadamard),
  pg_size_pretty(pg_relation_size((SELECT reltoastrelid FROM pg_class WHERE relname = 'ab_one_hadamard'))),
  (SELECT pg_column_size(s) FROM ab_one_olh),
  pg_size_pretty(pg_relation_size((SELECT reltoastrelid FROM pg_class WHERE relname = 'ab_one_olh'))))"
for v in old new; do
  say "$v: $(q $v -c "$sizes")"
  say "$v stored sizes: $(q $v -c "$stored")"
done

# ---------------------------------------------------------------------------
# Queries: key|baseline key|settings (sp: serial and parallel, s: serial only)|SQL
queries=(
  "sum_mean|sum_mean|sp|SELECT sum(v) FROM ab_mean"
  "rr|sum_mean|sp|SELECT ldp.estimate(ldp.rr_agg(bit, 1.0)) FROM ab_mean"
  "onebit|sum_mean|sp|SELECT ldp.estimate(ldp.onebit_mean_agg(bit, 1.0, 100)) FROM ab_mean"
  "laplace|sum_mean|sp|SELECT ldp.estimate(ldp.laplace_mean_agg(lap, 1.0, 100)) FROM ab_mean"
  "sum_grr|sum_grr|sp|SELECT sum(v) FROM ab_grr"
  "grr|sum_grr|sp|SELECT ldp.report_count(ldp.grr_agg(report, 1.0, 1024)) FROM ab_grr"
  "sum_oue|sum_oue|sp|SELECT sum(v) FROM ab_oue"
  "oue|sum_oue|sp|SELECT ldp.report_count(ldp.oue_agg(report, 1.0)) FROM ab_oue"
  "sum_olh|sum_olh|sp|SELECT sum(v) FROM ab_olh"
  "olh|sum_olh|sp|SELECT ldp.report_count(ldp.olh_agg(seed, report, 1.0, 1024)) FROM ab_olh"
  "sum_hadamard|sum_hadamard|sp|SELECT sum(v) FROM ab_hadamard"
  "hadamard|sum_hadamard|sp|SELECT ldp.report_count(ldp.hadamard_agg(\"row\", report, 1.0, 1024)) FROM ab_hadamard"
  "sum_s_mean|sum_s_mean|sp|SELECT sum(g) FROM ab_s_mean"
  "rollup_mean|sum_s_mean|sp|SELECT ldp.estimate(ldp.rollup(s)) FROM ab_s_mean"
  "count_mean|sum_s_mean|sp|SELECT sum(ldp.report_count(s)) FROM ab_s_mean"
  "estimate_mean|sum_s_mean|sp|SELECT sum(ldp.estimate(s)) FROM ab_s_mean"
  "sum_s_freq|sum_s_freq|sp|SELECT sum(g) FROM ab_s_freq"
  "rollup_freq|sum_s_freq|sp|SELECT ldp.report_count(ldp.rollup(s)) FROM ab_s_freq"
  "count_freq|sum_s_freq|sp|SELECT sum(ldp.report_count(s)) FROM ab_s_freq"
  "freq0_freq|sum_s_freq|sp|SELECT sum(ldp.frequency(s, 0)) FROM ab_s_freq"
  "grp1k_sum|grp1k_sum|sp|SELECT sum(c) FROM (SELECT sum(v) AS c FROM ab_grp GROUP BY v % 1000) x"
  "grp1k_mean|grp1k_sum|sp|SELECT sum(ldp.report_count(s)) FROM (SELECT ldp.laplace_mean_agg(lap, 1.0, 100) AS s FROM ab_grp GROUP BY v % 1000) x"
  "grp1k_freq|grp1k_sum|sp|SELECT sum(ldp.report_count(s)) FROM (SELECT ldp.grr_agg(report, 1.0, 1024) AS s FROM ab_grp GROUP BY v % 1000) x"
  "grp10k_sum|grp10k_sum|sp|SELECT sum(c) FROM (SELECT sum(v) AS c FROM ab_grp GROUP BY v % 10000) x"
  "grp10k_mean|grp10k_sum|sp|SELECT sum(ldp.report_count(s)) FROM (SELECT ldp.laplace_mean_agg(lap, 1.0, 100) AS s FROM ab_grp GROUP BY v % 10000) x"
  "grp10k_freq|grp10k_sum|sp|SELECT sum(ldp.report_count(s)) FROM (SELECT ldp.grr_agg(report, 1.0, 1024) AS s FROM ab_grp GROUP BY v % 10000) x"
  "item_hadamard|sum_mean|s|SELECT sum(ldp.frequency(s, i)) FROM ab_one_hadamard, generate_series(0, 1023) i"
  "items_hadamard|sum_mean|s|SELECT sum(f.frequency) FROM ab_one_hadamard, ldp.frequencies(s) f"
  "item_olh|sum_mean|s|SELECT sum(ldp.frequency(s, i)) FROM ab_one_olh, generate_series(0, 1023) i"
  "items_olh|sum_mean|s|SELECT sum(f.frequency) FROM ab_one_olh, ldp.frequencies(s) f"
)
declare -A sql basekey where
keys=()
for e in "${queries[@]}"; do
  IFS='|' read -r k b w s <<<"$e"
  keys+=("$k"); basekey[$k]=$b; where[$k]=$w; sql[$k]=$s
done
declare -A setting=(
  [serial]="SET max_parallel_workers_per_gather = 0; SET work_mem = '256MB';"
  # min_parallel_table_scan_size = 0: the OLH and summary tables are small
  [parallel]="SET work_mem = '256MB'; SET max_parallel_workers_per_gather = $workers; SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0;"
)
session_keys() {  # serial|parallel -> the keys timed in that setting
  local k
  for k in "${keys[@]}"; do
    [[ $1 == serial || ${where[$k]} == sp ]] && echo "$k"
  done
}

samples=$out/samples.tsv
: >"$samples"
# Untimed, first in every session: a new backend takes a page fault on each page of
# shared_buffers it touches for the first time (2GB, no huge pages here), ~1 s for a
# 10M-row table, which would land on whichever query reads a table first (the
# baselines). Parallel workers are new processes for every query and take those faults
# in every query, the baseline's as well as the aggregate's.
pretouch=(-c "SET max_parallel_workers_per_gather = 0")
for t in "${tables[@]}" ab_s_mean ab_s_freq ab_grp ab_one_hadamard ab_one_olh; do
  pretouch+=(-c "SELECT count(*) FROM $t")
done
run_session() {  # round version setting: every query once, one session, timed by psql
  local r=$1 v=$2 s=$3 k i
  local ks=() args=("${pretouch[@]}" -c "${setting[$s]}" -c '\timing on')
  mapfile -t ks < <(session_keys "$s")
  for k in "${ks[@]}"; do args+=(-c "${sql[$k]}"); done
  local t=()
  mapfile -t t < <(q "$v" "${args[@]}" | grep -oE '^Time: [0-9.]+' | awk '{print $2}')
  ((${#t[@]} == ${#ks[@]})) || { echo "ab.sh: $v $s: ${#t[@]} times for ${#ks[@]} queries" >&2; exit 1; }
  for i in "${!ks[@]}"; do printf '%s\t%s\t%s\t%s\t%s\n' "$r" "$v" "$s" "${ks[$i]}" "${t[$i]}"; done >>"$samples"
}

# Warm-up round (not recorded): fills the caches, loads the library, checks that both
# versions give the same answers, that the parallel plans are parallel and that the
# GROUP BY queries are hashed.
declare -A plan hashed
for v in old new; do
  for s in serial parallel; do
    mapfile -t ks < <(session_keys "$s")
    args=(-c "${setting[$s]}")
    for k in "${ks[@]}"; do args+=(-c "${sql[$k]}"); done
    q "$v" "${args[@]}" >"$out/answers.$v.$s"
  done
  for k in "${keys[@]}"; do
    [[ ${where[$k]} == sp ]] || continue
    for s in serial parallel; do
      e=$(q "$v" -c "${setting[$s]}" -c "EXPLAIN (COSTS OFF) ${sql[$k]}")
      if [[ $s == parallel ]]; then
        plan[$v.$k]=serial
        [[ $e == *"Workers Planned"* ]] && plan[$v.$k]=parallel
      fi
      if [[ $k == grp* && $e != *HashAggregate* ]]; then
        hashed[$s.$k]=no
        say "warning: $v $s $k is not a hashed aggregate"
      fi
    done
  done
done
for s in serial parallel; do
  mapfile -t ks < <(session_keys "$s")
  paste -d'\t' <(printf '%s\n' "${ks[@]}") "$out/answers.old.$s" "$out/answers.new.$s" |
    awk -F'\t' -v s="$s" '
      function close_enough(a, b) { return a == b || (a + 0 == a && b + 0 == b && (a - b < 1e-9 * (a < 0 ? -a : a) + 1e-12 && b - a < 1e-9 * (a < 0 ? -a : a) + 1e-12)) }
      !close_enough($2, $3) { printf "ab.sh: warning: %s %s: old gives %s, new gives %s\n", s, $1, $2, $3 > "/dev/stderr" }'
done

load_start=$(cut -d' ' -f1-3 /proc/loadavg)
for ((r = 1; r <= rounds; r++)); do
  order=(old new)
  ((r % 2 == 0)) && order=(new old)
  for v in "${order[@]}"; do
    for s in serial parallel; do run_session "$r" "$v" "$s"; done
  done
  say "round $r/$rounds done"
done

# ---------------------------------------------------------------------------
# Report
stats() {  # version setting key -> "median_ms median_ratio"
  awk -F'\t' -v v="$1" -v s="$2" -v k="$3" -v b="${basekey[$3]}" '
    $2 == v && $3 == s && $4 == k {t[$1] = $5}
    $2 == v && $3 == s && $4 == b {u[$1] = $5}
    function median(a, n,   i, j, x) {
      for (i = 2; i <= n; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
      return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    END {
      n = 0; for (r in t) { n++; ms[n] = t[r]; ra[n] = t[r] / u[r] }
      printf "%s %s\n", median(ms, n), median(ra, n)
    }' "$samples"
}
declare -A label=(
  [sum_mean]="sum(v)" [rr]="rr_agg(bit, 1.0)" [onebit]="onebit_mean_agg(bit, 1.0, 100)"
  [laplace]="laplace_mean_agg(lap, 1.0, 100)" [sum_grr]="sum(v)" [grr]="grr_agg(report, 1.0, 1024)"
  [sum_oue]="sum(v)" [oue]="oue_agg(report, 1.0)" [sum_olh]="sum(v)"
  [olh]="olh_agg(seed, report, 1.0, 1024)" [sum_hadamard]="sum(v)"
  [hadamard]="hadamard_agg(\"row\", report, 1.0, 1024)"
  [sum_s_mean]="sum(g)" [rollup_mean]="estimate(rollup(s))" [count_mean]="sum(report_count(s))"
  [estimate_mean]="sum(estimate(s))" [sum_s_freq]="sum(g)" [rollup_freq]="report_count(rollup(s))"
  [count_freq]="sum(report_count(s))" [freq0_freq]="sum(frequency(s, 0))"
  [grp1k_sum]="sum(v) GROUP BY v % 1000" [grp1k_mean]="laplace_mean_agg GROUP BY v % 1000"
  [grp1k_freq]="grr_agg GROUP BY v % 1000" [grp10k_sum]="sum(v) GROUP BY v % 10000"
  [grp10k_mean]="laplace_mean_agg GROUP BY v % 10000" [grp10k_freq]="grr_agg GROUP BY v % 10000"
  [item_hadamard]="sum(frequency(s, i)), i in 0..1023" [items_hadamard]="sum(frequency) FROM frequencies(s)"
  [item_olh]="sum(frequency(s, i)), i in 0..1023" [items_olh]="sum(frequency) FROM frequencies(s)"
)
declare -A table=(
  [sum_mean]="ab_mean ($rows)" [rr]="ab_mean ($rows)" [onebit]="ab_mean ($rows)" [laplace]="ab_mean ($rows)"
  [sum_grr]="ab_grr ($rows)" [grr]="ab_grr ($rows)" [sum_oue]="ab_oue ($rows_oue)" [oue]="ab_oue ($rows_oue)"
  [sum_olh]="ab_olh ($rows_olh)" [olh]="ab_olh ($rows_olh)"
  [sum_hadamard]="ab_hadamard ($rows)" [hadamard]="ab_hadamard ($rows)"
  [sum_s_mean]="ab_s_mean ($nsum laplace)" [rollup_mean]="ab_s_mean" [count_mean]="ab_s_mean" [estimate_mean]="ab_s_mean"
  [sum_s_freq]="ab_s_freq ($nsum grr k=1024)" [rollup_freq]="ab_s_freq" [count_freq]="ab_s_freq" [freq0_freq]="ab_s_freq"
  [grp1k_sum]="ab_grp ($grp_rows)" [grp1k_mean]="ab_grp" [grp1k_freq]="ab_grp"
  [grp10k_sum]="ab_grp ($grp_rows)" [grp10k_mean]="ab_grp" [grp10k_freq]="ab_grp"
  [item_hadamard]="ab_one_hadamard (1 summary)" [items_hadamard]="ab_one_hadamard" [item_olh]="ab_one_olh (1 summary)"
  [items_olh]="ab_one_olh"
)
echo
echo "\`$command_line\`: old = ${sha[old]:0:7}, new = ${sha[new]:0:7}; $(date -u +%Y-%m-%d); $(nproc) cores;"
echo "$rounds interleaved rounds after a warm-up; parallel = leader + $workers worker(s); ratio = query / its"
echo "baseline in the same session (sum(v) or sum(g) over the same table; for the one-summary"
echo "queries, sum(v) over ab_mean), median over the rounds; old ÷ new > 1: new is faster."
echo "Load average (1, 5, 15 min) before the timed rounds: $load_start; after: $(cut -d' ' -f1-3 /proc/loadavg)."
for s in serial parallel; do
  echo
  echo "$s:"
  echo
  echo "| query | table (rows) | old ms | new ms | old / base | new / base | old ÷ new |"
  echo "|---|---|---:|---:|---:|---:|---:|"
  mapfile -t ks < <(session_keys "$s")
  for k in "${ks[@]}"; do
    read -r om orat < <(stats old "$s" "$k")
    read -r nm nrat < <(stats new "$s" "$k")
    note=""
    if [[ $s == parallel && (${plan[old.$k]} != parallel || ${plan[new.$k]} != parallel) ]]; then
      note=" (plan: old ${plan[old.$k]}, new ${plan[new.$k]})"
    fi
    [[ -n ${hashed[$s.$k]:-} ]] && note+=" (not hashed)"
    awk -v l="${label[$k]//|/\\|}$note" -v t="${table[$k]}" -v om="$om" -v nm="$nm" -v orat="$orat" -v nrat="$nrat" \
      -v isbase="$([[ $k == "${basekey[$k]}" ]] && echo 1 || echo 0)" 'BEGIN {
        f = (orat < 0.1) ? "%.4f" : "%.2f"
        if (isbase) printf "| `%s` | %s | %.1f | %.1f | 1 | 1 | %.2f (ms) |\n", l, t, om, nm, om / nm
        else printf "| `%s` | %s | %.1f | %.1f | " f " | " f " | %.2f |\n", l, t, om, nm, orat, nrat, orat / nrat
      }'
  done
done
