// Microsoft's 1BitMean (Ding, Kulkarni, Yekhanin 2017; docs/algorithms/means.md#1bitmean): the
// mean of counters in [0, m], with alpha-point rounding, permanent memoization and output
// perturbation on the device.
#include <cmath>

#include "core/common/error.hpp"
#include "core/mean/mean_encoders.hpp"
#include "core/mean/mean_summary.hpp"
#include "core/oracles/bit_mean.hpp"

namespace ldp {

namespace {
void check_value(double value, double max_value) {
  if (!(value >= 0 && value <= max_value))
    throw_error(ErrorKind::OutOfRange, "value must be in [0, max_value = %.15g], got %.15g",
                max_value, value);
}
double p_one(double value, double epsilon, double max_value) {
  // 1/(e^eps+1) + (x/m)(e^eps-1)/(e^eps+1)
  double t = std::tanh(epsilon / 2.0);  // (e^eps-1)/(e^eps+1)
  return (1.0 - t) / 2.0 + (value / max_value) * t;
}
}  // namespace

bool onebit_mean_encode(double value, double epsilon, double max_value, RandomSource& rng) {
  validate_mean_params(MeanMechanism::OneBit, MeanParams{epsilon, max_value, 0.0});
  check_value(value, max_value);
  return rng.bernoulli(p_one(value, epsilon, max_value));
}

bool output_perturb(bool bit, double gamma, RandomSource& rng) {
  if (!(gamma >= 0 && gamma < 0.5))
    throw_error(ErrorKind::InvalidParameter, "gamma must be in [0, 0.5), got %.15g", gamma);
  if (gamma == 0) return bit;
  return rng.bernoulli(gamma) ? !bit : bit;
}

double output_perturbation_epsilon(double epsilon, double gamma) {
  validate_mean_params(MeanMechanism::OneBit, MeanParams{epsilon, 1.0, gamma});
  double p = 1.0 / (1.0 + std::exp(-epsilon));  // e^eps/(e^eps+1)
  double q = 1.0 / (1.0 + std::exp(epsilon));   // 1/(e^eps+1)
  return std::log(((1 - 2 * gamma) * p + gamma) / ((1 - 2 * gamma) * q + gamma));
}

OneBitMeanClient::OneBitMeanClient(double epsilon, double max_value, double granularity,
                                   double gamma, State state)
    : epsilon_(epsilon), max_value_(max_value), gamma_(gamma), state_(std::move(state)) {
  validate_mean_params(MeanMechanism::OneBit, MeanParams{epsilon, max_value, gamma});
  if (!(granularity > 0 && granularity <= max_value))
    throw_error(ErrorKind::InvalidParameter, "granularity must be in (0, max_value], got %.15g",
                granularity);
  double segments = std::round(max_value / granularity);
  if (segments < 1) segments = 1;
  if (segments > 1e7)
    throw_error(ErrorKind::InvalidParameter,
                "granularity %.15g gives %.0f rounding points; at most 10^7 are supported",
                granularity, segments + 1);
  points_ = static_cast<int64_t>(segments) + 1;
  step_ = max_value / segments;
  if (state_.memo.empty()) state_.memo.assign(static_cast<size_t>(points_), -1);
  if (static_cast<int64_t>(state_.memo.size()) != points_ ||
      !(state_.alpha >= 0 && state_.alpha < step_))
    throw_error(ErrorKind::InvalidParameter, "client state does not match the parameters");
}

OneBitMeanClient::OneBitMeanClient(double epsilon, double max_value, double granularity,
                                   double gamma, RandomSource& rng)
    : OneBitMeanClient(epsilon, max_value, granularity, gamma, State{0.0, {}}) {
  // alpha uniform on [0, step): P(round up) = (x - L)/step, so rounding is unbiased
  // for every real x (the paper draws an integer alpha in {0..s-1} for integer
  // counters, which gives the same probabilities there).
  state_.alpha = rng.uniform() * step_;
}

double OneBitMeanClient::rounded(double value) const {
  check_value(value, max_value_);
  double l = std::floor(value / step_);
  if (l >= static_cast<double>(points_ - 1)) return max_value_;
  double L = l * step_, R = (l + 1) * step_;
  return value + state_.alpha < R ? L : R;
}

bool OneBitMeanClient::report(double value, RandomSource& rng) {
  double y = rounded(value);
  auto idx = static_cast<size_t>(std::llround(y / step_));
  int8_t& memo = state_.memo[idx];
  if (memo < 0) memo = rng.bernoulli(p_one(y, epsilon_, max_value_)) ? 1 : 0;
  return output_perturb(memo == 1, gamma_, rng);
}

extern const MeanMechanismInfo kOneBitMean = {
    MeanMechanism::OneBit,
    "onebit",
    /*real_valued=*/false,
    /*uses_max_value=*/true,
    /*uses_gamma=*/true,
    nullptr,
    [](const MeanSummary& s) {
      return bit_mean_estimate(s.n, s.ones, s.epsilon, s.max_value, s.gamma);
    },
    [](const MeanSummary& s, double delta) {
      return bit_mean_error_bound(s.n, s.epsilon, s.max_value, s.gamma, delta);
    },
    [](const MeanSummary& s, double confidence, double* lo, double* hi) {
      return bit_mean_interval(s.n, s.ones, s.epsilon, s.max_value, s.gamma, confidence, lo, hi);
    },
};

}  // namespace ldp
