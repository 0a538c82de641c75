// The RAPPOR decoder (src/core/rappor/rappor_decode.cpp, rappor_fit.cpp;
// docs/algorithms/rappor.md#decoding, google/rappor analysis/R/decode.R): bit estimates, the
// constrained fit against a brute-force check of its optimality conditions, colliding
// candidates, the LASSO path, and the statistics over seeded populations (unbiasedness,
// coverage, false detections), and ComputePrivacyGuarantees' figures.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/random.hpp"
#include "core/common/stats.hpp"
#include "core/rappor/rappor_client.hpp"
#include "core/rappor/rappor_internal.hpp"
#include "core/rappor/rappor_summary.hpp"
#include "rappor_test_support.hpp"
#include "test_support.hpp"

namespace {

using ldp::ErrorKind;
using ldp::RapporParams;
using ldp_test::RapporPopulation;
using ldp_test::ThrowsKind;

RapporParams Params(int64_t bits, int64_t hashes, int64_t cohorts, double f, double p, double q) {
  RapporParams r;
  r.bits = bits;
  r.hashes = hashes;
  r.cohorts = cohorts;
  r.f = f;
  r.p = p;
  r.q = q;
  return r;
}

std::vector<std::string_view> views(const std::vector<std::string>& v) {
  return std::vector<std::string_view>(v.begin(), v.end());
}

// A population of `strings` items with counts decaying geometrically from `top`.
RapporPopulation Zipfish(int64_t strings, int64_t top, double ratio) {
  RapporPopulation pop;
  double c = static_cast<double>(top);
  for (int64_t i = 0; i < strings; ++i, c *= ratio) pop.items.push_back({"s" + std::to_string(i), static_cast<int64_t>(c)});
  return pop;
}

TEST(RapporDecode, BitEstimatesAreEstimateBloomCounts) {
  const RapporParams P = Params(16, 2, 4, 0.5, 0.25, 0.75);
  ldp::RapporAccumulator acc(P);
  ldp::RapporSummary& s = acc.summary();
  acc.add(1, ldp::RapporBits{});  // creates cohort 1's row
  s.row(0)[1] = 1000;
  s.n = 1000;
  s.row(0)[2 + 3] = 700;
  std::vector<double> e, sd;
  ldp::rappor_bit_estimates(s, &e, &sd);
  const double p11 = 0.75 * 0.75 + 0.25 * 0.25, p01 = 0.25 * 0.75 + 0.75 * 0.25, p2 = p11 - p01;
  EXPECT_DOUBLE_EQ(e[3], (700 - p01 * 1000) / p2 / 1000);
  const double ph = std::min(1.0, (700 - p01 * 1000) / (1000 * p2)), r = ph * p11 + (1 - ph) * p01;
  EXPECT_DOUBLE_EQ(sd[3], std::sqrt(1000 * r * (1 - r) / (p2 * p2)) / 1000);
  EXPECT_DOUBLE_EQ(e[0], (0 - p01 * 1000) / p2 / 1000);  // negative estimates stay
}

// The constrained fit satisfies the KKT conditions of lsei's problem: feasibility, and a
// gradient that, with non-negative multipliers of the active general constraints, is zero
// on the free columns and non-negative on the others.
TEST(RapporDecode, ConstrainedFitIsOptimal) {
  ldp::SeededRandom rng(5);
  for (int trial = 0; trial < 20; ++trial) {
    ldp::SparseColumns X;
    X.nrows = 60;
    const int64_t S = 25;
    std::vector<int32_t> prev;
    for (int64_t j = 0; j < S; ++j) {
      std::vector<int32_t> c;
      for (int32_t i = 0; i < X.nrows; ++i)
        if (rng.uniform() < 0.15) c.push_back(i);
      // linearly dependent columns from trial 10 on: a duplicate, and a = b + c (disjoint)
      if (trial >= 10 && j == 4) c = prev;
      if (trial >= 10 && j == 5) c = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
      if (trial >= 10 && j == 6) c = {10, 11, 12, 13, 14, 15};
      if (trial >= 10 && j == 7) c = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
      prev = c;
      X.rows.insert(X.rows.end(), c.begin(), c.end());
      X.start.push_back(static_cast<int64_t>(X.rows.size()));
    }
    std::vector<double> y(60), w(60), upper(60);
    for (int i = 0; i < 60; ++i) {
      y[static_cast<size_t>(i)] = rng.uniform() * 0.3 - 0.05;
      w[static_cast<size_t>(i)] = 0.5 + rng.uniform();
      upper[static_cast<size_t>(i)] = trial % 2 ? 1.0 : std::max(0.01, y[static_cast<size_t>(i)] + 0.02);
    }
    const ldp::ConstrainedFit fit = ldp::rappor_constrained_fit(X, y, w, upper);
    ASSERT_TRUE(fit.converged);
    std::vector<double> xb(60, 0.0);
    double sum = 0;
    for (int64_t j = 0; j < S; ++j) {
      EXPECT_GE(fit.beta[static_cast<size_t>(j)], 0);
      sum += fit.beta[static_cast<size_t>(j)];
      for (int64_t t = X.start[static_cast<size_t>(j)]; t < X.start[static_cast<size_t>(j) + 1]; ++t)
        xb[static_cast<size_t>(X.rows[static_cast<size_t>(t)])] += fit.beta[static_cast<size_t>(j)];
    }
    EXPECT_LE(sum, 1 + 1e-9);
    for (int i = 0; i < 60; ++i) EXPECT_LE(xb[static_cast<size_t>(i)], upper[static_cast<size_t>(i)] + 1e-9);
    // no feasible direction improves: try moving each coordinate a little (projected)
    auto objective = [&](const std::vector<double>& b) {
      std::vector<double> r(60, 0.0);
      for (int64_t j = 0; j < S; ++j)
        for (int64_t t = X.start[static_cast<size_t>(j)]; t < X.start[static_cast<size_t>(j) + 1]; ++t)
          r[static_cast<size_t>(X.rows[static_cast<size_t>(t)])] += b[static_cast<size_t>(j)];
      double o = 0;
      for (int i = 0; i < 60; ++i) {
        const double d = w[static_cast<size_t>(i)] * (r[static_cast<size_t>(i)] - y[static_cast<size_t>(i)]);
        o += d * d;
      }
      return o;
    };
    auto feasible = [&](const std::vector<double>& b) {
      std::vector<double> r(60, 0.0);
      double s2 = 0;
      for (int64_t j = 0; j < S; ++j) {
        if (b[static_cast<size_t>(j)] < 0) return false;
        s2 += b[static_cast<size_t>(j)];
        for (int64_t t = X.start[static_cast<size_t>(j)]; t < X.start[static_cast<size_t>(j) + 1]; ++t)
          r[static_cast<size_t>(X.rows[static_cast<size_t>(t)])] += b[static_cast<size_t>(j)];
      }
      for (int i = 0; i < 60; ++i)
        if (r[static_cast<size_t>(i)] > upper[static_cast<size_t>(i)]) return false;
      return s2 <= 1;
    };
    const double best = objective(fit.beta);
    for (int probe = 0; probe < 300; ++probe) {
      std::vector<double> b = fit.beta;
      for (double& v : b) v = std::max(0.0, v + (rng.uniform() - 0.5) * 1e-3);
      if (feasible(b)) {
        EXPECT_GE(objective(b), best - 1e-12 * (1 + best));
      }
    }
  }
}

TEST(RapporDecode, CollidingCandidatesShareTheirColumn) {
  // One cohort, 8 bits, 1 hash: 30 candidates must collide; the fit must not break.
  const RapporParams P = Params(8, 1, 1, 0.5, 0.25, 0.75);
  RapporPopulation pop;
  pop.items = {{"a", 60000}};
  ldp::RapporAccumulator acc = ldp_test::rappor_simulate(P, pop, 3);
  std::vector<std::string> cands;
  for (int i = 0; i < 6; ++i) cands.push_back(i == 0 ? "a" : "c" + std::to_string(i));
  const ldp::RapporDecode d = ldp::rappor_decode(acc.summary(), views(cands));
  const int64_t abit = ldp::rappor_bloom("a", 0, 8, 1).w[0];
  int64_t sharing = 0;
  for (size_t j = 0; j < cands.size(); ++j) {
    const bool same = ldp::rappor_bloom(cands[j], 0, 8, 1).w[0] == static_cast<uint64_t>(abit);
    sharing += same;
    EXPECT_TRUE(std::isfinite(d.items[j].count));
    EXPECT_TRUE(std::isfinite(d.items[j].std_error));
  }
  EXPECT_EQ(d.items[0].collision, sharing);
  double group = 0;
  for (size_t j = 0; j < cands.size(); ++j)
    if (ldp::rappor_bloom(cands[j], 0, 8, 1).w[0] == static_cast<uint64_t>(abit)) group += d.items[j].count;
  EXPECT_NEAR(group, 60000, 5 * d.items[0].std_error * static_cast<double>(sharing));
}

// Columns that are linearly dependent without being identical (one cohort of 8 bits, 2
// hashes: filters {a,b}, {c,d}, {a,c}, {b,d}, so x1 + x2 = x3 + x4): the unconstrained
// estimates of step 7 cannot tell them apart; the rows stay finite, and a candidate the
// constrained fit detects but whose unconstrained SE is too large is not detected.
TEST(RapporDecode, DependentColumnsStayFinite) {
  const RapporParams P = Params(8, 2, 1, 0.5, 0.25, 0.75);
  std::map<std::pair<int, int>, std::string> by_filter;
  int64_t pos[2];
  for (int i = 0; i < 2000; ++i) {
    const std::string s = "d" + std::to_string(i);
    ldp::rappor_bloom_positions(s, 0, 8, 2, pos);
    if (pos[0] == pos[1]) continue;
    by_filter.emplace(std::make_pair(static_cast<int>(std::min(pos[0], pos[1])), static_cast<int>(std::max(pos[0], pos[1]))), s);
  }
  std::vector<std::string> cands;
  for (int a = 0; a < 8 && cands.empty(); ++a)
    for (int b = a + 1; b < 8 && cands.empty(); ++b)
      for (int c = b + 1; c < 8 && cands.empty(); ++c)
        for (int d = c + 1; d < 8 && cands.empty(); ++d) {
          const std::pair<int, int> f[4] = {{a, b}, {c, d}, {a, c}, {b, d}};
          if (std::all_of(f, f + 4, [&](const std::pair<int, int>& x) { return by_filter.count(x) > 0; }))
            for (const auto& x : f) cands.push_back(by_filter[x]);
        }
  ASSERT_EQ(cands.size(), 4u);
  RapporPopulation pop;
  pop.items = {{cands[0], 30000}, {cands[1], 20000}};
  ldp::RapporAccumulator acc = ldp_test::rappor_simulate(P, pop, 5);
  for (bool decode_r : {false, true}) {
    ldp::RapporDecodeOptions o;
    o.decode_r_estimates = decode_r;
    const ldp::RapporDecode d = ldp::rappor_decode(acc.summary(), views(cands), o);
    for (const auto& e : d.items) {
      std::printf("  %s: count %.0f SE %.0f detected %d\n", decode_r ? "Decode's" : "default", e.count, e.std_error,
                  e.detected);
      EXPECT_TRUE(std::isfinite(e.count) && std::isfinite(e.std_error) && e.std_error >= 0);
      EXPECT_TRUE(e.ci_lower >= 0 && e.ci_lower <= e.ci_upper && e.ci_upper <= 1);
      EXPECT_EQ(e.detected, e.count > 1e-6 + 2 * e.std_error);
      EXPECT_EQ(e.collision, 1);
    }
  }
}

// The unconstrained estimates of the detected can leave [0, 1]: the fuzzer's summaries
// (test/fuzz/findings/rappor_decode_outside_unit.sql) had a candidate at 730 of 400 reports
// and 70 of 60, with an interval above 1. The proportion, the count and the interval are
// clamped to [0, 1] (and [0, n]), the interval still around the proportion.
TEST(RapporDecode, EstimatesStayInTheUnitInterval) {
  for (const char* text :
       {"v1:rappor{bits=16,hashes=2,cohorts=1,f=0.75,p=0.25,q=0.5,n=400,rows=1,cohort=[0],reports=[400],"
        "ones=[145,152,157,215,152,146,163,152,143,169,148,160,216,148,173,152]}",
        "v1:rappor{bits=8,hashes=2,cohorts=4,f=0.7,p=0.25,q=0.75,n=60,rows=4,cohort=[0,1,2,3],reports=[16,21,9,14],"
        "ones=[5,5,11,10,5,10,6,6,7,11,7,8,12,10,8,11,6,3,3,3,5,4,2,5,7,7,5,5,3,4,4,11]}"}) {
    const size_t size = ldp::rappor_summary_parse_size(text);
    std::vector<uint64_t> buf((size + 7) / 8);
    auto* s = reinterpret_cast<ldp::RapporSummary*>(buf.data());
    ldp::rappor_summary_from_text(text, s, size);
    const ldp::RapporDecode d = ldp::rappor_decode(*s, views({"a", "x", ""}), ldp::RapporDecodeOptions());
    int detected = 0;
    for (const auto& e : d.items) {
      detected += e.detected;
      EXPECT_TRUE(e.std_error >= 0 && 0 <= e.ci_lower && e.ci_lower <= e.proportion && e.proportion <= e.ci_upper &&
                  e.ci_upper <= 1)
          << text;
      EXPECT_TRUE(e.count >= 0 && e.count <= static_cast<double>(s->n)) << text;
      EXPECT_DOUBLE_EQ(e.count, e.proportion * static_cast<double>(s->n));
    }
    EXPECT_EQ(detected, 1) << text;  // the clamped one stays detected
  }
}

TEST(RapporDecode, SparseCohortsUpTo2To31) {
  // cohorts = 2^31 - 1, reports in a few cohorts far apart: the rows are those cohorts'.
  const RapporParams P = Params(16, 2, INT32_MAX, 0.25, 0.25, 0.75);
  ldp::SeededRandom rng(9);
  ldp::RapporAccumulator acc(P);
  const int64_t cohorts[4] = {0, 7, 1000000, INT32_MAX - 1};
  for (int i = 0; i < 40000; ++i) {
    const int64_t c = cohorts[i % 4];
    acc.add(c, ldp::rappor_encode(i % 3 == 0 ? "x" : "y", c, "d" + std::to_string(i), 16, 2, 0.25, 0.25, 0.75, rng));
  }
  EXPECT_EQ(acc.summary().rows, 4);
  const ldp::RapporDecode d = ldp::rappor_decode(acc.summary(), {"x", "y", "z"});
  EXPECT_EQ(d.rows, 64);
  EXPECT_NEAR(d.items[0].count, 40000 / 3.0, 4 * d.items[0].std_error);
  EXPECT_NEAR(d.items[1].count, 80000 / 3.0, 4 * d.items[1].std_error);
  EXPECT_TRUE(d.items[0].detected && d.items[1].detected);
}

TEST(RapporDecode, Refusals) {
  const RapporParams P = Params(16, 2, 4, 0.5, 0.25, 0.75);
  ldp::RapporAccumulator acc(P);
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::rappor_decode(acc.summary(), {}); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::rappor_decode(acc.summary(), {"a", "b", "a"}); }));
  const ldp::RapporDecode empty = ldp::rappor_decode(acc.summary(), {"a", ""});
  EXPECT_FALSE(empty.items[1].detected);
  ldp::RapporAccumulator one(Params(1, 1, 4, 0.5, 0.25, 0.75));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::rappor_decode(one.summary(), {"a"}); }));
}

struct Stats {
  double sum = 0, sum2 = 0, se = 0, sum_detected = 0;
  int covered = 0, detected = 0;
};

struct Outcome {
  double max_bias_in_se = 0;       // max |mean - truth| / SE over strings with truth >= 5 SE
  double max_bias_in_mean_se = 0;  // the same in standard errors of the mean, SE/√runs
  double coverage = 0;             // of the 95% intervals, over those strings and runs
  double absent_detected = 0;      // the rate at which absent candidates are detected
  int checked = 0;
};

// decode.R's demo parameters scaled down (k = 32, h = 2, m = 16, f = 0.5, p = 0.25,
// q = 0.75) so that 200 populations decode in a fraction of a second: 12 strings of
// 40000 .. 1080 devices, 28 absent candidates, and `unknown` strings of 500 devices that
// are not candidates.
Outcome Populations(int unknown, bool decode_r) {
  const RapporParams P = Params(32, 2, 16, 0.5, 0.25, 0.75);
  RapporPopulation pop = Zipfish(12, 40000, 0.72);
  std::vector<std::string> cands;
  for (const auto& it : pop.items) cands.push_back(it.first);
  for (int i = 0; i < 28; ++i) cands.push_back("absent" + std::to_string(i));
  for (int i = 0; i < unknown; ++i) pop.items.push_back({"unknown" + std::to_string(i), 500});
  ldp::RapporDecodeOptions opt;
  opt.decode_r_estimates = decode_r;
  const int runs = 200;
  std::vector<Stats> st(cands.size());
  for (int r = 0; r < runs; ++r) {
    ldp::RapporAccumulator acc = ldp_test::rappor_simulate(P, pop, 1000 + static_cast<uint64_t>(r));
    const ldp::RapporDecode d = ldp::rappor_decode(acc.summary(), views(cands), opt);
    EXPECT_FALSE(d.lasso);
    for (size_t j = 0; j < cands.size(); ++j) {
      const ldp::RapporCandidateEstimate& e = d.items[j];
      const double truth = j < 12 ? static_cast<double>(pop.items[j].second) : 0.0;
      st[j].sum += e.count;
      st[j].sum2 += e.count * e.count;
      st[j].se += e.std_error;
      const double n = static_cast<double>(d.n);
      st[j].covered += e.ci_lower * n <= truth && truth <= e.ci_upper * n;
      st[j].detected += e.detected;
      if (e.detected) st[j].sum_detected += e.count;
    }
  }
  Outcome out;
  int covered = 0, tried = 0, false_hits = 0, absent_runs = 0;
  std::printf("  unknown strings %d, %s:\n", unknown, decode_r ? "Decode's estimates" : "the default");
  for (size_t j = 0; j < cands.size(); ++j) {
    const double mean = st[j].sum / runs, se = st[j].se / runs;
    const double sd = std::sqrt(std::max(0.0, st[j].sum2 / runs - mean * mean));
    if (j >= 12) {
      false_hits += st[j].detected;
      absent_runs += runs;
      continue;
    }
    const double truth = static_cast<double>(pop.items[j].second);
    // the bias of the estimate when detected, and of the estimate taken as 0 when not
    const double when_detected = st[j].detected ? st[j].sum_detected / st[j].detected : 0.0;
    std::printf("    %-4s truth %6.0f mean %8.1f (bias %+.2f SE; detected %+.2f SE, 0 if not %+.2f SE) SE %5.1f "
                "sd %5.1f coverage %.3f detected %.3f\n",
                cands[j].c_str(), truth, mean, (mean - truth) / se, (when_detected - truth) / se,
                (st[j].sum_detected / runs - truth) / se, se, sd, st[j].covered / double(runs),
                st[j].detected / double(runs));
    if (truth < 5 * se) continue;
    ++out.checked;
    out.max_bias_in_se = std::max(out.max_bias_in_se, std::fabs(mean - truth) / se);
    out.max_bias_in_mean_se = std::max(out.max_bias_in_mean_se, std::fabs(mean - truth) / (se / std::sqrt(runs)));
    covered += st[j].covered;
    tried += runs;
  }
  out.coverage = static_cast<double>(covered) / tried;
  out.absent_detected = static_cast<double>(false_hits) / absent_runs;
  std::printf("    coverage %.4f over %d strings with truth >= 5 SE, max bias %.2f SE (%.1f SE of the mean), "
              "absent detected %.4f\n",
              out.coverage, out.checked, out.max_bias_in_se, out.max_bias_in_mean_se, out.absent_detected);
  return out;
}

// Candidates covering the whole population (issue 21: for true counts >= 5 SE the mean of
// 200 estimates within 3 SE of the mean (SE/√200) of the truth, coverage in [93.5%, 96.5%]).
// Decode's constrained fit is biased by about -0.5 SE (β >= 0 on the absent candidates,
// Σβ <= 1 binding), so its intervals cover 92%; the default's detected take the
// unconstrained fit (rappor_decode.cpp step 7), unbiased. Small strings (2 to 3 SE) are
// biased by the detection rule: high when detected, low when undetected ones count as 0.
TEST(RapporDecode, PopulationCoveredByCandidates) {
  const Outcome o = Populations(0, false);
  EXPECT_GE(o.checked, 8);
  EXPECT_LE(o.max_bias_in_mean_se, 3.0);  // the mean of 200 within 3 SE/√200 of the truth
  EXPECT_GE(o.coverage, 0.935);
  EXPECT_LE(o.coverage, 0.965);
  EXPECT_LE(o.absent_detected, 0.05);
  const Outcome decode_r = Populations(0, true);  // decode.R's estimator, for comparison
  EXPECT_LE(decode_r.max_bias_in_se, 1.0);
  EXPECT_GE(decode_r.coverage, 0.90);
  EXPECT_LE(decode_r.absent_detected, 0.05);
}

// 20 strings of 500 devices that are not candidates (7% of the reports): their mass
// leaks into the candidates that share their bits (biased high).
TEST(RapporDecode, PopulationWithUnknownStrings) {
  const Outcome o = Populations(20, false);
  EXPECT_LE(o.max_bias_in_se, 1.0);
  EXPECT_GE(o.coverage, 0.935);
  EXPECT_LE(o.coverage, 0.965);
  EXPECT_LE(o.absent_detected, 0.05);
}

TEST(RapporDecode, LassoScreeningWithManyCandidates) {
  // 0.8·cohorts·bits = 0.8·4·16 = 51.2 rows' worth: 120 candidates screen first.
  const RapporParams P = Params(16, 2, 4, 0.25, 0.25, 0.75);
  const RapporPopulation pop = Zipfish(5, 60000, 0.6);
  std::vector<std::string> cands;
  for (const auto& it : pop.items) cands.push_back(it.first);
  for (int i = 0; i < 115; ++i) cands.push_back("absent" + std::to_string(i));
  int found = 0, false_hits = 0;
  const int runs = 20;
  for (int r = 0; r < runs; ++r) {
    ldp::RapporAccumulator acc = ldp_test::rappor_simulate(P, pop, 77 + static_cast<uint64_t>(r));
    const ldp::RapporDecode d = ldp::rappor_decode(acc.summary(), views(cands));
    ASSERT_TRUE(d.lasso);
    EXPECT_LE(d.screened, 51);
    for (size_t j = 0; j < cands.size(); ++j) (j < 5 ? found : false_hits) += d.items[j].detected;
  }
  std::printf("  LASSO: true strings detected %d of %d, absent detected %d of %d\n", found, 5 * runs, false_hits,
              115 * runs);
  EXPECT_GE(found, 3 * runs);  // the three largest (60000, 36000, 21600) at least
  EXPECT_LE(false_hits, static_cast<int>(0.05 * 115 * runs));
}

TEST(RapporPrivacy, FiguresOfDecodeR) {
  // docs/algorithms/rappor.md#privacy-figures: demo (1.022, 2.197), Python defaults (1.074,
  // 4.394), eps_1_1 (0.973, 4.947)
  ldp::RapporPrivacy demo = ldp::rappor_privacy(1, 0.5, 0.25, 0.75, 0);
  EXPECT_NEAR(demo.epsilon_one, 1.022, 5e-4);
  EXPECT_NEAR(demo.epsilon_inf, 2.197, 5e-4);
  EXPECT_FALSE(demo.has_detection);
  ldp::RapporPrivacy def = ldp::rappor_privacy(2, 0.5, 0.5, 0.75, 1000000);
  EXPECT_NEAR(def.epsilon_one, 1.074, 5e-4);
  EXPECT_NEAR(def.epsilon_inf, 4.394, 5e-4);
  ldp::RapporPrivacy e11 = ldp::rappor_privacy(2, 0.45, 0.39, 0.61, 0);
  EXPECT_NEAR(e11.epsilon_one, 0.973, 5e-4);
  EXPECT_NEAR(e11.epsilon_inf, 4.947, 5e-4);
  // detection frequency: qnorm(0.95)·sqrt(p*(1-p*)N)/((q*-p*)N)
  ASSERT_TRUE(def.has_detection);
  const double ps = 0.25 * 1.25 + 0.5 * 0.5, qs = 0.25 * 1.25 + 0.5 * 0.75;
  EXPECT_NEAR(def.detection_frequency, 1.6448536269514722 * std::sqrt(ps * (1 - ps) * 1e6) / ((qs - ps) * 1e6), 1e-12);
  // p > q: the reciprocal branch, no detection frequency; f = 0: ε_∞ = ∞
  ldp::RapporPrivacy rev = ldp::rappor_privacy(2, 0.5, 0.75, 0.5, 1000);
  EXPECT_NEAR(rev.epsilon_one, def.epsilon_one, 1e-12);
  EXPECT_FALSE(rev.has_detection);
  EXPECT_TRUE(std::isinf(ldp::rappor_privacy(2, 0.0, 0.25, 0.75, 0).epsilon_inf));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [] { ldp::rappor_privacy(0, 0.5, 0.25, 0.75, 0); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [] { ldp::rappor_privacy(2, 1.5, 0.25, 0.75, 0); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [] { ldp::rappor_privacy(2, 0.5, 0.25, 0.75, 0, 1.0); }));
}

// Issue 27: f = 1 with p = q = 1 gave epsilon_one = NaN (R's 0/0); a report then shows
// nothing of its value: 0. Reports without information make nothing detectable:
// Infinity (R's z·Inf, NaN at alpha = 1/2).
TEST(RapporPrivacy, NoInformationIsZeroNotNaN) {
  for (double pq : {0.0, 0.25, 1.0}) {
    ldp::RapporPrivacy r = ldp::rappor_privacy(16, 1, pq, pq, 0);
    EXPECT_EQ(r.epsilon_one, 0.0) << pq;
    EXPECT_EQ(r.epsilon_inf, 0.0) << pq;
  }
  ldp::RapporPrivacy same = ldp::rappor_privacy(2, 0.5, 0.4, 0.4, 10);  // p = q < 1
  EXPECT_EQ(same.epsilon_one, 0.0);
  for (double alpha : {0.05, 0.5, 0.9}) {
    ldp::RapporPrivacy f1 = ldp::rappor_privacy(2, 1, 0.25, 0.75, 1000, alpha);
    ASSERT_TRUE(f1.has_detection);
    EXPECT_TRUE(std::isinf(f1.detection_frequency) && f1.detection_frequency > 0) << alpha;
  }
}

// Issue 27: alpha => 1e-300 was refused as "confidence ... got 1" (1 - 2·alpha rounds
// to 1); qnorm(1 - alpha) is taken from alpha itself.
TEST(RapporPrivacy, TinyAlphaKeepsItsPrecision) {
  const double ps = 0.25 + 0.5 * 0.25, qs = 0.25 + 0.5 * 0.75;  // .5·f·(p + q) + (1 − f)·p, q
  ldp::RapporPrivacy r = ldp::rappor_privacy(2, 0.5, 0.25, 0.75, 1000000, 1e-300);
  ASSERT_TRUE(r.has_detection);
  // qnorm(1e-300, lower.tail = FALSE) = 37.0470962993612
  EXPECT_NEAR(r.detection_frequency, 37.0470962993612 * std::sqrt(ps * (1 - ps) * 1e6) / ((qs - ps) * 1e6), 1e-6);
  EXPECT_NEAR(ldp::normal_upper_quantile(0.05), 1.6448536269514722, 1e-12);
  EXPECT_NEAR(ldp::normal_upper_quantile(0.95), -1.6448536269514722, 1e-12);
  EXPECT_EQ(ldp::normal_upper_quantile(0.5), 0.0);
  EXPECT_TRUE(std::isfinite(ldp::normal_upper_quantile(4.9e-324)));
  for (double bad : {0.0, 1.0, -1.0, std::nan("")}) {
    try {
      ldp::rappor_privacy(2, 0.5, 0.25, 0.75, 10, bad);
      ADD_FAILURE() << bad;
    } catch (const ldp::Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::InvalidParameter);
      EXPECT_NE(std::string(e.what()).find("alpha"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
