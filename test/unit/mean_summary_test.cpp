// The mean/proportion summary without the encoders: estimates computed by hand
// from docs/algorithms/means.md, merges, parameter checks, lossless text and binary round
// trips. Malformed text and binary input: mean_summary_io_test.cpp.
#include "core/common/stored_form.hpp"
#include "core/mean/mean_summary.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "core/common/stats.hpp"
#include "core/mean/mean_encoders.hpp"
#include "test_support.hpp"

namespace {

using ldp::ErrorKind;
using ldp::MeanMechanism;
using ldp::MeanParams;
using ldp_test::bits;
using ldp_test::Close;
using ldp_test::reals;
using ldp_test::Summary;
using ldp_test::ThrowsKind;

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();
const double kLn3 = std::log(3.0);  // e^eps = 3: (e^eps+1)/(e^eps-1) = 2, p = 3/4
const double kLn9 = std::log(9.0);  // e^{eps/2} = 3: piecewise C = 4/2 = 2

// ---------------------------------------------------------------------------
// Estimates by hand.

TEST(RandomizedResponse, HandComputedEstimate) {
  // eps = ln 3: p = 3/4, q = 1/4, p - q = 1/2. n = 8, ones = 6: ybar = 3/4.
  Summary s = bits(MeanMechanism::RR, {kLn3, 1, 0}, 8, 6);
  ldp::Estimate e = s.estimate();
  EXPECT_TRUE(Close(e.value, (6.0 / 8 - 0.25) / 0.5));  // = 1
  EXPECT_TRUE(Close(e.value, 1.0));
  EXPECT_TRUE(e.has_std_error);
  EXPECT_TRUE(Close(e.std_error, std::sqrt(0.75 * 0.25 / 8) / 0.5));
  // ones = 2: ybar = q, the proportion is 0; ones = 4: 1/2. The std_error is the same.
  EXPECT_TRUE(Close(bits(MeanMechanism::RR, {kLn3, 1, 0}, 8, 2).estimate().value, 0.0));
  EXPECT_TRUE(Close(bits(MeanMechanism::RR, {kLn3, 1, 0}, 8, 4).estimate().value, 0.5));
  EXPECT_TRUE(Close(bits(MeanMechanism::RR, {kLn3, 1, 0}, 8, 2).estimate().std_error,
                    std::sqrt(0.75 * 0.25 / 8) / 0.5));
}

TEST(OneBitMean, HandComputedEstimate) {
  // m = 10, eps = ln 3: (e^eps+1)/(e^eps-1) = 4/2 = 2. n = 8, ones = 5: bbar = 5/8.
  // sigma = (m/n) sum (4 b_i - 1)/2 = (10/8) (4*5 - 8)/2 = (10/8) * 6 = 7.5
  Summary s = bits(MeanMechanism::OneBit, {kLn3, 10, 0}, 8, 5);
  ldp::Estimate e = s.estimate();
  EXPECT_TRUE(Close(e.value, 7.5));
  // std_error = m * 2 * sqrt(bbar (1 - bbar) / n) = 20 sqrt((5/8)(3/8)/8) = 20 sqrt(15/512)
  EXPECT_TRUE(Close(e.std_error, 20 * std::sqrt(15.0 / 512)));
}

TEST(OneBitMean, HandComputedEstimateWithOutputPerturbation) {
  // gamma = 1/5: P(b=1) = (5/8 - 1/5)/(1 - 2/5) = (17/40)/(24/40) = 17/24;
  // sigma = m (2 * (2 * 17/24 - 1) + 1)/2 = 10 (4 * 17/24 - 1)/2 = 10 (44/24)/2 = 55/6
  Summary s = bits(MeanMechanism::OneBit, {kLn3, 10, 0.2}, 8, 5);
  ldp::Estimate e = s.estimate();
  EXPECT_TRUE(Close(e.value, 55.0 / 6));
  // std_error scaled by 1/(1 - 2 gamma) = 5/3: (100/3) sqrt(15/512)
  EXPECT_TRUE(Close(e.std_error, 100.0 / 3 * std::sqrt(15.0 / 512)));
}

// Laplace and piecewise: the estimate is the plain mean of the reports and the
// std_error the sample standard deviation over sqrt(n).
struct RealConfig {
  const char* name;
  MeanMechanism id;
  MeanParams params;
};

void PrintTo(const RealConfig& c, std::ostream* os) { *os << c.name; }

const RealConfig kLaplace{
    "laplace", MeanMechanism::Laplace, {1.0, 10, 0}};  // reports in [-10000, 10010]
const RealConfig kPiecewise{"piecewise", MeanMechanism::Piecewise, {kLn9, 10, 0}};  // in [-5, 15]

class RealValued : public ::testing::TestWithParam<RealConfig> {
 protected:
  Summary of(const std::vector<double>& ys) const {
    return reals(GetParam().id, GetParam().params, ys);
  }
};

TEST_P(RealValued, EstimateIsThePlainMean) {
  // 1, 2, 3, 4: mean 5/2, sample variance ((9+1+1+9)/4)/3 = 5/3, std_error sqrt(5/3/4)
  ldp::Estimate e = of({1, 2, 3, 4}).estimate();
  EXPECT_TRUE(Close(e.value, 2.5));
  EXPECT_TRUE(e.has_std_error);
  EXPECT_TRUE(Close(e.std_error, std::sqrt(5.0 / 12)));
  // -4.5, 0, 0.25, 7, 14.75: mean 17.5/5 = 3.5; deviations -8, -3.5, -3.25, 3.5, 11.25;
  // squares 64 + 12.25 + 10.5625 + 12.25 + 126.5625 = 225.625; variance 225.625/4
  e = of({-4.5, 0, 0.25, 7, 14.75}).estimate();
  EXPECT_TRUE(Close(e.value, 3.5));
  EXPECT_TRUE(Close(e.std_error, std::sqrt(225.625 / 4 / 5)));
  // identical reports: zero spread
  e = of({6, 6, 6}).estimate();
  EXPECT_TRUE(Close(e.value, 6));
  EXPECT_TRUE(Close(e.std_error, 0));
}

TEST_P(RealValued, OneReportHasNoStdError) {
  ldp::Estimate e = of({7.25}).estimate();
  EXPECT_EQ(e.value, 7.25);
  EXPECT_FALSE(e.has_std_error);
}

TEST_P(RealValued, ReportsOutsideTheRangeAreImpossible) {
  Summary s = of({3});
  double lo = s->report_lo, hi = s->report_hi;
  for (double y : {hi + 1e-6, lo - 1e-6, hi + 1, lo * 2 - 1, kNaN, kInf, -kInf, 1e300, -1e300}) {
    EXPECT_TRUE(ThrowsKind(ErrorKind::ImpossibleReport, [&] { s.add_real(y); })) << y;
  }
  EXPECT_EQ(s->n, 1);  // rejected reports are not counted
  s.add_real(lo);      // the range ends are possible
  s.add_real(hi);
  EXPECT_EQ(s->n, 3);
}

INSTANTIATE_TEST_SUITE_P(Mechanisms, RealValued, ::testing::Values(kLaplace, kPiecewise),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(ReportRange, MatchesTheMechanisms) {
  Summary lap(MeanMechanism::Laplace, kLaplace.params);
  EXPECT_EQ(lap->report_lo, -10000.0);  // 1000 scales of m/eps = 10 below 0
  EXPECT_EQ(lap->report_hi, 10010.0);
  Summary pw(MeanMechanism::Piecewise, kPiecewise.params);
  // (t + 1) m/2 for t in [-C, C] = [-2, 2]: [-5, 15], with a relative slack of 1e-12
  EXPECT_NEAR(pw->report_lo, -5.0, 1e-10);
  EXPECT_NEAR(pw->report_hi, 15.0, 1e-10);
  EXPECT_LE(pw->report_lo, -5.0);
  EXPECT_GE(pw->report_hi, 15.0);
}

TEST(ReportRange, SquaresStayFiniteAtTheSmallestEpsilon) {
  // Before epsilon was bounded below (0.4.0), eps = 1e-200 let Laplace reports reach
  // 1e203, whose unit squares overflow (an OutOfRange error for every such report). The
  // smallest epsilon now allows reports of 1000 m / kMinEpsilon = 1e7 m at most: unit
  // squares of 1e14, whatever max_value.
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [] {
    Summary tiny(MeanMechanism::Laplace, {1e-200, 1, 0});
  }));
  for (double m : {1e-300, 1.0, 1e300}) {
    Summary s(MeanMechanism::Laplace, {ldp::kMinEpsilon, m, 0});
    EXPECT_NEAR(s->report_hi / m, 1e7, 2);
    s.add_real(s->report_hi);
    s.add_real(s->report_lo);
    ldp::Estimate e = ldp::mean_estimate(*s);
    EXPECT_TRUE(std::isfinite(e.value) && std::isfinite(e.std_error)) << m;
    double lo = 0, hi = 0;
    ASSERT_TRUE(ldp::mean_interval(*s, 0.95, &lo, &hi));
    EXPECT_TRUE(std::isfinite(lo) && std::isfinite(hi)) << m;
  }
}

// ---------------------------------------------------------------------------
// Worst-case bound, output perturbation epsilon, critical values.

TEST(ErrorBound, IsTheoremOne) {
  // m/sqrt(2n) (e^eps+1)/(e^eps-1) sqrt(ln(2/delta)); n = 8, delta = 0.05, eps = ln 3
  const double root = std::sqrt(std::log(40.0));
  auto bound = [](const Summary& s) { return ldp::mean_error_bound(*s, 0.05); };
  EXPECT_TRUE(Close(bound(bits(MeanMechanism::OneBit, {kLn3, 10, 0}, 8, 5)), 10 / 4.0 * 2 * root));
  // output perturbation scales the bit mean by 1/(1 - 2 gamma) = 5/3
  EXPECT_TRUE(Close(bound(bits(MeanMechanism::OneBit, {kLn3, 10, 0.2}, 8, 5)), 5 * root * 5 / 3));
  EXPECT_TRUE(Close(bound(bits(MeanMechanism::RR, {kLn3, 1, 0}, 8, 5)), 1 / 4.0 * 2 * root));
  // piecewise: Hoeffding over reports of width C m = 20: 20 sqrt(ln(40)/16)
  EXPECT_TRUE(
      Close(bound(reals(MeanMechanism::Piecewise, kPiecewise.params, std::vector<double>(8, 1))),
            5 * root));
  // Laplace reports are unbounded: no bound
  EXPECT_TRUE(std::isnan(bound(reals(MeanMechanism::Laplace, kLaplace.params, {1, 2}))));
}

TEST(ErrorBound, RejectsInvalidDelta) {
  Summary s = bits(MeanMechanism::OneBit, {kLn3, 10, 0}, 8, 5);
  for (double delta : {0.0, 1.0, -0.1, 1.5, kNaN})
    EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::mean_error_bound(*s, delta); }))
        << delta;
}

TEST(OutputPerturbation, EffectiveEpsilon) {
  // eps = 1, gamma = 0.2: p = e/(e+1), q = 1/(e+1);
  // ln((0.6 p + 0.2)/(0.6 q + 0.2)) = ln(0.638635/0.361365) = ln(1.767286) = 0.569445.
  // Ding et al. 2017's deployment section (§6) quotes 0.686, which no reading of its §4
  // formula gives for eps = 1, gamma = 0.2 (it would need gamma ~ 0.15 or eps ~ 1.2). We
  // implement the §4 formula exactly (docs/algorithms/means.md#output-perturbation).
  const double e = std::exp(1.0);
  const double p = e / (e + 1), q = 1 / (e + 1);
  const double hand = std::log((0.6 * p + 0.2) / (0.6 * q + 0.2));
  EXPECT_TRUE(Close(ldp::output_perturbation_epsilon(1.0, 0.2), hand));
  EXPECT_NEAR(ldp::output_perturbation_epsilon(1.0, 0.2), 0.5694, 1e-4);
  EXPECT_GT(std::fabs(ldp::output_perturbation_epsilon(1.0, 0.2) - 0.686), 0.1);
  EXPECT_TRUE(Close(ldp::output_perturbation_epsilon(1.0, 0.0), 1.0));  // no perturbation
  EXPECT_TRUE(
      ThrowsKind(ErrorKind::InvalidParameter, [] { ldp::output_perturbation_epsilon(1, 0.5); }));
}

TEST(NormalCriticalValue, Quantiles) {
  EXPECT_NEAR(ldp::normal_critical_value(0.95), 1.959963984540054, 1e-12);
  EXPECT_NEAR(ldp::normal_critical_value(0.99), 2.5758293035489004, 1e-12);
  for (double c : {0.0, 1.0, -0.5, 2.0, kNaN})
    EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::normal_critical_value(c); }))
        << c;
}

// ---------------------------------------------------------------------------
// Every mechanism: merge, round trips.

struct Config {
  const char* name;
  MeanMechanism id;
  MeanParams params;
};

void PrintTo(const Config& c, std::ostream* os) { *os << c.name; }

const Config kConfigs[] = {
    {"rr", MeanMechanism::RR, {kLn3, 1, 0}},
    {"onebit", MeanMechanism::OneBit, {kLn3, 10, 0}},
    {"onebit_gamma", MeanMechanism::OneBit, {kLn3, 10, 0.2}},
    {"laplace", MeanMechanism::Laplace, {1.0, 10, 0}},
    {"piecewise", MeanMechanism::Piecewise, {kLn9, 10, 0}},
    {"piecewise_odd_params", MeanMechanism::Piecewise, {0.1, 86400, 0}},
};

bool real_valued(const Config& c) { return ldp::mean_mechanism(c.id).real_valued; }

// Reports drawn directly (not through an encoder): bits with P(1) = 0.3, real
// reports spread over the whole range with full 53-bit mantissas.
struct Reports {
  std::vector<bool> bits;
  std::vector<double> reals;
};

Reports random_reports(const Config& c, size_t count, uint64_t seed) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(0, 1);
  Reports r;
  Summary probe(c.id, c.params);
  for (size_t i = 0; i < count; ++i) {
    if (real_valued(c))
      r.reals.push_back(probe->report_lo + u(g) * (probe->report_hi - probe->report_lo));
    else
      r.bits.push_back(u(g) < 0.3);
  }
  return r;
}

Summary summarize(const Config& c, const Reports& r, size_t from, size_t to) {
  Summary s(c.id, c.params);
  for (size_t i = from; i < to; ++i) {
    if (real_valued(c))
      s.add_real(r.reals[i]);
    else
      s.add_bit(r.bits[i]);
  }
  return s;
}

class EveryMechanism : public ::testing::TestWithParam<Config> {};

TEST_P(EveryMechanism, MergeEqualsSummaryOfConcatenation) {
  const Config& c = GetParam();
  const size_t n = 1000;
  Reports r = random_reports(c, n, 11);
  const std::string whole = summarize(c, r, 0, n).text();
  for (size_t cut : {size_t{0}, size_t{1}, size_t{377}, n - 1, n}) {
    Summary left = summarize(c, r, 0, cut), right = summarize(c, r, cut, n);
    Summary ab = left, ba = right;
    ab.merge(right);
    ba.merge(left);
    EXPECT_EQ(ab.text(), whole) << "cut " << cut;
    EXPECT_EQ(ba.text(), whole) << "cut " << cut;
    EXPECT_EQ(ab.binary(), summarize(c, r, 0, n).binary());
  }
  EXPECT_EQ(summarize(c, r, 0, n).estimate().value, Summary::from_text(whole).estimate().value);
}

TEST_P(EveryMechanism, TextAndBinaryRoundTripsAreLossless) {
  const Config& c = GetParam();
  for (size_t count : {0, 1, 2, 1000}) {
    Summary s = summarize(c, random_reports(c, count, 100 + count), 0, count);
    const std::string text = s.text();
    const std::vector<uint8_t> bin = s.binary();
    Summary from_text = Summary::from_text(text), from_bin = Summary::from_binary(bin);
    EXPECT_EQ(from_text.text(), text);
    EXPECT_EQ(from_text.binary(), bin);
    EXPECT_EQ(from_bin.binary(), bin);
    EXPECT_EQ(from_bin.text(), text);
    EXPECT_EQ(from_bin->report_lo, s->report_lo);
    EXPECT_EQ(from_bin->report_hi, s->report_hi);
    if (count > 0) {
      EXPECT_EQ(from_text.estimate().value, s.estimate().value) << text;
      EXPECT_EQ(from_bin.estimate().std_error, s.estimate().std_error) << text;
    }
    // a parsed summary keeps accumulating like the original
    Summary more = summarize(c, random_reports(c, 10, 7), 0, 10);
    from_text.merge(more);
    s.merge(more);
    EXPECT_EQ(from_text.text(), s.text());
  }
}

TEST_P(EveryMechanism, TruncatedBinaryIsRejected) {
  const Config& c = GetParam();
  std::vector<uint8_t> bin = summarize(c, random_reports(c, 50, 3), 0, 50).binary();
  for (size_t len = 0; len < bin.size(); ++len) {
    std::vector<uint8_t> cut(bin.begin(), bin.begin() + len);
    EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidBinary, [&] { Summary::from_binary(cut); })) << len;
  }
  bin.push_back(0);  // trailing bytes
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidBinary, [&] { Summary::from_binary(bin); }));
}

TEST_P(EveryMechanism, ParameterChangesAreDetected) {
  const Config& c = GetParam();
  Summary s(c.id, c.params);
  EXPECT_TRUE(ldp::same_params(*s, c.params));
  std::vector<std::pair<const char*, MeanParams>> changed = {
      {"epsilon", {c.params.epsilon * 2, c.params.max_value, c.params.gamma}},
      {"max_value", {c.params.epsilon, c.params.max_value * 2, c.params.gamma}},
      {"gamma", {c.params.epsilon, c.params.max_value, c.params.gamma + 0.1}}};
  for (const auto& [which, p] : changed) {
    EXPECT_FALSE(ldp::same_params(*s, p)) << which;
    ::testing::AssertionResult r =
        ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::throw_params_changed(*s, p); });
    EXPECT_TRUE(r);
    EXPECT_NE(std::string(r.message()).find(which), std::string::npos) << r.message();
  }
}

// gamma = -0 is the same mechanism as gamma = 0: it must not count as a parameter
// change (per row or in a merge), and summaries store it as +0.
TEST(OneBitMean, NegativeZeroGammaIsZero) {
  Summary pos = bits(MeanMechanism::OneBit, {1, 10, 0.0}, 8, 5);
  Summary neg = bits(MeanMechanism::OneBit, {1, 10, -0.0}, 8, 3);
  EXPECT_TRUE(ldp::same_params(*pos, {1, 10, -0.0}));
  EXPECT_TRUE(ldp::same_params(*neg, {1, 10, 0.0}));
  EXPECT_EQ(neg.text(), "v1:onebit{epsilon=1,max_value=10,gamma=0,n=8,ones=3}");
  EXPECT_NO_THROW(pos.merge(neg));
  EXPECT_EQ(pos.text(), "v1:onebit{epsilon=1,max_value=10,gamma=0,n=16,ones=8}");
  EXPECT_EQ(Summary::from_text("v1:onebit{epsilon=1,max_value=10,gamma=-0,n=8,ones=3}").text(),
            neg.text());
  std::vector<uint8_t> bin = neg.binary();
  bin[ldp::kStoredHeaderSize + 1 + 8 + 8] = 0x80;  // the sign bit of gamma
  EXPECT_EQ(Summary::from_binary(bin).binary(), neg.binary());
}

INSTANTIATE_TEST_SUITE_P(Mechanisms, EveryMechanism, ::testing::ValuesIn(kConfigs),
                         [](const auto& info) { return std::string(info.param.name); });

// Merging summaries of different mechanisms or parameters is an error.
struct MergePair {
  const char* name;
  Config a, b;
};

void PrintTo(const MergePair& c, std::ostream* os) { *os << c.name; }

class MergeMismatch : public ::testing::TestWithParam<MergePair> {};

TEST_P(MergeMismatch, Throws) {
  Summary a(GetParam().a.id, GetParam().a.params), b(GetParam().b.id, GetParam().b.params);
  const std::string before = a.text();
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { a.merge(b); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { b.merge(a); }));
  EXPECT_EQ(a.text(), before);
}

INSTANTIATE_TEST_SUITE_P(Pairs, MergeMismatch,
                         ::testing::Values(MergePair{"rr_onebit",
                                                     {"", MeanMechanism::RR, {1, 1, 0}},
                                                     {"", MeanMechanism::OneBit, {1, 1, 0}}},
                                           MergePair{"laplace_piecewise",
                                                     {"", MeanMechanism::Laplace, {1, 10, 0}},
                                                     {"", MeanMechanism::Piecewise, {1, 10, 0}}},
                                           MergePair{"epsilon",
                                                     {"", MeanMechanism::OneBit, {1, 10, 0}},
                                                     {"", MeanMechanism::OneBit, {2, 10, 0}}},
                                           MergePair{"rr_epsilon",
                                                     {"", MeanMechanism::RR, {1, 1, 0}},
                                                     {"", MeanMechanism::RR, {0.5, 1, 0}}},
                                           MergePair{"max_value",
                                                     {"", MeanMechanism::OneBit, {1, 10, 0}},
                                                     {"", MeanMechanism::OneBit, {1, 20, 0}}},
                                           MergePair{"gamma",
                                                     {"", MeanMechanism::OneBit, {1, 10, 0}},
                                                     {"", MeanMechanism::OneBit, {1, 10, 0.2}}},
                                           MergePair{"laplace_max_value",
                                                     {"", MeanMechanism::Laplace, {1, 10, 0}},
                                                     {"", MeanMechanism::Laplace, {1, 11, 0}}},
                                           MergePair{"piecewise_epsilon",
                                                     {"", MeanMechanism::Piecewise, {1, 10, 0}},
                                                     {"", MeanMechanism::Piecewise, {1.5, 10, 0}}}),
                         [](const auto& info) { return std::string(info.param.name); });

// ---------------------------------------------------------------------------
// Invalid parameters.

class InvalidParams : public ::testing::TestWithParam<Config> {};

TEST_P(InvalidParams, AreRejected) {
  Summary s;
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] {
    ldp::mean_summary_init(s.get(), GetParam().id, GetParam().params);
  }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter,
                         [&] { ldp::validate_mean_params(GetParam().id, GetParam().params); }));
}

INSTANTIATE_TEST_SUITE_P(
    Cases, InvalidParams,
    ::testing::Values(Config{"rr_eps_zero", MeanMechanism::RR, {0, 1, 0}},
                      Config{"rr_eps_negative", MeanMechanism::RR, {-1, 1, 0}},
                      Config{"rr_eps_nan", MeanMechanism::RR, {kNaN, 1, 0}},
                      Config{"rr_eps_inf", MeanMechanism::RR, {kInf, 1, 0}},
                      Config{"onebit_eps_over_700", MeanMechanism::OneBit, {701, 10, 0}},
                      Config{"onebit_eps_zero", MeanMechanism::OneBit, {0, 10, 0}},
                      Config{"onebit_max_zero", MeanMechanism::OneBit, {1, 0, 0}},
                      Config{"onebit_max_negative", MeanMechanism::OneBit, {1, -10, 0}},
                      Config{"onebit_max_nan", MeanMechanism::OneBit, {1, kNaN, 0}},
                      Config{"onebit_max_inf", MeanMechanism::OneBit, {1, kInf, 0}},
                      Config{"onebit_gamma_negative", MeanMechanism::OneBit, {1, 10, -0.1}},
                      Config{"onebit_gamma_half", MeanMechanism::OneBit, {1, 10, 0.5}},
                      Config{"onebit_gamma_above_half", MeanMechanism::OneBit, {1, 10, 0.7}},
                      Config{"onebit_gamma_nan", MeanMechanism::OneBit, {1, 10, kNaN}},
                      Config{"laplace_eps_nan", MeanMechanism::Laplace, {kNaN, 10, 0}},
                      Config{"laplace_max_zero", MeanMechanism::Laplace, {1, 0, 0}},
                      Config{"laplace_max_inf", MeanMechanism::Laplace, {1, kInf, 0}},
                      Config{"piecewise_eps_negative", MeanMechanism::Piecewise, {-0.5, 10, 0}},
                      Config{"piecewise_eps_inf", MeanMechanism::Piecewise, {kInf, 10, 0}},
                      Config{"piecewise_max_negative", MeanMechanism::Piecewise, {1, -1, 0}}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(SummaryCheck, CorruptStatesAreInternalErrors) {
  Summary s(MeanMechanism::Laplace, kLaplace.params);
  size_t size = ldp::mean_summary_size(MeanMechanism::Laplace);
  EXPECT_NO_THROW(ldp::mean_summary_check(*s, size));
  EXPECT_TRUE(ThrowsKind(ErrorKind::Internal, [&] { ldp::mean_summary_check(*s, size - 8); }));
  s->version = 2;
  EXPECT_TRUE(ThrowsKind(ErrorKind::Internal, [&] { ldp::mean_summary_check(*s, size); }));
  s->version = ldp::kMeanSummaryVersion;
  s->mechanism = 9;
  EXPECT_TRUE(ThrowsKind(ErrorKind::Internal, [&] { ldp::mean_summary_check(*s, size); }));
}

}  // namespace
