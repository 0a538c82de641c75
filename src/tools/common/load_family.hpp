// What a family adds to ldp_load: its row (LoadFamily) in the one registry
// (load_families.cpp), which ldp_load dispatches on, the loader tests load every example
// of, and --help is written from. A row names the mechanisms it answers to, the options it
// takes and for which of them, and makes the load of a command line (FamilyLoad): its spec
// validated once, its report columns, the reports and their truth, the aggregate that
// reads them, the local decoding, the lines it prints.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tools/common/cli.hpp"
#include "tools/common/population.hpp"

namespace ldp::tools {

// Where a load goes: --table, --dsn, --truncate and --no-analyze.
struct LoadTarget {
  std::string table, dsn;
  bool truncate = false;
  bool analyze = true;
};

// One load, its spec validated when it was made (a family's constructor, the only
// validation on the way to the table). generate() may run once.
class FamilyLoad {
 public:
  virtual ~FamilyLoad() = default;
  // The mechanism, as the messages and the progress bar name it.
  virtual std::string mechanism() const = 0;
  // The reports the load writes (the progress bar's total).
  virtual int64_t reports() const = 0;
  // The report columns, after user_id bigint and round integer: the aggregate's arguments.
  virtual std::vector<ReportColumn> report_columns() const = 0;
  // Draws the population and hands its reports to sink as COPY text, keeping the truth
  // and the local decoding.
  virtual void generate(const ChunkSink& sink, const ProgressFn& progress) = 0;
  // The SQL aggregate over the report columns whose summary the local decoding equals,
  // e.g. "ldp.grr_agg(report, 2, 64)".
  virtual std::string aggregate_sql() const = 0;
  // After generate(): the local decoding's text form, what (aggregate)::text gives for
  // the loaded table; none without a local decoding (--no-decode).
  virtual std::optional<std::string> local_summary() const = 0;
  // After the load (seconds: its wall time): the files it writes (--truth), the key=value
  // lines on stdout, the one-line summary on stderr.
  virtual void print(const LoadTarget& target, double seconds) const = 0;
};

// What every family's load holds: its spec, validated when the load is made (the one
// validation: Validated), and the result generate() fills (load_spec, pg_load.hpp, sets
// its seconds).
template <class Spec, class Result>
class SpecLoad : public FamilyLoad {
 public:
  explicit SpecLoad(const Spec& spec) : spec_(spec) {}
  const Spec& spec() const { return *spec_; }
  Result& result() { return result_; }

 protected:
  Validated<Spec> spec_;
  Result result_;
};

// An option that only some of a family's mechanisms take.
struct OptionOnly {
  const LoadOption* option;
  std::vector<std::string> mechanisms;
};

// A family's row.
struct LoadFamily {
  const char* name;                     // "freq"
  std::vector<std::string> mechanisms;  // the --mechanism names it answers to
  // --help, in pieces: its "Usage:" line (from "ldp_load"), its entry under "Mechanism:",
  // its options after --epsilon there (or ""), its own section (or "").
  const char* synopsis;
  const char* mechanism_help;
  const char* option_help;
  const char* help;
  std::vector<const LoadOption*> options;  // what it takes besides options::every_load
  std::vector<OptionOnly> only;            // of those, the ones only some of its mechanisms take
  // The message when a mechanism of the family is given an option it does not take, or
  // "" for the option's own (LoadOption::refusal).
  std::string (*refusal)(const LoadOption& option, const std::string& mechanism);
  // The load of a command line (its options already the family's, its table named): the
  // options that must be given, the spec they make validated (once), and what can be
  // checked before connecting (the word file). UsageError.
  std::unique_ptr<FamilyLoad> (*prepare)(const CommandLine& cl, const std::string& mechanism);
  // A small load of each mechanism, as ldp_load's arguments ({words}: a word-count file):
  // the loader tests load them and check the aggregate against the local decoding.
  std::vector<std::string> examples;
};

// The registry: every family's row, in --help's order (load_families.cpp).
const std::vector<const LoadFamily*>& load_families();
// The row that answers to a mechanism, or nullptr.
const LoadFamily* find_load_family(const std::string& mechanism);
// "rr, onebit, ..., sfp or rappor": every mechanism, for the messages.
std::string mechanism_names();
// ldp_load --help: the rows' pieces between the shared text.
std::string load_usage();
// The refusal when the family of `mechanism` does not take the option (for that
// mechanism), or "" when it does; options::every_load are taken by all.
std::string refuse_option(const LoadFamily& family, const LoadOption& option, const std::string& mechanism);
// Every option of every row (and every_load), once each, in that order: ldp_load's getopt table.
std::vector<const LoadOption*> all_load_options();

}  // namespace ldp::tools
