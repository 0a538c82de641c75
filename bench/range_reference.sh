#!/usr/bin/env bash
# Regenerates test/data/range/ (issue 31): the answers of the range decoders of
# github Tejasvk/RangeQueries (the C++ code of Cormode, Kulkarni and Srivastava, "Answering
# Range Queries Under Local Differential Privacy", VLDB 2019) on counters of reports that
# our encoder made. test/unit/range_reference_test.cpp decodes the same counters with the
# core and compares. Only the outputs are committed, never the peer's code.
#
#   bench/range_reference.sh RANGEQUERIES     (a Tejasvk/RangeQueries work tree or git dir)
#
# It builds the core (CMake, build/cmake, target ldp_core), then bench/range_reference.cpp
# against the peer's sources (Headers/, sources/HaarTransform.cpp, LevelHT.cpp,
# helpers.cpp), and runs it in a scratch directory. Deterministic: running it again
# rewrites identical files (our SeededRandom draws the reports; the peer's own random
# draws are never used).
#
# Outputs in test/data/range/:
#   haar_counts.txt        k, ε, n; the level counts; the row sums (HaarHRR, k = 10, ε = ln 3,
#                          200,000 reports of a discretised lognormal)
#   haar_coefficients.txt  the peer's HaarTransform::pert_haar_ht after correction()
#   haar_ranges.txt        the peer's eval_range_itr for every prefix and 400 seeded ranges
#
# On stdout, hierarchical histograms (hh, B = 4, k = 10, 20 seeded runs of 200,000 reports with
# equal level sizes): the MSE of our consistency and of the peer's B_ary_tree_min
# constrained_Inference run on the same per-level estimates (ours), as a Markdown table
# (bench/RESULTS.md). The two consistencies differ (range_reference.cpp says how), so they
# are compared by their errors against the truth.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
src="${1:-}"
[ -n "$src" ] && [ -d "$src" ] || { sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
work="$(mktemp -d "${TMPDIR:-/tmp}/range-ref.XXXXXX")"
trap 'rm -rf "$work"' EXIT
if [ -d "$src/Headers" ]; then
  cp -r "$src/Headers" "$src/sources" "$work/"
else  # a bare git directory (the fetch tool's mirror)
  for f in $(git -C "$src" ls-tree -r --name-only HEAD | grep -E '^(Headers|sources)/'); do
    mkdir -p "$work/$(dirname "$f")"
    git -C "$src" show "HEAD:$f" >"$work/$f"
  done
fi
cmake -S "$root" -B "$root/build/cmake" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$root/build/cmake" --target ldp_core -j "$(nproc)" >/dev/null
g++ -std=c++17 -O2 -w -I"$work/Headers" -I"$root/src" -o "$work/range_reference" \
  "$here/range_reference.cpp" "$work/sources/HaarTransform.cpp" "$work/sources/LevelHT.cpp" \
  "$work/sources/helpers.cpp" "$work/sources/B_ary_tree_min.cpp" "$work/sources/InputRR.cpp" \
  "$root/build/cmake/libldp_core.a"
mkdir -p "$work/run/work" "$root/test/data/range"
(cd "$work/run/work" && "$work/range_reference" "$root/test/data/range") | grep -E '^\||^largest|^$' || true
echo "wrote $(ls "$root/test/data/range" | wc -l) files to test/data/range/"
