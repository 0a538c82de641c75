// ldp_load --mechanism rappor: RAPPOR reports of words or Zipf ids (rappor_population.*),
// per-device cohorts and secrets, loaded with COPY; the parameters, the truth, and the
// local decode (what ldp.rappor_decode returns for the table's summary and the same
// candidates) on stdout.
#include "tools/rappor/rappor_load.hpp"

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <string_view>

#include "core/common/error.hpp"
#include "tools/common/progress.hpp"

namespace ldp::tools {

namespace {

constexpr const char* kSynopsis = "ldp_load --mechanism rappor [--bits K --hashes H --cohorts M --f F --p P --q Q] (--words FILE | --distribution zipf:S --k K) --table NAME [options]";
constexpr const char* kMechanismHelp = R"(  --mechanism rappor   Google's RAPPOR reports, decoded against candidates: see "RAPPOR"
)";
constexpr const char* kOptionHelp = R"()";
constexpr const char* kHelp = R"(RAPPOR (--mechanism rappor; google/rappor's client: Bloom filter, PRR memoized by the
device's secret, fresh IRR; each device has its own random secret and a cohort drawn
uniformly, holds one item and sends one report):
  --bits K --hashes H --cohorts M --f F --p P --q Q
                       the parameters (default: the Python client's, 16 bits,
                       2 hashes, 64 cohorts, f = 0.5, p = 0.5, q = 0.75)
  --words FILE         items: the words of a word-count file, drawn by count
  --distribution zipf:S --k K
                       items: ids "1".."K" (decimal text), P(id i) ~ i^-S
  --truth FILE         write the true counts to FILE (item<TAB>count)
  --candidates C       the local decode's candidates: the C most likely items
                       (default 1000)
  --top N, --no-decode as above
  Table: user_id bigint, round integer, cohort integer, report bit varying (the
  client's bit order). Aggregate: ldp.rappor_agg(cohort, report, H, M, F, P, Q);
  then ldp.rappor_decode(summary, candidates).
  Output: the parameters, epsilon_one=, epsilon_inf=, detection_frequency=, the
  truth, local_detected= (of the candidates), local_decode_seconds= and the top
  items (item.I.word= or .id=, .true_count=, .local_count=, .local_std_error=,
  .local_detected=).

)";

using Arg = LoadOption::Arg;
constexpr const char* kRapporRefusal = "{option} applies to rappor only";
const LoadOption kBits{"bits", Arg::Count, int_sized, kRapporRefusal, "rappor"};
const LoadOption kCohorts{"cohorts", Arg::Count, int_sized, kRapporRefusal, "rappor"};
const LoadOption kCandidates{"candidates", Arg::Count, int_sized, kRapporRefusal, "rappor"};
const LoadOption kF{"f", Arg::Number, nullptr, kRapporRefusal, "rappor"};
const LoadOption kP{"p", Arg::Number, nullptr, kRapporRefusal, "rappor"};
const LoadOption kQ{"q", Arg::Number, nullptr, kRapporRefusal, "rappor"};

// --f, --p, --q and --hashes set its privacy: not --epsilon, nor the mean mechanisms'
// options, the sketches' width or the options of items [0, K) but --k.
std::string refusal(const LoadOption& o, const std::string&) {
  if (&o == &options::epsilon) return "--epsilon does not apply to rappor: --f, --p, --q and --hashes set its privacy";
  if (&o == &options::width) return "--width applies to the sketches, not rappor";
  const std::string owner = o.owner ? o.owner : "";
  if (owner == "mean")
    return "--max-value, --gamma, --granularity, --constant-users, --drift and --rounds do not apply to rappor";
  if (owner == "freq") return std::string("--") + o.name + " applies to the frequency oracles over [0, K), not rappor";
  return "";
}

std::unique_ptr<FamilyLoad> prepare(const CommandLine& cl, const std::string& mechanism) {
  RapporLoadSpec r;
  words_or_zipf(cl, mechanism, &r.words_path, &r.zipf_s, &r.k);
  if (r.words_path.empty() && r.zipf_s == 0)
    throw UsageError("rappor needs --words FILE (word<TAB>count lines) or --distribution zipf:S --k K");
  if (!r.words_path.empty() && cl.has(options::k)) throw UsageError("--k applies to Zipf ids, not to words");
  RapporParams& P = r.params;
  P.bits = cl.count(kBits, P.bits);
  P.hashes = cl.count(options::hashes, 0) > 0 ? cl.count(options::hashes, 0) : P.hashes;
  P.cohorts = cl.count(kCohorts, P.cohorts);
  P.f = cl.number(kF, P.f);
  P.p = cl.number(kP, P.p);
  P.q = cl.number(kQ, P.q);
  r.users = cl.count(options::users, 1000000);
  r.seed = cl.seed(options::seed);
  r.first_user_id = cl.count(options::first_user_id, 1);
  r.local_decode = !cl.has(options::no_decode);
  RapporOutput output{cl.count(options::top, 10), cl.text(options::truth), cl.count(kCandidates, 1000)};
  auto load = std::make_unique<RapporLoad>(r, output);
  if (output.candidates < 1) throw UsageError("--candidates must be at least 1");
  return load;
}

}  // namespace

std::string RapporLoad::aggregate_sql() const {
  const RapporParams& P = spec_->params;
  return aggregate_call("ldp.rappor_agg", report_columns(),
                        {std::to_string(P.hashes), std::to_string(P.cohorts), num(P.f), num(P.p), num(P.q)});
}

std::optional<std::string> RapporLoad::local_summary() const {
  if (!result_.local) return std::nullopt;
  return core_text(result_.local->summary(), rappor_summary_text_size, rappor_summary_to_text);
}

void RapporLoad::print_results(const LoadTarget& target) const {
  const RapporLoadSpec& s = *spec_;
  const RapporLoadResult& r = result_;
  const RapporParams& P = s.params;
  std::printf("mechanism=rappor\n");
  std::printf("bits=%" PRId64 "\nhashes=%" PRId64 "\ncohorts=%" PRId64 "\n", P.bits, P.hashes, P.cohorts);
  std::printf("f=%s\np=%s\nq=%s\n", num(P.f).c_str(), num(P.p).c_str(), num(P.q).c_str());
  const RapporPrivacy priv = rappor_privacy(P.hashes, P.f, P.p, P.q, r.truth.reports);
  std::printf("epsilon_one=%s\nepsilon_inf=%s\n", num(priv.epsilon_one).c_str(), num(priv.epsilon_inf).c_str());
  if (priv.has_detection) std::printf("detection_frequency=%s\n", num(priv.detection_frequency).c_str());
  if (s.integers())
    std::printf("distribution=zipf:%s\nk=%" PRId64 "\n", num(s.zipf_s).c_str(), s.k);
  else
    std::printf("words_file=%s\nwords_used=%zu\n", s.words_path.c_str(), r.items.size());
  std::printf("users=%" PRId64 "\n", s.users);
  print_load_lines(s.seed, target.table, r.truth);
  if (!output_.truth_path.empty()) std::printf("truth_file=%s\n", output_.truth_path.c_str());

  // the local decode against the most likely items (words by count, ranks in order)
  RapporDecode d;
  const size_t ncand = std::min(r.items.size(), static_cast<size_t>(output_.candidates));
  if (r.local) {
    const std::vector<std::string_view> cands(r.items.begin(), r.items.begin() + static_cast<std::ptrdiff_t>(ncand));
    const auto start = std::chrono::steady_clock::now();
    d = rappor_decode(r.local->summary(), cands);
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    int64_t detected = 0, present = 0;
    for (size_t j = 0; j < ncand; ++j) {
      detected += d.items[j].detected;
      present += d.items[j].detected && r.truth.true_counts[j] > 0;
    }
    std::printf("local_candidates=%zu\n", ncand);
    std::printf("local_lasso=%d\n", d.lasso ? 1 : 0);
    std::printf("local_detected=%" PRId64 "\n", detected);
    std::printf("local_detected_present=%" PRId64 "\n", present);
    std::printf("local_decode_seconds=%s\n", num(secs).c_str());
  }
  const size_t limit = output_.top == 0 ? r.items.size() : static_cast<size_t>(output_.top);
  const std::vector<int64_t> top = r.truth.top_items(limit);
  std::printf("top_items=%s\n", item_list(top).c_str());
  for (int64_t i : top) {
    const auto u = static_cast<size_t>(i);
    std::printf("item.%" PRId64 ".%s=%s\n", i, s.integers() ? "id" : "word", r.items[u].c_str());
    std::printf("item.%" PRId64 ".true_count=%" PRId64 "\n", i, r.truth.true_counts[u]);
    if (r.local && u < ncand) {
      const RapporCandidateEstimate& e = d.items[u];
      std::printf("item.%" PRId64 ".local_count=%s\n", i, num(e.count).c_str());
      std::printf("item.%" PRId64 ".local_std_error=%s\n", i, num(e.std_error).c_str());
      std::printf("item.%" PRId64 ".local_detected=%d\n", i, e.detected ? 1 : 0);
    }
  }
  std::fflush(stdout);
}

void RapporLoad::print(const LoadTarget& target, double seconds) const {
  const RapporLoadResult& r = result_;
  if (!output_.truth_path.empty()) write_truth_file(output_.truth_path, r.items, r.truth);
  try {
    print_results(target);
  } catch (const ldp::Error& e) {
    throw UsageError(std::string("the local decode failed: ") + e.what());
  }
  const RapporParams& P = spec_->params;
  const double rate = seconds > 0 ? static_cast<double>(r.truth.reports) / seconds : 0;
  std::fprintf(stderr,
               "ldp_load: %" PRId64 " rappor reports (bits = %" PRId64 ", hashes = %" PRId64 ", cohorts = %" PRId64
               ") into %s in %.2f s: %s reports/s\n",
               r.truth.reports, P.bits, P.hashes, P.cohorts, target.table.c_str(), seconds,
               Progress::human(rate).c_str());
}

const LoadFamily& rappor_family() {
  static const LoadFamily row{
      "rappor",
      {"rappor"},
      kSynopsis,
      kMechanismHelp,
      kOptionHelp,
      kHelp,
      // --print-summary taken, as ever, though RAPPOR prints no local_summary=
      {&options::k, &options::hashes, &options::words, &options::top, &options::print_summary, &options::no_decode,
       &options::truth, &kBits, &kCohorts, &kCandidates, &kF, &kP, &kQ},
      {},
      refusal,
      prepare,
      {"--mechanism rappor --bits 32 --cohorts 8 --words {words} --users 20000 --seed 41 --candidates 200",
       "--mechanism rappor --bits 64 --hashes 3 --cohorts 16 --p 0.25 --distribution zipf:1.1 --k 200 "
       "--users 20000 --seed 42"}};
  return row;
}

}  // namespace ldp::tools
