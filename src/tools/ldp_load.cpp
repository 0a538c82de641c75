// ldp_load: simulate a population of devices that report with a local-differential-
// privacy mechanism of the core library (the device SDK), and stream their reports
// into a PostgreSQL table with COPY. Prints the truth (the population's mean or
// proportion, or its item or word frequencies) so that the ldp aggregates' estimates
// can be checked against it. Each family of mechanisms is a row of the registry
// (families/load_families.cpp, the row in src/tools/<family>/<family>_load.cpp): main reads
// the options, finds the row of --mechanism, refuses the options it does not take, and
// hands the command line to it.
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "tools/common/cli.hpp"
#include "tools/common/load_family.hpp"
#include "tools/common/pg_load.hpp"

using namespace ldp::tools;

namespace {

[[noreturn]] void fail(const std::string& message) { usage_error("ldp_load", message); }

// The options given, each read and checked as it comes; --help prints the usage and exits.
CommandLine read_command_line(int argc, char** argv) {
  CommandLine cl;
  std::vector<CliOption> cli;
  for (const LoadOption* o : all_load_options())
    cli.push_back({o->name, o->arg != LoadOption::Arg::Flag, [&cl, o](const char* value) {
                     if (o == &options::help) {
                       std::fputs(load_usage().c_str(), stdout);
                       std::exit(0);
                     }
                     cl.add(*o, value);
                     if (o == &options::mechanism && find_load_family(value) == nullptr)
                       throw UsageError("--mechanism must be " + mechanism_names() + ", got '" + value + "'");
                   }});
  parse_cli("ldp_load", argc, argv, cli);
  return cl;
}

}  // namespace

int main(int argc, char** argv) {
  const CommandLine cl = read_command_line(argc, argv);
  const std::string mechanism = cl.text(options::mechanism);
  const LoadFamily* family = find_load_family(mechanism);
  if (family == nullptr) fail("--mechanism is required (" + mechanism_names() + ")");
  for (const CommandLine::Given& given : cl.given()) {
    const std::string refused = refuse_option(*family, *given.option, mechanism);
    if (!refused.empty()) fail(refused);
  }
  const LoadTarget target{cl.text(options::table), cl.text(options::dsn), cl.has(options::truncate),
                          !cl.has(options::no_analyze)};
  try {
    if (target.table.empty()) throw UsageError("--table is required");
    quote_table_name(target.table);
    const std::unique_ptr<FamilyLoad> load = family->prepare(cl, mechanism);
    double seconds = 0;
    const int rc = load_with_progress(*load, target, &seconds);
    if (rc == 0) load->print(target, seconds);
    return rc;
  } catch (const UsageError& e) {
    fail(e.what());
  }
}
