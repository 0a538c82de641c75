// Generalized randomized response over [0, k) (k-RR; "KFlip" in Ding et al. 2017;
// docs/algorithms/frequency.md#generalized-randomized-response-grr): the device reports its
// item with probability e^eps/(e^eps+k-1), else one of the other k-1 items uniformly. A pure
// protocol with support {y = v}.
#include <cinttypes>
#include <cmath>

#include "core/common/error.hpp"
#include "core/freq/freq_encoders.hpp"
#include "core/freq/freq_internal.hpp"
#include "core/freq/freq_summary.hpp"

namespace ldp {

namespace {

// p = e^eps/(e^eps+k-1), q = 1/(e^eps+k-1); with m = e^eps - 1 = expm1(eps):
// p - q = m/(m+k) and 1 - p - q = (k-2)/(m+k).
PureProbs grr_probs(double epsilon, int64_t k) {
  double m = std::expm1(epsilon), den = m + static_cast<double>(k);
  return {(m + 1.0) / den, 1.0 / den, m / den, static_cast<double>(k - 2) / den};
}

// Every report supports exactly one item: the counts are non-negative and sum to n.
void grr_check_counts(const FreqSummary& s, ErrorKind kind) {
  const int64_t* c = s.counters();
  check_counter_range(s, kind, "counts", c, s.k, 0, s.n);
  int64_t sum = 0;  // <= n: no overflow
  bool over = false;
  for (int64_t v = 0; v < s.k && !over; ++v) {
    over = c[v] > s.n - sum;
    if (!over) sum += c[v];
  }
  if (over || sum != s.n)
    throw_bad_counts(s, kind, "the counts must sum to n = %" PRId64 "%s", s.n,
                     over ? ", they exceed it" : "");
}

void grr_estimate(const FreqSummary& s, double* freq, double* std_error) {
  pure_estimate(s, grr_probs(s.epsilon, s.k), freq, std_error);
}

}  // namespace

int64_t grr_encode(int64_t value, double epsilon, int64_t k, RandomSource& rng) {
  validate_freq_params(FreqMechanism::GRR, FreqParams{epsilon, k, 0});
  check_encoder_value(value, k);
  if (rng.bernoulli(grr_probs(epsilon, k).p)) return value;
  auto other = static_cast<int64_t>(rng.below(static_cast<uint64_t>(k - 1)));
  return other < value ? other : other + 1;
}

void throw_bad_grr_report(const FreqSummary& s, int64_t y) {
  check_summary_mechanism(s, FreqMechanism::GRR);
  throw_error(ErrorKind::ImpossibleReport,
              "grr report must be an item in [0, %" PRId64 "), got %" PRId64, s.k, y);
}

extern const FreqMechanismImpl kGrrImpl = {
    {FreqMechanism::GRR, "grr"},
    /*uses_d=*/false,
    /*signed_counters=*/false,
    /*arrays_over_g=*/false,
    {"counts", nullptr},
    freq_no_g,
    grr_check_counts,
    grr_estimate,
};

}  // namespace ldp
