// HaarHRR (core/range/haar.hpp) and the quantile search (core/range/range_quantile.hpp):
// the mapping, the report's sign against the Haar vector written out, exact recovery of
// a distribution from noiseless counters, and seeded trials of unbiasedness, variance,
// interval coverage and quantile rank coverage.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "core/common/error.hpp"
#include "core/common/random.hpp"
#include "core/oracles/hadamard_response.hpp"
#include "core/range/haar.hpp"
#include "core/range/range_protocol.hpp"
#include "core/range/range_quantile.hpp"

namespace {

using ldp::HaarCounts;
using ldp::HaarDecoded;
using ldp::RangeMapping;
using ldp::RangeProtocol;

RangeProtocol proto(int k, double eps) {
  RangeProtocol p;
  p.domain_bits = k;
  p.epsilon = eps;
  return p;
}

TEST(RangeProtocol, Mappings) {
  RangeProtocol p = proto(4, 1);
  EXPECT_EQ(ldp::range_bucket(p, 3.7), 3);
  EXPECT_EQ(ldp::range_bucket(p, -2), 0);
  EXPECT_EQ(ldp::range_bucket(p, 99), 15);
  EXPECT_EQ(ldp::range_bucket(p, std::numeric_limits<double>::infinity()), 15);
  EXPECT_EQ(ldp::range_bucket(p, -std::numeric_limits<double>::infinity()), 0);
  EXPECT_THROW(ldp::range_bucket(p, std::nan("")), ldp::Error);
  EXPECT_EQ(ldp::range_bucket_lower(p, 5), 5);
  EXPECT_EQ(ldp::range_bucket_upper(p, 5), 6);
  p.mapping = RangeMapping::Linear;
  p.lo = 10;
  p.hi = 26;  // width 1
  EXPECT_EQ(ldp::range_bucket(p, 10), 0);
  EXPECT_EQ(ldp::range_bucket(p, 25.99), 15);
  EXPECT_EQ(ldp::range_bucket(p, 26), 15);
  EXPECT_DOUBLE_EQ(ldp::range_bucket_lower(p, 3), 13);
  p.mapping = RangeMapping::Log;
  p.lo = 1;
  p.hi = 65536;  // a bucket per doubling
  EXPECT_EQ(ldp::range_bucket(p, 1), 0);
  EXPECT_EQ(ldp::range_bucket(p, 0.5), 0);
  EXPECT_EQ(ldp::range_bucket(p, 1000), 9);  // 2^9 <= 1000 < 2^10
  EXPECT_NEAR(ldp::range_bucket_lower(p, 10), 1024, 1e-9);
  ldp::validate_range_protocol(p);
  p.lo = 0;
  EXPECT_THROW(ldp::validate_range_protocol(p), ldp::Error);
  RangeProtocol q = proto(25, 1);
  EXPECT_THROW(ldp::validate_range_protocol(q), ldp::Error);
}

// The sign a device randomizes is s·H[r][p] of the level's signed one-hot vector,
// written out here as a vector and a matrix product.
TEST(RangeHaar, TrueSignIsTheHaarVectorTimesTheHadamardRow) {
  const int k = 5;
  const int64_t d = int64_t{1} << k;
  for (int j = 0; j < k; ++j) {
    const int64_t m = int64_t{1} << j, size = d / m;
    for (int64_t v = 0; v < d; ++v) {
      std::vector<int> vec(static_cast<size_t>(m), 0);
      vec[static_cast<size_t>(v / size)] = (v % size) < size / 2 ? 1 : -1;
      for (int64_t r = 0; r < m; ++r) {
        int dot = 0;
        for (int64_t q = 0; q < m; ++q)
          dot += vec[static_cast<size_t>(q)] * (ldp::hadamard_plus(r, q) ? 1 : -1);
        ASSERT_EQ(ldp::haar_true_sign(k, v, j, r), dot == 1) << "v " << v << " level " << j << " row " << r;
      }
    }
  }
}

// Noiseless counters (ε = 700: c = 1 and no flips; every level sees every user on every
// row) give back the distribution exactly: every prefix and range.
TEST(RangeHaar, NoiselessCountersGiveTheDistributionBack) {
  const int k = 6;
  const int64_t d = int64_t{1} << k;
  const std::vector<int64_t> users = {0, 0, 1, 5, 17, 17, 17, 30, 31, 32, 40, 63, 63, 9, 9, 22};
  RangeProtocol p = proto(k, 700);
  HaarCounts counts(k);
  for (int j = 0; j < k; ++j)
    for (int64_t r = 0; r < (int64_t{1} << j); ++r)
      for (int64_t v : users) counts.add(j, r, ldp::haar_true_sign(k, v, j, r));
  HaarDecoded dec(p, counts);
  std::vector<double> cdf(static_cast<size_t>(d), 0);
  for (int64_t v : users)
    for (int64_t x = v; x < d; ++x) cdf[static_cast<size_t>(x)] += 1.0 / static_cast<double>(users.size());
  for (int64_t x = 0; x < d; ++x) EXPECT_NEAR(dec.prefix(x).estimate, cdf[static_cast<size_t>(x)], 1e-12) << x;
  for (int64_t lo = 0; lo < d; lo += 3)
    for (int64_t hi = lo; hi < d; hi += 5) {
      const double truth = cdf[static_cast<size_t>(hi)] - (lo > 0 ? cdf[static_cast<size_t>(lo - 1)] : 0);
      EXPECT_NEAR(dec.range(lo, hi).estimate, truth, 1e-12) << lo << ".." << hi;
    }
}

TEST(RangeHaar, RefusesReportsOutsideTheTree) {
  HaarCounts c(4);
  EXPECT_THROW(c.add(4, 0, true), ldp::Error);
  EXPECT_THROW(c.add(-1, 0, true), ldp::Error);
  EXPECT_THROW(c.add(2, 4, true), ldp::Error);
  c.add(3, 7, false);
  EXPECT_EQ(c.reports(), 1);
}

// A population of 64 buckets, skewed; seeded trials of n reports each.
struct Trials {
  std::vector<double> pmf;
  std::vector<double> cdf;
  explicit Trials(int64_t d) : pmf(static_cast<size_t>(d)), cdf(static_cast<size_t>(d)) {
    double t = 0;
    for (int64_t v = 0; v < d; ++v) t += pmf[static_cast<size_t>(v)] = std::exp(-0.08 * static_cast<double>(v)) + 0.05;
    double acc = 0;
    for (int64_t v = 0; v < d; ++v) cdf[static_cast<size_t>(v)] = acc += pmf[static_cast<size_t>(v)] /= t;
  }
  int64_t draw(ldp::RandomSource& rng) const {
    const double u = rng.uniform();
    for (size_t v = 0; v < cdf.size(); ++v)
      if (u < cdf[v]) return static_cast<int64_t>(v);
    return static_cast<int64_t>(cdf.size()) - 1;
  }
  double range(int64_t lo, int64_t hi) const {
    return cdf[static_cast<size_t>(hi)] - (lo > 0 ? cdf[static_cast<size_t>(lo - 1)] : 0);
  }
};

// Unbiased, with the variance the formula gives, and 95% intervals that cover 93.5–96.5%
// of 2,000 seeded checks; quantile intervals cover the true quantile's bucket.
TEST(RangeHaar, SeededTrialsUnbiasedVarianceCoverage) {
  const int k = 6;
  const int64_t d = int64_t{1} << k, n = 20000;
  const RangeProtocol p = proto(k, 1.0);
  const Trials pop(d);
  const std::vector<std::pair<int64_t, int64_t>> ranges = {{0, 9}, {3, 40}, {20, 21}, {33, 63}, {7, 7}};
  const std::vector<double> phis = {0.1, 0.5, 0.9};
  const int trials = 400;
  std::vector<double> sum(ranges.size()), sumsq(ranges.size()), predicted(ranges.size());
  int covered = 0, checks = 0, q_covered = 0, q_checks = 0;
  for (int t = 0; t < trials; ++t) {
    ldp::SeededRandom rng(0x5eed0000u + static_cast<uint64_t>(t));
    HaarCounts counts(k);
    for (int64_t i = 0; i < n; ++i) {
      const ldp::RangeReport r = ldp::haar_encode(p, pop.draw(rng), rng);
      counts.add(r.level, r.row, r.plus_one);
    }
    HaarDecoded dec(p, counts);
    for (size_t i = 0; i < ranges.size(); ++i) {
      const ldp::LinearAnswer a = dec.range(ranges[i].first, ranges[i].second);
      const double truth = pop.range(ranges[i].first, ranges[i].second);
      sum[i] += a.estimate;
      sumsq[i] += (a.estimate - truth) * (a.estimate - truth);
      predicted[i] += a.variance;
      covered += std::fabs(a.estimate - truth) <= 1.959964 * std::sqrt(a.variance);
      ++checks;
    }
    ldp::CdfIndex index(d, [&](int64_t x) { return dec.prefix(x); });
    for (double phi : phis) {
      const ldp::QuantileAnswer q = index.quantile(phi, 1.959964);
      int64_t truth = 0;
      while (pop.cdf[static_cast<size_t>(truth)] < phi) ++truth;
      q_covered += q.lower <= truth && truth <= q.upper;
      ++q_checks;
      EXPECT_LE(q.lower, q.bucket);
      EXPECT_LE(q.bucket, q.upper);
    }
  }
  for (size_t i = 0; i < ranges.size(); ++i) {
    const double truth = pop.range(ranges[i].first, ranges[i].second);
    const double mse = sumsq[i] / trials, pv = predicted[i] / trials;
    EXPECT_NEAR(sum[i] / trials, truth, 4 * std::sqrt(pv / trials)) << "range " << i;
    EXPECT_NEAR(mse / pv, 1.0, 0.15) << "range " << i << ": mse " << mse << " predicted " << pv;
  }
  const double coverage = static_cast<double>(covered) / checks;
  EXPECT_GE(coverage, 0.935);
  EXPECT_LE(coverage, 0.965);
  const double q_coverage = static_cast<double>(q_covered) / q_checks;
  EXPECT_GE(q_coverage, 0.935) << q_covered << " of " << q_checks;
  RecordProperty("coverage", std::to_string(coverage));
  RecordProperty("quantile_coverage", std::to_string(q_coverage));
}

}  // namespace
