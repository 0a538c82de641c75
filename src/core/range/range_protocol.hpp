// Numeric distributions (docs/algorithms/ranges.md): a device maps one real value to
// a bucket of the domain [0, 2^k) and reports it with one of the range mechanisms; the
// server answers range counts, CDFs and quantiles with their standard errors.
//
// The protocol says how: ε, the domain's bits k, the mechanism (a row of the registry,
// range_internal.hpp: HaarHRR, hierarchical histograms, Square Wave), its own fields (hh's
// branching), and the mapping of a value to its bucket:
// - floor: bucket = clamp(floor(v), 0, 2^k − 1), so a latency in ms is one call and a
//   bucket is the value interval [b, b + 1);
// - linear over [lo, hi): 2^k buckets of equal width (hi − lo)/2^k, clamped;
// - log over [lo, hi), 0 < lo: buckets of equal width in ln v, clamped (v <= lo in
//   bucket 0).
// NaN is refused; an infinite value clamps like any other.
//
// Text form (ldp.range_protocol's, and the head of a summary's):
//   v1:haar{epsilon=1,domain_bits=16,mapping=floor}
//   v1:haar{epsilon=1,domain_bits=12,mapping=log,lo=1,hi=60000}
//   v1:hh{epsilon=1,domain_bits=16,branching=4,mapping=floor}
// fields in this order, lo and hi only for linear and log, a mechanism's own fields (its
// registry row's) after domain_bits. Binary form: u8 version (1), then the fields as a
// summary's stored form holds them (range_summary.hpp): u8 mechanism, u8 mapping, f64
// epsilon, i64 domain_bits, f64 lo, f64 hi, then an i64 per own field, big-endian.
// Parsing is strict and validates (InvalidText, InvalidBinary).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace ldp {

enum class RangeMechanism : uint8_t { Haar = 1, Hh = 2, Sw = 3 };
enum class RangeMapping : uint8_t { Floor = 1, Linear = 2, Log = 3 };

// The widest domain: 2^24 buckets (HaarHRR keeps 2^k − 1 coefficients, hh up to 2^(k+1)).
constexpr int kMaxRangeDomainBits = 24;

struct RangeProtocol {
  double epsilon = 1;
  int domain_bits = 16;
  RangeMechanism mechanism = RangeMechanism::Haar;
  RangeMapping mapping = RangeMapping::Floor;
  double lo = 0;  // linear and log mappings: the value interval [lo, hi)
  double hi = 0;
  int64_t branching = 0;  // hh's own field (hh.hpp): 2 or 4; 0 for every other mechanism

  int64_t domain() const { return int64_t{1} << domain_bits; }
};

// A report of the (level, hadamard_row, report) wire format (HaarHRR; range_agg's
// columns): the level, the Hadamard row and the randomized sign (+1 as true).
struct RangeReport {
  int level;
  int64_t row;
  bool plus_one;
};

// InvalidParameter unless ε is in range, 1 <= domain_bits <= kMaxRangeDomainBits, the
// mechanism and mapping are known, a linear (log) mapping has finite lo < hi (0 < lo and
// a finite ratio hi/lo > 1), a floor mapping has lo = hi = 0 (so that equal protocols
// have equal fields), another mechanism's own fields are 0 and the mechanism's own
// checks pass.
void validate_range_protocol(const RangeProtocol& p);
// Field by field, own fields too (a summary may only merge with one of the same protocol).
bool same_range_protocol(const RangeProtocol& a, const RangeProtocol& b);

const char* range_mechanism_name(RangeMechanism m);
const char* range_mapping_name(RangeMapping m);
// By name (the registry's: "haar", "hh"; "floor", "linear", "log"); InvalidParameter
// naming the known ones.
RangeMechanism range_mechanism_from_name(const char* name);
RangeMapping range_mapping_from_name(const char* name);
// A text form's "v1:<name>{": true for a range mechanism's name.
bool range_mechanism_known(const char* name, size_t len);

// A builder: range_protocol_defaults sets the mechanism's own fields to its defaults (hh:
// B = 4); then range_protocol_give sets a field given by name (the SQL builder's
// branching) when p's mechanism has it, else InvalidParameter naming its owner; the
// validation checks the value.
void range_protocol_give(RangeProtocol* p, const char* key, int64_t value);
bool range_protocol_takes(const RangeProtocol& p, const char* key);  // p's mechanism has the field
void range_protocol_defaults(RangeProtocol* p);

std::string range_protocol_to_text(const RangeProtocol& p);
RangeProtocol range_protocol_from_text(const char* text);  // InvalidText
// Bytes of p's binary form (1 + 34 + 8 per own field).
size_t range_protocol_binary_size(const RangeProtocol& p);
constexpr size_t kMaxRangeProtocolBinarySize = 1 + 2 + 4 * 8 + 2 * 8;
void range_protocol_to_binary(const RangeProtocol& p, uint8_t* out, size_t cap);
RangeProtocol range_protocol_from_binary(const uint8_t* bytes, size_t len);  // InvalidBinary

// The bucket of a value under the protocol's mapping; InvalidParameter for NaN.
int64_t range_bucket(const RangeProtocol& p, double value);
// The value interval [lower, upper) of bucket b (for floor: [b, b + 1)).
double range_bucket_lower(const RangeProtocol& p, int64_t b);
double range_bucket_upper(const RangeProtocol& p, int64_t b);

}  // namespace ldp
