// HEAVYTHRESH (Joseph et al. 2018 §5, docs/algorithms/thresh.md#heavythresh; the reading:
// src/core/thresh/histogram.hpp): parameters and thresholds, projections, the device, the
// published oracle's bias and standard error, and an end-to-end run whose decisions, counters
// and errors are checked against the rules applied by hand. Every random test is seeded.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/common/random.hpp"
#include "core/common/stats.hpp"
#include "core/oracles/count_sketch.hpp"
#include "core/sketch/sketch_summary.hpp"
#include "test_support.hpp"
#include "core/thresh/histogram.hpp"
#include "core/thresh/server.hpp"
#include "tools/thresh/thresh_scenario.hpp"

namespace {

namespace th = ldp::thresh;
using ldp_test::ThrowsKind;
using Rng = ldp::SeededRandom;
constexpr auto kInvalid = ldp::ErrorKind::InvalidParameter;
constexpr auto kOutOfRange = ldp::ErrorKind::OutOfRange;

// n = 4,000 users in two groups of 2,000, T = 16 epochs of ℓ = 200,000 samples, t = 8
// hashes of m = 64 columns, ε = 8, δ = 0.1, b = 0.5 (4 truthful reports each: the
// derived b needs ℓ < ~2n, and the scenarios below need 4 updates).
th::HistogramConfig small_stream() {
  th::HistogramConfig c;
  // users, epochs, epoch_rounds, min_group_size, groups, epsilon, delta, a (derived), b
  c.stream = th::Config{4000, 16, 200000, 2000, 2, 8.0, 0.1, std::nullopt, 0.5};
  c.hashes = 8;
  c.width = 64;
  return c;
}

std::vector<std::string> dictionary(int d) {
  std::vector<std::string> words;
  for (int i = 0; i < d; ++i) words.push_back("word" + std::to_string(i));
  return words;
}

// Zipf(1) over the dictionary, ranked by `order` (order[r] = the item of rank r).
std::vector<double> zipf(const std::vector<int>& order) {
  std::vector<double> p(order.size());
  double total = 0;
  for (size_t r = 0; r < order.size(); ++r) total += 1.0 / static_cast<double>(r + 1);
  for (size_t r = 0; r < order.size(); ++r) p[static_cast<size_t>(order[r])] = 1.0 / static_cast<double>(r + 1) / total;
  return p;
}

using th::multinomial;  // thresh_scenario.hpp

// The dictionary's columns of Φ, computed once.
struct Columns {
  std::vector<uint32_t> cells;
  std::unique_ptr<bool[]> plus;
  Columns(const th::HistogramParams& p, const std::vector<std::string>& words)
      : cells(words.size() * static_cast<size_t>(p.hashes)), plus(new bool[cells.size()]) {
    const auto t = static_cast<size_t>(p.hashes);
    for (size_t i = 0; i < words.size(); ++i) th::item_column(p, words[i], &cells[i * t], &plus[i * t]);
  }
};

TEST(ThreshHistogramParams, Derivation) {
  th::HistogramConfig c = small_stream();
  th::HistogramParams p = th::derive_histogram_params(c);
  th::Params bern = th::derive_params(c.stream);
  EXPECT_EQ(p.stream.vote_noise, bern.vote_noise);
  EXPECT_EQ(p.stream.estimate_noise, 0.5);
  EXPECT_EQ(p.stream.vote_threshold, bern.vote_threshold);
  EXPECT_EQ(p.stream.worst_case_loss(), bern.worst_case_loss());
  EXPECT_FALSE(p.stream.config.threshold_unit.has_value());
  const double w = 8 * 64;
  const double y = std::sqrt(2 * std::log(16 * w * 4000 * 16 / 0.1) / (8 * 200000.0));
  EXPECT_NEAR(p.projection_error, y, 1e-12 * y);
  ASSERT_EQ(p.stream.thresholds.size(), 6u);
  for (int b = -1; b <= 4; ++b) EXPECT_NEAR(p.stream.tau(b), 2 * (b + 1) * y, 1e-12) << b;
  EXPECT_NO_THROW(th::validate_histogram_params(p));
  EXPECT_EQ(p.oracle().epsilon, 0.5);
  EXPECT_EQ(p.cells(), 512);
  EXPECT_NEAR(p.error_bound(0.01), ldp::normal_critical_value(0.95) * 0.01, 1e-15);
  // threshold_unit overrides y_Φ in τ only
  c.stream.threshold_unit = 0.01;
  th::HistogramParams q = th::derive_histogram_params(c);
  EXPECT_DOUBLE_EQ(q.stream.tau(2), 0.06);
  EXPECT_EQ(q.projection_error, p.projection_error);
  // refusals
  auto refuses = [](th::HistogramConfig bad) {
    return ThrowsKind(kInvalid, [&] { th::derive_histogram_params(bad); });
  };
  th::HistogramConfig bad = small_stream();
  bad.width = 48;  // not a power of two
  EXPECT_TRUE(refuses(bad));
  bad = small_stream();
  bad.hashes = 0;
  EXPECT_TRUE(refuses(bad));
  bad = small_stream();
  bad.hashes = 4096, bad.width = 2048;  // 2^23 cells
  EXPECT_TRUE(refuses(bad));
  bad = small_stream();
  bad.stream.estimate_noise = 800;
  EXPECT_TRUE(refuses(bad));
  bad = small_stream();
  bad.stream.estimate_noise.reset();  // y <= x: the Bernoulli stream's refusal
  EXPECT_TRUE(refuses(bad));
  th::HistogramParams broken = p;
  broken.projection_error = 0;
  EXPECT_TRUE(ThrowsKind(kInvalid, [&] { th::validate_histogram_params(broken); }));
}

TEST(ThreshHistogramProjection, ByHand) {
  th::HistogramConfig c = small_stream();
  c.stream.epoch_rounds = 10;
  th::HistogramParams p = th::derive_histogram_params(c);
  const int64_t t = p.hashes, m = p.width;
  // {apple: 6, pear: 3, apple: 1 more}: the same as {apple: 7, pear: 3}
  th::ItemCount h[] = {{"apple", 6}, {"pear", 3}, {"apple", 1}};
  th::ItemCount g[] = {{"pear", 3}, {"apple", 7}};
  th::Projection z = th::project(p, h, 3), z2 = th::project(p, g, 2);
  EXPECT_EQ(z.samples, 10);
  EXPECT_EQ(z.cells, z2.cells);
  // dense by hand: S[j·m + h_j(u)] += count·g_j(u), with the count sketch's hashes
  std::vector<int64_t> dense(static_cast<size_t>(t * m));
  for (auto [item, count] : {std::pair<const char*, int64_t>{"apple", 7}, {"pear", 3}}) {
    for (int64_t j = 0; j < t; ++j) {
      uint64_t hj = ldp::sketch_hash(item, static_cast<uint64_t>(2 * j)) % static_cast<uint64_t>(m);
      bool plus = (ldp::sketch_hash(item, static_cast<uint64_t>(2 * j + 1)) & 1) == 0;
      dense[static_cast<size_t>(j * m) + hj] += plus ? count : -count;
    }
  }
  std::vector<std::pair<uint32_t, int64_t>> expect;
  for (size_t k = 0; k < dense.size(); ++k)
    if (dense[k] != 0) expect.emplace_back(static_cast<uint32_t>(k), dense[k]);
  EXPECT_EQ(z.cells, expect);
  // the coefficient of (j, r): Σ_c H[r][c]·S[j·m + c]/ℓ; for a one-item histogram it is
  // the count sketch's entry g_j(u)·H[r][h_j(u)]
  th::ItemCount one[] = {{"apple", 10}};
  th::Projection za = th::project(p, one, 1);
  for (int64_t j = 0; j < t; ++j)
    for (int64_t r = 0; r < m; r += 5) {
      double x = 0;
      for (int64_t col = 0; col < m; ++col)
        x += ((__builtin_popcountll(static_cast<uint64_t>(r & col)) & 1) ? -1.0 : 1.0) *
             static_cast<double>(dense[static_cast<size_t>(j * m + col)]) / 10.0;
      EXPECT_NEAR(th::projection_coefficient(p, z, j, r), x, 1e-12);
      EXPECT_EQ(th::projection_coefficient(p, za, j, r), ldp::count_sketch_entry("apple", j, r, m) ? 1.0 : -1.0);
    }
  // D = max |S_a − S_b|/(ℓ√t)
  th::ItemCount k[] = {{"pear", 10}};
  th::Projection zp = th::project(p, k, 1);
  double most = 0;
  std::vector<int64_t> da(dense.size()), dp(dense.size());
  for (auto [cell, s] : za.cells) da[cell] = s;
  for (auto [cell, s] : zp.cells) dp[cell] = s;
  for (size_t q = 0; q < da.size(); ++q) most = std::max(most, std::fabs(static_cast<double>(da[q] - dp[q])));
  EXPECT_DOUBLE_EQ(th::projection_change(p, za, zp), most / (10 * std::sqrt(8.0)));
  EXPECT_EQ(th::projection_change(p, z, z), 0);
  // counts must be >= 0 and sum to ℓ
  th::ItemCount short_[] = {{"apple", 9}};
  th::ItemCount over[] = {{"apple", 9}, {"pear", 2}};
  th::ItemCount negative[] = {{"apple", 11}, {"pear", -1}};
  EXPECT_TRUE(ThrowsKind(kOutOfRange, [&] { th::project(p, short_, 1); }));
  EXPECT_TRUE(ThrowsKind(kOutOfRange, [&] { th::project(p, over, 2); }));
  EXPECT_TRUE(ThrowsKind(kOutOfRange, [&] { th::project(p, negative, 2); }));
}

// The derived threshold: with an unchanged distribution, D = ||z^t − z^f||_∞ <= τ_0 =
// 2·y_Φ for all users and epochs with probability >= 1 − δ/8 (Hoeffding; union bound).
// A change that moves a cell of E z by more than τ_b + 2·y_Φ is voted at level >= b.
TEST(ThreshHistogramThresholds, StableDataStaysBelowTau0) {
  th::HistogramParams p = th::derive_histogram_params(small_stream());
  const auto words = dictionary(60);
  Columns cols(p, words);
  std::vector<int> order(60);
  for (int i = 0; i < 60; ++i) order[static_cast<size_t>(i)] = i;
  const std::vector<double> before = zipf(order);
  std::reverse(order.begin(), order.end());
  const std::vector<double> after = zipf(order);
  // E z of each distribution, and the level its change must reach
  auto expected = [&](const std::vector<double>& dist) {
    std::vector<double> e(static_cast<size_t>(p.cells()));
    for (size_t i = 0; i < words.size(); ++i)
      for (size_t j = 0; j < 8; ++j)
        e[cols.cells[i * 8 + j]] += (cols.plus[i * 8 + j] ? dist[i] : -dist[i]) / std::sqrt(8.0);
    return e;
  };
  const auto eb = expected(before), ea = expected(after);
  double true_change = 0;
  for (size_t k = 0; k < eb.size(); ++k) true_change = std::max(true_change, std::fabs(eb[k] - ea[k]));
  int must = th::kNoLevel;
  for (int b = -1; b <= p.stream.log_epochs; ++b)
    if (true_change > p.stream.tau(b) + 2 * p.projection_error) must = b;
  ASSERT_GE(must, 1);

  Rng rng(31);
  const int users = 400;
  int above = 0, below_must = 0;
  double worst = 0;
  for (int u = 0; u < users; ++u) {
    auto draw = [&](const std::vector<double>& d) {
      auto counts = multinomial(rng, p.stream.config.epoch_rounds, d);
      return th::project_columns(p, cols.cells.data(), cols.plus.get(), counts.data(), counts.size());
    };
    th::Projection z0 = draw(before), z1 = draw(before), z2 = draw(after);
    double d = th::projection_change(p, z1, z0);
    worst = std::max(worst, d);
    above += d > p.stream.tau(0);
    th::HistogramClient::State s;
    s.epoch = s.update_epoch = 1;
    s.last_update = z0;
    s.current = z0;
    below_must += th::histogram_level(p, s, z2) < must;
    EXPECT_LE(th::histogram_level(p, s, z1), -1);  // stable: b* <= −1, never scheduled
  }
  EXPECT_LE(above, users * 0.1 / 8);
  EXPECT_EQ(below_must, 0);
  std::printf("[ HTHRESH  ] stable: max D = %.5f = %.2f tau_0 (tau_0 = 2 y = %.5f); change of E z %.4f "
              "-> level >= %d for every user\n",
              worst, worst / p.stream.tau(0), p.stream.tau(0), true_change, must);
}

TEST(ThreshHistogramClient, VotesReportsAndCaps) {
  th::HistogramConfig c = small_stream();
  c.stream.epoch_rounds = 100;
  th::HistogramParams p = th::derive_histogram_params(c);
  const double a = p.stream.vote_noise, b = p.stream.estimate_noise;
  Rng rng(5);
  th::ItemCount one[] = {{"apple", 100}};
  // epoch 1 votes truthfully; a one-item histogram reports the count sketch's entry with
  // probability e^b/(e^b+1); a spent budget reports a fair coin
  const int kDraws = 100000;
  int64_t yes = 0, kept = 0, spent_plus = 0;
  for (int i = 0; i < kDraws; ++i) {
    th::HistogramClient u(p);
    yes += u.vote(1, one, 1, rng);
    EXPECT_EQ(u.state().vote_spent, a);
    ldp::SignedSketchReport r = u.report(rng);
    kept += r.report == ldp::count_sketch_entry("apple", r.hash_index, r.coefficient, p.width);
    th::HistogramClient::State s = u.state();
    s.estimate_spent = p.stream.max_estimate_spent();  // the budget spent
    th::HistogramClient v(p, s);
    v.vote(2, one, 1, rng);
    spent_plus += v.report(rng).report;
  }
  auto z = [&](int64_t ones, double prob) {
    return (static_cast<double>(ones) / kDraws - prob) / std::sqrt(prob * (1 - prob) / kDraws);
  };
  EXPECT_LT(std::fabs(z(yes, std::exp(a) / (std::exp(a) + 1))), 4);
  EXPECT_LT(std::fabs(z(kept, std::exp(b) / (std::exp(b) + 1))), 4);
  EXPECT_LT(std::fabs(z(spent_plus, 0.5)), 4);
  // misuse, and a persisted state restored
  th::HistogramClient u(p);
  EXPECT_TRUE(ThrowsKind(kInvalid, [&] { u.report(rng); }));
  EXPECT_TRUE(ThrowsKind(kInvalid, [&] { u.vote(17, one, 1, rng); }));
  th::ItemCount bad[] = {{"apple", 99}};
  EXPECT_TRUE(ThrowsKind(kOutOfRange, [&] { u.vote(1, bad, 1, rng); }));
  EXPECT_EQ(u.state().epoch, 0);
  EXPECT_EQ(u.highest_level(th::project(p, one, 1)), p.stream.log_epochs);  // before any update
  u.vote(3, one, 1, rng);
  u.report(rng);
  EXPECT_TRUE(ThrowsKind(kInvalid, [&] { u.report(rng); }));
  EXPECT_TRUE(ThrowsKind(kInvalid, [&] { u.vote(3, one, 1, rng); }));
  th::HistogramClient restored(p, u.state());
  EXPECT_EQ(restored.highest_level(th::project(p, one, 1)), th::kNoLevel);  // D = 0
  th::HistogramClient::State broken = u.state();
  broken.last_update.cells.clear();
  EXPECT_TRUE(ThrowsKind(kInvalid, [&] { th::HistogramClient(p, broken); }));
  broken = u.state();
  broken.current.samples = 99;
  EXPECT_TRUE(ThrowsKind(kInvalid, [&] { th::HistogramClient(p, broken); }));
  broken = u.state();
  broken.vote_spent = p.stream.vote_cap() + 2 * a;
  EXPECT_TRUE(ThrowsKind(kInvalid, [&] { th::HistogramClient(p, broken); }));
  EXPECT_EQ(u.worst_case_loss(), p.stream.worst_case_loss());
}

// The published oracle: unbiased for Σ_i p̂_i(v) (up to the collision term) and its
// standard error as stated (conservative), over repeated report rounds of one fixed
// population of histograms. t = 1 (the single row: unbiased exactly, for ⟨Φe_v, Φp̂⟩
// including collisions) and t = 8 (the median over rows).
TEST(ThreshHistogramOracle, UnbiasedWithItsStandardError) {
  const auto words = dictionary(40);
  std::vector<int> order(40);
  for (int i = 0; i < 40; ++i) order[static_cast<size_t>(i)] = i;
  const std::vector<double> dist = zipf(order);
  double sum_p2 = 0;
  for (double q : dist) sum_p2 += q * q;
  for (int64_t t : {1, 8}) {
    th::HistogramConfig c = small_stream();
    c.stream.epoch_rounds = 1000;
    c.stream.estimate_noise = 1.0;
    c.hashes = t;
    c.width = 2048 / t;
    th::HistogramParams p = th::derive_histogram_params(c);
    Columns cols(p, words);
    Rng rng(77 + static_cast<uint64_t>(t));
    const int n = 2000, rounds = 150;
    std::vector<th::HistogramClient::State> users(n);
    std::vector<double> truth(words.size()), exact(words.size());  // Σ p̂_i(v), Σ ⟨Φe_v, Φp̂_i⟩
    for (auto& s : users) {
      auto counts = multinomial(rng, 1000, dist);
      for (size_t v = 0; v < words.size(); ++v) truth[v] += static_cast<double>(counts[v]) / 1000;
      th::histogram_vote_step(p, s, 1,
                              th::project_columns(p, cols.cells.data(), cols.plus.get(), counts.data(), counts.size()),
                              rng);
      for (size_t v = 0; v < words.size() && t == 1; ++v) {
        auto it = std::find_if(s.current.cells.begin(), s.current.cells.end(),
                               [&](const auto& cell) { return cell.first == cols.cells[v]; });
        if (it != s.current.cells.end())
          exact[v] += (cols.plus[v] ? 1.0 : -1.0) * static_cast<double>(it->second) / 1000;
      }
    }
    const std::vector<double>& target = t == 1 ? exact : truth;
    std::vector<double> sum(words.size()), sum2(words.size()), stated(words.size());
    std::vector<uint8_t> mem(ldp::sketch_summary_size(ldp::SketchMechanism::Hashtogram, p.oracle()));
    auto* s = reinterpret_cast<ldp::SketchSummary*>(mem.data());
    std::vector<int64_t> table(static_cast<size_t>(p.cells()));
    std::vector<uint64_t> scratch(3 * static_cast<size_t>(t));
    for (int r = 0; r < rounds; ++r) {
      ldp::sketch_summary_init(s, ldp::SketchMechanism::Hashtogram, p.oracle());
      for (auto& u : users) {
        th::HistogramClient::State copy = u;
        copy.update_epoch = 0;  // each round a fresh report of the same histogram
        copy.estimate_spent = 0;
        ldp::SignedSketchReport rep = th::histogram_report_step(p, copy, rng);
        ldp::sketch_add_signed(s, rep.hash_index, rep.coefficient, rep.report);
      }
      ldp::sketch_prepare(*s, table.data());
      for (size_t v = 0; v < words.size(); ++v) {
        th::FrequencyEstimate e = th::histogram_frequency(p, *s, table.data(), words[v], scratch.data());
        ASSERT_DOUBLE_EQ(e.frequency, e.count / n);
        sum[v] += e.count;
        sum2[v] += e.count * e.count;
        stated[v] += e.std_error * n;
      }
    }
    double worst_bias = 0, lo_ratio = 1e9, hi_ratio = 0;
    for (size_t v = 0; v < words.size(); ++v) {
      double mean = sum[v] / rounds, sd = std::sqrt(sum2[v] / rounds - mean * mean);
      double se = stated[v] / rounds;
      // mean within 4 standard errors of the mean (plus the collision RMS for t = 8)
      double coll = t == 1 ? 0 : n * std::sqrt(sum_p2 / static_cast<double>(p.cells()));
      EXPECT_LE(std::fabs(mean - target[v]), 4 * sd / std::sqrt(rounds) + 3 * coll) << t << " " << v;
      worst_bias = std::max(worst_bias, std::fabs(mean - target[v]) / (sd / std::sqrt(rounds)));
      lo_ratio = std::min(lo_ratio, sd / se);
      hi_ratio = std::max(hi_ratio, sd / se);
    }
    EXPECT_GT(lo_ratio, 0.6);  // conservative, not loose
    EXPECT_LT(hi_ratio, 1.1);
    std::printf("[ HTHRESH  ] oracle t=%lld: max |bias| %.2f SEM; observed/stated sd in [%.3f, %.3f]\n",
                static_cast<long long>(t), worst_bias, lo_ratio, hi_ratio);
  }
}

// End to end: n = 2,000 devices (bare states), the server's rule and the published
// oracle, three replicates. Group 0 (1,000 users) changes its Zipf ranking at epochs 5
// and 11, group 1 (1,000) at epoch 8: each change moves E z by far more than τ_⌈log T⌉
// + 2y_Φ, so it is voted at the top level and updates at once. Checked: decisions and
// published counters and estimates equal the rules applied by hand; caps; updates <=
// epochs with a change; the error bound z_{1−δ/4}·se covers >= 1 − δ of the (epoch,
// item) pairs of the top 20 items while the oracle is current, and is <= 3× the RMS error.
TEST(ThreshHistogramSimulation, EndToEnd) {
  th::HistogramConfig config = small_stream();
  // half the users (the time of the test), with a = 0.7 given, ε = 8. Group 0 needs 3
  // truthful votes (epochs 1, 5 and 11) and everyone 4 truthful reports (1, 5, 8, 11):
  // the 0.10.0 cap rule pays for 3a and 5b within ε/3 = 2.667 (⌊8/2.1⌋ = 3 votes,
  // ⌊8/1.5⌋ = 5 reports, worst-case loss 2·0.7·3 + 0.5·5 = 6.7 <= ε), 0.9.0's rule at the
  // same ε for 3 and 4 (⌈2/0.7⌉, ⌈2/0.5⌉; 6.2): the decisions are the same, draw for draw.
  config.stream.users = 2000;
  config.stream.min_group_size = 1000;
  config.stream.vote_noise = 0.7;
  th::HistogramParams p = th::derive_histogram_params(config);
  ASSERT_EQ(p.stream.config.epsilon, 8);
  ASSERT_EQ(p.stream.max_truthful_votes(), 3);
  ASSERT_EQ(p.stream.max_truthful_estimates(), 5);
  ASSERT_LE(p.stream.worst_case_loss(), p.stream.config.epsilon);
  const int64_t n = p.stream.config.users, t = p.hashes, m = p.width;
  const double c = 1 / std::tanh(p.stream.estimate_noise / 2);
  const auto words = dictionary(60);
  Columns cols(p, words);
  const std::vector<int> change_epochs = {1, 5, 8, 11};
  int64_t covered = 0, pairs = 0;
  double sq = 0, bound_sum = 0, max_bound = 0, max_error = 0;
  for (uint64_t seed : {11u, 12u, 13u}) {
    Rng rng(seed);
    // group g's distribution in each period: random rankings
    auto ranking = [&] {
      std::vector<int> order(words.size());
      for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
      for (size_t i = order.size() - 1; i > 0; --i) std::swap(order[i], order[rng.below(i + 1)]);
      return zipf(order);
    };
    const std::vector<std::vector<double>> g0 = {ranking(), ranking(), ranking()}, g1 = {ranking(), ranking()};
    auto dist = [&](int g, int epoch) -> const std::vector<double>& {
      if (g == 0) return g0[epoch < 5 ? 0 : epoch < 11 ? 1 : 2];
      return g1[epoch < 8 ? 0 : 1];
    };
    std::vector<th::HistogramClient::State> users(static_cast<size_t>(n));
    std::vector<uint8_t> mem(ldp::sketch_summary_size(ldp::SketchMechanism::Hashtogram, p.oracle()));
    auto* oracle = reinterpret_cast<ldp::SketchSummary*>(mem.data());
    std::vector<int64_t> table(static_cast<size_t>(p.cells())), hand(static_cast<size_t>(p.cells()));
    std::vector<uint64_t> scratch(3 * static_cast<size_t>(t));  // sketch_scratch_words of the oracle
    std::vector<int> updates;
    for (int epoch = 1; epoch <= p.stream.config.epochs; ++epoch) {
      int64_t yes = 0;
      for (int64_t i = 0; i < n; ++i) {
        auto counts = multinomial(rng, p.stream.config.epoch_rounds, dist(i < n / 2 ? 0 : 1, epoch));
        yes += th::histogram_vote_step(
            p, users[static_cast<size_t>(i)], epoch,
            th::project_columns(p, cols.cells.data(), cols.plus.get(), counts.data(), counts.size()), rng);
      }
      // the rule by hand: yes/n > 1/(e^a+1) + sqrt(ln(10T/δ)/(2n))
      double threshold = 1 / (std::exp(p.stream.vote_noise) + 1) +
                         std::sqrt(std::log(10.0 * p.stream.config.epochs / p.stream.config.delta) / (2.0 * n));
      bool update = th::global_update(p.stream, n, yes);
      ASSERT_EQ(update, static_cast<double>(yes) / n > threshold) << epoch;
      if (update) {
        updates.push_back(epoch);
        ldp::sketch_summary_init(oracle, ldp::SketchMechanism::Hashtogram, p.oracle());
        std::fill(hand.begin(), hand.end(), 0);
        for (auto& u : users) {
          ldp::SignedSketchReport r = th::histogram_report_step(p, u, rng);
          ldp::sketch_add_signed(oracle, r.hash_index, r.coefficient, r.report);
          hand[static_cast<size_t>(r.hash_index * m + r.coefficient)] += r.report ? 1 : -1;
        }
        ASSERT_EQ(oracle->n, n);
        ASSERT_TRUE(std::equal(hand.begin(), hand.end(), oracle->counters()));
        ldp::sketch_prepare(*oracle, table.data());
      }
      ASSERT_FALSE(updates.empty());
      int current_from = 0;  // the latest change at or before this epoch
      for (int ch : change_epochs) if (ch <= epoch) current_from = ch;
      std::vector<double> truth(words.size());
      for (size_t v = 0; v < words.size(); ++v) truth[v] = (dist(0, epoch)[v] + dist(1, epoch)[v]) / 2;
      std::vector<size_t> top(words.size());
      for (size_t v = 0; v < top.size(); ++v) top[v] = v;
      std::partial_sort(top.begin(), top.begin() + 20, top.end(), [&](size_t x, size_t y) { return truth[x] > truth[y]; });
      for (size_t k = 0; k < 20; ++k) {
        const size_t v = top[k];
        th::FrequencyEstimate e = th::histogram_frequency(p, *oracle, table.data(), words[v], scratch.data());
        // the estimate by hand: median_j t·c·g_j(v)·Σ_r S[j][r]·H[r][h_j(v)]
        std::vector<double> rows(static_cast<size_t>(t));
        for (int64_t j = 0; j < t; ++j) {
          const uint32_t cell = cols.cells[v * static_cast<size_t>(t) + static_cast<size_t>(j)];
          const int64_t col = cell - j * m;
          double sum = 0;
          for (int64_t r = 0; r < m; ++r)
            sum += ((__builtin_popcountll(static_cast<uint64_t>(r & col)) & 1) ? -1.0 : 1.0) *
                   static_cast<double>(hand[static_cast<size_t>(j * m + r)]);
          rows[static_cast<size_t>(j)] = (cols.plus[v * static_cast<size_t>(t) + static_cast<size_t>(j)] ? 1 : -1) *
                                         static_cast<double>(t) * c * sum;
        }
        std::sort(rows.begin(), rows.end());
        const double median = (rows[static_cast<size_t>(t / 2 - 1)] + rows[static_cast<size_t>(t / 2)]) / 2;
        ASSERT_NEAR(e.count, median, 1e-9 * std::max(1.0, std::fabs(median)));
        if (updates.back() < current_from) continue;  // stale: a change not yet published
        const double err = e.frequency - truth[v];
        ++pairs;
        covered += std::fabs(err) <= e.bound;
        sq += err * err;
        max_error = std::max(max_error, std::fabs(err));
        bound_sum += e.bound;
        max_bound = std::max(max_bound, e.bound);
      }
    }
    // caps, and no more updates than epochs with a change (epoch 1 counts: f(0) = 0)
    for (const auto& u : users) {
      ASSERT_LE(u.vote_spent, p.stream.max_vote_spent());
      ASSERT_LE(u.estimate_spent, p.stream.max_estimate_spent());
    }
    EXPECT_LE(updates.size(), change_epochs.size());
    EXPECT_EQ(updates, change_epochs) << "seed " << seed;
  }
  const double rms = std::sqrt(sq / static_cast<double>(pairs));
  const double coverage = static_cast<double>(covered) / static_cast<double>(pairs);
  EXPECT_EQ(pairs, 3 * 16 * 20);  // every change published at once
  EXPECT_LE(max_bound, 3 * rms);
  EXPECT_GE(coverage, 1 - p.stream.config.delta);
  std::printf("[ HTHRESH  ] n=%lld T=%d l=%lld t=%lld m=%lld b=%.2f eps=%g: bound z*se = %.4f (mean), RMS error "
              "%.4f, max |f^ - f| %.4f, bound/RMS %.2f, coverage %.3f over %lld (epoch, item) pairs; worst-case "
              "loss %.3f\n",
              static_cast<long long>(n), p.stream.config.epochs, static_cast<long long>(p.stream.config.epoch_rounds),
              static_cast<long long>(t), static_cast<long long>(m), p.stream.estimate_noise, p.stream.config.epsilon,
              bound_sum / pairs, rms, max_error, bound_sum / pairs / rms, coverage, static_cast<long long>(pairs),
              p.stream.worst_case_loss());
}

}  // namespace
