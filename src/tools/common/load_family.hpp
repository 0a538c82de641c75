// ldp_load's frequency-oracle modes: the oracles over items [0, k) (grr, sue, oue,
// dbitflip, olh, hadamard), the sketches over words (cms, hcms, hashtogram) and the
// heavy hitters (treehist, run in ldp_load_heavy.cpp). The options main() parsed, and
// the runs (load, then the truth and the local decoding on stdout). Split from
// ldp_load.cpp to keep each file readable.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "tools/freq/freq_population.hpp"
#include "tools/heavy/heavy_population.hpp"
#include "tools/rappor/rappor_population.hpp"
#include "tools/sketch/sketch_population.hpp"

namespace ldp::tools {

// A number as the key=value lines print it (append_double: shortest round trip).
inline std::string num(double v) {
  std::string s;
  append_double(s, v);
  return s;
}

// The lines the word loaders print after users=: seed=, table=, reports=,
// distinct_items= (ldp_load_freq.cpp).
void print_load_lines(const std::optional<uint64_t>& seed, const std::string& table, const FreqTally& t);

// The loader's options around a population's spec (frequency oracle or sketch).
template <class Spec>
struct LoadCli {
  Spec spec;
  std::string table, dsn;
  bool truncate = false;
  bool analyze = true;
  int64_t top = 10;            // items (words) printed, by true frequency; 0: all
  bool print_summary = false;  // print local_summary= (the core's text form)
};
using FreqCli = LoadCli<FreqLoadSpec>;
using SketchCli = LoadCli<SketchLoadSpec>;
struct HeavyCli : LoadCli<HeavyLoadSpec> {
  std::string truth_path;  // --truth FILE: the true counts as a word-count file
};
struct RapporCli : LoadCli<RapporLoadSpec> {
  std::string truth_path;     // --truth FILE
  int64_t candidates = 1000;  // the local decode's candidates: the most likely items
};

// Validates the options (UsageError), loads the reports, prints the key=value lines
// on stdout and the one-line summary on stderr. Returns the exit status (0, or 1 on a
// database error).
int run_freq_load(const FreqCli& cli);

// The same for a sketch (cms, hcms, hashtogram).
int run_sketch_load(const SketchCli& cli);

// The same for TreeHist (words or Zipf integer ids), and --truth.
int run_heavy_load(const HeavyCli& cli);

// The same for RAPPOR (ldp_load_rappor.cpp), and --truth.
int run_rappor_load(const RapporCli& cli);

}  // namespace ldp::tools
