#!/usr/bin/env bash
# Heavy hitters over seeds (issue 20): TreeHist, PEM and SFP at their string defaults
# (ε = 2, 6 letters a-z, each protocol's default τ = 15√n), recall and precision at τ and
# at τ − σ, the decode time, and the issue's accuracy checks, as the mean (min–max) over
# SEEDS seeded runs for each n. No server: build/bench/ldp_heavy_seeds draws the devices
# as `ldp_load --mechanism M --words FILE --seed S` does and runs the core's encoder,
# summary and decoder, the code the SQL functions run (bench/heavy_seeds.cpp).
#
#   [WORDS=file] [SEEDS=5] [FIRST_SEED=1] [MECHANISMS=treehist,pem,sfp] [LOWERCASE=1]
#   [NOISE_CHILDREN=r] bench/heavy_seeds.sh [USERS...]      (default USERS: 1000000 10000000)
#
#   WORDS      a word-count file (word<TAB>count); default LDP_BENCH_WORDS, then
#              ../shared/data/subtlex_us_words.tsv next to the checkout, then the
#              bundled top 1000. Users hold the words the protocol can encode (1-6 letters
#              a-z), each with probability count / (their total count); LOWERCASE=1
#              folds A-Z first ("I" -> "i"), adding up counts.
#
# Builds build/bench/ldp_heavy_seeds when missing (cmake -DLDP_BUILD_BENCH=ON, Release;
# needs libpqxx's headers only for the tools library it links, and Google Benchmark for
# the bench configuration). Runs niced, one run at a time: about 15 s a run at 10^7.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
source "$root/src/tools/pgenv.sh"
IFS=$'\t' read -r words words_said <<<"$(ldp_word_file "${WORDS:-${LDP_BENCH_WORDS:-}}")"
echo "heavy_seeds.sh: words from $words_said" >&2
users=("$@")
[ ${#users[@]} -gt 0 ] || users=(1000000 10000000)
for u in "${users[@]}"; do
  [[ $u =~ ^[0-9]+$ ]] && ((u >= 1)) || { echo "heavy_seeds.sh: USERS must be whole numbers >= 1, got '$u'" >&2; exit 2; }
done
bin="$root/build/bench/ldp_heavy_seeds"
if [ ! -x "$bin" ]; then
  cmake -S "$root" -B "$root/build/bench" -DLDP_BUILD_BENCH=ON -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$root/build/bench" -j2 --target ldp_heavy_seeds >/dev/null
fi
extra=()
[ "${LOWERCASE:-0}" = 1 ] && extra+=(--lowercase)
[ -n "${NOISE_CHILDREN:-}" ] && extra+=(--noise-children "$NOISE_CHILDREN")
echo "command: WORDS=$(basename "$words") SEEDS=${SEEDS:-5} FIRST_SEED=${FIRST_SEED:-1} MECHANISMS=${MECHANISMS:-treehist,pem,sfp} bench/heavy_seeds.sh ${users[*]} ${extra[*]:-}"
for u in "${users[@]}"; do
  nice -n 10 "$bin" "$words" "$u" "${FIRST_SEED:-1}" "${SEEDS:-5}" --mechanisms "${MECHANISMS:-treehist,pem,sfp}" \
    "${extra[@]}"
done
