// Populations of simulated users holding a number (--distribution, common/numbers.hpp),
// and the reports their devices send with a range mechanism of the core library (the
// device SDK): the range family of ldp_load (its row: range_load.*) and its tests.
//
// generate_range_reports() maps every value to its bucket as the device does, encodes it,
// writes the report as COPY text, and keeps the truth (a count per bucket) and the local
// decoding (the summary the core builds from the same reports: what ldp.range_agg returns
// for the table). Nothing here talks to PostgreSQL (common/pg_load.hpp does).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/range/range_summary.hpp"
#include "tools/common/numbers.hpp"
#include "tools/common/population.hpp"

namespace ldp::tools {

struct RangeLoadSpec {
  RangeProtocol protocol;  // mechanism, ε, domain bits, mapping: what the devices use
  int64_t users = 0;
  Distribution distribution;
  std::optional<uint64_t> seed;  // none: SecureRandom for everything
  int64_t first_user_id = 1;
  std::vector<double> phis{0.5, 0.9, 0.99};  // the quantiles printed
};

// The protocol (the core's validation and the summary's cap, as UsageError), users >= 1,
// every φ in [0, 1].
void validate_spec(const RangeLoadSpec& spec);

// The largest value the population draws: the upper end of the protocol's top bucket
// (floor: 2^k; linear and log: hi). Values above are clamped to it, as a device would.
double range_max_value(const RangeProtocol& p);

// An owning, aligned range summary (the local decoding).
class RangeBuffer {
 public:
  RangeBuffer() = default;
  explicit RangeBuffer(const RangeProtocol& p);
  RangeSummary* get() { return reinterpret_cast<RangeSummary*>(buf_.data()); }
  const RangeSummary* get() const { return reinterpret_cast<const RangeSummary*>(buf_.data()); }
  bool empty() const { return buf_.empty(); }

 private:
  std::vector<uint64_t> buf_;
};

struct RangeQuantileLine {
  double phi;
  double truth;                 // the lower end of the true quantile's bucket
  double local, lower, upper;   // the local decoding's quantile and its 95% interval (as ldp.quantile)
};

struct RangeLoadResult {
  std::vector<int64_t> true_counts;  // users per bucket
  int64_t clamped = 0;               // values clamped into [0, range_max_value]
  RangeBuffer local;                 // the local decoding
  double seconds = 0;                // wall time of the load (set by load_spec, pg_load.hpp)
};

// The report columns (after user_id bigint and round integer), ldp.range_agg's arguments:
// level integer, hadamard_row bigint, report boolean (ldp.range_encode's columns: haar, hh),
// or report double precision (ldp.sw_encode's: sw).
std::vector<ReportColumn> range_report_columns(const RangeProtocol& p);

// Draws the population, encodes every value (range_encode, range_sw_encode) and hands the COPY text to
// sink in chunks of about chunk_bytes. With a seed the output is reproducible (the
// population and the encoders draw from two streams of it).
RangeLoadResult generate_range_reports(const Validated<RangeLoadSpec>& spec, const ChunkSink& sink,
                                       const ProgressFn& progress = {}, size_t chunk_bytes = size_t{1} << 20);

// The true and the locally decoded quantiles of a load, for each φ of the spec (a mechanism
// without linear answers, sw: the local ones NaN).
std::vector<RangeQuantileLine> range_quantile_lines(const RangeLoadSpec& spec, const RangeLoadResult& result);

}  // namespace ldp::tools
