// Statistical tests of the sketch oracles (cms, hcms, hashtogram;
// docs/algorithms/sketches.md, "the page" below), end to end: the SDK's encoders produce
// every report, the summary decodes them, over seeded, deterministic trials.
//
//   1. Unbiased over random hashes. The hash functions are fixed by convention
//      (XXH64 with seeds 0..k-1, or 0..2t-1), so the tests draw fresh ones by giving
//      the population's items fresh random labels in every trial: XXH64 taken as a
//      random function, new labels are new hashes.
//   2. Fixed hashes (fixed labels): the mean error is the collision bias that
//      the page derives (#hash-collisions), computed here from the hashes (ldp::sketch_hash),
//      including next to a heavy item, where it is several standard errors.
//   3. The variance is the closed form; where a fixed item's variance departs from
//      it (the closed form averages over hashes; hashtogram's omits -f), the exact
//      form derived here, and the closed form wherever the departure leaves room.
//   4. The 95% intervals cover the truth 95% of the time.
//
// Every formula below is written here from the page (or derived in a comment),
// independently of the library's code. Each mechanism's parameters are those of
// the page's checks: cms and hcms ε = 2, k = 8, m = 32, n = 1900 with
// one item held by 600; hashtogram t = 16, m = 256, ε = 1 (n = 4096: the row
// estimates are sums of ~256 reports, normal enough; the variance ratios do not
// depend on n, checked against n = 16384).
//
// Every test prints its figures (std::printf). Runtime on a loaded 2-core machine:
// 10-13 s in build/cmake (cms's 8000 fixed-hash trials are half of it), 25-33 s under
// ASan + UBSan (build/asan, test/run.sh), inside its budget, so the trials are the
// same in both builds (freq_estimator_test.cpp does not reduce them either).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/common/random.hpp"
#include "core/sketch/sketch_summary.hpp"
#include "sketch_test_support.hpp"

namespace {

using ldp::SketchMechanism;
using ldp_test::Prepared;
using ldp_test::Sketch;

constexpr double kZ95 = 1.959963984540054;
// Every z-test below: |z| < 4, a false alarm of 6e-5 per check (about 130 checks in
// this file: 0.8% family-wise at the very worst).
constexpr double kMaxZ = 4;

double C(double x) { return (std::exp(x) + 1) / (std::exp(x) - 1); }  // c(x)

struct Mech {
  SketchMechanism id;
  const char* name;
  double epsilon;
  int64_t hashes, width;
};
const Mech kCms{SketchMechanism::CMS, "cms", 2, 8, 32};
const Mech kHcms{SketchMechanism::HCMS, "hcms", 2, 8, 32};
const Mech kHashtogram{SketchMechanism::Hashtogram, "hashtogram", 1, 16, 256};

struct Item {
  std::string label;
  int holders;  // 0: queried, never reported
};
using Population = std::vector<Item>;

int64_t Total(const Population& pop) {
  int64_t n = 0;
  for (const Item& i : pop) n += i.holders;
  return n;
}

// ---- closed forms (the page's CMS, HCMS and hashtogram sections) ----

double CmsVariance(const Mech& m, double n, double f) {
  const double c = C(m.epsilon / 2), md = static_cast<double>(m.width), r = md / (md - 1);
  return r * r * n * (c * c - 1) / 4 + (n - f) / (md - 1);
}
double HcmsVariance(const Mech& m, double n, double f) {
  const double c = C(m.epsilon), md = static_cast<double>(m.width), r = md / (md - 1);
  return r * r * (n * c * c - f - (n - f) / (md * md));
}
double HashtogramVariance(const Mech& m, double n) {  // the median over rows
  const double c = C(m.epsilon);
  return M_PI / 2 * n * c * c;
}
double ClosedForm(const Mech& m, double n, double f) {
  switch (m.id) {
    case SketchMechanism::CMS:
      return CmsVariance(m, n, f);
    case SketchMechanism::HCMS:
      return HcmsVariance(m, n, f);
    case SketchMechanism::Hashtogram:
      return HashtogramVariance(m, n);
  }
  return 0;
}

// ---- hashes (the conventions), recomputed from ldp::sketch_hash ----

// cms, hcms: h_j(x) = XXH64(x, j) mod m.
int64_t CmsColumn(const std::string& x, int64_t j, int64_t m) {
  return static_cast<int64_t>(ldp::sketch_hash(x, static_cast<uint64_t>(j)) % static_cast<uint64_t>(m));
}
// κ_xy = #{j : h_j(x) = h_j(y)}
int Kappa(const std::string& x, const std::string& y, int64_t k, int64_t m) {
  int kappa = 0;
  for (int64_t j = 0; j < k; ++j) kappa += CmsColumn(x, j, m) == CmsColumn(y, j, m);
  return kappa;
}
// cms and hcms, fixed hashes (#hash-collisions):
// E f̂(x) - f(x) = (m/(m-1))·Σ_{y≠x} f(y)·(κ_xy/k - 1/m). Exact: the expectation over the reports' rows, flips (and hcms's
// coefficients) leaves c·[h_J(x) = h_J(y)] - 1/m per report of y.
double CmsCollisionBias(const Mech& m, const Population& pop, const std::string& x) {
  const double k = static_cast<double>(m.hashes), md = static_cast<double>(m.width);
  double sum = 0;
  for (const Item& y : pop)
    if (y.label != x) sum += y.holders * (Kappa(x, y.label, m.hashes, m.width) / k - 1 / md);
  return md / (md - 1) * sum;
}
// The exact variance with fixed hashes (derived here, printed next to the closed
// form, which takes each report's collision as a fresh draw of probability 1/m):
//   cms:  r²·(n·(c²-1)/4 + Σ_{y≠x} f(y)·(κ/k)(1-κ/k))  (a report of y sets x's bit
//         with probability q + (p-q)·κ/k, and c²pq = (c²-1)/4, c(p-q) = 1)
//   hcms: r²·(n·c² - f(x) - Σ_{y≠x} f(y)·(κ/k)²)       (c·y·H = ±c, mean κ/k)
double FixedHashVariance(const Mech& m, const Population& pop, const std::string& x) {
  const double k = static_cast<double>(m.hashes), md = static_cast<double>(m.width), r = md / (md - 1);
  const double n = static_cast<double>(Total(pop));
  double extra = 0, fx = 0;
  for (const Item& y : pop) {
    if (y.label == x) {
      fx = y.holders;
      continue;
    }
    const double a = Kappa(x, y.label, m.hashes, m.width) / k;
    extra += y.holders * (m.id == SketchMechanism::CMS ? a * (1 - a) : a * a);
  }
  if (m.id == SketchMechanism::CMS) {
    const double c = C(m.epsilon / 2);
    return r * r * (n * (c * c - 1) / 4 + extra);
  }
  const double c = C(m.epsilon);
  return r * r * (n * c * c - fx - extra);
}

// hashtogram (#count-sketch-with-hadamard-compression-hashtogram):
// h_j(u) = XXH64(u, 2j) mod m, g_j(u) = 1 - 2·(XXH64(u, 2j+1) & 1).
struct RowHashes {
  std::vector<int64_t> h;
  std::vector<int> g;
};
RowHashes HashtogramHashes(const std::string& u, int64_t t, int64_t m) {
  RowHashes r;
  for (int64_t j = 0; j < t; ++j) {
    r.h.push_back(static_cast<int64_t>(ldp::sketch_hash(u, static_cast<uint64_t>(2 * j)) % static_cast<uint64_t>(m)));
    r.g.push_back(1 - 2 * static_cast<int>(ldp::sketch_hash(u, static_cast<uint64_t>(2 * j + 1)) & 1));
  }
  return r;
}
// Each row's bias and standard deviation for item x. A report of y adds to row j's
// estimate t·c·g_j(x)·[J = j]·(±H[r][h_j(y)]·H[r][h_j(x)]·g_j(y)), of mean
// μ_j(y) = g_j(x)·g_j(y)·[h_j(x) = h_j(y)] (1 for y = x) and second moment t·c². So
//   row bias  b_j(x) = Σ_{y≠x} f(y)·g_j(x)·g_j(y)·[h_j(x) = h_j(y)]   (#hash-collisions)
//   row var   σ_j²   = t·n·c² - Σ_y f(y)·μ_j(y)²
// (sd below). The rows' covariance is -Σ_y f(y)·μ_j(y)·μ_i(y), at most n against
// t·n·c² = 75·n here; its common part -f(x) is taken up in the hashtogram test below.
struct Rows {
  std::vector<double> bias, sd;
  double Mean() const {  // the page's collision bias of the mean over rows
    double s = 0;
    for (double b : bias) s += b;
    return s / static_cast<double>(bias.size());
  }
  double MaxAbs() const {
    double a = 0;
    for (double b : bias) a = std::max(a, std::fabs(b));
    return a;
  }
  double MinSd() const { return *std::min_element(sd.begin(), sd.end()); }
};
Rows HashtogramRows(const Mech& m, const Population& pop, const std::string& x) {
  const int64_t t = m.hashes;
  const double c = C(m.epsilon), n = static_cast<double>(Total(pop));
  const RowHashes hx = HashtogramHashes(x, t, m.width);
  Rows rows;
  rows.bias.assign(static_cast<size_t>(t), 0);
  std::vector<double> var(static_cast<size_t>(t), static_cast<double>(t) * n * c * c);
  for (const Item& y : pop) {
    if (y.label == x) {
      for (auto& v : var) v -= y.holders;
      continue;
    }
    const RowHashes hy = HashtogramHashes(y.label, t, m.width);
    for (int64_t j = 0; j < t; ++j)
      if (hx.h[j] == hy.h[j]) {
        rows.bias[j] += y.holders * hx.g[j] * hy.g[j];
        var[j] -= y.holders;
      }
  }
  for (double v : var) rows.sd.push_back(std::sqrt(v));
  return rows;
}

// The exact variance of the mean over rows (derived): it is c·Σ_u W_u, one W_u = ±1 per
// report, of mean μ̄(y) = (1/t)·Σ_j μ_j(y) for a report of y, so
//   Var = n·c² - Σ_y f(y)·μ̄(y)²   (μ̄(x) = 1: the page's n·c², less f(x) and collisions)
double MeanOverRowsVariance(const Mech& m, const Population& pop, const std::string& x) {
  const int64_t t = m.hashes;
  const double c = C(m.epsilon);
  const RowHashes hx = HashtogramHashes(x, t, m.width);
  double var = static_cast<double>(Total(pop)) * c * c;
  for (const Item& y : pop) {
    double mu = 0;
    if (y.label == x) {
      mu = 1;
    } else {
      const RowHashes hy = HashtogramHashes(y.label, t, m.width);
      for (int64_t j = 0; j < t; ++j) mu += hx.h[j] == hy.h[j] ? hx.g[j] * hy.g[j] : 0;
      mu /= static_cast<double>(t);
    }
    var -= y.holders * mu * mu;
  }
  return var;
}

// The median as numpy.median: the mean of the two middle values for even length.
double Median(std::vector<double>& v) {
  std::sort(v.begin(), v.end());
  const size_t t = v.size();
  return t % 2 == 1 ? v[t / 2] : (v[t / 2 - 1] + v[t / 2]) / 2;
}

// The median of the rows, modelled: row j's estimate normal with mean f + b_j and
// standard deviation σ_j, rows independent. E[median] - f and Var[median] by Monte
// Carlo over a fixed table of standard normal draws (the same for every item),
// antithetic (z and -z), so a bias near zero is computed nearly exactly.
struct ModelResult {
  double bias, bias_se, variance;
};
class MedianModel {
 public:
  MedianModel(int64_t t, int draws, uint64_t seed) : t_(static_cast<size_t>(t)), draws_(draws) {
    ldp::SeededRandom rng(seed);
    z_.resize(t_ * static_cast<size_t>(draws));
    for (double& z : z_) z = rng.normal();
  }
  ModelResult operator()(const Rows& rows) const {
    std::vector<double> a(t_), b(t_);
    long double s = 0, s2 = 0, v2 = 0;
    for (int d = 0; d < draws_; ++d) {
      const double* z = &z_[static_cast<size_t>(d) * t_];
      for (size_t j = 0; j < t_; ++j) {
        a[j] = rows.bias[j] + rows.sd[j] * z[j];
        b[j] = rows.bias[j] - rows.sd[j] * z[j];
      }
      const double ma = Median(a), mb = Median(b), pair = (ma + mb) / 2;
      s += pair;
      s2 += static_cast<long double>(pair) * pair;
      v2 += static_cast<long double>(ma) * ma + static_cast<long double>(mb) * mb;
    }
    const double mean = static_cast<double>(s / draws_);
    const double pair_var = static_cast<double>(s2 / draws_) - mean * mean;
    return {mean, std::sqrt(std::fmax(pair_var, 0.0) / draws_),
            static_cast<double>(v2 / (2.0L * draws_)) - mean * mean};
  }

 private:
  size_t t_;
  int draws_;
  std::vector<double> z_;
};

// ---- trials ----

// estimates[trial·items + i]; labels(trial) names the population's items in that trial.
struct Trials {
  int trials = 0;
  size_t items = 0;
  std::vector<double> est, se;
};
using Labels = std::function<std::vector<std::string>(int trial)>;

Trials RunTrials(const Mech& m, const std::vector<int>& holders, const Labels& labels, int trials, uint64_t seed) {
  Trials out;
  out.trials = trials;
  out.items = holders.size();
  out.est.reserve(static_cast<size_t>(trials) * holders.size());
  out.se.reserve(out.est.capacity());
  for (int t = 0; t < trials; ++t) {
    ldp::SeededRandom rng(seed * 1000003 + static_cast<uint64_t>(t));
    const std::vector<std::string> names = labels(t);
    Sketch s(m.id, m.epsilon, m.hashes, m.width);
    for (size_t i = 0; i < holders.size(); ++i)
      for (int u = 0; u < holders[i]; ++u) ldp_test::report(s, names[i], rng);
    Prepared p(s);
    for (size_t i = 0; i < holders.size(); ++i) {
      const ldp::SketchEstimate e = p(names[i]);
      out.est.push_back(e.count);
      out.se.push_back(e.std_error);
    }
  }
  return out;
}

std::vector<int> Holders(const Population& pop) {
  std::vector<int> h;
  for (const Item& i : pop) h.push_back(i.holders);
  return h;
}
Labels FixedLabels(const Population& pop) {
  std::vector<std::string> names;
  for (const Item& i : pop) names.push_back(i.label);
  return [names](int) { return names; };
}
// Fresh random labels in every trial: a fresh draw of the hash functions.
Labels FreshLabels(size_t count, uint64_t seed) {
  return [count, seed](int trial) {
    ldp::SeededRandom rng(~(seed * 1000003 + static_cast<uint64_t>(trial)));
    std::vector<std::string> names;
    char buf[40];
    for (size_t i = 0; i < count; ++i) {
      std::snprintf(buf, sizeof buf, "item-%016llx", static_cast<unsigned long long>(rng.next_u64()));
      names.emplace_back(buf);
    }
    return names;
  };
}

struct ItemStats {
  double mean_error;  // mean of (estimate - truth)
  double variance;    // of the estimates, around their mean
  double mean_se2;    // mean of the reported std_error²
  int covered;        // |estimate - truth| <= 1.96·std_error
  double z0() const { return mean_error / std::sqrt(variance / trials); }  // against 0
  int trials;
};
ItemStats Stats(const Trials& r, size_t i, double truth) {
  long double sum = 0, se2 = 0;
  int covered = 0;
  for (int t = 0; t < r.trials; ++t) {
    const double e = r.est[t * r.items + i], s = r.se[t * r.items + i];
    sum += e;
    se2 += static_cast<long double>(s) * s;
    covered += std::fabs(e - truth) <= kZ95 * s;
  }
  const double mean = static_cast<double>(sum / r.trials);
  long double dev2 = 0;
  for (int t = 0; t < r.trials; ++t) {
    const long double d = r.est[t * r.items + i] - mean;
    dev2 += d * d;
  }
  return {mean - truth, static_cast<double>(dev2 / (r.trials - 1)), static_cast<double>(se2 / r.trials), covered,
          r.trials};
}

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

// ---- populations ----

// The page's CMS and HCMS setting: n = 1900, one item held by 600; here the other 1300
// reports over ten items, and three items nobody holds.
Population DocPopulation() {
  Population pop = {{"heavy", 600}};
  const int light[] = {300, 200, 150, 150, 100, 100, 100, 100, 50, 50};
  for (int i = 0; i < 10; ++i) pop.push_back({"light-" + std::to_string(i), light[i]});
  for (int i = 0; i < 3; ++i) pop.push_back({"absent-" + std::to_string(i), 0});
  return pop;
}

// hashtogram, n = 4096: a heavy item (half the reports; 3.7 row standard deviations
// σ_row = c·sqrt(t·n) = 554), a medium one (256 = 0.46·σ_row) and twelve light ones.
Population HashtogramPopulation() {
  Population pop = {{"heavy", 2048}, {"medium", 256}};
  const int light[] = {300, 250, 200, 200, 150, 150, 150, 100, 100, 80, 62, 50};
  for (int i = 0; i < 12; ++i) pop.push_back({"light-" + std::to_string(i), light[i]});
  for (int i = 0; i < 2; ++i) pop.push_back({"absent-" + std::to_string(i), 0});
  return pop;
}

// The first label "neighbour-<i>" (i = 0, 1, ...) that satisfies ok: a deterministic
// construction of an item that collides with a given one, not a choice of outcome.
std::string FirstNeighbour(const std::function<bool(const std::string&)>& ok) {
  for (int i = 0;; ++i) {
    std::string label = "neighbour-" + std::to_string(i);
    if (ok(label)) return label;
  }
}

// ===========================================================================
// 1. Unbiased over random hashes.
//
// Fresh labels every trial; per item, z = mean(f̂ - f)/(sd/√T) with sd the
// estimates' standard deviation over trials (noise plus the collision bias of that
// trial's hashes), |z| < 4. Power: a bias b is caught with probability 95% once
// |b| >= (4 + 1.645)·sd/√T, printed below as "detects": for cms/hcms 7-10 reports
// (0.15-0.19 SE; dropping the m/(m-1) factor would bias the heavy item by -f/m =
// -19), for hashtogram 21 (0.12 SE; the lower-middle median (#the-median-over-rows) would bias
// every item by -0.08·sqrt(t·n)·c = -44). sd is above the standard error (cms 52-66 against
// 44): it includes each trial's collision bias.

void CheckUnbiasedOverRandomHashes(const Mech& m, const Population& pop, int trials, uint64_t seed) {
  const auto start = std::chrono::steady_clock::now();
  const Trials r = RunTrials(m, Holders(pop), FreshLabels(pop.size(), seed), trials, seed);
  double max_z = 0, max_detect = 0;
  std::printf("[%s] unbiased over random hashes, %d trials, n = %lld\n", m.name, trials,
              static_cast<long long>(Total(pop)));
  for (size_t i = 0; i < pop.size(); ++i) {
    const ItemStats st = Stats(r, i, pop[i].holders);
    const double z = st.z0(), detect = (kMaxZ + 1.645) * std::sqrt(st.variance / trials);
    std::printf("  f = %4d  mean error %+7.2f  sd %6.1f  z %+5.2f  detects |bias| >= %.1f\n", pop[i].holders,
                st.mean_error, std::sqrt(st.variance), z, detect);
    EXPECT_LT(std::fabs(z), kMaxZ) << m.name << " item " << i << " (f = " << pop[i].holders
                                   << "): mean error " << st.mean_error;
    max_z = std::max(max_z, std::fabs(z));
    max_detect = std::max(max_detect, detect);
  }
  std::printf("[%s] max |z| = %.2f, detects a bias >= %.1f with 95%% power (%.1f s)\n", m.name, max_z, max_detect,
              Seconds(start));
}

TEST(SketchStat, CmsUnbiasedOverRandomHashes) { CheckUnbiasedOverRandomHashes(kCms, DocPopulation(), 2000, 11); }
TEST(SketchStat, HcmsUnbiasedOverRandomHashes) { CheckUnbiasedOverRandomHashes(kHcms, DocPopulation(), 2000, 12); }
TEST(SketchStat, HashtogramUnbiasedOverRandomHashes) {
  CheckUnbiasedOverRandomHashes(kHashtogram, HashtogramPopulation(), 2000, 13);
}

// ===========================================================================
// 2 and 3 for cms and hcms: fixed hashes (fixed labels), T = 8000 trials.
//
// Per item: the mean error matches the collision bias (m/(m-1))·Σ_{y≠x} f(y)·(κ_xy/k
// - 1/m) within |z| < 4 (Monte Carlo error sd/√T, about 0.5 reports). Two constructed
// neighbours of the heavy item (nobody holds them) collide with it in exactly one and
// exactly two of the k rows: there the bias is one to five standard errors, the case
// where it matters.
//
// Variance. The closed form takes each report's collision as a fresh draw of
// probability 1/m: it is the fixed-hash variance averaged over hashes, not any one
// item's. So, all within 10% (sampling error of a variance sqrt(2/T) = 1.6%):
// - observed against the exact fixed-hash variance (FixedHashVariance), every item
//   (6.3 sampling errors of margin);
// - the exact variance against the closed form, every item (deterministic, from the
//   hashes): -3% for an item that collides with nothing, +9% for cms's two-row
//   neighbour of the heavy item (r²·600·(κ/k)(1-κ/k) = 120 where the closed form
//   counts about 600/(m-1) = 19);
// - observed against the closed form directly, wherever the exact variance is within
//   10% - 4·sqrt(2/T) = 3.7% of it, so that the check keeps 4 sampling errors of
//   margin: every item but that neighbour, whose observed/closed-form ratio is about
//   1.09 (1.08-1.15 over seven seeds, observed/exact 0.99-1.06), too close to 1.10 to
//   assert: the closed-form standard error understates its spread by 4%, besides its
//   bias of five standard errors. hcms is hardly affected (its term is -(κ/k)²);
// - the mean reported std_error² against the closed form (f̂ clamped for f).

void CheckCmsFixedHashes(const Mech& m, int trials, uint64_t seed) {
  const auto start = std::chrono::steady_clock::now();
  Population pop = DocPopulation();
  const std::string heavy = pop[0].label;
  for (int kappa : {1, 2})
    pop.push_back({FirstNeighbour([&](const std::string& x) { return Kappa(x, heavy, m.hashes, m.width) == kappa; }),
                   0});
  const double n = static_cast<double>(Total(pop));
  const Trials r = RunTrials(m, Holders(pop), FixedLabels(pop), trials, seed);
  std::printf("[%s] fixed hashes, %d trials, n = %.0f, k = %lld, m = %lld, eps = %g\n", m.name, trials, n,
              static_cast<long long>(m.hashes), static_cast<long long>(m.width), m.epsilon);
  std::printf("  %-12s %5s %5s %9s %9s %6s %8s %8s %8s %7s %7s %6s\n", "item", "f", "kappa", "bias", "predicted", "z",
              "variance", "closed", "exact", "/closed", "/exact", "se2/cf");
  size_t closed_checked = 0;
  double max_z = 0;
  for (size_t i = 0; i < pop.size(); ++i) {
    const Item& it = pop[i];
    const ItemStats st = Stats(r, i, it.holders);
    const double predicted = CmsCollisionBias(m, pop, it.label);
    const double z = (st.mean_error - predicted) / std::sqrt(st.variance / trials);
    const double closed = ClosedForm(m, n, it.holders), exact = FixedHashVariance(m, pop, it.label);
    const int kappa = Kappa(it.label, heavy, m.hashes, m.width);
    std::printf("  %-12s %5d %5d %+9.2f %+9.2f %+6.2f %8.1f %8.1f %8.1f %7.3f %7.3f %6.3f\n", it.label.c_str(),
                it.holders, kappa, st.mean_error, predicted, z, st.variance, closed, exact, st.variance / closed,
                st.variance / exact, st.mean_se2 / closed);
    SCOPED_TRACE(::testing::Message() << m.name << " " << it.label << ": bias " << st.mean_error << " predicted "
                                      << predicted << ", variance " << st.variance << " closed form " << closed
                                      << " exact " << exact);
    EXPECT_LT(std::fabs(z), kMaxZ);
    max_z = std::max(max_z, std::fabs(z));
    EXPECT_NEAR(st.variance / exact, 1.0, 0.10);
    EXPECT_NEAR(exact / closed, 1.0, 0.10);
    if (std::fabs(exact / closed - 1) <= 0.10 - 4 * std::sqrt(2.0 / trials)) {
      ++closed_checked;
      EXPECT_NEAR(st.variance / closed, 1.0, 0.10);
    }
    EXPECT_NEAR(st.mean_se2 / closed, 1.0, 0.10);
    if (it.label.rfind("neighbour-", 0) == 0) {
      // the case where the bias matters (a property of the construction, checked so
      // that the test keeps it): the two-row neighbour is biased by over 3 SE
      EXPECT_GT(predicted, 0);
      if (kappa == 2) {
        EXPECT_GT(predicted, 3 * std::sqrt(closed));
      }
    }
  }
  EXPECT_GE(closed_checked, pop.size() - 1);
  std::printf("[%s] fixed hashes: max |z| %.2f; closed form checked on %zu of %zu items (%.1f s)\n", m.name, max_z,
              closed_checked, pop.size(), Seconds(start));
}

TEST(SketchStat, CmsFixedHashesCollisionBiasAndVariance) { CheckCmsFixedHashes(kCms, 8000, 21); }
TEST(SketchStat, HcmsFixedHashesCollisionBiasAndVariance) { CheckCmsFixedHashes(kHcms, 8000, 22); }

// ===========================================================================
// 2 for hashtogram with t = 2 rows: the median of two rows is their mean, so the page's
// collision bias of the mean over rows, Σ_{y≠x} f(y)·(1/t)·Σ_j g_j(x)·g_j(y)·[h_j(x)
// = h_j(y)], is exactly the estimate's. A neighbour of the heavy item (half the
// reports) collides with it in one of the two rows: bias ±1024, seven standard
// errors. T = 1000 (Monte Carlo error about 4.4 reports).
// The variance too is the mean over rows' (MeanOverRowsVariance): pooled over the
// items (the mean of their ratios; 17 items' sampling errors of 4.5% each, nearly
// independent: about 1.1%) within 10%. The library's closed form, (π/2)·n·c² for
// every t, is printed: at t = 2 it overstates the variance by π/2 (ratio 0.64), its
// intervals cover about 99%; t = 2 is not a setting the page recommends.

TEST(SketchStat, HashtogramTwoRowsBiasIsTheMeanOverRowsFormula) {
  const auto start = std::chrono::steady_clock::now();
  const Mech m{SketchMechanism::Hashtogram, "hashtogram t=2", 1, 2, 256};
  const int trials = 1000;
  Population pop = HashtogramPopulation();
  const RowHashes heavy = HashtogramHashes(pop[0].label, m.hashes, m.width);
  pop.push_back({FirstNeighbour([&](const std::string& x) {
                   const RowHashes h = HashtogramHashes(x, m.hashes, m.width);
                   return (h.h[0] == heavy.h[0]) + (h.h[1] == heavy.h[1]) == 1;
                 }),
                 0});
  const Trials r = RunTrials(m, Holders(pop), FixedLabels(pop), trials, 31);
  std::printf("[%s] fixed hashes, %d trials, n = %lld, m = %lld, eps = %g\n", m.name, trials,
              static_cast<long long>(Total(pop)), static_cast<long long>(m.width), m.epsilon);
  std::printf("  %-12s %5s %9s %9s %6s %8s %8s %7s %7s\n", "item", "f", "bias", "predicted", "z", "variance",
              "exact", "/exact", "/closed");
  double neighbour_bias = 0, neighbour_sd = 0, pooled = 0, pooled_closed = 0;
  const double closed = HashtogramVariance(m, static_cast<double>(Total(pop)));
  for (size_t i = 0; i < pop.size(); ++i) {
    const ItemStats st = Stats(r, i, pop[i].holders);
    const double predicted = HashtogramRows(m, pop, pop[i].label).Mean();
    const double z = (st.mean_error - predicted) / std::sqrt(st.variance / trials);
    const double exact = MeanOverRowsVariance(m, pop, pop[i].label);
    pooled += st.variance / exact;
    pooled_closed += st.variance / closed;
    std::printf("  %-12s %5d %+9.2f %+9.2f %+6.2f %8.0f %8.0f %7.3f %7.3f\n", pop[i].label.c_str(), pop[i].holders,
                st.mean_error, predicted, z, st.variance, exact, st.variance / exact, st.variance / closed);
    EXPECT_LT(std::fabs(z), kMaxZ) << pop[i].label << ": bias " << st.mean_error << ", predicted " << predicted;
    if (i + 1 == pop.size()) neighbour_bias = predicted, neighbour_sd = std::sqrt(st.variance);
  }
  EXPECT_GT(std::fabs(neighbour_bias), 5 * neighbour_sd);
  pooled /= static_cast<double>(pop.size());
  pooled_closed /= static_cast<double>(pop.size());
  EXPECT_NEAR(pooled, 1.0, 0.10);
  std::printf("[%s] pooled variance/exact %.3f, variance/closed form %.3f (%.1f s)\n", m.name, pooled,
              pooled_closed, Seconds(start));
}

// ===========================================================================
// 2 and 3 for hashtogram at t = 16, m = 256, ε = 1 (fixed hashes), T = 8000.
//
// Bias. The page's formula is the bias of the mean over rows; the estimate is their
// median. Row j's estimate is f + b_j + noise, the noise about normal with sd σ_j ≈
// c·sqrt(t·n) = 554 (HashtogramRows), so E[median] - f is that of the median of
// normals N(b_j, σ_j²): MedianModel. (The rows' noises share a common mode, below,
// which moves the median by itself and so adds no bias.) To first order in b/σ each
// row moves the median by b_j/t (each row is the median, or one of the two middle
// values, equally often), so the mean-over-rows formula applies while every |b_j| is
// small next to σ: the median moves by 0.965·b/t for a single row shifted by b = σ/2,
// by 0.87·b/t at b = σ, and saturates at 0.083·σ (t = 16) beyond a few σ, where the
// formula says b/t. Checked per item, |z| < 4 against the model (Monte Carlo error
// about 1.9 reports); and, for the items whose rows all have |b_j| <= σ/2, against
// the page's formula too. Next to the heavy item (2048 = 3.7σ in a colliding row) the
// median's bias is a third of the formula's: the median's robustness.
//
// Variance. Every report lands in one row, so the rows' noises have covariance
// -Σ_y f(y)·μ_j(y)·μ_i(y): -f(x) for every pair, from the item's own holders. For
// normal rows with covariance A·I - f·11ᵀ the median's variance is exactly that of
// independent N(0, A) rows minus f (write the rows as independent ones minus γ·Σ_j
// rows, 2γA - γ²tA = f; the sample mean is independent of median - mean (Basu), so
// Cov(median, Σ_j rows) = A). The median of t independent normal rows of variance
// A = t·n·c² has variance eff(t)·n·c², eff(∞) = π/2 and eff(16) = 1.448 (the mean of
// the two middle values of 16 normals; 0.92 of π/2, as the page's 0.92). So
//   Var ≈ eff(t)·n·c² - f(x)
// and the page's closed form (π/2)·n·c² is its large-t limit without the -f(x):
// slightly conservative by design (0.92, hence the asymmetric bound [0.85, 1.10] and
// not 10% around 1), and more so for a heavy item: observed/closed form 0.83-0.85 at
// f = n/2 and 0.78 at f = n (several seeds), outside [0.85, 1.10]. Checked: every
// item against (π/2)·n·c² - f(x) in [0.85, 1.10]; the closed form itself in [0.85,
// 1.10] wherever the f(x) it omits is under 3% of it (f(x) <= 0.22·n: every item but
// the heavy one, whose ratio is printed and must stay <= 1.10, on the safe side).
// Per item sampling error sqrt(2/T) = 1.6%, so 0.85 is 4.4 of them below 0.92 and 3.8
// below the heavy item's 0.91.

TEST(SketchStat, HashtogramFixedHashesMedianBiasAndVariance) {
  const auto start = std::chrono::steady_clock::now();
  const Mech& m = kHashtogram;
  const int trials = 8000;
  Population pop = HashtogramPopulation();
  const int64_t t = m.hashes;
  const RowHashes heavy = HashtogramHashes("heavy", t, m.width), medium = HashtogramHashes("medium", t, m.width);
  // collisions of x with an item's hashes: {rows, rows where the signs agree}
  auto collide = [&](const std::string& x, const RowHashes& other) {
    const RowHashes h = HashtogramHashes(x, t, m.width);
    int rows = 0, agree = 0;
    for (int64_t j = 0; j < t; ++j)
      if (h.h[j] == other.h[j]) ++rows, agree += h.g[j] == other.g[j];
    return std::make_pair(rows, agree);
  };
  const auto none = std::make_pair(0, 0);
  // neighbours: of the heavy item in exactly one row, in exactly two rows with the same
  // sign product; of the medium item in exactly one row (and not of the heavy one)
  pop.push_back({FirstNeighbour([&](const std::string& x) { return collide(x, heavy).first == 1; }), 0});
  pop.push_back({FirstNeighbour([&](const std::string& x) {
                   auto c = collide(x, heavy);
                   return c.first == 2 && (c.second == 0 || c.second == 2);
                 }),
                 0});
  pop.push_back({FirstNeighbour([&](const std::string& x) {
                   return collide(x, medium).first == 1 && collide(x, heavy) == none;
                 }),
                 0});
  const double n = static_cast<double>(Total(pop)), closed = HashtogramVariance(m, n);
  const Trials r = RunTrials(m, Holders(pop), FixedLabels(pop), trials, 41);
  const MedianModel model(t, 20000, 42);
  std::printf("[%s] fixed hashes, %d trials, n = %.0f, t = %lld, m = %lld, eps = %g; closed-form variance %.0f\n",
              m.name, trials, n, static_cast<long long>(t), static_cast<long long>(m.width), m.epsilon, closed);
  std::printf("  %-13s %5s %4s %8s %8s %6s %9s %6s %7s %7s %7s\n", "item", "f", "hit", "bias", "model", "z",
              "mean-rows", "max|b|", "/closed", "/(cf-f)", "model");
  double pooled = 0, max_z = 0;
  int linear_items = 0;
  size_t closed_checked = 0;
  for (size_t i = 0; i < pop.size(); ++i) {
    const Item& it = pop[i];
    const ItemStats st = Stats(r, i, it.holders);
    const Rows rows = HashtogramRows(m, pop, it.label);
    // the model: independent rows of variance A = σ_j² + f(x) (the common mode -f(x)
    // removed), so its variance less f(x) is the estimate's, its mean the bias
    Rows independent = rows;
    for (double& sd : independent.sd) sd = std::sqrt(sd * sd + it.holders);
    const ModelResult mr = model(independent);
    const double model_variance = mr.variance - it.holders;
    const double mc = std::sqrt(st.variance / trials);
    const double z = (st.mean_error - mr.bias) / std::sqrt(mc * mc + mr.bias_se * mr.bias_se);
    const double corrected = closed - it.holders;  // (π/2)·n·c² - f(x)
    const double ratio = st.variance / closed, ratio_corrected = st.variance / corrected;
    pooled += ratio_corrected;
    max_z = std::max(max_z, std::fabs(z));
    std::printf("  %-13s %5d %4d %+8.2f %+8.2f %+6.2f %+9.2f %6.2f %7.3f %7.3f %7.3f\n", it.label.c_str(),
                it.holders, collide(it.label, heavy).first, st.mean_error, mr.bias, z, rows.Mean(),
                rows.MaxAbs() / rows.MinSd(), ratio, ratio_corrected, model_variance / corrected);
    SCOPED_TRACE(::testing::Message() << it.label << ": bias " << st.mean_error << ", model " << mr.bias
                                      << ", mean over rows " << rows.Mean() << "; variance/closed form " << ratio
                                      << ", /(closed form - f) " << ratio_corrected);
    EXPECT_LT(std::fabs(z), kMaxZ);
    if (rows.MaxAbs() <= rows.MinSd() / 2) {  // where the page's formula applies
      ++linear_items;
      EXPECT_LT(std::fabs((st.mean_error - rows.Mean()) / mc), kMaxZ);
    }
    EXPECT_GE(ratio_corrected, 0.85);
    EXPECT_LE(ratio_corrected, 1.10);
    // the library reports the corrected form, f̂ clamped for f
    EXPECT_NEAR(st.mean_se2 / corrected, 1.0, 0.05);
    EXPECT_LE(ratio, 1.10);
    if (it.holders <= 0.03 * closed) {
      ++closed_checked;
      EXPECT_GE(ratio, 0.85);
    }
  }
  pooled /= static_cast<double>(pop.size());
  std::printf("[%s] max |z| %.2f; pooled variance/(closed form - f) %.3f over %zu items; closed form checked on %zu; "
              "%d items in the linear regime (%.1f s)\n",
              m.name, max_z, pooled, pop.size(), closed_checked, linear_items, Seconds(start));
  EXPECT_GE(pooled, 0.85);
  EXPECT_LE(pooled, 1.10);
  EXPECT_EQ(closed_checked, pop.size() - 1);  // all but the heavy item
  EXPECT_GE(linear_items, 5);
  // the neighbours: the medium's is in the linear regime, the heavy's are not, and the
  // median's bias there is well under the mean-over-rows formula's (model and
  // observation agree, checked above)
  const Rows medium_nb = HashtogramRows(m, pop, pop.back().label);
  EXPECT_LE(medium_nb.MaxAbs(), medium_nb.MinSd() / 2);
  EXPECT_GT(std::fabs(medium_nb.Mean()), 5 * std::sqrt(closed / trials));
  for (size_t i = pop.size() - 3; i < pop.size() - 1; ++i) {
    const Rows nb = HashtogramRows(m, pop, pop[i].label);
    EXPECT_GT(nb.MaxAbs(), 3 * nb.MinSd());
    EXPECT_LT(std::fabs(model(nb).bias), 0.5 * std::fabs(nb.Mean()));
  }
}

// ===========================================================================
// 4. Coverage of the 95% intervals f̂ ± 1.96·std_error, pooled over items and trials,
// in [93.5%, 96.5%], with fresh labels every trial.
//
// The standard error leaves out the collision bias (the page's #hash-collisions), so the
// population spreads its reports thinly: its RMS collision bias δ (in standard
// errors, over random hashes: cms/hcms sqrt(Σ_{y≠x} f(y)²/(k(m-1))), hashtogram
// sqrt(Σ_{y≠x} f(y)²/(m·t))) costs about 1.96·φ(1.96)·δ² = 0.11·δ² of coverage,
// printed as "collision loss" (under 0.1% here). cms and hcms: 1900 reports over 950
// items of 2, 45 of them queried (40 held, 5 not) in each of 400 trials; hashtogram:
// 4096 reports over 64 items of 64, 56 queried (48 held, 8 not) in each of 600
// trials. Sampling error of a pooled coverage: 0.16% (0.11% hashtogram). hashtogram's
// closed-form standard error is conservative (variance ratio 0.92 above), so its
// coverage is P(|Z| < 1.96/sqrt(0.92)) = 95.9%, inside the band.

void CheckCoverage(const Mech& m, int items, int holders, int held_queried, int absent_queried, int trials,
                   uint64_t seed) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<int> h(static_cast<size_t>(items), holders);
  h.insert(h.end(), static_cast<size_t>(absent_queried), 0);
  const Labels fresh = FreshLabels(h.size(), seed);
  // RunTrials estimates every item; keep the queried ones
  const Trials all = RunTrials(m, h, fresh, trials, seed);
  const double n = static_cast<double>(items) * holders;
  int64_t covered = 0, intervals = 0;
  for (int t = 0; t < trials; ++t)
    for (size_t i = 0; i < h.size(); ++i) {
      if (static_cast<int>(i) >= held_queried && h[i] != 0) continue;
      const double e = all.est[t * all.items + i], s = all.se[t * all.items + i];
      covered += std::fabs(e - h[i]) <= kZ95 * s;
      ++intervals;
    }
  // expected loss from the collision bias, for a held item
  const double sum_f2 = static_cast<double>(items - 1) * holders * holders;
  const double k = static_cast<double>(m.hashes), md = static_cast<double>(m.width);
  const double rms2 = m.id == SketchMechanism::Hashtogram ? sum_f2 / (md * k) : sum_f2 / (k * (md - 1));
  const double delta2 = rms2 / ClosedForm(m, n, holders);
  const double phi = std::exp(-kZ95 * kZ95 / 2) / std::sqrt(2 * M_PI);
  const double coverage = static_cast<double>(covered) / static_cast<double>(intervals);
  std::printf("[%s] 95%% coverage %.2f%% over %lld intervals (%d trials; n = %.0f; RMS collision bias %.3f SE, "
              "collision loss %.2f%%) (%.1f s)\n",
              m.name, 100 * coverage, static_cast<long long>(intervals), trials, n, std::sqrt(delta2),
              100 * kZ95 * phi * delta2, Seconds(start));
  EXPECT_GE(coverage, 0.935) << m.name;
  EXPECT_LE(coverage, 0.965) << m.name;
}

TEST(SketchStat, CmsCoverage) { CheckCoverage(kCms, 950, 2, 40, 5, 400, 51); }
TEST(SketchStat, HcmsCoverage) { CheckCoverage(kHcms, 950, 2, 40, 5, 400, 52); }
TEST(SketchStat, HashtogramCoverage) { CheckCoverage(kHashtogram, 64, 64, 48, 8, 600, 53); }

}  // namespace
