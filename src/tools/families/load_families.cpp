// The registry of ldp_load's families: one row each (src/tools/<family>/<family>_load.cpp),
// in the order of --help and of the messages that list the mechanisms. ldp_load
// dispatches on it, the loader tests load every row's examples, and the build compiles
// every family's folder (CMakeLists.txt).
#include <algorithm>

#include "tools/common/load_family.hpp"
#include "tools/freq/freq_load.hpp"
#include "tools/heavy/heavy_load.hpp"
#include "tools/mean/mean_load.hpp"
#include "tools/rappor/rappor_load.hpp"
#include "tools/range/range_load.hpp"
#include "tools/sketch/sketch_load.hpp"

namespace ldp::tools {

const std::vector<const LoadFamily*>& load_families() {
  static const std::vector<const LoadFamily*> rows{&mean_family(), &freq_family(), &sketch_family(), &heavy_family(),
                                                   &rappor_family(), &range_family()};
  return rows;
}

namespace {

// ldp_load --help around the rows' pieces.
constexpr const char* kIntro = R"(
Simulates USERS devices, each holding a true value drawn from DIST (a number, an
item of [0, K) or a word of FILE), encodes every value with the ldp core library
(the device SDK) and streams the reports into table NAME with COPY. Prints the true
statistics on stdout (key=value lines) and a one-line summary with the load rate on
stderr.

Mechanism:
)";
constexpr const char* kEpsilonHelp = "  --epsilon E          privacy parameter of one report, in (0, 700]\n";
constexpr const char* kTail = R"(Population:
  --users N            number of users (default 1000000)
  --distribution DIST  the users' true values:
                         constant:V         every user holds V
                         uniform:A:B        uniform on [A, B]
                         normal:MU:SIGMA    normal, clamped to [0, M]
                         lognormal:MU:SIGMA ln v normal (median e^MU), clamped
                         zipf:S:K           ranks 1..K with P(r) ~ r^-S
                         bernoulli:P        1 with probability P, else 0
                         file:PATH[:COLUMN] numbers from a file: one per line, or
                                            COLUMN (1-based) of tab-separated
                                            lines; header lines are skipped, values
                                            outside [0, M] are clamped (with a
                                            warning); the first N values are used
                                            (default N: all of them)
                       rr needs bernoulli:P, constant:0 or constant:1. The
                       frequency oracles take the ITEMS forms above.
  --seed S             reproducible run (an unsigned 64-bit integer); without it
                       every draw comes from the kernel's cryptographic generator.
                       One seed gives the same population for every mechanism.
  --first-user-id ID   user ids are ID, ID+1, ... (default 1)

Table:
  --table NAME         [schema.]table; created if missing as (user_id bigint,
                       round integer, report boolean) for rr and onebit, report
                       double precision for laplace and piecewise
  --truncate           empty the table first (in the same transaction)
  --no-analyze         do not ANALYZE the table after loading

Connection:
  --dsn DSN            libpq connection string; default: the PGHOST, PGPORT,
                       PGUSER, PGDATABASE, ... environment variables

  --help               this text

Output (stdout), e.g. for rr: mechanism=rr, epsilon=1, users=..., reports=...,
true_proportion=..., report_mean=... (the plain mean of the reports), and
local_estimate= / local_std_error= (the core decoder run on the same reports:
what ldp.rr_agg returns for the table). With --rounds, per-round lines
round_R.true_mean=... follow. For a frequency oracle: k=, reports=, n= (the
reports the local decoder counted: ldp.report_count), local_max_abs_error=
(max over items of |local - true frequency|), top_items=I,J,... (by true
frequency) and for each of them item.I.word= (words:), item.I.true_count=,
item.I.true_frequency=, item.I.local_frequency=, item.I.local_std_error= (the
core decoder on the same reports: the frequency and std_error columns of
ldp.frequencies(<aggregate>) for the table). For a sketch: hashes=, width=,
words_file=, words_in_file=, then as for a frequency oracle (items are the words'
ranks; the local columns are ldp.frequencies(<aggregate>, ARRAY[word])). Exit
status: 0 on success, 1 on database errors, 2 on bad options.

Examples:
  ldp_load --mechanism onebit --epsilon 1 --max-value 86400 --gamma 0.2 \
           --distribution uniform:0:86400 --users 1000000 --table usage --truncate
  ldp_load --mechanism grr --epsilon 2 --k 1024 --users 1000000 --truncate \
           --distribution words:test/data/subtlex_top1000.tsv --table words_grr
  ldp_load --mechanism hcms --epsilon 4 --hashes 64 --width 1024 --users 1000000 \
           --words test/data/subtlex_top1000.tsv --table words_hcms --truncate
  ldp_load --mechanism treehist --epsilon 2 --users 1000000 --lowercase \
           --words test/data/subtlex_top1000.tsv --table words_treehist --truncate \
           --truth /tmp/words_truth.tsv
)";

bool takes(const LoadFamily& family, const LoadOption& option, const std::string& mechanism) {
  auto has = [](const auto& list, const auto& x) { return std::find(list.begin(), list.end(), x) != list.end(); };
  if (has(options::every_load, &option)) return true;
  if (!has(family.options, &option)) return false;
  for (const OptionOnly& only : family.only)
    if (only.option == &option) return has(only.mechanisms, mechanism);
  return true;
}

}  // namespace

const LoadFamily* find_load_family(const std::string& mechanism) {
  for (const LoadFamily* f : load_families())
    if (std::find(f->mechanisms.begin(), f->mechanisms.end(), mechanism) != f->mechanisms.end()) return f;
  return nullptr;
}

std::string mechanism_names() {
  std::vector<std::string> all;
  for (const LoadFamily* f : load_families()) all.insert(all.end(), f->mechanisms.begin(), f->mechanisms.end());
  std::string out;
  for (size_t i = 0; i < all.size(); ++i) out += (i == 0 ? "" : i + 1 == all.size() ? " or " : ", ") + all[i];
  return out;
}

std::string load_usage() {
  std::string out;
  for (const LoadFamily* f : load_families()) out += std::string(out.empty() ? "Usage: " : "       ") + f->synopsis + "\n";
  out += kIntro;
  for (const LoadFamily* f : load_families()) out += f->mechanism_help;
  out += kEpsilonHelp;
  for (const LoadFamily* f : load_families()) out += f->option_help;
  out += "\n";
  for (const LoadFamily* f : load_families()) out += f->help;
  return out + kTail;
}

std::string refuse_option(const LoadFamily& family, const LoadOption& option, const std::string& mechanism) {
  if (takes(family, option, mechanism)) return "";
  const std::string own = family.refusal ? family.refusal(option, mechanism) : "";
  if (!own.empty()) return own;
  return refusal_message(option.refusal ? option.refusal : "{option} does not apply to {mechanism}", option, mechanism);
}

std::vector<const LoadOption*> all_load_options() {
  std::vector<const LoadOption*> all = options::every_load;
  for (const LoadFamily* f : load_families())
    for (const LoadOption* o : f->options)
      if (std::find(all.begin(), all.end(), o) == all.end()) all.push_back(o);
  return all;
}

}  // namespace ldp::tools
