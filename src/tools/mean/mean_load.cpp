#include "tools/mean/mean_load.hpp"

#include <cinttypes>
#include <cstdio>

#include "tools/common/progress.hpp"

namespace ldp::tools {

namespace {

constexpr const char* kSynopsis = "ldp_load --mechanism MECH --epsilon E --distribution DIST --table NAME [options]";
constexpr const char* kMechanismHelp = R"(  --mechanism rr|onebit|laplace|piecewise
                       means and proportions: rr: randomized response on bits
                       (estimates a proportion); onebit: Microsoft's 1BitMean;
                       laplace: value + Laplace noise; piecewise: the piecewise
                       mechanism (Wang et al.)
)";
constexpr const char* kOptionHelp = R"(  --max-value M        values lie in [0, M] (required, except for rr)
  --gamma G            onebit: output perturbation, flip probability in [0, 0.5)
  --granularity S      onebit: every user is a OneBitMeanClient with alpha-point
                       rounding on a grid of step ~S and permanent memoization
  --rounds R           onebit with --granularity: collect R rounds from every user
                       (default 1); rows carry the round number
  --constant-users     with --rounds: every user keeps its value in every round
                       (default: each round the value is redrawn around the user's
                       base value, base * uniform(1-D, 1+D) clamped to [0, M])
  --drift D            the D above, in [0, 1] (default 0.2)
)";
constexpr const char* kHelp = R"()";

using Arg = LoadOption::Arg;
constexpr const char* kMeanRefusal =
    "--max-value, --gamma, --granularity, --constant-users and --drift apply to the mean mechanisms, not {mechanism}";
const LoadOption kMaxValue{"max-value", Arg::Number, nullptr, kMeanRefusal, "mean"};
const LoadOption kGamma{"gamma", Arg::Number, nullptr, kMeanRefusal, "mean"};
const LoadOption kGranularity{"granularity", Arg::Number,
                              [](const OptionValue& v) -> std::string {
                                return v.number > 0 ? "" : "--granularity must be > 0";
                              },
                              kMeanRefusal, "mean"};
const LoadOption kConstantUsers{"constant-users", Arg::Flag, nullptr, kMeanRefusal, "mean"};
const LoadOption kDrift{"drift", Arg::Number, nullptr, kMeanRefusal, "mean"};

// Within the family: what only onebit takes, and rr's max_value of 1.
std::string refusal(const LoadOption& o, const std::string& mechanism) {
  if (&o == &kGamma) return "--gamma applies to onebit only, not " + mechanism;
  if (&o == &kMaxValue) return "--max-value does not apply to rr (it estimates a proportion)";
  if (&o == &kGranularity || &o == &options::rounds || &o == &kConstantUsers || &o == &kDrift)
    return "--granularity, --rounds, --constant-users and --drift apply to onebit only, not " + mechanism;
  return "";
}

void print_tally_lines(const std::string& prefix, const Tally& t, Mechanism m) {
  std::printf("%sreports=%" PRId64 "\n", prefix.c_str(), t.reports);
  std::printf("%s%s=%s\n", prefix.c_str(), m == Mechanism::RR ? "true_proportion" : "true_mean", num(t.true_mean).c_str());
  if (!real_valued(m)) std::printf("%sones=%" PRId64 "\n", prefix.c_str(), t.ones);
  std::printf("%sreport_mean=%s\n", prefix.c_str(), num(t.report_mean).c_str());
  std::printf("%slocal_estimate=%s\n", prefix.c_str(), num(t.estimate.value).c_str());
  if (t.estimate.has_std_error)
    std::printf("%slocal_std_error=%s\n", prefix.c_str(), num(t.estimate.std_error).c_str());
}

std::unique_ptr<FamilyLoad> prepare(const CommandLine& cl, const std::string& mechanism) {
  LoadSpec spec;
  spec.mechanism = *parse_mechanism(mechanism);
  if (!cl.has(options::epsilon)) throw UsageError("--epsilon is required");
  if (cl.text(options::distribution).empty()) throw UsageError("--distribution is required");
  if (spec.mechanism != Mechanism::RR && !cl.has(kMaxValue))
    throw UsageError("--max-value is required for " + mechanism);
  if (cl.has(kDrift) && !(cl.count(options::rounds, 1) > 1))
    throw UsageError("--drift only makes sense with --rounds > 1");
  spec.epsilon = cl.number(options::epsilon, 0);
  spec.max_value = cl.number(kMaxValue, 1.0);
  spec.gamma = cl.number(kGamma, 0);
  spec.granularity = cl.number(kGranularity, 0);
  spec.rounds = static_cast<int>(cl.count(options::rounds, 1));
  spec.constant_users = cl.has(kConstantUsers);
  spec.drift = cl.number(kDrift, spec.drift);
  NumberPopulation pop = number_population(cl);
  spec.distribution = std::move(pop.distribution);
  spec.users = pop.users;
  spec.seed = pop.seed;
  spec.first_user_id = pop.first_user_id;
  return std::make_unique<MeanLoad>(spec);
}

}  // namespace

std::string MeanLoad::aggregate_sql() const {
  const LoadSpec& s = *spec_;
  switch (s.mechanism) {
    case Mechanism::RR: return "ldp.rr_agg(report, " + num(s.epsilon) + ")";
    case Mechanism::OneBit:
      return "ldp.onebit_mean_agg(report, " + num(s.epsilon) + ", " + num(s.max_value) + ", " + num(s.gamma) + ")";
    case Mechanism::Laplace:
    case Mechanism::Piecewise:
      return "ldp." + mechanism() + "_mean_agg(report, " + num(s.epsilon) + ", " + num(s.max_value) + ")";
  }
  return "";
}

void MeanLoad::print(const LoadTarget& target, double seconds) const {
  const LoadSpec& spec = *spec_;
  const LoadResult& result = result_;
  const std::string mname = mechanism();
  print_mechanism(mname, spec.epsilon);
  if (spec.mechanism != Mechanism::RR) std::printf("max_value=%s\n", num(spec.max_value).c_str());
  if (spec.mechanism == Mechanism::OneBit) {
    std::printf("gamma=%s\n", num(spec.gamma).c_str());
    if (spec.gamma > 0) std::printf("effective_epsilon=%s\n", num(result.effective_epsilon).c_str());
    if (spec.granularity > 0) std::printf("granularity=%s\n", num(spec.granularity).c_str());
  }
  std::printf("distribution=%s\n", spec.distribution.spec.c_str());
  std::printf("users=%" PRId64 "\n", spec.users);
  std::printf("rounds=%d\n", spec.rounds);
  print_seed_and_table(spec.seed, target.table);
  std::printf("clamped=%" PRId64 "\n", result.clamped);
  print_tally_lines("", result.total, spec.mechanism);
  if (spec.rounds > 1)
    for (size_t r = 0; r < result.rounds.size(); ++r)
      print_tally_lines("round_" + std::to_string(r + 1) + ".", result.rounds[r], spec.mechanism);
  std::fflush(stdout);

  if (result.clamped > 0)
    std::fprintf(stderr, "ldp_load: warning: %" PRId64 " of %" PRId64 " values were outside [0, %s] and were clamped\n",
                 result.clamped, spec.users, num(spec.max_value).c_str());
  const double rate = seconds > 0 ? static_cast<double>(result.total.reports) / seconds : 0;
  const std::string shape =
      spec.rounds > 1 ? " (" + std::to_string(spec.users) + " users x " + std::to_string(spec.rounds) + " rounds)" : "";
  std::fprintf(stderr, "ldp_load: %" PRId64 " %s reports%s into %s in %.2f s: %s reports/s\n", result.total.reports,
               mname.c_str(), shape.c_str(), target.table.c_str(), seconds, Progress::human(rate).c_str());
}

const LoadFamily& mean_family() {
  static const LoadFamily row{
      "mean",
      {"rr", "onebit", "laplace", "piecewise"},
      kSynopsis,
      kMechanismHelp,
      kOptionHelp,
      kHelp,
      {&options::epsilon, &kMaxValue, &kGamma, &kGranularity, &options::rounds, &kConstantUsers, &kDrift},
      {{&kMaxValue, {"onebit", "laplace", "piecewise"}},
       {&kGamma, {"onebit"}},
       {&kGranularity, {"onebit"}},
       {&options::rounds, {"onebit"}},
       {&kConstantUsers, {"onebit"}},
       {&kDrift, {"onebit"}}},
      refusal,
      prepare,
      {"--mechanism rr --epsilon 1 --distribution bernoulli:0.3 --users 4000 --seed 9",
       "--mechanism onebit --epsilon 1 --max-value 86400 --gamma 0.2 --distribution uniform:0:86400 --users 4000 "
       "--seed 10",
       "--mechanism onebit --epsilon 1 --max-value 100 --granularity 10 --rounds 3 --distribution normal:50:20 "
       "--users 1000 --seed 8",
       "--mechanism laplace --epsilon 2 --max-value 100 --distribution uniform:0:100 --users 4000 --seed 11",
       "--mechanism piecewise --epsilon 2 --max-value 100 --distribution zipf:1.1:100 --users 4000 --seed 12"}};
  return row;
}

}  // namespace ldp::tools
