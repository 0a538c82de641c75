// The RAPPOR client (src/core/rappor/rappor_client.*;
// docs/algorithms/rappor.md#client-bloom-filter-prr-and-irr): Bloom filters
// and PRRs equal to google/rappor's Python client (values printed by its
// client/python/rappor.py under Python 2.7: get_bloom_bits, get_prr_masks, bit_string),
// the >32-bit word rule, the IRR's probabilities, the bit order, and the refusals.
#include "core/rappor/rappor_client.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "core/common/random.hpp"
#include "test_support.hpp"

namespace {

using ldp::ErrorKind;
using ldp::RapporBits;
using ldp_test::ThrowsKind;

std::set<int64_t> bits_of(const RapporBits& v) {
  std::set<int64_t> s;
  for (int64_t b = 0; b < 256; ++b)
    if (v.test(b)) s.insert(b);
  return s;
}

RapporBits from_string(const std::string& s) {  // bit_string order: character j = bit k-1-j
  RapporBits v;
  const auto k = static_cast<int64_t>(s.size());
  for (int64_t j = 0; j < k; ++j)
    if (s[static_cast<size_t>(j)] == '1') v.set(k - 1 - j);
  return v;
}

TEST(RapporClient, BloomTestVectorsOfAlgorithms8) {
  EXPECT_EQ(bits_of(ldp::rappor_bloom("v1", 0, 16, 2)), (std::set<int64_t>{8, 10}));
  EXPECT_EQ(bits_of(ldp::rappor_bloom("v1", 1, 16, 2)), (std::set<int64_t>{3, 6}));
  EXPECT_EQ(bits_of(ldp::rappor_bloom("abc", 5, 16, 2)), (std::set<int64_t>{13, 7}));
  EXPECT_EQ(bits_of(ldp::rappor_bloom("v1", 0, 128, 2)), (std::set<int64_t>{56, 26}));
}

TEST(RapporClient, BloomEqualsPythonClient) {
  // get_bloom_bits(word, cohort, h, k), sorted, from google/rappor's Python client
  EXPECT_EQ(bits_of(ldp::rappor_bloom("", 0, 32, 2)), (std::set<int64_t>{17, 19}));  // the empty item
  EXPECT_EQ(bits_of(ldp::rappor_bloom("hello world", 63, 32, 4)), (std::set<int64_t>{4, 14, 20, 30}));
  EXPECT_EQ(bits_of(ldp::rappor_bloom("\xc3\xa9t\xc3\xa9", 7, 256, 16)),  // "été" as UTF-8
            (std::set<int64_t>{36, 62, 105, 111, 133, 145, 147, 154, 155, 199, 209, 229, 233, 239, 246, 248}));
  int64_t pos[2];
  ldp::rappor_bloom_positions("v1", 0, 16, 2, pos);
  EXPECT_EQ(pos[0] == 8 || pos[0] == 10, true);
}

TEST(RapporClient, PrrEqualsPythonClient) {
  // (word, cohort, secret, f, k) -> bit_string(bloom), bit_string(prr) from get_prr_masks
  struct Case {
    const char* word;
    int64_t cohort;
    const char* secret;
    double f;
    int64_t k;
    const char* bloom;
    const char* prr;
  };
  const Case cases[] = {
      {"v1", 0, "secret", 0.5, 16, "0000010100000000", "1000000100101100"},
      {"abc", 5, "s3", 0.45, 32, "00100000100000000000000000000000", "10110000100000100000101000001010"},
      {"x", 3, "", 0.25, 8, "00110000", "00110000"},
  };
  for (const Case& c : cases) {
    const RapporBits bloom = ldp::rappor_bloom(c.word, c.cohort, c.k, 2);
    EXPECT_EQ(ldp::rappor_bit_string(bloom, c.k), c.bloom) << c.word;
    const RapporBits prr = ldp::rappor_prr(bloom, c.secret, c.k, c.f);
    EXPECT_EQ(ldp::rappor_bit_string(prr, c.k), c.prr) << c.word;
  }
}

TEST(RapporClient, PrrIsMemoizedPerFilterAndFollowsF) {
  // The same filter under the same secret gives the same PRR; its bits are B_i with
  // probability 1 - f' and uniform otherwise, f' = ⌈128f⌉/128 (Python's comparison).
  const RapporBits bloom = ldp::rappor_bloom("item", 3, 128, 2);
  EXPECT_EQ(ldp::rappor_prr(bloom, "s", 128, 0.3), ldp::rappor_prr(bloom, "s", 128, 0.3));
  for (double f : {0.0, 0.25, 0.45, 0.5}) {
    int64_t kept_one = 0, zeros_set = 0, zeros = 0, ones = 0;
    for (int d = 0; d < 2000; ++d) {
      const std::string secret = "device-" + std::to_string(d);
      const RapporBits prr = ldp::rappor_prr(bloom, secret, 128, f);
      for (int64_t b = 0; b < 128; ++b) {
        if (bloom.test(b)) ones++, kept_one += prr.test(b);
        else zeros++, zeros_set += prr.test(b);
      }
    }
    const double fe = std::ceil(128 * f) / 128;
    const double p1 = static_cast<double>(zeros_set) / static_cast<double>(zeros);  // f'/2
    const double se = std::sqrt(fe / 2 * (1 - fe / 2) / static_cast<double>(zeros));
    EXPECT_NEAR(p1, fe / 2, 4 * se + 1e-12) << f;
    const double k1 = static_cast<double>(kept_one) / static_cast<double>(ones);  // 1 - f'/2
    EXPECT_NEAR(k1, 1 - fe / 2, 4 * std::sqrt(fe / 2 * (1 - fe / 2) / static_cast<double>(ones)) + 1e-12) << f;
  }
}

TEST(RapporClient, PrrWordRuleBeyond32Bits) {
  // Each 32-bit word has its own HMAC: bits 32..63 are not a copy of bits 0..31, and
  // the first 32 bits of a 64-bit PRR differ from Python's 32-bit message rule.
  RapporBits bloom;
  bloom.set(3);
  const RapporBits prr64 = ldp::rappor_prr(bloom, "secret", 64, 1.0 - 1.0 / 128);
  const uint64_t lo = prr64.w[0] & 0xffffffffu, hi = prr64.w[0] >> 32;
  EXPECT_NE(lo, hi);
  EXPECT_EQ(ldp::rappor_prr(bloom, "secret", 64, 0.5), ldp::rappor_prr(bloom, "secret", 64, 0.5));
  // With f = 0 the PRR is the filter itself, at every width.
  const RapporBits b256 = ldp::rappor_bloom("wide", 9, 256, 16);
  EXPECT_EQ(ldp::rappor_prr(b256, "k", 256, 0.0), b256);
}

TEST(RapporClient, IrrProbabilities) {
  ldp::SeededRandom rng(7);
  RapporBits prr;
  for (int64_t b = 0; b < 64; b += 2) prr.set(b);  // half ones
  int64_t ones_on_one = 0, ones_on_zero = 0;
  const int trials = 4000;
  for (int t = 0; t < trials; ++t) {
    const RapporBits irr = ldp::rappor_irr(prr, 64, 0.25, 0.75, rng);
    for (int64_t b = 0; b < 64; ++b) (prr.test(b) ? ones_on_one : ones_on_zero) += irr.test(b);
    EXPECT_EQ(irr.w[1] | irr.w[2] | irr.w[3], 0u);
  }
  const double n = 32.0 * trials;
  EXPECT_NEAR(ones_on_one / n, 0.75, 4 * std::sqrt(0.75 * 0.25 / n));
  EXPECT_NEAR(ones_on_zero / n, 0.25, 4 * std::sqrt(0.75 * 0.25 / n));
}

TEST(RapporClient, BitOrderOfReports) {
  const RapporBits v = from_string("1000000100101100");
  EXPECT_TRUE(v.test(15));
  EXPECT_TRUE(v.test(2));
  EXPECT_EQ(ldp::rappor_bit_string(v, 16), "1000000100101100");
  uint8_t data[2];
  ldp::rappor_to_varbit(v, 16, data);
  EXPECT_EQ(data[0], 0x81);  // character 0 in the high bit of byte 0
  EXPECT_EQ(data[1], 0x2c);
  EXPECT_EQ(ldp::rappor_from_varbit(data, 16), v);
  // an odd length: 10 bits, the last byte's low 6 bits unused and zero
  const RapporBits w = from_string("1100000001");
  uint8_t d2[2];
  ldp::rappor_to_varbit(w, 10, d2);
  EXPECT_EQ(d2[0], 0xc0);
  EXPECT_EQ(d2[1], 0x40);
  EXPECT_EQ(ldp::rappor_from_varbit(d2, 10), w);
}

TEST(RapporClient, EncodeIsBloomThenPrrThenIrr) {
  ldp::SeededRandom a(3), b(3);
  const RapporBits r = ldp::rappor_encode("v1", 0, "secret", 16, 2, 0.5, 0.25, 0.75, a);
  const RapporBits prr = ldp::rappor_prr(ldp::rappor_bloom("v1", 0, 16, 2), "secret", 16, 0.5);
  EXPECT_EQ(r, ldp::rappor_irr(prr, 16, 0.25, 0.75, b));
  // p = 0, q = 1: the IRR is the PRR
  ldp::SeededRandom c(4);
  EXPECT_EQ(ldp::rappor_encode("v1", 0, "secret", 16, 2, 0.5, 0.0, 1.0, c), prr);
}

TEST(RapporClient, Refusals) {
  ldp::SeededRandom rng(1);
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::rappor_bloom("x", 0, 0, 2); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::rappor_bloom("x", 0, 257, 2); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::rappor_bloom("x", 0, 16, 0); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::rappor_bloom("x", 0, 16, 17); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::rappor_bloom("x", -1, 16, 2); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::rappor_bloom("x", int64_t{1} << 31, 16, 2); }));
  EXPECT_NO_THROW(ldp::rappor_bloom("x", INT32_MAX, 256, 16));
  auto enc = [&](double f, double p, double q) { ldp::rappor_encode("x", 0, "s", 16, 2, f, p, q, rng); };
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { enc(1.0, 0.25, 0.75); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { enc(0.5, 0.75, 0.75); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { enc(0.5, 0.8, 0.75); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { enc(-0.1, 0.25, 0.75); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { enc(0.5, 0.25, 1.5); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { enc(std::nan(""), 0.25, 0.75); }));
}

}  // namespace
