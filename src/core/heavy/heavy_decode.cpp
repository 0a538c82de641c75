// What the heavy-hitters decoders share (heavy_internal.hpp): the entry points that
// dispatch on the summary's mechanism (heavy_summary.hpp), the pruning threshold, the
// HCMS oracle of one sketch, candidates' extensions, and the output's fields.
#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <string>
#include <vector>

#include "core/common/error.hpp"
#include "core/common/select.hpp"
#include "core/common/stats.hpp"
#include "core/heavy/heavy_internal.hpp"
#include "core/heavy/heavy_summary.hpp"
#include "core/oracles/count_sketch.hpp"
#include "core/oracles/hcms_oracle.hpp"

namespace ldp {

// ---- entry points ----

// In the bytes domain the default is also at least kBytesThresholdInSigma·σ_P (ours,
// 2026-11-25): a deep tree's σ_P grows as sqrt(D), and at 30√n a TreeHist tree of 32 bytes
// (URLs) has τ = 1.96σ_P. Its prefix cut, at most τ, then lets 2.5% of the noise candidates
// through at every level whatever the cap on noise survivors, and the candidates explode
// (16,897 survivors at level 8 of 32 at n = 10^6, past the 2^22 queries bound). With
// τ ≥ 4σ_P the cap holds (at most about 150 survivors a level at 45,000 = 2.9σ_P).
constexpr double kBytesThresholdInSigma = 4;

double heavy_default_threshold_scale(const HeavyProtocol& p) {
  const HeavyMechanismImpl& impl = heavy_impl(p.mech());
  const double scale = impl.threshold_scale[p.dom() == HeavyDomain::Alphabet ? 0 : 1];
  if (p.dom() != HeavyDomain::Bytes) return scale;
  HeavySummary unit{};
  unit.protocol = p;
  unit.n = 1;  // σ_P/√n
  return std::max(scale, kBytesThresholdInSigma * impl.sigma_prune(unit));
}

double heavy_threshold(const HeavySummary& s) {
  return heavy_default_threshold_scale(s.protocol) * std::sqrt(static_cast<double>(s.n));
}

HeavyEstimate heavy_frequency(const HeavySummary& s, const int64_t* table, std::string_view item) {
  HeavyItem it;
  heavy_item_from_text(s.protocol, item, &it);
  return heavy_impl(s.protocol.mech()).frequency(s, table, it);
}

HeavyEstimate heavy_frequency_int(const HeavySummary& s, const int64_t* table, int64_t item) {
  HeavyItem it;
  heavy_item_from_int(s.protocol, item, &it);
  return heavy_impl(s.protocol.mech()).frequency(s, table, it);
}

HeavyEstimate heavy_prefix_frequency(const HeavySummary& s, const int64_t* table, std::string_view item,
                                     int64_t level) {
  const HeavyProtocol& p = s.protocol;
  if (level < 1 || level > p.levels)
    throw_error(ErrorKind::InvalidParameter, "level must be in [1, %" PRId64 "], got %" PRId64, p.levels, level);
  HeavyItem it;
  if (p.dom() == HeavyDomain::Int64) {
    if (item.size() != 8)
      throw_error(ErrorKind::InvalidParameter, "an int64 prefix query takes the 8 big-endian bytes");
    uint64_t v = 0;
    for (char ch : item) v = v << 8 | static_cast<uint8_t>(ch);
    heavy_item_from_int(p, static_cast<int64_t>(v), &it);
  } else {
    heavy_item_from_text(p, item, &it);
  }
  return heavy_impl(p.mech()).level_frequency(s, table, it, level);
}

HeavyHitters heavy_hitters(const HeavySummary& s, const int64_t* table, const HeavyHittersQuery& q) {
  const HeavyMechanismImpl& impl = heavy_impl(s.protocol.mech());
  if (std::isnan(q.threshold)) throw_error(ErrorKind::InvalidParameter, "the threshold must be a number");
  if (!(q.noise_children >= 0))
    throw_error(ErrorKind::InvalidParameter, "noise_children must be >= 0, got %g", q.noise_children);
  HeavyHitters out;
  out.sigma_prune = impl.sigma_prune(s);
  out.sigma_final = impl.sigma_final(s);
  out.threshold = q.threshold >= 0 ? q.threshold : heavy_threshold(s);
  out.threshold_in_se = out.sigma_prune > 0 ? out.threshold / out.sigma_prune : HUGE_VAL;
  if (s.n == 0) return out;
  DecodeBudget budget(q.limits, "heavy_hitters");
  impl.decode(s, table, q, budget, &out);
  out.planned_work = budget.planned();
  heavy_finish_items(s, &out);
  return out;
}

// ---- encoders ----

namespace {
void check_encoder(const HeavyProtocol& p, HeavyMechanism m) {
  validate_heavy_protocol(p);
  if (p.mech() != m)
    throw_error(ErrorKind::InvalidParameter, "%s_encode takes a %s protocol, got %s", heavy_impl(m).name,
                heavy_impl(m).name, heavy_mechanism_name(p.mech()));
}
}  // namespace

void heavy_encoder_item(const HeavyProtocol& p, HeavyMechanism m, std::string_view text, HeavyItem* out) {
  check_encoder(p, m);
  heavy_item_from_text(p, text, out);
}

void heavy_encoder_item(const HeavyProtocol& p, HeavyMechanism m, int64_t value, HeavyItem* out) {
  check_encoder(p, m);
  heavy_item_from_int(p, value, out);
}

// ---- pruning ----

double heavy_upper_quantile(double p) {
  if (p <= 0) return HUGE_VAL;
  if (p >= 1) return -HUGE_VAL;
  if (p == 0.5) return 0;
  if (p < 1e-15) {  // 1 - 2p would round to 1: Q(z) ~ φ(z)/z, inverted (the floor then exceeds τ)
    const double l = -2 * std::log(p);
    return std::sqrt(l - std::log(l) - std::log(2 * M_PI));
  }
  return p < 0.5 ? normal_critical_value(1 - 2 * p) : -normal_critical_value(2 * p - 1);
}

double heavy_prune_threshold(double tau, double sigma, double noise_children, double symbols, int64_t candidates,
                             double n, bool capped) {
  double noise = noise_children / symbols;
  if (capped)
    noise = std::min(noise, noise_children * (n / tau) / static_cast<double>(std::max<int64_t>(candidates, 1)));
  return std::min(tau, std::max(tau - 2 * sigma, heavy_upper_quantile(noise) * sigma));
}

void heavy_check_candidates(const HeavyProtocol& p, double queries, int64_t level, double threshold) {
  if (queries > static_cast<double>(kMaxHeavyCandidates))
    throw_error(ErrorKind::InvalidParameter,
                "%s would query %.0f candidates at level %" PRId64 ", more than %" PRId64 ": raise the threshold (%g)",
                heavy_mechanism_name(p.mech()), queries, level, kMaxHeavyCandidates, threshold);
}

// ---- the HCMS oracle of one sketch ----

HeavyHcms::HeavyHcms(const HeavySummary& s, const int64_t* table, int64_t index, double epsilon, double reports,
                     double scale)
    : table_(table + index * s.sketch_cells()),
      t_(s.protocol.hashes),
      m_(s.protocol.width),
      epsilon_(epsilon),
      reports_(reports),
      scale_(scale),
      scratch_(static_cast<size_t>(t_)) {}

double HeavyHcms::estimate(std::string_view u) {
  return scale_ * hcms_count(sketch_table_row_sum(table_, t_, m_, u, scratch_.data()), reports_, m_, epsilon_);
}

// ---- the count sketch of one sketch ----

HeavyCountSketch::HeavyCountSketch(const HeavySummary& s, const int64_t* table, int64_t index, double scale)
    : t_(s.protocol.hashes),
      m_(s.protocol.width),
      table_(table + index * t_ * m_),
      scale_(scale),
      hashes_(static_cast<size_t>(2 * t_)),
      rows_(static_cast<size_t>(t_)) {}

double* HeavyCountSketch::rows(std::string_view u) {
  count_sketch_rows(table_, t_, m_, u, scale_, hashes_.data(), rows_.data());
  return rows_.data();
}
double HeavyCountSketch::estimate(std::string_view u) { return median_of(rows(u), t_); }
bool HeavyCountSketch::at_least(std::string_view u, double x) { return median_at_least(rows(u), t_, x); }

double heavy_count_sketch_sigma(const HeavySummary& s, double scale) {
  return heavy_c(s.protocol.epsilon / 2) * std::sqrt(M_PI * static_cast<double>(s.n) * scale / 2);
}

// ---- candidates ----

std::vector<std::string> heavy_alphabet_chars(const HeavyProtocol& p) {
  std::vector<std::string> chars;
  const std::string_view a = p.alphabet_view();
  for (size_t i = 0; i < a.size();) {
    const auto len = static_cast<size_t>(utf8_char_length(a.substr(i)));
    chars.emplace_back(a.substr(i, len));
    i += len;
  }
  return chars;
}

HeavyExtender::HeavyExtender(const HeavyProtocol& p)
    : domain_(p.dom()), max_length_(p.max_length), chars_(heavy_alphabet_chars(p)) {}

double HeavyExtender::fanout(int64_t steps) const {
  const double base = domain_ == HeavyDomain::Alphabet ? static_cast<double>(chars_.size() + 1) : 256;
  return std::pow(base, static_cast<double>(steps));
}

double HeavyExtender::fragments(int64_t steps) const {
  if (domain_ == HeavyDomain::Int64) return std::pow(256.0, static_cast<double>(steps));
  const double base = domain_ == HeavyDomain::Alphabet ? static_cast<double>(chars_.size()) : 255;
  double count = 1;  // count(r) = base·count(r - 1) + 1: the closing symbol, or base open children
  for (int64_t r = 0; r < steps; ++r) count = base * count + 1;
  return count;
}

void HeavyExtender::extend(const HeavyNode& from, int64_t steps, int64_t limit, bool utf8,
                           std::vector<HeavyNode>& out) const {
  if (steps == 0 || from.closed || from.chars >= limit) {
    out.push_back(from);
    return;
  }
  HeavyNode child{from.bytes, from.chars + 1, false};
  const size_t base = from.bytes.size();
  switch (domain_) {
    case HeavyDomain::Alphabet:
      for (const std::string& ch : chars_) {
        child.bytes.resize(base);
        child.bytes += ch;
        extend(child, steps - 1, limit, utf8, out);
      }
      extend(HeavyNode{from.bytes, from.chars, true}, steps - 1, limit, utf8, out);  // the pad
      return;
    case HeavyDomain::Bytes:
      if (!utf8 || utf8_prefix_state(from.bytes) == 0)
        extend(HeavyNode{from.bytes, from.chars, true}, steps - 1, limit, utf8, out);  // the end symbol
      child.bytes.resize(base + 1);
      for (int b = 0; b < 256; ++b) {
        if (b == kHeavyEnd) continue;
        child.bytes[base] = static_cast<char>(b);
        if (utf8) {
          const int state = utf8_prefix_state(child.bytes);
          if (state < 0 || (child.chars == max_length_ && state > 0)) continue;
        }
        extend(child, steps - 1, limit, utf8, out);
      }
      return;
    case HeavyDomain::Int64:
      child.bytes.resize(base + 1);
      for (int b = 0; b < 256; ++b) {
        child.bytes[base] = static_cast<char>(b);
        extend(child, steps - 1, limit, utf8, out);
      }
      return;
  }
}

double heavy_node_bytes(const HeavyProtocol& p, int64_t chars) {
  size_t widest = 1;  // bytes of a character (a byte in the bytes and int64 domains)
  if (p.dom() == HeavyDomain::Alphabet)
    for (const std::string& ch : heavy_alphabet_chars(p)) widest = std::max(widest, ch.size());
  const size_t bytes = widest * static_cast<size_t>(chars);
  constexpr size_t kInline = 15;  // what a std::string holds without the heap (libstdc++)
  return static_cast<double>(sizeof(HeavyNode) + (bytes > kInline ? bytes + 1 : 0));
}

// ---- the output ----

void heavy_finish_items(const HeavySummary& s, HeavyHitters* out) {
  const double n = static_cast<double>(s.n), sigma = out->sigma_final;
  std::sort(out->items.begin(), out->items.end(), [](const HeavyHitter& a, const HeavyHitter& b) {
    return a.count != b.count ? a.count > b.count : a.item < b.item;
  });
  for (HeavyHitter& h : out->items) {
    if (s.protocol.dom() == HeavyDomain::Int64) {
      uint64_t v = 0;
      for (char ch : h.item) v = v << 8 | static_cast<uint8_t>(ch);
      h.integer = static_cast<int64_t>(v);
      h.item = std::to_string(h.integer);
    }
    h.frequency = h.count / n;
    h.std_error = sigma / n;
    h.lower = (h.count - kZ95 * sigma) / n;
    h.upper = (h.count + kZ95 * sigma) / n;
  }
}

}  // namespace ldp
