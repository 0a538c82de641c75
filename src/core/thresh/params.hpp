// THRESH (seed 000, Joseph, Roth, Ullman, Waggoner 2018; ALGORITHMS.md §3): a
// population mean of evolving Bernoulli data, re-estimated with randomized response
// only in the epochs in which enough users privately vote that their data changed.
//
// The family, whose halves must agree bit for bit:
//  - params.hpp (this file): the parameters (derive_params), which the server
//    computes from the stream's configuration and publishes to every device;
//  - server.hpp: the server's decision rules (vote_threshold, global_update,
//    decode_estimates);
//  - client.hpp: the device (Client: Algorithms 2 VOTE and 3 EST, with persistable
//    state).
// The simulation helpers (Scenario, binomial) are not part of the core: they are in
// src/tools/thresh_scenario.hpp, for the tests and the simulator.
//
// Derivation of the parameters (n users, T epochs of ℓ rounds, m subgroups of at
// least L users, privacy ε, failure probability δ, log base 2):
//   s = sqrt(2n·ln(12mT/δ))
//   a = 4s/(L − 3s)                       vote noise; needs L > 3s (Assumption 4.2)
//   x = sqrt(ln(12T/δ)/(2n))              Hoeffding error of a mean over n users
//   y = sqrt(ln(12nT/δ)/(2ℓ))             Hoeffding error of one user's epoch mean
//                                         (union bound over all n users and T epochs)
//   b = 2x/(y − x)                        estimate noise; needs y > x
//   τ_b = 2(b+1)·y, b = −1..⌈log T⌉       thresholds (τ_{−1} = 0)
//   update iff (1/n)Σa_i > 1/(e^a+1) + sqrt(ln(10T/δ)/(2n))
// Line 5 of Algorithm 1 (b) is garbled in the available text; b = 2x/(y − x) is
// ALGORITHMS.md's reading: the randomized-response error of the global estimate,
// about (e^b+1)/(e^b−1)·x ≈ (2/b)·x for small b, is then about y − x ≤ y, no larger
// than one user's own sampling error. The text also hints at b = 2x/(⌈log T⌉·y − x)
// (⌈log T⌉ times cheaper estimates, error still within Theorem 4.3's bound
// 4(⌈log T⌉+2)·y); Config::estimate_noise lets a stream use it (or any b).
// y > x means ℓ < n·ln(12nT/δ)/ln(12T/δ): epochs longer than about 2n–3n rounds
// make users' means more precise than any randomized response of the population.
//
// Privacy accounting. A user's truthful votes stop once c^V >= ε/4, so c^V < ε/4 + a
// and a user sends at most ⌈ε/(4a)⌉ truthful votes (likewise c^E < ε/4 + b and
// ⌈ε/(4b)⌉ truthful estimates: the number of global updates a user can pay for).
// Each such message changes the likelihood of the transcript by at most e^a (e^b).
// Which epochs get a truthful EST depends only on the public updates, the same for
// every input; which get a truthful vote depends on the data, so two inputs can
// differ in up to twice as many votes. The worst-case loss of a whole transcript is
// therefore at most 2a⌈ε/(4a)⌉ + b⌈ε/(4b)⌉ < 3ε/4 + 2a + b (Params::worst_case_loss):
// ε-LDP whenever worst_case_loss() <= ε (for instance when 2a + b <= ε/4); the
// algorithm as published does not check this, and neither does derive_params.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace ldp::thresh {

// What the server is told when a stream is created (ldp.thresh_create).
struct Config {
  int64_t users = 0;           // n >= 1
  int32_t epochs = 0;          // T >= 1
  int64_t epoch_rounds = 0;    // ℓ >= 1
  int64_t min_group_size = 0;  // L, 1 <= L <= n
  int32_t groups = 0;          // m >= 1, m*L <= n
  double epsilon = 0;          // > 0, finite
  double delta = 0;            // 0 < δ < 1
  std::optional<double> vote_noise;      // a (> 0, finite) instead of 4s/(L − 3s)
  std::optional<double> estimate_noise;  // b (> 0, finite) instead of 2x/(y − x)
  std::optional<double> threshold_unit;  // y (> 0, finite) in τ_b = 2(b+1)·y only
                                         // (b and accuracy_bound keep the derived y)
};

// What every device needs; the server publishes it.
struct Params {
  Config config;
  int32_t log_epochs = 0;       // ⌈log2 T⌉ (0 for T = 1)
  double vote_noise = 0;        // a
  double estimate_noise = 0;    // b
  double vote_threshold = 0;    // 1/(e^a+1) + sqrt(ln(10T/δ)/(2n)), n = users
  double sampling_error = 0;    // y = sqrt(ln(12nT/δ)/(2ℓ)) (always derived)
  std::vector<double> thresholds;  // thresholds[b+1] = τ_b, b = −1..log_epochs

  double tau(int b) const;              // b in [−1, log_epochs]; InvalidParameter otherwise
  double vote_cap() const { return config.epsilon / 4; }      // truthful votes while c^V < ε/4
  double estimate_cap() const { return config.epsilon / 4; }  // truthful EST while c^E < ε/4
  // Theorem 4.3: |p̃^t − p^t| <= 4(⌈log T⌉+2)·y while few changes have happened.
  double accuracy_bound() const { return 4.0 * (log_epochs + 2) * sampling_error; }
  // ⌈ε/(4a)⌉ and ⌈ε/(4b)⌉ (the client's running sums may round across an integer).
  int64_t max_truthful_votes() const;
  int64_t max_truthful_estimates() const;
  // 2a·max_truthful_votes() + b·max_truthful_estimates(): the privacy a user can lose.
  double worst_case_loss() const;
};

// Validates every field (InvalidParameter naming the field) and derives a, b, y, τ.
// Refuses a configuration that breaks Assumption 4.2 (L <= 3·sqrt(2n·ln(12mT/δ)))
// unless vote_noise is given, saying the smallest min_group_size that works (or the
// number of users needed when none fits m groups); refuses one in which b is
// undefined (y <= x) unless estimate_noise is given, saying the largest epoch_rounds.
Params derive_params(const Config& config);

// Checks a Params received from elsewhere (a device given the published numbers):
// the config's fields, log_epochs, a, b > 0, τ_{−1..⌈log T⌉} finite, >= 0, non-decreasing.
void validate_params(const Params& params);

}  // namespace ldp::thresh
