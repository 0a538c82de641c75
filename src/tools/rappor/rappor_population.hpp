// Populations of simulated devices holding words or Zipf-ranked ids, and the RAPPOR
// reports they send (docs/algorithms/rappor.md) through the core library's device SDK
// (rappor_encode: Bloom filter, PRR memoized by the device's secret, fresh IRR).
//
// Every device gets a cohort drawn uniformly from [0, cohorts) and its own secret (16
// random bytes; from the seed's population stream when seeded, else the kernel's
// generator), holds one item and sends one report. generate_rappor_reports() formats the
// rows as COPY text (user_id, round 1, cohort, report in the client's bit order: what
// ldp.rappor_agg(cohort, report, ...) reads), tallies the truth and feeds a local
// RapporAccumulator with the same reports: rappor_decode of it is what
// ldp.rappor_decode(ldp.rappor_agg(...), candidates) returns for the loaded table.
// Nothing here talks to PostgreSQL (common/pg_load.hpp does). The RAPPOR family of
// ldp_load: its row is rappor_load.*.
//
// Items:
//   words   a word-count file (read_word_counts): a device holds each word with
//           probability count / total; any bytes (RAPPOR hashes the item's bytes).
//   zipf    ids "1".."k" (decimal text: rank i is "i+1") with P(rank i) ~ (i+1)^-s.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/rappor/rappor_summary.hpp"
#include "tools/common/items.hpp"
#include "tools/common/population.hpp"

namespace ldp::tools {

struct RapporLoadSpec {
  RapporParams params;      // bits, hashes, cohorts, f, p, q: what the devices use
  int64_t users = 0;
  std::string words_path;   // words: the word-count file; empty: zipf ids
  double zipf_s = 0;        // zipf: the exponent, > 0
  int64_t k = 0;            // zipf: ranks 0..k-1
  std::optional<uint64_t> seed;  // none: SecureRandom for everything
  int64_t first_user_id = 1;
  bool local_decode = true;      // feed a local RapporAccumulator
  bool integers() const { return words_path.empty(); }
};

// Checks the options (UsageError naming the option; the core's refusals of the
// parameters with their message).
void validate_spec(const RapporLoadSpec& spec);

struct RapporLoadResult {
  ItemTally truth;                 // item i = items[i]
  std::vector<std::string> items;  // words by count descending, or ids "1".."k"
  std::optional<RapporAccumulator> local;  // absent without local_decode
  double seconds = 0;              // wall time of the load (set by load_spec, pg_load.hpp)
};

// The report columns after user_id bigint and round integer: cohort integer, report
// bit varying.
std::vector<ReportColumn> rappor_report_columns();

// Draws the population, encodes every report with the core library and hands the COPY
// text to sink in chunks of about chunk_bytes (an empty sink: no text is made). With a
// seed the output is reproducible: cohorts, secrets and items use one stream, the IRR
// another.
RapporLoadResult generate_rappor_reports(const Validated<RapporLoadSpec>& spec, const ChunkSink& sink,
                                         const ProgressFn& progress = {}, size_t chunk_bytes = size_t{1} << 20);

}  // namespace ldp::tools
