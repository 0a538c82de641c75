# shellcheck shell=bash
# Shared by the benchmark scripts (time_query reads `repeats` when called):
#   bench_setup        installs missing packages, builds the extension and installs it: into
#                      a private copy of PostgreSQL 15 in the scratch directory
#                      ${TMPDIR:-/tmp}/ldp-bench-<hash of the checkout's path>, made again on
#                      every run and removed on exit (src/tools/pgenv.sh: ldp_private_pg; the
#                      postgres user can reach it from any checkout, and the system's
#                      installation is not written), or, for a server named by PG* variables,
#                      into the system's installation (make install); sets $cluster
#   bench_cluster      starts the private cluster .pg/bench from that copy with the benchmark
#                      settings (or uses the server named by PG*), stops it on exit
#   bench_cleanup      stops the cluster if this run started it and removes the scratch
#                      directory (the EXIT trap that bench_setup sets)
#   time_query S Q     median wall time (ms) of query Q after settings S, over $repeats
#                      runs after one warm-up
#   time_queries S Q.. median wall times (ms, one line each) of queries Q.. after settings
#                      S, run interleaved: one warm-up round, then $repeats rounds of
#                      Q1 Q2 ..., so that a slow spell of the machine hits every query
#                      alike and the ratios between them stay fair
#   bench_extension    the extension this build installed, in the benchmark's database
#   median             the median of the numbers on stdin
bench_here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../src/tools/pgenv.sh
source "$bench_here/../src/tools/pgenv.sh"
root="$(ldp_root)"
export PG_CONFIG="${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}"

bench_setup() {
  ldp_install_deps
  make -C "$root" -j "$(nproc)" PG_CONFIG="$PG_CONFIG" >/dev/null
  cluster="$root/.pg/bench"
  # a server named by PG* variables is the user's: bench_extension never drops there
  bench_private=1
  if ldp_user_server; then
    bench_private=0
    make -C "$root" install PG_CONFIG="$PG_CONFIG" >/dev/null
    return
  fi
  # a bench cluster a killed run left running from the scratch directory: stopped first
  ldp_cluster_stop "$cluster" --force >/dev/null 2>&1 || true
  trap bench_cleanup EXIT
  ldp_scratch_make bench
  export LDP_PG_BIN
  LDP_PG_BIN="$(ldp_private_pg "$(ldp_scratch_dir bench)/prefix" "$root")"
}

# shellcheck disable=SC2317  # called by the EXIT trap
bench_cleanup() {
  ldp_cluster_stop "$cluster" || true
  ldp_scratch_cleanup
}

bench_cluster() {
  ldp_cluster_start "$cluster" "shared_buffers = 2GB" "max_parallel_workers_per_gather = 2" \
    "max_parallel_workers = 8" "jit = off"
  trap bench_cleanup EXIT
}

# In the private cluster the extension is dropped and created again, so that SQL changed
# without a new version is what runs; what depends on it there is the benchmarks' own
# (stored summaries, collections), which each script makes again. On a server named by
# PG* variables nothing is dropped: CREATE EXTENSION IF NOT EXISTS, then ALTER EXTENSION
# UPDATE (a DROP ... CASCADE there would take the user's columns of ldp's types with it).
bench_extension() {
  if [[ ${bench_private:-0} == 1 ]]; then
    psql -qX -v ON_ERROR_STOP=1 -c "SET client_min_messages = warning" \
      -c "DROP EXTENSION IF EXISTS ldp CASCADE" -c "CREATE EXTENSION ldp"
  else
    psql -qX -v ON_ERROR_STOP=1 -c "CREATE EXTENSION IF NOT EXISTS ldp" -c "ALTER EXTENSION ldp UPDATE"
  fi
}

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

time_query() {  # $1 = settings, $2 = query
  local args=(-qX -v ON_ERROR_STOP=1 -c "$1" -c '\timing on' -c "$2") i
  for ((i = 0; i < repeats; i++)); do args+=(-c "$2"); done
  psql "${args[@]}" | grep -oE '^Time: [0-9.]+' | awk '{print $2}' | tail -n "$repeats" | median
}

time_queries() {  # $1 = settings, $2... = queries
  local settings=$1 i q k
  shift
  local args=(-qX -v ON_ERROR_STOP=1 -c "$settings" -c '\timing on')
  for ((i = 0; i <= repeats; i++)); do
    for q in "$@"; do args+=(-c "$q"); done
  done
  local times
  times=$(psql "${args[@]}" | grep -oE '^Time: [0-9.]+' | awk '{print $2}' | tail -n $((repeats * $#)))
  for ((k = 0; k < $#; k++)); do
    awk -v n=$# -v k=$k '(NR - 1) % n == k' <<<"$times" | median
  done
}
