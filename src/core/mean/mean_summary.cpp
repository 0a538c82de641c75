#include "core/mean/mean_summary.hpp"

#include <charconv>
#include <cerrno>
#include <cinttypes>
#include <cstddef>
#include <cstdarg>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "core/common/byte_reader.hpp"
#include "core/common/error.hpp"
#include "core/common/stats.hpp"
#include "core/common/stored_form.hpp"
#include "core/common/text_cursor.hpp"

namespace ldp {

extern const MeanMechanismInfo kRandomizedResponse;
extern const MeanMechanismInfo kOneBitMean;
extern const MeanMechanismInfo kLaplaceMean;
extern const MeanMechanismInfo kPiecewiseMean;

namespace {
const MeanMechanismInfo* const kMechanisms[] = {&kRandomizedResponse, &kOneBitMean,
                                               &kLaplaceMean, &kPiecewiseMean};
}

const MeanMechanismInfo& mean_mechanism(MeanMechanism id) {
  for (const auto* m : kMechanisms)
    if (m->id == id) return *m;
  throw_error(ErrorKind::Internal, "unknown mean mechanism %d", static_cast<int>(id));
}

std::string mean_mechanism_names() {
  std::string names;
  for (const auto* m : kMechanisms) names += (names.empty() ? "" : ", ") + std::string(m->name);
  return names;
}

const MeanMechanismInfo* mean_mechanism_by_name(const char* name, size_t len) {
  for (const auto* m : kMechanisms)
    if (std::strlen(m->name) == len && std::memcmp(m->name, name, len) == 0) return m;
  return nullptr;
}

size_t mean_summary_size(MeanMechanism id) {
  return mean_mechanism(id).real_valued ? sizeof(MeanSummary) + sizeof(MeanSums)
                                        : sizeof(MeanSummary);
}

void validate_mean_params(MeanMechanism id, const MeanParams& p) {
  const MeanMechanismInfo& m = mean_mechanism(id);
  check_epsilon(p.epsilon);
  if (m.uses_max_value) {
    if (!(std::isfinite(p.max_value) && p.max_value > 0 && p.max_value <= 1e300))
      throw_error(ErrorKind::InvalidParameter,
                  "max_value must be a finite number > 0 (and <= 1e300), got %.15g", p.max_value);
  } else if (p.max_value != 1.0) {
    throw_error(ErrorKind::Internal, "%s has no max_value", m.name);
  }
  if (m.uses_gamma) {
    if (!(p.gamma >= 0 && p.gamma < 0.5))
      throw_error(ErrorKind::InvalidParameter, "gamma must be in [0, 0.5), got %.15g", p.gamma);
  } else if (p.gamma != 0.0) {
    throw_error(ErrorKind::Internal, "%s has no gamma", m.name);
  }
}

namespace {
// The fast path of mean_add_real (see MeanSums and ExactSum::add_hot). With
// R = max(-report_lo, report_hi), every accepted report has |y| <= R < 2^top_sum
// and, rounding being monotone and symmetric, its rounded square
// h = fl(fl(y/m)^2) <= fl(fl(R/m)^2) < 2^(top_sq - 1). A report takes the fast
// path when h >= min_sq = 2^(top_sq - width): then h is in its window
// [2^(top_sq - width), 2^top_sq), and y in [2^(top_sum - width), 2^top_sum)
// because any |y| below that has h <= fl(fl(2^(top_sum - width + 1)/m)^2),
// which is checked to be < min_sq. The bounds carry a factor 2 of margin.
void set_hot_windows(MeanSummary* s) {
  MeanSums* m = s->sums();
  m->hot_split_sum = 0;
  m->hot_split_sq = 0;
  m->hot_min_sq = std::numeric_limits<double>::quiet_NaN();  // fast path off
  if (!ExactSum::hot_path_available) return;
  const double max_value = s->max_value;
  auto square = [max_value](double y) {  // as mean_add_real computes it
    double u = y / max_value;
    return u * u;
  };
  const int run = kHotRunLog2, width = ExactSum::hot_width(kHotRunLog2);
  double r = std::fmax(-s->report_lo, s->report_hi);
  double hmax = square(r);
  if (!(r > 0 && std::isfinite(r) && hmax > 0 && std::isfinite(hmax))) return;
  int top_sum = std::ilogb(r) + 1;
  int top_sq = std::ilogb(hmax) + 2;
  if (!ExactSum::hot_top_ok(top_sum, run) || !ExactSum::hot_top_ok(top_sq, run)) return;
  double min_sq = std::ldexp(1.0, top_sq - width);
  if (!(square(std::ldexp(1.0, top_sum - width + 1)) < min_sq)) return;
  m->hot_split_sum = ExactSum::hot_split(top_sum, run);
  m->hot_split_sq = ExactSum::hot_split(top_sq, run);
  m->hot_min_sq = min_sq;
}

// The fields derived from the parameters (not part of the text or binary forms).
void set_derived(MeanSummary* s) {
  const MeanMechanismInfo& m = mean_mechanism(s->mech());
  if (m.real_valued) {
    m.report_range(s->params(), &s->report_lo, &s->report_hi);
    set_hot_windows(s);
  }
}
}  // namespace

void mean_summary_init(MeanSummary* s, MeanMechanism id, const MeanParams& p) {
  validate_mean_params(id, p);
  std::memset(s, 0, mean_summary_size(id));
  s->version = kMeanSummaryVersion;
  s->mechanism = static_cast<uint8_t>(id);
  s->epsilon = p.epsilon;
  s->max_value = p.max_value;
  s->gamma = p.gamma == 0 ? 0.0 : p.gamma;  // -0 is stored as +0 (see same_params)
  set_derived(s);
}

void throw_params_changed(const MeanSummary& s, const MeanParams& p) {
  const char* which = "epsilon";
  double was = s.epsilon, now = p.epsilon;
  if (std::memcmp(&s.epsilon, &p.epsilon, sizeof(double)) == 0) {
    if (std::memcmp(&s.max_value, &p.max_value, sizeof(double)) != 0) {
      which = "max_value";
      was = s.max_value;
      now = p.max_value;
    } else {
      which = "gamma";
      was = s.gamma;
      now = p.gamma;
    }
  }
  throw_error(ErrorKind::InvalidParameter,
              "%s must be the same for every row of one aggregate: first %.15g, now %.15g", which,
              was, now);
}

void throw_impossible_report(const MeanSummary& s, double y) {
  const MeanMechanismInfo& m = mean_mechanism(s.mech());
  throw_error(ErrorKind::ImpossibleReport,
              "report %.15g cannot come from the %s mechanism with epsilon %.15g and max_value "
              "%.15g: its reports lie in [%.15g, %.15g]",
              y, m.name, s.epsilon, s.max_value, s.report_lo, s.report_hi);
}

void throw_square_overflow(double y) {
  throw_error(ErrorKind::OutOfRange, "report %.15g is too large to accumulate exactly", y);
}

void mean_add_real_exact(MeanSummary* s, double y, double h) {
  if (!std::isfinite(h)) throw_square_overflow(y);
  s->sums()->sum.add(y);
  s->sums()->sumsq_unit.add(h);
}

void mean_flush_hot(MeanSummary* s) noexcept {
  s->sums()->sum.flush_hot();
  s->sums()->sumsq_unit.flush_hot();
}

void mean_summary_merge(MeanSummary* into, const MeanSummary& from) {
  if (into->mechanism != from.mechanism) {
    throw_error(ErrorKind::InvalidParameter,
                "cannot merge summaries of different mechanisms: %s and %s",
                mean_mechanism(into->mech()).name, mean_mechanism(from.mech()).name);
  }
  if (!same_params(*into, from.params())) {
    const char* which = "epsilon";
    double a = into->epsilon, b = from.epsilon;
    if (into->epsilon == from.epsilon && into->max_value != from.max_value) {
      which = "max_value";
      a = into->max_value;
      b = from.max_value;
    } else if (into->epsilon == from.epsilon) {
      which = "gamma";
      a = into->gamma;
      b = from.gamma;
    }
    throw_error(ErrorKind::InvalidParameter,
                "cannot merge %s summaries with different %s: %.15g and %.15g",
                mean_mechanism(into->mech()).name, which, a, b);
  }
  if (from.n > INT64_MAX - into->n)
    throw_error(ErrorKind::OutOfRange, "report count overflows bigint");
  into->n += from.n;
  into->ones += from.ones;
  if (mean_mechanism(into->mech()).real_valued) {
    into->sums()->sum.merge(from.sums()->sum);
    into->sums()->sumsq_unit.merge(from.sums()->sumsq_unit);
  }
}

Estimate mean_estimate(const MeanSummary& s) { return mean_mechanism(s.mech()).estimate(s); }

bool mean_interval(const MeanSummary& s, double confidence, double* lo, double* hi) {
  check_confidence(confidence);
  if (s.n <= 0) return false;
  return mean_mechanism(s.mech()).interval(s, confidence, lo, hi);
}

double mean_error_bound(const MeanSummary& s, double delta) {
  check_delta(delta);
  return mean_mechanism(s.mech()).error_bound(s, delta);
}

void mean_summary_check(const MeanSummary& s, size_t size) {
  if (size < sizeof(MeanSummary) || s.version != kMeanSummaryVersion)
    throw_error(ErrorKind::Internal, "corrupt mean_summary (version %d, %zu bytes)",
                size >= 1 ? s.version : -1, size);
  const MeanMechanismInfo* m = nullptr;
  for (const auto* c : kMechanisms)
    if (static_cast<uint8_t>(c->id) == s.mechanism) m = c;
  if (m == nullptr || size != mean_summary_size(m->id))
    throw_error(ErrorKind::Internal, "corrupt mean_summary (mechanism %d, %zu bytes)",
                s.mechanism, size);
}

bool mean_summary_is_legacy(const MeanSummary& s, size_t size) {
  if (size != kLegacyRealSummarySize || s.version != kMeanSummaryVersion) return false;
  for (const auto* c : kMechanisms)
    if (static_cast<uint8_t>(c->id) == s.mechanism) return c->real_valued;
  return false;
}

size_t mean_summary_upgrade_legacy(const MeanSummary& s, size_t size, void* out) {
  if (!mean_summary_is_legacy(s, size))
    throw_error(ErrorKind::Internal, "not a mean_summary of the earlier layout (%zu bytes)", size);
  std::memset(out, 0, kMaxMeanSummarySize);
  auto* u = static_cast<MeanSummary*>(out);
  std::memcpy(u, &s, sizeof(MeanSummary));
  // The earlier ExactSum: limbs then pending, nothing else.
  constexpr size_t kOldExactSum = (ExactSum::kLimbs + 1) * sizeof(int64_t);
  static_assert(offsetof(ExactSum, pending) + sizeof(int64_t) == kOldExactSum,
                "the hot sums follow the earlier layout");
  const auto* old_sums = reinterpret_cast<const unsigned char*>(&s + 1);
  std::memcpy(&u->sums()->sum, old_sums, kOldExactSum);
  std::memcpy(&u->sums()->sumsq_unit, old_sums + kOldExactSum, kOldExactSum);
  set_derived(u);
  size_t new_size = mean_summary_size(u->mech());
  mean_summary_check(*u, new_size);
  return new_size;
}

// ---------------------------------------------------------------------------
// Estimators shared by the mechanism files

double hoeffding_bound(int64_t n, double width, double delta) {
  return width * std::sqrt(std::log(2.0 / delta) / (2.0 * static_cast<double>(n)));
}

double bit_mean_error_bound(int64_t n, double epsilon, double max_value, double gamma,
                            double delta) {
  // Theorem 1 of Ding et al. 2017 (docs/algorithms/means.md#worst-case-error-bound):
  // m/sqrt(2n) (e^eps+1)/(e^eps-1) sqrt(ln(2/delta)); the bit mean is scaled by 1/(1-2 gamma)
  // when output perturbation is unbiased.
  double k = 1.0 / std::tanh(epsilon / 2.0);
  return hoeffding_bound(n, max_value * k / (1.0 - 2.0 * gamma), delta);
}

Estimate real_mean_estimate(const MeanSummary& s) {
  Estimate e;
  const MeanSums* m = s.sums();
  long double n = static_cast<long double>(s.n);
  long double sum = m->sum.to_long_double();
  long double mean = sum / n;
  e.value = static_cast<double>(mean);
  if (s.n < 2) return e;
  long double u = mean / s.max_value;
  long double q = m->sumsq_unit.to_long_double();
  long double spread = q - n * u * u;
  // Each square was rounded before the exact sum (relative error <= 2^-53):
  // a spread within that rounding noise is no spread at all.
  if (spread <= 4 * 0x1p-53L * q) spread = 0;
  long double var_unit = spread / (n - 1);
  e.std_error = static_cast<double>(s.max_value * std::sqrt(var_unit / n));
  e.has_std_error = true;
  return e;
}

bool real_mean_interval(const MeanSummary& s, double confidence, double* lo, double* hi) {
  check_confidence(confidence);
  if (s.n < 2) return false;
  Estimate e = real_mean_estimate(s);
  double t = student_t_critical_value(confidence, static_cast<double>(s.n - 1));
  *lo = e.value - t * e.std_error;
  *hi = e.value + t * e.std_error;
  return true;
}

// ---------------------------------------------------------------------------
// Text form

namespace {

void appendf(std::string& s, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
void appendf(std::string& s, const char* fmt, ...) {
  char buf[128];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  s += buf;
}

// The shortest text that reads back as the same double.
std::string shortest(double d) {
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, d);
  return std::string(buf, r.ptr);
}

// Checks that the counters can come from reports of the mechanism; throws kind.
void validate_counts(const MeanSummary& s, ErrorKind kind) {
  const MeanMechanismInfo& m = mean_mechanism(s.mech());
  if (s.n < 0) throw_error(kind, "mean_summary: negative report count %" PRId64, s.n);
  if (!m.real_valued) {
    if (s.ones < 0 || s.ones > s.n)
      throw_error(kind, "mean_summary: %" PRId64 " ones out of %" PRId64 " reports", s.ones, s.n);
    return;
  }
  const MeanSums* sums = s.sums();
  long double n = static_cast<long double>(s.n);
  long double sum = sums->sum.to_long_double();
  long double q = sums->sumsq_unit.to_long_double();
  // Every report lies in [lo, hi]: so does the mean, and the mean square is bounded.
  long double lo = s.report_lo, hi = s.report_hi;
  long double tol = 1e-9L * (std::fabs(lo) + std::fabs(hi)) * n;
  bool ok = true;
  if (s.n == 0) {
    ok = sums->sum.is_zero() && sums->sumsq_unit.is_zero();
  } else {
    ok = sum >= lo * n - tol && sum <= hi * n + tol && q >= 0;
    long double big = std::fmax(std::fabs(lo), std::fabs(hi)) / s.max_value;
    ok = ok && q <= big * big * n * (1 + 1e-9L);
    // Cauchy-Schwarz: sum of squares >= (sum)^2 / n
    long double u = sum / s.max_value;
    ok = ok && q >= (u * u / n) * (1 - 1e-9L) - 1e-300L;
  }
  if (!ok)
    throw_error(kind,
                "mean_summary: sums are impossible for %" PRId64
                " %s reports in [%.15g, %.15g]",
                s.n, m.name, s.report_lo, s.report_hi);
}

size_t finish(MeanSummary* s, ErrorKind kind) {
  if (s->gamma == 0) s->gamma = 0.0;  // -0 is stored as +0 (see same_params)
  try {
    validate_mean_params(s->mech(), s->params());
  } catch (const Error& e) {
    throw Error(kind, std::string("mean_summary: ") + e.what());
  }
  set_derived(s);
  validate_counts(*s, kind);
  return mean_summary_size(s->mech());
}

}  // namespace

namespace {
std::string render_text(const MeanSummary& s) {
  const MeanMechanismInfo& m = mean_mechanism(s.mech());
  std::string t;
  appendf(t, "v%d:%s{epsilon=%s", s.version, m.name, shortest(s.epsilon).c_str());
  if (m.uses_max_value) t += ",max_value=" + shortest(s.max_value);
  if (m.uses_gamma) t += ",gamma=" + shortest(s.gamma);
  appendf(t, ",n=%" PRId64, s.n);
  if (m.real_valued) {
    t += ",sum=" + s.sums()->sum.to_text();
    t += ",sumsq_unit=" + s.sums()->sumsq_unit.to_text();
  } else {
    appendf(t, ",ones=%" PRId64, s.ones);
  }
  t += "}";
  return t;
}

// The mechanism of a binary form's byte, or nullptr.
const MeanMechanismInfo* mechanism_of_byte(uint8_t mech) {
  for (const auto* c : kMechanisms)
    if (static_cast<uint8_t>(c->id) == mech) return c;
  return nullptr;
}

// A summary parsed by the fixed-buffer reader into out, of `size` bytes.
template <class Parse>
void parse_into(MeanSummary* out, size_t size, const char* form, Parse parse) {
  alignas(8) unsigned char buf[kMaxMeanSummarySize];
  const size_t have = parse(buf);
  if (have != size) throw_error(ErrorKind::Internal, "mean_summary %s: buffer of %zu bytes for %zu", form, size, have);
  std::memcpy(static_cast<void*>(out), buf, size);
}
}  // namespace

size_t mean_summary_text_size(const MeanSummary& s) { return render_text(s).size() + 1; }

void mean_summary_to_text(const MeanSummary& s, char* out, size_t cap) {
  const std::string t = render_text(s);
  if (t.size() + 1 > cap) throw_error(ErrorKind::Internal, "mean_summary text too long");
  std::memcpy(out, t.c_str(), t.size() + 1);
}

size_t mean_summary_parse_size(const char* text) {
  TextCursor c(text, "mean_summary");
  return mean_summary_size(c.envelope(mean_mechanism_by_name, mean_mechanism_names())->id);
}

void mean_summary_from_text(const char* text, MeanSummary* out, size_t size) {
  parse_into(out, size, "text", [&](void* buf) { return mean_summary_from_text(text, buf); });
}

// key=<exact sum, [-]0x<hex>p<exponent>>
void read_exact(TextCursor& c, const char* key, ExactSum* out) {
  const char *b, *e;
  c.token(key, &b, &e);
  if (!out->from_text(b, e)) {
    c.p = b;
    c.fail("an exact sum [-]0x<hex>p<exponent> within range");
  }
}

size_t mean_summary_from_text(const char* text, void* out) {
  TextCursor c(text, "mean_summary");
  const MeanMechanismInfo* m = c.envelope(mean_mechanism_by_name, mean_mechanism_names());
  auto* s = static_cast<MeanSummary*>(out);
  std::memset(out, 0, kMaxMeanSummarySize);
  s->version = kMeanSummaryVersion;
  s->mechanism = static_cast<uint8_t>(m->id);
  s->epsilon = c.number("epsilon");
  s->max_value = 1.0;
  if (m->uses_max_value) {
    c.expect(",");
    s->max_value = c.number("max_value");
  }
  if (m->uses_gamma) {
    c.expect(",");
    s->gamma = c.number("gamma");
  }
  c.expect(",");
  s->n = c.field("n");
  if (m->real_valued) {
    c.expect(",");
    read_exact(c, "sum", &s->sums()->sum);
    c.expect(",");
    read_exact(c, "sumsq_unit", &s->sums()->sumsq_unit);
  } else {
    c.expect(",");
    s->ones = c.field("ones");
  }
  c.finish();
  return finish(s, ErrorKind::InvalidText);
}

// ---------------------------------------------------------------------------
// Binary form (common/stored_form.hpp): the format-2 header, then u8 mechanism,
// f64 epsilon, [f64 max_value], [f64 gamma], i64 n, then i64 ones or the two exact
// sums. Big-endian. Format 1 (send up to 0.4.0) is u8 version 1 then the same body.

namespace {
std::vector<uint8_t> render_binary(const MeanSummary& s) {
  const MeanMechanismInfo& m = mean_mechanism(s.mech());
  std::vector<uint8_t> o(kStoredHeaderSize);
  write_stored_header(o.data(), Family::Mean);
  o.push_back(s.mechanism);
  put_be64(o, double_bits(s.epsilon));
  if (m.uses_max_value) put_be64(o, double_bits(s.max_value));
  if (m.uses_gamma) put_be64(o, double_bits(s.gamma));
  put_be64(o, static_cast<uint64_t>(s.n));
  if (m.real_valued) {
    s.sums()->sum.to_bytes(o);
    s.sums()->sumsq_unit.to_bytes(o);
  } else {
    put_be64(o, static_cast<uint64_t>(s.ones));
  }
  return o;
}
}  // namespace

size_t mean_summary_binary_size(const MeanSummary& s) { return render_binary(s).size(); }

void mean_summary_to_binary(const MeanSummary& s, uint8_t* out, size_t cap) {
  const std::vector<uint8_t> o = render_binary(s);
  if (o.size() > cap) throw_error(ErrorKind::Internal, "mean_summary binary form too long");
  std::memcpy(out, o.data(), o.size());
}

size_t mean_summary_binary_parse_size(const uint8_t* p, size_t len) {
  StoredBody body = stored_body(p, len, Family::Mean, "mean_summary");
  ByteReader r{body.p, body.len, "mean_summary"};
  const MeanMechanismInfo* m = mechanism_of_byte(r.u8());
  if (m == nullptr) r.fail("unknown mechanism");
  return mean_summary_size(m->id);
}

void mean_summary_from_binary(const uint8_t* p, size_t len, MeanSummary* out, size_t size) {
  parse_into(out, size, "binary", [&](void* buf) { return mean_summary_from_binary(p, len, buf); });
}

size_t mean_summary_from_binary(const uint8_t* p, size_t len, void* out) {
  StoredBody body = stored_body(p, len, Family::Mean, "mean_summary");
  ByteReader r{body.p, body.len, "mean_summary"};
  uint8_t mech = r.u8();
  const MeanMechanismInfo* m = mechanism_of_byte(mech);
  if (m == nullptr) r.fail("unknown mechanism");
  auto* s = static_cast<MeanSummary*>(out);
  std::memset(out, 0, kMaxMeanSummarySize);
  s->version = kMeanSummaryVersion;
  s->mechanism = mech;
  s->epsilon = r.f64();
  s->max_value = m->uses_max_value ? r.f64() : 1.0;
  s->gamma = m->uses_gamma ? r.f64() : 0.0;
  s->n = static_cast<int64_t>(r.u64());
  if (m->real_valued) {
    for (ExactSum* e : {&s->sums()->sum, &s->sums()->sumsq_unit}) {
      size_t used = e->from_bytes(r.p, r.left);
      if (used == 0) r.fail("malformed exact sum");
      r.p += used;
      r.left -= used;
    }
  } else {
    s->ones = static_cast<int64_t>(r.u64());
  }
  if (r.left != 0) r.fail("trailing bytes");
  return finish(s, ErrorKind::InvalidBinary);
}

}  // namespace ldp
