#!/usr/bin/env bash
# The test command (README, .ci/run): installs what it lacks, builds everything,
# runs the core unit and statistical tests (CTest; again under ASan + UBSan, the test
# binary in one shard per core), pg_regress
# against a temporary private cluster, the upgrade test (the catalog of CREATE EXTENSION
# ldp against 0.1.0 updated step by step), the dump and restore test, the libpqxx
# integration tests, a short load test, the timing of cancels of long decodes
# (test/cancel.sh), the crash test, and the fuzzing of the extension in a sanitizer-built
# server (test/fuzz.sh, in the background beside the steps from the PGXS build on, with
# its own cluster). The cluster runs from a private copy of PostgreSQL 15 with this build
# of the extension installed into it, in a scratch directory under ${TMPDIR:-/tmp} named
# after the checkout (src/tools/pgenv.sh: ldp_scratch_make, ldp_private_pg), removed at
# the end with the cluster; the system's PostgreSQL installation is never written, so
# two checkouts can run their tests at once. Then, for the other PostgreSQL majors that
# LDP_PG_VERSIONS names (17,18; CI=true means 18), test/pg_major.sh: each built once from
# Debian's source package into a cache outside the checkout, and ldp's regression,
# isolation, upgrade, dump and pg_upgrade-from-15 tests there. Exits non-zero on any
# failure and ends with one line "tests: N passed, N failed", after a table of each
# step's wall and CPU time.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/../src/tools/pgenv.sh"
root="$(ldp_root)"
cd "$root"
jobs="$(nproc 2>/dev/null || echo 2)"
export PG_CONFIG="${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}"

ldp_install_deps

passed=0
failed=0
count_ctest() {  # parses "NN% tests passed, F tests failed out of T"
  local line t f
  line="$(grep -E 'tests passed, [0-9]+ tests? failed out of [0-9]+' "$1" | tail -1 || true)"
  [ -n "$line" ] || { failed=$((failed + 1)); return; }
  f="$(sed -E 's/.* ([0-9]+) tests? failed out of ([0-9]+).*/\1/' <<<"$line")"
  t="$(sed -E 's/.* failed out of ([0-9]+).*/\1/' <<<"$line")"
  passed=$((passed + t - f))
  failed=$((failed + f))
}
count_gtest() {  # a GoogleTest log and its exit status: "[  PASSED  ] N tests.", "[  FAILED  ] N tests,"
  local p f
  p="$(sed -n 's/^\[  PASSED  \] \([0-9]*\) tests\?\..*/\1/p' "$1" | tail -1)"
  f="$(sed -n 's/^\[  FAILED  \] \([0-9]*\) tests\?, listed below.*/\1/p' "$1" | tail -1)"
  passed=$((passed + ${p:-0}))
  failed=$((failed + ${f:-0}))
  # ended before its summary (a sanitizer report aborts the process): one failure
  [ -n "$p" ] || [ "$2" -eq 0 ] || failed=$((failed + 1))
}
status=0
# "== [m:ss] step": each step's start, in minutes since the run began (where the time goes);
# at the end a table of each step's wall time and the CPU time (user + sys) of the
# processes it ran and waited for (bash's `times`: a server started with pg_ctl is not
# counted), which says more than the wall time on a machine that others share.
step_names=() step_walls=() step_cpus=()
cpu_ticks() {  # user + sys of this shell's waited-for children (/proc: cutime, cstime)
  local stat f
  stat=$(</proc/$$/stat)
  read -ra f <<<"${stat##*) }"
  echo $((f[13] + f[14]))
}
tck=$(getconf CLK_TCK 2>/dev/null || echo 100)
# A step in the background (the fuzzer) has its own row: its wall time from its start to
# its end, its CPU time from `times` in its subshell (build/fuzz.times), taken out of the
# step during which it ended (the shell collects its CPU time then).
bg_row= bg_pid= bg_start= bg_times=
bg_account() {
  local ticks
  [[ -n $bg_pid ]] && ! kill -0 "$bg_pid" 2>/dev/null && [[ -f $bg_times ]] || return 0
  ticks=$(awk -v tck="$tck" '{ for (i = 1; i <= NF; i++) { split($i, t, "m"); sub(/s$/, "", t[2])
                                                          s += t[1] * 60 + t[2] } } END { printf "%d\n", s * tck }' "$bg_times")
  step_cpus[bg_row]=$ticks
  step_walls[bg_row]=$(($(stat -c %Y "$bg_times") - bg_start))
  step_cpus[${#step_names[@]} - 1]=$((step_cpus[${#step_names[@]} - 1] - ticks))
  bg_pid=
}
step_close() {
  local n=${#step_names[@]} cpu
  ((n > 0)) || return 0
  cpu=$(cpu_ticks)
  step_walls[n - 1]=$((SECONDS - step_walls[n - 1]))
  step_cpus[n - 1]=$((cpu - step_cpus[n - 1]))
  bg_account
}
step() {
  step_close
  printf '== [%d:%02d] %s\n' $((SECONDS / 60)) $((SECONDS % 60)) "$*"
  step_names+=("$*") step_walls+=("$SECONDS") step_cpus+=("$(cpu_ticks)")
}
step_table() {  # wall and CPU of each step, m:ss
  local i
  step_close
  echo "== step times (wall, CPU of the step's own processes):"
  for i in "${!step_names[@]}"; do
    printf '   %2d:%02d %3d:%02d  %s\n' $((step_walls[i] / 60)) $((step_walls[i] % 60)) \
      $((step_cpus[i] / tck / 60)) $((step_cpus[i] / tck % 60)) "${step_names[i]:0:70}"
  done
  step_names=()
}

step "build: core, unit tests, tools (CMake)"
# The test builds keep line tables only (-g1: file and line in backtraces and sanitizer
# reports, no local variables): a quarter less compile time than -g (457 s of CPU against
# 340 s for the CMake build's targets). For a debugger, reconfigure with
# -DCMAKE_CXX_FLAGS_RELWITHDEBINFO='-O2 -g -DNDEBUG'.
test_flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG")
cmake -S . -B build/cmake "${test_flags[@]}" >/dev/null
cmake --build build/cmake -j "$jobs"

step "unit and statistical tests of the core (CTest)"
(cd build/cmake && ctest -LE integration --output-on-failure -j "$jobs") | tee build/unit.log || status=1
count_ctest build/unit.log

step "source: no C++ function of src/ or test/ past 150 lines (test/long_functions.sh)"
long=$(bash test/long_functions.sh 150)
if [[ -z $long ]]; then
  echo "source: no function past 150 lines ... ok"; passed=$((passed + 1))
else
  printf '%s\n' "$long"; echo "source: no function past 150 lines ... FAILED"; failed=$((failed + 1)); status=1
fi

step "the same unit tests under AddressSanitizer + UndefinedBehaviorSanitizer: build (build/asan)"
# (LDP_SKIP_SANITIZE=1 skips this step for a quicker local run; CI runs it)
if [ "${LDP_SKIP_SANITIZE:-0}" != 1 ]; then
  cmake -S . -B build/asan "${test_flags[@]}" -DLDP_SANITIZE=ON \
    -DLDP_BUILD_TOOLS=OFF >/dev/null
  cmake --build build/asan -j "$jobs" --target ldp_unit_tests
  step "the same unit tests under AddressSanitizer + UndefinedBehaviorSanitizer: run ($jobs shards)"
  # The tests' binary itself, one process per core (GoogleTest's sharding: test i in shard
  # i mod $jobs), not ctest's process per test: a sanitized process takes about 0.08 s to
  # start and end, a minute of CPU over the 684 tests (a fifth of their run). The same
  # tests, counted the same; each shard's output is build/asan-shard<i>.log, and a
  # failure prints its test's lines.
  # The seeded statistical trials (bias, variance and coverage over thousands of runs) are
  # left out here: each runs the encoders and decoders that the other tests run under the
  # sanitizers, thousands of times over, and they took two thirds of this step (220 of 325
  # CPU seconds). They run, unsanitized, in the CTest step above.
  statistical='*Stat.*:*.UnbiasedWithClosedFormVarianceAndCoverage/*:ThreshSimulation.EndToEnd'
  statistical+=':ThreshHistogramSimulation.*:ThreshHistogramOracle.UnbiasedWithItsStandardError:*.SeededTrials*'
  shard_pids=()
  for ((i = 0; i < jobs; i++)); do
    (cd build/asan && GTEST_TOTAL_SHARDS=$jobs GTEST_SHARD_INDEX=$i ./ldp_unit_tests --gtest_filter="-$statistical") \
      >"build/asan-shard$i.log" 2>&1 &
    shard_pids+=($!)
  done
  for ((i = 0; i < jobs; i++)); do
    shard_rc=0
    wait "${shard_pids[i]}" || shard_rc=$?
    log=build/asan-shard$i.log
    sed -n 's/^\[==========\] \([0-9]* tests\? from .* ran\.\).*/shard '"$i"': \1/p' "$log"
    grep -E '^\[  (PASSED|FAILED) +\] [0-9]+ tests?[.,]' "$log" | sed "s/^/shard $i: /" || true
    if ((shard_rc != 0)); then
      status=1
      # the failures' lines (a sanitizer report ends the shard: its last lines)
      grep -E -B2 -A12 'Failure$|^\[  FAILED  \] [A-Z]' "$log" | head -n 200 || true
      grep -q '^\[==========\] .* ran\.' "$log" || tail -n 60 "$log"
    fi
    count_gtest "$log" "$shard_rc"
  done
  cat build/asan-shard*.log >build/asan.log
fi

# The fuzzer runs in the background from here on, beside the steps below: its own
# sanitizer build of ldp.so (the glue; the core is build/asan's), its own cluster, ports
# and scratch directory, its output in build/fuzz.log (printed in its step at the end).
# Its server keeps about one core busy, while the servers of the steps below mostly
# wait on their clients: side by side they take about as long as the longer of the two.
fuzz_pid= cron_pid=
stop_fuzz() {  # test/fuzz.sh, in its subshell, on an early exit (its EXIT trap stops its cluster)
  [[ -n $fuzz_pid ]] || return 0
  pkill -TERM -P "$fuzz_pid" 2>/dev/null || true
  wait "$fuzz_pid" 2>/dev/null || true
}
if [ "${LDP_SKIP_FUZZ:-0}" != 1 ]; then
  step "fuzzing under ASan + UBSan, in the background: sqlsmith and mutated summaries (test/fuzz.sh, its own cluster)"
  rm -f build/fuzz.times
  (
    rc=0
    bash "$root/test/fuzz.sh" || rc=$?
    times >build/fuzz.times
    exit "$rc"
  ) >build/fuzz.log 2>&1 &
  fuzz_pid=$!
  fuzz_started=$SECONDS
  bg_row=$((${#step_names[@]} - 1)) bg_pid=$fuzz_pid bg_start=$(date +%s) bg_times=build/fuzz.times
  trap stop_fuzz EXIT  # until the cluster's cleanup below takes over
fi

step "build the extension (PGXS) and install it into a private copy of PostgreSQL 15"
make -j "$jobs" PG_CONFIG="$PG_CONFIG" >/dev/null
export LDP_PRIVATE_CLUSTER=1
cluster="$root/.pg/test"
# A killed run may have left its cluster running from its scratch directory: stop it (any
# pg_ctl of version 15 can) before that directory is made again.
ldp_cluster_stop "$cluster" --force >/dev/null 2>&1 || true
rm -rf "$(ldp_cluster_dir "$cluster")" "$cluster"
# shellcheck disable=SC2317  # called by the EXIT trap
cleanup() {
  stop_fuzz
  if [[ -n $cron_pid ]]; then pkill -TERM -P "$cron_pid" 2>/dev/null || true; wait "$cron_pid" 2>/dev/null || true; fi
  [[ -f $(ldp_cluster_dir "$cluster")/log ]] && cp "$(ldp_cluster_dir "$cluster")/log" build/test-server.log
  ldp_cluster_stop "$cluster" --force || true
  rm -rf "$(ldp_cluster_dir "$cluster")" "$cluster"
  ldp_scratch_cleanup
}
trap cleanup EXIT
ldp_scratch_make test
LDP_PG_BIN="$(ldp_private_pg "$(ldp_scratch_dir test)/prefix" "$root")"
export LDP_PG_BIN  # the cluster, crash.sh's restarts and the upgrade test's pg_dump use it
echo "installed ldp into the copy in $(ldp_scratch_dir test)/prefix"

step "temporary cluster"
ldp_cluster_start "$cluster" "log_min_messages = warning"

export LDP_REQUIRE_CRON=1  # the private cluster preloads pg_cron
# The integration test of pg_cron (CollectionDb.PgCronClosesDueEpochs) mostly waits for
# pg_cron's next minute, up to a minute of idle: it starts now and runs beside the steps
# below (in the database postgres, with its own collection and cron job; nothing else
# uses pg_cron), and is counted with the other integration tests.
cron_test=CollectionDb.PgCronClosesDueEpochs
if [ -x build/cmake/ldp_integration_tests ]; then
  (cd build/cmake && ./ldp_integration_tests --gtest_filter="$cron_test") >build/integration-cron.log 2>&1 &
  cron_pid=$!
fi

step "pg_regress and isolation tests"
# the copy's pg_config: its pg_regress, pg_isolation_regress and psql
if make installcheck PG_CONFIG="$LDP_PG_BIN/pg_config" 2>&1 | tee build/regress.log; then :; else
  status=1
  for d in build/regress/regression.diffs build/isolation/regression.diffs; do [ -f "$d" ] && cat "$d"; done
fi
r_total="$(grep -cE '^(not )?ok|^test .*\.\.\. ' build/regress.log || true)"
r_failed="$(grep -cE 'FAILED|^not ok' build/regress.log || true)"
passed=$((passed + r_total - r_failed))
failed=$((failed + r_failed))

step "doc test: every SQL example of README.md and docs/, signatures against the catalog, links (test/doctest.py)"
PSQL="$LDP_PG_BIN/psql" python3 test/doctest.py 2>&1 | tee build/doctest.log || status=1
passed=$((passed + $(grep -c '^doc: .* ok$' build/doctest.log || true)))
failed=$((failed + $(grep -c '^doc: .* FAILED$' build/doctest.log || true)))

step "upgrade: CREATE EXTENSION ldp against 0.1.0 updated step by step, catalog for catalog (test/upgrade_catalog.sh)"
if bash "$root/test/upgrade_catalog.sh" | tee build/upgrade.log; then :; else
  status=1
  # an error before the checks leaves no FAILED line: count it once
  grep -q '^upgrade: .* FAILED' build/upgrade.log || failed=$((failed + 1))
fi
passed=$((passed + $(grep -c '^upgrade: .* ok$' build/upgrade.log || true)))
failed=$((failed + $(grep -c '^upgrade: .* FAILED' build/upgrade.log || true)))

step "dump and restore: owners and grants of collections and streams by role name (test/dump_restore.sh)"
if bash "$root/test/dump_restore.sh" | tee build/dump.log; then :; else
  status=1
  grep -q '^dump: .* FAILED' build/dump.log || failed=$((failed + 1))
fi
passed=$((passed + $(grep -c '^dump: .* ok$' build/dump.log || true)))
failed=$((failed + $(grep -c '^dump: .* FAILED' build/dump.log || true)))

step "libpqxx integration tests (CTest, label integration)"
if [ -x build/cmake/ldp_integration_tests ]; then
  (cd build/cmake && ctest -L integration -E '^CollectionDb\.PgCronClosesDueEpochs$' --output-on-failure) |
    tee build/integration.log || status=1
  count_ctest build/integration.log
  echo "$cron_test, started with the cluster (build/integration-cron.log):"
  cron_rc=0
  wait "$cron_pid" || cron_rc=$?
  cron_pid=
  if ((cron_rc == 0)); then grep -E '^\[ +(OK|PASSED) +\]' build/integration-cron.log; else cat build/integration-cron.log; status=1; fi
  count_gtest build/integration-cron.log "$cron_rc"
fi

step "load test: 16 sessions submitting THRESH batches and loading reports while epochs close"
# (docs/loader.md: the same program runs 10 minutes by hand; LDP_LOAD_SECONDS changes
# the length here). One "load: CHECK ... ok|FAILED" line per check.
if [ -x build/cmake/ldp_load_test ]; then
  if build/cmake/ldp_load_test --duration "${LDP_LOAD_SECONDS:-25}" --progress 5 --cross-duplicates 0.05 --seed "$RANDOM" |
     tee build/load.log; then :; else
    status=1
    # a crash or an error before the checks leaves no FAILED line: count it once
    grep -q '^load: .* FAILED' build/load.log || failed=$((failed + 1))
  fi
  passed=$((passed + $(grep -c '^load: .* ok$' build/load.log || true)))
  failed=$((failed + $(grep -c '^load: .* FAILED' build/load.log || true)))
else
  echo "build/cmake/ldp_load_test is missing"
  failed=$((failed + 1))
fi

step "cancels and limits of long decodes: statement_timeout, pg_cancel_backend, pg_terminate_backend (test/cancel.sh)"
if bash "$root/test/cancel.sh" | tee build/cancel.log; then :; else
  status=1
  grep -q '^cancel: .* FAILED' build/cancel.log || failed=$((failed + 1))
fi
passed=$((passed + $(grep -c '^cancel: .* ok$' build/cancel.log || true)))
failed=$((failed + $(grep -c '^cancel: .* FAILED' build/cancel.log || true)))

step "crash safety of the closes (kills and restarts the test cluster)"
bash "$root/test/crash.sh" "$cluster" | tee build/crash.log || status=1
passed=$((passed + $(grep -c '^crash: .* ok$' build/crash.log || true)))
failed=$((failed + $(grep -c '^crash: .* FAILED' build/crash.log || true)))

# (LDP_SKIP_FUZZ=1 skips the fuzzing; CI runs it: about 3 minutes, beside the steps above)
if [[ -n $fuzz_pid ]]; then
  step "fuzzing: the rest of test/fuzz.sh (started at $((fuzz_started / 60)):$(printf %02d $((fuzz_started % 60)))), then its output (build/fuzz.log)"
  fuzz_rc=0
  wait "$fuzz_pid" || fuzz_rc=$?
  fuzz_pid=
  cat build/fuzz.log
  passed=$((passed + $(grep -c '^fuzz: .* ok$' build/fuzz.log || true)))
  failed=$((failed + $(grep -c '^fuzz: .* FAILED' build/fuzz.log || true)))
  if ((fuzz_rc != 0)); then
    status=1
    # an error that left no FAILED line: count it once
    grep -q '^fuzz: .* FAILED' build/fuzz.log || failed=$((failed + 1))
  fi
fi

part15=$SECONDS
step "PostgreSQL 15 part done in $((part15 / 60)):$(printf %02d $((part15 % 60)))"

# Other majors (test/pg_major.sh): LDP_PG_VERSIONS=15,17,18 names them; CI (CI=true) runs 18,
# built with assertions; a run by hand without LDP_PG_VERSIONS tests 15 only.
if [[ -n ${LDP_PG_VERSIONS+x} ]]; then
  versions=${LDP_PG_VERSIONS//,/ }
elif [[ ${CI:-} == true ]]; then
  versions=18
else
  versions=''
  echo "PostgreSQL 15 only; to test 17 and 18 too (fetched from Debian's source packages and built once" \
       "into $(ldp_pg_cache_root)): LDP_PG_VERSIONS=17,18 test/run.sh, or test/pg_major.sh 18 alone"
fi
for v in $versions; do
  [[ $v != 15 ]] || continue  # (the part above)
  t0=$SECONDS
  step "PostgreSQL $v: build (cached), regress and isolation, upgrade catalog, dump and restore, doc test, pg_upgrade from 15 (test/pg_major.sh)"
  if LDP_PG15_BIN=$LDP_PG_BIN bash "$root/test/pg_major.sh" "$v" | tee "build/pg$v.log"; then :; else
    status=1
    grep -q "^pg$v .* FAILED" "build/pg$v.log" || failed=$((failed + 1))
  fi
  passed=$((passed + $(grep -c "^pg$v .* \.\.\. ok$" "build/pg$v.log" || true)))
  failed=$((failed + $(grep -c "^pg$v .* \.\.\. FAILED" "build/pg$v.log" || true)))
  step "PostgreSQL $v done in $(((SECONDS - t0) / 60)):$(printf %02d $(((SECONDS - t0) % 60)))"
done

step "end"
step_table
echo "tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ] || status=1
exit "$status"
