// THRESH (seed 000): parameters, server rules, the device's VOTE and EST, and the
// simulation helper. See thresh.hpp for the derivation and the privacy accounting.
#include "thresh/thresh.hpp"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <limits>

#include "common/error.hpp"
#include "mean/mean_summary.hpp"

namespace ldp::thresh {

namespace {

int32_t ceil_log2(int32_t t) {
  int32_t k = 0;
  while ((int64_t{1} << k) < t) ++k;
  return k;
}

bool positive_finite(double v) { return v > 0 && std::isfinite(v); }
// The budget epsilon and the noises a and b are at least the smallest epsilon of any
// mechanism (a subnormal one made every formula non-finite); they may exceed
// kMaxEpsilon: no formula takes exp() of the budget, and e^a, e^b overflowing to
// infinity only sends the randomized-response flip probability 1/(e^a+1) to 0.
bool noise_in_range(double v) { return v >= kMinEpsilon && std::isfinite(v); }

// ln(c·u·v/δ) as a sum of logarithms: no overflow for any n, T, δ.
double log_ratio(double c, double u, double v, double delta) {
  return std::log(c) + std::log(u) + std::log(v) - std::log(delta);
}

// 3·sqrt(2n·ln(12mT/δ)): Assumption 4.2 needs L above it.
double assumption_bound(double n, double m, double T, double delta) {
  return 3.0 * std::sqrt(2.0 * n * log_ratio(12.0, m, T, delta));
}
bool assumption_holds(int64_t n, int64_t L, int32_t m, int32_t T, double delta) {
  return static_cast<double>(L) > assumption_bound(static_cast<double>(n), m, T, delta);
}

double pop_error(double n, double T, double delta) {  // x
  return std::sqrt(log_ratio(12.0, T, 1.0, delta) / (2.0 * n));
}
double user_error(double n, double T, double ell, double delta) {  // y
  return std::sqrt(log_ratio(12.0, n, T, delta) / (2.0 * ell));
}

void validate_config(const Config& c) {
  if (c.users < 1)
    throw_error(ErrorKind::InvalidParameter, "users must be >= 1, got %" PRId64, c.users);
  if (c.epochs < 1)
    throw_error(ErrorKind::InvalidParameter, "epochs must be >= 1, got %" PRId32, c.epochs);
  if (c.epoch_rounds < 1)
    throw_error(ErrorKind::InvalidParameter, "epoch_rounds must be >= 1, got %" PRId64,
                c.epoch_rounds);
  if (c.min_group_size < 1 || c.min_group_size > c.users)
    throw_error(ErrorKind::InvalidParameter,
                "min_group_size must be in [1, users = %" PRId64 "], got %" PRId64, c.users,
                c.min_group_size);
  if (c.groups < 1)
    throw_error(ErrorKind::InvalidParameter, "groups must be >= 1, got %" PRId32, c.groups);
  if (c.min_group_size > c.users / c.groups)
    throw_error(ErrorKind::InvalidParameter,
                "groups * min_group_size must be <= users: %" PRId32 " groups of at least %" PRId64
                " users need more than the %" PRId64 " users (lower groups or min_group_size)",
                c.groups, c.min_group_size, c.users);
  if (!noise_in_range(c.epsilon))
    throw_error(ErrorKind::InvalidParameter, "epsilon must be finite and >= %g, got %.15g",
                kMinEpsilon, c.epsilon);
  check_delta(c.delta);
  if (c.vote_noise && !noise_in_range(*c.vote_noise))
    throw_error(ErrorKind::InvalidParameter, "vote_noise must be finite and >= %g, got %.15g",
                kMinEpsilon, *c.vote_noise);
  if (c.estimate_noise && !noise_in_range(*c.estimate_noise))
    throw_error(ErrorKind::InvalidParameter, "estimate_noise must be finite and >= %g, got %.15g",
                kMinEpsilon, *c.estimate_noise);
  if (c.threshold_unit && !positive_finite(*c.threshold_unit))
    throw_error(ErrorKind::InvalidParameter, "threshold_unit must be > 0 and finite, got %.15g",
                *c.threshold_unit);
}

[[noreturn]] void refuse_assumption(const Config& c) {
  double n = static_cast<double>(c.users);
  double bound = assumption_bound(n, c.groups, c.epochs, c.delta);
  double smallest = std::floor(bound) + 1;  // the smallest integer L > bound
  int64_t fits = c.users / c.groups;        // the largest L that m groups allow
  if (smallest <= static_cast<double>(fits)) {
    auto L = static_cast<int64_t>(smallest);
    while (L > 1 && assumption_holds(c.users, L - 1, c.groups, c.epochs, c.delta)) --L;
    while (!assumption_holds(c.users, L, c.groups, c.epochs, c.delta)) ++L;
    throw_error(ErrorKind::InvalidParameter,
                "min_group_size = %" PRId64 " breaks Assumption 4.2 of THRESH, L > "
                "3*sqrt(2n*ln(12mT/delta)) = %.6g (n = users, m = groups, T = epochs): the "
                "smallest subgroup could not outvote the noise; use min_group_size >= %" PRId64
                " (fewer groups or a larger delta lower the bound), or set vote_noise",
                c.min_group_size, bound, L);
  }
  // No L fits: L <= n/m and L > 3·sqrt(2n·ln(12mT/δ)) need n > 18m²·ln(12mT/δ).
  double lg = log_ratio(12.0, c.groups, c.epochs, c.delta);
  double need = std::ceil(18.0 * c.groups * static_cast<double>(c.groups) * lg);
  int64_t users = need < 9e18 ? static_cast<int64_t>(need) : INT64_MAX;
  for (int i = 0; i < 1000000 && users < INT64_MAX - c.groups &&
                  !assumption_holds(users, users / c.groups, c.groups, c.epochs, c.delta);
       ++i)
    ++users;
  throw_error(ErrorKind::InvalidParameter,
              "min_group_size = %" PRId64 " breaks Assumption 4.2 of THRESH, L > "
              "3*sqrt(2n*ln(12mT/delta)) = %.6g (n = users, m = groups, T = epochs), and no "
              "min_group_size can satisfy it with %" PRId64 " users in %" PRId32
              " groups: use at least %" PRId64 " users (about 18*m^2*ln(12mT/delta)), fewer "
              "groups or a larger delta, or set vote_noise",
              c.min_group_size, bound, c.users, c.groups, users);
}

[[noreturn]] void refuse_estimate_noise(const Config& c, double x, double y) {
  double n = static_cast<double>(c.users);
  // y > x <=> ℓ < n·ln(12nT/δ)/ln(12T/δ)
  double limit = n * log_ratio(12.0, n, c.epochs, c.delta) /
                 log_ratio(12.0, c.epochs, 1.0, c.delta);
  auto works = [&](int64_t ell) {
    return user_error(n, c.epochs, static_cast<double>(ell), c.delta) >
           pop_error(n, c.epochs, c.delta);
  };
  if (!works(1))  // n = 1: y(ℓ) <= x for every ℓ >= 1
    throw_error(ErrorKind::InvalidParameter,
                "epoch_rounds = %" PRId64 " leaves the estimate noise b = 2x/(y - x) undefined "
                "(y = %.6g <= x = %.6g), and no epoch_rounds works with %" PRId64
                " users: use more users, or set estimate_noise",
                c.epoch_rounds, y, x, c.users);
  int64_t ell = limit >= 9e18 ? INT64_MAX - 1 : std::max<int64_t>(1, static_cast<int64_t>(std::ceil(limit)) - 1);
  while (ell > 1 && !works(ell)) --ell;
  while (ell < INT64_MAX - 1 && works(ell + 1)) ++ell;
  throw_error(ErrorKind::InvalidParameter,
              "epoch_rounds = %" PRId64 " leaves the estimate noise b = 2x/(y - x) undefined: "
              "y = sqrt(ln(12nT/delta)/(2*epoch_rounds)) = %.6g must exceed x = "
              "sqrt(ln(12T/delta)/(2n)) = %.6g (users' own means would be more precise than "
              "any randomized response of the population); use epoch_rounds <= %" PRId64
              ", or set estimate_noise",
              c.epoch_rounds, y, x, ell);
}

int64_t truthful_count(double cap, double noise) {
  double k = std::ceil(cap / noise);
  return k >= 9.2e18 ? INT64_MAX : static_cast<int64_t>(k);
}

// P(1) of randomized response with noise e: 1/(e^e+1) + value·(e^e−1)/(e^e+1).
double rr_p_one(double value, double noise) {
  double t = std::tanh(noise / 2.0);  // (e^e−1)/(e^e+1)
  return (1.0 - t) / 2.0 + value * t;
}

void check_mean(double epoch_mean) {
  if (!(epoch_mean >= 0 && epoch_mean <= 1))
    throw_error(ErrorKind::OutOfRange, "epoch_mean must be in [0, 1], got %.15g", epoch_mean);
}

}  // namespace

// ---------------------------------------------------------------------------
// Parameters

double Params::tau(int b) const {
  if (b < -1 || b > log_epochs || static_cast<size_t>(b + 1) >= thresholds.size())
    throw_error(ErrorKind::InvalidParameter, "threshold level must be in [-1, %d], got %d",
                log_epochs, b);
  return thresholds[static_cast<size_t>(b + 1)];
}

int64_t Params::max_truthful_votes() const { return truthful_count(vote_cap(), vote_noise); }
int64_t Params::max_truthful_estimates() const {
  return truthful_count(estimate_cap(), estimate_noise);
}
double Params::worst_case_loss() const {
  return 2.0 * vote_noise * static_cast<double>(max_truthful_votes()) +
         estimate_noise * static_cast<double>(max_truthful_estimates());
}

Params derive_params(const Config& c) {
  validate_config(c);
  Params p;
  p.config = c;
  p.log_epochs = ceil_log2(c.epochs);
  double n = static_cast<double>(c.users);
  double T = c.epochs;

  if (c.vote_noise) {
    p.vote_noise = *c.vote_noise;
  } else {
    if (!assumption_holds(c.users, c.min_group_size, c.groups, c.epochs, c.delta))
      refuse_assumption(c);
    double s = std::sqrt(2.0 * n * log_ratio(12.0, c.groups, T, c.delta));
    p.vote_noise = 4.0 * s / (static_cast<double>(c.min_group_size) - 3.0 * s);
  }

  double x = pop_error(n, T, c.delta);
  double y = user_error(n, T, static_cast<double>(c.epoch_rounds), c.delta);
  p.sampling_error = y;
  if (c.estimate_noise) {
    p.estimate_noise = *c.estimate_noise;
  } else {
    if (!(y > x)) refuse_estimate_noise(c, x, y);
    p.estimate_noise = 2.0 * x / (y - x);
  }
  if (!noise_in_range(p.vote_noise) || !noise_in_range(p.estimate_noise))
    throw_error(ErrorKind::InvalidParameter,
                "the derived noise levels a = %.6g, b = %.6g are not finite numbers >= %g",
                p.vote_noise, p.estimate_noise, kMinEpsilon);

  double unit = c.threshold_unit ? *c.threshold_unit : y;
  p.thresholds.resize(static_cast<size_t>(p.log_epochs) + 2);
  for (int b = -1; b <= p.log_epochs; ++b)
    p.thresholds[static_cast<size_t>(b + 1)] = 2.0 * (b + 1) * unit;

  p.vote_threshold = vote_threshold(p, c.users);
  return p;
}

void validate_params(const Params& p) {
  validate_config(p.config);
  if (p.log_epochs != ceil_log2(p.config.epochs))
    throw_error(ErrorKind::InvalidParameter, "log_epochs must be ceil(log2(epochs = %d)) = %d, got %d",
                p.config.epochs, ceil_log2(p.config.epochs), p.log_epochs);
  if (!noise_in_range(p.vote_noise))
    throw_error(ErrorKind::InvalidParameter, "vote_noise must be finite and >= %g, got %.15g",
                kMinEpsilon, p.vote_noise);
  if (!noise_in_range(p.estimate_noise))
    throw_error(ErrorKind::InvalidParameter, "estimate_noise must be finite and >= %g, got %.15g",
                kMinEpsilon, p.estimate_noise);
  if (p.thresholds.size() != static_cast<size_t>(p.log_epochs) + 2)
    throw_error(ErrorKind::InvalidParameter, "thresholds must hold %d values (tau_-1..tau_%d), got %zu",
                p.log_epochs + 2, p.log_epochs, p.thresholds.size());
  for (size_t i = 0; i < p.thresholds.size(); ++i) {
    if (!(p.thresholds[i] >= 0 && std::isfinite(p.thresholds[i])) ||
        (i > 0 && p.thresholds[i] < p.thresholds[i - 1]))
      throw_error(ErrorKind::InvalidParameter,
                  "thresholds must be finite, >= 0 and non-decreasing; tau_%d = %.15g",
                  static_cast<int>(i) - 1, p.thresholds[i]);
  }
}

// ---------------------------------------------------------------------------
// Server side

double vote_threshold(const Params& p, int64_t votes) {
  if (votes < 1)
    throw_error(ErrorKind::InvalidParameter, "votes must be >= 1, got %" PRId64, votes);
  double q = 1.0 / (std::exp(p.vote_noise) + 1.0);
  return q + std::sqrt(log_ratio(10.0, p.config.epochs, 1.0, p.config.delta) /
                       (2.0 * static_cast<double>(votes)));
}

bool global_update(const Params& p, int64_t votes, int64_t yes_votes) {
  if (votes < 1)
    throw_error(ErrorKind::InvalidParameter, "votes must be >= 1, got %" PRId64, votes);
  if (yes_votes < 0 || yes_votes > votes)
    throw_error(ErrorKind::InvalidParameter,
                "yes_votes must be in [0, votes = %" PRId64 "], got %" PRId64, votes, yes_votes);
  return static_cast<double>(yes_votes) / static_cast<double>(votes) > vote_threshold(p, votes);
}

Estimate decode_estimates(const Params& p, int64_t reports, int64_t ones) {
  if (reports < 1)
    throw_error(ErrorKind::InvalidParameter, "reports must be >= 1, got %" PRId64, reports);
  if (ones < 0 || ones > reports)
    throw_error(ErrorKind::InvalidParameter,
                "ones must be in [0, reports = %" PRId64 "], got %" PRId64, reports, ones);
  // EST is 1BitMean on [0, 1] with epsilon b: the same decoder. Above kMaxEpsilon the
  // flip probability 1/(e^b+1) is below 1e-304, so the decode is the share of ones to
  // the last bit; clamping keeps e^b finite.
  Estimate e = bit_mean_estimate(reports, ones, std::min(p.estimate_noise, kMaxEpsilon), 1.0, 0.0);
  e.has_std_error = reports >= 2;
  if (!e.has_std_error) e.std_error = 0;
  return e;
}

// ---------------------------------------------------------------------------
// Device side

bool level_scheduled(const Params& p, int level, int64_t epoch) {
  if (level < -1 || level > p.log_epochs || epoch < 1) return false;
  int shift = p.log_epochs - level;  // <= 32 since T is an int32
  if (shift >= 62) return false;
  return epoch % (int64_t{1} << shift) == 0;
}

int highest_level(const Params& p, const Client::State& s, double epoch_mean) {
  check_mean(epoch_mean);
  if (s.update_epoch == 0) return p.log_epochs;  // p̂^0 = −1: always the top level
  double diff = std::fabs(epoch_mean - s.last_update_mean);
  for (int b = p.log_epochs; b >= -1; --b)
    if (diff > p.thresholds[static_cast<size_t>(b + 1)]) return b;
  return kNoLevel;
}

bool vote_step(const Params& p, Client::State& s, int64_t epoch, double epoch_mean,
               RandomSource& rng) {
  if (epoch < 1 || epoch > p.config.epochs || epoch <= s.epoch)
    throw_error(ErrorKind::InvalidParameter,
                "epoch must be in [1, epochs = %" PRId32 "] and after the last epoch voted on "
                "(%" PRId64 "), got %" PRId64,
                p.config.epochs, s.epoch, epoch);
  int level = highest_level(p, s, epoch_mean);  // validates epoch_mean
  bool truthful = s.vote_spent < p.vote_cap() && level_scheduled(p, level, epoch);
  s.epoch = epoch;
  s.epoch_mean = epoch_mean;
  if (truthful) {
    s.vote_spent += p.vote_noise;
    return rng.bernoulli(1.0 / (1.0 + std::exp(-p.vote_noise)));  // e^a/(e^a+1)
  }
  return rng.bernoulli(1.0 / (1.0 + std::exp(p.vote_noise)));  // 1/(e^a+1)
}

bool estimate_step(const Params& p, Client::State& s, RandomSource& rng) {
  if (s.epoch < 1)
    throw_error(ErrorKind::InvalidParameter, "estimate needs a vote first (no epoch voted on)");
  if (s.update_epoch == s.epoch)
    throw_error(ErrorKind::InvalidParameter,
                "estimate already sent for epoch %" PRId64 " (at most one per epoch, after its vote)",
                s.epoch);
  bool truthful = s.estimate_spent < p.estimate_cap();
  double p1 = rr_p_one(truthful ? s.epoch_mean : 0.0, p.estimate_noise);
  if (truthful) s.estimate_spent += p.estimate_noise;
  s.update_epoch = s.epoch;
  s.last_update_mean = s.epoch_mean;
  return rng.bernoulli(p1);
}

Client::Client(const Params& params) : Client(params, State{}) {}

Client::Client(const Params& params, const State& state) : params_(params), state_(state) {
  validate_params(params_);
  const State& s = state_;
  const double slack = 1e-9;  // the counters are running sums of a (b)
  auto bad = [](const char* what) {
    throw_error(ErrorKind::InvalidParameter, "client state is not valid for these parameters: %s",
                what);
  };
  if (!(s.vote_spent >= 0 && s.vote_spent <= (params_.vote_cap() + params_.vote_noise) * (1 + slack)))
    bad("vote_spent must be in [0, epsilon/4 + a]");
  if (!(s.estimate_spent >= 0 &&
        s.estimate_spent <= (params_.estimate_cap() + params_.estimate_noise) * (1 + slack)))
    bad("estimate_spent must be in [0, epsilon/4 + b]");
  if (s.epoch < 0 || s.epoch > params_.config.epochs) bad("epoch must be in [0, epochs]");
  if (!(s.epoch_mean >= 0 && s.epoch_mean <= 1)) bad("epoch_mean must be in [0, 1]");
  if (s.update_epoch < 0 || s.update_epoch > s.epoch) bad("update_epoch must be in [0, epoch]");
  if (s.update_epoch == 0) {
    if (s.last_update_mean != -1) bad("last_update_mean must be -1 before the first update");
    if (s.estimate_spent != 0) bad("estimate_spent must be 0 before the first update");
  } else {
    if (!(s.last_update_mean >= 0 && s.last_update_mean <= 1))
      bad("last_update_mean must be in [0, 1] after an update");
    if (s.update_epoch == s.epoch && s.last_update_mean != s.epoch_mean)
      bad("last_update_mean must be the epoch mean of the update epoch");
  }
  if (s.epoch == 0 && s.vote_spent != 0) bad("vote_spent must be 0 before the first vote");
}

bool Client::vote(int64_t epoch, double epoch_mean, RandomSource& rng) {
  return vote_step(params_, state_, epoch, epoch_mean, rng);
}

bool Client::estimate(RandomSource& rng) { return estimate_step(params_, state_, rng); }

int Client::highest_level(double epoch_mean) const {
  return thresh::highest_level(params_, state_, epoch_mean);
}

// ---------------------------------------------------------------------------
// Simulation helper

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

namespace {

// Inversion for trials·p <= 30, p <= 1/2 (NumPy's random_binomial_inversion).
int64_t binomial_inversion(RandomSource& rng, int64_t n, double p) {
  double q = 1.0 - p;
  double qn = std::exp(static_cast<double>(n) * std::log1p(-p));
  double np = static_cast<double>(n) * p;
  double bound_d = std::fmin(static_cast<double>(n), np + 10.0 * std::sqrt(np * q + 1.0));
  auto bound = static_cast<int64_t>(bound_d);
  int64_t x = 0;
  double px = qn;
  double u = rng.uniform();
  while (u > px) {
    ++x;
    if (x > bound) {
      x = 0;
      px = qn;
      u = rng.uniform();
    } else {
      u -= px;
      px = (static_cast<double>(n - x + 1) * p * px) / (static_cast<double>(x) * q);
    }
  }
  return x;
}

// BTPE for trials·p > 30, p <= 1/2 (Kachitvichyanukul & Schmeiser 1988, as in NumPy's
// random_binomial_btpe).
int64_t binomial_btpe(RandomSource& rng, int64_t n_int, double p) {
  const double n = static_cast<double>(n_int);
  const double r = p, q = 1.0 - p;
  const double fm = n * r + r;
  const auto m = static_cast<int64_t>(std::floor(fm));
  const double md = static_cast<double>(m);
  const double nrq = n * r * q;
  const double p1 = std::floor(2.195 * std::sqrt(nrq) - 4.6 * q) + 0.5;
  const double xm = md + 0.5;
  const double xl = xm - p1;
  const double xr = xm + p1;
  const double c = 0.134 + 20.5 / (15.3 + md);
  double a = (fm - xl) / (fm - xl * r);
  const double laml = a * (1.0 + a / 2.0);
  a = (xr - fm) / (xr * q);
  const double lamr = a * (1.0 + a / 2.0);
  const double p2 = p1 * (1.0 + 2.0 * c);
  const double p3 = p2 + c / laml;
  const double p4 = p3 + c / lamr;

  for (;;) {
    double u = rng.uniform() * p4;
    double v = rng.uniform();
    int64_t y;
    if (u <= p1) {  // triangular region: accept at once
      return static_cast<int64_t>(std::floor(xm - p1 * v + u));
    }
    if (u <= p2) {  // parallelograms
      double x = xl + (u - p1) / c;
      v = v * c + 1.0 - std::fabs(md - x + 0.5) / p1;
      if (v > 1.0) continue;
      y = static_cast<int64_t>(std::floor(x));
    } else if (u <= p3) {  // left exponential tail
      if (v == 0.0) continue;
      double yl = std::floor(xl + std::log(v) / laml);
      if (yl < 0) continue;
      y = static_cast<int64_t>(yl);
      v = v * (u - p2) * laml;
    } else {  // right exponential tail
      if (v == 0.0) continue;
      double yr = std::floor(xr - std::log(v) / lamr);
      if (yr > n) continue;
      y = static_cast<int64_t>(yr);
      v = v * (u - p3) * lamr;
    }

    int64_t k = y > m ? y - m : m - y;
    double kd = static_cast<double>(k);
    if (k <= 20 || kd >= nrq / 2.0 - 1.0) {
      // explicit evaluation of f(y)/f(m) by the recurrence
      double s = r / q;
      double aa = s * (n + 1.0);
      double F = 1.0;
      if (m < y) {
        for (int64_t i = m + 1; i <= y; ++i) F *= (aa / static_cast<double>(i) - s);
      } else if (m > y) {
        for (int64_t i = y + 1; i <= m; ++i) F /= (aa / static_cast<double>(i) - s);
      }
      if (v > F) continue;
      return y;
    }
    // squeeze on log f(y)/f(m), then Stirling-based evaluation
    double rho = (kd / nrq) * ((kd * (kd / 3.0 + 0.625) + 0.16666666666666666) / nrq + 0.5);
    double t = -kd * kd / (2.0 * nrq);
    double A = std::log(v);
    if (A < t - rho) return y;
    if (A > t + rho) continue;
    double yd = static_cast<double>(y);
    double x1 = yd + 1.0, f1 = md + 1.0, z = n + 1.0 - md, w = n - yd + 1.0;
    double x2 = x1 * x1, f2 = f1 * f1, z2 = z * z, w2 = w * w;
    auto st = [](double v1, double v2) {
      return (13680. - (462. - (132. - (99. - 140. / v2) / v2) / v2) / v2) / v1 / 166320.;
    };
    double bound = xm * std::log(f1 / x1) + (n - md + 0.5) * std::log(z / w) +
                   (yd - md) * std::log(w * r / (x1 * q)) + st(f1, f2) + st(z, z2) + st(x1, x2) +
                   st(w, w2);
    if (A > bound) continue;
    return y;
  }
}

}  // namespace

int64_t binomial(RandomSource& rng, int64_t trials, double p) {
  if (trials < 0)
    throw_error(ErrorKind::InvalidParameter, "trials must be >= 0, got %" PRId64, trials);
  if (!(p >= 0 && p <= 1))
    throw_error(ErrorKind::InvalidParameter, "p must be in [0, 1], got %.15g", p);
  if (trials == 0 || p == 0) return 0;
  if (p == 1) return trials;
  bool flip = p > 0.5;
  double r = flip ? 1.0 - p : p;
  int64_t x = static_cast<double>(trials) * r <= 30.0 ? binomial_inversion(rng, trials, r)
                                                      : binomial_btpe(rng, trials, r);
  return flip ? trials - x : x;
}

double sample_epoch_mean(RandomSource& rng, int64_t rounds, double mean) {
  if (rounds < 1)
    throw_error(ErrorKind::InvalidParameter, "rounds must be >= 1, got %" PRId64, rounds);
  return static_cast<double>(binomial(rng, rounds, mean)) / static_cast<double>(rounds);
}

}  // namespace ldp::thresh
