// THRESH simulation helpers: the scenario's users and their epoch means (the binomial
// sampler is the core's, common/binomial.hpp).
#include "tools/thresh/thresh_scenario.hpp"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdint>

#include "core/common/error.hpp"

namespace ldp::thresh {

namespace {
void validate_group(const Scenario& sc, size_t g) {
  const auto& ch = sc.mean_changes[g];
  if (ch.empty() || ch.front().first != 1)
    throw_error(ErrorKind::InvalidParameter,
                "mean_changes of group %zu must start with an entry for epoch 1", g);
  for (size_t i = 0; i < ch.size(); ++i) {
    if (i > 0 && ch[i].first <= ch[i - 1].first)
      throw_error(ErrorKind::InvalidParameter,
                  "mean_changes of group %zu must have strictly increasing epochs", g);
    if (!(ch[i].second >= 0 && ch[i].second <= 1))
      throw_error(ErrorKind::InvalidParameter,
                  "mean_changes of group %zu: mean must be in [0, 1], got %.15g", g, ch[i].second);
  }
}
}  // namespace

void validate_scenario(const Scenario& sc) {
  if (sc.group_sizes.empty())
    throw_error(ErrorKind::InvalidParameter, "group_sizes must not be empty");
  if (sc.mean_changes.size() != sc.group_sizes.size())
    throw_error(ErrorKind::InvalidParameter,
                "mean_changes must have one list per group (%zu groups, %zu lists)",
                sc.group_sizes.size(), sc.mean_changes.size());
  int64_t total = 0;
  for (size_t g = 0; g < sc.group_sizes.size(); ++g) {
    if (sc.group_sizes[g] < 1)
      throw_error(ErrorKind::InvalidParameter, "group_sizes[%zu] must be >= 1, got %" PRId64, g,
                  sc.group_sizes[g]);
    if (sc.group_sizes[g] > INT64_MAX - total)
      throw_error(ErrorKind::InvalidParameter, "group_sizes overflow");
    total += sc.group_sizes[g];
    validate_group(sc, g);
  }
}

int64_t population_size(const Scenario& sc) {
  validate_scenario(sc);
  int64_t n = 0;
  for (int64_t s : sc.group_sizes) n += s;
  return n;
}

double group_mean(const Scenario& sc, int group, int32_t epoch) {
  if (group < 0 || static_cast<size_t>(group) >= sc.mean_changes.size())
    throw_error(ErrorKind::InvalidParameter, "group must be in [0, %zu), got %d",
                sc.mean_changes.size(), group);
  if (epoch < 1) throw_error(ErrorKind::InvalidParameter, "epoch must be >= 1, got %d", epoch);
  validate_group(sc, static_cast<size_t>(group));
  double mu = 0;
  for (const auto& [from, mean] : sc.mean_changes[static_cast<size_t>(group)]) {
    if (from > epoch) break;
    mu = mean;
  }
  return mu;
}

double true_population_mean(const Scenario& sc, int32_t epoch) {
  int64_t n = population_size(sc);
  double sum = 0;
  for (size_t g = 0; g < sc.group_sizes.size(); ++g)
    sum += static_cast<double>(sc.group_sizes[g]) * group_mean(sc, static_cast<int>(g), epoch);
  return sum / static_cast<double>(n);
}

std::vector<int32_t> change_epochs(const Scenario& sc) {
  validate_scenario(sc);
  std::vector<int32_t> out{1};
  std::vector<int32_t> candidates;
  for (const auto& ch : sc.mean_changes)
    for (size_t i = 1; i < ch.size(); ++i)
      if (ch[i].second != ch[i - 1].second) candidates.push_back(ch[i].first);
  std::sort(candidates.begin(), candidates.end());
  for (int32_t e : candidates)
    if (e != out.back()) out.push_back(e);
  return out;
}

double sample_epoch_mean(RandomSource& rng, int64_t rounds, double mean) {
  if (rounds < 1)
    throw_error(ErrorKind::InvalidParameter, "rounds must be >= 1, got %" PRId64, rounds);
  return static_cast<double>(binomial(rng, rounds, mean)) / static_cast<double>(rounds);
}

}  // namespace ldp::thresh
