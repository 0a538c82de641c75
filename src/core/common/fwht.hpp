// The fast Walsh–Hadamard transform of integer counters, exact: in place over
// n = 2^r values, FWHT(x)[b] = Σ_a x[a]·H[a][b] with the Sylvester matrix
// H[a][b] = (-1)^popcount(a & b) (= scipy.linalg.hadamard), O(n log n).
//
// In unsigned arithmetic (wrap-around is defined): every intermediate is a signed
// sum of a subset of the inputs, so when Σ|x| fits in int64 (a summary's counters
// are bounded by its report count) every output, read back as int64, is exact.
//
// A transform of kFwhtPollSize values or more polls for a cancel before each of its
// passes (common/interrupt.hpp); callers transforming many smaller rows poll between them
// (fwht_work gives a row's work for InterruptPoll::tick).
#pragma once

#include <cstdint>

#include "core/common/interrupt.hpp"

namespace ldp {

constexpr int64_t kFwhtPollSize = int64_t{1} << 14;

// n·log2(n): the butterflies of a transform of n values, twice.
inline int64_t fwht_work(int64_t n) {
  int64_t w = 0;
  for (int64_t h = 1; h < n; h <<= 1) w += n;
  return w;
}

inline void fwht_exact(uint64_t* t, int64_t n) {
  for (int64_t h = 1; h < n; h <<= 1) {
    if (n >= kFwhtPollSize) check_interrupt();
    for (int64_t i = 0; i < n; i += 2 * h)
      for (int64_t j = i; j < i + h; ++j) {
        uint64_t a = t[j], b = t[j + h];
        t[j] = a + b;
        t[j + h] = a - b;
      }
  }
}

}  // namespace ldp
