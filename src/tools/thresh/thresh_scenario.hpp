// THRESH simulation helpers, for the simulator (thresh_sim.hpp) and the tests; not
// part of the core nor of the server module: users in subgroups whose Bernoulli means
// change at chosen epochs, and their epoch means (the core's binomial sampler). The names
// stay in ldp::thresh, next to the core's params.hpp, server.hpp and client.hpp.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "core/common/binomial.hpp"
#include "core/common/random.hpp"

namespace ldp::thresh {

// Subgroups of users whose bits are Bernoulli(μ_g) in every round, μ_g changing at
// chosen epochs. mean_changes[g] lists (epoch from which the mean applies, mean),
// epochs strictly increasing, the first one 1, means in [0, 1].
struct Scenario {
  std::vector<int64_t> group_sizes;  // each >= 1
  std::vector<std::vector<std::pair<int32_t, double>>> mean_changes;
};
void validate_scenario(const Scenario& scenario);  // InvalidParameter
int64_t population_size(const Scenario& scenario);  // Σ group sizes
double group_mean(const Scenario& scenario, int group, int32_t epoch);  // μ_g in epoch t >= 1
// p^t = Σ_g |S_g|·μ_g^t / n (the means are constant within an epoch).
double true_population_mean(const Scenario& scenario, int32_t epoch);
// The epochs in which some group's mean differs from the epoch before, epoch 1 included.
std::vector<int32_t> change_epochs(const Scenario& scenario);

// The core's samplers (common/binomial.hpp), by their names here too.
using ldp::binomial;
using ldp::multinomial;
// One user's epoch mean: binomial(rng, rounds, mean)/rounds, rounds >= 1.
double sample_epoch_mean(RandomSource& rng, int64_t rounds, double mean);

}  // namespace ldp::thresh
