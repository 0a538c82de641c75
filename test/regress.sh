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
ldp_test_cluster regress
args=(PG_CONFIG="$LDP_PG_BIN/pg_config")
((${#tests[@]} == 0)) || args+=("REGRESS=${tests[*]}")
((isolation)) || args+=("ISOLATION=")
status=0
make installcheck "${args[@]}" || status=$?
if ((status)); then
  for d in build/regress/regression.diffs build/isolation/regression.diffs; do [[ -f $d ]] && cat "$d"; done
fi
exit "$status"
