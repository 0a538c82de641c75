// THRESH (Joseph et al. 2018, docs/algorithms/thresh.md#thresh-parameters): parameters, the
// server's rules, the device (VOTE and EST) and the binomial sampler of the simulation helper
// (the end-to-end simulation: thresh_simulation_test.cpp; the cap rule: thresh_cap_test.cpp).
// Every random test is seeded.
#include <gtest/gtest.h>

#include <algorithm>
#include <boost/math/distributions/binomial.hpp>
#include <boost/math/distributions/chi_squared.hpp>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "core/common/random.hpp"
#include "test_support.hpp"
#include "core/thresh/client.hpp"
#include "core/thresh/params.hpp"
#include "core/thresh/server.hpp"
#include "tools/thresh/thresh_scenario.hpp"
#include "thresh_test_support.hpp"

namespace {

using ldp::ErrorKind;
using ldp::SeededRandom;
using ldp_test::Close;
using ldp_test::ThrowsKind;
namespace th = ldp::thresh;
using ldp_test::worked;

// Message of the ldp::Error that f throws (empty if none).
template <class F>
std::string message_of(F&& f) {
  try {
    f();
  } catch (const ldp::Error& e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

// ---------------------------------------------------------------------------
// derive_params

TEST(ThreshParams, WorkedConfiguration) {
  th::Params p = th::derive_params(worked());
  // The formulas of docs/algorithms/thresh.md#thresh-parameters, written out again here.
  const double n = 1e5, T = 32, ell = 2e4, L = 4e4, m = 2, delta = 0.05;
  double s = std::sqrt(2 * n * std::log(12 * m * T / delta));
  double a = 4 * s / (L - 3 * s);
  double x = std::sqrt(std::log(12 * T / delta) / (2 * n));
  double y = std::sqrt(std::log(12 * n * T / delta) / (2 * ell));
  double b = 2 * x / (y - x);
  double vt = 1 / (std::exp(a) + 1) + std::sqrt(std::log(10 * T / delta) / (2 * n));
  EXPECT_EQ(p.log_epochs, 5);
  EXPECT_TRUE(Close(p.vote_noise, a, 1e-12));
  EXPECT_TRUE(Close(p.estimate_noise, b, 1e-12));
  EXPECT_TRUE(Close(p.vote_threshold, vt, 1e-12));
  EXPECT_TRUE(Close(p.sampling_error, y, 1e-12));
  ASSERT_EQ(p.thresholds.size(), 7u);
  for (int lv = -1; lv <= 5; ++lv) EXPECT_TRUE(Close(p.tau(lv), 2 * (lv + 1) * y, 1e-12)) << lv;
  EXPECT_TRUE(Close(p.vote_cap(), 8.0 / 3));
  EXPECT_TRUE(Close(p.estimate_cap(), 8.0 / 3));
  EXPECT_TRUE(Close(p.accuracy_bound(), 28 * y, 1e-12));

  // By hand (Python, double precision):
  //   s = sqrt(2e5·ln(15360)) = 1388.48997..., 3s = 4165.4699 < L = 40000
  //   a = 5553.96/(40000 − 4165.47) = 0.15498905311068042
  //   x = sqrt(ln(7680)/2e5) = 0.006688189151833894
  //   y = sqrt(ln(7.68e8)/4e4) = 0.022615979025410304
  //   b = 2x/(y − x) = 0.8398138354310339
  //   vote threshold = 1/(e^a+1) + sqrt(ln(6400)/2e5) = 0.46794980292830657
  //   τ_-1..τ_5 = 0, 0.0452320, 0.0904639, 0.1356959, 0.1809278, 0.2261598, 0.2713917
  EXPECT_NEAR(p.vote_noise, 0.15498905311068042, 1e-12);
  EXPECT_NEAR(p.estimate_noise, 0.8398138354310339, 1e-12);
  EXPECT_NEAR(p.vote_threshold, 0.46794980292830657, 1e-12);
  EXPECT_NEAR(p.tau(2), 0.13569587415246182, 1e-12);
  EXPECT_NEAR(p.tau(5), 0.27139174830492363, 1e-12);
  EXPECT_EQ(p.tau(-1), 0.0);

  // The budgets (the next report must stay within ε/3 = 2.667): ⌊8/(3a)⌋ = 17 truthful
  // votes, ⌊8/(3b)⌋ = 3 truthful estimates (updates), worst-case loss 2·17a + 3b =
  // 7.789... <= ε.
  EXPECT_EQ(p.config.cap_rule, th::CapRule::NextWithinCap);
  EXPECT_EQ(p.max_truthful_votes(), 17);
  EXPECT_EQ(p.max_truthful_estimates(), 3);
  EXPECT_TRUE(Close(p.worst_case_loss(), 34 * a + 3 * b, 1e-12));
  EXPECT_NEAR(p.worst_case_loss(), 7.789, 1e-3);
  EXPECT_LE(p.worst_case_loss(), 8.0);
  // 0.9.0's rule (its streams keep it, caps ε/4 = 2): ⌈2/a⌉ = 13, ⌈2/b⌉ = 3, 2·13a + 3b = 6.549...
  th::Config legacy = worked();
  legacy.cap_rule = th::CapRule::SpentBelowCap;
  th::Params q = th::derive_params(legacy);
  EXPECT_EQ(q.max_truthful_votes(), 13);
  EXPECT_EQ(q.max_truthful_estimates(), 3);
  EXPECT_TRUE(Close(q.worst_case_loss(), 26 * a + 3 * b, 1e-12));
}

TEST(ThreshParams, LogEpochs) {
  const std::pair<int, int> cases[] = {{1, 0}, {2, 1}, {3, 2}, {4, 2}, {20, 5}, {32, 5}, {33, 6},
                                       {1024, 10}, {1025, 11}};
  for (auto [T, lg] : cases) {
    th::Config c = worked();
    c.epochs = T;
    th::Params p = th::derive_params(c);
    EXPECT_EQ(p.log_epochs, lg) << T;
    EXPECT_EQ(p.thresholds.size(), static_cast<size_t>(lg + 2)) << T;
    EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { p.tau(lg + 1); }));
    EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { p.tau(-2); }));
  }
}

TEST(ThreshParams, RefusesEachParameter) {
  struct Case {
    const char* field;
    std::function<void(th::Config&)> breaks;
  };
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const Case cases[] = {
      {"users", [](th::Config& c) { c.users = 0; }},
      {"users", [](th::Config& c) { c.users = -5; }},
      {"epochs", [](th::Config& c) { c.epochs = 0; }},
      {"epoch_rounds", [](th::Config& c) { c.epoch_rounds = 0; }},
      {"min_group_size", [](th::Config& c) { c.min_group_size = 0; }},
      {"min_group_size", [](th::Config& c) { c.min_group_size = c.users + 1; }},
      {"groups", [](th::Config& c) { c.groups = 0; }},
      {"groups * min_group_size", [](th::Config& c) { c.groups = 3; }},  // 3·40000 > 100000
      {"epsilon", [](th::Config& c) { c.epsilon = 0; }},
      {"epsilon", [](th::Config& c) { c.epsilon = -1; }},
      {"epsilon", [=](th::Config& c) { c.epsilon = inf; }},
      {"epsilon", [=](th::Config& c) { c.epsilon = nan; }},
      {"delta", [](th::Config& c) { c.delta = 0; }},
      {"delta", [](th::Config& c) { c.delta = 1; }},
      {"delta", [=](th::Config& c) { c.delta = nan; }},
      {"vote_noise", [](th::Config& c) { c.vote_noise = 0.0; }},
      {"vote_noise", [=](th::Config& c) { c.vote_noise = inf; }},
      {"estimate_noise", [](th::Config& c) { c.estimate_noise = -0.5; }},
      {"estimate_noise", [=](th::Config& c) { c.estimate_noise = nan; }},
      {"threshold_unit", [](th::Config& c) { c.threshold_unit = 0.0; }},
  };
  for (const Case& k : cases) {
    th::Config c = worked();
    k.breaks(c);
    std::string msg = message_of([&] { th::derive_params(c); });
    EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { th::derive_params(c); })) << k.field;
    EXPECT_TRUE(contains(msg, k.field)) << k.field << ": " << msg;
  }
}

TEST(ThreshParams, RefusesAssumption42WithTheSmallestGroupSize) {
  th::Config c = worked();
  c.min_group_size = 4000;  // 3·sqrt(2n·ln(12mT/δ)) = 4165.47
  std::string msg = message_of([&] { th::derive_params(c); });
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { th::derive_params(c); }));
  EXPECT_TRUE(contains(msg, "min_group_size")) << msg;
  EXPECT_TRUE(contains(msg, "Assumption 4.2")) << msg;
  EXPECT_TRUE(contains(msg, "min_group_size >= 4166")) << msg;
  EXPECT_TRUE(contains(msg, "vote_noise")) << msg;  // not truncated
  // At the boundary a = 4s/(L − 3s) = 10477: Assumption 4.2 holds, but no device could
  // pay for a truthful vote (ε/3 = 2.67, thresh_cap_test.cpp); 0.9.0's rule took it.
  c.min_group_size = 4166;
  EXPECT_TRUE(contains(message_of([&] { th::derive_params(c); }), "cannot pay for one truthful vote"));
  c.cap_rule = th::CapRule::SpentBelowCap;
  EXPECT_NO_THROW(th::derive_params(c));
  c.min_group_size = 4165;
  EXPECT_TRUE(contains(message_of([&] { th::derive_params(c); }), "Assumption 4.2"));

  // Too few users for any L: 10,000 users in 2 groups need L > 3·sqrt(2·10^4·ln(15360)),
  // about 1317, fine; in 8 groups L <= 1250 < 3·sqrt(2·10^4·ln(61440)) = 1409.
  th::Config d = worked();
  d.users = 10000;
  d.groups = 8;
  d.min_group_size = 1000;
  msg = message_of([&] { th::derive_params(d); });
  EXPECT_TRUE(contains(msg, "min_group_size")) << msg;
  EXPECT_TRUE(contains(msg, "no min_group_size")) << msg;
  EXPECT_TRUE(contains(msg, "vote_noise")) << msg;
  // The number of users it names works with L = users/m and one fewer does not.
  auto pos = msg.find("use at least ");
  ASSERT_NE(pos, std::string::npos) << msg;
  int64_t need = std::stoll(msg.substr(pos + 13));
  d.users = need;
  d.min_group_size = need / 8;
  d.epoch_rounds = 1000;
  d.cap_rule = th::CapRule::SpentBelowCap;  // a = 14991 there: the new rule refuses it
  EXPECT_NO_THROW(th::derive_params(d)) << need;
  d.users = need - 1;
  d.min_group_size = (need - 1) / 8;
  EXPECT_TRUE(contains(message_of([&] { th::derive_params(d); }), "Assumption 4.2"));
  // 18·m²·ln(12mT/δ) = 18·64·ln(61440) = 12701.7 (n/8 > 3·sqrt(2n·11.026)); the integer
  // L = floor(n/8) needs a few more users: 12704.
  EXPECT_EQ(need, 12704);
  EXPECT_NEAR(18 * 64 * std::log(61440.0), 12701.74, 0.01);
}

TEST(ThreshParams, RefusesUndefinedEstimateNoiseWithTheLargestEpoch) {
  th::Config c = worked();
  c.epoch_rounds = 300000;  // > n·ln(12nT/δ)/ln(12T/δ) = 228688.16
  std::string msg = message_of([&] { th::derive_params(c); });
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { th::derive_params(c); }));
  EXPECT_TRUE(contains(msg, "epoch_rounds")) << msg;
  EXPECT_TRUE(contains(msg, "epoch_rounds <= 228688")) << msg;
  EXPECT_TRUE(contains(msg, "estimate_noise")) << msg;
  c.epoch_rounds = 228688;  // y barely above x: a huge (useless) b, no device could pay
  EXPECT_TRUE(contains(message_of([&] { th::derive_params(c); }), "cannot pay for one truthful vote"));
  c.cap_rule = th::CapRule::SpentBelowCap;  // 0.9.0's rule took it
  th::Params p = th::derive_params(c);
  EXPECT_GT(p.estimate_noise, 1000);
  c.epoch_rounds = 228689;
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { th::derive_params(c); }));

  // One user: no epoch length works.
  th::Config one = worked();
  one.users = 1;
  one.min_group_size = 1;
  one.groups = 1;
  one.vote_noise = 0.5;
  msg = message_of([&] { th::derive_params(one); });
  EXPECT_TRUE(contains(msg, "no epoch_rounds works")) << msg;
}

TEST(ThreshParams, Overrides) {
  th::Config c = worked();
  c.min_group_size = 10;   // breaks Assumption 4.2 ...
  c.epoch_rounds = 10000000;  // ... and leaves b undefined
  c.vote_noise = 0.25;
  c.estimate_noise = 0.5;
  th::Params p = th::derive_params(c);
  EXPECT_EQ(p.vote_noise, 0.25);
  EXPECT_EQ(p.estimate_noise, 0.5);
  EXPECT_TRUE(Close(p.vote_threshold,
                    1 / (std::exp(0.25) + 1) + std::sqrt(std::log(320 / 0.05) / 2e5), 1e-12));
  double y = std::sqrt(std::log(12 * 1e5 * 32 / 0.05) / (2 * 1e7));
  EXPECT_TRUE(Close(p.tau(3), 8 * y, 1e-12));
  EXPECT_TRUE(Close(p.sampling_error, y, 1e-12));

  // Only one override: the other check still applies.
  th::Config only_a = c;
  only_a.estimate_noise.reset();
  EXPECT_TRUE(contains(message_of([&] { th::derive_params(only_a); }), "epoch_rounds"));
  th::Config only_b = c;
  only_b.vote_noise.reset();
  EXPECT_TRUE(contains(message_of([&] { th::derive_params(only_b); }), "min_group_size"));

  // threshold_unit replaces y in the thresholds only.
  th::Config u = worked();
  u.threshold_unit = 0.01;
  th::Params pu = th::derive_params(u);
  th::Params p0 = th::derive_params(worked());
  for (int lv = -1; lv <= 5; ++lv) EXPECT_TRUE(Close(pu.tau(lv), 2 * (lv + 1) * 0.01, 1e-14));
  EXPECT_EQ(pu.estimate_noise, p0.estimate_noise);
  EXPECT_EQ(pu.sampling_error, p0.sampling_error);
}

// Every derived value is finite or the configuration is refused with OutOfRange (22003):
// a threshold unit of 1e308 makes tau_0 = 2e308 = Infinity, which devices must never get.
TEST(ThreshParams, RefusesInfiniteDerivedValues) {
  th::Config c = worked();
  c.threshold_unit = 1e308;
  try {
    th::derive_params(c);
    ADD_FAILURE() << "derive_params accepted a threshold unit that overflows";
  } catch (const ldp::Error& e) {
    EXPECT_EQ(e.kind(), ldp::ErrorKind::OutOfRange);
    EXPECT_TRUE(contains(e.what(), "tau_0")) << e.what();
  }
  c.threshold_unit = 1e300;  // large but finite: accepted, every threshold finite
  th::Params p = th::derive_params(c);
  for (int lv = -1; lv <= p.log_epochs; ++lv) EXPECT_TRUE(std::isfinite(p.tau(lv)));
}

TEST(ThreshParams, ValidateParams) {
  th::Params p = th::derive_params(worked());
  EXPECT_NO_THROW(th::validate_params(p));
  auto broken = [&](std::function<void(th::Params&)> f, const char* field) {
    th::Params q = p;
    f(q);
    std::string msg = message_of([&] { th::validate_params(q); });
    EXPECT_TRUE(contains(msg, field)) << field << ": " << msg;
    EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { th::Client cl(q); })) << field;
  };
  broken([](th::Params& q) { q.log_epochs = 4; }, "log_epochs");
  broken([](th::Params& q) { q.vote_noise = 0; }, "vote_noise");
  broken([](th::Params& q) { q.estimate_noise = -1; }, "estimate_noise");
  broken([](th::Params& q) { q.thresholds.pop_back(); }, "thresholds");
  broken([](th::Params& q) { q.thresholds[3] = 1e-3; }, "non-decreasing");
  broken([](th::Params& q) { q.config.delta = 2; }, "delta");
}

// ---------------------------------------------------------------------------
// Server rules

TEST(ThreshServer, VoteThresholdAndUpdateRule) {
  th::Params p = th::derive_params(worked());
  EXPECT_EQ(th::vote_threshold(p, 100000), p.vote_threshold);
  double q = 1 / (std::exp(p.vote_noise) + 1);
  EXPECT_TRUE(Close(th::vote_threshold(p, 2000), q + std::sqrt(std::log(320 / 0.05) / 4000), 1e-12));
  // 100,000 votes: the threshold is 0.4679498..., so 46795 yes votes update and 46794 do not.
  EXPECT_TRUE(th::global_update(p, 100000, 46795));
  EXPECT_FALSE(th::global_update(p, 100000, 46794));
  EXPECT_FALSE(th::global_update(p, 100000, 0));
  EXPECT_TRUE(th::global_update(p, 100000, 100000));
  // Few votes: the Hoeffding margin is so large that nothing updates.
  EXPECT_FALSE(th::global_update(p, 3, 3));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { th::vote_threshold(p, 0); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { th::global_update(p, 0, 0); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { th::global_update(p, 10, 11); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { th::global_update(p, 10, -1); }));
}

TEST(ThreshServer, DecodeEstimatesFormula) {
  th::Params p = th::derive_params(worked());
  const double b = p.estimate_noise, eb = std::exp(b);
  const int64_t N = 100000, ones = 41234;
  double yhat = static_cast<double>(ones) / N;
  // (1/N)Σ(p̃_i(e^b+1) − 1)/(e^b − 1) summed report by report
  double sum = 0;
  for (int64_t i = 0; i < N; ++i) sum += ((i < ones ? 1.0 : 0.0) * (eb + 1) - 1) / (eb - 1);
  ldp::Estimate e = th::decode_estimates(p, N, ones);
  EXPECT_TRUE(Close(e.value, sum / N, 1e-9));
  EXPECT_TRUE(Close(e.std_error, (eb + 1) / (eb - 1) * std::sqrt(yhat * (1 - yhat) / N), 1e-12));
  EXPECT_TRUE(e.has_std_error);
  EXPECT_TRUE(Close(th::decode_estimates(p, 10, 0).value, -1 / (eb - 1), 1e-12));
  EXPECT_TRUE(Close(th::decode_estimates(p, 10, 10).value, eb / (eb - 1), 1e-12));
  EXPECT_FALSE(th::decode_estimates(p, 1, 1).has_std_error);
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { th::decode_estimates(p, 0, 0); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { th::decode_estimates(p, 5, 6); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { th::decode_estimates(p, 5, -1); }));
}

// ---------------------------------------------------------------------------
// The device

// A client whose last update was epoch 1 with mean `base`.
th::Client updated_at_epoch_one(const th::Params& p, double base, ldp::RandomSource& rng) {
  th::Client c(p);
  c.vote(1, base, rng);
  c.estimate(rng);
  return c;
}

TEST(ThreshClient, FirstVoteIsTruthful) {
  th::Params p = th::derive_params(worked());
  SeededRandom rng(1);
  for (double mean : {0.0, 0.3, 1.0}) {
    th::Client c(p);
    EXPECT_EQ(c.highest_level(mean), 5);
    c.vote(1, mean, rng);
    EXPECT_EQ(c.state().vote_spent, p.vote_noise) << mean;
  }
  // A device that joins late still votes truthfully until its first update.
  th::Client late(p);
  late.vote(7, 0.5, rng);
  EXPECT_EQ(late.state().vote_spent, p.vote_noise);
  late.vote(8, 0.5, rng);
  EXPECT_EQ(late.state().vote_spent, 2 * p.vote_noise);
  // Even when the top threshold is >= 1 (where p̂^0 = −1 alone would not suffice).
  th::Config big = worked();
  big.threshold_unit = 0.5;  // τ_5 = 6
  th::Params pb = th::derive_params(big);
  th::Client c(pb);
  c.vote(1, 0.0, rng);
  EXPECT_EQ(c.state().vote_spent, pb.vote_noise);
}

TEST(ThreshClient, HighestLevel) {
  th::Params p = th::derive_params(worked());
  SeededRandom rng(2);
  const double base = 0.4;
  th::Client c = updated_at_epoch_one(p, base, rng);
  EXPECT_EQ(c.state().last_update_mean, base);
  EXPECT_EQ(c.highest_level(base), th::kNoLevel);  // no difference at all
  EXPECT_EQ(c.highest_level(base + 1e-9), -1);     // > τ_-1 = 0
  EXPECT_EQ(c.highest_level(base - 1e-9), -1);
  for (int lv = 0; lv <= 4; ++lv) {
    double mid = (p.tau(lv) + p.tau(lv + 1)) / 2;
    EXPECT_EQ(c.highest_level(base + mid), lv);
    EXPECT_EQ(c.highest_level(base - mid), lv);  // |difference|
  }
  EXPECT_EQ(c.highest_level(base + p.tau(5) + 0.01), 5);
  EXPECT_EQ(c.highest_level(1.0), 5);
  EXPECT_EQ(c.highest_level(0.0), 5);
  // Strictly greater: exactly τ_b is level b − 1 (base 0 makes the difference exact).
  th::Client z = updated_at_epoch_one(p, 0.0, rng);
  EXPECT_EQ(z.highest_level(p.tau(3)), 2);
  EXPECT_EQ(z.highest_level(std::nextafter(p.tau(3), 1.0)), 3);
}

// Epochs in 2..T in which a client updated at epoch 1 with mean 0.3 votes truthfully
// when its mean is 0.3 + diff in every later epoch.
std::vector<int> truthful_epochs(const th::Params& p, double diff) {
  SeededRandom rng(3);
  th::Client c = updated_at_epoch_one(p, 0.3, rng);
  std::vector<int> out;
  for (int t = 2; t <= p.config.epochs; ++t) {
    double before = c.state().vote_spent;
    c.vote(t, 0.3 + diff, rng);
    if (c.state().vote_spent > before) out.push_back(t);
  }
  return out;
}

TEST(ThreshClient, DivisibilitySchedule) {
  th::Config cfg = worked();
  cfg.epsilon = 1000;  // budgets never bind here
  th::Params p = th::derive_params(cfg);
  auto mid = [&](int lv) { return (p.tau(lv) + p.tau(lv + 1)) / 2; };
  // T = 32, ⌈log T⌉ = 5: level b* votes truthfully when 2^(5 − b*) divides t.
  EXPECT_EQ(truthful_epochs(p, mid(2)), (std::vector<int>{8, 16, 24, 32}));  // τ_2 < d <= τ_3
  EXPECT_EQ(truthful_epochs(p, mid(3)), (std::vector<int>{4, 8, 12, 16, 20, 24, 28, 32}));
  EXPECT_EQ(truthful_epochs(p, mid(0)), (std::vector<int>{32}));
  EXPECT_EQ(truthful_epochs(p, mid(-1)), std::vector<int>{});  // b* = −1: never
  EXPECT_EQ(truthful_epochs(p, 0.0), std::vector<int>{});      // no level
  std::vector<int> every;
  for (int t = 2; t <= 32; ++t) every.push_back(t);
  EXPECT_EQ(truthful_epochs(p, p.tau(5) + 0.05), every);
  for (int lv = 0; lv <= 4; ++lv) {
    std::vector<int> want;
    for (int t = 2; t <= 32; ++t)
      if (t % (1 << (5 - lv)) == 0) want.push_back(t);
    EXPECT_EQ(truthful_epochs(p, mid(lv)), want) << lv;
  }
  // T = 20 (⌈log T⌉ = 5 too): level 1 votes only at 16, level 0 never.
  cfg.epochs = 20;
  th::Params p20 = th::derive_params(cfg);
  EXPECT_EQ(truthful_epochs(p20, (p20.tau(1) + p20.tau(2)) / 2), std::vector<int>{16});
  EXPECT_EQ(truthful_epochs(p20, (p20.tau(0) + p20.tau(1)) / 2), std::vector<int>{});
  EXPECT_FALSE(th::level_scheduled(p, -1, 32));
  EXPECT_FALSE(th::level_scheduled(p, th::kNoLevel, 32));
  EXPECT_TRUE(th::level_scheduled(p, 0, 32));
  EXPECT_FALSE(th::level_scheduled(p, 0, 16));
}

// Alternating 0/1 data with an update after every vote: the worst case for the budgets
// (thresh_cap_test.cpp searches the privacy loss itself).
TEST(ThreshClient, CapsHoldUnderAdversarialData) {
  th::Config cfg = worked();
  cfg.epsilon = 1;  // caps 1/3
  cfg.vote_noise = 0.1;
  cfg.estimate_noise = 0.07;
  th::Params p = th::derive_params(cfg);
  EXPECT_EQ(p.max_truthful_votes(), 3);      // 0.1, 0.2, 0.3 <= 1/3 < 0.4
  EXPECT_EQ(p.max_truthful_estimates(), 4);  // 0.07 .. 0.28 <= 1/3 < 0.35
  SeededRandom rng(4);
  th::Client c(p);
  int votes = 0, ests = 0;
  for (int t = 1; t <= 32; ++t) {
    double v0 = c.state().vote_spent, e0 = c.state().estimate_spent;
    c.vote(t, t % 2 ? 1.0 : 0.0, rng);
    c.estimate(rng);
    votes += c.state().vote_spent > v0;
    ests += c.state().estimate_spent > e0;
    EXPECT_LE(c.state().vote_spent, p.vote_cap());
    EXPECT_LE(c.state().estimate_spent, p.estimate_cap());
  }
  EXPECT_EQ(votes, 3);
  EXPECT_EQ(ests, 4);

  // Random data and random updates, derived parameters, many users.
  th::Config cfg2 = worked();
  cfg2.epsilon = 4;  // b = 0.84 <= ε/3 = 1.33: one truthful estimate, eight votes
  th::Params p2 = th::derive_params(cfg2);
  for (int user = 0; user < 2000; ++user) {
    th::Client u(p2);
    int64_t tv = 0, te = 0;
    for (int t = 1; t <= 32; ++t) {
      double v0 = u.state().vote_spent, e0 = u.state().estimate_spent;
      u.vote(t, rng.uniform(), rng);
      if (rng.bernoulli(0.5)) u.estimate(rng);
      tv += u.state().vote_spent > v0;
      te += u.state().estimate_spent > e0;
      ASSERT_LE(u.state().vote_spent, p2.vote_cap());
      ASSERT_LE(u.state().estimate_spent, p2.estimate_cap());
    }
    ASSERT_LE(tv, p2.max_truthful_votes());
    ASSERT_LE(te, p2.max_truthful_estimates());
  }
}

TEST(ThreshClient, StateRoundTrip) {
  th::Params p = th::derive_params(worked());
  SeededRandom data(5);
  SeededRandom r1(6);
  th::Client a(p);
  for (int t = 1; t <= 12; ++t) {
    a.vote(t, data.uniform(), r1);
    if (t % 5 == 1) a.estimate(r1);
  }
  th::Client::State saved = a.state();
  EXPECT_EQ(saved.epoch, 12);
  EXPECT_EQ(saved.update_epoch, 11);
  th::Client b(p, saved);
  EXPECT_EQ(b.state().vote_spent, saved.vote_spent);
  EXPECT_EQ(b.state().last_update_mean, saved.last_update_mean);
  SeededRandom ra(7), rb(7);
  for (int t = 13; t <= 32; ++t) {
    double mean = data.uniform();
    ASSERT_EQ(a.vote(t, mean, ra), b.vote(t, mean, rb)) << t;
    ASSERT_EQ(a.highest_level(0.5), b.highest_level(0.5));
    if (t % 3 == 0) {
      ASSERT_EQ(a.estimate(ra), b.estimate(rb)) << t;
    }
    ASSERT_EQ(a.state().vote_spent, b.state().vote_spent);
    ASSERT_EQ(a.state().estimate_spent, b.state().estimate_spent);
    ASSERT_EQ(a.state().update_epoch, b.state().update_epoch);
  }
  // A restored state right after an estimate cannot estimate again.
  EXPECT_EQ(a.state().epoch, 32);
  a.estimate(ra);
  th::Client c(p, a.state());
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { c.estimate(ra); }));
}

TEST(ThreshClient, RejectsInvalidState) {
  th::Params p = th::derive_params(worked());
  th::Client::State good;
  good.epoch = 5;
  good.epoch_mean = 0.4;
  good.update_epoch = 3;
  good.last_update_mean = 0.7;
  good.vote_spent = 3 * p.vote_noise;
  good.estimate_spent = 2 * p.estimate_noise;
  EXPECT_NO_THROW(th::Client(p, good));
  EXPECT_NO_THROW(th::Client(p, th::Client::State{}));
  const std::function<void(th::Client::State&)> breaks[] = {
      [](auto& s) { s.vote_spent = -0.1; },
      [&](auto& s) { s.vote_spent = p.vote_cap() + 1.01 * p.vote_noise; },
      [](auto& s) { s.vote_spent = std::numeric_limits<double>::quiet_NaN(); },
      [&](auto& s) { s.estimate_spent = p.estimate_cap() + 1.01 * p.estimate_noise; },
      [](auto& s) { s.estimate_spent = -1; },
      [](auto& s) { s.epoch = 33; },
      [](auto& s) { s.epoch = -1; },
      [](auto& s) { s.epoch_mean = 1.5; },
      [](auto& s) { s.update_epoch = 6; },
      [](auto& s) { s.update_epoch = -1; },
      [](auto& s) { s.last_update_mean = -1; },  // update_epoch 3 without a mean
      [](auto& s) { s.last_update_mean = 2; },
      [](auto& s) { s.update_epoch = 0; },          // a mean without an update
      [](auto& s) { s.update_epoch = 5; },          // the update epoch's mean differs
  };
  int i = 0;
  for (const auto& f : breaks) {
    th::Client::State s = good;
    f(s);
    EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { th::Client(p, s); })) << i;
    ++i;
  }
}

TEST(ThreshClient, MisuseErrors) {
  th::Params p = th::derive_params(worked());
  SeededRandom rng(8);
  th::Client c(p);
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { c.estimate(rng); }));  // no vote yet
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { c.vote(0, 0.5, rng); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { c.vote(33, 0.5, rng); }));
  for (double bad : {-0.01, 1.01, std::numeric_limits<double>::quiet_NaN(),
                     std::numeric_limits<double>::infinity()}) {
    EXPECT_TRUE(ThrowsKind(ErrorKind::OutOfRange, [&] { c.vote(1, bad, rng); }));
    EXPECT_TRUE(ThrowsKind(ErrorKind::OutOfRange, [&] { c.highest_level(bad); }));
  }
  EXPECT_EQ(c.state().epoch, 0);  // failed calls change nothing
  EXPECT_EQ(c.state().vote_spent, 0);
  c.vote(3, 0.5, rng);
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { c.vote(3, 0.5, rng); }));  // again
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { c.vote(2, 0.5, rng); }));  // backwards
  c.estimate(rng);
  EXPECT_EQ(c.state().update_epoch, 3);
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { c.estimate(rng); }));  // twice
  c.vote(32, 0.5, rng);
  c.estimate(rng);
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { c.vote(32, 0.5, rng); }));
}

// Frequency of ones over `draws` draws vs the probability, in standard errors.
double z_score(int64_t ones, int64_t draws, double prob) {
  double se = std::sqrt(prob * (1 - prob) / static_cast<double>(draws));
  return (static_cast<double>(ones) / static_cast<double>(draws) - prob) / se;
}

TEST(ThreshClient, VoteDistribution) {
  th::Params p = th::derive_params(worked());
  const double a = p.vote_noise;
  SeededRandom rng(9);
  const int kDraws = 200000;
  int64_t truthful_ones = 0, other_ones = 0;
  for (int i = 0; i < kDraws; ++i) {
    th::Client::State s;  // fresh: epoch 1 is truthful
    truthful_ones += th::vote_step(p, s, 1, 0.5, rng);
    th::Client::State u;  // updated at epoch 1 with the same mean: no level
    u.epoch = 1;
    u.update_epoch = 1;
    u.epoch_mean = u.last_update_mean = 0.5;
    other_ones += th::vote_step(p, u, 2, 0.5, rng);
    ASSERT_EQ(u.vote_spent, 0);
  }
  EXPECT_LT(std::fabs(z_score(truthful_ones, kDraws, std::exp(a) / (std::exp(a) + 1))), 4);
  EXPECT_LT(std::fabs(z_score(other_ones, kDraws, 1 / (std::exp(a) + 1))), 4);
}

TEST(ThreshClient, EstimateDistribution) {
  th::Params p = th::derive_params(worked());
  const double b = p.estimate_noise, eb = std::exp(b);
  SeededRandom rng(10);
  const int kDraws = 200000;
  for (double mean : {0.0, 0.3, 0.85, 1.0}) {
    int64_t ones = 0, exhausted_ones = 0;
    for (int i = 0; i < kDraws; ++i) {
      th::Client::State s;
      th::vote_step(p, s, 1, mean, rng);
      ones += th::estimate_step(p, s, rng);
      EXPECT_EQ(s.estimate_spent, b);
      th::Client::State x;
      x.estimate_spent = p.max_estimate_spent();  // budget spent: pure noise
      th::vote_step(p, x, 1, mean, rng);
      exhausted_ones += th::estimate_step(p, x, rng);
      EXPECT_EQ(x.estimate_spent, p.max_estimate_spent());
      EXPECT_EQ(x.last_update_mean, mean);  // f(t) = t all the same
    }
    EXPECT_LT(std::fabs(z_score(ones, kDraws, (1 + mean * (eb - 1)) / (eb + 1))), 4) << mean;
    EXPECT_LT(std::fabs(z_score(exhausted_ones, kDraws, 1 / (eb + 1))), 4) << mean;
  }
}

// decode_estimates over seeded trials: every trial draws N users whose epoch means are
// i.i.d. from a fixed support (so the reports are i.i.d. and the reported standard
// error estimates the estimate's spread without bias); the truth is the support mean.
TEST(ThreshServer, DecodeEstimatesUnbiasedWithCoverage) {
  th::Params p = th::derive_params(worked());
  const double b = p.estimate_noise;
  const double support[] = {0.0, 0.2, 0.35, 0.9, 1.0};
  double truth = 0;
  for (double v : support) truth += v / 5;
  const int kTrials = 2000, kUsers = 2000;
  SeededRandom rng(11);
  double sum = 0, sumsq = 0, se_sum = 0;
  int covered = 0;
  for (int trial = 0; trial < kTrials; ++trial) {
    int64_t ones = 0;
    for (int i = 0; i < kUsers; ++i) {
      th::Client::State s;
      th::vote_step(p, s, 1, support[rng.below(5)], rng);
      ones += th::estimate_step(p, s, rng);
    }
    ldp::Estimate e = th::decode_estimates(p, kUsers, ones);
    sum += e.value;
    sumsq += e.value * e.value;
    se_sum += e.std_error;
    covered += std::fabs(e.value - truth) <= 1.959964 * e.std_error;
  }
  double mean = sum / kTrials;
  double var = sumsq / kTrials - mean * mean;
  // Var = coth(b/2)²·P̄(1−P̄)/N with P̄ = (1 + truth(e^b−1))/(e^b+1).
  double pbar = (1 + truth * std::expm1(b)) / (std::exp(b) + 1);
  double k = 1 / std::tanh(b / 2);
  double theory_var = k * k * pbar * (1 - pbar) / kUsers;
  EXPECT_LT(std::fabs(mean - truth), 4 * std::sqrt(theory_var / kTrials));
  EXPECT_NEAR(var / theory_var, 1.0, 0.1);
  EXPECT_NEAR(se_sum / kTrials / std::sqrt(theory_var), 1.0, 0.02);
  double coverage = static_cast<double>(covered) / kTrials;
  EXPECT_GT(coverage, 0.935);
  EXPECT_LT(coverage, 0.965);
  std::printf("[ THRESH   ] decode: bias %.2e (sd %.2e), sd ratio %.3f, 95%% coverage %.4f\n",
              mean - truth, std::sqrt(var), std::sqrt(var / theory_var), coverage);
}

// ---------------------------------------------------------------------------
// Binomial sampler

// Chi-square goodness of fit of `draws` samples against the exact pmf, pooling the
// tails so that every cell expects at least 20; p-value must exceed 1e-4.
void expect_binomial_fits(int64_t trials, double prob, int draws, uint64_t seed) {
  SeededRandom rng(seed);
  boost::math::binomial_distribution<double> dist(static_cast<double>(trials), prob);
  std::vector<int64_t> counts(static_cast<size_t>(trials) + 1, 0);
  double s1 = 0;
  for (int i = 0; i < draws; ++i) {
    int64_t x = th::binomial(rng, trials, prob);
    ASSERT_GE(x, 0);
    ASSERT_LE(x, trials);
    ++counts[static_cast<size_t>(x)];
    s1 += static_cast<double>(x);
  }
  // cells over [lo, hi] = mean ± 12 sd, the tails pooled into the first and last cells;
  // walk k upwards, closing a cell once its expectation reaches 20
  double mean_x = static_cast<double>(trials) * prob;
  double sd_x = std::sqrt(mean_x * (1 - prob));
  int64_t lo = std::max<int64_t>(0, static_cast<int64_t>(mean_x - 12 * sd_x - 1));
  int64_t hi = std::min<int64_t>(trials, static_cast<int64_t>(mean_x + 12 * sd_x + 1));
  double chi2 = 0, expected = 0;
  double lower_tail = lo > 0 ? boost::math::cdf(dist, static_cast<double>(lo - 1)) : 0.0;
  expected = lower_tail * draws;
  int64_t observed = 0;
  for (int64_t k = 0; k < lo; ++k) observed += counts[static_cast<size_t>(k)];
  int cells = 0;
  for (int64_t k = lo; k <= hi; ++k) {
    double pk = boost::math::pdf(dist, static_cast<double>(k));
    expected += pk * draws;
    observed += counts[static_cast<size_t>(k)];
    lower_tail += pk;
    bool last = k == hi;
    if (last) {
      expected += (1 - lower_tail) * draws;  // the upper tail
      for (int64_t j = hi + 1; j <= trials; ++j) observed += counts[static_cast<size_t>(j)];
    }
    double rest = last ? 0 : (1 - lower_tail) * draws;
    if ((expected >= 20 && rest >= 20) || last) {
      chi2 += (observed - expected) * (observed - expected) / expected;
      ++cells;
      expected = 0;
      observed = 0;
    }
  }
  ASSERT_GE(cells, 2);
  boost::math::chi_squared_distribution<double> chi(cells - 1);
  double pvalue = boost::math::cdf(boost::math::complement(chi, chi2));
  EXPECT_GT(pvalue, 1e-4) << "Binomial(" << trials << ", " << prob << "): chi2 " << chi2 << " on "
                          << cells - 1 << " df";
  EXPECT_LT(std::fabs(s1 / draws - mean_x), 5 * sd_x / std::sqrt(draws)) << trials << ", " << prob;
}

TEST(ThreshBinomial, MatchesTheExactDistribution) {
  expect_binomial_fits(10, 0.3, 200000, 21);      // inversion
  expect_binomial_fits(50, 0.5, 200000, 22);      // BTPE (np = 25 <= 30: inversion)
  expect_binomial_fits(100, 0.97, 200000, 23);    // n(1−p) = 3: inversion, flipped
  expect_binomial_fits(200, 0.4, 200000, 24);     // BTPE with small m
  expect_binomial_fits(3100, 0.01, 300000, 32);   // BTPE at its most skewed (np = 31)
  expect_binomial_fits(620, 0.95, 300000, 33);    // the same, flipped
  expect_binomial_fits(20000, 0.3, 300000, 25);   // BTPE, the simulation's ℓ
  expect_binomial_fits(20000, 0.615, 300000, 26); // BTPE, flipped
  expect_binomial_fits(1000000, 0.5, 300000, 27); // BTPE, ℓ = 10^6
  expect_binomial_fits(1000000, 2e-5, 200000, 28);  // np = 20: inversion with huge n
}

TEST(ThreshBinomial, EdgesAndErrors) {
  SeededRandom rng(29);
  EXPECT_EQ(th::binomial(rng, 0, 0.5), 0);
  EXPECT_EQ(th::binomial(rng, 1000, 0.0), 0);
  EXPECT_EQ(th::binomial(rng, 1000, 1.0), 1000);
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { th::binomial(rng, -1, 0.5); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { th::binomial(rng, 10, 1.5); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter,
                         [&] { th::binomial(rng, 10, std::numeric_limits<double>::quiet_NaN()); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { th::sample_epoch_mean(rng, 0, 0.5); }));
  double m = th::sample_epoch_mean(rng, 4, 1.0);
  EXPECT_EQ(m, 1.0);
  // Deterministic for a seed.
  SeededRandom r1(30), r2(30);
  for (int i = 0; i < 100; ++i) {
    ASSERT_EQ(th::binomial(r1, 20000, 0.37), th::binomial(r2, 20000, 0.37));
  }
}

TEST(ThreshBinomial, Fast) {
  SeededRandom rng(31);
  auto start = std::chrono::steady_clock::now();
  int64_t sum = 0;
  const int kDraws = 3200000;  // 100,000 users × 32 epochs
  for (int i = 0; i < kDraws; ++i) sum += th::binomial(rng, 100000, 0.3 + 0.4 * (i % 2));
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("[ THRESH   ] %d binomial(10^5, p) draws in %.3f s\n", kDraws, secs);
  EXPECT_NEAR(static_cast<double>(sum) / kDraws, 50000, 30);
  EXPECT_LT(secs, 3.0);
}

// ---------------------------------------------------------------------------
// Scenario helpers

TEST(ThreshScenario, Helpers) {
  th::Scenario sc{{40000, 60000}, {{{1, 0.3}, {19, 0.45}}, {{1, 0.2}, {10, 0.6}, {20, 0.6}, {27, 0.615}}}};
  EXPECT_EQ(th::population_size(sc), 100000);
  EXPECT_EQ(th::group_mean(sc, 0, 1), 0.3);
  EXPECT_EQ(th::group_mean(sc, 0, 18), 0.3);
  EXPECT_EQ(th::group_mean(sc, 0, 19), 0.45);
  EXPECT_EQ(th::group_mean(sc, 1, 9), 0.2);
  EXPECT_EQ(th::group_mean(sc, 1, 32), 0.615);
  EXPECT_TRUE(Close(th::true_population_mean(sc, 1), 0.4 * 0.3 + 0.6 * 0.2));
  EXPECT_TRUE(Close(th::true_population_mean(sc, 19), 0.4 * 0.45 + 0.6 * 0.6));
  // epoch 20 repeats the mean: not a change
  EXPECT_EQ(th::change_epochs(sc), (std::vector<int32_t>{1, 10, 19, 27}));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { th::group_mean(sc, 2, 1); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { th::group_mean(sc, 0, 0); }));
  auto broken = [&](std::function<void(th::Scenario&)> f) {
    th::Scenario s = sc;
    f(s);
    return ThrowsKind(ErrorKind::InvalidParameter, [&] { th::validate_scenario(s); });
  };
  EXPECT_TRUE(broken([](auto& s) { s.group_sizes.clear(); s.mean_changes.clear(); }));
  EXPECT_TRUE(broken([](auto& s) { s.group_sizes.push_back(5); }));
  EXPECT_TRUE(broken([](auto& s) { s.group_sizes[0] = 0; }));
  EXPECT_TRUE(broken([](auto& s) { s.mean_changes[0][0].first = 2; }));
  EXPECT_TRUE(broken([](auto& s) { s.mean_changes[1][2].first = 10; }));
  EXPECT_TRUE(broken([](auto& s) { s.mean_changes[1][1].second = 1.2; }));
  EXPECT_TRUE(broken([](auto& s) { s.mean_changes[0].clear(); }));
}

}  // namespace
