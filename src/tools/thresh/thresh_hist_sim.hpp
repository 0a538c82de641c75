// A HEAVYTHRESH simulation (ldp_thresh_sim --histogram): n devices (histogram client
// states, src/core/thresh/histogram.hpp) in groups whose word distributions (SUBTLEX-US
// or Zipf over a dictionary) change at chosen epochs, driven through T epochs by the
// core's rules in memory, beside the baseline that re-estimates every epoch: every user
// sends the same count-sketch report of its projected histogram every epoch with ε_e =
// HEAVYTHRESH's worst-case loss / T (the same worst case over the run, by composition).
// Per epoch: the mean absolute error of the top items' published frequencies for both.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/thresh/histogram.hpp"

namespace ldp::tools {

struct HistPhase {
  int32_t from_epoch = 1;
  std::vector<double> dist;  // over the dictionary, sums to 1
};
struct HistGroupSpec {
  int64_t size = 0;
  std::vector<HistPhase> phases;  // from_epoch increasing, the first 1
};

struct HistSimSpec {
  ldp::thresh::HistogramConfig config;  // users and groups are taken from the groups
  std::vector<std::string> words;       // the dictionary
  std::vector<HistGroupSpec> groups;
  uint64_t seed = 1;
  int top = 20;  // the items whose error is measured: the top of the true distribution
};

struct HistEpochResult {
  int32_t epoch = 0;
  bool updated = false;
  bool changed = false;       // some group's distribution changed (epoch 1 counts)
  bool current = false;       // the published oracle is of an update since the last change
  double yes_share = 0;
  int32_t published_epoch = 0;  // the update whose oracle is published
  double mae = 0;             // HEAVYTHRESH: mean |f̂ − f| over the top items
  double bound = 0;           // its error bound z_{1−δ/4}·se (mean over the top items)
  double covered = 0;         // share of the top items within the bound
  double baseline_mae = 0;    // re-estimating every epoch at ε_e
  double max_spent = 0;       // max over users of c^V + c^E
};

struct HistSimResult {
  ldp::thresh::HistogramParams params;
  double baseline_epsilon = 0;  // ε_e = worst_case_loss / T
  std::vector<HistEpochResult> epochs;
};

// Runs the simulation; progress(done, total) after every epoch (users·epochs in all).
HistSimResult simulate_histograms(const HistSimSpec& spec,
                                  const std::function<void(int64_t, int64_t)>& progress = {});

// "20000:subtlex@33:subtlex+40" → a group of 20000 users with the dictionary's SUBTLEX
// frequencies from epoch 1, rotated by 40 ranks (word i gets the weight of word i + 40)
// from epoch 33; "zipf:1.1+5" is Zipf(1.1) over the dictionary's ranks, rotated by 5.
// `counts` are the dictionary's corpus counts. Throws std::invalid_argument.
void parse_hist_group(const std::string& text, const std::vector<double>& counts, HistSimSpec* spec);

// ldp_thresh_sim --histogram [options]: parses, runs, prints; returns the exit status.
int histogram_main(int argc, char** argv);

}  // namespace ldp::tools
