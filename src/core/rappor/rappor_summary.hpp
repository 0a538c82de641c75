// The RAPPOR summary (docs/algorithms/rappor.md#the-summary; google/rappor): the `sum_bits`
// counts file of google/rappor, N_c reports and C[c][b] reports with Bloom bit b set in cohort
// c, integer-only, plus the parameters (k bits, h hashes, m cohorts, f, p, q) and n.
//
// Cohorts go up to 2^31 - 1, so the summary holds only the cohorts that have reports:
// `rows` rows sorted by cohort, each [cohort, N_c, C[c][0..k-1]] (Bloom bit b at index b,
// as the columns 2..k+1 of the counts file; a report's character j is bit k-1-j). A
// summary lives in caller memory with room for `capacity` rows; adding a report of a new
// cohort to a full summary returns false and the caller moves it into a larger buffer
// (rappor_summary_copy). Bound, checked before anything is allocated: capacity·(k+2) <=
// kMaxRapporCells (32 MiB of counters); a summary needing more rows is OutOfRange.
// Merges add counters: any order and any parallel plan give the same bits.
//
// Decoding (rappor_decode.cpp) is the pipeline of decode.R, with deterministic standard
// errors (docs/algorithms/rappor.md#standard-errors); privacy figures are ComputePrivacyGuarantees.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/decode_limits.hpp"
#include "core/rappor/rappor_client.hpp"

namespace ldp {

constexpr int64_t kMaxRapporCells = int64_t{1} << 22;

struct RapporParams {
  int64_t bits = 16;     // k
  int64_t hashes = 2;    // h
  int64_t cohorts = 64;  // m, cohorts in [0, m)
  double f = 0.5, p = 0.5, q = 0.75;
};
// check_rappor_hashing, check_rappor_noise, 1 <= cohorts <= 2^31 - 1: InvalidParameter.
void validate_rappor_params(const RapporParams& p);
bool same_rappor_params(const RapporParams& a, const RapporParams& b);
std::string rappor_params_to_text(const RapporParams& p);  // for messages

struct RapporSummary {
  RapporParams params;
  int64_t n;         // reports
  int64_t rows;      // cohorts with reports
  int64_t capacity;  // rows the buffer holds

  int64_t row_words() const { return params.bits + 2; }
  int64_t* row(int64_t i) { return reinterpret_cast<int64_t*>(this + 1) + i * row_words(); }
  const int64_t* row(int64_t i) const { return reinterpret_cast<const int64_t*>(this + 1) + i * row_words(); }
  // row(i)[0] cohort, row(i)[1] N_c, row(i)[2 + b] C[c][b]
};
static_assert(sizeof(RapporSummary) % 8 == 0, "rows must stay 8-byte aligned");

// The largest capacity of these parameters: kMaxRapporCells / (k + 2), at most m.
int64_t rappor_max_rows(const RapporParams& p);
// Bytes of a summary with room for `capacity` rows (validates the parameters, and the
// capacity against rappor_max_rows: InvalidParameter).
size_t rappor_summary_size(const RapporParams& p, int64_t capacity);
inline size_t rappor_summary_size(const RapporSummary& s) {
  return sizeof(RapporSummary) + sizeof(int64_t) * static_cast<size_t>(s.capacity * s.row_words());
}
void rappor_summary_init(RapporSummary* s, const RapporParams& p, int64_t capacity);
// The capacity to grow a full summary to (doubling, at least 8, at most
// rappor_max_rows); OutOfRange when it is already at the bound.
int64_t rappor_grown_capacity(const RapporSummary& s);
// Copies from into `to`, a buffer of rappor_summary_size(from.params, capacity) bytes,
// capacity >= from.rows.
void rappor_summary_copy(const RapporSummary& from, RapporSummary* to, int64_t capacity);

// One report: cohort in [0, m) and k bits in varbit order (rappor_to_varbit), nbits the
// report's length; ImpossibleReport otherwise. False (nothing counted) when the cohort
// has no row and the summary is full: grow it and add again.
bool rappor_add_report(RapporSummary* s, int64_t cohort, const uint8_t* data, int64_t nbits);
bool rappor_add_bits(RapporSummary* s, int64_t cohort, const RapporBits& report);
// The rows into + from would have (the capacity a merge needs); InvalidParameter for
// different parameters.
int64_t rappor_merged_rows(const RapporSummary& into, const RapporSummary& from);
// into += from; into->capacity >= rappor_merged_rows(*into, from), else Internal.
void rappor_summary_merge(RapporSummary* into, const RapporSummary& from);
// N_c of a cohort (0 when it has no row) and its bit counts (nullptr then).
int64_t rappor_cohort_reports(const RapporSummary& s, int64_t cohort);
const int64_t* rappor_cohort_ones(const RapporSummary& s, int64_t cohort);

// An owning summary that grows itself (the SDK, batch jobs and tests).
class RapporAccumulator {
 public:
  explicit RapporAccumulator(const RapporParams& p, int64_t capacity = 8);
  void add(int64_t cohort, const RapporBits& report);
  void add_varbit(int64_t cohort, const uint8_t* data, int64_t nbits);
  void merge(const RapporSummary& from);
  // One cohort's row of google/rappor's counts file (sum_bits): `reports` reports, of which
  // ones[b] had bit b set (b in [0, bits)); merged, so checked as a merge is.
  void add_counts(int64_t cohort, int64_t reports, const int64_t* ones);
  const RapporSummary& summary() const { return *reinterpret_cast<const RapporSummary*>(buf_.data()); }
  RapporSummary& summary() { return *reinterpret_cast<RapporSummary*>(buf_.data()); }

 private:
  void grow(int64_t capacity);
  std::vector<uint64_t> buf_;
};

// ---- decoding (decode.R's Decode, deterministic) ----
struct RapporDecodeOptions {
  bool screen = true;   // LASSO screening when S > 0.8·rows (decode.R's FitDistribution)
  // Decode's estimates for the detected too (decode.R's constrained fit). Off by default:
  // the detected then take the unconstrained generalized least squares on the fitted
  // candidates (rappor_decode.cpp step 7; ours), unbiased when the candidates include the
  // population, where Decode's fit is about 0.5 SE low on every string (β >= 0 on the
  // absent ones) and its 95% intervals cover 92%.
  bool decode_r_estimates = false;
  // The work and memory the decode may plan (common/decode_limits.hpp): checked before it
  // allocates, from the candidates, the cohorts with reports, bits and hashes.
  DecodeLimits limits;
};
struct RapporCandidateEstimate {
  double count;       // N·β̂, β̂ clamped to [0, 1], for every candidate: decode.R's estimate when not detected
  double std_error;   // N·SE(β̂), deterministic (rappor.md#standard-errors)
  double proportion;  // β̂ = count / N
  double ci_lower, ci_upper;  // β̂ ∓ 1.96·SE(β̂), clamped to [0, 1]
  bool detected;      // decode.R's rule on the estimate before the clamp: N·β̂ > 1e-6 + 2·std_error
  int64_t collision;  // candidates sharing its design-matrix column (1: none)
};
struct RapporDecode {
  std::vector<RapporCandidateEstimate> items;  // in the candidates' order
  int64_t n = 0;                // reports
  int64_t rows = 0;             // design-matrix rows: cohorts with reports × k
  bool lasso = false;           // screening ran
  int64_t screened = 0;         // candidates (distinct columns) the fit used
  std::vector<int64_t> screened_candidates;  // with LASSO: one candidate of each column kept
  int64_t fit_iterations = 0;   // active-set iterations of the constrained fit
  double planned_work = 0;      // the operations the decode planned (RapporDecodeOptions::limits)
};
// Candidates: any bytes (UTF-8 text); duplicates are InvalidParameter, as is an empty
// list. k = 1 (decode.R's .DecodeBoolean) is refused: decode it as a proportion. A decode
// whose design matrix and fits would pass o.limits is refused (LimitExceeded) before it
// allocates them; the decode polls for a cancel (common/interrupt.hpp).
RapporDecode rappor_decode(const RapporSummary& s, const std::vector<std::string_view>& candidates,
                           const RapporDecodeOptions& o = {});

// The bit estimates of EstimateBloomCounts for the summary's rows: row-major
// (row i of the summary, bit b) fractions and their standard deviations.
void rappor_bit_estimates(const RapporSummary& s, std::vector<double>* estimates, std::vector<double>* stds);

// ---- privacy (decode.R's ComputePrivacyGuarantees) ----
struct RapporPrivacy {
  double p_star, q_star;          // effective p and q
  double epsilon_one, epsilon_inf;
  bool has_detection;             // reports given and p < q
  double detection_frequency;     // z_{1-α}·sqrt(p*(1-p*)N)/((q*-p*)N)
};
// hashes in [1, 16], f, p, q in [0, 1] (any order of p and q), alpha in (0, 1); reports
// <= 0: no detection frequency. R's arithmetic: Infinity where it gives one (f = 0).
RapporPrivacy rappor_privacy(int64_t hashes, double f, double p, double q, int64_t reports, double alpha = 0.05);

// ---- codecs ----
// Text: v1:rappor{bits=..,hashes=..,cohorts=..,f=..,p=..,q=..,n=..,rows=R,cohort=[R],
// reports=[R],ones=[R·k row-major]}. Two steps, so the caller allocates; the parsed
// summary's capacity is its rows.
size_t rappor_summary_text_size(const RapporSummary& s);  // including the NUL
void rappor_summary_to_text(const RapporSummary& s, char* out, size_t cap);
size_t rappor_summary_parse_size(const char* text);
void rappor_summary_from_text(const char* text, RapporSummary* out, size_t size);
// Binary: the stored-form header (format 3, family Rappor), u8 mechanism 1, i64 bits,
// hashes, cohorts, f64 f, p, q, i64 n, i64 rows, u8 bytes per counter, then the cohorts,
// the N_c and the bit counts at that width.
size_t rappor_summary_binary_size(const RapporSummary& s);
void rappor_summary_to_binary(const RapporSummary& s, uint8_t* out, size_t cap);
size_t rappor_summary_binary_parse_size(const uint8_t* p, size_t len);
void rappor_summary_from_binary(const uint8_t* p, size_t len, RapporSummary* out, size_t size);

}  // namespace ldp
