// The frequency-oracle summary without the statistics: estimates computed by hand
// from docs/algorithms/frequency.md#pure-protocols-one-estimator (never through our encoders),
// reports the mechanisms cannot produce, parameters and the OLH hash. Merges and consistency:
// freq_merge_test.cpp; codecs: freq_summary_io_test.cpp; encoders and statistics:
// freq_estimator_test.cpp.
#include "core/freq/freq_summary.hpp"

#include <gtest/gtest.h>
#include <xxhash.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "core/freq/freq_encoders.hpp"
#include "freq_test_support.hpp"
#include "core/common/random.hpp"
#include "test_support.hpp"

namespace {

using ldp::ErrorKind;
using ldp::FreqMechanism;
using ldp::FreqParams;
using ldp_test::Close;
using ldp_test::Freq;
using ldp_test::ThrowsKind;

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();
const double kLn2 = std::log(2.0);
const double kLn3 = std::log(3.0);
const double kLn9 = std::log(9.0);  // e^{eps/2} = 3

void ExpectAll(const std::vector<double>& got, const std::vector<double>& want,
               const char* what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < want.size(); ++i)
    EXPECT_TRUE(Close(got[i], want[i], 1e-12)) << what << "[" << i << "]";
}

std::vector<double> Sqrt(std::vector<double> v) {
  for (double& x : v) x = std::sqrt(x);
  return v;
}

// ---------------------------------------------------------------------------
// Estimates by hand.

TEST(GrrEstimate, HandComputed) {
  // k = 4, eps = ln 3: p = 3/6 = 1/2, q = 1/6, p - q = 1/3. n = 10, counts 1,2,3,4:
  // f = (C/10 - 1/6) * 3 = 0.3 C - 0.5.
  // Var = q(1-q)/(n (p-q)^2) + f (1-p-q)/(n (p-q)) = (5/36)/(10/9) + f (1/3)/(10/3)
  //     = 1/8 + f/10.
  Freq s(FreqMechanism::GRR, {kLn3, 4, 0}, 10, {1, 2, 3, 4});
  auto e = s.estimate();
  ExpectAll(e.freq, {-0.2, 0.1, 0.4, 0.7}, "freq");
  ExpectAll(e.se, Sqrt({0.125 + 0.0, 0.125 + 0.01, 0.125 + 0.04, 0.125 + 0.07}), "se");
  // GRR's estimates always sum to 1
  EXPECT_TRUE(Close(std::accumulate(e.freq.begin(), e.freq.end(), 0.0), 1.0));
}

TEST(GrrEstimate, MatchesTheReportsAdded) {
  Freq s(FreqMechanism::GRR, {kLn3, 4, 0});
  for (int64_t y : {0, 1, 1, 2, 2, 2, 3, 3, 3, 3}) ldp::freq_add_item(s.get(), y);
  EXPECT_EQ(s.counter_vector(), (std::vector<int64_t>{1, 2, 3, 4}));
  EXPECT_EQ(s->n, 10);
  EXPECT_TRUE(s.same_bytes(Freq(FreqMechanism::GRR, {kLn3, 4, 0}, 10, {1, 2, 3, 4})));
}

TEST(SueEstimate, HandComputed) {
  // eps = 2 ln 3: e^{eps/2} = 3, p = 3/4, q = 1/4, p - q = 1/2, 1 - p - q = 0.
  // n = 8, counts 6, 2, 3: f = (C/8 - 1/4) * 2 = C/4 - 1/2; Var = (3/16)/(8/4) = 3/32.
  Freq s(FreqMechanism::SUE, {kLn9, 3, 0}, 8, {6, 2, 3});
  auto e = s.estimate();
  ExpectAll(e.freq, {1.0, 0.0, 0.25}, "freq");
  ExpectAll(e.se, Sqrt({3.0 / 32, 3.0 / 32, 3.0 / 32}), "se");
}

TEST(OueEstimate, HandComputed) {
  // eps = ln 3: p = 1/2, q = 1/4, p - q = 1/4, 1 - p - q = 1/4.
  // n = 8, counts 4, 2, 1, 8: f = (C/8 - 1/4) * 4 = C/2 - 1.
  // Var = (3/16)/(8/16) + f (1/4)/(8/4) = 3/8 + f/8, f clamped to [0, 1].
  Freq s(FreqMechanism::OUE, {kLn3, 4, 0}, 8, {4, 2, 1, 8});
  auto e = s.estimate();
  ExpectAll(e.freq, {1.0, 0.0, -0.5, 3.0}, "freq");
  ExpectAll(e.se, Sqrt({0.5, 0.375, 0.375, 0.5}), "se");
}

TEST(OlhEstimate, HandComputed) {
  // eps = ln 2: g = round(2)+1 = 3, p = 2/(2+2) = 1/2, q = 1/3, p - q = 1/6, 1 - p - q = 1/6.
  // n = 6, counts 3, 2, 1, 6: f = (C/6 - 1/3) * 6 = C - 2.
  // Var = (2/9)/(6/36) + f (1/6)/(6/6) = 4/3 + f/6.
  Freq s(FreqMechanism::OLH, {kLn2, 4, 0}, 6, {3, 2, 1, 6});
  EXPECT_EQ(s->g, 3);
  auto e = s.estimate();
  ExpectAll(e.freq, {1.0, 0.0, -1.0, 4.0}, "freq");
  ExpectAll(e.se, Sqrt({4.0 / 3 + 1.0 / 6, 4.0 / 3, 4.0 / 3, 4.0 / 3 + 1.0 / 6}), "se");
}

TEST(DBitFlipEstimate, HandComputed) {
  // eps = 2 ln 3: w = e^{eps/2} = 3. k = 4, d = 2, n = 4 (holders sum to n d = 8).
  // h(v) = (k/(n d)) (ones (w+1) - holders)/(w-1) = (4/8)(4 ones - holders)/2
  //      = (4 ones - holders)/4.
  // Var = ((k/d)(w/(w-1)^2 + f) - f)/n = (2 (3/4 + f) - f)/4 = (3/2 + f)/4.
  Freq s(FreqMechanism::DBitFlip, {kLn9, 4, 2}, 4, {2, 2, 2, 2, /*ones*/ 2, 1, 0, 1});
  auto e = s.estimate();
  std::vector<double> want, var;
  const double holders[] = {2, 2, 2, 2}, ones[] = {2, 1, 0, 1};
  for (int v = 0; v < 4; ++v) {
    double k = 4, n = 4, d = 2, w = 3;
    double h = k / (n * d) * (ones[v] * (w + 1) - holders[v]) / (w - 1);
    double f = std::min(std::max(h, 0.0), 1.0);
    want.push_back(h);
    var.push_back(((k / d) * (w / ((w - 1) * (w - 1)) + f) - f) / n);
  }
  ExpectAll(want, {1.5, 0.5, -0.5, 0.5}, "by hand");
  ExpectAll(e.freq, want, "freq");
  ExpectAll(var, {2.5 / 4, 2.0 / 4, 1.5 / 4, 2.0 / 4}, "by hand");
  ExpectAll(e.se, Sqrt(var), "se");
}

// d = k: dBitFlip is SUE (BinFlip) with the same epsilon, estimate and variance.
TEST(DBitFlipEstimate, WithDEqualKIsSue) {
  const double eps = 1.3;
  std::vector<int64_t> counts = {5, 0, 17, 9, 3};
  Freq sue(FreqMechanism::SUE, {eps, 5, 0}, 20, counts);
  std::vector<int64_t> c(5, 20);
  c.insert(c.end(), counts.begin(), counts.end());
  Freq dbf(FreqMechanism::DBitFlip, {eps, 5, 5}, 20, c);
  auto a = sue.estimate(), b = dbf.estimate();
  ExpectAll(b.freq, a.freq, "freq");
  ExpectAll(b.se, a.se, "se");
}

// (H·S)[col] = Σ_j (-1)^popcount(j & col) S_j, by the definition.
std::vector<int64_t> NaiveHadamard(const std::vector<int64_t>& S) {
  std::vector<int64_t> out(S.size(), 0);
  for (size_t col = 0; col < S.size(); ++col)
    for (size_t j = 0; j < S.size(); ++j)
      out[col] += (__builtin_popcountll(j & col) % 2 ? -1 : 1) * S[j];
  return out;
}

TEST(HadamardEstimate, HandComputed) {
  // k = 3: K = 4. eps = ln 3: c = (3+1)/(3-1) = 2. n = 10, S = 2, -3, 1, 4 (rows hold 2, 3,
  // 1, 4 reports). (H·S)[1] = 2 + 3 + 1 - 4 = 2, (H·S)[2] = 2 - 3 - 1 - 4 = -6,
  // (H·S)[3] = 2 + 3 - 1 + 4 = 8; f = 2 (H·S)[v+1]/10 = 0.4, -1.2, 1.6.
  // Var = (c^2 - f)/n = (4 - f)/10, f clamped: 3.6/10, 4/10, 3/10.
  Freq s(FreqMechanism::Hadamard, {kLn3, 3, 0}, 10, {2, -3, 1, 4});
  EXPECT_EQ(s->g, 4);
  EXPECT_EQ(NaiveHadamard({2, -3, 1, 4}), (std::vector<int64_t>{4, 2, -6, 8}));
  auto e = s.estimate();
  ExpectAll(e.freq, {0.4, -1.2, 1.6}, "freq");
  ExpectAll(e.se, Sqrt({0.36, 0.4, 0.3}), "se");
}

// The fast transform against the definition, on a larger K with mixed signs.
TEST(HadamardEstimate, FastTransformMatchesTheDefinition) {
  const int64_t k = 40, K = 64;
  const double eps = 0.7;
  ldp::SeededRandom rng(7);
  std::vector<int64_t> S(K);
  int64_t n = 0;
  for (auto& x : S) {
    x = static_cast<int64_t>(rng.below(21)) - 10;
    n += std::llabs(x);
  }
  Freq s(FreqMechanism::Hadamard, {eps, k, 0}, n + 6, S);
  auto e = s.estimate();
  std::vector<int64_t> hs = NaiveHadamard(S);
  double c = (std::exp(eps) + 1) / (std::exp(eps) - 1);
  for (int64_t v = 0; v < k; ++v)
    EXPECT_TRUE(Close(e.freq[v], c * hs[v + 1] / static_cast<double>(n + 6), 1e-12)) << v;
}

TEST(HadamardOrder, IsTheSmallestPowerOfTwoAboveK) {
  EXPECT_EQ(ldp::hadamard_order(2), 4);
  EXPECT_EQ(ldp::hadamard_order(3), 4);
  EXPECT_EQ(ldp::hadamard_order(4), 8);
  EXPECT_EQ(ldp::hadamard_order(7), 8);
  EXPECT_EQ(ldp::hadamard_order(8), 16);
  EXPECT_EQ(ldp::hadamard_order(ldp::kMaxDomain - 1), ldp::kMaxDomain);
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [] { ldp::hadamard_order(ldp::kMaxDomain); }));
}

// The formulas keep their digits at the extremes of epsilon.
TEST(FreqEstimates, AreFiniteForTinyAndHugeEpsilon) {
  for (double eps : {ldp::kMinEpsilon, 1e-3, 15.0, ldp::kMaxEpsilon}) {
    std::vector<Freq> all;
    all.emplace_back(FreqMechanism::GRR, FreqParams{eps, 4, 0}, 4, std::vector<int64_t>{1, 1, 2, 0});
    all.emplace_back(FreqMechanism::SUE, FreqParams{eps, 4, 0}, 4, std::vector<int64_t>{1, 1, 2, 0});
    all.emplace_back(FreqMechanism::OUE, FreqParams{eps, 4, 0}, 4, std::vector<int64_t>{1, 1, 2, 0});
    all.emplace_back(FreqMechanism::DBitFlip, FreqParams{eps, 4, 2}, 4,
                     std::vector<int64_t>{2, 2, 2, 2, 1, 1, 2, 0});
    all.emplace_back(FreqMechanism::Hadamard, FreqParams{eps, 4, 0}, 4,
                     std::vector<int64_t>{1, -1, 1, 1, 0, 0, 0, 0});
    if (eps <= 15) all.emplace_back(FreqMechanism::OLH, FreqParams{eps, 4, 0}, 4, std::vector<int64_t>{1, 1, 2, 0});
    for (const Freq& s : all) {
      auto e = s.estimate();
      for (int v = 0; v < 4; ++v) {
        EXPECT_TRUE(std::isfinite(e.freq[v])) << s.text() << " " << v;
        EXPECT_TRUE(std::isfinite(e.se[v]) && e.se[v] > 0) << s.text() << " " << v;
      }
    }
  }
  // the smallest epsilon, against the naive formula in long double: GRR k = 4
  const long double eps = ldp::kMinEpsilon, z = std::exp(eps), p = z / (z + 3), q = 1 / (z + 3);
  Freq s(FreqMechanism::GRR, {ldp::kMinEpsilon, 4, 0}, 1000, {400, 300, 200, 100});
  auto e = s.estimate();
  EXPECT_TRUE(Close(e.freq[0], static_cast<double>((0.4L - q) / (p - q)), 1e-9));
  // large epsilon: GRR is exact, f = C/n
  Freq big(FreqMechanism::GRR, {700, 4, 0}, 10, {1, 2, 3, 4});
  ExpectAll(big.estimate().freq, {0.1, 0.2, 0.3, 0.4}, "eps 700");
}

// ---------------------------------------------------------------------------
// Reports the mechanisms cannot produce.

TEST(FreqAddReport, RejectsImpossibleReports) {
  Freq grr(FreqMechanism::GRR, {1, 4, 0});
  for (int64_t y : {-1, 4, 1000})
    EXPECT_TRUE(ThrowsKind(ErrorKind::ImpossibleReport, [&] { ldp::freq_add_item(grr.get(), y); }));
  try {
    ldp::freq_add_item(grr.get(), 7);
  } catch (const ldp::Error& e) {
    EXPECT_NE(std::string(e.what()).find("[0, 4)"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("7"), std::string::npos) << e.what();
  }

  Freq sue(FreqMechanism::SUE, {1, 4, 0});
  const uint8_t bits[] = {0xF0, 0x00};
  for (int64_t nbits : {3, 5, 0})
    EXPECT_TRUE(ThrowsKind(ErrorKind::ImpossibleReport, [&] { ldp::freq_add_bits(sue.get(), bits, nbits); }));
  try {
    ldp::freq_add_bits(sue.get(), bits, 5);
  } catch (const ldp::Error& e) {
    EXPECT_NE(std::string(e.what()).find("k = 4 bits"), std::string::npos) << e.what();
  }

  Freq dbf(FreqMechanism::DBitFlip, {1, 4, 2});
  const bool b2[] = {true, false, true};
  auto add = [&](std::vector<int32_t> buckets) {
    return [&dbf, &b2, buckets] {
      ldp::freq_add_dbitflip(dbf.get(), buckets.data(), b2, static_cast<int64_t>(buckets.size()));
    };
  };
  EXPECT_TRUE(ThrowsKind(ErrorKind::ImpossibleReport, add({0})));        // d = 1
  EXPECT_TRUE(ThrowsKind(ErrorKind::ImpossibleReport, add({0, 1, 2})));  // d = 3
  EXPECT_TRUE(ThrowsKind(ErrorKind::ImpossibleReport, add({1, 1})));     // repeated
  EXPECT_TRUE(ThrowsKind(ErrorKind::ImpossibleReport, add({0, 4})));     // outside [0, k)
  EXPECT_TRUE(ThrowsKind(ErrorKind::ImpossibleReport, add({-1, 0})));

  Freq olh(FreqMechanism::OLH, {1, 4, 0});  // g = 4
  for (int64_t y : {-1, 4})
    EXPECT_TRUE(ThrowsKind(ErrorKind::ImpossibleReport, [&] { ldp::freq_add_olh(olh.get(), 5, y); }));

  Freq had(FreqMechanism::Hadamard, {1, 3, 0});  // K = 4
  for (int64_t row : {-1, 4})
    EXPECT_TRUE(ThrowsKind(ErrorKind::ImpossibleReport, [&] { ldp::freq_add_hadamard(had.get(), row, true); }));

  // rejected reports leave the summaries untouched
  for (const Freq* s : {&grr, &sue, &dbf, &olh, &had}) {
    EXPECT_EQ((*s)->n, 0);
    for (int64_t c : s->counter_vector()) EXPECT_EQ(c, 0);
  }
  // a report of another mechanism is a bug of the caller
  EXPECT_TRUE(ThrowsKind(ErrorKind::Internal, [&] { ldp::freq_add_item(sue.get(), 0); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::Internal, [&] { ldp::freq_add_bits(grr.get(), bits, 4); }));
}

// Large d: the repeated-bucket check uses the holders as scratch and restores them.
TEST(FreqAddReport, DBitFlipLargeDRepeatedBucketLeavesStateIntact) {
  const int64_t k = 100, d = 40;
  Freq s(FreqMechanism::DBitFlip, {1, k, d});
  std::vector<int32_t> buckets(d);
  bool bits[d];
  for (int64_t i = 0; i < d; ++i) {
    buckets[i] = static_cast<int32_t>(2 * i);
    bits[i] = i % 3 == 0;
  }
  ldp::freq_add_dbitflip(s.get(), buckets.data(), bits, d);
  ldp::freq_add_dbitflip(s.get(), buckets.data(), bits, d);
  std::vector<int64_t> before = s.counter_vector();
  EXPECT_EQ(before[0], 2);
  EXPECT_EQ(before[k + 0], 2);
  EXPECT_EQ(before[1], 0);
  EXPECT_EQ(before[2], 2);
  EXPECT_EQ(before[k + 2], 0);
  auto dup = buckets;
  dup[30] = dup[7];
  EXPECT_TRUE(ThrowsKind(ErrorKind::ImpossibleReport,
                         [&] { ldp::freq_add_dbitflip(s.get(), dup.data(), bits, d); }));
  EXPECT_EQ(s.counter_vector(), before);
  EXPECT_EQ(s->n, 2);
}

// The unary encoders draw one uniform per bit in item order and set bit v when it
// is below p (v the value) or q: the definition, written out here bit by bit
// through the virtual interface, gives the same reports byte for byte, with the
// seeded source (which the encoder calls directly) and with any other source.
class CountingSource final : public ldp::RandomSource {
 public:
  explicit CountingSource(uint64_t seed) : inner_(seed) {}
  uint64_t next_u64() override { return inner_.next_u64(); }

 private:
  ldp::SeededRandom inner_;
};

std::vector<uint8_t> unary_by_definition(double p, double q, int64_t value, int64_t k,
                                         ldp::RandomSource& rng) {
  std::vector<uint8_t> out(static_cast<size_t>((k + 7) / 8), 0);
  for (int64_t v = 0; v < k; ++v)
    if (rng.uniform() < (v == value ? p : q)) out[v >> 3] |= static_cast<uint8_t>(0x80 >> (v & 7));
  return out;
}

TEST(UnaryEncoders, GiveTheReportsOfTheirDefinition) {
  for (int64_t k : {2, 7, 8, 9, 17, 1024, 1031}) {
    for (double eps : {0.1, 1.0, 4.0}) {
      // as the mechanism file writes them
      const double sue_p = 1.0 / (1.0 + std::exp(-eps / 2)), sue_q = 1.0 / (1.0 + std::exp(eps / 2));
      const double oue_q = 1.0 / (1.0 + std::exp(eps));
      for (int64_t value : {int64_t{0}, k / 2, k - 1}) {
        const uint64_t seed = static_cast<uint64_t>(k * 1000 + value) + static_cast<uint64_t>(eps * 10);
        std::vector<uint8_t> got(static_cast<size_t>((k + 7) / 8));
        for (int round = 0; round < 3; ++round) {
          ldp::SeededRandom a(seed + round), b(seed + round);
          CountingSource c(seed + round);
          ldp::sue_encode(value, eps, k, a, got.data());
          EXPECT_EQ(got, unary_by_definition(sue_p, sue_q, value, k, b)) << k << " " << value;
          ldp::sue_encode(value, eps, k, c, got.data());
          ldp::SeededRandom b2(seed + round);
          EXPECT_EQ(got, unary_by_definition(sue_p, sue_q, value, k, b2)) << k << " " << value;
          ldp::SeededRandom a3(seed + round), b3(seed + round);
          ldp::oue_encode(value, eps, k, a3, got.data());
          EXPECT_EQ(got, unary_by_definition(0.5, oue_q, value, k, b3)) << k << " " << value;
        }
      }
    }
  }
}

TEST(FreqAddReport, UnaryBitsAreReadMsbFirst) {
  // k = 11: bits 0100 0000 | 001x xxxx → items 1 and 10; padding ignored
  Freq s(FreqMechanism::OUE, {1, 11, 0});
  const uint8_t bytes[] = {0x40, 0x3F};
  ldp::freq_add_bits(s.get(), bytes, 11);
  EXPECT_EQ(s.counter_vector(), (std::vector<int64_t>{0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1}));
}

// ---------------------------------------------------------------------------
// Parameters.

struct BadParams {
  const char* name;
  FreqMechanism id;
  FreqParams p;
};
void PrintTo(const BadParams& c, std::ostream* os) { *os << c.name; }

class InvalidFreqParams : public ::testing::TestWithParam<BadParams> {};

TEST_P(InvalidFreqParams, AreRejected) {
  const BadParams& c = GetParam();
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::validate_freq_params(c.id, c.p); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::freq_summary_size(c.id, c.p); }));
}

INSTANTIATE_TEST_SUITE_P(
    Cases, InvalidFreqParams,
    ::testing::Values(BadParams{"eps_zero", FreqMechanism::GRR, {0, 4, 0}},
                      BadParams{"eps_negative", FreqMechanism::SUE, {-1, 4, 0}},
                      BadParams{"eps_nan", FreqMechanism::OUE, {kNaN, 4, 0}},
                      BadParams{"eps_inf", FreqMechanism::Hadamard, {kInf, 4, 0}},
                      BadParams{"eps_over_700", FreqMechanism::GRR, {700.0000001, 4, 0}},
                      BadParams{"k_1", FreqMechanism::GRR, {1, 1, 0}},
                      BadParams{"k_negative", FreqMechanism::OLH, {1, -5, 0}},
                      BadParams{"k_over_max", FreqMechanism::SUE, {1, ldp::kMaxDomain + 1, 0}},
                      BadParams{"hadamard_K_over_max", FreqMechanism::Hadamard,
                                {1, ldp::kMaxDomain, 0}},
                      BadParams{"dbitflip_d_zero", FreqMechanism::DBitFlip, {1, 4, 0}},
                      BadParams{"dbitflip_d_over_k", FreqMechanism::DBitFlip, {1, 4, 5}},
                      BadParams{"olh_g_over_max", FreqMechanism::OLH, {15.25, 4, 0}},
                      BadParams{"olh_eps_700", FreqMechanism::OLH, {700, 4, 0}}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(FreqParams, LimitsAreInclusive) {
  EXPECT_NO_THROW(ldp::validate_freq_params(FreqMechanism::GRR, {700, ldp::kMaxDomain, 0}));
  EXPECT_NO_THROW(ldp::validate_freq_params(FreqMechanism::DBitFlip, {1, 2, 2}));
  EXPECT_NO_THROW(ldp::validate_freq_params(FreqMechanism::DBitFlip, {1, 2, 1}));
  EXPECT_NO_THROW(ldp::validate_freq_params(FreqMechanism::OLH, {15.249, 4, 0}));
  EXPECT_EQ(ldp::olh_range(15.249), static_cast<int64_t>(std::round(std::exp(15.249))) + 1);
  EXPECT_LE(ldp::olh_range(15.249), ldp::kMaxDomain);
  // widths: k, 2k, K
  EXPECT_EQ(ldp::freq_summary_size(FreqMechanism::OUE, {1, 10, 0}),
            sizeof(ldp::FreqSummary) + 8 * 10);
  EXPECT_EQ(ldp::freq_summary_size(FreqMechanism::DBitFlip, {1, 10, 3}),
            sizeof(ldp::FreqSummary) + 8 * 20);
  EXPECT_EQ(ldp::freq_summary_size(FreqMechanism::Hadamard, {1, 10, 0}),
            sizeof(ldp::FreqSummary) + 8 * 16);
  // a d on another mechanism is a bug of the caller
  EXPECT_TRUE(ThrowsKind(ErrorKind::Internal,
                         [] { ldp::validate_freq_params(FreqMechanism::GRR, {1, 4, 2}); }));
}

TEST(OlhRange, IsRoundedExpPlusOneWithHalvesToEven) {
  EXPECT_EQ(ldp::olh_range(1.0), 4);            // e = 2.718
  EXPECT_EQ(ldp::olh_range(std::log(2.0)), 3);  // 2
  EXPECT_EQ(ldp::olh_range(0.1), 2);            // 1.105
  EXPECT_EQ(ldp::olh_range(2.5), 13);           // 12.18
  // Python's round(): e^eps = 2.5 gives 2, 3.5 gives 4 (if such an epsilon exists)
  for (double half : {2.5, 3.5}) {
    double eps = std::log(half);
    for (int i = 0; i < 8 && std::exp(eps) != half; ++i)
      eps = std::nextafter(eps, std::exp(eps) < half ? 10.0 : 0.0);
    if (std::exp(eps) == half) {
      EXPECT_EQ(ldp::olh_range(eps), half == 2.5 ? 3 : 5) << eps;
    }
  }
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [] { ldp::olh_range(0); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [] { ldp::olh_range(16); }));
}

TEST(FreqSameParams, ComparesEpsilonBitwiseKAndD) {
  Freq s(FreqMechanism::DBitFlip, {0.5, 8, 3});
  EXPECT_TRUE(ldp::same_freq_params(*s, 0.5, 8, 3));
  EXPECT_FALSE(ldp::same_freq_params(*s, std::nextafter(0.5, 1.0), 8, 3));
  EXPECT_FALSE(ldp::same_freq_params(*s, 0.5, 9, 3));
  EXPECT_FALSE(ldp::same_freq_params(*s, 0.5, 8, 2));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::throw_freq_params_changed(*s, 0.6, 8, 3); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::throw_freq_params_changed(*s, 0.5, 9, 3); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::throw_freq_params_changed(*s, 0.5, 8, 2); }));
}

TEST(FreqRegistry, NamesAndIds) {
  const char* names[] = {"grr", "sue", "oue", "dbitflip", "olh", "hadamard"};
  for (int id = 1; id <= 6; ++id) {
    const auto& m = ldp::freq_mechanism(static_cast<FreqMechanism>(id));
    EXPECT_STREQ(m.name, names[id - 1]);
    const auto* by_name = ldp::freq_mechanism_by_name(names[id - 1], std::strlen(names[id - 1]));
    ASSERT_NE(by_name, nullptr);
    EXPECT_EQ(static_cast<int>(by_name->id), id);
  }
  EXPECT_EQ(ldp::freq_mechanism_by_name("gr", 2), nullptr);
  EXPECT_EQ(ldp::freq_mechanism_by_name("grrr", 4), nullptr);
  EXPECT_TRUE(ThrowsKind(ErrorKind::Internal, [] { ldp::freq_mechanism(static_cast<FreqMechanism>(7)); }));
}

TEST(FreqSummaryCheck, AcceptsValidAndRejectsCorrupt) {
  Freq s(FreqMechanism::Hadamard, {1, 5, 0});
  s.check();
  EXPECT_TRUE(ThrowsKind(ErrorKind::Internal, [&] { ldp::freq_summary_check(*s, s.size() - 8); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::Internal, [&] { ldp::freq_summary_check(*s, 8); }));
  auto corrupt = [&](auto edit) {
    Freq c = s;
    edit(c.get());
    return ThrowsKind(ErrorKind::Internal, [&] { c.check(); });
  };
  EXPECT_TRUE(corrupt([](ldp::FreqSummary* x) { x->version = 2; }));
  EXPECT_TRUE(corrupt([](ldp::FreqSummary* x) { x->mechanism = 0; }));
  EXPECT_TRUE(corrupt([](ldp::FreqSummary* x) { x->mechanism = 1; }));  // GRR width is k
  EXPECT_TRUE(corrupt([](ldp::FreqSummary* x) { x->k = 9; }));          // K = 16
  EXPECT_TRUE(corrupt([](ldp::FreqSummary* x) { x->g = 16; }));
  EXPECT_TRUE(corrupt([](ldp::FreqSummary* x) { x->epsilon = 0; }));
  EXPECT_TRUE(corrupt([](ldp::FreqSummary* x) { x->n = -1; }));
  EXPECT_TRUE(corrupt([](ldp::FreqSummary* x) { x->d = 1; }));
}

TEST(FreqEstimate, OfAnEmptySummaryIsAnError) {
  Freq s(FreqMechanism::GRR, {1, 4, 0});
  EXPECT_TRUE(ThrowsKind(ErrorKind::Internal, [&] { s.estimate(); }));
}

// ---------------------------------------------------------------------------
// The OLH hash.

TEST(OlhHash, IsXxh32OfTheDecimalTextModG) {
  // the published XXH32 test vectors pin the library
  EXPECT_EQ(XXH32("", 0, 0), 0x02CC5D05u);
  EXPECT_EQ(XXH32("a", 1, 0), 0x550D7456u);
  EXPECT_EQ(XXH32("abc", 3, 0), 0x32D153FFu);
  for (uint64_t seed : {uint64_t{0}, uint64_t{1}, uint64_t{0xDEADBEEF}, uint64_t{1} << 40,
                        (uint64_t{1} << 63) - 1}) {
    for (int64_t v : {0, 1, 9, 10, 99, 100, 12345, 4194303}) {
      std::string text = std::to_string(v);
      uint32_t h = XXH32(text.data(), text.size(), static_cast<uint32_t>(seed));
      for (int64_t g : {2, 3, 13, 1000})
        EXPECT_EQ(ldp::olh_hash(seed, v, g), h % g) << seed << " " << v << " " << g;
      // only the low 32 bits of the seed count
      EXPECT_EQ(ldp::olh_hash(seed ^ (uint64_t{0x5A5A} << 32), v, 13), h % 13);
    }
  }
}

// freq_add_olh formats the decimal texts incrementally: it must agree with
// olh_hash across every change of the number of digits.
TEST(OlhHash, AddCountsExactlyTheItemsHashingToTheReport) {
  const int64_t k = 10050;
  Freq s(FreqMechanism::OLH, {2.5, k, 0});  // g = 13
  const uint64_t seeds[] = {3, 0x123456789ULL, 77777};
  std::vector<int64_t> want(k, 0);
  for (uint64_t seed : seeds) {
    int64_t y = static_cast<int64_t>(seed % 13);
    ldp::freq_add_olh(s.get(), seed, y);
    for (int64_t v = 0; v < k; ++v) want[v] += ldp::olh_hash(seed, v, 13) == static_cast<uint32_t>(y);
  }
  EXPECT_EQ(s.counter_vector(), want);
  EXPECT_EQ(s->n, 3);
}

// olh_hash and freq_add_olh compute XXH32 of texts under 16 bytes themselves
// (olh.cpp); libxxhash is the reference. With g = 2^32, olh_hash is the hash.
uint32_t LibraryXxh32(int64_t v, uint64_t seed) {
  std::string text = std::to_string(v);
  return XXH32(text.data(), text.size(), static_cast<uint32_t>(seed));
}

std::vector<uint64_t> HashTestSeeds() {
  std::vector<uint64_t> seeds = {0,
                                 1,
                                 0xFFFFFFFFull,          // 2^32 - 1
                                 uint64_t{1} << 32,      // low half 0
                                 (uint64_t{1} << 63) - 1,  // pure-LDP's largest
                                 uint64_t{1} << 63,
                                 ~uint64_t{0},
                                 0x9E3779B1ull,  // -PRIME32_5 and friends: carries in seed + P5
                                 0x100000000ull - 0x165667B1ull};
  ldp::SeededRandom rng(20240607);
  for (int i = 0; i < 24; ++i) seeds.push_back(rng.next_u64());
  return seeds;
}

TEST(OlhHash, EqualsLibraryXxh32OnEveryShortItem) {
  const int64_t kFull = int64_t{1} << 32;  // h mod 2^32 = h
  for (uint64_t seed : HashTestSeeds()) {
    int mismatches = 0;
    for (int64_t v = 0; v < 100000; ++v) {
      uint32_t want = LibraryXxh32(v, seed);
      if (ldp::olh_hash(seed, v, kFull) != want && ++mismatches <= 5)
        ADD_FAILURE() << "seed " << seed << " v " << v;
    }
    EXPECT_EQ(mismatches, 0) << "seed " << seed;
  }
}

TEST(OlhHash, EqualsLibraryXxh32AtEveryTextLength) {
  // 1..19 digits and a sign: the short path below 16 bytes, the library above
  std::vector<int64_t> values = {std::numeric_limits<int64_t>::max(),
                                 std::numeric_limits<int64_t>::min(),
                                 ldp::kMaxDomain - 1,
                                 ldp::kMaxDomain,
                                 (int64_t{1} << 31) - 1,
                                 int64_t{1} << 31,
                                 (int64_t{1} << 32) - 1,
                                 -1,
                                 -10,
                                 -4194303};
  for (int64_t p = 1; p <= std::numeric_limits<int64_t>::max() / 10; p *= 10)
    for (int64_t v : {p - 1, p, p + 7, 10 * p - 1, -p, -(10 * p - 1)}) values.push_back(v);
  ldp::SeededRandom rng(7);
  for (int i = 0; i < 2000; ++i) {
    auto v = static_cast<int64_t>(rng.next_u64());
    values.push_back(v >> (i % 63));  // every magnitude, both signs
  }
  for (uint64_t seed : HashTestSeeds())
    for (int64_t v : values) {
      uint32_t want = LibraryXxh32(v, seed);
      ASSERT_EQ(ldp::olh_hash(seed, v, int64_t{1} << 32), want) << "seed " << seed << " v " << v;
      for (int64_t g : {2, 5, 13, 4194304})
        ASSERT_EQ(ldp::olh_hash(seed, v, g), want % g) << "seed " << seed << " v " << v;
    }
}

// freq_add_olh against libxxhash item by item: k ending on either side of every
// power of ten (and at kMaxDomain), g from 2 up.
TEST(OlhHash, AddCountsAsLibraryXxh32AtEveryK) {
  const double epsilons[] = {0.1, 1.0, 1.5, 2.5, 5.0, 10.0};  // g = 2, 4, 5, 13, 149, 22027
  const std::vector<int64_t> ks = {2,     3,     9,     10,      11,     99,     100,
                                   101,   999,   1000,  1001,    1024,   9999,   10000,
                                   10001, 99999, 100000, 100001, 1000001};
  const std::vector<uint64_t> seeds = HashTestSeeds();
  auto check = [&](double eps, int64_t k, size_t reports) {
    Freq s(FreqMechanism::OLH, {eps, k, 0});
    const int64_t g = s->g;
    std::vector<int64_t> want(k, 0);
    for (size_t r = 0; r < reports; ++r) {
      uint64_t seed = seeds[r % seeds.size()] + r / seeds.size();
      auto y = static_cast<int64_t>((seed >> 40) % static_cast<uint64_t>(g));
      ldp::freq_add_olh(s.get(), seed, y);
      for (int64_t v = 0; v < k; ++v) want[v] += LibraryXxh32(v, seed) % g == y;
    }
    EXPECT_EQ(s.counter_vector(), want) << "eps " << eps << " k " << k;
    EXPECT_EQ(s->n, static_cast<int64_t>(reports));
  };
  for (double eps : epsilons)
    for (int64_t k : ks) check(eps, k, k > 10000 ? 3 : 40);
  check(1.5, ldp::kMaxDomain, 2);
}

}  // namespace
