#include "tools/sketch/sketch_load.hpp"

#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "tools/common/progress.hpp"

namespace ldp::tools {

namespace {

constexpr const char* kSynopsis = "ldp_load --mechanism SKETCH --epsilon E --hashes H --width W --words FILE --table NAME [options]";
constexpr const char* kMechanismHelp = R"(  --mechanism cms|hcms|hashtogram
                       sketch frequency oracles over words: see "Sketches"
)";
constexpr const char* kOptionHelp = R"()";
constexpr const char* kHelp = R"(Sketches (each user holds one word, any string, and sends one report):
  --hashes H           rows of the sketch (hash functions), in [1, 65536]
  --width W            columns of each row (hcms, hashtogram: a power of two);
                       H * W is at most 4194304
  --words FILE         a word-count file (word<TAB>count, optional header, as for
                       words:PATH above): a user holds each of the file's words
                       with probability count / (the file's total count); every
                       word can be drawn (no top K). --distribution words:FILE is
                       the same
  --top T, --print-summary, --no-decode
                       as above; top_items= are the words' ranks in the file (0 =
                       most frequent), local_max_abs_error= is over the file's words
  Tables: (user_id bigint, round integer, hash_index integer, ...) with cms:
  report varbit (W bits, as sue); hcms, hashtogram: coefficient integer, report
  boolean (+1 is true). round is always 1.
  Aggregates: ldp.cms_agg(hash_index, report, E, H),
  ldp.hcms_agg(hash_index, coefficient, report, E, H, W),
  ldp.hashtogram_agg(hash_index, coefficient, report, E, H, W); estimates of
  candidate words: ldp.frequencies(<aggregate>, ARRAY['you', 'the', ...]).

)";

// A sketch takes any word, once: not the options of items [0, K), nor rounds.
std::string refusal(const LoadOption& o, const std::string& mechanism) {
  if (&o == &options::rounds)
    return "--rounds does not apply to " + mechanism + " (one report per device; no memoization)";
  if (o.owner != nullptr && std::strcmp(o.owner, "freq") == 0)
    return std::string("--") + o.name + " applies to the frequency oracles over [0, K), not " + mechanism +
           " (a sketch takes any word: --hashes and --width size it)";
  return "";
}

std::unique_ptr<FamilyLoad> prepare(const CommandLine& cl, const std::string& mechanism) {
  if (!cl.has(options::epsilon)) throw UsageError("--epsilon is required");
  SketchLoadSpec spec;
  spec.mechanism = *parse_sketch_mechanism(mechanism);
  spec.hashes = cl.count(options::hashes, 0);
  spec.width = cl.count(options::width, 0);
  if (spec.hashes == 0) throw UsageError("--hashes is required for " + mechanism);
  if (spec.width == 0) throw UsageError("--width is required for " + mechanism);
  spec.words_path = words_file(cl);
  const std::string distribution = cl.text(options::distribution);
  if (!distribution.empty() && distribution.rfind("words:", 0) != 0)
    throw UsageError("--distribution " + distribution + ": " + mechanism +
                     " draws words from a word-count file: --words FILE (or words:FILE)");
  if (spec.words_path.empty())
    throw UsageError("--words FILE is required for " + mechanism +
                     " (word<TAB>count lines, e.g. test/data/subtlex_top1000.tsv)");
  spec.epsilon = cl.number(options::epsilon, 0);
  spec.users = cl.count(options::users, 1000000);
  spec.seed = cl.seed(options::seed);
  spec.first_user_id = cl.count(options::first_user_id, 1);
  spec.local_decode = !cl.has(options::no_decode);
  auto load = std::make_unique<SketchLoad>(spec, cl.count(options::top, 10), cl.has(options::print_summary));
  { WordPopulation check(spec.words_path); }  // reads and checks the word file before connecting
  return load;
}

}  // namespace

std::string SketchLoad::aggregate_sql() const {
  const SketchLoadSpec& s = *spec_;
  std::vector<std::string> parameters{num(s.epsilon), std::to_string(s.hashes)};
  if (s.mechanism != SketchMechanism::CMS) parameters.push_back(std::to_string(s.width));
  return aggregate_call("ldp." + mechanism() + "_agg", report_columns(), parameters);
}

void SketchLoad::print(const LoadTarget& target, double seconds) const {
  const SketchLoadSpec& s = *spec_;
  const SketchLoadResult& r = result_;
  const std::string mname = mechanism();
  print_mechanism(mname, s.epsilon);
  std::printf("hashes=%" PRId64 "\n", s.hashes);
  std::printf("width=%" PRId64 "\n", s.width);
  std::printf("words_file=%s\n", s.words_path.c_str());
  std::printf("words_in_file=%zu\n", r.words.size());
  std::printf("users=%" PRId64 "\n", s.users);
  print_load_lines(s.seed, target.table, r.truth);

  const size_t limit = top_ == 0 ? r.words.size() : static_cast<size_t>(top_);
  const std::vector<int64_t> top = r.truth.top_items(limit);
  std::vector<ItemEstimate> est;  // of every word in the file
  if (r.local) {
    est = local_sketch_frequencies(**r.local, r.words);
    std::printf("n=%" PRId64 "\n", (*r.local)->n);
    std::printf("local_max_abs_error=%s\n", num(max_abs_error(r.truth, est)).c_str());
    if (print_summary_) std::printf("local_summary=%s\n", r.local->text().c_str());
  }
  print_top_items(top, r.words, r.truth, est);
  std::fflush(stdout);

  const double rate = seconds > 0 ? static_cast<double>(r.truth.reports) / seconds : 0;
  std::fprintf(stderr,
               "ldp_load: %" PRId64 " %s reports (hashes = %" PRId64 ", width = %" PRId64
               ") into %s in %.2f s: %s reports/s\n",
               r.truth.reports, mname.c_str(), s.hashes, s.width, target.table.c_str(), seconds,
               Progress::human(rate).c_str());
}

const LoadFamily& sketch_family() {
  static const LoadFamily row{
      "sketch",
      {"cms", "hcms", "hashtogram"},
      kSynopsis,
      kMechanismHelp,
      kOptionHelp,
      kHelp,
      {&options::epsilon, &options::hashes, &options::width, &options::words, &options::top, &options::print_summary,
       &options::no_decode},
      {},
      refusal,
      prepare,
      {"--mechanism cms --epsilon 4 --hashes 16 --width 256 --words {words} --users 3000 --seed 7",
       "--mechanism hcms --epsilon 4 --hashes 64 --width 256 --words {words} --users 3000 --seed 7",
       "--mechanism hashtogram --epsilon 4 --hashes 64 --width 256 --words {words} --users 3000 --seed 7"}};
  return row;
}

}  // namespace ldp::tools
