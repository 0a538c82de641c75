// THRESH end to end against the server: 100,000 simulated devices (core clients)
// through 32 epochs of a stream of the ldp extension (thresh_sim_pg.hpp), checked
// against the paper's guarantees, against the core's rules run in memory on the same
// reports, and against what the extension's history says.
#include <gtest/gtest.h>
#include <pqxx/pqxx>

#include <cmath>
#include <memory>
#include <string>

#include "tools/thresh/thresh_sim.hpp"
#include "tools/thresh/thresh_sim_pg.hpp"

using namespace ldp::tools;

namespace {

// Two groups of 40,000 and 60,000 users, epochs of 20,000 rounds; δ = 0.1 gives
// τ = {0, .0445, .0889, .1334, .1778, .2223, .2668} (τ_-1..τ_5) and b = 0.81, so at
// ε = 8 a user can pay for ⌊8/(3·0.81)⌋ = 3 updates, the three this scenario needs
// (0.9.0's rule too: ⌈8/(4·0.81)⌉ = 3; with caps of ε/4 the new rule paid for 2 and
// this test ran at ε = 10). Group 0 jumps by 0.4 (> τ_5) at epoch 10; group 1 moves by
// 0.158 (between τ_2 and τ_3: level 2 votes every 2^(5-2) = 8 epochs) at epoch 19.
ThreshSimSpec scenario() {
  ThreshSimSpec spec;
  parse_thresh_group("40000:0.3@10:0.7", &spec.scenario);
  parse_thresh_group("60000:0.2@19:0.358", &spec.scenario);
  spec.config.epochs = 32;
  spec.config.epoch_rounds = 20000;
  spec.config.epsilon = 8;
  spec.config.delta = 0.1;
  spec.seed = 20261122;
  spec.batch = 25000;
  return spec;
}

TEST(ThreshSimDb, GuaranteesHoldAndTheServerAgreesWithTheCore) {
  std::unique_ptr<pqxx::connection> conn;
  try {
    conn = std::make_unique<pqxx::connection>("");
  } catch (const std::exception& e) {
    FAIL() << "cannot connect to the test server (PGHOST, PGPORT, PGUSER, PGDATABASE): " << e.what();
  }
  ThreshSimSpec spec = scenario();
  PgThreshServer server(*conn, "it_thresh_sim", /*replace=*/true);
  ThreshSimResult r = simulate_thresh(spec, server);
  LocalThreshServer local;
  ThreshSimResult m = simulate_thresh(spec, local);
  const auto& p = r.params;
  ASSERT_EQ(r.epochs.size(), 32u);

  double max_error = 0;
  for (size_t i = 0; i < r.epochs.size(); ++i) {
    const auto& e = r.epochs[i];
    SCOPED_TRACE("epoch " + std::to_string(e.epoch));
    // the extension decides and estimates exactly as the core's rules
    EXPECT_EQ(e.updated, m.epochs[i].updated);
    EXPECT_EQ(e.published, m.epochs[i].published);
    // privacy: the stream runs the 0.10.0 rule, and no counter ever passes its cap
    // (a report only if the counter after it stays within ε/3), and the worst case within ε
    EXPECT_EQ(p.config.cap_rule, ldp::thresh::CapRule::NextWithinCap);
    EXPECT_LE(e.max_vote_spent, p.max_vote_spent());
    EXPECT_LE(e.max_estimate_spent, p.max_estimate_spent());
    EXPECT_LE(p.max_vote_spent(), p.vote_cap());
    EXPECT_LE(p.max_estimate_spent(), p.estimate_cap());
    EXPECT_LE(e.max_spent, p.worst_case_loss());
    EXPECT_LE(p.worst_case_loss(), p.config.epsilon);
    // Theorem 4.3
    double err = std::fabs(e.published - e.true_mean);
    EXPECT_LE(err, p.accuracy_bound());
    max_error = std::max(max_error, err);
  }
  // updates never outnumber the epochs with a change (1, 10, 19)
  EXPECT_EQ(r.changes(), 3);
  EXPECT_LE(r.updates(), r.changes());
  // the large change updates in its own epoch; the small one within 2^(5-2) epochs
  EXPECT_TRUE(r.epochs[0].updated);
  EXPECT_TRUE(r.epochs[9].updated);
  int small_update = 0;
  for (int t = 19; t <= 26 && !small_update; ++t)
    if (r.epochs[t - 1].updated) small_update = t;
  EXPECT_GT(small_update, 0) << "the change at epoch 19 was not picked up by epoch 26";
  // once updated, the estimate is as close as randomized response allows (a few SE)
  for (int t : {1, 10, small_update}) {
    if (t > 0) {
      EXPECT_LT(std::fabs(r.epochs[t - 1].published - r.epochs[t - 1].true_mean), 0.02) << t;
    }
  }
  std::printf("[ THRESH   ] updates %d (changes %d), max |p~ - p| %.4f vs bound %.4f, small change "
              "updated at epoch %d\n",
              r.updates(), r.changes(), max_error, p.accuracy_bound(), small_update);

  // the extension's own record of the stream
  pqxx::nontransaction t(*conn);
  pqxx::result h = t.exec("SELECT epoch, votes, global_update, estimate_reports, estimate "
                          "FROM ldp.thresh_history('it_thresh_sim') ORDER BY epoch");
  ASSERT_EQ(h.size(), 32u);
  for (size_t i = 0; i < h.size(); ++i) {
    EXPECT_EQ(h[i][1].as<int64_t>(), 100000);
    EXPECT_EQ(h[i][2].as<bool>(), r.epochs[i].updated);
    EXPECT_EQ(h[i][3].as<int64_t>(), r.epochs[i].updated ? 100000 : 0);
    EXPECT_EQ(h[i][4].as<double>(), r.epochs[i].published);
  }
  pqxx::row s = t.exec1("SELECT phase, last_update_epoch FROM ldp.thresh_status('it_thresh_sim')");
  EXPECT_EQ(s[0].as<std::string>(), "finished");
  t.exec("SELECT ldp.thresh_drop('it_thresh_sim')");
}

}  // namespace
