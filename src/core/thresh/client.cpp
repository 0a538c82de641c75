// THRESH (Joseph et al. 2018; docs/algorithms/thresh.md#an-epoch-step-by-step): the device,
// Algorithms 2 (VOTE) and 3 (EST). See params.hpp for the privacy accounting that the budgets
// c^V and c^E implement.
#include "core/thresh/client.hpp"

#include <cinttypes>
#include <cmath>

#include "core/common/error.hpp"

namespace ldp::thresh {

namespace {

// P(1) of randomized response with noise e: 1/(e^e+1) + value·(e^e−1)/(e^e+1).
double rr_p_one(double value, double noise) {
  double t = std::tanh(noise / 2.0);  // (e^e−1)/(e^e+1)
  return (1.0 - t) / 2.0 + value * t;
}

void check_mean(double epoch_mean) {
  if (!(epoch_mean >= 0 && epoch_mean <= 1))
    throw_error(ErrorKind::OutOfRange, "epoch_mean must be in [0, 1], got %.15g", epoch_mean);
}

// The stream's cap rule on one counter (c^V with a, or c^E with b; params.hpp, "Privacy
// accounting"): whether one more truthful report is allowed, and if so the counter
// after it. NextWithinCap: only while the reports sent stay below most (the published
// max_truthful_votes or max_truthful_estimates, at most ⌊ε/(3·noise)⌋: the next one
// keeps the counter within ε/3, and the worst case within ε); the counter is kept as
// (reports sent)·noise so that truthful_sent reads the count back exactly.
// SpentBelowCap (0.9.0's, for the streams made before): while the running sum is
// below the cap.
bool spend_if_allowed(const Params& p, double& spent, double noise, double cap, int64_t most) {
  if (p.config.cap_rule == CapRule::SpentBelowCap) {
    if (!(spent < cap)) return false;
    spent += noise;
    return true;
  }
  int64_t sent = truthful_sent(spent, noise);
  if (sent >= most) return false;
  spent = static_cast<double>(sent + 1) * noise;
  return true;
}

}  // namespace

bool level_scheduled(const Params& p, int level, int64_t epoch) {
  if (level < -1 || level > p.log_epochs || epoch < 1) return false;
  int shift = p.log_epochs - level;  // <= 32 since T is an int32
  if (shift >= 62) return false;
  return epoch % (int64_t{1} << shift) == 0;
}

int level_of_change(const Params& p, double change) {
  for (int b = p.log_epochs; b >= -1; --b)
    if (change > p.thresholds[static_cast<size_t>(b + 1)]) return b;
  return kNoLevel;
}

int highest_level(const Params& p, const Client::State& s, double epoch_mean) {
  check_mean(epoch_mean);
  if (s.update_epoch == 0) return p.log_epochs;  // p̂^0 = −1: always the top level
  return level_of_change(p, std::fabs(epoch_mean - s.last_update_mean));
}

bool vote_at_level(const Params& p, Counters& c, int64_t epoch, int level, RandomSource& rng) {
  if (epoch < 1 || epoch > p.config.epochs || epoch <= c.epoch)
    throw_error(ErrorKind::InvalidParameter,
                "epoch must be in [1, epochs = %" PRId32 "] and after the last epoch voted on "
                "(%" PRId64 "), got %" PRId64,
                p.config.epochs, c.epoch, epoch);
  bool truthful = level_scheduled(p, level, epoch) &&
                  spend_if_allowed(p, c.vote_spent, p.vote_noise, p.vote_cap(), p.max_truthful_votes());
  c.epoch = epoch;
  if (truthful) return rng.bernoulli(1.0 / (1.0 + std::exp(-p.vote_noise)));  // e^a/(e^a+1)
  return rng.bernoulli(1.0 / (1.0 + std::exp(p.vote_noise)));  // 1/(e^a+1)
}

bool begin_estimate(const Params& p, Counters& c) {
  if (c.epoch < 1)
    throw_error(ErrorKind::InvalidParameter, "estimate needs a vote first (no epoch voted on)");
  if (c.update_epoch == c.epoch)
    throw_error(ErrorKind::InvalidParameter,
                "estimate already sent for epoch %" PRId64 " (at most one per epoch, after its vote)",
                c.epoch);
  bool truthful = spend_if_allowed(p, c.estimate_spent, p.estimate_noise, p.estimate_cap(),
                                   p.max_truthful_estimates());
  c.update_epoch = c.epoch;
  return truthful;
}

bool vote_step(const Params& p, Client::State& s, int64_t epoch, double epoch_mean,
               RandomSource& rng) {
  if (epoch < 1 || epoch > p.config.epochs || epoch <= s.epoch)
    return vote_at_level(p, s, epoch, kNoLevel, rng);  // the epoch's error, before the mean's
  int level = highest_level(p, s, epoch_mean);  // validates epoch_mean
  bool vote = vote_at_level(p, s, epoch, level, rng);
  s.epoch_mean = epoch_mean;
  return vote;
}

bool estimate_step(const Params& p, Client::State& s, RandomSource& rng) {
  bool truthful = begin_estimate(p, s);
  double p1 = rr_p_one(truthful ? s.epoch_mean : 0.0, p.estimate_noise);
  s.last_update_mean = s.epoch_mean;
  return rng.bernoulli(p1);
}

void check_counters(const Params& p, const Counters& s) {
  const double slack = 1e-9;  // the counters are running sums of a (b)
  auto bad = [](const char* what) {
    throw_error(ErrorKind::InvalidParameter, "client state is not valid for these parameters: %s",
                what);
  };
  if (p.config.cap_rule == CapRule::SpentBelowCap) {
    if (!(s.vote_spent >= 0 && s.vote_spent <= (p.vote_cap() + p.vote_noise) * (1 + slack)))
      bad("vote_spent must be in [0, epsilon/4 + a]");
    if (!(s.estimate_spent >= 0 &&
          s.estimate_spent <= (p.estimate_cap() + p.estimate_noise) * (1 + slack)))
      bad("estimate_spent must be in [0, epsilon/4 + b]");
  } else {
    if (!(s.vote_spent >= 0 && truthful_sent(s.vote_spent, p.vote_noise) <= p.max_truthful_votes()))
      bad("vote_spent must be in [0, a * max_truthful_votes] (within epsilon/3)");
    if (!(s.estimate_spent >= 0 &&
          truthful_sent(s.estimate_spent, p.estimate_noise) <= p.max_truthful_estimates()))
      bad("estimate_spent must be in [0, b * max_truthful_estimates] (within epsilon/3)");
  }
  if (s.epoch < 0 || s.epoch > p.config.epochs) bad("epoch must be in [0, epochs]");
  if (s.update_epoch < 0 || s.update_epoch > s.epoch) bad("update_epoch must be in [0, epoch]");
  if (s.update_epoch == 0 && s.estimate_spent != 0) bad("estimate_spent must be 0 before the first update");
  if (s.epoch == 0 && s.vote_spent != 0) bad("vote_spent must be 0 before the first vote");
}

Client::Client(const Params& params) : Client(params, State{}) {}

Client::Client(const Params& params, const State& state) : params_(params), state_(state) {
  validate_params(params_);
  const State& s = state_;
  check_counters(params_, s);
  auto bad = [](const char* what) {
    throw_error(ErrorKind::InvalidParameter, "client state is not valid for these parameters: %s",
                what);
  };
  if (!(s.epoch_mean >= 0 && s.epoch_mean <= 1)) bad("epoch_mean must be in [0, 1]");
  if (s.update_epoch == 0) {
    if (s.last_update_mean != -1) bad("last_update_mean must be -1 before the first update");
  } else {
    if (!(s.last_update_mean >= 0 && s.last_update_mean <= 1))
      bad("last_update_mean must be in [0, 1] after an update");
    if (s.update_epoch == s.epoch && s.last_update_mean != s.epoch_mean)
      bad("last_update_mean must be the epoch mean of the update epoch");
  }
}

bool Client::vote(int64_t epoch, double epoch_mean, RandomSource& rng) {
  return vote_step(params_, state_, epoch, epoch_mean, rng);
}

bool Client::estimate(RandomSource& rng) { return estimate_step(params_, state_, rng); }

int Client::highest_level(double epoch_mean) const {
  return thresh::highest_level(params_, state_, epoch_mean);
}

}  // namespace ldp::thresh
