// THRESH (seed 000, Joseph, Roth, Ullman, Waggoner 2018; ALGORITHMS.md §3): a
// population mean of evolving Bernoulli data, re-estimated with randomized response
// only in the epochs in which enough users privately vote that their data changed.
//
// This file holds both halves that must agree bit for bit:
//  - the parameters (derive_params), which the server computes from the stream's
//    configuration and publishes to every device;
//  - the server's decision rules (vote_threshold, global_update, decode_estimates);
//  - the device (Client: Algorithms 2 VOTE and 3 EST, with persistable state);
//  - a small simulation helper (Scenario, binomial) for tests and the simulator.
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
//
// The guarantees (Theorem 4.3) assume that every user votes in every epoch. The
// server uses the number of votes it actually received as n in the update rule
// (vote_threshold(params, votes)); with partial participation the rule still bounds
// false updates, but the detection guarantee (Assumption 4.2 with the full n and L)
// weakens, so the glue should report the vote count.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "common/random.hpp"
#include "common/stats.hpp"

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

// ---- server side ----

// 1/(e^a+1) + sqrt(ln(10T/δ)/(2·votes)), votes >= 1 (the votes actually received).
double vote_threshold(const Params& params, int64_t votes);
// GlobalUpdate_t: yes_votes/votes > vote_threshold(params, votes); 0 <= yes_votes <= votes.
bool global_update(const Params& params, int64_t votes, int64_t yes_votes);
// The global estimate from `reports` EST reports (>= 1) of which `ones` are 1:
// p̃ = (1/N)Σ(p̃_i(e^b+1) − 1)/(e^b−1), std_error (e^b+1)/(e^b−1)·sqrt(ŷ(1−ŷ)/N)
// with ŷ = ones/N (has_std_error from N >= 2 on).
Estimate decode_estimates(const Params& params, int64_t reports, int64_t ones);

// ---- device side ----

// b* when no threshold is exceeded (p̂^t = p̂^{f(t−1)} exactly).
constexpr int kNoLevel = -2;

// One user's local state: Algorithms 2 (VOTE) and 3 (EST).
class Client {
 public:
  struct State {
    double last_update_mean = -1;  // p̂^{f}: the epoch mean sent with the last EST (−1: none)
    double vote_spent = 0;         // c^V
    double estimate_spent = 0;     // c^E
    double epoch_mean = 0;         // p̂^t of the last epoch voted on
    int64_t epoch = 0;             // the last epoch voted on (0: none)
    int64_t update_epoch = 0;      // f: the epoch of the last EST (0: none)
  };

  explicit Client(const Params& params);  // a fresh user: f(0) = 0, p̂^0 = −1
  // Restores a persisted state; InvalidParameter unless it is one this client can reach.
  Client(const Params& params, const State& state);

  // Epoch t (1..T, strictly increasing across calls; epochs may be skipped): the
  // user's mean over the epoch's ℓ rounds, in [0, 1] (OutOfRange otherwise). Returns
  // the vote a_i^t. Truthful (Ber(e^a/(e^a+1)), c^V += a) iff c^V < ε/4 and
  // 2^(⌈log T⌉ − b*) divides t; otherwise Ber(1/(e^a+1)).
  bool vote(int64_t epoch, double epoch_mean, RandomSource& rng);
  // Only after the server announced a global update for the epoch just voted on, at
  // most once per epoch (InvalidParameter otherwise): the EST report p̃_i^t, truthful
  // (Ber((1 + p̂(e^b−1))/(e^b+1)), c^E += b) iff c^E < ε/4, otherwise Ber(1/(e^b+1));
  // then f(t) = t (last_update_mean = the epoch mean).
  bool estimate(RandomSource& rng);
  // b*: the highest b in −1..⌈log T⌉ with |p̂^t − p̂^{f}| > τ_b, kNoLevel if none.
  // Before the first update (f = 0, p̂^0 = −1) it is ⌈log T⌉, whatever τ: the paper's
  // p̂^0 = −1 gives a difference >= 1 > τ_{⌈log T⌉} whenever that threshold is below 1,
  // and is there to make epoch 1 always update.
  int highest_level(double epoch_mean) const;

  const State& state() const { return state_; }
  const Params& params() const { return params_; }

 private:
  Params params_;
  State state_;
};

// The same steps on a bare state, for simulations holding many users without a copy
// of the parameters each (neither argument is validated again: use validate_params
// and Client(params, state) for untrusted input).
bool vote_step(const Params& params, Client::State& state, int64_t epoch, double epoch_mean,
               RandomSource& rng);
bool estimate_step(const Params& params, Client::State& state, RandomSource& rng);
int highest_level(const Params& params, const Client::State& state, double epoch_mean);
// Whether level b* votes truthfully in epoch t (budget aside): 2^(⌈log T⌉ − b*) | t.
bool level_scheduled(const Params& params, int level, int64_t epoch);

// ---- simulation helper (tests and the libpqxx simulator) ----

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

// Binomial(trials, p) draw, trials >= 0, p in [0, 1]. Exact algorithms, as in NumPy's
// legacy generator: inversion when trials·min(p, 1−p) <= 30 (the search restarts
// beyond mean + 10 sd, a truncation of probability < 1e-20), otherwise BTPE
// (Kachitvichyanukul & Schmeiser 1988), exact rejection sampling from a
// triangle/parallelogram/exponential envelope, a few uniforms per draw whatever trials.
int64_t binomial(RandomSource& rng, int64_t trials, double p);
// One user's epoch mean: binomial(rng, rounds, mean)/rounds, rounds >= 1.
double sample_epoch_mean(RandomSource& rng, int64_t rounds, double mean);

}  // namespace ldp::thresh
