#include "tools/sketch/sketch_population.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <unordered_set>

#include "core/common/error.hpp"
#include "core/common/stats.hpp"
#include "core/sketch/sketch_encoders.hpp"

namespace ldp::tools {

// ---------------------------------------------------------------------------
// Mechanisms and the population

const char* sketch_mechanism_name(SketchMechanism m) { return sketch_mechanism(m).name; }

std::optional<SketchMechanism> parse_sketch_mechanism(const std::string& name) {
  const SketchMechanismInfo* info = sketch_mechanism_by_name(name.data(), name.size());
  if (info == nullptr) return std::nullopt;
  return info->id;
}

WordPopulation::WordPopulation(const std::string& path) {
  std::vector<WordCount> all = read_word_counts(path);
  std::unordered_set<std::string> seen;
  seen.reserve(all.size());
  long double c = 0;
  words_.reserve(all.size());
  cdf_.reserve(all.size());
  for (WordCount& w : all) {
    if (!seen.insert(w.word).second)
      throw UsageError(path + ": the word '" + w.word.substr(0, 60) +
                       "' is listed twice (a word's count must be on one line)");
    c += w.count;
    cdf_.push_back(static_cast<double>(c));
    words_.push_back(std::move(w.word));
  }
  if (c <= 0) throw UsageError(path + ": every word has count 0");
}

int64_t WordPopulation::next(RandomSource& rng) const { return static_cast<int64_t>(draw_cdf_index(cdf_, rng)); }

void validate_spec(const SketchLoadSpec& s) {
  const char* name = sketch_mechanism_name(s.mechanism);
  try {
    validate_sketch_params(s.mechanism, SketchParams{s.epsilon, s.hashes, s.width});
  } catch (const ldp::Error& e) {
    // the core names the parameters epsilon, hashes and width: so do the options
    throw UsageError(std::string("invalid parameters for ") + name + ": " + e.what() +
                     " (--epsilon, --hashes, --width)");
  }
  // the aggregates take hashes and width as int
  if (s.hashes > INT32_MAX || s.width > INT32_MAX)
    throw UsageError("--hashes and --width must fit in an integer");
  if (s.users < 1) throw UsageError("--users must be at least 1");
  if (static_cast<double>(s.users) > 9e15) throw UsageError("--users is too large");
  if (s.first_user_id < 0 || s.first_user_id > INT64_MAX - s.users)
    throw UsageError("--first-user-id must be >= 0 and leave room for every user id");
  if (s.words_path.empty())
    throw UsageError(std::string(name) + " draws every user's word from a word-count file: "
                     "--words FILE (word<TAB>count lines)");
}

// ---------------------------------------------------------------------------
// Local decoding

LocalSketch::LocalSketch(SketchMechanism id, const SketchParams& p) : LocalState(sketch_summary_size(id, p)) {
  sketch_summary_init(get(), id, p);
}

std::string LocalSketch::text() const { return core_text(**this, sketch_summary_text_size, sketch_summary_to_text); }

std::vector<ItemEstimate> local_sketch_frequencies(const SketchSummary& s,
                                                   const std::vector<std::string>& items) {
  std::vector<ItemEstimate> out;
  if (s.n == 0) return out;
  std::vector<int64_t> table(static_cast<size_t>(s.cells()));
  sketch_prepare(s, table.data());
  std::vector<uint64_t> scratch(sketch_scratch_words(s));
  const double z = normal_critical_value(0.95);
  const double n = static_cast<double>(s.n);
  out.reserve(items.size());
  for (const std::string& item : items) {
    SketchEstimate e = sketch_estimate(s, table.data(), item, scratch.data());
    const double f = e.count / n, se = e.std_error / n;
    out.push_back({f, e.count, se, f - z * se, f + z * se});
  }
  return out;
}

// ---------------------------------------------------------------------------
// Formatting

namespace {
inline void append_sketch_prefix(std::string& out, int64_t user_id, int round, int64_t hash_index) {
  append_row_prefix(out, user_id, round);
  append_int_field(out, hash_index);
  out.push_back('\t');
}
}  // namespace

void append_cms_row(std::string& out, int64_t user_id, int round, int64_t hash_index,
                    const uint8_t* bytes, int64_t width) {
  append_sketch_prefix(out, user_id, round, hash_index);
  append_varbit(out, bytes, width);
  out.push_back('\n');
}

void append_signed_sketch_row(std::string& out, int64_t user_id, int round, int64_t hash_index,
                              int64_t coefficient, bool plus_one) {
  append_sketch_prefix(out, user_id, round, hash_index);
  append_int_field(out, coefficient);
  out.append(plus_one ? "\tt\n" : "\tf\n", 3);
}

// ---------------------------------------------------------------------------
// Generation

SketchLoadResult generate_sketch_reports(const Validated<SketchLoadSpec>& checked, const ChunkSink& sink,
                                         const ProgressFn& progress, size_t chunk_bytes) {
  const SketchLoadSpec& spec = *checked;
  WordPopulation population(spec.words_path);
  const std::vector<std::string>& words = population.words();

  std::unique_ptr<RandomSource> pop_rng = make_random(spec.seed, 0);
  std::unique_ptr<RandomSource> enc_rng = make_random(spec.seed, 1);
  RandomSource& prng = *pop_rng;
  RandomSource& erng = *enc_rng;

  SketchLoadResult result;
  result.truth.true_counts.assign(words.size(), 0);
  if (spec.local_decode) result.local.emplace(spec.mechanism, SketchParams{spec.epsilon, spec.hashes, spec.width});
  SketchSummary* local = result.local ? result.local->get() : nullptr;
  int64_t* truth = result.truth.true_counts.data();

  const double eps = spec.epsilon;
  const int64_t hashes = spec.hashes, width = spec.width;
  std::vector<uint8_t> bytes(static_cast<size_t>((width + 7) / 8));
  ChunkedRows out(sink, progress, chunk_bytes, 64 + static_cast<size_t>(width));
  std::string& buf = out.buf();
  for_each_device(spec.users, out, [&](int64_t i) -> int64_t {
    const int64_t item = population.next(prng);
    ++truth[item];
    const std::string_view word = words[static_cast<size_t>(item)];
    const int64_t uid = spec.first_user_id + i;
    if (spec.mechanism == SketchMechanism::CMS) {
      const int64_t j = cms_encode(word, eps, hashes, width, erng, bytes.data());
      if (local) sketch_add_cms(local, j, bytes.data(), width);
      append_cms_row(buf, uid, 1, j, bytes.data(), width);
    } else {
      const SignedSketchReport r = spec.mechanism == SketchMechanism::HCMS
                                       ? hcms_encode(word, eps, hashes, width, erng)
                                       : hashtogram_encode(word, eps, hashes, width, erng);
      if (local) sketch_add_signed(local, r.hash_index, r.coefficient, r.report);
      append_signed_sketch_row(buf, uid, 1, r.hash_index, r.coefficient, r.report);
    }
    return 1;
  });
  result.truth.reports = spec.users;
  result.words = words;
  return result;
}

// ---------------------------------------------------------------------------
// Tables

std::vector<ReportColumn> sketch_report_columns(SketchMechanism m) {
  switch (m) {
    case SketchMechanism::CMS: return {{"hash_index", "integer"}, {"report", "bit varying"}};
    case SketchMechanism::HCMS:
    case SketchMechanism::Hashtogram:
      return {{"hash_index", "integer"}, {"coefficient", "integer"}, {"report", "boolean"}};
  }
  return {};
}

}  // namespace ldp::tools
