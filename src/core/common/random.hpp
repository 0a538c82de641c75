// Random sources for encoders. Devices use SecureRandom (the kernel's CSPRNG);
// simulations and tests use SeededRandom, which is reproducible across platforms
// (std::mt19937_64 is fully specified by the standard, and the conversions below
// use no implementation-defined distribution).
#pragma once

#include <cstdint>
#include <random>

namespace ldp {

class RandomSource {
 public:
  virtual ~RandomSource() = default;
  virtual uint64_t next_u64() = 0;

  // Uniform on [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }
  // Uniform on (0, 1): never 0, so logarithms are finite.
  double uniform_open() { return (static_cast<double>(next_u64() >> 11) + 0.5) * 0x1.0p-53; }
  bool bernoulli(double p) { return uniform() < p; }
  // Laplace(0, scale) by inversion.
  double laplace(double scale);
  // Standard normal (Box-Muller; one value per call).
  double normal();
  // Uniform integer in [0, n), n >= 1, without modulo bias.
  uint64_t below(uint64_t n);
};

class SeededRandom final : public RandomSource {
 public:
  // The seed is mixed with splitmix64 first, so that nearby seeds (a base seed
  // plus a row number) give unrelated streams.
  explicit SeededRandom(uint64_t seed) : engine_(mix(seed)) {}
  static uint64_t mix(uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
  }
  uint64_t next_u64() override { return engine_(); }

 private:
  std::mt19937_64 engine_;
};

// The kernel's cryptographic generator (getrandom(2)), buffered.
class SecureRandom final : public RandomSource {
 public:
  uint64_t next_u64() override;

 private:
  uint64_t buffer_[64];
  unsigned used_ = 64;
};

}  // namespace ldp
