// The decoder state of every mean/proportion mechanism: a flat, versioned,
// trivially copyable struct that the glue stores inside a varlena and updates
// in place as the aggregate's transition state.
//
// Bit mechanisms (RR, 1BitMean) keep two integer counters. Real-valued
// mechanisms (Laplace, piecewise) are followed in memory by MeanSums: exact,
// order-independent sums of the reports and of their squares (in units of
// max_value), so any parallel split decodes to the same bits.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "core/common/exact_sum.hpp"
#include "core/common/stats.hpp"

namespace ldp {

enum class MeanMechanism : uint8_t { RR = 1, OneBit = 2, Laplace = 3, Piecewise = 4 };

struct MeanParams {
  double epsilon = 0;
  double max_value = 1;  // RR: always 1 (a proportion)
  double gamma = 0;      // 1BitMean's output perturbation; 0 elsewhere
};

struct MeanSummary;
struct MeanSums;

// What a mechanism contributes. One of these per mechanism file.
struct MeanMechanismInfo {
  MeanMechanism id;
  const char* name;     // as in the text form: "rr", "onebit", "laplace", "piecewise"
  bool real_valued;     // reports are float8 (else boolean)
  bool uses_max_value;  // RR has none (its estimate is a proportion)
  bool uses_gamma;
  // Real-valued mechanisms: every report of a device lies in [lo, hi].
  void (*report_range)(const MeanParams&, double* lo, double* hi);
  Estimate (*estimate)(const MeanSummary&);
  // Worst-case bound on |estimate - truth| holding with probability >= 1 - delta;
  // NaN where the mechanism has none.
  double (*error_bound)(const MeanSummary&, double delta);
  // Two-sided confidence interval for the mean at the given confidence (n > 0);
  // false when the reports cannot support one.
  bool (*interval)(const MeanSummary&, double confidence, double* lo, double* hi);
};

const MeanMechanismInfo& mean_mechanism(MeanMechanism id);  // throws on unknown id
const MeanMechanismInfo* mean_mechanism_by_name(const char* name, size_t len);
// The registry's names, "rr, onebit, ...", for messages.
std::string mean_mechanism_names();

constexpr uint8_t kMeanSummaryVersion = 1;

struct MeanSummary {
  uint8_t version;
  uint8_t mechanism;
  uint16_t reserved16;
  uint32_t reserved32;
  double epsilon;
  double max_value;
  double gamma;
  int64_t n;     // reports counted
  int64_t ones;  // bit mechanisms: reports equal to 1
  double report_lo;  // derived from the parameters (real-valued mechanisms)
  double report_hi;

  MeanMechanism mech() const { return static_cast<MeanMechanism>(mechanism); }
  MeanParams params() const { return MeanParams{epsilon, max_value, gamma}; }
  inline MeanSums* sums();
  inline const MeanSums* sums() const;
};

struct MeanSums {
  ExactSum sum;          // sum of reports, in data units
  // exact sum of the rounded squares fl((report / max_value)^2): only the
  // standard error uses it, and rounding each square before the exact sum keeps
  // it deterministic and order-independent.
  ExactSum sumsq_unit;
  // Derived from the parameters (set by init and by the parsers, not part of the
  // text or binary forms): the fast path of mean_add_real. A report whose rounded
  // square h reaches hot_min_sq goes through ExactSum::add_hot of both sums with
  // these splits; set_hot_windows checks that every such report and square lies
  // in its window. NaN turns the fast path off.
  double hot_split_sum;
  double hot_split_sq;
  double hot_min_sq;
};

// The hot sums are flushed every 2^kHotRunLog2 reports (when n becomes a multiple
// of it), and by every merge and reader: at most that many add_hot calls between
// flushes, as ExactSum::add_hot requires.
constexpr int kHotRunLog2 = 8;

static_assert(sizeof(MeanSummary) % 8 == 0, "MeanSums must stay 8-byte aligned");

inline MeanSums* MeanSummary::sums() { return reinterpret_cast<MeanSums*>(this + 1); }
inline const MeanSums* MeanSummary::sums() const {
  return reinterpret_cast<const MeanSums*>(this + 1);
}

constexpr size_t kMaxMeanSummarySize = sizeof(MeanSummary) + sizeof(MeanSums);
constexpr size_t kMaxMeanSummaryText = 4096;
constexpr size_t kMaxMeanSummaryBinary = 2048;

size_t mean_summary_size(MeanMechanism id);

// Validates the parameters for the mechanism (InvalidParameter otherwise).
void validate_mean_params(MeanMechanism id, const MeanParams& p);

// Initializes an empty summary in caller memory of mean_summary_size(id) bytes.
void mean_summary_init(MeanSummary* s, MeanMechanism id, const MeanParams& p);

// Per-row parameter check: parameters are constant within one aggregate.
// gamma = -0 is gamma = 0: summaries store +0 (the only valid parameter with two zeros).
inline bool same_params(const MeanSummary& s, const MeanParams& p) {
  double gamma = p.gamma == 0 ? 0.0 : p.gamma;
  return std::memcmp(&s.epsilon, &p.epsilon, sizeof(double)) == 0 &&
         std::memcmp(&s.max_value, &p.max_value, sizeof(double)) == 0 &&
         std::memcmp(&s.gamma, &gamma, sizeof(double)) == 0;
}
// Throws InvalidParameter naming the parameter that changed.
[[noreturn]] void throw_params_changed(const MeanSummary& s, const MeanParams& p);

inline void mean_add_bit(MeanSummary* s, bool bit) {
  s->n += 1;
  s->ones += bit ? 1 : 0;
}

[[noreturn]] void throw_impossible_report(const MeanSummary& s, double y);
[[noreturn]] void throw_square_overflow(double y);

// The general path of mean_add_real: h = fl((y/max_value)^2) must be finite,
// then both exact additions. Out of line.
void mean_add_real_exact(MeanSummary* s, double y, double h);
// Moves the hot sums of both exact sums into their limbs. Out of line.
void mean_flush_hot(MeanSummary* s) noexcept;

// The fast path of mean_add_real, which never throws: adds y and returns true
// when y is a possible report whose square lies in the hot window (the common
// case); returns false, having changed nothing, otherwise. Callers on a hot
// loop try it first and call mean_add_real only when it returns false, so the
// loop itself needs no exception handling.
inline bool mean_try_add_real(MeanSummary* s, double y) noexcept {
  MeanSums* m = s->sums();
  double u = y / s->max_value;
  double h = u * u;
  // One comparison selects the fast path: h >= hot_min_sq puts h and y in their
  // windows (and h is then finite); see set_hot_windows in mean_summary.cpp.
  if (!(y >= s->report_lo && y <= s->report_hi && h >= m->hot_min_sq)) return false;
  m->sum.add_hot(y, m->hot_split_sum);
  m->sumsq_unit.add_hot(h, m->hot_split_sq);
  s->n += 1;
  if ((s->n & ((int64_t{1} << kHotRunLog2) - 1)) == 0) mean_flush_hot(s);
  return true;
}

// Adds a report of a real-valued mechanism; throws ImpossibleReport for a value
// the mechanism cannot produce.
inline void mean_add_real(MeanSummary* s, double y) {
  if (mean_try_add_real(s, y)) return;
  if (!(y >= s->report_lo && y <= s->report_hi)) throw_impossible_report(*s, y);
  double u = y / s->max_value;
  mean_add_real_exact(s, y, u * u);
  s->n += 1;
  if ((s->n & ((int64_t{1} << kHotRunLog2) - 1)) == 0) mean_flush_hot(s);
}

// into += from; both must have the same mechanism and parameters.
void mean_summary_merge(MeanSummary* into, const MeanSummary& from);

Estimate mean_estimate(const MeanSummary& s);  // requires n > 0
double mean_error_bound(const MeanSummary& s, double delta);
// The confidence interval of ci_lower / ci_upper (see the mechanisms' interval):
// false when there is none (no reports; a real-valued summary of one report).
// Throws InvalidParameter unless 0 < confidence < 1.
bool mean_interval(const MeanSummary& s, double confidence, double* lo, double* hi);

// Text form, e.g. v1:onebit{epsilon=1,max_value=86400,gamma=0.2,n=1000,ones=512}.
// The eight codec functions every family has (the glue's CoreCodec): the text's size
// (including the NUL) and the NUL-terminated text; the size of the summary a text holds
// (InvalidText for a text whose mechanism is unknown) and the summary, parsed and
// validated into out of that size.
size_t mean_summary_text_size(const MeanSummary& s);
void mean_summary_to_text(const MeanSummary& s, char* out, size_t cap);
size_t mean_summary_parse_size(const char* text);
void mean_summary_from_text(const char* text, MeanSummary* out, size_t size);
// Parses and validates; writes the summary into out (kMaxMeanSummarySize bytes,
// 8-byte aligned) and returns its size. Throws InvalidText.
size_t mean_summary_from_text(const char* text, void* out);

// Portable binary form (send/recv; the stored form after the header of
// common/stored_form.hpp): the same four.
size_t mean_summary_binary_size(const MeanSummary& s);
void mean_summary_to_binary(const MeanSummary& s, uint8_t* out, size_t cap);
size_t mean_summary_binary_parse_size(const uint8_t* p, size_t len);
void mean_summary_from_binary(const uint8_t* p, size_t len, MeanSummary* out, size_t size);
// As the text's: into kMaxMeanSummarySize bytes, returning the size. Throws InvalidBinary.
size_t mean_summary_from_binary(const uint8_t* p, size_t len, void* out);

// Checks a summary held in memory (cheap: version and mechanism). Throws Internal.
void mean_summary_check(const MeanSummary& s, size_t size);

// Real-valued summaries in the memory layout of earlier builds (ExactSum without
// the hot sums, MeanSums without the fast-path fields): PostgreSQL stores a
// summary's memory image in tables, so such images can still be read.
constexpr size_t kLegacyRealSummarySize =
    sizeof(MeanSummary) + 2 * (ExactSum::kLimbs + 1) * sizeof(int64_t);
// True when (s, size) has that layout (version 1, a real-valued mechanism).
bool mean_summary_is_legacy(const MeanSummary& s, size_t size);
// Converts such an image into the current layout in out (kMaxMeanSummarySize
// bytes, 8-byte aligned) and returns its size. Throws Internal.
size_t mean_summary_upgrade_legacy(const MeanSummary& s, size_t size, void* out);

// ---- helpers shared by the mechanism files ----
// (the 1-bit mechanisms' estimate and interval: oracles/bit_mean.hpp)
double bit_mean_error_bound(int64_t n, double epsilon, double max_value, double gamma, double delta);
// Mean of real-valued reports with the standard error from their sample variance.
Estimate real_mean_estimate(const MeanSummary& s);
// Its interval: estimate +- t SE, Student's t on n - 1 degrees of freedom.
bool real_mean_interval(const MeanSummary& s, double confidence, double* lo, double* hi);
// Hoeffding: reports confined to an interval of the given width.
double hoeffding_bound(int64_t n, double width, double delta);

}  // namespace ldp
