#include "tools/common/cli.hpp"

#include <getopt.h>

#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>

#include "tools/common/items.hpp"  // parse_item_distribution
#include "tools/common/population.hpp"

namespace ldp::tools {

void usage_error(const char* program, const std::string& message) {
  std::fprintf(stderr, "%s: %s\n(see %s --help)\n", program, message.c_str(), program);
  std::exit(2);
}

void parse_cli(const char* program, int argc, char** argv, const std::vector<CliOption>& options) {
  std::vector<option> table;
  for (size_t i = 0; i < options.size(); ++i)
    table.push_back({options[i].name, options[i].has_arg ? required_argument : no_argument, nullptr,
                     static_cast<int>(i) + 1000});
  table.push_back({nullptr, 0, nullptr, 0});
  opterr = 0;
  int c;
  while ((c = getopt_long(argc, argv, ":", table.data(), nullptr)) != -1) {
    if (c == ':') usage_error(program, std::string(argv[optind - 1]) + " needs a value");
    if (c < 1000 || c >= 1000 + static_cast<int>(options.size()))
      usage_error(program, std::string("unknown option ") + argv[optind - 1]);
    try {
      options[static_cast<size_t>(c - 1000)].apply(optarg);
    } catch (const std::exception& e) {
      usage_error(program, e.what());
    }
  }
  if (optind < argc) usage_error(program, std::string("unexpected argument '") + argv[optind] + "'");
}

// ---------------------------------------------------------------------------
// ldp_load's values

double parse_number(const char* opt, const char* text) {
  errno = 0;
  char* end = nullptr;
  double v = std::strtod(text, &end);
  if (*text == '\0' || end == text || *end != '\0' || errno == ERANGE || !std::isfinite(v))
    throw UsageError(std::string("--") + opt + " expects a finite number, got '" + text + "'");
  return v;
}

int64_t parse_count(const char* opt, const char* text) {
  std::string t(text);
  if (!t.empty() && t.find_first_not_of("0123456789") == std::string::npos) {
    errno = 0;
    char* end = nullptr;
    unsigned long long v = std::strtoull(text, &end, 10);
    if (errno == ERANGE || v > static_cast<unsigned long long>(INT64_MAX))
      throw UsageError(std::string("--") + opt + " is too large: " + text);
    return static_cast<int64_t>(v);
  }
  double d = parse_number(opt, text);
  if (!(d >= 0 && d == std::floor(d) && d <= 9007199254740992.0))
    throw UsageError(std::string("--") + opt + " expects a non-negative integer, got '" + text + "'");
  return static_cast<int64_t>(d);
}

uint64_t parse_seed(const char* text) {
  std::string t(text);
  const std::string bad = std::string("--seed expects an unsigned 64-bit integer, got '") + text + "'";
  if (t.empty() || t.size() > 20 || t.find_first_not_of("0123456789") != std::string::npos) throw UsageError(bad);
  errno = 0;
  unsigned long long v = std::strtoull(text, nullptr, 10);
  if (errno == ERANGE) throw UsageError(bad);
  return static_cast<uint64_t>(v);
}

std::string int_sized(const OptionValue& v) { return v.count > INT32_MAX ? "{option} is too large" : ""; }

std::string refusal_message(const char* refusal, const LoadOption& option, const std::string& mechanism) {
  std::string out = refusal;
  for (const auto& [key, value] : {std::pair<std::string, std::string>{"{option}", std::string("--") + option.name},
                                   {"{mechanism}", mechanism}})
    for (size_t at = out.find(key); at != std::string::npos; at = out.find(key, at + value.size()))
      out.replace(at, key.size(), value);
  return out;
}

void CommandLine::add(const LoadOption& option, const char* text) {
  OptionValue v;
  if (text) v.text = text;
  switch (option.arg) {
    case LoadOption::Arg::Number: v.number = parse_number(option.name, text); break;
    case LoadOption::Arg::Count: v.count = parse_count(option.name, text); break;
    case LoadOption::Arg::Seed: v.seed = parse_seed(text); break;
    case LoadOption::Arg::Flag:
    case LoadOption::Arg::Text: break;
  }
  if (option.rule) {
    const std::string broken = option.rule(v);
    if (!broken.empty()) throw UsageError(refusal_message(broken.c_str(), option, ""));
  }
  given_.push_back({&option, std::move(v)});
}

const OptionValue* CommandLine::find(const LoadOption& option) const {
  for (auto g = given_.rbegin(); g != given_.rend(); ++g)
    if (g->option == &option) return &g->value;
  return nullptr;
}

std::string CommandLine::text(const LoadOption& option, const std::string& otherwise) const {
  const OptionValue* v = find(option);
  return v ? v->text : otherwise;
}
double CommandLine::number(const LoadOption& option, double otherwise) const {
  const OptionValue* v = find(option);
  return v ? v->number : otherwise;
}
int64_t CommandLine::count(const LoadOption& option, int64_t otherwise) const {
  const OptionValue* v = find(option);
  return v ? v->count : otherwise;
}
std::optional<uint64_t> CommandLine::seed(const LoadOption& option) const {
  const OptionValue* v = find(option);
  return v ? std::optional<uint64_t>(v->seed) : std::nullopt;
}

// ---------------------------------------------------------------------------
// The options several families take

namespace options {

const char* const kFreqRefusal =
    "{option} applies to the frequency oracles (grr, sue, oue, dbitflip, olh, hadamard; --words, --top, "
    "--print-summary and --no-decode also to cms, hcms, hashtogram, treehist, bitstogram, pem and sfp), not "
    "{mechanism}";

namespace {
using Arg = LoadOption::Arg;
constexpr const char* kSketchRefusal = "{option} applies to the sketches (cms, hcms, hashtogram), not {mechanism}";
std::string file_named(const OptionValue& v) { return v.text.empty() ? "{option} needs a file name" : ""; }
}  // namespace

const LoadOption mechanism{"mechanism", Arg::Text};
const LoadOption epsilon{"epsilon", Arg::Number};
const LoadOption users{"users", Arg::Count};
const LoadOption distribution{"distribution", Arg::Text};
const LoadOption table{"table", Arg::Text};
const LoadOption truncate{"truncate", Arg::Flag};
const LoadOption seed{"seed", Arg::Seed};
const LoadOption dsn{"dsn", Arg::Text};
const LoadOption first_user_id{"first-user-id", Arg::Count};
const LoadOption no_analyze{"no-analyze", Arg::Flag};
const LoadOption help{"help", Arg::Flag};
const LoadOption rounds{"rounds", Arg::Count,
                       [](const OptionValue& v) -> std::string {
                         return v.count < 1 || v.count > 100000 ? "--rounds must be in [1, 100000]" : "";
                       },
                       "--rounds does not apply to {mechanism}", "mean"};
const LoadOption k{"k", Arg::Count, int_sized, kFreqRefusal, "freq"};
const LoadOption hashes{"hashes", Arg::Count, int_sized, kSketchRefusal, "sketch"};
const LoadOption width{"width", Arg::Count, int_sized, kSketchRefusal, "sketch"};
const LoadOption words{"words", Arg::Text, file_named, kFreqRefusal, "freq"};
const LoadOption top{"top", Arg::Count, nullptr, kFreqRefusal, "freq"};
const LoadOption print_summary{"print-summary", Arg::Flag, nullptr, kFreqRefusal, "freq"};
const LoadOption no_decode{"no-decode", Arg::Flag, nullptr, kFreqRefusal, "freq"};
const LoadOption truth{"truth", Arg::Text, file_named, "{option} applies to treehist, bitstogram, pem, sfp and haar, not {mechanism}",
                       "heavy"};

const std::vector<const LoadOption*> every_load{&mechanism, &users, &distribution, &table, &truncate, &seed,
                                                &dsn,       &first_user_id, &no_analyze, &help};

}  // namespace options

std::string words_file(const CommandLine& cl) {
  const std::string d = cl.text(options::distribution);
  if (cl.has(options::words)) {
    if (!d.empty()) throw UsageError("give the words either as --words FILE or as --distribution words:FILE");
    return cl.text(options::words);
  }
  return d.rfind("words:", 0) == 0 ? d.substr(6) : "";
}

void words_or_zipf(const CommandLine& cl, const std::string& mechanism, std::string* path, double* zipf_s, int64_t* k) {
  *path = words_file(cl);
  const std::string d = cl.text(options::distribution);
  if (d.rfind("zipf:", 0) == 0) {
    if (!cl.has(options::k)) throw UsageError("--distribution " + d + " needs --k K (the ranks of the ids)");
    *zipf_s = parse_item_distribution(d).s;
    *k = cl.count(options::k, 0);
  } else if (!d.empty() && d.rfind("words:", 0) != 0) {
    throw UsageError("--distribution " + d + ": " + mechanism + " takes words:FILE (or --words FILE) or zipf:S with --k K");
  }
}

}  // namespace ldp::tools
