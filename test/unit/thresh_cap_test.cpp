// THRESH's cap rule (issue 27.4; src/core/thresh/params.hpp, "Privacy accounting"):
// under NextWithinCap (streams from 0.10.0, caps ε/3 for votes and ε/3 for estimates) no
// transcript of a device loses more than worst_case_loss() <= ε, searched over
// adversarial data and adversarial global updates (exhaustively on short streams, by
// construction and at random on longer ones, over many configurations including issue
// 27's 1.408 one); the bound reaches ε, and never passes it in floating point (caps met
// exactly, an ulp off, and the sums that round one ulp above ε until K_E is lowered);
// derive_params refuses exactly the configurations that cannot afford one truthful vote
// and one truthful estimate, saying what works; 0.9.0's rule (SpentBelowCap, caps ε/4)
// is kept for old streams and does exceed ε where the issue says. Every random test is
// seeded.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "core/common/exact_sum.hpp"
#include "core/common/random.hpp"
#include "core/common/stats.hpp"
#include "test_support.hpp"
#include "core/thresh/client.hpp"
#include "core/thresh/histogram.hpp"
#include "core/thresh/params.hpp"

namespace {

namespace th = ldp::thresh;
using ldp::SeededRandom;
using ldp_test::ThrowsKind;
using th::CapRule;
constexpr auto kInvalid = ldp::ErrorKind::InvalidParameter;

// Issue 27's configuration: n = 100,000, T = 32, ℓ = 20,000, L = 40,000, m = 2, δ = 0.1
// (a = 0.1487, b = 0.8129 derived), at ε.
th::Config issue_config(double epsilon) {
  th::Config c;
  c.users = 100000;
  c.epochs = 32;
  c.epoch_rounds = 20000;
  c.min_group_size = 40000;
  c.groups = 2;
  c.epsilon = epsilon;
  c.delta = 0.1;
  return c;
}

// A stream with the given ε, a, b, T and rule. The threshold unit makes a change of the
// epoch mean by 1 (0 ↔ 1) the top level (voted on in every epoch) and one of 0.5 a
// lower level, so the search reaches the schedule's levels too.
th::Params stream(double epsilon, double a, double b, int32_t epochs, CapRule rule) {
  th::Config c;
  c.users = 1000;
  c.epochs = epochs;
  c.epoch_rounds = 100;
  c.min_group_size = 1;
  c.groups = 1;
  c.epsilon = epsilon;
  c.delta = 0.1;
  c.vote_noise = a;
  c.estimate_noise = b;
  int log_epochs = 0;
  while ((int64_t{1} << log_epochs) < epochs) ++log_epochs;
  c.threshold_unit = 0.99 / (2.0 * (log_epochs + 1));  // τ_top = 0.99
  c.cap_rule = rule;
  return th::derive_params(c);
}

// log P(1) of an EST of epoch mean m with noise b: (1 + m(e^b − 1))/(e^b + 1).
double est_one(double b, double m) { return std::log1p(m * std::expm1(b)) - std::log1p(std::exp(b)); }
double est_zero(double b, double m) {
  return std::log1p(-std::exp(est_one(b, m)));
}

// The privacy loss of a device's worst transcript when the public global updates are
// `updates` and its data is `x` (epoch means, one per epoch) or `y`: the sum over its
// messages of max over the message's values of |ln P_x − ln P_y| (the data-dependent
// choices are deterministic given the data and the updates, so the adversary may pick
// every message's worst value). A vote is truthful or not for each input (a loss of a
// when the two differ); an EST is truthful for both or neither (the estimate counter
// counts public updates: checked), and then loses |ln| of its two Bernoullis.
double transcript_loss(const th::Params& p, const std::vector<double>& x, const std::vector<double>& y,
                       const std::vector<bool>& updates) {
  SeededRandom rng(1);  // the values drawn do not matter, only which reports are truthful
  th::Client::State sx, sy;
  double loss = 0;
  for (int32_t t = 1; t <= p.config.epochs; ++t) {
    const size_t i = static_cast<size_t>(t - 1);
    const double vx = sx.vote_spent, vy = sy.vote_spent;
    th::vote_step(p, sx, t, x[i], rng);
    th::vote_step(p, sy, t, y[i], rng);
    if ((sx.vote_spent != vx) != (sy.vote_spent != vy)) loss += p.vote_noise;
    if (!updates[i]) continue;
    const double ex = sx.estimate_spent, ey = sy.estimate_spent;
    th::estimate_step(p, sx, rng);
    th::estimate_step(p, sy, rng);
    const bool tx = sx.estimate_spent != ex, ty = sy.estimate_spent != ey;
    EXPECT_EQ(tx, ty) << "an EST's truthfulness depends on the data";
    if (tx)
      loss += std::max(std::fabs(est_one(p.estimate_noise, x[i]) - est_one(p.estimate_noise, y[i])),
                       std::fabs(est_zero(p.estimate_noise, x[i]) - est_zero(p.estimate_noise, y[i])));
  }
  return loss;
}

// The adversary that reaches 2a(K_V − 1) + b·K_E (when T >= 2K_V + K_E): an update in
// epoch 1 (x = 1, y = 0: an EST of loss b; both spent a vote), then x moves (0) while y
// stays, until x has spent its votes, then y moves (1) while x cannot vote, then the
// remaining updates with x = 1, y = 0 (their votes spent: only ESTs lose).
double constructed_loss(const th::Params& p) {
  const int64_t kv = p.max_truthful_votes(), ke = p.max_truthful_estimates();
  const auto T = static_cast<size_t>(p.config.epochs);
  std::vector<double> x(T, 1.0), y(T, 0.0);
  std::vector<bool> updates(T, false);
  updates[0] = true;
  size_t t = 1;
  for (int64_t k = 1; k < kv && t < T; ++k, ++t) x[t] = 0.0;  // x votes truthfully, y does not
  for (int64_t k = 1; k < kv && t < T; ++k, ++t) x[t] = 0.0, y[t] = 1.0;  // y truthfully, x spent
  for (int64_t k = 1; k < ke && t < T; ++k, ++t) updates[t] = true;  // x = 1, y = 0
  return transcript_loss(p, x, y, updates);
}

// The exact maximum the schedule allows (params.hpp): the bound less the 2a of the votes
// both inputs spend alike before the first update.
double attainable(const th::Params& p) {
  return 2 * p.vote_noise * static_cast<double>(p.max_truthful_votes() - 1) +
         p.estimate_noise * static_cast<double>(p.max_truthful_estimates());
}

// Whether the stream is long enough for constructed_loss to reach attainable(p): one
// epoch, K_V − 1 for each input's votes, K_E − 1 more updates.
bool reachable(const th::Params& p) {
  return 2 * p.max_truthful_votes() + p.max_truthful_estimates() - 2 <= p.config.epochs;
}

// 2a·K_V + b·K_E − ε <= 0 in exact arithmetic (the products split exactly by fma, the
// sum exact): the guarantee itself, not its rounded value.
bool exactly_within(double epsilon, double a, int64_t kv, double b, int64_t ke) {
  const double dv = static_cast<double>(kv), de = static_cast<double>(ke);
  const double pv = a * dv, pe = b * de;
  ldp::ExactSum sum;
  sum.clear();
  for (double v : {pv, pv, std::fma(a, dv, -pv), std::fma(a, dv, -pv), pe, std::fma(b, de, -pe), -epsilon})
    sum.add(v);
  sum.normalize();
  return sum.is_negative() || sum.is_zero();
}

// What the rule promises of a budget at ε, a, b: the worst case within ε as computed and
// exactly, each counter within ε/3 exactly (3k·noise <= ε), and K_V, K_E the largest
// that do so (one more of either passes a cap or rounds the computed sum above ε).
void expect_within_epsilon(double epsilon, double a, double b, const th::Budget& k) {
  auto fits = [&](double noise, int64_t n) { return std::fma(3.0 * static_cast<double>(n), noise, -epsilon) <= 0; };
  auto loss = [&](int64_t kv, int64_t ke) {
    return 2.0 * (a * static_cast<double>(kv)) + b * static_cast<double>(ke);
  };
  EXPECT_EQ(k.worst_case_loss, loss(k.truthful_votes, k.truthful_estimates));
  EXPECT_LE(k.worst_case_loss, epsilon);
  EXPECT_TRUE(exactly_within(epsilon, a, k.truthful_votes, b, k.truthful_estimates));
  EXPECT_TRUE(fits(a, k.truthful_votes));
  EXPECT_TRUE(fits(b, k.truthful_estimates));
  EXPECT_TRUE(!fits(a, k.truthful_votes + 1) || loss(k.truthful_votes + 1, k.truthful_estimates) > epsilon);
  EXPECT_TRUE(!fits(b, k.truthful_estimates + 1) || loss(k.truthful_votes, k.truthful_estimates + 1) > epsilon);
}

// ---------------------------------------------------------------------------

// Every input pair over {0, 1}^T and every update sequence (2^(3T) transcripts) of a
// stream just long enough for the budget (T = 4 or 5), for budgets of 1 to 3 truthful
// votes and estimates: caps met exactly (3k·noise = ε, the bound then ε itself: 3, 6,
// 9, and 1 = fl(2·fl(1/3) + fl(1/3))), caps that decimal arithmetic would meet but
// binary does not (2·0.05 > 0.3/3), and caps not met. The worst transcript is within
// worst_case_loss() <= ε and reaches the exact maximum 2a(K_V − 1) + b·K_E. (A sum
// that rounds above ε needs K >= 5 of both kinds, T >= 12: RandomizedWorstCase and
// FloatingPointEdges cover it.)
TEST(ThreshCapRule, ExhaustiveWorstCaseWithinEpsilon) {
  struct Case {
    double epsilon, a, b;
    int32_t T;
    int64_t votes, estimates;
  };
  const Case cases[] = {{3, 1, 1, 4, 1, 1},          {1, 1.0 / 3, 1.0 / 3, 4, 1, 1}, {6, 1, 1, 5, 2, 2},
                        {9, 1.5, 1, 5, 2, 3},        {6, 2, 1, 4, 1, 2},             {1, 0.16, 0.3, 4, 2, 1},
                        {1, 0.3, 0.11, 5, 1, 3},     {2, 0.6, 0.3, 4, 1, 2},         {0.3, 0.05, 0.05, 4, 1, 1},
                        {0.3, 0.05, std::nextafter(0.1, 0.0), 4, 1, 1},              {8, 1.9, 0.7, 4, 1, 3},
                        {4, 0.9, 0.49, 4, 1, 2},     {0.3, 0.07, 0.075, 4, 1, 1},    {1, 0.1, 0.3, 5, 3, 1}};
  int at_epsilon = 0;
  for (const Case& cs : cases) {
    const int32_t T = cs.T;
    th::Params p = stream(cs.epsilon, cs.a, cs.b, T, CapRule::NextWithinCap);
    SCOPED_TRACE("eps " + std::to_string(cs.epsilon) + " a " + std::to_string(cs.a) + " b " +
                 std::to_string(cs.b));
    ASSERT_EQ(p.max_truthful_votes(), cs.votes);
    ASSERT_EQ(p.max_truthful_estimates(), cs.estimates);
    ASSERT_TRUE(reachable(p));
    expect_within_epsilon(cs.epsilon, cs.a, cs.b, th::device_budget(cs.epsilon, cs.a, cs.b, CapRule::NextWithinCap));
    double worst = 0;
    std::vector<double> x(T), y(T);
    std::vector<bool> updates(T);
    for (uint32_t mx = 0; mx < (1u << T); ++mx)
      for (uint32_t my = 0; my < (1u << T); ++my)
        for (uint32_t mu = 0; mu < (1u << T); ++mu) {
          for (int i = 0; i < T; ++i) {
            x[static_cast<size_t>(i)] = (mx >> i) & 1;
            y[static_cast<size_t>(i)] = (my >> i) & 1;
            updates[static_cast<size_t>(i)] = (mu >> i) & 1;
          }
          worst = std::max(worst, transcript_loss(p, x, y, updates));
        }
    EXPECT_LE(worst, p.worst_case_loss() + 1e-12);
    EXPECT_LE(p.worst_case_loss(), cs.epsilon);
    EXPECT_NEAR(worst, attainable(p), 1e-12);
    at_epsilon += p.worst_case_loss() == cs.epsilon;
  }
  EXPECT_EQ(at_epsilon, 5);  // the bound reaches ε: 3, 1, 6, 9, 6
}

// Many random configurations (ε from 0.05 to 20, a and b up to ε/3, T up to 64): the
// constructed adversary reaches 2a(K_V − 1) + b·K_E where T allows it, random inputs
// (means over {0, 0.5, 1} and uniform, updates at random rates) never pass the bound,
// and the bound is <= ε as computed in floating point and exactly. A quarter of the
// noises divide ε/3 (a few ulps either way), where the bound meets ε or rounds past it
// before K_E is lowered.
TEST(ThreshCapRule, RandomizedWorstCaseWithinEpsilon) {
  SeededRandom rng(271);
  int reached = 0, at_epsilon = 0;
  for (int config = 0; config < 400; ++config) {
    const double epsilon = 0.05 * std::pow(400.0, rng.uniform());
    const double cap = epsilon / 3;
    // a and b log-uniform in [cap/40, cap], sometimes a divisor of the cap
    auto noise = [&] {
      if (rng.bernoulli(0.25)) {
        double v = cap / static_cast<double>(1 + rng.below(12));
        for (int i = static_cast<int>(rng.below(5)) - 2; i != 0; i += i > 0 ? -1 : 1)
          v = std::nextafter(v, i > 0 ? INFINITY : 0.0);
        return v;
      }
      return cap / std::pow(40.0, rng.uniform());
    };
    double a = noise(), b = noise();
    while (std::fma(3.0, a, -epsilon) > 0) a = std::nextafter(a, 0.0);  // an ulp above ε/3 does not fit
    while (std::fma(3.0, b, -epsilon) > 0) b = std::nextafter(b, 0.0);
    const int32_t T = static_cast<int32_t>(8 << rng.below(4));
    th::Params p = stream(epsilon, a, b, T, CapRule::NextWithinCap);
    SCOPED_TRACE("config " + std::to_string(config));
    ASSERT_LE(p.worst_case_loss(), epsilon);
    ASSERT_LE(p.max_vote_spent(), p.vote_cap());
    ASSERT_LE(p.max_estimate_spent(), p.estimate_cap());
    expect_within_epsilon(epsilon, a, b, th::device_budget(epsilon, a, b, CapRule::NextWithinCap));
    at_epsilon += p.worst_case_loss() == epsilon;
    const double c = constructed_loss(p);
    EXPECT_LE(c, p.worst_case_loss() + 1e-12);
    if (reachable(p)) {
      EXPECT_NEAR(c, attainable(p), 1e-9 * epsilon);
      ++reached;
    }
    const auto n = static_cast<size_t>(T);
    std::vector<double> x(n), y(n);
    std::vector<bool> updates(n);
    for (int trial = 0; trial < 40; ++trial) {
      const double rate = rng.uniform();
      for (size_t i = 0; i < n; ++i) {
        auto value = [&] { return trial % 2 ? rng.uniform() : 0.5 * static_cast<double>(rng.below(3)); };
        x[i] = value();
        y[i] = value();
        updates[i] = rng.bernoulli(rate);
      }
      ASSERT_LE(transcript_loss(p, x, y, updates), p.worst_case_loss() + 1e-12);
    }
  }
  EXPECT_GE(reached, 100);
  EXPECT_GE(at_epsilon, 2);  // bounds exactly ε (FloatingPointEdges finds thousands)
}

// The floating-point edges of the budget, over a million configurations whose noises
// divide ε/3 to within a few ulps (K_V, K_E from 1 to 40): 2a·K_V + b·K_E is never above
// ε, as computed or exactly, and K_V, K_E are the largest that keep it so. Some sums
// land exactly on ε; some would round one ulp above it with K_E = ⌊ε/(3b)⌋, and then
// K_E is one lower (K_V never needs lowering: with K_E = 1 the sum rounds within ε).
// Two of those, by hand: fl(2·fl(5a) + fl(5b)) and fl(2·fl(18a) + fl(18b)) are the
// double after ε.
TEST(ThreshCapRule, FloatingPointEdges) {
  SeededRandom rng(273);
  int at_epsilon = 0, lowered = 0;
  for (int i = 0; i < 1000000; ++i) {
    const double epsilon = rng.bernoulli(0.5) ? 0.05 * std::pow(400.0, rng.uniform())
                                              : std::ldexp(1 + static_cast<double>(rng.below(64)) / 64,
                                                           static_cast<int>(rng.below(8)) - 2);
    auto noise = [&] {
      double v = epsilon / 3 / static_cast<double>(1 + rng.below(40));
      for (int k = static_cast<int>(rng.below(7)) - 3; k != 0; k += k > 0 ? -1 : 1)
        v = std::nextafter(v, k > 0 ? INFINITY : 0.0);
      return v;
    };
    const double a = noise(), b = noise();
    if (a < ldp::kMinEpsilon || b < ldp::kMinEpsilon) continue;
    const th::Budget k = th::device_budget(epsilon, a, b, CapRule::NextWithinCap);
    if (k.truthful_votes < 1 || k.truthful_estimates < 1) continue;  // 3a or 3b above ε by an ulp
    // ⌊ε/(3b)⌋ exactly: the largest n with 3n·b <= ε
    auto fits = [&](int64_t n) { return std::fma(3.0 * static_cast<double>(n), b, -epsilon) <= 0; };
    auto top = static_cast<int64_t>(std::floor(epsilon / 3 / b));
    while (!fits(top)) --top;
    while (fits(top + 1)) ++top;
    EXPECT_GE(k.truthful_estimates, top - 1);
    if (k.truthful_estimates < top) ++lowered;
    at_epsilon += k.worst_case_loss == epsilon;
    if (k.worst_case_loss > epsilon || !exactly_within(epsilon, a, k.truthful_votes, b, k.truthful_estimates) ||
        i % 1000 == 0) {
      SCOPED_TRACE(std::to_string(epsilon) + " " + std::to_string(a) + " " + std::to_string(b));
      expect_within_epsilon(epsilon, a, b, k);
      if (::testing::Test::HasFailure()) return;
    }
  }
  EXPECT_GE(at_epsilon, 10000);
  EXPECT_GE(lowered, 10);
  std::printf("[ CAPS     ] 1e6 configurations: %d bounds exactly at epsilon, %d with K_E lowered a step\n",
              at_epsilon, lowered);

  struct Edge {
    double epsilon, noise;
    int64_t k;
  };
  for (const Edge& e : {Edge{0.84094108489859998, 0.056062738993239998, 5},
                        Edge{6.851225827109606, 0.12687455235388159, 18}}) {
    const double k = static_cast<double>(e.k);
    ASSERT_TRUE(std::fma(3 * k, e.noise, -e.epsilon) <= 0);  // k reports of each kind fit ε/3 exactly
    ASSERT_EQ(2.0 * (e.noise * k) + e.noise * k, std::nextafter(e.epsilon, INFINITY));  // but round past ε
    const th::Budget b = th::device_budget(e.epsilon, e.noise, e.noise, CapRule::NextWithinCap);
    EXPECT_EQ(b.truthful_votes, e.k);
    EXPECT_EQ(b.truthful_estimates, e.k - 1);
    expect_within_epsilon(e.epsilon, e.noise, e.noise, b);
    // the device stops at the published K_E: a stream with these numbers, an update
    // after every epoch
    th::Params p = stream(e.epsilon, e.noise, e.noise, 64, CapRule::NextWithinCap);
    EXPECT_EQ(p.max_truthful_estimates(), e.k - 1);
    EXPECT_EQ(p.worst_case_loss(), b.worst_case_loss);
    SeededRandom r(6);
    th::Client c(p);
    int64_t estimates = 0;
    for (int t = 1; t <= 64; ++t) {
      const double before = c.state().estimate_spent;
      c.vote(t, t % 2 ? 1.0 : 0.0, r);
      c.estimate(r);
      estimates += c.state().estimate_spent > before;
    }
    EXPECT_EQ(estimates, e.k - 1);
  }
}

// Issue 27's configuration: at ε = 1 0.9.0's rule lets a device lose 1.408 by the bound
// (b = 0.813 > ε/4 pays one truthful estimate anyway), and the adversary really passes
// ε = 1 (2a + b = 1.110); the new rule refuses it (3b > ε). At every ε that affords one
// vote and one estimate (ε >= 3b = 2.4386) the worst case found is within the bound, <= ε.
TEST(ThreshCapRule, IssueConfiguration) {
  th::Config legacy = issue_config(1);
  legacy.cap_rule = CapRule::SpentBelowCap;
  th::Params old = th::derive_params(legacy);
  EXPECT_NEAR(old.vote_noise, 0.1486797582278275, 1e-12);
  EXPECT_NEAR(old.estimate_noise, 0.8128552531730954, 1e-12);
  EXPECT_EQ(old.max_truthful_votes(), 2);
  EXPECT_EQ(old.max_truthful_estimates(), 1);
  EXPECT_NEAR(old.worst_case_loss(), 1.4075742860844054, 1e-12);
  const double passed = constructed_loss(old);
  EXPECT_NEAR(passed, attainable(old), 1e-12);
  EXPECT_GT(passed, 1.0);  // the old rule really breaks ε-LDP here

  EXPECT_TRUE(ThrowsKind(kInvalid, [] { th::derive_params(issue_config(1)); }));
  const double b = old.estimate_noise;
  double need = 3 * b;  // 3b <= ε, exactly
  while (std::fma(3.0, b, -need) > 0) need = std::nextafter(need, INFINITY);
  EXPECT_TRUE(ThrowsKind(kInvalid, [&] { th::derive_params(issue_config(std::nextafter(need, 0.0))); }));
  for (double epsilon : {need, 3.0, 3.5, 4.0, 5.0, 8.0, 12.0, 20.0}) {
    th::Params p = th::derive_params(issue_config(epsilon));
    SCOPED_TRACE("eps " + std::to_string(epsilon));
    EXPECT_LE(p.worst_case_loss(), epsilon);
    EXPECT_EQ(p.max_truthful_votes(), static_cast<int64_t>(std::floor(epsilon / 3 / p.vote_noise)));
    EXPECT_EQ(p.max_truthful_estimates(), static_cast<int64_t>(std::floor(epsilon / 3 / p.estimate_noise)));
    expect_within_epsilon(epsilon, p.vote_noise, p.estimate_noise,
                          th::device_budget(epsilon, p.vote_noise, p.estimate_noise, CapRule::NextWithinCap));
    EXPECT_LE(constructed_loss(p), p.worst_case_loss());
    if (reachable(p)) EXPECT_NEAR(constructed_loss(p), attainable(p), 1e-12);
  }
  EXPECT_EQ(th::derive_params(issue_config(need)).max_truthful_estimates(), 1);
  // ε = 8: 17 votes (17a = 2.528 <= 8/3) and 3 estimates (3b = 2.439), worst case 7.49;
  // the ε/4 caps gave 13 and 2 (5.49), 0.9.0's rule 14 and 3 (6.60)
  th::Params at8 = th::derive_params(issue_config(8));
  EXPECT_EQ(at8.max_truthful_votes(), 17);
  EXPECT_EQ(at8.max_truthful_estimates(), 3);
  EXPECT_NEAR(at8.worst_case_loss(), 34 * at8.vote_noise + 3 * at8.estimate_noise, 1e-12);
}

// The refusal triggers exactly when 3a > ε or 3b > ε (compared without rounding), under
// NextWithinCap only; its message says what to change, and what it suggests works while
// one step further does not.
TEST(ThreshCapRule, RefusedExactlyWhenOneVoteAndOneEstimateAreUnaffordable) {
  SeededRandom rng(272);
  for (int i = 0; i < 2000; ++i) {
    const double epsilon = 0.01 * std::pow(1e4, rng.uniform());
    const double cap = epsilon / 3;
    auto noise = [&] {
      switch (rng.below(4)) {
        case 0: return cap;
        case 1: return std::nextafter(cap, INFINITY);
        case 2: return std::nextafter(cap, 0.0);
        default: return cap * std::pow(4.0, 2 * rng.uniform() - 1);
      }
    };
    th::Config c = issue_config(epsilon);
    c.vote_noise = noise();
    c.estimate_noise = noise();
    const bool affordable = std::fma(3.0, *c.vote_noise, -epsilon) <= 0 && std::fma(3.0, *c.estimate_noise, -epsilon) <= 0;
    SCOPED_TRACE(std::to_string(i));
    if (affordable) {
      th::Params p = th::derive_params(c);
      EXPECT_GE(p.max_truthful_votes(), 1);
      EXPECT_GE(p.max_truthful_estimates(), 1);
      EXPECT_LE(p.worst_case_loss(), epsilon);
    } else {
      EXPECT_TRUE(ThrowsKind(kInvalid, [&] { th::derive_params(c); }));
      // and the ε it names works, to the printed digits
      std::string msg;
      try {
        th::derive_params(c);
      } catch (const ldp::Error& e) {
        msg = e.what();
      }
      const size_t at = msg.find("3*max(a, b) = ");
      ASSERT_NE(at, std::string::npos) << msg;
      th::Config fixed = c;
      fixed.epsilon = std::stod(msg.substr(at + 14));
      EXPECT_NO_THROW(th::derive_params(fixed)) << msg;
    }
    c.cap_rule = CapRule::SpentBelowCap;  // 0.9.0's streams: never refused for this
    EXPECT_NO_THROW(th::derive_params(c));
  }
  // 3a == ε exactly: one truthful vote, worst case 2a + b = ε
  th::Config edge = issue_config(3);
  edge.vote_noise = 1;
  edge.estimate_noise = 1;
  th::Params p = th::derive_params(edge);
  EXPECT_EQ(p.max_truthful_votes(), 1);
  EXPECT_EQ(p.max_truthful_estimates(), 1);
  EXPECT_EQ(p.worst_case_loss(), 3);
  // binary, not decimal: 3·0.1 > 0.3 (0.1 and 0.3 as doubles), refused; a hair less noise fits
  edge = issue_config(0.3);
  edge.vote_noise = 0.05;
  edge.estimate_noise = 0.1;
  EXPECT_TRUE(ThrowsKind(kInvalid, [&] { th::derive_params(edge); }));
  edge.estimate_noise = std::nextafter(0.1, 0.0);
  EXPECT_EQ(th::derive_params(edge).max_truthful_estimates(), 1);

  // The messages: the derived b of issue 27's configuration
  std::string msg;
  try {
    th::derive_params(issue_config(1));
  } catch (const ldp::Error& e) {
    msg = e.what();
  }
  EXPECT_NE(msg.find("cannot pay for one truthful vote and one truthful estimate"), std::string::npos) << msg;
  EXPECT_NE(msg.find("budget of epsilon/3 = 0.3333333333"), std::string::npos) << msg;
  EXPECT_NE(msg.find("estimate noise exceeds it"), std::string::npos) << msg;
  EXPECT_NE(msg.find("epsilon >= 3*max(a, b) = 2.43857"), std::string::npos) << msg;
  const size_t at_ell = msg.find("up to epoch_rounds = ");
  ASSERT_NE(at_ell, std::string::npos) << msg;
  const int64_t ell = std::stoll(msg.substr(at_ell + 21));
  th::Config shorter = issue_config(1);
  shorter.epoch_rounds = ell;
  EXPECT_NO_THROW(th::derive_params(shorter));
  shorter.epoch_rounds = ell + 1;
  EXPECT_TRUE(ThrowsKind(kInvalid, [&] { th::derive_params(shorter); }));
  EXPECT_NO_THROW(th::derive_params(issue_config(2.43857)));
  EXPECT_TRUE(ThrowsKind(kInvalid, [&] { th::derive_params(issue_config(2.43856)); }));
  // the derived a: a larger min_group_size, and what it says works
  th::Config votes = issue_config(0.5);
  votes.min_group_size = 5000;
  votes.estimate_noise = 0.1;
  try {
    th::derive_params(votes);
    ADD_FAILURE() << "a = " << th::derive_params(votes).vote_noise << " accepted at eps/3 = 0.1667";
  } catch (const ldp::Error& e) {
    msg = e.what();
  }
  EXPECT_NE(msg.find("vote noise exceeds it"), std::string::npos) << msg;
  const size_t at = msg.find("min_group_size >= ");
  ASSERT_NE(at, std::string::npos) << msg;
  const int64_t L = std::stoll(msg.substr(at + 18));
  votes.min_group_size = L;
  EXPECT_NO_THROW(th::derive_params(votes)) << msg;
  votes.min_group_size = L - 1;
  EXPECT_TRUE(ThrowsKind(kInvalid, [&] { th::derive_params(votes); })) << msg;
  // given noises: the bound to stay within, rounded down (0.3333333333 <= 1/3) and the
  // epsilon rounded up past 3·0.4 = 1.2000000000000002 (1.2 itself does not fit)
  th::Config given = issue_config(1);
  given.vote_noise = 0.4;
  given.estimate_noise = 0.1;
  try {
    th::derive_params(given);
  } catch (const ldp::Error& e) {
    msg = e.what();
  }
  EXPECT_NE(msg.find("or a vote_noise <= 0.3333333333"), std::string::npos) << msg;
  EXPECT_NE(msg.find("epsilon >= 3*max(a, b) = 1.20001"), std::string::npos) << msg;
  given.vote_noise = 0.3333333333;
  EXPECT_NO_THROW(th::derive_params(given));
  given.vote_noise = 0.4;
  given.epsilon = 1.2;
  EXPECT_TRUE(ThrowsKind(kInvalid, [&] { th::derive_params(given); }));
  // both noises too large: both named, each with its fix (3·0.5 = 1.5 exactly)
  given.epsilon = 1;
  given.estimate_noise = 0.5;
  try {
    th::derive_params(given);
  } catch (const ldp::Error& e) {
    msg = e.what();
  }
  EXPECT_NE(msg.find("the vote and estimate noises exceed it; use epsilon >= 3*max(a, b) = 1.5, or a "
                     "vote_noise <= 0.3333333333, and an estimate_noise <= 0.3333333333"),
            std::string::npos)
      << msg;
}

// The device under each rule: how many truthful reports it sends when every epoch
// could have one (its data changes every epoch, an update after every vote), and its
// persisted counters; the counters of NextWithinCap read back exactly however long the
// stream (truthful_sent of k·a for k up to 2^31).
TEST(ThreshCapRule, DeviceCountsItsReports) {
  for (CapRule rule : {CapRule::NextWithinCap, CapRule::SpentBelowCap}) {
    th::Params p = stream(1, 0.12, 0.2, 32, rule);
    const bool next = rule == CapRule::NextWithinCap;
    EXPECT_EQ(p.max_truthful_votes(), next ? 2 : 3);      // 0.12, 0.24 (0.36 > 1/3) | 0, 0.12, 0.24 < 0.25
    EXPECT_EQ(p.max_truthful_estimates(), next ? 1 : 2);  // 0.2 (0.4 > 1/3) | 0, 0.2 < 0.25
    SeededRandom rng(3);
    th::Client c(p);
    int votes = 0, ests = 0;
    for (int t = 1; t <= 32; ++t) {
      const double v0 = c.state().vote_spent, e0 = c.state().estimate_spent;
      c.vote(t, t % 2 ? 1.0 : 0.0, rng);
      c.estimate(rng);
      votes += c.state().vote_spent > v0;
      ests += c.state().estimate_spent > e0;
      // (0.9.0's running sums may differ from the products by an ulp)
      ASSERT_LE(c.state().vote_spent, p.max_vote_spent() * (1 + 1e-12));
      ASSERT_LE(c.state().estimate_spent, p.max_estimate_spent() * (1 + 1e-12));
      th::Client restored(p, c.state());  // every state it reaches is a valid one
    }
    EXPECT_EQ(votes, p.max_truthful_votes());
    EXPECT_EQ(ests, p.max_truthful_estimates());
    EXPECT_LE(p.max_vote_spent(), next ? p.vote_cap() : p.vote_cap() + p.vote_noise);
    // a state past the rule's reach is refused
    th::Client::State s = c.state();
    s.vote_spent = p.max_vote_spent() + p.vote_noise;
    EXPECT_TRUE(ThrowsKind(kInvalid, [&] { th::Client(p, s); }));
  }
  SeededRandom rng(4);
  for (int i = 0; i < 20000; ++i) {
    const double a = std::pow(10.0, 8 * rng.uniform() - 6);
    const auto k = static_cast<int64_t>(rng.below(uint64_t{1} << (1 + rng.below(31))));
    ASSERT_EQ(th::truthful_sent(static_cast<double>(k) * a, a), k) << a;
  }
  EXPECT_EQ(th::truthful_sent(0.5, 1.0), 1);  // part of a report counts as one
}

// HEAVYTHRESH runs the same steps: its devices never send more truthful votes or
// reports than K_V and K_E, and the worst transcript over random projections and
// updates (a report loses at most b: (1 + tanh(b/2))/(1 − tanh(b/2)) = e^b) is within
// worst_case_loss() <= ε (caps ε/3 = 0.667).
TEST(ThreshCapRule, HistogramDevicesWithinEpsilon) {
  th::HistogramConfig hc;
  hc.stream = th::Config{200, 16, 20, 100, 2, 2.0, 0.1, 0.11, 0.3};
  hc.stream.threshold_unit = 0.05;
  hc.hashes = 2;
  hc.width = 8;
  th::HistogramParams p = th::derive_histogram_params(hc);
  ASSERT_EQ(p.stream.max_truthful_votes(), 6);      // 6·0.11 = 0.66 <= 2/3 < 0.77
  ASSERT_EQ(p.stream.max_truthful_estimates(), 2);  // 0.6 <= 2/3 < 0.9
  EXPECT_LE(p.stream.worst_case_loss(), 2.0);
  const std::vector<std::string> words = {"a", "b", "c", "d", "e"};
  SeededRandom rng(5);
  double worst = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    th::HistogramClient::State x, y;
    double loss = 0;
    const double rate = rng.uniform();
    for (int64_t t = 1; t <= 16; ++t) {
      auto histogram = [&] {
        std::vector<th::ItemCount> items;
        int64_t left = 20;
        for (size_t w = 0; w < words.size() && left > 0; ++w) {
          int64_t k = w + 1 == words.size() ? left : static_cast<int64_t>(rng.below(static_cast<uint64_t>(left) + 1));
          if (k > 0) items.push_back({words[w], k});
          left -= k;
        }
        return th::project(p, items.data(), items.size());
      };
      const double vx = x.vote_spent, vy = y.vote_spent;
      th::histogram_vote_step(p, x, t, histogram(), rng);
      th::histogram_vote_step(p, y, t, histogram(), rng);
      if ((x.vote_spent != vx) != (y.vote_spent != vy)) loss += p.stream.vote_noise;
      if (!rng.bernoulli(rate)) continue;
      const double ex = x.estimate_spent, ey = y.estimate_spent;
      th::histogram_report_step(p, x, rng);
      th::histogram_report_step(p, y, rng);
      ASSERT_EQ(x.estimate_spent != ex, y.estimate_spent != ey);
      if (x.estimate_spent != ex) loss += p.stream.estimate_noise;
    }
    ASSERT_LE(th::truthful_sent(x.vote_spent, p.stream.vote_noise), 6);
    ASSERT_LE(th::truthful_sent(x.estimate_spent, p.stream.estimate_noise), 2);
    worst = std::max(worst, loss);
  }
  EXPECT_LE(worst, p.stream.worst_case_loss() + 1e-12);
  EXPECT_GT(worst, p.stream.estimate_noise);  // the search reached data-dependent votes
}

}  // namespace
