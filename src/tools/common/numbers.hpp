// Numbers that simulated users hold, drawn from a distribution (--distribution): the
// populations of the families whose devices hold a number (mean: mean_population.*;
// ranges: range_population.*). Nothing here talks to PostgreSQL.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/common/random.hpp"
#include "tools/common/cli.hpp"
#include "tools/common/population.hpp"

namespace ldp::tools {

// ---------------------------------------------------------------------------
// Distributions of the users' true values

struct Distribution {
  enum class Kind { Constant, Uniform, Normal, Lognormal, Zipf, Bernoulli, File };
  Kind kind = Kind::Constant;
  double a = 0;        // constant: V; uniform: A; normal, lognormal: MU; zipf: S; bernoulli: P
  double b = 0;        // uniform: B; normal, lognormal: SIGMA (lognormal: of ln v)
  int64_t k = 0;       // zipf: K (values are ranks 1..K, P(r) proportional to r^-S)
  std::string path;    // file: PATH
  int column = 1;      // file: 1-based tab-separated column
  std::string spec;    // as written by the user
};

// Parses constant:V | uniform:A:B | normal:MU:SIGMA | lognormal:MU:SIGMA (ln v is
// normal) | zipf:S:K | bernoulli:P | file:PATH[:COLUMN]. Checks the syntax and the parameters that do not depend on
// max_value. Throws UsageError.
Distribution parse_distribution(const std::string& spec);

// Numbers from a file: one per line, or column `column` (1-based) of tab-separated
// lines. Leading lines that are not numbers (headers), blank lines and lines starting
// with '#' are skipped; any other line without a number is an error naming the line.
// Throws UsageError.
std::vector<double> read_values_file(const std::string& path, int column);

// Draws users' values in [0, max_value].
class Population {
 public:
  // Validates the distribution against [0, max_value] (UsageError): parameters must
  // lie in the range; only sampled values (normal tails, file contents) are clamped.
  // A file must hold at least `users` values; the first `users` are used.
  Population(const Distribution& d, double max_value, int64_t users);

  // The next user's value, clamped into [0, max_value].
  double next(RandomSource& rng);

  // Values clamped into [0, max_value] so far.
  int64_t clamped() const { return clamped_; }
  // Every value is 0 or 1 (constant:0, constant:1, bernoulli:P).
  bool bits_only() const;
  const Distribution& distribution() const { return d_; }

 private:
  double clamp(double v);

  Distribution d_;
  double max_value_;
  int64_t clamped_ = 0;
  std::vector<double> values_;  // file values, or the zipf CDF
  size_t next_index_ = 0;
};

// The population options of a family whose devices hold a number: --distribution (given:
// the caller has checked), --users (default 1,000,000; for file: without --users, every
// value of the file), --seed and --first-user-id. UsageError.
struct NumberPopulation {
  Distribution distribution;
  int64_t users = 0;
  std::optional<uint64_t> seed;
  int64_t first_user_id = 1;
};
NumberPopulation number_population(const CommandLine& cl);

}  // namespace ldp::tools
