// The driver of bench/range_reference.sh (issue 31): runs the decoders of the public C++
// code of Cormode, Kulkarni and Srivastava's "Answering Range Queries Under Local
// Differential Privacy" (github Tejasvk/RangeQueries) on counters of reports that our
// encoder made, and writes what they answer to test/data/range/, which
// test/unit/range_reference_test.cpp compares with our decoders. It is built by that
// script against a checkout of the peer, never by CMake; none of the peer's code is in this
// repository.
//
// Both decoders are functions of the same counters: per level, the number of reports and
// each Hadamard row's sum of ±1. The driver hands the peer's objects those counters in
// place of the reports they would draw themselves (their reports come from a generator
// seeded with time(NULL)), so the two decode the same reports.
//
//   range_reference OUT_DIR      (run in a scratch directory: the peer's HaarTransform
//                                 writes ../treefiles/haar_tree_<D>.csv next to it)
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <queue>
#include <random>
#include <stack>
#include <string>
#include <tuple>
#include <unordered_set>
#include <vector>

#include "core/common/random.hpp"
#include "core/range/haar.hpp"

// The peer keeps its counters private; the driver sets them as its perturb() would.
#define private public
#include "HaarTransform.h"
#undef private

namespace {

// The population: a discretised lognormal latency (most mass low, a long tail), so that
// every level's coefficients are far from 0.
int64_t draw_bucket(ldp::RandomSource& rng, int64_t domain) {
  const double v = std::exp(std::log(domain / 16.0) + 0.8 * rng.normal());
  return std::min<int64_t>(domain - 1, static_cast<int64_t>(v));
}

void write_haar(const std::string& dir) {
  const int k = 10;
  const int64_t D = int64_t{1} << k;
  const double epsilon = std::log(3.0);  // e^ε = 3 exactly in the peer's float
  const int64_t n = 200000;
  ldp::RangeProtocol p;
  p.epsilon = epsilon;
  p.domain_bits = k;
  ldp::SeededRandom rng(31);
  ldp::HaarCounts counts(k);
  for (int64_t i = 0; i < n; ++i) {
    const ldp::HaarReport r = ldp::haar_encode(p, draw_bucket(rng, D), rng);
    counts.add(r.level, r.row, r.plus_one);
  }

  HaarTransform peer(3.0f, static_cast<uint>(D));
  peer.population = static_cast<double>(n);
  for (int j = 0; j < k; ++j) {
    peer.levelfreq[j] = static_cast<double>(counts.n[j]);
    const int64_t width = int64_t{1} << j;
    for (int64_t r = 0; r < width; ++r) {
      const double s = static_cast<double>(counts.sums[width - 1 + r]);
      if (j == 0)
        peer.first_coef = s;
      else
        peer.ht_array[j - 1]->pert_coef_dist[r] = s;
    }
  }
  peer.correction();

  std::ofstream c(dir + "/haar_counts.txt");
  c.precision(17);
  c << "# k epsilon n, then the level counts n_0..n_(k-1), then the row sums S_j[r] (level j at 2^j - 1 + r)\n";
  c << k << " " << epsilon << " " << n << "\n";
  for (int j = 0; j < k; ++j) c << counts.n[j] << (j + 1 < k ? " " : "\n");
  for (size_t i = 0; i < counts.sums.size(); ++i) c << counts.sums[i] << (i + 1 < counts.sums.size() ? " " : "\n");

  std::ofstream h(dir + "/haar_coefficients.txt");
  h.precision(17);
  h << "# index i in [0, D): the peer's pert_haar_ht[i] (i = 2^j + q: level j's node q, scaled by N/2^(k-j); 0: N/D)\n";
  for (int64_t i = 0; i < D; ++i) h << i << " " << peer.pert_haar_ht[i] << "\n";

  std::ofstream q(dir + "/haar_ranges.txt");
  q.precision(17);
  q << "# lo hi: the peer's eval_range_itr({lo, hi}), the estimated share of [lo, hi]; every prefix, then 400 seeded ranges\n";
  std::vector<std::pair<int64_t, int64_t>> ranges;
  for (int64_t x = 0; x < D; ++x) ranges.emplace_back(0, x);
  ldp::SeededRandom pick(7);
  for (int i = 0; i < 400; ++i) {
    int64_t a = static_cast<int64_t>(pick.below(D)), b = static_cast<int64_t>(pick.below(D));
    if (a > b) std::swap(a, b);
    ranges.emplace_back(a, b);
  }
  for (const auto& [lo, hi] : ranges) {
    std::vector<int> range{static_cast<int>(lo), static_cast<int>(hi)};
    q << lo << " " << hi << " " << peer.eval_range_itr(range) << "\n";
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: range_reference OUT_DIR\n";
    return 2;
  }
  write_haar(argv[1]);
  return 0;
}
