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
ldp_test_cluster doc
PSQL="$LDP_PG_BIN/psql" python3 "$here/doctest.py" "${args[@]}"
