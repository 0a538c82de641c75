// A HEAVYTHRESH simulation against the core's rules, with the re-estimate-every-epoch
// baseline (thresh_hist_sim.hpp).
#include "tools/thresh/thresh_hist_sim.hpp"

#include <getopt.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>

#include "core/thresh/server.hpp"
#include "tools/common/items.hpp"
#include "tools/common/progress.hpp"
#include "tools/thresh/thresh_scenario.hpp"

namespace ldp::tools {

namespace th = ldp::thresh;

namespace {

// A hashtogram summary in memory, prepared for reading.
class Oracle {
 public:
  explicit Oracle(const SketchParams& params)
      : mem_(sketch_summary_size(SketchMechanism::Hashtogram, params)), params_(params) {
    clear();
  }
  void clear() { sketch_summary_init(summary(), SketchMechanism::Hashtogram, params_); }
  void add(const SignedSketchReport& r) { sketch_add_signed(summary(), r.hash_index, r.coefficient, r.report); }
  void prepare() {
    table_.resize(static_cast<size_t>(summary()->cells()));
    scratch_.resize(sketch_scratch_words(*summary()));
    sketch_prepare(*summary(), table_.data());
  }
  SketchSummary* summary() { return reinterpret_cast<SketchSummary*>(mem_.data()); }
  const int64_t* table() const { return table_.data(); }
  uint64_t* scratch() { return scratch_.data(); }

 private:
  std::vector<uint8_t> mem_;
  SketchParams params_;
  std::vector<int64_t> table_;
  std::vector<uint64_t> scratch_;
};

const std::vector<double>& dist_at(const HistGroupSpec& g, int32_t epoch) {
  const std::vector<double>* d = &g.phases.front().dist;
  for (const auto& ph : g.phases)
    if (ph.from_epoch <= epoch) d = &ph.dist;
  return *d;
}

// The top `k` items of the true distribution f.
std::vector<size_t> top_items(const std::vector<double>& f, int k) {
  std::vector<size_t> order(f.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  size_t n = std::min(order.size(), static_cast<size_t>(k));
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(n), order.end(),
                    [&](size_t a, size_t b) { return f[a] > f[b]; });
  order.resize(n);
  return order;
}

}  // namespace

HistSimResult simulate_histograms(const HistSimSpec& spec, const std::function<void(int64_t, int64_t)>& progress) {
  if (spec.groups.empty() || spec.words.empty()) throw std::invalid_argument("no groups or no dictionary");
  th::HistogramConfig config = spec.config;
  config.stream.users = 0;
  int64_t smallest = INT64_MAX;
  for (const auto& g : spec.groups) {
    config.stream.users += g.size;
    smallest = std::min(smallest, g.size);
    for (const auto& ph : g.phases)
      if (ph.dist.size() != spec.words.size()) throw std::invalid_argument("a distribution is not over the dictionary");
  }
  config.stream.groups = static_cast<int32_t>(spec.groups.size());
  if (config.stream.min_group_size == 0) config.stream.min_group_size = smallest;
  HistSimResult result;
  result.params = th::derive_histogram_params(config);
  const th::HistogramParams& p = result.params;
  const int32_t T = p.stream.config.epochs;
  const int64_t n = p.stream.config.users;
  result.baseline_epsilon = p.stream.worst_case_loss() / T;

  // Φ's columns of the dictionary, once
  const size_t d = spec.words.size(), t = static_cast<size_t>(p.hashes);
  std::vector<uint32_t> cells(d * t);
  std::unique_ptr<bool[]> plus(new bool[d * t]);
  for (size_t i = 0; i < d; ++i) th::item_column(p, spec.words[i], &cells[i * t], &plus[i * t]);

  std::vector<th::HistogramClient::State> users(static_cast<size_t>(n));
  std::vector<int> group_of(static_cast<size_t>(n));
  for (size_t g = 0, i = 0; g < spec.groups.size(); ++g)
    for (int64_t k = 0; k < spec.groups[g].size; ++k) group_of[i++] = static_cast<int>(g);
  SeededRandom rng(spec.seed);
  Oracle published(p.oracle()), baseline(SketchParams{result.baseline_epsilon, p.hashes, p.width});
  int32_t published_epoch = 0, last_change = 0;
  for (int32_t epoch = 1; epoch <= T; ++epoch) {
    HistEpochResult e;
    e.epoch = epoch;
    for (const auto& g : spec.groups)
      if (epoch == 1 || &dist_at(g, epoch) != &dist_at(g, epoch - 1)) e.changed = true;
    if (e.changed) last_change = epoch;
    baseline.clear();
    int64_t yes = 0;
    for (size_t i = 0; i < users.size(); ++i) {
      const auto& dist = dist_at(spec.groups[static_cast<size_t>(group_of[i])], epoch);
      std::vector<int64_t> counts = th::multinomial(rng, p.stream.config.epoch_rounds, dist);
      th::Projection z = th::project_columns(p, cells.data(), plus.get(), counts.data(), d);
      baseline.add(th::projection_report(p, &z, result.baseline_epsilon, rng));
      yes += th::histogram_vote_step(p, users[i], epoch, std::move(z), rng);
    }
    e.yes_share = static_cast<double>(yes) / static_cast<double>(n);
    e.updated = th::global_update(p.stream, n, yes);
    if (e.updated) {
      published.clear();
      for (auto& u : users) published.add(th::histogram_report_step(p, u, rng));
      published.prepare();
      published_epoch = epoch;
    }
    baseline.prepare();
    e.published_epoch = published_epoch;
    e.current = published_epoch >= last_change;
    // the truth: the groups' distributions weighted by their sizes
    std::vector<double> f(d);
    for (const auto& g : spec.groups) {
      const auto& dist = dist_at(g, epoch);
      for (size_t v = 0; v < d; ++v) f[v] += dist[v] * static_cast<double>(g.size) / static_cast<double>(n);
    }
    const std::vector<size_t> top = top_items(f, spec.top);
    for (size_t v : top) {
      th::FrequencyEstimate h = th::histogram_frequency(p, *published.summary(), published.table(), spec.words[v],
                                                        published.scratch());
      SketchEstimate b = sketch_estimate(*baseline.summary(), baseline.table(), spec.words[v], baseline.scratch());
      e.mae += std::fabs(h.frequency - f[v]);
      e.bound += h.bound;
      e.covered += std::fabs(h.frequency - f[v]) <= h.bound;
      e.baseline_mae += std::fabs(b.count / static_cast<double>(n) - f[v]);
    }
    const auto k = static_cast<double>(top.size());
    e.mae /= k, e.bound /= k, e.covered /= k, e.baseline_mae /= k;
    for (const auto& u : users) e.max_spent = std::max(e.max_spent, u.vote_spent + u.estimate_spent);
    result.epochs.push_back(e);
    if (progress) progress(static_cast<int64_t>(epoch) * n, static_cast<int64_t>(T) * n);
  }
  return result;
}

void parse_hist_group(const std::string& text, const std::vector<double>& counts, HistSimSpec* spec) {
  const size_t d = counts.size();
  auto parse_dist = [&](const std::string& s) {
    // subtlex[+K] or zipf:S[+K]
    size_t plus_at = s.find('+');
    std::string base = s.substr(0, plus_at);
    long shift = 0;
    if (plus_at != std::string::npos) {
      char* end = nullptr;
      shift = std::strtol(s.c_str() + plus_at + 1, &end, 10);
      if (*end != '\0' || shift < 0) throw std::invalid_argument("bad rotation in '" + s + "'");
    }
    std::vector<double> w(d);
    if (base == "subtlex") {
      for (size_t i = 0; i < d; ++i) w[i] = counts[(i + static_cast<size_t>(shift)) % d];
    } else if (base.rfind("zipf:", 0) == 0) {
      char* end = nullptr;
      double s_exp = std::strtod(base.c_str() + 5, &end);
      if (*end != '\0' || !(s_exp > 0 && s_exp < 10)) throw std::invalid_argument("bad Zipf exponent in '" + s + "'");
      for (size_t i = 0; i < d; ++i)
        w[i] = std::pow(static_cast<double>((i + static_cast<size_t>(shift)) % d + 1), -s_exp);
    } else {
      throw std::invalid_argument("a distribution is subtlex[+K] or zipf:S[+K], got '" + s + "'");
    }
    double total = 0;
    for (double x : w) total += x;
    for (double& x : w) x /= total;
    return w;
  };
  // a whole positive integer, else 0
  auto whole = [](const std::string& s) -> long long {
    char* end = nullptr;
    long long v = std::strtoll(s.c_str(), &end, 10);
    return s.empty() || *end != '\0' || v < 1 ? 0 : v;
  };
  HistGroupSpec g;
  size_t colon = text.find(':');
  if (colon == std::string::npos) throw std::invalid_argument("a group is SIZE:DIST[@EPOCH:DIST...]");
  g.size = whole(text.substr(0, colon));
  if (g.size < 1) throw std::invalid_argument("a group's size must be an integer >= 1 in '" + text + "'");
  std::string rest = text.substr(colon + 1);
  int32_t from = 1;
  for (;;) {
    size_t at = rest.find('@');
    g.phases.push_back({from, parse_dist(rest.substr(0, at))});
    if (at == std::string::npos) break;
    rest = rest.substr(at + 1);
    size_t c = rest.find(':');
    if (c == std::string::npos) throw std::invalid_argument("a change is @EPOCH:DIST in '" + text + "'");
    long long next = whole(rest.substr(0, c));
    if (next <= from || next > INT32_MAX) throw std::invalid_argument("change epochs must increase in '" + text + "'");
    from = static_cast<int32_t>(next);
    rest = rest.substr(c + 1);
  }
  spec->groups.push_back(std::move(g));
}

namespace {

const char* kHistUsage = R"(Usage: ldp_thresh_sim --histogram --hgroup SIZE:DIST[@EPOCH:DIST...] [...] [options]

HEAVYTHRESH in memory (the core's rules): every user holds l samples per epoch from its
group's distribution over the dictionary, votes on its projected histogram, and after a
global update sends a count-sketch report; beside it, the baseline re-estimates every epoch (the
same report from every user at eps_e = HEAVYTHRESH's worst-case loss / T).

  --hgroup G          SIZE:DIST[@EPOCH:DIST...]; DIST is subtlex[+K] (the dictionary's
                      SUBTLEX-US frequencies, rotated by K ranks) or zipf:S[+K] (repeatable)
  --words FILE        word<TAB>count file (default test/data/subtlex_top1000.tsv)
  --dictionary D      its D most frequent words (default 100)
  --epochs T          (default 32)     --rounds L     samples per user per epoch (default 1000000)
  --hashes H, --width W   Phi (default 4 x 256)
  --epsilon E (default 8), --delta D (default 0.1), --vote-noise A, --estimate-noise B
  --top K             items whose error is measured (default 20)
  --seed S            (default 1)

Output: one line per epoch, then key=value lines (mae, baseline_mae, coverage, ...).
)";

[[noreturn]] void hist_usage_error(const std::string& msg) {
  std::fprintf(stderr, "ldp_thresh_sim --histogram: %s\n", msg.c_str());
  std::exit(2);
}

}  // namespace

int histogram_main(int argc, char** argv) {
  HistSimSpec spec;
  spec.config.stream.epochs = 32;
  spec.config.stream.epoch_rounds = 1000000;
  spec.config.stream.epsilon = 8;
  spec.config.stream.delta = 0.1;
  spec.config.hashes = 4;
  spec.config.width = 256;
  std::string words = "test/data/subtlex_top1000.tsv";
  int64_t dictionary = 100;
  std::vector<std::string> groups;
  enum { kHistogram = 1, kGroup, kWords, kDict, kEpochs, kRounds, kHashes, kWidth, kEpsilon, kDelta, kVote,
         kEstimate, kTop, kSeed, kHelp };
  static const option options[] = {
      {"histogram", no_argument, nullptr, kHistogram}, {"hgroup", required_argument, nullptr, kGroup},
      {"words", required_argument, nullptr, kWords},   {"dictionary", required_argument, nullptr, kDict},
      {"epochs", required_argument, nullptr, kEpochs}, {"rounds", required_argument, nullptr, kRounds},
      {"hashes", required_argument, nullptr, kHashes}, {"width", required_argument, nullptr, kWidth},
      {"epsilon", required_argument, nullptr, kEpsilon}, {"delta", required_argument, nullptr, kDelta},
      {"vote-noise", required_argument, nullptr, kVote}, {"estimate-noise", required_argument, nullptr, kEstimate},
      {"top", required_argument, nullptr, kTop},       {"seed", required_argument, nullptr, kSeed},
      {"help", no_argument, nullptr, kHelp},           {nullptr, 0, nullptr, 0}};
  auto number = [](const char* text) {
    char* end = nullptr;
    double v = std::strtod(text, &end);
    if (end == text || *end != '\0' || !std::isfinite(v)) hist_usage_error(std::string("not a number: ") + text);
    return v;
  };
  int c;
  opterr = 0;
  optind = 1;
  while ((c = getopt_long(argc, argv, "", options, nullptr)) != -1) {
    switch (c) {
      case kHistogram: break;
      case kGroup: groups.push_back(optarg); break;
      case kWords: words = optarg; break;
      case kDict: dictionary = static_cast<int64_t>(number(optarg)); break;
      case kEpochs: spec.config.stream.epochs = static_cast<int32_t>(number(optarg)); break;
      case kRounds: spec.config.stream.epoch_rounds = static_cast<int64_t>(number(optarg)); break;
      case kHashes: spec.config.hashes = static_cast<int64_t>(number(optarg)); break;
      case kWidth: spec.config.width = static_cast<int64_t>(number(optarg)); break;
      case kEpsilon: spec.config.stream.epsilon = number(optarg); break;
      case kDelta: spec.config.stream.delta = number(optarg); break;
      case kVote: spec.config.stream.vote_noise = number(optarg); break;
      case kEstimate: spec.config.stream.estimate_noise = number(optarg); break;
      case kTop: spec.top = static_cast<int>(number(optarg)); break;
      case kSeed: spec.seed = static_cast<uint64_t>(number(optarg)); break;
      case kHelp: std::fputs(kHistUsage, stdout); return 0;
      default: hist_usage_error(std::string("unknown option or missing value: ") + argv[optind - 1]);
    }
  }
  if (groups.empty()) hist_usage_error("at least one --hgroup is required");
  try {
    std::vector<WordCount> wc = read_word_counts(words);
    if (dictionary < 2 || static_cast<size_t>(dictionary) > wc.size())
      hist_usage_error("--dictionary must be in [2, the words in the file]");
    std::vector<double> counts;
    for (int64_t i = 0; i < dictionary; ++i) {
      spec.words.push_back(wc[static_cast<size_t>(i)].word);
      counts.push_back(static_cast<double>(wc[static_cast<size_t>(i)].count));
    }
    for (const auto& g : groups) parse_hist_group(g, counts, &spec);
    int64_t n = 0;
    for (const auto& g : spec.groups) n += g.size;
    Progress bar("heavythresh (local)", n * spec.config.stream.epochs, "user-epochs");
    HistSimResult r = simulate_histograms(spec, [&](int64_t done, int64_t) { bar.update(done); });
    bar.finish();
    const auto& p = r.params;
    std::printf("# n=%lld T=%d l=%lld t=%lld m=%lld eps=%g delta=%g: a=%.6g b=%.6g y_phi=%.6g tau_top=%.6g "
                "worst_case_loss=%.6g baseline_eps=%.6g\n",
                static_cast<long long>(p.stream.config.users), p.stream.config.epochs,
                static_cast<long long>(p.stream.config.epoch_rounds), static_cast<long long>(p.hashes),
                static_cast<long long>(p.width), p.stream.config.epsilon, p.stream.config.delta, p.stream.vote_noise,
                p.stream.estimate_noise, p.projection_error, p.stream.thresholds.back(), p.stream.worst_case_loss(),
                r.baseline_epsilon);
    std::printf("%5s %7s %7s %9s %9s %9s %9s %8s %12s %8s\n", "epoch", "changed", "updated", "yes", "published",
                "mae", "bound", "covered", "baseline_mae", "max_c");
    double mae = 0, base = 0, covered = 0, current_bound = 0, current_sq = 0;
    int updates = 0, changes = 0, current = 0;
    for (const auto& e : r.epochs) {
      std::printf("%5d %7s %7s %9.4f %9d %9.5f %9.5f %8.2f %12.5f %8.4f\n", e.epoch, e.changed ? "yes" : "no",
                  e.updated ? "yes" : "no", e.yes_share, e.published_epoch, e.mae, e.bound, e.covered,
                  e.baseline_mae, e.max_spent);
      mae += e.mae, base += e.baseline_mae;
      updates += e.updated, changes += e.changed;
      if (e.current) ++current, covered += e.covered, current_bound += e.bound, current_sq += e.mae * e.mae;
    }
    const double T = static_cast<double>(r.epochs.size());
    std::printf("updates=%d\nchanges=%d\nmae=%.6g\nbaseline_mae=%.6g\nmae_ratio=%.4g\n", updates, changes, mae / T,
                base / T, mae / base);
    std::printf("current_epochs=%d\ncoverage=%.4g\nmean_bound=%.6g\n", current, current ? covered / current : NAN,
                current ? current_bound / current : NAN);
    std::printf("worst_case_loss=%.6g\nbaseline_epsilon=%.6g\nmax_spent=%.6g\n", p.stream.worst_case_loss(),
                r.baseline_epsilon, r.epochs.back().max_spent);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ldp_thresh_sim --histogram: %s\n", e.what());
    return 1;
  }
}

}  // namespace ldp::tools
