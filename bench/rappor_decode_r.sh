#!/usr/bin/env bash
# RAPPOR decode time (issue 21): the core's rappor_decode beside google/rappor's
# decode.R Decode() on the same counts (128 bits, 2 hashes, 64 cohorts, 10^6 reports,
# 1,000 and 10,000 candidates; bench/rappor_decode_bench.cpp draws the counts), each timed
# in its own process (R: inside R, not its start-up; one seed, SEEDS to change). Prints
# both times per candidate count.
#
#   bench/rappor_decode_r.sh RAPPOR [CANDIDATES...]   (RAPPOR: google/rappor work tree or git dir)
#
# Needs build/bench/ldp_rappor_decode_bench (cmake -S . -B build/bench -DLDP_BUILD_BENCH=ON
# -DLDP_BUILD_TOOLS=OFF -DCMAKE_BUILD_TYPE=Release; cmake --build build/bench), a Python
# 2.7 (PYTHON2, default python2) for google/rappor's bin/hash_candidates.py, and Debian's
# r-base-core, r-cran-glmnet, r-cran-quadprog (installed when missing).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
src="${1:-}"
[ -n "$src" ] && [ -d "$src" ] || { sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
shift
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1000 10000)
python2="${PYTHON2:-python2}"
bench="$root/build/bench/ldp_rappor_decode_bench"
[ -x "$bench" ] || { echo "build $bench first (see the header)" >&2; exit 2; }
work="$(mktemp -d "${TMPDIR:-/tmp}/rappor-time.XXXXXX")"
trap 'rm -rf "$work"' EXIT
. "$here/rappor_common.sh"
rappor_copy "$src" "$work"
"$bench" "$work" "${sizes[@]}"
for s in "${sizes[@]}"; do
  PYTHONPATH="$work/client/python" "$python2" "$work/bin/hash_candidates.py" "$work/params.csv" \
    < "$work/candidates_$s.txt" > "$work/map_$s.csv"
  Rscript "$here/rappor_decode_r.R" "$work" "$work/params.csv" "$work/counts.csv" "$work/map_$s.csv" \
    "${SEEDS:-1}" "$work/runs_$s.csv" "$work/time_$s.txt" > /dev/null 2>&1
  echo "candidates $s: decode.R $(cat "$work/time_$s.txt"), detected $(($(wc -l < "$work/runs_$s.csv") - 1)) (all seeds)"
done
