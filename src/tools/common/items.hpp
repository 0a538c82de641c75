// The base of the populations of items (the frequency oracles, the sketches, the heavy
// hitters, RAPPOR): word-count files, draws from cumulative weights, the truth of a set
// of reports (how many users hold each item), a core summary held as the local decoding,
// and the lines the item loaders print alike.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "core/common/random.hpp"
#include "tools/common/population.hpp"

namespace ldp::tools {

// The users' items: uniform | zipf:S | constant:V | words:PATH (--distribution of the
// frequency oracles; the heavy hitters and RAPPOR take zipf:S and words:PATH).
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

// Cumulative weights of ranks 0..k-1 with P(rank i) ~ (i+1)^-s, summed in long double (the
// Zipf ids of the heavy hitters and RAPPOR).
std::vector<double> zipf_cdf(int64_t k, double s);

// One row of ldp.frequencies(s, ...), computed as the extension computes it.
struct ItemEstimate {
  double frequency = 0, count = 0, std_error = 0, ci_lower = 0, ci_upper = 0;
};

// The truth of a set of reports (a round, or all): how many users hold each item.
struct ItemTally {
  int64_t reports = 0;
  std::vector<int64_t> true_counts;  // per item: the users' items behind the reports
  double true_frequency(int64_t item) const {
    return reports > 0 ? static_cast<double>(true_counts[static_cast<size_t>(item)]) / static_cast<double>(reports)
                       : 0.0;
  }
  // The items ordered by true count, most frequent first (ties: smaller item first).
  std::vector<int64_t> top_items(size_t limit) const;
};

// Writes the truth as a word-count file: a header "item<TAB>count", then every item at
// least one user holds, most frequent first. UsageError when the file cannot be written.
void write_truth_file(const std::string& path, const std::vector<std::string>& items, const ItemTally& truth);

// The varbit field of COPY text (no tab or newline): nbits MSB-first bits of bytes (the
// core's layout), the hex form X... when nbits is a multiple of 4 (a quarter of the
// text), else the 0/1 string.
void append_varbit(std::string& out, const uint8_t* bytes, int64_t nbits);

// A core summary held as a load's local decoding, in owned 8-byte aligned memory.
template <class Summary>
class LocalState {
 public:
  explicit LocalState(size_t bytes) : mem_((bytes + 7) / 8, 0) {}
  Summary* get() { return reinterpret_cast<Summary*>(mem_.data()); }
  const Summary& operator*() const { return *reinterpret_cast<const Summary*>(mem_.data()); }
  const Summary* operator->() const { return &**this; }

 private:
  std::vector<int64_t> mem_;
};
// The core's text form of a summary, from its size and writer functions.
template <class Summary>
std::string core_text(const Summary& s, size_t (*size)(const Summary&), void (*write)(const Summary&, char*, size_t)) {
  std::string out(size(s), '\0');
  write(s, out.data(), out.size());
  out.resize(std::strlen(out.c_str()));
  return out;
}

// A local decoding's text form, or none without one (--no-decode).
template <class Local>
std::optional<std::string> text_of(const std::optional<Local>& local) {
  if (!local) return std::nullopt;
  return local->text();
}

// ---------------------------------------------------------------------------
// The lines the item loaders print (freq, sketch, heavy and RAPPOR's load)

// seed=, table=, reports= and distinct_items=.
void print_load_lines(const std::optional<uint64_t>& seed, const std::string& table, const ItemTally& t);
// max over items of |local frequency - true frequency|
double max_abs_error(const ItemTally& t, const std::vector<ItemEstimate>& est);
// top_items= and the item.<i>.* lines of those items (est: empty, or every item's).
void print_top_items(const std::vector<int64_t>& top, const std::vector<std::string>& words, const ItemTally& t,
                     const std::vector<ItemEstimate>& est);
// "1,5,2": a list of items.
std::string item_list(const std::vector<int64_t>& items);

}  // namespace ldp::tools
