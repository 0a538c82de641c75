// HEAVYTHRESH (Joseph et al. 2018 §5; docs/algorithms/thresh.md#heavythresh): the reading, the
// derivation of the thresholds and the error bound are in histogram.hpp. The votes, schedule
// and caps are THRESH's shared steps (client.hpp); the oracle is the hashtogram sketch
// (sketch_summary.hpp).
#include "core/thresh/histogram.hpp"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdlib>
#include <memory>

#include "core/common/error.hpp"
#include "core/common/stats.hpp"
#include "core/oracles/hadamard_response.hpp"
#include "core/oracles/sketch_hash.hpp"
#include "core/thresh/thresh_internal.hpp"

namespace ldp::thresh {

namespace {

// y_Φ = sqrt(2·ln(16wnT/δ)/(t·ℓ)).
double projection_unit(const Config& c, int64_t hashes, int64_t width) {
  double w = static_cast<double>(hashes) * static_cast<double>(width);
  double lg = log_ratio(16.0 * w, static_cast<double>(c.users), c.epochs, c.delta);
  return std::sqrt(2.0 * lg / (static_cast<double>(hashes) * static_cast<double>(c.epoch_rounds)));
}

void check_shape(int64_t hashes, int64_t width) {
  SketchParams shape{1.0, hashes, width};  // the sketch's checks of t, m and t·m
  validate_sketch_params(SketchMechanism::Hashtogram, shape);
}

void check_projection(const HistogramParams& p, const Projection& z, const char* what) {
  auto bad = [&](const char* why) {
    throw_error(ErrorKind::InvalidParameter, "the projection %s is not valid for these parameters: %s",
                what, why);
  };
  if (z.samples == 0) {
    if (!z.cells.empty()) bad("has cells but no samples");
    return;
  }
  if (z.samples != p.stream.config.epoch_rounds) bad("must hold epoch_rounds samples");
  for (size_t k = 0; k < z.cells.size(); ++k) {
    if (z.cells[k].first >= static_cast<uint64_t>(p.cells())) bad("has a cell out of range");
    if (k > 0 && z.cells[k].first <= z.cells[k - 1].first) bad("cells must be sorted and distinct");
    if (z.cells[k].second == 0 || std::abs(z.cells[k].second) > z.samples)
      bad("has a sum of 0 or beyond the samples");
  }
}

}  // namespace

double HistogramParams::error_bound(double std_error) const {
  return normal_critical_value(1.0 - stream.config.delta / 2) * std_error;
}

HistogramParams derive_histogram_params(const HistogramConfig& hc) {
  check_shape(hc.hashes, hc.width);
  Config c = hc.stream;
  HistogramParams p;
  p.hashes = hc.hashes;
  p.width = hc.width;
  // derive_params validates the stream's fields; y_Φ needs them valid first.
  Params probe = derive_params(c);
  p.projection_error = projection_unit(c, hc.hashes, hc.width);
  if (!std::isfinite(p.projection_error))
    throw_error(ErrorKind::OutOfRange, "the derived projection error y = %.6g is not a finite number",
                p.projection_error);
  if (!c.threshold_unit) {
    c.threshold_unit = p.projection_error;
    p.stream = derive_params(c);
    p.stream.config.threshold_unit.reset();  // the configuration as given
  } else {
    p.stream = probe;
  }
  if (p.stream.estimate_noise > kMaxEpsilon)
    throw_error(ErrorKind::InvalidParameter,
                "estimate_noise must be <= %g for a histogram stream (the epsilon of its "
                "hashtogram oracle), got %.15g",
                kMaxEpsilon, p.stream.estimate_noise);
  return p;
}

void validate_histogram_params(const HistogramParams& p) {
  validate_params(p.stream);
  check_shape(p.hashes, p.width);
  if (!(p.projection_error > 0 && std::isfinite(p.projection_error)))
    throw_error(ErrorKind::InvalidParameter, "projection_error must be > 0 and finite, got %.15g",
                p.projection_error);
  if (p.stream.estimate_noise > kMaxEpsilon)
    throw_error(ErrorKind::InvalidParameter, "estimate_noise must be <= %g, got %.15g", kMaxEpsilon,
                p.stream.estimate_noise);
}

void item_column(const HistogramParams& p, std::string_view item, uint32_t* cells, bool* plus) {
  const int64_t t = p.hashes;
  std::vector<uint64_t> h(static_cast<size_t>(2 * t));
  ItemHashes(item).hashes(0, 1, 2 * t, h.data());  // seeds 0..2t−1, as count_sketch_rows
  const uint64_t mask = static_cast<uint64_t>(p.width) - 1;
  for (int64_t j = 0; j < t; ++j) {
    cells[j] = static_cast<uint32_t>(j * p.width + static_cast<int64_t>(h[2 * j] & mask));
    plus[j] = (h[2 * j + 1] & 1) == 0;
  }
}

Projection project_columns(const HistogramParams& p, const uint32_t* cells, const bool* plus,
                           const int64_t* counts, size_t items) {
  const auto t = static_cast<size_t>(p.hashes);
  Projection z;
  std::vector<std::pair<uint32_t, int64_t>> all;
  all.reserve(items * t);
  for (size_t i = 0; i < items; ++i) {
    if (counts[i] < 0)
      throw_error(ErrorKind::OutOfRange, "a histogram count must be >= 0, got %" PRId64, counts[i]);
    if (counts[i] > p.stream.config.epoch_rounds - z.samples)
      throw_error(ErrorKind::OutOfRange, "the histogram's counts must sum to epoch_rounds = %" PRId64
                  ", they exceed it", p.stream.config.epoch_rounds);
    z.samples += counts[i];
    if (counts[i] == 0) continue;
    for (size_t j = 0; j < t; ++j)
      all.emplace_back(cells[i * t + j], plus[i * t + j] ? counts[i] : -counts[i]);
  }
  if (z.samples != p.stream.config.epoch_rounds)
    throw_error(ErrorKind::OutOfRange,
                "the histogram's counts must sum to epoch_rounds = %" PRId64 ", got %" PRId64,
                p.stream.config.epoch_rounds, z.samples);
  if (static_cast<size_t>(p.cells()) <= 8 * all.size()) {
    // many items against the cells (a simulation's dictionary): add into all the cells
    // and read them in order, O(items·t + w), where sorting costs O(items·t·log)
    std::vector<int64_t> dense(static_cast<size_t>(p.cells()));
    for (const auto& cell : all) dense[cell.first] += cell.second;
    for (size_t c = 0; c < dense.size(); ++c)
      if (dense[c] != 0) z.cells.emplace_back(static_cast<uint32_t>(c), dense[c]);
    return z;
  }
  std::sort(all.begin(), all.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& cell : all) {
    if (!z.cells.empty() && z.cells.back().first == cell.first)
      z.cells.back().second += cell.second;
    else
      z.cells.push_back(cell);
  }
  z.cells.erase(std::remove_if(z.cells.begin(), z.cells.end(), [](const auto& c) { return c.second == 0; }),
                z.cells.end());
  return z;
}

Projection project(const HistogramParams& p, const ItemCount* items, size_t count) {
  const auto t = static_cast<size_t>(p.hashes);
  std::vector<uint32_t> cells(count * t);
  std::unique_ptr<bool[]> plus(new bool[count * t]);  // vector<bool> has no data()
  std::vector<int64_t> counts(count);
  for (size_t i = 0; i < count; ++i) {
    item_column(p, items[i].item, &cells[i * t], &plus[i * t]);
    counts[i] = items[i].count;
  }
  return project_columns(p, cells.data(), plus.get(), counts.data(), count);
}

double projection_change(const HistogramParams& p, const Projection& a, const Projection& b) {
  // Both hold ℓ samples: D = max_c |S_a[c] − S_b[c]| / (ℓ·√t), a merge of the sorted cells.
  int64_t most = 0;
  size_t i = 0, k = 0;
  while (i < a.cells.size() || k < b.cells.size()) {
    int64_t d;
    if (k == b.cells.size() || (i < a.cells.size() && a.cells[i].first < b.cells[k].first))
      d = a.cells[i++].second;
    else if (i == a.cells.size() || b.cells[k].first < a.cells[i].first)
      d = -b.cells[k++].second;
    else
      d = a.cells[i++].second - b.cells[k++].second;
    most = std::max(most, std::abs(d));
  }
  return static_cast<double>(most) /
         (static_cast<double>(p.stream.config.epoch_rounds) * std::sqrt(static_cast<double>(p.hashes)));
}

double projection_coefficient(const HistogramParams& p, const Projection& z, int64_t j, int64_t r) {
  const int64_t lo = j * p.width, hi = lo + p.width;
  auto it = std::lower_bound(z.cells.begin(), z.cells.end(), static_cast<uint32_t>(lo),
                             [](const auto& cell, uint32_t v) { return cell.first < v; });
  int64_t sum = 0;
  for (; it != z.cells.end() && it->first < hi; ++it)
    sum += hadamard_plus(r, it->first - lo) ? it->second : -it->second;
  return z.samples == 0 ? 0.0 : static_cast<double>(sum) / static_cast<double>(z.samples);
}

int histogram_level(const HistogramParams& p, const HistogramClient::State& s, const Projection& z) {
  if (s.update_epoch == 0) return p.stream.log_epochs;  // no update yet: the top level
  return level_of_change(p.stream, projection_change(p, z, s.last_update));
}

bool histogram_vote_step(const HistogramParams& p, HistogramClient::State& s, int64_t epoch,
                         Projection z, RandomSource& rng) {
  int level = histogram_level(p, s, z);
  bool vote = vote_at_level(p.stream, s, epoch, level, rng);  // checks the epoch first
  s.current = std::move(z);
  return vote;
}

SignedSketchReport projection_report(const HistogramParams& p, const Projection* z, double epsilon,
                                     RandomSource& rng) {
  const auto j = static_cast<int64_t>(rng.below(static_cast<uint64_t>(p.hashes)));
  const auto r = static_cast<int64_t>(rng.below(static_cast<uint64_t>(p.width)));
  double x = z != nullptr ? projection_coefficient(p, *z, j, r) : 0.0;
  bool y = rng.bernoulli((1.0 + x * std::tanh(epsilon / 2.0)) / 2.0);
  return {j, r, y};
}

SignedSketchReport histogram_report_step(const HistogramParams& p, HistogramClient::State& s,
                                         RandomSource& rng) {
  bool truthful = begin_estimate(p.stream, s);
  SignedSketchReport report = projection_report(p, truthful ? &s.current : nullptr, p.stream.estimate_noise, rng);
  s.last_update = s.current;
  return report;
}

HistogramClient::HistogramClient(const HistogramParams& params) : HistogramClient(params, State{}) {}

HistogramClient::HistogramClient(const HistogramParams& params, State state)
    : params_(params), state_(std::move(state)) {
  validate_histogram_params(params_);
  const State& s = state_;
  check_counters(params_.stream, s);
  check_projection(params_, s.current, "current");
  check_projection(params_, s.last_update, "last_update");
  auto bad = [](const char* what) {
    throw_error(ErrorKind::InvalidParameter, "client state is not valid for these parameters: %s", what);
  };
  if ((s.epoch == 0) != (s.current.samples == 0)) bad("current must be empty exactly before the first vote");
  if ((s.update_epoch == 0) != (s.last_update.samples == 0))
    bad("last_update must be empty exactly before the first update");
  if (s.update_epoch != 0 && s.update_epoch == s.epoch && s.last_update.cells != s.current.cells)
    bad("last_update must be the projection of the update epoch");
}

bool HistogramClient::vote(int64_t epoch, const ItemCount* items, size_t count, RandomSource& rng) {
  return histogram_vote_step(params_, state_, epoch, project(params_, items, count), rng);
}

bool HistogramClient::vote(int64_t epoch, Projection projection, RandomSource& rng) {
  check_projection(params_, projection, "projection");
  if (projection.samples == 0)
    throw_error(ErrorKind::OutOfRange, "a projection must hold epoch_rounds = %" PRId64 " samples",
                params_.stream.config.epoch_rounds);
  return histogram_vote_step(params_, state_, epoch, std::move(projection), rng);
}

SignedSketchReport HistogramClient::report(RandomSource& rng) {
  return histogram_report_step(params_, state_, rng);
}

int HistogramClient::highest_level(const Projection& projection) const {
  return histogram_level(params_, state_, projection);
}

FrequencyEstimate histogram_frequency(const HistogramParams& p, const SketchSummary& s, const int64_t* table,
                                      std::string_view item, uint64_t* scratch) {
  if (s.n < 1) throw_error(ErrorKind::InvalidParameter, "the oracle holds no reports");
  SketchEstimate e = sketch_estimate(s, table, item, scratch);
  const double n = static_cast<double>(s.n);
  FrequencyEstimate f{e.count, e.count / n, e.std_error / n, 0};
  f.bound = p.error_bound(f.std_error);
  return f;
}

}  // namespace ldp::thresh
