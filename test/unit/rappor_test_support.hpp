// Helpers shared by the RAPPOR unit tests: summaries from seeded populations, drawn
// exactly as the reports of devices that each report once would give them.
//
// A device's report bits are independent given its Bloom filter (each PRR bit uses its
// own HMAC byte, each IRR bit its own draw): a bit set in the filter is reported as 1
// with p11 = q(1 - f/2) + p·f/2, an unset one with p01 = p(1 - f/2) + q·f/2. So the
// counts of cohort c are C[c][b] = Bin(n1, p11) + Bin(N_c - n1, p01), n1 the devices
// whose filter sets b, with each item's devices spread over the cohorts uniformly
// (a multinomial draw). f here is the effective f' = ⌈128f⌉/128 of the Python client:
// the tests use f with 128f an integer.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/common/random.hpp"
#include "core/rappor/rappor_summary.hpp"
#include "tools/thresh/thresh_scenario.hpp"

namespace ldp_test {

struct RapporPopulation {
  std::vector<std::pair<std::string, int64_t>> items;  // item, devices
};

inline ldp::RapporAccumulator rappor_simulate(const ldp::RapporParams& P, const RapporPopulation& pop,
                                              uint64_t seed) {
  ldp::SeededRandom rng(seed);
  const int64_t m = P.cohorts, k = P.bits;
  const double p11 = P.q * (1 - P.f / 2) + P.p * P.f / 2, p01 = P.p * (1 - P.f / 2) + P.q * P.f / 2;
  std::vector<int64_t> n_c(static_cast<size_t>(m), 0), n1(static_cast<size_t>(m * k), 0);
  for (const auto& [item, devices] : pop.items) {
    int64_t left = devices;
    for (int64_t c = 0; c < m && left > 0; ++c) {
      const int64_t here = c == m - 1 ? left : ldp::thresh::binomial(rng, left, 1.0 / static_cast<double>(m - c));
      left -= here;
      if (here == 0) continue;
      n_c[static_cast<size_t>(c)] += here;
      const ldp::RapporBits bloom = ldp::rappor_bloom(item, c, k, P.hashes);
      for (int64_t b = 0; b < k; ++b)
        if (bloom.test(b)) n1[static_cast<size_t>(c * k + b)] += here;
    }
  }
  ldp::RapporAccumulator acc(P, 8);
  std::vector<int64_t> ones(static_cast<size_t>(k));
  for (int64_t c = 0; c < m; ++c) {
    const int64_t N = n_c[static_cast<size_t>(c)];
    if (N == 0) continue;
    for (int64_t b = 0; b < k; ++b) {
      const int64_t a = n1[static_cast<size_t>(c * k + b)];
      ones[static_cast<size_t>(b)] = ldp::thresh::binomial(rng, a, p11) + ldp::thresh::binomial(rng, N - a, p01);
    }
    acc.add_counts(c, N, ones.data());
  }
  return acc;
}

}  // namespace ldp_test
