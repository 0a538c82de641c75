// Populations of simulated users holding numbers, and the reports their devices send with
// a mean mechanism of the core library (rr, onebit, laplace, piecewise): the mean family
// of ldp_load (its row: mean_load.*) and its tests.
//
// A Population draws each user's true value in [0, max_value] from a distribution.
// generate_reports() encodes every value with a mechanism of the core library (the
// device SDK) and formats the reports as PostgreSQL COPY text, while it tallies the
// truth (the population's mean) and decodes the reports locally with the core's
// decoder: that local estimate is exactly what the ldp aggregates must return for
// the same rows. Nothing here talks to PostgreSQL (common/pg_load.hpp does).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/common/random.hpp"
#include "core/common/stats.hpp"
#include "tools/common/numbers.hpp"
#include "tools/common/population.hpp"

namespace ldp::tools {

// ---------------------------------------------------------------------------
// Mechanisms and loads

enum class Mechanism { RR, OneBit, Laplace, Piecewise };

const char* mechanism_name(Mechanism m);                    // "rr", "onebit", ...
std::optional<Mechanism> parse_mechanism(const std::string& name);
bool real_valued(Mechanism m);                              // reports are float8, else boolean
const char* report_sql_type(Mechanism m);                   // "boolean" or "double precision"

struct LoadSpec {
  Mechanism mechanism = Mechanism::RR;
  double epsilon = 0;
  double max_value = 1;       // rr: always 1 (a proportion)
  double gamma = 0;           // onebit: output perturbation in [0, 0.5)
  double granularity = 0;     // onebit: > 0 makes every user a OneBitMeanClient (alpha-point
                              // rounding on this grid, permanent memoization)
  int rounds = 1;             // onebit with a client: rounds collected from each user
  bool constant_users = false;  // rounds > 1: each user keeps its value every round
  double drift = 0.2;         // rounds > 1: each round a user's value is
                              // base * uniform(1 - drift, 1 + drift), clamped to [0, max_value]
  int64_t users = 0;
  Distribution distribution;
  std::optional<uint64_t> seed;  // none: SecureRandom for everything
  int64_t first_user_id = 1;
};

// Checks the combination of options (UsageError with a message naming the option).
void validate_spec(const LoadSpec& spec);

// What a set of reports (one round, or all of them) holds.
struct Tally {
  int64_t reports = 0;
  double true_mean = 0;    // mean of the true values behind the reports (rr: the proportion)
  int64_t ones = 0;        // bit mechanisms: reports that are true
  double report_sum = 0;   // sum of the reports (correctly rounded exact sum)
  double report_mean = 0;  // plain mean of the reports: SQL avg(report::int) / avg(report)
  Estimate estimate;       // the core decoder on these reports: what ldp's aggregate returns
};

struct LoadResult {
  Tally total;
  std::vector<Tally> rounds;   // rounds[r - 1] is round r
  int64_t clamped = 0;         // population values clamped into [0, max_value]
  double effective_epsilon = 0;  // the one-round privacy (onebit with gamma: after perturbation)
  std::string summary;         // the local decoder's text form, all rounds: (aggregate)::text
  double seconds = 0;          // wall time of the load (set by load_spec in pg_load.hpp)
};

// One COPY text line "user_id\tround\treport\n", appended to out.
void append_row(std::string& out, int64_t user_id, int round, bool report);
void append_row(std::string& out, int64_t user_id, int round, double report);

// Draws the population, encodes every report with the core library (rr_encode,
// onebit_mean_encode + output_perturb, OneBitMeanClient, laplace_mean_encode,
// piecewise_mean_encode) and hands the COPY text to sink in chunks of about
// chunk_bytes. With a seed the output is reproducible: the population uses one
// stream derived from the seed and the encoders another, so one seed gives the same
// population for every mechanism.
LoadResult generate_reports(const Validated<LoadSpec>& spec, const ChunkSink& sink, const ProgressFn& progress = {},
                            size_t chunk_bytes = size_t{1} << 20);

// The report column of a mechanism (after user_id bigint and round integer): report
// boolean, or double precision for laplace and piecewise.
std::vector<ReportColumn> mean_report_columns(Mechanism m);

}  // namespace ldp::tools
