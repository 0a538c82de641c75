// The frequency-oracle summary: registry, parameters, merge, estimation and
// consistency. The codecs are in freq_codec.cpp; each mechanism's encoder,
// report adder and estimator are in mechanisms/.
#include "core/freq/freq_summary.hpp"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "core/common/error.hpp"
#include "core/common/interrupt.hpp"
#include "core/common/stats.hpp"
#include "core/freq/freq_internal.hpp"

namespace ldp {

extern const FreqMechanismImpl kGrrImpl;
extern const FreqMechanismImpl kSueImpl;
extern const FreqMechanismImpl kOueImpl;
extern const FreqMechanismImpl kDBitFlipImpl;
extern const FreqMechanismImpl kOlhImpl;
extern const FreqMechanismImpl kHadamardImpl;

namespace {
const FreqMechanismImpl* const kMechanisms[] = {&kGrrImpl,      &kSueImpl, &kOueImpl,
                                                &kDBitFlipImpl, &kOlhImpl, &kHadamardImpl};
}

const FreqMechanismImpl* freq_impl_from_byte(uint8_t id) {
  for (const auto* m : kMechanisms)
    if (static_cast<uint8_t>(m->info.id) == id) return m;
  return nullptr;
}

const FreqMechanismImpl& freq_impl(FreqMechanism id) {
  const FreqMechanismImpl* m = freq_impl_from_byte(static_cast<uint8_t>(id));
  if (m == nullptr)
    throw_error(ErrorKind::Internal, "unknown frequency mechanism %d", static_cast<int>(id));
  return *m;
}

const FreqMechanismInfo& freq_mechanism(FreqMechanism id) { return freq_impl(id).info; }

std::string freq_mechanism_names() {
  std::string names;
  for (const auto* m : kMechanisms) names += (names.empty() ? "" : ", ") + std::string(m->info.name);
  return names;
}

const FreqMechanismInfo* freq_mechanism_by_name(const char* name, size_t len) {
  for (const auto* m : kMechanisms)
    if (std::strlen(m->info.name) == len && std::memcmp(m->info.name, name, len) == 0)
      return &m->info;
  return nullptr;
}

// ---------------------------------------------------------------------------
// Parameters

int64_t freq_validated_g(const FreqMechanismImpl& m, const FreqParams& p) {
  check_epsilon(p.epsilon);
  if (p.k < 2 || p.k > kMaxDomain)
    throw_error(ErrorKind::InvalidParameter, "k must be in [2, %" PRId64 "], got %" PRId64,
                kMaxDomain, p.k);
  if (m.uses_d) {
    if (p.d < 1 || p.d > p.k)
      throw_error(ErrorKind::InvalidParameter,
                  "d must be in [1, k = %" PRId64 "], got %" PRId64, p.k, p.d);
  } else if (p.d != 0) {
    throw_error(ErrorKind::Internal, "%s has no d", m.info.name);
  }
  return m.derive_g(p);
}

void validate_freq_params(FreqMechanism id, const FreqParams& p) {
  (void)freq_validated_g(freq_impl(id), p);
}

size_t freq_summary_size(FreqMechanism id, const FreqParams& p) {
  const FreqMechanismImpl& m = freq_impl(id);
  int64_t g = freq_validated_g(m, p);
  return sizeof(FreqSummary) + sizeof(int64_t) * static_cast<size_t>(m.width(p.k, g));
}

void freq_summary_init(FreqSummary* s, FreqMechanism id, const FreqParams& p) {
  const FreqMechanismImpl& m = freq_impl(id);
  int64_t g = freq_validated_g(m, p);
  int64_t width = m.width(p.k, g);
  std::memset(static_cast<void*>(s), 0, sizeof(FreqSummary) + sizeof(int64_t) * width);
  s->version = kFreqSummaryVersion;
  s->mechanism = static_cast<uint8_t>(id);
  s->epsilon = p.epsilon;
  s->k = p.k;
  s->d = p.d;
  s->g = g;
  s->width = width;
}

void throw_freq_params_changed(const FreqSummary& s, double epsilon, int64_t k, int64_t d) {
  const char* fmt = "%s must be the same for every row of one aggregate: first %" PRId64
                    ", now %" PRId64;
  if (std::memcmp(&s.epsilon, &epsilon, sizeof(double)) != 0)
    throw_error(ErrorKind::InvalidParameter,
                "epsilon must be the same for every row of one aggregate: first %.15g, now %.15g",
                s.epsilon, epsilon);
  if (s.k != k) throw_error(ErrorKind::InvalidParameter, fmt, "k", s.k, k);
  throw_error(ErrorKind::InvalidParameter, fmt, "d", s.d, d);
}

void freq_summary_check(const FreqSummary& s, size_t size) {
  if (size < sizeof(FreqSummary) || s.version != kFreqSummaryVersion)
    throw_error(ErrorKind::Internal, "corrupt freq_summary (version %d, %zu bytes)",
                size >= 1 ? s.version : -1, size);
  const FreqMechanismImpl* m = freq_impl_from_byte(s.mechanism);
  if (m == nullptr)
    throw_error(ErrorKind::Internal, "corrupt freq_summary (mechanism %d)", s.mechanism);
  int64_t g = 0;
  try {
    g = freq_validated_g(*m, FreqParams{s.epsilon, s.k, s.d});
  } catch (const Error& e) {
    throw Error(ErrorKind::Internal, std::string("corrupt freq_summary: ") + e.what());
  }
  if (s.g != g || s.width != m->width(s.k, g) || s.n < 0 ||
      (s.pending_bytes != 0 && (s.pending_bytes != freq_pending_bytes(s.mech(), s.k) ||
                                s.pending >= kFreqPendingRows)) ||
      (s.pending_bytes == 0 && s.pending != 0) ||
      size != freq_summary_canonical_size(s) + s.pending_bytes)
    throw_error(ErrorKind::Internal,
                "corrupt freq_summary (%s, k %" PRId64 ", g %" PRId64 ", width %" PRId64
                ", %zu bytes)",
                m->info.name, s.k, s.g, s.width, size);
}

// ---------------------------------------------------------------------------
// The pending area (SUE/OUE aggregation states)

size_t freq_pending_bytes(FreqMechanism id, int64_t k) {
  if (id != FreqMechanism::SUE && id != FreqMechanism::OUE) return 0;
  return static_cast<size_t>((k + 7) / 8 * 8);
}

void freq_summary_add_pending_area(FreqSummary* s) {
  size_t bytes = freq_pending_bytes(s->mech(), s->k);
  if (bytes == 0) throw_error(ErrorKind::Internal, "%s summaries have no pending area",
                              freq_mechanism(s->mech()).name);
  s->pending_bytes = static_cast<uint32_t>(bytes);
  s->pending = 0;
  std::memset(s->counters() + s->width, 0, bytes);
}

void freq_flush_pending(FreqSummary* s) {
  if (s->pending_bytes == 0) return;
  int64_t* c = s->counters();
  uint8_t* p = reinterpret_cast<uint8_t*>(c + s->width);
  for (int64_t v = 0; v < s->k; ++v) c[v] += p[v];
  std::memset(p, 0, s->pending_bytes);
  s->pending = 0;
}

void freq_summary_flushed_copy(const FreqSummary& s, FreqSummary* out) {
  std::memcpy(static_cast<void*>(out), &s, freq_summary_canonical_size(s));
  out->pending = 0;
  out->pending_bytes = 0;
  if (s.pending_bytes == 0) return;
  const uint8_t* p = reinterpret_cast<const uint8_t*>(s.counters() + s.width);
  int64_t* c = out->counters();
  for (int64_t v = 0; v < s.k; ++v) c[v] += p[v];
}

// ---------------------------------------------------------------------------
// Merge

void freq_summary_merge(FreqSummary* into, const FreqSummary& from) {
  if (from.pending != 0)
    throw_error(ErrorKind::Internal, "cannot merge a summary with pending counts");
  freq_flush_pending(into);
  const char* name = freq_mechanism(into->mech()).name;
  if (into->mechanism != from.mechanism)
    throw_error(ErrorKind::InvalidParameter,
                "cannot merge freq summaries of different mechanisms: %s and %s", name,
                freq_mechanism(from.mech()).name);
  if (std::memcmp(&into->epsilon, &from.epsilon, sizeof(double)) != 0)
    throw_error(ErrorKind::InvalidParameter,
                "cannot merge %s summaries with different epsilon: %.15g and %.15g", name,
                into->epsilon, from.epsilon);
  if (into->k != from.k || into->d != from.d) {
    bool k = into->k != from.k;
    throw_error(ErrorKind::InvalidParameter,
                "cannot merge %s summaries with different %s: %" PRId64 " and %" PRId64, name,
                k ? "k" : "d", k ? into->k : into->d, k ? from.k : from.d);
  }
  if (into->g != from.g || into->width != from.width)
    throw_error(ErrorKind::Internal, "corrupt freq_summary in merge");
  if (from.n > INT64_MAX - into->n)
    throw_error(ErrorKind::OutOfRange, "report count overflows bigint");
  // Every counter is bounded by n in absolute value: no counter can overflow.
  into->n += from.n;
  int64_t* a = into->counters();
  const int64_t* b = from.counters();
  for (int64_t i = 0; i < into->width; ++i) a[i] += b[i];
}

// ---------------------------------------------------------------------------
// Estimation

void freq_estimate(const FreqSummary& s, double* freq, double* std_error) {
  if (s.n <= 0)
    throw_error(ErrorKind::Internal, "frequencies of an empty freq_summary (n = %" PRId64 ")",
                s.n);
  freq_impl(s.mech()).estimate(s, freq, std_error);
}

void pure_estimate(const FreqSummary& s, const PureProbs& pr, double* freq, double* std_error) {
  const double n = static_cast<double>(s.n);
  const int64_t* c = s.counters();
  // Var = q(1-q)/(n gap^2) + f rest/(n gap): the first term is the same for every item.
  const double base = pr.q * (1.0 - pr.q) / (n * pr.gap * pr.gap);
  const double slope = pr.rest / (n * pr.gap);
  for (int64_t v = 0; v < s.k; ++v) {
    double f = (static_cast<double>(c[v]) / n - pr.q) / pr.gap;
    double fc = std::min(std::max(f, 0.0), 1.0);
    freq[v] = f;
    std_error[v] = std::sqrt(std::max(base + fc * slope, 0.0));
  }
}

Consistency parse_consistency(const char* name, size_t len) {
  auto is = [&](const char* lit) {
    return std::strlen(lit) == len && std::memcmp(lit, name, len) == 0;
  };
  if (is("none")) return Consistency::None;
  if (is("clip")) return Consistency::Clip;
  if (is("norm-sub")) return Consistency::NormSub;
  throw_error(ErrorKind::InvalidParameter,
              "consistency must be none, clip or norm-sub, got \"%.*s\"",
              static_cast<int>(std::min<size_t>(len, 100)), name);
}

namespace {
// std::sort(greater) of u, in runs of 2^16 sorted and then merged pairwise so that a
// cancel is noticed between them (k up to 2^22: a few hundred ms in one std::sort).
void sort_descending(std::vector<double>& u) {
  constexpr size_t kRun = size_t{1} << 16;
  const size_t n = u.size();
  const auto at = [&](size_t i) { return u.begin() + static_cast<std::ptrdiff_t>(std::min(i, n)); };
  for (size_t i = 0; i < n; i += kRun) {
    check_interrupt();
    std::sort(at(i), at(i + kRun), std::greater<double>());
  }
  for (size_t w = kRun; w < n; w *= 2)
    for (size_t i = 0; i + w < n; i += 2 * w) {
      check_interrupt();
      std::inplace_merge(at(i), at(i + w), at(i + 2 * w), std::greater<double>());
    }
}
}  // namespace

void apply_consistency(Consistency c, double* freq, int64_t k) {
  if (c == Consistency::None || k <= 0) return;
  if (c == Consistency::Clip) {
    for (int64_t v = 0; v < k; ++v)
      if (!(freq[v] >= 0)) freq[v] = 0;
    return;
  }
  // norm-sub: the Euclidean projection onto the simplex {x >= 0, sum x = 1}
  // (Held, Wolfe & Crowder; Duchi et al. 2008): with u sorted decreasingly,
  // rho = max{j : u_j - (sum_{i<=j} u_i - 1)/j > 0}, theta = (sum_{i<=rho} u_i - 1)/rho,
  // x = max(f - theta, 0). The condition holds exactly for j <= rho.
  std::vector<double> u(freq, freq + k);
  sort_descending(u);
  long double cum = 0, theta = 0;
  for (int64_t j = 0; j < k; ++j) {
    cum += u[j];
    long double t = (cum - 1.0L) / static_cast<long double>(j + 1);
    if (u[j] - t > 0) theta = t;
  }
  for (int64_t v = 0; v < k; ++v)
    freq[v] = static_cast<double>(std::max<long double>(freq[v] - theta, 0.0L));
}

// ---------------------------------------------------------------------------
// Helpers of the mechanism files

void check_encoder_value(int64_t value, int64_t k) {
  if (value < 0 || value >= k)
    throw_error(ErrorKind::OutOfRange,
                "value must be an item in [0, k = %" PRId64 "), got %" PRId64, k, value);
}

void check_summary_mechanism(const FreqSummary& s, FreqMechanism id) {
  if (s.mechanism != static_cast<uint8_t>(id))
    throw_error(ErrorKind::Internal, "a %s report added to a freq_summary of mechanism %d",
                freq_mechanism(id).name, s.mechanism);
}

void throw_bad_counts(const FreqSummary& s, ErrorKind kind, const char* fmt, ...) {
  char buf[400];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  throw_error(kind, "freq_summary: counters impossible for %" PRId64 " %s reports: %s", s.n,
              freq_mechanism(s.mech()).name, buf);
}

void check_counter_range(const FreqSummary& s, ErrorKind kind, const char* array,
                         const int64_t* c, int64_t len, int64_t lo, int64_t hi) {
  for (int64_t i = 0; i < len; ++i)
    if (c[i] < lo || c[i] > hi)
      throw_bad_counts(s, kind, "%s[%" PRId64 "] = %" PRId64 " is outside [%" PRId64
                                ", %" PRId64 "]",
                       array, i, c[i], lo, hi);
}

}  // namespace ldp
