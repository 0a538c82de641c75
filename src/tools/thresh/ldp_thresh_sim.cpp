// ldp_thresh_sim: drives simulated devices through a THRESH stream of the ldp
// extension (or, with --local, through the core's rules in memory) and prints, per
// epoch, the true mean, the published estimate, whether it updated, and the largest
// privacy any user has spent, next to a 1BitMean re-collection at ε/T per epoch.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "tools/common/cli.hpp"
#include "tools/common/progress.hpp"
#include "tools/thresh/thresh_hist_sim.hpp"
#include "tools/thresh/thresh_sim.hpp"
#include "tools/thresh/thresh_sim_pg.hpp"

namespace {

const char* kUsage = R"(Usage: ldp_thresh_sim --group SIZE:MEAN[@EPOCH:MEAN...] [--group ...] [options]

Simulates n users (the sum of the group sizes) whose bits are Bernoulli(MEAN) in every
round; a group's mean changes from the given epochs on. Each epoch every user votes
(THRESH Algorithm 2), the server closes the votes, and after a global update every user
sends an estimate (Algorithm 3) before the server closes the epoch.

  --group G            SIZE:MEAN[@EPOCH:MEAN...], e.g. 40000:0.3@10:0.7 (repeatable)
  --epochs T           number of epochs (default 32)
  --rounds L           rounds per epoch, l (default 20000); each user's epoch mean is a
                       Binomial(l, MEAN)/l draw
  --min-group-size L   the L of Assumption 4.2 (default: the smallest group)
  --epsilon E          total privacy of a user (default 8)
  --delta D            failure probability (default 0.1)
  --vote-noise A, --estimate-noise B, --threshold-unit Y
                       override the derived a, b and y (tau_b = 2(b+1)y)
  --seed S             reproducible run (default 1)
  --batch N            reports per submission (default 10000)
  --stream NAME        the stream's name (default thresh_sim)
  --replace            drop a stream of that name first
  --local              no server: the core's rules in memory
  --no-baseline        skip the 1BitMean re-collection
  --dsn DSN            libpq connection string (default: the PG* environment)
  --help               this text
  --histogram          HEAVYTHRESH histogram streams instead (ldp_thresh_sim --histogram --help)

Output: one line per epoch, then key=value lines: updates, changes, max_error,
accuracy_bound, max_vote_spent, vote_cap (a * max_truthful_votes <= eps/3), max_estimate_spent,
estimate_cap (b * max_truthful_estimates <= eps/3), max_spent, worst_case_loss (2 vote_cap +
estimate_cap <= eps), baseline_max_error, baseline_mean_error.
)";

[[noreturn]] void usage_error(const std::string& msg) { ldp::tools::usage_error("ldp_thresh_sim", msg); }

double parse_double(const char* opt, const char* text) {
  char* end = nullptr;
  double v = std::strtod(text, &end);
  if (end == text || *end != '\0' || !std::isfinite(v))
    usage_error(std::string("--") + opt + " expects a finite number, got '" + text + "'");
  return v;
}

int64_t parse_int(const char* opt, const char* text) {
  char* end = nullptr;
  long long v = std::strtoll(text, &end, 10);
  if (end == text || *end != '\0' || v < 1)
    usage_error(std::string("--") + opt + " expects a positive integer, got '" + text + "'");
  return v;
}

struct SimOptions {
  ldp::tools::ThreshSimSpec spec;
  std::string stream = "thresh_sim", dsn;
  bool replace = false, local = false;
};

// The options, each parsed as it comes (usage_error exits with status 2).
SimOptions read_options(int argc, char** argv) {
  SimOptions o;
  ldp::thresh::Config& config = o.spec.config;
  config.epochs = 32;
  config.epoch_rounds = 20000;
  config.epsilon = 8;
  config.delta = 0.1;
  using ldp::tools::CliOption;
  auto number = [](const char* name, double* out) {
    return CliOption{name, true, [=](const char* v) { *out = parse_double(name, v); }};
  };
  auto integer = [](const char* name, auto* out) {
    return CliOption{name, true, [=](const char* v) { *out = parse_int(name, v); }};
  };
  ldp::tools::parse_cli(
      "ldp_thresh_sim", argc, argv,
      {{"group", true, [&](const char* v) { ldp::tools::parse_thresh_group(v, &o.spec.scenario); }},
       {"epochs", true,
        [&](const char* v) {
          int64_t t = parse_int("epochs", v);
          if (t > 1000000) usage_error("--epochs is too large");
          config.epochs = static_cast<int32_t>(t);
        }},
       integer("rounds", &config.epoch_rounds),
       integer("min-group-size", &config.min_group_size),
       number("epsilon", &config.epsilon),
       number("delta", &config.delta),
       {"vote-noise", true, [&](const char* v) { config.vote_noise = parse_double("vote-noise", v); }},
       {"estimate-noise", true, [&](const char* v) { config.estimate_noise = parse_double("estimate-noise", v); }},
       {"threshold-unit", true, [&](const char* v) { config.threshold_unit = parse_double("threshold-unit", v); }},
       {"seed", true, [&](const char* v) { o.spec.seed = static_cast<uint64_t>(parse_int("seed", v)); }},
       integer("batch", &o.spec.batch),
       {"stream", true, [&](const char* v) { o.stream = v; }},
       {"replace", false, [&](const char*) { o.replace = true; }},
       {"local", false, [&](const char*) { o.local = true; }},
       {"no-baseline", false, [&](const char*) { o.spec.baseline = false; }},
       {"dsn", true, [&](const char* v) { o.dsn = v; }},
       {"help", false, [](const char*) {
          std::fputs(kUsage, stdout);
          std::exit(0);
        }}});
  if (o.spec.scenario.group_sizes.empty()) usage_error("at least one --group is required");
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace ldp::tools;
  for (int i = 1; i < argc; ++i)  // HEAVYTHRESH: its own options (thresh_hist_sim.hpp)
    if (std::string(argv[i]) == "--histogram") return histogram_main(argc, argv);
  const SimOptions o = read_options(argc, argv);
  const ThreshSimSpec& spec = o.spec;
  const std::string& stream = o.stream;
  const bool local = o.local;
  try {
    std::unique_ptr<pqxx::connection> conn;
    std::unique_ptr<ThreshServer> server;
    if (local) {
      server = std::make_unique<LocalThreshServer>();
    } else {
      conn = std::make_unique<pqxx::connection>(o.dsn);
      server = std::make_unique<PgThreshServer>(*conn, stream, o.replace);
    }
    ldp::thresh::validate_scenario(spec.scenario);
    int64_t reports = 2 * ldp::thresh::population_size(spec.scenario) * spec.config.epochs;
    Progress bar("thresh " + std::string(local ? "(local)" : stream), reports, "reports");
    ThreshSimResult r = simulate_thresh(spec, *server, [&](int64_t done, int64_t) { bar.update(done); });
    bar.finish();
    const auto& p = r.params;
    std::printf("# n=%lld T=%d l=%lld L=%lld m=%d eps=%g delta=%g: a=%.6g b=%.6g vote_threshold=%.6g "
                "tau_top=%.6g\n",
                static_cast<long long>(p.config.users), p.config.epochs,
                static_cast<long long>(p.config.epoch_rounds),
                static_cast<long long>(p.config.min_group_size), p.config.groups, p.config.epsilon,
                p.config.delta, p.vote_noise, p.estimate_noise, p.vote_threshold, p.thresholds.back());
    std::printf("%5s %9s %10s %9s %7s %7s %9s %9s %8s %8s %8s %10s %9s\n", "epoch", "true", "published",
                "error", "updated", "changed", "yes", "truthful", "max_cV", "max_cE", "max_c",
                "1bit(e/T)", "1bit_err");
    double max_error = 0, base_max = 0, base_sum = 0, mv = 0, me = 0, ms = 0;
    for (const auto& e : r.epochs) {
      double err = std::fabs(e.published - e.true_mean), berr = std::fabs(e.baseline - e.true_mean);
      max_error = std::max(max_error, err);
      base_max = std::max(base_max, berr);
      base_sum += berr;
      mv = std::max(mv, e.max_vote_spent);
      me = std::max(me, e.max_estimate_spent);
      ms = std::max(ms, e.max_spent);
      std::printf("%5d %9.5f %10.5f %9.5f %7s %7s %9.5f %9lld %8.4f %8.4f %8.4f %10.5f %9.5f\n", e.epoch,
                  e.true_mean, e.published, err, e.updated ? "yes" : "no", e.changed ? "yes" : "no",
                  static_cast<double>(e.yes_votes) / static_cast<double>(p.config.users),
                  static_cast<long long>(e.truthful_votes), e.max_vote_spent, e.max_estimate_spent,
                  e.max_spent, spec.baseline ? e.baseline : NAN, spec.baseline ? berr : NAN);
    }
    std::printf("updates=%d\nchanges=%d\nmax_error=%.6g\naccuracy_bound=%.6g\n", r.updates(), r.changes(),
                max_error, p.accuracy_bound());
    std::printf("max_vote_spent=%.6g\nvote_cap=%.6g\nmax_estimate_spent=%.6g\nestimate_cap=%.6g\n", mv,
                p.max_vote_spent(), me, p.max_estimate_spent());
    std::printf("max_spent=%.6g\nworst_case_loss=%.6g\n", ms, p.worst_case_loss());
    if (spec.baseline)
      std::printf("baseline_max_error=%.6g\nbaseline_mean_error=%.6g\n", base_max,
                  base_sum / static_cast<double>(r.epochs.size()));
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ldp_thresh_sim: %s\n", e.what());
    return 1;
  }
}
