// Optimized local hashing (Wang et al., USENIX Security 2017): the device draws a
// seed s, hashes its item into [0, g) with H_s, g = round(e^eps)+1, and reports
// GRR over [0, g) of the hash. A pure protocol with support {H_s(v) = y}:
// p = e^eps/(e^eps+g-1), q = 1/g.
//
// H_s(v) = XXH32(decimal text of v, s mod 2^32) mod g: the convention of the public
// Python LDP libraries (pure-LDP), so that their clients' reports decode here.
// They compute g with Python's round(), which rounds halves to even: so do we.
#include <xxhash.h>

#include <algorithm>
#include <charconv>
#include <cinttypes>
#include <cmath>

#include "core/common/error.hpp"
#include "core/common/stats.hpp"
#include "core/freq/freq_encoders.hpp"
#include "core/freq/freq_internal.hpp"
#include "core/freq/freq_summary.hpp"

namespace ldp {

namespace {

// round(e^eps)+1 <= kMaxDomain; validates epsilon itself (olh_range is public).
int64_t olh_g(double epsilon) {
  check_epsilon(epsilon);
  double z = std::exp(epsilon);
  // round(e^eps) <= kMaxDomain - 1 iff e^eps < kMaxDomain - 1/2 (epsilon below about 15.249)
  if (!(z < static_cast<double>(kMaxDomain) - 0.5))
    throw_error(ErrorKind::InvalidParameter,
                "epsilon %.15g is too large for OLH: its hash range round(e^epsilon)+1 must be "
                "at most %" PRId64 " (epsilon below %.6f)",
                epsilon, kMaxDomain, std::log(static_cast<double>(kMaxDomain) - 0.5));
  double r = std::floor(z), frac = z - r;  // exact: z < 2^22
  if (frac > 0.5 || (frac == 0.5 && std::fmod(r, 2.0) == 1.0)) r += 1;  // halves to even
  return static_cast<int64_t>(r) + 1;
}

int64_t olh_derive_g(const FreqParams& p) { return olh_g(p.epsilon); }

// p = e^eps/(e^eps+g-1), q = 1/g; with m = expm1(eps):
// p - q = (g-1) m/(g (m+g)) and 1 - p - q = ((g-1)^2 - e^eps)/(g (m+g)).
PureProbs olh_probs(double epsilon, int64_t g) {
  double m = std::expm1(epsilon), gd = static_cast<double>(g);
  double den = gd * (m + gd);
  return {(m + 1) / (m + gd), 1.0 / gd, (gd - 1) * m / den, ((gd - 1) * (gd - 1) - (m + 1)) / den};
}

void olh_check_counts(const FreqSummary& s, ErrorKind kind) {
  check_counter_range(s, kind, "counts", s.counters(), s.k, 0, s.n);
}

void olh_estimate(const FreqSummary& s, double* freq, double* std_error) {
  pure_estimate(s, olh_probs(s.epsilon, s.g), freq, std_error);
}

// ---- XXH32 of inputs under 16 bytes, portably ----
// For len < 16 bytes XXH32 (Collet, xxHash spec) is: h = seed + P5 + len; each
// whole 4-byte little-endian word w: h = rotl(h + w*P3, 17)*P4; each remaining
// byte b: h = rotl(h + b*P5, 11)*P1; then the avalanche. Every decimal text of
// an item (< kMaxDomain = 2^22: at most 7 digits) is that short. libxxhash
// stays the reference (the unit tests compare against it) and hashes the
// longer texts of olh_hash.
constexpr uint32_t kP1 = 0x9E3779B1u, kP2 = 0x85EBCA77u, kP3 = 0xC2B2AE3Du, kP4 = 0x27D4EB2Fu,
                   kP5 = 0x165667B1u;
constexpr size_t kShortXxh32 = 16;  // lengths below take the short path

template <int R>
inline uint32_t rotl32(uint32_t x) {
  return (x << R) | (x >> (32 - R));
}
inline uint32_t word_step(uint32_t h, uint32_t w_times_p3) {
  return rotl32<17>(h + w_times_p3) * kP4;
}
inline uint32_t byte_step(uint32_t h, uint32_t b_times_p5) {
  return rotl32<11>(h + b_times_p5) * kP1;
}
inline uint32_t avalanche(uint32_t h) {
  h ^= h >> 15;
  h *= kP2;
  h ^= h >> 13;
  h *= kP3;
  h ^= h >> 16;
  return h;
}
inline uint32_t read_le32(const char* p) {
  const auto* u = reinterpret_cast<const unsigned char*>(p);
  return uint32_t{u[0]} | uint32_t{u[1]} << 8 | uint32_t{u[2]} << 16 | uint32_t{u[3]} << 24;
}
// XXH32(p, len, seed) for len < 16.
uint32_t xxh32_short(const char* p, size_t len, uint32_t seed) {
  uint32_t h = seed + kP5 + static_cast<uint32_t>(len);
  for (; len >= 4; p += 4, len -= 4) h = word_step(h, read_le32(p) * kP3);
  for (; len > 0; ++p, --len) h = byte_step(h, uint32_t{static_cast<unsigned char>(*p)} * kP5);
  return avalanche(h);
}

// Support counts of one report over the items [0, k): c[v] += (H_seed(v) == y).
//
// Items are taken ten at a time, v = 10 q + d, sharing the text of q and so
// the length L of their texts: the state of XXH32 after the text of q (with
// the length L) is computed once per ten items, and each item adds only the
// step of its last digit, the avalanche and the test. The last digit is a
// trailing byte unless L is a multiple of 4, in which case it is the top byte
// of the last word (its step: + (c << 24)*P3, rotate 17, times P4).
struct LastDigitSteps {
  uint32_t as_byte[10];  // ('0'+d) * P5
  uint32_t as_word[10];  // (('0'+d) << 24) * P3
  constexpr LastDigitSteps() : as_byte(), as_word() {
    for (uint32_t d = 0; d < 10; ++d) {
      as_byte[d] = ('0' + d) * kP5;
      as_word[d] = (('0' + d) << 24) * kP3;
    }
  }
};
constexpr LastDigitSteps kLastDigit;

// h mod g == y, as a divisibility test: (h - y) mod g == 0 and h >= y, with
// m = floor((2^64-1)/g) + 1, since x is a multiple of g iff x*m mod 2^64 <= m-1
// for 32-bit x (Lemire, Kaser & Kurz 2019, "Faster remainder by direct
// computation"); same result as the remainder, without 128-bit products.
// Requires 2 <= g < 2^32 (g = round(e^eps)+1 >= 2).
struct HashTarget {
  uint32_t y;
  uint64_t m;
  bool matches(uint32_t h) const { return h >= y && static_cast<uint64_t>(h - y) * m <= m - 1; }
};

template <int R, uint32_t Mul>
inline void count_ten(uint32_t state, const uint32_t* last, int64_t n, const HashTarget& t,
                      int64_t* c) {
  for (int64_t d = 0; d < n; ++d)
    c[d] += t.matches(avalanche(rotl32<R>(state + last[d]) * Mul));
}

void olh_support(uint32_t seed, const HashTarget& t, int64_t k, int64_t* c) {
  // text of q (the first L-1 characters), incremented in place
  char text[kShortXxh32] = {};
  int64_t lo = 0;  // first item of length L
  if (k > kMaxDomain)  // texts of at most 7 digits; the code below holds to 15
    throw_error(ErrorKind::Internal, "olh: k = %" PRId64 " is beyond kMaxDomain", k);
  for (size_t L = 1; lo < k; ++L) {
    const int64_t hi = L == 1 ? std::min<int64_t>(k, 10) : std::min(k, lo * 10);  // lo < 10^15
    const size_t prefix = L - 1;
    const size_t words = L / 4;  // whole words of the text
    const bool last_in_word = L % 4 == 0;
    // text = decimal(lo / 10): "" for L = 1, else 1 followed by L - 2 zeros
    if (prefix > 0) {
      text[0] = '1';
      for (size_t i = 1; i < prefix; ++i) text[i] = '0';
    }
    for (int64_t v = lo; v < hi; v += 10) {
      uint32_t h = seed + kP5 + static_cast<uint32_t>(L);
      const size_t full_words = last_in_word ? words - 1 : words;
      const char* p = text;
      for (size_t w = 0; w < full_words; ++w, p += 4) h = word_step(h, read_le32(p) * kP3);
      const int64_t n = std::min<int64_t>(10, hi - v);
      if (last_in_word) {
        const auto* u = reinterpret_cast<const unsigned char*>(p);
        h += (uint32_t{u[0]} | uint32_t{u[1]} << 8 | uint32_t{u[2]} << 16) * kP3;
        count_ten<17, kP4>(h, kLastDigit.as_word, n, t, c + v);
      } else {
        for (; p < text + prefix; ++p)
          h = byte_step(h, uint32_t{static_cast<unsigned char>(*p)} * kP5);
        count_ten<11, kP1>(h, kLastDigit.as_byte, n, t, c + v);
      }
      // text = decimal(v / 10 + 1), still prefix digits within [lo, hi)
      size_t i = prefix;
      while (i > 0 && text[i - 1] == '9') text[--i] = '0';
      if (i > 0) ++text[i - 1];
    }
    lo = hi;
  }
}

}  // namespace

int64_t olh_range(double epsilon) { return olh_g(epsilon); }

uint32_t olh_hash(uint64_t seed, int64_t v, int64_t g) {
  if (g < 1) throw_error(ErrorKind::InvalidParameter, "g must be >= 1, got %" PRId64, g);
  char text[24];
  auto r = std::to_chars(text, text + sizeof text, v);
  const auto len = static_cast<size_t>(r.ptr - text);
  const auto seed32 = static_cast<uint32_t>(seed);
  uint32_t h = len < kShortXxh32 ? xxh32_short(text, len, seed32) : XXH32(text, len, seed32);
  return static_cast<uint32_t>(h % static_cast<uint64_t>(g));
}

OlhReport olh_encode(int64_t value, double epsilon, int64_t k, RandomSource& rng) {
  validate_freq_params(FreqMechanism::OLH, FreqParams{epsilon, k, 0});
  check_encoder_value(value, k);
  int64_t g = olh_g(epsilon);
  auto seed = static_cast<int64_t>(rng.next_u64() >> 1);  // uniform in [0, 2^63)
  int64_t h = olh_hash(static_cast<uint64_t>(seed), value, g);
  if (rng.bernoulli(olh_probs(epsilon, g).p)) return {seed, h};
  auto other = static_cast<int64_t>(rng.below(static_cast<uint64_t>(g - 1)));
  return {seed, other < h ? other : other + 1};
}

// O(k) hashes per report, about one XXH32 round each (olh_support).
void freq_add_olh(FreqSummary* s, uint64_t seed, int64_t y) {
  check_summary_mechanism(*s, FreqMechanism::OLH);
  if (y < 0 || y >= s->g)
    throw_error(ErrorKind::ImpossibleReport,
                "olh report must be in [0, g = %" PRId64 ") (g = round(e^epsilon)+1), got %" PRId64,
                s->g, y);
  const auto g = static_cast<uint64_t>(s->g);  // in [2, kMaxDomain]
  const HashTarget t{static_cast<uint32_t>(y), UINT64_MAX / g + 1};
  olh_support(static_cast<uint32_t>(seed), t, s->k, s->counters());
  s->n += 1;
}

extern const FreqMechanismImpl kOlhImpl = {
    {FreqMechanism::OLH, "olh"},
    /*uses_d=*/false,
    /*signed_counters=*/false,
    /*arrays_over_g=*/false,
    {"counts", nullptr},
    olh_derive_g,
    olh_check_counts,
    olh_estimate,
};

}  // namespace ldp
