// ldp_load --mechanism rappor: RAPPOR reports of words or Zipf ids (rappor_population.*),
// per-device cohorts and secrets, loaded with COPY; the parameters, the truth, and the
// local decode (what ldp.rappor_decode returns for the table's summary and the same
// candidates) on stdout.
#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/error.hpp"
#include "tools/common/load_family.hpp"
#include "tools/common/pg_load.hpp"
#include "tools/common/progress.hpp"

namespace ldp::tools {

namespace {

void print_results(const RapporCli& cli, const RapporLoadResult& r) {
  const RapporLoadSpec& s = cli.spec;
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
  print_load_lines(s.seed, cli.table, r.truth);
  if (!cli.truth_path.empty()) std::printf("truth_file=%s\n", cli.truth_path.c_str());

  // the local decode against the most likely items (words by count, ranks in order)
  RapporDecode d;
  const size_t ncand = std::min(r.items.size(), static_cast<size_t>(cli.candidates));
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
  const size_t limit = cli.top == 0 ? r.items.size() : static_cast<size_t>(cli.top);
  const std::vector<int64_t> top = r.truth.top_items(limit);
  std::string list;
  for (int64_t i : top) list += (list.empty() ? "" : ",") + std::to_string(i);
  std::printf("top_items=%s\n", list.c_str());
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

}  // namespace

int run_rappor_load(const RapporCli& cli) {
  validate_rappor_spec(cli.spec);
  quote_table_name(cli.table);
  if (cli.top < 0) throw UsageError("--top must be >= 0");
  if (cli.candidates < 1) throw UsageError("--candidates must be at least 1");
  RapporLoadResult result;
  int rc = load_with_progress(cli.dsn, "rappor", cli.spec.users, cli.table, cli.analyze, &result,
                              [&](pqxx::connection& conn, const ProgressFn& on_progress) {
                                return load_rappor_reports(conn, cli.spec, cli.table, cli.truncate, on_progress,
                                                           /*analyze=*/false);
                              });
  if (rc != 0) return rc;
  if (!cli.truth_path.empty()) write_truth_file(cli.truth_path, result.items, result.truth);
  try {
    print_results(cli, result);
  } catch (const ldp::Error& e) {
    throw UsageError(std::string("the local decode failed: ") + e.what());
  }
  const RapporParams& P = cli.spec.params;
  const double rate = result.seconds > 0 ? static_cast<double>(result.truth.reports) / result.seconds : 0;
  std::fprintf(stderr,
               "ldp_load: %" PRId64 " rappor reports (bits = %" PRId64 ", hashes = %" PRId64 ", cohorts = %" PRId64
               ") into %s in %.2f s: %s reports/s\n",
               result.truth.reports, P.bits, P.hashes, P.cohorts, cli.table.c_str(), result.seconds,
               Progress::human(rate).c_str());
  return 0;
}

}  // namespace ldp::tools
