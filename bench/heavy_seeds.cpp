// Recall and precision of the heavy-hitters protocols over seeds (issue 20), without a
// server: each run draws USERS devices from a word file as `ldp_load --mechanism M
// --words FILE --seed S` does (src/tools/heavy/heavy_population.cpp: the core's device
// encoder, the core's summary fed report by report, heavy_prepare and heavy_hitters:
// the code ldp.<m>_encode, ldp.<m>_agg and ldp.heavy_hitters run in the server), then
// compares the output with the devices' true counts:
//
//   - recall and precision against the true set above τ (the protocol's default), at τ
//     and at τ − σ (σ the output estimates' standard error: TreeHist σ_F, PEM σ_PEM,
//     SFP σ_word), and the decode time (heavy_prepare + heavy_hitters at τ; wall and
//     the thread's CPU time);
//   - issue 20's checks at τ: true words with f >= τ + 3σ_P not returned; returned words
//     with f <= τ − 3·(their std_error); returned intervals missing the truth, against
//     max(⌊0.1R⌋, the 99th percentile of Binomial(R, 0.06));
//   - why true words above τ are missed: "cut" (the final estimate is below the
//     threshold: the cut's own noise) or "pruned" (the final estimate is at or above
//     it: the word was lost at a prefix or fragment level).
//
//   ldp_heavy_seeds WORDS USERS FIRST_SEED SEEDS [--mechanisms treehist,pem,sfp]
//                   [--lowercase] [--noise-children R] [--words-missed]
//
// Prints one line per run and, per mechanism, a Markdown row of means (min–max).
// bench/heavy_seeds.sh runs it for bench/RESULTS.md.
#include <algorithm>
#include <chrono>
#include <ctime>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/heavy/heavy_summary.hpp"
#include "tools/heavy/heavy_population.hpp"

using namespace ldp;
using namespace ldp::tools;

namespace {

struct Run {
  double recall = 1, precision = 1, recall_low = 1, precision_low = 1, decode_ms = 0, decode_cpu_ms = 0;
  int64_t true_heavy = 0, returned = 0, returned_low = 0;
  int64_t missed_cut = 0, missed_pruned = 0, missed_cut_low = 0, missed_pruned_low = 0;
  int64_t missed_guaranteed = 0, returned_too_low = 0, intervals_missing = 0, interval_bound = 0;
  double tau = 0, sigma_prune = 0, sigma_final = 0;
  std::string queries;  // candidates queried at each level (SFP: fragments, then words), at τ
};

double cpu_ms() {  // this thread's CPU time (the machine may be shared)
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return 1e3 * static_cast<double>(ts.tv_sec) + 1e-6 * static_cast<double>(ts.tv_nsec);
}

// The 99th percentile of Binomial(r, 0.06).
int64_t binomial_p99(int64_t r) {
  int64_t k = 0;
  for (double cdf = 0, pmf = std::pow(0.94, static_cast<double>(r)); k <= r; ++k) {
    cdf += pmf;
    if (cdf >= 0.99) break;
    pmf *= static_cast<double>(r - k) / static_cast<double>(k + 1) * 0.06 / 0.94;
  }
  return k;
}

struct Score {
  int64_t hits = 0, cut = 0, pruned = 0;
};

// Hits among the returned, and the true words above tau missed, by cause.
Score score(const std::unordered_map<std::string, int64_t>& truth, const HeavyHitters& h, double tau, double cut_at,
            const HeavySummary& s, const int64_t* table, bool print, const char* label) {
  Score sc;
  std::unordered_map<std::string, bool> returned;
  for (const HeavyHitter& x : h.items) {
    returned[x.item] = true;
    auto f = truth.find(x.item);
    sc.hits += f != truth.end() && static_cast<double>(f->second) >= tau;
  }
  for (const auto& [item, f] : truth) {
    if (static_cast<double>(f) < tau || returned.count(item) != 0) continue;
    const HeavyEstimate e = heavy_frequency(s, table, item);
    const bool cut = e.count < cut_at;
    (cut ? sc.cut : sc.pruned) += 1;
    if (print) {
      std::printf("    missed (%s) %-6s f %lld, final estimate %.0f (%s)", label, item.c_str(),
                  static_cast<long long>(f), e.count, cut ? "cut" : "pruned");
      if (s.protocol.mech() == HeavyMechanism::TreeHist)
        for (int64_t l = 1; l < s.protocol.levels; ++l)
          std::printf(", level %lld %.0f (τ_P %.0f)", static_cast<long long>(l),
                      heavy_prefix_frequency(s, table, item, l).count, h.prune_thresholds[static_cast<size_t>(l - 1)]);
      std::printf("\n");
    }
  }
  return sc;
}

Run run_one(HeavyMechanism m, const std::string& words, int64_t users, uint64_t seed, bool lowercase,
            const HeavyHittersQuery& q, bool print_missed) {
  HeavyLoadSpec spec = heavy_words_spec(m, words, users, seed);
  spec.lowercase = lowercase;
  const HeavyLoadResult r = generate_heavy_reports(spec, {});
  const HeavySummary& s = **r.local;
  std::unordered_map<std::string, int64_t> truth;
  for (size_t i = 0; i < r.items.size(); ++i)
    if (r.truth.true_counts[i] > 0) truth.emplace(r.items[i], r.truth.true_counts[i]);

  Run out;
  const double cpu_start = cpu_ms();
  const auto start = std::chrono::steady_clock::now();
  std::vector<int64_t> table(static_cast<size_t>(s.cells()));
  heavy_prepare(s, table.data());
  const HeavyHitters h = heavy_hitters(s, table.data(), q);
  out.decode_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  out.decode_cpu_ms = cpu_ms() - cpu_start;
  HeavyHittersQuery low = q;
  low.threshold = h.threshold - h.sigma_final;
  const HeavyHitters hl = heavy_hitters(s, table.data(), low);

  const double n = static_cast<double>(s.n), tau = h.threshold;
  out.tau = tau;
  for (int64_t c : h.candidates) out.queries += (out.queries.empty() ? "" : "+") + std::to_string(c);
  out.sigma_prune = h.sigma_prune;
  out.sigma_final = h.sigma_final;
  for (const auto& [item, f] : truth) out.true_heavy += static_cast<double>(f) >= tau;
  const Score a = score(truth, h, tau, tau, s, table.data(), print_missed, "τ");
  const Score b = score(truth, hl, tau, low.threshold, s, table.data(), print_missed, "τ-σ");
  out.returned = static_cast<int64_t>(h.items.size());
  out.returned_low = static_cast<int64_t>(hl.items.size());
  auto ratio = [](int64_t a, int64_t b) { return b > 0 ? static_cast<double>(a) / static_cast<double>(b) : 1.0; };
  out.recall = ratio(a.hits, out.true_heavy);
  out.precision = ratio(a.hits, out.returned);
  out.recall_low = ratio(b.hits, out.true_heavy);
  out.precision_low = ratio(b.hits, out.returned_low);
  out.missed_cut = a.cut, out.missed_pruned = a.pruned, out.missed_cut_low = b.cut, out.missed_pruned_low = b.pruned;

  std::unordered_map<std::string, bool> returned;
  for (const HeavyHitter& x : h.items) {
    returned[x.item] = true;
    auto it = truth.find(x.item);
    const double f = it == truth.end() ? 0 : static_cast<double>(it->second);
    out.returned_too_low += f <= tau - 3 * x.std_error * n;
    out.intervals_missing += f / n < x.lower || f / n > x.upper;
  }
  for (const auto& [item, f] : truth)
    out.missed_guaranteed += static_cast<double>(f) >= tau + 3 * h.sigma_prune && returned.count(item) == 0;
  out.interval_bound = std::max<int64_t>(out.returned / 10, binomial_p99(out.returned));
  return out;
}

struct Range {
  std::vector<double> v;
  void add(double x) { v.push_back(x); }
  std::string str(const char* fmt) const {
    double mean = 0;
    for (double x : v) mean += x / static_cast<double>(v.size());
    char buf[128];
    std::string f = std::string(fmt) + " (" + fmt + "–" + fmt + ")";
    std::snprintf(buf, sizeof buf, f.c_str(), mean, *std::min_element(v.begin(), v.end()),
                  *std::max_element(v.begin(), v.end()));
    return buf;
  }
};

int usage() {
  std::fprintf(stderr,
               "usage: ldp_heavy_seeds WORDS USERS FIRST_SEED SEEDS [--mechanisms treehist,pem,sfp] [--lowercase] "
               "[--noise-children R] [--words-missed]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 5) return usage();
  const std::string words = argv[1];
  const int64_t users = std::atoll(argv[2]);
  const uint64_t first_seed = std::strtoull(argv[3], nullptr, 10);
  const int seeds = std::atoi(argv[4]);
  std::string mechanisms = "treehist,pem,sfp";
  bool lowercase = false, print_missed = false;
  HeavyHittersQuery q;
  for (int i = 5; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--mechanisms" && i + 1 < argc) mechanisms = argv[++i];
    else if (a == "--lowercase") lowercase = true;
    else if (a == "--words-missed") print_missed = true;
    else if (a == "--noise-children" && i + 1 < argc) q.noise_children = std::atof(argv[++i]);
    else return usage();
  }
  if (users < 1 || seeds < 1) return usage();
  std::printf("words %s%s, users %lld, seeds %llu..%llu, ε = 2, noise children %g\n", words.c_str(),
              lowercase ? " (lower-cased)" : "", static_cast<long long>(users),
              static_cast<unsigned long long>(first_seed), static_cast<unsigned long long>(first_seed + seeds - 1),
              q.noise_children);
  std::vector<std::string> rows;
  std::stringstream list(mechanisms);
  for (std::string name; std::getline(list, name, ',');) {
    HeavyMechanism m = HeavyMechanism::TreeHist;
    if (name == "pem") m = HeavyMechanism::PEM;
    else if (name == "sfp") m = HeavyMechanism::SFP;
    else if (name != "treehist") return usage();
    Range rec, prec, rec_low, prec_low, ms, cpu;
    int64_t cut = 0, pruned = 0, cut_low = 0, pruned_low = 0, guaranteed = 0, too_low = 0, over_bound = 0;
    int64_t worst_missing = 0, worst_bound = 0;
    Run last;
    for (int k = 0; k < seeds; ++k) {
      const uint64_t seed = first_seed + static_cast<uint64_t>(k);
      const Run r = run_one(m, words, users, seed, lowercase, q, print_missed);
      std::printf(
          "%s seed %llu: τ %.0f (σ_P %.0f, σ %.0f), %lld true above τ; at τ %lld returned, recall %.3f, precision "
          "%.3f, missed %lld cut + %lld pruned; at τ-σ %lld returned, recall %.3f, precision %.3f, missed %lld cut + "
          "%lld pruned; queries %s, decode %.0f ms (CPU %.0f ms); checks: %lld missed >= τ+3σ_P, %lld returned <= τ-3se, %lld of %lld "
          "intervals miss (bound %lld)\n",
          name.c_str(), static_cast<unsigned long long>(seed), r.tau, r.sigma_prune, r.sigma_final,
          static_cast<long long>(r.true_heavy), static_cast<long long>(r.returned), r.recall, r.precision,
          static_cast<long long>(r.missed_cut), static_cast<long long>(r.missed_pruned),
          static_cast<long long>(r.returned_low), r.recall_low, r.precision_low,
          static_cast<long long>(r.missed_cut_low), static_cast<long long>(r.missed_pruned_low), r.queries.c_str(),
          r.decode_ms,
          r.decode_cpu_ms,
          static_cast<long long>(r.missed_guaranteed), static_cast<long long>(r.returned_too_low),
          static_cast<long long>(r.intervals_missing), static_cast<long long>(r.returned),
          static_cast<long long>(r.interval_bound));
      std::fflush(stdout);
      rec.add(r.recall), prec.add(r.precision), rec_low.add(r.recall_low), prec_low.add(r.precision_low);
      ms.add(r.decode_ms), cpu.add(r.decode_cpu_ms);
      cut += r.missed_cut, pruned += r.missed_pruned, cut_low += r.missed_cut_low, pruned_low += r.missed_pruned_low;
      guaranteed += r.missed_guaranteed, too_low += r.returned_too_low;
      over_bound += r.intervals_missing > r.interval_bound;
      if (r.intervals_missing * std::max<int64_t>(worst_bound, 1) >= worst_missing * std::max<int64_t>(r.interval_bound, 1))
        worst_missing = r.intervals_missing, worst_bound = r.interval_bound;
      last = r;
    }
    char buf[1024];
    std::snprintf(buf, sizeof buf,
                  "| %s | %.0e | %d | %.2f | %s | %s | %s | %s | %lld + %lld | %lld + %lld | %s | %s | %lld | %lld | %lld "
                  "(worst %lld of bound %lld) |",
                  name.c_str(), static_cast<double>(users), seeds, last.tau / last.sigma_final, rec.str("%.3f").c_str(),
                  prec.str("%.3f").c_str(), rec_low.str("%.3f").c_str(), prec_low.str("%.3f").c_str(),
                  static_cast<long long>(cut), static_cast<long long>(pruned), static_cast<long long>(cut_low),
                  static_cast<long long>(pruned_low), ms.str("%.0f").c_str(), cpu.str("%.0f").c_str(), static_cast<long long>(guaranteed),
                  static_cast<long long>(too_low), static_cast<long long>(over_bound),
                  static_cast<long long>(worst_missing), static_cast<long long>(worst_bound));
    rows.push_back(buf);
  }
  std::printf(
      "\n| protocol | n | seeds | τ/σ | recall at τ | precision at τ | recall at τ−σ | precision at τ−σ | missed at τ: cut "
      "+ pruned | at τ−σ | decode ms | decode CPU ms | missed ≥ τ+3σ_P | returned ≤ τ−3se | runs over the interval bound |\n"
      "|---|---|---:|---:|---|---|---|---|---|---|---|---|---:|---:|---|\n");
  for (const std::string& r : rows) std::printf("%s\n", r.c_str());
  return 0;
}
