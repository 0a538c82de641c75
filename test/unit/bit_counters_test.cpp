// The byte-wide bit counters of common/bit_counters.hpp: the AVX-512/GFNI path (taken
// on CPUs that have it, for whole 64-byte blocks) and the portable path count the same,
// for lengths around the blocks of both, and equal the plain set-bit counts.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "core/common/bit_counters.hpp"

namespace {

TEST(BitCounters, FastAndPortablePathsAndSetBitsAgree) {
  std::mt19937_64 g(7);
  for (int64_t nbits : {1, 7, 8, 100, 127, 128, 511, 512, 513, 1000, 1024, 1536, 2049}) {
    const int64_t nbytes = (nbits + 7) / 8;
    std::vector<uint64_t> fast(static_cast<size_t>(nbytes)), portable(static_cast<size_t>(nbytes));
    std::vector<int64_t> direct(static_cast<size_t>(nbits));
    for (int r = 0; r < 200; ++r) {  // below 256: no counter overflows
      std::vector<uint8_t> bits(static_cast<size_t>(nbytes));
      for (auto& b : bits) b = static_cast<uint8_t>(g());
      if (nbits % 8 != 0) bits.back() &= static_cast<uint8_t>(0xff << (8 - nbits % 8));  // varbit padding is 0
      ldp::add_bits_to_byte_counters(bits.data(), nbits, fast.data());
      ldp::add_bits_to_byte_counters_portable(bits.data(), nbits, portable.data());
      ldp::add_set_bits(bits.data(), nbits, direct.data());
    }
    ASSERT_EQ(fast, portable) << nbits;
    std::vector<uint8_t> bytes(static_cast<size_t>(8 * nbytes));
    std::memcpy(bytes.data(), fast.data(), bytes.size());
    std::vector<int64_t> counted(static_cast<size_t>(nbits), 0);
    ldp::flush_byte_counters(bytes.data(), counted.data(), nbits);
    EXPECT_EQ(counted, direct) << nbits;
  }
}

}  // namespace
