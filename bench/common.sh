# shellcheck shell=bash
# Shared by the benchmark scripts (time_query reads `repeats` when called):
#   bench_setup        installs missing packages, builds and installs the extension
#   bench_cluster      starts the private cluster .pg/bench with the benchmark settings (or
#                      uses the server named by PG*), stops it on exit; sets $cluster
#   time_query S Q     median wall time (ms) of query Q after settings S, over $repeats
#                      runs after one warm-up
#   median             the median of the numbers on stdin
bench_here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../src/tools/pgenv.sh
source "$bench_here/../src/tools/pgenv.sh"
root="$(ldp_root)"
export PG_CONFIG="${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}"

bench_setup() {
  ldp_install_deps
  make -C "$root" -j "$(nproc)" PG_CONFIG="$PG_CONFIG" >/dev/null
  make -C "$root" install PG_CONFIG="$PG_CONFIG" >/dev/null
}

bench_cluster() {
  cluster="$root/.pg/bench"
  ldp_cluster_start "$cluster" "shared_buffers = 2GB" "max_parallel_workers_per_gather = 2" \
    "max_parallel_workers = 8" "jit = off"
  trap 'ldp_cluster_stop "$cluster" || true' EXIT
}

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

time_query() {  # $1 = settings, $2 = query
  local args=(-qX -v ON_ERROR_STOP=1 -c "$1" -c '\timing on' -c "$2") i
  for ((i = 0; i < repeats; i++)); do args+=(-c "$2"); done
  psql "${args[@]}" | grep -oE '^Time: [0-9.]+' | awk '{print $2}' | tail -n "$repeats" | median
}
