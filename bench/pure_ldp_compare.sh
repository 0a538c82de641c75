#!/usr/bin/env bash
# Decode rates of OLH at k = 1024, side by side on this machine: pure-LDP's
# LHServer (aggregate_all + estimate_all, Python) against the core's
# freq_add_olh + freq_estimate, on reports of pure-LDP's own client; GRR and OUE
# of each for reference. Each rate is the median of REPEATS runs.
#
#   bench/pure_ldp_compare.sh PURE_LDP_CHECKOUT [N_PURE] [N_OURS] [REPEATS] [K]
#   (defaults: 20000 reports for pure-LDP, 200000 for ours, 3 repeats, k = 1024)
#
# pure-LDP (github.com/Samuel-Maddock/pure-LDP, MIT) is not part of this
# repository: give the path of a checkout. It runs with Debian's python3 and its
# python3-numpy, python3-xxhash and python3-bitarray (PYTHON overrides the
# interpreter). Builds the core and ldp_olh_decode_bench in BUILD_DIR
# (default build/bench-pure-ldp) with -DLDP_BUILD_BENCH=ON. Run it when the
# machine is otherwise idle: both sides are single-threaded.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
[ $# -ge 1 ] || { sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
pure="$(cd "$1" && pwd)"
n_pure="${2:-20000}"
n_ours="${3:-200000}"
repeats="${4:-3}"
k="${5:-1024}"
eps=1.5
python="${PYTHON:-/usr/bin/python3}"
build="${BUILD_DIR:-$root/build/bench-pure-ldp}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

"$python" -c 'import numpy, xxhash, bitarray' 2>/dev/null || {
  echo "needs $python with numpy, xxhash and bitarray:" \
    "apt-get install -y python3-numpy python3-xxhash python3-bitarray" >&2
  exit 1
}

echo "== build (RelWithDebInfo, -DLDP_BUILD_BENCH=ON) in $build"
cmake -S "$root" -B "$build" -DLDP_BUILD_TOOLS=OFF -DLDP_BUILD_BENCH=ON >/dev/null
cmake --build "$build" --target ldp_olh_decode_bench -j "$(nproc)" >/dev/null

echo "== machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)," \
  "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
echo "== pure-LDP $(git -C "$pure" rev-parse --short HEAD 2>/dev/null || echo '(not a git checkout)')"
"$python" "$here/pure_ldp_bench.py" "$pure" "$work" --k "$k" --epsilon "$eps" \
  --n-pure "$n_pure" --n-ours "$n_ours" --repeats "$repeats" | tee "$work/pure.log"
echo "== ours"
"$build/ldp_olh_decode_bench" "$work/olh_reports.txt" "$eps" "$k" "$repeats" \
  "$work/olh_pure_estimates.txt" "$n_pure" | tee "$work/ours.log"

rate() { grep -E "^$1 $2 " "$3" | sed -E 's/.*median_rate=([0-9.]+).*/\1/'; }
echo
echo "| k = $k, eps = $eps | pure-LDP (reports/s) | ours (reports/s) | ours / pure-LDP |"
echo "|---|---:|---:|---:|"
for proto in olh grr oue; do
  theirs="$(rate pure_ldp "$proto" "$work/pure.log")"
  ours="$(rate ours "$proto" "$work/ours.log")"
  awk -v p="$proto" -v t="$theirs" -v o="$ours" \
    'BEGIN { printf "| %s | %.0f | %.0f | %.0f× |\n", p, t, o, o / t }'
done
