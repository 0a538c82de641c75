// Apple's Count Mean Sketch as pure-LDP implements it
// (docs/algorithms/sketches.md#count-mean-sketch-cms).
//
// Device: a row j uniform in [0, hashes); v = (-1, ..., -1) with v[h_j(x)] = +1;
// every coordinate negated with probability 1/(1+e^{ε/2}). Sent as (j, width bits),
// bit i = 1 iff v[i] = +1.
// Counters: P[j][i], the reports of row j whose bit i is 1.
// Estimate, c = c(ε/2) = (e^{ε/2}+1)/(e^{ε/2}-1) and m = width:
//   f̂(x) = (m/(m-1))·( c·Σ_j P[j][h_j(x)] - n·((c-1)/2 + 1/m) )
// (pure-LDP's M[j] += k·((c/2)v + 1/2) and (m/(m-1))·((1/k)·Σ_j M[j][h_j(x)] - n/m),
// summed over the integer counters).
// Variance (derived; hash collisions taken as random):
//   (m/(m-1))²·n·(c²-1)/4 + (n - f)/(m-1), with f = f̂ clamped to [0, n].
// Fixed hashes add a collision bias (m/(m-1))·Σ_{y≠x} f(y)·(κ_xy/k - 1/m), not in the
// standard error (docs/algorithms/sketches.md#hash-collisions).
#include <cmath>

#include "core/sketch/sketch_encoders.hpp"
#include "core/sketch/sketch_internal.hpp"

namespace ldp {

namespace {

SketchEstimate cms_estimate(const SketchSummary& s, const int64_t* table, std::string_view item,
                              uint64_t* scratch) {
  const int64_t m = s.width;
  const double sum = sketch_row_sum(s, table, item, scratch);
  const double c = 1.0 / std::tanh(s.epsilon / 4);  // c(ε/2)
  const double n = static_cast<double>(s.n), md = static_cast<double>(m), r = md / (md - 1);
  const double f = r * (c * sum - n * ((c - 1) / 2 + 1 / md));
  const double fc = std::fmin(std::fmax(f, 0.0), n);
  return {f, std::sqrt(r * r * n * (c * c - 1) / 4 + (n - fc) / (md - 1))};
}

}  // namespace

int64_t cms_encode(std::string_view item, double epsilon, int64_t hashes, int64_t width,
                   RandomSource& rng, uint8_t* bytes) {
  check_sketch_encoder(SketchMechanism::CMS, epsilon, hashes, width);
  const auto j = static_cast<int64_t>(rng.below(static_cast<uint64_t>(hashes)));
  const int64_t h = sketch_column(sketch_xxh64(item, static_cast<uint64_t>(j)), width);
  const double flip = 1.0 / (1.0 + std::exp(epsilon / 2));
  for (int64_t byte = 0; byte < (width + 7) / 8; ++byte) {
    unsigned acc = 0;
    for (int64_t i = byte * 8; i < byte * 8 + 8 && i < width; ++i) {
      bool one = (i == h) != rng.bernoulli(flip);
      acc |= static_cast<unsigned>(one) << (7 - (i & 7));
    }
    bytes[byte] = static_cast<uint8_t>(acc);
  }
  return j;
}

extern const SketchMechanismImpl kCmsImpl = {
    {SketchMechanism::CMS, "cms"},
    /*signed_counters=*/false,
    /*power_of_two=*/false,
    /*transformed=*/false,
    "counts",
    cms_estimate,
};

}  // namespace ldp
