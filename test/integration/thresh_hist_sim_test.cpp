// The HEAVYTHRESH simulator (ldp_thresh_sim --histogram) in memory: group parsing, and a
// small run whose updates, budgets and reproducibility are checked.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "tools/thresh/thresh_hist_sim.hpp"

using namespace ldp::tools;

namespace {

std::vector<double> corpus(size_t d) {  // counts of a Zipf-like corpus
  std::vector<double> c;
  for (size_t i = 0; i < d; ++i) c.push_back(1000.0 / static_cast<double>(i + 1));
  return c;
}

}  // namespace

TEST(ThreshHistSim, ParsesGroups) {
  HistSimSpec spec;
  parse_hist_group("2000:subtlex@5:subtlex+3", corpus(10), &spec);
  parse_hist_group("3000:zipf:1.5@4:zipf:1.5+2@6:subtlex", corpus(10), &spec);
  ASSERT_EQ(spec.groups.size(), 2u);
  EXPECT_EQ(spec.groups[0].size, 2000);
  ASSERT_EQ(spec.groups[0].phases.size(), 2u);
  EXPECT_EQ(spec.groups[0].phases[1].from_epoch, 5);
  const auto& d0 = spec.groups[0].phases[0].dist;
  const auto& d1 = spec.groups[0].phases[1].dist;
  EXPECT_NEAR(d0[0], 1000.0 / 2928.968, 1e-3);  // 1000·H_10 = 2928.97
  EXPECT_DOUBLE_EQ(d1[0], d0[3]);                 // rotated by 3 ranks
  EXPECT_DOUBLE_EQ(d1[9], d0[2]);
  EXPECT_EQ(spec.groups[1].phases.size(), 3u);
  double total = 0;
  for (double x : spec.groups[1].phases[1].dist) total += x;
  EXPECT_NEAR(total, 1.0, 1e-12);
  for (const char* bad : {"", "2000", "x:subtlex", "0:subtlex", "2.5:subtlex", "2000:words", "2000:zipf:0",
                          "2000:subtlex+x", "2000:subtlex@0:subtlex", "2000:subtlex@5:subtlex@5:subtlex",
                          "2000:subtlex@", "2000:subtlex@5"}) {
    HistSimSpec s;
    EXPECT_ANY_THROW(parse_hist_group(bad, corpus(10), &s)) << bad;
  }
}

// 2 groups of 1000 users, T = 8, 30 words: the changes at epochs 4 and 6 move the top
// words' mass a lot, so they update at once; nothing else updates.
TEST(ThreshHistSim, SmallRunUpdatesOnChangesWithinBudgets) {
  HistSimSpec spec;
  for (int i = 0; i < 30; ++i) spec.words.push_back("w" + std::to_string(i));
  parse_hist_group("1000:zipf:1.2@4:zipf:1.2+10", corpus(30), &spec);
  parse_hist_group("1000:subtlex@6:subtlex+15", corpus(30), &spec);
  // users, groups and min_group_size come from the groups; T = 8, l = 10^6, eps = 8,
  // delta = 0.1, a = 0.7, b = 0.5; Phi = 4 x 64
  spec.config.stream = ldp::thresh::Config{0, 8, 1000000, 0, 0, 8.0, 0.1, 0.7, 0.5};
  spec.config.hashes = 4, spec.config.width = 64;
  spec.seed = 3;
  HistSimResult r = simulate_histograms(spec);
  ASSERT_EQ(r.epochs.size(), 8u);
  std::vector<int> updates, changes;
  for (const auto& e : r.epochs) {
    if (e.updated) updates.push_back(e.epoch);
    if (e.changed) changes.push_back(e.epoch);
    EXPECT_LE(e.max_spent, r.params.stream.max_vote_spent() + r.params.stream.max_estimate_spent());
    EXPECT_LE(e.max_spent, r.params.stream.vote_cap() + r.params.stream.estimate_cap());
    EXPECT_TRUE(std::isfinite(e.mae) && std::isfinite(e.baseline_mae));
  }
  EXPECT_EQ(changes, (std::vector<int>{1, 4, 6}));
  EXPECT_EQ(updates, changes);
  EXPECT_DOUBLE_EQ(r.baseline_epsilon, r.params.stream.worst_case_loss() / 8);
  HistSimResult again = simulate_histograms(spec);  // seeded: the same run
  for (size_t i = 0; i < r.epochs.size(); ++i) EXPECT_EQ(r.epochs[i].mae, again.epochs[i].mae);
}
