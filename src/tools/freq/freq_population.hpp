// Populations of simulated users holding items of [0, k), and the reports their
// devices send with a frequency oracle of the core library (the device SDK): GRR,
// SUE, OUE, dBitFlip (and dBitFlipPM: a DBitFlipClient per user across rounds), OLH
// and Hadamard response.
//
// generate_freq_reports() draws every user's item, encodes it with the core's
// encoder, formats the report as PostgreSQL COPY text, and tallies the truth (how
// many users hold each item) and a local decoder state (a FreqSummary fed with the
// same reports): its frequencies are exactly what ldp.frequencies(<aggregate>)
// returns for the loaded table. Nothing here talks to PostgreSQL (common/pg_load.hpp
// does). The frequency family of ldp_load: its row is freq_load.*.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/common/random.hpp"
#include "core/freq/freq_summary.hpp"
#include "tools/common/items.hpp"
#include "tools/common/population.hpp"

namespace ldp::tools {

// Draws users' items in [0, k).
//   uniform      every item with probability 1/k
//   zipf:S       item i with probability proportional to (i+1)^-S
//   constant:V   every user holds V
//   words:PATH   item i is the word of rank i (0 = most frequent) among the top k
//                words of the file; a user holds it with probability count_i / (sum of
//                the top k counts). Words outside the top k are not drawn. With fewer
//                than k words in the file, the items past the last word are never held.
class ItemPopulation {
 public:
  // Validates the distribution against k (UsageError) and reads the word file.
  ItemPopulation(const ItemDistribution& d, int64_t k);

  int64_t next(RandomSource& rng) {
    switch (d_.kind) {
      case ItemDistribution::Kind::Uniform:
        return static_cast<int64_t>(rng.below(static_cast<uint64_t>(k_)));
      case ItemDistribution::Kind::Constant:
        return d_.value;
      default:
        return draw_cdf(rng);
    }
  }

  int64_t k() const { return k_; }
  const ItemDistribution& distribution() const { return d_; }
  // words: words()[i] is item i's word (i < words().size() <= k); empty otherwise.
  const std::vector<std::string>& words() const { return words_; }
  // words: the number of words in the file, and the share of the file's total count
  // that the top k words hold (the rest is not drawn). 0 and 1 for the others.
  int64_t words_in_file() const { return words_in_file_; }
  double top_k_share() const { return top_k_share_; }

 private:
  int64_t draw_cdf(RandomSource& rng) const;

  ItemDistribution d_;
  int64_t k_;
  std::vector<double> cdf_;  // zipf and words: cumulative weights
  std::vector<std::string> words_;
  int64_t words_in_file_ = 0;
  double top_k_share_ = 1;
};

// ---------------------------------------------------------------------------
// Loads

// "grr", "sue", "oue", "dbitflip", "olh", "hadamard" (the core's names).
const char* freq_mechanism_name(FreqMechanism m);
std::optional<FreqMechanism> parse_freq_mechanism(const std::string& name);

struct FreqLoadSpec {
  FreqMechanism mechanism = FreqMechanism::GRR;
  double epsilon = 0;
  int64_t k = 0;
  int64_t d = 0;              // dbitflip: buckets per report (required); 0 otherwise
  bool memoize = false;       // dbitflip: every user is a DBitFlipClient (dBitFlipPM)
  int rounds = 1;             // with memoize: rounds collected from every user
  double redraw = 0;          // rounds > 1: each later round a user draws a new item
                              // from the distribution with this probability
  int64_t users = 0;
  ItemDistribution distribution;
  std::optional<uint64_t> seed;  // none: SecureRandom for everything
  int64_t first_user_id = 1;
  bool local_decode = true;   // feed a local FreqSummary (OLH: O(k) hashes per report)
};

// Checks the combination of options (UsageError naming the option).
void validate_spec(const FreqLoadSpec& spec);

// A FreqSummary in owned, 8-byte aligned memory.
class LocalSummary : public LocalState<FreqSummary> {
 public:
  LocalSummary(FreqMechanism id, const FreqParams& p);
  // The core's text form, as ldp.freq_summary prints (v1:grr{epsilon=...,counts=[...]}).
  std::string text() const;
};

// One row of ldp.frequencies(s, consistency) per item, computed as the extension computes it.
// Empty when s.n == 0 (the SQL function returns no rows then).
std::vector<ItemEstimate> local_frequencies(const FreqSummary& s,
                                            Consistency c = Consistency::None);

// The truth and the local decoder state of a set of reports (a round, or all).
struct FreqTally : ItemTally {
  std::optional<LocalSummary> local;  // absent without local_decode
};

struct FreqLoadResult {
  FreqTally total;
  std::vector<FreqTally> rounds;   // rounds[r - 1] is round r (only when rounds > 1)
  std::vector<std::string> words;  // words: item -> word
  int64_t words_in_file = 0;
  double top_k_share = 1;
  double seconds = 0;              // wall time of the load (set by load_spec, pg_load.hpp)
};

// COPY text rows "user_id\tround\t<report columns>\n", appended to out.
void append_grr_row(std::string& out, int64_t user_id, int round, int64_t item);
// SUE / OUE: the k bits as a varbit (append_varbit).
void append_unary_row(std::string& out, int64_t user_id, int round, const uint8_t* bytes,
                      int64_t k);
void append_dbitflip_row(std::string& out, int64_t user_id, int round, const int32_t* buckets,
                         const bool* bits, int64_t d);
void append_olh_row(std::string& out, int64_t user_id, int round, int64_t seed, int64_t y);
void append_hadamard_row(std::string& out, int64_t user_id, int round, int64_t row,
                         bool plus_one);

// Draws the population, encodes every report with the core library (grr_encode,
// sue_encode, oue_encode, dbitflip_encode or DBitFlipClient, olh_encode,
// hadamard_encode) and hands the COPY text to sink in chunks of about chunk_bytes.
// With a seed the output is reproducible; the population uses one stream and the
// encoders another, so one seed gives the same items for every mechanism.
FreqLoadResult generate_freq_reports(const Validated<FreqLoadSpec>& spec, const ChunkSink& sink,
                                     const ProgressFn& progress = {},
                                     size_t chunk_bytes = size_t{1} << 20);

// ---------------------------------------------------------------------------
// Tables

// The report columns of a mechanism (after user_id bigint and round integer):
// grr report integer; sue/oue report bit varying; dbitflip buckets integer[],
// bits boolean[]; olh seed bigint, report integer; hadamard "row" integer, report boolean.
std::vector<ReportColumn> freq_report_columns(FreqMechanism m);

}  // namespace ldp::tools
