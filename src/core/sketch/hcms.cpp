// Apple's Hadamard Count Mean Sketch as pure-LDP implements it
// (docs/algorithms/sketches.md#hadamard-count-mean-sketch-hcms).
//
// Device: a row j uniform in [0, hashes) and a coefficient l uniform in [0, m), m =
// width a power of two; y = b·H[l][h_j(x)], b = -1 with probability 1/(1+e^ε).
// Counters: S[j][l] = Σ y. Prepared table: T[j] = FWHT(S[j]).
// Estimate, c = c(ε) = (e^ε+1)/(e^ε-1):  f̂(x) = (m/(m-1))·( c·Σ_j T[j][h_j(x)] - n/m ).
// Variance (derived): (m/(m-1))²·(n·c² - f - (n-f)/m²), f = f̂ clamped to [0, n].
// Fixed hashes add the collision bias of cms (docs/algorithms/sketches.md#hash-collisions).
#include <cmath>

#include "core/oracles/hcms_oracle.hpp"
#include "core/sketch/sketch_encoders.hpp"
#include "core/sketch/sketch_internal.hpp"

namespace ldp {

namespace {

SketchEstimate hcms_estimate(const SketchSummary& s, const int64_t* table, std::string_view item,
                              uint64_t* scratch) {
  const int64_t m = s.width;
  const double c = 1.0 / std::tanh(s.epsilon / 2);
  const double n = static_cast<double>(s.n), md = static_cast<double>(m), r = md / (md - 1);
  const double f = hcms_count(sketch_row_sum(s, table, item, scratch), n, m, s.epsilon);
  const double fc = std::fmin(std::fmax(f, 0.0), n);
  const double var = r * r * (n * c * c - fc - (n - fc) / (md * md));
  return {f, std::sqrt(std::fmax(var, 0.0))};
}

}  // namespace

SignedSketchReport hcms_encode(std::string_view item, double epsilon, int64_t hashes, int64_t width,
                               RandomSource& rng) {
  check_sketch_encoder(SketchMechanism::HCMS, epsilon, hashes, width);
  const auto j = static_cast<int64_t>(rng.below(static_cast<uint64_t>(hashes)));
  const auto l = static_cast<int64_t>(rng.below(static_cast<uint64_t>(width)));
  const bool flip = rng.bernoulli(1.0 / (1.0 + std::exp(epsilon)));
  return {j, l, hcms_entry(item, j, l, width) != flip};
}

extern const SketchMechanismImpl kHcmsImpl = {
    {SketchMechanism::HCMS, "hcms"},
    /*signed_counters=*/true,
    /*power_of_two=*/true,
    /*transformed=*/true,
    "sums",
    hcms_estimate,
};

}  // namespace ldp
