// Square Wave with EM (Li, Wang, Lopuhaä-Zwakenberg, Li, Škorić, "Estimating Numerical
// Distributions under Local Differential Privacy", SIGMOD 2020;
// docs/algorithms/ranges.md#square-wave): a shape estimator for the range family.
//
// The device maps its bucket b of [0, 2^k) to v = (b + 0.5)/2^k in [0, 1] and reports one
// real y in [−w, 1 + w]: density p where |y − v| <= w, q elsewhere, w the paper's optimal
// half-width for ε. The server keeps a histogram of the reports over d_out equal buckets of
// [−w, 1 + w] (int64 counts; merge adds them), and reconstructs the distribution over d_in
// equal bins of [0, 1] by EM against the transition matrix T (T[j][i] = the chance that a
// value uniform in input bin i reports into output bucket j, from exact integrals of the
// wave), stopping by the authors' rule. EMS (a binomial smoothing step in each iteration)
// is available, off by default. density's standard errors are a bootstrap of that EM:
// model-based, not exact (EM is biased by its early stop and smoothing).
//
// Grid (sw_grid): d_in = min(2^k, 1024), the paper's 1024 bins but never finer than the
// device's buckets (a bin finer than a bucket holds nothing of its own); d_out = d_in, as
// the authors' code. Output buckets finer than that did not help: 2·d_in and 4·d_in gave
// the same error at ε = 1 and 4 (docs/algorithms/ranges.md#square-wave) for twice and four
// times the work. Both follow from the protocol's integers only, so every server agrees on
// a summary's size.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/common/decode_limits.hpp"
#include "core/common/random.hpp"
#include "core/range/range_summary.hpp"

namespace ldp {

// The wave of ε: half-width w, density p within w of the value and q elsewhere on
// [−w, 1 + w] (2w·p + q = 1, p = e^ε·q).
struct SquareWave {
  double epsilon = 0;
  double half_width = 0;  // w = (ε e^ε − e^ε + 1) / (2 e^ε (e^ε − 1 − ε))
  double p = 0;
  double q = 0;
};
// InvalidParameter unless ε is in the documented range (check_epsilon).
SquareWave square_wave(double epsilon);

constexpr int64_t kSwMaxInputBins = 1024;      // the paper's input grid
constexpr int64_t kSwMaxOutputBuckets = 1 << 16;  // an explicit grid's cap (tests, cross-checks)

// What the matrix takes the values of an input bin to be: the centres of its 2^k / d_in
// buckets, each as likely (what devices send: the protocol's grids), or uniform over the bin
// (the paper's model, for the cross-check with the authors' code). With one bucket a bin,
// the uniform model smears a point over the bin's width: a bias that more reports do not
// remove (docs/algorithms/ranges.md#the-transition-matrix).
enum class SwBinValues : uint8_t { Centres = 1, Uniform = 2 };

// The protocol's grid: its domain, the reports' range [lo, hi] = [−w, 1 + w] cut into d_out
// buckets (edges as NumPy's linspace computes them, so that a histogram of the same reports
// is the same), the input [0, 1] cut into d_in bins of 2^k / d_in buckets each.
struct SwGrid {
  SquareWave wave;
  int domain_bits = 0;
  int64_t d_in = 0;
  int64_t d_out = 0;
  double lo = 0, hi = 0, step = 0;  // step = (hi − lo)/d_out
  SwBinValues values = SwBinValues::Centres;

  int64_t domain() const { return int64_t{1} << domain_bits; }
  int64_t buckets_per_bin() const { return domain() / d_in; }
  // Output bucket j holds [edge(j), edge(j + 1)) (the last one its upper edge too).
  double edge(int64_t j) const { return j == d_out ? hi : static_cast<double>(j) * step + lo; }
};
// The grid of a protocol: ε, 1 <= domain_bits <= 24, d_in and d_out by the rule above, the
// bins' values their buckets' centres.
SwGrid sw_grid(double epsilon, int domain_bits);
// An explicit grid (tests; the cross-check with the authors' code at their 1024 × 1024 and
// their uniform bins): d_in a power of two in [1, min(2^k, kSwMaxInputBins)],
// 1 <= d_out <= kSwMaxOutputBuckets.
SwGrid sw_grid(double epsilon, int domain_bits, int64_t d_in, int64_t d_out,
               SwBinValues values = SwBinValues::Centres);

// ---- the device (the SDK) ----
// The report of a value v in [0, 1] (InvalidParameter otherwise), by inversion of the
// wave's distribution function: one uniform draw.
double sw_encode_value(const SquareWave& w, double v, RandomSource& rng);
// The report of bucket b in [0, 2^k) (InvalidParameter otherwise): v = (b + 0.5)/2^k.
double sw_encode(const SwGrid& g, int64_t bucket, RandomSource& rng);

// ---- the server's counters ----
// The output bucket of a report: ImpossibleReport for NaN or y outside [lo, hi] by more
// than kSwReportSlack (a device's libm may round w differently in the last place; such a
// report goes to the end bucket).
constexpr double kSwReportSlack = 1e-9;
int64_t sw_report_bucket(const SwGrid& g, double y);
// The same for y in [lo, hi] (not checked: the aggregates' fast path tests
// sw_report_in_range first): an estimate, then the edges decide, as NumPy's histogram does.
inline bool sw_report_in_range(const SwGrid& g, double y) { return y >= g.lo && y <= g.hi; }
inline int64_t sw_bucket_of(const SwGrid& g, double y) {
  const double at = (y - g.lo) * (static_cast<double>(g.d_out) / (g.hi - g.lo));
  int64_t j = at > 0 ? static_cast<int64_t>(at) : 0;
  if (j > g.d_out - 1) j = g.d_out - 1;
  while (j > 0 && y < g.edge(j)) --j;
  while (j < g.d_out - 1 && y >= g.edge(j + 1)) ++j;
  return j;
}
// counts[sw_report_bucket(g, y)] += 1 (d_out counters).
void sw_add_report(const SwGrid& g, int64_t* counts, double y);

// ---- the reconstruction ----
struct SwEmOptions {
  int64_t max_iterations = 10000;  // the authors' cap; at most kSwMaxIterations
  double loglik_threshold = 1e-3;  // stop once |Δ log-likelihood| < this (after 3 iterations)
  bool smoothing = false;          // EMS: the binomial smoothing step in every iteration
};
constexpr int64_t kSwMaxIterations = 100000;

enum class SwStop : uint8_t {
  Empty = 0,          // no report: θ is uniform, no iteration
  LogLikelihood = 1,  // |Δ log-likelihood| < threshold
  Step = 2,           // ‖θ − θ_old‖₁ <= 1/N
  Cap = 3,            // max_iterations reached
};

struct SwEmResult {
  std::vector<double> theta;  // d_in shares, summing to 1
  int64_t iterations = 0;     // EM updates made
  SwStop stop = SwStop::Empty;
  double loglik = 0;          // Σ_j h_j log (Tθ)_j at θ
};

// The binomial smoothing of EMS: (θ_{i−1} + 2θ_i + θ_{i+1})/4, the end bins (2θ_0 + θ_1)/3 and
// (θ_{d−2} + 2θ_{d−1})/3; in place. (The authors' code leaves the last bin unsmoothed: its
// smoothing matrix's last row is that of the identity.)
void sw_smooth(std::vector<double>& theta);
using SwSmoother = void (*)(std::vector<double>& theta);

// The transition matrix of a grid, applied without storing it: T[j][i], the chance that a
// value of bin i reports into bucket j, is q·step + (p − q)·M[j][i], M the mean length of
// bucket j within w of the bin's values (their mean over its centres, or over the bin for
// uniform values: an exact integral either way). M = step on Π, the pairs whose bucket lies
// within w of every value of the bin (a run of bins per bucket and of buckets per bin); 0
// where they do not meet; the rest are two short runs per bucket and per bin, where the
// wave's edges cross. T·θ and Tᵀ·r cost O(d_in + d_out).
class SwKernel {
 public:
  explicit SwKernel(const SwGrid& g);

  const SwGrid& grid() const { return g_; }
  // x = T·θ (d_in → d_out) and y = Tᵀ·r (d_out → d_in); scratch holds max(d_in, d_out) + 1.
  void apply(const double* theta, double* x, double* scratch) const;
  void apply_transpose(const double* r, double* y, double* scratch) const;
  // T[j][i] for the tests: q·step, plus (p − q)·step on Π, plus (p − q)·M[j][i] where they meet.
  double entry(int64_t j, int64_t i) const;
  // The EM (EMS with o.smoothing, its step `smooth`) on a histogram of d_out counts; polls
  // for a cancel. Only the cross-check with the authors' code passes another smoothing.
  SwEmResult em(const int64_t* hist, const SwEmOptions& o, SwSmoother smooth = sw_smooth) const;

 // The pairs of one row (a bucket, or a bin) that T does not hold at its floor: columns
  // [p0, p1) of Π (weight step), and [c0, p0) ∪ [p1, c1) where the wave's edges cross, their
  // weights M (the overlap integral times d_in, a fraction of step) from start in w.
  struct Band {
    struct Row {
      int32_t c0, p0, p1, c1;
      int64_t start;
    };
    std::vector<Row> rows;
    std::vector<double> w;
    double weight(int64_t row, int64_t col, double step) const;
    void push(int64_t c0, int64_t p0, int64_t p1, int64_t c1);
  };

 private:
  SwGrid g_;
  double pq_ = 0, qstep_ = 0;
  bool direct_ = false;  // Π's runs summed term by term rather than from prefix sums
  Band by_bucket_, by_bin_;
};

// The shares of `bins` groups of consecutive buckets of [0, 2^k) (histogram's cut: group g
// holds buckets [g·D/bins, (g+1)·D/bins)), from θ over the grid's d_in bins, uniform
// within a bin. 1 <= bins <= D.
void sw_group_shares(const SwGrid& g, const double* theta, int64_t bins, double* out);

// ---- density(bins): the estimate and its bootstrap ----
constexpr int kSwDefaultReplicates = 50;
constexpr int kSwMaxReplicates = 1000;

struct SwDensityQuery {
  int64_t bins = 0;          // 1 <= bins <= 2^k
  int replicates = kSwDefaultReplicates;  // 0 <= replicates <= kSwMaxReplicates
  uint64_t seed = 0;
  SwEmOptions em;
  DecodeLimits limits;
};

struct SwDensityBin {
  int64_t first = 0, last = 0;  // the group's buckets, inclusive
  double frequency = 0;         // its share of the reports (EM on the histogram)
  double std_error = 0;         // the replicates' standard deviation; NaN below 2 replicates
};

struct SwDensity {
  std::vector<SwDensityBin> bins;  // empty when the histogram holds no report
  SwEmResult fit;                  // the estimate's EM (theta over d_in)
  int replicates = 0;
};

// EM on the histogram, then `replicates` bootstrap replicates: each a multinomial resample
// of the histogram (n draws from its own shares; common/binomial.hpp) and the same EM, the
// standard error of each group its standard deviation over the replicates. Deterministic
// for a seed (one SeededRandom stream, replicates in order). The work, (replicates + 1) EM
// runs of at most max_iterations × (d_in + d_out) operations, is planned against q.limits
// before anything starts (LimitExceeded); polls for a cancel between and within the runs.
SwDensity sw_density(const SwGrid& g, const int64_t* hist, const SwDensityQuery& q);

// ---- the range family's sw mechanism (its registry row, kSwImpl) ----
// A range summary of an sw protocol holds the histogram: its counts block is the d_out
// bucket counts (adding up to n), with no sums; its prepared decode is a copy of them.
// Its reports are one float8 each, not (level, hadamard_row, report): range_add_report
// refuses them, range_add_sw_report adds them.

// The grid of an sw protocol (validated; InvalidParameter for another mechanism).
SwGrid sw_grid_of(const RangeProtocol& p);
// The device: the report of a value, its bucket under the protocol's mapping (NaN
// refused: InvalidParameter), then sw_encode. InvalidParameter for another mechanism.
double range_sw_encode(const RangeProtocol& p, double value, RandomSource& rng);
// One report into an sw summary's bucket counts (g: sw_grid_of(s->protocol)):
// ImpossibleReport for another mechanism's summary and for a report outside the wave's
// range (sw_report_bucket); OutOfRange past 2^63 − 1 reports.
void range_add_sw_report(RangeSummary* s, const SwGrid& g, double y);
// Whether the summary's mechanism has a density (its row's hook: Square Wave), and
// density(bins) of a prepared decode through it (InvalidParameter for another mechanism).
bool range_has_density(const RangeProtocol& p);
SwDensity range_density(const RangePrepared& d, const SwDensityQuery& q);

}  // namespace ldp
