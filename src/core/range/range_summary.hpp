// The range family's summary (docs/algorithms/ranges.md): the integer counters of
// HaarHRR reports for the protocol it embeds (range_protocol.hpp), plus n. After the
// struct, flat:
//
//   n_j      k level counts: the reports of level j (j in [0, k))
//   S_j[r]   2^k − 1 row sums: Σ y over the reports of level j and Hadamard row r, level
//            j's 2^j rows at offset 2^j − 1 + r (HaarCounts's layout, haar.hpp)
//
// Each report adds 1 to one n_j and ±1 to one of its level's sums, so the counters of
// level j fit n_j as the signed counters of the sketches do (|S| <= n_j, n_j − Σ|S_j| even;
// common/stored_form.hpp's signed_counters_misfit), and Σ n_j = n. Merges add counters:
// any order and any parallel plan give the same summary bit for bit.
//
// Memory: the counters are dense, 8·(k + 2^k − 1) bytes, and a decode holds as many
// doubles again (the coefficients). This build keeps summaries of at most
// kMaxRangeSummaryBits = 22 bits (32 MiB of counters; 64 MiB with a decode): a wider
// domain (the protocol allows 24) is refused with LimitExceeded before anything is
// allocated; a device may still encode it, and a coarser protocol (or the linear and
// log mappings) answers the same questions.
//
// Decoding is prepare, then answer: range_prepare turns the counters into the
// coefficients once (one exact transform per level, haar.hpp), range_view answers
// prefixes and ranges in O(k) with their exact variances, and range_prepare_quantiles
// adds the CDF's blocks (D prefixes, once) that range_quantile searches.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/common/random.hpp"
#include "core/range/haar.hpp"
#include "core/range/range_protocol.hpp"
#include "core/range/range_quantile.hpp"

namespace ldp {

constexpr int kMaxRangeSummaryBits = 22;

struct RangeSummary {
  RangeProtocol protocol;
  int64_t n;  // reports counted

  int levels() const { return protocol.domain_bits; }
  // k + 2^k − 1: the level counts, then the row sums
  int64_t cells() const { return levels() + (int64_t{1} << levels()) - 1; }
  int64_t* level_counts() { return reinterpret_cast<int64_t*>(this + 1); }
  const int64_t* level_counts() const { return reinterpret_cast<const int64_t*>(this + 1); }
  int64_t* row_sums() { return level_counts() + levels(); }
  const int64_t* row_sums() const { return level_counts() + levels(); }
  int64_t* counters() { return level_counts(); }
  const int64_t* counters() const { return level_counts(); }
};
static_assert(sizeof(RangeSummary) % 8 == 0, "counters must stay 8-byte aligned");

// Bytes of a summary of this protocol: InvalidParameter for an invalid one,
// LimitExceeded past kMaxRangeSummaryBits (before anything is allocated).
size_t range_summary_size(const RangeProtocol& p);
inline size_t range_summary_size(const RangeSummary& s) {
  return sizeof(RangeSummary) + sizeof(int64_t) * static_cast<size_t>(s.cells());
}
// The cap's refusal (LimitExceeded) unless p.domain_bits <= kMaxRangeSummaryBits.
void check_range_summary_bits(const RangeProtocol& p);
// An empty summary in caller memory of range_summary_size bytes.
void range_summary_init(RangeSummary* s, const RangeProtocol& p);

// A report (level, row, bit: +1 as true), checked as haar_check_report does
// (ImpossibleReport); OutOfRange past 2^63 − 1 reports.
void range_add_report(RangeSummary* s, int64_t level, int64_t row, bool plus_one);
// The same without checks (the aggregates' fast path, which has checked level and row).
inline void range_add_unchecked(RangeSummary* s, int64_t level, int64_t row, bool plus_one) {
  s->level_counts()[level] += 1;
  s->row_sums()[(int64_t{1} << level) - 1 + row] += plus_one ? 1 : -1;
  s->n += 1;
}
// into += from (the same protocol, else InvalidParameter).
void range_summary_merge(RangeSummary* into, const RangeSummary& from);

// ---- the device encoder (the SDK) ----
// The report of a value: its bucket under the protocol's mapping (range_bucket: NaN
// refused), then the mechanism's report (haar_encode). The protocol is validated.
HaarReport range_encode(const RangeProtocol& p, double value, RandomSource& rng);

// ---- decoding ----
// A prepared decode in caller memory (the glue keeps it for a query), flat: after the
// struct, k level counts (int64), 2^k − 1 coefficients (double), then the CDF's blocks
// (CdfSearch::blocks_for(D), filled by range_prepare_quantiles).
struct RangePrepared {
  RangeProtocol protocol;
  int64_t n;
  double c2;
  int64_t blocks_built;  // 1 once range_prepare_quantiles has run

  int64_t* level_counts() { return reinterpret_cast<int64_t*>(this + 1); }
  const int64_t* level_counts() const { return reinterpret_cast<const int64_t*>(this + 1); }
  double* coefficients() { return reinterpret_cast<double*>(level_counts() + protocol.domain_bits); }
  const double* coefficients() const { return reinterpret_cast<const double*>(level_counts() + protocol.domain_bits); }
  CdfBlock* blocks() { return reinterpret_cast<CdfBlock*>(coefficients() + (int64_t{1} << protocol.domain_bits) - 1); }
  const CdfBlock* blocks() const {
    return reinterpret_cast<const CdfBlock*>(coefficients() + (int64_t{1} << protocol.domain_bits) - 1);
  }
};
static_assert(sizeof(RangePrepared) % 8 == 0, "the arrays must stay 8-byte aligned");
// Bytes of a prepared decode of a summary of this (validated) protocol.
size_t range_prepared_size(const RangeProtocol& p);
// Polls for a cancel.
void range_prepare(const RangeSummary& s, RangePrepared* out, size_t size);
// The answers (HaarView: prefix, range with variances) of a prepared decode.
HaarView range_view(const RangePrepared& d);
// The CDF's blocks, once (D prefixes; polls for a cancel); then range_quantile.
void range_prepare_quantiles(RangePrepared* d);
// φ in [0, 1] (InvalidParameter), z >= 0 (CdfSearch::quantile); the blocks built.
QuantileAnswer range_quantile(const RangePrepared& d, double phi, double z);

// ---- codecs ----
// Text: v1:haar{<the protocol's fields>,n=<n>,levels=[n_0,...],sums=[S_0[0],S_1[0],S_1[1],...]}.
// Two steps, so the caller allocates.
size_t range_summary_text_size(const RangeSummary& s);  // including the NUL
void range_summary_to_text(const RangeSummary& s, char* out, size_t cap);
size_t range_summary_parse_size(const char* text);
void range_summary_from_text(const char* text, RangeSummary* out, size_t size);
// Binary: the stored-form header (format 3, family Range), the protocol's fields
// (range_internal.hpp), i64 n, u8 bytes per counter, then the level counts and the row
// sums at that width.
size_t range_summary_binary_size(const RangeSummary& s);
void range_summary_to_binary(const RangeSummary& s, uint8_t* out, size_t cap);
size_t range_summary_binary_parse_size(const uint8_t* p, size_t len);
void range_summary_from_binary(const uint8_t* p, size_t len, RangeSummary* out, size_t size);

}  // namespace ldp
