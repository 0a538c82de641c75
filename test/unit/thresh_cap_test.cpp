// THRESH's cap rule (issue 27.4; src/core/thresh/params.hpp, "Privacy accounting"):
// under NextWithinCap (streams from 0.10.0) no transcript of a device loses more than
// worst_case_loss() <= 3ε/4 <= ε, searched over adversarial data and adversarial global
// updates (exhaustively on short streams, by construction and at random on longer ones,
// over many configurations including issue 27's 1.408 one); derive_params refuses
// exactly the configurations that cannot afford one truthful vote and one truthful
// estimate, saying what works; 0.9.0's rule (SpentBelowCap) is kept for old streams and
// does exceed ε where the issue says. Every random test is seeded.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "common/random.hpp"
#include "test_support.hpp"
#include "thresh/client.hpp"
#include "thresh/histogram.hpp"
#include "thresh/params.hpp"

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

// ---------------------------------------------------------------------------

// Every input pair over {0, 1}^T and every update sequence (2^(3T) transcripts) of a
// stream just long enough for the budget (T = 4 or 5), for budgets of 1 to 3 truthful
// votes and estimates, the caps met exactly (k·noise = ε/4) or not: the worst
// transcript is within worst_case_loss() <= ε, and reaches the exact maximum
// 2a(K_V − 1) + b·K_E.
TEST(ThreshCapRule, ExhaustiveWorstCaseWithinEpsilon) {
  struct Case {
    double epsilon, a, b;
    int32_t T;
  };
  const Case cases[] = {{1, 0.25, 0.25, 4},    {1, 0.125, 0.25, 4}, {1, 0.1, 0.07, 5},   {1, 0.12, 0.2, 4},
                        {1, 0.0833, 0.2, 5},   {2, 0.5, 0.3, 4},    {4, 0.9, 0.49, 4},   {0.3, 0.07, 0.075, 4},
                        {8, 1.9, 0.7, 4},      {1, 0.25, 0.0834, 4}};
  for (const Case& cs : cases) {
    const int32_t T = cs.T;
    th::Params p = stream(cs.epsilon, cs.a, cs.b, T, CapRule::NextWithinCap);
    SCOPED_TRACE("eps " + std::to_string(cs.epsilon) + " a " + std::to_string(cs.a) + " b " +
                 std::to_string(cs.b));
    ASSERT_GE(p.max_truthful_votes(), 1);
    ASSERT_GE(p.max_truthful_estimates(), 1);
    ASSERT_TRUE(reachable(p));
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
  }
}

// Many random configurations (ε from 0.05 to 20, a and b up to ε/4, T up to 64): the
// constructed adversary reaches 2a(K_V − 1) + b·K_E where T allows it, random inputs
// (means over {0, 0.5, 1} and uniform, updates at random rates) never pass the bound,
// and the bound, as computed in floating point, is <= 3ε/4 <= ε.
TEST(ThreshCapRule, RandomizedWorstCaseWithinEpsilon) {
  SeededRandom rng(271);
  int reached = 0;
  for (int config = 0; config < 400; ++config) {
    const double epsilon = 0.05 * std::pow(400.0, rng.uniform());
    const double cap = epsilon / 4;
    // a and b log-uniform in [cap/40, cap], sometimes exactly a divisor of the cap
    auto noise = [&] {
      if (rng.bernoulli(0.25)) return cap / static_cast<double>(1 + rng.below(12));
      return cap / std::pow(40.0, rng.uniform());
    };
    const double a = noise(), b = noise();
    const int32_t T = static_cast<int32_t>(8 << rng.below(4));
    th::Params p = stream(epsilon, a, b, T, CapRule::NextWithinCap);
    SCOPED_TRACE("config " + std::to_string(config));
    ASSERT_LE(p.worst_case_loss(), 0.75 * epsilon);
    ASSERT_LE(p.max_vote_spent(), cap);
    ASSERT_LE(p.max_estimate_spent(), cap);
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
}

// Issue 27's configuration: at ε = 1 0.9.0's rule lets a device lose 1.408 by the bound
// (b = 0.813 > ε/4 pays one truthful estimate anyway), and the adversary really passes
// ε = 1 (2a + b = 1.110); the new rule refuses it (b > ε/4). At every ε that affords one
// vote and one estimate (ε >= 4b = 3.2514) the worst case found is within the bound, <= ε.
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
  const double need = 4 * old.estimate_noise;  // b <= ε/4
  EXPECT_TRUE(ThrowsKind(kInvalid, [&] { th::derive_params(issue_config(std::nextafter(need, 0.0))); }));
  for (double epsilon : {need, 3.5, 4.0, 5.0, 8.0, 12.0, 20.0}) {
    th::Params p = th::derive_params(issue_config(epsilon));
    SCOPED_TRACE("eps " + std::to_string(epsilon));
    EXPECT_LE(p.worst_case_loss(), epsilon);
    EXPECT_EQ(p.max_truthful_votes(), static_cast<int64_t>(std::floor(epsilon / 4 / p.vote_noise)));
    EXPECT_EQ(p.max_truthful_estimates(), static_cast<int64_t>(std::floor(epsilon / 4 / p.estimate_noise)));
    EXPECT_LE(constructed_loss(p), p.worst_case_loss());
    if (reachable(p)) EXPECT_NEAR(constructed_loss(p), attainable(p), 1e-12);
  }
  EXPECT_EQ(th::derive_params(issue_config(need)).max_truthful_estimates(), 1);
  th::Params at8 = th::derive_params(issue_config(8));
  EXPECT_EQ(at8.max_truthful_votes(), 13);
  EXPECT_EQ(at8.max_truthful_estimates(), 2);
  EXPECT_NEAR(at8.worst_case_loss(), 26 * at8.vote_noise + 2 * at8.estimate_noise, 1e-12);
}

// The refusal triggers exactly when a > ε/4 or b > ε/4 (the caps compared without
// rounding), under NextWithinCap only; its message says what to change, and what it
// suggests works while one step further does not.
TEST(ThreshCapRule, RefusedExactlyWhenOneVoteAndOneEstimateAreUnaffordable) {
  SeededRandom rng(272);
  for (int i = 0; i < 2000; ++i) {
    const double epsilon = 0.01 * std::pow(1e4, rng.uniform());
    const double cap = epsilon / 4;
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
    const bool affordable = *c.vote_noise <= cap && *c.estimate_noise <= cap;
    SCOPED_TRACE(std::to_string(i));
    if (affordable) {
      th::Params p = th::derive_params(c);
      EXPECT_GE(p.max_truthful_votes(), 1);
      EXPECT_GE(p.max_truthful_estimates(), 1);
      EXPECT_LE(p.worst_case_loss(), epsilon);
    } else {
      EXPECT_TRUE(ThrowsKind(kInvalid, [&] { th::derive_params(c); }));
    }
    c.cap_rule = CapRule::SpentBelowCap;  // 0.9.0's streams: never refused for this
    EXPECT_NO_THROW(th::derive_params(c));
  }
  // a == ε/4 exactly: one truthful vote, worst case 2a + b
  th::Config edge = issue_config(1);
  edge.vote_noise = 0.25;
  edge.estimate_noise = 0.25;
  th::Params p = th::derive_params(edge);
  EXPECT_EQ(p.max_truthful_votes(), 1);
  EXPECT_EQ(p.max_truthful_estimates(), 1);
  EXPECT_EQ(p.worst_case_loss(), 0.75);

  // The messages: the derived b of issue 27's configuration
  std::string msg;
  try {
    th::derive_params(issue_config(1));
  } catch (const ldp::Error& e) {
    msg = e.what();
  }
  EXPECT_NE(msg.find("cannot pay for one truthful vote and one truthful estimate"), std::string::npos) << msg;
  EXPECT_NE(msg.find("estimate noise exceeds it"), std::string::npos) << msg;
  EXPECT_NE(msg.find("epsilon >= 4*max(a, b) = 3.25143"), std::string::npos) << msg;
  EXPECT_NE(msg.find("up to epoch_rounds = 2956"), std::string::npos) << msg;
  th::Config shorter = issue_config(1);
  shorter.epoch_rounds = 2956;
  EXPECT_NO_THROW(th::derive_params(shorter));
  shorter.epoch_rounds = 2957;
  EXPECT_TRUE(ThrowsKind(kInvalid, [&] { th::derive_params(shorter); }));
  EXPECT_NO_THROW(th::derive_params(issue_config(3.25143)));
  // the derived a: a larger min_group_size, and what it says works
  th::Config votes = issue_config(0.5);
  votes.min_group_size = 5000;
  votes.estimate_noise = 0.1;
  try {
    th::derive_params(votes);
    ADD_FAILURE() << "a = " << th::derive_params(votes).vote_noise << " accepted at eps/4 = 0.125";
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
  // given noises: the bound to stay within
  th::Config given = issue_config(1);
  given.vote_noise = 0.3;
  given.estimate_noise = 0.1;
  try {
    th::derive_params(given);
  } catch (const ldp::Error& e) {
    msg = e.what();
  }
  EXPECT_NE(msg.find("a vote_noise <= epsilon/4 = 0.25"), std::string::npos) << msg;
  EXPECT_NE(msg.find("epsilon >= 4*max(a, b) = 1.2"), std::string::npos) << msg;
}

// The device under each rule: how many truthful reports it sends when every epoch
// could have one (its data changes every epoch, an update after every vote), and its
// persisted counters; the counters of NextWithinCap read back exactly however long the
// stream (truthful_sent of k·a for k up to 2^31).
TEST(ThreshCapRule, DeviceCountsItsReports) {
  for (CapRule rule : {CapRule::NextWithinCap, CapRule::SpentBelowCap}) {
    th::Params p = stream(1, 0.1, 0.07, 32, rule);
    const bool next = rule == CapRule::NextWithinCap;
    EXPECT_EQ(p.max_truthful_votes(), next ? 2 : 3);      // 0.1, 0.2 (0.3 > 0.25) | 0, 0.1, 0.2 < 0.25
    EXPECT_EQ(p.max_truthful_estimates(), next ? 3 : 4);  // 0.21 <= 0.25 | 0.21 < 0.25 sends a 4th
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
// worst_case_loss() <= ε.
TEST(ThreshCapRule, HistogramDevicesWithinEpsilon) {
  th::HistogramConfig hc;
  hc.stream = th::Config{200, 16, 20, 100, 2, 2.0, 0.1, 0.11, 0.3};
  hc.stream.threshold_unit = 0.05;
  hc.hashes = 2;
  hc.width = 8;
  th::HistogramParams p = th::derive_histogram_params(hc);
  ASSERT_EQ(p.stream.max_truthful_votes(), 4);      // 4·0.11 = 0.44 <= 0.5
  ASSERT_EQ(p.stream.max_truthful_estimates(), 1);  // 0.3 <= 0.5 < 0.6
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
    ASSERT_LE(th::truthful_sent(x.vote_spent, p.stream.vote_noise), 4);
    ASSERT_LE(th::truthful_sent(x.estimate_spent, p.stream.estimate_noise), 1);
    worst = std::max(worst, loss);
  }
  EXPECT_LE(worst, p.stream.worst_case_loss() + 1e-12);
  EXPECT_GT(worst, p.stream.estimate_noise);  // the search reached data-dependent votes
}

}  // namespace
