#!/usr/bin/env bash
# The suite on another PostgreSQL major (17, 18, ...), built from Debian's source package
# into a cache outside the checkout (src/tools/pgversions.sh: LDP_PG_CACHE, default
# /var/cache/ldp-pg or ~/.cache/ldp-pg; 18 with assertions):
#
#   1. builds PostgreSQL MAJOR once (reused while Debian's index names the same version);
#   2. copies the checkout's sources to build/pgMAJOR/src (PGXS puts its objects beside
#      the sources, and the checkout's own objects are 15's), builds ldp there against
#      MAJOR, and installs it into a private copy of that build in a scratch directory;
#   3. starts a temporary cluster (.pg/pgMAJOR) and runs there the pg_regress and
#      isolation tests, the upgrade-catalog test (test/upgrade_catalog.sh) and the dump
#      and restore test (test/dump_restore.sh), and the doc test's pages and signature
#      check (test/doctest.py);
#   4. pg_upgrade from 15 to MAJOR, --copy and --link, and pg_dump from 15 restored into
#      MAJOR (test/pg_upgrade.sh), with a private copy of 15 with this checkout's ldp.
#
#   test/pg_major.sh MAJOR
#
# Prints "pgMAJOR <stage>: CHECK ... ok|FAILED" lines (test/run.sh counts them) and
# exits non-zero if one failed. Logs in build/pgMAJOR/.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../src/tools/pgenv.sh
source "$here/../src/tools/pgenv.sh"
root="$(ldp_root)"
cd "$root"
major=${1:?usage: test/pg_major.sh MAJOR}
[[ $major =~ ^[0-9]+$ && $major != 15 ]] || { echo "pg_major.sh: MAJOR is 16, 17, 18, ... (15 is test/run.sh's)" >&2; exit 2; }
jobs="$(nproc 2>/dev/null || echo 2)"
tag=pg$major
out=$root/build/$tag
copy=$out/src
status=0
step() { printf '== [%d:%02d] %s: %s\n' $((SECONDS / 60)) $((SECONDS % 60)) "$tag" "$*"; }
fail() {  # a stage that could not even run: one FAILED line
  echo "$tag $1: ... FAILED ($2)"
  status=1
}
# the lines "<stage>: CHECK ... ok|FAILED" of a test script, prefixed with the major
prefix() { sed -u "s/^\([a-z_]*: .* \.\.\. \(ok\|FAILED.*\)\)$/$tag \1/"; }

ldp_install_deps
# what a PostgreSQL source build needs beyond the packages of the 15 build
ldp_install_packages bison flex libreadline-dev zlib1g-dev libssl-dev curl rsync

step "PostgreSQL $major (the cache: $(ldp_pg_cache_root))"
new_bin=$(ldp_pg_build "$major") || { fail "build" "PostgreSQL $major could not be built"; exit 1; }
echo "$tag: PostgreSQL $("$new_bin/pg_config" --version | sed 's/^PostgreSQL //') from $(dirname "$new_bin") ($(grep '^source' "$(dirname "$new_bin")/../BUILD-INFO" | sed 's/^source: //'))"

step "build ldp against PostgreSQL $major (PGXS, in build/$tag/src)"
# the sources without the checkout's objects; the copy's own objects stay between runs
# (make rebuilds what changed), and what the checkout no longer has goes
mkdir -p "$copy"
rsync -a --delete --exclude='*.o' --exclude='*.so' --exclude='*.bc' --exclude='/build/' \
  --include='/Makefile' --include='/META.json' --include='/extension/***' --include='/sql/***' \
  --include='/expected/***' --include='/specs/***' --include='/src/' --include='/src/core/***' \
  --include='/src/pg/***' --include='/test/' --include='/test/upgrade_catalog.*' \
  --include='/test/dump_restore.sh' --include='/test/ldp_objects.sh' --include='/test/ldp_snapshot.sql' --include='/test/fuzz/***' --exclude='*' ./ "$copy/"
if ! make -C "$copy" -j "$jobs" PG_CONFIG="$new_bin/pg_config" >"$out/build.log" 2>&1; then
  grep -E 'error|Error' "$out/build.log" | head -n 30 >&2
  fail "build" "ldp does not build against PostgreSQL $major: build/$tag/build.log"
  exit 1
fi
echo "$tag build: ldp against PostgreSQL $major ... ok"

export LDP_PRIVATE_CLUSTER=1
unset PGHOST PGPORT PGUSER PGDATABASE
cluster=$root/.pg/$tag
ldp_cluster_stop "$cluster" --force >/dev/null 2>&1 || true
rm -rf "$(ldp_cluster_dir "$cluster")" "$cluster"
# shellcheck disable=SC2317  # called by the EXIT trap
cleanup() {
  [[ -f $(ldp_cluster_dir "$cluster")/log ]] && cp "$(ldp_cluster_dir "$cluster")/log" "$out/server.log"
  ldp_cluster_stop "$cluster" --force >/dev/null 2>&1 || true
  rm -rf "$(ldp_cluster_dir "$cluster")" "$cluster"
  ldp_scratch_cleanup
}
trap cleanup EXIT
ldp_scratch_make "$tag"
LDP_PG_BIN=$(LDP_PG_FROM=$new_bin ldp_private_pg "$(ldp_scratch_dir "$tag")/prefix" "$copy")
export LDP_PG_BIN
ldp_cluster_start "$cluster" "log_min_messages = warning" >/dev/null

step "pg_regress and isolation tests"
if make -C "$copy" installcheck PG_CONFIG="$LDP_PG_BIN/pg_config" >"$out/regress.log" 2>&1; then :; else
  status=1
  for d in "$copy"/build/regress/regression.diffs "$copy"/build/isolation/regression.diffs; do
    [[ -f $d ]] && cp "$d" "$out/" && head -n 200 "$d"
  done
fi
# 15's pg_regress prints "test NAME ... ok", 16's and later TAP: "ok 1 - NAME  12 ms"
sed -nE -e 's/^ok +[0-9]+ +[-+] +([A-Za-z_0-9]+) .*/ok \1/p' \
        -e 's/^not ok +[0-9]+ +[-+] +([A-Za-z_0-9]+) .*/FAILED \1/p' \
        -e 's/^test ([A-Za-z_0-9]+) +\.\.\. +(ok|FAILED).*/\2 \1/p' "$out/regress.log" |
  while read -r result name; do echo "$tag regress: $name ... $result"; done | tee "$out/regress.lines"
grep -q ' \.\.\. ok$' "$out/regress.lines" || fail "regress" "no test ran: build/$tag/regress.log"

step "upgrade: CREATE EXTENSION ldp against 0.1.0 updated step by step"
bash "$copy/test/upgrade_catalog.sh" 2>&1 | prefix || status=1

step "dump and restore"
bash "$copy/test/dump_restore.sh" 2>&1 | prefix || status=1

step "doc test: the examples of README.md and docs/, the signatures against the catalog"
PSQL="$LDP_PG_BIN/psql" python3 "$here/doctest.py" --pages --catalog 2>&1 | prefix || status=1

ldp_cluster_stop "$cluster" --force >/dev/null 2>&1 || true

step "pg_upgrade from 15 to $major (--copy, --link) and pg_dump from 15 restored into $major"
if [[ -z ${LDP_PG15_BIN:-} ]]; then
  # a private copy of 15 with this checkout's ldp (test/run.sh passes its own)
  make -j "$jobs" PG_CONFIG="$_LDP_SYSTEM_PG/bin/pg_config" >"$out/build15.log" 2>&1
  ldp_scratch_make "$tag-15"
  LDP_PG15_BIN=$(LDP_PG_FROM='' ldp_private_pg "$(ldp_scratch_dir "$tag-15")/prefix" "$root")
fi
bash "$here/pg_upgrade.sh" "$LDP_PG15_BIN" "$LDP_PG_BIN" 2>&1 | prefix || status=1

step "end"
exit "$status"
