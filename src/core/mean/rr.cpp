// Randomized response (Warner 1965): the proportion of true bits.
#include "core/common/error.hpp"
#include "core/mean/mean_encoders.hpp"
#include "core/mean/mean_summary.hpp"
#include "core/oracles/bit_mean.hpp"

namespace ldp {

bool rr_encode(bool value, double epsilon, RandomSource& rng) {
  validate_mean_params(MeanMechanism::RR, MeanParams{epsilon, 1.0, 0.0});
  // keep w.p. e^eps/(e^eps+1) = 1/(1+e^-eps)
  bool keep = rng.bernoulli(1.0 / (1.0 + std::exp(-epsilon)));
  return keep ? value : !value;
}

extern const MeanMechanismInfo kRandomizedResponse = {
    MeanMechanism::RR,
    "rr",
    /*real_valued=*/false,
    /*uses_max_value=*/false,
    /*uses_gamma=*/false,
    nullptr,
    [](const MeanSummary& s) { return bit_mean_estimate(s.n, s.ones, s.epsilon, 1.0, 0.0); },
    [](const MeanSummary& s, double delta) {
      return bit_mean_error_bound(s.n, s.epsilon, 1.0, 0.0, delta);
    },
    [](const MeanSummary& s, double confidence, double* lo, double* hi) {
      return bit_mean_interval(s.n, s.ones, s.epsilon, 1.0, 0.0, confidence, lo, hi);
    },
};

}  // namespace ldp
