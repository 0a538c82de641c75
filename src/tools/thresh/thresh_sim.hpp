// A THRESH simulation: n devices (ldp::thresh client states) whose Bernoulli means
// change at chosen epochs, driven through T epochs against a THRESH server — the ldp
// extension over libpqxx (thresh_sim_pg.hpp) or the core's rules in memory — plus the
// baseline the paper compares against: re-collecting a 1BitMean report from every user
// every epoch with ε/T each (the same total ε by composition).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/thresh/params.hpp"
#include "tools/thresh/thresh_scenario.hpp"

namespace ldp::tools {

// The server side of one stream, as the devices see it.
class ThreshServer {
 public:
  virtual ~ThreshServer() = default;
  // Creates the stream and returns the parameters it publishes.
  virtual ldp::thresh::Params create(const ldp::thresh::Config& config) = 0;
  virtual void submit_votes(int32_t epoch, const std::vector<int64_t>& users,
                            const std::vector<uint8_t>& votes) = 0;
  // Closes the votes; returns the published decision (GlobalUpdate_t).
  virtual bool close_votes(int32_t epoch) = 0;
  virtual void submit_estimates(int32_t epoch, const std::vector<int64_t>& users,
                                const std::vector<uint8_t>& reports) = 0;
  // Closes the epoch; returns the published estimate p̃^t.
  virtual double close_epoch(int32_t epoch) = 0;
};

// The core's rules in memory (no database): what the SQL side must agree with.
class LocalThreshServer final : public ThreshServer {
 public:
  ldp::thresh::Params create(const ldp::thresh::Config& config) override;
  void submit_votes(int32_t, const std::vector<int64_t>& users, const std::vector<uint8_t>& votes) override;
  bool close_votes(int32_t) override;
  void submit_estimates(int32_t, const std::vector<int64_t>& users, const std::vector<uint8_t>& reports) override;
  double close_epoch(int32_t) override;

 private:
  ldp::thresh::Params params_;
  int64_t votes_ = 0, yes_ = 0, reports_ = 0, ones_ = 0;
  bool update_ = false;
  double estimate_ = -1;
};

struct ThreshSimSpec {
  ldp::thresh::Scenario scenario;  // the users: groups and their means per epoch
  ldp::thresh::Config config;      // users and groups are taken from the scenario
  uint64_t seed = 1;
  int64_t batch = 10000;           // reports per submission
  bool baseline = true;            // also simulate 1BitMean every epoch at ε/T
};

struct ThreshEpochResult {
  int32_t epoch = 0;
  double true_mean = 0;        // p^t
  double published = 0;        // p̃^t
  bool updated = false;
  bool changed = false;        // some group's mean changed in this epoch (epoch 1 counts)
  int64_t truthful_votes = 0;  // users who voted truthfully this epoch
  int64_t yes_votes = 0;
  double max_vote_spent = 0;      // max over users of c^V after this epoch
  double max_estimate_spent = 0;  // max over users of c^E
  double max_spent = 0;           // max over users of c^V + c^E
  double baseline = 0;            // 1BitMean at ε/T this epoch (if spec.baseline)
};

struct ThreshSimResult {
  ldp::thresh::Params params;
  std::vector<ThreshEpochResult> epochs;
  int updates() const;
  int changes() const;
};

// Runs the whole simulation; progress(done, total) is called after every batch.
ThreshSimResult simulate_thresh(const ThreshSimSpec& spec, ThreshServer& server,
                                const std::function<void(int64_t, int64_t)>& progress = {});

// "40000:0.3@10:0.7@27:0.715" → one group of 40000 users with mean 0.3 from epoch 1,
// 0.7 from epoch 10, 0.715 from epoch 27. Throws std::invalid_argument.
void parse_thresh_group(const std::string& text, ldp::thresh::Scenario* scenario);

}  // namespace ldp::tools
