// ldp_load --mechanism treehist|bitstogram|pem|sfp: TreeHist, Bitstogram, PEM or SFP
// reports of words or Zipf integer ids (heavy_population.*), loaded with COPY; the
// protocol, the truth, and the local decoder's heavy hitters (what ldp.heavy_hitters
// returns for the table) with their recall and precision against the true set on stdout.
#include "tools/heavy/heavy_load.hpp"

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "tools/common/progress.hpp"

namespace ldp::tools {

namespace {

constexpr const char* kSynopsis = "ldp_load --mechanism treehist|bitstogram|pem|sfp --epsilon E (--words FILE | --distribution zipf:S --k K) --table NAME [options]";
constexpr const char* kMechanismHelp = R"(  --mechanism treehist|bitstogram|pem|sfp
                       heavy hitters (TreeHist, Bitstogram, PEM, Apple's SFP) of
                       words or integer ids, found without candidates: see "Heavy hitters"
)";
constexpr const char* kOptionHelp = R"()";
constexpr const char* kHelp = R"(Heavy hitters (--mechanism treehist, bitstogram, pem or sfp; each user holds one word or one
64-bit id and sends one report under a protocol built as ldp.<mechanism>_protocol
builds it, ldp.<mechanism>_int8_protocol for integer ids):
  --words FILE         words (--distribution words:FILE is the same): a word-count
                       file as above. Users hold the words the protocol can encode,
                       each with probability count / (the total count of those
                       words), so that --users users hold them; the words it cannot
                       encode (a character outside the alphabet, too long) are
                       skipped: counted on stdout (words_skipped=, skipped_share=
                       of the file's counts) and said on stderr
  --lowercase          words: fold A-Z to a-z first, adding up the counts of words
                       that become equal ("I" -> "i")
  --distribution zipf:S --k K
                       integer ids under ldp.<mechanism>_int8_protocol: ranks 0..K-1
                       with P(rank i) ~ (i+1)^-S
  --ids scrambled|ranks
                       the id of rank i: a fixed scrambling of i spread over the
                       64-bit range (default; distinct ranks, distinct ids), or i+1
  --expected-users N0  the protocol's users (default: --users), what its defaults
                       are chosen for
  --alphabet A         words: the alphabet (default abcdefghijklmnopqrstuvwxyz)
  --bytes              words: any UTF-8 text, one byte per level (alphabet => NULL)
  --max-length L, --chars-per-level S, --hashes H, --width W
                       the protocol's parameters (default: ldp.<mechanism>_protocol's;
                       integer ids take --hashes and --width only)
  --truth FILE         write the true counts to FILE (item<TAB>count, header line,
                       most frequent first, every item someone holds; integer ids
                       in decimal), e.g. for \copy into a table
  --top T, --print-summary, --no-decode
                       as above; the local decoder also runs heavy_hitters
  Table: (user_id bigint, round integer, then the encoder's columns); round is 1.
  treehist: level, hash_index, coefficient integer, prefix_report, item_report
  boolean; pem: group_index, hash_index, coefficient integer, report boolean; sfp:
  fragment_start, hash_index, coefficient integer, fragment_report boolean,
  word_hash_index, word_coefficient integer, word_report boolean; bitstogram:
  coordinate, hadamard_row integer, symbol_report boolean, hash_index, coefficient
  integer, item_report boolean.
  Aggregate: ldp.<mechanism>_agg(<those columns>, '<protocol=>'::ldp.heavy_protocol);
  then ldp.heavy_hitters(summary).
  Output: protocol= (the text form: cast it to ldp.heavy_protocol), threshold=
  (the default tau of ldp.heavy_hitters at n = reports), true_heavy= (items whose
  true count is at least tau), local_heavy_hitters=, local_recall=,
  local_precision= (against the true set), local_decode_seconds=, the top items
  (item.I.word= or item.I.id=, .true_count=, .local_frequency=, ...) and the first
  heavy hitters (hitter.R.item=, .frequency=, .std_error=).

)";

using Arg = LoadOption::Arg;
constexpr const char* kHeavyRefusal = "{option} applies to treehist, bitstogram, pem and sfp, not {mechanism}";
std::string at_least_one(const OptionValue& v) { return v.count < 1 ? "{option} must be at least 1" : ""; }
std::string positive_int(const OptionValue& v) {
  return v.count < 1 || v.count > INT32_MAX ? "{option} must be a positive integer" : "";
}
const LoadOption kExpectedUsers{"expected-users", Arg::Count, at_least_one, kHeavyRefusal, "heavy"};
const LoadOption kAlphabet{"alphabet", Arg::Text,
                           [](const OptionValue& v) -> std::string {
                             return v.text.empty() ? "--alphabet must not be empty (--bytes takes any UTF-8 text)" : "";
                           },
                           kHeavyRefusal, "heavy"};
const LoadOption kBytes{"bytes", Arg::Flag, nullptr, kHeavyRefusal, "heavy"};
const LoadOption kMaxLength{"max-length", Arg::Count, positive_int, kHeavyRefusal, "heavy"};
const LoadOption kCharsPerLevel{"chars-per-level", Arg::Count, positive_int, kHeavyRefusal, "heavy"};
const LoadOption kLowercase{"lowercase", Arg::Flag, nullptr, kHeavyRefusal, "heavy"};
const LoadOption kIds{"ids", Arg::Text,
                      [](const OptionValue& v) -> std::string {
                        return v.text == "scrambled" || v.text == "ranks"
                                   ? ""
                                   : "--ids must be scrambled or ranks, got '" + v.text + "'";
                      },
                      kHeavyRefusal, "heavy"};

// One report per device, of one item: not the options of items [0, K) but --k, nor rounds.
std::string refusal(const LoadOption& o, const std::string& mechanism) {
  if (&o == &options::rounds) return "--rounds does not apply to " + mechanism + " (one report per device)";
  if (o.owner != nullptr && std::strcmp(o.owner, "freq") == 0)
    return std::string("--") + o.name + " applies to the frequency oracles over [0, K), not " + mechanism;
  return "";
}

std::unique_ptr<FamilyLoad> prepare(const CommandLine& cl, const std::string& mechanism) {
  if (!cl.has(options::epsilon)) throw UsageError("--epsilon is required");
  HeavyLoadSpec h;
  parse_heavy_mechanism(mechanism, &h.mechanism);
  words_or_zipf(cl, mechanism, &h.words_path, &h.zipf_s, &h.k);
  if (h.words_path.empty() && h.zipf_s == 0)
    throw UsageError(mechanism + " needs --words FILE (word<TAB>count lines, e.g. test/data/subtlex_top1000.tsv) "
                     "or --distribution zipf:S --k K (integer ids)");
  if (!h.words_path.empty() && cl.has(options::k)) throw UsageError("--k applies to Zipf integer ids, not to words");
  h.epsilon = cl.number(options::epsilon, 0);
  h.expected_users = cl.count(kExpectedUsers, 0);
  h.alphabet = cl.text(kAlphabet);
  h.bytes_domain = cl.has(kBytes);
  h.max_length = cl.count(kMaxLength, 0);
  h.chars_per_level = cl.count(kCharsPerLevel, 0);
  h.hashes = cl.count(options::hashes, 0);
  h.width = cl.count(options::width, 0);
  h.users = cl.count(options::users, 1000000);
  h.lowercase = cl.has(kLowercase);
  h.scrambled_ids = cl.text(kIds, "scrambled") == "scrambled";
  h.seed = cl.seed(options::seed);
  h.first_user_id = cl.count(options::first_user_id, 1);
  h.local_decode = !cl.has(options::no_decode);
  auto load = std::make_unique<HeavyLoad>(
      h, HeavyOutput{cl.count(options::top, 10), cl.has(options::print_summary), cl.text(options::truth)});
  // Read and check the word file before connecting (the load reads it again), and say
  // what the protocol cannot encode.
  if (!h.integers()) {
    const HeavyWords w = read_heavy_words(h, load->protocol());
    if (w.skipped > 0) {
      std::string eg;
      for (const std::string& e : w.skipped_examples) eg += (eg.empty() ? "" : "; ") + e;
      std::fprintf(stderr,
                   "ldp_load: %" PRId64 " of the %" PRId64 " words of %s cannot be encoded by the protocol and are "
                   "skipped (%.2f%% of the file's counts; no user holds them), e.g. %s\n",
                   w.skipped, w.in_file, h.words_path.c_str(), 100 * w.skipped_share, eg.c_str());
    }
  }
  return load;
}

}  // namespace

std::string HeavyLoad::aggregate_sql() const {
  return aggregate_call("ldp." + mechanism() + "_agg", report_columns(),
                        {quote_literal(heavy_protocol_to_text(protocol())) + "::ldp.heavy_protocol"});
}

void HeavyLoad::print_protocol(const LoadTarget& target) const {
  const HeavyLoadSpec& s = *spec_;
  const HeavyLoadResult& r = result_;
  const HeavyProtocol& p = r.protocol;
  std::printf("mechanism=%s\n", heavy_mechanism_name(p.mech()));
  std::printf("protocol=%s\n", heavy_protocol_to_text(p).c_str());
  std::printf("epsilon=%s\n", num(p.epsilon).c_str());
  std::printf("domain=%s\n", heavy_domain_name(p.dom()));
  std::printf("max_length=%" PRId64 "\n", p.max_length);
  std::printf("chars_per_level=%" PRId64 "\n", p.chars_per_level);
  if (p.mech() == HeavyMechanism::PEM) std::printf("start_length=%d\n", static_cast<int>(p.start_length));
  std::printf("levels=%" PRId64 "\n", p.levels);
  std::printf("hashes=%" PRId64 "\n", p.hashes);
  std::printf("width=%" PRId64 "\n", p.width);
  if (p.mech() == HeavyMechanism::Bitstogram) std::printf("buckets=%" PRId64 "\n", p.buckets);
  std::printf("expected_users=%" PRId64 "\n", p.expected_users);
  if (s.integers()) {
    std::printf("distribution=zipf:%s\n", num(s.zipf_s).c_str());
    std::printf("k=%" PRId64 "\n", s.k);
    std::printf("ids=%s\n", s.scrambled_ids ? "scrambled" : "ranks");
  } else {
    const HeavyWords& w = r.words;
    std::printf("words_file=%s\n", s.words_path.c_str());
    std::printf("words_in_file=%" PRId64 "\n", w.in_file);
    std::printf("words_skipped=%" PRId64 "\n", w.skipped);
    std::printf("skipped_share=%s\n", num(w.skipped_share).c_str());
    if (s.lowercase) std::printf("words_folded=%" PRId64 "\n", w.folded);
    std::printf("words_used=%zu\n", w.words.size());
  }
  std::printf("users=%" PRId64 "\n", s.users);
  print_load_lines(s.seed, target.table, r.truth);
}

void HeavyLoad::print(const LoadTarget& target, double seconds) const {
  const HeavyLoadResult& r = result_;
  if (!output_.truth_path.empty()) write_truth_file(output_.truth_path, r.items, r.truth);
  print_protocol(target);
  const HeavyProtocol& p = r.protocol;
  const double n = static_cast<double>(r.truth.reports);
  HeavyHitters h;
  double decode_seconds = 0;
  if (r.local) {
    const auto start = std::chrono::steady_clock::now();
    h = r.local->hitters();
    decode_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  } else {
    h.threshold = heavy_default_threshold_scale(p) * std::sqrt(n);
  }
  std::printf("threshold=%s\n", num(h.threshold).c_str());
  std::printf("threshold_scale=%s\n", num(heavy_default_threshold_scale(p)).c_str());
  const HeavyQuality q = heavy_quality(r, h);
  std::printf("true_heavy=%" PRId64 "\n", q.true_heavy);
  if (!output_.truth_path.empty()) std::printf("truth_file=%s\n", output_.truth_path.c_str());

  const size_t limit = output_.top == 0 ? r.items.size() : static_cast<size_t>(output_.top);
  std::vector<int64_t> top = r.truth.top_items(limit);
  std::vector<std::string> top_items;
  for (int64_t i : top) top_items.push_back(r.items[static_cast<size_t>(i)]);
  std::vector<HeavyEstimate> est;
  if (r.local) {
    std::printf("n=%" PRId64 "\n", (*r.local)->n);
    std::printf("local_heavy_hitters=%" PRId64 "\n", q.returned);
    std::printf("local_hits=%" PRId64 "\n", q.hits);
    std::printf("local_recall=%s\n", num(q.recall).c_str());
    std::printf("local_precision=%s\n", num(q.precision).c_str());
    std::printf("local_decode_seconds=%s\n", num(decode_seconds).c_str());
    std::printf("local_candidates=%s\n", item_list(h.candidates).c_str());
    if (output_.print_summary) std::printf("local_summary=%s\n", r.local->text().c_str());
    est = r.local->frequencies(top_items);
  }
  std::printf("top_items=%s\n", item_list(top).c_str());
  const char* key = p.dom() == HeavyDomain::Int64 ? "id" : "word";
  for (size_t k = 0; k < top.size(); ++k) {
    const int64_t i = top[k];
    std::printf("item.%" PRId64 ".%s=%s\n", i, key, top_items[k].c_str());
    std::printf("item.%" PRId64 ".true_count=%" PRId64 "\n", i, r.truth.true_counts[static_cast<size_t>(i)]);
    std::printf("item.%" PRId64 ".true_frequency=%s\n", i, num(r.truth.true_frequency(i)).c_str());
    if (!est.empty()) {
      std::printf("item.%" PRId64 ".local_frequency=%s\n", i, num(est[k].count / n).c_str());
      std::printf("item.%" PRId64 ".local_std_error=%s\n", i, num(est[k].std_error / n).c_str());
    }
  }
  // the first heavy hitters the local decoder returns, as ldp.heavy_hitters orders them
  const size_t shown = std::min(limit, h.items.size());
  for (size_t k = 0; k < shown; ++k) {
    std::printf("hitter.%zu.item=%s\n", k + 1, h.items[k].item.c_str());
    std::printf("hitter.%zu.frequency=%s\n", k + 1, num(h.items[k].frequency).c_str());
    std::printf("hitter.%zu.std_error=%s\n", k + 1, num(h.items[k].std_error).c_str());
  }
  std::fflush(stdout);

  const double rate = seconds > 0 ? static_cast<double>(r.truth.reports) / seconds : 0;
  std::fprintf(stderr,
               "ldp_load: %" PRId64 " %s reports (%s, %" PRId64 " levels, hashes = %" PRId64 ", width = %" PRId64
               ") into %s in %.2f s: %s reports/s\n",
               r.truth.reports, heavy_mechanism_name(p.mech()), heavy_domain_name(p.dom()), p.levels, p.hashes,
               p.width, target.table.c_str(), seconds, Progress::human(rate).c_str());
}

const LoadFamily& heavy_family() {
  static const LoadFamily row{
      "heavy",
      {"treehist", "bitstogram", "pem", "sfp"},
      kSynopsis,
      kMechanismHelp,
      kOptionHelp,
      kHelp,
      {&options::epsilon, &options::k, &options::hashes, &options::width, &options::words, &options::top,
       &options::print_summary, &options::no_decode, &options::truth, &kExpectedUsers, &kAlphabet, &kBytes, &kMaxLength,
       &kCharsPerLevel, &kLowercase, &kIds},
      {},
      refusal,
      prepare,
      {"--mechanism treehist --epsilon 2 --words {words} --lowercase --users 20000 --seed 31",
       "--mechanism bitstogram --epsilon 4 --distribution zipf:1.2 --k 100 --users 20000 --seed 32",
       "--mechanism pem --epsilon 4 --words {words} --users 20000 --seed 33",
       "--mechanism sfp --epsilon 4 --distribution zipf:1.2 --k 100 --ids ranks --users 20000 --seed 34"}};
  return row;
}

}  // namespace ldp::tools
