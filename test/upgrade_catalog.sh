#!/usr/bin/env bash
# The upgrade test: the catalog CREATE EXTENSION ldp makes from the install script the
# build puts together (extension/sql/*.sql) must equal the catalog of an installation
# of each older release updated step by step with the released update scripts.
#
#   1. checks that the server has the generated install script of the default version
#      (so that CREATE EXTENSION ldp runs it, not the update chain) and that it is the
#      one built in this tree (build/extension/), and finds the update path from each
#      older release with an install script of its own in extension/ (0.1.0);
#   2. in two fresh databases: CREATE EXTENSION ldp; and CREATE EXTENSION ldp VERSION
#      '<old>' then ALTER EXTENSION ldp UPDATE TO each next version of the path;
#   3. compares what test/upgrade_catalog.sql prints in each (the extension's catalog:
#      every object, its definition, options, owner, grants, comments, dependencies,
#      row-level security, constraints and whether they are validated, configuration
#      tables; that file says what it leaves out and why) and their
#      pg_dump --schema-only (which leaves out the extension's objects but not what was
#      changed on them); prints a unified diff of any difference;
#   4. checks that every SQL and PL/pgSQL function of the new install pins search_path.
#
# Runs against the server of PGHOST/PGPORT/PGUSER (a superuser; test/run.sh runs it
# against its temporary cluster, started from the private copy of PostgreSQL its build is
# installed into; LDP_PG_BIN names that copy's bin directory, for pg_dump), in databases ldp_upgrade_new and
# ldp_upgrade_old that it drops at the end. Prints "upgrade: CHECK ... ok|FAILED" lines
# (test/run.sh counts them) and exits non-zero if a check failed. The catalogs, dumps
# and diffs are in build/upgrade/.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd -P)
root=$(cd "$here/.." && pwd -P)
cd "$root"
pg_bin=${LDP_PG_BIN:-/usr/lib/postgresql/15/bin}
out=$root/build/upgrade
new_db=ldp_upgrade_new
old_db=ldp_upgrade_old

failures=0
check() {  # name ok|FAILED [detail]
  if [[ $2 == ok ]]; then
    echo "upgrade: $1 ... ok"
  else
    echo "upgrade: $1 ... FAILED${3:+ ($3)}"
    failures=$((failures + 1))
  fi
}
die() { check "$1" FAILED "$2"; echo "upgrade: aborted" >&2; exit 1; }
q() {  # database sql: one value
  psql -X -q -At -v ON_ERROR_STOP=1 -d "$1" -c "$2"
}
cleanup() {
  psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $new_db" -c "DROP DATABASE IF EXISTS $old_db" \
    >/dev/null 2>&1 || true
}

rm -rf "$out"
mkdir -p "$out"
psql -X -q -At -d postgres -c 'select 1' >/dev/null 2>&1 ||
  die "server" "cannot connect (PGHOST=${PGHOST:-} PGPORT=${PGPORT:-} PGUSER=${PGUSER:-})"

# ---------------------------------------------------------------------------
# 1. what is installed
version=$(q postgres "SELECT default_version FROM pg_available_extensions WHERE name = 'ldp'")
[[ -n $version ]] || die "ldp is installed" "the server has no extension ldp (make install)"
sharedir=$(q postgres "SELECT setting FROM pg_config WHERE name = 'SHAREDIR'")
script=$sharedir/extension/ldp--$version.sql
built=$root/build/extension/ldp--$version.sql
server_md5=$(q postgres "SELECT md5(pg_read_file('$script')) WHERE (pg_stat_file('$script', true)).size IS NOT NULL")
if [[ -z $server_md5 ]]; then
  check "the server has the install script ldp--$version.sql (CREATE EXTENSION ldp runs it)" FAILED \
    "no $script: CREATE EXTENSION ldp would run the update chain, and this test would compare it with itself"
elif [[ ! -f $built ]]; then
  check "the server's ldp--$version.sql is the one built here" FAILED "no $built (make)"
elif [[ $server_md5 != "$(md5sum <"$built" | cut -d' ' -f1)" ]]; then
  check "the server's ldp--$version.sql is the one built here" FAILED "$script differs from $built (make install)"
else
  check "the server has the install script ldp--$version.sql built from extension/sql/" ok
fi

# every update script from 0.10.0 on starts with the guard of extension/sql/00_guard.sql
# (a schema ldp that another role controls is refused before anything is created)
for f in extension/ldp--*--*.sql; do
  to=${f##*--}; to=${to%.sql}
  [[ $(printf '%s\n' "$to" "0.10.0" | sort -V | head -1) == 0.10.0 ]] || continue
  if python3 - "$f" extension/sql/00_guard.sql <<'PY'; then
import sys
script, guard = (open(p).read() for p in sys.argv[1:])
body = script.split("\\quit\n", 1)[-1]
at = body.find(guard)
before = [l for l in body[:at].splitlines() if l.strip() and not l.lstrip().startswith("--")]
sys.exit(0 if at >= 0 and not before else 1)
PY
    check "$f starts with the guard of extension/sql/00_guard.sql" ok
  else
    check "$f starts with the guard of extension/sql/00_guard.sql" FAILED "copy extension/sql/00_guard.sql before its first statement"
  fi
done

# the concern files in the order they are joined: each names only ldp objects that it or
# an earlier file creates (a PL/pgSQL body binds late and would not say so itself)
order=$(python3 - extension/sql/*.sql <<'PY'
import re, sys, os
files = sorted(sys.argv[1:])
made = re.compile(r'CREATE\s+(?:OR\s+REPLACE\s+)?(?:FUNCTION|PROCEDURE|TABLE|VIEW|TYPE|AGGREGATE|DOMAIN)\s+@extschema@\.(\w+)', re.I)
first = {}
for i, f in enumerate(files):
    for m in made.finditer(open(f).read()):
        first.setdefault(m.group(1), i)
for i, f in enumerate(files):
    text = open(f).read()
    for m in re.finditer(r'@extschema@\.(\w+)', text):
        if first.get(m.group(1), i) > i:
            print('%s:%d uses %s of %s' % (os.path.basename(f), text.count('\n', 0, m.start()) + 1, m.group(1),
                                          os.path.basename(files[first[m.group(1)]])))
PY
)
if [[ -z $order ]]; then
  check "each file of extension/sql uses only the objects of itself and earlier files" ok
else
  check "each file of extension/sql uses only the objects of itself and earlier files" FAILED "$(head -3 <<<"$order")"
fi

# META.json (PGXN) describes this version: the distribution's and the extension's
meta_versions=$(python3 -c 'import json, sys; m = json.load(open("META.json")); print(m["version"], m["provides"]["ldp"]["version"])' 2>&1 || true)
if [[ $meta_versions == "$version $version" ]]; then
  check "META.json names version $version" ok
else
  check "META.json names version $version" FAILED "its distribution and ldp versions: $meta_versions"
fi

# the older releases that can be installed as they are: extension/ldp--<version>.sql
old_versions=()
for f in extension/ldp--*.sql; do
  v=${f#extension/ldp--}
  v=${v%.sql}
  [[ $v == *--* || $v == "$version" ]] || old_versions+=("$v")
done
((${#old_versions[@]} > 0)) || die "older releases" "no extension/ldp--<version>.sql besides $version"

trap cleanup EXIT
for old in "${old_versions[@]}"; do
  path=$(q postgres "SELECT path FROM pg_extension_update_paths('ldp') WHERE source = '$old' AND target = '$version'")
  if [[ -z $path ]]; then
    check "an update path from $old to $version" FAILED "pg_extension_update_paths has none"
    continue
  fi
  IFS=' ' read -r -a steps <<<"${path//--/ }"
  check "update path $path" ok

  # -------------------------------------------------------------------------
  # 2. the two installations
  cleanup
  q postgres "CREATE DATABASE $new_db" >/dev/null
  q postgres "CREATE DATABASE $old_db" >/dev/null
  if ! q "$new_db" "CREATE EXTENSION ldp" >"$out/create-new.log" 2>&1; then
    check "CREATE EXTENSION ldp" FAILED "$(tail -n 3 "$out/create-new.log")"
    continue
  fi
  got=$(q "$new_db" "SELECT extversion FROM pg_extension WHERE extname = 'ldp'")
  if [[ $got == "$version" ]]; then
    check "CREATE EXTENSION ldp installs $version" ok
  else
    check "CREATE EXTENSION ldp installs $version" FAILED "got $got"
  fi
  ok=1
  (
    psql -X -q -v ON_ERROR_STOP=1 -d "$old_db" -c "CREATE EXTENSION ldp VERSION '$old'"
    for v in "${steps[@]:1}"; do
      psql -X -q -v ON_ERROR_STOP=1 -d "$old_db" -c "ALTER EXTENSION ldp UPDATE TO '$v'"
    done
  ) >"$out/update-$old.log" 2>&1 || ok=0
  got=$(q "$old_db" "SELECT extversion FROM pg_extension WHERE extname = 'ldp'" 2>/dev/null || true)
  if ((ok)) && [[ $got == "$version" ]]; then
    check "CREATE EXTENSION ldp VERSION '$old', then ALTER EXTENSION ldp UPDATE TO each version, reaches $version" ok
  else
    check "CREATE EXTENSION ldp VERSION '$old' updated step by step" FAILED \
      "at version ${got:-none}: $(tail -n 3 "$out/update-$old.log")"
    continue
  fi

  # -------------------------------------------------------------------------
  # 3. the catalogs and the dumps
  for db in "$new_db" "$old_db"; do
    psql -X -q -v ON_ERROR_STOP=1 -d "$db" -f "$here/upgrade_catalog.sql" >"$out/catalog-$db.txt" 2>"$out/catalog-$db.err" ||
      die "catalog query in $db" "$(tail -n 3 "$out/catalog-$db.err")"
    # pg_dump: without its version lines and the random key of \restrict
    "$pg_bin/pg_dump" --schema-only -d "$db" 2>"$out/dump-$db.err" |
      grep -v -E '^(-- Dumped (from|by) |\\(un)?restrict )' >"$out/dump-$db.sql" ||
      die "pg_dump of $db" "$(tail -n 3 "$out/dump-$db.err")"
  done
  functions=$(grep -c -E '^(function|procedure|aggregate) ' "$out/catalog-$new_db.txt" || true)
  lines=$(wc -l <"$out/catalog-$new_db.txt")
  if ((functions < 100)); then
    check "the catalog description lists the extension's routines" FAILED "only $functions in $out/catalog-$new_db.txt"
  elif diff -u -F "^[a-z]" --label "CREATE EXTENSION ldp ($version)" --label "$old updated to $version" \
        "$out/catalog-$new_db.txt" "$out/catalog-$old_db.txt" >"$out/catalog-$old.diff"; then
    check "catalog of CREATE EXTENSION ldp equals $old updated step by step ($functions routines, $lines lines)" ok
  else
    cat "$out/catalog-$old.diff"
    check "catalog of CREATE EXTENSION ldp equals $old updated step by step" FAILED \
      "$(grep -E '^[-+]' "$out/catalog-$old.diff" | grep -c -v -E '^(---|\+\+\+) ') lines differ, see build/upgrade/catalog-$old.diff"
  fi
  if diff -u --label "pg_dump, CREATE EXTENSION ldp ($version)" --label "pg_dump, $old updated to $version" \
       "$out/dump-$new_db.sql" "$out/dump-$old_db.sql" >"$out/dump-$old.diff"; then
    check "pg_dump --schema-only of CREATE EXTENSION ldp equals $old updated step by step" ok
  else
    cat "$out/dump-$old.diff"
    check "pg_dump --schema-only of CREATE EXTENSION ldp equals $old updated step by step" FAILED \
      "see build/upgrade/dump-$old.diff"
  fi
done

# ---------------------------------------------------------------------------
# 4. every SQL and PL/pgSQL function pins search_path (the comparison checks that the
#    install script keeps what the update scripts set; this checks the rule itself)
unpinned=$(q "$new_db" "
  SELECT string_agg(p.oid::regprocedure::text, ', ' ORDER BY 1)
  FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
  WHERE p.pronamespace = 'ldp'::regnamespace AND l.lanname IN ('sql', 'plpgsql')
    AND NOT coalesce('search_path=pg_catalog, pg_temp' = ANY (p.proconfig), false)")
if [[ -z $unpinned ]]; then
  check "every SQL and PL/pgSQL function pins search_path = pg_catalog, pg_temp" ok
else
  check "every SQL and PL/pgSQL function pins search_path = pg_catalog, pg_temp" FAILED "not: $unpinned"
fi

if ((failures > 0)); then
  echo "upgrade: $failures check(s) failed; the catalogs, dumps and diffs are in build/upgrade/" >&2
  exit 1
fi
