// Statistical tests of every frequency oracle, end to end: the SDK's encoders
// produce the reports, the summary decodes them, and over many seeded trials every
// item's estimate must be unbiased, have the closed-form variance, and its 95%
// interval must cover the truth 95% of the time. Also: the encoders' exact
// distributions, the dBitFlipPM client, and the encoders' errors.
//
// Design: a FIXED population of kUsers users with a known, mixed frequency vector
// over k = 12 items (one item nobody holds). In every trial each user encodes its
// own value afresh. The variances below are those of a fixed population, written
// here from the formulas (docs/algorithms/frequency.md; dBitFlip and Hadamard derived
// there and in src/core/freq/dbitflip.cpp and hadamard.cpp), independently of the library's code.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <algorithm>
#include <map>
#include <memory>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/normal.hpp>

#include "core/freq/freq_encoders.hpp"
#include "core/freq/freq_summary.hpp"
#include "freq_test_support.hpp"
#include "core/common/random.hpp"
#include "test_support.hpp"

namespace {

using ldp::ErrorKind;
using ldp::FreqMechanism;
using ldp::FreqParams;
using ldp::RandomSource;
using ldp_test::Freq;
using ldp_test::ThrowsKind;

constexpr int kTrials = 4000;  // sampling error of a variance ~ sqrt(2/4000) = 2.2%
constexpr int64_t kK = 12;
// users holding each item: mixed frequencies from 0.25 down to 0
const std::vector<int> kHolders = {500, 400, 300, 250, 200, 120, 100, 60, 40, 20, 10, 0};
constexpr int kUsers = 2000;
constexpr double kZ95 = 1.959963984540054;

double Truth(int64_t v) { return static_cast<double>(kHolders[v]) / kUsers; }

// One user: encodes its value (the SDK) and adds the report to the summary.
using User = std::function<void(Freq&, int64_t value, RandomSource&)>;
// n · Var f̂(v) for an item held by a fraction f of the population.
using UnitVariance = std::function<double(double f)>;

struct Scenario {
  std::string name;
  FreqMechanism mech;
  FreqParams params;
  User user;
  UnitVariance unit_variance;
  uint64_t seed;
};
void PrintTo(const Scenario& s, std::ostream* os) { *os << s.name; }

// ---- closed forms, from the formulas ----

UnitVariance Pure(double p, double q) {
  return [=](double f) { return q * (1 - q) / ((p - q) * (p - q)) + f * (1 - p - q) / (p - q); };
}
UnitVariance GrrVariance(double eps, double k) {
  double z = std::exp(eps);
  return Pure(z / (z + k - 1), 1 / (z + k - 1));
}
UnitVariance SueVariance(double eps) {
  double w = std::exp(eps / 2);
  return Pure(w / (w + 1), 1 / (w + 1));
}
UnitVariance OueVariance(double eps) { return Pure(0.5, 1 / (std::exp(eps) + 1)); }
UnitVariance OlhVariance(double eps) {
  double z = std::exp(eps), g = std::round(z) + 1;
  return Pure(z / (z + g - 1), 1 / g);
}
UnitVariance DBitFlipVariance(double eps, double k, double d) {
  double w = std::exp(eps / 2);
  return [=](double f) { return (k / d) * (w / ((w - 1) * (w - 1)) + f) - f; };
}
UnitVariance HadamardVariance(double eps) {
  double z = std::exp(eps), c = (z + 1) / (z - 1);
  return [=](double f) { return c * c - f; };
}

// ---- users ----

User GrrUser(double eps) {
  return [=](Freq& s, int64_t x, RandomSource& rng) {
    ldp::freq_add_item(s.get(), ldp::grr_encode(x, eps, kK, rng));
  };
}
User UnaryUser(double eps, bool optimized) {
  return [=](Freq& s, int64_t x, RandomSource& rng) {
    uint8_t bytes[(kK + 7) / 8];
    (optimized ? ldp::oue_encode : ldp::sue_encode)(x, eps, kK, rng, bytes);
    ldp::freq_add_bits(s.get(), bytes, kK);
  };
}
User DBitFlipUser(double eps, int64_t d) {
  return [=](Freq& s, int64_t x, RandomSource& rng) {
    int32_t buckets[kK];
    bool bits[kK];
    ldp::dbitflip_encode(x, eps, kK, d, rng, buckets, bits);
    ldp::freq_add_dbitflip(s.get(), buckets, bits, d);
  };
}
User OlhUser(double eps) {
  return [=](Freq& s, int64_t x, RandomSource& rng) {
    ldp::OlhReport r = ldp::olh_encode(x, eps, kK, rng);
    ldp::freq_add_olh(s.get(), static_cast<uint64_t>(r.seed), r.y);
  };
}
User HadamardUser(double eps) {
  return [=](Freq& s, int64_t x, RandomSource& rng) {
    ldp::HadamardReport r = ldp::hadamard_encode(x, eps, kK, rng);
    ldp::freq_add_hadamard(s.get(), r.row, r.plus_one);
  };
}
// A fresh dBitFlipPM device, two rounds: round 1's value is the user's half of the
// time (the memo is then hit in round 2), else a uniform item; round 2 is decoded.
// Each round's bits are distributed as dBitFlip's, so the closed form is the same.
User ClientUser(double eps, int64_t d) {
  return [=](Freq& s, int64_t x, RandomSource& rng) {
    ldp::DBitFlipClient client(eps, kK, d, rng);
    int32_t buckets[kK];
    bool bits[kK];
    int64_t first = rng.bernoulli(0.5) ? x : static_cast<int64_t>(rng.below(kK));
    client.report(first, rng, buckets, bits);
    client.report(x, rng, buckets, bits);
    ldp::freq_add_dbitflip(s.get(), buckets, bits, d);
  };
}

std::vector<Scenario> Scenarios() {
  return {
      {"grr_eps1", FreqMechanism::GRR, {1, kK, 0}, GrrUser(1), GrrVariance(1, kK), 101},
      {"grr_eps3", FreqMechanism::GRR, {3, kK, 0}, GrrUser(3), GrrVariance(3, kK), 102},
      {"sue_eps1", FreqMechanism::SUE, {1, kK, 0}, UnaryUser(1, false), SueVariance(1), 201},
      {"oue_eps1", FreqMechanism::OUE, {1, kK, 0}, UnaryUser(1, true), OueVariance(1), 301},
      {"olh_eps1", FreqMechanism::OLH, {1, kK, 0}, OlhUser(1), OlhVariance(1), 401},
      {"olh_eps2_5", FreqMechanism::OLH, {2.5, kK, 0}, OlhUser(2.5), OlhVariance(2.5), 402},
      {"dbitflip_d3_eps1", FreqMechanism::DBitFlip, {1, kK, 3}, DBitFlipUser(1, 3),
       DBitFlipVariance(1, kK, 3), 501},
      {"dbitflip_d1_eps2", FreqMechanism::DBitFlip, {2, kK, 1}, DBitFlipUser(2, 1),
       DBitFlipVariance(2, kK, 1), 502},
      {"hadamard_eps1", FreqMechanism::Hadamard, {1, kK, 0}, HadamardUser(1),
       HadamardVariance(1), 601},
      {"hadamard_eps3", FreqMechanism::Hadamard, {3, kK, 0}, HadamardUser(3),
       HadamardVariance(3), 602},
      {"dbitflip_client_d3_eps1", FreqMechanism::DBitFlip, {1, kK, 3}, ClientUser(1, 3),
       DBitFlipVariance(1, kK, 3), 701},
  };
}

class FreqEstimator : public ::testing::TestWithParam<Scenario> {};

// Two-sided normal bound for 0.001 / (12 items × 11 scenarios) per check.
const double kBiasZ =
    boost::math::quantile(boost::math::complement(boost::math::normal(), 0.0005 / (12 * 11)));
// χ²(k) at 99.99%.
const double kChi2Bound =
    boost::math::quantile(boost::math::complement(boost::math::chi_squared(kK), 1e-4));

TEST_P(FreqEstimator, UnbiasedWithClosedFormVarianceAndCoverage) {
  const Scenario& sc = GetParam();
  std::vector<int64_t> population;
  for (int64_t v = 0; v < kK; ++v) population.insert(population.end(), kHolders[v], v);
  ASSERT_EQ(static_cast<int>(population.size()), kUsers);

  std::vector<double> estimates(static_cast<size_t>(kTrials) * kK);
  std::vector<long double> sum_se2(kK, 0);
  std::vector<int> covered(kK, 0);
  int clip_failures = 0, norm_sub_failures = 0;
  for (int t = 0; t < kTrials; ++t) {
    ldp::SeededRandom rng(sc.seed * 1000003 + t);
    Freq s(sc.mech, sc.params);
    for (int64_t x : population) sc.user(s, x, rng);
    Freq::Estimates e = s.estimate();
    for (int64_t v = 0; v < kK; ++v) {
      estimates[t * kK + v] = e.freq[v];
      sum_se2[v] += static_cast<long double>(e.se[v]) * e.se[v];
      if (std::fabs(e.freq[v] - Truth(v)) <= kZ95 * e.se[v]) ++covered[v];
    }
    std::vector<double> clip = e.freq, ns = e.freq;
    ldp::apply_consistency(ldp::Consistency::Clip, clip.data(), kK);
    ldp::apply_consistency(ldp::Consistency::NormSub, ns.data(), kK);
    double total = 0;
    for (int64_t v = 0; v < kK; ++v) {
      if (clip[v] < 0 || clip[v] != (e.freq[v] < 0 ? 0.0 : e.freq[v])) ++clip_failures;
      if (ns[v] < 0) ++norm_sub_failures;
      total += ns[v];
    }
    if (std::fabs(total - 1) > 1e-12) ++norm_sub_failures;
  }
  EXPECT_EQ(clip_failures, 0);
  EXPECT_EQ(norm_sub_failures, 0);

  int covered_total = 0;
  double chi2 = 0;  // Σ over items of the squared standardized biases
  for (int64_t v = 0; v < kK; ++v) {
    const double truth = Truth(v);
    const double closed_form = sc.unit_variance(truth) / kUsers;
    long double sum = 0, dev2 = 0;
    for (int t = 0; t < kTrials; ++t) sum += estimates[t * kK + v];
    const double mean = static_cast<double>(sum / kTrials);
    for (int t = 0; t < kTrials; ++t) {
      long double d = estimates[t * kK + v] - mean;
      dev2 += d * d;
    }
    const double variance = static_cast<double>(dev2 / (kTrials - 1));
    const double coverage = static_cast<double>(covered[v]) / kTrials;
    const double mean_se2 = static_cast<double>(sum_se2[v] / kTrials);
    covered_total += covered[v];
    SCOPED_TRACE(::testing::Message()
                 << sc.name << " item " << v << ": truth " << truth << ", mean " << mean
                 << ", variance " << variance << " (closed form " << closed_form
                 << "), coverage " << coverage << ", mean se^2 " << mean_se2);
    // (a) unbiased. Per item, within kBiasZ standard errors of the mean of the
    // estimates: about 130 such checks run (12 items × 11 scenarios), so a 3σ bound
    // would fail once in three runs of a correct library; kBiasZ is the Bonferroni
    // bound for a family-wise false alarm rate of 0.1%. The pooled check below keeps
    // the power against small biases shared by many items.
    const double z = (mean - truth) / std::sqrt(variance / kTrials);
    chi2 += z * z;
    EXPECT_LE(std::fabs(z), kBiasZ);
    // (b) the variance is the closed form, within 10%
    EXPECT_NEAR(variance / closed_form, 1.0, 0.10);
    // the reported standard error estimates it (f̂ clamped in place of f)
    EXPECT_NEAR(mean_se2 / closed_form, 1.0, 0.10);
    // (c) per item, the 95% interval covers the truth 93%..97% of the time
    // (one item's coverage has a sampling error of 0.34%)
    EXPECT_GE(coverage, 0.93);
    EXPECT_LE(coverage, 0.97);
  }
  // (a) pooled over the items: Σz² has mean k whatever the items' correlation; its
  // 99.99% point for independent items bounds it (the items of one summary are weakly
  // correlated, a constraint like Σf̂ = 1 only lowers Σz²)
  EXPECT_LE(chi2, kChi2Bound) << sc.name << ": the items' biases are jointly too large";
  // (c) pooled over the items: 93.5%..96.5%
  const double pooled = static_cast<double>(covered_total) / (kTrials * kK);
  EXPECT_GE(pooled, 0.935) << sc.name;
  EXPECT_LE(pooled, 0.965) << sc.name;
}

INSTANTIATE_TEST_SUITE_P(Mechanisms, FreqEstimator, ::testing::ValuesIn(Scenarios()),
                         [](const auto& info) { return info.param.name; });

// ---------------------------------------------------------------------------
// The encoders' distributions, checked directly (the end-to-end tests above would
// not notice the encoder and the decoder sharing one wrong probability).

constexpr int kDraws = 200000;

// |observed - expected| within 4.5 binomial standard deviations.
::testing::AssertionResult Proportion(int64_t hits, int64_t draws, double p) {
  double sd = std::sqrt(p * (1 - p) / draws);
  double got = static_cast<double>(hits) / draws;
  if (std::fabs(got - p) <= 4.5 * sd) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "proportion " << got << ", expected " << p
                                       << " (sd " << sd << ")";
}

TEST(FreqEncoders, GrrKeepsWithPAndSpreadsUniformly) {
  ldp::SeededRandom rng(11);
  const double eps = 1, z = std::exp(eps);
  const int64_t k = 5, x = 2;
  std::vector<int64_t> hits(k, 0);
  for (int i = 0; i < kDraws; ++i) ++hits[ldp::grr_encode(x, eps, k, rng)];
  for (int64_t y = 0; y < k; ++y)
    EXPECT_TRUE(Proportion(hits[y], kDraws, y == x ? z / (z + k - 1) : 1 / (z + k - 1))) << y;
}

void CheckUnary(bool optimized, double p, double q) {
  ldp::SeededRandom rng(12);
  const double eps = 1.5;
  const int64_t k = 11, x = 9;
  std::vector<int64_t> ones(k, 0);
  uint8_t bytes[2];
  for (int i = 0; i < kDraws / 4; ++i) {
    bytes[1] = 0xFF;  // the encoder writes every byte, padding zero
    (optimized ? ldp::oue_encode : ldp::sue_encode)(x, eps, k, rng, bytes);
    ASSERT_EQ(bytes[1] & 0x1F, 0);
    for (int64_t v = 0; v < k; ++v) ones[v] += (bytes[v / 8] >> (7 - v % 8)) & 1;
  }
  for (int64_t v = 0; v < k; ++v)
    EXPECT_TRUE(Proportion(ones[v], kDraws / 4, v == x ? p : q)) << v;
}

TEST(FreqEncoders, SueFlipsEveryBitWithQ) {
  double w = std::exp(1.5 / 2);
  CheckUnary(false, w / (w + 1), 1 / (w + 1));
}

TEST(FreqEncoders, OueKeepsTheOneWithHalf) { CheckUnary(true, 0.5, 1 / (std::exp(1.5) + 1)); }

TEST(FreqEncoders, DBitFlipDrawsUniformSubsetsAndBits) {
  ldp::SeededRandom rng(13);
  const double eps = 1.2, w = std::exp(eps / 2);
  for (int64_t d : {2, 20}) {
    const int64_t k = d == 2 ? 5 : 24, x = 3;
    std::map<std::set<int32_t>, int64_t> subsets;
    std::vector<int64_t> held(k, 0);
    int64_t ones_held = 0, n_held = 0, ones_other = 0, n_other = 0;
    std::vector<int32_t> buckets(d);
    std::unique_ptr<bool[]> bits(new bool[d]);
    const int draws = d == 2 ? kDraws : kDraws / 10;
    for (int i = 0; i < draws; ++i) {
      ldp::dbitflip_encode(x, eps, k, d, rng, buckets.data(), bits.get());
      std::set<int32_t> s(buckets.begin(), buckets.end());
      ASSERT_EQ(static_cast<int64_t>(s.size()), d);  // distinct
      for (int64_t j = 0; j < d; ++j) {
        ASSERT_TRUE(buckets[j] >= 0 && buckets[j] < k);
        ++held[buckets[j]];
        (buckets[j] == x ? n_held : n_other) += 1;
        (buckets[j] == x ? ones_held : ones_other) += bits[j];
      }
      if (d == 2) ++subsets[s];
    }
    for (int64_t v = 0; v < k; ++v)
      EXPECT_TRUE(Proportion(held[v], draws, static_cast<double>(d) / k)) << d << " " << v;
    EXPECT_TRUE(Proportion(ones_held, n_held, w / (w + 1)));
    EXPECT_TRUE(Proportion(ones_other, n_other, 1 / (w + 1)));
    if (d == 2) {
      // every 2-subset of [0, 5) equally likely: chi-square with 9 degrees of freedom
      ASSERT_EQ(subsets.size(), 10u);
      double chi2 = 0, expected = draws / 10.0;
      for (const auto& [s, c] : subsets) chi2 += (c - expected) * (c - expected) / expected;
      EXPECT_LT(chi2, 33.7);  // P(chi2_9 > 33.7) = 1e-4
    }
  }
}

TEST(FreqEncoders, OlhReportsTheHashWithPAndASeedBelow2To63) {
  ldp::SeededRandom rng(14);
  const double eps = 1.8, z = std::exp(eps);
  const int64_t k = 50, x = 37, g = ldp::olh_range(eps);
  EXPECT_EQ(g, static_cast<int64_t>(std::round(z)) + 1);
  int64_t kept = 0;
  uint64_t seed_or = 0;
  std::vector<int64_t> other(g, 0);
  for (int i = 0; i < kDraws; ++i) {
    ldp::OlhReport r = ldp::olh_encode(x, eps, k, rng);
    ASSERT_GE(r.seed, 0);
    ASSERT_TRUE(r.y >= 0 && r.y < g);
    seed_or |= static_cast<uint64_t>(r.seed);
    int64_t h = ldp::olh_hash(static_cast<uint64_t>(r.seed), x, g);
    if (r.y == h) ++kept;
    else ++other[(r.y - h + g) % g];  // the other g-1 values, uniformly
  }
  EXPECT_EQ(seed_or >> 62, 1u);  // the seeds use bits up to 62
  EXPECT_TRUE(Proportion(kept, kDraws, z / (z + g - 1)));
  for (int64_t j = 1; j < g; ++j) EXPECT_TRUE(Proportion(other[j], kDraws, 1 / (z + g - 1))) << j;
}

TEST(FreqEncoders, HadamardRowsUniformAndFlipsWithOneOverEPlusOne) {
  ldp::SeededRandom rng(15);
  const double eps = 0.8, z = std::exp(eps);
  const int64_t k = 6, K = 8, x = 4;
  std::vector<int64_t> rows(K, 0);
  int64_t agree = 0;
  for (int i = 0; i < kDraws; ++i) {
    ldp::HadamardReport r = ldp::hadamard_encode(x, eps, k, rng);
    ASSERT_TRUE(r.row >= 0 && r.row < K);
    ++rows[r.row];
    bool h_plus = __builtin_popcountll(r.row & (x + 1)) % 2 == 0;
    agree += r.plus_one == h_plus;
  }
  for (int64_t j = 0; j < K; ++j) EXPECT_TRUE(Proportion(rows[j], kDraws, 1.0 / K)) << j;
  EXPECT_TRUE(Proportion(agree, kDraws, z / (z + 1)));
}

// ---------------------------------------------------------------------------
// The dBitFlipPM client.

TEST(DBitFlipClient, FixesItsBucketsAndMemoizesPerBucketAndMembership) {
  ldp::SeededRandom rng(16);
  const int64_t k = 10, d = 4;
  for (int c = 0; c < 50; ++c) {
    ldp::DBitFlipClient client(1.0, k, d, rng);
    const std::vector<int32_t> mine = client.buckets();
    ASSERT_EQ(static_cast<int64_t>(std::set<int32_t>(mine.begin(), mine.end()).size()), d);
    int32_t buckets[d];
    bool bits[d];
    std::map<int64_t, std::vector<bool>> first;
    for (int round = 0; round < 5; ++round)
      for (int64_t v = 0; v < k; ++v) {
        client.report(v, rng, buckets, bits);
        EXPECT_EQ(std::vector<int32_t>(buckets, buckets + d), mine);
        std::vector<bool> b(bits, bits + d);
        if (round == 0) first[v] = b;
        EXPECT_EQ(b, first[v]) << "value " << v << " round " << round;  // memoized
      }
    // bucket i's bit depends only on whether the value is bucket i
    std::vector<bool> outside;
    for (int64_t v = 0; v < k; ++v) {
      bool held = std::find(mine.begin(), mine.end(), v) != mine.end();
      if (!held && outside.empty()) outside = first[v];
      if (!held) {
        EXPECT_EQ(first[v], outside) << v;
      }
      for (int64_t i = 0; i < d; ++i)
        if (mine[i] != v && !outside.empty()) {
          EXPECT_EQ(first[v][i], outside[i]);
        }
    }
  }
}

TEST(DBitFlipClient, RejectsInvalidConfigurationAndValues) {
  ldp::SeededRandom rng(17);
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::DBitFlipClient(1, 4, 5, rng); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::DBitFlipClient(1, 4, 0, rng); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::DBitFlipClient(0, 4, 2, rng); }));
  ldp::DBitFlipClient c(1, 4, 2, rng);
  int32_t b[2];
  bool v[2];
  EXPECT_TRUE(ThrowsKind(ErrorKind::OutOfRange, [&] { c.report(4, rng, b, v); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::OutOfRange, [&] { c.report(-1, rng, b, v); }));
}

// ---------------------------------------------------------------------------
// Encoders' errors and reproducibility.

TEST(FreqEncoders, RejectValuesOutsideTheDomainAndBadParameters) {
  ldp::SeededRandom rng(18);
  uint8_t bytes[2];
  int32_t buckets[4];
  bool bits[4];
  for (int64_t x : {-1, 4, 100}) {
    EXPECT_TRUE(ThrowsKind(ErrorKind::OutOfRange, [&] { ldp::grr_encode(x, 1, 4, rng); })) << x;
    EXPECT_TRUE(ThrowsKind(ErrorKind::OutOfRange, [&] { ldp::sue_encode(x, 1, 4, rng, bytes); }));
    EXPECT_TRUE(ThrowsKind(ErrorKind::OutOfRange, [&] { ldp::oue_encode(x, 1, 4, rng, bytes); }));
    EXPECT_TRUE(ThrowsKind(ErrorKind::OutOfRange,
                           [&] { ldp::dbitflip_encode(x, 1, 4, 2, rng, buckets, bits); }));
    EXPECT_TRUE(ThrowsKind(ErrorKind::OutOfRange, [&] { ldp::olh_encode(x, 1, 4, rng); }));
    EXPECT_TRUE(ThrowsKind(ErrorKind::OutOfRange, [&] { ldp::hadamard_encode(x, 1, 4, rng); }));
  }
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::grr_encode(0, 0, 4, rng); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::grr_encode(0, 1, 1, rng); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::sue_encode(0, -1, 4, rng, bytes); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter,
                         [&] { ldp::dbitflip_encode(0, 1, 4, 5, rng, buckets, bits); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::olh_encode(0, 20, 4, rng); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter,
                         [&] { ldp::hadamard_encode(0, 1, ldp::kMaxDomain, rng); }));
}

TEST(FreqEncoders, AreReproducibleFromASeed) {
  auto run = [](uint64_t seed) {
    ldp::SeededRandom rng(seed);
    std::vector<int64_t> out;
    uint8_t bytes[2];
    int32_t buckets[3];
    bool bits[3];
    for (int i = 0; i < 50; ++i) {
      out.push_back(ldp::grr_encode(i % 9, 1, 9, rng));
      ldp::sue_encode(i % 9, 1, 9, rng, bytes);
      out.push_back(bytes[0] * 256 + bytes[1]);
      ldp::oue_encode(i % 9, 1, 9, rng, bytes);
      out.push_back(bytes[0] * 256 + bytes[1]);
      ldp::dbitflip_encode(i % 9, 1, 9, 3, rng, buckets, bits);
      for (int j = 0; j < 3; ++j) out.push_back(buckets[j] * 2 + bits[j]);
      ldp::OlhReport o = ldp::olh_encode(i % 9, 1, 9, rng);
      out.push_back(o.seed);
      out.push_back(o.y);
      ldp::HadamardReport h = ldp::hadamard_encode(i % 9, 1, 9, rng);
      out.push_back(h.row * 2 + h.plus_one);
    }
    return out;
  };
  EXPECT_EQ(run(42), run(42));
  EXPECT_NE(run(42), run(43));
}

}  // namespace
