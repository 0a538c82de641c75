// Hadamard response (the one-row form of Apple's HCMS; K and the device's draw are the
// shared oracle, oracles/hadamard_response.hpp): K = the smallest power of two >= k+1,
// item v uses column v+1 of the Sylvester Hadamard matrix H[j][c] = (-1)^popcount(j & c)
// (column 0 is all ones and carries nothing). The device draws a row j uniformly from
// [0, K) and sends (j, y), y = H[j][v+1] flipped with probability 1/(e^eps+1).
//
// Counters: S[j], the sum of the +1/-1 reports of row j (K rows).
// Estimate: f̂(v) = c · (1/n) · (H·S)[v+1], c = (e^eps+1)/(e^eps-1) = coth(eps/2),
// (H·S)[col] = Σ_j (-1)^popcount(j & col) S[j], all columns at once by one fast
// Walsh–Hadamard transform, O(K log K).
// Variance for a fixed population: one user's term is c·H[j][v+1]·y =
// c·H[j][(v+1) xor (x+1)]·s with s = ±1, E[s] = 1/c, and its square is c^2; its mean
// is [x = v]. So Var f̂(v) = (c^2 - f)/n (docs/algorithms/frequency.md#hadamard-response).
// A sampled population's variance, each user's value drawn at random with probability f,
// would be (c^2 - f^2)/n (Var [x = v] = f - f^2 adds to the fixed-population variance);
// the difference is (f - f^2)/n <= 1/(4n), small next to c^2/n >= 1/n. The standard
// error uses f = f̂ clamped to [0, 1].
#include <cinttypes>
#include <cmath>
#include <vector>

#include "core/common/error.hpp"
#include "core/common/fwht.hpp"
#include "core/common/stored_form.hpp"
#include "core/freq/freq_encoders.hpp"
#include "core/freq/freq_internal.hpp"
#include "core/freq/freq_summary.hpp"
#include "core/oracles/hadamard_response.hpp"

namespace ldp {

static_assert(kMaxDomain == kMaxHadamardOrder, "hadamard_order bounds k as every frequency mechanism");

namespace {

int64_t hadamard_derive_g(const FreqParams& p) { return hadamard_order(p.k); }

// Row j holds n_j reports (signed_counters_misfit, common/stored_form.hpp).
void hadamard_check_counts(const FreqSummary& s, ErrorKind kind) {
  const int64_t* S = s.counters();
  check_counter_range(s, kind, "sums", S, s.g, -s.n, s.n);
  int64_t total = 0;
  const int64_t at = signed_counters_misfit(S, s.g, s.n, &total);
  if (at >= 0 && at < s.g) throw_bad_counts(s, kind, "the absolute row sums exceed n (at sums[%" PRId64 "])", at);
  if (at == s.g) throw_bad_counts(s, kind, "n - Σ|sums| = %" PRId64 " must be even", s.n - total);
}

void hadamard_estimate(const FreqSummary& s, double* freq, double* std_error) {
  const int64_t K = s.g;
  std::vector<uint64_t> t(s.counters(), s.counters() + K);
  fwht_exact(t.data(), K);  // exact: Σ|S_j| <= n
  const double n = static_cast<double>(s.n);
  const double c = 1.0 / std::tanh(s.epsilon / 2);
  for (int64_t v = 0; v < s.k; ++v) {
    double f = c * (static_cast<double>(static_cast<int64_t>(t[v + 1])) / n);
    double fc = std::fmin(std::fmax(f, 0.0), 1.0);
    freq[v] = f;
    std_error[v] = std::sqrt((c * c - fc) / n);
  }
}

}  // namespace

HadamardReport hadamard_encode(int64_t value, double epsilon, int64_t k, RandomSource& rng) {
  validate_freq_params(FreqMechanism::Hadamard, FreqParams{epsilon, k, 0});
  check_encoder_value(value, k);
  return hadamard_response(value, epsilon, hadamard_order(k), rng);
}

void freq_add_hadamard(FreqSummary* s, int64_t row, bool plus_one) {
  check_summary_mechanism(*s, FreqMechanism::Hadamard);
  if (row < 0 || row >= s->g)
    throw_error(ErrorKind::ImpossibleReport,
                "hadamard row must be in [0, K = %" PRId64 ") (the smallest power of two >= "
                "k+1), got %" PRId64,
                s->g, row);
  s->counters()[row] += plus_one ? 1 : -1;
  s->n += 1;
}

extern const FreqMechanismImpl kHadamardImpl = {
    {FreqMechanism::Hadamard, "hadamard"},
    /*uses_d=*/false,
    /*signed_counters=*/true,
    /*arrays_over_g=*/true,
    {"sums", nullptr},
    hadamard_derive_g,
    hadamard_check_counts,
    hadamard_estimate,
};

}  // namespace ldp
