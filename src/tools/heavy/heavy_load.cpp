// ldp_load --mechanism treehist|bitstogram|pem|sfp: TreeHist, Bitstogram, PEM or SFP
// reports of words or Zipf integer ids (heavy_population.*), loaded with COPY; the
// protocol, the truth, and the local decoder's heavy hitters (what ldp.heavy_hitters returns for the table) with their
// recall and precision against the true set on stdout.
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "tools/common/load_family.hpp"
#include "tools/common/pg_load.hpp"
#include "tools/common/progress.hpp"

namespace ldp::tools {

namespace {

void print_protocol(const HeavyCli& cli, const HeavyLoadResult& r) {
  const HeavyLoadSpec& s = cli.spec;
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
  print_load_lines(s.seed, cli.table, r.truth);
}

void print_results(const HeavyCli& cli, const HeavyLoadResult& r) {
  print_protocol(cli, r);
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
  if (!cli.truth_path.empty()) std::printf("truth_file=%s\n", cli.truth_path.c_str());

  const size_t limit = cli.top == 0 ? r.items.size() : static_cast<size_t>(cli.top);
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
    std::string cands;
    for (int64_t c : h.candidates) cands += (cands.empty() ? "" : ",") + std::to_string(c);
    std::printf("local_candidates=%s\n", cands.c_str());
    if (cli.print_summary) std::printf("local_summary=%s\n", r.local->text().c_str());
    est = r.local->frequencies(top_items);
  }
  std::string list;
  for (int64_t i : top) list += (list.empty() ? "" : ",") + std::to_string(i);
  std::printf("top_items=%s\n", list.c_str());
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
}

}  // namespace

int run_heavy_load(const HeavyCli& cli) {
  const HeavyProtocol p = validate_heavy_spec(cli.spec);
  quote_table_name(cli.table);
  if (cli.top < 0) throw UsageError("--top must be >= 0");
  // Read and check the word file before connecting (the load reads it again), and say
  // what the protocol cannot encode.
  if (!cli.spec.integers()) {
    const HeavyWords w = read_heavy_words(cli.spec, p);
    if (w.skipped > 0) {
      std::string eg;
      for (const std::string& e : w.skipped_examples) eg += (eg.empty() ? "" : "; ") + e;
      std::fprintf(stderr,
                   "ldp_load: %" PRId64 " of the %" PRId64 " words of %s cannot be encoded by the protocol and are "
                   "skipped (%.2f%% of the file's counts; no user holds them), e.g. %s\n",
                   w.skipped, w.in_file, cli.spec.words_path.c_str(), 100 * w.skipped_share, eg.c_str());
    }
  }

  HeavyLoadResult result;
  int rc = load_with_progress(cli.dsn, heavy_mechanism_name(p.mech()), cli.spec.users, cli.table, cli.analyze, &result,
                              [&](pqxx::connection& conn, const ProgressFn& on_progress) {
                                return load_heavy_reports(conn, cli.spec, cli.table, cli.truncate, on_progress,
                                                          /*analyze=*/false);
                              });
  if (rc != 0) return rc;
  if (!cli.truth_path.empty()) write_heavy_truth(cli.truth_path, result);

  print_results(cli, result);

  double rate = result.seconds > 0 ? static_cast<double>(result.truth.reports) / result.seconds : 0;
  std::fprintf(stderr,
               "ldp_load: %" PRId64 " %s reports (%s, %" PRId64 " levels, hashes = %" PRId64 ", width = %" PRId64
               ") into %s in %.2f s: %s reports/s\n",
               result.truth.reports, heavy_mechanism_name(p.mech()), heavy_domain_name(p.dom()), p.levels, p.hashes, p.width, cli.table.c_str(),
               result.seconds, Progress::human(rate).c_str());
  return 0;
}

}  // namespace ldp::tools
