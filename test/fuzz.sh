#!/usr/bin/env bash
# Fuzzing the extension in a server, under AddressSanitizer + UndefinedBehaviorSanitizer:
#
#   1. builds ldp.so with -fsanitize=address,undefined: the core is the sanitizer build
#      of the unit tests (build/asan, CMake with LDP_SANITIZE=ON: its libldp_core.a,
#      built or brought up to date here), the PostgreSQL glue is compiled with the same
#      flags in a copy of the sources (build/asan-ext/src; Makefile: LDP_CORE_LIB), and
#      the whole is installed (make install DESTDIR=...) into a private copy
#      of PostgreSQL 15 (/usr/lib/postgresql/15 and /usr/share/postgresql/15, pg_cron
#      included; PostgreSQL finds its share and lib directories relative to its binaries,
#      so the copy is self-contained);
#   2. starts a private cluster from that copy (.pg/fuzz, ports from 55500) with the ASan
#      and UBSan runtimes preloaded into the postmaster, checks that they are loaded and
#      that planted bugs in a probe library are reported and counted (a positive control);
#      what the server reads, executes or writes outside its data directory (the copy,
#      the preloaded library, the probe, the sanitizer logs) is in the scratch directory
#      ${TMPDIR:-/tmp}/ldp-fuzz-<hash of the checkout's path> (src/tools/pgenv.sh:
#      ldp_scratch_make), which the postgres user can reach from any checkout; it is
#      made again at the start and removed at the end, with the cluster;
#   3. fills a database with reports of every mechanism, stored summaries and rollups,
#      collections with closed epochs and THRESH streams (test/fuzz/populate.sql);
#   4. runs sqlsmith against it as a non-superuser, steered towards ldp's functions
#      (populate.sql says how), every statement rolled back, statement_timeout 1-2 s;
#      notes the statements that ran 10 s or more all the same (build/fuzz/slow-statements.txt);
#   5. runs ldp_summary_fuzz (test/fuzz/summary_fuzz.cpp): mutated text and binary forms
#      of every summary type (mean, frequency, sketch, heavy hitters) and of
#      ldp.heavy_protocol through the input, receive, ldp.summary cast and accessor
#      functions (heavy_hitters, frequency, frequencies; a protocol: the encoder and the
#      aggregate), and user-defined aggregates over ldp's transition functions started
#      from them (treehist_trans with odd and out-of-range reports);
#   6. fails on a server crash, a sanitizer report, an assertion failure (TRAP) or PANIC,
#      an internal error (XX000) raised by ldp's code, or a summary form that is neither
#      refused with a data exception nor sound; stops the cluster (also on errors).
#
#   test/fuzz.sh [--queries N] [--forms N] [--seed S] [--weight W]
#     --queries  sqlsmith statements (default 5000, env LDP_FUZZ_QUERIES)
#     --forms    mutated summary forms (default 50000, env LDP_FUZZ_FORMS)
#     --seed     seed of both (default 1, env LDP_FUZZ_SEED)
#     --weight   how many times each ldp routine is listed for sqlsmith (default 25)
#   The long run: test/fuzz.sh --queries 100000 --forms 1000000
#
# Prints "fuzz: CHECK ... ok|FAILED" lines (test/run.sh counts them), then
# "fuzz: sqlsmith N queries, M errors (expected), C crashes", and exits non-zero if a
# check failed. Logs, the generated queries and any findings (crashing queries, sanitizer
# reports, failing summary forms) are in build/fuzz/ (the sanitizer logs copied to
# build/fuzz/san/ at the end).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd -P)
# shellcheck source=../src/tools/pgenv.sh
source "$here/../src/tools/pgenv.sh"
root=$(ldp_root)
cd "$root"

queries=${LDP_FUZZ_QUERIES:-5000}
forms=${LDP_FUZZ_FORMS:-50000}
seed=${LDP_FUZZ_SEED:-1}
weight=25
while (($# > 0)); do
  case $1 in
    --queries) queries=$2; shift 2 ;;
    --forms) forms=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --weight) weight=$2; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "fuzz.sh: unknown argument $1 (try --help)" >&2; exit 2 ;;
  esac
done

jobs=2
sys_pg_config=/usr/lib/postgresql/15/bin/pg_config
out=$root/build/fuzz                 # logs and findings of this run
asan=$root/build/asan-ext            # src/: the copy built with sanitizers
scratch=$(ldp_scratch_dir fuzz)      # what the server reads, executes or writes (see above)
prefix=$scratch/prefix               # the private copy of PostgreSQL with the sanitizer build
san=$scratch/san                     # the sanitizer logs the server writes
cluster=$root/.pg/fuzz
fuzz_role=ldp_fuzz
asan_core=$root/build/asan          # CMake, LDP_SANITIZE=ON: the core (and the unit tests)
t_start=$SECONDS

failures=0
check() {  # name ok|FAILED [detail]
  if [[ $2 == ok ]]; then
    echo "fuzz: $1 ... ok"
  else
    echo "fuzz: $1 ... FAILED${3:+ ($3)}"
    failures=$((failures + 1))
  fi
}
say() { printf "fuzz.sh: [%ds] %s\n" $((SECONDS - t_start)) "$*" >&2; }
die() { check "$1" FAILED "$2"; echo "fuzz: aborted" >&2; exit 1; }

# ---------------------------------------------------------------------------
# 0. tools
ldp_install_deps
if ! command -v sqlsmith >/dev/null 2>&1; then
  say "installing sqlsmith (apt-get)"
  sudo=(); ((EUID == 0)) || sudo=(sudo)
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends sqlsmith >/dev/null
fi
asan_rt=$(gcc -print-file-name=libasan.so)
ubsan_rt=$(gcc -print-file-name=libubsan.so)
[[ -e $asan_rt && -e $ubsan_rt ]] || die "sanitizer runtimes" "gcc -print-file-name=libasan.so / libubsan.so give no library"

# A killed run may have left its cluster running from the scratch directory: stop it
# (any pg_ctl of version 15 can) before that directory is made again.
unset PGHOST PGPORT PGUSER PGDATABASE _LDP_OWN_ENV
ldp_cluster_stop "$cluster" --force >/dev/null 2>&1 || true
rm -rf "$(ldp_cluster_dir "$cluster")" "$cluster"
# shellcheck disable=SC2317  # called by the EXIT trap
cleanup() {
  ldp_cluster_stop "$cluster" --force >/dev/null 2>&1 || true
  rm -rf "$(ldp_cluster_dir "$cluster")" "$cluster"
  if [[ -d $san ]]; then mkdir -p "$out/san"; cp -a "$san/." "$out/san/" 2>/dev/null || true; fi
  ldp_scratch_cleanup
}
trap cleanup EXIT
ldp_scratch_make fuzz
rm -rf "$out"
mkdir -p "$san" "$out/findings" "$out/probe" "$scratch/probe"
chmod 755 "$scratch/probe"
((EUID != 0)) || chown postgres "$san"   # the server writes its sanitizer logs there

# ---------------------------------------------------------------------------
# 1. the sanitizer build, installed into a private copy of PostgreSQL
# The core: the sanitizer build the unit tests ran in (test/run.sh builds it before this
# script runs; CMake brings it up to date when a source changed, or builds it afresh).
say "the core with ASan + UBSan: $asan_core/libldp_core.a (CMake)"
if ! { cmake -S . -B "$asan_core" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLDP_SANITIZE=ON -DLDP_BUILD_TOOLS=OFF &&
       cmake --build "$asan_core" -j "$jobs" --target ldp_core; } >"$out/build.log" 2>&1; then
  tail -n 30 "$out/build.log" >&2
  die "asan build" "the core's build in build/asan failed, see build/fuzz/build.log"
fi
# its flags (CMakeLists.txt, LDP_SANITIZE), for the glue and the probe; -g: the glue's
# variables in a debugger
san_flags="$(<"$asan_core/sanitize-flags.txt") -g"
say "building ldp.so with ASan + UBSan in $asan/src ($san_flags)"
# a fresh copy of the sources, without the objects of the normal build (which live next
# to the sources): the sanitizer objects of the glue are only ever built here
mkdir -p "$asan/src/src"
rm -rf "$asan/src/extension" "$asan/src/src/core" "$asan/src/src/pg"
cp -a Makefile extension "$asan/src/"
cp -a src/core src/pg "$asan/src/src/"
find "$asan/src" \( -name '*.o' -o -name '*.so' -o -name '*.bc' \) -delete
make_args=(PG_CONFIG="$sys_pg_config" LDP_EXTRA_CXXFLAGS="$san_flags"
           LDP_EXTRA_LDFLAGS='-fsanitize=address,undefined' LDP_CORE_LIB="$asan_core/libldp_core.a")
if ! make -C "$asan/src" -j "$jobs" "${make_args[@]}" >>"$out/build.log" 2>&1; then
  tail -n 30 "$out/build.log" >&2
  die "asan build" "make failed, see build/fuzz/build.log"
fi
bindir=$(ldp_private_pg "$prefix" "$asan/src" "${make_args[@]:1}" 2>>"$out/build.log") ||
  die "asan build" "make install DESTDIR=$prefix failed, see build/fuzz/build.log"
so=$("$bindir/pg_config" --pkglibdir)/ldp.so
if [[ $("$bindir/pg_config" --sharedir) == "$prefix/usr/share/postgresql/15" ]] &&
   [[ -f $("$bindir/pg_config" --sharedir)/extension/ldp.control ]] &&
   [[ $(ldd "$so") == *libasan* ]] && [[ -f $("$bindir/pg_config" --pkglibdir)/pg_cron.so ]]; then
  check "asan build installed into the private prefix" ok
else
  die "asan build installed into the private prefix" "$so: no libasan, or the copy does not find its share directory"
fi

# Preloaded next to the runtimes (see the file), and the probe of the positive control.
asan_options="detect_leaks=0:abort_on_error=1:disable_coredump=1:log_path=$san/asan"
ubsan_options="print_stacktrace=1:halt_on_error=1:abort_on_error=1:disable_coredump=1:log_path=$san/ubsan"
gcc -shared -fPIC -O2 -DLDP_FUZZ_UBSAN_OPTIONS="\"$ubsan_options\"" \
  -o "$scratch/sanitizer_preload.so" "$here/fuzz/sanitizer_preload.c"
gcc -shared -fPIC -O1 $san_flags -I"$($sys_pg_config --includedir-server)" \
  -o "$scratch/probe/ldp_fuzz_probe.so" "$here/fuzz/sanitizer_probe.c"
chmod 755 "$scratch/sanitizer_preload.so" "$scratch/probe/ldp_fuzz_probe.so"

say "building ldp_summary_fuzz (CMake, build/cmake)"
cmake -S . -B build/cmake -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build/cmake -j "$jobs" --target ldp_summary_fuzz >>"$out/build.log" 2>&1 ||
  die "summary fuzzer build" "see build/fuzz/build.log"

# ---------------------------------------------------------------------------
# 2. the sanitized server
export LDP_PG_BIN=$bindir LDP_PORT_BASE=55500 LDP_PRIVATE_CLUSTER=1
# The ASan runtime must come first; test/fuzz/sanitizer_preload.c says why the rest.
export LDP_SERVER_ENV="LD_PRELOAD=$asan_rt:$scratch/sanitizer_preload.so:$ubsan_rt \
ASAN_OPTIONS=$asan_options UBSAN_OPTIONS=$ubsan_options"
ldp_cluster_start "$cluster" "log_min_messages = warning" \
  "log_line_prefix = '%m [%p] %e %a: '" "log_min_error_statement = panic" \
  "log_error_verbosity = verbose" \
  "track_activity_query_size = 65536" "max_connections = 30" "track_functions = all"
dir=$(ldp_cluster_dir "$cluster")
log=$dir/log
pm=$(head -n 1 "$dir/postmaster.pid")
psql() { command psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }

# The runtime is in the postmaster, and a backend loads the prefix's ldp.so, next to it.
psql -c "CREATE DATABASE fuzz" -c "CREATE DATABASE probe"
maps=$(psql -d probe -c "CREATE EXTENSION ldp" -c "SELECT ldp.rr_encode(true, 1.0, 1)" \
         -c "SELECT pg_read_file('/proc/self/maps')" | grep -E 'libasan|/ldp\.so' | awk '{print $NF}' | sort -u)
if grep -q asan "/proc/$pm/maps" && grep -q libasan <<<"$maps" && grep -qxF "$so" <<<"$maps"; then
  check "sanitizer runtime in the server and the sanitized ldp.so in a backend" ok
else
  die "sanitizer runtime in the server and the sanitized ldp.so in a backend" \
    "postmaster $pm maps: $(grep -c asan "/proc/$pm/maps") asan lines; a backend maps: $(tr '\n' ' ' <<<"$maps")"
fi

wait_for_server() {
  local _
  for _ in $(seq 1 600); do
    psql -c 'select 1' >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  return 1
}
# Planted bugs: each must kill its backend and leave a report, which the checks below see.
# (ASan writes its reports to $san/asan.PID; UBSan, next to ASan, ignores
# log_path and writes to the server's stderr, which is its log.)
probe() {  # function expected-report-text
  local log_size before_crashes
  log_size=$(stat -c %s "$log")
  before_crashes=$(grep -c 'terminating any other active server processes' "$log" || true)
  psql -d probe -c "CREATE OR REPLACE FUNCTION $1(int) RETURNS int AS '$scratch/probe/ldp_fuzz_probe.so', '$1' LANGUAGE C STRICT" \
       -c "SELECT $1(8)" >/dev/null 2>&1 && return 1   # must not succeed
  wait_for_server || return 1
  (($(grep -c 'terminating any other active server processes' "$log" || true) > before_crashes)) || return 1
  (($({ cat "$san"/* 2>/dev/null; tail -c "+$((log_size + 1))" "$log"; } | grep -c "$2") > 0))
}
if probe ldp_fuzz_probe_asan 'heap-buffer-overflow' && probe ldp_fuzz_probe_ubsan 'signed integer overflow'; then
  check "planted sanitizer findings are reported (positive control)" ok
else
  die "planted sanitizer findings are reported (positive control)" \
    "files: $(ls "$san" | tr '\n' ' '); log: $(grep -c 'terminated by signal' "$log" || true) terminations"
fi
mv "$san"/* "$out/probe/" 2>/dev/null || true
psql -c "DROP DATABASE probe"
log_from=$(($(stat -c %s "$log") + 1))   # findings count from here on
new_log() { tail -c "+$log_from" "$log"; }

# ---------------------------------------------------------------------------
# 3. the database
say "populating database fuzz"
psql -d fuzz -v fuzz_role="$fuzz_role" -v ldp_weight="$weight" -f "$here/fuzz/populate.sql" >"$out/populate.log"
psql -d fuzz -c "SELECT 'mean_reports ' || count(*) FROM mean_reports
                 UNION ALL SELECT 'freq_reports ' || count(*) FROM freq_reports
                 UNION ALL SELECT 'sketch_reports ' || count(*) FROM sketch_reports
                 UNION ALL SELECT 'heavy_reports ' || count(*) FROM heavy_reports
                 UNION ALL SELECT 'summaries ' || (SELECT count(*) FROM mean_summaries) + (SELECT count(*) FROM freq_summaries)
                                                  + (SELECT count(*) FROM sketch_summaries) + (SELECT count(*) FROM heavy_summaries)
                 UNION ALL SELECT 'closed epochs ' || count(*) FROM ldp.collection_epochs
                 UNION ALL SELECT 'thresh votes ' || count(*) FROM ldp.thresh_votes" | tr '\n' ',' | sed 's/,$/\n/; s/,/, /g' >&2

# ---------------------------------------------------------------------------
# 4. sqlsmith
say "sqlsmith: $queries statements, seed $seed"
psql -d fuzz -c "SELECT pg_stat_reset()" >/dev/null   # function calls from here on: sqlsmith's
# Every statement of sqlsmith's sessions is logged as it starts, so that one that ran
# long shows even when it ended in an error (a cancel: statement_timeout is 1-2 s).
psql -c "ALTER ROLE $fuzz_role SET log_statement = 'all'"
target="host=$PGHOST port=$PGPORT dbname=fuzz user=$fuzz_role"
t0=$SECONDS
sqlsmith_rc=0
timeout --kill-after=10 $((600 + queries / 5)) \
  sqlsmith --target="$target" --seed="$seed" --max-queries="$queries" --exclude-catalog \
    --dump-all-queries --verbose 2>"$out/sqlsmith.log" | gzip -1 >"$out/sqlsmith-queries.sql.gz" ||
  sqlsmith_rc=$?
sqlsmith_secs=$((SECONDS - t0))
psql -c "ALTER ROLE $fuzz_role RESET log_statement"
# Statements that ran 10 s or more (issue 27: every long loop notices a cancel within
# about 100 ms, so none should outlive its statement_timeout by much): from each logged
# start to the next message of the same backend that ends it (its error, or its next
# statement; log_error_verbosity = verbose adds the SQLSTATE and LOCATION lines). A
# note, not a failure: the server runs under the sanitizers, on a shared machine.
new_log | awk '
  function secs(ts,  t) { split(ts, t, ":"); return t[1] * 3600 + t[2] * 60 + t[3] }
  /^[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9] / && / sqlsmith::dut: (LOG|ERROR|FATAL):  / {
    pid = $4; at = secs($2)
    if (pid in start) { d = at - start[pid]; if (d < 0) d += 86400; if (d >= 10) printf "%.1f s\t%s\t%s\n", d, pid, text[pid] }
    delete start[pid]
    if (/ LOG:  (00000: )?statement: /) {
      start[pid] = at; s = $0; sub(/.* LOG:  (00000: )?statement: /, "", s); text[pid] = substr(s, 1, 400)
    }
  }' >"$out/slow-statements.txt"
slow=$(wc -l <"$out/slow-statements.txt")
((slow == 0)) || say "note: $slow sqlsmith statements ran 10 s or more (statement_timeout is 2 s): build/fuzz/slow-statements.txt"
# The statements as generated, one record each (sqlsmith ends each with ";" and a
# newline), matched with their outcomes, one character each in the progress lines of its
# log ("." ran, "e" error, "t" timeout, "C" connection lost, "S" syntax error).
outcomes=$(grep -E '^[.etSC]+$' "$out/sqlsmith.log" | tr -d '\n' || true)
read -r generated touching calling calling_ok < <(zcat "$out/sqlsmith-queries.sql.gz" |
  awk -v outcomes="$outcomes" 'BEGIN { RS = ";\n" }
    NF { n++; if (/ldp\./) t++
         if (/ldp\.[a-z_0-9]+\(/) { c++; if (substr(outcomes, n, 1) == ".") ok++ } }
    END { printf "%d %d %d %d\n", n, t, c, ok }')
sq_errors=$(new_log | grep -c ' sqlsmith::dut: ERROR: ' || true)
if ((sqlsmith_rc == 0)) && ((generated >= queries)); then
  check "sqlsmith ran $queries statements" ok
else
  check "sqlsmith ran $queries statements" FAILED "exit status $sqlsmith_rc, $generated generated; see build/fuzz/sqlsmith.log"
fi
pct() { echo "$((100 * $1 / ($2 > 0 ? $2 : 1)))%"; }
say "sqlsmith: $generated statements in ${sqlsmith_secs}s; $touching ($(pct "$touching" "$generated"))" \
    "name an ldp object, $calling ($(pct "$calling" "$generated")) call an ldp function," \
    "$calling_ok of them ($(pct "$calling_ok" "$generated") of all) without error; $sq_errors errors"
{
  echo "sqlsmith error codes (SQLSTATE count):"
  new_log | awk '/ sqlsmith::dut: ERROR: / { print $5 }' | sort | uniq -c | sort -rn | head -n 15 || true
  echo "ldp functions called (count):"
  zcat "$out/sqlsmith-queries.sql.gz" | grep -o 'ldp\.[a-z_0-9]*(' | sort | uniq -c | sort -rn
} >"$out/sqlsmith-stats.txt"
sed -n '1,/^ldp functions/p' "$out/sqlsmith-stats.txt" | sed '$d' >&2
# What actually ran (track_functions = all): a strict function given a NULL is never
# called, and most of sqlsmith's arguments are NULLs. Aggregates' transition functions
# are not counted (PostgreSQL calls them without the function statistics).
for _ in $(seq 1 50); do   # sqlsmith's backends report their statistics as they exit
  (($(psql -d fuzz -c "SELECT count(*) FROM pg_stat_activity WHERE usename = '$fuzz_role'") == 0)) && break
  sleep 0.1
done
# (the sketch and heavy-hitters families' functions: those naming their types, their
# mechanisms' functions, and their collection readers)
ldp_reached_sql="SELECT p.oid::regprocedure::text AS fn, coalesce(s.calls, 0) AS calls,
         p.oid::regprocedure::text ~ 'sketch' OR p.proname ~ '^(cms|hcms|hashtogram)_'
           OR p.oid = 'ldp.collection_frequencies(text, text[])'::regprocedure AS sketch,
         p.oid::regprocedure::text ~ 'heavy' OR p.proname ~ '^treehist_' AS heavy
  FROM pg_proc p LEFT JOIN pg_stat_user_functions s ON s.funcid = p.oid
  WHERE p.pronamespace = 'ldp'::regnamespace AND p.prokind = 'f'"
read -r reached ldp_fns sk_reached sk_fns sk_calls hv_reached hv_fns hv_calls < <(psql -d fuzz -F ' ' -c "
  SELECT count(*) FILTER (WHERE calls > 0), count(*), count(*) FILTER (WHERE calls > 0 AND sketch),
         count(*) FILTER (WHERE sketch), coalesce(sum(calls) FILTER (WHERE sketch), 0),
         count(*) FILTER (WHERE calls > 0 AND heavy), count(*) FILTER (WHERE heavy),
         coalesce(sum(calls) FILTER (WHERE heavy), 0) FROM ($ldp_reached_sql) f")
say "sqlsmith: $reached of $ldp_fns ldp functions ran (not counting aggregates' transitions);" \
    "$sk_reached of the $sk_fns sketch functions ($sk_calls calls);" \
    "$hv_reached of the $hv_fns heavy-hitters functions ($hv_calls calls)"
{
  echo "ldp functions that ran (calls, pg_stat_user_functions):"
  psql -d fuzz -F ' ' -c "SELECT calls, fn FROM ($ldp_reached_sql) f WHERE calls > 0 ORDER BY calls DESC, fn"
} >>"$out/sqlsmith-stats.txt"

# ---------------------------------------------------------------------------
# 5. mutated summaries
say "summary forms: $forms, seed $seed"
t0=$SECONDS
summary_rc=0
PGDATABASE=fuzz PGUSER=$fuzz_role timeout --kill-after=10 $((600 + forms / 20)) \
  build/cmake/ldp_summary_fuzz --forms "$forms" --seed "$seed" --save-dir "$out/findings" \
  >"$out/summary-fuzz.log" 2>"$out/summary-fuzz.err" || summary_rc=$?
grep -v '^fuzz: ' "$out/summary-fuzz.log" >&2 || true
head -n 60 "$out/summary-fuzz.err" >&2
if (($(grep -c '^fuzz: ' "$out/summary-fuzz.log") > 0)); then
  grep '^fuzz: ' "$out/summary-fuzz.log"   # its own checks
  grep -q '^fuzz: .* FAILED' "$out/summary-fuzz.log" && failures=$((failures + 1))
fi
if ((summary_rc > 1)) || (($(grep -c '^fuzz: ' "$out/summary-fuzz.log") == 0)); then
  check "summary fuzzer finished" FAILED "exit status $summary_rc, see build/fuzz/summary-fuzz.err"
fi

# ---------------------------------------------------------------------------
# 6. what the server went through
if psql -d fuzz -c 'select 1' >/dev/null 2>&1 && kill -0 "$pm" 2>/dev/null; then
  check "the server is up after fuzzing" ok
else
  check "the server is up after fuzzing" FAILED "postmaster $pm gone or not answering"
fi
crashes=$(new_log | grep -c 'terminating any other active server processes' || true)
# every crashed process with the statement it ran (the postmaster logs it in full, up to
# track_activity_query_size), one file each
new_log | awk -v dir="$out/findings" '
  /^[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9] / { if (f) close(f); f = "" }
  /(terminated by signal|exited with exit code [1-9]|terminated by exception)/ && !/parallel worker.*exit code 1$/ {
    what = $0; pending = 1; next }
  pending && /Failed process was running: / {
    n++; f = sprintf("%s/crash-%d.sql", dir, n); sub(/.*Failed process was running: /, "")
    print "-- " what > f; print > f; pending = 0; next }
  f { print > f }'
if ((crashes == 0)) && (($(new_log | grep -cE 'terminated by signal|was terminated by exception') == 0)); then
  check "no server process crashed" ok
else
  check "no server process crashed" FAILED "$crashes crash restarts; statements in build/fuzz/findings/crash-*.sql"
  new_log | grep -E -A1 'terminated by signal|was terminated by exception' | cut -c1-300 | head -n 20 >&2 || true
fi
san_files=$(find "$san" -type f | wc -l)
if ((san_files == 0)) && (($(new_log | grep -cE 'runtime error:|AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer') == 0)); then
  check "no sanitizer report" ok
else
  check "no sanitizer report" FAILED "$san_files report files in build/fuzz/san"
  for f in "$san"/*; do
    [[ -f $f ]] || continue
    cp "$f" "$out/findings/"
    echo "== $f" >&2
    grep -E 'ERROR|runtime error|SUMMARY|^    #[0-9]' "$f" | head -n 25 >&2 || true
  done
fi
# internal errors (XX000), told apart by where they were raised: ldp's sources are C++
new_log | awk '/ XX000 .*ERROR: / { msg = $0; pending = 1; next }
  pending && /LOCATION: / { print (/\.cpp:[0-9]+/ ? "ldp" : "postgres") "\t" msg "\t" $0; pending = 0 }' \
  >"$out/internal-errors.txt"
xx_ldp=$(grep -c '^ldp' "$out/internal-errors.txt" || true)
xx_pg=$(grep -c '^postgres' "$out/internal-errors.txt" || true)
if ((xx_ldp == 0)); then
  check "no internal error (XX000) raised by ldp" ok
else
  check "no internal error (XX000) raised by ldp" FAILED "$xx_ldp, see build/fuzz/internal-errors.txt"
  grep '^ldp' "$out/internal-errors.txt" | cut -f2 | sed -E 's/^.*ERROR: +//' | sort | uniq -c | sort -rn |
    head -n 5 >&2 || true
fi
((xx_pg == 0)) || say "$xx_pg internal errors (XX000) raised by PostgreSQL itself (not counted): build/fuzz/internal-errors.txt"
if (($(new_log | grep -cE 'TRAP:|PANIC:') == 0)); then
  check "no assertion failure or PANIC" ok
else
  check "no assertion failure or PANIC" FAILED "$(new_log | grep -E 'TRAP:|PANIC:' | head -n 1 | cut -c1-200 || true)"
fi
cp "$log" "$out/server.log"

cleanup
trap - EXIT
echo "fuzz: sqlsmith $generated queries ($calling calling ldp functions, $calling_ok of them without error)," \
     "$sq_errors errors (expected), $crashes crashes, $slow statements over 10 s; $(grep -m1 -o '[0-9]* forms ([^)]*): [0-9]* accepted, [0-9]* refused' "$out/summary-fuzz.log" || echo 'no summary forms');" \
     "$((SECONDS - t_start)) s"
((failures == 0))
