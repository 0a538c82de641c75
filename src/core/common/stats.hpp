// Small statistics helpers shared by every estimator.
#pragma once

#include <cstdint>

namespace ldp {

// Throws InvalidParameter unless 0 < confidence < 1.
void check_confidence(double confidence);

// The documented range of every mechanism's epsilon: [kMinEpsilon, kMaxEpsilon].
// Below it the estimators' variances (of order 1/epsilon^2 and more) and their
// intervals stop being representable for the largest summaries (a subnormal
// epsilon gave Inf and NaN); above it exp(epsilon) overflows.
constexpr double kMinEpsilon = 1e-4;
constexpr double kMaxEpsilon = 700;
// Throws InvalidParameter unless kMinEpsilon <= epsilon <= kMaxEpsilon.
void check_epsilon(double epsilon);

// The documented range of a failure probability delta (error bounds, THRESH):
// [kMinDelta, 1). Below it log(1/delta) is no longer finite.
constexpr double kMinDelta = 1e-300;
// Throws InvalidParameter unless kMinDelta <= delta < 1.
void check_delta(double delta);

// Two-sided normal critical value: z with P(|Z| <= z) = confidence.
// Throws InvalidParameter unless 0 < confidence < 1.
double normal_critical_value(double confidence);

// Upper-tail normal quantile: z with P(Z > z) = alpha (negative for alpha > 1/2),
// computed from alpha itself, so that a tiny alpha (1e-300) keeps its precision.
// Throws InvalidParameter naming `alpha` unless 0 < alpha < 1.
double normal_upper_quantile(double alpha);

// Two-sided Student t critical value on df > 0 degrees of freedom.
// Throws InvalidParameter unless 0 < confidence < 1.
double student_t_critical_value(double confidence, double df);

// The Clopper-Pearson ("exact") interval for a binomial proportion: `ones`
// successes in n > 0 trials. Its coverage is at least `confidence` for every n
// and every true proportion (it is conservative for small n and agrees with the
// normal interval for large n); with ones = 0 or n it still has a width of order
// 1/n, where estimate +- z SE collapses to a point.
// Above kClopperPearsonMaxN trials (where Boost's inverse incomplete beta starts to
// give up on some inputs, from about 10^11) it is Wilson's score interval, which
// agrees with it there to a small fraction of the width.
constexpr int64_t kClopperPearsonMaxN = int64_t{1} << 32;
void clopper_pearson_interval(int64_t ones, int64_t n, double confidence, double* lo, double* hi);

// An estimate with its standard error; has_std_error is false when the data
// cannot support one (for example a sample variance from a single report).
struct Estimate {
  double value = 0;
  double std_error = 0;
  bool has_std_error = false;
};

}  // namespace ldp
