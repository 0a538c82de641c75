// Optimized local hashing (Wang et al., USENIX Security 2017): the device draws a
// seed s, hashes its item into [0, g) with H_s, g = round(e^eps)+1, and reports
// GRR over [0, g) of the hash. A pure protocol with support {H_s(v) = y}:
// p = e^eps/(e^eps+g-1), q = 1/g.
//
// H_s(v) = XXH32(decimal text of v, s mod 2^32) mod g: the convention of the public
// Python LDP libraries (pure-LDP), so that their clients' reports decode here.
// They compute g with Python's round(), which rounds halves to even: so do we.
#include <xxhash.h>

#include <charconv>
#include <cinttypes>
#include <cmath>

#include "../error.hpp"
#include "../freq_encoders.hpp"
#include "../freq_internal.hpp"
#include "../freq_summary.hpp"

namespace ldp {

namespace {

// round(e^eps)+1 <= kMaxDomain; validates epsilon itself (olh_range is public).
int64_t olh_g(double epsilon) {
  if (!(std::isfinite(epsilon) && epsilon > 0 && epsilon <= 700))
    throw_error(ErrorKind::InvalidParameter,
                "epsilon must be a finite number in (0, 700], got %.15g", epsilon);
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

// x mod g for 32-bit x and 1 <= g < 2^32, with M = floor((2^64-1)/g) + 1
// (Lemire, Kaser & Kurz 2019, "Faster remainder by direct computation").
inline uint32_t fastmod(uint32_t x, uint64_t m, uint32_t g) {
  uint64_t low = m * x;
  return static_cast<uint32_t>((static_cast<unsigned __int128>(low) * g) >> 64);
}

}  // namespace

int64_t olh_range(double epsilon) { return olh_g(epsilon); }

uint32_t olh_hash(uint64_t seed, int64_t v, int64_t g) {
  if (g < 1) throw_error(ErrorKind::InvalidParameter, "g must be >= 1, got %" PRId64, g);
  char text[24];
  auto r = std::to_chars(text, text + sizeof text, v);
  uint32_t h = XXH32(text, static_cast<size_t>(r.ptr - text), static_cast<uint32_t>(seed));
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

// O(k) hashes per report: the decimal text of v is kept and incremented in
// place, and the reduction mod g is a multiplication.
void freq_add_olh(FreqSummary* s, uint64_t seed, int64_t y) {
  check_summary_mechanism(*s, FreqMechanism::OLH);
  if (y < 0 || y >= s->g)
    throw_error(ErrorKind::ImpossibleReport,
                "olh report must be in [0, g = %" PRId64 ") (g = round(e^epsilon)+1), got %" PRId64,
                s->g, y);
  const auto seed32 = static_cast<uint32_t>(seed);
  const auto g = static_cast<uint32_t>(s->g);
  const uint64_t m = UINT64_MAX / g + 1;
  const auto target = static_cast<uint32_t>(y);
  int64_t* c = s->counters();
  char text[24] = {'0'};
  size_t len = 1;
  for (int64_t v = 0; v < s->k; ++v) {
    c[v] += fastmod(XXH32(text, len, seed32), m, g) == target;
    // text = decimal(v + 1)
    size_t i = len;
    while (i > 0 && text[i - 1] == '9') text[--i] = '0';
    if (i == 0) {
      text[0] = '1';
      text[len++] = '0';
    } else {
      ++text[i - 1];
    }
  }
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
