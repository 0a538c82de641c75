#!/usr/bin/env bash
# The quick loop of a change to the SQL or the glue: builds the extension (PGXS),
# installs it into a private copy of PostgreSQL 15, starts a temporary cluster in
# .pg/regress and runs the named pg_regress tests (all of the Makefile's REGRESS when
# none is named; the isolation tests with --isolation), then stops and removes it.
#   test/regress.sh setup install_guard security
# setup creates the extension and the helpers the other tests use: name it first.
# test/run.sh runs everything (what CI runs); this runs a part of it.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/../src/tools/pgenv.sh"
root="$(ldp_root)"
cd "$root"
export PG_CONFIG="${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}"
isolation=0
tests=()
for a in "$@"; do
  if [[ $a == --isolation ]]; then isolation=1; else tests+=("$a"); fi
done
ldp_install_deps
make -j "$(nproc 2>/dev/null || echo 2)" PG_CONFIG="$PG_CONFIG" >/dev/null
export LDP_PRIVATE_CLUSTER=1
cluster="$root/.pg/regress"
ldp_cluster_stop "$cluster" --force >/dev/null 2>&1 || true
rm -rf "$(ldp_cluster_dir "$cluster")" "$cluster"
# shellcheck disable=SC2317  # called by the EXIT trap
cleanup() {
  ldp_cluster_stop "$cluster" --force >/dev/null 2>&1 || true
  rm -rf "$(ldp_cluster_dir "$cluster")" "$cluster"
  ldp_scratch_cleanup
}
trap cleanup EXIT
ldp_scratch_make regress
LDP_PG_BIN="$(ldp_private_pg "$(ldp_scratch_dir regress)/prefix" "$root")"
export LDP_PG_BIN
ldp_cluster_start "$cluster" "log_min_messages = warning" >/dev/null
args=(PG_CONFIG="$LDP_PG_BIN/pg_config")
((${#tests[@]} == 0)) || args+=("REGRESS=${tests[*]}")
((isolation)) || args+=("ISOLATION=")
status=0
make installcheck "${args[@]}" || status=$?
if ((status)); then
  for d in build/regress/regression.diffs build/isolation/regression.diffs; do [[ -f $d ]] && cat "$d"; done
fi
exit "$status"
