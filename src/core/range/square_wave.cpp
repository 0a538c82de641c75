// Square Wave with EM (square_wave.hpp; docs/algorithms/ranges.md#square-wave): the wave,
// the grid, the device's report, the server's buckets, the transition matrix applied in
// O(d_in + d_out), EM and EMS, and density's bootstrap.
#include "core/range/square_wave.hpp"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <limits>
#include <utility>

#include "core/common/binomial.hpp"
#include "core/common/error.hpp"
#include "core/common/interrupt.hpp"
#include "core/common/stats.hpp"
#include "core/range/range_internal.hpp"
#include "core/range/range_protocol.hpp"

namespace ldp {

namespace {

// w(ε) = (ε e^ε − e^ε + 1) / (2 e^ε (e^ε − 1 − ε)). Below ε = 1 the numerator and
// e^ε − 1 − ε cancel (both are about ε²/2), so they are summed as their series,
// Σ_{m>=2} ε^m (m − 1)/m! and Σ_{m>=2} ε^m/m!, whose terms are all positive; from ε = 1
// on, numerator and denominator divided by e^ε, (ε − 1 + e^−ε) / (2 (e^ε − 1 − ε)), have
// no cancellation and no overflow up to kMaxEpsilon.
double half_width(double eps) {
  if (eps < 1) {
    double term = eps, num = 0, rest = 0;  // term = ε^m/m!
    for (int m = 2; m < 60; ++m) {
      term *= eps / m;
      num += term * (m - 1);
      rest += term;
      if (term * m < 1e-18 * num) break;
    }
    return num / (2 * std::exp(eps) * rest);
  }
  return (eps - 1 + std::exp(-eps)) / (2 * (std::expm1(eps) - eps));
}

// The measure of {(y, v) in [a, c] × [l, r] : |y − v| <= w}: K(c − l) − K(c − r) − K(a − l)
// + K(a − r) with K the second antiderivative of 1[|u| <= w], K(x) = w|x| − w²/2 +
// max(0, w − |x|)²/2 (the constants cancel).
double overlap(double a, double c, double l, double r, double w) {
  auto s = [w](double x) {
    const double t = w - std::fabs(x);
    return t > 0 ? t * t : 0.0;
  };
  const double lin = (std::fabs(c - l) - std::fabs(c - r)) - (std::fabs(a - l) - std::fabs(a - r));
  const double quad = (s(c - l) - s(c - r)) - (s(a - l) - s(a - r));
  return w * lin + 0.5 * quad;
}

// Σ_{t<m} clamp(u − (v0 + t·h), −w, w) in closed form: the points below u − w give w each,
// those above u + w give −w, those between an arithmetic series.
double clamp_sum(double u, double v0, double h, int64_t m, double w) {
  const auto at = [m](double t) { return std::clamp(t, 0.0, static_cast<double>(m)); };
  const double below = at(std::ceil((u - w - v0) / h));         // points with u − v > w
  const double end = std::max(below, at(std::floor((u + w - v0) / h) + 1));  // from here u − v < −w
  const double mid = end - below;
  return w * below - w * (static_cast<double>(m) - end) + mid * (u - v0) - h * (below + end - 1) * mid / 2;
}

int64_t clamp_index(double x, int64_t hi) {
  if (!(x > 0)) return 0;
  if (x >= static_cast<double>(hi)) return hi;
  return static_cast<int64_t>(x);
}

// The runs of Π are summed as differences of prefix sums, whose rounding (about 2^−52 of
// the total) weighs (p − q)/q = e^ε − 1 against the floor q·step of every output: below
// e^ε = 10^6 that is under 1e-9 relative. Above it the wave is narrower than 10^−5, its runs
// hold a bin or two, and they are summed term by term.
constexpr double kPrefixRunsBelow = 1e6;

}  // namespace

SquareWave square_wave(double epsilon) {
  check_epsilon(epsilon);
  SquareWave w;
  w.epsilon = epsilon;
  w.half_width = half_width(epsilon);
  const double e = std::exp(epsilon);
  const double norm = 2 * w.half_width * e + 1;  // 2w·e^ε + 1: q = 1/norm, p = e^ε/norm
  w.p = e / norm;
  w.q = 1 / norm;
  return w;
}

SwGrid sw_grid(double epsilon, int domain_bits) {
  if (domain_bits < 1 || domain_bits > kMaxRangeDomainBits)
    throw_error(ErrorKind::InvalidParameter, "a Square Wave protocol's domain_bits must be in [1, %d], got %d",
                kMaxRangeDomainBits, domain_bits);
  const int64_t d_in = std::min(int64_t{1} << domain_bits, kSwMaxInputBins);
  return sw_grid(epsilon, domain_bits, d_in, d_in);
}

SwGrid sw_grid(double epsilon, int domain_bits, int64_t d_in, int64_t d_out, SwBinValues values) {
  if (domain_bits < 1 || domain_bits > kMaxRangeDomainBits)
    throw_error(ErrorKind::InvalidParameter, "a Square Wave protocol's domain_bits must be in [1, %d], got %d",
                kMaxRangeDomainBits, domain_bits);
  const int64_t max_in = std::min(int64_t{1} << domain_bits, kSwMaxInputBins);
  if (d_in < 1 || d_in > max_in || (d_in & (d_in - 1)) != 0)
    throw_error(ErrorKind::InvalidParameter, "a Square Wave grid's input bins must be a power of two in [1, %" PRId64
                "], got %" PRId64, max_in, d_in);
  if (d_out < 1 || d_out > kSwMaxOutputBuckets)
    throw_error(ErrorKind::InvalidParameter, "a Square Wave grid's output buckets must be in [1, %" PRId64 "], got %" PRId64,
                kSwMaxOutputBuckets, d_out);
  SwGrid g;
  g.wave = square_wave(epsilon);
  g.domain_bits = domain_bits;
  g.d_in = d_in;
  g.d_out = d_out;
  g.lo = -g.wave.half_width;
  g.hi = 1 + g.wave.half_width;
  g.step = (g.hi - g.lo) / static_cast<double>(d_out);
  if (values != SwBinValues::Centres && values != SwBinValues::Uniform)
    throw_error(ErrorKind::InvalidParameter, "a Square Wave grid's bin values must be centres or uniform");
  g.values = values;
  return g;
}

// ---- the device ----

double sw_encode_value(const SquareWave& w, double v, RandomSource& rng) {
  if (!(v >= 0 && v <= 1))
    throw_error(ErrorKind::InvalidParameter, "a Square Wave value must be in [0, 1], got %g", v);
  const double b = w.half_width;
  // the reports' distribution function: q over [−w, v − w), p over [v − w, v + w], q after
  const double t = rng.uniform(), below = w.q * v, inside = 2 * b * w.p;
  double y;
  if (t < below)
    y = -b + t / w.q;
  else if (t < below + inside)
    y = v - b + (t - below) / w.p;
  else
    y = v + b + (t - below - inside) / w.q;
  return std::clamp(y, -b, 1 + b);
}

double sw_encode(const SwGrid& g, int64_t bucket, RandomSource& rng) {
  if (bucket < 0 || bucket >= g.domain())
    throw_error(ErrorKind::InvalidParameter, "a bucket must be in [0, %" PRId64 "), got %" PRId64, g.domain(), bucket);
  const double v = (static_cast<double>(bucket) + 0.5) / static_cast<double>(g.domain());
  return sw_encode_value(g.wave, v, rng);
}

// ---- the server's counters ----

int64_t sw_report_bucket(const SwGrid& g, double y) {
  if (!(y >= g.lo - kSwReportSlack && y <= g.hi + kSwReportSlack))
    throw_error(ErrorKind::ImpossibleReport, "a Square Wave report at epsilon = %g must be in [%.17g, %.17g], got %g",
                g.wave.epsilon, g.lo, g.hi, y);
  return sw_bucket_of(g, std::clamp(y, g.lo, g.hi));
}

void sw_add_report(const SwGrid& g, int64_t* counts, double y) { counts[sw_report_bucket(g, y)] += 1; }

// ---- the transition matrix ----

double SwKernel::Band::weight(int64_t row, int64_t col, double step) const {
  const Row& r = rows[static_cast<size_t>(row)];
  if (col < r.c0 || col >= r.c1) return 0;
  if (col < r.p0) return w[static_cast<size_t>(r.start + (col - r.c0))];
  if (col < r.p1) return step;
  return w[static_cast<size_t>(r.start + (r.p0 - r.c0) + (col - r.p1))];
}

void SwKernel::Band::push(int64_t c0, int64_t p0, int64_t p1, int64_t c1) {
  rows.push_back({static_cast<int32_t>(c0), static_cast<int32_t>(p0), static_cast<int32_t>(p1),
                  static_cast<int32_t>(c1), static_cast<int64_t>(w.size())});
}

namespace {
// One row of a band against v: step · Σ_Π v + Σ M·v (Π's run from the prefix sums, or term
// by term for a narrow wave).
inline double band_dot(const SwKernel::Band::Row& r, const double* w, const double* v, const double* prefix,
                       double step, bool direct) {
  const double* left = w + r.start;
  const double* right = left + (r.p0 - r.c0) - r.p1;
  double part_left = 0, part_right = 0;  // two chains of additions, not one
  for (int32_t k = r.c0; k < r.p0; ++k) part_left += left[k - r.c0] * v[k];
  for (int32_t k = r.p1; k < r.c1; ++k) part_right += right[k] * v[k];
  double run = 0;
  if (direct) {
    for (int32_t k = r.p0; k < r.p1; ++k) run += v[k];
  } else {
    run = prefix[r.p1] - prefix[r.p0];
  }
  return step * run + (part_left + part_right);
}

// x = floor + pq · band·v over every row, the prefix sums of v first.
void band_apply(const SwKernel::Band& band, const double* v, int64_t cols, double* x, double* prefix, double qstep,
                double pq, double step, bool direct) {
  prefix[0] = 0;
  for (int64_t i = 0; i < cols; ++i) prefix[i + 1] = prefix[i] + v[i];
  const double floor = qstep * prefix[cols];
  const double* w = band.w.data();
  const size_t n = band.rows.size();
  for (size_t j = 0; j < n; ++j) x[j] = floor + pq * band_dot(band.rows[j], w, v, prefix, step, direct);
}
}  // namespace

SwKernel::SwKernel(const SwGrid& g) : g_(g) {
  const double w = g.wave.half_width, din = static_cast<double>(g.d_in), dom = static_cast<double>(g.domain());
  const bool centres = g.values == SwBinValues::Centres;
  const int64_t per_bin = g.buckets_per_bin();
  pq_ = g.wave.p - g.wave.q;
  qstep_ = g.wave.q * g.step;
  direct_ = std::exp(g.wave.epsilon) > kPrefixRunsBelow;
  // M[j][i] for bucket [a, c]: over bin i's centres v_t = (i·m + t + 0.5)/2^k, the mean of
  // |[a, c] ∩ [v − w, v + w]| = clamp(c − v, −w, w) − clamp(a − v, −w, w); over a uniform bin
  // the overlap's area times d_in
  auto weight = [&](double a, double c, int64_t i) {
    if (!centres) return overlap(a, c, static_cast<double>(i) / din, static_cast<double>(i + 1) / din, w) * din;
    const double v0 = (static_cast<double>(i * per_bin) + 0.5) / dom, h = 1 / dom;
    return (clamp_sum(c, v0, h, per_bin, w) - clamp_sum(a, v0, h, per_bin, w)) / static_cast<double>(per_bin);
  };
  // by bucket: the bins that meet [a − w, c + w], among them Π's, whose lowest value is at
  // least c − w and highest at most a + w; every bound grows with j
  Band& bj = by_bucket_;
  for (int64_t j = 0; j < g.d_out; ++j) {
    const double a = g.edge(j), c = g.edge(j + 1);
    const int64_t c0 = clamp_index(std::floor((a - w) * din), g.d_in);
    const int64_t c1 = clamp_index(std::ceil((c + w) * din), g.d_in);
    const double first = centres ? ((c - w) * dom - 0.5) / static_cast<double>(per_bin) : (c - w) * din;
    const double last = centres ? ((a + w) * dom + 0.5) / static_cast<double>(per_bin) : (a + w) * din;
    const int64_t p0 = std::min(std::max(clamp_index(std::ceil(first), g.d_in), c0), c1);
    const int64_t p1 = std::max(std::min(clamp_index(std::floor(last), g.d_in), c1), p0);
    bj.push(c0, p0, p1, c1);
    for (int64_t i = c0; i < p0; ++i) bj.w.push_back(weight(a, c, i));
    for (int64_t i = p1; i < c1; ++i) bj.w.push_back(weight(a, c, i));
  }
  // by bin, the same pairs: bin i's buckets with a bound below i's, from the first whose
  // bound passes i (each set is a run since the bounds grow with j)
  Band& bi = by_bin_;
  int64_t first_c1 = 0, first_c0 = 0, first_p1 = 0, first_p0 = 0;
  auto first_above = [&](int64_t& j, int32_t Band::Row::*bound, int64_t i) {
    while (j < g.d_out && bj.rows[static_cast<size_t>(j)].*bound <= i) ++j;
    return j;
  };
  for (int64_t i = 0; i < g.d_in; ++i) {
    const int64_t c0 = first_above(first_c1, &Band::Row::c1, i), c1 = first_above(first_c0, &Band::Row::c0, i);
    const int64_t p0 = first_above(first_p1, &Band::Row::p1, i), p1 = first_above(first_p0, &Band::Row::p0, i);
    bi.push(c0, p0, p1, c1);
    for (int64_t j = c0; j < p0; ++j) bi.w.push_back(bj.weight(j, i, g.step));
    for (int64_t j = p1; j < c1; ++j) bi.w.push_back(bj.weight(j, i, g.step));
  }
}

void SwKernel::apply(const double* theta, double* x, double* prefix) const {
  band_apply(by_bucket_, theta, g_.d_in, x, prefix, qstep_, pq_, g_.step, direct_);
}

void SwKernel::apply_transpose(const double* r, double* y, double* prefix) const {
  band_apply(by_bin_, r, g_.d_out, y, prefix, qstep_, pq_, g_.step, direct_);
}

double SwKernel::entry(int64_t j, int64_t i) const { return qstep_ + pq_ * by_bucket_.weight(j, i, g_.step); }

// ---- EM ----

void sw_smooth(std::vector<double>& t) {
  const size_t d = t.size();
  if (d < 2) return;
  double prev = t[0];
  t[0] = (2 * t[0] + t[1]) / 3;
  for (size_t i = 1; i + 1 < d; ++i) {
    const double here = t[i];
    t[i] = (prev + 2 * here + t[i + 1]) / 4;
    prev = here;
  }
  t[d - 1] = (prev + 2 * t[d - 1]) / 3;
}

namespace {
void check_em_options(const SwEmOptions& o) {
  if (o.max_iterations < 0 || o.max_iterations > kSwMaxIterations)
    throw_error(ErrorKind::InvalidParameter, "the EM's iterations must be in [0, %" PRId64 "], got %" PRId64,
                kSwMaxIterations, o.max_iterations);
  if (!(o.loglik_threshold >= 0) || !std::isfinite(o.loglik_threshold))
    throw_error(ErrorKind::InvalidParameter, "the EM's log-likelihood threshold must be finite and >= 0, got %g",
                o.loglik_threshold);
}

// Σ_{i<n} term(i) in four running sums: no chain of n dependent additions.
template <class Term>
double sum4(size_t n, Term term) {
  double a = 0, b = 0, c = 0, d = 0;
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    a += term(i);
    b += term(i + 1);
    c += term(i + 2);
    d += term(i + 3);
  }
  for (; i < n; ++i) a += term(i);
  return (a + b) + (c + d);
}
}  // namespace

// The authors' loop (sw.py's EM and EMS): from the uniform θ, while ‖θ − θ_old‖₁ > 1/N and
// fewer than max_iterations updates, θ ← θ ⊙ Tᵀ(h ⊘ Tθ) normalized (then smoothed and
// normalized for EMS); stop once the log-likelihood at the new θ moved by less than the
// threshold, from the third update on.
SwEmResult SwKernel::em(const int64_t* h, const SwEmOptions& o, SwSmoother smooth) const {
  check_em_options(o);
  const auto din = static_cast<size_t>(g_.d_in), dout = static_cast<size_t>(g_.d_out);
  SwEmResult res;
  res.theta.assign(din, 1.0 / static_cast<double>(g_.d_in));
  int64_t n = 0;
  std::vector<double> counts(dout);
  std::vector<size_t> seen;  // the buckets with reports: the log-likelihood's terms
  for (size_t j = 0; j < dout; ++j) {
    if (h[j] < 0 || h[j] > INT64_MAX - n)
      throw_error(ErrorKind::InvalidParameter, "a Square Wave histogram must hold counts >= 0 summing below 2^63");
    n += h[j];
    counts[j] = static_cast<double>(h[j]);
    if (h[j] != 0) seen.push_back(j);
  }
  std::vector<double> old(din, 0.0), x(dout), r(dout), y(din), scratch(std::max(din, dout) + 1);
  auto loglik = [&] { return sum4(seen.size(), [&](size_t k) { return counts[seen[k]] * std::log(x[seen[k]]); }); };
  apply(res.theta.data(), x.data(), scratch.data());
  res.loglik = loglik();
  if (n == 0) return res;
  const double step_tol = 1.0 / static_cast<double>(n);
  double previous = 0;
  res.stop = SwStop::Step;
  for (int64_t rounds = 0;; ++rounds) {
    const double moved = sum4(din, [&](size_t i) { return std::fabs(old[i] - res.theta[i]); });
    if (!(moved > step_tol)) break;
    if (rounds >= o.max_iterations) {
      res.stop = SwStop::Cap;
      break;
    }
    check_interrupt();
    old.swap(res.theta);
    for (size_t j = 0; j < dout; ++j) r[j] = counts[j] / x[j];  // x > 0: the floor q·step
    apply_transpose(r.data(), y.data(), scratch.data());
    double* t = res.theta.data();
    for (size_t i = 0; i < din; ++i) t[i] = old[i] * y[i];
    double sum = sum4(din, [&](size_t i) { return t[i]; });
    for (size_t i = 0; i < din; ++i) t[i] /= sum;
    if (o.smoothing) {
      smooth(res.theta);
      t = res.theta.data();
      sum = sum4(din, [&](size_t i) { return t[i]; });
      for (size_t i = 0; i < din; ++i) t[i] /= sum;
    }
    apply(t, x.data(), scratch.data());
    res.loglik = loglik();
    ++res.iterations;
    if (rounds > 1 && std::fabs(res.loglik - previous) < o.loglik_threshold) {
      res.stop = SwStop::LogLikelihood;
      break;
    }
    previous = res.loglik;
  }
  return res;
}

// ---- density ----

void sw_group_shares(const SwGrid& g, const double* theta, int64_t bins, double* out) {
  const int64_t domain = g.domain(), per_bin = domain / g.d_in;
  if (bins < 1 || bins > domain)
    throw_error(ErrorKind::InvalidParameter, "bins must be between 1 and the domain's %" PRId64 " buckets, got %" PRId64,
                domain, bins);
  for (int64_t k = 0; k < bins; ++k) {
    const int64_t first = k * domain / bins, end = (k + 1) * domain / bins;
    double s = 0;
    for (int64_t i = first / per_bin; i * per_bin < end; ++i) {
      const int64_t from = std::max(first, i * per_bin), to = std::min(end, (i + 1) * per_bin);
      s += to - from == per_bin ? theta[i] : theta[i] * static_cast<double>(to - from) / static_cast<double>(per_bin);
    }
    out[k] = s;
  }
}

SwDensity sw_density(const SwGrid& g, const int64_t* hist, const SwDensityQuery& q) {
  check_em_options(q.em);
  if (q.bins < 1 || q.bins > g.domain())
    throw_error(ErrorKind::InvalidParameter, "bins must be between 1 and the domain's %" PRId64 " buckets, got %" PRId64,
                g.domain(), q.bins);
  if (q.replicates < 0 || q.replicates > kSwMaxReplicates)
    throw_error(ErrorKind::InvalidParameter, "replicates must be between 0 and %d, got %d", kSwMaxReplicates,
                q.replicates);
  DecodeBudget budget(q.limits, "density");
  const double runs = q.replicates + 1.0, cells = static_cast<double>(g.d_in + g.d_out);
  budget.hold(static_cast<double>(q.bins) * (sizeof(SwDensityBin) + 4 * sizeof(double)) + 16 * cells * sizeof(double),
              "%" PRId64 " bins", q.bins);
  budget.plan(runs * (static_cast<double>(q.em.max_iterations) * cells + static_cast<double>(q.bins) + cells),
              "Square Wave EM: %d runs of at most %" PRId64 " iterations over %" PRId64 " + %" PRId64 " cells",
              q.replicates + 1, q.em.max_iterations, g.d_in, g.d_out);
  const SwKernel kernel(g);
  SwDensity out;
  out.fit = kernel.em(hist, q.em);
  if (out.fit.stop == SwStop::Empty) return out;
  const auto bins = static_cast<size_t>(q.bins);
  std::vector<double> shares(bins), mean(bins, 0.0), m2(bins, 0.0);
  sw_group_shares(g, out.fit.theta.data(), q.bins, shares.data());
  SeededRandom rng(q.seed);
  std::vector<double> s(bins);
  for (int k = 0; k < q.replicates; ++k) {
    check_interrupt();
    const std::vector<int64_t> resample = multinomial_counts(rng, hist, static_cast<size_t>(g.d_out));
    const SwEmResult fit = kernel.em(resample.data(), q.em);
    sw_group_shares(g, fit.theta.data(), q.bins, s.data());
    for (size_t b = 0; b < bins; ++b) {  // Welford
      const double d = s[b] - mean[b];
      mean[b] += d / (k + 1);
      m2[b] += d * (s[b] - mean[b]);
    }
  }
  out.replicates = q.replicates;
  out.bins.resize(bins);
  for (size_t b = 0; b < bins; ++b) {
    SwDensityBin& o = out.bins[b];
    o.first = static_cast<int64_t>(b) * g.domain() / q.bins;
    o.last = (static_cast<int64_t>(b) + 1) * g.domain() / q.bins - 1;
    o.frequency = shares[b];
    o.std_error = q.replicates >= 2 ? std::sqrt(m2[b] / (q.replicates - 1)) : std::numeric_limits<double>::quiet_NaN();
  }
  return out;
}

// ---- the range family's sw mechanism ----

namespace {

[[noreturn]] void not_sw(const RangeProtocol& p, const char* what) {
  throw_error(ErrorKind::InvalidParameter, "%s takes a Square Wave (sw) protocol, not a %s one", what,
              range_mechanism_name(p.mechanism));
}

int64_t sw_counts(const RangeProtocol& p) { return std::min(p.domain(), kSwMaxInputBins); }
size_t sw_prepared_bytes(const RangeProtocol& p) { return sizeof(int64_t) * static_cast<size_t>(sw_counts(p)); }
void sw_prepare(const RangeSummary& s, void* area) {
  std::copy(s.counters(), s.counters() + s.count_cells, static_cast<int64_t*>(area));
}

}  // namespace

SwGrid sw_grid_of(const RangeProtocol& p) {
  validate_range_protocol(p);
  if (p.mechanism != RangeMechanism::Sw) not_sw(p, "a Square Wave grid");
  const SwGrid g = sw_grid(p.epsilon, p.domain_bits);
  if (g.d_out != sw_counts(p)) throw_error(ErrorKind::Internal, "a Square Wave grid of %" PRId64 " buckets", g.d_out);
  return g;
}

double range_sw_encode(const RangeProtocol& p, double value, RandomSource& rng) {
  const SwGrid g = sw_grid_of(p);
  return sw_encode(g, range_bucket(p, value), rng);
}

void range_add_sw_report(RangeSummary* s, const SwGrid& g, double y) {
  if (s->protocol.mechanism != RangeMechanism::Sw)
    throw_error(ErrorKind::ImpossibleReport, "a %s summary takes no Square Wave reports",
                range_mechanism_name(s->protocol.mechanism));
  const int64_t j = sw_report_bucket(g, y);
  if (s->n == INT64_MAX) throw_error(ErrorKind::OutOfRange, "range summary would count more than 2^63 reports");
  s->counters()[j] += 1;
  s->n += 1;
}

namespace {
SwDensity sw_density_of(const RangePrepared& d, const SwDensityQuery& q) {
  return sw_density(sw_grid_of(d.protocol), static_cast<const int64_t*>(d.area()), q);
}
}  // namespace

// The registry's row (range_internal.hpp): a counts block of d_out buckets, no sums, no
// (level, hadamard_row, report) reports, a decode that copies the counts, no linear
// answers, a density.
extern const RangeMechanismImpl kSwImpl;
const RangeMechanismImpl kSwImpl = {
    RangeMechanism::Sw, "sw", {nullptr, nullptr}, nullptr, nullptr,
    {"buckets", nullptr}, "bucket counts", "bucket", sw_counts, nullptr,
    0, nullptr, nullptr,
    sw_prepared_bytes, sw_prepare, nullptr, nullptr, nullptr, sw_density_of,
};

}  // namespace ldp
