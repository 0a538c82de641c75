// Quantiles from an estimated CDF with their intervals (docs/algorithms/ranges.md#quantiles).
//
// q̂_φ = min{x : F̂(x) >= φ}. Its interval inverts the test of each x: x is kept unless
// F(x) >= φ is rejected (F̂(x) + z·se(x) < φ) or F(x − 1) < φ is (F̂(x − 1) − z·se(x − 1) >= φ),
// and the interval is the hull [L, U] of what is kept, L = min{x : F̂(x) + z·se(x) >= φ},
// U = 1 + max{y : F̂(y) − z·se(y) < φ} (capped at D − 1). F̂ need not be monotone: the
// search is exact over every x, not a bisection. It runs over blocks of kCdfBlock buckets
// whose largest and smallest F̂ and largest se are kept, scanning only the blocks whose
// bounds say they may hold the answer. A point whose se is +Inf (a level without reports)
// passes every test: the interval then spans what that level leaves unknown.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

namespace ldp {

// An estimate of a linear answer (a share of the reports) with its variance (+Inf when
// the reports do not identify it: a level it needs has no report).
struct LinearAnswer {
  double estimate = 0;
  double variance = 0;
};

constexpr int64_t kCdfBlock = 64;

struct QuantileAnswer {
  double phi;
  int64_t bucket;  // q̂_φ
  int64_t lower;   // L
  int64_t upper;   // U
};

// The bounds of one block of kCdfBlock buckets.
struct CdfBlock {
  double max_f, min_f, max_se;
};
// F̂(x) and its variance for x in [0, D), from a context.
using CdfPrefix = LinearAnswer (*)(const void* context, int64_t x);

// The search over blocks held elsewhere (the glue's prepared decode keeps them in
// PostgreSQL's memory): trivially copyable and destructible.
class CdfSearch {
 public:
  CdfSearch(int64_t domain, CdfPrefix prefix, const void* context, const CdfBlock* blocks)
      : domain_(domain), prefix_(prefix), context_(context), blocks_(blocks) {}
  static int64_t blocks_for(int64_t domain) { return (domain + kCdfBlock - 1) / kCdfBlock; }
  // Fills blocks_for(domain) blocks: D evaluations of the prefix; polls for a cancel.
  static void build(int64_t domain, CdfPrefix prefix, const void* context, CdfBlock* out);
  // φ in [0, 1] (else InvalidParameter), z >= 0 the critical value (pointwise 1.96; a
  // band's is larger).
  QuantileAnswer quantile(double phi, double z) const;

 private:
  struct Point {
    double f, se;
  };
  static Point at(CdfPrefix prefix, const void* context, int64_t x);
  int64_t first_reaching(double phi, double z) const;

  int64_t domain_;
  CdfPrefix prefix_;
  const void* context_;
  const CdfBlock* blocks_;
};

// A search that owns its blocks and prefix (tests, the SDK).
class CdfIndex {
 public:
  CdfIndex(int64_t domain, std::function<LinearAnswer(int64_t)> prefix);
  CdfIndex(const CdfIndex&) = delete;
  CdfIndex& operator=(const CdfIndex&) = delete;

  QuantileAnswer quantile(double phi, double z) const { return search().quantile(phi, z); }
  int64_t domain() const { return domain_; }

 private:
  static LinearAnswer call(const void* context, int64_t x) {
    return (*static_cast<const std::function<LinearAnswer(int64_t)>*>(context))(x);
  }
  CdfSearch search() const { return CdfSearch(domain_, call, &prefix_, blocks_.data()); }

  int64_t domain_;
  std::function<LinearAnswer(int64_t)> prefix_;
  std::vector<CdfBlock> blocks_;
};

}  // namespace ldp
