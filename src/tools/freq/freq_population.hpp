// Populations of simulated users holding items of [0, k), and the reports their
// devices send with a frequency oracle of the core library (the device SDK): GRR,
// SUE, OUE, dBitFlip (and dBitFlipPM: a DBitFlipClient per user across rounds), OLH
// and Hadamard response.
//
// generate_freq_reports() draws every user's item, encodes it with the core's
// encoder, formats the report as PostgreSQL COPY text, and tallies the truth (how
// many users hold each item) and a local decoder state (a FreqSummary fed with the
// same reports): its frequencies are exactly what ldp.frequencies(<aggregate>)
// returns for the loaded table. Nothing here talks to PostgreSQL (pg_load.hpp does).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/common/random.hpp"
#include "core/freq/freq_summary.hpp"
#include "tools/mean/mean_population.hpp"  // UsageError, ChunkSink, ProgressFn, mix_seed

namespace ldp::tools {

// ---------------------------------------------------------------------------
// Distributions of the users' items

struct ItemDistribution {
  enum class Kind { Uniform, Zipf, Constant, Words };
  Kind kind = Kind::Uniform;
  double s = 0;        // zipf: P(item i) proportional to (i+1)^-S
  int64_t value = 0;   // constant: V
  std::string path;    // words: PATH
  std::string spec;    // as written by the user
};

// Parses uniform | zipf:S | constant:V | words:PATH. Throws UsageError.
ItemDistribution parse_item_distribution(const std::string& spec);

struct WordCount {
  std::string word;
  int64_t count = 0;
};

// A word-count file: tab-separated lines `word<TAB>count` (count a non-negative
// integer), an optional header line first (a line whose count is not a number),
// blank lines skipped. Returns the words ordered by count, most frequent first
// (ties keep the file's order: a file already sorted keeps its order). Throws
// UsageError naming the line of a malformed entry.
std::vector<WordCount> read_word_counts(const std::string& path);

// The index i of a draw from cumulative weights cdf (non-decreasing, cdf.back() > 0):
// P(i) = (cdf[i] - cdf[i-1]) / cdf.back().
inline size_t draw_cdf_index(const std::vector<double>& cdf, RandomSource& rng) {
  const double u = rng.uniform() * cdf.back();
  const auto i = static_cast<size_t>(std::upper_bound(cdf.begin(), cdf.end(), u) - cdf.begin());
  return i < cdf.size() ? i : cdf.size() - 1;
}

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
void validate_freq_spec(const FreqLoadSpec& spec);

// A FreqSummary in owned, 8-byte aligned memory.
class LocalSummary {
 public:
  LocalSummary(FreqMechanism id, const FreqParams& p);
  FreqSummary* get() { return reinterpret_cast<FreqSummary*>(mem_.data()); }
  const FreqSummary& operator*() const {
    return *reinterpret_cast<const FreqSummary*>(mem_.data());
  }
  const FreqSummary* operator->() const { return &**this; }
  // The core's text form, as ldp.freq_summary prints (v1:grr{epsilon=...,counts=[...]}).
  std::string text() const;

 private:
  std::vector<int64_t> mem_;
};

// One row of ldp.frequencies(s, consistency), computed as the extension computes it.
struct ItemEstimate {
  double frequency = 0, count = 0, std_error = 0, ci_lower = 0, ci_upper = 0;
};
// Empty when s.n == 0 (the SQL function returns no rows then).
std::vector<ItemEstimate> local_frequencies(const FreqSummary& s,
                                            Consistency c = Consistency::None);

// The truth and the local decoder state of a set of reports (a round, or all).
struct FreqTally {
  int64_t reports = 0;
  std::vector<int64_t> true_counts;   // per item: the users' items behind the reports
  std::optional<LocalSummary> local;  // absent without local_decode
  double true_frequency(int64_t item) const {
    return reports > 0 ? static_cast<double>(true_counts[static_cast<size_t>(item)]) /
                             static_cast<double>(reports)
                       : 0.0;
  }
  // The items ordered by true count, most frequent first (ties: smaller item first).
  std::vector<int64_t> top_items(size_t limit) const;
};

struct FreqLoadResult {
  FreqTally total;
  std::vector<FreqTally> rounds;   // rounds[r - 1] is round r (only when rounds > 1)
  std::vector<std::string> words;  // words: item -> word
  int64_t words_in_file = 0;
  double top_k_share = 1;
  double seconds = 0;              // wall time of the load (set by load_freq_reports)
};

// COPY text rows "user_id\tround\t<report columns>\n", appended to out.
void append_grr_row(std::string& out, int64_t user_id, int round, int64_t item);
// SUE / OUE: the k bits (MSB-first bytes, the core's layout) as a varbit: the hex
// form X... when k is a multiple of 4 (a quarter of the text), else the 0/1 string.
void append_unary_row(std::string& out, int64_t user_id, int round, const uint8_t* bytes,
                      int64_t k);
// The varbit field alone (no tab or newline): nbits MSB-first bits of bytes, as above.
void append_varbit(std::string& out, const uint8_t* bytes, int64_t nbits);
// An integer field (no tab), as COPY reads it.
void append_int_field(std::string& out, int64_t v);
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
FreqLoadResult generate_freq_reports(const FreqLoadSpec& spec, const ChunkSink& sink,
                                     const ProgressFn& progress = {},
                                     size_t chunk_bytes = size_t{1} << 20);

// ---------------------------------------------------------------------------
// Tables

struct FreqColumn {
  const char* name;      // as stored in pg_attribute
  const char* sql_type;  // as format_type() prints it (varbit: "bit varying", any length)
};
// The report columns of a mechanism (after user_id bigint and round integer):
// grr report integer; sue/oue report bit varying; dbitflip buckets integer[],
// bits boolean[]; olh seed bigint, report integer; hadamard "row" integer, report boolean.
std::vector<FreqColumn> freq_report_columns(FreqMechanism m);
// All the COPY columns, quoted: "user_id", "round", then the report columns.
std::vector<std::string> freq_copy_columns(FreqMechanism m);
// CREATE TABLE IF NOT EXISTS with that layout (every column NOT NULL).
std::string freq_create_table_sql(const std::string& quoted_table, FreqMechanism m);
// The same two for any report columns (the sketch loader's too).
std::vector<std::string> report_copy_columns(const std::vector<FreqColumn>& report_columns);
std::string report_create_table_sql(const std::string& quoted_table,
                                    const std::vector<FreqColumn>& report_columns);
// Quotes one identifier: "row" -> "\"row\"".
std::string quote_ident(const std::string& name);

}  // namespace ldp::tools
