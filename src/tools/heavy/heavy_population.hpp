// Populations of simulated users holding words or 64-bit integer ids, and the reports
// their devices send with a heavy-hitters protocol (TreeHist,
// docs/algorithms/heavy-hitters.md#treehist; Bitstogram, PEM and SFP) through the core
// library's device SDK (treehist_encode, bitstogram_encode, pem_encode, sfp_encode and their
// integer forms).
//
// generate_heavy_reports() builds the protocol from the options (heavy_protocol_build,
// what ldp.<mechanism>_protocol and ldp.treehist_int8_protocol call), draws every user's
// item, encodes it, formats the report as PostgreSQL COPY text and tallies the truth
// (how many users hold each item) and a local decoder state (a HeavySummary fed with
// the same reports): its heavy hitters are exactly what ldp.heavy_hitters(<aggregate>)
// returns for the loaded table. Nothing here talks to PostgreSQL (common/pg_load.hpp
// does). The heavy-hitters family of ldp_load: its row is heavy_load.*.
//
// Items:
//   words   a word-count file (word<TAB>count, as read_word_counts): a user holds each
//           word the protocol can encode with probability count / (the total count of
//           those words). Words it cannot encode (a character outside the alphabet, too
//           long, ...) are skipped and counted (HeavyWords::skipped). With lowercase,
//           ASCII letters are folded to lower case first and the counts of words that
//           become equal are added.
//   zipf    ids of ranks 0..k-1 with P(rank i) ~ (i+1)^-s, an int64 protocol. The id of
//           rank i is i + 1 (ids "ranks") or a fixed scrambling of i that spreads the
//           ids over the 64-bit range (ids "scrambled", the default: ldp's splitmix64
//           finalizer, a bijection, so distinct ranks have distinct ids).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/common/random.hpp"
#include "core/heavy/heavy_summary.hpp"
#include "tools/common/items.hpp"
#include "tools/common/population.hpp"

namespace ldp::tools {

struct HeavyLoadSpec {
  // The protocol, as the SQL builders take it: 0 (or an empty alphabet) leaves a
  // parameter to the defaults. bytes_domain: ldp.treehist_protocol(..., alphabet => NULL).
  HeavyMechanism mechanism = HeavyMechanism::TreeHist;
  double epsilon = 0;
  int64_t expected_users = 0;  // 0: users
  std::string alphabet;        // empty: "abc...z"
  bool bytes_domain = false;
  int64_t max_length = 0, chars_per_level = 0, hashes = 0, width = 0;
  int64_t start_length = -1;  // PEM's s0 (-1: the default)

  int64_t users = 0;
  std::string words_path;    // words: the word-count file; empty: zipf integers
  bool lowercase = false;    // words: fold ASCII A-Z to a-z, adding up counts
  double zipf_s = 0;         // zipf: the exponent, > 0
  int64_t k = 0;             // zipf: ranks 0..k-1
  bool scrambled_ids = true; // zipf: ids spread over int64 (else rank + 1)
  std::optional<uint64_t> seed;  // none: SecureRandom for everything
  int64_t first_user_id = 1;
  bool local_decode = true;  // feed a local HeavySummary
  bool integers() const { return words_path.empty(); }
};

// A seeded spec of m's defaults at ε = 2 for users holding the words of a file (tests,
// benches; an empty path for Zipf ids, whose zipf_s and k the caller sets).
HeavyLoadSpec heavy_words_spec(HeavyMechanism m, const std::string& path, int64_t users, uint64_t seed);

// The heavy-hitters mechanism of a --mechanism name (treehist, bitstogram, pem, sfp):
// false for any other name.
bool parse_heavy_mechanism(const std::string& name, HeavyMechanism* out);

// Checks the options and builds the protocol as the SQL builders do (UsageError naming
// the options, also when the core refuses the protocol); returns the protocol.
HeavyProtocol validate_spec(const HeavyLoadSpec& spec);

// A validated heavy-hitters spec keeps the protocol its validation built.
template <>
class Validated<HeavyLoadSpec> {
 public:
  Validated(const HeavyLoadSpec& spec) : spec_(spec), protocol_(validate_spec(spec_)) {}  // NOLINT
  const HeavyLoadSpec& operator*() const { return spec_; }
  const HeavyLoadSpec* operator->() const { return &spec_; }
  const HeavyProtocol& protocol() const { return protocol_; }

 private:
  HeavyLoadSpec spec_;
  HeavyProtocol protocol_;
};

// The word file under a protocol: the words it can encode, most frequent first, and
// what was skipped.
struct HeavyWords {
  std::vector<std::string> words;  // encodable, by count descending (ties: file order)
  std::vector<int64_t> counts;
  int64_t in_file = 0;             // words in the file
  int64_t folded = 0;              // lowercase: words merged into another
  int64_t skipped = 0;             // words the protocol cannot encode
  double skipped_share = 0;        // their share of the file's total count
  std::vector<std::string> skipped_examples;  // the first few, most frequent first, with why
};
HeavyWords read_heavy_words(const HeavyLoadSpec& spec, const HeavyProtocol& p);

// The id of rank i (zipf).
int64_t heavy_zipf_id(const HeavyLoadSpec& spec, int64_t rank);

// A HeavySummary in owned, 8-byte aligned memory.
class LocalHeavy : public LocalState<HeavySummary> {
 public:
  explicit LocalHeavy(const HeavyProtocol& p);
  std::string text() const;  // as ldp.heavy_summary prints
  // heavy_hitters(summary) at the default threshold (q.threshold < 0) or at q's.
  HeavyHitters hitters(const HeavyHittersQuery& q = {}) const;
  // The final oracle's estimates of these items (strings; integers as decimal text).
  std::vector<HeavyEstimate> frequencies(const std::vector<std::string>& items) const;
};

struct HeavyLoadResult {
  HeavyProtocol protocol{};
  ItemTally truth;                 // item i = items[i]
  std::vector<std::string> items;  // words, or ids as decimal text
  HeavyWords words;                // words: the file under the protocol (items = words.words)
  std::optional<LocalHeavy> local; // absent without local_decode
  double seconds = 0;              // wall time of the load (set by load_spec, pg_load.hpp)
};

// Recall and precision of returned items against the true set {v: true count >= τ}.
struct HeavyQuality {
  int64_t true_heavy = 0, returned = 0, hits = 0;
  double recall = 1, precision = 1;
};
HeavyQuality heavy_quality(const HeavyLoadResult& r, const HeavyHitters& h);

// COPY text row "user_id\t1\tlevel\thash_index\tcoefficient\tprefix\titem\n", appended.
void append_treehist_row(std::string& out, int64_t user_id, const HeavyReport& r);

// Draws the population, encodes every report with the core library and hands the COPY
// text to sink in chunks of about chunk_bytes (an empty sink: no text is made, for
// simulations that only decode locally). With a seed the output is reproducible: the
// population uses one stream and the encoder another (as the other loaders).
HeavyLoadResult generate_heavy_reports(const Validated<HeavyLoadSpec>& spec, const ChunkSink& sink,
                                       const ProgressFn& progress = {}, size_t chunk_bytes = size_t{1} << 20);

// The report columns (after user_id bigint and round integer), ldp.<mechanism>_agg's
// arguments: treehist level, hash_index, coefficient integer, prefix_report, item_report
// boolean; pem group_index, hash_index, coefficient integer, report boolean; sfp
// fragment_start, hash_index, coefficient integer, fragment_report boolean,
// word_hash_index, word_coefficient integer, word_report boolean; bitstogram coordinate,
// hadamard_row integer, symbol_report boolean, hash_index, coefficient integer,
// item_report boolean.
std::vector<ReportColumn> heavy_report_columns(HeavyMechanism m = HeavyMechanism::TreeHist);

}  // namespace ldp::tools
