// THRESH (Joseph, Roth, Ullman, Waggoner 2018; docs/algorithms/thresh.md#thresh-parameters): a
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
// The simulation helpers (Scenario, the epoch means) are not part of the core: they are in
// src/tools/thresh/thresh_scenario.hpp, for the tests and the simulator.
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
// our reading (docs/algorithms/thresh.md#the-estimate-noise-b): the randomized-response
// error of the global estimate, about (e^b+1)/(e^b−1)·x ≈ (2/b)·x for small b, is then
// about y − x ≤ y, no larger than one user's own sampling error. The text also hints at
// b = 2x/(⌈log T⌉·y − x) (⌈log T⌉ times cheaper estimates, error still within Theorem
// 4.3's bound 4(⌈log T⌉+2)·y); Config::estimate_noise lets a stream use it (or any b).
// y > x means ℓ < n·ln(12nT/δ)/ln(12T/δ): epochs longer than about 2n–3n rounds
// make users' means more precise than any randomized response of the population.
//
// Privacy accounting (the same for HEAVYTHRESH, histogram.hpp;
// docs/algorithms/thresh.md#privacy-accounting-and-cap-rules). Fix two inputs of one
// user (two sequences of epoch data) and any transcript. Per epoch the vote is
// Ber(e^a/(e^a+1)) when truthful and Ber(1/(e^a+1)) when not: the two inputs' vote
// distributions differ, by a likelihood ratio of at most e^a, only in epochs in which
// one of them votes truthfully and the other does not. Whether a vote is truthful
// depends on the data (b*), so such epochs can differ between the inputs; each input
// sends at most K_V truthful votes, hence at most 2·K_V such epochs. An EST is truthful
// or not by the estimate counter alone, which counts global updates (public, the same
// for both inputs), and a truthful one changes the likelihood by at most e^b (a
// Bernoulli EST; the count sketch's report on a projection likewise). So every transcript's
// privacy loss is at most
//     worst_case_loss = 2a·K_V + b·K_E                      (Params::worst_case_loss)
// with K_V, K_E the most truthful votes and estimates a device sends, which the cap
// rule fixes (Config::cap_rule, recorded per stream):
//  - CapRule::NextWithinCap (streams created from 0.10.0 on): a device sends a truthful
//    report only if its counter after it stays within its cap, ε/3 for votes and ε/3
//    for estimates (c + a <= ε/3). So K_V = ⌊ε/(3a)⌋, K_E = ⌊ε/(3b)⌋, a·K_V <= ε/3,
//    b·K_E <= ε/3 and worst_case_loss <= 2·ε/3 + ε/3 = ε: the whole budget, none of it
//    slack (the paper's caps are ε/4, its last quarter covering the overshoot of the rule
//    it printed, which this rule does not have). ε-LDP for every configuration
//    derive_params accepts; it refuses one with 3a > ε or 3b > ε (K_V = 0 or K_E = 0: a
//    device could never report its data). In floating point: K is the largest k with
//    3k·noise <= ε in exact arithmetic on the doubles (params.cpp; no rounded ε/3), so
//    2a·K_V + b·K_E <= ε holds exactly; worst_case_loss() rounds its products and sum,
//    and where that lands above ε (by an ulp or two, when a·K_V and b·K_E meet their
//    caps almost exactly) K_E is lowered, then K_V (never below 1: 2a + b <= ε computes
//    to at most ε), until worst_case_loss() <= ε as computed. Those lowered K's are the
//    published ones: the device stops at max_truthful_votes() and
//    max_truthful_estimates() (client.cpp), counting its reports exactly (truthful_sent).
//    K is at most 2^50 (no stream has 2^31 epochs), so every count is exact as a double.
//  - CapRule::SpentBelowCap (the paper as printed; streams created by 0.9.0 and before
//    keep it, with its caps ε/4): a truthful report while the counter is below ε/4
//    (c < ε/4), so the last one may pass the cap: K_V = ⌈ε/(4a)⌉, K_E = ⌈ε/(4b)⌉ and
//    worst_case_loss < 3ε/4 + 2a + b, which exceeds ε when 2a + b is large against ε/4
//    (n = 100,000, T = 32, ℓ = 20,000, L = 40,000, m = 2, δ = 0.1 derive a = 0.1487,
//    b = 0.8129; at ε = 1: 2a·2 + b·1 = 1.408 > 1, a configuration NextWithinCap
//    refuses, 3b > ε).
// The bound is within 2a of the exact maximum: before the first global update every
// device votes at the top level (p̂^0 = −1), so both inputs vote truthfully in the same
// epochs, and at least one truthful vote each is spent alike (unit tests search the
// adversarial inputs and updates: ThreshCapRule).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace ldp::thresh {

// How a device stops its truthful reports at its caps (see "Privacy accounting").
enum class CapRule : int32_t {
  SpentBelowCap = 1,  // 0.9.0 and before: truthful while c < ε/4 (may pass the cap once)
  NextWithinCap = 2,  // from 0.10.0: truthful only if c + noise <= ε/3 (worst case <= ε)
};
// The names ldp.thresh_catalog.cap_rule stores: spent_below_cap, next_within_cap.
const char* cap_rule_name(CapRule rule);
// The rule of a name; false (and *rule untouched) for any other text.
bool parse_cap_rule(std::string_view name, CapRule* rule);
// Each counter's cap under a rule: ε/3 (NextWithinCap), ε/4 (SpentBelowCap).
double report_cap(double epsilon, CapRule rule);

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
  CapRule cap_rule = CapRule::NextWithinCap;  // the devices' rule (a stream's is published)
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
  // The budgets of c^V and c^E: ε/3 each (NextWithinCap), ε/4 each (SpentBelowCap).
  double vote_cap() const { return report_cap(config.epsilon, config.cap_rule); }
  double estimate_cap() const { return report_cap(config.epsilon, config.cap_rule); }
  // Theorem 4.3: |p̃^t − p^t| <= 4(⌈log T⌉+2)·y while few changes have happened.
  double accuracy_bound() const { return 4.0 * (log_epochs + 2) * sampling_error; }
  // K_V and K_E: the truthful votes and estimates a device can send under the rule,
  // ⌊ε/(3a)⌋ and ⌊ε/(3b)⌋ (NextWithinCap, exactly: 3k·a <= ε without rounding, then
  // lowered where the computed worst_case_loss would round above ε), or ⌈ε/(4a)⌉ and
  // ⌈ε/(4b)⌉ (SpentBelowCap; its running sums may round across an integer).
  int64_t max_truthful_votes() const;
  int64_t max_truthful_estimates() const;
  // The largest c^V and c^E a device reaches: a·K_V and b·K_E (<= ε/3 under
  // NextWithinCap; below ε/4 + a and ε/4 + b under SpentBelowCap).
  double max_vote_spent() const;
  double max_estimate_spent() const;
  // 2a·K_V + b·K_E: the privacy a user can lose ("Privacy accounting"); <= ε under
  // NextWithinCap, as computed here and exactly.
  double worst_case_loss() const;
};

// What a device can send and lose under a cap rule, from ε, a and b alone (the
// numbers of Params, for a stream stored elsewhere): K_V, K_E and 2a·K_V + b·K_E.
struct Budget {
  int64_t truthful_votes = 0;
  int64_t truthful_estimates = 0;
  double worst_case_loss = 0;
};
// InvalidParameter unless ε, a and b are finite and >= kMinEpsilon; K_V or K_E may be
// 0 (derive_params refuses such a configuration under NextWithinCap; this does not).
// Under NextWithinCap worst_case_loss <= ε always, as computed and exactly.
Budget device_budget(double epsilon, double vote_noise, double estimate_noise, CapRule rule);

// How many truthful reports of noise `noise` a NextWithinCap counter `spent` has paid
// for: spent = k·noise (the client stores it so), read back exactly for every k a
// stream can reach; a counter between two multiples counts as the larger.
int64_t truthful_sent(double spent, double noise);

// Validates every field (InvalidParameter naming the field) and derives a, b, y, τ.
// Under NextWithinCap, refuses a configuration in which a device cannot afford one
// truthful vote and one truthful estimate (3a > ε or 3b > ε), saying what to change.
// Refuses a configuration that breaks Assumption 4.2 (L <= 3·sqrt(2n·ln(12mT/δ)))
// unless vote_noise is given, saying the smallest min_group_size that works (or the
// number of users needed when none fits m groups); refuses one in which b is
// undefined (y <= x) unless estimate_noise is given, saying the largest epoch_rounds.
Params derive_params(const Config& config);

// Checks a Params received from elsewhere (a device given the published numbers):
// the config's fields, log_epochs, a, b > 0, τ_{−1..⌈log T⌉} finite, >= 0, non-decreasing.
void validate_params(const Params& params);

}  // namespace ldp::thresh
