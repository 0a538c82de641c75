#include "tools/common/load_family.hpp"

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "tools/common/pg_load.hpp"
#include "tools/common/progress.hpp"

namespace ldp::tools {

// seed=, table=, reports= and distinct_items= (every word loader: ldp_load_freq.hpp)
void print_load_lines(const std::optional<uint64_t>& seed, const std::string& table, const FreqTally& t) {
  if (seed)
    std::printf("seed=%" PRIu64 "\n", *seed);
  else
    std::printf("seed=none\n");
  std::printf("table=%s\n", table.c_str());
  std::printf("reports=%" PRId64 "\n", t.reports);
  int64_t distinct = 0;
  for (int64_t c : t.true_counts) distinct += c > 0;
  std::printf("distinct_items=%" PRId64 "\n", distinct);
}

namespace {

// max over items of |local frequency - true frequency|
double max_abs_error(const FreqTally& t, const std::vector<ItemEstimate>& est) {
  double worst = 0;
  for (size_t v = 0; v < est.size(); ++v)
    worst = std::fmax(worst,
                      std::fabs(est[v].frequency - t.true_frequency(static_cast<int64_t>(v))));
  return worst;
}

// top_items= and the item.<i>.* lines of those items (est: empty, or every item's)
void print_top_items(const std::vector<int64_t>& top, const std::vector<std::string>& words, const FreqTally& t,
                     const std::vector<ItemEstimate>& est) {
  std::string list;
  for (int64_t item : top) {
    if (!list.empty()) list.push_back(',');
    list += std::to_string(item);
  }
  std::printf("top_items=%s\n", list.c_str());
  for (int64_t item : top) {
    const auto v = static_cast<size_t>(item);
    if (v < words.size()) std::printf("item.%" PRId64 ".word=%s\n", item, words[v].c_str());
    std::printf("item.%" PRId64 ".true_count=%" PRId64 "\n", item, t.true_counts[v]);
    std::printf("item.%" PRId64 ".true_frequency=%s\n", item, num(t.true_frequency(item)).c_str());
    if (!est.empty()) {
      std::printf("item.%" PRId64 ".local_frequency=%s\n", item, num(est[v].frequency).c_str());
      std::printf("item.%" PRId64 ".local_std_error=%s\n", item, num(est[v].std_error).c_str());
    }
  }
}

void print_results(const FreqCli& cli, const FreqLoadResult& r) {
  const FreqLoadSpec& s = cli.spec;
  std::printf("mechanism=%s\n", freq_mechanism_name(s.mechanism));
  std::printf("epsilon=%s\n", num(s.epsilon).c_str());
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
  print_load_lines(s.seed, cli.table, r.total);

  std::vector<ItemEstimate> est;
  if (r.total.local) {
    est = local_frequencies(**r.total.local);
    std::printf("n=%" PRId64 "\n", (*r.total.local)->n);
    std::printf("local_max_abs_error=%s\n", num(max_abs_error(r.total, est)).c_str());
    if (cli.print_summary) std::printf("local_summary=%s\n", r.total.local->text().c_str());
  }
  size_t limit = cli.top == 0 ? static_cast<size_t>(s.k) : static_cast<size_t>(cli.top);
  print_top_items(r.total.top_items(limit), r.words, r.total, est);
  for (size_t i = 0; i < r.rounds.size(); ++i) {
    const FreqTally& t = r.rounds[i];
    std::printf("round_%zu.reports=%" PRId64 "\n", i + 1, t.reports);
    if (t.local)
      std::printf("round_%zu.local_max_abs_error=%s\n", i + 1,
                  num(max_abs_error(t, local_frequencies(**t.local))).c_str());
  }
  std::fflush(stdout);
}

void print_sketch_results(const SketchCli& cli, const SketchLoadResult& r) {
  const SketchLoadSpec& s = cli.spec;
  std::printf("mechanism=%s\n", sketch_mechanism_name(s.mechanism));
  std::printf("epsilon=%s\n", num(s.epsilon).c_str());
  std::printf("hashes=%" PRId64 "\n", s.hashes);
  std::printf("width=%" PRId64 "\n", s.width);
  std::printf("words_file=%s\n", s.words_path.c_str());
  std::printf("words_in_file=%zu\n", r.words.size());
  std::printf("users=%" PRId64 "\n", s.users);
  print_load_lines(s.seed, cli.table, r.truth);

  size_t limit = cli.top == 0 ? r.words.size() : static_cast<size_t>(cli.top);
  std::vector<int64_t> top = r.truth.top_items(limit);
  std::vector<ItemEstimate> est;  // of every word in the file
  if (r.local) {
    est = local_sketch_frequencies(**r.local, r.words);
    std::printf("n=%" PRId64 "\n", (*r.local)->n);
    std::printf("local_max_abs_error=%s\n", num(max_abs_error(r.truth, est)).c_str());
    if (cli.print_summary) std::printf("local_summary=%s\n", r.local->text().c_str());
  }
  print_top_items(top, r.words, r.truth, est);
  std::fflush(stdout);
}

}  // namespace

int run_freq_load(const FreqCli& cli) {
  validate_freq_spec(cli.spec);
  quote_table_name(cli.table);
  if (cli.top < 0) throw UsageError("--top must be >= 0");
  // Read and check the word file before connecting (the load reads it again).
  { ItemPopulation check(cli.spec.distribution, cli.spec.k); }
  const char* mname = freq_mechanism_name(cli.spec.mechanism);

  FreqLoadResult result;
  int rc = load_with_progress(
      cli.dsn, mname, cli.spec.users * cli.spec.rounds, cli.table, cli.analyze, &result,
      [&](pqxx::connection& conn, const ProgressFn& on_progress) {
        return load_freq_reports(conn, cli.spec, cli.table, cli.truncate, on_progress,
                                 /*analyze=*/false);
      });
  if (rc != 0) return rc;

  print_results(cli, result);

  if (cli.spec.distribution.kind == ItemDistribution::Kind::Words &&
      static_cast<int64_t>(result.words.size()) < cli.spec.k)
    std::fprintf(stderr,
                 "ldp_load: warning: the word file has %zu words, fewer than k = %" PRId64
                 ": items %zu..%" PRId64 " are never held\n",
                 result.words.size(), cli.spec.k, result.words.size(), cli.spec.k - 1);
  double rate =
      result.seconds > 0 ? static_cast<double>(result.total.reports) / result.seconds : 0;
  std::string shape = cli.spec.rounds > 1 ? " (" + std::to_string(cli.spec.users) + " users x " +
                                                std::to_string(cli.spec.rounds) + " rounds)"
                                          : "";
  std::fprintf(stderr,
               "ldp_load: %" PRId64 " %s reports%s (k = %" PRId64 ") into %s in %.2f s: %s "
               "reports/s\n",
               result.total.reports, mname, shape.c_str(), cli.spec.k, cli.table.c_str(),
               result.seconds, Progress::human(rate).c_str());
  return 0;
}

int run_sketch_load(const SketchCli& cli) {
  validate_sketch_spec(cli.spec);
  quote_table_name(cli.table);
  if (cli.top < 0) throw UsageError("--top must be >= 0");
  // Read and check the word file before connecting (the load reads it again).
  { WordPopulation check(cli.spec.words_path); }
  const char* mname = sketch_mechanism_name(cli.spec.mechanism);

  SketchLoadResult result;
  int rc = load_with_progress(
      cli.dsn, mname, cli.spec.users, cli.table, cli.analyze, &result,
      [&](pqxx::connection& conn, const ProgressFn& on_progress) {
        return load_sketch_reports(conn, cli.spec, cli.table, cli.truncate, on_progress,
                                   /*analyze=*/false);
      });
  if (rc != 0) return rc;

  print_sketch_results(cli, result);

  double rate =
      result.seconds > 0 ? static_cast<double>(result.truth.reports) / result.seconds : 0;
  std::fprintf(stderr,
               "ldp_load: %" PRId64 " %s reports (hashes = %" PRId64 ", width = %" PRId64
               ") into %s in %.2f s: %s reports/s\n",
               result.truth.reports, mname, cli.spec.hashes, cli.spec.width, cli.table.c_str(),
               result.seconds, Progress::human(rate).c_str());
  return 0;
}

}  // namespace ldp::tools
