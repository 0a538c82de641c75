// Binomial and multinomial draws from a RandomSource, exact and reproducible for a seed
// (no implementation-defined std:: distribution): the simulations' samplers and the
// Square Wave bootstrap's resampling (range/square_wave.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/common/random.hpp"

namespace ldp {

// Binomial(trials, p) draw, trials >= 0, p in [0, 1] (else InvalidParameter). Exact
// algorithms, as in NumPy's legacy generator: inversion when trials·min(p, 1−p) <= 30 (the
// search restarts beyond mean + 10 sd, a truncation of probability < 1e-20), otherwise
// BTPE (Kachitvichyanukul & Schmeiser 1988), exact rejection sampling from a
// triangle/parallelogram/exponential envelope, a few uniforms per draw whatever trials.
int64_t binomial(RandomSource& rng, int64_t trials, double p);
// Multinomial(trials, p) by conditional binomials, p weights >= 0 that sum to 1 up to
// rounding.
std::vector<int64_t> multinomial(RandomSource& rng, int64_t trials, const std::vector<double>& p);
// Multinomial(Σ w, w/Σ w) by conditional binomials over integer weights (a histogram
// resampled: the bootstrap's draw), exact in the weights: cell i's conditional
// probability is w_i / (the weight of the cells from i on), so the draws sum to Σ w.
// InvalidParameter for a negative weight, OutOfRange when Σ w passes 2^63 − 1.
std::vector<int64_t> multinomial_counts(RandomSource& rng, const int64_t* weights, size_t cells);

}  // namespace ldp
