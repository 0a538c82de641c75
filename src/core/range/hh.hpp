// Hierarchical histograms with HRR per level and weighted least-squares consistency
// (Cormode, Kulkarni and Srivastava, "Answering Range Queries Under Local Differential
// Privacy", VLDB 2019, §4.1–4.2; docs/algorithms/ranges.md#hierarchical-histograms-hh).
//
// The domain [0, D), D = 2^k, is a tree of branching B = 2^s (the protocol's branching,
// 2 or 4) with levels 0..h, h = ceil(k/s): level ℓ >= 1 has 2^bits(ℓ) nodes,
// bits(ℓ) = k − (h − ℓ)·s, so the leaves (level h) are the buckets and, when s does not
// divide k, the top level branches by 2^(k − (h−1)·s) < B (k = 5, B = 4: 2, 8, 32 nodes).
// A device picks a level ℓ in [1, h] and a Hadamard row r in [0, 2^bits(ℓ)) uniformly and
// sends (ℓ, r, y): y = H[r][p] for its node p at level ℓ, kept with probability
// e^ε/(e^ε+1), else flipped — HaarHRR's wire format, aggregate and counters (n_ℓ and the
// row sums of each level).
//
// The server debiases each level (x̂_ℓ = c/n_ℓ · FWHT(S_ℓ), unbiased for the level's node
// frequencies, covariance (c²·I − f fᵀ)/n_ℓ), then takes the weighted least-squares tree
// (weights n_ℓ/c², the root's total 1 known): bottom-up subtree estimates, top-down
// equal splits of each parent's discrepancy (Hay et al.'s two passes with per-level
// weights). The consistent tree is a fixed linear map of the x̂'s, so every answer has an
// exact variance; a prefix costs O(h) and a range O(h²) (the page derives both).
#pragma once

#include <cstdint>
#include <vector>

#include "core/common/random.hpp"
#include "core/range/range_protocol.hpp"
#include "core/range/range_summary.hpp"

namespace ldp {

// The tree of a (validated) hh protocol.
struct HhShape {
  int levels;                           // h
  int bits[kMaxRangeDomainBits + 1];    // level ℓ has 2^bits[ℓ] nodes; bits[0] = 0, bits[h] = k
  int64_t nodes(int level) const { return int64_t{1} << bits[level]; }
};
HhShape hh_shape(const RangeProtocol& p);

// The report's sign before randomization: H[row][node of the bucket at level] as +1 -> true.
bool hh_true_sign(const RangeProtocol& p, int64_t bucket, int level, int64_t row);
// One device's report of bucket b in [0, D) (the caller has validated p and b).
RangeReport hh_encode(const RangeProtocol& p, int64_t bucket, RandomSource& rng);
// ImpossibleReport unless 1 <= level <= h and 0 <= row < 2^bits(level).
void hh_check_report(const RangeProtocol& p, int64_t level, int64_t row);

// Level ℓ's debiased node frequencies x̂_ℓ = c/n_ℓ · FWHT(S_ℓ) of an hh summary (0s for a
// level without reports): what the consistency starts from (tests, the SDK).
std::vector<double> hh_level_estimates(const RangeSummary& s, int level);

}  // namespace ldp
