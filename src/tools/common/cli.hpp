// Command lines of the tools: the getopt loop every program shares (parse_cli), and
// ldp_load's options, each read and checked once as it is given (LoadOption) into the
// CommandLine that a family's row makes its load from (load_family.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ldp::tools {

// "<program>: <message>\n(see <program> --help)" on stderr, exit status 2.
[[noreturn]] void usage_error(const char* program, const std::string& message);

// One --option of a program: its name (without the dashes), whether it takes a value, and
// what it does with it (value: nullptr for a flag).
struct CliOption {
  const char* name;
  bool has_arg;
  std::function<void(const char* value)> apply;
};
// getopt_long over argv: applies the options in the order given. An unknown option, a
// missing value, an argument that is not an option, or an exception from apply (its
// what()) is a usage error of program.
void parse_cli(const char* program, int argc, char** argv, const std::vector<CliOption>& options);

// ---------------------------------------------------------------------------
// ldp_load's options

// A value as ldp_load reads it, with its messages ("--users expects a non-negative
// integer, got '1.5'"); UsageError.
double parse_number(const char* option, const char* text);             // finite
int64_t parse_count(const char* option, const char* text);             // >= 0: digits, or 5e6
uint64_t parse_seed(const char* text);                                  // unsigned 64-bit

struct OptionValue {
  std::string text;   // as given
  double number = 0;  // Number
  int64_t count = 0;  // Count
  uint64_t seed = 0;  // Seed
};

struct LoadOption {
  enum class Arg { Flag, Text, Number, Count, Seed };
  const char* name;  // without the dashes
  Arg arg;
  // The value's own rule, checked as it is read (a count's range, a text that must not be
  // empty): the message when it is broken ("{option}" replaced), else "".
  std::string (*rule)(const OptionValue& value) = nullptr;
  // When a mechanism does not take it: the message, "{option}" and "{mechanism}" replaced
  // (a family's row may say it otherwise: LoadFamily::refusal).
  const char* refusal = nullptr;
  // The family it belongs to ("freq": --k, --words, ...), for a row's refusals; nullptr
  // for the options of every family.
  const char* owner = nullptr;
};

// Rules of counts: at most INT32_MAX ("{option} is too large", as the aggregates take int).
std::string int_sized(const OptionValue& value);

// "{option}" and "{mechanism}" of a refusal replaced.
std::string refusal_message(const char* refusal, const LoadOption& option, const std::string& mechanism);

// The options given, read and checked (LoadOption::rule), in the order given.
class CommandLine {
 public:
  struct Given {
    const LoadOption* option;
    OptionValue value;
  };
  // Reads text as option's value (UsageError when it does not read, or breaks its rule).
  void add(const LoadOption& option, const char* text);
  const std::vector<Given>& given() const { return given_; }
  bool has(const LoadOption& option) const { return find(option) != nullptr; }
  // The last value given, or the default.
  std::string text(const LoadOption& option, const std::string& otherwise = "") const;
  double number(const LoadOption& option, double otherwise) const;
  int64_t count(const LoadOption& option, int64_t otherwise) const;
  std::optional<uint64_t> seed(const LoadOption& option) const;

 private:
  const OptionValue* find(const LoadOption& option) const;
  std::vector<Given> given_;
};

// The options of ldp_load that more than one family takes; a family's own are in its
// folder (<family>_load.cpp). `every_load` lists the ones every mechanism takes.
namespace options {
extern const LoadOption mechanism, epsilon, users, distribution, table, truncate, seed, dsn, first_user_id,
    no_analyze, help, rounds, k, hashes, width, words, top, print_summary, no_decode, truth;
extern const std::vector<const LoadOption*> every_load;
// The refusal of the frequency oracles' options (--k, --d, --words, --top, ...) to a mean
// mechanism.
extern const char* const kFreqRefusal;
}  // namespace options

// The word file of --words FILE or --distribution words:FILE ("" when neither), refusing both.
std::string words_file(const CommandLine& cl);

// The items of the heavy hitters and RAPPOR: --words FILE (or --distribution words:FILE),
// or --distribution zipf:S with --k K for integer ids. Sets *path, or *zipf_s and *k
// (UsageError naming what is missing).
void words_or_zipf(const CommandLine& cl, const std::string& mechanism, std::string* path, double* zipf_s, int64_t* k);

}  // namespace ldp::tools
