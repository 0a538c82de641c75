// The Laplace mechanism: the baseline 1BitMean is compared against.
#include <cmath>

#include "core/common/error.hpp"
#include "core/mean/mean_encoders.hpp"
#include "core/mean/mean_summary.hpp"

namespace ldp {

namespace {
// A Laplace(m/eps) deviation beyond 1000 scales has probability e^-1000 (< 10^-434):
// a report outside this range cannot come from a device.
constexpr double kScales = 1000.0;
void laplace_range(const MeanParams& p, double* lo, double* hi) {
  double b = p.max_value / p.epsilon;
  *lo = -kScales * b;
  *hi = p.max_value + kScales * b;
}
}  // namespace

double laplace_mean_encode(double value, double epsilon, double max_value, RandomSource& rng) {
  validate_mean_params(MeanMechanism::Laplace, MeanParams{epsilon, max_value, 0.0});
  if (!(value >= 0 && value <= max_value))
    throw_error(ErrorKind::OutOfRange, "value must be in [0, max_value = %.15g], got %.15g",
                max_value, value);
  double lo, hi;
  laplace_range(MeanParams{epsilon, max_value, 0.0}, &lo, &hi);
  double y = value + rng.laplace(max_value / epsilon);
  return std::fmin(std::fmax(y, lo), hi);  // unreachable in practice; keeps reports decodable
}

extern const MeanMechanismInfo kLaplaceMean = {
    MeanMechanism::Laplace,
    "laplace",
    /*real_valued=*/true,
    /*uses_max_value=*/true,
    /*uses_gamma=*/false,
    laplace_range,
    real_mean_estimate,
    [](const MeanSummary&, double) { return std::nan(""); },
    real_mean_interval,
};

}  // namespace ldp
