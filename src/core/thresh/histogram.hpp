// HEAVYTHRESH (Joseph et al. 2018 §5; docs/algorithms/thresh.md#heavythresh): THRESH's votes
// on users' hashed histograms, and a frequency oracle published every epoch, re-estimated only
// in the epochs in which enough users privately vote that their histogram moved.
//
// Our reading of the paper's §5 (its Supplement, with GenProj, R and the pseudocode, is
// missing, and its w and τ_b are garbled):
//  - Φ (w × d, w = t·m) is the count sketch's hashes, fixed seeds: item v's column has t non-zero
//    entries, g_j(v)/√t at row j·m + h_j(v) (h_j = XXH64(v, 2j) mod m, g_j = ±1 from
//    XXH64(v, 2j+1)). It is computed from the item's text, so the dictionary is never
//    listed, and ⟨Φe_v, Φp⟩ = p(v) + Σ_{u≠v} p(u)·(1/t)Σ_j g_j(u)g_j(v)[h_j(u) = h_j(v)]:
//    p(v) plus the count sketch's collision term (RMS sqrt(Σ_{u≠v} p(u)²/w)). The paper's Φ is a
//    dense Johnson–Lindenstrauss matrix; this one is the sparse (count-sketch) kind.
//  - A user's epoch: ℓ = epoch_rounds samples (its histogram p̂, counts summing to ℓ),
//    projected to z = Φp̂. Kept as integers: S[j·m + c] = Σ_k g_j(u_k)[h_j(u_k) = c]
//    = ℓ·√t·z (Projection).
//  - Vote statistic: D = ||z^t − z^f||_∞ (f: the user's last update). Every item's
//    ⟨Φe_v, z⟩ moves by at most √t·D, so D bounds the change of every estimate the user
//    contributes to. Thresholds (derived): a cell of z is the mean of ℓ independent
//    values in [−1/√t, 1/√t] when the user's distribution does not change, so by
//    Hoeffding |z_c − E z_c| <= y_Φ = sqrt(2·ln(16wnT/δ)/(t·ℓ)) for all w cells, n
//    users and T epochs at once with probability >= 1 − δ/8, and then D <= 2·y_Φ = τ_0.
//    τ_b = 2(b+1)·y_Φ, b = −1..⌈log T⌉, THRESH's ladder on this unit. This is the
//    paper's garbled τ_b = 2(b+1)·sqrt(2 ln(16wnT/δ)/(wℓ)) with t for w: the paper's form
//    is what the same Hoeffding bound gives for a dense Φ with entries ±1/√w.
//    A change moving some cell of E z by more than τ_b + 2y_Φ votes at level >= b.
//  - Votes, schedule, global-update rule, the caps (ε/3 each from 0.10.0, ε/4 for
//    0.9.0's streams, by the stream's cap rule) and the worst-case loss (<= ε from
//    0.10.0; params.hpp, "Privacy accounting": a report R is b-LDP like an EST, y's
//    probability ratio between two projections being at most
//    (1 + tanh(b/2))/(1 − tanh(b/2)) = e^b): THRESH's, the same code (client.hpp's
//    shared steps, server.hpp's global_update).
//    a, b and the vote threshold are derived as for a Bernoulli stream of the same
//    configuration (params.hpp); the thresholds use y_Φ (or threshold_unit).
//  - The report R on a global update is the count sketch's, on the projected histogram: the user
//    draws j in [0, t) and r in [0, m) uniformly, computes the Hadamard coefficient
//    x = (1/ℓ)·Σ_c H[r][c]·S[j·m + c] ∈ [−1, 1] of its row j and sends y = +1 with
//    probability (1 + x·tanh(b/2))/2 (randomized response of a value in [−1, 1], b-LDP).
//    For a one-item histogram x = g_j(v)·H[r][h_j(v)] and this is exactly the
//    hashtogram report, so the server's counters, FWHT, median over rows and closed-form
//    standard error are the hashtogram sketch's, unchanged: the published oracle is an
//    ldp.sketch_summary (hashtogram, epsilon = b, t, m) whose count of v estimates
//    Σ_i ⟨Φe_v, Φp̂_i⟩ (unbiased up to the collision term), frequency = count/N. We
//    chose this over "send one sampled item's hashtogram report": it is a function of
//    the projection alone (as the paper has R act on Φp̂), and it has no extra sampling
//    variance (E[y²] = 1 either way, while the sampled item adds p(v)(1−p(v)) per user).
//    A user whose estimate budget is spent sends the response for x = 0 (a fair coin),
//    which adds noise but no bias to the counters; frequencies then divide by N and
//    are low by the share of such users (as a Bernoulli stream's spent users report 0).
//  - Error bound between changes (derived; unit tests check coverage and tightness):
//    |f̂^t(v) − f^t(v)| <= z_{1−δ/4}·se, se = the hashtogram's closed-form standard
//    error divided by N (conservative: the median's π/2 and E[(c·y)²] = c² <= bound;
//    the estimate is close to normal, a sum over N reports). Each (epoch, item) pair
//    then fails with probability <= δ/2, so the expected share of failing pairs is
//    <= δ/2 and exceeds δ with probability <= 1/2 (Markov): pairs are not independent
//    (epochs between updates share an oracle, items share its counters), and a bound
//    at exactly 1 − δ per pair would miss more than δ of them about half the time.
//    Not included: the collision term (keep w large enough: RMS sqrt(Σp²/w)), users'
//    sampling error (sqrt(p(1−p)/(Nℓ))), and staleness: between a change and the update
//    that THRESH's schedule allows, the published oracle is the last update's.
// Departures from the paper: Φ sparse (count sketch) rather than dense JL; τ_b with t for
// w (derived above); R = the count sketch's report on the projection (the Supplement's R unknown).
#pragma once

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "core/common/random.hpp"
#include "core/sketch/sketch_encoders.hpp"
#include "core/sketch/sketch_summary.hpp"
#include "core/thresh/client.hpp"
#include "core/thresh/params.hpp"

namespace ldp::thresh {

// What the server is told when a histogram stream is created (ldp.heavythresh_create).
struct HistogramConfig {
  Config stream;        // THRESH's parameters; epoch_rounds = ℓ, samples per user per epoch
  int64_t hashes = 0;   // t >= 1
  int64_t width = 0;    // m, a power of two >= 2; t·m <= 2^22 (kMaxSketchCells)
};

// What every device needs; the server publishes it.
struct HistogramParams {
  Params stream;                 // a, b, vote threshold, caps; thresholds τ_b = 2(b+1)·y_Φ
  int64_t hashes = 0;            // t
  int64_t width = 0;             // m
  double projection_error = 0;   // y_Φ = sqrt(2·ln(16wnT/δ)/(t·ℓ)), w = t·m (always derived)

  int64_t cells() const { return hashes * width; }
  // The published oracle's parameters: hashtogram with epsilon b.
  SketchParams oracle() const { return {stream.estimate_noise, hashes, width}; }
  // The error bound on a published frequency between changes: z_{1−δ/4}·std_error
  // (two-sided, each pair failing with probability <= δ/2).
  double error_bound(double std_error) const;
};

// Validates (InvalidParameter naming the field) and derives: the Bernoulli stream's a, b
// and vote threshold (derive_params, with its refusals), y_Φ and the thresholds
// (threshold_unit overrides y_Φ in them). b must be <= 700 (the oracle's epsilon range).
HistogramParams derive_histogram_params(const HistogramConfig& config);
// Checks a HistogramParams received from elsewhere (validate_params, t, m, y_Φ).
void validate_histogram_params(const HistogramParams& params);

// A projected histogram, as integers: cells[k] = (j·m + c, Σ over the samples u of
// g_j(u)·[h_j(u) = c]), sorted by cell, no zero sums; z = Φp̂ = S/(ℓ·√t).
struct Projection {
  int64_t samples = 0;  // ℓ
  std::vector<std::pair<uint32_t, int64_t>> cells;
};
struct ItemCount {
  std::string_view item;  // UTF-8 text (an integer: its decimal text)
  int64_t count;          // >= 0
};

// Φ's column of an item: cells[j] = j·m + h_j(item), plus[j] = (g_j(item) = +1), j < t.
void item_column(const HistogramParams& params, std::string_view item, uint32_t* cells, bool* plus);
// A user's projection from its histogram: the counts are >= 0 and sum to epoch_rounds
// (OutOfRange otherwise; the same item may appear more than once).
Projection project(const HistogramParams& params, const ItemCount* items, size_t count);
// The same from precomputed columns (items × t of item_column each, row-major), for
// simulations projecting the same dictionary many times.
Projection project_columns(const HistogramParams& params, const uint32_t* cells, const bool* plus,
                           const int64_t* counts, size_t items);
// D = ||z_a − z_b||_∞ (both of epoch_rounds samples).
double projection_change(const HistogramParams& params, const Projection& a, const Projection& b);
// x = (1/ℓ)·Σ_c H[r][c]·S[j·m + c] ∈ [−1, 1]: what a report on (j, r) randomizes.
double projection_coefficient(const HistogramParams& params, const Projection& z, int64_t j, int64_t r);
// R: (j, r) uniform, y = +1 with probability (1 + x·tanh(ε/2))/2, x the coefficient of z
// (x = 0 for z = nullptr). The device's report with ε = b; a simulation's baseline
// re-estimating every epoch sends it with its own ε.
SignedSketchReport projection_report(const HistogramParams& params, const Projection* z, double epsilon,
                                     RandomSource& rng);

// One user's local state: VOTE on its projection, and R on a global update.
class HistogramClient {
 public:
  struct State : Counters {
    Projection last_update;  // z^f (empty before the first update)
    Projection current;      // z^t of the last epoch voted on
  };

  explicit HistogramClient(const HistogramParams& params);  // a fresh user
  // Restores a persisted state (InvalidParameter unless this client can reach it).
  HistogramClient(const HistogramParams& params, State state);

  // Epoch t (1..T, increasing): the user's histogram of ℓ samples. Returns the vote:
  // truthful iff 2^(⌈log T⌉ − b*) divides t, b* = highest_level, and the cap rule allows
  // it (Client::vote).
  bool vote(int64_t epoch, const ItemCount* items, size_t count, RandomSource& rng);
  bool vote(int64_t epoch, Projection projection, RandomSource& rng);
  // After the server announced a global update for the epoch just voted on, once:
  // The count sketch's report (j, r, y) on the projection (x = 0 once the cap rule stops truthful
  // estimates, as Client::estimate); then f(t) = t.
  SignedSketchReport report(RandomSource& rng);
  // b*: the highest b with D > τ_b; ⌈log T⌉ before the first update (z^0 "= −1").
  int highest_level(const Projection& projection) const;
  double worst_case_loss() const { return params_.stream.worst_case_loss(); }

  const State& state() const { return state_; }
  const HistogramParams& params() const { return params_; }

 private:
  HistogramParams params_;
  State state_;
};

// The same steps on a bare state, for simulations (nothing validated again).
bool histogram_vote_step(const HistogramParams& params, HistogramClient::State& state, int64_t epoch,
                         Projection projection, RandomSource& rng);
SignedSketchReport histogram_report_step(const HistogramParams& params, HistogramClient::State& state,
                                         RandomSource& rng);
int histogram_level(const HistogramParams& params, const HistogramClient::State& state,
                    const Projection& projection);

// ---- the server: the published oracle ----
// An update's reports go into a hashtogram summary of params.oracle() (sketch_summary_init,
// sketch_add_signed); between updates the last one is published.
struct FrequencyEstimate {
  double count;      // the hashtogram's estimate: Σ_i ⟨Φe_v, Φp̂_i⟩
  double frequency;  // count / N
  double std_error;  // of the frequency: the closed form / N
  double bound;      // error_bound(std_error)
};
// One item from a summary of params.oracle() prepared with sketch_prepare (N = s.n >= 1),
// scratch of sketch_scratch_words(s) words.
FrequencyEstimate histogram_frequency(const HistogramParams& params, const SketchSummary& s,
                                      const int64_t* table, std::string_view item, uint64_t* scratch);

}  // namespace ldp::thresh
