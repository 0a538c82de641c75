// Hadamard response (docs/algorithms/frequency.md#hadamard-response): the one-row form of
// Apple's HCMS, on the Sylvester Hadamard matrix H[a][b] = (-1)^popcount(a & b). A value v
// in [0, k) uses column v + 1 of the K×K matrix, K = the smallest power of two >= k + 1
// (column 0 is all ones and carries nothing). The device draws a row j uniformly from
// [0, K) and sends (j, y), y = H[j][v + 1] flipped with probability 1/(e^ε+1). The
// frequency family's hadamard mechanism (freq/hadamard.cpp) and Bitstogram's coordinate
// reports (heavy/bitstogram.cpp) share it; the count sketch and HCMS oracles and THRESH's
// histogram projections read H through hadamard_plus.
#pragma once

#include <cstdint>

#include "core/common/random.hpp"

namespace ldp {

// H[a][b] = (-1)^popcount(a & b) as +1 -> true.
inline bool hadamard_plus(int64_t a, int64_t b) {
  return (__builtin_popcountll(static_cast<uint64_t>(a & b)) & 1) == 0;
}

// The largest order K accepted (a frequency summary's kMaxDomain, Bitstogram's
// coordinate vector).
constexpr int64_t kMaxHadamardOrder = int64_t{1} << 22;

// K for k values: the smallest power of two >= k + 1; InvalidParameter unless
// 2 <= k < kMaxHadamardOrder.
int64_t hadamard_order(int64_t k);

struct HadamardReport {
  int64_t row;
  bool plus_one;
};
// One device's report of value in [0, k) at ε, K = hadamard_order(k): row uniform in
// [0, K), y = H[row][value + 1] flipped with probability 1/(e^ε+1). The caller has
// checked value, ε and K.
HadamardReport hadamard_response(int64_t value, double epsilon, int64_t order, RandomSource& rng);

}  // namespace ldp
