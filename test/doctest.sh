#!/usr/bin/env bash
# The doc test on its own (test/run.sh runs it against its test cluster): builds the
# extension (PGXS), installs it into a private copy of PostgreSQL 15, starts a temporary
# cluster in .pg/doc, runs test/doctest.py, then stops and removes the cluster.
#   test/doctest.sh                      every page, the signatures and the links
#   test/doctest.sh docs/means.md ...    those pages only
#   test/doctest.sh --catalog --links    the checks only (test/doctest.py --help)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/../src/tools/pgenv.sh"
root="$(ldp_root)"
cd "$root"
export PG_CONFIG="${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}"
args=("$@")
if ((${#args[@]} > 0)) && [[ ${args[0]} != -* ]]; then args=(--pages "${args[@]}"); fi
ldp_install_deps

make -j "$(nproc 2>/dev/null || echo 2)" PG_CONFIG="$PG_CONFIG" >/dev/null
export LDP_PRIVATE_CLUSTER=1
cluster="$root/.pg/doc"
ldp_cluster_stop "$cluster" --force >/dev/null 2>&1 || true
rm -rf "$(ldp_cluster_dir "$cluster")" "$cluster"
# shellcheck disable=SC2317  # called by the EXIT trap
cleanup() {
  ldp_cluster_stop "$cluster" --force >/dev/null 2>&1 || true
  rm -rf "$(ldp_cluster_dir "$cluster")" "$cluster"
  ldp_scratch_cleanup
}
trap cleanup EXIT
ldp_scratch_make doc
LDP_PG_BIN="$(ldp_private_pg "$(ldp_scratch_dir doc)/prefix" "$root")"
export LDP_PG_BIN
ldp_cluster_start "$cluster" "log_min_messages = warning" >/dev/null
PSQL="$LDP_PG_BIN/psql" python3 "$here/doctest.py" "${args[@]}"
