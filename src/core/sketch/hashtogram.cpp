// Bassily et al.'s count-sketch oracle with Hadamard compression (NeurIPS 2017, §3.1-3.2;
// docs/algorithms/sketches.md#count-sketch-with-hadamard-compression-hashtogram), which
// the SQL calls hashtogram (the paper's Hashtogram implemented as this oracle, with sign
// hashes and the median over rows: docs/algorithms/sketches.md#departures-from-the-sources).
//
// Hashes: h_j(u) = XXH64(u, 2j) mod m and g_j(u) = 1 - 2·(XXH64(u, 2j+1) & 1),
// independent, so that colliding items cancel on average.
// Device: a row j uniform in [0, t) (t = hashes) and r uniform in [0, m);
// x = g_j(u)·H[r][h_j(u)]; y = x with probability e^ε/(1+e^ε), else -x.
// Counters: S[j][r] = Σ y. Prepared table: T[j] = FWHT(S[j]).
// Row estimate: f̂_j(u) = t·c(ε)·g_j(u)·T[j][h_j(u)]; the estimate is their median
// (for even t the mean of the two middle values, as numpy.median: the lower middle
// alone biases every estimate by about -0.08·sqrt(t·n)·c).
// Standard error: sqrt((π/2)·n·c(ε)² − f), f = f̂ clamped to [0, n]. (π/2)·n·c² is the
// median's large-t variance (docs/algorithms/sketches.md#the-median-over-rows); each
// report lands in one row only, which takes f(u) off it (measured: observed/closed form
// 0.83-0.86 for an item held by half the reports without the −f, 0.90-1.05 with it; test/unit/
// sketch_estimator_test.cpp). Still slightly conservative for moderate t (the median of t rows
// has variance ~1.45·n·c² at t = 16), and more so for small t (t = 2: the mean of two rows,
// n·c²). Fixed hashes add a collision bias, not in the standard error: RMS about sqrt(Σ_{y≠u}
// f(y)²/(m·t)) for the mean over rows; the median moves less for a heavy neighbour (each
// shared row shifts it by at most ~0.08·c·sqrt(t·n)).
#include <cmath>

#include "core/common/select.hpp"
#include "core/oracles/count_sketch.hpp"
#include "core/sketch/sketch_encoders.hpp"
#include "core/sketch/sketch_internal.hpp"

namespace ldp {

namespace {

SketchEstimate hashtogram_estimate(const SketchSummary& s, const int64_t* table, std::string_view item,
                                   uint64_t* scratch) {
  const int64_t t = s.hashes;
  double* rows = reinterpret_cast<double*>(scratch + 2 * t);  // after the 2t hashes
  const double c = 1.0 / std::tanh(s.epsilon / 2);
  count_sketch_rows(table, t, s.width, item, static_cast<double>(t) * c, scratch, rows);
  const double median = median_of(rows, t);
  const double n = static_cast<double>(s.n), f = std::fmin(std::fmax(median, 0.0), n);
  return {median, std::sqrt(M_PI / 2 * n * c * c - f)};
}

}  // namespace

SignedSketchReport hashtogram_encode(std::string_view item, double epsilon, int64_t hashes,
                                     int64_t width, RandomSource& rng) {
  check_sketch_encoder(SketchMechanism::Hashtogram, epsilon, hashes, width);
  const auto j = static_cast<int64_t>(rng.below(static_cast<uint64_t>(hashes)));
  const auto r = static_cast<int64_t>(rng.below(static_cast<uint64_t>(width)));
  const bool x = count_sketch_entry(item, j, r, width);
  const bool flip = rng.bernoulli(1.0 / (1.0 + std::exp(epsilon)));
  return {j, r, x != flip};
}

extern const SketchMechanismImpl kHashtogramImpl = {
    {SketchMechanism::Hashtogram, "hashtogram"},
    /*signed_counters=*/true,
    /*power_of_two=*/true,
    /*transformed=*/true,
    "sums",
    hashtogram_estimate,
};

}  // namespace ldp
