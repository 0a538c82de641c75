// HaarHRR (Cormode, Kulkarni and Srivastava, "Answering Range Queries Under Local
// Differential Privacy", VLDB 2019, §4.3; docs/algorithms/ranges.md#haarhrr).
//
// The domain [0, D), D = 2^k, is a binary tree; level j in [0, k) has 2^j nodes, node p
// covering the buckets [p·2^(k−j), (p+1)·2^(k−j)). Its Haar coefficient is
// d_(j,p) = (mass of its left half) − (mass of its right half). A bucket v has, at level
// j, the signed one-hot vector s·e_p (p = v >> (k − j), s = +1 in the left half, −1 in
// the right). A device picks a level j and a Hadamard row r in [0, 2^j) uniformly and
// sends (j, r, y): y = s·H[r][p] kept with probability e^ε/(e^ε+1), else flipped.
//
// The server keeps, per level, the number of reports n_j and the row sums S_j[r] = Σ y.
// With c = (e^ε+1)/(e^ε−1), d̂_(j,q) = c/n_j · Σ_r S_j[r]·H[r][q] (one Walsh–Hadamard
// transform per level) is unbiased, and for one report Cov(c·y·H[r][u], c·y·H[r][v]) =
// c²·[u = v] − d_u·d_v, so a linear answer Σ a_q d̂_(j,q) of one level has the variance
// (c²·Σ a_q² − (Σ a_q d_q)²)/n_j, and levels are independent. A bucket's mass is
// 1/D + Σ_j s_j(v)·d_(j,p_j(v))/2^(k−j); a prefix [0, x] touches one coefficient per level,
// with weight min(o, m − o)/m (m = 2^(k−j) the node's size, o the node's buckets <= x),
// so a CDF value or a range costs O(k) with its exact variance.
#pragma once

#include <cstdint>
#include <vector>

#include "core/common/random.hpp"
#include "core/range/range_protocol.hpp"
#include "core/range/range_quantile.hpp"

namespace ldp {

// One device's report of bucket b in [0, D) (the caller has validated p and b).
RangeReport haar_encode(const RangeProtocol& p, int64_t bucket, RandomSource& rng);

// The report's sign before randomization: s·H[row][p] as +1 -> true.
bool haar_true_sign(int domain_bits, int64_t bucket, int level, int64_t row);

// The counters of a set of reports: n[j] and the row sums of level j at sums[2^j − 1 + r].
struct HaarCounts {
  int domain_bits = 0;
  std::vector<int64_t> n;
  std::vector<int64_t> sums;

  explicit HaarCounts(int k) : domain_bits(k), n(k, 0), sums((size_t{1} << k) - 1, 0) {}
  // haar_check_report's refusals (ImpossibleReport).
  void add(int level, int64_t row, bool plus_one);
  int64_t reports() const;
};

// c(ε) = (e^ε+1)/(e^ε−1); c² is the factor of every coefficient's variance.
double haar_c(double epsilon);
inline double haar_c2(double epsilon) {
  const double c = haar_c(epsilon);
  return c * c;
}
// The coefficients d̂_(j,q) = c/n_j · FWHT(S_j)[q] of every level into coef (2^k − 1
// doubles, level j at 2^j − 1 + q); 0 for a level without reports. Polls for a cancel.
void haar_decode(const RangeProtocol& p, const int64_t* n, const int64_t* sums, double* coef);

// The answers of a decoded summary, over coefficients and level sizes held elsewhere
// (HaarDecoded's vectors; the glue's prepared decode in PostgreSQL's memory): trivially
// copyable and destructible.
struct HaarView {
  int k;
  double c2;
  const int64_t* n;     // k level sizes
  const double* coef;   // 2^k − 1 coefficients

  int64_t domain() const { return int64_t{1} << k; }
  double coefficient(int level, int64_t node) const { return coef[(size_t{1} << level) - 1 + node]; }
  // F̂(x) = the estimated share of buckets <= x, x in [−1, D) (F̂(−1) = 0, F̂(D−1) = 1).
  LinearAnswer prefix(int64_t x) const;
  // The estimated share of buckets in [lo, hi], 0 <= lo <= hi < D.
  LinearAnswer range(int64_t lo, int64_t hi) const;
  // The variance of Σ_q a_q d̂_(j,q) for at most two nodes of level j.
  double level_variance(int level, int64_t u, double au, int64_t v, double av) const;
};

// A decoded summary that owns its coefficients (tests, the SDK).
class HaarDecoded {
 public:
  HaarDecoded(const RangeProtocol& p, const HaarCounts& counts);

  int domain_bits() const { return k_; }
  int64_t domain() const { return int64_t{1} << k_; }
  int64_t reports() const { return reports_; }
  HaarView view() const { return HaarView{k_, c2_, n_.data(), coef_.data()}; }
  double coefficient(int level, int64_t node) const { return view().coefficient(level, node); }
  LinearAnswer prefix(int64_t x) const { return view().prefix(x); }
  LinearAnswer range(int64_t lo, int64_t hi) const { return view().range(lo, hi); }
  double level_variance(int level, int64_t u, double au, int64_t v, double av) const {
    return view().level_variance(level, u, au, v, av);
  }

 private:
  int k_;
  double c2_;
  int64_t reports_;
  std::vector<double> coef_;
  std::vector<int64_t> n_;
};

// A report's level and row checked against a domain of k bits: ImpossibleReport unless
// 0 <= level < k and 0 <= row < 2^level (HaarCounts::add, the summary's add).
void haar_check_report(int k, int64_t level, int64_t row);

}  // namespace ldp
