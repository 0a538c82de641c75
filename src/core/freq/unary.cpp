// Unary encoding over [0, k): k bits, bit v for item v (support {bit v set}).
// SUE (symmetric; basic one-time RAPPOR, "BinFlip" in seed 004): the one-hot
// vector with every bit flipped w.p. 1/(e^{eps/2}+1). OUE (optimized): the 1 kept
// w.p. 1/2 and every 0 turned into a 1 w.p. 1/(e^eps+1). Both pure protocols.
#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "common/error.hpp"
#include "freq/freq_encoders.hpp"
#include "freq/freq_internal.hpp"
#include "freq/freq_summary.hpp"
#include "common/random.hpp"

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

namespace {
// kSpread[b]: byte i of the (little-endian) word is bit 7 - i of b.
constexpr uint64_t spread(unsigned b) {
  uint64_t w = 0;
  for (int i = 0; i < 8; ++i) w |= static_cast<uint64_t>((b >> (7 - i)) & 1u) << (8 * i);
  return w;
}
struct SpreadTable {
  uint64_t v[256];
  constexpr SpreadTable() : v() {
    for (unsigned b = 0; b < 256; ++b) v[b] = spread(b);
  }
};
constexpr SpreadTable kSpreadTable;
constexpr const uint64_t* kSpread = kSpreadTable.v;
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the pending words are little-endian");
}  // namespace

void freq_add_bits(FreqSummary* s, const uint8_t* bytes, int64_t nbits) {
  if (s->mechanism != static_cast<uint8_t>(FreqMechanism::OUE))
    check_summary_mechanism(*s, FreqMechanism::SUE);
  if (nbits != s->k)
    throw_error(ErrorKind::ImpossibleReport,
                "%s report must have k = %" PRId64 " bits (the length of the first report), "
                "got %" PRId64,
                freq_mechanism(s->mech()).name, s->k, nbits);
  int64_t* c = s->counters();
  if (s->pending_bytes != 0) {
    // Eight byte-wide counters per 64-bit word: report byte j (items 8j..8j+7, the
    // first in its most significant bit) adds kSpread[byte] to word j, which no
    // carry crosses while a counter stays below 256 (flushed every 255 reports).
    auto* words = reinterpret_cast<uint64_t*>(c + s->width);
    const int64_t nbytes = (nbits + 7) / 8;
#if defined(__SSE2__)
    // 16 report bytes → 128 byte counters: each byte repeated 8 times by three
    // rounds of unpacking, its bits picked by one mask, a set bit = 0xff = -1.
    const __m128i mask = _mm_set_epi8(1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128);
    int64_t j = 0;
    for (; j + 16 <= nbytes; j += 16) {
      __m128i r = _mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes + j));
      __m128i halves[2] = {_mm_unpacklo_epi8(r, r), _mm_unpackhi_epi8(r, r)};
      auto* out = reinterpret_cast<__m128i*>(words + j);
      for (int h = 0; h < 2; ++h) {
        __m128i q[2] = {_mm_unpacklo_epi16(halves[h], halves[h]), _mm_unpackhi_epi16(halves[h], halves[h])};
        for (int e = 0; e < 2; ++e) {
          __m128i x[2] = {_mm_unpacklo_epi32(q[e], q[e]), _mm_unpackhi_epi32(q[e], q[e])};
          for (int f = 0; f < 2; ++f) {
            __m128i set = _mm_cmpeq_epi8(_mm_and_si128(x[f], mask), mask);
            __m128i* o = out + 4 * h + 2 * e + f;
            _mm_storeu_si128(o, _mm_sub_epi8(_mm_loadu_si128(o), set));  // 8-byte aligned
          }
        }
      }
    }
    for (; j < nbytes; ++j) words[j] += kSpread[bytes[j]];
#else
    for (int64_t j = 0; j < nbytes; ++j) words[j] += kSpread[bytes[j]];
#endif
    s->n += 1;
    if (++s->pending == kFreqPendingRows) freq_flush_pending(s);
    return;
  }
  // Visit only the set bits, 64 at a time: a report of k bits costs about its
  // number of ones (q·k + p) counter increments instead of k.
  const int64_t words = nbits / 64;
  for (int64_t w = 0; w < words; ++w) {
    uint64_t x;
    std::memcpy(&x, bytes + 8 * w, 8);
    x = __builtin_bswap64(x);  // bit 63 is the word's first (leftmost) position
    int64_t* cw = c + 64 * w + 63;  // position 63 - t for bit t
    while (x != 0) {
      cw[-__builtin_ctzll(x)] += 1;
      x &= x - 1;  // clear the lowest set bit: a one-cycle dependency chain
    }
  }
  for (int64_t v = 64 * words; v < nbits; ++v) c[v] += (bytes[v / 8] >> (7 - v % 8)) & 1;
  s->n += 1;
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
