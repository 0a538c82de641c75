#include "tools/range/range_load.hpp"

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <fstream>

#include "tools/common/progress.hpp"

namespace ldp::tools {

namespace {

constexpr const char* kSynopsis =
    "ldp_load --mechanism haar|hh|sw --epsilon E --domain-bits K [--mapping MAP] --distribution DIST --table NAME [options]";
constexpr const char* kMechanismHelp = R"(  --mechanism haar|hh|sw
                       numeric distributions (range counts, CDFs, quantiles):
                       haar: HaarHRR, one Hadamard-randomized bit of one level of
                       the value's Haar coefficients; hh: hierarchical histograms,
                       one level's node with HRR; sw: Square Wave, one real number
                       (a density by EM) (ldp.range_agg)
)";
constexpr const char* kOptionHelp = R"(  --domain-bits K      ranges: the domain [0, 2^K) of buckets, K in [1, 22] (default 16)
  --branching B        hh: the tree's branching, 2 or 4 (default 4)
  --mapping MAP        ranges: a value's bucket: floor (default: clamp(floor(v), 0,
                       2^K - 1), e.g. a latency in ms), linear:LO:HI or log:LO:HI
                       (2^K buckets of equal width in v or in ln v over [LO, HI))
  --truth FILE         ranges: write the users of each bucket to FILE (lower<TAB>upper
                       <TAB>users, a header line, buckets with users only)
)";
constexpr const char* kHelp = R"(Ranges: the output names the protocol (protocol=, as ldp.range_protocol prints
it), then clamped= (values above the top bucket's end, clamped as a device
would), reports=, and for p50, p90 and p99: true_pNN= (the lower end of the true
quantile's bucket), local_pNN=, local_pNN_lower=, local_pNN_upper= (the core
decoder on the same reports: ldp.quantile(<aggregate>, phi)'s value, ci_lower and
ci_upper for the table; not for sw, whose summary has a density, ldp.density).

)";

using Arg = LoadOption::Arg;
constexpr const char* kRangeRefusal = "{option} applies to the range mechanisms (haar, hh, sw), not {mechanism}";
const LoadOption kDomainBits{"domain-bits", Arg::Count, nullptr, kRangeRefusal, "range"};
const LoadOption kMapping{"mapping", Arg::Text, nullptr, kRangeRefusal, "range"};
const LoadOption kBranching{"branching", Arg::Count, nullptr, kRangeRefusal, "range"};

// Within the family: what only hh takes.
std::string refusal(const LoadOption& o, const std::string& mechanism) {
  if (&o == &kBranching) return "--branching applies to hh only, not " + mechanism;
  return "";
}

// floor | linear:LO:HI | log:LO:HI into the protocol (the core validates the bounds).
void parse_mapping(const std::string& text, RangeProtocol* p) {
  const size_t colon = text.find(':');
  const std::string kind = text.substr(0, colon);
  const bool bounded = kind == "linear" || kind == "log";
  if (kind != "floor" && !bounded)
    throw UsageError("--mapping " + text + ": expected floor, linear:LO:HI or log:LO:HI");
  p->mapping = range_mapping_from_name(kind.c_str());
  if (!bounded) {
    if (colon != std::string::npos) throw UsageError("--mapping floor takes no bounds, got " + text);
    return;
  }
  const size_t second = colon == std::string::npos ? colon : text.find(':', colon + 1);
  const auto lo = second == std::string::npos ? std::nullopt : to_double(text.substr(colon + 1, second - colon - 1));
  const auto hi = second == std::string::npos ? std::nullopt : to_double(text.substr(second + 1));
  if (!lo || !hi) throw UsageError("--mapping " + text + ": expected " + kind + ":LO:HI with finite numbers");
  p->lo = *lo;
  p->hi = *hi;
}

std::unique_ptr<FamilyLoad> prepare(const CommandLine& cl, const std::string& mechanism) {
  RangeLoadSpec spec;
  if (!cl.has(options::epsilon)) throw UsageError("--epsilon is required");
  if (cl.text(options::distribution).empty()) throw UsageError("--distribution is required");
  spec.protocol.mechanism = range_mechanism_from_name(mechanism.c_str());
  spec.protocol.epsilon = cl.number(options::epsilon, 0);
  const int64_t bits = cl.count(kDomainBits, 16);
  if (bits > kMaxRangeSummaryBits) throw UsageError("--domain-bits must be in [1, " + std::to_string(kMaxRangeSummaryBits) + "]");
  spec.protocol.domain_bits = static_cast<int>(bits);
  range_protocol_defaults(&spec.protocol);
  if (cl.has(kBranching)) spec.protocol.branching = cl.count(kBranching, 0);
  parse_mapping(cl.text(kMapping, "floor"), &spec.protocol);
  NumberPopulation pop = number_population(cl);
  spec.distribution = std::move(pop.distribution);
  spec.users = pop.users;
  spec.seed = pop.seed;
  spec.first_user_id = pop.first_user_id;
  return std::make_unique<RangeLoad>(spec, cl.text(options::truth));
}

void write_truth(const RangeLoadSpec& spec, const RangeLoadResult& r, const std::string& path) {
  std::ofstream out(path);
  out << "lower\tupper\tusers\n";
  for (int64_t b = 0; b < spec.protocol.domain(); ++b)
    if (const int64_t users = r.true_counts[static_cast<size_t>(b)]; users > 0)
      out << num(range_bucket_lower(spec.protocol, b)) << '\t' << num(range_bucket_upper(spec.protocol, b)) << '\t'
          << users << '\n';
  if (!out) throw UsageError("cannot write " + path);
}

std::string phi_name(double phi) {
  char b[32];
  std::snprintf(b, sizeof b, "p%g", phi * 100);
  return b;
}

}  // namespace

std::string RangeLoad::aggregate_sql() const {
  return aggregate_call("ldp.range_agg", report_columns(),
                        {quote_literal(range_protocol_to_text(spec_->protocol)) + "::ldp.range_protocol"});
}

std::optional<std::string> RangeLoad::local_summary() const {
  const RangeSummary& s = *result_.local.get();
  std::string out(range_summary_text_size(s), '\0');
  range_summary_to_text(s, out.data(), out.size());
  out.pop_back();
  return out;
}

void RangeLoad::print(const LoadTarget& target, double seconds) const {
  const RangeLoadSpec& spec = *spec_;
  print_mechanism(mechanism(), spec.protocol.epsilon);
  std::printf("domain_bits=%d\n", spec.protocol.domain_bits);
  std::printf("mapping=%s\n", range_mapping_name(spec.protocol.mapping));
  std::printf("protocol=%s\n", range_protocol_to_text(spec.protocol).c_str());
  std::printf("distribution=%s\n", spec.distribution.spec.c_str());
  std::printf("users=%" PRId64 "\n", spec.users);
  print_seed_and_table(spec.seed, target.table);
  std::printf("clamped=%" PRId64 "\n", result_.clamped);
  std::printf("reports=%" PRId64 "\n", result_.local.get()->n);
  if (!truth_path_.empty()) {
    write_truth(spec, result_, truth_path_);
    std::printf("truth_file=%s\n", truth_path_.c_str());
  }
  for (const RangeQuantileLine& q : range_quantile_lines(spec, result_)) {
    const std::string name = phi_name(q.phi);
    std::printf("true_%s=%s\n", name.c_str(), num(q.truth).c_str());
    if (std::isnan(q.local)) continue;  // sw: no quantiles (ldp.density gives its shape)
    std::printf("local_%s=%s\n", name.c_str(), num(q.local).c_str());
    std::printf("local_%s_lower=%s\n", name.c_str(), num(q.lower).c_str());
    std::printf("local_%s_upper=%s\n", name.c_str(), num(q.upper).c_str());
  }
  std::fflush(stdout);
  if (result_.clamped > 0)
    std::fprintf(stderr, "ldp_load: warning: %" PRId64 " of %" PRId64 " values were above %s and were clamped\n",
                 result_.clamped, spec.users, num(range_max_value(spec.protocol)).c_str());
  const double rate = seconds > 0 ? static_cast<double>(spec.users) / seconds : 0;
  std::fprintf(stderr, "ldp_load: %" PRId64 " %s reports into %s in %.2f s: %s reports/s\n", spec.users,
               mechanism().c_str(), target.table.c_str(), seconds, Progress::human(rate).c_str());
}

const LoadFamily& range_family() {
  static const LoadFamily row{
      "range",
      {"haar", "hh", "sw"},
      kSynopsis,
      kMechanismHelp,
      kOptionHelp,
      kHelp,
      {&options::epsilon, &kDomainBits, &kMapping, &kBranching, &options::truth},
      {{&kBranching, {"hh"}}},
      refusal,
      prepare,
      {"--mechanism haar --epsilon 1 --domain-bits 10 --distribution lognormal:4:1 --users 4000 --seed 13",
       "--mechanism haar --epsilon 2 --domain-bits 8 --mapping log:1:60000 --distribution lognormal:6:1.5 "
       "--users 3000 --seed 14",
       "--mechanism hh --epsilon 1 --domain-bits 10 --branching 2 --distribution lognormal:4:1 --users 3000 --seed 15",
       "--mechanism sw --epsilon 2 --domain-bits 10 --mapping linear:0:1000 --distribution lognormal:5:0.8 "
       "--users 3000 --seed 16"}};
  return row;
}

}  // namespace ldp::tools
