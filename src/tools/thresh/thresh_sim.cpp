#include "tools/thresh/thresh_sim.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/common/random.hpp"
#include "core/mean/mean_encoders.hpp"
#include "core/oracles/bit_mean.hpp"
#include "core/thresh/client.hpp"
#include "core/thresh/server.hpp"

namespace ldp::tools {

using ldp::thresh::Client;

ldp::thresh::Params LocalThreshServer::create(const ldp::thresh::Config& config) {
  params_ = ldp::thresh::derive_params(config);
  return params_;
}
void LocalThreshServer::submit_votes(int32_t, const std::vector<int64_t>& users,
                                     const std::vector<uint8_t>& votes) {
  votes_ += static_cast<int64_t>(users.size());
  for (uint8_t v : votes) yes_ += v;
}
bool LocalThreshServer::close_votes(int32_t) {
  update_ = votes_ > 0 && ldp::thresh::global_update(params_, votes_, yes_);
  votes_ = yes_ = 0;
  return update_;
}
void LocalThreshServer::submit_estimates(int32_t, const std::vector<int64_t>& users,
                                         const std::vector<uint8_t>& reports) {
  reports_ += static_cast<int64_t>(users.size());
  for (uint8_t r : reports) ones_ += r;
}
double LocalThreshServer::close_epoch(int32_t) {
  if (update_ && reports_ > 0) estimate_ = ldp::thresh::decode_estimates(params_, reports_, ones_).value;
  reports_ = ones_ = 0;
  update_ = false;
  return estimate_;
}

int ThreshSimResult::updates() const {
  return static_cast<int>(std::count_if(epochs.begin(), epochs.end(),
                                        [](const ThreshEpochResult& e) { return e.updated; }));
}
int ThreshSimResult::changes() const {
  return static_cast<int>(std::count_if(epochs.begin(), epochs.end(),
                                        [](const ThreshEpochResult& e) { return e.changed; }));
}

namespace {

// Sends `bits` of all users in batches of `batch`.
template <class Submit>
void in_batches(int64_t n, int64_t batch, const std::vector<uint8_t>& bits, Submit&& submit,
                int64_t* done, int64_t total, const std::function<void(int64_t, int64_t)>& progress) {
  std::vector<int64_t> ids;
  std::vector<uint8_t> part;
  for (int64_t first = 0; first < n; first += batch) {
    int64_t last = std::min(n, first + batch);
    ids.clear();
    part.clear();
    for (int64_t u = first; u < last; ++u) {
      ids.push_back(u + 1);  // user ids from 1
      part.push_back(bits[static_cast<size_t>(u)]);
    }
    submit(ids, part);
    *done += last - first;
    if (progress) progress(*done, total);
  }
}

}  // namespace

ThreshSimResult simulate_thresh(const ThreshSimSpec& spec, ThreshServer& server,
                                const std::function<void(int64_t, int64_t)>& progress) {
  ldp::thresh::validate_scenario(spec.scenario);
  ldp::thresh::Config config = spec.config;
  config.users = ldp::thresh::population_size(spec.scenario);
  config.groups = static_cast<int32_t>(spec.scenario.group_sizes.size());
  if (config.min_group_size <= 0)
    config.min_group_size = *std::min_element(spec.scenario.group_sizes.begin(),
                                              spec.scenario.group_sizes.end());
  if (spec.batch < 1) throw std::invalid_argument("batch must be >= 1");

  ThreshSimResult result;
  result.params = server.create(config);
  const ldp::thresh::Params& params = result.params;
  const int64_t n = config.users;
  const int32_t T = config.epochs;

  std::vector<int> group_of(static_cast<size_t>(n));
  for (size_t g = 0, u = 0; g < spec.scenario.group_sizes.size(); ++g)
    for (int64_t i = 0; i < spec.scenario.group_sizes[g]; ++i) group_of[u++] = static_cast<int>(g);

  std::vector<Client::State> users(static_cast<size_t>(n));
  std::vector<double> means(static_cast<size_t>(n));
  std::vector<uint8_t> bits(static_cast<size_t>(n));
  std::vector<int32_t> changes = ldp::thresh::change_epochs(spec.scenario);
  ldp::SeededRandom rng(spec.seed), baseline_rng(spec.seed ^ 0x6f6e65626974ULL);
  const double baseline_epsilon = config.epsilon / T;

  int64_t done = 0;
  // votes every epoch, estimates at most every epoch
  const int64_t total = 2 * n * T;
  for (int32_t t = 1; t <= T; ++t) {
    ThreshEpochResult r;
    r.epoch = t;
    r.true_mean = ldp::thresh::true_population_mean(spec.scenario, t);
    r.changed = std::find(changes.begin(), changes.end(), t) != changes.end();

    int64_t baseline_ones = 0;
    for (int64_t u = 0; u < n; ++u) {
      auto& st = users[static_cast<size_t>(u)];
      double mu = ldp::thresh::group_mean(spec.scenario, group_of[static_cast<size_t>(u)], t);
      means[static_cast<size_t>(u)] = ldp::thresh::sample_epoch_mean(rng, config.epoch_rounds, mu);
      double before = st.vote_spent;
      bits[static_cast<size_t>(u)] = ldp::thresh::vote_step(params, st, t, means[static_cast<size_t>(u)], rng);
      if (st.vote_spent > before) ++r.truthful_votes;
      r.yes_votes += bits[static_cast<size_t>(u)];
      if (spec.baseline)
        baseline_ones += ldp::onebit_mean_encode(means[static_cast<size_t>(u)], baseline_epsilon, 1.0, baseline_rng);
    }
    in_batches(n, spec.batch, bits,
               [&](const std::vector<int64_t>& ids, const std::vector<uint8_t>& part) {
                 server.submit_votes(t, ids, part);
               },
               &done, total, progress);
    r.updated = server.close_votes(t);
    if (r.updated) {
      for (int64_t u = 0; u < n; ++u)
        bits[static_cast<size_t>(u)] = ldp::thresh::estimate_step(params, users[static_cast<size_t>(u)], rng);
      in_batches(n, spec.batch, bits,
                 [&](const std::vector<int64_t>& ids, const std::vector<uint8_t>& part) {
                   server.submit_estimates(t, ids, part);
                 },
                 &done, total, progress);
    } else {
      done += n;
      if (progress) progress(done, total);
    }
    r.published = server.close_epoch(t);
    for (const auto& st : users) {
      r.max_vote_spent = std::max(r.max_vote_spent, st.vote_spent);
      r.max_estimate_spent = std::max(r.max_estimate_spent, st.estimate_spent);
      r.max_spent = std::max(r.max_spent, st.vote_spent + st.estimate_spent);
    }
    if (spec.baseline)
      r.baseline = ldp::bit_mean_estimate(n, baseline_ones, baseline_epsilon, 1.0, 0.0).value;
    result.epochs.push_back(r);
  }
  return result;
}

void parse_thresh_group(const std::string& text, ldp::thresh::Scenario* scenario) {
  auto number = [&](const std::string& s, const char* what) {
    size_t used = 0;
    double v = 0;
    try {
      v = std::stod(s, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != s.size() || !std::isfinite(v))
      throw std::invalid_argument(std::string("--group: ") + what + " '" + s + "' is not a number in '" + text + "'");
    return v;
  };
  std::vector<std::string> parts;
  size_t start = 0, at;
  while ((at = text.find('@', start)) != std::string::npos) {
    parts.push_back(text.substr(start, at - start));
    start = at + 1;
  }
  parts.push_back(text.substr(start));
  std::vector<std::pair<int32_t, double>> changes;
  int64_t size = 0;
  for (size_t i = 0; i < parts.size(); ++i) {
    size_t colon = parts[i].find(':');
    if (colon == std::string::npos)
      throw std::invalid_argument("--group expects SIZE:MEAN[@EPOCH:MEAN...], got '" + text + "'");
    double a = number(parts[i].substr(0, colon), i == 0 ? "size" : "epoch");
    double mean = number(parts[i].substr(colon + 1), "mean");
    if (a != std::floor(a) || a < 1 || a > 1e12)
      throw std::invalid_argument("--group: '" + parts[i].substr(0, colon) + "' must be a positive integer");
    if (i == 0) {
      size = static_cast<int64_t>(a);
      changes.emplace_back(1, mean);
    } else {
      changes.emplace_back(static_cast<int32_t>(a), mean);
    }
  }
  scenario->group_sizes.push_back(size);
  scenario->mean_changes.push_back(changes);
  ldp::thresh::validate_scenario(*scenario);
}

}  // namespace ldp::tools
