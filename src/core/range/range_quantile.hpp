// Quantiles from an estimated CDF with their intervals (docs/algorithms/ranges.md#quantiles).
//
// q̂_φ = min{x : F̂(x) >= φ}. Its interval inverts the test of each x: x is kept unless
// F(x) >= φ is rejected (F̂(x) + z·se(x) < φ) or F(x − 1) < φ is (F̂(x − 1) − z·se(x − 1) >= φ),
// and the interval is the hull [L, U] of what is kept, L = min{x : F̂(x) + z·se(x) >= φ},
// U = 1 + max{y : F̂(y) − z·se(y) < φ} (capped at D − 1). F̂ need not be monotone: the
// search is exact over every x, not a bisection. It runs over blocks of kCdfBlock buckets
// whose largest and smallest F̂ and largest se are kept, scanning only the blocks whose
// bounds say they may hold the answer.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "core/range/haar.hpp"

namespace ldp {

constexpr int64_t kCdfBlock = 64;

struct QuantileAnswer {
  double phi;
  int64_t bucket;  // q̂_φ
  int64_t lower;   // L
  int64_t upper;   // U
};

class CdfIndex {
 public:
  // prefix(x) gives F̂(x) and its variance for x in [0, D).
  CdfIndex(int64_t domain, std::function<LinearAnswer(int64_t)> prefix);

  // φ in [0, 1], z >= 0 the critical value (pointwise 1.96; a band's is larger).
  QuantileAnswer quantile(double phi, double z) const;
  int64_t domain() const { return domain_; }

 private:
  struct Block {
    double max_f, min_f, max_se;
  };
  struct Point {
    double f, se;
  };
  Point at(int64_t x) const;

  int64_t domain_;
  std::function<LinearAnswer(int64_t)> prefix_;
  std::vector<Block> blocks_;
};

}  // namespace ldp
