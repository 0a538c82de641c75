// Populations of simulated users holding words, and the reports their devices send
// with a sketch frequency oracle of the core library (the device SDK): cms (Count Mean
// Sketch), hcms (Hadamard Count Mean Sketch) and hashtogram.
//
// generate_sketch_reports() draws every user's word from a word-count file (each word
// with probability count / total), encodes it with the core's encoder (cms_encode,
// hcms_encode, hashtogram_encode), formats the report as PostgreSQL COPY text, and
// tallies the truth (how many users hold each word) and a local decoder state (a
// SketchSummary fed with the same reports): its estimates are exactly what
// ldp.frequencies(<aggregate>, items) returns for the loaded table. Nothing here talks
// to PostgreSQL (common/pg_load.hpp does). The sketch family of ldp_load: its row is
// sketch_load.*.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/common/random.hpp"
#include "core/sketch/sketch_summary.hpp"
#include "tools/common/items.hpp"
#include "tools/common/population.hpp"

namespace ldp::tools {

// "cms", "hcms", "hashtogram" (the core's names).
const char* sketch_mechanism_name(SketchMechanism m);
std::optional<SketchMechanism> parse_sketch_mechanism(const std::string& name);

// Every word of a word-count file (read_word_counts: word<TAB>count, optional header),
// drawn with probability count / (the file's total count). Word i is the i-th most
// frequent (ties keep the file's order). A word listed twice is refused (UsageError):
// its truth would be split between two items while its reports are one string.
class WordPopulation {
 public:
  explicit WordPopulation(const std::string& path);
  int64_t next(RandomSource& rng) const;
  const std::vector<std::string>& words() const { return words_; }

 private:
  std::vector<std::string> words_;
  std::vector<double> cdf_;  // cumulative counts
};

struct SketchLoadSpec {
  SketchMechanism mechanism = SketchMechanism::HCMS;
  double epsilon = 0;
  int64_t hashes = 0;  // rows of the sketch
  int64_t width = 0;   // columns (hcms, hashtogram: a power of two)
  int64_t users = 0;
  std::string words_path;        // the word-count file
  std::optional<uint64_t> seed;  // none: SecureRandom for everything
  int64_t first_user_id = 1;
  bool local_decode = true;      // feed a local SketchSummary
};

// Checks the combination of options (UsageError naming the option).
void validate_spec(const SketchLoadSpec& spec);

// A SketchSummary in owned, 8-byte aligned memory.
class LocalSketch : public LocalState<SketchSummary> {
 public:
  LocalSketch(SketchMechanism id, const SketchParams& p);
  // The core's text form, as ldp.sketch_summary prints (v1:hcms{epsilon=...,sums=[...]}).
  std::string text() const;
};

// The rows of ldp.frequencies(s, items) for these items, in order, computed as the
// extension computes them (prepare once, then one estimate per item; the 95% interval
// is frequency ± z·std_error). Empty when s.n == 0 (the SQL function returns no rows).
std::vector<ItemEstimate> local_sketch_frequencies(const SketchSummary& s,
                                                   const std::vector<std::string>& items);

struct SketchLoadResult {
  ItemTally truth;                  // item i = words[i]
  std::optional<LocalSketch> local; // absent without local_decode
  std::vector<std::string> words;   // the file's words, most frequent first
  double seconds = 0;               // wall time of the load (set by load_spec, pg_load.hpp)
};

// COPY text rows "user_id\tround\thash_index\t<report columns>\n", appended to out.
// cms: the width bits as a varbit (MSB-first bytes; X<hex> when width is a multiple of
// 4, else 0/1); hcms and hashtogram: coefficient, then report as t/f (+1 is t).
void append_cms_row(std::string& out, int64_t user_id, int round, int64_t hash_index,
                    const uint8_t* bytes, int64_t width);
void append_signed_sketch_row(std::string& out, int64_t user_id, int round, int64_t hash_index,
                              int64_t coefficient, bool plus_one);

// Draws the population, encodes every report with the core library and hands the
// COPY text to sink in chunks of about chunk_bytes. With a seed the output is
// reproducible; the population uses one stream and the encoders another (as the
// frequency-oracle loader), so one seed gives the same words for every mechanism.
SketchLoadResult generate_sketch_reports(const Validated<SketchLoadSpec>& spec, const ChunkSink& sink,
                                         const ProgressFn& progress = {},
                                         size_t chunk_bytes = size_t{1} << 20);

// The report columns of a mechanism (after user_id bigint and round integer):
// cms hash_index integer, report bit varying; hcms and hashtogram hash_index integer,
// coefficient integer, report boolean. The aggregates' arguments, in order.
std::vector<ReportColumn> sketch_report_columns(SketchMechanism m);

}  // namespace ldp::tools
