// The THRESH simulator without a server: group parsing, and simulate_thresh against the
// core's rules in memory (thresh_sim_db_test.cpp runs it against the extension).
#include <gtest/gtest.h>

#include <stdexcept>

#include "tools/thresh/thresh_scenario.hpp"
#include "tools/thresh/thresh_sim.hpp"

using namespace ldp::tools;

TEST(ThreshSim, ParsesGroups) {
  ldp::thresh::Scenario s;
  parse_thresh_group("40000:0.3@10:0.7@27:0.715", &s);
  parse_thresh_group("60000:0.2", &s);
  ASSERT_EQ(s.group_sizes.size(), 2u);
  EXPECT_EQ(s.group_sizes[0], 40000);
  EXPECT_EQ(s.mean_changes[0].size(), 3u);
  EXPECT_DOUBLE_EQ(ldp::thresh::group_mean(s, 0, 9), 0.3);
  EXPECT_DOUBLE_EQ(ldp::thresh::group_mean(s, 0, 10), 0.7);
  EXPECT_DOUBLE_EQ(ldp::thresh::group_mean(s, 0, 30), 0.715);
  EXPECT_DOUBLE_EQ(ldp::thresh::true_population_mean(s, 1), (40000 * 0.3 + 60000 * 0.2) / 100000);
}

TEST(ThreshSim, RefusesMalformedGroups) {
  for (const char* bad : {"", "40000", "x:0.3", "40000:y", "0:0.3", "2.5:0.3", "40000:1.5",
                          "40000:0.3@0:0.5", "40000:0.3@5:0.5@5:0.6", "40000:0.3@", "-3:0.1"}) {
    ldp::thresh::Scenario s;
    EXPECT_ANY_THROW(parse_thresh_group(bad, &s)) << bad;
  }
}

TEST(ThreshSim, LocalRunIsReproducibleAndReportsProgress) {
  ThreshSimSpec spec;
  parse_thresh_group("20000:0.2@5:0.8", &spec.scenario);
  parse_thresh_group("20000:0.5", &spec.scenario);
  spec.config.epochs = 8;
  spec.config.epoch_rounds = 5000;
  spec.config.epsilon = 8;
  spec.config.delta = 0.1;
  spec.seed = 7;
  spec.batch = 3000;
  int64_t last = 0, total = 0;
  LocalThreshServer a, b;
  ThreshSimResult r1 = simulate_thresh(spec, a, [&](int64_t done, int64_t t) {
    EXPECT_GE(done, last);
    last = done;
    total = t;
  });
  ThreshSimResult r2 = simulate_thresh(spec, b);
  EXPECT_EQ(last, total);
  EXPECT_EQ(total, 2 * 40000 * 8);
  ASSERT_EQ(r1.epochs.size(), 8u);
  for (size_t i = 0; i < r1.epochs.size(); ++i) {
    EXPECT_EQ(r1.epochs[i].published, r2.epochs[i].published);
    EXPECT_EQ(r1.epochs[i].updated, r2.epochs[i].updated);
  }
  // epoch 1 and the 0.6 jump of half the users at epoch 5 (> τ_top) update at once
  EXPECT_TRUE(r1.epochs[0].updated);
  EXPECT_TRUE(r1.epochs[4].updated);
  EXPECT_EQ(r1.updates(), 2);
  EXPECT_EQ(r1.changes(), 2);
  EXPECT_EQ(r1.params.config.users, 40000);
  EXPECT_EQ(r1.params.config.min_group_size, 20000);
}
