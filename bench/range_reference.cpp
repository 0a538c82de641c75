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
#include "core/range/hh.hpp"
#include "core/range/range_summary.hpp"

// The peer keeps its counters private; the driver sets them as its perturb() would.
#define private public
#include "B_ary_tree_min.h"
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
    const ldp::RangeReport r = ldp::haar_encode(p, draw_bucket(rng, D), rng);
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

// hh, B = 4, k = 10 (D = 4^5): the peer's B_ary_tree_min estimates each level with its own
// HRR (rows 1..m−1, each row's mean, renormalised), so it is handed our per-level estimates
// x̂_ℓ (hh_level_estimates) as its levels' values, and its consistency
// (constrained_Inference: weighted averaging up, mean consistency down) runs on them. Ours
// is weighted least squares with the root's total fixed at 1; the peer treats the root's 1
// as one more estimate and weights each level as Hay et al.'s formula weights the level
// above it. So the two are compared by their errors against the truth, over seeded runs
// of reports with equal level sizes (where Hay et al.'s weights are the least-squares
// ones), not value by value. Prints a Markdown table.
void compare_hh(int runs) {
  const int k = 10, B = 4;
  const int64_t D = int64_t{1} << k, n = 200000;
  char text[128];
  std::snprintf(text, sizeof text, "v1:hh{epsilon=%.17g,domain_bits=%d,branching=%d,mapping=floor}", std::log(3.0), k, B);
  const ldp::RangeProtocol p = ldp::range_protocol_from_text(text);
  const ldp::HhShape shape = ldp::hh_shape(p);
  const int h = shape.levels;
  const double keep = 0.75;  // e^ε/(e^ε+1) at e^ε = 3
  double se_ours = 0, se_peer = 0, se_root = 0, largest = 0;
  int64_t count = 0;
  for (int run = 0; run < runs; ++run) {
    std::vector<uint64_t> buf((ldp::range_summary_size(p) + 7) / 8, 0);
    auto* s = reinterpret_cast<ldp::RangeSummary*>(buf.data());
    ldp::range_summary_init(s, p);
    std::vector<int64_t> cum(static_cast<size_t>(D) + 1, 0);
    ldp::SeededRandom rng(500 + run);
    for (int64_t i = 0; i < n; ++i) {
      const int64_t b = draw_bucket(rng, D);
      ++cum[static_cast<size_t>(b) + 1];
      const int level = 1 + static_cast<int>(i % h);  // equal level sizes
      const int64_t row = static_cast<int64_t>(rng.below(static_cast<uint64_t>(shape.nodes(level))));
      const bool truth = ldp::hh_true_sign(p, b, level, row);
      ldp::range_add_report(s, level, row, rng.bernoulli(keep) ? truth : !truth);
    }
    for (int64_t b = 0; b < D; ++b) cum[static_cast<size_t>(b) + 1] += cum[static_cast<size_t>(b)];
    std::vector<uint64_t> dbuf((ldp::range_prepared_size(p) + 7) / 8, 0);
    auto* d = reinterpret_cast<ldp::RangePrepared*>(dbuf.data());
    ldp::range_prepare(*s, d, ldp::range_prepared_size(p));

    B_ary_tree_min peer(0, static_cast<int>(D - 1), 3.0f, B);
    std::vector<double> given(peer.arraytree.size(), 0.0);
    given[0] = 1.0;
    size_t at = 1;
    for (int level = 1; level <= h; ++level) {
      const std::vector<double> x = ldp::hh_level_estimates(*s, level);
      for (double v : x) given[at++] = v;
    }
    auto load = [&] {
      for (size_t i = 0; i < given.size(); ++i) peer.arraytree[i]->level_ht = given[i];
    };
    std::vector<std::pair<int64_t, int64_t>> ranges;
    ldp::SeededRandom pick(900 + run);
    for (int q = 0; q < 200; ++q) {
      int64_t a = static_cast<int64_t>(pick.below(D)), b = static_cast<int64_t>(pick.below(D));
      if (a > b) std::swap(a, b);
      ranges.emplace_back(a, b);
    }
    auto answers = [&] {
      std::vector<double> out;
      for (const auto& [lo, hi] : ranges) {
        std::vector<int> range{static_cast<int>(lo), static_cast<int>(hi)};
        peer.eval_range_itr(range);
        out.push_back(peer.answer.TreeHT);
      }
      return out;
    };
    load();
    peer.constrained_Inference();
    const std::vector<double> as_is = answers();
    load();  // again, the root's total fixed at 1 between the passes (the driver's change)
    peer.weighted_averaging_itr(peer.arraytree[0]);
    peer.arraytree[0]->level_ht = 1.0;
    peer.mean_Consistency_itr(peer.arraytree[0]);
    const std::vector<double> root_fixed = answers();
    for (size_t i = 0; i < ranges.size(); ++i) {
      const auto [lo, hi] = ranges[i];
      const double truth = static_cast<double>(cum[static_cast<size_t>(hi) + 1] - cum[static_cast<size_t>(lo)]) / n;
      const double ours = ldp::range_answer(*d, lo, hi).estimate;
      se_ours += (ours - truth) * (ours - truth);
      se_peer += (as_is[i] - truth) * (as_is[i] - truth);
      se_root += (root_fixed[i] - truth) * (root_fixed[i] - truth);
      largest = std::max(largest, std::fabs(ours - as_is[i]));
      ++count;
    }
  }
  std::printf("| consistency on the same level estimates | MSE over %d runs × 200 ranges |\n|---|---|\n", runs);
  std::printf("| ours (weighted least squares, root 1) | %.4g |\n", se_ours / count);
  std::printf("| the peer's constrained_Inference | %.4g |\n", se_peer / count);
  std::printf("| the peer's, its root set to 1 between the passes | %.4g |\n", se_root / count);
  std::printf("\nlargest |ours − peer| on one range: %.3g\n", largest);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: range_reference OUT_DIR\n";
    return 2;
  }
  write_haar(argv[1]);
  compare_hh(20);
  return 0;
}
