// The 1-bit mean decoder: the mean behind a share of 1 reports, each bit sent by
// randomized response. RR and 1BitMean (mean/) decode their summaries with it, THRESH's
// estimates (thresh/server.cpp) their epoch's bits.
#pragma once

#include <cstdint>

#include "core/common/stats.hpp"

namespace ldp {

// The estimator of every 1-bit mechanism: P(b=1) = 1/(e^eps+1) + (x/m)(e^eps-1)/(e^eps+1),
// each bit flipped afterwards with probability gamma.
Estimate bit_mean_estimate(int64_t n, int64_t ones, double epsilon, double max_value, double gamma);
// Its interval: the Clopper-Pearson interval for P(b=1), mapped through the
// decoding (linear and increasing): coverage at least the confidence for every
// n, and an interval of honest width for small samples and all-0 or all-1
// reports, where estimate +- z SE would shrink to a point.
bool bit_mean_interval(int64_t n, int64_t ones, double epsilon, double max_value, double gamma,
                       double confidence, double* lo, double* hi);

}  // namespace ldp
