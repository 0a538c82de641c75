// dBitFlip (Ding, Kulkarni, Yekhanin 2017, §2.2; docs/algorithms/frequency.md#dbitflip):
// each device holds d distinct buckets drawn uniformly from [0, k) and sends one bit per
// bucket, 1 with probability w/(w+1) if its value is that bucket, else 1/(w+1), with
// w = e^{eps/2}.
// dBitFlipPM (§3.4) memoizes the responses on the device (DBitFlipClient); every
// round is distributed as dBitFlip, so the server decodes both the same way.
//
// Counters: holders[v] (reports that hold bucket v), then ones[v] (of those, bit 1).
//
// Estimate (3) of the paper: ĥ(v) = (k/(n d)) · Σ_{reports holding v} (b(w+1) - 1)/(w-1)
//                                 = (k/(n d)) · (ones_v (w+1) - holders_v)/(w-1).
// Variance for a fixed population (n users, a fraction f of them holding value v),
// derived here. One user's term is Y = H·T with H = [v among its buckets] ~
// Bernoulli(d/k) and T = (b(w+1) - 1)/(w-1), which is w/(w-1) if b = 1 and -1/(w-1)
// if b = 0, independent of H. E[T | x = v] = 1 and E[T | x != v] = 0, and
//   E[T^2 | x = v]  = (w/(w+1) · w^2 + 1/(w+1)) / (w-1)^2 = (w^2 - w + 1)/(w-1)^2
//                   = 1 + w/(w-1)^2,
//   E[T^2 | x != v] = (1/(w+1) · w^2 + w/(w+1)) / (w-1)^2 = w/(w-1)^2.
// So Var Y = (d/k)(w/(w-1)^2 + [x = v]) - (d/k)^2 [x = v], the users are independent,
// and Var ĥ(v) = (k/(n d))^2 Σ Var Y = ((k/d)(w/(w-1)^2 + f) - f)/n.
// (d = k: w/(w-1)^2/n, the SUE variance q(1-q)/(n (p-q)^2) at the same epsilon.)
// The standard error uses f = ĥ(v) clamped to [0, 1].
#include <cinttypes>
#include <cmath>
#include <vector>

#include "core/common/error.hpp"
#include "core/freq/freq_encoders.hpp"
#include "core/freq/freq_internal.hpp"
#include "core/freq/freq_summary.hpp"

namespace ldp {

namespace {

constexpr int64_t kPairwiseMax = 16;  // up to this d, repeated buckets are found pairwise

double p_one_held(double epsilon) { return 1.0 / (1.0 + std::exp(-epsilon / 2)); }  // w/(w+1)
double p_one_other(double epsilon) { return 1.0 / (1.0 + std::exp(epsilon / 2)); }  // 1/(w+1)

// d distinct buckets, uniformly among the d-subsets of [0, k) (Floyd's algorithm).
void draw_buckets(int64_t k, int64_t d, RandomSource& rng, int32_t* out) {
  std::vector<uint8_t> taken;
  if (d > kPairwiseMax) taken.assign(static_cast<size_t>(k), 0);
  int64_t count = 0;
  for (int64_t j = k - d; j < k; ++j) {
    auto t = static_cast<int64_t>(rng.below(static_cast<uint64_t>(j + 1)));
    bool seen = false;
    if (d > kPairwiseMax) {
      seen = taken[t] != 0;
    } else {
      for (int64_t i = 0; i < count && !seen; ++i) seen = out[i] == t;
    }
    if (seen) t = j;  // j itself cannot have been drawn yet
    if (d > kPairwiseMax) taken[t] = 1;
    out[count++] = static_cast<int32_t>(t);
  }
}

void dbitflip_check_counts(const FreqSummary& s, ErrorKind kind) {
  const int64_t* holders = s.counters();
  const int64_t* ones = holders + s.k;
  check_counter_range(s, kind, "holders", holders, s.k, 0, s.n);
  __int128 total = 0;
  for (int64_t v = 0; v < s.k; ++v) {
    if (ones[v] < 0 || ones[v] > holders[v])
      throw_bad_counts(s, kind, "ones[%" PRId64 "] = %" PRId64 " is outside [0, holders = %" PRId64 "]",
                       v, ones[v], holders[v]);
    total += holders[v];
  }
  // Each report holds d distinct buckets. (With 0 <= holders <= n this is also sufficient.)
  if (total != static_cast<__int128>(s.n) * s.d)
    throw_bad_counts(s, kind, "the holders must sum to n*d = %" PRId64 "*%" PRId64, s.n, s.d);
}

void dbitflip_estimate(const FreqSummary& s, double* freq, double* std_error) {
  const double n = static_cast<double>(s.n);
  const double k_over_d = static_cast<double>(s.k) / static_cast<double>(s.d);
  const double scale = k_over_d / n;
  // (ones (w+1) - holders)/(w-1) = ones + (2 ones - holders)/(w-1), with w - 1 = expm1(eps/2)
  const double wm1 = std::expm1(s.epsilon / 2);
  // w/(w-1)^2 = 1/(w - 2 + 1/w) = 1/(2 sinh(eps/4))^2
  const double sh = 2 * std::sinh(s.epsilon / 4);
  const double a = 1.0 / (sh * sh);
  const int64_t* holders = s.counters();
  const int64_t* ones = holders + s.k;
  for (int64_t v = 0; v < s.k; ++v) {
    double o = static_cast<double>(ones[v]), h = static_cast<double>(holders[v]);
    double f = scale * (o + (2 * o - h) / wm1);
    double fc = std::fmin(std::fmax(f, 0.0), 1.0);
    freq[v] = f;
    std_error[v] = std::sqrt(std::fmax((k_over_d * (a + fc) - fc) / n, 0.0));
  }
}

[[noreturn]] void throw_repeated(int32_t b) {
  throw_error(ErrorKind::ImpossibleReport,
              "dbitflip report must hold distinct buckets, bucket %d is repeated", b);
}

}  // namespace

void dbitflip_encode(int64_t value, double epsilon, int64_t k, int64_t d, RandomSource& rng,
                     int32_t* buckets, bool* bits) {
  validate_freq_params(FreqMechanism::DBitFlip, FreqParams{epsilon, k, d});
  check_encoder_value(value, k);
  draw_buckets(k, d, rng, buckets);
  const double held = p_one_held(epsilon), other = p_one_other(epsilon);
  for (int64_t i = 0; i < d; ++i) bits[i] = rng.bernoulli(buckets[i] == value ? held : other);
}

// The paper's §3.4 memoizes one dBitFlip response f_d(v) per value v in [k]; this client
// memoizes one bit per (bucket, whether the value is that bucket), as freq_encoders.hpp
// specifies, so every value outside the d buckets gets the same response. Each round is
// still distributed exactly as dBitFlip (bucket i's bit has the right probability and
// the d bits are independent), so the server decodes it the same way; across rounds the
// responses depend on the value only through which of the buckets it is, if any.
DBitFlipClient::DBitFlipClient(double epsilon, int64_t k, int64_t d, RandomSource& rng)
    : epsilon_(epsilon), k_(k) {
  validate_freq_params(FreqMechanism::DBitFlip, FreqParams{epsilon, k, d});
  buckets_.resize(static_cast<size_t>(d));
  draw_buckets(k, d, rng, buckets_.data());
  memo_.assign(2 * static_cast<size_t>(d), -1);
}

void DBitFlipClient::report(int64_t value, RandomSource& rng, int32_t* buckets, bool* bits) {
  check_encoder_value(value, k_);
  for (size_t i = 0; i < buckets_.size(); ++i) {
    bool held = buckets_[i] == value;
    int8_t& m = memo_[2 * i + (held ? 1 : 0)];
    if (m < 0) m = rng.bernoulli(held ? p_one_held(epsilon_) : p_one_other(epsilon_)) ? 1 : 0;
    buckets[i] = buckets_[i];
    bits[i] = m == 1;
  }
}

void freq_add_dbitflip_general(FreqSummary* s, const int32_t* buckets, const bool* bits,
                               int64_t d) {
  check_summary_mechanism(*s, FreqMechanism::DBitFlip);
  if (d != s->d)
    throw_error(ErrorKind::ImpossibleReport,
                "dbitflip report must have d = %" PRId64
                " buckets (the length of the first report), got %" PRId64,
                s->d, d);
  for (int64_t i = 0; i < d; ++i)
    if (buckets[i] < 0 || buckets[i] >= s->k)
      throw_error(ErrorKind::ImpossibleReport,
                  "dbitflip bucket must be in [0, %" PRId64 "), got %d", s->k, buckets[i]);
  int64_t* holders = s->counters();
  int64_t* ones = holders + s->k;
  if (d <= kPairwiseMax) {
    for (int64_t i = 1; i < d; ++i)
      for (int64_t j = 0; j < i; ++j)
        if (buckets[i] == buckets[j]) throw_repeated(buckets[i]);
    for (int64_t i = 0; i < d; ++i) holders[buckets[i]] += 1;
  } else {
    // The holders themselves are the scratch bitmap: a bucket already seen in this
    // report has its (non-negative) count complemented. O(d), no allocation.
    for (int64_t i = 0; i < d; ++i) {
      int64_t& h = holders[buckets[i]];
      if (h < 0) {
        for (int64_t j = 0; j < i; ++j) holders[buckets[j]] = ~holders[buckets[j]];
        throw_repeated(buckets[i]);
      }
      h = ~h;
    }
    for (int64_t i = 0; i < d; ++i) holders[buckets[i]] = ~holders[buckets[i]] + 1;
  }
  for (int64_t i = 0; i < d; ++i) ones[buckets[i]] += bits[i] ? 1 : 0;
  s->n += 1;
}

extern const FreqMechanismImpl kDBitFlipImpl = {
    {FreqMechanism::DBitFlip, "dbitflip"},
    /*uses_d=*/true,
    /*signed_counters=*/false,
    /*arrays_over_g=*/false,
    {"holders", "ones"},
    freq_no_g,
    dbitflip_check_counts,
    dbitflip_estimate,
};

}  // namespace ldp
