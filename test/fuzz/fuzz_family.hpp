// What ldp_summary_fuzz knows of a family of forms (summary_fuzz.cpp has the mean,
// frequency and sketch families, heavy_family.cpp the heavy-hitters summary and its
// protocol, rappor_family.cpp the RAPPOR summary, range_family.cpp the range summary and its
// protocol): its type, seeds, accessor queries and transition functions, and the
// pieces they are written with.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "fuzz_common.hpp"

namespace ldp_fuzz {

// the kinds of failure an accessor query's columns can show
inline const char* const kAccessorError = "accessor";  // an accessor failed outside class 22, or disagreed
inline const char* const kNonFinite = "non-finite";    // an accessor gave NaN or an infinity

// An accessor query on an accepted form. Every value it returns must be NULL or a
// finite number; its first columns, one per entry of `zero`, count disagreements (rows
// or answers that should not be) and must be 0.
struct Zero {
  const char* kind;  // the failure when the column is not 0
  const char* what;  // what the column counts
};
struct Query {
  std::string sql;
  std::vector<Zero> zero;
};

// count(*) FILTER (WHERE column c is not a finite number)
std::string nonfinite(const std::string& c);
std::string num(double v);  // %.17g
// rollup(s, s) of a family whose merge adds counters: n doubled, the same parameters
// (`params`, an SQL function of a summary, e.g. "ldp.protocol"), and s::ldp.summary::<type>
// reading back as s.
Query rollup_self(const std::string& s, const std::string& type, const std::string& params);

// What a state test reads off the state's text form (else defaults) to make reports
// that fit it: its own parameters, mostly.
struct StateParams {
  std::string eps, gamma;
  double max_value;
  long k, d, hashes, width, levels;
  std::string protocol;  // heavy: the state's protocol as an SQL expression (a constant)
  std::string form;      // the state's text form (for a family's other fields: RAPPOR's)
  unsigned variant;      // random: which odd reports to add, if any
};
// A few reports: VALUES rows, their column list and the aggregate's arguments over
// them; none when the state's parameters would make them too large.
struct Reports {
  std::string rows, cols, args;
};

// The transition functions of a family, with what a user-defined aggregate over them
// needs.
struct TransFn {
  const char* fn;        // ldp.<fn>
  const char* mech;      // the mechanism whose reports it adds
  const char* argtypes;  // the aggregate's arguments
  const char* agg;       // ldp's own aggregate over the same arguments
  Reports (*reports)(const StateParams&);
};

struct Family {
  const char* kind;  // its ldp.summary_kind; for a type that is no summary, a name
  const char* type;  // its SQL type
  const char* send;  // its send function
  const char* const (*seeds)[2];
  size_t seed_count;
  std::vector<Query> (*queries)(const std::string& s, const std::string& seed);
  const TransFn* trans;  // the state tests (none: trans_count 0)
  size_t trans_count;
  bool summary;  // an ldp.summary kind (casts, report_count, ...); else only its own I/O
  // Where a seed's binary form has its first 8-byte field and its counter-width byte
  // (format 3; 0: none): what the binary mutations aim at.
  void (*layout)(const Bytes& b, size_t* fields_start, size_t* counter_width_at);
};

extern const Family kHeavyFamily;          // ldp.heavy_summary (heavy_family.cpp)
extern const Family kHeavyProtocolFamily;  // ldp.heavy_protocol
extern const Family kRapporFamily;         // ldp.rappor_summary (rappor_family.cpp)
extern const Family kRangeFamily;          // ldp.range_summary (range_family.cpp)
extern const Family kRangeProtocolFamily;  // ldp.range_protocol

}  // namespace ldp_fuzz
