# shellcheck shell=bash
# pgversions.sh: PostgreSQL majors other than Debian 12's 15, built from Debian's source
# packages into a cache outside the checkout. Sourced by pgenv.sh; do not run it.
#
#   ldp_pg_cache_root            prints the cache: $LDP_PG_CACHE, else /var/cache/ldp-pg
#                                when it is (or can be made) writable, else
#                                ${XDG_CACHE_HOME:-$HOME/.cache}/ldp-pg
#   ldp_pg_cached MAJOR          prints the bin directory of the newest complete build of
#                                MAJOR in the cache (of the flavour MAJOR is built in), or
#                                fails quietly when there is none
#   ldp_pg_build MAJOR           prints the bin directory of a build of MAJOR, building it
#                                first when the cache lacks the version Debian's source
#                                index names now (a network fetch); without network it
#                                falls back to the newest build in the cache
#
# Sources: Debian's source packages postgresql-MAJOR, found through a private apt
# configuration (its own sources list, lists and cache directories under the cache root;
# the machine's own apt sources are untouched) naming the deb-src suites of trixie
# (17) and sid (18, 19's betas in experimental). apt checks each file it fetches against
# the signed index. Where the index names a version the archive no longer (or not yet)
# serves, the pinned fallback below is fetched from the pool and checked against its
# recorded SHA-256.
#
# Builds: MAJOR in $LDP_PG_ASSERT_MAJORS (default 18) is built with --enable-cassert
# --enable-debug (the server's assertions catch memory-context and catalog misuse that a
# release build hides); the others as release builds. One directory per source package
# version and flavour, e.g. 18.6-3-cassert/: the build is made in a temporary directory
# beside it and renamed when complete, so an interrupted build is never reused. A build
# of another version of the same major stays until removed by hand.

_LDP_PG_SUITES=(
  "http://deb.debian.org/debian trixie main"
  "http://deb.debian.org/debian-security trixie-security main"
  "http://deb.debian.org/debian sid main"
  "http://deb.debian.org/debian experimental main"
)
# MAJOR -> "source-package-version sha256-of-orig-tarball": used only when the version the
# index names cannot be fetched (seen for 17 on 2026-11-27: trixie's index names
# 17.12-0+deb13u1, whose files the archive here does not serve yet).
declare -A _LDP_PG_PINNED=(
  [17]="17.11-0+deb13u1 dd27f2b3c59e73ed14aa3324901242bf69a032a6347805f274e6260322d42979"
)

ldp_pg_cache_root() {
  if [[ -n ${LDP_PG_CACHE:-} ]]; then
    printf '%s\n' "$LDP_PG_CACHE"
  elif mkdir -p /var/cache/ldp-pg 2>/dev/null && [[ -w /var/cache/ldp-pg ]]; then
    printf '%s\n' /var/cache/ldp-pg
  else
    printf '%s\n' "${XDG_CACHE_HOME:-$HOME/.cache}/ldp-pg"
  fi
}

_ldp_pg_flavour() {  # MAJOR -> "cassert" or ""
  local m
  for m in ${LDP_PG_ASSERT_MAJORS:-18}; do
    [[ $m == "$1" ]] && { echo cassert; return; }
  done
  echo ""
}

_ldp_pg_dirname() {  # MAJOR VERSION -> the cache entry's name
  local f
  f=$(_ldp_pg_flavour "$1")
  printf '%s%s\n' "$2" "${f:+-$f}"
}

ldp_pg_cached() {
  local major=${1:?usage: ldp_pg_cached MAJOR} root f best=''
  root=$(ldp_pg_cache_root)
  f=$(_ldp_pg_flavour "$major")
  local d
  # newest version first (sort -V), complete builds only
  while read -r d; do
    if [[ -z $d ]] || ! _ldp_pg_built "$d"; then continue; fi
    if [[ -n $f ]]; then [[ $d == *-"$f" ]] || continue; else [[ $d != *-cassert ]] || continue; fi
    best=$d
  done < <(ls -d "$root/$major".*/ 2>/dev/null | sed 's:/$::' | sort -V)
  [[ -n $best ]] || return 1
  printf '%s\n' "$best/prefix/bin"
}

# apt with the private configuration: apt_private ROOT apt-get|apt-cache ARGS...
_ldp_apt_private() {
  local root=$1 tool=$2; shift 2
  "$tool" -o Dir::Etc::SourceList="$root/apt/sources.list" -o Dir::Etc::SourceParts=/dev/null \
    -o Dir::State::Lists="$root/apt/lists" -o Dir::Cache="$root/apt/cache" \
    -o Debug::NoLocking=1 -o APT::Sandbox::User=root "$@"
}

_ldp_apt_prepare() {  # ROOT: writes the sources list and refreshes the private index
  local root=$1 s
  mkdir -p "$root/apt/lists/partial" "$root/apt/cache/archives/partial" || return 1
  for s in "${_LDP_PG_SUITES[@]}"; do
    echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $s"
  done >"$root/apt/sources.list"
  _ldp_apt_private "$root" apt-get -q update >"$root/apt/update.log" 2>&1
}

# The version the index names for postgresql-MAJOR (the highest of the suites).
_ldp_pg_index_version() {
  _ldp_apt_private "$1" apt-cache showsrc "postgresql-$2" 2>/dev/null |
    sed -n 's/^Version: //p' | sort -V | tail -n 1
}

# Fetches the sources of postgresql-MAJOR VERSION into DIR (the .orig.tar.bz2 at least).
_ldp_pg_fetch() {  # ROOT MAJOR VERSION DIR
  local root=$1 major=$2 version=$3 dir=$4
  mkdir -p "$dir" || return 1
  if (cd "$dir" && _ldp_apt_private "$root" apt-get -q source --download-only \
        "postgresql-$major=$version") >"$dir/fetch.log" 2>&1; then
    return 0
  fi
  return 1
}

_ldp_pg_fetch_pinned() {  # MAJOR DIR -> prints the pinned version when fetched and checked
  local major=$1 dir=$2 pin version sum upstream url
  pin=${_LDP_PG_PINNED[$major]:-}
  [[ -n $pin ]] || return 1
  version=${pin%% *}; sum=${pin#* }
  upstream=${version%-*}
  url="http://deb.debian.org/debian/pool/main/p/postgresql-$major/postgresql-${major}_$upstream.orig.tar.bz2"
  mkdir -p "$dir" || return 1
  curl -fsS -m 600 -o "$dir/postgresql-${major}_$upstream.orig.tar.bz2" "$url" 2>>"$dir/fetch.log" || return 1
  if [[ $(sha256sum <"$dir/postgresql-${major}_$upstream.orig.tar.bz2" | cut -d' ' -f1) != "$sum" ]]; then
    _ldp_say "the pinned sources of postgresql-$major $version do not match their recorded SHA-256"
    return 1
  fi
  printf '%s\n' "$version"
}

_ldp_pg_built() {  # ENTRY: a complete build?
  [[ -x $1/prefix/bin/pg_config && -f $1/BUILD-INFO ]]
}

_ldp_pg_fall_back() {  # MAJOR WHY CACHED_BIN: the cached build instead, or the failure
  if [[ -n $3 ]]; then
    _ldp_say "PostgreSQL $1: $2; using the cached build in $(dirname "$(dirname "$3")")"
    printf '%s\n' "$3"
    return 0
  fi
  _ldp_die "PostgreSQL $1: $2"
}

ldp_pg_build() {
  local major=${1:?usage: ldp_pg_build MAJOR} root version='' cached
  root=$(ldp_pg_cache_root)
  mkdir -p "$root" || { _ldp_die "cannot create the cache $root (set LDP_PG_CACHE)"; return 1; }
  cached=$(ldp_pg_cached "$major" || true)
  if _ldp_apt_prepare "$root"; then
    version=$(_ldp_pg_index_version "$root" "$major")
  fi
  if [[ -z $version ]]; then
    _ldp_pg_fall_back "$major" "Debian's source index names no postgresql-$major (network? see $root/apt/update.log)" "$cached"
    return
  fi
  local entry
  entry=$root/$(_ldp_pg_dirname "$major" "$version")
  if _ldp_pg_built "$entry"; then
    printf '%s\n' "$entry/prefix/bin"
    return 0
  fi
  local pin=${_LDP_PG_PINNED[$major]:-}
  local tmp
  tmp=$(mktemp -d "$root/.build-$major.XXXXXX") || return 1
  _ldp_say "PostgreSQL $major: fetching the sources of postgresql-$major $version"
  if ! _ldp_pg_fetch "$root" "$major" "$version" "$tmp/src"; then
    if [[ -n $pin ]]; then
      local pinned_entry
      pinned_entry=$root/$(_ldp_pg_dirname "$major" "${pin%% *}")
      if _ldp_pg_built "$pinned_entry"; then
        rm -rf "$tmp"
        _ldp_say "PostgreSQL $major: the archive does not serve $version; using the cached pinned ${pin%% *}"
        printf '%s\n' "$pinned_entry/prefix/bin"
        return 0
      fi
      _ldp_say "PostgreSQL $major: the archive does not serve $version; fetching the pinned ${pin%% *}"
      if version=$(_ldp_pg_fetch_pinned "$major" "$tmp/src"); then
        entry=$pinned_entry
      else
        version=''
      fi
    else
      version=''
    fi
  fi
  if [[ -z $version ]]; then
    tail -n 5 "$tmp/src/fetch.log" >&2 2>/dev/null || true
    rm -rf "$tmp"
    _ldp_pg_fall_back "$major" "cannot fetch the sources of postgresql-$major" "$cached"
    return
  fi
  _ldp_pg_compile "$major" "$version" "$tmp" || { rm -rf "$tmp"; return 1; }
  rm -rf "$entry"
  mv "$tmp" "$entry" || return 1
  # the prefix records nothing of the temporary path (PostgreSQL finds its directories
  # relative to its binaries); the build tree is not kept
  printf '%s\n' "$entry/prefix/bin"
}

# Builds the sources fetched into TMP/src into TMP/prefix; TMP/BUILD-INFO last.
_ldp_pg_compile() {  # MAJOR VERSION TMP
  local major=$1 version=$2 tmp=$3 tarball flavour jobs
  tarball=$(ls "$tmp"/src/postgresql-"$major"_*.orig.tar.* 2>/dev/null | head -n 1)
  [[ -f $tarball ]] || { _ldp_die "no .orig tarball in $tmp/src"; return 1; }
  flavour=$(_ldp_pg_flavour "$major")
  jobs=$(nproc 2>/dev/null || echo 2)
  local configure=(--prefix="$tmp/prefix" --without-icu --with-openssl)
  [[ -n $flavour ]] && configure+=(--enable-cassert --enable-debug)
  _ldp_say "PostgreSQL $major: building $version${flavour:+ with assertions} in $tmp (a few minutes; log: $tmp/build.log)"
  local t0=$SECONDS
  if ! (set -e
        mkdir -p "$tmp/build"
        tar -xf "$tarball" -C "$tmp/build" --strip-components=1
        cd "$tmp/build"
        ./configure "${configure[@]}"
        make -j "$jobs"
        make install
        make -C src/test/isolation install
        ) >"$tmp/build.log" 2>&1; then
    tail -n 30 "$tmp/build.log" >&2
    _ldp_die "PostgreSQL $major: the build of $version failed (log above)"
    return 1
  fi
  rm -rf "$tmp/build" "$tmp/src"
  {
    echo "source: Debian source package postgresql-$major $version ($(basename "$tarball"))"
    echo "configure: ${configure[*]:1}"
    echo "built: $(date -u +%Y-%m-%dT%H:%M:%SZ) in $((SECONDS - t0)) s"
  } >"$tmp/BUILD-INFO"
  _ldp_say "PostgreSQL $major: built $version in $((SECONDS - t0)) s"
}
