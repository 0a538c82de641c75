// Hierarchical histograms (core/range/hh.hpp): the tree when log2 B does not divide k,
// the report's sign, per-level debiased counts by hand, noiseless recovery, the
// consistency and every answer's variance against a dense least-squares solution,
// unidentified answers, seeded trials (unbiasedness, MSE against the variance, interval
// and quantile coverage), the protocol's and the summary's forms with hh, the builder's
// branching, and merges refused across mechanisms and branchings.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <tuple>
#include <vector>

#include "core/common/error.hpp"
#include "core/common/random.hpp"
#include "core/oracles/hadamard_response.hpp"
#include "core/range/haar.hpp"
#include "core/range/hh.hpp"
#include "core/range/range_protocol.hpp"
#include "core/range/range_quantile.hpp"
#include "core/range/range_summary.hpp"
#include "range_test_support.hpp"
#include "test_support.hpp"

namespace {

using ldp::ErrorKind;
using ldp::RangeProtocol;
using ldp_test::Range;
using ldp_test::RangeDecode;
using ldp_test::ThrowsKind;

RangeProtocol hh(int k, double eps, int64_t branching) { return ldp_test::hh_protocol(k, eps, branching); }

TEST(RangeHh, TheTreeBranchesBy2AtTheTopWhenLog2BDoesNotDivideK) {
  struct Case {
    int k, b;
    std::vector<int> bits;
  };
  for (const Case& c : std::vector<Case>{{5, 4, {1, 3, 5}},
                                         {4, 4, {2, 4}},
                                         {1, 4, {1}},
                                         {5, 2, {1, 2, 3, 4, 5}},
                                         {16, 4, {2, 4, 6, 8, 10, 12, 14, 16}}}) {
    const ldp::HhShape sh = ldp::hh_shape(hh(c.k, 1, c.b));
    ASSERT_EQ(sh.levels, static_cast<int>(c.bits.size())) << c.k << " " << c.b;
    for (int l = 1; l <= sh.levels; ++l) EXPECT_EQ(sh.bits[l], c.bits[static_cast<size_t>(l - 1)]) << c.k;
  }
  // the counters: h level counts, then 2^bits(ℓ) sums per level
  Range r(hh(5, 1, 4));
  EXPECT_EQ(r->cells(), 3 + 2 + 8 + 32);
  EXPECT_EQ(r->first_level, 1);
}

// The sign a device randomizes is H[r][p] for its node p at level ℓ: the level's one-hot
// vector times the Hadamard row, written out; every report lands in its level's segment.
TEST(RangeHh, TrueSignIsTheOneHotVectorTimesTheHadamardRow) {
  for (int b : {2, 4}) {
    const RangeProtocol p = hh(5, 1, b);
    const ldp::HhShape sh = ldp::hh_shape(p);
    for (int l = 1; l <= sh.levels; ++l)
      for (int64_t v = 0; v < 32; ++v)
        for (int64_t r = 0; r < sh.nodes(l); ++r) {
          int dot = 0;
          for (int64_t q = 0; q < sh.nodes(l); ++q)
            dot += (q == (v >> (5 - sh.bits[l])) ? 1 : 0) * (ldp::hadamard_plus(r, q) ? 1 : -1);
          ASSERT_EQ(ldp::hh_true_sign(p, v, l, r), dot == 1) << "b " << b << " v " << v << " level " << l;
        }
    ldp::SeededRandom rng(4);
    for (int i = 0; i < 200; ++i) {
      const ldp::RangeReport rep = ldp::hh_encode(p, i % 32, rng);
      ASSERT_GE(rep.level, 1);
      ASSERT_LE(rep.level, sh.levels);
      ASSERT_LT(rep.row, sh.nodes(rep.level));
    }
  }
}

// k = 2, B = 2: levels of 2 and 4 nodes. x̂_ℓ = c/n_ℓ · FWHT(S_ℓ), by hand.
TEST(RangeHh, PerLevelDebiasedCountsByHand) {
  Range r(hh(2, 1, 2));
  for (auto [level, row, bit] : std::vector<std::tuple<int, int, bool>>{
           {1, 0, true}, {1, 1, false}, {1, 1, false}, {2, 0, true}, {2, 3, true}, {2, 2, false}, {2, 1, true}})
    ldp::range_add_report(r.get(), level, row, bit);
  EXPECT_EQ(r.text(), "v1:hh{epsilon=1,domain_bits=2,branching=2,mapping=floor,n=7,levels=[3,4],sums=[1,-2,1,1,-1,1]}");
  const double c = ldp::haar_c(1);
  // S_1 = [1, -2]: FWHT = [-1, 3]; S_2 = [1, 1, -1, 1]: FWHT = [2, -2, 2, 2]
  const std::vector<double> x1 = ldp::hh_level_estimates(*r, 1), x2 = ldp::hh_level_estimates(*r, 2);
  const std::vector<double> want1 = {-c / 3, 3 * c / 3}, want2 = {2 * c / 4, -2 * c / 4, 2 * c / 4, 2 * c / 4};
  for (size_t q = 0; q < 2; ++q) EXPECT_DOUBLE_EQ(x1[q], want1[q]) << q;
  for (size_t q = 0; q < 4; ++q) EXPECT_DOUBLE_EQ(x2[q], want2[q]) << q;
}

// ε = 700 (c = 1, no flips) and every level seeing every user on every row: the
// estimates are the truth, the consistent tree too, and so is every prefix and range.
TEST(RangeHh, NoiselessCountersGiveTheDistributionBack) {
  for (int b : {2, 4}) {
    const RangeProtocol p = hh(5, 700, b);
    const ldp::HhShape sh = ldp::hh_shape(p);
    const std::vector<int64_t> users = {0, 0, 1, 5, 17, 17, 17, 30, 31, 9, 9, 22, 3};
    Range r(p);
    for (int l = 1; l <= sh.levels; ++l)
      for (int64_t row = 0; row < sh.nodes(l); ++row)
        for (int64_t v : users) ldp::range_add_report(r.get(), l, row, ldp::hh_true_sign(p, v, l, row));
    RangeDecode d(*r);
    std::vector<double> cdf(32, 0);
    for (int64_t v : users)
      for (int64_t x = v; x < 32; ++x) cdf[static_cast<size_t>(x)] += 1.0 / static_cast<double>(users.size());
    for (int64_t x = 0; x < 32; ++x) EXPECT_NEAR(d.prefix(x).estimate, cdf[static_cast<size_t>(x)], 1e-12) << x;
    for (int64_t lo = 1; lo < 32; lo += 3)
      for (int64_t hi = lo; hi < 32; hi += 4)
        EXPECT_NEAR(d.range(lo, hi).estimate, cdf[static_cast<size_t>(hi)] - cdf[static_cast<size_t>(lo - 1)], 1e-12);
  }
}

// ---- the consistency against a dense least-squares solution ----

// Reports of a population with unequal level sizes (weights per level; 0: none).
Range reports(const RangeProtocol& p, const std::vector<double>& level_weights, int64_t n, uint64_t seed) {
  const ldp::HhShape sh = ldp::hh_shape(p);
  const int64_t d = p.domain();
  Range r(p);
  ldp::SeededRandom rng(seed);
  double total = 0;
  for (double w : level_weights) total += w;
  const double keep = std::exp(p.epsilon) / (std::exp(p.epsilon) + 1);
  for (int64_t i = 0; i < n; ++i) {
    // a smooth population over every bucket: 1 + a bump
    int64_t v = static_cast<int64_t>(rng.below(static_cast<uint64_t>(d)));
    if (rng.bernoulli(0.4)) v = std::min<int64_t>(d - 1, static_cast<int64_t>(rng.below(static_cast<uint64_t>(d / 4))) + d / 3);
    double u = rng.uniform() * total;
    int l = 1;
    while (l < sh.levels && u >= level_weights[static_cast<size_t>(l - 1)]) u -= level_weights[static_cast<size_t>(l++ - 1)];
    const int64_t row = static_cast<int64_t>(rng.below(static_cast<uint64_t>(sh.nodes(l))));
    const bool truth = ldp::hh_true_sign(p, v, l, row);
    ldp::range_add_report(r.get(), l, row, rng.bernoulli(keep) ? truth : !truth);
  }
  return r;
}

// Gauss–Jordan inverse of a dense symmetric system (small).
std::vector<std::vector<double>> inverse(std::vector<std::vector<double>> m) {
  const size_t n = m.size();
  std::vector<std::vector<double>> inv(n, std::vector<double>(n, 0));
  for (size_t i = 0; i < n; ++i) inv[i][i] = 1;
  for (size_t col = 0; col < n; ++col) {
    size_t piv = col;
    for (size_t r = col + 1; r < n; ++r)
      if (std::fabs(m[r][col]) > std::fabs(m[piv][col])) piv = r;
    std::swap(m[col], m[piv]);
    std::swap(inv[col], inv[piv]);
    const double d = m[col][col];
    for (size_t j = 0; j < n; ++j) m[col][j] /= d, inv[col][j] /= d;
    for (size_t r = 0; r < n; ++r)
      if (r != col && m[r][col] != 0) {
        const double f = m[r][col];
        for (size_t j = 0; j < n; ++j) m[r][j] -= f * m[col][j], inv[r][j] -= f * inv[col][j];
      }
  }
  return inv;
}

// The weighted least-squares leaves z (weights n_ℓ, Σ z = 1) written as K·(Σ n_ℓ A_ℓᵀ x̂_ℓ)
// + k1, and for a range its estimate and exact variance Σ_ℓ (c²|a_ℓ|² − (a_ℓ·f̃_ℓ)²)/n_ℓ,
// a = the range's weights on each level's x̂, f̃ the consistent node shares.
struct Dense {
  RangeProtocol p;
  ldp::HhShape sh;
  int64_t d;
  std::vector<int64_t> n;                 // per level (index ℓ)
  std::vector<std::vector<double>> x;     // x̂ per level
  std::vector<std::vector<double>> kinv;  // the KKT inverse
  std::vector<double> z;

  explicit Dense(const ldp::RangeSummary& s) : p(s.protocol), sh(ldp::hh_shape(p)), d(p.domain()) {
    n.assign(static_cast<size_t>(sh.levels + 1), 0);
    x.resize(static_cast<size_t>(sh.levels + 1));
    std::vector<std::vector<double>> m(static_cast<size_t>(d + 1), std::vector<double>(static_cast<size_t>(d + 1), 0));
    std::vector<double> b(static_cast<size_t>(d + 1), 0);
    for (int l = 1; l <= sh.levels; ++l) {
      n[static_cast<size_t>(l)] = s.counters()[l - 1];
      x[static_cast<size_t>(l)] = ldp::hh_level_estimates(s, l);
      const double w = static_cast<double>(n[static_cast<size_t>(l)]);
      for (int64_t u = 0; u < d; ++u) {
        b[static_cast<size_t>(u)] += w * x[static_cast<size_t>(l)][static_cast<size_t>(node(l, u))];
        for (int64_t v = 0; v < d; ++v)
          if (node(l, u) == node(l, v)) m[static_cast<size_t>(u)][static_cast<size_t>(v)] += w;
      }
    }
    for (int64_t u = 0; u < d; ++u) m[static_cast<size_t>(u)][static_cast<size_t>(d)] = m[static_cast<size_t>(d)][static_cast<size_t>(u)] = 1;
    b[static_cast<size_t>(d)] = 1;
    kinv = inverse(m);
    z.assign(static_cast<size_t>(d), 0);
    for (int64_t u = 0; u < d; ++u)
      for (int64_t v = 0; v <= d; ++v) z[static_cast<size_t>(u)] += kinv[static_cast<size_t>(u)][static_cast<size_t>(v)] * b[static_cast<size_t>(v)];
  }
  int64_t node(int l, int64_t leaf) const { return leaf >> (p.domain_bits - sh.bits[l]); }

  ldp::LinearAnswer range(int64_t lo, int64_t hi) const {
    ldp::LinearAnswer a;
    std::vector<double> w(static_cast<size_t>(d), 0);  // Kᵀ r over the leaves
    for (int64_t u = lo; u <= hi; ++u) {
      a.estimate += z[static_cast<size_t>(u)];
      for (int64_t v = 0; v < d; ++v) w[static_cast<size_t>(v)] += kinv[static_cast<size_t>(u)][static_cast<size_t>(v)];
    }
    const double c2 = ldp::haar_c2(p.epsilon);
    for (int l = 1; l <= sh.levels; ++l) {
      const auto nl = static_cast<double>(n[static_cast<size_t>(l)]);
      if (nl == 0) continue;
      std::vector<double> al(static_cast<size_t>(sh.nodes(l)), 0), fl(al.size(), 0);
      for (int64_t v = 0; v < d; ++v) {
        al[static_cast<size_t>(node(l, v))] += nl * w[static_cast<size_t>(v)];
        fl[static_cast<size_t>(node(l, v))] += z[static_cast<size_t>(v)];
      }
      double sumsq = 0, dot = 0;
      for (size_t q = 0; q < al.size(); ++q) sumsq += al[q] * al[q], dot += al[q] * fl[q];
      a.variance += (c2 * sumsq - dot * dot) / nl;
    }
    return a;
  }
};

// Every prefix and many ranges of trees k = 3..6, B = 2 and 4, with unequal level sizes
// (and a middle level without reports), against the dense solution: estimates and exact
// variances equal to 1e-9. The population keeps every consistent leaf positive, so the
// plug-in shares need no clipping and both sides use the same ones.
TEST(RangeHh, ConsistencyAndVariancesEqualADenseLeastSquaresSolution) {
  int checked = 0;
  for (int k = 3; k <= 6; ++k)
    for (int b : {2, 4}) {
      const RangeProtocol p = hh(k, 5, b);
      const ldp::HhShape sh = ldp::hh_shape(p);
      for (int variant = 0; variant < 2; ++variant) {
        std::vector<double> weights;
        for (int l = 1; l <= sh.levels; ++l) weights.push_back(0.5 + l * l);
        if (variant == 1 && sh.levels >= 3) weights[1] = 0;  // level 2 without reports
        const Range r = reports(p, weights, 100000, 100 + static_cast<uint64_t>(k * 10 + b + variant));
        if (variant == 1 && sh.levels >= 3) ASSERT_EQ(r->counters()[1], 0);
        const Dense dense(*r);
        RangeDecode dec(*r);
        for (double zu : dense.z) ASSERT_GT(zu, 0) << "a leaf the plug-in would clip: k " << k << " b " << b;
        const int64_t d = p.domain();
        for (int64_t lo = 0; lo < d; ++lo)
          for (int64_t hi = lo; hi < d; hi += (lo == 0 ? 1 : 3)) {
            const ldp::LinearAnswer want = dense.range(lo, hi), got = dec.range(lo, hi);
            ASSERT_NEAR(got.estimate, want.estimate, 1e-9) << "k " << k << " b " << b << " [" << lo << ", " << hi << "]";
            if (hi == d - 1 && lo == 0) continue;  // the whole domain: 1 with no variance
            ASSERT_NEAR(got.variance / want.variance, 1, 1e-9)
                << "k " << k << " b " << b << " v " << variant << " [" << lo << ", " << hi << "]";
            ++checked;
          }
      }
    }
  RecordProperty("checked", checked);
}

// A leaf level without reports: the split of its parents is unknown, so an answer that
// cuts a parent has no variance (+Inf, as a HaarHRR level without reports), the rest do;
// the estimate spreads each parent evenly.
TEST(RangeHh, AnswersTheReportsDoNotIdentifyHaveNoVariance) {
  const RangeProtocol p = hh(4, 2, 2);
  const Range r = reports(p, {1, 1, 1, 0}, 5000, 3);  // level 4, the leaves, gets none
  ASSERT_EQ(r->counters()[3], 0);
  RangeDecode dec(*r);
  for (int64_t x = 0; x < 15; ++x) {
    const ldp::LinearAnswer a = dec.prefix(x);
    EXPECT_EQ(std::isinf(a.variance), x % 2 == 0) << x;  // [0, x] ends inside a pair unless x is odd
    EXPECT_TRUE(std::isfinite(a.estimate));
  }
  EXPECT_NEAR(dec.prefix(0).estimate * 2, dec.prefix(1).estimate, 1e-12);
  EXPECT_TRUE(std::isinf(dec.range(3, 4).variance));
  EXPECT_TRUE(std::isfinite(dec.range(2, 5).variance));
  EXPECT_EQ(dec.prefix(15).variance, 0);
  // no report at all: only the whole domain is known
  Range empty(p);
  RangeDecode none(*empty);
  EXPECT_TRUE(std::isinf(none.prefix(7).variance));
  EXPECT_NEAR(none.prefix(7).estimate, 0.5, 1e-12);
  EXPECT_EQ(none.prefix(15).estimate, 1);
}

// ---- seeded trials ----

// A skewed population of 32 buckets.
struct Pop {
  std::vector<double> cdf;
  Pop() : cdf(32) {
    double t = 0, acc = 0;
    std::vector<double> pmf(32);
    for (size_t v = 0; v < 32; ++v) t += pmf[v] = std::exp(-0.15 * static_cast<double>(v)) + 0.03;
    for (size_t v = 0; v < 32; ++v) cdf[v] = acc += pmf[v] / t;
  }
  int64_t draw(ldp::RandomSource& rng) const {
    const double u = rng.uniform();
    for (size_t v = 0; v < cdf.size(); ++v)
      if (u < cdf[v]) return static_cast<int64_t>(v);
    return 31;
  }
  double range(int64_t lo, int64_t hi) const {
    return cdf[static_cast<size_t>(hi)] - (lo > 0 ? cdf[static_cast<size_t>(lo - 1)] : 0);
  }
};

// Unbiased; the mean squared error within 10% of the mean exact variance (pooled over
// fixed ranges); 95% intervals covering 93.5–96.5% of 4,000 seeded random ranges;
// quantile intervals covering the true quantile's bucket.
void trials(int b) {
  const RangeProtocol p = hh(5, 1, b);
  const Pop pop;
  const int64_t n = 1200;
  const int count = 2000;
  const std::vector<std::pair<int64_t, int64_t>> fixed = {{0, 3}, {2, 12}, {5, 5}, {9, 30}, {16, 31}, {1, 22}};
  std::vector<double> sum(fixed.size()), sumsq(fixed.size()), predicted(fixed.size());
  int covered = 0, checks = 0, q_covered = 0, q_checks = 0;
  ldp::SeededRandom ranges(77 + static_cast<uint64_t>(b));
  for (int t = 0; t < count; ++t) {
    ldp::SeededRandom rng(0xb00000u + static_cast<uint64_t>(t * 4 + b));
    Range r(p);
    for (int64_t i = 0; i < n; ++i) {
      const ldp::RangeReport rep = ldp::range_encode(p, static_cast<double>(pop.draw(rng)), rng);
      ldp::range_add_report(r.get(), rep.level, rep.row, rep.plus_one);
    }
    RangeDecode dec(*r);
    for (size_t i = 0; i < fixed.size(); ++i) {
      const ldp::LinearAnswer a = dec.range(fixed[i].first, fixed[i].second);
      const double truth = pop.range(fixed[i].first, fixed[i].second);
      sum[i] += a.estimate;
      sumsq[i] += (a.estimate - truth) * (a.estimate - truth);
      predicted[i] += a.variance;
    }
    for (int j = 0; j < 2; ++j) {
      int64_t lo = static_cast<int64_t>(ranges.below(32)), hi = static_cast<int64_t>(ranges.below(32));
      if (lo > hi) std::swap(lo, hi);
      const ldp::LinearAnswer a = dec.range(lo, hi);
      covered += std::fabs(a.estimate - pop.range(lo, hi)) <= 1.959964 * std::sqrt(a.variance);
      ++checks;
    }
    const ldp::QuantileAnswer q = dec.quantile(t % 2 ? 0.5 : 0.9, 1.959964);
    int64_t truth = 0;
    while (pop.cdf[static_cast<size_t>(truth)] < (t % 2 ? 0.5 : 0.9)) ++truth;
    q_covered += q.lower <= truth && truth <= q.upper;
    ++q_checks;
  }
  double mse_total = 0, pv_total = 0;
  for (size_t i = 0; i < fixed.size(); ++i) {
    const double truth = pop.range(fixed[i].first, fixed[i].second);
    const double mse = sumsq[i] / count, pv = predicted[i] / count;
    EXPECT_NEAR(sum[i] / count, truth, 4 * std::sqrt(pv / count)) << "b " << b << " range " << i;
    EXPECT_NEAR(mse / pv, 1.0, 0.2) << "b " << b << " range " << i << ": mse " << mse << " predicted " << pv;
    mse_total += mse;
    pv_total += pv;
  }
  EXPECT_NEAR(mse_total / pv_total, 1.0, 0.1) << "b " << b;
  const double coverage = static_cast<double>(covered) / checks;
  EXPECT_GE(coverage, 0.935) << "b " << b;
  EXPECT_LE(coverage, 0.965) << "b " << b;
  const double q_coverage = static_cast<double>(q_covered) / q_checks;
  EXPECT_GE(q_coverage, 0.935) << "b " << b << ": " << q_covered << " of " << q_checks;
  testing::Test::RecordProperty("mse_over_variance_b" + std::to_string(b), std::to_string(mse_total / pv_total));
  testing::Test::RecordProperty("coverage_b" + std::to_string(b), std::to_string(coverage));
  testing::Test::RecordProperty("quantile_coverage_b" + std::to_string(b), std::to_string(q_coverage));
}

TEST(RangeHh, SeededTrialsB2) { trials(2); }
TEST(RangeHh, SeededTrialsB4) { trials(4); }

// ---- forms, the builder, merges ----

TEST(RangeHh, ProtocolFormsCarryTheBranching) {
  const RangeProtocol p = hh(16, 1, 4);
  const std::string text = "v1:hh{epsilon=1,domain_bits=16,branching=4,mapping=floor}";
  EXPECT_EQ(ldp::range_protocol_to_text(p), text);
  EXPECT_TRUE(ldp::same_range_protocol(p, ldp::range_protocol_from_text(text.c_str())));
  std::vector<uint8_t> bin(ldp::range_protocol_binary_size(p));
  ASSERT_EQ(bin.size(), 35u + 8);
  ldp::range_protocol_to_binary(p, bin.data(), bin.size());
  EXPECT_TRUE(ldp::same_range_protocol(p, ldp::range_protocol_from_binary(bin.data(), bin.size())));
  EXPECT_FALSE(ldp::same_range_protocol(p, hh(16, 1, 2)));
  for (const char* bad : {"v1:hh{epsilon=1,domain_bits=16,mapping=floor}",              // no branching
                          "v1:hh{epsilon=1,domain_bits=16,branching=3,mapping=floor}",  // not 2 or 4
                          "v1:hh{epsilon=1,domain_bits=16,branching=0,mapping=floor}",
                          "v1:hh{epsilon=1,domain_bits=16,branching=-4,mapping=floor}",
                          "v1:haar{epsilon=1,domain_bits=16,branching=4,mapping=floor}"})  // haar has none
    EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidText, [&] { ldp::range_protocol_from_text(bad); })) << bad;
  std::vector<uint8_t> t = bin;
  t[35 + 7] = 8;  // branching 8
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidBinary, [&] { ldp::range_protocol_from_binary(t.data(), t.size()); }));
  t = bin;
  t.pop_back();
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidBinary, [&] { ldp::range_protocol_from_binary(t.data(), t.size()); }));
  t = bin;
  t[1] = 1;  // says haar: 8 trailing bytes
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidBinary, [&] { ldp::range_protocol_from_binary(t.data(), t.size()); }));
  // a haar protocol holding a branching is not valid (one form each)
  RangeProtocol h = ldp_test::range_protocol(16, 1);
  h.branching = 4;
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::validate_range_protocol(h); }));
}

TEST(RangeHh, TheBuilderGivesBranchingToHhOnly) {
  RangeProtocol p = ldp_test::range_protocol(12, 1);
  p.mechanism = ldp::RangeMechanism::Hh;
  ldp::range_protocol_defaults(&p);
  EXPECT_EQ(p.branching, 4);  // hh's default
  ldp::range_protocol_give(&p, "branching", 2);  // a given value after the defaults
  EXPECT_EQ(p.branching, 2);
  ldp::range_protocol_give(&p, "branching", 0);  // given 0 is refused, not a default
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::validate_range_protocol(p); }));
  RangeProtocol h = ldp_test::range_protocol(12, 1);
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::range_protocol_give(&h, "branching", 4); }));
  ldp::range_protocol_defaults(&h);
  EXPECT_EQ(h.branching, 0);
  EXPECT_EQ(ldp::range_mechanism_from_name("hh"), ldp::RangeMechanism::Hh);
}

TEST(RangeHh, SummaryFormsReportsAndMerges) {
  const RangeProtocol p = hh(3, 1, 4);  // levels of 2 and 8 nodes
  Range r = ldp_test::simulate_range(p, 300, 8, [](int64_t i) { return static_cast<double>(i % 8); });
  EXPECT_EQ(Range::from_text(r.text()).text(), r.text());
  EXPECT_EQ(Range::from_binary(r.binary()).text(), r.text());
  EXPECT_EQ(r.text().rfind("v1:hh{epsilon=1,domain_bits=3,branching=4,mapping=floor,n=300,levels=[", 0), 0u);
  // the binary form: header, fields and branching (42 bytes), n, width, 2 + 2 + 8 counters
  EXPECT_EQ(r.binary().size(), 6u + 42 + 8 + 1 + 2 * 12);
  for (auto [level, row] : std::vector<std::pair<int64_t, int64_t>>{{0, 0}, {3, 0}, {1, 2}, {2, 8}, {2, -1}})
    EXPECT_TRUE(ThrowsKind(ErrorKind::ImpossibleReport, [&] { ldp::range_add_report(r.get(), level, row, true); }))
        << level << " " << row;
  EXPECT_EQ(r->n, 300);
  for (const char* bad : {
           "v1:hh{epsilon=1,domain_bits=3,branching=4,mapping=floor,n=2,levels=[1,1],sums=[1,0,0,0,0,0,0,0,1,1]}",
           "v1:hh{epsilon=1,domain_bits=3,branching=4,mapping=floor,n=2,levels=[1,1],sums=[1,0,0,0,0,0,0,0,0]}",
           "v1:hh{epsilon=1,domain_bits=3,branching=4,mapping=floor,n=2,levels=[1,1,0],sums=[1,0,0,0,0,0,0,0,0,1]}",
           "v1:hh{epsilon=1,domain_bits=3,branching=4,mapping=floor,n=3,levels=[1,1],sums=[1,0,1,0,0,0,0,0,0,0]}",
           "v1:hh{epsilon=1,domain_bits=3,branching=4,mapping=floor,n=2,levels=[1,1],sums=[1,0,2,0,0,0,0,0,0,0]}",
       })
    EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidText, [&] { Range::from_text(bad); })) << bad;
  Range ok = Range::from_text(
      "v1:hh{epsilon=1,domain_bits=3,branching=4,mapping=floor,n=2,levels=[1,1],sums=[1,0,0,0,0,0,0,0,0,-1]}");
  EXPECT_EQ(ok->n, 2);
  // merges: the same protocol adds; haar against hh and B = 2 against B = 4 are refused
  Range twice = ldp_test::simulate_range(p, 300, 8, [](int64_t i) { return static_cast<double>(i % 8); });
  ldp::range_summary_merge(twice.get(), *r);
  EXPECT_EQ(twice->n, 600);
  Range haar(ldp_test::range_protocol(3, 1)), b2(hh(3, 1, 2));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::range_summary_merge(r.get(), *haar); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::range_summary_merge(r.get(), *b2); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::range_summary_merge(haar.get(), *r); }));
  // B = 2 at the cap: 22 + 2^23 − 2 counters; past it, refused before allocating
  EXPECT_EQ(ldp::range_summary_size(hh(22, 1, 2)), sizeof(ldp::RangeSummary) + 8 * (22 + (size_t{1} << 23) - 2));
  EXPECT_TRUE(ThrowsKind(ErrorKind::LimitExceeded, [] { ldp::range_summary_size(hh(23, 1, 4)); }));
}

// ---- the measurement (not run by ctest) ----
// n = 10^6 reports at ε = 1 over D = 2^16 ms of a lognormal latency population (median
// 120 ms, σ = 1), 2,000 ranges with uniformly random ends per seed, 20 seeds: the mean
// squared error of HaarHRR, hh B = 2 and hh B = 4 against the mean of their exact
// variances. Run with
//   build/cmake/ldp_unit_tests --gtest_also_run_disabled_tests --gtest_filter='RangeBench.*'
// (docs/algorithms/ranges.md#figures and bench/RESULTS.md record its output).
TEST(RangeBench, DISABLED_MseOfTheMechanismsAtAMillion) {
  const int k = 16, seeds = 20, ranges = 2000;
  const int64_t n = 1000000, d = int64_t{1} << k;
  const double mu = std::log(120.0), sigma = 1.0;
  auto phi = [](double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); };
  std::vector<double> cdf(static_cast<size_t>(d));
  for (int64_t b = 0; b < d; ++b)
    cdf[static_cast<size_t>(b)] = b == d - 1 ? 1 : phi((std::log(static_cast<double>(b + 1)) - mu) / sigma);
  auto truth = [&](int64_t lo, int64_t hi) {
    return cdf[static_cast<size_t>(hi)] - (lo > 0 ? cdf[static_cast<size_t>(lo - 1)] : 0);
  };
  struct Mech {
    const char* name;
    RangeProtocol p;
    double mse = 0, predicted = 0;
  };
  std::vector<Mech> mechs = {{"haar", ldp_test::range_protocol(k, 1)}, {"hh B=2", hh(k, 1, 2)}, {"hh B=4", hh(k, 1, 4)}};
  for (int seed = 0; seed < seeds; ++seed) {
    ldp::SeededRandom pick(900 + static_cast<uint64_t>(seed));
    std::vector<std::pair<int64_t, int64_t>> qs;
    for (int i = 0; i < ranges; ++i) {
      int64_t a = static_cast<int64_t>(pick.below(static_cast<uint64_t>(d)));
      int64_t b = static_cast<int64_t>(pick.below(static_cast<uint64_t>(d)));
      qs.emplace_back(std::min(a, b), std::max(a, b));
    }
    for (Mech& m : mechs) {
      ldp::SeededRandom rng(1000 + static_cast<uint64_t>(seed));
      Range r(m.p);
      for (int64_t i = 0; i < n; ++i) {
        const double z = std::sqrt(-2 * std::log(rng.uniform_open())) * std::cos(2 * M_PI * rng.uniform());
        const ldp::RangeReport rep = ldp::range_encode(m.p, std::exp(mu + sigma * z), rng);
        ldp::range_add_unchecked(r.get(), rep.level, rep.row, rep.plus_one);
      }
      RangeDecode dec(*r);
      double se = 0, pv = 0;
      for (auto [lo, hi] : qs) {
        const ldp::LinearAnswer a = dec.range(lo, hi);
        se += (a.estimate - truth(lo, hi)) * (a.estimate - truth(lo, hi));
        pv += a.variance;
      }
      std::printf("seed %d  %-7s  MSE %.3e  exact variance %.3e  ratio %.3f\n", seed, m.name, se / ranges, pv / ranges,
                  se / pv);
      m.mse += se / ranges / seeds;
      m.predicted += pv / ranges / seeds;
    }
  }
  for (const Mech& m : mechs) {
    std::printf("%-7s  mean MSE %.3e  mean exact variance %.3e  ratio %.3f\n", m.name, m.mse, m.predicted,
                m.mse / m.predicted);
    RecordProperty(std::string(m.name) + " mse", std::to_string(m.mse));
    RecordProperty(std::string(m.name) + " variance", std::to_string(m.predicted));
  }
}

}  // namespace
