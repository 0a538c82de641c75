#!/usr/bin/env bash
# pure-LDP's PEM and SFP (HCMS oracles) on issue 20's heavy-hitter workload: SUBTLEX-US
# words of 1-6 letters a-z, eps = 2, tau = 15*sqrt(n). Prints one Markdown table,
# a row per protocol, n and seed (bench/heavy_pure_ldp.py says what each column means).
#
#   bench/heavy_pure_ldp.sh [N...]          (default: 10000 100000 1000000)
#
# PURE_LDP    a pure-LDP checkout (github.com/Samuel-Maddock/pure-LDP, MIT; not part of
#             this repository), default ../pure-LDP beside the checkout
# WORDS       word<TAB>count file, default ../shared/data/subtlex_us_words.tsv beside
#             the checkout if present, else test/data/subtlex_top1000.tsv
# SEEDS       seeds to run for each n (default "1 2")
# TOP_K       also decode in pure-LDP's top-k mode with this k (default: off)
# PROTOCOLS   pem,sfp (default both)
# SFP_FRAG_SIGMAS  also decode SFP with its fragment threshold at tau - Z*sigma_frag (ours)
# Installs Debian's python3-numpy, python3-xxhash, python3-bitarray, python3-scipy and
# python3-bitstring with apt-get when they are missing (PYTHON overrides /usr/bin/python3).
# Single-threaded; run it when the machine is otherwise idle.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
pure="${PURE_LDP:-$root/../pure-LDP}"
[ -d "$pure/pure_ldp" ] || {
  sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//' >&2
  echo "no pure-LDP checkout at $pure: set PURE_LDP" >&2
  exit 2
}
pure="$(cd "$pure" && pwd)"
python="${PYTHON:-/usr/bin/python3}"
seeds="${SEEDS:-1 2}"
protocols="${PROTOCOLS:-pem,sfp}"
words_args=()
[ -n "${WORDS:-}" ] && words_args=(--words "$WORDS")
topk_args=()
[ -n "${TOP_K:-}" ] && topk_args=(--top-k "$TOP_K")
fragz_args=()
[ -n "${SFP_FRAG_SIGMAS:-}" ] && fragz_args=(--sfp-frag-sigmas "$SFP_FRAG_SIGMAS")
[ $# -ge 1 ] || set -- 10000 100000 1000000

"$python" -c 'import numpy, xxhash, bitarray, scipy, bitstring' 2>/dev/null || {
  echo "== apt-get install python3-numpy python3-xxhash python3-bitarray python3-scipy python3-bitstring" >&2
  apt-get install -y python3-numpy python3-xxhash python3-bitarray python3-scipy python3-bitstring >/dev/null
}

echo "== machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)," \
  "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
echo "== pure-LDP $(git -C "$pure" rev-parse HEAD 2>/dev/null || echo '(not a git checkout)')"
echo
first=1
for n in "$@"; do
  for seed in $seeds; do
    header=()
    [ "$first" = 1 ] && header=(--header)
    first=0
    "$python" "$here/heavy_pure_ldp.py" "$pure" --n "$n" --seed "$seed" --protocols "$protocols" \
      ${words_args[@]+"${words_args[@]}"} ${topk_args[@]+"${topk_args[@]}"} \
      ${fragz_args[@]+"${fragz_args[@]}"} ${header[@]+"${header[@]}"}
  done
done
