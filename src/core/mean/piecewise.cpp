// The piecewise mechanism (Wang et al., ICDE 2019) on [0, max_value].
#include <cmath>

#include "core/common/error.hpp"
#include "core/mean/mean_encoders.hpp"
#include "core/mean/mean_summary.hpp"

namespace ldp {

namespace {
// C = (e^{eps/2}+1)/(e^{eps/2}-1) = coth(eps/4)
double big_c(double epsilon) { return 1.0 / std::tanh(epsilon / 4.0); }

void piecewise_range(const MeanParams& p, double* lo, double* hi) {
  double c = big_c(p.epsilon);
  double half = p.max_value / 2.0;
  // reports are (t + 1) m/2 with t in [-C, C]; allow the encoder's rounding
  double slack = 1e-12 * c * p.max_value;
  *lo = (1.0 - c) * half - slack;
  *hi = (1.0 + c) * half + slack;
}
}  // namespace

double piecewise_mean_encode(double value, double epsilon, double max_value, RandomSource& rng) {
  validate_mean_params(MeanMechanism::Piecewise, MeanParams{epsilon, max_value, 0.0});
  if (!(value >= 0 && value <= max_value))
    throw_error(ErrorKind::OutOfRange, "value must be in [0, max_value = %.15g], got %.15g",
                max_value, value);
  double x = 2.0 * value / max_value - 1.0;  // [-1, 1]
  double c = big_c(epsilon);
  double l = (c + 1.0) / 2.0 * x - (c - 1.0) / 2.0;
  double r = l + c - 1.0;
  double t;
  // with probability e^{eps/2}/(e^{eps/2}+1): uniform on [l, r]
  if (rng.bernoulli(1.0 / (1.0 + std::exp(-epsilon / 2.0)))) {
    t = l + rng.uniform() * (r - l);
  } else {
    // uniform on [-C, l) U (r, C], total length C + 1
    double u = rng.uniform() * (c + 1.0);
    double left = l + c;
    t = u < left ? -c + u : r + (u - left);
  }
  t = std::fmin(std::fmax(t, -c), c);
  return (t + 1.0) * max_value / 2.0;
}

extern const MeanMechanismInfo kPiecewiseMean = {
    MeanMechanism::Piecewise,
    "piecewise",
    /*real_valued=*/true,
    /*uses_max_value=*/true,
    /*uses_gamma=*/false,
    piecewise_range,
    real_mean_estimate,
    [](const MeanSummary& s, double delta) {
      // Hoeffding over reports confined to a width of C * max_value
      return hoeffding_bound(s.n, big_c(s.epsilon) * s.max_value, delta);
    },
    real_mean_interval,
};

}  // namespace ldp
