// Inside the core only: what the range family's files share (the protocol's fields in
// the text and binary forms, the registry of mechanisms). The glue uses
// range_protocol.hpp and range_summary.hpp, never this header.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/common/byte_reader.hpp"
#include "core/common/random.hpp"
#include "core/common/text_cursor.hpp"
#include "core/range/range_protocol.hpp"
#include "core/range/range_quantile.hpp"
#include "core/range/range_summary.hpp"

namespace ldp {

struct SwDensity;       // square_wave.hpp
struct SwDensityQuery;

// The protocol's fields in the text form, "epsilon=...,domain_bits=...[,<own fields>],
// mapping=...[,lo=...,hi=...]" (no braces), shared by the protocol's text and the
// summary's; the parser validates (InvalidText naming the cursor's type).
void range_render_fields(const RangeProtocol& p, TextOut& o);
RangeProtocol range_parse_fields(TextCursor& c, RangeMechanism m);
// The envelope's lookup: the mechanism of a name, as a pointer to a static value.
const RangeMechanism* range_mechanism_by_name(const char* name, size_t len);
std::string range_mechanism_names();
// Binary: u8 mechanism, u8 mapping, f64 epsilon, i64 domain_bits, f64 lo, f64 hi, then
// an i64 for each of the mechanism's own fields (its row's `fields`, in order).
constexpr size_t kRangeFieldsBinarySize = 2 + 4 * 8;  // without own fields (HaarHRR's)
size_t range_fields_binary_size(const RangeProtocol& p);
void range_put_fields(uint8_t*& o, const RangeProtocol& p);
RangeProtocol range_read_fields(ByteReader& r);  // validated: InvalidBinary

// A protocol field that only one mechanism has, an integer member of RangeProtocol
// declared in that mechanism's file and listed in its row; every other mechanism's
// protocol holds 0 there (validate_range_protocol refuses anything else). The text form
// writes it after domain_bits, the binary form after the shared fields, in the row's
// order; range_protocol.cpp reads, writes and compares the fields through these entries
// only.
struct RangeProtocolField {
  const char* key;  // its name in the text form and the builder's
  int64_t (*get)(const RangeProtocol& p);
  void (*set)(RangeProtocol* p, int64_t value);
};
constexpr int kMaxRangeOwnFields = 2;

// ---- the registry (range_summary.cpp) ----
// One row per mechanism, in its own file (haar.cpp). Shared code (the protocol's forms,
// the summary, its codec, the prepared decode, the glue) branches on no mechanism: what
// differs is here. A new mechanism fills in:
//  - its id (RangeMechanism, range_protocol.hpp) and name;
//  - its own protocol fields (RangeProtocolField), their defaults and its own checks;
//  - the layout of its counters: two blocks, `counts` non-negative counts that add up to
//    n (named arrays[0]: HaarHRR's reports per level), then, when `segment` is set, one
//    segment of segment(p, i) signed sums per count i, each segment checked against its
//    count as signed counters (arrays[1]: HaarHRR's Hadamard row sums of level i). A
//    mechanism without the second block (a histogram of output buckets) leaves segment
//    nullptr and arrays[1] nullptr. The codec and the merge read nothing else;
//  - its reports: the (level, hadamard_row, report) wire format adds 1 to
//    counts[level - first_level] and ±1 to that count's segment at the row; check_report
//    refuses what the mechanism cannot send (ImpossibleReport), nullptr when its reports
//    take another wire format (which then has its own add and transition function);
//    encode is its device encoder for that format (nullptr: another wire format);
//  - its decode: prepared_bytes of its own area in the prepared decode (RangePrepared),
//    prepare (once per query; polls for a cancel), and its answers: prefix (F̂(x) with its
//    exact variance) and range ([lo, hi] with its exact variance), nullptr when it has no
//    linear answer (range_frequency, cdf, quantiles and histogram then refuse it), and
//    prefix_cost, the work of one prefix in units of a domain bit (the quantiles' plan).
//    A mechanism whose answer is a density rather than prefixes (Square Wave with EM,
//    square_wave.cpp) leaves prefix, range and prefix_cost nullptr and sets density
//    (ldp.density's estimate and bootstrap, range_density), which the others leave
//    nullptr; range_require_linear and range_has_density keep each accessor to its own.
struct RangeMechanismImpl {
  RangeMechanism id;
  const char* name;
  // ---- its protocol (range_protocol.cpp reads these) ----
  const RangeProtocolField* fields[kMaxRangeOwnFields];  // nullptr after them
  // Its own fields' values when a builder does not give them (nullptr: none).
  void (*defaults)(RangeProtocol* p);
  // Its own checks, after the shared ones (nullptr: none); InvalidParameter.
  void (*validate)(const RangeProtocol& p);
  // ---- its counters ----
  const char* arrays[2];    // the text form's names of the blocks ("levels", "sums")
  const char* count_noun;   // the counts in messages: "level counts"
  const char* segment_noun;  // a segment in messages: "level"
  int64_t (*counts)(const RangeProtocol& p);
  int64_t (*segment)(const RangeProtocol& p, int64_t i);
  // ---- its reports ----
  int64_t first_level;  // the report level of counts[0]
  void (*check_report)(const RangeProtocol& p, int64_t level, int64_t row);
  RangeReport (*encode)(const RangeProtocol& p, int64_t bucket, RandomSource& rng);
  // ---- its decode ----
  size_t (*prepared_bytes)(const RangeProtocol& p);  // a multiple of 8
  void (*prepare)(const RangeSummary& s, void* area);
  LinearAnswer (*prefix)(const RangeProtocol& p, const void* area, int64_t x);
  LinearAnswer (*range)(const RangeProtocol& p, const void* area, int64_t lo, int64_t hi);
  double (*prefix_cost)(const RangeProtocol& p);
  SwDensity (*density)(const RangePrepared& d, const SwDensityQuery& q);
};
const RangeMechanismImpl* range_impl_from_byte(uint8_t id);  // nullptr: unknown
const RangeMechanismImpl& range_impl(RangeMechanism id);     // Internal when unknown
// The registry's rows, in the order of their ids.
struct RangeImpls {
  const RangeMechanismImpl* const* first;
  size_t count;
  const RangeMechanismImpl* const* begin() const { return first; }
  const RangeMechanismImpl* const* end() const { return first + count; }
};
RangeImpls range_impls();
// The counters of a summary of this validated protocol: the counts, then every segment.
int64_t range_summary_cells(const RangeProtocol& p);

// ---- the HRR pieces of HaarHRR and hh (haar.cpp) ----
// A report's true sign, kept with probability e^ε/(e^ε+1), else flipped.
bool hrr_randomize(bool truth, double epsilon, RandomSource& rng);
// One level's estimates c/n·FWHT(S)[q] of its m = 2^r row sums into out (0 for n = 0),
// the transform exact in 64-bit integers (t: scratch).
void hrr_level_estimates(double c, int64_t n, const int64_t* sums, int64_t m, double* out, std::vector<uint64_t>& t);

}  // namespace ldp
