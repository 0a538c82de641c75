# shellcheck shell=bash
# pgenv.sh: shared helpers for the ldp demo and test scripts. Source it, do not run it:
#
#   source "$(dirname "$0")/pgenv.sh"
#   ldp_install_deps
#   ldp_cluster_start "$(ldp_root)/.pg/test" "log_min_messages = warning"
#   trap 'ldp_cluster_stop "$(ldp_root)/.pg/test"' EXIT
#
# Functions:
#   ldp_root                      prints the project root
#   ldp_install_deps              installs the Debian packages the build needs (apt-get)
#   ldp_install_packages PKG...   installs those of the Debian packages PKG... that are missing
#   ldp_cluster_start DIR [LINE...]
#                                 starts (creating it if needed) a private PostgreSQL 15
#                                 cluster in DIR listening on 127.0.0.1, and exports
#                                 PGHOST PGPORT PGUSER PGDATABASE; LINEs are appended to
#                                 its postgresql.conf. If PGHOST, PGPORT or PGDATABASE are
#                                 already set, the server they name is used instead (only
#                                 checked with `select 1`); LDP_PRIVATE_CLUSTER=1 forces
#                                 the private cluster anyway.
#                                 pg_cron is preloaded when the installation has it (unless
#                                 LDP_NO_CRON=1).
#   ldp_cluster_stop DIR [--force]
#                                 stops the cluster in DIR if this shell started it (or
#                                 whenever it runs, with --force)
#   ldp_cluster_dir DIR           prints where the cluster for DIR really lives (DIR, or a
#                                 directory under /tmp when the postgres user cannot reach DIR)
#   ldp_cluster_port DIR          prints the port of the running cluster in DIR
#   ldp_initdb DIR [ARGS...]      initdb of LDP_PG_BIN in DIR as the cluster owner, as
#                                 ldp_cluster_start makes its clusters (trust, user postgres,
#                                 UTF8, locale C), with initdb's ARGS added
#   ldp_as_owner CMD...           runs CMD as the cluster owner (postgres when root) from /
#   ldp_owner_dir DIR             creates DIR (with its parents) for the cluster owner
#   ldp_pick_port [FROM]          prints the first free TCP port on 127.0.0.1 from FROM
#                                 (default LDP_PORT_BASE) upwards
#   ldp_user_server               true when PGHOST, PGPORT or PGDATABASE name a server of
#                                 the user's (and LDP_PRIVATE_CLUSTER is not 1)
#   ldp_scratch_dir NAME          prints ${TMPDIR:-/tmp}/ldp-NAME-<hash of the checkout's real
#                                 path>: where a script puts what the server (the postgres
#                                 user) must read or execute, which a checkout in a private
#                                 directory (a home of mode 0700) cannot hold
#   ldp_scratch_make NAME         removes what an earlier (killed) run left in that directory,
#                                 creates it empty and readable by the postgres user, and
#                                 remembers it for ldp_scratch_cleanup (call it in the script's
#                                 shell, not in $(...); stop a cluster running from it first)
#   ldp_scratch_cleanup           removes the directories ldp_scratch_make made (EXIT traps,
#                                 after stopping the clusters that run from them)
#   ldp_private_pg PREFIX SRC [MAKE_ARGS...]
#                                 a private copy of PostgreSQL 15 in PREFIX (a scratch
#                                 directory: /usr/lib/postgresql/15 and /usr/share/postgresql/15,
#                                 pg_cron included; PostgreSQL finds its share and lib
#                                 directories relative to its binaries) with the extension
#                                 built in SRC installed into it (make install DESTDIR=PREFIX,
#                                 and nothing of another ldp); prints its bin directory, for
#                                 LDP_PG_BIN. The system's installation is never written.
#                                 With LDP_PG_FROM set to the bin directory of another
#                                 installation (a build of pgversions.sh's cache), a copy of
#                                 that one instead (make install PG_CONFIG=<the copy's>).
#   ldp_pg_major [BIN]            prints the major version of the PostgreSQL in BIN
#                                 (default LDP_PG_BIN)
#   ldp_pg_cache_root, ldp_pg_cached MAJOR, ldp_pg_build MAJOR
#                                 PostgreSQL 17, 18, ... built from Debian's source packages
#                                 into a cache outside the checkout (pgversions.sh)
#   ldp_word_file [FILE]          chooses the word-count file (word<TAB>count) of the demo and
#                                 bench/freq.sh and prints it and, after a tab, which it is:
#                                 FILE when given (it must be readable), else
#                                 ../shared/data/subtlex_us_words.tsv beside the checkout when
#                                 it exists (the full SUBTLEX-US list), else the bundled
#                                 test/data/subtlex_top1000.tsv. Read it on the client side
#                                 (\copy ... FROM STDIN, ldp_load): the server may not reach it.
#
# Callers use `set -euo pipefail`; every function returns non-zero with a message on
# stderr when it fails. Environment knobs: LDP_PG_BIN (default
# /usr/lib/postgresql/15/bin), LDP_PORT_BASE (first port tried, default 54320),
# LDP_SERVER_ENV (VAR=value words, no spaces inside a word, set in the server's
# environment when ldp_cluster_start starts or restarts it, e.g. the sanitizer runtime
# of test/fuzz.sh: "LD_PRELOAD=... ASAN_OPTIONS=..."; runuser would not pass them).

_LDP_SYSTEM_PG=/usr/lib/postgresql/15
LDP_PG_BIN=${LDP_PG_BIN:-$_LDP_SYSTEM_PG/bin}
LDP_PORT_BASE=${LDP_PORT_BASE:-54320}
_LDP_PGENV_FILE=${BASH_SOURCE[0]}
_LDP_STARTED=()  # cluster directories this shell started
_LDP_SCRATCH=()  # scratch directories this shell made (ldp_scratch_make)

_ldp_say() { printf 'ldp: %s\n' "$*" >&2; }
_ldp_die() { printf 'ldp: error: %s\n' "$*" >&2; return 1; }
# shellcheck source=pgversions.sh
source "$(dirname "$_LDP_PGENV_FILE")/pgversions.sh"

ldp_root() {
  (cd "$(dirname "$_LDP_PGENV_FILE")/../.." && pwd -P)
}

# ---------------------------------------------------------------------------
# Packages

ldp_install_deps() {
  ldp_install_packages build-essential cmake pkg-config postgresql-15 postgresql-server-dev-15 \
    postgresql-15-cron libpqxx-dev libxxhash-dev libboost-dev libgtest-dev \
    googletest libbenchmark-dev libssl-dev libeigen3-dev python3 universal-ctags
}

ldp_install_packages() {
  local missing=() p status
  for p in "$@"; do
    status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
    [[ $status == installed ]] || missing+=("$p")
  done
  ((${#missing[@]} == 0)) && return 0

  local sudo=()
  if ((EUID != 0)); then
    command -v sudo >/dev/null 2>&1 ||
      { _ldp_die "missing packages (${missing[*]}) and no sudo to install them"; return 1; }
    sudo=(sudo)
  fi
  _ldp_say "installing ${missing[*]} (apt-get)"
  local log
  log=$(mktemp "${TMPDIR:-/tmp}/ldp-apt.XXXXXX")
  if ! { "${sudo[@]}" apt-get update -qq &&
         "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
           apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
    tail -n 30 "$log" >&2
    rm -f "$log"
    _ldp_die "apt-get failed to install: ${missing[*]}"
    return 1
  fi
  rm -f "$log"
}

# ---------------------------------------------------------------------------
# What the server reads or executes: scratch directories under ${TMPDIR:-/tmp}

ldp_scratch_dir() {
  local name=${1:?usage: ldp_scratch_dir NAME} tag
  tag=$(printf '%s' "$(ldp_root)" | md5sum | cut -c1-10)
  printf '%s\n' "${TMPDIR:-/tmp}/ldp-$name-$tag"
}

ldp_scratch_make() {
  local dir
  dir=$(ldp_scratch_dir "${1:?usage: ldp_scratch_make NAME}") || return 1
  rm -rf "$dir"   # what a killed run left
  if ! { mkdir -p "$dir" && chmod 755 "$dir"; }; then _ldp_die "cannot create $dir"; return 1; fi
  if ((EUID == 0)) && ! runuser -u postgres -- test -r "$dir" -a -x "$dir" 2>/dev/null; then
    rm -rf "$dir"
    _ldp_die "the postgres user cannot reach $dir; set TMPDIR to a directory it can reach"
    return 1
  fi
  _LDP_SCRATCH+=("$dir")
}

ldp_scratch_cleanup() {
  local d
  for d in "${_LDP_SCRATCH[@]}"; do rm -rf "$d"; done
  _LDP_SCRATCH=()
}

ldp_pg_major() {
  local bin=${1:-$LDP_PG_BIN}
  "$bin/pg_config" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/'
}

ldp_private_pg() {
  local prefix=${1:?usage: ldp_private_pg PREFIX SRC [MAKE_ARGS...]} src=${2:?usage: ldp_private_pg PREFIX SRC}
  shift 2
  local sys=$_LDP_SYSTEM_PG out
  rm -rf "$prefix"
  if [[ -n ${LDP_PG_FROM:-} ]]; then
    _ldp_private_pg_from "$prefix" "$src" "$@"
    return
  fi
  mkdir -p "$prefix/usr/lib/postgresql" "$prefix/usr/share/postgresql" || return 1
  if ! { cp -a "$sys" "$prefix/usr/lib/postgresql/" &&
         cp -a /usr/share/postgresql/15 "$prefix/usr/share/postgresql/"; }; then
    _ldp_die "cannot copy PostgreSQL 15 into $prefix"
    return 1
  fi
  # only this build's ldp in the copy (the system may hold another version of it)
  rm -f "$prefix"/usr/share/postgresql/15/extension/ldp[.-]* "$prefix/usr/lib/postgresql/15/lib/ldp.so"
  if ! out=$(make -C "$src" install DESTDIR="$prefix" PG_CONFIG="$sys/bin/pg_config" "$@" 2>&1); then
    printf '%s\n' "$out" | tail -n 30 >&2
    _ldp_die "make install DESTDIR=$prefix failed"
    return 1
  fi
  local bin=$prefix/usr/lib/postgresql/15/bin
  if [[ $("$bin/pg_config" --sharedir) != "$prefix/usr/share/postgresql/15" ||
        $("$bin/pg_config" --pkglibdir) != "$prefix/usr/lib/postgresql/15/lib" ||
        ! -f $prefix/usr/lib/postgresql/15/lib/ldp.so ||
        ! -f $prefix/usr/share/postgresql/15/extension/ldp.control ]]; then
    _ldp_die "the copy in $prefix does not find its own share and lib directories, or has no ldp"
    return 1
  fi
  printf '%s\n' "$bin"
}

# A copy of the installation whose bin directory is LDP_PG_FROM (configure --prefix
# layout: bin/, lib/postgresql/, share/postgresql/), with SRC's ldp installed into it.
_ldp_private_pg_from() {
  local prefix=$1 src=$2 from out
  shift 2
  from=$(cd "$LDP_PG_FROM/.." && pwd -P) || { _ldp_die "no installation at $LDP_PG_FROM"; return 1; }
  { mkdir -p "$prefix" && cp -a "$from/." "$prefix/"; } || { _ldp_die "cannot copy $from into $prefix"; return 1; }
  local pgc=$prefix/bin/pg_config
  rm -f "$("$pgc" --sharedir)"/extension/ldp[.-]* "$("$pgc" --pkglibdir)/ldp.so"
  if ! out=$(make -C "$src" install PG_CONFIG="$pgc" "$@" 2>&1); then
    printf '%s\n' "$out" | tail -n 30 >&2
    _ldp_die "make install PG_CONFIG=$pgc failed"
    return 1
  fi
  if [[ $("$pgc" --sharedir) != "$prefix"/* || ! -f $("$pgc" --pkglibdir)/ldp.so ||
        ! -f $("$pgc" --sharedir)/extension/ldp.control ]]; then
    _ldp_die "the copy in $prefix does not find its own share and lib directories, or has no ldp"
    return 1
  fi
  printf '%s\n' "$prefix/bin"
}

# ---------------------------------------------------------------------------
# Word counts

ldp_word_file() {
  local given=${1:-} root shared
  root=$(ldp_root)
  shared=$root/../shared/data/subtlex_us_words.tsv
  if [[ -n $given ]]; then
    [[ -r $given && -f $given ]] || { _ldp_die "cannot read the word file $given"; return 1; }
    printf '%s\t%s\n' "$given" "$given (given)"
  elif [[ -r $shared && -f $shared ]]; then
    printf '%s\t%s\n' "$(cd "$(dirname "$shared")" && pwd -P)/subtlex_us_words.tsv" \
      "../shared/data/subtlex_us_words.tsv beside the checkout (the full SUBTLEX-US list)"
  else
    printf '%s\t%s\n' "$root/test/data/subtlex_top1000.tsv" \
      "the bundled test/data/subtlex_top1000.tsv (the 1000 most frequent words; there is no ../shared/data/subtlex_us_words.tsv beside the checkout)"
  fi
}

# ---------------------------------------------------------------------------
# Private clusters

ldp_user_server() {
  [[ ${LDP_PRIVATE_CLUSTER:-0} != 1 && -z ${_LDP_OWN_ENV:-} &&
     ( -n ${PGHOST:-} || -n ${PGPORT:-} || -n ${PGDATABASE:-} ) ]]
}

# Runs a command as the user that owns the clusters: `postgres` when we are root
# (initdb and postgres refuse to run as root), ourselves otherwise. As postgres it runs
# from / (every path given is absolute): the checkout may be a directory postgres cannot
# enter, and pg_ctl would warn that it cannot change to it.
ldp_as_owner() {
  if ((EUID == 0)); then
    (cd / && runuser -u postgres -- "$@")
  else
    "$@"
  fi
}

# pg_ctl start/restart with LDP_SERVER_ENV in the server's environment.
_ldp_pg_ctl_start() {
  local envs=()
  read -r -a envs <<<"${LDP_SERVER_ENV:-}"
  ldp_as_owner env "${envs[@]}" "$LDP_PG_BIN/pg_ctl" "$@"
}

_ldp_abs() {  # absolute path of $1, which need not exist yet
  case $1 in
    /*) printf '%s\n' "$1" ;;
    *) printf '%s/%s\n' "$(pwd -P)" "$1" ;;
  esac
}

# Can the cluster owner create and use $1? (Every parent must be traversable.)
_ldp_owner_can_use() {
  local dir=$1
  if ((EUID == 0)); then
    id postgres >/dev/null 2>&1 || { _ldp_die "running as root but there is no 'postgres' user"; return 1; }
    mkdir -p "$dir" 2>/dev/null || return 1
    chown postgres:postgres "$dir" 2>/dev/null || return 1
    runuser -u postgres -- test -r "$dir" -a -w "$dir" -a -x "$dir" 2>/dev/null
  else
    mkdir -p "$dir" 2>/dev/null && test -r "$dir" -a -w "$dir" -a -x "$dir"
  fi
}

# Where the cluster for DIR lives: DIR itself, or (when the cluster owner cannot reach
# DIR) a directory under /tmp named after DIR. Deterministic, so later calls agree.
ldp_cluster_dir() {
  local dir
  dir=$(_ldp_abs "${1:?usage: ldp_cluster_dir DIR}")
  dir=${dir%/}
  if [[ -f $dir/PG_VERSION ]] || { [[ ! -e $dir/.ldp-moved ]] && _ldp_owner_can_use "$dir"; }; then
    printf '%s\n' "$dir"
    return 0
  fi
  local tag
  tag=$(printf '%s' "$dir" | md5sum | cut -c1-10)
  printf '%s\n' "${TMPDIR:-/tmp}/ldp-pg-$(basename "$dir")-$tag"
}

ldp_owner_dir() {
  _ldp_owner_can_use "${1:?usage: ldp_owner_dir DIR}" || { _ldp_die "the cluster owner cannot use $1"; return 1; }
}

ldp_initdb() {
  local dir=${1:?usage: ldp_initdb DIR [INITDB_ARGS...]} out
  shift
  ldp_owner_dir "$dir" || return 1
  if ! out=$(ldp_as_owner "$LDP_PG_BIN/initdb" -D "$dir" -A trust -U postgres --no-sync \
               -E UTF8 --locale=C --no-instructions "$@" 2>&1); then
    printf '%s\n' "$out" >&2
    _ldp_die "initdb failed in $dir"
    return 1
  fi
}

_ldp_port_free() {  # is TCP port $1 on 127.0.0.1 free to bind?
  if command -v python3 >/dev/null 2>&1; then
    python3 - "$1" <<'EOF' 2>/dev/null
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
try:
    s.bind(("127.0.0.1", int(sys.argv[1])))
except OSError:
    sys.exit(1)
finally:
    s.close()
EOF
  else
    # Nothing accepts connections there (weaker than a bind test, but close).
    ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
  fi
}

ldp_pick_port() {  # first free port from $1 upwards
  local port=${1:-$LDP_PORT_BASE} last=$(( ${1:-$LDP_PORT_BASE} + 200 ))
  while ((port <= last)); do
    if _ldp_port_free "$port"; then
      printf '%s\n' "$port"
      return 0
    fi
    port=$((port + 1))
  done
  _ldp_die "no free TCP port on 127.0.0.1 between ${1:-$LDP_PORT_BASE} and $last"
}

_ldp_running() {  # is the cluster in $1 running?
  [[ -f $1/postmaster.pid ]] || return 1
  ldp_as_owner "$LDP_PG_BIN/pg_ctl" -D "$1" status >/dev/null 2>&1
}

# Port of the running cluster in DIR (line 4 of postmaster.pid).
ldp_cluster_port() {
  local dir
  dir=$(ldp_cluster_dir "${1:?usage: ldp_cluster_port DIR}") || return 1
  [[ -f $dir/postmaster.pid ]] || { _ldp_die "no cluster is running in $dir"; return 1; }
  sed -n 4p "$dir/postmaster.pid"
}

# Replaces the block between our markers in postgresql.conf with the given lines.
_ldp_write_conf_block() {
  local conf=$1; shift
  local tmp
  tmp=$(mktemp "${TMPDIR:-/tmp}/ldp-conf.XXXXXX")
  sed '/^# ldp: begin$/,/^# ldp: end$/d' "$conf" >"$tmp"
  {
    echo "# ldp: begin"
    echo "# Written by src/tools/pgenv.sh (ldp_cluster_start) on every start; edit above this block."
    printf '%s\n' "$@"
    echo "# ldp: end"
  } >>"$tmp"
  if ! cmp -s "$tmp" "$conf"; then
    cat "$tmp" >"$conf"  # keeps the file's owner and mode
    rm -f "$tmp"
    return 0   # changed
  fi
  rm -f "$tmp"
  return 1     # unchanged
}

_ldp_conf_lines() {  # dir port extra...
  local dir=$1 port=$2; shift 2
  local sockdir=$dir
  # A unix socket path is limited to 107 bytes; go TCP-only rather than fail.
  if (( ${#dir} + 20 > 100 )); then sockdir=''; fi
  echo "listen_addresses = '127.0.0.1'"
  echo "port = $port"
  echo "unix_socket_directories = '$sockdir'"
  if [[ ${LDP_NO_CRON:-0} != 1 && -f $("$LDP_PG_BIN/pg_config" --pkglibdir)/pg_cron.so ]]; then
    echo "shared_preload_libraries = 'pg_cron'"
    echo "cron.database_name = 'postgres'"
    # jobs run in background workers: no libpq connection, so no password to set up
    echo "cron.use_background_workers = on"
  fi
  echo "max_worker_processes = 16"
  # A throwaway cluster: durability buys nothing here.
  echo "fsync = off"
  echo "synchronous_commit = off"
  echo "full_page_writes = off"
  echo "logging_collector = off"
  echo "lc_messages = 'C'"
  if (($# > 0)); then
    echo "# extra settings from the caller"
    printf '%s\n' "$@"
  fi
}

ldp_cluster_start() {
  local want=${1:?usage: ldp_cluster_start DIR [EXTRA_CONF_LINES...]}
  shift

  # A server chosen by the user through the usual libpq variables.
  if ldp_user_server; then
    _ldp_say "using the server from the environment (PGHOST=${PGHOST:-} PGPORT=${PGPORT:-} PGDATABASE=${PGDATABASE:-})"
    if ! psql -X -q -At -c 'select 1' >/dev/null; then
      _ldp_die "cannot connect to that server; unset PGHOST/PGPORT/PGDATABASE to use a private cluster"
      return 1
    fi
    return 0
  fi

  [[ -x $LDP_PG_BIN/initdb ]] || { _ldp_die "$LDP_PG_BIN/initdb not found (run ldp_install_deps)"; return 1; }
  local dir major
  major=$(ldp_pg_major "$LDP_PG_BIN") || return 1
  dir=$(ldp_cluster_dir "$want") || return 1
  want=$(_ldp_abs "$want"); want=${want%/}
  if [[ $dir != "$want" ]]; then
    _ldp_say "the postgres user cannot reach $want; using $dir instead"
    if mkdir -p "$want" 2>/dev/null; then : >"$want/.ldp-moved" 2>/dev/null || true; fi
    _ldp_owner_can_use "$dir" || { _ldp_die "cannot prepare $dir for the postgres user"; return 1; }
  fi

  if [[ ! -f $dir/PG_VERSION ]]; then
    if [[ -n $(ls -A "$dir" 2>/dev/null) ]]; then
      _ldp_die "$dir exists, is not empty and holds no PostgreSQL cluster; remove it or choose another directory"
      return 1
    fi
    _ldp_say "creating a PostgreSQL $major cluster in $dir"
    ldp_initdb "$dir" || return 1
  elif [[ $(cat "$dir/PG_VERSION") != "$major" ]]; then
    _ldp_die "$dir holds a PostgreSQL $(cat "$dir/PG_VERSION") cluster, not $major"
    return 1
  fi

  local conf=$dir/postgresql.conf port
  if _ldp_running "$dir"; then
    port=$(sed -n 4p "$dir/postmaster.pid")
    if _ldp_write_conf_block "$conf" "$(_ldp_conf_lines "$dir" "$port" "$@")"; then
      _ldp_say "settings changed: restarting the cluster in $dir"
      _ldp_pg_ctl_start -D "$dir" -w -t 60 -m fast -l "$dir/log" restart >/dev/null ||
        { tail -n 20 "$dir/log" >&2; _ldp_die "restart failed (log: $dir/log)"; return 1; }
      _LDP_STARTED+=("$dir")
    else
      _ldp_say "reusing the cluster already running in $dir (port $port)"
    fi
  else
    # Keep the previous port when it is still free, else take the next free one; retry
    # if another process grabs the port between the bind test and the start.
    port=$(sed -n "s/^port = \([0-9]\+\)$/\1/p" "$conf" | tail -n 1)
    local attempt
    for attempt in 1 2 3 4 5; do
      if [[ -z $port ]] || ! _ldp_port_free "$port"; then
        port=$(ldp_pick_port "$LDP_PORT_BASE") || return 1
      fi
      _ldp_write_conf_block "$conf" "$(_ldp_conf_lines "$dir" "$port" "$@")" || true
      if _ldp_pg_ctl_start -D "$dir" -w -t 60 -l "$dir/log" start >/dev/null 2>&1; then
        break
      fi
      if grep -q "could not bind\|could not create listen socket" <(tail -n 5 "$dir/log" 2>/dev/null); then
        port=''
        continue
      fi
      tail -n 20 "$dir/log" >&2 || true
      # pg_ctl may have given up waiting on a server that is still coming up
      ldp_as_owner "$LDP_PG_BIN/pg_ctl" -D "$dir" -m immediate stop >/dev/null 2>&1 || true
      _ldp_die "the cluster in $dir did not start (log: $dir/log)"
      return 1
    done
    _ldp_running "$dir" || { _ldp_die "could not start the cluster in $dir after $attempt attempts"; return 1; }
    _LDP_STARTED+=("$dir")
    _ldp_say "started PostgreSQL $major in $dir on 127.0.0.1:$port"
  fi

  export PGHOST=127.0.0.1 PGPORT=$port PGUSER=postgres PGDATABASE=postgres
  _LDP_OWN_ENV=1
  local _
  for _ in $(seq 1 50); do
    psql -X -q -At -c 'select 1' >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  tail -n 20 "$dir/log" >&2 || true
  ldp_cluster_stop "$dir" >/dev/null 2>&1 || true  # only if this shell started it
  _ldp_die "the cluster in $dir runs but does not accept connections on port $port"
}

# A test's own cluster: builds the extension (PGXS, $PG_CONFIG), installs it into a
# private copy of PostgreSQL in the scratch directory NAME, starts a temporary cluster in
# .pg/NAME from it (LDP_PG_BIN, PGHOST, PGPORT set), and removes both at the script's exit
# (an EXIT trap). test/regress.sh and test/doctest.sh use it.
ldp_test_cluster() {
  local name=${1:?usage: ldp_test_cluster NAME} root
  root=$(ldp_root)
  ldp_install_deps || return 1
  make -C "$root" -j "$(nproc 2>/dev/null || echo 2)" PG_CONFIG="${PG_CONFIG:?}" >/dev/null || return 1
  export LDP_PRIVATE_CLUSTER=1
  _LDP_TEST_CLUSTER=$root/.pg/$name
  _ldp_test_cluster_remove
  trap _ldp_test_cluster_remove EXIT
  ldp_scratch_make "$name" || return 1
  LDP_PG_BIN="$(ldp_private_pg "$(ldp_scratch_dir "$name")/prefix" "$root")" || return 1
  export LDP_PG_BIN
  ldp_cluster_start "$_LDP_TEST_CLUSTER" "log_min_messages = warning" >/dev/null
}

# shellcheck disable=SC2317  # also called by the EXIT trap
_ldp_test_cluster_remove() {
  ldp_cluster_stop "$_LDP_TEST_CLUSTER" --force >/dev/null 2>&1 || true
  rm -rf "$(ldp_cluster_dir "$_LDP_TEST_CLUSTER")" "$_LDP_TEST_CLUSTER"
  ldp_scratch_cleanup
}

ldp_cluster_stop() {
  local want=${1:?usage: ldp_cluster_stop DIR [--force]} force=${2:-}
  local dir d ours=0
  dir=$(ldp_cluster_dir "$want") || return 1
  for d in "${_LDP_STARTED[@]}"; do
    [[ $d == "$dir" ]] && ours=1
  done
  if ((ours == 0)) && [[ $force != --force ]]; then
    return 0
  fi
  if [[ -f $dir/PG_VERSION ]] && _ldp_running "$dir"; then
    ldp_as_owner "$LDP_PG_BIN/pg_ctl" -D "$dir" -w -t 60 -m fast stop >/dev/null ||
      { _ldp_die "pg_ctl stop failed for $dir"; return 1; }
    _ldp_say "stopped the cluster in $dir"
  fi
  local keep=()
  for d in "${_LDP_STARTED[@]}"; do
    [[ $d == "$dir" ]] || keep+=("$d")
  done
  _LDP_STARTED=("${keep[@]}")
  if [[ ${_LDP_OWN_ENV:-} == 1 ]]; then
    unset PGHOST PGPORT PGUSER PGDATABASE _LDP_OWN_ENV
  fi
  return 0
}
