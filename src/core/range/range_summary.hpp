// The range family's summary (docs/algorithms/ranges.md): the integer counters of the
// reports of the protocol it embeds (range_protocol.hpp), plus n. After the struct, flat,
// the mechanism's two blocks (its registry row, range_internal.hpp, says their sizes):
//
//   counts   non-negative counts that add up to n: HaarHRR's n_j, the reports of level j
//            (j in [0, k)); Square Wave's reports per output bucket (square_wave.hpp: its
//            d_out = min(2^k, 1024) buckets, and no sums)
//   sums     per count i, a segment of signed sums checked against counts[i]: HaarHRR's
//            2^k − 1 row sums S_j[r] = Σ y over the reports of level j and Hadamard row r,
//            level j's 2^j rows at offset 2^j − 1 + r (HaarCounts's layout, haar.hpp)
//
// A (level, hadamard_row, report) report adds 1 to one count and ±1 to one sum of its
// segment, so a segment fits its count as the signed counters of the sketches do (|S| <=
// n_j, n_j − Σ|S_j| even; common/stored_form.hpp's signed_counters_misfit). Merges add
// counters: any order and any parallel plan give the same summary bit for bit.
//
// Memory: the counters are dense (HaarHRR: 8·(k + 2^k − 1) bytes), and a decode holds
// about as many doubles again. This build keeps summaries of at most
// kMaxRangeSummaryBits = 22 bits (HaarHRR: 32 MiB of counters; 64 MiB with a decode): a
// wider domain (the protocol allows 24) whose counters would grow past those of 22 bits
// is refused with LimitExceeded before anything is allocated (Square Wave's 1024 do not
// grow: it takes 24); a device may still encode it, and a coarser protocol (or the linear
// and log mappings) answers the same questions.
//
// Decoding is prepare, then answer: range_prepare decodes the counters once into the
// mechanism's area (HaarHRR: one exact transform per level, haar.hpp), range_prefix and
// range_answer answer prefixes and ranges with their exact variances (HaarHRR: O(k)), and
// range_prepare_quantiles adds the CDF's blocks (D prefixes, once) that range_quantile
// searches.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/common/random.hpp"
#include "core/range/range_protocol.hpp"
#include "core/range/range_quantile.hpp"

namespace ldp {

constexpr int kMaxRangeSummaryBits = 22;

// The most counts a mechanism with segments has (one per level of its tree).
constexpr int kMaxRangeSegments = kMaxRangeDomainBits;

// The deferred sums of an aggregation state (range_add_deferred): a power of 2.
constexpr int kRangeDeferred = 16;

struct RangeSummary {
  RangeProtocol protocol;
  int64_t n;  // reports counted
  // The layout of the counters, from the mechanism's row (range_summary_init; never
  // stored, recomputed by every reader): the counts block, then segments of sums.
  int64_t count_cells;  // the counts
  int64_t cell_count;   // every counter
  int64_t first_level;  // the report level of counts[0]
  int64_t segments;     // count_cells with segments, else 0 (no (level, row, bit) reports)
  // Segment i's sums at counters()[segment_at[i], segment_at[i + 1]).
  int64_t segment_at[kMaxRangeSegments + 1];
  // Sums not yet added (range_add_deferred; in memory only, empty in any summary read,
  // merged or written): (cell + 1)·2 + (1 for +1), 0 for none; the next slot to use.
  int64_t deferred[kRangeDeferred];
  int64_t deferred_next;

  int64_t cells() const { return cell_count; }
  int64_t* counters() { return reinterpret_cast<int64_t*>(this + 1); }
  const int64_t* counters() const { return reinterpret_cast<const int64_t*>(this + 1); }
  // HaarHRR's names: the counts are the level counts, the segments the row sums.
  int64_t levels() const { return count_cells; }
  int64_t* level_counts() { return counters(); }
  const int64_t* level_counts() const { return counters(); }
  int64_t* row_sums() { return counters() + count_cells; }
  const int64_t* row_sums() const { return counters() + count_cells; }
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

// Whether the mechanism's reports are (level, hadamard_row, report) (range_agg's and
// range_encode's columns); Square Wave's are one real each (square_wave.hpp).
bool range_takes_tree_reports(const RangeProtocol& p);
// A (level, hadamard_row, report) report (+1 as true), checked by the mechanism's
// check_report (ImpossibleReport; a mechanism of another wire format refuses every such
// report); OutOfRange past 2^63 − 1 reports.
void range_add_report(RangeSummary* s, int64_t level, int64_t row, bool plus_one);
// Whether a report's level and row fit the summary's segments (the aggregates' fast
// path, which then adds it unchecked; false: the checked path says why).
inline bool range_report_fits(const RangeSummary* s, int64_t level, int64_t row) {
  const auto i = static_cast<uint64_t>(level - s->first_level);
  return i < static_cast<uint64_t>(s->segments) &&
         static_cast<uint64_t>(row) < static_cast<uint64_t>(s->segment_at[i + 1] - s->segment_at[i]);
}
inline void range_add_unchecked(RangeSummary* s, int64_t level, int64_t row, bool plus_one) {
  const int64_t i = level - s->first_level;
  s->counters()[i] += 1;
  s->counters()[s->segment_at[i] + row] += plus_one ? 1 : -1;
  s->n += 1;
}
// The same for the aggregates' states (the glue's fast path): the report's sum is
// prefetched now and added kRangeDeferred reports later, so that waiting for a cell of a
// wide domain (2^20 sums are 8 MiB, past a core's cache) overlaps with the next rows. Its
// count and n are added at once. range_flush_deferred adds what is left: the glue's settle
// hook runs it before anything reads, merges or writes a live state.
inline void range_add_deferred(RangeSummary* s, int64_t level, int64_t row, bool plus_one) {
  const int64_t i = level - s->first_level;
  int64_t* c = s->counters();
  c[i] += 1;
  s->n += 1;
  const int64_t cell = s->segment_at[i] + row;
  __builtin_prefetch(c + cell, 1);
  const int64_t slot = s->deferred_next;
  const int64_t due = s->deferred[slot];
  if (__builtin_expect(due != 0, 1)) c[(due >> 1) - 1] += (due & 1) != 0 ? 1 : -1;
  s->deferred[slot] = (cell + 1) * 2 + (plus_one ? 1 : 0);
  s->deferred_next = (slot + 1) & (kRangeDeferred - 1);
}
void range_flush_deferred(RangeSummary* s);
// into += from (the same protocol, else InvalidParameter).
void range_summary_merge(RangeSummary* into, const RangeSummary& from);

// ---- the device encoder (the SDK) ----
// The report of a value: its bucket under the protocol's mapping (range_bucket: NaN
// refused), then the mechanism's report (haar_encode). The protocol is validated; a
// mechanism of another wire format is refused (InvalidParameter).
RangeReport range_encode(const RangeProtocol& p, double value, RandomSource& rng);

// ---- decoding ----
// A prepared decode in caller memory (the glue keeps it for a query), flat: after the
// struct, the mechanism's area (area_bytes: HaarHRR's c², k level counts, 2^k − 1
// coefficients), then, for a mechanism with prefixes, the CDF's blocks
// (CdfSearch::blocks_for(D), filled by range_prepare_quantiles).
struct RangePrepared {
  RangeProtocol protocol;
  int64_t n;
  int64_t area_bytes;
  int64_t blocks_built;  // 1 once range_prepare_quantiles has run

  void* area() { return this + 1; }
  const void* area() const { return this + 1; }
  CdfBlock* blocks() { return reinterpret_cast<CdfBlock*>(static_cast<char*>(area()) + area_bytes); }
  const CdfBlock* blocks() const {
    return reinterpret_cast<const CdfBlock*>(static_cast<const char*>(area()) + area_bytes);
  }
};
static_assert(sizeof(RangePrepared) % 8 == 0, "the arrays must stay 8-byte aligned");
// Bytes of a prepared decode of a summary of this (validated) protocol.
size_t range_prepared_size(const RangeProtocol& p);
// Polls for a cancel.
void range_prepare(const RangeSummary& s, RangePrepared* out, size_t size);
// Whether the mechanism answers prefixes and ranges (range_prefix, range_answer, the
// quantiles; Square Wave does not); range_require_linear: InvalidParameter naming `what`
// (the accessor) when it does not.
bool range_has_linear(const RangeProtocol& p);
void range_require_linear(const RangeProtocol& p, const char* what);
// F̂(x), the estimated share of buckets <= x (x in [−1, D): F̂(−1) = 0, F̂(D−1) = 1), and
// the share of buckets in [lo, hi] (0 <= lo <= hi < D), with their exact variances;
// Internal for a mechanism without linear answers (range_require_linear first).
LinearAnswer range_prefix(const RangePrepared& d, int64_t x);
LinearAnswer range_answer(const RangePrepared& d, int64_t lo, int64_t hi);
// The CDF's blocks, once (D prefixes; polls for a cancel); then range_quantile.
void range_prepare_quantiles(RangePrepared* d);
// The work of the CDF's blocks, in prefixes times their cost (the glue plans it).
double range_quantiles_work(const RangeProtocol& p);
// φ in [0, 1] (InvalidParameter), z >= 0 (CdfSearch::quantile); the blocks built.
QuantileAnswer range_quantile(const RangePrepared& d, double phi, double z);

// ---- codecs ----
// Text: v1:<mechanism>{<the protocol's fields>,n=<n>,<counts>=[...][,<sums>=[...]]}, the
// blocks' names the mechanism's (HaarHRR: levels=[n_0,...],sums=[S_0[0],S_1[0],S_1[1],...]).
// Two steps, so the caller allocates.
size_t range_summary_text_size(const RangeSummary& s);  // including the NUL
void range_summary_to_text(const RangeSummary& s, char* out, size_t cap);
size_t range_summary_parse_size(const char* text);
void range_summary_from_text(const char* text, RangeSummary* out, size_t size);
// Binary: the stored-form header (format 3, family Range), the protocol's fields
// (range_internal.hpp), i64 n, u8 bytes per counter, then the counts and the sums at that
// width.
size_t range_summary_binary_size(const RangeSummary& s);
void range_summary_to_binary(const RangeSummary& s, uint8_t* out, size_t cap);
size_t range_summary_binary_parse_size(const uint8_t* p, size_t len);
void range_summary_from_binary(const uint8_t* p, size_t len, RangeSummary* out, size_t size);

}  // namespace ldp
