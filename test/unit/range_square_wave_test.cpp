// Square Wave with EM (core/range/square_wave.hpp; docs/algorithms/ranges.md#square-wave):
// the wave's width and densities, the encoder's distribution, the server's buckets, the
// transition matrix (columns summing to 1, entries against a numerical integral, the
// operator against the matrix), EM recovering a known shape, EMS smoothing, the group
// shares, the bootstrap's determinism and refusals, and the cross-check against the
// authors' code (sw.py of vvv214/LDP_Protocols; test/data/sw, test/data/README.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "core/common/binomial.hpp"
#include "core/common/error.hpp"
#include "core/common/random.hpp"
#include "core/range/square_wave.hpp"
#include "range_test_support.hpp"
#include "test_support.hpp"

#ifndef LDP_TEST_DATA_DIR
#error "LDP_TEST_DATA_DIR must name test/data (CMakeLists.txt defines it)"
#endif

namespace {

using ldp::ErrorKind;
using ldp::SwEmOptions;
using ldp::SwGrid;
using ldp::SwKernel;
using ldp_test::ThrowsKind;

// The paper's formula, term by term in long double (no series): the reference for ε >= 0.5.
long double paper_half_width(long double e) {
  const long double x = std::exp(e);
  return (e * x - x + 1) / (2 * x * (x - 1 - e));
}

TEST(RangeSquareWave, HalfWidthAndDensities) {
  for (double eps : {0.5, 1.0, 2.0, 4.0, 10.0, 30.0}) {
    const ldp::SquareWave w = ldp::square_wave(eps);
    EXPECT_TRUE(ldp_test::Close(w.half_width, static_cast<double>(paper_half_width(eps)), 1e-14)) << eps;
    EXPECT_TRUE(ldp_test::Close(2 * w.half_width * w.p + w.q, 1.0, 1e-15)) << eps;
    EXPECT_TRUE(ldp_test::Close(w.p / w.q, std::exp(eps), 1e-15)) << eps;
    EXPECT_LT(w.half_width, 0.5);
  }
  // small ε, where the formula cancels: the series (w = 1/2 − ε/3 + O(ε²); the reference
  // values are the formula in Python's decimal arithmetic at 60 digits)
  EXPECT_TRUE(ldp_test::Close(ldp::square_wave(1e-4).half_width, 0.49996666777775185, 1e-15));
  EXPECT_TRUE(ldp_test::Close(ldp::square_wave(0.01).half_width, 0.49667775190115385, 1e-15));
  EXPECT_TRUE(ldp_test::Close(ldp::square_wave(0.5).half_width, 0.35815542461116704, 1e-15));
  // the largest ε: finite and positive, p finite
  const ldp::SquareWave big = ldp::square_wave(700);
  EXPECT_GT(big.half_width, 0);
  EXPECT_TRUE(std::isfinite(big.p));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [] { ldp::square_wave(0); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [] { ldp::square_wave(std::nan("")); }));
}

TEST(RangeSquareWave, GridRule) {
  EXPECT_EQ(ldp::sw_grid(1, 3).d_in, 8);
  EXPECT_EQ(ldp::sw_grid(1, 3).d_out, 8);
  EXPECT_EQ(ldp::sw_grid(1, 10).d_in, 1024);
  EXPECT_EQ(ldp::sw_grid(1, 16).d_in, 1024);
  EXPECT_EQ(ldp::sw_grid(1, 24).d_out, 1024);
  const SwGrid g = ldp::sw_grid(1, 16);
  EXPECT_EQ(g.lo, -g.wave.half_width);
  EXPECT_EQ(g.hi, 1 + g.wave.half_width);
  EXPECT_EQ(g.edge(0), g.lo);
  EXPECT_EQ(g.edge(g.d_out), g.hi);
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [] { ldp::sw_grid(1, 0); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [] { ldp::sw_grid(1, 25); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [] { ldp::sw_grid(1, 4, 32, 16); }));   // finer than 2^k
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [] { ldp::sw_grid(1, 12, 100, 16); }));  // not 2^j
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [] { ldp::sw_grid(1, 12, 64, 0); }));
}

// The share of reports within w of v is 2w·p, below v − w it is q·v, and every report lies in
// [−w, 1 + w]: 200,000 draws at three values, within 5 standard deviations.
TEST(RangeSquareWave, EncoderDistribution) {
  for (double eps : {0.5, 2.0}) {
    const ldp::SquareWave w = ldp::square_wave(eps);
    ldp::SeededRandom rng(31);
    for (double v : {0.0, 0.3, 1.0}) {
      const int n = 200000;
      int inside = 0, below = 0;
      for (int i = 0; i < n; ++i) {
        const double y = ldp::sw_encode_value(w, v, rng);
        ASSERT_TRUE(y >= -w.half_width && y <= 1 + w.half_width) << y;
        if (std::fabs(y - v) <= w.half_width) ++inside;
        else if (y < v) ++below;
      }
      for (auto [count, share] : {std::pair<int, double>{inside, 2 * w.half_width * w.p}, {below, w.q * v}}) {
        const double sd = std::sqrt(share * (1 - share) / n);
        EXPECT_NEAR(static_cast<double>(count) / n, share, 5 * sd + 1e-12) << "eps " << eps << " v " << v;
      }
    }
  }
  // a bucket is reported as its centre: bucket 0 of 1 bit is v = 1/4
  const SwGrid g = ldp::sw_grid(3, 1);
  ldp::SeededRandom rng(5);
  double inside = 0;
  for (int i = 0; i < 100000; ++i) inside += std::fabs(ldp::sw_encode(g, 0, rng) - 0.25) <= g.wave.half_width;
  EXPECT_NEAR(inside / 100000, 2 * g.wave.half_width * g.wave.p, 0.01);
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::sw_encode(g, 2, rng); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::sw_encode_value(g.wave, 1.5, rng); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::sw_encode_value(g.wave, std::nan(""), rng); }));
}

TEST(RangeSquareWave, ReportBuckets) {
  const SwGrid g = ldp::sw_grid(1, 10);
  EXPECT_EQ(ldp::sw_report_bucket(g, g.lo), 0);
  EXPECT_EQ(ldp::sw_report_bucket(g, g.hi), g.d_out - 1);
  for (int64_t j : {int64_t{1}, int64_t{500}, g.d_out - 1}) {
    EXPECT_EQ(ldp::sw_report_bucket(g, g.edge(j)), j);
    EXPECT_EQ(ldp::sw_report_bucket(g, std::nextafter(g.edge(j), -1.0)), j - 1);
  }
  EXPECT_EQ(ldp::sw_report_bucket(g, g.hi + 1e-12), g.d_out - 1);  // a device's rounding
  EXPECT_EQ(ldp::sw_report_bucket(g, g.lo - 1e-12), 0);
  for (double y : {g.hi + 1e-6, g.lo - 1e-6, std::nan(""), std::numeric_limits<double>::infinity()})
    EXPECT_TRUE(ThrowsKind(ErrorKind::ImpossibleReport, [&] { ldp::sw_report_bucket(g, y); })) << y;
  std::vector<int64_t> counts(static_cast<size_t>(g.d_out), 0);
  ldp::sw_add_report(g, counts.data(), 0.5);
  EXPECT_EQ(counts[static_cast<size_t>(ldp::sw_report_bucket(g, 0.5))], 1);
}

// T[j][i] written out: q·step + (p − q)|bucket ∩ [v − w, v + w]| averaged over the bin's
// values, its buckets' centres one by one, or a uniform bin by the midpoint rule (4000 points).
double brute_entry(const SwGrid& g, int64_t j, int64_t i) {
  const bool centres = g.values == ldp::SwBinValues::Centres;
  const int64_t steps = centres ? g.buckets_per_bin() : 4000;
  const double a = g.edge(j), c = g.edge(j + 1), w = g.wave.half_width;
  double s = 0;
  for (int64_t t = 0; t < steps; ++t) {
    const double v = (static_cast<double>(i) + (static_cast<double>(t) + 0.5) / static_cast<double>(steps)) /
                     static_cast<double>(g.d_in);
    const double meet = std::max(0.0, std::min(c, v + w) - std::max(a, v - w));
    s += g.wave.q * g.step + (g.wave.p - g.wave.q) * meet;
  }
  return s / static_cast<double>(steps);
}

// Columns sum to 1 at every ε and grid, for both models of a bin's values; entries match
// the average written out (centres: exactly; uniform: the midpoint rule); T·θ and Tᵀ·r
// match the products with the matrix written out.
TEST(RangeSquareWave, TransitionMatrix) {
  struct Case {
    double eps;
    int k;
    int64_t d_in, d_out;
    ldp::SwBinValues values;
  };
  const auto C = ldp::SwBinValues::Centres, U = ldp::SwBinValues::Uniform;
  for (const Case& c : {Case{0.1, 10, 64, 64, C}, Case{1, 10, 1024, 1024, C}, Case{1, 10, 1024, 1024, U},
                        Case{1, 3, 8, 8, C}, Case{1, 3, 8, 8, U}, Case{1, 10, 128, 384, C}, Case{1, 10, 128, 384, U},
                        Case{4, 16, 256, 100, C}, Case{4, 16, 256, 100, U}, Case{8, 12, 512, 512, C},
                        Case{4, 4, 16, 16, C}, Case{20, 10, 64, 64, C}, Case{40, 10, 64, 64, U},
                        Case{40, 6, 64, 64, C}}) {
    const SwGrid g = ldp::sw_grid(c.eps, c.k, c.d_in, c.d_out, c.values);
    const SwKernel kernel(g);
    double worst = 0;
    std::vector<double> dense(static_cast<size_t>(g.d_out * g.d_in));
    for (int64_t i = 0; i < g.d_in; ++i) {
      double sum = 0;
      for (int64_t j = 0; j < g.d_out; ++j) {
        const double t = kernel.entry(j, i);
        ASSERT_GT(t, 0) << j << " " << i;
        dense[static_cast<size_t>(j * g.d_in + i)] = t;
        sum += t;
      }
      worst = std::max(worst, std::fabs(sum - 1));
    }
    EXPECT_LT(worst, 1e-12) << "eps " << c.eps << " grid " << c.d_in << "x" << c.d_out;
    // a few entries on and around the wave's edges against the average written out
    if (c.eps <= 8) {
      ldp::SeededRandom rng(3);
      for (int t = 0; t < 40; ++t) {
        const int64_t i = static_cast<int64_t>(rng.below(static_cast<uint64_t>(g.d_in)));
        const double centre = (static_cast<double>(i) + 0.5) / static_cast<double>(g.d_in);
        for (double at : {centre - g.wave.half_width, centre + g.wave.half_width, centre}) {
          const int64_t j = std::clamp<int64_t>(static_cast<int64_t>((at - g.lo) / g.step), 0, g.d_out - 1);
          const double tol = c.values == C ? 1e-12 : 1e-6;
          EXPECT_NEAR(kernel.entry(j, i), brute_entry(g, j, i), tol * kernel.entry(j, i)) << j << " " << i;
        }
      }
    }
    // the operator against the matrix
    ldp::SeededRandom rng(11);
    std::vector<double> theta(static_cast<size_t>(g.d_in)), r(static_cast<size_t>(g.d_out));
    for (double& t : theta) t = rng.uniform() < 0.3 ? 0.0 : rng.uniform();
    for (double& t : r) t = rng.uniform() < 0.3 ? 0.0 : 100 * rng.uniform();
    std::vector<double> x(static_cast<size_t>(g.d_out)), y(static_cast<size_t>(g.d_in)),
        scratch(static_cast<size_t>(std::max(g.d_in, g.d_out)) + 1);
    kernel.apply(theta.data(), x.data(), scratch.data());
    kernel.apply_transpose(r.data(), y.data(), scratch.data());
    for (int64_t j = 0; j < g.d_out; ++j) {
      double e = 0;
      for (int64_t i = 0; i < g.d_in; ++i) e += dense[static_cast<size_t>(j * g.d_in + i)] * theta[static_cast<size_t>(i)];
      ASSERT_NEAR(x[static_cast<size_t>(j)], e, 1e-11 * e) << "T·θ at " << j;
    }
    for (int64_t i = 0; i < g.d_in; ++i) {
      double e = 0;
      for (int64_t j = 0; j < g.d_out; ++j) e += dense[static_cast<size_t>(j * g.d_in + i)] * r[static_cast<size_t>(j)];
      ASSERT_NEAR(y[static_cast<size_t>(i)], e, 1e-11 * e) << "Tᵀ·r at " << i;
    }
  }
}

// A population of buckets of a 10-bit domain: 40% a normal bump at 0.3 (sd 0.08), 30% one
// at 0.75 (sd 0.05), 30% uniform.
int64_t draw_bucket(ldp::RandomSource& rng) {
  const double z = rng.uniform();
  if (z < 0.7) {
    const double v = z < 0.4 ? 0.3 + 0.08 * rng.normal() : 0.75 + 0.05 * rng.normal();
    return std::clamp<int64_t>(static_cast<int64_t>(std::floor(v * 1024)), 0, 1023);
  }
  return static_cast<int64_t>(rng.below(1024));
}

struct Sample {
  std::vector<int64_t> hist;
  std::vector<double> truth;  // per input bin
};

Sample sample(const SwGrid& g, int64_t n, uint64_t seed) {
  Sample s{std::vector<int64_t>(static_cast<size_t>(g.d_out), 0), std::vector<double>(static_cast<size_t>(g.d_in), 0)};
  ldp::SeededRandom rng(seed);
  const int64_t per_bin = g.domain() / g.d_in;
  for (int64_t u = 0; u < n; ++u) {
    const int64_t b = draw_bucket(rng) >> (10 - g.domain_bits);
    s.truth[static_cast<size_t>(b / per_bin)] += 1.0 / static_cast<double>(n);
    ldp::sw_add_report(g, s.hist.data(), ldp::sw_encode(g, b, rng));
  }
  return s;
}

std::vector<double> groups(const SwGrid& g, const std::vector<double>& theta, int64_t bins) {
  std::vector<double> out(static_cast<size_t>(bins));
  ldp::sw_group_shares(g, theta.data(), bins, out.data());
  return out;
}

double total_variation(const std::vector<double>& t) {
  double s = 0;
  for (size_t i = 1; i < t.size(); ++i) s += std::fabs(t[i] - t[i - 1]);
  return s;
}

// 200,000 reports at ε = 2 over 2^10 buckets. EM runs to its cap (10^4 iterations) and
// fits some noise: its shares of 16 groups are within 0.03 of the population's and its
// Wasserstein distance (the mean |F̂ − F| over the bins) below 0.008 (measured over seeds
// 1-5: 0.013-0.023 and 0.0040-0.0050); EMS stops after 650-1000 iterations, within 0.015
// and 0.004 (measured 0.0066-0.0098 and 0.0018-0.0026).
TEST(RangeSquareWave, EmRecoversAShape) {
  const SwGrid g = ldp::sw_grid(2, 10);
  const SwKernel kernel(g);
  const Sample s = sample(g, 200000, 1);
  const std::vector<double> truth = groups(g, s.truth, 16);
  for (bool smoothing : {false, true}) {
    SwEmOptions o;
    o.smoothing = smoothing;
    const ldp::SwEmResult fit = kernel.em(s.hist.data(), o);
    EXPECT_LE(fit.iterations, o.max_iterations);
    double sum = 0;
    for (double t : fit.theta) sum += t;
    EXPECT_NEAR(sum, 1, 1e-12);
    const std::vector<double> est = groups(g, fit.theta, 16);
    double worst = 0, cdf_fit = 0, cdf_truth = 0, w1 = 0;
    for (size_t b = 0; b < 16; ++b) worst = std::max(worst, std::fabs(est[b] - truth[b]));
    for (size_t i = 0; i < fit.theta.size(); ++i) {
      cdf_fit += fit.theta[i];
      cdf_truth += s.truth[i];
      w1 += std::fabs(cdf_fit - cdf_truth) / static_cast<double>(fit.theta.size());
    }
    std::printf("[ SW       ] %s: %lld iterations, largest error of 16 groups %.4f, Wasserstein %.4f\n",
                smoothing ? "EMS" : "EM", static_cast<long long>(fit.iterations), worst, w1);
    EXPECT_LT(worst, smoothing ? 0.015 : 0.03);
    EXPECT_LT(w1, smoothing ? 0.004 : 0.008);
  }
}

// EMS's estimate is smoother than EM's on the same histogram (total variation over the bins:
// measured 0.57 against 0.016), and sw_smooth is the binomial filter with renormalized ends.
TEST(RangeSquareWave, EmsSmooths) {
  std::vector<double> t{0, 0, 1, 0, 0};
  ldp::sw_smooth(t);
  EXPECT_EQ(t, (std::vector<double>{0, 0.25, 0.5, 0.25, 0}));
  std::vector<double> ends{3, 0, 0, 0, 6};
  ldp::sw_smooth(ends);
  EXPECT_EQ(ends[0], 2);
  EXPECT_EQ(ends[4], 4);
  std::vector<double> flat(7, 1.0 / 7);
  ldp::sw_smooth(flat);
  for (double f : flat) EXPECT_NEAR(f, 1.0 / 7, 1e-17);

  const SwGrid g = ldp::sw_grid(1, 10);
  const SwKernel kernel(g);
  const Sample s = sample(g, 50000, 2);
  SwEmOptions em, ems;
  ems.smoothing = true;
  const double tv_em = total_variation(kernel.em(s.hist.data(), em).theta);
  const double tv_ems = total_variation(kernel.em(s.hist.data(), ems).theta);
  std::printf("[ SW       ] total variation: EM %.4f, EMS %.4f\n", tv_em, tv_ems);
  EXPECT_LT(tv_ems, tv_em / 2);
}

// Where a bin is one bucket (2^k <= 1024), the devices' values are the bins' centres: the
// matrix of centres fits them, the paper's uniform bins smear each over its bin. 10^6
// reports at ε = 4 over 16 buckets, EM run to convergence: the centres' estimate is within
// 0.002 of every bucket's share (measured 0.0007), the uniform model's misses one by more
// than 0.004 (measured 0.006, and no better at 4·10^6: a bias).
TEST(RangeSquareWave, CentresFitSmallDomains) {
  const SwGrid centres = ldp::sw_grid(4, 4);
  const SwGrid uniform = ldp::sw_grid(4, 4, 16, 16, ldp::SwBinValues::Uniform);
  std::vector<double> share(16);
  double total = 0;
  for (int b = 0; b < 16; ++b) total += share[static_cast<size_t>(b)] = 1 + 3 * std::exp(-std::pow((b + 0.5) / 16 - 0.35, 2) / 0.01);
  std::vector<double> cdf(16), truth(16, 0.0);
  for (int b = 0; b < 16; ++b) cdf[static_cast<size_t>(b)] = (b ? cdf[static_cast<size_t>(b) - 1] : 0) + share[static_cast<size_t>(b)] / total;
  std::vector<int64_t> hist(16, 0);
  ldp::SeededRandom rng(1);
  const int n = 1000000;
  for (int u = 0; u < n; ++u) {
    const auto b = std::min<int64_t>(15, std::lower_bound(cdf.begin(), cdf.end(), rng.uniform()) - cdf.begin());
    truth[static_cast<size_t>(b)] += 1.0 / n;
    ldp::sw_add_report(centres, hist.data(), ldp::sw_encode(centres, b, rng));
  }
  SwEmOptions o;
  o.max_iterations = ldp::kSwMaxIterations;
  o.loglik_threshold = 1e-6;
  double worst[2] = {0, 0};
  for (int m = 0; m < 2; ++m) {
    const ldp::SwEmResult fit = SwKernel(m == 0 ? centres : uniform).em(hist.data(), o);
    for (size_t b = 0; b < 16; ++b) worst[m] = std::max(worst[m], std::fabs(fit.theta[b] - truth[b]));
  }
  std::printf("[ SW       ] 16 buckets: largest error, centres %.4f, uniform bins %.4f\n", worst[0], worst[1]);
  EXPECT_LT(worst[0], 0.002);
  EXPECT_GT(worst[1], 0.004);
}

TEST(RangeSquareWave, GroupShares) {
  const SwGrid g = ldp::sw_grid(1, 12, 4, 4);  // 4 bins of 1024 buckets
  const std::vector<double> theta{0.1, 0.2, 0.3, 0.4};
  EXPECT_EQ(groups(g, theta, 2), (std::vector<double>{0.1 + 0.2, 0.3 + 0.4}));
  const std::vector<double> eight = groups(g, theta, 8);  // halves of bins
  for (size_t b = 0; b < 8; ++b) EXPECT_DOUBLE_EQ(eight[b], theta[b / 2] / 2);
  const std::vector<double> three = groups(g, theta, 3);  // buckets [0,1365), [1365,2730), [2730,4096)
  EXPECT_NEAR(three[0], 0.1 + 0.2 * 341 / 1024, 1e-15);
  EXPECT_NEAR(three[0] + three[1] + three[2], 1, 1e-15);
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { groups(g, theta, 0); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { groups(g, theta, 4097); }));
}

// The bootstrap: the same seed gives the same answer, bit for bit; another seed other
// standard errors; the point estimate is the EM's; fewer than 2 replicates give none; the
// work is refused before it starts past the limit.
TEST(RangeSquareWave, BootstrapDeterministicForASeed) {
  const SwGrid g = ldp::sw_grid(1, 6);
  const Sample s = sample(g, 20000, 3);
  ldp::SwDensityQuery q;
  q.bins = 8;
  q.replicates = 20;
  q.seed = 7;
  const ldp::SwDensity a = ldp::sw_density(g, s.hist.data(), q);
  const ldp::SwDensity b = ldp::sw_density(g, s.hist.data(), q);
  ASSERT_EQ(a.bins.size(), 8u);
  EXPECT_EQ(a.replicates, 20);
  const std::vector<double> point = groups(g, a.fit.theta, 8);
  for (size_t k = 0; k < 8; ++k) {
    EXPECT_EQ(a.bins[k].frequency, b.bins[k].frequency);
    EXPECT_EQ(a.bins[k].std_error, b.bins[k].std_error);
    EXPECT_EQ(a.bins[k].frequency, point[k]);
    EXPECT_GT(a.bins[k].std_error, 0);
    EXPECT_LT(a.bins[k].std_error, 0.05);
    EXPECT_EQ(a.bins[k].first, static_cast<int64_t>(k) * 8);
    EXPECT_EQ(a.bins[k].last, static_cast<int64_t>(k) * 8 + 7);
  }
  q.seed = 8;
  const ldp::SwDensity c = ldp::sw_density(g, s.hist.data(), q);
  int differ = 0;
  for (size_t k = 0; k < 8; ++k) {
    EXPECT_EQ(c.bins[k].frequency, a.bins[k].frequency);
    differ += c.bins[k].std_error != a.bins[k].std_error;
  }
  EXPECT_EQ(differ, 8);
  for (int r : {0, 1}) {
    q.replicates = r;
    const ldp::SwDensity d = ldp::sw_density(g, s.hist.data(), q);
    EXPECT_TRUE(std::isnan(d.bins[0].std_error));
    EXPECT_EQ(d.bins[0].frequency, a.bins[0].frequency);
  }
  // no report: no bins
  const std::vector<int64_t> empty(static_cast<size_t>(g.d_out), 0);
  q.replicates = 5;
  EXPECT_TRUE(ldp::sw_density(g, empty.data(), q).bins.empty());
  // refusals
  q.replicates = ldp::kSwMaxReplicates + 1;
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::sw_density(g, s.hist.data(), q); }));
  q.replicates = -1;
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::sw_density(g, s.hist.data(), q); }));
  q.replicates = 50;
  q.bins = 65;
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::sw_density(g, s.hist.data(), q); }));
  q.bins = 8;
  q.limits.max_work = 51.0 * 10000 * 128 - 1;  // 51 runs of 10^4 iterations over 64 + 64 cells
  EXPECT_TRUE(ThrowsKind(ErrorKind::LimitExceeded, [&] { ldp::sw_density(g, s.hist.data(), q); }));
  q.em.max_iterations = ldp::kSwMaxIterations + 1;
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::sw_density(g, s.hist.data(), q); }));
}

TEST(Binomial, MultinomialCountsKeepTheTotal) {
  ldp::SeededRandom rng(1), again(1);
  const std::vector<int64_t> w{0, 5, 1000000, 3, 0, 70000};
  const std::vector<int64_t> a = ldp::multinomial_counts(rng, w.data(), w.size());
  EXPECT_EQ(a, ldp::multinomial_counts(again, w.data(), w.size()));
  int64_t total = 0;
  for (size_t i = 0; i < w.size(); ++i) {
    total += a[i];
    if (w[i] == 0) {
      EXPECT_EQ(a[i], 0);
    }
  }
  EXPECT_EQ(total, 1070008);
  EXPECT_NEAR(static_cast<double>(a[2]), 1e6, 5 * 256);  // sd = √(n·p(1 − p)) ≈ 256
  const std::vector<int64_t> bad{1, -1};
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::multinomial_counts(rng, bad.data(), bad.size()); }));
}

// ---- the range family's sw row ----

ldp::RangeProtocol sw_protocol(int k, double eps) {
  ldp::RangeProtocol p = ldp_test::range_protocol(k, eps);
  p.mechanism = ldp::RangeMechanism::Sw;
  return p;
}

// An sw summary holds the histogram: d_out = min(2^k, 1024) counts adding up to n, no sums;
// its forms, merges and refusals; 24 bits fit (its counters do not grow), HaarHRR's 23 do not.
TEST(RangeSquareWave, SummaryRow) {
  const ldp::RangeProtocol p = sw_protocol(3, 1);
  ldp_test::Range r(p);
  EXPECT_EQ(r->cells(), 8);
  EXPECT_EQ(r->segments, 0);
  const SwGrid g = ldp::sw_grid_of(p);
  ldp::range_add_sw_report(r.get(), g, g.lo);
  ldp::range_add_sw_report(r.get(), g, g.hi);
  ldp::range_add_sw_report(r.get(), g, 0.5);
  EXPECT_EQ(r->n, 3);
  const int64_t mid = ldp::sw_report_bucket(g, 0.5);
  std::string buckets;
  for (int64_t j = 0; j < 8; ++j) buckets += std::string(j ? "," : "") + (j == 0 || j == 7 || j == mid ? "1" : "0");
  EXPECT_EQ(r.text(), "v1:sw{epsilon=1,domain_bits=3,mapping=floor,n=3,buckets=[" + buckets + "]}");
  EXPECT_EQ(ldp_test::Range::from_text(r.text()).text(), r.text());
  EXPECT_EQ(ldp_test::Range::from_binary(r.binary()).text(), r.text());
  // the codec checks Σ counts = n
  for (const char* bad : {"v1:sw{epsilon=1,domain_bits=1,mapping=floor,n=3,buckets=[1,1]}",
                          "v1:sw{epsilon=1,domain_bits=1,mapping=floor,n=1,buckets=[1,1]}",
                          "v1:sw{epsilon=1,domain_bits=1,mapping=floor,n=0,buckets=[-1,1]}",
                          "v1:sw{epsilon=1,domain_bits=1,mapping=floor,n=2,buckets=[1,1],sums=[0]}",
                          "v1:sw{epsilon=1,domain_bits=1,mapping=floor,n=2,buckets=[2]}"})
    EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidText, [&] { ldp_test::Range::from_text(bad); })) << bad;
  // reports: refused out of the wave's range, and across wire formats
  EXPECT_TRUE(ThrowsKind(ErrorKind::ImpossibleReport, [&] { ldp::range_add_sw_report(r.get(), g, 2.0); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::ImpossibleReport, [&] { ldp::range_add_report(r.get(), 0, 0, true); }));
  ldp_test::Range haar(ldp_test::range_protocol(3, 1));
  EXPECT_TRUE(ThrowsKind(ErrorKind::ImpossibleReport, [&] { ldp::range_add_sw_report(haar.get(), g, 0.5); }));
  EXPECT_EQ(r->n, 3);
  ldp::SeededRandom rng(1);
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::range_encode(p, 1.0, rng); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::range_sw_encode(haar->protocol, 1.0, rng); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::range_sw_encode(p, std::nan(""), rng); }));
  const double y = ldp::range_sw_encode(p, 5.0, rng);  // bucket 5: v = 5.5/8
  EXPECT_TRUE(y >= g.lo && y <= g.hi);
  // merges add; another mechanism is another protocol
  ldp_test::Range twice(p);
  ldp::range_summary_merge(twice.get(), *r);
  ldp::range_summary_merge(twice.get(), *r);
  EXPECT_EQ(twice->n, 6);
  EXPECT_EQ(twice->counters()[0], 2);
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::range_summary_merge(twice.get(), *haar); }));
  // the cap
  EXPECT_EQ(ldp::range_summary_size(sw_protocol(24, 1)), sizeof(ldp::RangeSummary) + 8 * 1024);
  EXPECT_TRUE(ThrowsKind(ErrorKind::LimitExceeded, [] { ldp::range_summary_size(ldp_test::range_protocol(23, 1)); }));
}

// The decode: no linear answers (the accessors refuse, naming themselves); density answers
// from the prepared copy of the counts as from the histogram; a haar summary has no density.
TEST(RangeSquareWave, PreparedDecodeAnswersDensityOnly) {
  const ldp::RangeProtocol p = sw_protocol(6, 2);
  const ldp_test::Range r = ldp_test::simulate_range(p, 5000, 3, [](int64_t i) { return double(i % 40 + 10); });
  ldp_test::RangeDecode d(*r);
  EXPECT_FALSE(ldp::range_has_linear(p));
  EXPECT_TRUE(ldp::range_has_linear(ldp_test::range_protocol(6, 2)));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::range_require_linear(p, "histogram"); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::range_prepare_quantiles(d.get()); }));
  ldp::SwDensityQuery q;
  q.bins = 4;
  q.replicates = 3;
  const ldp::SwDensity a = ldp::range_density(*d.get(), q);
  const ldp::SwDensity b = ldp::sw_density(ldp::sw_grid_of(p), r->counters(), q);
  ASSERT_EQ(a.bins.size(), 4u);
  for (size_t k = 0; k < 4; ++k) {
    EXPECT_EQ(a.bins[k].frequency, b.bins[k].frequency);
    EXPECT_EQ(a.bins[k].std_error, b.bins[k].std_error);
  }
  const double truth[4] = {6 / 40.0, 16 / 40.0, 16 / 40.0, 2 / 40.0};  // the values 10..49 of 64
  for (size_t k = 0; k < 4; ++k) EXPECT_NEAR(a.bins[k].frequency, truth[k], 0.1) << k;
  const ldp_test::Range haar = ldp_test::simulate_range(ldp_test::range_protocol(6, 2), 100, 3,
                                                        [](int64_t i) { return double(i % 64); });
  ldp_test::RangeDecode hd(*haar);
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::range_density(*hd.get(), q); }));
}

// ---- the cross-check with the authors' code ----

const std::string kDir = std::string(LDP_TEST_DATA_DIR) + "/sw/";

std::vector<std::string> lines(const std::string& name) {
  std::ifstream in(kDir + name);
  EXPECT_TRUE(in.good()) << "cannot open " << kDir + name;
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.push_back(line);
  return out;
}

std::string param(const std::string& key) {
  for (const std::string& l : lines("params.txt"))
    if (l.compare(0, key.size() + 1, key + "\t") == 0) return l.substr(key.size() + 1);
  ADD_FAILURE() << "no " << key << " in params.txt";
  return "";
}

std::vector<double> doubles(const std::string& name) {
  std::vector<double> out;
  for (const std::string& l : lines(name)) out.push_back(std::stod(l));
  return out;
}

// sw.py's EMS leaves the last bin unsmoothed (its smoothing matrix's last row is the
// identity's): the cross-check runs our EMS with that step to compare the rest.
void authors_smooth(std::vector<double>& t) {
  const double last = t.back();
  ldp::sw_smooth(t);
  t.back() = last;
}

ldp::SwStop stop_named(const std::string& s) {
  if (s == "loglik") return ldp::SwStop::LogLikelihood;
  if (s == "step") return ldp::SwStop::Step;
  return ldp::SwStop::Cap;
}

// On sw.py's reports (2,000 at ε = 1; a histogram of 100,000 at ε = 2), at its grid of
// 1024 × 1024: the same histogram, its wave's width, its matrix's entries to 1e-12, and EM's
// (and EMS's, with its smoothing step) estimates to 1e-9 relative after the same number of
// iterations stopped by the same rule. Measured: 2e-13 (matrix), 4e-12 (EM), 1e-13 (EMS).
TEST(RangeSquareWave, MatchesTheAuthorsCode) {
  for (const std::string name : {"small", "large"}) {
    const double eps = std::stod(param(name + ".epsilon"));
    const SwGrid g = ldp::sw_grid(eps, 10, 1024, 1024, ldp::SwBinValues::Uniform);  // sw.py's model
    EXPECT_NEAR(2 * g.wave.half_width, std::stod(param(name + ".w")), 1e-15) << name;
    std::vector<int64_t> hist;
    for (const std::string& l : lines(name + "_hist.txt")) hist.push_back(std::stoll(l));
    ASSERT_EQ(hist.size(), 1024u);
    if (name == "small") {
      std::vector<int64_t> ours(1024, 0);
      for (double y : doubles("small_reports.txt")) ldp::sw_add_report(g, ours.data(), y);
      EXPECT_EQ(ours, hist);
    }
    const SwKernel kernel(g);
    if (name == "small") {
      const double floor = std::stod(param("small.floor"));
      EXPECT_NEAR(kernel.entry(1023, 0), floor, 1e-12 * floor);
      size_t checked = 0;
      for (const std::string& l : lines("small_transform.txt")) {
        std::istringstream in(l);
        int64_t i = 0, j = 0;
        std::string t;
        in >> i >> j >> t;
        const double theirs = std::stod(t);
        ASSERT_NEAR(kernel.entry(j, i), theirs, 1e-12 * theirs) << "T[" << j << "][" << i << "]";
        ++checked;
      }
      EXPECT_GT(checked, 600u);
    }
    for (const std::string est : {"em", "ems"}) {
      SwEmOptions o;
      o.smoothing = est == "ems";
      const ldp::SwEmResult fit = kernel.em(hist.data(), o, o.smoothing ? authors_smooth : ldp::sw_smooth);
      EXPECT_EQ(fit.iterations, std::stoll(param(name + "." + est + ".iterations"))) << name << " " << est;
      EXPECT_EQ(fit.stop, stop_named(param(name + "." + est + ".stop"))) << name << " " << est;
      const std::vector<double> theirs = doubles(name + "_" + est + ".txt");
      ASSERT_EQ(theirs.size(), 1024u);
      double worst = 0;
      for (size_t i = 0; i < theirs.size(); ++i)
        worst = std::max(worst, std::fabs(fit.theta[i] - theirs[i]) / theirs[i]);
      std::printf("[ SW       ] %s %s: %lld iterations, largest relative difference %.2g\n", name.c_str(), est.c_str(),
                  static_cast<long long>(fit.iterations), worst);
      EXPECT_LT(worst, 1e-9) << name << " " << est;
    }
  }
}

}  // namespace
