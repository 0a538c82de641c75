#include "tools/freq/freq_load.hpp"

#include <cinttypes>
#include <cstdio>

#include "tools/common/progress.hpp"

namespace ldp::tools {

namespace {

constexpr const char* kSynopsis = "ldp_load --mechanism FREQ --epsilon E --k K --distribution ITEMS --table NAME [options]";
constexpr const char* kMechanismHelp = R"(  --mechanism grr|sue|oue|dbitflip|olh|hadamard
                       frequency oracles over items [0, K): see "Frequency oracles"
)";
constexpr const char* kOptionHelp = R"()";
constexpr const char* kHelp = R"(Frequency oracles (each user holds one item of [0, K) and sends one report a round):
  --k K                the domain size, in [2, 4194304] (hadamard: at most 4194303)
  --d D                dbitflip: buckets per report, in [1, K] (required; Ding et al.
                       2017 evaluate d = 1, 2, 4 for repeated collection; d = K is SUE)
  --memoize            dbitflip: every user is an ldp::DBitFlipClient (dBitFlipPM:
                       its d buckets are drawn once and one bit per (bucket, whether
                       the item is that bucket) is memoized across --rounds)
  --rounds R           with --memoize: collect R rounds from every user (default 1)
  --redraw P           with --rounds: each later round, a user draws a new item with
                       probability P (default 0: users keep their item)
  --distribution ITEMS the users' items:
                         uniform            every item with probability 1/K
                         zipf:S             item i with probability ~ (i+1)^-S
                         constant:V         every user holds item V
                         words:PATH         a word-count file (tab-separated
                                            word<TAB>count, optional header, most
                                            frequent first): item i is the word of
                                            rank i (0 = most frequent) among the top
                                            K words, drawn with probability count /
                                            (sum of the top K counts). Words outside
                                            the top K are NOT drawn (no catch-all
                                            item): the population is the top K
                                            words, renormalized; top_k_share= tells
                                            what share of the file's counts that is
  --top T              print the T items of highest true frequency (default 10;
                       0 prints every item)
  --print-summary      also print local_summary=, the core's text form of the local
                       decoder state: equal to <aggregate>::text in SQL
  --no-decode          skip the local decoding (OLH decodes in O(K) per report)
  Tables: (user_id bigint, round integer, ...) with grr: report integer;
  sue, oue: report varbit (K bits, bit v = item v from the left; sent as X<hex>
  when K is a multiple of 4); dbitflip: buckets integer[], bits boolean[];
  olh: seed bigint, report integer; hadamard: "row" integer, report boolean.
  An existing table may have more columns (they take their defaults).
  Aggregates: ldp.grr_agg(report, E, K), ldp.sue_agg(report, E),
  ldp.oue_agg(report, E), ldp.dbitflip_agg(buckets, bits, E, K),
  ldp.olh_agg(seed, report, E, K), ldp.hadamard_agg("row", report, E, K).
  --words FILE         the same as --distribution words:FILE

)";

using Arg = LoadOption::Arg;
const LoadOption kD{"d", Arg::Count,
                    [](const OptionValue& v) -> std::string {
                      return v.count < 1 || v.count > INT32_MAX ? "--d must be at least 1" : "";
                    },
                    options::kFreqRefusal, "freq"};
const LoadOption kMemoize{"memoize", Arg::Flag, nullptr, options::kFreqRefusal, "freq"};
const LoadOption kRedraw{"redraw", Arg::Number, nullptr, options::kFreqRefusal, "freq"};

std::unique_ptr<FamilyLoad> prepare(const CommandLine& cl, const std::string& mechanism) {
  if (!cl.has(options::epsilon)) throw UsageError("--epsilon is required");
  FreqLoadSpec spec;
  spec.mechanism = *parse_freq_mechanism(mechanism);
  spec.k = cl.count(options::k, 0);
  if (spec.k == 0) throw UsageError("--k (the domain size) is required for " + mechanism);
  const std::string words = words_file(cl);
  const std::string distribution = cl.has(options::words) ? "words:" + words : cl.text(options::distribution);
  if (distribution.empty()) throw UsageError("--distribution is required");
  spec.epsilon = cl.number(options::epsilon, 0);
  spec.d = cl.count(kD, 0);
  spec.memoize = cl.has(kMemoize);
  spec.rounds = static_cast<int>(cl.count(options::rounds, 1));
  spec.redraw = cl.number(kRedraw, 0);
  spec.users = cl.count(options::users, 1000000);
  spec.seed = cl.seed(options::seed);
  spec.first_user_id = cl.count(options::first_user_id, 1);
  spec.local_decode = !cl.has(options::no_decode);
  spec.distribution = parse_item_distribution(distribution);
  auto load = std::make_unique<FreqLoad>(spec, cl.count(options::top, 10), cl.has(options::print_summary));
  { ItemPopulation check(spec.distribution, spec.k); }  // reads and checks the word file before connecting
  return load;
}

}  // namespace

std::string FreqLoad::aggregate_sql() const {
  const FreqLoadSpec& s = *spec_;
  std::vector<std::string> parameters{num(s.epsilon)};
  if (s.mechanism != FreqMechanism::SUE && s.mechanism != FreqMechanism::OUE) parameters.push_back(std::to_string(s.k));
  return aggregate_call("ldp." + mechanism() + "_agg", report_columns(), parameters);
}

void FreqLoad::print(const LoadTarget& target, double seconds) const {
  const FreqLoadSpec& s = *spec_;
  const FreqLoadResult& r = result_;
  const std::string mname = mechanism();
  print_mechanism(mname, s.epsilon);
  std::printf("k=%" PRId64 "\n", s.k);
  if (s.mechanism == FreqMechanism::DBitFlip) {
    std::printf("d=%" PRId64 "\n", s.d);
    std::printf("memoize=%s\n", s.memoize ? "true" : "false");
  }
  std::printf("distribution=%s\n", s.distribution.spec.c_str());
  if (s.distribution.kind == ItemDistribution::Kind::Words) {
    std::printf("words_in_file=%" PRId64 "\n", r.words_in_file);
    std::printf("words_used=%zu\n", r.words.size());
    std::printf("top_k_share=%s\n", num(r.top_k_share).c_str());
  }
  std::printf("users=%" PRId64 "\n", s.users);
  std::printf("rounds=%d\n", s.rounds);
  if (s.rounds > 1) std::printf("redraw=%s\n", num(s.redraw).c_str());
  print_load_lines(s.seed, target.table, r.total);

  std::vector<ItemEstimate> est;
  if (r.total.local) {
    est = local_frequencies(**r.total.local);
    std::printf("n=%" PRId64 "\n", (*r.total.local)->n);
    std::printf("local_max_abs_error=%s\n", num(max_abs_error(r.total, est)).c_str());
    if (print_summary_) std::printf("local_summary=%s\n", r.total.local->text().c_str());
  }
  const size_t limit = top_ == 0 ? static_cast<size_t>(s.k) : static_cast<size_t>(top_);
  print_top_items(r.total.top_items(limit), r.words, r.total, est);
  for (size_t i = 0; i < r.rounds.size(); ++i) {
    const FreqTally& t = r.rounds[i];
    std::printf("round_%zu.reports=%" PRId64 "\n", i + 1, t.reports);
    if (t.local)
      std::printf("round_%zu.local_max_abs_error=%s\n", i + 1,
                  num(max_abs_error(t, local_frequencies(**t.local))).c_str());
  }
  std::fflush(stdout);

  if (s.distribution.kind == ItemDistribution::Kind::Words && static_cast<int64_t>(r.words.size()) < s.k)
    std::fprintf(stderr,
                 "ldp_load: warning: the word file has %zu words, fewer than k = %" PRId64
                 ": items %zu..%" PRId64 " are never held\n",
                 r.words.size(), s.k, r.words.size(), s.k - 1);
  const double rate = seconds > 0 ? static_cast<double>(r.total.reports) / seconds : 0;
  const std::string shape =
      s.rounds > 1 ? " (" + std::to_string(s.users) + " users x " + std::to_string(s.rounds) + " rounds)" : "";
  std::fprintf(stderr, "ldp_load: %" PRId64 " %s reports%s (k = %" PRId64 ") into %s in %.2f s: %s reports/s\n",
               r.total.reports, mname.c_str(), shape.c_str(), s.k, target.table.c_str(), seconds,
               Progress::human(rate).c_str());
}

const LoadFamily& freq_family() {
  static const LoadFamily row{
      "freq",
      {"grr", "sue", "oue", "dbitflip", "olh", "hadamard"},
      kSynopsis,
      kMechanismHelp,
      kOptionHelp,
      kHelp,
      {&options::epsilon, &options::k, &kD, &kMemoize, &options::rounds, &kRedraw, &options::words, &options::top,
       &options::print_summary, &options::no_decode},
      {},
      nullptr,
      prepare,
      {"--mechanism grr --epsilon 2 --k 64 --words {words} --users 4000 --seed 21",
       "--mechanism sue --epsilon 2 --k 64 --distribution zipf:1.1 --users 4000 --seed 21",
       "--mechanism oue --epsilon 2 --k 30 --words {words} --users 4000 --seed 21",
       "--mechanism dbitflip --epsilon 1 --k 64 --d 2 --memoize --rounds 3 --redraw 0.3 --words {words} "
       "--users 1500 --seed 23",
       "--mechanism olh --epsilon 2 --k 64 --words {words} --users 4000 --seed 21",
       "--mechanism hadamard --epsilon 2 --k 64 --distribution uniform --users 4000 --seed 21"}};
  return row;
}

}  // namespace ldp::tools
