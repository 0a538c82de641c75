// Statistical tests of every mean/proportion mechanism, end to end: the SDK's
// encoders produce the reports, the summary decodes them, and over many seeded
// trials the estimate must be unbiased, have the closed-form variance of
// docs/algorithms/means.md, and its 95% interval must cover the truth 95% of the time.
//
// Design: every trial draws a fresh population of n users, each user's value
// independently and uniformly from a fixed list of mixed values (the "support").
// The truth is the mean of the support, and the reports of different users are
// i.i.d., so the variance of the estimate is Var(one user's report)/n by the law
// of total variance: E[Var(report | x)] + Var(E[report | x]). This is the design
// in which the standard errors the summary reports (from the reports' own sample
// variance, or b̄(1-b̄)) estimate the estimate's variance without bias: with a
// fixed population they would be conservative by the spread of the true values.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "core/common/random.hpp"
#include "core/mean/mean_encoders.hpp"
#include "core/mean/mean_summary.hpp"
#include "test_support.hpp"

namespace {

using ldp::ErrorKind;
using ldp::MeanMechanism;
using ldp::MeanParams;
using ldp::RandomSource;
using ldp_test::Summary;
using ldp_test::ThrowsKind;

constexpr int kTrials = 4000;  // sampling error of a variance ~ sqrt(2/4000) = 2.2%
constexpr int kUsers = 2000;
constexpr double kZ95 = 1.959964;

struct Support {
  std::vector<double> values;  // equally likely
  double mean() const {
    double s = 0;
    for (double v : values) s += v;
    return s / values.size();
  }
  double mean_square() const {
    double s = 0;
    for (double v : values) s += v * v;
    return s / values.size();
  }
  double variance() const { return mean_square() - mean() * mean(); }
  double draw(RandomSource& rng) const { return values[rng.below(values.size())]; }
};

// One user: encodes its value (the SDK) and adds the report(s) to the summary.
using User = std::function<void(Summary&, double value, RandomSource&)>;

struct Scenario {
  std::string name;
  MeanMechanism mech;
  MeanParams params;
  Support support;
  User user;
  // Closed-form variance of one user's contribution, in the estimate's units:
  // Var(estimate) = unit_variance / n.
  double unit_variance;
  uint64_t seed;
};

void PrintTo(const Scenario& s, std::ostream* os) { *os << s.name; }

// ---- closed forms of docs/algorithms/means.md, written from the formulas ----

// Randomized response: ybar ~ Bernoulli(q + pi (p - q)) means; estimate = (ybar - q)/(p - q).
double rr_unit_variance(double eps, double pi) {
  double p = std::exp(eps) / (std::exp(eps) + 1), q = 1 - p;
  double py = q + pi * (p - q);
  return py * (1 - py) / ((p - q) * (p - q));
}

// 1BitMean with output perturbation gamma: P(b'=1) = gamma + (1 - 2 gamma) P(b=1), and
// P(b=1) = 1/(e^eps+1) + (x/m)(e^eps-1)/(e^eps+1) is linear in x, so averages to its value
// at the mean. The estimate is m (e^eps+1)/(e^eps-1)/(1-2 gamma) b̄' + constant.
double onebit_unit_variance(double eps, double m, double gamma, double mean_x) {
  double e = std::exp(eps);
  double pb = 1 / (e + 1) + (mean_x / m) * (e - 1) / (e + 1);
  double py = gamma + (1 - 2 * gamma) * pb;
  double slope = m * (e + 1) / (e - 1) / (1 - 2 * gamma);
  return slope * slope * py * (1 - py);
}

// Laplace: Var(x) + Var(Lap(m/eps)) = Var(x) + 2 (m/eps)^2.
double laplace_unit_variance(double eps, double m, const Support& s) {
  return s.variance() + 2 * (m / eps) * (m / eps);
}

// Piecewise, in [-1, 1] units (x' = 2x/m - 1): E[Var(t | x')] + Var(x'), with
// Var(t | x') = x'^2/(e^{eps/2}-1) + (e^{eps/2}+3)/(3(e^{eps/2}-1)^2); then scaled by (m/2)^2.
double piecewise_unit_variance(double eps, double m, const Support& s) {
  Support unit;
  for (double x : s.values) unit.values.push_back(2 * x / m - 1);
  double h = std::exp(eps / 2);
  double conditional = unit.mean_square() / (h - 1) + (h + 3) / (3 * (h - 1) * (h - 1));
  return (conditional + unit.variance()) * (m / 2) * (m / 2);
}

// ---- users ----

User rr_user(double eps) {
  return [eps](Summary& s, double x, RandomSource& rng) {
    s.add_bit(ldp::rr_encode(x != 0, eps, rng));
  };
}

User onebit_user(double eps, double m, double gamma) {
  return [=](Summary& s, double x, RandomSource& rng) {
    s.add_bit(ldp::output_perturb(ldp::onebit_mean_encode(x, eps, m, rng), gamma, rng));
  };
}

User laplace_user(double eps, double m) {
  return [=](Summary& s, double x, RandomSource& rng) {
    s.add_real(ldp::laplace_mean_encode(x, eps, m, rng));
  };
}

User piecewise_user(double eps, double m) {
  return [=](Summary& s, double x, RandomSource& rng) {
    s.add_real(ldp::piecewise_mean_encode(x, eps, m, rng));
  };
}

// A fresh device with alpha-point rounding and memoization, two rounds. Round 1's
// value is the same as round 2's half of the time (the memo is then hit), else an
// independent draw; round 2 is decoded. By Theorem 3 of Ding et al. 2017 its bit is still
// distributed as 1BitMean's on the round-2 value, whatever the granularity.
User client_user(double eps, double m, double granularity, double gamma, Support support) {
  return [=](Summary& s, double x, RandomSource& rng) {
    ldp::OneBitMeanClient client(eps, m, granularity, gamma, rng);
    double first = rng.bernoulli(0.5) ? x : support.draw(rng);
    (void)client.report(first, rng);
    s.add_bit(client.report(x, rng));
  };
}

// ---- scenarios ----

const Support kBits{{1, 1, 1, 0, 0, 0, 0, 0, 0, 0}};        // proportion 0.3
const Support kHours{{0, 1.5, 3.7, 6, 12, 12.25, 20, 24}};  // m = 24, not on a m/20 grid
const Support kSkewed{{0, 0, 0, 0.5, 2, 9.5, 10}};          // m = 10

Scenario rr_scenario(const std::string& name, double eps, uint64_t seed) {
  Scenario sc{name, MeanMechanism::RR, {eps, 1, 0}, kBits, rr_user(eps), 0, seed};
  sc.unit_variance = rr_unit_variance(eps, kBits.mean());
  return sc;
}

Scenario onebit_scenario(const std::string& name, double eps, double gamma, uint64_t seed) {
  const double m = 24;
  Scenario sc{name, MeanMechanism::OneBit, {eps, m, gamma}, kHours, onebit_user(eps, m, gamma), 0,
              seed};
  sc.unit_variance = onebit_unit_variance(eps, m, gamma, kHours.mean());
  return sc;
}

// The client decodes like 1BitMean: same closed form (Theorem 3).
Scenario client_scenario(const std::string& name, double granularity, double gamma, uint64_t seed) {
  const double eps = 1, m = 24;
  Scenario sc = onebit_scenario(name, eps, gamma, seed);
  sc.user = client_user(eps, m, granularity, gamma, kHours);
  return sc;
}

Scenario laplace_scenario(const std::string& name, double eps, const Support& support, double m,
                          uint64_t seed) {
  Scenario sc{name, MeanMechanism::Laplace, {eps, m, 0}, support, laplace_user(eps, m), 0, seed};
  sc.unit_variance = laplace_unit_variance(eps, m, support);
  return sc;
}

Scenario piecewise_scenario(const std::string& name, double eps, const Support& support, double m,
                            uint64_t seed) {
  Scenario sc{name, MeanMechanism::Piecewise, {eps, m, 0}, support, piecewise_user(eps, m), 0,
              seed};
  sc.unit_variance = piecewise_unit_variance(eps, m, support);
  return sc;
}

std::vector<Scenario> scenarios() {
  return {
      rr_scenario("rr_eps1", 1.0, 1001),
      rr_scenario("rr_eps05", 0.5, 1002),
      onebit_scenario("onebit_gamma0", 1.0, 0.0, 2001),
      onebit_scenario("onebit_gamma02", 1.0, 0.2, 2002),
      onebit_scenario("onebit_eps3_gamma0", 3.0, 0.0, 2003),
      laplace_scenario("laplace_eps1", 1.0, kHours, 24, 3001),
      laplace_scenario("laplace_eps3", 3.0, kSkewed, 10, 3002),
      piecewise_scenario("piecewise_eps1", 1.0, kHours, 24, 4001),
      piecewise_scenario("piecewise_eps4", 4.0, kSkewed, 10, 4002),
      client_scenario("client_granularity_m", 24, 0.0, 5001),
      client_scenario("client_granularity_m_over_20", 24.0 / 20, 0.0, 5002),
      client_scenario("client_granularity_m_over_20_gamma02", 24.0 / 20, 0.2, 5003),
  };
}

struct TrialStats {
  double mean_estimate, estimate_variance, coverage, mean_se2;
};

TrialStats run_trials(const Scenario& sc) {
  const double truth = sc.support.mean();
  long double sum = 0, sum_sq_dev = 0, sum_se2 = 0;
  int covered = 0;
  std::vector<double> estimates;
  estimates.reserve(kTrials);
  for (int t = 0; t < kTrials; ++t) {
    ldp::SeededRandom rng(sc.seed * 1000003 + t);
    Summary s(sc.mech, sc.params);
    for (int i = 0; i < kUsers; ++i) sc.user(s, sc.support.draw(rng), rng);
    ldp::Estimate e = s.estimate();
    EXPECT_TRUE(e.has_std_error);
    estimates.push_back(e.value);
    sum += e.value;
    sum_se2 += static_cast<long double>(e.std_error) * e.std_error;
    double lo = 0, hi = 0;  // the interval ci_lower / ci_upper return
    EXPECT_TRUE(ldp::mean_interval(*s, 0.95, &lo, &hi));
    if (lo <= truth && truth <= hi) ++covered;
  }
  long double mean = sum / kTrials;
  for (double v : estimates) sum_sq_dev += (v - mean) * (v - mean);
  return {static_cast<double>(mean), static_cast<double>(sum_sq_dev / (kTrials - 1)),
          static_cast<double>(covered) / kTrials, static_cast<double>(sum_se2 / kTrials)};
}

class MeanEstimator : public ::testing::TestWithParam<Scenario> {};

TEST_P(MeanEstimator, UnbiasedWithClosedFormVarianceAndCoverage) {
  const Scenario& sc = GetParam();
  const double truth = sc.support.mean();
  const double closed_form = sc.unit_variance / kUsers;
  TrialStats st = run_trials(sc);
  SCOPED_TRACE(::testing::Message()
               << sc.name << ": truth " << truth << ", mean estimate " << st.mean_estimate
               << ", variance " << st.estimate_variance << " (closed form " << closed_form
               << "), coverage " << st.coverage << ", mean se^2 " << st.mean_se2);
  // (a) unbiased: within 3 standard errors of the mean of the estimates
  EXPECT_LE(std::fabs(st.mean_estimate - truth), 3 * std::sqrt(st.estimate_variance / kTrials));
  // (b) the variance is the closed form of docs/algorithms/means.md, within 10%
  EXPECT_NEAR(st.estimate_variance / closed_form, 1.0, 0.10);
  // (c) the 95% interval covers the truth 93.5%..96.5% of the time
  EXPECT_GE(st.coverage, 0.935);
  EXPECT_LE(st.coverage, 0.965);
  // the reported std_error estimates the closed-form standard deviation
  EXPECT_NEAR(st.mean_se2 / closed_form, 1.0, 0.10);
}

INSTANTIATE_TEST_SUITE_P(Mechanisms, MeanEstimator, ::testing::ValuesIn(scenarios()),
                         [](const auto& info) { return info.param.name; });

// ---------------------------------------------------------------------------
// Small samples. The number of 1 reports of a bit mechanism is binomial, so the
// coverage of its interval is an exact finite sum: no trials needed. The
// Clopper-Pearson interval keeps at least the nominal level where estimate +- z SE
// (Wald) fails, most visibly when every report is 0 and SE is 0.

double binomial_pmf(int n, int k, double p) {
  return std::exp(std::lgamma(n + 1.0) - std::lgamma(k + 1.0) - std::lgamma(n - k + 1.0) +
                  k * std::log(p) + (n - k) * std::log1p(-p));
}

struct SmallCoverage {
  double exact, wald;
};

// Exact coverage of the 95% intervals of RR(eps) over n users of whom a
// fraction pi hold 1 (P(report = 1) = q + pi (1 - 2q)).
SmallCoverage rr_small_coverage(double eps, int n, double pi) {
  const double q = 1 / (std::exp(eps) + 1), p1 = q + pi * (1 - 2 * q);
  SmallCoverage c{0, 0};
  for (int ones = 0; ones <= n; ++ones) {
    Summary s(MeanMechanism::RR, {eps, 1, 0});
    s->n = n;
    s->ones = ones;
    double lo = 0, hi = 0;
    EXPECT_TRUE(ldp::mean_interval(*s, 0.95, &lo, &hi));
    EXPECT_LE(lo, s.estimate().value);
    EXPECT_GE(hi, s.estimate().value);
    const double w = binomial_pmf(n, ones, p1);
    if (lo <= pi && pi <= hi) c.exact += w;
    ldp::Estimate e = s.estimate();
    if (std::fabs(e.value - pi) <= kZ95 * e.std_error) c.wald += w;
  }
  return c;
}

TEST(SmallSamples, IntervalsKeepTheirCoverage) {
  double worst_exact = 1, worst_wald = 1, sum_exact = 0;
  int cases = 0;
  for (double eps : {1.0, 3.0, 5.0})
    for (int n : {10, 20, 50, 100})
      for (double pi : {0.0, 0.02, 0.1, 0.3, 0.5, 0.8, 1.0}) {
        SmallCoverage c = rr_small_coverage(eps, n, pi);
        SCOPED_TRACE(::testing::Message() << "eps " << eps << " n " << n << " pi " << pi
                                          << ": interval " << c.exact << ", wald " << c.wald);
        EXPECT_GE(c.exact, 0.95 - 1e-9);  // Clopper-Pearson's guarantee
        worst_exact = std::min(worst_exact, c.exact);
        worst_wald = std::min(worst_wald, c.wald);
        sum_exact += c.exact;
        ++cases;
      }
  EXPECT_LE(sum_exact / cases, 0.985);  // conservative, not absurdly so
  EXPECT_LT(worst_wald, 0.75);          // what the Wald interval gave here
  std::printf("small samples: interval coverage worst %.4f mean %.4f; Wald worst %.4f\n",
              worst_exact, sum_exact / cases, worst_wald);
}

// All-0 and all-1 reports: a real interval, inside what the reports allow.
TEST(SmallSamples, AllEqualReportsStillGetAnInterval) {
  for (int ones : {0, 12}) {
    Summary s(MeanMechanism::OneBit, {1.0, 100, 0.1});
    s->n = 12;
    s->ones = ones;
    EXPECT_EQ(s.estimate().std_error, 0.0);
    double lo = 0, hi = 0;
    ASSERT_TRUE(ldp::mean_interval(*s, 0.95, &lo, &hi));
    EXPECT_GT(hi - lo, 50.0) << ones;  // of order m z^2 / n times the decoding's slope
  }
  Summary empty(MeanMechanism::OneBit, {1.0, 100, 0});
  double lo, hi;
  EXPECT_FALSE(ldp::mean_interval(*empty, 0.95, &lo, &hi));
  Summary one(MeanMechanism::Laplace, {1.0, 100, 0});
  one.add_real(3);
  EXPECT_FALSE(ldp::mean_interval(*one, 0.95, &lo, &hi));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter,
                         [&] { ldp::mean_interval(*empty, 1.0, &lo, &hi); }));
}

// Very large counts: past 2^32 reports the interval is Wilson's, which there
// agrees with the normal interval; summaries of any count get a finite interval
// around their estimate (found by the mutation tests: n = 2^61 made Boost's
// inverse incomplete beta give up).
TEST(LargeSamples, IntervalsStayFiniteAndNormal) {
  const int64_t kNs[] = {int64_t{1} << 32, (int64_t{1} << 32) + 1, int64_t{1} << 61,
                         std::numeric_limits<int64_t>::max()};
  for (int64_t n : kNs) {
    for (double share : {0.0, 3e-5, 0.3, 1.0}) {
      Summary s(MeanMechanism::RR, {1, 1, 0});
      s->n = n;
      s->ones = share == 1.0 ? n : static_cast<int64_t>(std::floor(static_cast<double>(n) * share));
      double lo = 0, hi = 0;
      ASSERT_TRUE(ldp::mean_interval(*s, 0.95, &lo, &hi)) << n << " " << share;
      ldp::Estimate e = s.estimate();
      EXPECT_TRUE(std::isfinite(lo) && std::isfinite(hi)) << n << " " << share;
      EXPECT_LE(lo, e.value);
      EXPECT_GE(hi, e.value);
      if (share > 0 && share < 1) {  // the normal interval, to 1% of its half-width
        EXPECT_NEAR(hi - e.value, kZ95 * e.std_error, 0.01 * kZ95 * e.std_error) << n;
        EXPECT_NEAR(e.value - lo, kZ95 * e.std_error, 0.01 * kZ95 * e.std_error) << n;
      }
    }
  }
  // Clopper-Pearson just below the switch and Wilson just above agree closely.
  Summary below(MeanMechanism::RR, {1, 1, 0}), above(MeanMechanism::RR, {1, 1, 0});
  below->n = ldp::kClopperPearsonMaxN;
  above->n = ldp::kClopperPearsonMaxN + 1;
  below->ones = above->ones = 1000;
  double blo, bhi, alo, ahi;
  ASSERT_TRUE(ldp::mean_interval(*below, 0.95, &blo, &bhi));
  ASSERT_TRUE(ldp::mean_interval(*above, 0.95, &alo, &ahi));
  EXPECT_NEAR(alo, blo, 0.02 * (bhi - blo));
  EXPECT_NEAR(ahi, bhi, 0.02 * (bhi - blo));
}

// Real-valued mechanisms use Student's t on n - 1 degrees of freedom.
TEST(SmallSamples, RealValuedIntervalsUseStudentT) {
  Summary s(MeanMechanism::Laplace, {1.0, 100, 0});
  for (double y : {10.0, 30.0, 80.0}) s.add_real(y);
  ldp::Estimate e = s.estimate();
  double lo = 0, hi = 0;
  ASSERT_TRUE(ldp::mean_interval(*s, 0.95, &lo, &hi));
  EXPECT_NEAR((hi - lo) / 2 / e.std_error, 4.302652729911275, 1e-9);  // t_{0.975, 2}
  EXPECT_NEAR((hi + lo) / 2, e.value, 1e-9);
}

// ---------------------------------------------------------------------------
// The device client: rounding, memoization, persisted state.

TEST(OneBitMeanClient, RoundsToNeighbouringGridPoints) {
  ldp::SeededRandom rng(1);
  for (double g : {24.0, 24.0 / 20, 0.7}) {
    ldp::OneBitMeanClient c(1.0, 24, g, 0, rng);
    double step = c.step();
    EXPECT_NEAR(24 / step, std::round(24 / g), 1e-9);
    for (double x : {0.0, 0.3, 3.7, 12.0, 23.99, 24.0}) {
      double y = c.rounded(x);
      double l = std::floor(x / step) * step;
      EXPECT_TRUE(std::fabs(y - l) < 1e-9 || std::fabs(y - (l + step)) < 1e-9) << g << " " << x;
      EXPECT_LE(y, 24.0);
    }
    EXPECT_EQ(c.rounded(0.0), 0.0);
    EXPECT_EQ(c.rounded(24.0), 24.0);
  }
}

// Over random alphas, rounding is unbiased: E[rounded(x)] = x.
TEST(OneBitMeanClient, RoundingIsUnbiased) {
  ldp::SeededRandom rng(2);
  const int kClients = 200000;
  for (double x : {3.7, 12.25, 23.0}) {
    long double sum = 0;
    for (int i = 0; i < kClients; ++i) sum += ldp::OneBitMeanClient(1.0, 24, 24, 0, rng).rounded(x);
    // rounded(x) is 0 or 24: sd <= 12, standard error of the mean <= 12/sqrt(2e5) = 0.027
    EXPECT_NEAR(static_cast<double>(sum / kClients), x, 3 * 12 / std::sqrt(kClients)) << x;
  }
}

TEST(OneBitMeanClient, MemoizesTheBitOfEachGridPoint) {
  ldp::SeededRandom rng(3);
  for (int k = 0; k < 50; ++k) {
    ldp::OneBitMeanClient c(1.0, 24, 24.0 / 20, 0, rng);
    bool first = c.report(12.3, rng);
    for (int round = 0; round < 20; ++round) EXPECT_EQ(c.report(12.3, rng), first);
    // another value rounding to the same point reuses the memo
    double y = c.rounded(12.3);
    EXPECT_EQ(c.report(y, rng), first);
    const auto& memo = c.state().memo;
    EXPECT_EQ(memo.size(), 21u);
    int drawn = 0;
    for (int8_t m : memo) drawn += m >= 0;
    EXPECT_EQ(drawn, 1);
  }
}

TEST(OneBitMeanClient, PersistedStateReportsTheSame) {
  ldp::SeededRandom rng(4);
  ldp::OneBitMeanClient a(1.0, 24, 2.4, 0, rng);
  std::vector<bool> before;
  for (double x : {1.0, 5.5, 17.0, 24.0}) before.push_back(a.report(x, rng));
  ldp::OneBitMeanClient b(1.0, 24, 2.4, 0, a.state());
  EXPECT_EQ(b.step(), a.step());
  int i = 0;
  for (double x : {1.0, 5.5, 17.0, 24.0}) EXPECT_EQ(b.report(x, rng), before[i++]) << x;
}

TEST(OneBitMeanClient, RejectsInvalidConfiguration) {
  using ldp::ErrorKind;
  using ldp_test::ThrowsKind;
  ldp::SeededRandom rng(5);
  for (double g : {0.0, -1.0, 25.0, 24e-8 /* 10^8 points */})
    EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] {
      ldp::OneBitMeanClient(1.0, 24, g, 0, rng);
    })) << g;
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter,
                         [&] { ldp::OneBitMeanClient(1.0, 24, 12, 0.5, rng); }));
  EXPECT_TRUE(
      ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::OneBitMeanClient(0.0, 24, 12, 0, rng); }));
  // a state that does not match the parameters
  ldp::OneBitMeanClient c(1.0, 24, 12, 0, rng);  // 3 points, step 12
  auto wrong_size = c.state();
  wrong_size.memo.push_back(-1);
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter,
                         [&] { ldp::OneBitMeanClient(1.0, 24, 12, 0, wrong_size); }));
  auto wrong_alpha = c.state();
  wrong_alpha.alpha = 12;
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter,
                         [&] { ldp::OneBitMeanClient(1.0, 24, 12, 0, wrong_alpha); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::OutOfRange, [&] { c.report(24.5, rng); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::OutOfRange, [&] { c.report(-1, rng); }));
}

TEST(Encoders, RejectValuesOutsideTheDomain) {
  using ldp::ErrorKind;
  using ldp_test::ThrowsKind;
  ldp::SeededRandom rng(6);
  const double nan = std::nan("");
  for (double x : {-0.5, 10.5, nan}) {
    EXPECT_TRUE(ThrowsKind(ErrorKind::OutOfRange, [&] { ldp::onebit_mean_encode(x, 1, 10, rng); }))
        << x;
    EXPECT_TRUE(ThrowsKind(ErrorKind::OutOfRange, [&] { ldp::laplace_mean_encode(x, 1, 10, rng); }))
        << x;
    EXPECT_TRUE(ThrowsKind(ErrorKind::OutOfRange, [&] {
      ldp::piecewise_mean_encode(x, 1, 10, rng);
    })) << x;
  }
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::rr_encode(true, -1, rng); }));
  EXPECT_TRUE(
      ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::output_perturb(true, 0.5, rng); }));
}

// Encoders draw only from the source they are given: same seed, same reports.
TEST(Encoders, AreReproducibleFromASeed) {
  auto run = [](uint64_t seed) {
    ldp::SeededRandom rng(seed);
    std::vector<double> out;
    for (int i = 0; i < 100; ++i) {
      out.push_back(ldp::rr_encode(i % 2, 1, rng));
      out.push_back(ldp::onebit_mean_encode(i % 11, 1, 10, rng));
      out.push_back(ldp::laplace_mean_encode(i % 11, 1, 10, rng));
      out.push_back(ldp::piecewise_mean_encode(i % 11, 1, 10, rng));
    }
    return out;
  };
  EXPECT_EQ(run(42), run(42));
  EXPECT_NE(run(42), run(43));
}

}  // namespace
