// Device side (the SDK) of the mean and proportion mechanisms. Every encoder
// validates its parameters and value (ldp::Error otherwise) and draws from the
// RandomSource it is given: SecureRandom on a device, SeededRandom in tests.
#pragma once

#include <cstdint>
#include <vector>

#include "core/common/random.hpp"

namespace ldp {

// Randomized response (Warner): keeps the bit w.p. e^eps/(e^eps+1).
bool rr_encode(bool value, double epsilon, RandomSource& rng);

// 1BitMean (Ding et al. 2017, §2.1): x in [0, max_value];
// P(1) = 1/(e^eps+1) + (x/max_value)(e^eps-1)/(e^eps+1).
bool onebit_mean_encode(double value, double epsilon, double max_value, RandomSource& rng);
// Output perturbation (the paper's §4; docs/algorithms/means.md#output-perturbation): flip
// w.p. gamma in [0, 0.5).
bool output_perturb(bool bit, double gamma, RandomSource& rng);
// The one-round privacy of 1BitMean at epsilon followed by output perturbation gamma:
// ln(((1-2g) e^eps/(e^eps+1) + g) / ((1-2g)/(e^eps+1) + g)).
double output_perturbation_epsilon(double epsilon, double gamma);

// Laplace baseline: value + Lap(max_value/epsilon), value in [0, max_value].
double laplace_mean_encode(double value, double epsilon, double max_value, RandomSource& rng);

// Piecewise mechanism (Wang et al., ICDE 2019) on [0, max_value], report in data units.
double piecewise_mean_encode(double value, double epsilon, double max_value, RandomSource& rng);

// A device collecting a counter repeatedly with 1BitMean, alpha-point rounding
// and permanent memoization (Ding et al. 2017, §3.1;
// docs/algorithms/means.md#rounding-and-memoization-on-the-device), and optional output
// perturbation. The device keeps its state (alpha and the memo) between rounds: state() and
// the restoring constructor let it persist them.
class OneBitMeanClient {
 public:
  struct State {
    double alpha;                 // in [0, step)
    std::vector<int8_t> memo;     // -1: not drawn yet; 0/1: the memoized bit of point l*step
  };

  // granularity s: the rounding grid is {l*step}, step = max_value/round(max_value/s)
  // (s = max_value gives two points, the strongest blending).
  OneBitMeanClient(double epsilon, double max_value, double granularity, double gamma,
                   RandomSource& rng);
  OneBitMeanClient(double epsilon, double max_value, double granularity, double gamma,
                   State state);

  // The report for this round's counter value x in [0, max_value].
  bool report(double value, RandomSource& rng);

  const State& state() const { return state_; }
  double step() const { return step_; }
  // The grid point the value rounds to, with this client's alpha.
  double rounded(double value) const;

 private:
  double epsilon_, max_value_, gamma_, step_;
  int64_t points_;
  State state_;
};

}  // namespace ldp
