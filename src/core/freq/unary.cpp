// Unary encoding over [0, k): k bits, bit v for item v (support {bit v set}).
// SUE (symmetric; basic one-time RAPPOR, "BinFlip" in Ding et al. 2017;
// docs/algorithms/frequency.md#unary-encoding-sue-and-oue): the one-hot
// vector with every bit flipped w.p. 1/(e^{eps/2}+1). OUE (optimized): the 1 kept
// w.p. 1/2 and every 0 turned into a 1 w.p. 1/(e^eps+1). Both pure protocols.
#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstring>

#include "core/common/bit_counters.hpp"
#include "core/common/error.hpp"
#include "core/common/random.hpp"
#include "core/freq/freq_encoders.hpp"
#include "core/freq/freq_internal.hpp"
#include "core/freq/freq_summary.hpp"

namespace ldp {

namespace {

// SUE: p = e^{eps/2}/(e^{eps/2}+1), q = 1/(e^{eps/2}+1), p - q = tanh(eps/4), p + q = 1.
PureProbs sue_probs(double epsilon) {
  return {1.0 / (1.0 + std::exp(-epsilon / 2)), 1.0 / (1.0 + std::exp(epsilon / 2)),
          std::tanh(epsilon / 4), 0.0};
}

// OUE: p = 1/2, q = 1/(e^eps+1), p - q = 1 - p - q = tanh(eps/2)/2.
PureProbs oue_probs(double epsilon) {
  double gap = std::tanh(epsilon / 2) / 2;
  return {0.5, 1.0 / (1.0 + std::exp(epsilon)), gap, gap};
}

// Bit v is 1 w.p. p if v is the value, else q; MSB-first in ceil(k/8) bytes. One
// uniform per bit, in item order (the reports of a seeded source are fixed); the
// bits are assembled without a branch on their random values, and with the seeded
// source (simulations, the loader) the generator is called directly, not through
// the virtual interface: the same numbers, about three times as fast.
// uniform() < p, with uniform() = (x >> 11) 2^-53, is (x >> 11) < ceil(p 2^53): an
// integer comparison with the same outcome for every x (p 2^53 is exact).
inline uint64_t uniform_threshold(double p) {
  return static_cast<uint64_t>(std::ceil(std::ldexp(p, 53)));
}

template <class Rng>
void unary_bits(const PureProbs& pr, int64_t value, int64_t k, Rng& rng, uint8_t* bytes) {
  const uint64_t tp = uniform_threshold(pr.p), tq = uniform_threshold(pr.q);
  for (int64_t byte = 0; byte < (k + 7) / 8; ++byte) {
    unsigned acc = 0;
    const int64_t first = byte * 8, last = std::min<int64_t>(first + 8, k);
    for (int64_t v = first; v < last; ++v) {
      const uint64_t t = v == value ? tp : tq;
      acc |= static_cast<unsigned>((rng.next_u64() >> 11) < t) << (7 - (v & 7));
    }
    bytes[byte] = static_cast<uint8_t>(acc);
  }
}

void unary_encode(FreqMechanism id, const PureProbs& pr, int64_t value, double epsilon,
                  int64_t k, RandomSource& rng, uint8_t* bytes) {
  validate_freq_params(id, FreqParams{epsilon, k, 0});
  check_encoder_value(value, k);
  if (auto* seeded = dynamic_cast<SeededRandom*>(&rng))
    unary_bits(pr, value, k, *seeded, bytes);
  else
    unary_bits(pr, value, k, rng, bytes);
}

// Any k-bit string can come from either mechanism: each count lies in [0, n].
void unary_check_counts(const FreqSummary& s, ErrorKind kind) {
  check_counter_range(s, kind, "counts", s.counters(), s.k, 0, s.n);
}

void sue_estimate(const FreqSummary& s, double* freq, double* std_error) {
  pure_estimate(s, sue_probs(s.epsilon), freq, std_error);
}

void oue_estimate(const FreqSummary& s, double* freq, double* std_error) {
  pure_estimate(s, oue_probs(s.epsilon), freq, std_error);
}

}  // namespace

void sue_encode(int64_t value, double epsilon, int64_t k, RandomSource& rng, uint8_t* bytes) {
  unary_encode(FreqMechanism::SUE, sue_probs(epsilon), value, epsilon, k, rng, bytes);
}

void oue_encode(int64_t value, double epsilon, int64_t k, RandomSource& rng, uint8_t* bytes) {
  unary_encode(FreqMechanism::OUE, oue_probs(epsilon), value, epsilon, k, rng, bytes);
}

void freq_add_bits(FreqSummary* s, const uint8_t* bytes, int64_t nbits) {
  if (s->mechanism != static_cast<uint8_t>(FreqMechanism::OUE))
    check_summary_mechanism(*s, FreqMechanism::SUE);
  if (nbits != s->k)
    throw_error(ErrorKind::ImpossibleReport,
                "%s report must have k = %" PRId64 " bits (the length of the first report), "
                "got %" PRId64,
                freq_mechanism(s->mech()).name, s->k, nbits);
  if (s->pending_bytes != 0) {
    freq_add_bits_pending(s, bytes);
    return;
  }
  add_set_bits(bytes, nbits, s->counters());
  s->n += 1;
}

void freq_add_bits_pending(FreqSummary* s, const uint8_t* bytes) {
  // byte-wide counters, eight per word (common/bit_counters.hpp), flushed every 255 reports
  add_bits_to_byte_counters(bytes, s->k, reinterpret_cast<uint64_t*>(s->counters() + s->width));
  s->n += 1;
  if (++s->pending == kFreqPendingRows) freq_flush_pending(s);
}

extern const FreqMechanismImpl kSueImpl = {
    {FreqMechanism::SUE, "sue"},
    /*uses_d=*/false,
    /*signed_counters=*/false,
    /*arrays_over_g=*/false,
    {"counts", nullptr},
    freq_no_g,
    unary_check_counts,
    sue_estimate,
};

extern const FreqMechanismImpl kOueImpl = {
    {FreqMechanism::OUE, "oue"},
    /*uses_d=*/false,
    /*signed_counters=*/false,
    /*arrays_over_g=*/false,
    {"counts", nullptr},
    freq_no_g,
    unary_check_counts,
    oue_estimate,
};

}  // namespace ldp
