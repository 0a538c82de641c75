// THRESH (Joseph et al. 2018; the family and the derivation: params.hpp): the device, with the
// state it persists between epochs. Its budgets c^V and c^E stop truthful votes and
// estimates at their caps, by the stream's cap rule (Config::cap_rule): from 0.10.0 a
// report is truthful only if the counter after it stays within ε/3 (at most
// max_truthful_votes() and max_truthful_estimates() of them), so a user loses at most
// Params::worst_case_loss <= ε; 0.9.0's streams keep caps of ε/4 that the last report
// may pass (params.hpp, "Privacy accounting").
#pragma once

#include <cstdint>

#include "core/common/random.hpp"
#include "core/thresh/params.hpp"

namespace ldp::thresh {

// b* when no threshold is exceeded (p̂^t = p̂^{f(t−1)} exactly).
constexpr int kNoLevel = -2;

// What every THRESH device keeps whatever its data (a Bernoulli mean here, a projected
// histogram in histogram.hpp): its privacy counters and epochs. The steps on them
// (vote_at_level, begin_estimate, check_counters below) are the protocol's votes,
// schedule and caps, shared by both kinds of stream.
struct Counters {
  double vote_spent = 0;      // c^V: a × the truthful votes sent (a running sum under SpentBelowCap)
  double estimate_spent = 0;  // c^E: b × the truthful estimates sent (likewise)
  int64_t epoch = 0;          // the last epoch voted on (0: none)
  int64_t update_epoch = 0;   // f: the epoch of the last EST (0: none)
};

// One user's local state: Algorithms 2 (VOTE) and 3 (EST).
class Client {
 public:
  struct State : Counters {
    double last_update_mean = -1;  // p̂^{f}: the epoch mean sent with the last EST (−1: none)
    double epoch_mean = 0;         // p̂^t of the last epoch voted on
  };

  explicit Client(const Params& params);  // a fresh user: f(0) = 0, p̂^0 = −1
  // Restores a persisted state; InvalidParameter unless it is one this client can reach.
  Client(const Params& params, const State& state);

  // Epoch t (1..T, strictly increasing across calls; epochs may be skipped): the
  // user's mean over the epoch's ℓ rounds, in [0, 1] (OutOfRange otherwise). Returns
  // the vote a_i^t. Truthful (Ber(e^a/(e^a+1)), c^V += a) iff 2^(⌈log T⌉ − b*) divides t
  // and the cap rule allows it (c^V + a <= ε/3; 0.9.0's streams: c^V < ε/4); otherwise
  // Ber(1/(e^a+1)).
  bool vote(int64_t epoch, double epoch_mean, RandomSource& rng);
  // Only after the server announced a global update for the epoch just voted on, at
  // most once per epoch (InvalidParameter otherwise): the EST report p̃_i^t, truthful
  // (Ber((1 + p̂(e^b−1))/(e^b+1)), c^E += b) iff the cap rule allows it (c^E + b <= ε/3;
  // 0.9.0's streams: c^E < ε/4), otherwise Ber(1/(e^b+1));
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

// ---- the steps both kinds of device share ----
// b*: the highest b in −1..⌈log T⌉ with change > τ_b, kNoLevel if none (change >= 0).
int level_of_change(const Params& params, double change);
// VOTE in epoch t at level b*: checks t (1..T, after c.epoch; InvalidParameter),
// votes truthfully (Ber(e^a/(e^a+1)), c^V += a) iff level_scheduled and the cap rule
// allows it (c^V + a <= ε/3, or c^V < ε/4 under SpentBelowCap),
// otherwise Ber(1/(e^a+1)); c.epoch = t.
bool vote_at_level(const Params& params, Counters& c, int64_t epoch, int level, RandomSource& rng);
// The start of EST for the epoch just voted on (InvalidParameter before any vote or a
// second time in an epoch): whether it is truthful (by the cap rule, as for votes; then
// c^E += b); sets
// f = c.epoch. The caller then randomizes its data with noise b, or sends the
// randomized response of nothing (a Bernoulli 0, a histogram's zero vector).
bool begin_estimate(const Params& params, Counters& c);
// A persisted state's counters (the failing condition in the message, InvalidParameter).
void check_counters(const Params& params, const Counters& c);

}  // namespace ldp::thresh
