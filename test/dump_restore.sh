#!/usr/bin/env bash
# Dump and restore keep every collection and THRESH stream with its owner and grants,
# by role name (docs/security.md):
#
#   1. in a database, roles and ldp objects: collections of two owners over tables and a
#      view, closed epochs, grants of read and close to a role and to public, a THRESH
#      stream with a closed epoch and a submit grant; made on a fresh install of the
#      current version, and again on an install of 0.6.0 (0.1.0 updated) whose objects
#      were made before ALTER EXTENSION ldp UPDATE; then (after the update) a TreeHist
#      collection whose summary names its protocol as a typed literal
#      ('...'::ldp.heavy_protocol) and a table with heavy_summary and heavy_protocol
#      columns (every domain, counters of 1, 2 and 4 bytes, a NULL), and a RAPPOR
#      collection and a table with a rappor_summary column;
#   2. prints what a DBA and the readers see (owners, grants, \dp's privileges, closed
#      epochs with their summaries, estimates, THRESH status and history);
#   3. pg_dump -Fc, drops the database and the roles, creates the roles again in
#      another order after an unrelated one (new OIDs), pg_restore --exit-on-error into
#      a new database;
#   4. checks that the restore gave no error, that everything of step 2 is the same (with
#      the views' read-only triggers and their dependencies on their sources), that the
#      next close works and runs as the restored owner, that writing through a restored
#      view fails with 42501 and dropping a restored source with 2BP01, and that DROP ROLE
#      of a restored owner fails with 2BP01.
# The objects, what is compared and the checks of step 4 are test/ldp_objects.sh's
# (test/pg_upgrade.sh makes and checks them too).
#
# Runs against the server of PGHOST/PGPORT/PGUSER (a superuser; test/run.sh runs it
# against its temporary cluster after `make install`); makes and drops databases
# ldp_dump_src and ldp_dump_dst and roles ldp_dump_*. Prints "dump: CHECK ... ok|FAILED"
# lines (test/run.sh counts them) and exits non-zero if a check failed. Files in
# build/dump/.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd -P)
root=$(cd "$here/.." && pwd -P)
out=$root/build/dump
pg_bin=${LDP_PG_BIN:-/usr/lib/postgresql/15/bin}
src=ldp_dump_src
dst=ldp_dump_dst

failures=0
check() {  # name ok|FAILED [detail]
  if [[ $2 == ok ]]; then
    echo "dump: $1 ... ok"
  else
    echo "dump: $1 ... FAILED${3:+ ($3)}"
    failures=$((failures + 1))
  fi
}
q() { psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }
cleanup() {
  q -d postgres -c "DROP DATABASE IF EXISTS $src" -c "DROP DATABASE IF EXISTS $dst" >/dev/null 2>&1 || true
  local r
  for r in "${roles[@]}" ldp_dump_shift; do q -d postgres -c "DROP ROLE IF EXISTS $r" >/dev/null 2>&1 || true; done
}
trap cleanup EXIT
rm -rf "$out"
mkdir -p "$out"

# shellcheck source=ldp_objects.sh
source "$here/ldp_objects.sh"
roles=("${ldp_objects_roles[@]}")

run_case() {  # label version-to-install
  local label=$1 from=$2 r
  cleanup
  for r in "${roles[@]}"; do q -d postgres -c "CREATE ROLE $r"; done
  q -d postgres -c "CREATE DATABASE $src"
  local create="CREATE EXTENSION ldp;"
  [[ $from == current ]] || create="CREATE EXTENSION ldp VERSION '0.1.0'; ALTER EXTENSION ldp UPDATE TO '$from';"
  objects_make "$src" "$create"
  local version
  version=$(q -d "$src" -c "SELECT extversion FROM pg_extension WHERE extname = 'ldp'")
  if [[ $label == updated ]]; then
    q -d "$src" -c "SET client_min_messages = warning" -c "ALTER EXTENSION ldp UPDATE" >/dev/null
    version="$version -> $(q -d "$src" -c "SELECT extversion FROM pg_extension WHERE extname = 'ldp'")"
  fi
  objects_make_new "$src"
  objects_snapshot "$src" "$out/$label-before.txt"
  "$pg_bin/pg_dump" -Fc -d "$src" -f "$out/$label.dump"
  q -d postgres -c "DROP DATABASE $src"
  for r in "${roles[@]}"; do q -d postgres -c "DROP ROLE $r"; done
  # the same names, other OIDs (and another order)
  q -d postgres -c "CREATE ROLE ldp_dump_shift"
  for ((r = ${#roles[@]} - 1; r >= 0; r--)); do q -d postgres -c "CREATE ROLE ${roles[r]}"; done
  q -d postgres -c "CREATE DATABASE $dst"
  if "$pg_bin/pg_restore" --exit-on-error -d "$dst" "$out/$label.dump" >"$out/$label-restore.log" 2>&1; then
    check "$label ($version): pg_restore into a new database with new role OIDs, no error" ok
  else
    check "$label ($version): pg_restore into a new database with new role OIDs, no error" FAILED \
      "$(head -c 300 "$out/$label-restore.log")"
  fi
  objects_snapshot "$dst" "$out/$label-after.txt"
  if diff -u "$out/$label-before.txt" "$out/$label-after.txt" >"$out/$label.diff"; then
    check "$label: owners, grants, closed epochs and answers are the same after restore ($(wc -l <"$out/$label-after.txt") lines)" ok
  else
    check "$label: owners, grants, closed epochs and answers are the same after restore" FAILED "build/dump/$label.diff"
    head -n 30 "$out/$label.diff" >&2
  fi
  objects_check_after "$dst" "$label"
  q -d postgres -c "DROP DATABASE $dst"
}

run_case fresh current
run_case updated 0.6.0
cleanup
trap - EXIT
((failures == 0))
