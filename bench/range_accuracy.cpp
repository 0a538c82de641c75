// Accuracy of the range mechanisms on stated workloads (issue 31), no server: seeded
// populations encoded with the core's device encoder, decoded with the core, over several
// runs (bench/RESULTS.md records the output and this command).
//
//   ldp_range_accuracy [RUNS] [MECHANISM ...]     (default 5 runs; every mechanism)
//
// A mechanism is written as the protocol's text form names it with its own fields, e.g.
// "haar" or "hh:branching=4". Workloads, each at ε = 1 and n = 10⁶ reports a run:
//   ranges    D = 2^16, a lognormal latency (ln v ~ N(ln 200, 0.8²), v in ms), 1,000 ranges
//             [lo, hi] with lo, hi uniform (sorted) per run: the MSE of the shares against
//             the truth, beside the mean of the ranges' variances (the closed form, with the
//             true level sizes and plug-in coefficients as the decoder computes it), and the
//             95% intervals' coverage;
//   latency   the same population: p50, p90, p99 (q̂ = min{x : F̂(x) >= φ}): rank error
//             |F(q̂) − φ| and value error |q̂ − q| in ms (means over runs), and how often the
//             pointwise 95% interval holds the true quantile;
//   gaussian  D = 2^10, N(512, 128²) (PriPL-Tree's Fig. 6(a) setting: d = 1024, ranges of half
//             the domain), 1,000 ranges [s, s + 511], s uniform in [0, 512]: MSE;
//   band      D = 2^12, n = 10⁵, 5 × RUNS runs of the latencies in 4 ms buckets: 99 quantiles
//             each, pointwise and simultaneous (ldp.quantiles' band) coverage.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/common/random.hpp"
#include "core/common/stats.hpp"
#include "core/range/range_summary.hpp"

namespace {

using ldp::RangeProtocol;

struct Buffer {
  std::vector<uint64_t> words;
  explicit Buffer(size_t bytes) : words((bytes + 7) / 8, 0) {}
  template <class T>
  T* as() {
    return reinterpret_cast<T*>(words.data());
  }
};

RangeProtocol protocol_of(const std::string& mechanism, int bits) {
  const size_t colon = mechanism.find(':');
  const std::string name = mechanism.substr(0, colon);
  std::string text = "v1:" + name + "{epsilon=1,domain_bits=" + std::to_string(bits);
  if (colon != std::string::npos) text += "," + mechanism.substr(colon + 1);
  text += ",mapping=floor}";
  return ldp::range_protocol_from_text(text.c_str());
}

// One run: n buckets drawn by draw(rng), encoded and decoded; the true counts kept.
struct Run {
  std::vector<int64_t> truth;
  Buffer prepared{0};
  const ldp::RangePrepared* d = nullptr;

  template <class Draw>
  Run(const RangeProtocol& p, int64_t n, uint64_t seed, Draw draw) : truth(static_cast<size_t>(p.domain()), 0) {
    Buffer summary(ldp::range_summary_size(p));
    auto* s = summary.as<ldp::RangeSummary>();
    ldp::range_summary_init(s, p);
    ldp::SeededRandom pop(seed), enc(seed ^ 0x9e3779b97f4a7c15ULL);
    for (int64_t i = 0; i < n; ++i) {
      const int64_t b = draw(pop);
      ++truth[static_cast<size_t>(b)];
      const ldp::RangeReport r = ldp::range_encode(p, static_cast<double>(b), enc);
      ldp::range_add_unchecked(s, r.level, r.row, r.plus_one);
    }
    prepared = Buffer(ldp::range_prepared_size(p));
    auto* out = prepared.as<ldp::RangePrepared>();
    ldp::range_prepare(*s, out, ldp::range_prepared_size(p));
    d = out;
  }
  double true_share(int64_t lo, int64_t hi, int64_t n) const {
    int64_t c = 0;
    for (int64_t b = lo; b <= hi; ++b) c += truth[static_cast<size_t>(b)];
    return static_cast<double>(c) / static_cast<double>(n);
  }
};

int64_t lognormal_bucket(ldp::RandomSource& rng, int64_t domain) {
  const double v = std::exp(std::log(200.0) + 0.8 * rng.normal());
  return std::min<int64_t>(domain - 1, static_cast<int64_t>(v));
}

int64_t gaussian_bucket(ldp::RandomSource& rng, int64_t domain) {
  const double v = 512.0 + 128.0 * rng.normal();
  return std::clamp<int64_t>(static_cast<int64_t>(std::floor(v)), 0, domain - 1);
}

struct RangeStats {
  double sq = 0, var = 0, covered = 0, count = 0;
  void add(double est, double variance, double truth, double z) {
    sq += (est - truth) * (est - truth);
    var += variance;
    covered += std::fabs(est - truth) <= z * std::sqrt(variance) ? 1 : 0;
    count += 1;
  }
};

void ranges(const std::string& mech, int runs, int64_t n) {
  const RangeProtocol p = protocol_of(mech, 16);
  const double z = ldp::normal_critical_value(0.95);
  RangeStats st;
  for (int run = 0; run < runs; ++run) {
    Run r(p, n, 1000 + run, [&](ldp::RandomSource& rng) { return lognormal_bucket(rng, p.domain()); });
    // prefix sums of the truth for the shares
    std::vector<int64_t> cum(r.truth.size() + 1, 0);
    for (size_t b = 0; b < r.truth.size(); ++b) cum[b + 1] = cum[b] + r.truth[b];
    ldp::SeededRandom pick(77 + run);
    for (int q = 0; q < 1000; ++q) {
      int64_t lo = static_cast<int64_t>(pick.below(p.domain())), hi = static_cast<int64_t>(pick.below(p.domain()));
      if (lo > hi) std::swap(lo, hi);
      const ldp::LinearAnswer a = ldp::range_answer(*r.d, lo, hi);
      st.add(a.estimate, a.variance, static_cast<double>(cum[hi + 1] - cum[lo]) / n, z);
    }
  }
  std::printf("| ranges | %s | 2^16 | %d × 1000 | %.3g | %.3g | %.2f | %.1f%% |\n", mech.c_str(), runs,
              st.sq / st.count, st.var / st.count, (st.sq / st.count) / (st.var / st.count), 100 * st.covered / st.count);
}

void gaussian(const std::string& mech, int runs, int64_t n) {
  const RangeProtocol p = protocol_of(mech, 10);
  const double z = ldp::normal_critical_value(0.95);
  RangeStats st;
  for (int run = 0; run < runs; ++run) {
    Run r(p, n, 2000 + run, [&](ldp::RandomSource& rng) { return gaussian_bucket(rng, p.domain()); });
    ldp::SeededRandom pick(99 + run);
    for (int q = 0; q < 1000; ++q) {
      const int64_t lo = static_cast<int64_t>(pick.below(513)), hi = lo + 511;
      const ldp::LinearAnswer a = ldp::range_answer(*r.d, lo, hi);
      st.add(a.estimate, a.variance, r.true_share(lo, hi, n), z);
    }
  }
  std::printf("| gaussian (half-domain) | %s | 2^10 | %d × 1000 | %.3g | %.3g | %.2f | %.1f%% |\n", mech.c_str(), runs,
              st.sq / st.count, st.var / st.count, (st.sq / st.count) / (st.var / st.count),
              100 * st.covered / st.count);
}

void latency(const std::string& mech, int runs, int64_t n) {
  const RangeProtocol p = protocol_of(mech, 16);
  const double z = ldp::normal_critical_value(0.95);
  const double phis[] = {0.5, 0.9, 0.99};
  for (double phi : phis) {
    double rank = 0, value = 0, covered = 0, width = 0, truth_sum = 0;
    for (int run = 0; run < runs; ++run) {
      Run r(p, n, 3000 + run, [&](ldp::RandomSource& rng) { return lognormal_bucket(rng, p.domain()); });
      ldp::range_prepare_quantiles(const_cast<ldp::RangePrepared*>(r.d));
      std::vector<double> F(r.truth.size());
      int64_t c = 0;
      for (size_t b = 0; b < r.truth.size(); ++b) F[b] = static_cast<double>(c += r.truth[b]) / n;
      const int64_t q = static_cast<int64_t>(std::lower_bound(F.begin(), F.end(), phi) - F.begin());
      const ldp::QuantileAnswer a = ldp::range_quantile(*r.d, phi, z);
      rank += std::fabs(F[static_cast<size_t>(a.bucket)] - phi);
      value += std::fabs(static_cast<double>(a.bucket - q));
      covered += (a.lower <= q && q <= a.upper) ? 1 : 0;
      width += static_cast<double>(a.upper - a.lower + 1);
      truth_sum += static_cast<double>(q);
    }
    std::printf("| latency p%g | %s | %.0f ms | %.4f | %.1f ms | %d/%d | %.0f ms |\n", phi * 100, mech.c_str(),
                truth_sum / runs, rank / runs, value / runs, static_cast<int>(covered), runs, width / runs);
  }
}

// 99 quantiles (φ = 0.01 .. 0.99) per run: how often the pointwise 95% interval holds the
// true quantile (over runs × 99 checks), and how often the simultaneous band (Bonferroni,
// z = Φ⁻¹(1 − 0.05/198), what ldp.quantiles uses) holds all 99 at once (over runs).
void band(const std::string& mech, int runs, int64_t n) {
  const RangeProtocol p = protocol_of(mech, 12);
  const double z1 = ldp::normal_critical_value(0.95), zb = ldp::normal_upper_quantile(0.05 / 198);
  int64_t pointwise = 0, checks = 0, all_held = 0;
  for (int run = 0; run < runs; ++run) {
    Run r(p, n, 4000 + run, [&](ldp::RandomSource& rng) {
      return std::min<int64_t>(p.domain() - 1, static_cast<int64_t>(std::exp(std::log(200.0) + 0.8 * rng.normal()) / 4));
    });
    ldp::range_prepare_quantiles(const_cast<ldp::RangePrepared*>(r.d));
    std::vector<double> F(r.truth.size());
    int64_t c = 0;
    for (size_t b = 0; b < r.truth.size(); ++b) F[b] = static_cast<double>(c += r.truth[b]) / n;
    bool every = true;
    for (int i = 1; i <= 99; ++i) {
      const double phi = i / 100.0;
      const int64_t q = static_cast<int64_t>(std::lower_bound(F.begin(), F.end(), phi) - F.begin());
      const ldp::QuantileAnswer a = ldp::range_quantile(*r.d, phi, z1), b = ldp::range_quantile(*r.d, phi, zb);
      pointwise += (a.lower <= q && q <= a.upper) ? 1 : 0;
      ++checks;
      every = every && b.lower <= q && q <= b.upper;
    }
    all_held += every ? 1 : 0;
  }
  std::printf("| %s | 2^12 | %lld | %d | %.1f%% of %lld | %.1f%% of %d runs |\n", mech.c_str(), static_cast<long long>(n),
              runs, 100.0 * pointwise / checks, static_cast<long long>(checks), 100.0 * all_held / runs, runs);
}

}  // namespace

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::atoi(argv[1]) : 5;
  std::vector<std::string> mechs;
  for (int i = 2; i < argc; ++i) mechs.emplace_back(argv[i]);
  if (mechs.empty()) mechs = {"haar"};
  const int64_t n = 1000000;
  std::printf("ldp_range_accuracy %d runs, n = %lld reports a run, epsilon = 1\n\n", runs, static_cast<long long>(n));
  std::printf("| workload | mechanism | D | ranges | MSE | closed form (mean variance) | MSE / closed form | 95%% coverage |\n");
  std::printf("|---|---|---|---|---|---|---|---|\n");
  for (const std::string& m : mechs) {
    ranges(m, runs, n);
    gaussian(m, runs, n);
  }
  std::printf("\n| quantile | mechanism | true (mean) | rank error | value error | pointwise interval held the truth | interval width |\n");
  std::printf("|---|---|---|---|---|---|---|\n");
  for (const std::string& m : mechs) latency(m, runs, n);
  std::printf("\n| quantiles band | D | n | runs | pointwise 95%% intervals holding the true quantile | 95%% band holding all 99 |\n");
  std::printf("|---|---|---|---|---|---|\n");
  for (const std::string& m : mechs) band(m, 5 * runs, 100000);
  return 0;
}
