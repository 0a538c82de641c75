// Hadamard response: the order of the matrix and a device's report (hadamard_response.hpp).
#include "core/oracles/hadamard_response.hpp"

#include <cinttypes>
#include <cmath>

#include "core/common/error.hpp"

namespace ldp {

int64_t hadamard_order(int64_t k) {
  if (k < 2 || k >= kMaxHadamardOrder)
    throw_error(ErrorKind::InvalidParameter,
                "k must be in [2, %" PRId64 "] for hadamard (K, the smallest power of two >= "
                "k+1, must be at most %" PRId64 "), got %" PRId64,
                kMaxHadamardOrder - 1, kMaxHadamardOrder, k);
  int64_t K = 1;
  while (K < k + 1) K <<= 1;
  return K;
}

HadamardReport hadamard_response(int64_t value, double epsilon, int64_t order, RandomSource& rng) {
  auto row = static_cast<int64_t>(rng.below(static_cast<uint64_t>(order)));
  bool flip = rng.bernoulli(1.0 / (1.0 + std::exp(epsilon)));
  return {row, hadamard_plus(row, value + 1) != flip};
}

}  // namespace ldp
