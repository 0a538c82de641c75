// Device side (the SDK) of the frequency oracles. Items are integers in [0, k).
#pragma once

#include <cstdint>
#include <vector>

#include "core/common/random.hpp"
#include "core/oracles/hadamard_response.hpp"

namespace ldp {

// GRR (k-RR): the item w.p. e^eps/(e^eps+k-1), else uniform over the other k-1.
int64_t grr_encode(int64_t value, double epsilon, int64_t k, RandomSource& rng);

// SUE (basic one-time RAPPOR): one-hot, each bit flipped w.p. 1/(e^{eps/2}+1).
// OUE: the 1 kept w.p. 1/2, each 0 becomes 1 w.p. 1/(e^eps+1).
// Bits are written MSB-first into ceil(k/8) bytes (bit v = item v), the rest zero.
void sue_encode(int64_t value, double epsilon, int64_t k, RandomSource& rng, uint8_t* bytes);
void oue_encode(int64_t value, double epsilon, int64_t k, RandomSource& rng, uint8_t* bytes);

// dBitFlip (Ding et al. 2017, §2.2): d distinct buckets drawn uniformly; for each, a bit
// that is 1 w.p. e^{eps/2}/(e^{eps/2}+1) if the value is that bucket, else
// 1/(e^{eps/2}+1).
void dbitflip_encode(int64_t value, double epsilon, int64_t k, int64_t d, RandomSource& rng,
                     int32_t* buckets, bool* bits);

// dBitFlipPM (Ding et al. 2017, §3.4): the device draws its d buckets once and memoizes
// one response per (bucket, whether the value is that bucket).
class DBitFlipClient {
 public:
  DBitFlipClient(double epsilon, int64_t k, int64_t d, RandomSource& rng);
  void report(int64_t value, RandomSource& rng, int32_t* buckets, bool* bits);
  const std::vector<int32_t>& buckets() const { return buckets_; }

 private:
  double epsilon_;
  int64_t k_;
  std::vector<int32_t> buckets_;
  std::vector<int8_t> memo_;  // per bucket: [2*i] value not in bucket, [2*i+1] value in bucket; -1 undrawn
};

// OLH: g = round(e^eps)+1, a random seed (< 2^63), y = GRR over [0, g) of H_seed(value).
struct OlhReport {
  int64_t seed;
  int64_t y;
};
OlhReport olh_encode(int64_t value, double epsilon, int64_t k, RandomSource& rng);
int64_t olh_range(double epsilon);  // g

// Hadamard response: K = smallest power of two >= k+1, row j uniform in [0, K),
// y = H[j][value+1] = (-1)^popcount(j & (value+1)), flipped w.p. 1/(e^eps+1).
// (HadamardReport and hadamard_order, K: oracles/hadamard_response.hpp)
HadamardReport hadamard_encode(int64_t value, double epsilon, int64_t k, RandomSource& rng);

}  // namespace ldp
