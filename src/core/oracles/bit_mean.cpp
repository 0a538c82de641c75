// The 1-bit mean decoder (bit_mean.hpp).
#include "core/oracles/bit_mean.hpp"

#include <cmath>

namespace ldp {

namespace {
// The mean decoded from a proportion y of 1 reports.
double bit_mean_decode(double y, double epsilon, double max_value, double gamma) {
  // (e^eps+1)/(e^eps-1) = coth(eps/2)
  double k = 1.0 / std::tanh(epsilon / 2.0);
  double b = (y - gamma) / (1.0 - 2.0 * gamma);  // unbiased P(b = 1) before output perturbation
  // m * (b (e^eps + 1) - 1) / (e^eps - 1) = m * (k * (2b - 1) + 1) / 2
  return max_value * (k * (2.0 * b - 1.0) + 1.0) / 2.0;
}
}  // namespace

Estimate bit_mean_estimate(int64_t n, int64_t ones, double epsilon, double max_value,
                           double gamma) {
  Estimate e;
  double nn = static_cast<double>(n);
  double ybar = static_cast<double>(ones) / nn;
  double k = 1.0 / std::tanh(epsilon / 2.0);
  e.value = bit_mean_decode(ybar, epsilon, max_value, gamma);
  e.std_error = max_value * k / (1.0 - 2.0 * gamma) * std::sqrt(ybar * (1.0 - ybar) / nn);
  e.has_std_error = true;
  return e;
}

bool bit_mean_interval(int64_t n, int64_t ones, double epsilon, double max_value, double gamma,
                       double confidence, double* lo, double* hi) {
  check_confidence(confidence);
  if (n <= 0) return false;
  double plo, phi;
  clopper_pearson_interval(ones, n, confidence, &plo, &phi);
  *lo = bit_mean_decode(plo, epsilon, max_value, gamma);
  *hi = bit_mean_decode(phi, epsilon, max_value, gamma);
  return true;
}

}  // namespace ldp
