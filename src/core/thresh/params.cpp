// THRESH (Joseph et al. 2018; docs/algorithms/thresh.md): the parameters the server derives
// from a stream's configuration and publishes to every device. See params.hpp for the
// derivation and the privacy accounting.
#include "core/thresh/params.hpp"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "core/common/error.hpp"
#include "core/common/stats.hpp"
#include "core/thresh/server.hpp"
#include "core/thresh/thresh_internal.hpp"

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
  if (c.cap_rule != CapRule::SpentBelowCap && c.cap_rule != CapRule::NextWithinCap)
    throw_error(ErrorKind::InvalidParameter, "cap_rule must be SpentBelowCap (1) or NextWithinCap (2), got %d",
                static_cast<int>(c.cap_rule));
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

// SpentBelowCap: reports while the running sum is below the cap, ⌈cap/noise⌉.
int64_t truthful_count(double cap, double noise) {
  double k = std::ceil(cap / noise);
  return k >= 9.2e18 ? INT64_MAX : static_cast<int64_t>(k);
}

// NextWithinCap counts at most 2^50 reports of a kind (no stream has 2^31 epochs, one
// report of each kind per epoch): every count and 3·count are exact doubles.
constexpr int64_t kMostReports = int64_t{1} << 50;

// Whether k reports of this noise fit their cap ε/3: 3k·noise <= ε in exact arithmetic
// on the doubles (fma rounds 3k·noise − ε once, so its sign is exact; 3k < 2^52 is a
// double). No rounded ε/3 is compared.
bool reports_fit(double epsilon, double noise, int64_t k) {
  return std::fma(3.0 * static_cast<double>(k), noise, -epsilon) <= 0;
}

// NextWithinCap: the largest k <= kMostReports with 3k·noise <= ε.
int64_t affordable_count(double epsilon, double noise) {
  double q = std::floor(epsilon / 3.0 / noise);  // within one of the answer
  int64_t k = q < static_cast<double>(kMostReports) ? static_cast<int64_t>(q) : kMostReports;
  while (k > 0 && !reports_fit(epsilon, noise, k)) --k;
  while (k < kMostReports && reports_fit(epsilon, noise, k + 1)) ++k;
  return k;
}

// 2·(a·K_V) + b·K_E as worst_case_loss computes it.
double loss_of(double a, int64_t votes, double b, int64_t estimates) {
  return 2.0 * (a * static_cast<double>(votes)) + b * static_cast<double>(estimates);
}

// K_V, K_E and the worst case under a rule. NextWithinCap: 3a·K_V <= ε and 3b·K_E <= ε
// exactly, so 2a·K_V + b·K_E <= ε exactly; its computed value may round above ε (an ulp,
// when both products meet their caps almost exactly and round up): K_E is lowered, then
// K_V, until it does not. A step lowers the sum by b or 2a, at least ε/(3·2^50) > an ulp
// of ε, so a step or two suffice (one in every configuration the unit tests search).
// With K_E = 1 the sum already computes within ε (b <= ε/3 is a double below ε/3), so
// the K_V step is a guard; and at K_V = K_E = 1 (exact products) 2a + b <= ε rounds to
// at most ε, so neither goes below 1.
Budget budget_of(double epsilon, double a, double b, CapRule rule) {
  Budget r;
  if (rule == CapRule::SpentBelowCap) {
    r.truthful_votes = truthful_count(epsilon / 4, a);
    r.truthful_estimates = truthful_count(epsilon / 4, b);
  } else {
    r.truthful_votes = affordable_count(epsilon, a);
    r.truthful_estimates = affordable_count(epsilon, b);
    while (r.truthful_estimates > 1 && loss_of(a, r.truthful_votes, b, r.truthful_estimates) > epsilon)
      --r.truthful_estimates;
    while (r.truthful_votes > 1 && loss_of(a, r.truthful_votes, b, r.truthful_estimates) > epsilon)
      --r.truthful_votes;
  }
  r.worst_case_loss = loss_of(a, r.truthful_votes, b, r.truthful_estimates);
  return r;
}

// A number a message suggests: the decimal of `digits` significant digits next to v,
// above it (up) or below, moved further out until the double it reads as satisfies
// works (typing the suggestion must work; printed with %.<digits>g it is that decimal).
template <class Works>
double suggestion(double v, int digits, bool up, Works works) {
  if (!(v > 0) || !std::isfinite(v)) return v;  // 3·max(a, b) past DBL_MAX: no epsilon works
  const int e = static_cast<int>(std::floor(std::log10(v))) - (digits - 1);
  double m = v / std::pow(10.0, e);
  m = up ? std::ceil(m) : std::floor(m);
  for (int i = 0; i < 1000 && m >= 1; ++i, m += up ? 1 : -1) {
    char text[64];
    std::snprintf(text, sizeof text, "%.0fe%d", m, e);
    const double r = std::strtod(text, nullptr);
    if (works(r)) return r;
  }
  return v;  // not reached: v itself is next to a decimal that works
}

// NextWithinCap needs 3a <= ε and 3b <= ε: one truthful vote and one truthful estimate
// within their caps ε/3. Says which noise is too large and what lowers it (a and b do
// not depend on ε: a larger ε raises the caps instead). Every number it suggests works.
[[noreturn]] void refuse_unaffordable(const Config& c, const Params& p) {
  const double eps = c.epsilon, cap = eps / 3;
  auto fits = [&](double noise) { return reports_fit(eps, noise, 1); };
  const bool vote = !fits(p.vote_noise), estimate = !fits(p.estimate_noise);
  const double most = std::max(p.vote_noise, p.estimate_noise);
  const double need = suggestion(3.0 * most, 6, true, [&](double e) { return reports_fit(e, most, 1); });
  const double noise6 = suggestion(cap, 6, false, fits), noise10 = suggestion(cap, 10, false, fits);
  const double n = static_cast<double>(c.users);
  char lower[2][400] = {"", ""};
  if (vote && c.vote_noise) {
    std::snprintf(lower[0], sizeof lower[0], "a vote_noise <= %.10g", noise10);
  } else if (vote) {
    // a = 4s/(L − 3s) <= ε/3  <=>  L >= s·(3 + 4/(ε/3)): the smallest such L, if m groups fit
    double s = std::sqrt(2.0 * n * log_ratio(12.0, c.groups, c.epochs, c.delta));
    auto a_of = [&](double L) { return 4.0 * s / (L - 3.0 * s); };
    double L = std::ceil(s * (3.0 + 4.0 / cap));
    while (L > 1 && L - 1 > 3.0 * s && fits(a_of(L - 1))) --L;
    while (!(L > 3.0 * s && fits(a_of(L)))) ++L;
    if (L <= static_cast<double>(c.users / c.groups))
      std::snprintf(lower[0], sizeof lower[0], "a larger min_group_size (a = 4s/(L - 3s) <= epsilon/3 from "
                    "min_group_size >= %.0f on) or a vote_noise <= %.6g", L, noise6);
    else
      std::snprintf(lower[0], sizeof lower[0], "more users or fewer groups (a = 4s/(L - 3s) <= epsilon/3 "
                    "needs min_group_size >= %.0f, above users/groups = %" PRId64 ") or a vote_noise <= %.6g",
                    L, c.users / c.groups, noise6);
  }
  if (estimate && c.estimate_noise) {
    std::snprintf(lower[1], sizeof lower[1], "an estimate_noise <= %.10g", noise10);
  } else if (estimate) {
    // b = 2x/(y − x) <= ε/3  <=>  y >= x·(1 + 2/(ε/3)), y falling with epoch_rounds
    double x = pop_error(n, c.epochs, c.delta);
    auto b_at = [&](int64_t ell) {
      double y = user_error(n, c.epochs, static_cast<double>(ell), c.delta);
      return y > x ? 2.0 * x / (y - x) : INFINITY;
    };
    auto ok = [&](int64_t ell) { return std::isfinite(b_at(ell)) && fits(b_at(ell)); };
    double yy = x * (1.0 + 2.0 / cap);
    double guess = std::floor(log_ratio(12.0, n, c.epochs, c.delta) / (2.0 * yy * yy));
    int64_t ell = guess >= 9e18 ? INT64_MAX - 1 : std::max<int64_t>(1, static_cast<int64_t>(guess));
    while (ell > 1 && !ok(ell)) --ell;
    while (ell < INT64_MAX - 1 && ok(ell + 1)) ++ell;
    if (ok(ell))
      std::snprintf(lower[1], sizeof lower[1], "shorter epochs (b = 2x/(y - x) <= epsilon/3 up to epoch_rounds = "
                    "%" PRId64 ") or an estimate_noise <= %.6g", ell, noise6);
    else
      std::snprintf(lower[1], sizeof lower[1], "more users (with %" PRId64 " users no epoch_rounds gives b = "
                    "2x/(y - x) <= epsilon/3) or an estimate_noise <= %.6g", c.users, noise6);
  }
  throw_error(ErrorKind::InvalidParameter,
              "epsilon = %.10g cannot pay for one truthful vote and one truthful estimate: each costs "
              "its noise (a = %.6g, b = %.6g) from a budget of epsilon/3 = %.10g, and the %s; use "
              "epsilon >= 3*max(a, b) = %.6g, or %s%s%s",
              eps, p.vote_noise, p.estimate_noise, cap,
              vote && estimate ? "vote and estimate noises exceed it" : vote ? "vote noise exceeds it"
                                                                        : "estimate noise exceeds it",
              need, lower[0], vote && estimate ? ", and " : "", lower[1]);
}

}  // namespace

double Params::tau(int b) const {
  if (b < -1 || b > log_epochs || static_cast<size_t>(b + 1) >= thresholds.size())
    throw_error(ErrorKind::InvalidParameter, "threshold level must be in [-1, %d], got %d",
                log_epochs, b);
  return thresholds[static_cast<size_t>(b + 1)];
}

const char* cap_rule_name(CapRule rule) {
  return rule == CapRule::SpentBelowCap ? "spent_below_cap" : "next_within_cap";
}

bool parse_cap_rule(std::string_view name, CapRule* rule) {
  for (CapRule r : {CapRule::SpentBelowCap, CapRule::NextWithinCap})
    if (name == cap_rule_name(r)) {
      *rule = r;
      return true;
    }
  return false;
}

int64_t truthful_sent(double spent, double noise) {
  // spent = fl(k·noise): spent/noise is within 2^-51·k of k, far inside the tolerance
  double r = spent / noise;
  double k = std::ceil(r - 1e-9 - 1e-12 * r);
  if (!(k > 0)) return 0;
  return k >= 9.2e18 ? INT64_MAX : static_cast<int64_t>(k);
}

double report_cap(double epsilon, CapRule rule) {
  return rule == CapRule::SpentBelowCap ? epsilon / 4 : epsilon / 3;
}

int64_t Params::max_truthful_votes() const {
  return budget_of(config.epsilon, vote_noise, estimate_noise, config.cap_rule).truthful_votes;
}
int64_t Params::max_truthful_estimates() const {
  return budget_of(config.epsilon, vote_noise, estimate_noise, config.cap_rule).truthful_estimates;
}
double Params::max_vote_spent() const { return vote_noise * static_cast<double>(max_truthful_votes()); }
double Params::max_estimate_spent() const {
  return estimate_noise * static_cast<double>(max_truthful_estimates());
}
double Params::worst_case_loss() const {
  return budget_of(config.epsilon, vote_noise, estimate_noise, config.cap_rule).worst_case_loss;
}

Budget device_budget(double epsilon, double vote_noise, double estimate_noise, CapRule rule) {
  const char* const names[] = {"epsilon", "vote_noise", "estimate_noise"};
  const double values[] = {epsilon, vote_noise, estimate_noise};
  for (int i = 0; i < 3; ++i)
    if (!noise_in_range(values[i]))
      throw_error(ErrorKind::InvalidParameter, "%s must be finite and >= %g, got %.15g", names[i],
                  kMinEpsilon, values[i]);
  if (rule != CapRule::SpentBelowCap && rule != CapRule::NextWithinCap)
    throw_error(ErrorKind::InvalidParameter, "cap_rule must be SpentBelowCap or NextWithinCap");
  return budget_of(epsilon, vote_noise, estimate_noise, rule);
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
  if (c.cap_rule == CapRule::NextWithinCap &&
      (p.max_truthful_votes() < 1 || p.max_truthful_estimates() < 1))
    refuse_unaffordable(c, p);

  double unit = c.threshold_unit ? *c.threshold_unit : y;
  p.thresholds.resize(static_cast<size_t>(p.log_epochs) + 2);
  for (int b = -1; b <= p.log_epochs; ++b)
    p.thresholds[static_cast<size_t>(b + 1)] = 2.0 * (b + 1) * unit;

  p.vote_threshold = vote_threshold(p, c.users);
  // Every derived number is finite or the configuration is refused
  // (docs/security.md#how-it-holds): devices are handed these values, and Infinity is no
  // threshold.
  for (int b = -1; b <= p.log_epochs; ++b)
    if (!std::isfinite(p.thresholds[static_cast<size_t>(b + 1)]))
      throw_error(ErrorKind::OutOfRange,
                  "the derived threshold tau_%d = 2 * %d * %.6g is not a finite number", b, b + 1, unit);
  const double derived[] = {p.sampling_error, p.vote_threshold, p.worst_case_loss(), p.accuracy_bound()};
  const char* const names[] = {"sampling error y", "vote threshold", "worst-case privacy loss",
                               "accuracy bound"};
  for (size_t i = 0; i < sizeof derived / sizeof derived[0]; ++i)
    if (!std::isfinite(derived[i]))
      throw_error(ErrorKind::OutOfRange, "the derived %s is not a finite number (%.6g)", names[i], derived[i]);
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

}  // namespace ldp::thresh
