#include "core/common/stats.hpp"

#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <boost/math/special_functions/beta.hpp>
#include <cmath>
#include <exception>

#include "core/common/error.hpp"

namespace ldp {

void check_confidence(double confidence) {
  if (!(confidence > 0.0 && confidence < 1.0))
    throw_error(ErrorKind::InvalidParameter,
                "confidence must be strictly between 0 and 1, got %g", confidence);
}

void check_epsilon(double epsilon) {
  if (!(epsilon >= kMinEpsilon && epsilon <= kMaxEpsilon))
    throw_error(ErrorKind::InvalidParameter, "epsilon must be in [%g, %g], got %.15g",
                kMinEpsilon, kMaxEpsilon, epsilon);
}

void check_delta(double delta) {
  if (!(delta >= kMinDelta && delta < 1))
    throw_error(ErrorKind::InvalidParameter, "delta must be in [%g, 1), got %.15g", kMinDelta,
                delta);
}

double normal_critical_value(double confidence) {
  check_confidence(confidence);
  boost::math::normal_distribution<double> z;
  return boost::math::quantile(z, 0.5 + confidence / 2.0);
}

double normal_upper_quantile(double alpha) {
  if (!(alpha > 0.0 && alpha < 1.0))
    throw_error(ErrorKind::InvalidParameter, "alpha must be in (0, 1), got %g", alpha);
  boost::math::normal_distribution<double> z;
  return boost::math::quantile(boost::math::complement(z, alpha));
}

double student_t_critical_value(double confidence, double df) {
  check_confidence(confidence);
  if (!(df > 0)) throw_error(ErrorKind::Internal, "degrees of freedom must be > 0, got %g", df);
  boost::math::students_t_distribution<double> t(df);
  return boost::math::quantile(t, 0.5 + confidence / 2.0);
}

namespace {
// Wilson's score interval: for large n it agrees with Clopper-Pearson to a
// small fraction of the interval's width.
void wilson_interval(double ones, double n, double z, double* lo, double* hi) {
  const double p = ones / n, z2n = z * z / n;
  const double center = (p + z2n / 2.0) / (1.0 + z2n);
  const double half = z * std::sqrt(p * (1.0 - p) / n + z2n / (4.0 * n)) / (1.0 + z2n);
  *lo = ones == 0 ? 0.0 : std::fmin(p, std::fmax(0.0, center - half));
  *hi = ones == n ? 1.0 : std::fmax(p, std::fmin(1.0, center + half));
}
}  // namespace

void clopper_pearson_interval(int64_t ones, int64_t n, double confidence, double* lo, double* hi) {
  check_confidence(confidence);
  if (!(n > 0 && ones >= 0 && ones <= n))
    throw_error(ErrorKind::Internal, "binomial interval of %lld in %lld", static_cast<long long>(ones),
                static_cast<long long>(n));
  const double alpha = 1.0 - confidence, x = static_cast<double>(ones), nn = static_cast<double>(n);
  if (n <= kClopperPearsonMaxN) {
    try {
      // the alpha/2 quantile of Beta(x, n - x + 1), the 1 - alpha/2 quantile of Beta(x + 1, n - x)
      *lo = ones == 0 ? 0.0 : boost::math::ibeta_inv(x, nn - x + 1.0, alpha / 2.0);
      *hi = ones == n ? 1.0 : boost::math::ibetac_inv(x + 1.0, nn - x, alpha / 2.0);
      return;
    } catch (const std::exception&) {
      // Boost's series gave up (not seen below kClopperPearsonMaxN): Wilson below
    }
  }
  wilson_interval(x, nn, normal_critical_value(confidence), lo, hi);
}

}  // namespace ldp
